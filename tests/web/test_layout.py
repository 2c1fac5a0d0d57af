"""The table's layout as a player sees it, where it went wrong before.

The top bar is one row at every size: on a phone held upright its controls (the room
code, 提示, 语音, 音效, 规则, 记录, the language, 离开) go under ⋯, each still in reach
and at least 40 px to tap, and nothing in the bar overlaps. At 1280×720 and 1920×1080,
in both languages, with 永州's options and a 娄底 race, it is whole: one row, no text
wrapped inside its item, nothing cut or under ⋯. A large screen's table is as
full as a laptop's: its cards are at least as large next to the screen's height as at
1280×800 (at 1920×1080 they were smaller, in a table of empty felt), and at the sizes of
large screens nothing scrolls, the hand is one row and the seats, the open card, the
choices and the hand do not overlap. On a phone held upright (390×844, 360×780) the hand
is one row of columns too, however many (13 as dealt, 15 once the player splits pairs):
its cards narrow, each numeral still at least 14 px, and drags and taps still work.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import (
    VIEWPORTS,
    bar_layout,
    create,
    drag,
    hand_id,
    hand_layout,
    open_seat,
    tap_card,
    wait_dealt,
    wait_js,
)

pytestmark = pytest.mark.browser

ONE_ROW = 56  # px: a touch-sized button (44) and the bar's padding


def to_a_decision(page: Any, server: str) -> None:
    """A table waiting for this seat's choice (the bots wait for it): nothing moves."""
    for _ in range(5):
        if page.get_attribute("body", "data-phase") == "playing":
            wait_js(
                page,
                "!!document.querySelector('#actions button') || document.body.dataset.phase !== 'playing'",
            )
            if page.query_selector("#actions button"):
                page.wait_for_timeout(400)  # the open card's flight is over
                return
        before = hand_id(page)
        create(page, server, hands=1)
        wait_dealt(page, before)
    raise AssertionError("no decision in five hands")


def check_one_row(page: Any, touch: bool) -> dict[str, Any]:
    bar = bar_layout(page)
    where = f"{page.viewport_size}: {bar}"
    assert bar["height"] <= ONE_ROW, f"the top bar takes more than one row: {where}"
    assert bar["spread"] <= 2, f"the top bar's items are in more than one row: {where}"
    assert bar["overlaps"] == [], where
    assert bar["outside"] == [], where
    if touch:
        assert bar["small"] == [], where
    return bar


MENU_ITEMS = [
    "#room-label",
    "label:has(#hints-toggle)",
    "label:has(#voice-toggle)",
    "#mute-btn",
    "#table-rules-btn",
    "#log-btn",
    "#table-lang-btn",
    "#leave-btn",
]

REACHABLE_JS = """(sels) => sels.map((sel) => {
  const e = document.querySelector(sel);
  if (!e) return sel + ' missing';
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) return sel + ' not shown';
  if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return sel + ' off screen';
  if (r.height < 40 || r.width < 40) return `${sel} ${Math.round(r.width)}x${Math.round(r.height)}`;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!(top && (top === e || e.contains(top)))) return sel + ' covered';
  return null;
}).filter((x) => x)"""


