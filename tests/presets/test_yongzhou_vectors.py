"""Worked vectors of the preset ``yongzhou`` (永州扯胡子, R39–R42, R46).

``tests/data/yongzhou-vectors.json`` holds, each with its derivation written out
by hand (also in docs/presets/yongzhou.md, "Worked vectors"):

- ``score`` vectors (the default kind): a ``score --batch`` position and the
  settlement it must get, and optionally (``pay``) the payments of that 底 —
  封顶 300/600, the 坐醒 seat's Π番 × 醒数;
- ``huangzhuang`` vectors: what a 荒庄 costs, with the 亡牌 option (R32);
- ``play`` vectors: a stacked deal played through the engine — a 王 holder is
  offered no normal 胡 on another seat's card, only on his own (R40).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.helpers import act, deck, ids, pass_claims
from paohuzi.cli.main import main
from paohuzi.core.cards import CARDS, parse_tiles
from paohuzi.core.position import Position
from paohuzi.core.rules import Rules
from paohuzi.core.scoring import huangzhuang_payments, payments, settle, xing_seat_pay
from paohuzi.core.state import GameState

from .test_second_wave_vectors import rules_of

DATA = Path(__file__).resolve().parents[1] / "data" / "yongzhou-vectors.json"
VECTORS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))
POSITION_KEYS = ("hand", "table", "win", "self_drawn", "xing", "pattern")
SCORED = [v for v in VECTORS if v.get("kind", "score") == "score"]
OUTCOME = ("huxi", "deng", "xing", "fan", "di")


def _got(s: Any) -> dict[str, Any]:
    return {k: getattr(s, k) for k in OUTCOME} | {"mingtang": [m.name for m in s.mingtang]}


def test_the_issue_asks_for_ten_vectors_or_more() -> None:
    names = {v["name"] for v in VECTORS}
    assert len(names) == len(VECTORS) >= 10
    assert all(v.get("derivation") for v in VECTORS)  # each is worked by hand


@pytest.mark.parametrize("v", SCORED, ids=[v["name"] for v in SCORED])
def test_score_vector(v: dict[str, Any]) -> None:
    rules = rules_of(v)
    pos = Position.from_dict({k: v[k] for k in POSITION_KEYS if k in v}, rules.hand_size)
    s = settle(pos, rules)
    assert s.win, s.error
    assert _got(s) == v["expect"]
    pay = v.get("pay")
    if pay is not None:
        prules = Rules.from_dict(pay["rules"]) if "rules" in pay else rules
        xs = pay.get("xing_seat")
        got = payments(
            s.di, pay["winner"], pay["dealt_in"], prules, None, False, xs,
            xing_seat_pay(s.fan, s.xing, prules) if xs is not None else 0,
        )  # fmt: skip
        assert got == pay["scores"]


@pytest.mark.parametrize(
    "v", [v for v in VECTORS if v.get("kind") == "huangzhuang"], ids=lambda v: v["name"]
)
def test_huangzhuang_vector(v: dict[str, Any]) -> None:
    """R32 荒庄 and the 亡牌 option: what each seat pays for the 王 it holds."""
    got = huangzhuang_payments(v["dealer"], v["dealt_in"], rules_of(v), v["wang"])
    assert got == v["scores"]


def _wang_deck(v: dict[str, Any], rules: Rules) -> list[str]:
    """``engine.helpers.deck`` with 王: each 王 of a given hand takes the place of a
    filler card (moved to the wall's bottom), the deck's other 王 lie at the bottom."""
    hands, wang = {}, {}
    for s, text in v["hands"].items():
        cards, n = parse_tiles(text)
        hands[int(s)] = "".join(c.zh for c in cards)
        wang[int(s)] = n
    stacked = deck(hands, v["liangzhang"], v["wall"], rules=rules, avoid=v.get("avoid", ""))
    d = [c.code for c in stacked]
    bottom = []
    for s, n in wang.items():  # the dealer is seat 0: seat s's cards start at 20 s
        for i in range(n):
            k = 20 * s + 19 - i  # the filler comes after the given cards
            bottom.append(d[k])
            d[k] = "w"
    return d + bottom + ["w"] * (rules.wang - sum(wang.values()))


@pytest.mark.parametrize(
    "v", [v for v in VECTORS if v.get("kind") == "play"], ids=lambda v: v["name"]
)
def test_play_vector(v: dict[str, Any]) -> None:
    """R40 in play: the 王 holder's offers on another seat's card and on his own."""
    rules = rules_of(v)
    st = GameState(rules, deck=_wang_deck(v, rules), dealer=0)
    e = v["expect"]
    checks = {e["not_offered"]["after"]: (e["not_offered"], False)}
    checks[e["offered"]["after"]] = (e["offered"], True)
    for n, step in enumerate(v["script"], 1):
        if step == "pass*":
            pass_claims(st)
        else:
            seat, aid = step.split(":", 1)
            act(st, int(seat), aid)
        if n in checks:
            c, want = checks[n]
            w = st._window  # the open card the seat decides on (its owner, its kind)
            assert w is not None and c["seat"] in st.to_act(), n
            assert (w.owner, CARDS[w.card].zh) == (c["owner"], c["card"]), n
            assert (c["action"] in ids(st, c["seat"])) is want, (n, ids(st, c["seat"]))
    seat = e["offered"]["seat"]
    act(st, seat, e["offered"]["action"])
    assert st.result is not None and st.result.winner == seat
    assert _got(st.result.settlement) == e["settlement"]
    assert list(st.result.scores) == e["scores"]


def test_the_calculator_scores_them_in_batch(tmp_path: Path, capsys) -> None:
    """INTERFACES §1 --batch with the preset: the vectors scored under plain ``yongzhou``."""
    mine = [v for v in SCORED if v["rules"] == "yongzhou"]
    f = tmp_path / "in.jsonl"
    f.write_text(
        "\n".join(json.dumps({k: v[k] for k in POSITION_KEYS if k in v}) for v in mine) + "\n",
        encoding="utf-8",
    )
    assert main(["score", "--batch", str(f), "--rules", "yongzhou"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [tuple(o[k] for k in OUTCOME) for o in out] == [
        tuple(v["expect"][k] for k in OUTCOME) for v in mine
    ]
    assert all(o["unit"] == "囤" for o in out)
