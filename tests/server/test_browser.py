"""The browser client end to end: headless Chromium plays a whole hand by clicking only.

Needs /usr/bin/chromium (``.ci/system-deps`` installs it) and the ``playwright``
package; never ``playwright install``. Screenshots go to ``artifacts/``; with
``PAOHUZI_UPDATE_SCREENSHOTS=1`` they also replace the README's pictures in
``docs/img/`` (never silently: a test run leaves the work tree clean).
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
DOC_IMG = ROOT / "docs" / "img"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="/usr/bin/chromium is missing (run .ci/system-deps)"
    ),
]
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed"
)
uvicorn = pytest.importorskip("uvicorn")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """uvicorn on a free loopback port, in a thread; bots act at once."""
    from paohuzi.server.app import create_app

    app = create_app(tmp_path / "web.sqlite3", bot_delay=0, away_timeout=600)
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(10)


@pytest.fixture
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


def _shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    assert path.stat().st_size > 10_000, f"{name}: an empty-looking screenshot"
    if os.environ.get("PAOHUZI_UPDATE_SCREENSHOTS") == "1":
        DOC_IMG.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOC_IMG / name)


def _wait_js(page: object, expr: str, timeout: float = 30.0) -> None:
    """Poll ``expr`` until it is true. ``wait_for_function`` would evaluate it with the
    page's own ``eval``, which the page's Content-Security-Policy forbids (as it should)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expr):  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expr}"
        time.sleep(0.03)


def _create(page: object, base: str, bots: str = "2", bot: str = "easy", hands: str = "2") -> None:
    page.goto(base + "/")  # type: ignore[attr-defined]
    page.select_option("#rules", "hunan")  # type: ignore[attr-defined]
    page.select_option("#bots", bots)  # type: ignore[attr-defined]
    page.select_option("#bot", bot)  # type: ignore[attr-defined]
    page.fill("#hands", hands)  # type: ignore[attr-defined]
    page.fill("#name", "测试")  # type: ignore[attr-defined]
    page.click("#create-btn")  # type: ignore[attr-defined]
    page.wait_for_selector("#game:not(.hidden)")  # type: ignore[attr-defined]
    _wait_js(page, "document.body.dataset.phase === 'playing'")


def _click_a_legal_choice(page, rng: random.Random) -> bool:  # type: ignore[no-untyped-def]
    """Click one legal choice the way a player would; False if there is none right now."""
    options = []
    if page.query_selector("#hand .card.legal"):
        options.append("discard")
    if page.query_selector("#chi-btn"):
        options.append("chi")
    buttons = page.query_selector_all("#actions button[data-action-id]:not(#discard-btn)")
    options += ["button"] * len(buttons)
    if not options:
        return False
    hu = page.query_selector("#actions button[data-action-id='hu']")
    if hu:  # a player always takes a win
        hu.click()
        return True
    kind = rng.choice(options)
    if kind == "discard":
        cards = page.query_selector_all("#hand .card.legal")
        rng.choice(cards).click()
        page.click("#discard-btn")
    elif kind == "chi":
        page.click("#chi-btn")
        packages = page.query_selector_all("#chi-picker .package")
        assert packages, "吃 shows its packages to pick from"
        rng.choice(packages).click()
    else:
        rng.choice(buttons).click()
    return True


def _play_hand(page, rng: random.Random, on_click=None) -> int:  # type: ignore[no-untyped-def]
    """Click legal choices until the hand is over; returns the number of clicks."""
    clicks = 0
    deadline = time.monotonic() + 240
    while page.get_attribute("body", "data-phase") == "playing":
        assert time.monotonic() < deadline, "the hand did not finish"
        version = page.get_attribute("body", "data-version")
        if on_click is not None:
            on_click(clicks)
        if _click_a_legal_choice(page, rng):
            clicks += 1
            _wait_js(page, f"document.body.dataset.version !== '{version}'", 15)
        else:
            page.wait_for_timeout(30)
    return clicks


def test_play_a_hand_by_clicking_and_see_the_settlement(server: str, browser: object) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 860})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the page works under its own Content-Security-Policy: nothing refused
    page.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
    _create(page, server, bot="normal", hands="6")
    assert "房间" in page.inner_text("#room-label")
    assert page.query_selector_all("#opponents .seat") and page.query_selector_all("#hand .card")
    assert page.inner_text("#huxi-value").isdigit()  # 当前胡息 always shown (R33)
    page.check("#hints-toggle")  # 提示 on: the suggestion shows beside 当前胡息
    _wait_js(
        page,
        "(t => t.startsWith('提示：') && !t.includes('思考中'))(document.querySelector('#hint').textContent)",
    )
    rng = random.Random(12)
    shots: list[bool] = []

    def table_shot(clicks: int) -> None:
        if not shots and clicks >= 6 and page.query_selector("#hand .card.legal"):
            _shot(page, "web-table.png")
            shots.append(True)

    for _ in range(6):  # hands until one is won (the settlement picture shows a win)
        assert _play_hand(page, rng, table_shot) > 0
        page.wait_for_selector("#settlement:not(.hidden)")
        title = page.inner_text("#settle-title")
        assert "胡" in title or "荒庄" in title
        rows = page.query_selector_all("#settle-body table:last-of-type tr")
        assert len(rows) == 1 + 3  # header + every player's payment, 总分 and 当前总息数
        if "胡" in title or page.get_attribute("body", "data-phase") == "finished":
            break
        page.click("#ready-btn")  # the next hand starts from the settlement screen
        _wait_js(page, "document.body.dataset.phase === 'playing'")
    if "胡" in title:  # 门子 with their 胡息, 等, 名堂, 底 (R33–R37)
        body = page.inner_text("#settle-body")
        assert "胡息" in body and "等" in body and "底" in body
        assert page.query_selector_all("#settle-body table:first-of-type tr td")
    _shot(page, "web-settlement.png")
    assert errors == []


def test_replay_steps_through_a_finished_hand(server: str, browser: object) -> None:
    import httpx

    r = httpx.post(server + "/api/rooms", json={"bots": 2, "bot": "easy", "seed": 3}).json()
    room = r["room"]
    page = browser.new_page(viewport={"width": 1000, "height": 800})  # type: ignore[attr-defined]
    page.goto(f"{server}/")
    page.evaluate(
        "([room, token]) => localStorage.setItem('phz:' + room, JSON.stringify({token, seat: 0}))",
        [room, r["token"]],
    )
    page.goto(f"{server}/#/room/{room}")  # a saved seat reconnects from the link
    _wait_js(page, "document.body.dataset.phase === 'playing'")
    _play_hand(page, random.Random(5))
    page.click("#settle-replay-btn")
    page.wait_for_selector("#replay:not(.hidden) #replay-table .seat")
    assert page.inner_text("#replay-step") == "发牌"
    page.click("#replay-controls [data-step='next']")
    assert page.inner_text("#replay-step") not in ("", "发牌")
    page.click("#replay-controls [data-step='last']")
    last = page.inner_text("#replay-step")
    assert "胡" in last or "荒庄" in last
    _shot(page, "web-replay.png")


def test_phone_sized_screen_fits(server: str, browser: object) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    _create(page, server)
    # re-order the hand by tapping: a card, then the empty column → a column of its own
    cols = page.query_selector_all("#hand .col:not(.newcol)")
    multi = next(c for c in cols if len(c.query_selector_all(".card")) >= 2)
    multi.query_selector(".card").click()
    page.click("#hand .newcol")
    assert len(page.query_selector_all("#hand .col:not(.newcol)")) == len(cols) + 1
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than a phone screen"
    _shot(page, "web-phone.png")
