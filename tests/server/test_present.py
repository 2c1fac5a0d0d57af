"""Presentation as pure functions: the settlement from the engine's values, the timers a
seat may know (R16), and present/ reading nothing of the room but a snapshot."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot_hands import bot_match
from paohuzi.bots import make_bot
from paohuzi.core.labels import DOUBLING_EN, DOUBLING_ZH
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import GameState
from paohuzi.core.views import view
from paohuzi.core.wang import wang_places
from paohuzi.server.messages import Timer
from paohuzi.server.present import state as present
from paohuzi.server.present.choices import described
from paohuzi.server.present.options import mingtang_label
from paohuzi.server.present.settlement import hand_settlement
from paohuzi.server.present.snapshot import RoomSnapshot
from paohuzi.server.room.levels import LEVELS
from paohuzi.server.vocab import RoomPhase
from paohuzi.table import Table

PRESENT = Path(present.__file__).parent


def settlement_via_dicts(state: GameState, scores: list[int], index: int, total: int) -> Any:
    """The settlement as main built it (adec119): the result's record dict read back,
    and a whole view's wire form built for its ``reveal``; since issue 22 also the
    unit, each 名堂's effect, 醒牌/醒数 (R42) and a race's totals (R45); since issue 23
    the card each 王 stood for (R40), a 王 pattern and its 番 line (R41); what each 醒牌
    counted and 双醒 (R42)."""
    rules = state.rules
    effects = {m.id: m.effect.value for m in rules.mingtang}
    res = state.result.to_dict() if state.result is not None else {}
    reveal = view(state, state.dealer).to_dict().get("reveal", {})
    st = res.get("settlement") or {}
    events = [x.to_dict() for x in state.events]
    draws = [e for e in events if e["type"] == "draw"]
    position = res.get("position") or {}
    return {
        "winner": res.get("winner"),
        "huangzhuang": bool(res.get("huangzhuang")),
        "discarder": res.get("discarder"),
        "self_drawn": bool(position.get("self_drawn") or position.get("tianhu")),
        "tianhu": bool(position.get("tianhu")),
        "win_card": position.get("win"),
        "groups": st.get("groups", []),
        "huxi": res.get("huxi", 0),
        "scored_huxi": st.get("scored_huxi", res.get("huxi", 0)),
        "doubled": st.get("doubled", []),
        "doubled_zh": [DOUBLING_ZH.get(d, d) for d in st.get("doubled", [])],
        "doubled_en": [DOUBLING_EN.get(d, d) for d in st.get("doubled", [])],
        "zimo": bool(st.get("zimo")),
        "deng": res.get("deng", 0),
        "fan": res.get("fan", 0),
        "mingtang": [
            {
                "name": m["name"],
                "fan": m["fan"],
                "effect": effects.get(m["id"], "fan"),
                "id": m["id"],
                "name_en": mingtang_label(m["id"], m["name"])["en"],
            }
            for m in (st.get("mingtang") or [])
        ],
        "di": res.get("di", 0),
        "payments": list(res.get("scores", [])),
        "hands": [  # R39: a hand's 王 are revealed with it, after its natural cards
            h + ["w"] * n
            for h, n in zip(
                reveal.get("hands", []),
                reveal.get("wang", [0] * len(reveal.get("hands", []))),
                strict=True,
            )
        ],
        "current_huxi": reveal.get("huxi", []),
        "match_scores": list(scores),
        "hand_index": index,
        "hands_total": total,
        "unit": rules.unit,
        "fan_combine": rules.fan_combine.value,
        **(
            {
                "xing_cards": position.get("xing", []),
                "xing": res.get("xing", 0),
                # what each 醒牌 counted, as its event in the record says (R42)
                "xing_counts": [e["count"] for e in events if e["type"] == "xing"],
                **({"xing_double": True} if rules.xing_double else {}),
            }
            if rules.xing != "none" and res.get("winner") is not None
            else {}
        ),
        **({"wang": st["wang"]} if st.get("wang") else {}),
        **({"pattern": position["pattern"]} if position.get("pattern") else {}),  # R41
        # 黄番: the sheet says why 底 exceeds 等 × 番
        **(
            {"huang_multiplier": st["huang_multiplier"]}
            if st.get("huang_multiplier", 1) > 1
            else {}
        ),
        # 包赔 (R37, R44): the discarder paid every other dealt-in seat's share
        **(
            {"baopei": rules.seated - 1}
            if rules.baopei
            and res.get("discarder") is not None
            and (rules.payment == "discarder" or position.get("dihu"))
            and rules.seated > 2
            else {}
        ),
        # 翻出: a win on a card another seat turned up from the wall names that seat
        **(
            {"turned_by": draws[-1]["seat"]}
            if res.get("winner") is not None
            and res.get("discarder") is None
            and not (position.get("self_drawn") or position.get("tianhu"))
            else {}
        ),
        **(
            {"race": {"target": 100, "round_to": 10, "totals": list(scores)}}
            if rules.name == "loudi"
            else {}
        ),
        # a race's 荒庄 costs the dealer 10 (R45): the sheet says so (no preset's default
        # has a 荒庄 cost or 亡牌)
        **(
            {"huang": {"dealer": state.dealer, "cost": 0, "penalty": 10, "wang_pay": 0}}
            if rules.name == "loudi" and res.get("winner") is None
            else {}
        ),
    }


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_settlement_is_built_from_the_result_as_the_record_had_it(preset: str) -> None:
    """R32–R38: every hand of a bot match settles as the record's dicts did."""
    rules = PRESETS[preset]
    hands = 16
    bots = ["random", "greedy", "random", "greedy"]
    seen = set()
    for table, st in bot_match(rules, 7, hands, bots):  # a race (R45) may end early
        m = table.match
        assert st.result is not None
        for seat in st.seats:  # every seat's view reveals the same hands (R33)
            got = hand_settlement(st.result, view(st, seat), m.scores, m.index, m.hands, rules)
            want = settlement_via_dicts(st, list(m.scores), m.index, m.hands)
            dumped = got.model_dump(mode="json", exclude_none=True)
            for g in dumped.get("groups", ()):  # (not in the record: test_wang_places)
                g.pop("wang", None)
            assert dumped == {k: v for k, v in want.items() if v is not None}
        r = st.result
        seen.add("荒庄" if r.winner is None else "放炮" if r.discarder is not None else "胡")
        if r.settlement is not None and r.settlement.mingtang:
            seen.add("名堂")
        if r.settlement is not None and r.settlement.huang_multiplier > 1:
            seen.add("黄番")
        if got.baopei:
            seen.add("包赔")
            assert -got.payments[r.discarder] == sum(p for p in got.payments if p > 0)
    assert {"荒庄", "胡"} <= seen  # the test saw both ends of a hand
    assert ("包赔" in seen) == (preset in ("guilin", "hengyang"))  # a discarder pays for all
    assert ("黄番" in seen) == (preset == "changde")  # the one 黄番 preset shows it


