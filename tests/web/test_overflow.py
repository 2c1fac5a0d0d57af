"""The table fits its screen, however full it gets (a tester's pass, three bugs).

1. 衡阳 (four seats, 14-card hands) on a phone held sideways, 844×390: once the seats had
   a meld or two and some discards, the page grew to 416 px and more — the hand's bottom,
   your melds, 当前胡息 and 提示 fell below the fold. 对家's row above the open card and the
   choices' row below it left too little height (three seats have no 对家 row). Now the
   choices sit beside the open card and 对家's discards beside its melds.
2. 听 (the cards that would win) and 提示: with 王 (永州) a hand waits on ten cards and more,
   and the row ran past the right edge (to x=1651 at 1280×800, to x=900 at 844×390: the
   page scrolled sideways) — with hints on or off, as the state itself carries 听. The row
   now wraps inside its box (on a phone held sideways two rows and a half are in sight, the
   rest a swipe away inside it); on a phone 提示 is two lines at most, a tap shows it whole.
3. English: "Nobody takes 十: to You's discards" → "to your discards".

Each table is the server's own state for a seat at a decision, made crowded in the page
(the exported ``receive`` of app.js, as a newer state from the server would be).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import VIEWPORTS, open_seat, shot, uncovered, wait_dealt, wait_js

pytestmark = pytest.mark.browser


def at_a_decision(page: Any, server: str, rules: str) -> None:
    """A one-hand room of ``rules`` against bots, opened in the page, waiting for this
    seat's choice (the bots wait for it: no newer state comes meanwhile)."""
    for _ in range(6):
        r = httpx.post(
            server + "/api/rooms", json={"rules": rules, "bot": "easy", "hands": 1, "name": "测试A"}
        )
        r.raise_for_status()
        open_seat(page, server, r.json()["room"], r.json()["token"])
        if wait_dealt(page) != "playing":
            continue  # a 天胡 at the deal (R28): another room
        wait_js(
            page,
            "!!document.querySelector('#actions button') || document.body.dataset.phase !== 'playing'",
        )
        if page.query_selector("#actions button"):
            page.wait_for_timeout(400)  # the deal's cards have landed
            return
    raise AssertionError(f"no decision in six {rules} rooms")


# The state on the page, made crowded: `over` replaces fields of its view, `top` of the
# message; the log stays (nothing new to tell or to fly), the clock is the server's.
CROWD_JS = """async ([over, top]) => {
  const { S } = await import('/static/store.js');
  const { receive } = await import('/static/app.js');
  const m = structuredClone(S.msg);
  // the hand as dealt, by point (not as the last state's arrangement left it)
  S.layout = [];
  S.layoutHand = null;
  localStorage.removeItem('phz:layout:' + S.room);
  Object.assign(m.view, over);
  Object.assign(m, top);
  m.timers = [{ seat: S.seat, deadline: m.server_time + 25 }];
  receive(m);
  return m.version;
}"""

