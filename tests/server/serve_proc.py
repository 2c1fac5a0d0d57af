"""A real ``paohuzi serve`` in a subprocess, and raw sockets against it (hardening tests)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

# A second loopback address: the attack comes from 127.0.0.1, the honest player from here.
OTHER = "127.0.0.2"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(tmp: Path, *flags: str) -> Iterator[tuple[str, int]]:
    """``paohuzi serve`` on a free port of 127.0.0.1 with ``flags``; yields (base URL, port)."""
    try:  # Linux routes all of 127/8 to loopback; elsewhere 127.0.0.2 may not exist
        with socket.socket() as probe:
            probe.bind((OTHER, 0))
    except OSError:
        pytest.skip(f"{OTHER} is not a local address here (the honest player's)")
    port = free_port()
    cmd = [
        sys.executable,
        "-c",
        "import sys; from paohuzi.cli.main import main; sys.exit(main())",
        "serve",
        "--port",
        str(port),
        "--db",
        str(tmp / "harden.sqlite3"),
        "--bot-delay",
        "0",
        "--bot-workers",
        "1",
        "--log-level",
        "warning",
        *flags,
    ]
    log = tmp / "server.log"  # a file, not an unread pipe that could fill and block it
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")[-4000:] or "died"
            try:
                with httpx.Client(transport=httpx.HTTPTransport(local_address=OTHER)) as c:
                    if c.get(base + "/api/health", timeout=1).status_code == 200:
                        break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield base, port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def raw(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the server from ``source`` (nothing sent yet)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return s


def read_until_closed(s: socket.socket, timeout: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes (or ``timeout``): the bytes, the seconds."""
    s.settimeout(timeout)
    t0, got = time.monotonic(), b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return got, time.monotonic() - t0


def client(source: str = OTHER) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=10)
