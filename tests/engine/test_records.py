"""records.py: the §4 game record, replay and check."""

from __future__ import annotations

import copy
import json

import pytest

from paohuzi.core.records import ReplayError, check, record, replay
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import GameState

from .hands import A
from .helpers import act, game, play_out


def _rec(name: str = "hunan", seed: int = 1) -> dict:
    return json.loads(json.dumps(record(play_out(GameState(PRESETS[name], seed), seed))))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_records_replay_and_check(name: str) -> None:
    for seed in range(10):
        rec = _rec(name, seed)
        assert rec["schema"] == 1 and len(rec["deck"]) == 80 + PRESETS[name].wang  # R39
        assert rec["rules"] == PRESETS[name].to_dict()
        s = replay(rec)
        assert [e.to_dict() for e in s.events] == rec["events"]
        assert s.returns() == rec["result"]["scores"]
        assert check(rec) == []


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_records_replay_byte_for_byte(name: str) -> None:
    """A record read back is the same JSON, and the hand it replays records to the very
    same bytes again (HandRecord is the one reader and writer, INTERFACES §4)."""
    from paohuzi.core.records import HandRecord

    for seed in range(6):
        text = json.dumps(_rec(name, seed), ensure_ascii=False, sort_keys=True)
        hr = HandRecord.from_dict(json.loads(text))
        assert json.dumps(hr.to_dict(), ensure_ascii=False, sort_keys=True) == text
        again = HandRecord.of(hr.replay()).to_dict()
        assert json.dumps(again, ensure_ascii=False, sort_keys=True) == text
        frames = list(hr.frames(hr.dealer))
        assert len(frames) == len(hr.actions) + 1
        assert [e for f in frames for e in f.events] == list(frames[-1].view.log)


def test_record_of_a_win_has_the_position() -> None:
    s = game({0: "捌", 1: A}, avoid="捌")
    act(s, 0, "discard:d8")
    act(s, 1, "hu")
    rec = json.loads(json.dumps(record(s)))
    assert rec["actions"] == [
        {"seat": 0, "type": "discard", "card": "d8"},
        {"seat": 1, "type": "hu", "card": "d8"},
    ]
    pos = rec["result"]["position"]
    assert pos["win"] == "d8" and pos["dihu"] is True and "hand" in pos and "table" in pos
    assert check(rec) == []


def test_replay_reports_first_mismatch() -> None:
    rec = _rec("hunan", 4)
    assert len(rec["actions"]) > 3
    bad = copy.deepcopy(rec)
    i = next(i for i, a in enumerate(bad["actions"]) if a["type"] == "discard" and i > 0)
    bad["actions"][i]["seat"] = (bad["actions"][i]["seat"] + 1) % 3  # not that seat's turn
    with pytest.raises(ReplayError) as e:
        replay(bad)
    assert e.value.step == i
    bad = copy.deepcopy(rec)
    bad["result"]["scores"] = [9, 9, 9]
    assert any("scores" in p for p in check(bad))
    bad = copy.deepcopy(rec)
    bad["events"][5]["card"] = "x1" if bad["events"][5].get("card") != "x1" else "x2"
    assert check(bad)
    # a mismatch is said as the record writes it (a player read <EventType.DISCARD: …>)
    assert not any("<" in p for p in check(bad)), check(bad)
    bad = copy.deepcopy(rec)
    bad["deck"][0], bad["deck"][79] = bad["deck"][79], bad["deck"][0]
    assert check(bad)


def test_check_flags_a_deck_that_is_not_the_seeds() -> None:
    rec = _rec("hunan", 2)
    rec["seed"] = 3
    assert "deck is not the one the seed shuffles" in check(rec)
