"""终端对局 (zhōngduān duìjú): the full-screen textual app of ``paohuzi play``.

One :class:`GameScreen` shows the table from the human seat's view; a
:class:`SettlementScreen` follows every hand; :class:`QuitScreen` confirms ``q``.
Bots think in a worker thread (on a clone of the state) and act after a short
visible delay; meanwhile the human's keys are ignored. Keyboard only:
arrows/digits select, Enter confirms, ``h`` hints, ``q`` quits (confirm), Ctrl-C
quits at once. Any other key changes nothing.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.events import Key, Resize
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from paohuzi.bots import Observation
from paohuzi.core import variants
from paohuzi.core.actions import PASS, Action, IllegalAction
from paohuzi.core.rules import PRESETS
from paohuzi.core.views import View
from paohuzi.core.vocab import Phase

from . import render as R
from .hint_line import hint_text
from .session import PlaySession

DIGIT_WINDOW = 1.0  # seconds in which a second digit extends the first (12 = "1" "2")
PROMPT_ROWS = 8  # at most this many claim options show at once (the list scrolls)
LEFT = ("left", "up")
RIGHT = ("right", "down")
CONFIRM = ("enter", "space")


MIN_SIZE = (80, 24)  # docs/terminal.md: the smallest terminal the table fits


class LogView(Widget):
    """The event log; shows as many of the latest lines as fit."""

    DEFAULT_CSS = "LogView { height: 1fr; }"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.lines: list[Text] = []

    def set_lines(self, lines: list[Text]) -> None:
        self.lines = lines
        self.refresh()

    def render(self) -> Text:
        h = self.size.height
        lines = self.lines[-h:] if h > 0 else []
        out = Text("\n").join([Text()] * (h - len(lines)) + lines)  # newest line at the bottom
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out


class GameScreen(Screen[None]):
    """The table: header, other seats, log, the open card, your seat, hand, choices."""

    CSS = """
    GameScreen { layout: vertical; }
    #header { height: 1; background: $boost; }
    #others { height: auto; }
    #status { height: 1; }
    #me { height: 2; }
    #hand { height: auto; }
    #prompt { height: auto; }
    #keys { height: 1; background: $boost; }
    """

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self.cursor = 0  # index into the hand slots (discard) or the options (claim)
        self.mode = ""  # "discard", "claim" or "" (nothing for the human to decide)
        self.decision = -1  # session.version at which the current decision was offered
        self.digits = ""
        self.digit_time = 0.0
        self.hint = ""
        self.notified = 0  # notices already shown as a toast
        self.slots: list[R.Slot] = []
        self.options: list[Action] = []  # the claim choices, in the engine's order

    def compose(self) -> ComposeResult:
        for wid in ("header", "others"):
            yield Static(id=wid)
        yield LogView(id="log")
        for wid in ("status", "me", "hand", "prompt", "keys"):
            yield Static(id=wid)

    def on_mount(self) -> None:
        self.refresh_view()

    @property
    def app_(self) -> PlayApp:
        return self.app  # type: ignore[return-value]

    # ------------------------------------------------------------------ drawing
    def names(self, n: int) -> dict[int, str]:
        return {s: self.session.seat_name(s) for s in range(n)}

    def refresh_view(self) -> None:
        """Redraw everything from the human seat's view."""
        s = self.session
        if s.state is None or not self.is_mounted:
            return
        v = s.view()
        n = v.players
        names = self.names(n)
        # In a claim window the bots decide before you (the Table knows; your view may not).
        legal = list(v.legal) if s.human_to_act() and not self.app_.busy else []
        mode = "" if not legal else ("discard" if v.phase == Phase.DISCARD else "claim")
        if s.version != self.decision and mode:
            self.decision = s.version
            self.digits = ""
            if mode == "claim" or self.mode != "discard":
                self.cursor = 0
        self.mode = mode
        discardable = [a.card for a in legal if a.card is not None] if mode == "discard" else []
        self.slots = R.hand_slots(v.tiles, discardable)
        self.options = legal if mode == "claim" else []
        if mode == "discard":
            sel = R.selectable_indices(self.slots)
            if self.cursor not in sel:
                self.cursor = min(sel, key=lambda i: abs(i - self.cursor)) if sel else 0
        elif mode == "claim":
            self.cursor = max(0, min(self.cursor, len(self.options) - 1))
        # Who may claim an open card is nobody else's business: only your own decision is
        # marked (the view's to_act names this seat or nobody).
        # ▶ marks whoever must discard (public); in a claim window only you know you decide
        acting = {v.current_player} if v.phase == Phase.DISCARD else ({v.seat} if mode else set())
        self.q("header").update(self._header(v))
        others = [(v.seat + k) % n for k in range(1, n)]
        self.q("others").update(
            Text("\n").join(
                R.seat_text(v, t, names[t], s.match.scores[t], t in acting, s.bot_name(t))
                for t in others
            )
        )
        while self.notified < len(s.notices):  # e.g. a bot that failed and plays random now
            self.app.notify(s.notices[self.notified], severity="warning", timeout=8)
            self.notified += 1
        log = [Text(f"! {m}", style="yellow") for m in s.notices]
        self.query_one(LogView).set_lines(log + R.log_lines(v.log, names, 200, v.seat))
        self.q("status").update(self._status(v, names))
        me = v.seat
        self.q("me").update(R.seat_text(v, me, names[me], s.match.scores[me], me in acting))
        self.q("hand").update(self._hand())
        self.q("prompt").update(self._prompt(v))
        self.q("keys").update(self._keys())

    def q(self, wid: str) -> Static:
        return self.query_one(f"#{wid}", Static)

    def on_resize(self, event: Resize) -> None:
        self.refresh_view()  # (the header warns of a terminal too small)

    def _header(self, v: View) -> Text:
        s = self.session
        w, h = self.app.size
        t = Text()
        if w < MIN_SIZE[0] or h < MIN_SIZE[1]:  # lines would be cut or scroll away
            t.append(
                f"窗口太小 terminal too small: {w}×{h}, need {MIN_SIZE[0]}×{MIN_SIZE[1]}  ",
                style="bold red",
            )
        t.append_text(
            Text.assemble(
                ("跑胡子 ", "bold"),
                (f"{s.rules.name}  ", ""),
                (f"seed {s.seed}  ", "dim"),  # (before the 玩法: a narrow terminal keeps it)
                (f"第{s.hand_no}/{s.match.hands}局  ", ""),
                ("亮张 ", "dim"),
            )
        )
        # `is not None`: a Card is an int, and 一 is 0
        t.append_text(R.card_text(v.liangzhang) if v.liangzhang is not None else Text("—"))
        t.append(f"  墩 {v.wall}", style="bold")
        if v.bottom is not None:
            t.append("  墩底 ", style="dim")
            t.append_text(R.card_text(v.bottom))
        # the 玩法 chosen, and a 封顶 not the preset's, last: what a narrow line may cut
        chosen = [z for z, _ in variants.labels(s.rules)]
        own = PRESETS.get(s.rules.name)
        if own is not None and s.rules.cap != own.cap:
            chosen.append(f"封顶{s.rules.cap}" if s.rules.cap else "不封顶")
        for z in chosen:
            t.append(f"  {z}", style="cyan")
        return t

    def _status(self, v: View, names: dict[int, str]) -> Text:
        t = Text()
        op = v.open
        if op is not None:
            t.append(f"{names[op.owner]} {R.source_zh(op.source)} ")
            t.append_text(R.card_text(op.card, "reverse"))
            t.append("  ")
        if v.phase == Phase.OVER:
            t.append("本局结束", style="bold")
        elif self.mode == "discard":
            t.append("轮到你出牌 — your discard", style="bold green")
        elif self.mode == "claim":
            t.append("你可以 — your choice:", style="bold green")
        elif v.phase == Phase.DISCARD and v.current_player is not None:
            t.append(f"等 {names[v.current_player]} 出牌 …", style="dim")
        else:
            t.append("等 …", style="dim")
        return t

    def _hand(self) -> Text:
        if not self.slots:
            return Text(" (no cards in hand)", style="dim")
        if self.mode == "discard":
            return R.hand_text(self.slots, self.cursor, numbered=True)
        marks: list[int] = []
        if self.mode == "claim" and self.options:
            marks = R.used_from_hand(self.options[self.cursor], self.slots)
        return R.hand_text(self.slots, marked=marks)

    def _prompt(self, v: View) -> Text:
        lines: list[Text] = []
        if self.mode == "claim":
            op = v.open.card if v.open is not None else None
            n = len(self.options)
            rows = PROMPT_ROWS if n <= PROMPT_ROWS else PROMPT_ROWS - 1  # one row says "more"
            lo = max(0, min(self.cursor - rows // 2, n - rows))
            for i in range(lo, min(n, lo + rows)):
                mark = "▶" if i == self.cursor else " "
                line = Text(f" {mark}{i + 1:>2} ", style="bold green" if mark != " " else "dim")
                line.append_text(R.option_text(self.options[i], op, v.rules))
                if i == self.cursor:
                    line.stylize("bold")
                lines.append(line)
            if n > rows:
                more = f"   ↑↓ {lo} above, {n - lo - rows} below (共 {n} 项)"
                lines.append(Text(more, style="dim"))
        if self.hint:
            lines.append(Text(f" 提示 {self.hint}", style="cyan"))
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out

    def _keys(self) -> Text:
        if self.mode == "discard":
            keys = "←→/数字 选牌  Enter 打出  h 提示  q 退出"
        elif self.mode == "claim":
            keys = "↑↓/数字 选择  Enter 确认  h 提示  q 退出"
        else:
            keys = "h 提示  q 退出"
        return Text(" " + keys, style="bold")

    # ------------------------------------------------------------------ input
    def on_key(self, event: Key) -> None:
        if self.mode not in ("discard", "claim") or self.app_.busy:
            return
        key = event.key
        count = (
            len(R.selectable_indices(self.slots)) if self.mode == "discard" else len(self.options)
        )
        if key in LEFT or key in RIGHT:
            self._move(-1 if key in LEFT else 1)
        elif key.isdigit() and len(key) == 1:
            n = self._digit(key, count)
            if n is None:
                return
            if self.mode == "discard":
                self.cursor = R.selectable_indices(self.slots)[n - 1]
            else:
                self.cursor = n - 1
        elif key in CONFIRM:
            self._confirm()
            return
        else:
            return
        event.stop()
        self.refresh_view()

    def _move(self, step: int) -> None:
        self.digits = ""
        if self.mode == "claim":
            self.cursor = (self.cursor + step) % len(self.options)
            return
        sel = R.selectable_indices(self.slots)
        k = sel.index(self.cursor) if self.cursor in sel else 0
        self.cursor = sel[(k + step) % len(sel)]

    def _digit(self, d: str, count: int) -> int | None:
        """Number keys: "1" then "2" within a second selects 12 (when there are ≥ 12)."""
        now = time.monotonic()
        buf = self.digits + d if self.digits and now - self.digit_time < DIGIT_WINDOW else d
        if not 1 <= int(buf) <= count:
            buf = d
        self.digit_time = now
        if not 1 <= int(buf) <= count:
            self.digits = ""
            return None
        self.digits = buf if int(buf) * 10 <= count else ""
        return int(buf)

    def _confirm(self) -> None:
        if self.mode == "discard":
            aid = f"discard:{self.slots[self.cursor].card.code}"
        else:
            aid = self.options[self.cursor].id()
        self.hint = ""
        self.app_.human_act(aid)

    def show_hint(self) -> None:
        s = self.session
        if s.state is None or s.hand_over():
            return
        if self.mode == "":
            self.hint = "等待 — nothing to decide now"
        else:
            self.hint = hint_text(Observation(s.state.clone(), s.human))
        self.refresh_view()


class SettlementScreen(Screen[None]):
    """结算: the finished hand, payments and match totals; Enter goes on."""

    CSS = """
    SettlementScreen { layout: vertical; }
    #body { height: 1fr; }
    #keys { height: 1; background: $boost; }
    """

    def __init__(self, session: PlaySession, path: Path | None) -> None:
        super().__init__()
        self.session = session
        self.path = path

    def compose(self) -> ComposeResult:
        yield Static(self._body(), id="body")
        over = self.session.match.is_over()
        keys = " Enter 退出 (match over)  q 退出" if over else " Enter 下一局  q 退出"
        yield Static(Text(keys, style="bold"), id="keys")

    def _body(self) -> Text:
        s = self.session
        v = s.view()
        names = {t: s.seat_name(t) for t in range(v.players)}
        title = f"第{s.hand_no}/{s.match.hands}局 结算 settlement"
        if s.match.is_over():
            title += "  — 比赛结束 match over"
        out = R.settlement_text(v, names, s.match.scores, title)
        out.append_text(R.race_text(v.rules, s.match.scores, names, s.match.is_over()))
        if self.path is not None:
            out.append(f" 记录 record: {self.path}\n", style="dim")
        elif s.save_error:
            out.append(f" {s.save_error}\n", style="yellow")
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out

    def on_key(self, event: Key) -> None:
        if event.key in CONFIRM:
            event.stop()
            app: PlayApp = self.app  # type: ignore[assignment]
            if self.session.match.is_over():
                app.exit()
            else:
                app.pop_screen()
                app.next_hand()


class QuitScreen(ModalScreen[bool]):
    """退出? y / Enter quits, n / Esc goes back; other keys do nothing."""

    CSS = """
    QuitScreen { align: center middle; }
    #ask { width: 40; height: 5; border: heavy $warning; content-align: center middle; }
    """

    def compose(self) -> ComposeResult:
        text = Text("退出游戏? Quit the game?\ny / Enter: quit   n / Esc: back", justify="center")
        yield Static(text, id="ask")

    def on_key(self, event: Key) -> None:
        event.stop()
        if event.key in ("y", "enter"):
            self.dismiss(True)
        elif event.key in ("n", "escape"):
            self.dismiss(False)


class PlayApp(App[None]):
    """``paohuzi play``: a match against bots in the terminal."""

    ENABLE_COMMAND_PALETTE = False
    TITLE = "paohuzi"
    BINDINGS = [  # noqa: RUF012 - textual's own convention
        Binding("ctrl+c", "quit_now", show=False, priority=True),
        Binding("ctrl+q", "quit_now", show=False, priority=True),
        Binding("q", "ask_quit", show=False),
        Binding("h", "hint", show=False),
    ]

    def __init__(self, session: PlaySession, delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.busy = False
        self.game = GameScreen(session)
        self.error: str | None = None

    async def on_mount(self) -> None:
        await self.push_screen(self.game)
        self.next_hand()

    # ------------------------------------------------------------------ flow
    def next_hand(self) -> None:
        self.session.start_hand()
        self.advance()

    def advance(self) -> None:
        """After any change: redraw; let bots play; settle a finished hand."""
        self.game.refresh_view()
        if self.session.hand_over():
            path = self.session.finish_hand()
            self.push_screen(SettlementScreen(self.session, path))
        elif self.session.pending_bot() is not None and not self.busy:
            self.busy = True
            self.run_worker(self._bots(), group="bots", exclusive=True)

    async def _bots(self) -> None:
        try:
            while (seat := self.session.pending_bot()) is not None:
                self.game.refresh_view()
                action = await asyncio.to_thread(self.session.bot_choose, seat)
                if self.delay and action.type != PASS:
                    await asyncio.sleep(self.delay)
                while isinstance(self.screen, QuitScreen):  # the table waits while you decide
                    await asyncio.sleep(0.05)
                self.session.apply_bot(action)
        finally:
            self.busy = False
        self.advance()

    def human_act(self, action_id: str) -> None:
        if self.busy:
            return
        try:
            self.session.act(action_id)
        except IllegalAction:
            return  # cannot happen from the offered choices; change nothing if it does
        self.advance()

    # ------------------------------------------------------------------ keys
    def action_hint(self) -> None:
        if self.screen is self.game:
            self.game.show_hint()

    def action_ask_quit(self) -> None:
        if isinstance(self.screen, QuitScreen):
            return

        def done(quit_: bool | None) -> None:
            if quit_:
                self.exit()

        self.push_screen(QuitScreen(), done)

    def action_quit_now(self) -> None:
        self.exit()
