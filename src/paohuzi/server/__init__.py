"""网页版 (wǎngyè bǎn): the authoritative web game server (INTERFACES.md §5).

``create_app(db_path)`` builds the FastAPI app; ``paohuzi serve`` runs it with uvicorn.
Importing this package needs the ``server`` extra (FastAPI, uvicorn, websockets, pydantic).
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """See :func:`paohuzi.server.http.app.create_app` (imported lazily: FastAPI is optional)."""
    from .http.app import create_app as _create

    return _create(*args, **kwargs)


__all__ = ["create_app"]
