"""Shared drivers for the bot tests: reach game states by seeded play."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from paohuzi.bots import Observation, make_bot
from paohuzi.core.determinize import resample
from paohuzi.core.player import Bot
from paohuzi.core.rules import Rules, preset
from paohuzi.core.state import GameState
from paohuzi.core.views import view

SMALL_ISMCTS = "ismcts:iters=2,top=2"


def reach(rules_name: str, seed: int, steps: int, policy: str = "random") -> GameState:
    """The state after up to ``steps`` choices by ``policy`` at every seat (RNG from ``seed``);
    in a claim window the deciding seat is drawn at random among those pending."""
    st = GameState(preset(rules_name), seed=seed)
    bot = make_bot(policy)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(steps):
        if st.is_terminal():
            break
        seat = rng.choice(st.to_act())
        st.apply(bot.act(Observation(st, seat), rng))
    return st


def states(
    rules_name: str | Rules, seeds: Iterable[int], policy: str = "greedy"
) -> Iterator[GameState]:
    """Every decision point of whole hands played by ``policy`` (clones, safe to keep);
    ``rules_name`` is a preset name or a :class:`Rules`."""
    bot = make_bot(policy)
    rules = preset(rules_name) if isinstance(rules_name, str) else rules_name
    for seed in seeds:
        st = GameState(rules, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            yield st.clone()
            seat = st.current_player
            st.apply(bot.act(Observation(st, seat), rng))


def same_choice_in_resampled_worlds(
    bot: Bot, decisions: Iterable[GameState], step: int
) -> Iterator[tuple[GameState, int]]:
    """At every ``step``-th state, for each pending seat: a world resampled for the seat
    shows it the same view, and the bot (same RNG seed) chooses the same action there
    although every hidden card moved. Yields each (state, seat) checked."""
    for i, state in enumerate(decisions):
        if i % step:
            continue
        for seat in state.to_act():
            world = resample(state, seat, random.Random(i))
            assert view(world, seat) == view(state, seat)
            a = bot.act(Observation(state, seat), random.Random(7)).id()
            b = bot.act(Observation(world, seat), random.Random(7)).id()
            assert a == b
            yield state, seat
