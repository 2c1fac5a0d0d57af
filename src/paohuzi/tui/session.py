"""对局 (duìjú): the terminal game's controller — a :class:`~paohuzi.table.Table` with
the human at seat 0 and bots in the other seats, plus what only a screen needs.

No textual here: the app calls this, tests can too. The Table plays the hands
(match, dealer rotation R6, scores R38, bots and their seeded RNGs, a stand-in
for a bot that fails); this module adds the version counter the screen keys on,
the hand number and the records on disk. The human seat only ever gets
:meth:`PlaySession.view` — the engine's single hidden-information filter.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from paohuzi.bots import Bot, make_bot_or_random
from paohuzi.core.actions import Action
from paohuzi.core.events import Event
from paohuzi.core.match import Match
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.core.views import View, view
from paohuzi.table import Table
from paohuzi.userdata import data_dir

HUMAN = 0


def default_record_dir() -> Path:
    """Where hand records go by default: ``<user data dir>/paohuzi/records``."""
    return data_dir() / "records"


def make_players(
    names: list[str], players: int, human: int = HUMAN
) -> tuple[list[Bot | None], list[str]]:
    """座位 (zuòwèi): the Table's players — ``None`` for the human, a bot in every other
    seat (names in seat order, the last repeating); an unknown bot is ``random``, with a notice."""
    seats: list[Bot | None] = [None] * players
    notices: list[str] = []
    names = names or ["greedy"]
    for i, seat in enumerate(s for s in range(players) if s != human):
        bot, notice = make_bot_or_random(names[min(i, len(names) - 1)])
        if notice is not None:
            notices.append(f"seat {seat}: {notice}")
        seats[seat] = bot
    return seats, notices


class PlaySession:
    """A match (R38) between the human at seat 0 and bots in the other seats."""

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        bots: list[str] | None = None,
        hands: int | None = None,
        record_dir: Path | None = None,
    ) -> None:
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        self.rules = rules
        self.human = HUMAN
        players, notices = make_players(list(bots or []), rules.players)
        # One RNG per seat for the whole match, seeded from the match seed: a match replays.
        rngs = [random.Random(f"{self.seed}:bot:{s}") for s in range(rules.players)]
        # stand_in: a bot that raises is replaced by random — it must not end the human's game.
        self.table = Table(players, rules, self.seed, hands, rngs=rngs, stand_in=True)
        self.table.notices.extend(notices)
        self.record_dir = record_dir
        self.saved: list[Path] = []
        self.save_error: str | None = None
        self.version = 0  # bumps on every applied action: "bad keys change nothing"
        self.hand_no = 0  # 1-based number of the running (or last) hand
        self.stamp = time.strftime("%Y%m%d-%H%M%S")

    @property
    def match(self) -> Match:
        return self.table.match

    @property
    def state(self) -> GameState | None:
        return self.table.state

    @property
    def notices(self) -> list[str]:
        """Unknown or failed bots, said once each (the Table adds the failures)."""
        return self.table.notices

    # ---------------------------------------------------------------- queries
    def view(self) -> View:
        """What the human may see now (the engine's view, nothing else)."""
        if self.state is None:
            raise RuntimeError("no hand is running")
        return view(self.state, self.human)

    def hand_over(self) -> bool:
        return self.table.is_hand_over()

    def pending_bot(self) -> int | None:
        """A bot seat that must decide now (bots before the human), else ``None``."""
        return self.table.next_bot()

    def human_to_act(self) -> bool:
        """The human must decide now, and no bot has to first."""
        return self.human in self.table.waiting_for()

    # ---------------------------------------------------------------- actions
    def start_hand(self) -> GameState:
        state = self.table.deal()
        self.hand_no += 1
        self.version += 1
        return state

    def act(self, action_id: str) -> tuple[Event, ...]:
        """The human's choice by its id (``IllegalAction``, nothing changed, if not legal)."""
        events = self.table.apply_id(self.human, action_id)
        self.version += 1
        return events

    def bot_choose(self, seat: int) -> Action:
        """Ask a bot for its action (safe in a worker thread: it thinks on a clone)."""
        if self.state is None:
            raise RuntimeError("no hand is running")
        return self.table.choose(seat, self.state.clone())

    def apply_bot(self, action: Action) -> tuple[Event, ...]:
        events = self.table.apply(action)
        self.version += 1
        return events

    def finish_hand(self) -> Path | None:
        """Book the finished hand in the match (R6, R38) and save its §4 record."""
        self.table.finish_hand()  # raises unless the hand is over
        return self._save()

    def _save(self) -> Path | None:
        if self.record_dir is None or self.state is None:
            return None
        path = self.record_dir / f"paohuzi-{self.stamp}-s{self.seed}-h{self.hand_no}.json"
        try:
            self.record_dir.mkdir(parents=True, exist_ok=True)
            text = json.dumps(self.table.record().to_dict(), ensure_ascii=False)
            path.write_text(text + "\n", encoding="utf-8")
        except OSError as e:
            self.save_error = f"cannot save record to {path}: {e.strerror or e}"
            return None
        self.saved.append(path)
        return path

    # ---------------------------------------------------------------- names
    def seat_name(self, seat: int) -> str:
        """你 for the human; others by position: 下家, 对家, 上家 (R5)."""
        return seat_label(seat, self.human, self.rules.players)

    def bot_name(self, seat: int) -> str:
        """The bot playing ``seat`` now (``random`` once it stood in), ``""`` for the human."""
        bot = self.table.players[seat]
        return bot.name if bot is not None else ""


def seat_label(seat: int, me: int, players: int) -> str:
    off = (seat - me) % players
    if off == 0:
        return "你"
    if off == 1:
        return "下家"
    if off == players - 1:
        return "上家"
    return "对家"
