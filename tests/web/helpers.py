"""Playing the web table by clicking, as a player would, and checks of what is shown."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
DOC_IMG = ROOT / "docs" / "img"

VIEWPORTS = {
    "phone-landscape": {
        "viewport": {"width": 844, "height": 390},
        "is_mobile": True,
        "has_touch": True,
    },
    "phone-portrait": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "desktop-hd": {"viewport": {"width": 1920, "height": 1080}},
}


# The pictures docs/web.md shows (and the README's older names for two of them).
DOC_SHOTS = {
    "web-table-phone-landscape.png": (),
    "web-table-phone-portrait.png": ("web-phone.png",),
    "web-table-desktop.png": ("web-table.png",),
    "web-chi-1280.png": (),
    "web-settlement-desktop.png": ("web-settlement.png",),
    "web-settlement-phone-portrait.png": (),
    "web-look-phone-landscape.png": (),
    "web-match-end.png": (),
    "web-replay.png": (),
    "web-settlement-xing.png": (),  # issue 22: 桂林 醒牌/醒数/子
    "web-settlement-race.png": (),  # 娄底: a hand of the race, its running totals
    "web-race-final.png": (),  # 娄底: the race's pairwise final settlement
    "web-rules-race.png": (),  # 娄底's rules page: the race section
    # issue 23: 王 in the lobby, a pattern's 胡 buttons, the sheets and a replay
    "wang-lobby.png": (),
    "wang-pattern-button.png": (),
    "wang-settlement-4.png": (),
    "wang-settlement-2.png": (),
    "wang-replay-4.png": (),
    **{
        f"{kind}-{size}.png": ()
        for kind in ("summary", "summary-en", "replay")
        for size in ("desktop", "phone")
    },
    "replay-en-phone.png": (),
    "fair-deal-ok.png": (),  # docs/fair-dealing.md
    "table-en-desktop.png": (),
    "table-en-phone-portrait.png": (),
}


def shot(page: Any, name: str) -> Path:
    """Save a screenshot into artifacts/; with PAOHUZI_UPDATE_SCREENSHOTS=1 the ones the
    docs show also replace docs/img/ (never silently: a test run leaves the tree clean)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000, f"{name}: an empty-looking screenshot"
    if os.environ.get("PAOHUZI_UPDATE_SCREENSHOTS") == "1" and name in DOC_SHOTS:
        DOC_IMG.mkdir(parents=True, exist_ok=True)
        for target in (name, *DOC_SHOTS[name]):
            shutil.copyfile(path, DOC_IMG / target)
    return path


# What the documentation's table pictures point at (docs/web.md lists the same numbers).
LABELS = [
    ("#seat-left .seat-head .name", "1"),  # 上家
    ("#seat-right .seat-head .name", "2"),  # 下家
    ("#open-card", "3"),  # the open card, 翻 or 打
    ("#ticker", "4"),  # the compact event log
    ("#ring", "5"),  # the countdown ring
    ("#actions", "6"),  # only the legal choices
    (".meld .meld-huxi", "7"),  # a meld's 胡息
    (".seat-head .table-huxi", "8"),  # what a seat shows on the table
    ("#huxi", "9"),  # 当前胡息 (R33)
    ("#hand", "10"),  # your hand, in columns
]


def labelled_shot(page: Any, name: str) -> Path:
    """A screenshot with numbered marks on the parts of the table (then removed)."""
    page.evaluate(
        """(labels) => {
      for (const [sel, text] of labels) {
        const e = [...document.querySelectorAll(sel)].find((x) => x.getClientRects().length);
        if (!e) continue;
        const r = e.getBoundingClientRect();
        const b = document.createElement('span');
        b.className = 'doc-label';
        b.textContent = text;
        Object.assign(b.style, { position: 'fixed', left: Math.max(0, r.left - 10) + 'px',
          top: Math.max(0, r.top - 10) + 'px', zIndex: 99, background: '#e8175d', color: '#fff',
          font: 'bold 13px sans-serif', borderRadius: '10px', padding: '1px 6px',
          boxShadow: '0 0 0 2px #fff', pointerEvents: 'none' });
        document.body.append(b);
      }
    }""",
        LABELS,
    )
    try:
        return shot(page, name)
    finally:
        page.evaluate("document.querySelectorAll('.doc-label').forEach((x) => x.remove())")


