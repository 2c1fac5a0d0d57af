"""Browser tests of a player's pass (issue: the lobby's bots follow 人数, 醒 told in words,
the sit-out seat's name, the match summary's row at 390 px, the 吃 picker's prompt).
Uses conftest.py's ``server`` and ``browser``."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import VIEWPORTS, Frames, open_seat, play_hand, shot, wait_js
from .lobby_helpers import DESKTOP, PHONE, new_page, open_lobby

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_bots_follow_the_seats(browser: Any, server: str, lang: str) -> None:
    """人数 changed: every other seat is still a bot (a "vs bots" room never waits for a
    friend); a friend's seat chosen after the change is kept through the next change."""
    c, page = new_page(browser, **DESKTOP)
    try:
        open_lobby(page, server, lang)
        page.select_option("#rules", "guilin")
        assert page.input_value("#bots") == "2"
        page.select_option("#opt-players", index=2)  # 4人 (数醒)
        assert page.input_value("#bots") == "3"
        shot(page, f"pass-lobby-bots-{lang}.png")
        page.select_option("#opt-players", index=0)  # 2人
        assert page.input_value("#bots") == "1"
        page.select_option("#opt-players", index=1)  # 3人
        page.select_option("#bots", "1")  # one seat left for a friend, deliberately
        page.select_option("#opt-players", index=2)
        assert page.input_value("#bots") == "2"  # still one friend's seat
        page.select_option("#rules", "hunan")  # a new preset starts against bots again
        assert page.input_value("#bots") == "2"
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


XING_EVENTS = """async () => {
  const { setLang } = await import('/static/i18n.js');
  const { narrate } = await import('/static/narrate.js');
  const who = (s) => 'Bot' + s;
  // what core's Event.to_dict sends: the 醒牌 as `card`, the card turned, how many held
  const evs = [
    { type: 'xing', seat: 1, card: 'x4', source: 'wall', shown: true, count: 3, turned: 'x4' },
    { type: 'xing', seat: 1, card: 'd5', source: 'wall', shown: true, count: 2, turned: 'd4' },
    { type: 'xing', seat: 1, card: 'x7', shown: true, count: 1, turned: 'x7' },
  ];
  const out = {};
  for (const l of ['zh', 'en']) { setLang(l); out[l] = narrate(evs, who, 0); }
  setLang('zh');
  return out;
}"""


def test_xing_event_is_told_in_words(browser: Any, server: str) -> None:
    """The 醒 event says the 醒牌, the card turned and how many the winner holds, never
    the raw type ("Bot1 xing 四")."""
    c, page = new_page(browser, **DESKTOP)
    try:
        page.goto(server + "/")
        out = page.evaluate(XING_EVENTS)
        assert out["zh"] == [
            "Bot1 翻醒：四（醒 3）",
            "Bot1 翻醒：肆 → 伍（醒 2）",
            "Bot1 跟醒：七（醒 1）",
        ]
        for line in out["en"]:
            assert "xing" not in line and "bonus card (醒)" in line, line
        assert "四, 3 held" in out["en"][0] and "肆 → bonus card (醒) 伍" in out["en"][1]
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def _room(page: Any, server: str, rules: str, seed: int, options: dict[str, Any]) -> None:
    body = {"rules": rules, "bot": "normal", "seed": seed, "name": "小明", "options": options}
    r = httpx.post(server + "/api/rooms", json=body)
    r.raise_for_status()
    room = r.json()
    open_seat(page, server, room["room"], room["token"])


def _lang(page: Any, lang: str) -> None:
    page.evaluate(f"localStorage.setItem('phz:lang', '{lang}')")
    page.reload()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_xing_seat_is_named_and_its_collection_explained(
    browser: Any, server: str, lang: str
) -> None:
    """永州 4人: the seat that sits out is 坐醒 (not 坐底); a won hand's sheet says it
    collects 番 × 醒 from each loser, and tags its line in the payments."""
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    _room(page, server, "yongzhou", 11, {"players": 4, "hands": 8})
    if lang == "en":
        _lang(page, lang)
    rng = random.Random(3)
    term = "坐醒" if lang == "zh" else "Sits out · 坐醒"
    seen = False
    for _ in range(8):
        wait_js(page, "['playing', 'settlement', 'finished'].includes(document.body.dataset.phase)")
        badges = page.eval_on_selector_all(
            "#game .seat .badge.out", "bs => bs.map(b => b.textContent)"
        )
        assert badges == [term], badges
        play_hand(page, rng)
        wait_js(page, "['settlement', 'finished'].includes(document.body.dataset.phase)")
        page.wait_for_selector("#settlement:not(.hidden)")
        r = frames.last["result"] if frames.last else None
        assert r is not None
        if r["winner"] is not None:
            x = r["xing_seat"]
            line = page.inner_text("#settle-body .why.xing-seat")
            assert term in line and f"= {x['each']}" in line, line
            assert f"{x['fan']}" in line and f"{x['xing']}" in line
            tags = page.inner_text("#settle-body table.payments").count(term.split(" · ")[-1])
            assert tags == 1
            chips = page.inner_text("#settle-body .summary")
            if lang == "en":  # the units labelled, 醒 and 番 named in English
                assert "tun (囤) " in chips and "Bonus card (醒)" in chips, chips
                assert "multiplier (番) ×" in chips and "醒 card" not in chips, chips
            for vp in ("desktop", "phone-portrait", "phone-landscape"):
                page.set_viewport_size(VIEWPORTS[vp]["viewport"])
                page.eval_on_selector("#settle-scroll", "e => { e.scrollTop = 0; }")
                shot(page, f"pass-sheet-top-{vp}-{lang}.png")
                page.locator("#settle-body .why.xing-seat").scroll_into_view_if_needed()
                shot(page, f"pass-xing-seat-{vp}-{lang}.png")
            seen = True
            break
        if page.get_attribute("body", "data-phase") == "finished":
            break
        hand = page.get_attribute("body", "data-hand")
        page.click("#ready-btn")
        wait_js(page, f"document.body.dataset.hand !== '{hand}'")
    assert seen, "no hand was won"
    assert not errors, errors
    ctx.close()