# 衡阳 mid-hand, as the tester saw it (the recorded state of hengyang's 3rd hand, seat 0
# at a 碰), with one more column of four in the hand (一一壹壹): the tallest a dealt column gets.
HENGYANG = {
    "phase": "claim",
    "current_player": None,
    "to_act": [0],
    "others_deciding": False,
    "dealer": 1,
    "hand": ["x1", "x1", "d1", "d1", "x4", "x9", "x9", "d2", "d8", "d9", "d10"],
    "hand_sizes": [11, 5, 8, 5],
    "tables": [
        [
            {"kind": "chi", "cards": ["d2", "d3", "d4"], "huxi": 0},
            {"kind": "chi", "cards": ["x2", "x7", "x10"], "huxi": 3},
        ],
        [
            {"kind": "chi", "cards": ["x8", "x9", "x10"], "huxi": 0},
            {"kind": "peng", "cards": ["d3", "d3", "d3"], "huxi": 3},
            {"kind": "peng", "cards": ["x6", "x6", "x6"], "huxi": 1},
        ],
        [
            {"kind": "chi", "cards": ["x5", "d5", "d5"], "huxi": 0},
            {"kind": "chi", "cards": ["d8", "d9", "d10"], "huxi": 0},
        ],
        [
            {"kind": "peng", "cards": ["x4", "x4", "x4"], "huxi": 1},
            {"kind": "chi", "cards": ["d2", "d7", "d10"], "huxi": 6},
            {"kind": "chi", "cards": ["d5", "d6", "d7"], "huxi": 0},
        ],
    ],
    "table_huxi": [3, 4, 0, 7],
    "piles": [
        ["x5", "d6", "x10"],
        ["d4", "d10", "d8", "x5", "x5"],
        ["d4", "x2", "d6", "x3", "d1"],
        ["d7", "d10", "d4", "d7"],
    ],
    "open": {"card": "x9", "owner": 2, "source": "draw", "shown": True},
    "huxi": 3,
}
PENG = {
    "legal_actions": [
        {"id": "peng:x9", "type": "peng", "card": "x9", "label": "碰 九"},
        {"id": "pass", "type": "pass", "card": "x9", "label": "过"},
    ],
    "tingpai": [],
}

# What must be on the screen, in full: every hand card, your melds, 当前胡息, 听, 提示, the
# open card, the choices and the ring; how far the page reaches (against the size asked
# for: a phone's page zooms out to what overflows, innerWidth grows with it); and the
# parts that overlap (the seats, your melds, the open card, the choices, the ring, 当前胡息
# and the hand's columns).
FIT_JS = """([w, h]) => {
  const de = document.documentElement;
  const out = [];
  const shown = (e) => e.getClientRects().length && !e.closest('.hidden');
  const sel = '#hand .card, #me, #mine, #huxi, #ting, #hint, #open-card, #actions button, #ring';
  for (const e of document.querySelectorAll(sel)) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
      out.push(`${e.id || e.dataset.card || e.textContent} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  let right = 0;
  for (const e of document.querySelectorAll('#table *')) if (shown(e)) right = Math.max(right, e.getBoundingClientRect().right);
  const parts = [];
  for (const e of document.querySelectorAll('.slot .seat, #me, #open, #actions, #ring, #mine, #hand .col'))
    if (shown(e)) parts.push([e.id || e.className, e.getBoundingClientRect()]);
  const overlaps = [];
  for (let i = 0; i < parts.length; i++)
    for (let j = i + 1; j < parts.length; j++) {
      const [a, p] = parts[i], [b, q] = parts[j];
      if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1)
        overlaps.push(a + ' / ' + b);
    }
  // what reaches past the screen's edges (told when the page scrolls, not asserted)
  const past = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.bottom > h + 0.01 || r.right > w + 0.01)
      past.push(`${e.id || e.className || e.tagName} ${r.left.toFixed(1)},${r.top.toFixed(1)}-${r.right.toFixed(1)},${r.bottom.toFixed(1)}`);
  }
  return {scroll: [de.scrollWidth - w, de.scrollHeight - h], inner: [innerWidth, innerHeight],
    right: Math.round(right), out, overlaps, past: past.slice(0, 12)};
}"""


def check_fits(page: Any) -> dict[str, Any]:
    size = page.viewport_size
    got = dict(page.evaluate(FIT_JS, [size["width"], size["height"]]))
    where = f"{size}: {got}"
    assert got["scroll"][0] <= 0, f"the page scrolls sideways: {where}"
    assert got["scroll"][1] <= 0, f"the page scrolls down: {where}"
    assert got["right"] <= size["width"] + 0.5, (
        f"a part of the table runs off the right edge: {where}"
    )
    assert got["out"] == [], f"not all on the screen: {where}"
    assert got["overlaps"] == [], where
    assert uncovered(page) == [], where
    return got


def new_page(browser: Any, size: str) -> tuple[Any, Any, list[str]]:
    # no card flights: a flying card's transform is not where the table ends
    ctx = browser.new_context(**VIEWPORTS[size], reduced_motion="reduce")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