def test_the_top_bar_is_one_row_on_a_phone_held_upright(server: str, browser: Any) -> None:
    ctx = browser.new_context(**VIEWPORTS["phone-portrait"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create(page, server, hands=2)
    to_a_decision(page, server)
    bar = check_one_row(page, touch=True)
    assert bar["compact"], bar
    # the hand's labels and the quick phrases stay in the bar, the rest is under ⋯
    for sel in ("#hand-label", "#wall-label", "#lz-label", "#phrases-btn", "#menu-btn"):
        assert page.is_visible(sel), sel
    assert not page.is_visible("#leave-btn")
    assert page.get_attribute("#menu-btn", "aria-expanded") == "false"

    page.click("#menu-btn")
    assert page.get_attribute("#menu-btn", "aria-expanded") == "true"
    assert page.evaluate(REACHABLE_JS, MENU_ITEMS) == []
    assert page.inner_text("#room-label").startswith("房间 ")
    page.click("label:has(#hints-toggle)")  # a setting: the menu stays open
    assert page.is_checked("#hints-toggle") and page.is_visible("#log-btn")
    page.click("#log-btn")  # a choice closes it
    assert page.is_visible("#log") and not page.is_visible("#log-btn")
    page.click("#log-close")
    page.click("#menu-btn")
    page.tap("#turn")  # a tap elsewhere closes it
    assert not page.is_visible("#leave-btn")
    page.click("#menu-btn")
    page.keyboard.press("Escape")
    assert not page.is_visible("#leave-btn")

    # English labels are longer: still one row
    page.click("#menu-btn")
    page.click("#table-lang-btn")
    wait_js(page, "document.documentElement.lang === 'en'")
    wait_js(page, "document.querySelector('#log-btn').textContent === 'Log'")
    check_one_row(page, touch=True)
    # and turned sideways the bar is laid out again: one row, whole where it fits. In
    # English at 844 px it fits with most hands' labels; a long wall/亮张 label may tip
    # it into the ⋯ menu (measured, topbar.js) — either way one row, nothing lost.
    page.set_viewport_size(VIEWPORTS["phone-landscape"]["viewport"])
    page.wait_for_timeout(300)
    bar = check_one_row(page, touch=True)
    if bar["compact"]:
        assert "menu-btn" in bar["items"], bar
    else:
        assert "leave-btn" in bar["items"] and "menu-btn" not in bar["items"], bar
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("name", ["phone-landscape", "desktop", "desktop-hd"])
def test_the_top_bar_is_one_row_and_whole_elsewhere(server: str, browser: Any, name: str) -> None:
    ctx = browser.new_context(**VIEWPORTS[name])
    page = ctx.new_page()
    create(page, server, hands=2)
    to_a_decision(page, server)
    bar = check_one_row(page, touch=bool(VIEWPORTS[name].get("has_touch")))
    assert not bar["compact"], bar
    assert "menu-btn" not in bar["items"], bar
    for sel in MENU_ITEMS:  # every control is in the bar itself
        assert page.is_visible(sel), (sel, bar)
    ctx.close()


# Each text of the bar on one line and whole: a text node whose line boxes lie at two
# heights wrapped; an item narrower than its content is cut.
BAR_TEXT_JS = """() => {
  const out = [];
  for (const e of document.querySelectorAll('#topbar > *, #bar-menu > *')) {
    if (!e.getClientRects().length) continue;
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (!t.textContent.trim()) continue;
      const r = document.createRange();
      r.selectNodeContents(t);
      const rows = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
      if (rows.size > 1) out.push(`${e.id || e.className}: "${t.textContent.trim()}" wraps`);
    }
    if (e.scrollWidth > e.clientWidth + 1) out.push(`${e.id || e.className} is cut`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["1280x720", "1920x1080"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_desktop_top_bar_keeps_long_labels_whole(
    server: str, browser: Any, size: tuple[int, int], lang: str
) -> None:
    """At desktop sizes the bar holds everything in one row, in both languages, with the
    longest labels the presets give it: 永州扯胡子 with its options (三王, 跟醒, 双醒,
    红转朱黑, 亡牌, 16 hands) and a 娄底 race (30 hands): no label wraps, overlaps or is
    cut, and nothing goes under ⋯."""
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h})
    page = ctx.new_page()
    try:
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('phz:lang', '{lang}')")
        yongzhou = {"wang": 3, "xing": "gen", "xing_double": "on", "hongzhuan": "on"}
        rooms = (
            ({"rules": "yongzhou", "options": {**yongzhou, "wangpai": "on", "hands": 16}}, 0),
            ({"rules": "loudi"}, 1),
        )
        for body, k in rooms:
            r = httpx.post(server + "/api/rooms", json={**body, "bot": "easy", "name": "测试"})
            r.raise_for_status()
            open_seat(page, server, r.json()["room"], r.json()["token"])
            page.reload()  # in the language chosen above
            wait_dealt(page)
            page.wait_for_timeout(400)  # the bar is measured again as the labels arrive
            label = page.inner_text("#hand-label")
            assert label.startswith((("永州", "Yongzhou"), ("娄底", "Loudi"))[k][lang == "en"])
            bar = check_one_row(page, touch=False)
            assert not bar["compact"] and "menu-btn" not in bar["items"], bar
            assert page.evaluate(BAR_TEXT_JS) == [], (label, bar)
    finally:
        ctx.close()


# Where the table's parts are: the seats, your melds, the open card, the choices, the
# hand's cards (each column), 当前胡息.
PARTS_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const parts = [];
  for (const e of document.querySelectorAll('.slot .seat, #me, #open, #actions, #ring, #mine, #hand .col'))
    if (e.getClientRects().length) parts.push([e.id || e.className, box(e)]);
  const overlaps = [];
  for (let i = 0; i < parts.length; i++)
    for (let j = i + 1; j < parts.length; j++) {
      const [a, p] = parts[i], [b, q] = parts[j];
      if (Math.min(p[2], q[2]) - Math.max(p[0], q[0]) > 1 && Math.min(p[3], q[3]) - Math.max(p[1], q[1]) > 1)
        overlaps.push(a + ' / ' + b);
    }
  const card = document.querySelector('#hand .card').getBoundingClientRect();
  const rows = new Set([...document.querySelectorAll('#hand .col')].map((c) => Math.round(c.getBoundingClientRect().bottom)));
  return {overlaps, card: [card.width, card.height], rows: rows.size,
    scroll: [document.documentElement.scrollWidth - innerWidth, document.documentElement.scrollHeight - innerHeight]};
}"""


def test_a_large_screen_table_is_as_full_as_a_laptops(server: str, browser: Any) -> None:
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    create(page, server, hands=2)
    to_a_decision(page, server)
    laptop = page.evaluate(PARTS_JS)
    assert laptop["overlaps"] == [] and laptop["scroll"] == [0, 0], laptop
    share = laptop["card"][1] / 800  # a hand card's height next to the screen's
    for w, h in ((1920, 1080), (1920, 960), (1536, 864), (1440, 900), (2560, 1440)):
        page.set_viewport_size({"width": w, "height": h})
        got = page.evaluate(PARTS_JS)
        where = f"{w}x{h}: {got}"
        assert got["card"][1] / h >= 0.98 * share, f"smaller cards than a laptop's: {where}"
        assert got["overlaps"] == [], where
        assert got["scroll"] == [0, 0], where
        assert got["rows"] == 1, f"the hand takes two rows: {where}"
    ctx.close()


# A phone held upright: the hand is one row of columns, however many. At the deal a hand
# has up to 13 columns (each 坎 its own, the other cards by point); a player who splits
# columns has more. Before, past 9 columns of 40 px cards the hand wrapped and a column
# sat alone under the others. Now the cards narrow with the count (hand.js sets --cols).
UPRIGHT = {"390x844": (390, 844), "360x780": (360, 780)}
# a seed that deals this seat 13 columns, 15 once its pairs are split (hunan, bots in the
# other seats; this seat deals, so the bots wait for its first discard)
MANY_COLUMNS = 6243

HAND_JS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const cols = [...document.querySelectorAll('#hand .col')].map(box);
  const cards = [...document.querySelectorAll('#hand .card')];
  const bottoms = cols.map((r) => r.bottom);
  const bad = [];
  cols.forEach((r, i) => {
    if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) bad.push(`column ${i} off screen`);
    if (i && r.left < cols[i - 1].right - 1) bad.push(`column ${i} not right of column ${i - 1}`);
  });
  // the choices, 吃's button and the 当前胡息 line, none under a hand card
  for (const e of document.querySelectorAll('#actions button, #chi-btn, #mine, #huxi')) {
    const p = box(e);
    if (!p.width) continue;
    for (const c of cards) {
      const q = box(c);
      if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1) {
        bad.push(`${e.id || e.textContent} under ${c.dataset.card}`);
        break;
      }
    }
  }
  return {n: cols.length, spread: Math.max(...bottoms) - Math.min(...bottoms),
    sharedBand: Math.min(...bottoms) - Math.max(...cols.map((r) => r.top)),
    cardW: Math.min(...cards.map((c) => box(c).width)), cardH: Math.min(...cards.map((c) => box(c).height)),
    font: Math.min(...cards.map((c) => parseFloat(getComputedStyle(c.querySelector('.glyph')).fontSize))),
    bad, scroll: document.documentElement.scrollWidth - innerWidth};
}"""


def deal_seed(page: Any, server: str, seed: int) -> str:
    """A one-hand room against bots whose deal is ``seed``'s, opened in the page."""
    r = httpx.post(
        server + "/api/rooms",
        json={"rules": "hunan", "bot": "easy", "hands": 1, "name": "测试", "seed": seed},
    )
    r.raise_for_status()
    open_seat(page, server, r.json()["room"], r.json()["token"])
    wait_dealt(page)
    return str(r.json()["room"])


