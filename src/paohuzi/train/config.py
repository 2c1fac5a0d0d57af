"""配置 (pèizhì): every knob of a training run, saved with its checkpoints."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class TrainConfig:
    run_dir: str
    rules: str = "hunan"
    seed: int = 0
    hidden: tuple[int, int, int] = (256, 256, 128)
    lr: float = 3e-4
    batch: int = 256
    buffer: int = 50_000  # recorded decisions kept (FIFO)
    replay: float = 2.0  # times each new decision is sampled into a batch, on average
    margin: float = 0.1  # DQfD large-margin imitation loss
    imitation_hands: int = 3_000  # warm start: greedy plays, the network imitates it
    imitation_weight: float = 0.0  # margin-loss weight after the warm start
    # Weight of the search expert's paired gains (Q differences between its
    # candidates; recorded when ``expert`` is ismcts).
    gain_weight: float = 1.0
    expert: str = "greedy"  # the bot imitated (its choices are the labels): greedy or ismcts
    hands_per_task: int = 8
    actors: int = 2
    eps: float = 0.05
    # Opponent mix of the self-play phase (weights): greedy, cheap ismcts, past selves, self.
    mix: dict[str, float] = field(
        default_factory=lambda: {"greedy": 0.55, "ismcts": 0.05, "pool": 0.25, "self": 0.15}
    )
    ismcts: str = "ismcts:iters=4,top=2"
    pool_size: int = 5
    pool_minutes: float = 5.0
    checkpoint_minutes: float = 3.0
    eval_minutes: float = 10.0
    eval_hands: int = 300  # against two greedy
    eval_hands_ismcts: int = 60  # against two (cheap) ismcts
    eval_seed: int = 1_000
    minutes: float | None = None  # stop after this wall time (this session)
    max_hands: int | None = None  # stop after this many self-play hands (in total)
    threads: int = 1  # torch threads of the learner
    ray: str | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TrainConfig:
        d = dict(d)
        d["hidden"] = tuple(d["hidden"])
        return cls(**d)


__all__ = ["TrainConfig"]
