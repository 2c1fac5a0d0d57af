"""快捷语 (kuàijié yǔ): the fixed quick phrases and emoji players may send at the table.

Players choose from this list only — no free text reaches another player, so
there is nothing to moderate and nothing to translate on the fly. A seat sends
``{"type": "say", "phrase": ID}``; :func:`relay` sends :func:`said` to every
connected seat of the room, at most once per ``SAY_EVERY_S`` per seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from paohuzi.server.messages import SaidMessage
from paohuzi.server.room.seats import Link


class Phrase(NamedTuple):
    id: str
    zh: str
    en: str
    kind: Literal["phrase", "emoji"] = "phrase"


PHRASES: tuple[Phrase, ...] = (
    Phrase("hello", "大家好！", "Hello everyone!"),
    Phrase("hurry", "快点吧，等得花都谢了", "Hurry up, please"),
    Phrase("nice", "打得好！", "Nice play!"),
    Phrase("lucky", "手气真好", "Lucky you"),
    Phrase("oops", "哎呀，打错了", "Oops, wrong card"),
    Phrase("again", "再来一局！", "One more hand!"),
    Phrase("thanks", "谢谢", "Thanks"),
    Phrase("bye", "有事先走了，下次再玩", "Got to go, see you next time"),
    Phrase("smile", "😀", "😀", "emoji"),
    Phrase("laugh", "😂", "😂", "emoji"),
    Phrase("cool", "😎", "😎", "emoji"),
    Phrase("think", "🤔", "🤔", "emoji"),
    Phrase("cry", "😭", "😭", "emoji"),
    Phrase("angry", "😠", "😠", "emoji"),
    Phrase("thumbs", "👍", "👍", "emoji"),
    Phrase("flower", "🌹", "🌹", "emoji"),
)
BY_ID = {p.id: p for p in PHRASES}
SAY_EVERY_S = 2.0  # a seat's phrases are relayed at most this often (the rest: rate_limited)


def validate(phrase_id: object) -> Phrase | None:
    """The phrase ``phrase_id`` names, or None (the caller answers ``bad_phrase``)."""
    return BY_ID.get(phrase_id) if isinstance(phrase_id, str) else None


def said(seat: int, phrase: Phrase) -> SaidMessage:
    """What every seat of the room receives when ``seat`` says ``phrase``."""
    return SaidMessage.make(
        seat=seat, phrase=phrase.id, text_zh=phrase.zh, text_en=phrase.en, kind=phrase.kind
    )


def relay(links: Sequence[Link], seat: int, phrase_id: str, now: float) -> str | None:
    """Seat ``seat`` says ``phrase_id`` at ``now`` (monotonic seconds; the room's lock
    held): every connected seat of ``links`` (the room's, by seat) gets :func:`said`;
    else the error code, and nothing is sent."""
    phrase = validate(phrase_id)
    if phrase is None:
        return "bad_phrase"
    mine = links[seat]
    if now - mine.said_at < SAY_EVERY_S:
        return "rate_limited"
    mine.said_at = now
    msg = said(seat, phrase)
    for link in links:
        if link.conn is not None:
            link.conn.send(msg)
    return None


def catalogue() -> dict[str, Any]:
    """``GET /api/phrases``."""
    return {
        "phrases": [p._asdict() for p in PHRASES if p.kind == "phrase"],
        "emoji": [p._asdict() for p in PHRASES if p.kind == "emoji"],
        "min_interval_s": SAY_EVERY_S,
    }


__all__ = ["PHRASES", "SAY_EVERY_S", "Phrase", "catalogue", "relay", "said", "validate"]
