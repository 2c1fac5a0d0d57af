"""可验证洗牌 in the browser: the settlement fetches the hand's record (deck and salt) and
checks it against the commitment first seen at the deal, by itself (docs/fair-dealing.md),
and says ✓ or, loudly, ✗."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import httpx
import pytest

from .helpers import VIEWPORTS, Frames, open_seat, play_hand, shot, wait_js

pytestmark = pytest.mark.browser


def _settled_page(browser: Any, server: str, seed: int) -> tuple[Any, Frames, list[str]]:
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    body = {"rules": "hunan", "bots": 2, "bot": "easy", "seed": seed, "hands": 2, "name": "小明"}
    room = httpx.post(server + "/api/rooms", json=body).json()
    open_seat(page, server, room["room"], room["token"])
    play_hand(page, random.Random(seed))
    wait_js(page, "document.body.dataset.phase === 'settlement'")
    return page, frames, errors


def test_the_settlement_shows_a_verified_shuffle(server: str, browser: Any) -> None:
    page, frames, errors = _settled_page(browser, server, seed=7)
    page.wait_for_selector("#fair-deal.ok")
    assert page.inner_text("#fair-deal") == "可验证洗牌 ✓"
    assert page.is_visible("#fair-deal")
    m = frames.last
    assert m is not None and len(m["deck_commitment"]) == 64 and "salt" not in m
    shot(page, "fair-deal-ok.png")
    # the same sheet in English
    page.evaluate("async () => { (await import('/static/i18n.js')).setLang('en'); }")
    page.wait_for_selector("#fair-deal.ok")
    assert page.inner_text("#fair-deal") == "Verified shuffle ✓"
    assert errors == []


def test_a_tampered_deck_is_shown_loudly(server: str, browser: Any) -> None:
    page, _frames, errors = _settled_page(browser, server, seed=8)
    page.wait_for_selector("#fair-deal.ok")
    real_id = page.get_attribute("body", "data-hand")
    # a record whose deck was changed after the deal, as a cheating server would serve it
    page.evaluate(
        """async () => {
      const real = window.fetch;
      window.fetch = async (url, opts) => {
        if (!String(url).includes('/api/records/')) return real(url, opts);
        const r = await real(String(url).replace(/x$/, ''), opts);  // the real hand's record
        const rec = await r.json();
        const d = rec.deck;
        const i = d.findIndex((c) => c !== d[0]);
        [d[0], d[i]] = [d[i], d[0]];
        return new Response(JSON.stringify(rec), { status: 200 });
      };
      const { S } = await import('/static/store.js');
      const m = { ...S.msg, hand_id: S.msg.hand_id + 'x' };  // not checked yet
      sessionStorage.setItem('phz.deal.' + m.hand_id, m.deck_commitment);
      S.msg = m;
      (await import('/static/app.js')).rerender();
    }"""
    )
    page.wait_for_selector("#fair-deal.bad")
    text = page.inner_text("#fair-deal")
    assert text.startswith("可验证洗牌 ✗") and "不符" in text
    color = page.eval_on_selector("#fair-deal", "e => getComputedStyle(e).backgroundColor")
    assert color == "rgb(192, 38, 45)"
    shot(page, "fair-deal-bad.png")
    assert errors == [] and real_id


def test_the_plain_sha256_matches_hashlib(server: str, browser: Any) -> None:
    """Outside a secure context (http on a LAN) the page hashes with its own SHA-256."""
    page = browser.new_page()
    page.goto(server + "/")
    texts = [
        "",
        "abc",
        "x" * 55,
        "y" * 56,
        "z" * 64,
        "paohuzi-deal-v1:" + "ab" * 16 + ":" + "x1," * 300,
    ]
    got = page.evaluate(
        """async (texts) => {
      const f = await import('/static/fairdeal.js');
      return texts.map((t) => f.sha256Plain(new TextEncoder().encode(t)));
    }""",
        texts,
    )
    assert got == [hashlib.sha256(t.encode()).hexdigest() for t in texts]