def test_each_wang_is_shown_on_one_card_of_the_kind_it_stood_for() -> None:
    """R40/R41: the sheet marks, for each 王, one card of the kind it became — never in a
    meld that lay on the table (R39), the 王 pattern's own group holding its 王."""
    rules = PRESETS["yongzhou"]
    kinds = set()
    wins = 0
    for seed in range(60):
        table = Table([make_bot("greedy") for _ in range(rules.players)], rules, seed, 1)
        res = table.play_hand()
        if res is None or res.settlement is None or not res.settlement.wang:
            continue
        st, pos = res.settlement, res.position
        assert pos is not None
        places = wang_places(st.groups, st.wang, pos)
        marked = Counter(
            g.cards[k] for g, p in zip(st.groups, places, strict=True) for k in p or ()
        )
        assert marked == Counter(st.wang)
        table_melds = Counter(pos.table)
        for g, p in zip(st.groups, places, strict=True):
            if p is None:
                continue
            assert len(set(p)) == len(p) and all(0 <= k < len(g.cards) for k in p)
            if table_melds[g] and g.kind.value in ("chi", "peng", "wei", "chouwei"):
                raise AssertionError(f"a 王 shown in a table meld {g}")
        if pos.pattern is not None:
            fixed = [
                p
                for g, p in zip(st.groups, places, strict=True)
                if p and len(p) >= pos.pattern.hand_wang
            ]
            assert fixed, "the 王 pattern's group holds its 王"
        sheet = hand_settlement(res, None, res.scores, 1, 1, rules)
        assert [g.wang for g in sheet.groups] == places
        kinds.update(g.kind.value for g, p in zip(st.groups, places, strict=True) if p)
        wins += 1
    assert wins >= 10 and len(kinds) >= 3  # several wins with 王, marked in several kinds