def wait_js(page: Any, expr: str, timeout: float = 30.0) -> None:
    """Poll ``expr`` until true (``wait_for_function`` would need the page's ``eval``,
    which its Content-Security-Policy forbids)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expr):
        if time.monotonic() >= deadline:
            raise AssertionError(
                f"still false after {timeout} s: {expr}; page: {_page_facts(page)}"
            )
        time.sleep(0.03)


def resend(page: Any, patch: str, then: str = "") -> Any:
    """Hand the page its last state again as the server's next one, changed by ``patch``
    (JavaScript over ``next``, whose ``result`` is ``r``), and return what ``then`` returns
    (JavaScript run after the render; ``setLang`` is in scope): how a test shows the page a
    settlement no seeded hand reaches quickly (a 黄番, a 包赔, a 名堂 list)."""
    return page.evaluate(
        f"""async () => {{
      const {{ S }} = await import('/static/store.js');
      const {{ receive }} = await import('/static/app.js');
      const {{ setLang }} = await import('/static/i18n.js');
      const next = structuredClone(S.msg);
      next.version += 1;
      const r = next.result;
      {patch}
      receive(next);
      {then}
    }}"""
    )


def _page_facts(page: Any) -> object:
    """What a failed wait saw: the body's data, the status strip, the open overlays, and
    the socket's last closes (code, the server's reason, ms since the page opened)."""
    return page.evaluate(
        """async () => ({data: {...document.body.dataset},
        status: document.querySelector('#status')?.textContent,
        shown: [...document.querySelectorAll('.overlay:not(.hidden), dialog[open], [id]:not(.hidden)')]
          .filter((e) => e.id && getComputedStyle(e).position === 'fixed').map((e) => e.id),
        closes: (await import('/static/store.js')).S.closes, now: Math.round(performance.now())})"""
    )


def wait_dealt(page: Any, after: str | None = None, timeout: float = 30.0) -> str:
    """Wait for a hand to be dealt (a hand other than ``after``, if given) and return
    the phase: not always ``playing``, as a mandatory 天胡 ends a hand at its deal (R28)."""
    wait_js(
        page,
        "['playing', 'settlement', 'finished'].includes(document.body.dataset.phase)"
        + ("" if after is None else f" && document.body.dataset.hand !== '{after}'"),
        timeout,
    )
    return str(page.get_attribute("body", "data-phase"))


def hand_id(page: Any) -> str:
    """The hand on the page (its ``data-hand``)."""
    return str(page.get_attribute("body", "data-hand") or "")


def open_seat(page: Any, base: str, room: str, token: str, seat: int = 0) -> None:
    """Open a seat the way the page keeps it (localStorage ``phz:ROOM``) and its link."""
    if not page.url.startswith(base):
        page.goto(base + "/")
    page.evaluate(
        "([room, token, seat]) => localStorage.setItem('phz:' + room, JSON.stringify({token, seat}))",
        [room, token, seat],
    )
    page.goto(f"{base}/#/room/{room}")
    page.wait_for_selector("#game:not(.hidden)")


def create(page: Any, base: str, hands: int = 1, bot: str = "easy", rules: str = "hunan") -> str:
    """A room against bots (POST /api/rooms: the lobby is not what these tests test),
    opened in the page; returns its code."""
    r = httpx.post(
        base + "/api/rooms", json={"rules": rules, "bot": bot, "hands": hands, "name": "测试"}
    )
    r.raise_for_status()
    room = r.json()
    open_seat(page, base, room["room"], room["token"])
    # a seat that sits out (坐底, 泸州) may see its bots finish the hand at once
    wait_dealt(page)
    return str(room["room"])


# Every element that must stay visible and clickable: its centre's topmost element is it.
UNCOVERED_JS = """() => {
  const bad = [];
  for (const e of document.querySelectorAll('#open-card, #actions button, #ring')) {
    if (e.closest('.hidden')) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    if (!(top && (top === e || e.contains(top)))) bad.push((e.id || e.textContent) + ' under ' + (top ? (top.id || top.className || top.tagName) : 'nothing'));
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) bad.push((e.id || e.textContent) + ' off screen');
  }
  return bad;
}"""


def uncovered(page: Any) -> list[str]:
    return list(page.evaluate(UNCOVERED_JS))


# The top bar as shown: its height, how far its items spread beyond one row (0: one
# row), the items that overlap or leave the screen, and (touch) the controls under 40 px.
BAR_JS = """() => {
  const bar = document.querySelector('#topbar');
  const menu = document.querySelector('#bar-menu');
  const inBar = !menu || getComputedStyle(menu).display === 'contents';
  const items = [...bar.querySelectorAll(':scope > *, #bar-menu > *')]
    .filter((e) => inBar || !e.closest('#bar-menu'))
    .map((e) => ({name: e.id || e.className || e.tagName, tag: e.tagName, r: e.getBoundingClientRect()}))
    .filter((x) => x.r.width && x.r.height);
  const tallest = Math.max(...items.map((x) => x.r.height));
  const spread = Math.max(...items.map((x) => x.r.bottom)) - Math.min(...items.map((x) => x.r.top)) - tallest;
  const overlaps = [];
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) {
      const p = items[i].r, q = items[j].r;
      if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1
          && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1) overlaps.push(items[i].name + ' / ' + items[j].name);
    }
  const outside = items.filter((x) => x.r.left < -1 || x.r.right > innerWidth + 1).map((x) => x.name);
  const small = items.filter((x) => ['BUTTON', 'LABEL'].includes(x.tag) && (x.r.width < 40 || x.r.height < 40))
    .map((x) => `${x.name} ${Math.round(x.r.width)}x${Math.round(x.r.height)}`);
  return {height: bar.getBoundingClientRect().height, spread, overlaps, outside, small,
    compact: bar.classList.contains('compact'), items: items.map((x) => x.name)};
}"""


def bar_layout(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(BAR_JS))


def bar_click(page: Any, sel: str) -> None:
    """Click a control of the top bar as a player would: on a phone held upright it is in
    the ⋯ menu, opened first (and closed again if the click left it open)."""
    # The bar is measured again as each state's labels arrive (topbar.js), so it may turn
    # compact between looking and clicking: look again until the click lands.
    for _ in range(20):
        folded = not page.is_visible(sel) and page.is_visible("#menu-btn")
        if folded and page.get_attribute("#menu-btn", "aria-expanded") != "true":
            page.click("#menu-btn")
        try:
            page.click(sel, timeout=1500)
            break
        except Exception:  # Playwright's TimeoutError: hidden by a re-measured bar
            continue
    else:
        page.click(sel)  # one last time, with the full timeout and its error
    if page.get_attribute("#menu-btn", "aria-expanded") == "true":
        page.click("#menu-btn")


def shown_meld_huxi(page: Any) -> dict[int, list[str]]:
    """Every seat's melds' shown 胡息, by seat, in order."""
    return dict(
        page.evaluate("""() => {
      const out = {};
      for (const s of document.querySelectorAll('.seat[data-seat]'))
        out[s.dataset.seat] = [...s.querySelectorAll('.meld .meld-huxi')].map((x) => x.dataset.huxi);
      return out;
    }""")
    )


def hand_layout(page: Any) -> list[list[str]]:
    """The hand as the page draws it: each column's cards, left to right."""
    return list(
        page.evaluate(
            "[...document.querySelectorAll('#hand .col')].map((c) => [...c.querySelectorAll('.card')].map((x) => x.dataset.card))"
        )
    )


