"""Issue 23 in the browser: a table dealt with 王 (R39) draws the 王 card face in the
player's hand, never offers it as a discard, and plays to a settlement."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from .helpers import open_seat, play_hand, shot, wait_js

pytestmark = pytest.mark.browser


def _room(page: Any, server: str, seed: int) -> None:
    body = {"rules": {"preset": "hunan", "wang": 4}, "bot": "normal", "seed": seed, "name": "小明"}
    r = httpx.post(server + "/api/rooms", json=body)
    r.raise_for_status()
    open_seat(page, server, r.json()["room"], r.json()["token"])
    wait_js(page, "['playing', 'settlement', 'finished'].includes(document.body.dataset.phase)")


def test_a_hand_with_wang_shows_the_wang_face_and_plays_out(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        for seed in range(1, 12):
            _room(page, server, seed)
            page.wait_for_selector("#game .card")
            if page.query_selector_all('.hand .card[data-card="w"]'):
                break
        wangs = page.query_selector_all('.hand .card[data-card="w"]')
        assert wangs, "no seed dealt seat 0 a 王"
        assert all(w.inner_text().strip() == "王" for w in wangs)
        assert all("wang" in (w.get_attribute("class") or "") for w in wangs)
        shot(page, "wang-table.png")

        def never_offer_wang(page: Any, clicks: int) -> None:
            ids = page.evaluate(
                "() => [...document.querySelectorAll('#actions button')]"
                ".map((b) => b.dataset.id || b.textContent)"
            )
            assert not any(str(x).startswith("discard:w") for x in ids)

        rng = random.Random(0)
        for _ in range(8):  # hands until one is won with 王 (R40: the sheet tells each 王's card)
            play_hand(page, rng, on_turn=never_offer_wang)
            page.wait_for_selector("#settlement:not(.hidden)")
            if page.query_selector("#settlement .wang-as"):
                break
            hand = page.get_attribute("body", "data-hand")
            page.click("#ready-btn")
            wait_js(page, f"document.body.dataset.hand !== '{hand}'")
        shown = page.query_selector_all("#settlement .wang-as .card")
        assert shown, "no hand of 8 was won with 王"
        assert all((c.get_attribute("data-card") or "") != "w" for c in shown)  # a kind each
        # the revealed hands show 王 faces where seats still held them, none as a kind
        shot(page, "wang-settlement.png")
    finally:
        page.close()