def snapshot(timers: tuple[Timer, ...], discarding: int | None) -> RoomSnapshot:
    rules = PRESETS["hunan"]
    return RoomSnapshot(
        id="ROOM01",
        rules=rules,
        level=LEVELS["easy"],
        phase=RoomPhase.PLAYING,
        hand_id="h",
        played=0,
        hands_total=8,
        scores=(0, 0, 0),
        players=(),
        away_timeout=30.0,
        rematch=None,
        timers=timers,
        discarding=discarding,
        result=None,
        results=(),
        hand_ids=("h",),
    )


def test_a_seat_knows_its_own_timer_and_the_discarders_only() -> None:
    """R16: who else decides on a claim is private; the discarding seat's turn is not."""
    t = tuple(Timer.model_construct(seat=i, deadline=100.0 + i) for i in range(3))
    claim = snapshot(t, discarding=None)
    assert [x.seat for x in present.timers(claim, 0)] == [0]
    assert [x.seat for x in present.timers(claim, 2)] == [2]
    turn = snapshot(t[1:2], discarding=1)
    assert [x.seat for x in present.timers(turn, 0)] == [1]
    assert [x.seat for x in present.timers(turn, 1)] == [1]


def _server_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("paohuzi.server.room")}


def test_presentation_reads_no_room() -> None:
    """present/ is given a snapshot: it imports nothing of the room but its levels."""
    for path in sorted(PRESENT.glob("*.py")):
        assert _server_imports(path) <= {"paohuzi.server.room.levels"}, path.name


def test_listed_choices_show_each_actions_own_card() -> None:
    """胡 and 过 name no card in their id; each listed choice still shows its own card,
    and a 吃 its 胡息 under the rules it is offered under (choices are kept by action)."""
    from paohuzi.core.actions import Action
    from paohuzi.core.cards import Card
    from paohuzi.core.rules import HUXI_ROWS, HuxiTable

    rules = PRESETS["hunan"]
    for card in (Card.X1, Card.D6, Card.X1):
        (got,) = described({"pass": Action("pass", 0, card)}, rules, RoomPhase.PLAYING)
        assert (got.id, got.card) == ("pass", card.code)
    chi = Action("chi", 0, Card.X2, ((Card.X2, Card.X7, Card.X10),))
    zero = HuxiTable(tuple((row, (0, 0, 0, 0)) for row in HUXI_ROWS))
    other = rules.replace(huxi_table=zero)
    (a,) = described({chi.id(): chi}, rules, RoomPhase.PLAYING)
    (b,) = described({chi.id(): chi}, other, RoomPhase.PLAYING)
    assert a.huxi != b.huxi and b.huxi == 0


