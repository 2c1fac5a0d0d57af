"""Two languages for server errors (issue 15): one catalogue, every error path catalogued."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from paohuzi.server import i18n
from paohuzi.server.wire import ERRORS, error

SERVER = Path(i18n.__file__).parent
# Every way the server names an error code in its sources.
CODE_SITES = [
    r'RoomError\(\s*\d+\s*,\s*"([a-z_]+)"',
    r'\berror\(\s*"([a-z_]+)"',
    r'_fail\(\s*\d+\s*,\s*"([a-z_]+)"',
    r'http_body\(\s*"([a-z_]+)"',
    r'\(\s*"([a-z_]+)"\s*,\s*WS_[A-Z_]+\s*\)',
    r'^\s*return "([a-z_]+)"\s*$',  # seats.lookup / Room.act answer with a code
]


def test_every_code_has_both_languages() -> None:
    assert len(i18n.CATALOGUE) >= 20
    for code, t in i18n.CATALOGUE.items():
        assert re.fullmatch(r"[a-z_]+", code), code
        assert t.zh.strip() and t.en.strip(), code
        assert re.search(r"[\u4e00-\u9fff]", t.zh), code  # Chinese
        assert t.en.isascii() and t.en != t.zh, code
    assert {c: t.zh for c, t in i18n.CATALOGUE.items()} == ERRORS  # the old field, same source


def test_every_error_path_in_the_sources_names_a_catalogued_code() -> None:
    found: dict[str, str] = {}
    for path in sorted(SERVER.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for pat in CODE_SITES:
            for m in re.finditer(pat, text, re.M):
                found.setdefault(m.group(1), path.name)
    # the scan itself must see the known sites, or it proves nothing
    assert {"stale_version", "illegal_action", "bad_token", "room_full", "bad_options"} <= set(
        found
    )
    missing = {c: f for c, f in found.items() if c not in i18n.CATALOGUE}
    assert not missing, missing


def test_ws_error_messages_carry_both_languages() -> None:
    e = error("bad_message", "version").model_dump(mode="json")
    assert e == {
        "type": "error",
        "code": "bad_message",
        "message": "无法识别的消息：version",
        "message_zh": "无法识别的消息：version",
        "message_en": "Unrecognised message: version",
    }
    assert error("too_large", "最多 4096 字节").message_en == "The message is too long"


def test_http_errors_carry_code_and_both_languages(client: TestClient) -> None:
    cases = [
        (client.get("/api/rooms/ZZZZZZ"), 404, "unknown_room"),
        (client.post("/api/rooms/ZZZZZZ/join"), 404, "unknown_room"),
        (client.get("/api/records/nope"), 404, "unknown_hand"),
        (client.get("/api/nothing-here"), 404, "not_found"),
        (client.delete("/api/health"), 405, "method_not_allowed"),
        (client.post("/api/rooms", json={"rules": "nope"}), 400, "bad_rules"),
        (client.post("/api/rooms", json={"hands": 0}), 422, "bad_request"),
        (client.post("/api/rooms", json={"options": {"x": 1}}), 422, "bad_options"),
        (client.post("/api/rooms", content=b"{oops"), 400, "bad_json"),
        (client.post("/api/rooms", content=b"[" * 9000), 413, "body_too_large"),
        (client.get("/api/rules/nothing"), 404, "unknown_rules"),
        (client.get("/api/tutorial/nothing"), 404, "unknown_tutorial"),
        (client.get("/api/rooms/ZZZZZZ/qr.svg"), 404, "unknown_room"),
        (client.post("/api/tutorial/basics/step", json={"at": -1}), 422, "bad_request"),
        (client.post("/api/my-matches", json={"tokens": ["x" * 65]}), 422, "bad_request"),
    ]
    for r, status, code in cases:
        assert r.status_code == status, (code, r.text)
        body = r.json()
        assert body["error"] == code
        t = i18n.CATALOGUE[code]
        assert body["message"] == body["message_zh"] == t.zh and body["message_en"] == t.en


def test_refused_websocket_gets_a_bilingual_error(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"bots": 2, "bot": "easy"}).json()["room"]
    with client.websocket_connect(f"/ws/{room}?token=wrong") as ws:
        msg = ws.receive_json()
    assert msg["type"] == "error" and msg["code"] == "bad_token"
    assert msg["message"] == "座位凭证无效" and msg["message_en"] == "Invalid seat token"
