"""The table's layout as a player sees it, where it went wrong before.

The top bar is one row at every size: on a phone held upright its controls (the room
code, 提示, 语音, 音效, 规则, 记录, the language, 离开) go under ⋯, each still in reach
and at least 40 px to tap, and nothing in the bar overlaps. A large screen's table is as
full as a laptop's: its cards are at least as large next to the screen's height as at
1280×800 (at 1920×1080 they were smaller, in a table of empty felt), and at the sizes of
large screens nothing scrolls, the hand is one row and the seats, the open card, the
choices and the hand do not overlap.
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import VIEWPORTS, bar_layout, create, hand_id, wait_dealt, wait_js

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
    # and turned sideways the phone shows the whole bar again, in one row
    page.set_viewport_size(VIEWPORTS["phone-landscape"]["viewport"])
    wait_js(page, "!document.querySelector('#topbar').classList.contains('compact')")
    bar = check_one_row(page, touch=True)
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
