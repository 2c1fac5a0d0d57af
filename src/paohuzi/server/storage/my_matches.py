"""我的牌局 (wǒ de páijú): the matches a browser played, found by the seat tokens it kept.

A seat token is the only proof of having played a seat, so the browser sends
the tokens it holds (``localStorage``) and gets back, per match: the rules, the
date, every seat's name and total, its own seat, and each finished hand's
result with its replay link. Tokens are compared inside the database and never
returned — neither the caller's nor any other seat's. What a room's pruning
deleted (a finished match's room an hour after its end) is no longer listed;
its replay links live on for the records' lifetime.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import select

from paohuzi.core.rules import MatchKind, Rules, RulesError
from paohuzi.server.present.options import summary
from paohuzi.server.storage import schema as t
from paohuzi.server.storage.rows import RoomConfig
from paohuzi.server.storage.store import Storage

MAX_TOKENS = 50  # one browser's rooms; more is refused (422)
MAX_MATCHES = 50


async def my_matches(store: Storage, tokens: list[str]) -> list[dict[str, Any]]:
    """The matches seats of ``tokens`` sat in, newest first (unknown tokens: ignored)."""
    tokens = sorted({t for t in tokens if t})[:MAX_TOKENS]
    if not tokens:
        return []
    mine = await store.fetch(
        select(
            t.seats.c.room_id, t.seats.c.seat, t.rooms.c.created, t.rooms.c.rules, t.rooms.c.status,
            t.rooms.c.config,
        )
        .join(t.rooms, t.rooms.c.id == t.seats.c.room_id)
        .where(t.seats.c.kind == "human", t.seats.c.token.in_(tokens))
        .order_by(t.rooms.c.created.desc())
        .limit(MAX_MATCHES)
    )  # fmt: skip
    out = []
    for room_id, seat, created, rules_json, status, config_json in mine:
        out.append(await _match(store, room_id, seat, created, rules_json, status, config_json))
    return out


async def _match(
    store: Storage,
    room_id: str,
    seat: int,
    created: float,
    rules_json: str,
    status: str,
    config_json: str,
) -> dict[str, Any]:
    try:
        rules: Rules | None = Rules.from_dict(json.loads(rules_json))
        bot = RoomConfig.from_dict(json.loads(config_json)).bot
    except (RulesError, ValueError):
        rules, bot = None, None
    seats = [
        {"seat": s, "kind": k, "name": n}  # never the token column
        for s, k, n in await store.fetch(
            select(t.seats.c.seat, t.seats.c.kind, t.seats.c.name)
            .where(t.seats.c.room_id == room_id)
            .order_by(t.seats.c.seat)
        )
    ]
    match = await store.fetch(
        select(t.matches.c.id, t.matches.c.hands, t.matches.c.scores).where(
            t.matches.c.room_id == room_id
        )
    )
    hands: list[dict[str, Any]] = []
    scores: list[int] = []
    total = 0
    if match:
        mid, total, scores_json = match[0]
        scores = json.loads(scores_json)
        for hid, idx, finished, rec in await store.fetch(
            select(t.hands.c.id, t.hands.c.idx, t.hands.c.finished, t.hands.c.record)
            .where(t.hands.c.match_id == mid, t.hands.c.status == "finished")
            .order_by(t.hands.c.idx)
        ):
            res = (json.loads(rec) or {}).get("result", {}) if rec else {}
            hands.append(
                {
                    "hand_id": hid,
                    "index": idx,
                    "finished": finished,
                    "winner": res.get("winner"),
                    "huxi": res.get("huxi"),
                    "scores": res.get("scores", []),
                    "replay": f"#/replay/{hid}",
                    "record_url": f"/api/records/{hid}",
                    "replay_url": f"/api/replays/{hid}",
                }
            )
    line = {"zh": "", "en": ""}
    if rules is not None:  # the room's own 局数 (a room may be made with other than its preset's)
        shown = (
            rules if total in (0, rules.hands_per_match) else rules.replace(hands_per_match=total)
        )
        line = summary(shown, bot)
    return {
        "room": room_id,
        "seat": seat,
        "created": created,
        "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime(created)) + " UTC",
        "status": status,
        "rules": rules.name if rules else None,
        "summary": line,
        "seats": seats,
        "scores": scores,
        "hands_total": total,
        "hands": hands,
        # ended by a 解散 vote: over before its hands were played (a race may end early)
        "dissolved": status == "finished"
        and rules is not None
        and rules.match == MatchKind.HANDS
        and len(hands) < total,
    }


__all__ = ["MAX_TOKENS", "my_matches"]
