"""One hand played by bots to its end, for tests that read what a finished hand shows
(its events, its settlement, a seat's view): the state itself, not only its result."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from paohuzi.bots import make_bot
from paohuzi.core.result import HandResult
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.table import Table


def bot_hand(rules: Rules, seed: int, bot: str = "greedy") -> GameState:
    """The hand of ``seed`` under ``rules``, ``bot`` at every seat, played to its end."""
    table = Table([make_bot(bot) for _ in range(rules.players)], rules, seed, 1)
    state = table.deal()
    table.run_bots()
    assert state.is_terminal()
    return state


def bot_match(
    rules: Rules, seed: int, hands: int, bots: Sequence[str] = ("greedy",)
) -> Iterator[tuple[Table, GameState]]:
    """Each hand of a bot match (``bots`` by seat, the last filling the table), played to
    its end and booked in the match (``table.match``) before it is yielded; a race
    (R45) may end before ``hands``."""
    names = [bots[min(s, len(bots) - 1)] for s in range(rules.players)]
    table = Table([make_bot(b) for b in names], rules, seed, hands)
    while not table.match.is_over():
        state = table.deal()
        table.run_bots()
        table.finish_hand()
        yield table, state


def won_hands(rules: Rules, seeds: Iterable[int]) -> Iterator[tuple[int, HandResult]]:
    """The won hands among one greedy-bot hand per seed: (seed, its result), each with
    its winner and winning position."""
    for seed in seeds:
        bots = [make_bot("greedy") for _ in range(rules.players)]
        res = Table(bots, rules, seed, 1).play_hand()
        if res is not None and res.winner is not None and res.position is not None:
            yield seed, res
