"""Websocket play helpers for the web game tests."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient


def create_room(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("rules", "hunan")
    body.setdefault("bot", "easy")
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    return r.json()


class Player:
    """One seat's websocket: keeps the latest state, the errors and every frame received."""

    def __init__(self, ws: Any):
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.frames: list[str] = []  # every message as it came (test_wire validates them)

    def recv(self) -> dict[str, Any]:
        """The next message; states are remembered, errors collected."""
        raw: str = self.ws.receive_text()
        self.frames.append(raw)
        msg: dict[str, Any] = json.loads(raw)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
            # a refused message would leave a ping unanswered: fail now, not at the hang guard
            assert msg["code"] != "rate_limited", msg
        return msg

    def next_state(self) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if msg["type"] == "state":
                return msg

    def until(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        st = self.state
        while st is None or not pred(st):
            st = self.next_state()
        return st

    def act(self, action: str, version: int | None = None) -> None:
        assert self.state is not None
        v = self.state["version"] if version is None else version
        self.ws.send_json({"type": "act", "version": v, "action": action})

    def ping(self) -> dict[str, Any]:
        """A ``pong`` with the room's current version (errors before it are collected)."""
        self.ws.send_json({"type": "ping"})
        while True:
            msg = self.recv()
            if msg["type"] == "pong":
                return msg

    def play(
        self, rng: random.Random, stop: Callable[[dict[str, Any]], bool], limit: int = 2000
    ) -> dict[str, Any]:
        """Always choose a random legal action until ``stop(state)``; returns that state."""
        st = self.next_state() if self.state is None else self.state
        for _ in range(limit):
            if stop(st):
                return st
            if st["legal_actions"]:
                self.act(rng.choice(st["legal_actions"])["id"])
            msg = self.recv()
            while msg["type"] != "state":
                # a stale answer: another seat's claim decided the window first (R16)
                ok = msg["type"] in ("pong", "hint", "said") or msg.get("code") == "stale_version"
                assert ok, msg
                msg = self.recv()
            st = msg
        raise AssertionError("the hand did not reach the expected state")


def my_discard_turn(st: dict[str, Any]) -> bool:
    """The seat must discard and nobody else has anything pending (nothing can move)."""
    v = st.get("view") or {}
    return st["phase"] == "playing" and v.get("phase") == "discard" and v["to_act"] == [st["seat"]]


def not_playing(st: dict[str, Any]) -> bool:
    return st["phase"] not in ("playing", "waiting")
