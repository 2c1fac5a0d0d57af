"""The server → client messages: models, and the same bytes as before they were models.

Seeded games (``wire_scenario``: 准备, 托管, 快捷语, hints, a replaced connection,
wins and 荒庄 in three presets, the match summary, 再来一场) are played on a room and
every message it sends is compared with the messages main sent at adec119
(INTERFACES §5 unchanged; only hints main dropped are added), re-recorded for issue 22
(a settlement's ``unit``, ``fan_combine`` and 名堂 ``effect`` added; the 桂林 and 娄底
games with 醒 and a race are new — nothing else changed, hints aside), and again for issue 24
(`deck_commitment` in states; with storage commits before messages leave, 桂林's one hint at a
moment with nothing to decide is no longer sent), and for issue 23 (a 四王 game added: each
seat's 王 in views and reveals, the card each 王 stood for; the other games unchanged; then two of
its hints, whose 听牌 with 王 had ignored the 王), and for a settlement's ``baopei`` (桂林's two
discard wins: the discarder paid both shares; nothing else changed), and for English
settlements (a 名堂's ``id`` and ``name_en``, ``doubled_en``; then ``turned_by``, the seat whose
turned-up card was won on; nothing else changed), for ``xing_counts`` (what each 醒牌
counted: 桂林's wins; nothing else changed), and when 初级 became the ``novice`` bot
(every game but 常德's, which 中级 plays, new: seeds chosen again to cover what they covered,
:func:`test_the_games_cover_what_they_are_for`); every message a played
match sends validates against its model (:mod:`paohuzi.server.messages`) and is
written as the model writes itself.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paohuzi.server.messages import (
    ActionChoice,
    ErrorMessage,
    HintMessage,
    Out,
    PongMessage,
    SaidMessage,
    SeatState,
    StateMessage,
    encode,
    server_message,
)

from .helpers import Player, create_room
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


def _hint(raw: str) -> bool:
    return raw.startswith('{"type":"hint"')


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_the_wire_is_unchanged(sc: Scenario, golden: dict[str, Any]) -> None:
    """Every message as main sent it, but for hints main dropped: a decision published
    just as the previous hint went out got none (test_hint_task). Main's hints are all
    still sent, in order; the others are main's byte for byte, in main's order."""
    got, want = asyncio.run(play(sc)), golden[sc.name]
    rest, rest_want = [m for m in got if not _hint(m)], [m for m in want if not _hint(m)]
    for i, (g, w) in enumerate(zip(rest, rest_want, strict=False)):
        assert g == w, f"{sc.name} message {i} (hints aside) differs:\n{_diff(g, w)}"
    assert len(rest) == len(rest_want)
    hints = iter(m for m in got if _hint(m))
    assert all(any(h == m for m in hints) for h in want if _hint(h)), "a hint main sent is gone"
    _valid(got)


def _results(frames: list[str]) -> dict[int, dict[str, Any]]:
    """Each hand's settlement (its last ``result`` sent), by hand index."""
    out = {}
    for raw in frames:
        m = json.loads(raw)
        if m["type"] == "state" and m.get("result"):
            out[m["hand_index"]] = m["result"]
    return out


def test_the_games_cover_what_they_are_for(golden: dict[str, list[str]]) -> None:
    """The recorded games (the played ones, by the test above) still show what their
    seeds were chosen for (``wire_scenario.SCENARIOS``): re-seeding keeps these."""
    states = {k: [json.loads(f) for f in v if '"type":"state"' in f] for k, v in golden.items()}
    res = {k: _results(v) for k, v in golden.items()}

    def wins(name: str) -> list[dict[str, Any]]:
        return [r for r in res[name].values() if r["winner"] is not None]

    def huang(name: str) -> bool:
        return any(r["huangzhuang"] for r in res[name].values())

    for name, st in states.items():  # every match plays out: summary, 再来一场
        assert len(res[name]) == st[-1]["hands"]
        assert st[-1]["phase"] == "finished" and "summary" in st[-1] and st[-1]["rematch"]
    hunan = states["hunan"]
    assert any(s["phase"] == "waiting" for s in hunan) and any(s["away"] for s in hunan)
    assert any('"code":"replaced"' in f for f in golden["hunan"])
    first = [s for s in hunan if s["hand_index"] == 1 and not s["away"]]
    assert any(a["type"] == "hu" for s in first for a in s["legal_actions"])
    assert res["hunan"][1]["winner"] == 0  # the human's own 胡, before 托管
    assert huang("hunan") and any(r["winner"] != 0 for r in wins("hunan"))
    assert huang("luzhou") and any(r["discarder"] is not None for r in wins("luzhou"))
    assert len(wins("changde")) == 3
    assert huang("guilin") and any(
        r["discarder"] is not None and r.get("xing") and r.get("baopei") is not None
        for r in wins("guilin")
    )
    loudi = res["loudi"]
    assert len(loudi) == 4 and len(wins("loudi")) >= 2 and huang("loudi")
    race = states["loudi"][-1]["summary"]["race"]
    assert len(race["transfers"]) == 3 and any(race["huang_penalties"])
    wang = {r["winner"] for r in wins("hunan_wang") if r.get("wang")}
    assert 0 in wang and wang - {0}  # a bot's win and the human's, each with 王