def check_hand_row(page: Any, min_width: float) -> dict[str, Any]:
    got = dict(page.evaluate(HAND_JS))
    where = f"{page.viewport_size}: {got}"
    assert got["spread"] <= 2, f"the hand's columns are in more than one row: {where}"
    assert got["sharedBand"] > 0, f"the hand's columns are in more than one row: {where}"
    assert got["bad"] == [], where
    assert got["scroll"] <= 1, where
    # legible and still a finger's width: the numeral ≥ 14 px, the card ≥ 40 px high
    assert got["font"] >= 14, where
    assert got["cardH"] >= 40, where
    assert got["cardW"] >= min_width, where
    return got


def split_one(page: Any) -> None:
    """Drag the bottom card of a column of several (not a 坎) above a column of one
    card: dropped on the hand but on no column, it makes a column of its own."""
    cols = page.query_selector_all("#hand .col:not(.kan)")
    src = next(c for c in cols if len(c.query_selector_all(".card")) > 1)
    lone = next(c for c in cols if len(c.query_selector_all(".card")) == 1)
    sb = src.query_selector_all(".card")[-1].bounding_box()
    lb = lone.bounding_box()
    drag(
        page,
        (sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2),
        (lb["x"] + lb["width"] / 2, lb["y"] - 8),
    )