HUANG = """(h) => (async () => {
  const { S } = await import('/static/store.js');
  const r = S.msg.result;
  const n = r.payments.length;
  S.msg = { ...S.msg, hand_id: S.msg.hand_id + 'h', result: { ...r, winner: null, huangzhuang: true,
    discarder: null, groups: [], mingtang: [], xing_cards: undefined, xing: undefined,
    xing_seat: undefined, wang: undefined, huang: h.huang, payments: h.payments.slice(0, n) } };
  (await import('/static/app.js')).rerender();
})()"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_huangzhuang_sheet_says_why_money_moved(browser: Any, server: str, lang: str) -> None:
    """A 荒庄 that moves money says why: 娄底's dealer penalty (R45); 永州 亡牌 with the 王
    each seat held (the server's ``huang``, tests/server/test_player_pass.py)."""
    ctx = browser.new_context(**VIEWPORTS["phone-portrait"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _room(page, server, "yongzhou", 5, {"hands": 4, "wangpai": "on"})
    if lang == "en":
        _lang(page, lang)
    rng = random.Random(1)
    for _ in range(5):  # a click the table moved away from (another seat's claim) plays on
        try:
            play_hand(page, rng)
            break
        except PlaywrightTimeout:
            continue
    wait_js(page, "['settlement', 'finished'].includes(document.body.dataset.phase)")
    page.wait_for_selector("#settlement:not(.hidden)")
    huang = {"dealer": 1, "cost": 0, "penalty": 0, "wang_pay": 5, "wang": [2, 0, 1]}
    page.evaluate(HUANG, {"huang": huang, "payments": [-15, 10, 5]})
    page.wait_for_selector("#settle-body .why.wang-pai")
    line = page.inner_text("#settle-body .why.wang-pai")
    assert "亡牌" in line and "5" in line, line
    held = ["我（2张）", "机器人1（0张）"] if lang == "zh" else ["You (2)", "Bot 1 (0)"]
    assert all(x in line for x in held), line
    for vp in ("phone-portrait", "desktop", "phone-landscape"):
        page.set_viewport_size(VIEWPORTS[vp]["viewport"])
        page.locator("#settle-body .why.wang-pai").scroll_into_view_if_needed()
        shot(page, f"pass-huang-wangpai-{vp}-{lang}.png")
    page.evaluate(
        HUANG,
        {"huang": {"dealer": 2, "cost": 0, "penalty": 10, "wang_pay": 0}, "payments": [0, 0, -10]},
    )
    line = page.inner_text("#settle-body .why.huang-why")
    assert ("庄家" in line or "dealer" in line) and "10" in line, line
    assert not errors, errors
    ctx.close()


SUMMARY = """async () => {
  const { S } = await import('/static/store.js');
  const x = S.msg.summary;
  const hands = x.hands.map((h) => ({ ...h, index: 12, scores: [142, -71, -71] }));
  S.msg = { ...S.msg, summary: { ...x, totals: [142, -71, -71], ranking: [0, 1, 2], big_winner: [0],
    hands, best_hand: { index: 12, seat: 0, score: 142 },
    best_hands: [{ index: 12, score: 142 }, { index: 3, score: 36 }, { index: 7, score: 24 }] } };
  (await import('/static/app.js')).rerender();
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_match_summary_names_fit_on_a_phone(browser: Any, server: str, lang: str) -> None:
    """390×844: the big winner's ranking row shows the whole name beside its badge, its
    points and its best hand (the row wraps; nothing is cut to "B··")."""
    ctx = browser.new_context(**VIEWPORTS["phone-portrait"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    body = {"rules": "hunan", "bot": "normal", "seed": 2, "name": "Bartholomew", "hands": 1}
    room = httpx.post(server + "/api/rooms", json=body).json()
    open_seat(page, server, room["room"], room["token"])
    if lang == "en":
        _lang(page, lang)
    play_hand(page, random.Random(2))
    wait_js(page, "document.body.dataset.phase === 'finished'")
    page.wait_for_selector("#match-summary .ranking li")
    page.evaluate(SUMMARY)  # seat 0, the long name, is the big winner with a best hand
    page.wait_for_selector("#match-summary .ranking li.big-winner[data-seat='0'] .seat-best")
    cut = page.eval_on_selector_all(
        "#match-summary .ranking .who, #match-summary .ranking .seat-best, "
        "#match-summary .ranking .badge.big, #match-summary .ranking .pts",
        "es => es.filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().width < 8)"
        ".map(e => e.textContent)",
    )
    assert cut == [], cut
    rows = page.eval_on_selector_all(
        "#match-summary .ranking li",
        "ls => ls.map(l => [l.getBoundingClientRect().right, l.parentElement.getBoundingClientRect().right])",
    )
    assert all(r <= p + 1 for r, p in rows), rows
    shot(page, f"pass-match-summary-phone-{lang}.png")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lobby_follows_the_preset_and_its_options(browser: Any, server: str, lang: str) -> None:
    """The subtitle names the preset's game; 4人 says 数醒 / 坐醒; 桂林's 必胡 option is
    titled apart from its values; 查看完整规则 states the options chosen (带 现用)."""
    c, page = new_page(browser, **PHONE)
    try:
        open_lobby(page, server, lang)
        page.select_option("#rules", "guilin")
        sub = page.inner_text("#lobby h1 small")
        assert sub == ("桂林字牌" if lang == "zh" else "Guilin word cards"), sub
        four = page.eval_on_selector("#opt-players", "s => s.options[2].textContent")
        assert "数醒" in four, four
        title = page.inner_text("#create-form [data-option=forced_win] > span")
        assert title == ("必胡" if lang == "zh" else "Forced win (必胡)"), title
        page.select_option("#rules", "yongzhou")
        page.select_option("#opt-hongzhuan", index=1)  # 红转朱黑 带
        page.click("#summary-rules-btn")
        page.wait_for_selector("#rules-page:not(.hidden) [data-item=variant_hongzhuan]")
        item = page.inner_text("#rules-page [data-item=variant_hongzhuan]")
        assert (
            ("带（现用）" in item and "不带（现用）" not in item)
            if lang == "zh"
            else (item.count("(in play)") == 1 and item.index("(in play)") > item.index("/"))
        ), item
        shot(page, f"pass-lobby-rules-{lang}.png")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


PROMPT_JS = """() => {
  const t = document.querySelector('#game .turn-text');
  const p = document.querySelector('#chi-picker').getBoundingClientRect();
  const r = t.getBoundingClientRect();
  const overlap = !(p.right <= r.left || p.left >= r.right || p.bottom <= r.top || p.top >= r.bottom);
  return { text: t.textContent, overlap, prompt: [r.left, r.top, r.right, r.bottom],
    picker: [p.left, p.top, p.right, p.bottom] };
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chi_picker_leaves_the_prompt_in_sight_on_a_phone(
    browser: Any, server: str, lang: str
) -> None:
    """390×844: the 吃 picker opens without covering "请选择：吃 / 过" (the prompt)."""
    from .test_new_user import open_chi_picker

    ctx = browser.new_context(**VIEWPORTS["phone-portrait"])
    page = ctx.new_page()
    try:
        open_chi_picker(page, server, random.Random(11))
        if lang == "en":
            page.evaluate("async () => (await import('/static/i18n.js')).setLang('en')")
            wait_js(
                page, "document.querySelector('#game .turn-text').textContent.startsWith('Choose')"
            )
        x = page.evaluate(PROMPT_JS)
        shot(page, f"pass-chi-picker-phone-{lang}.png")
        assert x["text"] and not x["overlap"], x
    finally:
        ctx.close()


SELECTS_JS = """() => {
  const g = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const s of document.querySelectorAll('#create-form label > select')) {
    const cs = getComputedStyle(s);
    g.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const need = Math.max(...[...s.options].map((o) => g.measureText(o.textContent).width));
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
    if (need > room) out.push(s.name + ': ' + [...s.options].map((o) => o.textContent).join(' | '));
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lobby_selects_show_their_whole_values_on_a_phone(
    browser: Any, server: str, lang: str
) -> None:
    """390×844: no select's value is cut ("turned, one up (上醒"): a long one takes the
    whole row, in every preset."""
    c, page = new_page(browser, **PHONE)
    try:
        open_lobby(page, server, lang)
        for name in ("guilin", "yongzhou", "hengyang", "loudi", "hunan"):
            page.select_option("#rules", name)
            cut = page.evaluate(SELECTS_JS)
            assert cut == [], (name, cut)
        page.select_option("#rules", "guilin")
        shot(page, f"pass-lobby-phone-{lang}.png")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()
