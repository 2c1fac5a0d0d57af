"""公平发牌 (gōngpíng fāpái): the deal's commitment, which a player checks after the hand.

At the deal the server sends every seat ``commitment(deck, salt)``: the SHA-256 of
the deck in dealing order and a secret salt. When the hand ends the record reveals
both (``deal_proof``), and anyone recomputes the hash. The byte format is fixed by
docs/fair-dealing.md: the ASCII text ``paohuzi-deal-v1:<salt>:<c1>,<c2>,…`` where
``<salt>`` is 32 lower-case hex digits (16 random bytes) and ``<cN>`` the deck's
card codes (``x1``…``x10``, ``d1``…``d10``) in dealing order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from typing import Any

FORMAT = "paohuzi-deal-v1"
PROOF = "deal_proof"  # the record's field (INTERFACES §4, additive)
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


def proof(deck: Iterable[str], salt: str) -> dict[str, str]:
    """The record's ``deal_proof``: the format, the commitment sent at the deal, the salt."""
    codes = list(deck)
    return {"format": FORMAT, "commitment": commitment(codes, salt), "salt": salt}


def verify(deck: Iterable[str], given: Any) -> str | None:
    """None if ``given`` (a record's ``deal_proof``) commits to ``deck``; else why not."""
    if not isinstance(given, Mapping) or given.get("format") != FORMAT:
        return f"{PROOF}: not a {FORMAT} proof"
    salt, want = given.get("salt"), given.get("commitment")
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        return f"{PROOF}: salt must be 32 lower-case hex digits"
    if not isinstance(want, str) or not _HEX.fullmatch(want):
        return f"{PROOF}: commitment must be 64 lower-case hex digits"
    got = commitment(deck, salt)
    if got != want:
        return (
            f"{PROOF}: the deck and salt hash to {got[:16]}…, not the commitment"
            f" {want[:16]}… sent at the deal (the deck was changed)"
        )
    return None


__all__ = ["FORMAT", "PROOF", "commitment", "message", "proof", "verify"]
