"""ismcts budget: a wall-clock cap and a cancel flag end the search; unhit, they change nothing."""

from __future__ import annotations

import random
import threading

from paohuzi.bots import Observation, make_bot
from paohuzi.bots.ismcts import IsmctsBot

from .helpers import states


def _decisions(limit: int) -> list[tuple[object, int]]:
    """Decision points with several candidates, where the search really runs."""
    probe = IsmctsBot(iters=2)
    found = []
    for state in states("hunan", range(40), policy="greedy"):
        for seat in state.to_act():
            if len(probe.candidates(Observation(state, seat))) > 1:
                found.append((state, seat))
        if len(found) >= limit:
            break
    return found


def test_an_unhit_budget_and_an_unset_flag_change_no_choice() -> None:
    points = _decisions(12)
    assert len(points) >= 8
    plain = IsmctsBot(iters=6)
    budgeted = IsmctsBot(iters=6, time_ms=600_000)  # ten minutes: never reached
    budgeted.cancel = threading.Event()  # never set
    for i, (state, seat) in enumerate(points):
        a = plain.act(Observation(state, seat), random.Random(i))  # type: ignore[arg-type]
        b = budgeted.act(Observation(state, seat), random.Random(i))  # type: ignore[arg-type]
        assert a == b
        assert plain.last_worlds == budgeted.last_worlds


def test_a_raised_flag_stops_the_search_before_any_world() -> None:
    (state, seat), *_ = _decisions(1)
    bot = make_bot("ismcts:iters=100000000")  # would run for days
    assert isinstance(bot, IsmctsBot)
    flag = threading.Event()
    flag.set()
    bot.cancel = flag
    obs = Observation(state, seat)  # type: ignore[arg-type]
    action = bot.act(obs, random.Random(1))
    assert bot.last_worlds == 0
    assert action == bot.candidates(obs)[0]  # greedy's choice stands


def test_a_flag_raised_from_another_thread_ends_a_long_search() -> None:
    (state, seat), *_ = _decisions(1)
    bot = IsmctsBot(iters=100_000_000)
    flag = threading.Event()
    bot.cancel = flag
    out: list[object] = []
    worker = threading.Thread(
        target=lambda: out.append(bot.act(Observation(state, seat), random.Random(2)))  # type: ignore[arg-type]
    )
    worker.start()
    worker.join(0.3)  # let it search a while
    flag.set()
    worker.join(60)  # a hang guard, not a speed test
    assert not worker.is_alive() and len(out) == 1
    assert 0 < bot.last_worlds < 100_000_000
    assert out[0] in Observation(state, seat).legal  # type: ignore[arg-type]


def test_the_wall_clock_cap_ends_a_long_search() -> None:
    (state, seat), *_ = _decisions(1)
    bot = IsmctsBot(iters=100_000_000, time_ms=50)
    action = bot.act(Observation(state, seat), random.Random(3))  # type: ignore[arg-type]
    assert 0 < bot.last_worlds < 100_000_000
    assert action in Observation(state, seat).legal  # type: ignore[arg-type]
