"""Browser tests of the web table: `paohuzi serve` in a subprocess, Debian's chromium.

Needs /usr/bin/chromium and the ``playwright`` package (never ``playwright install``).
Each test opens its own page on a shared server (bots act at once: --bot-delay 0).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# Every server's log and address, newest last: a failed browser test shows the logs'
# tails and the meters of the servers still up (a page that waited in vain says little
# of why; refused handshakes, reconnections and the server's warnings may).
LOGS: list[Path] = []
BASES: list[str] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.when == "call":
        for log in LOGS[-3:]:
            text = log.read_text(errors="replace")[-3000:] if log.exists() else "(no log)"
            report.sections.append((f"server log {log}", text or "(empty)"))
        for base in BASES[-3:]:
            try:
                meters = httpx.get(base + "/api/nodes", timeout=5).text
            except httpx.HTTPError as e:
                meters = f"(unreachable: {e!r})"
            report.sections.append((f"server meters {base}", meters))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(tmp: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    cmd = [
        sys.executable,
        "-c",
        "import sys; from paohuzi.cli.main import main; sys.exit(main())",
        "serve",
        "--port",
        str(port),
        "--db",
        str(tmp / "web.sqlite3"),
        "--bot-delay",
        "0",
        "--room-rate",
        "1000",
        "--rooms-per-client",
        "1000",
        "--rooms-per-hour",
        "100000",
        "--msg-rate",
        "1000",
        "--read-rate",
        "1000",
        "--conns-per-address",
        "1000",
        "--handshake-rate",
        "1000",
        "--bot-workers",
        "1",
        "--log-level",
        "warning",
        *extra,
    ]
    # stderr to a file, not a pipe: nobody reads a pipe during the session, and a server
    # whose warnings filled its 64 KiB would block on its next one (a hand that never came)
    log = tmp / "server.log"
    LOGS.append(log)
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90  # a loaded 2-core machine takes 30 s and more
    while True:
        assert proc.poll() is None, log.read_text(errors="replace")[-4000:] or "server died"
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                BASES.append(base)
                return proc, base
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def need_browser() -> None:
    """Skip (with the reason) where there is no chromium or no playwright package."""
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing (run .ci/system-deps)")
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    need_browser()
    proc, base = start_server(tmp_path_factory.mktemp("web"), "--away-timeout", "600")
    yield base
    stop_server(proc)


# Per module: Playwright's sync API keeps an event loop running in this thread while it
# is open, and tests after these (asyncio.run) need it gone.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()
