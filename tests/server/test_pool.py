"""The bot pool: slow bots think in worker processes; closing it cancels their searches."""

from __future__ import annotations

import asyncio

from paohuzi.bots import Observation
from paohuzi.bots.ismcts import IsmctsBot
from paohuzi.core.state import GameState
from paohuzi.server.room.bot_pool import BotPool, job_for, think


def _decision() -> tuple[GameState, int]:
    """A decision where the search really runs (several candidates)."""
    probe = IsmctsBot(iters=2)
    for seed in range(50):
        st = GameState(seed=seed)
        for _ in range(40):
            if st.is_terminal():
                break
            seat = st.current_player
            if len(probe.candidates(Observation(st, seat))) > 1:
                return st, seat
            st.apply(probe.greedy.act(Observation(st, seat), None))  # type: ignore[arg-type]
    raise AssertionError("no decision with several candidates")


def test_a_job_rebuilds_the_hand_and_answers_a_legal_action() -> None:
    st, seat = _decision()
    aid = think(job_for("ismcts:iters=4", st, seat, 7))
    assert aid in st.legal_action_ids(seat)
    assert think(job_for("ismcts:iters=4", st, seat, 7)) == aid  # a fixed seed: one answer


def test_closing_the_pool_cancels_a_running_search() -> None:
    """A search that would run for days ends when the pool closes: no worker is killed."""
    st, seat = _decision()
    job = job_for("ismcts:iters=100000000", st, seat, 1)
    pool = BotPool(1)

    async def main() -> tuple[str | None, bool]:
        task = asyncio.create_task(pool.run(job, timeout=600))
        await asyncio.sleep(3.0)  # the worker starts and searches
        clean = await pool.close(grace=60)  # a hang guard, not a speed test
        return await task, clean

    aid, clean = asyncio.run(main())
    assert clean  # the cancel flag ended the search; no worker had to be killed
    assert aid in st.legal_action_ids(seat)  # the best choice so far


def test_a_closed_pool_answers_nothing() -> None:
    st, seat = _decision()
    pool = BotPool(1)

    async def main() -> str | None:
        await pool.close()
        return await pool.run(job_for("ismcts:iters=4", st, seat, 1), timeout=10)

    assert asyncio.run(main()) is None
