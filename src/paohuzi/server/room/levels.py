"""难度 (nándù): the bot levels clients choose from, and the fixed bot behind each.

Clients name a level only (``"easy"``/``"normal"``/``"hard"``, shown as
初级/中级/高级); what plays it is decided here, once: a client can never pass
options to a bot that runs on the server. To make a level stronger (a learned
``neural`` bot for ``hard``, say), change its ``spec`` in :data:`LEVELS`.

``pooled`` levels think in the bounded worker pool (:mod:`.bot_pool`) under the
wall-clock ``budget``; the others decide in a fraction of a millisecond inside
the event loop.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from paohuzi.bots import Bot, make_bot_or_random

log = logging.getLogger("paohuzi.server")


@dataclass(frozen=True)
class Level:
    id: str
    zh: str
    spec: str  # a ``make_bot`` spec, fixed here
    pooled: bool = False  # thinks in a worker process rather than in the event loop
    budget: float = 0.0  # seconds per decision (pooled levels); the pool waits a little longer


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "初级", "novice"),
    "normal": Level("normal", "中级", "greedy"),
    "hard": Level("hard", "高级", "ismcts:iters=16,top=3,time_ms=1000", pooled=True, budget=1.0),
}
DEFAULT = "normal"

# What servers before levels stored as a room's bot: a bot spec, options and all.
_LEGACY = {"random": "easy", "greedy": "normal", "ismcts": "hard"}


def level(name: str | None) -> Level:
    """The level ``name`` names; a stored pre-level bot spec maps to its level (options
    dropped), anything else to the default."""
    if name in LEVELS:
        return LEVELS[name]
    base = (name or "").partition(":")[0].strip()
    return LEVELS[_LEGACY.get(base, DEFAULT)]


def make(lv: Level) -> Bot:
    """A fresh bot for a seat of this level (random if its bot cannot be made here)."""
    bot, notice = make_bot_or_random(lv.spec)
    if notice is not None:
        log.warning("%s", notice)
    return bot


__all__ = ["DEFAULT", "LEVELS", "Level", "level", "make"]
