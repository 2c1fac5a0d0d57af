"""Fixtures for the web game tests: apps on a temp SQLite file, websocket play helpers."""

from __future__ import annotations

import faulthandler
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from paohuzi.server.http.app import create_app
from paohuzi.server.limits import Limits

from .databases import BACKENDS, database

# Protocol tests ping after every message: far above a player's pace (test_abuse meters).
TEST_LIMITS = Limits(
    msg_rate=10_000,
    msg_burst=10_000,
    connect_rate=100,
    connect_burst=100,
    read_rate=10_000,
    read_burst=10_000,
    handshake_rate=10_000,
    handshake_burst=10_000,
)

HANG_GUARD_S = 180  # a protocol bug must fail the run, not hang CI


@pytest.fixture(autouse=True)
def _hang_guard() -> Iterator[None]:
    faulthandler.dump_traceback_later(HANG_GUARD_S, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "game.sqlite3"


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database on each backend: a SQLite file, a PostgreSQL schema (skipped,
    with the reason, where PostgreSQL is not reachable)."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def make_client(db_path: Path) -> Iterator[Callable[..., TestClient]]:
    """``make_client(**create_app kwargs)`` → a started TestClient (closed at teardown)."""
    opened: list[TestClient] = []

    def make(**kw: Any) -> TestClient:
        kw.setdefault("bot_delay", 0)
        kw.setdefault("away_timeout", 1000)
        kw.setdefault("public_url", "http://testserver")  # the test client's own address
        kw.setdefault("limits", TEST_LIMITS)
        client = TestClient(create_app(kw.pop("db", db_path), **kw))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for c in opened:
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()
