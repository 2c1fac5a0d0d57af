"""``paohuzi train --export``: writes where it is told or into the current directory, never
into the installed package (the shipped model stays as it is). numpy only."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from paohuzi.bots.neural import DEFAULT_MODEL, MODEL_DIR
from paohuzi.cli.main import main


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def snapshot(tmp_path: Path) -> Path:
    """A snapshot as a run writes it: the shipped weights, a config of its own (so that
    writing it over the shipped model would show)."""
    snap = tmp_path / "run" / "h000000001.npz"
    snap.parent.mkdir()
    shutil.copyfile(DEFAULT_MODEL, snap)
    cfg = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    snap.with_suffix(".json").write_text(json.dumps({**cfg, "note": "a test snapshot"}))
    return snap


def test_export_defaults_to_the_current_directory(snapshot, tmp_path, monkeypatch, capsys):
    shipped = _digest(DEFAULT_MODEL), _digest(DEFAULT_MODEL.with_suffix(".json"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["train", "--export", str(snapshot)]) == 0
    assert _digest(work / "neural.npz") == _digest(snapshot)
    assert (work / "neural.json").read_text() == snapshot.with_suffix(".json").read_text()
    assert "neural.npz" in capsys.readouterr().out
    assert (_digest(DEFAULT_MODEL), _digest(DEFAULT_MODEL.with_suffix(".json"))) == shipped


def test_export_to_out(snapshot, tmp_path):
    out = tmp_path / "models" / "mine.npz"
    assert main(["train", "--export", str(snapshot), "--out", str(out)]) == 0
    assert _digest(out) == _digest(snapshot) and out.with_suffix(".json").exists()


@pytest.mark.parametrize(
    "target", [DEFAULT_MODEL, MODEL_DIR / "other.npz", MODEL_DIR.parent / "x.npz"]
)
def test_export_never_writes_into_the_package(snapshot, target, capsys):
    before = sorted(p.name for p in MODEL_DIR.parent.rglob("*.np*"))
    shipped = _digest(DEFAULT_MODEL)
    assert main(["train", "--export", str(snapshot), "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert "inside the installed package" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in MODEL_DIR.parent.rglob("*.np*")) == before
    assert _digest(DEFAULT_MODEL) == shipped
