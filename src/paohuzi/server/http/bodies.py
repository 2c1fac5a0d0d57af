"""请求体 (qǐngqiú tǐ): JSON bodies read within ``BODY_BYTES`` and validated by a model.

Bodies are read up to the bound (413 beyond, however the client declares its
length) and parsed by orjson (400 ``bad_json``); a model's refusal becomes the
422 ``bad_request`` naming the fields, never echoing their values.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

import orjson
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from paohuzi.server.limits import BODY_BYTES, BODY_SECONDS
from paohuzi.server.wire import RoomError

M = TypeVar("M", bound=BaseModel)


async def json_body(request: Request) -> Any:
    """The request's JSON body, read up to ``BODY_BYTES`` (413 beyond, 400 if not JSON)
    within the app's ``body_timeout`` seconds (408 beyond: a body dripped a byte at a
    time holds no task for ever; docs/security.md)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > BODY_BYTES):
        raise RoomError(413, "body_too_large")
    body = bytearray()
    try:
        async with asyncio.timeout(getattr(request.app.state, "body_timeout", BODY_SECONDS)):
            async for chunk in request.stream():
                body += chunk
                if len(body) > BODY_BYTES:
                    raise RoomError(413, "body_too_large")
    except TimeoutError:
        raise RoomError(408, "body_too_slow") from None
    request.state.raw_body = bytes(body)  # kept: a relay may pass the request on (nodes)
    if not body.strip():
        return None
    try:
        return orjson.loads(bytes(body))
    except orjson.JSONDecodeError:
        raise RoomError(400, "bad_json") from None


def parse(model: type[M], data: Any) -> M:
    try:
        return model.model_validate({} if data is None else data)
    except ValidationError as e:
        raise RequestValidationError(e.errors(include_input=False, include_url=False)) from None


async def read(request: Request, model: type[M]) -> M:
    """The body of ``request`` as ``model``."""
    return parse(model, await json_body(request))


__all__ = ["json_body", "parse", "read"]
