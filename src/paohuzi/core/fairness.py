"""公平发牌 (gōngpíng fāpái): the deal's commitment, which a player checks after the hand.

At the deal the server sends every seat ``commitment(deck, salt)`` (the state's
``deck_commitment``, INTERFACES §5): the SHA-256 of the deck in dealing order and a
secret salt. When the hand ends the record reveals the salt (``salt``, beside its
``deck`` and ``deck_commitment``), and anyone recomputes the hash. The byte layout
(docs/web.md, docs/fair-dealing.md): the ASCII text
``paohuzi-deal-v1:<salt>:<c1>,<c2>,…`` where ``<salt>`` is 32 lower-case hex digits
(16 secret bytes) and ``<cN>`` the deck's card codes (``x1``…``x10``,
``d1``…``d10``, ``w`` for a 王) in dealing order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from typing import Any

FORMAT = "paohuzi-deal-v1"
SALT = "salt"  # the record's fields (INTERFACES §4/§5, additive)
COMMITMENT = "deck_commitment"
_SALT = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"[0-9a-f]{64}")


def message(deck: Iterable[str], salt: str) -> bytes:
    """The bytes hashed: ``paohuzi-deal-v1:<salt>:<codes joined by ",">``."""
    if not _SALT.fullmatch(salt):
        raise ValueError("salt must be 32 lower-case hex digits")
    return f"{FORMAT}:{salt}:{','.join(deck)}".encode("ascii")


def commitment(deck: Iterable[str], salt: str) -> str:
    """承诺: the SHA-256 of :func:`message`, as 64 lower-case hex digits."""
    return hashlib.sha256(message(deck, salt)).hexdigest()


def revealed(deck: Iterable[str], salt: str) -> dict[str, str]:
    """The record's added fields: the commitment sent at the deal and its salt."""
    return {COMMITMENT: commitment(list(deck), salt), SALT: salt}


def verify(deck: Iterable[str], record: Mapping[str, Any]) -> str | None:
    """None if ``record``'s ``salt`` and ``deck_commitment`` commit to ``deck`` (or the
    record has neither: it is not a server's); else what is wrong, in one line."""
    salt, want = record.get(SALT), record.get(COMMITMENT)
    if salt is None and want is None:
        return None
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        return f"{SALT}: must be 32 lower-case hex digits"
    if not isinstance(want, str) or not _HEX.fullmatch(want):
        return f"{COMMITMENT}: must be 64 lower-case hex digits"
    got = commitment(deck, salt)
    if got != want:
        return (
            f"{COMMITMENT}: the deck and salt hash to {got[:16]}…, not the commitment"
            f" {want[:16]}… sent at the deal (the deck or the salt was changed)"
        )
    return None


__all__ = ["COMMITMENT", "FORMAT", "SALT", "commitment", "message", "revealed", "verify"]