# ------------------------------------------------------------------ 1. 衡阳 at 844×390
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_crowded_four_seat_table_fits_a_phone_held_sideways(
    server: str, browser: Any, lang: str
) -> None:
    ctx, page, errors = new_page(browser, "phone-landscape")
    try:
        if lang == "en":  # longer labels, the same screen
            page.goto(server + "/")
            page.evaluate("localStorage.setItem('phz:lang', 'en')")
            page.reload()
        at_a_decision(page, server, "hengyang")
        check_fits(page)  # at the deal it fitted already
        seat = page.evaluate("import('/static/store.js').then(({ S }) => S.seat)")
        # the recorded table is seat 0's: turned so that this seat sees it the same way
        n = 4
        turn = lambda xs: [xs[(s - seat) % n] for s in range(n)]  # noqa: E731
        view = dict(HENGYANG)
        for k in ("hand_sizes", "tables", "table_huxi", "piles"):
            view[k] = turn(HENGYANG[k])
        view["to_act"] = [seat]
        view["dealer"] = (1 + seat) % n
        view["open"] = {**HENGYANG["open"], "owner": (2 + seat) % n}
        page.evaluate(CROWD_JS, [view, PENG])
        page.wait_for_selector("#actions button[data-type='peng']")
        # 一一壹壹 | 贰 | 四 | 捌 | 九九玖 | 拾: a column of four, one of three
        cols = page.evaluate(
            "[...document.querySelectorAll('#hand .col')].map((c) => [...c.children].map((x) => x.dataset.card))"
        )
        assert cols[0] == ["x1", "x1", "d1", "d1"] and ["x9", "x9", "d9"] in cols, cols
        check_fits(page)
        shot(page, f"overflow-hengyang-phone-landscape-{lang}.png")
        # all four choices at once (胡 碰 吃 过, two ways to 吃): two rows beside the card
        four = {
            "legal_actions": [
                {"id": "hu", "type": "hu", "card": "x9", "label": "胡"},
                *PENG["legal_actions"][:1],
                {
                    "id": "chi:0",
                    "type": "chi",
                    "card": "x9",
                    "label": "吃",
                    "huxi": 0,
                    "groups": [["x8", "x9", "x10"]],
                },
                {
                    "id": "chi:1",
                    "type": "chi",
                    "card": "x9",
                    "label": "吃",
                    "huxi": 0,
                    "groups": [["x7", "x8", "x9"], ["x9", "x9", "d9"]],
                },
                PENG["legal_actions"][1],
            ],
            "tingpai": [],
        }
        page.evaluate(CROWD_JS, [view, four])
        page.wait_for_selector("#actions button[data-type='hu']")
        check_fits(page)
        shot(page, f"overflow-hengyang-phone-landscape-four-choices-{lang}.png")
        # a discard (the choices' place holds 打出) fits as well
        view2 = {
            **view,
            "phase": "discard",
            "open": None,
            "current_player": seat,
            "hand": [*view["hand"], "x7"],
        }
        discard = {
            "legal_actions": [
                {"id": f"discard:{c}", "type": "discard", "card": c, "label": c}
                for c in sorted(set(view2["hand"]))
            ],
            "tingpai": [],
        }
        page.evaluate(CROWD_JS, [view2, discard])
        page.wait_for_selector("#discard-btn")
        check_fits(page)
        shot(page, f"overflow-hengyang-phone-landscape-discard-{lang}.png")
        assert errors == []
    finally:
        ctx.close()


# ------------------------------------------------------------------ 2. a long 听
CARDS = [f"x{i}" for i in range(1, 11)] + [f"d{i}" for i in range(1, 11)]
ZH = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾"
TING = [
    {"card": c, "zh": ZH[i], "huxi": 24 if i % 3 else None, "huxi_zimo": 27}
    for i, c in enumerate(CARDS[:16])
]

