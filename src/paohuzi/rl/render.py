"""画面 (huàmiàn): the table as text or as an image, from one seat's view.

``render_mode="ansi"`` and ``"rgb_array"`` of the environments. A seat's
picture is built from :func:`paohuzi.core.views.view` of that seat only, so it
shows exactly what the seat may know: its own hand face up, the others' hand
sizes, melds as that seat sees them (face-down 偎 as ▒). The spectator's
picture (``seat=None``) shows every hand, each taken from its owner's view.

Images are drawn with Pillow (imported on first use), a fixed 640 × 400 frame
so that Gymnasium's ``RecordVideo`` can stack them into a video.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..core.cards import CODES, Card
from ..core.narrate import narrate_event
from ..core.state import GameState
from ..core.views import View, view

WIDTH, HEIGHT = 640, 400
TILE_W, TILE_H = 22, 30
_FONTS = (  # a CJK font shows 字牌 as players know them; without one, card codes
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)


def _zh(cards: Sequence[Card | None]) -> str:
    return "".join(c.zh if c is not None else "▒" for c in cards)


def _order(v: View) -> list[int]:
    """Seats from ``v.seat`` on, in play order (the viewer first)."""
    n = v.players
    return [(v.seat + k) % n for k in range(n)]


def _shown(v: View, hands: dict[int, tuple[Card, ...]] | None) -> dict[int, tuple[Card, ...]]:
    """Hands to show besides the viewer's: the spectator's, or every hand once it is over."""
    if hands is not None:
        return hands
    if v.revealed is not None:
        return dict(enumerate(v.revealed))
    return {}


def text_view(v: View, hands: dict[int, tuple[Card, ...]] | None = None) -> str:
    """The table as ``v.seat`` sees it; ``hands`` adds other seats' hands (spectator)."""
    others = _shown(v, hands)
    who = "spectator" if hands is not None else f"seat {v.seat}'s view"
    lines = [f"{v.rules.name}  {who}  dealer {v.dealer}  wall {v.wall}  phase {v.phase}"]
    if v.open is not None:
        card = "▒" if v.open.card is None else v.open.card.zh
        lines.append(f"open card: {card} ({v.open.source}, seat {v.open.owner})")
    for t in _order(v):
        if t not in v.seats:
            lines.append(f"seat {t}  sits out")
            continue
        mark = "*" if t == v.dealer else " "
        shown = v.tiles if t == v.seat else others.get(t)
        held = _zh(shown) if shown is not None else f"{v.hand_sizes[t]} cards"
        me = "  (you)" if t == v.seat and hands is None else ""
        acting = "  <- to act" if t == v.seat and v.to_act else ""
        melds = " ".join(m.kind.zh + _zh(m.cards) for m in v.tables[t])
        lines.append(f"seat {t}{mark} hand {held}{me}{acting}")
        lines.append(f"        melds {melds or '-'}  pile {_zh(v.piles[t]) or '-'}")
    if v.others_deciding:
        lines.append("others are deciding")
    for e in v.log[-4:]:
        lines.append("  · " + narrate_event(e.to_dict(), v.dealer))
    if v.result is not None:
        lines.append(f"result: scores {list(v.result.scores)}")
    return "\n".join(lines)


def render_text(state: GameState, seat: int | None = None) -> str:
    """``seat``'s view as text; ``None``: the spectator's, every hand shown."""
    if seat is not None:
        return text_view(view(state, seat))
    first = state.seats[0]
    hands = {t: view(state, t).hand for t in state.seats}
    return text_view(view(state, first), hands)


@cache
def _font(size: int) -> tuple[Any, bool]:
    """(font, whether it draws Chinese)."""
    from PIL import ImageFont

    for p in _FONTS:
        if Path(p).exists():
            try:
                return ImageFont.truetype(p, size), True
            except OSError:
                continue
    return ImageFont.load_default(size), False


def render_rgb(state: GameState, seat: int | None = None) -> np.ndarray:
    """``seat``'s view (``None``: the spectator's) as an H × W × 3 uint8 image."""
    if seat is not None:
        v, hands = view(state, seat), None
    else:
        v = view(state, state.seats[0])
        hands = {t: view(state, t).hand for t in state.seats}
    return image_view(v, hands)


def image_view(v: View, hands: dict[int, tuple[Card, ...]] | None = None) -> np.ndarray:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (WIDTH, HEIGHT), (22, 92, 58))
    d = ImageDraw.Draw(img)
    others = _shown(v, hands)
    small, cjk = _font(13)
    tile, _ = _font(16)

    def label(c: Card | None) -> str:
        if c is None:
            return ""
        return c.zh if cjk else CODES[c]

    def tiles(x: int, y: int, cards: Sequence[Card | None], face: bool = True) -> int:
        for c in cards:
            if x + TILE_W > WIDTH - 4:
                break
            if face and c is not None:
                d.rectangle((x, y, x + TILE_W - 2, y + TILE_H), fill=(246, 238, 214), outline=0)
                red = c.point in (2, 7, 10)  # 二七十 are printed red
                d.text(
                    (x + TILE_W // 2 - 1, y + TILE_H // 2),
                    label(c),
                    fill=(190, 30, 30) if red else (20, 20, 20),
                    font=tile if cjk else small,
                    anchor="mm",
                )
            else:
                d.rectangle((x, y, x + TILE_W - 2, y + TILE_H), fill=(60, 70, 140), outline=0)
            x += TILE_W
        return x

    head = f"{v.rules.name}  seat {v.seat}  wall {v.wall}  {v.phase}"
    if v.result is not None:
        head += f"  scores {list(v.result.scores)}"
    d.text((8, 6), head, fill=(255, 255, 255), font=small)
    if v.open is not None:
        d.text(
            (440, 6),
            f"open ({v.open.source}, seat {v.open.owner})",
            fill=(255, 255, 200),
            font=small,
        )
        tiles(600, 4, [v.open.card], face=v.open.card is not None)
    row = (HEIGHT - 40) // max(v.players, 1)
    for k, t in enumerate(_order(v)):
        y = 40 + k * row
        name = f"seat {t}{'*' if t == v.dealer else ''}"
        if t == v.seat and v.to_act:
            name += " to act"
        d.text((8, y), name, fill=(255, 255, 0) if t == v.seat else (255, 255, 255), font=small)
        if t not in v.seats:
            d.text((90, y), "sits out", fill=(200, 200, 200), font=small)
            continue
        shown = v.tiles if t == v.seat else others.get(t)
        if shown is not None:
            tiles(90, y, sorted(shown))
        else:
            tiles(90, y, [None] * v.hand_sizes[t], face=False)
        x = 8
        for m in v.tables[t]:
            x = tiles(x, y + TILE_H + 6, m.cards, face=True) + 6
        if v.piles[t]:
            px = max(x + 8, 370)
            d.text((px - 30, y + TILE_H + 14), "pile", fill=(200, 220, 200), font=small)
            tiles(px, y + TILE_H + 6, v.piles[t])
    return np.asarray(img, dtype=np.uint8)


__all__ = ["HEIGHT", "WIDTH", "image_view", "render_rgb", "render_text", "text_view"]
