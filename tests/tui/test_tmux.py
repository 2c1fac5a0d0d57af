"""One real run of ``paohuzi play`` in an 80×24 tmux pane: keys in, screen text out.

Skipped when tmux is not installed (``apt-get install -y tmux``).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from paohuzi.core.records import check
from paohuzi.core.rules import HUNAN
from paohuzi.tui.session import PlaySession

from .helpers import WIN_SEED, expected_hand_line

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=10
    ).stdout


def wait_for(name: str, *needles: str, timeout: float = 15) -> str:
    end = time.monotonic() + timeout
    pane = ""
    while time.monotonic() < end:
        pane = tmux("capture-pane", "-p", "-t", name)
        if any(n in pane for n in needles):
            return pane
        time.sleep(0.1)
    raise AssertionError(f"none of {needles} on screen:\n{pane}")


def wait_for_change(name: str, before: str, timeout: float = 10) -> str:
    """The next screen after a key (so no key is sent before the last one was taken)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pane = tmux("capture-pane", "-p", "-t", name)
        if pane != before:
            time.sleep(0.05)  # let the bots' moves finish drawing
            return pane
        time.sleep(0.02)
    raise AssertionError(f"the screen did not react:\n{before}")


def test_real_terminal_80x24(tmp_path: Path) -> None:
    name = f"paohuzi-test-{uuid.uuid4().hex[:8]}"
    play = [
        sys.executable, "-m", "paohuzi.cli.main", "play", "--seed", str(WIN_SEED),
        "--bots", "random", "--hands", "1", "--delay", "0", "--record-dir", str(tmp_path),
    ]  # fmt: skip
    cmd = f"{shlex.join(play)}; echo EXIT=$?; sleep 60"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", cmd)
    try:
        pane = wait_for(name, "轮到你出牌")
        lines = pane.splitlines()
        assert len(lines) <= 24 and "第1/1局" in lines[0]
        s = PlaySession(HUNAN, WIN_SEED, ["random"], 1, None)
        s.start_hand()  # the same seed deals the same hand
        assert expected_hand_line(s.view().hand) in pane
        assert "q 退出" in lines[-1] or "q 退出" in pane.rstrip().splitlines()[-1]
        for _ in range(60):  # "1" + Enter: first card / first option until the hand ends
            tmux("send-keys", "-t", name, "1", "Enter")
            pane = wait_for_change(name, pane)
            pane = wait_for(name, "轮到你出牌", "你可以", "结算", timeout=10)
            if "结算" in pane:
                break
        else:
            raise AssertionError("the hand never ended")
        assert "座位" in pane and "当前总息" in pane
        tmux("send-keys", "-t", name, "Enter")  # the one-hand match is over: Enter leaves
        pane = wait_for(name, "EXIT=")
        assert "EXIT=0" in pane and "paohuzi play: 1/1 hands" in pane
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=10)
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1
    assert check(json.loads(files[0].read_text(encoding="utf-8"))) == []
