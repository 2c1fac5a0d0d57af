"""安全 (ānquán): response headers for browsers, and seat tokens kept out of the logs.

:class:`SecurityHeaders` adds to every HTTP response a Content-Security-Policy
(the page loads its own script and style only, and talks only to its own
server), ``X-Frame-Options: DENY`` (no framing), ``Referrer-Policy:
no-referrer`` and ``X-Content-Type-Options: nosniff``. It is a plain ASGI
wrapper (Starlette has no header middleware; ``BaseHTTPMiddleware`` would
buffer every response) and leaves websockets alone.

:func:`redact_tokens_in_logs` filters uvicorn's loggers: a seat's websocket
URL carries ``?token=…`` (INTERFACES.md §5), and uvicorn logs that URL.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "object-src 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]
DOCS = ("/docs", "/redoc")  # dev only: Swagger UI runs inline scripts from a CDN


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = HEADERS[1:] if scope["path"].startswith(DOCS) else HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)


TOKEN = re.compile(r"(token=)[^&\s\"'#]+", re.IGNORECASE)
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact(text: str) -> str:
    return TOKEN.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Replaces every ``token=…`` in a record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_arg(v) for k, v in record.args.items()}
        return True


def _redact_arg(a: Any) -> Any:
    return redact(a) if isinstance(a, str) else a


def redact_tokens_in_logs() -> None:
    """Install :class:`RedactTokens` on uvicorn's loggers (once each)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


__all__ = ["CSP", "RedactTokens", "SecurityHeaders", "redact", "redact_tokens_in_logs"]