KINDS = {
    "state": StateMessage,
    "hint": HintMessage,
    "said": SaidMessage,
    "error": ErrorMessage,
    "pong": PongMessage,
}


def _valid(frames: list[str]) -> set[str]:
    """Every frame validates as its type's model, views included (``ViewWire``), and
    the model writes it back byte for byte, by the server's encoder and by pydantic."""
    seen = set()
    for raw in frames:
        m = server_message.validate_json(raw)
        assert isinstance(m, KINDS[json.loads(raw)["type"]])
        assert encode(m) == raw
        assert m.model_dump_json() == raw
        seen.add(m.type)
    return seen


def test_every_message_of_a_played_match_is_its_model(client: TestClient) -> None:
    r = create_room(client, bots=2, seed=4, hands=2, options={"ready_first": True})
    with client.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        me = Player(ws)
        ws.send_json({"type": "hints", "on": True})
        ws.send_json({"type": "say", "phrase": "hello"})
        ws.send_text("{")  # bad_json
        me.ping()
        me.play(random.Random(3), lambda s: s["phase"] == "finished")  # 准备 … 下一局 …
        me.act("rematch")
        me.until(lambda s: s["rematch"] is not None)
        me.ping()
    assert _valid(me.frames) == set(KINDS)
    finished = [json.loads(f) for f in me.frames if '"phase":"finished"' in f]
    assert finished and all("summary" in m and "result" in m for m in finished)


def test_a_missing_or_unknown_field_is_not_the_model() -> None:
    """The models hold the tests to the shape: a field dropped or added fails."""
    good = ActionChoice.model_construct(id="pass", type="pass", label="过")
    raw = encode(good)
    assert raw == '{"id":"pass","type":"pass","label":"过"}'  # no card, groups, huxi
    assert ActionChoice.model_validate_json(raw) == good
    with pytest.raises(ValueError):
        ActionChoice.model_validate_json('{"id":"pass","type":"pass"}')
    with pytest.raises(ValueError):
        ActionChoice.model_validate_json('{"id":"pass","type":"pass","label":"过","x":1}')
    state = json.loads(load_golden()["luzhou"][0])
    del state["view"]["wall"]  # the view is checked too (ViewWire)
    with pytest.raises(ValueError):
        server_message.validate_python(state)


def _parts(value: Any) -> list[Out]:
    """Every model inside ``value`` (itself included)."""
    if isinstance(value, Out):
        return [value, *(p for v in value.__dict__.values() for p in _parts(v))]
    if isinstance(value, tuple | list):
        return [p for v in value for p in _parts(v)]
    return []


def test_make_makes_what_model_construct_makes() -> None:
    """Out.make (the hot path's constructor) builds the model model_construct builds: the
    same fields in the same order, the same fields set, equal and written alike."""
    classes = set()
    for frames in load_golden().values():
        for raw in frames:
            for m in _parts(server_message.validate_json(raw)):
                cls, given = type(m), dict(m.__dict__)
                given = {k: v for k, v in given.items() if v is not None or k in m.model_fields_set}
                a, b = cls.make(**given), cls.model_construct(**given)
                assert list(a.__dict__.items()) == list(b.__dict__.items())
                assert a.model_fields_set == b.model_fields_set and a == b
                assert a.model_dump_json() == b.model_dump_json()
                classes.add(cls)
    assert len(classes) >= 15  # settlement and summary parts included
    for raw in load_golden()["changde"]:
        m = server_message.validate_json(raw)
        if isinstance(m, StateMessage):  # StateMessage.of: every state sent is made so
            content = {k: v for k, v in m.__dict__.items() if k in SeatState.model_fields}
            state = SeatState.make(**content)
            fast, slow = StateMessage.of(state, m.version, m.server_time), m
            assert list(fast.__dict__.items()) == list(slow.__dict__.items())
            assert fast == slow
            assert encode(fast) == raw
    with pytest.raises(KeyError):
        PongMessage.make()  # a required field left out is a bug, not a model without it
