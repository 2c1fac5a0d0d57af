"""``paohuzi serve`` (INTERFACES.md §5): flags and a real start on a loopback port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from paohuzi.cli.main import build_parser


def test_serve_flags_and_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8000, None)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9", "--db", "x.db"])
    assert (args.host, args.port, args.db) == ("0.0.0.0", 9, "x.db")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_starts_answers_health_and_creates_its_database(tmp_path: Path) -> None:
    port = _free_port()
    db = tmp_path / "data" / "web.sqlite3"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    cmd = [
        sys.executable,
        "-m",
        "paohuzi.cli.main",
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
                    assert json.load(r) == {"ok": True}
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "server did not come up"
                time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert "跑胡子" in r.read().decode("utf-8")
        assert db.exists() and not (tmp_path / "xdg").exists()
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_limit_flags_and_their_checks() -> None:
    from paohuzi.cli.serve import run

    argv = ["serve", "--allow-origin", "https://a.example", "--max-rooms", "9", "--sync", "full"]
    args = build_parser().parse_args([*argv, "--dev", "--msg-rate", "5", "--bot-workers", "2"])
    assert args.allow_origin == ["https://a.example"] and args.max_rooms == 9
    assert (args.sync, args.dev, args.msg_rate, args.bot_workers) == ("full", True, 5, 2)
    defaults = build_parser().parse_args(["serve"])
    assert (defaults.dev, defaults.sync, defaults.allow_origin) == (False, "normal", [])
    for bad in (["--max-rooms", "0"], ["--msg-rate", "0"], ["--bot-workers", "0"]):
        assert run(build_parser().parse_args(["serve", *bad])) == 2, bad


def test_serve_refuses_a_database_it_cannot_use_with_a_clear_error(
    tmp_path: Path, capsys: Any
) -> None:
    """A bad ``--db`` stops ``serve`` before it listens: exit 2, one line, no password shown."""
    from paohuzi.cli.serve import run

    for db, said in (
        ("mysql://u@h/d", "unknown database mysql://"),
        ("postgresql://u:secret@127.0.0.1:1/d", "cannot open database postgresql://u:***@"),
    ):
        assert run(build_parser().parse_args(["serve", "--db", db])) == 2
        err = capsys.readouterr().err
        assert said in err and "secret" not in err and "Traceback" not in err
    bad_file = tmp_path / "not-a-db.sqlite3"
    bad_file.write_bytes(b"this is no database" * 100)
    assert run(build_parser().parse_args(["serve", "--db", str(bad_file)])) == 2
    assert "cannot open database" in capsys.readouterr().err
    assert bad_file.read_bytes() == b"this is no database" * 100  # left as it was
