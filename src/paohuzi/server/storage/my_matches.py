"""我的牌局 (wǒ de páijú): the matches a browser played, found by the seat tokens it kept.

A seat token is the only proof of having played a seat, so the browser sends
the tokens it holds (``localStorage``) and gets back, per match: the rules, the
date, every seat's name and total, its own seat, and each finished hand's
result with its replay link. Tokens are compared inside SQLite and never
returned — neither the caller's nor any other seat's. What a room's pruning
deleted (a finished match's room an hour after its end) is no longer listed;
its replay links live on for the records' lifetime.
"""

from __future__ import annotations

import json
import time
from typing import Any

from paohuzi.core.rules import Rules, RulesError
from paohuzi.server.present.options import summary
from paohuzi.server.storage.sqlite import RoomConfig, SqliteStorage, Storage

MAX_TOKENS = 50  # one browser's rooms; more is refused (422)
MAX_MATCHES = 50


def _rows(store: Storage, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    if not isinstance(store, SqliteStorage):
        return []  # another backend would add its own query
    return store._query(sql, args)


def my_matches(store: Storage, tokens: list[str]) -> list[dict[str, Any]]:
    """The matches seats of ``tokens`` sat in, newest first (unknown tokens: ignored)."""
    tokens = sorted({t for t in tokens if t})[:MAX_TOKENS]
    if not tokens:
        return []
    marks = ",".join("?" * len(tokens))
    mine = _rows(
        store,
        f"SELECT s.room_id, s.seat, r.created, r.rules, r.status, r.config FROM seats s "
        f"JOIN rooms r ON r.id = s.room_id WHERE s.kind = 'human' AND s.token IN ({marks}) "
        "ORDER BY r.created DESC LIMIT ?",
        (*tokens, MAX_MATCHES),
    )
    out = []
    for room_id, seat, created, rules_json, status, config_json in mine:
        out.append(_match(store, room_id, seat, created, rules_json, status, config_json))
    return out


def _match(
    store: Storage,
    room_id: str,
    seat: int,
    created: float,
    rules_json: str,
    status: str,
    config_json: str,
) -> dict[str, Any]:
    try:
        rules = Rules.from_dict(json.loads(rules_json))
        line = summary(rules, RoomConfig.from_dict(json.loads(config_json)).bot)
    except (RulesError, ValueError):
        rules, line = None, {"zh": "", "en": ""}
    seats = [
        {"seat": s, "kind": k, "name": n}  # never the token column
        for s, k, n in _rows(
            store, "SELECT seat, kind, name FROM seats WHERE room_id = ? ORDER BY seat", (room_id,)
        )
    ]
    match = _rows(store, "SELECT id, hands, scores FROM matches WHERE room_id = ?", (room_id,))
    hands: list[dict[str, Any]] = []
    scores: list[int] = []
    total = 0
    if match:
        mid, total, scores_json = match[0]
        scores = json.loads(scores_json)
        for hid, idx, finished, rec in _rows(
            store,
            "SELECT id, idx, finished, record FROM hands WHERE match_id = ? AND status = 'finished' "
            "ORDER BY idx",
            (mid,),
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
    }


__all__ = ["MAX_TOKENS", "my_matches"]
