"""R44: a record's ``result.position`` says ``"discard": true`` for a win on a discard, so
re-scoring it with the calculator gives what the discarder paid."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from paohuzi.bots.greedy import GreedyBot
from paohuzi.cli.score import score_line
from paohuzi.core.records import HandRecord
from paohuzi.core.result import HandResult
from paohuzi.core.rules import PRESETS, preset
from paohuzi.table import Table

DISCARD_WINS = [name for name, rules in PRESETS.items() if rules.win_on_discard]


def won_hands(name: str, seeds: range) -> Iterator[tuple[Table, HandResult]]:
    """Seeded greedy tables' won hands (荒庄 left out)."""
    rules = preset(name)
    for seed in seeds:
        table = Table([GreedyBot() for _ in range(rules.players)], rules, seed=seed)
        res = table.play_hand()
        if res is not None and res.winner is not None:
            yield table, res


@pytest.mark.parametrize("name", DISCARD_WINS)
def test_R44_a_records_discard_win_re_scores_to_what_the_discarder_paid(name: str) -> None:
    rules = preset(name)
    seen = {True: 0, False: 0}  # discard wins, other wins
    for table, res in won_hands(name, range(40)):
        rec = table.record().to_dict()
        line = rec["result"]["position"]
        assert line.get("discard", False) is (res.discarder is not None)
        seen[res.discarder is not None] += 1
        got, problem = score_line(json.dumps(line, ensure_ascii=False), rules)
        assert problem is None and got["di"] == rec["result"]["di"]
        if res.discarder is not None:
            assert got["discarder_pays"] == -res.scores[res.discarder] > 0
        else:
            assert "discarder_pays" not in got
        # the record reads back, its check re-settles the position, the flag kept
        back = HandRecord.from_dict(rec)
        assert back.check() == []
        assert HandResult.from_dict(rec["result"], rules).discard is (res.discarder is not None)
    assert seen[True] >= 3 and seen[False] >= 3, seen


def test_no_discard_flag_where_the_rules_have_no_discard_wins() -> None:
    """湖南 has no discard wins (R44): even a 地胡 on the dealer's card is no discard."""
    for table, _ in won_hands("hunan", range(30)):
        assert "discard" not in table.record().to_dict()["result"]["position"]


def test_a_bad_discard_flag_in_a_record_is_a_clear_error() -> None:
    """The replay check names the field; reading the result alone refuses it."""
    table = next(t for t, res in won_hands("luzhou", range(40)) if res.discarder is not None)
    rec = table.record().to_dict()
    rec["result"]["position"]["discard"] = "yes"
    problems = HandRecord.from_dict(rec).check()
    assert problems == ['step 17: result.position.discard: replay gives true, record has "yes"']
    with pytest.raises(ValueError, match="discard must be true or false"):
        HandResult.from_dict(rec["result"], preset("luzhou"))
