"""A tiny training run's flat curve says why it is flat (issue 26, item 8)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from paohuzi.train.evaluate import same_as_opponent


def test_zero_width_zero_is_named() -> None:
    assert same_as_opponent(
        {"vs_greedy": "0.0", "vs_greedy_lo": "0.0", "vs_greedy_hi": "0.0"}, "vs_greedy"
    )
    assert not same_as_opponent(
        {"vs_greedy": "0.1", "vs_greedy_lo": "-0.2", "vs_greedy_hi": "0.4"}, "vs_greedy"
    )
    assert not same_as_opponent(
        {"vs_greedy": "0.0", "vs_greedy_lo": "-0.2", "vs_greedy_hi": "0.2"}, "vs_greedy"
    )
    assert not same_as_opponent({"vs_ismcts": ""}, "vs_ismcts")


def test_plot_curve_draws_the_note(tmp_path: Path, monkeypatch) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes

    from paohuzi.train.evaluate import plot_curve

    notes: list[str] = []
    real = Axes.annotate
    monkeypatch.setattr(
        Axes,
        "annotate",
        lambda self, text, *a, **k: notes.append(text) or real(self, text, *a, **k),
    )

    path = tmp_path / "log.csv"
    with path.open("w", newline="") as f:
        w = csv.DictWriter(
            f,
            [
                "cpu_hours",
                "vs_greedy",
                "vs_greedy_lo",
                "vs_greedy_hi",
                "vs_ismcts",
                "vs_ismcts_lo",
                "vs_ismcts_hi",
            ],
        )
        w.writeheader()
        w.writerow(
            {
                "cpu_hours": 0.01,
                "vs_greedy": 0.0,
                "vs_greedy_lo": 0.0,
                "vs_greedy_hi": 0.0,
                "vs_ismcts": "",
            }
        )
    png = tmp_path / "curve.png"
    plot_curve(path, png)
    assert png.stat().st_size > 5000
    assert len(notes) == 1 and "as its opponents" in notes[0]
