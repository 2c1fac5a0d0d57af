"""Two friends, two browsers (issue 15): invite by link, join, 准备, play, and the
match-end summary on both screens."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from .helpers import VIEWPORTS, open_seat, play_together, wait_dealt, wait_js

pytestmark = pytest.mark.browser


def test_invite_join_ready_play_and_the_match_summary(server: str, browser: Any) -> None:
    body = {"bots": 1, "bot": "easy", "hands": 1, "name": "阿明", "options": {"ready_first": True}}
    r = httpx.post(server + "/api/rooms", json=body).json()
    ca = browser.new_context(viewport={"width": 1280, "height": 800})
    cb = browser.new_context(**VIEWPORTS["phone-portrait"])
    a, b = ca.new_page(), cb.new_page()
    errors: list[str] = []
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_seat(a, server, r["room"], r["token"])
        a.wait_for_selector("#invite:not(.hidden)")
        link = a.input_value("#invite-link")

        b.goto(link)  # the invite link opens the join page
        b.wait_for_selector("#join-page-btn")
        b.fill("#join-page-name", "小红")
        b.click("#join-page-btn")
        b.wait_for_selector("#game:not(.hidden)")

        # 准备: nothing is dealt until both humans are ready (the bot is ready at once)
        for p in (a, b):
            p.wait_for_selector("#waiting-actions:not(.hidden) button[data-action-id='ready']")
        a.click("#waiting-actions button[data-action-id='ready']")
        a.wait_for_timeout(300)
        assert a.get_attribute("body", "data-phase") == "waiting", "waits for the friend"
        b.click("#waiting-actions button[data-action-id='ready']")
        for p in (a, b):
            wait_dealt(p)
        assert "小红" in a.inner_text("#seat-right, #seat-left")

        play_together([a, b], random.Random(4))

        # one hand per match: its end is the summary, with both names and the way out
        for p in (a, b):
            wait_js(p, "document.body.dataset.phase === 'finished'")
            p.wait_for_selector("#match-summary:not(.hidden)")
            text = p.inner_text("#match-summary")
            assert "阿明" in text and "小红" in text, text
            assert p.is_visible("#rematch-btn") and p.is_visible("#lobby-btn")
        state = httpx.get(f"{server}/api/rooms/{r['room']}").json()
        assert [s["name"] for s in state["seats"] if s["kind"] == "human"] == ["阿明", "小红"]
        assert errors == []
    finally:
        ca.close()
        cb.close()
