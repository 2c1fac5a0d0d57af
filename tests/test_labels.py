"""标签: every rule term the programs name has its Chinese name in one place (core/labels.py)."""

from __future__ import annotations

from dataclasses import fields

from paohuzi.core.actions import TYPES
from paohuzi.core.labels import ACTION_ZH, DOUBLING_ZH, WIN_FLAGS_ZH, doubling_zh, win_flags_zh
from paohuzi.core.narrate import narrate_event
from paohuzi.core.position import Position
from paohuzi.core.rules import DOUBLING_EVENTS


def test_every_term_has_a_name() -> None:
    assert set(DOUBLING_ZH) == set(DOUBLING_EVENTS)  # R35
    assert set(ACTION_ZH) == set(TYPES)  # R21
    assert {k for k, _ in WIN_FLAGS_ZH} <= {f.name for f in fields(Position)}


def test_names_in_order_and_unknown_ids_as_they_are() -> None:
    assert doubling_zh(["tianhu", "haidi", "new"]) == "天胡 海底胡 new"
    assert win_flags_zh({"last_card": True, "self_drawn": True, "dihu": False}.get) == [
        "自摸",
        "海底",
    ]


def test_the_narrator_uses_them() -> None:
    hu = {"type": "hu", "seat": 1, "card": "x8", "self_drawn": True, "last_card": True}
    assert narrate_event(hu) == "1号 胡 八（自摸、海底）"
    assert narrate_event({"type": "discard", "seat": 0, "card": "d2"}, dealer=0) == "0号(庄) 打 贰"
    assert narrate_event({"type": "wei", "seat": 2, "card": "x3", "source": "draw"}) == (
        "2号 偎 三（摸牌，自动）"
    )
