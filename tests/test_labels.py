"""标签: every rule term the programs name has its Chinese name in one place (core/labels.py)."""

from __future__ import annotations

from dataclasses import fields

from bot_hands import bot_hand
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


def test_every_event_type_is_told_in_words() -> None:
    """``paohuzi replay`` narrates every kind of event the engine makes (the 醒 event
    of R42 once came out as the raw ``xing``), from the events of real hands."""
    from paohuzi.core.variants import parse
    from paohuzi.core.vocab import EventType

    seen: dict[str, str] = {}
    for name in ("hunan", "yongzhou", "guilin", "changde", "luzhou"):
        rules = parse(name)
        for seed in range(25):
            st = bot_hand(rules, seed)
            for e in st.events:
                d = e.to_dict()
                seen.setdefault(d["type"], narrate_event(d, dealer=st.dealer))
    assert {"xing", "hu", "chi", "ti", "liangzhang", "pile"} <= set(seen)
    for t, line in seen.items():
        assert t not in line, (t, line)  # a word, not the event's id
    assert "醒牌" in seen["xing"] and "门子中" in seen["xing"]
    assert set(seen) <= {x.value for x in EventType}
