"""Drivers for the terminal game tests: a headless app, screen text, waiting for bots."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from paohuzi.core.cards import Card
from paohuzi.core.rules import HUNAN, Rules
from paohuzi.core.views import MeldView
from paohuzi.tui.app import PlayApp, SettlementScreen
from paohuzi.tui.session import PlaySession

# Seed 2 with two random bots: a complete hand that the policy below wins (found by search;
# the tests assert the win rather than assume it).
WIN_SEED = 2
GROUP_ZH = {"chi": "吃", "peng": "碰", "wei": "偎", "chouwei": "臭偎", "pao": "跑", "ti": "提"}


def make_app(
    tmp: Path | None,
    seed: int = WIN_SEED,
    hands: int = 1,
    rules: Rules = HUNAN,
    bots: tuple[str, ...] = ("random",),
) -> PlayApp:
    session = PlaySession(rules, seed, list(bots), hands, tmp)
    return PlayApp(session, delay=0)


def screen_text(app: PlayApp) -> str:
    """The 80×24 screen as plain text, one line per row."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


def zh(cards: Iterable[Card | None]) -> str:
    return "".join("▒▒" if c is None else c.zh for c in cards)


async def wait_for_human(pilot: Any, app: PlayApp) -> str:
    """Let the bots play until the human must decide or the hand is settled.

    Returns ``"discard"``, ``"claim"`` or ``"settlement"``.
    """
    for _ in range(2000):
        await pilot.pause(0.002)
        if isinstance(app.screen, SettlementScreen):
            return "settlement"
        if not app.busy and app.game.mode:
            return app.game.mode
    raise AssertionError("the bots never handed over")


def expected_hand_line(hand: Sequence[Card]) -> str:
    """The hand as the screen must show it, built independently of the app:
    each 坎 first, then the other cards by point, 小 before 大, one space
    between cards and two between groups."""
    cards = list(hand)
    count = Counter(cards)
    kans = sorted(c for c in count if count[c] == 3)
    groups = [[c] * 3 for c in kans]
    for point in range(1, 11):
        g = sorted(c for c in cards if c.point == point and c not in kans)
        if g:
            groups.append(g)
    return "  ".join(" ".join(c.zh for c in g) for g in groups)


def meld_strings(melds: Sequence[MeldView]) -> list[str]:
    return [GROUP_ZH[m.kind] + zh(m.cards) for m in melds]