HINT_JS = """async (version) => {
  const { S } = await import('/static/store.js');
  const tingpai = S.msg.tingpai;
  S.ws.onmessage({ data: JSON.stringify({ type: 'hint', version, hint: { seat: S.seat, action: 'pass',
    reason: { zh: '胡牌：24 胡息（自摸）', en: 'Win: 24 huxi (self-drawn)' }, tingpai, tingpai_after: null,
    huxi: 21, ranking: [] } }) });
}"""


@pytest.mark.parametrize(
    ("rules", "size"),
    [("yongzhou", s) for s in ("desktop", "phone-landscape", "desktop-hd", "phone-portrait")]
    + [("hengyang", "phone-landscape")],  # and four seats, on the smallest screen
)
@pytest.mark.parametrize("hints", [False, True], ids=["hints-off", "hints-on"])
def test_a_long_ting_stays_on_the_screen(
    server: str, browser: Any, rules: str, size: str, hints: bool
) -> None:
    ctx, page, errors = new_page(browser, size)
    try:
        if hints:
            page.goto(server + "/")
            page.evaluate("localStorage.setItem('phz:settings', JSON.stringify({hints: true}))")
            page.reload()  # settings are read as the page loads
        at_a_decision(page, server, rules)
        seat, n = page.evaluate(
            "import('/static/store.js').then(({ S }) => [S.seat, S.msg.players.length])"
        )
        # waiting on sixteen cards (永州's 王 in the hand), at a 过, the hand as dealt
        over = {
            "phase": "claim",
            "to_act": [seat],
            "current_player": None,
            "open": {"card": "x6", "owner": (seat + 1) % n, "source": "draw", "shown": True},
        }
        if rules == "hengyang":  # and the crowded table of the test above
            over.update({k: HENGYANG[k] for k in ("tables", "table_huxi", "piles", "hand_sizes")})
        top = {
            "legal_actions": [{"id": "pass", "type": "pass", "card": "x6", "label": "过"}],
            "tingpai": TING,
        }
        version = page.evaluate(CROWD_JS, [over, top])
        page.wait_for_selector("#ting:not(.hidden)")
        assert page.locator("#ting .ting-item").count() == len(TING)  # with hints off too
        if hints:
            page.evaluate(HINT_JS, version)
            wait_js(page, "document.querySelector('#hint').textContent.includes('24')")
        check_fits(page)
        shot(page, f"overflow-ting-{rules}-{size}-{'hints' if hints else 'no-hints'}.png")
        # every 听 card is there to see: none cut off at the box's side; below its last
        # row in sight (a phone held sideways keeps two and a half) the box scrolls to them
        seen = page.evaluate("""() => {
          const ting = document.querySelector('#ting');
          const items = [...ting.querySelectorAll('.ting-item')];
          const box = ting.getBoundingClientRect();
          const cut = items.filter((e) => e.getBoundingClientRect().right > box.right + 0.5).length;
          const below = items.filter((e) => e.getBoundingClientRect().bottom > box.bottom + 0.5).length;
          ting.scrollTop = ting.scrollHeight;
          const last = items[items.length - 1].getBoundingClientRect();
          const reached = last.bottom <= ting.getBoundingClientRect().bottom + 0.5;
          ting.scrollTop = 0;
          return {cut, below, reached};
        }""")
        assert seen["cut"] == 0 and seen["reached"], seen
        if size != "phone-landscape":
            assert seen["below"] == 0, f"the whole 听 in sight: {seen}"
        if hints:
            full = page.evaluate("document.querySelector('#hint').textContent")
            assert all(t["zh"] in full for t in TING)  # the whole list, if cut short on screen
            if (
                page.evaluate("getComputedStyle(document.querySelector('#hint')).webkitLineClamp")
                == "2"
            ):
                page.click("#hint")  # a phone: a tap shows 提示 whole, over the table
                box = page.evaluate(
                    "(() => { const r = document.querySelector('#hint').getBoundingClientRect();"
                    " const e = document.querySelector('#hint');"
                    " return [r.left, r.top, r.right, r.bottom, e.scrollHeight - e.clientHeight]; })()"
                )
                size_ = page.viewport_size
                assert box[0] >= 0 and box[1] >= 0, box
                assert box[2] <= size_["width"] and box[3] <= size_["height"], box
                assert box[4] <= 1, f"提示 shown whole: {box}"
                page.click("#hint")
        assert errors == []
    finally:
        ctx.close()


