"""邀请二维码 (yāoqǐng èrwéimǎ): the QR code of a room's invite link, as SVG (segno)."""

from __future__ import annotations

import io
from functools import lru_cache

import segno


def invite_link(base_url: str, room: str) -> str:
    """The page's own address with the room's fragment (``#/room/CODE``, docs/web.md)."""
    return f"{base_url.rstrip('/')}/#/room/{room}"


def svg(text: str, scale: int = 4) -> bytes:
    """``text`` as a QR code in SVG (error correction M: still reads from a phone screen)."""
    buf = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buf, kind="svg", scale=scale, border=2)
    return buf.getvalue()


@lru_cache(maxsize=2048)
def cached_svg(text: str) -> bytes:
    """:func:`svg`, made once per link (a room's invite card asks again on every render)."""
    return svg(text)


__all__ = ["cached_svg", "invite_link", "svg"]