@pytest.mark.parametrize("size", list(UPRIGHT))
def test_the_hand_is_one_row_on_a_phone_held_upright(server: str, browser: Any, size: str) -> None:
    w, h = UPRIGHT[size]
    ctx = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    deal_seed(page, server, MANY_COLUMNS)
    # the bots wait for this seat's first discard
    wait_js(page, "!!document.querySelector('#actions button')")
    n = len(page.query_selector_all("#hand .col"))
    assert n >= 12, f"seed {MANY_COLUMNS} no longer deals 12 columns ({n}): take another"
    check_hand_row(page, 24)  # a hand as dealt: columns at least 24 px wide

    # a tap still selects (and moves nothing); the top card of the tallest column, lifted,
    # stays clear of 当前胡息
    before = hand_layout(page)
    tallest = max(page.query_selector_all("#hand .col"), key=lambda c: c.bounding_box()["height"])
    assert tap_card(tallest.query_selector(".card"))
    assert len(page.query_selector_all("#hand .card.selected")) == 1
    assert hand_layout(page) == before
    check_hand_row(page, 24)

    # the player splits columns by dragging: 15 columns stay one row (at 360 px: 21 px)
    while len(page.query_selector_all("#hand .col")) < 15:
        count = len(page.query_selector_all("#hand .col"))
        split_one(page)
        assert len(page.query_selector_all("#hand .col")) == count + 1, hand_layout(page)
        check_hand_row(page, 20)
    moved = hand_layout(page)
    assert sorted(c for col in moved for c in col) == sorted(c for col in before for c in col)
    # and a drag onto another column still joins it
    cols = page.query_selector_all("#hand .col:not(.kan)")
    sb, tb = cols[-1].query_selector(".card").bounding_box(), cols[0].bounding_box()
    drag(
        page,
        (sb["x"] + sb["width"] / 2, sb["y"] + 6),
        (tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2),
    )
    joined = hand_layout(page)
    assert len(joined) == len(moved) - 1 and len(joined[0]) == len(moved[0]) + 1, joined
    check_hand_row(page, 20)
    assert errors == []
    ctx.close()
