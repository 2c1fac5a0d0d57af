"""Forwarded headers and oversized frames against a real ``paohuzi serve`` (issue 24;
docs/security.md "Hardening")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .serve_proc import client, raw, serve

ws_sync = pytest.importorskip("websockets.sync.client")
ws_exc = pytest.importorskip("websockets.exceptions")
pytestmark = pytest.mark.slow


def _create_as(base: str, n: int, source: str = "127.0.0.1") -> list[int]:
    with client(source) as c:
        return [
            c.post(
                base + "/api/rooms",
                json={"bots": 2},
                headers={"x-forwarded-for": f"203.0.113.{i}"},  # a new address each time
            ).status_code
            for i in range(n)
        ]


def test_spoofed_forwarded_for_is_ignored_without_trusted_proxies(tmp_path: Path) -> None:
    """Before: uvicorn believed X-Forwarded-For from loopback, so one client posed as
    many and 50 'addresses' filled the global room cap in 8 s."""
    with serve(tmp_path, "--rooms-per-client", "2") as (base, _):
        assert _create_as(base, 4) == [200, 200, 429, 429]  # one address: the socket's


def test_a_configured_proxy_is_believed(tmp_path: Path) -> None:
    with serve(tmp_path, "--rooms-per-client", "2", "--trusted-proxies", "127.0.0.1") as (
        base,
        _,
    ):
        assert _create_as(base, 4) == [200] * 4  # four clients behind the proxy


def test_a_bad_trusted_proxy_is_refused(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "paohuzi.cli.main", "serve", "--trusted-proxies", "proxy.lan"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "--trusted-proxies" in out.stderr


def test_a_2mb_frame_is_closed_with_1009(tmp_path: Path) -> None:
    """Before (reported): dropped with 1006. The transport closes it with 1009 before
    reading it (ws_max_size), and says so."""
    with serve(tmp_path) as (base, port):
        with client() as c:
            r = c.post(base + "/api/rooms", json={"bots": 2}).json()
        url = f"ws://127.0.0.1:{port}/ws/{r['room']}?token={r['token']}"
        with ws_sync.connect(url, max_size=None) as ws:
            ws.recv(timeout=10)
            with pytest.raises(ws_exc.ConnectionClosed) as closed:
                ws.send("x" * 2_000_000)
                for _ in range(100):
                    ws.recv(timeout=10)
        rcvd = closed.value.rcvd
        assert rcvd is not None and rcvd.code == 1009


def _held(port: int, n: int) -> tuple[list[Any], list[bytes]]:
    """``n`` sockets that each start a request; what each got back within 0.5 s."""
    socks = [raw(port) for _ in range(n)]
    for s in socks:
        s.sendall(b"GET / HTTP/1.1\r\n")
    answers = []
    for s in socks:
        s.settimeout(0.5)
        try:
            answers.append(s.recv(100))
        except TimeoutError:
            answers.append(b"")  # held open: admitted
    return socks, answers


def test_connections_in_all_are_capped(tmp_path: Path) -> None:
    with serve(tmp_path, "--max-connections", "6", "--conns-per-address", "100") as (_, port):
        socks, answers = _held(port, 9)
        assert answers[:5] == [b""] * 5  # (the server's own health check may hold one)
        assert any(a.startswith(b"HTTP/1.1 503") for a in answers[5:]), answers
        for s in socks:
            s.close()


def test_a_trusted_proxy_is_not_capped_per_address(tmp_path: Path) -> None:
    flags = ("--conns-per-address", "2", "--trusted-proxies", "127.0.0.1")
    with serve(tmp_path, *flags) as (_, port):
        socks, answers = _held(port, 5)
        assert answers == [b""] * 5  # its clients are counted by the proxy
        for s in socks:
            s.close()
