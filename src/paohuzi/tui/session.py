"""对局 (duìjú): the terminal game's controller — one human seat, bots, a match (R6, R38).

No textual here: the app calls this, tests can too. The human seat only ever
gets :meth:`PlaySession.view` — the engine's single hidden-information filter
(``paohuzi.core.views.view``); the true :class:`GameState` stays in here and is
handed to bots only through :class:`~paohuzi.bots.Observation` (on a clone, so a
bot thinking in a worker thread never races the UI).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paohuzi.bots import Bot, Observation, RandomBot, make_bot_or_random
from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.events import Event
from paohuzi.core.match import Match
from paohuzi.core.records import record
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.core.views import view
from paohuzi.userdata import data_dir

HUMAN = 0


def default_record_dir() -> Path:
    """Where hand records go by default: ``<user data dir>/paohuzi/records``."""
    return data_dir() / "records"


@dataclass
class BotSeat:
    """A bot in one seat, with its own seeded RNG so a match replays exactly."""

    name: str
    bot: Bot
    rng: random.Random


def make_bots(
    names: list[str], seats: list[int], seed: int
) -> tuple[dict[int, BotSeat], list[str]]:
    """One bot per seat (the last name repeats); unknown bots fall back to ``random``."""
    bots: dict[int, BotSeat] = {}
    notices: list[str] = []
    names = names or ["greedy"]
    for i, seat in enumerate(seats):
        name = names[min(i, len(names) - 1)]
        bot, notice = make_bot_or_random(name)
        if notice is not None:
            notices.append(f"seat {seat}: {notice}")
            name = bot.name
        bots[seat] = BotSeat(name, bot, random.Random(f"{seed}:bot:{seat}"))
    return bots, notices


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
        self.match = Match(rules, self.seed, hands)
        self.human = HUMAN
        others = [s for s in range(rules.players) if s != HUMAN]
        self.bots, self.notices = make_bots(list(bots or []), others, self.seed)
        self.record_dir = record_dir
        self.saved: list[Path] = []
        self.save_error: str | None = None
        self.version = 0  # bumps on every applied action: "bad keys change nothing"
        self.state: GameState | None = None
        self.hand_no = 0  # 1-based number of the running (or last) hand
        self.stamp = time.strftime("%Y%m%d-%H%M%S")

    # ---------------------------------------------------------------- queries
    def view(self) -> dict[str, Any]:
        """What the human may see now (the engine's view, nothing else)."""
        if self.state is None:
            raise RuntimeError("no hand is running")
        return view(self.state, self.human).to_dict()

    def hand_over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    def pending_bot(self) -> int | None:
        """A bot seat that must decide now (bots before the human), else ``None``."""
        if self.state is None or self.state.is_terminal():
            return None
        for seat in self.state.to_act():
            if seat != self.human:
                return seat
        return None

    def human_to_act(self) -> bool:
        return self.pending_bot() is None and bool(self.view()["legal_actions"])

    # ---------------------------------------------------------------- actions
    def start_hand(self) -> GameState:
        self.state = self.match.new_hand()
        self.hand_no += 1
        self.version += 1
        return self.state

    def act(self, action_id: str) -> tuple[Event, ...]:
        """The human's choice by its id from the view's ``legal_actions``."""
        if self.state is None or action_id not in self.view()["legal_actions"]:
            raise IllegalAction(f"{action_id!r} is not a legal choice now")
        events = self.state.apply(Action.from_id(self.human, action_id))
        self.version += 1
        return events

    def bot_choose(self, seat: int) -> Action:
        """Ask a bot for its action (safe in a worker thread: it sees a clone)."""
        if self.state is None:
            raise RuntimeError("no hand is running")
        b = self.bots[seat]
        obs = Observation(self.state.clone(), seat)
        try:
            return b.bot.act(obs, b.rng)
        except Exception as e:  # a broken bot must not end the human's game
            self.notices.append(f"bot {b.name} failed ({type(e).__name__}: {e}); plays random")
            stand_in = RandomBot()
            self.bots[seat] = BotSeat(stand_in.name, stand_in, b.rng)
            return stand_in.act(obs, b.rng)

    def apply_bot(self, action: Action) -> tuple[Event, ...]:
        if self.state is None:
            raise RuntimeError("no hand is running")
        events = self.state.apply(action)
        self.version += 1
        return events

    def finish_hand(self) -> Path | None:
        """Book the finished hand in the match (R6, R38) and save its §4 record."""
        st = self.state
        if st is None or not st.is_terminal():
            raise RuntimeError("the hand is not finished")
        self.match.finish_hand(st)
        return self._save(st)

    def _save(self, st: GameState) -> Path | None:
        if self.record_dir is None:
            return None
        path = self.record_dir / f"paohuzi-{self.stamp}-s{self.seed}-h{self.hand_no}.json"
        try:
            self.record_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record(st), ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as e:
            self.save_error = f"cannot save record to {path}: {e.strerror or e}"
            return None
        self.saved.append(path)
        return path

    def seat_name(self, seat: int) -> str:
        """你 for the human; others by position: 下家, 对家, 上家 (R5)."""
        if seat == self.human:
            return "你"
        return seat_label(seat, self.human, self.rules.players)


def seat_label(seat: int, me: int, players: int) -> str:
    off = (seat - me) % players
    if off == 0:
        return "你"
    if off == 1:
        return "下家"
    if off == players - 1:
        return "上家"
    return "对家"
