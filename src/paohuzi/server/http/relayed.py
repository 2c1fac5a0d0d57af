"""转发的请求 (zhuǎnfā de qǐngqiú): an HTTP request for a room another node owns.

The node a request reached finds the room elsewhere (``room_elsewhere``): with a
relay it passes the request — method, path, query, body, the client's address —
to the owner node (:meth:`~..nodes.relay.Relay.call`), which runs it through its
own app, in process, and sends back the status, type and body. The owner checks
everything again as for any request; a request it finds elsewhere in turn (the
room moved meanwhile) carries :data:`RELAYED` and is answered ``room_elsewhere``
there, never passed on twice.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request

RELAYED = "x-paohuzi-relayed"


def describe(request: Request) -> dict[str, Any]:
    """What the owner node needs to run ``request`` again (its body as read, if any)."""
    raw: bytes = getattr(request.state, "raw_body", b"")
    return {
        "m": request.method,
        "p": request.url.path,
        "q": request.url.query,
        "b": raw.decode("utf-8", "replace"),
        "t": request.headers.get("content-type", ""),
        "c": request.client.host if request.client else "?",
    }


async def run(app: Any, req: dict[str, Any]) -> dict[str, Any]:
    """Run a described request through ``app`` (ASGI, in process): its answer."""
    headers = [(RELAYED.encode(), b"1"), (b"host", b"relay")]
    if req["t"]:
        headers.append((b"content-type", str(req["t"]).encode("latin-1", "replace")))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": str(req["m"]),
        "scheme": "http",
        "path": str(req["p"]),
        "raw_path": str(req["p"]).encode(),
        "query_string": str(req["q"]).encode(),
        "root_path": "",
        "headers": headers,
        "client": (str(req["c"]), 0),
        "server": ("relay", 0),
    }
    body = str(req["b"]).encode()
    given = False
    out: dict[str, Any] = {"s": 500, "t": "application/json", "b": ""}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the asking client never disconnects from here
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["s"] = int(message["status"])
            for k, v in message.get("headers", []):
                if k.lower() == b"content-type":
                    out["t"] = v.decode("latin-1")
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    out["b"] = b"".join(chunks).decode("utf-8", "replace")
    return out


__all__ = ["RELAYED", "describe", "run"]
