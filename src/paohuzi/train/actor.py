"""演员 (yǎnyuán): self-play actors — numpy only, run in worker processes or on Ray.

An :class:`ActorTask` carries everything a worker needs (the current weights,
the pool of past selves, one lineup per hand, seeds), so a task is a pure
function of its inputs: the learner's weights reach the actors with every task
(periodic sync without shared state), and the same task gives the same samples
anywhere. Seats marked ``"self"`` play the current network (ε-greedy) and are
recorded; in the imitation phase ``"imitate"`` seats play the expert and are
recorded with its choice as the label: greedy's (the warm start) or a search
bot's (``expert="ismcts"``: distilling search into the network).

Every hand is played at a :class:`~paohuzi.table.Table`: the recorded seats
are a :class:`Recorder`, the others ordinary bots, and each seat draws from
the RNG the table derives from the hand's seed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

from ..bots import make_bot
from ..bots.greedy import greedy_choice, greedy_values, obvious
from ..bots.ismcts import IsmctsBot
from ..bots.neural import NeuralBot, QNet
from ..core.actions import HU, Action
from ..core.player import Bot, Observation
from ..core.rules import Rules
from ..core.state import GameState
from ..encoding.features import action_features, state_features
from ..table import Table, derive_seed

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
            bots[spec] = NeuralBot(net=pool[int(spec[len(POOL) :])])
        else:
            bots[spec] = make_bot(spec)
    return bots[spec]


@dataclass(frozen=True, slots=True)
class _Pending:
    """A decision recorded before the hand's outcome (its return) is known."""

    seat: int
    state: np.ndarray
    actions: np.ndarray
    taken: int
    label: int
    gains: np.ndarray | None


class Recorder(Bot):
    """记录 (jìlù): the recorded seats of one hand — each decision kept with its features.

    ``line[seat]`` says how a seat plays: ``"imitate"`` plays the expert's choice
    (greedy's, or ``expert``'s when given) and records it as the label; ``"self"``
    plays the network ε-greedy (greedy's choice while there is no network), its
    label greedy's choice. A decision with nothing to learn (one legal action,
    or 胡 offered) is played and not recorded. The RNG is the seat's, from the
    :class:`~paohuzi.table.Table`.
    """

    name = "recorder"

    def __init__(
        self,
        line: tuple[str, ...],
        net: QNet | None,
        eps: float,
        expert: Bot | None,
    ) -> None:
        self.line = line
        self.net = net
        self.eps = eps
        self.expert = expert
        self.pending: list[_Pending] = []

    def act(self, obs: Observation, rng: random.Random) -> Action:
        legal = obs.legal
        if len(legal) == 1 or any(a.type == HU for a in legal):
            return next((a for a in legal if a.type == HU), legal[0])  # nothing to learn
        imitate = self.line[obs.seat] == IMITATE
        values = greedy_values(obs)
        label = greedy_choice(legal, values)
        s, acts = state_features(obs), action_features(obs, values, label)
        gains = None
        if imitate and self.expert is not None:
            # distillation: the search bot's choice is the label (it decides from the view)
            label, gains = _expert(self.expert, obs, rng)
        if imitate or self.net is None:
            taken = label
        elif self.eps and rng.random() < self.eps:
            taken = rng.randrange(len(legal))
        else:
            taken = int(np.argmax(self.net.q(s, acts)))
        self.pending.append(_Pending(obs.seat, s, acts, taken, label, gains))
        return legal[taken]


def _play(
    task: ActorTask,
    line: tuple[str, ...],
    hand_seed: int,
    net: QNet | None,
    pool: list[QNet],
    bots: dict[str, Bot],
    out: ActorResult,
) -> None:
    expert = _bot(task.expert, pool, bots) if task.expert != "greedy" and IMITATE in line else None
    rec = Recorder(line, net, task.eps, expert)
    recorded = [s for s, spec in enumerate(line) if spec in (SELF, IMITATE)]
    players = [rec if s in recorded else _bot(spec, pool, bots) for s, spec in enumerate(line)]
    table = Table(players, task.rules)
    state = GameState(task.rules, seed=hand_seed)
    table.play_hand(state)  # each seat's RNG derived from the hand's seed (bot_rngs)
    out.decisions += sum(table.decisions)
    scores = state.returns()
    for p in rec.pending:
        out.samples.append(
            Sample(
                p.state.astype(np.float16),
                p.actions.astype(np.float16),
                p.taken,
                p.label,
                scaled_return(scores[p.seat]),
                p.gains,
            )
        )
    for seat in state.seats:
        if seat in recorded:
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


__all__ = ["IMITATE", "POOL", "SELF", "ActorResult", "ActorTask", "Recorder", "Sample", "run_task"]
