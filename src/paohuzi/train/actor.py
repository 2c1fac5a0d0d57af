"""演员 (yǎnyuán): self-play actors — numpy only, run in worker processes or on Ray.

An :class:`ActorTask` carries everything a worker needs (the current weights,
the pool of past selves, one lineup per hand, seeds), so a task is a pure
function of its inputs: the learner's weights reach the actors with every task
(periodic sync without shared state), and the same task gives the same samples
anywhere. Seats marked ``"self"`` play the current network (ε-greedy) and are
recorded; in the imitation phase ``"imitate"`` seats play greedy and are
recorded with the expert's choice as the label: greedy's (the warm start) or a
search bot's (``expert="ismcts"``: distilling search into the network).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

from ..bots import make_bot
from ..bots.greedy import obvious
from ..bots.ismcts import IsmctsBot
from ..bots.neural import QNet
from ..core.actions import HU
from ..core.player import Bot, Observation
from ..core.rules import Rules
from ..core.state import GameState
from ..table import derive_seed
from .features import action_features, greedy_choice, greedy_values, state_features

SELF = "self"
IMITATE = "imitate"
POOL = "pool:"  # "pool:3" = the 4th past self of the task's pool
RETURN_SCALE = 32.0  # a payment of 32 is a return of 1 (hunan's 99th percentile is ≈ 48)
RETURN_CLIP = 3.0


@dataclass(frozen=True, slots=True)
class Sample:
    """One recorded decision: features of the state and of every legal action."""

    state: np.ndarray  # float16, STATE_SIZE
    actions: np.ndarray  # float16, n × ACTION_SIZE
    taken: int  # the action played
    label: int  # greedy's choice (the imitation target)
    ret: float  # the seat's scaled final payment (the Monte-Carlo target)
    # The search expert's paired gains: (legal index, scaled gain over the first
    # candidate) per searched candidate, the first with gain 0 (None: not searched).
    gains: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class ActorTask:
    rules: Rules
    seed: int  # hand i is dealt from derive_seed("train", seed, i)
    lineups: tuple[tuple[str, ...], ...]  # one per hand: a spec per seat
    weights: dict[str, np.ndarray] | None  # the current network (None: imitation only)
    pool: tuple[dict[str, np.ndarray], ...] = ()
    eps: float = 0.05
    expert: str = "greedy"  # whose choices ``"imitate"`` seats play and record as labels


@dataclass(slots=True)
class ActorResult:
    samples: list[Sample] = field(default_factory=list)
    hands: int = 0
    decisions: int = 0
    self_score: float = 0.0  # summed payments of the recorded seats
    self_seats: int = 0
    cpu: float = 0.0  # CPU seconds the actor spent on the task


def scaled_return(score: float) -> float:
    return max(-RETURN_CLIP, min(RETURN_CLIP, score / RETURN_SCALE))


def run_task(task: ActorTask) -> ActorResult:
    """Play every hand of ``task``; the recorded seats' decisions and the totals."""
    t0 = time.process_time()
    net = QNet(task.weights) if task.weights is not None else None
    pool = [QNet(w) for w in task.pool]
    bots: dict[str, Bot] = {}
    out = ActorResult()
    for i, line in enumerate(task.lineups):
        hand_seed = derive_seed("train", task.seed, i)
        _play(task, line, hand_seed, net, pool, bots, out)
    out.cpu = time.process_time() - t0
    return out


def _bot(spec: str, pool: list[QNet], bots: dict[str, Bot]) -> Bot:
    if spec not in bots:
        if spec.startswith(POOL):
            from ..bots.neural import NeuralBot

            bots[spec] = NeuralBot(net=pool[int(spec[len(POOL) :])])
        else:
            bots[spec] = make_bot(spec)
    return bots[spec]


def _play(
    task: ActorTask,
    line: tuple[str, ...],
    hand_seed: int,
    net: QNet | None,
    pool: list[QNet],
    bots: dict[str, Bot],
    out: ActorResult,
) -> None:
    st = GameState(task.rules, seed=hand_seed)
    rngs = [random.Random(derive_seed("actor", hand_seed, s)) for s in range(st.n)]
    pending: list[tuple[int, np.ndarray, np.ndarray, int, int, np.ndarray | None]] = []
    while not st.is_terminal():
        seat = st.current_player
        assert seat is not None
        obs = Observation(st, seat)
        legal = obs.legal
        spec = line[seat]
        out.decisions += 1
        if spec not in (SELF, IMITATE):
            st.apply(_bot(spec, pool, bots).act(obs, rngs[seat]))
            continue
        if len(legal) == 1 or any(a.type == HU for a in legal):
            st.apply(next((a for a in legal if a.type == HU), legal[0]))  # nothing to learn
            continue
        values = greedy_values(obs)
        s, acts = state_features(obs), action_features(obs, values)
        label = greedy_choice(legal, values)
        gains = None
        if spec == IMITATE and task.expert != "greedy":
            # distillation: the search bot's choice is the label (it decides from the view)
            label, gains = _expert(_bot(task.expert, pool, bots), obs, rngs[seat])
        if spec == IMITATE or net is None:
            taken = label
        elif task.eps and rngs[seat].random() < task.eps:
            taken = rngs[seat].randrange(len(legal))
        else:
            taken = int(np.argmax(net.q(s, acts)))
        pending.append((seat, s, acts, taken, label, gains))
        st.apply(legal[taken])
    scores = st.returns()
    for seat, s, acts, taken, label, gains in pending:
        out.samples.append(
            Sample(
                s.astype(np.float16),
                acts.astype(np.float16),
                taken,
                label,
                scaled_return(scores[seat]),
                gains,
            )
        )
    for seat in st.seats:
        if line[seat] in (SELF, IMITATE):
            out.self_score += scores[seat]
            out.self_seats += 1
    out.hands += 1


def _expert(bot: Bot, obs: Observation, rng: random.Random) -> tuple[int, np.ndarray | None]:
    """The expert's choice (a legal index) and, for ismcts, the paired gains it
    measured: numbers for every candidate, far richer than its argmax alone."""
    legal = obs.legal
    if not isinstance(bot, IsmctsBot) or obvious(legal) is not None:
        return legal.index(bot.act(obs, rng)), None
    cands = bot.candidates(obs)
    if len(cands) == 1:
        return legal.index(cands[0]), None
    stats = bot.search(obs, cands, rng)
    choice = bot.choose(cands, stats)  # exactly the bot's own rule
    gains = np.array(
        [(legal.index(a), st.gain() / RETURN_SCALE) for a, st in zip(cands, stats, strict=True)],
        dtype=np.float32,
    )
    return legal.index(choice), gains


__all__ = ["IMITATE", "POOL", "SELF", "ActorResult", "ActorTask", "Sample", "run_task"]
