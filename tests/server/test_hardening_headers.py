"""Header floods and slowloris against a real ``paohuzi serve`` (issue 24, High;
docs/security.md "Hardening"): the built-in server bounds a request's header size and
time, caps connections per address, and an honest player still gets in meanwhile."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

from .serve_proc import OTHER, client, raw, read_until_closed, serve

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = pytest.mark.slow
FLAGS = ("--header-timeout", "1.5", "--conns-per-address", "8", "--header-bytes", "16384")


@pytest.fixture(scope="module", params=["httptools", "h11"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> object:
    """A server per HTTP parser uvicorn may run (each under the same guard)."""
    with serve(tmp_path_factory.mktemp("harden"), *FLAGS, "--http", request.param) as s:
        yield s


def test_a_header_that_never_ends_is_cut_with_431(server: tuple[str, int]) -> None:
    """Before: the header was read without limit (4 sockets: 11 s of CPU, 250 MB)."""
    _, port = server
    s = raw(port)
    s.sendall(b"GET / HTTP/1.1\r\nHost: a\r\nX-Junk: ")
    sent = 0
    try:
        for _ in range(4096):  # up to 4 MB, a chunk at a time, as long as it reads them
            s.sendall(b"a" * 1024)
            sent += 1024
    except (BrokenPipeError, ConnectionResetError):
        pass
    got, _ = read_until_closed(s, 5)
    s.close()
    assert got.startswith(b"HTTP/1.1 431"), got[:80]
    assert sent < 4096 * 1024  # cut off, not read to the end


def test_half_a_header_then_silence_is_closed_after_the_header_timeout(
    server: tuple[str, int],
) -> None:
    """Before: a socket that sent half a header and stalled was held for ever."""
    _, port = server
    s = raw(port)
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: a\r\n")  # no blank line: never finished
    got, took = read_until_closed(s, 8)
    s.close()
    assert got.startswith(b"HTTP/1.1 408"), got[:80]
    assert took < 8  # closed by the server, not by our patience


def test_a_kept_alive_connection_that_stalls_in_its_next_header_is_closed(
    server: tuple[str, int],
) -> None:
    """The bound holds for every request of a connection, not only the first."""
    _, port = server
    s = raw(port)
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: a\r\n\r\n")
    s.settimeout(5)
    first = s.recv(4096)
    assert first.startswith(b"HTTP/1.1 200"), first[:80]
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: a\r\n")  # then silence
    got, took = read_until_closed(s, 8)
    s.close()
    assert b"408" in got.split(b"\r\n", 1)[0] and took < 8, got[:80]


def test_a_socket_that_sends_nothing_is_closed_too(server: tuple[str, int]) -> None:
    _, port = server
    s = raw(port)
    got, took = read_until_closed(s, 8)
    s.close()
    assert took < 8 and got.startswith(b"HTTP/1.1 408")


def test_a_drip_fed_header_is_closed_at_the_timeout_though_each_byte_is_quick(
    server: tuple[str, int],
) -> None:
    """Slowloris proper: a byte every 0.2 s resets no timer; the header's time is bounded."""
    _, port = server
    s = raw(port)
    s.sendall(b"GET / HTTP/1.1\r\n")
    t0 = time.monotonic()
    closed = False
    while time.monotonic() - t0 < 8:
        try:
            s.sendall(b"X")
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
        s.settimeout(0.2)
        try:
            if s.recv(100) is not None:
                closed = True
                break
        except TimeoutError:
            pass
    s.close()
    assert closed and time.monotonic() - t0 < 8


def test_connections_beyond_the_cap_per_address_are_refused_and_others_still_play(
    server: tuple[str, int],
) -> None:
    """Before: any number of sockets from one address (20,000 ran out of descriptors),
    and new players could not connect during the attack."""
    base, port = server
    held = [raw(port) for _ in range(8)]
    for s in held:  # each starts a header it never finishes
        s.sendall(b"GET / HTTP/1.1\r\n")
    time.sleep(0.2)
    extra = raw(port)
    got, _ = read_until_closed(extra, 5)
    extra.close()
    assert got.startswith(b"HTTP/1.1 429"), got[:80]
    # meanwhile an honest player, from another address, creates a room and plays
    with client(OTHER) as c:
        r = c.post(base + "/api/rooms", json={"bots": 2, "bot": "easy"})
        assert r.status_code == 200, r.text
        room = r.json()
    sock = socket.create_connection(("127.0.0.1", port), source_address=(OTHER, 0))
    url = f"ws://127.0.0.1:{port}/ws/{room['room']}?token={room['token']}"
    with websockets_sync.connect(url, sock=sock, open_timeout=10) as ws:
        assert '"type":"state"' in str(ws.recv(timeout=10))
    for s in held:
        s.close()


def test_the_flags_are_checked(tmp_path: Path) -> None:
    import subprocess
    import sys

    for bad in (["--header-timeout", "0"], ["--conns-per-address", "0"], ["--header-bytes", "10"]):
        out = subprocess.run(
            [sys.executable, "-m", "paohuzi.cli.main", "serve", *bad, "--db", str(tmp_path / "x")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 2 and "error" in out.stderr, (bad, out.stderr)
