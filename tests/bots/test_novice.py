"""novice, the web's 初级: a beginner that takes its wins (the random bot, 初级 before it,
passes on most of them, so a table of them mostly ends in 荒庄)."""

from __future__ import annotations

import pytest

from paohuzi.bots import make_bot
from paohuzi.core.actions import HU
from paohuzi.core.rules import preset
from paohuzi.table import Table


def _huang(bot: str, rules_name: str, hands: int) -> int:
    rules = preset(rules_name)
    out = 0
    for seed in range(hands):
        res = Table([make_bot(bot) for _ in range(rules.players)], rules, seed, 1).play_hand()
        out += res is not None and res.winner is None
    return out


def test_it_takes_every_win_it_is_offered() -> None:
    rules = preset("hengyang")
    offered = 0
    for seed in range(40):
        t = Table([make_bot("novice") for _ in range(rules.players)], rules, seed, 1)
        bot = t.players[0]
        real = bot.act

        def watch(obs, rng, real=real):  # type: ignore[no-untyped-def]
            nonlocal offered
            a = real(obs, rng)
            if any(x.type == HU for x in obs.legal):
                offered += 1
                assert a.type == HU, (obs.legal, a)
            return a

        bot.act = watch  # type: ignore[method-assign]
        t.play_hand()
    assert offered > 0


@pytest.mark.parametrize("rules_name", ["hengyang", "hunan"])
def test_a_table_of_novices_ends_in_fewer_huangzhuang_than_random(rules_name: str) -> None:
    """A seeded table of novices: fewer 荒庄 than the random bot's (衡阳: 123 of 150)."""
    assert _huang("novice", rules_name, 60) < _huang("random", rules_name, 60) - 10


def test_the_same_seed_plays_alike() -> None:
    rules = preset("hunan")
    a, b = (Table([make_bot("novice") for _ in range(3)], rules, 5, 1) for _ in range(2))
    assert a.play_hand() == b.play_hand()
    with pytest.raises(ValueError, match="care"):
        make_bot("novice:care=2")