# ------------------------------------------------------------------ 3. "your discards"
PILE_JS = """async () => {
  const { S } = await import('/static/store.js');
  const { receive } = await import('/static/app.js');
  const m = structuredClone(S.msg);
  m.version += 1;
  m.view.log = [...m.view.log, { type: 'pile', seat: S.seat, card: 'x10', source: 'discard', shown: true },
    { type: 'pile', seat: (S.seat + 1) % m.players.length, card: 'd10', source: 'draw', shown: true }];
  receive(m);
}"""


def test_english_says_your_discards(server: str, browser: Any) -> None:
    ctx, page, errors = new_page(browser, "desktop")
    try:
        page.goto(server + "/")
        page.evaluate("localStorage.setItem('phz:lang', 'en')")
        r = httpx.post(
            server + "/api/rooms", json={"rules": "hunan", "bot": "easy", "hands": 1, "name": "A"}
        )
        open_seat(page, server, r.json()["room"], r.json()["token"])
        page.reload()
        wait_dealt(page)
        wait_js(page, "document.documentElement.lang === 'en'")
        page.evaluate(PILE_JS)
        lines = page.evaluate(
            "[...document.querySelectorAll('#log-list li')].map((x) => x.textContent)"
        )
        assert "Nobody takes 十: to your discards" in lines, lines
        assert any(
            x.startswith("Nobody takes 拾: to Bot ") and x.endswith("'s discards") for x in lines
        ), lines
        assert not any("You's" in x for x in lines), lines
        said = page.evaluate("""async () => {
          const { TABLES } = await import('/static/i18n.js');
          const en = TABLES.en;
          return [en.seatView(en.me), en.seatView('Bot 1'), en.dissolveTitle(en.me), en.dissolveTitle('Bot 1')];
        }""")
        assert said == [
            "Your view",
            "Bot 1's view",
            "You ask to dissolve the room (解散)",
            "Bot 1 asks to dissolve the room (解散)",
        ], said
        assert errors == []
    finally:
        ctx.close()


# ------------------------------------------------------------------ a passing word
RECTS_JS = """() => [...document.querySelectorAll('#table, #hand, #actions button, #open-card')]
  .filter((e) => e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.textContent, r.left, r.top, r.width, r.height]; })"""


@pytest.mark.parametrize("size", ["phone-landscape", "desktop"])
def test_a_reconnecting_word_never_moves_the_table(server: str, browser: Any, size: str) -> None:
    """连接断开，正在重连… (and any refusal) shows as a toast under the top bar: the table
    under the player's finger does not jump, the page does not scroll, taps go through."""
    ctx, page, errors = new_page(browser, size)
    try:
        at_a_decision(page, server, "hengyang")
        before = page.evaluate(RECTS_JS)
        page.evaluate("import('/static/store.js').then(({ S }) => S.ws.close())")
        page.wait_for_selector("#status:not(.hidden)")
        assert "重连" in page.inner_text("#status")
        assert page.evaluate(RECTS_JS) == before, "the table moved under the toast"
        check_fits(page)
        box = page.evaluate("""() => { const s = document.querySelector('#status').getBoundingClientRect();
          const bar = document.querySelector('#topbar').getBoundingClientRect();
          const top = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
          return {below: s.top >= bar.bottom, through: !document.querySelector('#status').contains(top)}; }""")
        assert box == {"below": True, "through": True}, box
        wait_dealt(page)  # the socket is made again and the table comes back
        assert errors == []
    finally:
        ctx.close()
