"""The server → client messages: the same bytes as before they were models (INTERFACES §5).

Three seeded games (``wire_scenario``: 准备, 托管, 快捷语, hints, a replaced connection,
wins and 荒庄 in three presets, the match summary, 再来一场) are played on a room and
every message it sends is compared with the messages main sent at adec119.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from .wire_scenario import SCENARIOS, Scenario, load_golden, play


def _diff(got: str, want: str) -> str:
    g, w = json.loads(got), json.loads(want)
    if not isinstance(g, dict) or not isinstance(w, dict):
        return f"got {got[:300]}\nwant {want[:300]}"
    keys = [k for k in dict.fromkeys([*w, *g]) if g.get(k, ...) != w.get(k, ...)]
    lines = [
        f"{k}: got {g.get(k, '<absent>')!s:.200} want {w.get(k, '<absent>')!s:.200}" for k in keys
    ]
    if not keys:
        lines.append(
            f"same content, other bytes (key order?):\n got {got[:300]}\nwant {want[:300]}"
        )
    return "\n".join(lines)


@pytest.fixture(scope="module")
def golden() -> dict[str, list[str]]:
    return load_golden()


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_the_wire_is_unchanged(sc: Scenario, golden: dict[str, Any]) -> None:
    got, want = asyncio.run(play(sc)), golden[sc.name]
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        assert g == w, f"{sc.name} message {i} differs:\n{_diff(g, w)}"
    assert len(got) == len(want)
