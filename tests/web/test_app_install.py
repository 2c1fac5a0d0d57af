"""The installable app (issue 25): manifest and icons, the service worker that keeps the
static client, the rules and the tutorial for offline use, the screen kept awake during a
hand and a vibration on the player's turn (a setting)."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from .helpers import VIEWPORTS, bar_click, create, wait_js
from .lobby_helpers import open_lobby
from .test_new_user import walk_tutorial

pytestmark = pytest.mark.browser


def test_manifest_and_icons(server: str) -> None:
    """ "Add to home screen" opens full screen, in landscape, with the app's icons."""
    r = httpx.get(server + "/manifest.webmanifest")
    assert r.status_code == 200 and "manifest+json" in r.headers["content-type"]
    m = r.json()
    assert m["display"] == "fullscreen" and m["orientation"] == "landscape"
    assert m["start_url"] == "/" and m["scope"] == "/"
    sizes = set()
    for icon in m["icons"]:
        got = httpx.get(server + icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == "image/png"
        assert got.content[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    sw = httpx.get(server + "/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    assert "__VERSION__" not in sw.text and "/api/tutorial/basics/bundle" in sw.text


def test_the_worker_registers_and_the_app_works_offline(server: str, browser: Any) -> None:
    """The worker registers and takes the page; with the network cut a reload still shows
    the lobby, the rules and the whole tutorial."""
    ctx = browser.new_context(**VIEWPORTS["phone-landscape"])
    page = ctx.new_page()
    try:
        open_lobby(page, server)
        wait_js(page, "navigator.serviceWorker.controller !== null", 30)
        scope = page.evaluate(
            "(async () => (await navigator.serviceWorker.getRegistration()).scope)()"
        )
        assert scope == server + "/"
        ctx.set_offline(True)
        page.reload()
        page.wait_for_selector("body[data-lobby=ready]")
        assert page.query_selector("#create-form select#rules"), "the presets came from the cache"
        page.click("#lobby-rules-btn")
        page.wait_for_selector("#rules-page:not(.hidden) section")
        assert "R15" in page.inner_text("#rules-page") or "吃" in page.inner_text("#rules-page")
        page.goto(server + "/#/")
        page.reload()
        page.wait_for_selector("body[data-lobby=ready]")
        stops: list[str] = []
        walk_tutorial(page, lambda p: stops.append(p.inner_text("#tut-panel")))
        assert len(stops) >= 10 and "完成" in stops[-1]
    finally:
        ctx.close()


WATCH_JS = """() => {
  window.phzVibrations = [];
  window.phzWake = [];
  Object.defineProperty(navigator, 'vibrate', {value: (p) => { window.phzVibrations.push(p); return true; }});
  const lock = () => { const t = new EventTarget(); t.released = false;
    t.release = async () => { t.released = true; t.dispatchEvent(new Event('release')); }; return t; };
  Object.defineProperty(navigator, 'wakeLock', {value: {request: async (type) => {
    const l = lock(); window.phzWake.push(l); return l; }}});
}"""


def test_wake_lock_during_a_hand_and_vibration_on_my_turn(server: str, browser: Any) -> None:
    """A hand in play holds a screen wake lock; my turn vibrates, unless 震动 is off."""
    ctx = browser.new_context(**VIEWPORTS["phone-landscape"])
    ctx.add_init_script(f"({WATCH_JS})()")
    page = ctx.new_page()
    try:
        create(page, server, hands=1)
        wait_js(page, "document.body.dataset.phase !== 'playing' || window.phzWake.length > 0")
        if page.get_attribute("body", "data-phase") == "playing":
            assert page.evaluate("window.phzWake.some((l) => !l.released)")
            wait_js(
                page,
                "window.phzVibrations.length > 0 || !!document.querySelector('#actions button')",
                30,
            )
            assert page.evaluate("window.phzVibrations.length") >= 1
        bar_click(page, "#vibrate-toggle")
        assert page.evaluate("JSON.parse(localStorage.getItem('phz:settings')).vibrate") is False
        page.reload()
        page.wait_for_selector("#game:not(.hidden)")
        page.evaluate("window.phzVibrations = []")
        rng = random.Random(2)
        from .test_new_user import play_until

        play_until(page, rng, ("settlement", "finished"))
        assert page.evaluate("window.phzVibrations.length") == 0
        wait_js(page, "window.phzWake.every((l) => l.released)")
    finally:
        ctx.close()