@pytest.mark.parametrize("seed", [3, 11])
def test_a_race_summary_is_the_matchs_pairwise_final_settlement(seed: int) -> None:
    """R45: a 娄底 race played to its end: the summary's race block has the totals, their
    rounding, one transfer per pair whose rounded totals differ (the lower pays the
    difference), each seat's sum of them equal to ``Match.final()``, and the 荒庄
    penalties the dealers paid on the way."""
    from paohuzi.server.present import tally

    rules = PRESETS["loudi"]
    table = Table([make_bot("greedy") for _ in range(rules.players)], rules, seed)
    table.play()
    m = table.match
    s = tally.summary(m.results, [], rules.players, rules).model_dump(mode="json")
    race = s["race"]
    assert race["totals"] == m.scores == s["totals"]
    assert race["rounded"] == [round(x / 10 + 1e-9 * (1 if x >= 0 else -1)) * 10 for x in m.scores]
    assert race["final"] == m.final() and sum(race["final"]) == 0
    assert race["reached"] == (max(m.scores) >= 100)
    got = [0] * rules.players
    for t in race["transfers"]:
        assert race["rounded"][t["payee"]] - race["rounded"][t["payer"]] == t["amount"] > 0
        got[t["payee"]] += t["amount"]
        got[t["payer"]] -= t["amount"]
    assert got == m.final()
    huang = sum(1 for r in m.results if r.winner is None)
    assert sum(race["huang_penalties"]) == huang * rules.race.huangzhuang_penalty
    # the ranking and 大赢家 are the settlement's (a player read the 息 totals as 分 there)
    final = race["final"]
    assert [final[x] for x in s["ranking"]] == sorted(final, reverse=True)
    assert s["big_winner"] == [x for x in range(rules.players) if final[x] == max(final)]
    # not a race: no race block
    hunan = tally.summary(m.results, [], rules.players).model_dump(mode="json", exclude_none=True)
    assert "race" not in hunan


def test_every_wang_pattern_has_an_english_name_on_the_sheet() -> None:
    """R41: an English sheet named a 王 pattern's 番 "王闯 ×8" without the gloss its
    title and 胡 button give ("Wild kan (王闯)")."""
    from paohuzi.core.position import WangPattern
    from paohuzi.server.present.options import mingtang_label

    for p in WangPattern:
        en = mingtang_label(p.value, p.zh)["en"]
        assert en.startswith("Wild ") and en.endswith(f"({p.zh})"), en


def test_the_match_summary_names_a_wang_pattern() -> None:
    """R41: a hand won by 王钓/王闯/王炸 is named on its sheet; its row of the match
    summary named only the winner, 胡息 and 番. Now the row carries the pattern too (and a
    win without one carries none)."""
    from paohuzi.server.present import tally

    rules = PRESETS["yongzhou"]
    results = []
    for seed in (1, 32, 5):  # greedy bots: 王钓, 王闯, then a hand without a pattern
        table = Table([make_bot("greedy") for _ in range(rules.players)], rules, seed, 1)
        res = table.play_hand()
        assert res is not None
        results.append(res)
    s = tally.summary(results, ["a", "b", "c"], rules.players, rules).model_dump(mode="json")
    got = [h.get("pattern") for h in s["hands"]]
    want = [
        r.position.pattern.value if r.position and r.position.pattern else None for r in results
    ]
    assert got == want and got[:2] == ["wangdiao", "wangchuang"], got
    assert "pattern" not in s["hands"][2]  # (left out, not null)


def test_the_sheet_says_what_each_xing_card_counted() -> None:
    """R42: 醒数 is the sum of what each 醒牌 counted (a 王 standing for it too), ×2 with
    双醒: the sheet sends each 醒牌's count, so a player sees why 连翻 turned a second
    card (the first made a four-group with the winner's cards) and why 双醒 doubled it."""
    chained = doubled = 0
    for name, patch in (("guilin", {}), ("yongzhou", {"xing_double": True})):
        rules = PRESETS[name].replace(**patch)
        for seed in range(60):
            table = Table([make_bot("greedy") for _ in range(rules.players)], rules, seed, 1)
            res = table.play_hand()
            if res is None or res.settlement is None or res.position is None:
                continue
            sheet = hand_settlement(res, None, res.scores, 1, 1, rules)
            counts = sheet.xing_counts
            assert counts is not None and sheet.xing_cards is not None
            assert len(counts) == len(sheet.xing_cards)
            assert sheet.xing == sum(counts) * (2 if rules.xing_double else 1)
            assert sheet.xing_double is (True if rules.xing_double else None)
            if len(counts) > 1:  # 连翻: each card before the last made four (R42)
                assert all(n in (3, 4) for n in counts[:-1]), counts
                chained += 1
            doubled += bool(rules.xing_double)
    assert chained and doubled  # guilin seed 50 turns twice; every yongzhou win doubles
