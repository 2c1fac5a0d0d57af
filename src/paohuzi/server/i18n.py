"""双语 (shuāngyǔ): the one catalogue of the server's error codes, in Chinese and English.

Every error the server sends — an HTTP refusal ``{"error": code, …}`` or a
websocket ``{"type": "error", "code": …}`` — names a code of :data:`CATALOGUE`
and carries ``message`` (Chinese, the field §5 always had), ``message_zh`` and
``message_en``. Codes are stable; the texts may change. No text names what a
seat's view hides, and none echoes the request.
"""

from __future__ import annotations

from typing import NamedTuple


class Text(NamedTuple):
    zh: str
    en: str


CATALOGUE: dict[str, Text] = {
    # websocket messages
    "bad_json": Text("消息不是有效的 JSON", "The message is not valid JSON"),
    "bad_message": Text("无法识别的消息", "Unrecognised message"),
    "too_large": Text("消息太长", "The message is too long"),
    "rate_limited": Text("操作太频繁，请稍后再试", "Too many messages, please slow down"),
    "stale_version": Text(
        "牌局已经变化，请按最新的局面操作", "The game has moved on; act on the latest state"
    ),
    "not_your_turn": Text("现在没有需要你决定的事", "You have nothing to decide right now"),
    "bad_action": Text("无法识别的动作", "Unrecognised action"),
    "illegal_action": Text("这一步不合规则", "That move is not allowed by the rules"),
    "wang_move": Text(
        "王不能打出，也不能用来吃、碰或比（R39）",
        "A wang (wild card) is never discarded, claimed, nor used in a chi or bi (R39)",
    ),
    # connections
    "bad_token": Text("座位凭证无效", "Invalid seat token"),
    "unknown_room": Text("房间不存在", "No such room"),
    "bad_origin": Text("不允许从这个网址连接", "Connections from this site are not allowed"),
    "replaced": Text("这个座位已在别处连接", "This seat was opened somewhere else"),
    "too_many_connections": Text(
        "连接太频繁，请稍后再试", "Too many connections, please try again later"
    ),
    # HTTP
    "bad_request": Text("请求无效", "Invalid request"),
    "bad_rules": Text("规则无效", "Invalid rules"),
    "bad_options": Text("房间选项无效", "Invalid room options"),
    "body_too_large": Text("请求太大", "The request is too large"),
    "body_too_slow": Text("请求发送太慢", "The request was sent too slowly"),
    "room_full": Text("房间已满", "The room is full"),
    "unknown_hand": Text("没有这局的记录", "No record of that hand"),
    "bad_seat": Text("这局没有这个座位", "That seat was not dealt in this hand"),
    "unknown_rules": Text("没有这个规则或房间", "No such rules preset or room"),
    "unknown_tutorial": Text("没有这个教学", "No such tutorial"),
    "too_many_rooms": Text(
        "创建房间太频繁，请稍后再试", "Too many rooms created, please try again later"
    ),
    "server_busy": Text("服务器房间已满，请稍后再试", "The server is full, please try later"),
    "room_elsewhere": Text(
        "房间正在转到另一台服务器，请稍后重连",
        "The room is moving to another server, reconnect shortly",
    ),
    "not_found": Text("找不到", "Not found"),
    "method_not_allowed": Text("不支持这个请求方法", "Method not allowed"),
    # table messages the table engineer wires (docs/web.md, "Server API for the lobby …")
    "bad_phrase": Text("没有这句快捷语", "No such quick phrase"),
    "not_waiting": Text("牌局已经开始", "The match has already started"),
    "no_match": Text("没有进行中的比赛可以解散", "There is no match in play to dissolve"),
    "no_vote": Text("没有进行中的解散投票", "No vote to dissolve the room is open"),
}


def text(code: str) -> Text:
    """The texts of ``code`` (KeyError for an uncatalogued code: a bug, caught by the tests)."""
    return CATALOGUE[code]


def fields(code: str, detail: str | None = None, detail_en: str | None = None) -> dict[str, str]:
    """``message`` (Chinese, as §5 always had), ``message_zh`` and ``message_en``.

    ``detail`` adds what the client sent wrong (a field name or a bound, never
    its input); a Chinese ``detail`` is left out of the English text unless
    ``detail_en`` translates it.
    """
    t = CATALOGUE[code]
    zh = t.zh if detail is None else f"{t.zh}：{detail}"
    extra = (
        detail_en if detail_en is not None else (detail if detail and detail.isascii() else None)
    )
    en = t.en if extra is None else f"{t.en}: {extra}"
    return {"message": zh, "message_zh": zh, "message_en": en}


def http_body(
    code: str, detail: str | None = None, detail_en: str | None = None, **more: object
) -> dict[str, object]:
    """An HTTP refusal: ``{"error": code, "message", "message_zh", "message_en", …}``
    (``detail`` / ``detail_en``: why, after the code's text, as :func:`fields` adds it)."""
    return {"error": code, **fields(code, detail, detail_en), **more}


__all__ = ["CATALOGUE", "Text", "fields", "http_body", "text"]