def drag(page: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
    """Press at ``start``, move to ``end`` in ``steps``, release (mouse and touch alike)."""
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def tap_card(card: Any) -> bool:
    """Tap a hand card where it shows: its top (the next card of its column covers the rest).
    False if it is gone meanwhile (a newer state redrew the hand: no box to tap)."""
    box = card.bounding_box()
    if box is None:
        return False
    card.click(position={"x": box["width"] / 2, "y": min(8, box["height"] / 4)})
    return True


def click_a_legal_choice(page: Any, rng: random.Random) -> bool:
    """Click one legal choice the way a player would; False if there is none right now
    (or the table changed under the finger: a newer state redrew it)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return _click_a_legal_choice(page, rng)
    except PlaywrightError as e:
        if "not attached" in str(e) or "detached" in str(e):
            return False
        raise


def _click_a_legal_choice(page: Any, rng: random.Random) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    hu = page.query_selector("#actions button[data-type='hu']")
    if hu:  # a player always takes a win
        hu.click()
        return True
    # one snapshot of what is offered: a newer state (another seat's move) may redraw
    # the table between two queries, so the choice is made from this list only
    legal = page.query_selector_all("#hand .card.legal")
    options = ["discard"] if legal else []
    if page.query_selector("#chi-btn"):
        options.append("chi")
    buttons = page.query_selector_all("#actions button[data-action-id]:not(#discard-btn)")
    options += ["button"] * len(buttons)
    if not options:
        return False
    kind = rng.choice(options)
    if kind == "discard":
        if not tap_card(rng.choice(legal)):
            return False  # the table changed under the finger
        try:
            page.click("#discard-btn:not([disabled])", timeout=5000)
        except PlaywrightTimeout:  # the turn moved on under the finger
            return False
    elif kind == "chi":
        try:  # a bot's higher claim (碰, 胡) may close the window before the click lands
            page.click("#chi-btn", timeout=3000)
        except PlaywrightTimeout:
            return False
        packages = page.query_selector_all("#chi-picker .package")
        assert packages, "吃 shows its packages to pick from"
        rng.choice(packages).click()
    else:
        rng.choice(buttons).click()
    return True


def play_hand(page: Any, rng: random.Random, on_turn: Any = None, limit: float = 120) -> int:
    """Click legal choices until the hand is over; returns the number of clicks.
    ``on_turn(page, clicks)`` runs whenever the player has something to decide."""
    clicks = 0
    deadline = time.monotonic() + limit
    # the first state may still be on its way (a busy machine): wait for the deal
    wait_js(page, "['playing', 'settlement', 'finished'].includes(document.body.dataset.phase)", 30)
    while page.get_attribute("body", "data-phase") == "playing":
        assert time.monotonic() < deadline, "the hand did not finish"
        version = page.get_attribute("body", "data-version")
        if page.query_selector("#actions button"):
            if on_turn is not None:
                on_turn(page, clicks)
            if click_a_legal_choice(page, rng):
                clicks += 1
                wait_js(page, f"document.body.dataset.version !== '{version}'", 15)
                continue
        page.wait_for_timeout(30)
    return clicks


class Frames:
    """The last state message the page received (read off its websocket)."""

    def __init__(self, page: Any) -> None:
        self.last: dict[str, Any] | None = None
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: Any) -> None:
        m = json.loads(payload)
        if m.get("type") == "state":
            self.last = m


def play_rooms(
    page: Any, rng: random.Random, done: Any, each: Any = None, limit: float = 90
) -> None:
    """Click legal choices until ``done(page)``, in a new one-hand room whenever a hand
    ends; ``each(page)`` runs before every step (to look at the table meanwhile)."""
    deadline = time.monotonic() + limit
    while not done(page):
        assert time.monotonic() < deadline, f"not seen in {limit} s"
        if each is not None:
            each(page)
        phase = page.get_attribute("body", "data-phase")
        if phase in ("settlement", "finished"):
            create(page, page.url.split("/#")[0], hands=1)
            continue
        version = page.get_attribute("body", "data-version")
        if (
            phase == "playing"
            and page.query_selector("#actions button")
            and click_a_legal_choice(page, rng)
        ):
            with contextlib.suppress(AssertionError):  # the hand may be over
                wait_js(page, f"document.body.dataset.version !== '{version}'", 10)
            continue
        page.wait_for_timeout(15)
    page.wait_for_timeout(100)  # the last state is drawn


def play_together(pages: list[Any], rng: random.Random, limit: float = 120) -> None:
    """Several humans of one room click legal choices, in turn, until the hand is over."""
    deadline = time.monotonic() + limit
    while any(p.get_attribute("body", "data-phase") == "playing" for p in pages):
        assert time.monotonic() < deadline, "the hand did not finish"
        acted = False
        for p in pages:
            if p.get_attribute("body", "data-phase") == "playing" and click_a_legal_choice(p, rng):
                acted = True
                p.wait_for_timeout(40)
        if not acted:
            pages[0].wait_for_timeout(30)
