"""Browser tests of issue 15's client: the lobby's room form generated from the presets'
options, invites (link, QR, the join page), the rules pages, the tutorial, 我的牌局, the
two languages and the quick-phrase picker. Uses conftest.py's ``server`` and ``browser``."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from .helpers import bar_click, play_hand, wait_dealt
from .lobby_helpers import (
    DESKTOP,
    PHONE,
    chinese_only,
    new_page,
    open_lobby,
    presets,
    room_of,
    rules_values,
    shot,
    stored_seat,
    wait_js,
)

pytestmark = pytest.mark.browser

MY_SCREENS = ["#hall-bar", "#create-form", "#join-form", "#replay-form", "#my-matches"]


def test_strings_in_both_languages(browser: Any, server: str) -> None:
    """Every key of the zh table has an en entry and vice versa (nested tables too)."""
    c, page = new_page(browser, **DESKTOP)
    try:
        page.goto(server + "/")
        missing = page.evaluate("""async () => {
          const { TABLES } = await import('/static/i18n.js');
          const out = [];
          const walk = (a, b, path) => {
            for (const k of Object.keys(a)) {
              if (!(k in b)) { out.push(path + k); continue; }
              const x = a[k], y = b[k];
              if (x && typeof x === 'object' && !Array.isArray(x)) walk(x, y, path + k + '.');
              else if (Array.isArray(x) && (!Array.isArray(y) || x.length !== y.length)) out.push(path + k + '[]');
              else if (typeof x !== typeof y) out.push(path + k + ' (type)');
            }
          };
          walk(TABLES.zh, TABLES.en, 'en lacks ');
          walk(TABLES.en, TABLES.zh, 'zh lacks ');
          return out;
        }""")
        assert missing == []
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def test_form_follows_the_schema_and_summary(browser: Any, server: str) -> None:
    """One control per option of each preset; the summary line follows the choices and
    equals the server's for the room created; the room's rules page states the options."""
    c, page = new_page(browser, **DESKTOP)
    try:
        open_lobby(page, server)
        shot(page, "lobby-desktop.png")
        for p in presets(server):
            page.select_option("#rules", p["name"])
            shown = page.eval_on_selector_all(
                "#create-form [data-option]", "xs => xs.map(x => x.dataset.option)"
            )
            assert shown == [o["id"] for o in p["options"]], p["name"]
            # the default summary is the preset's (the form adds 每步 / 机器人)
            line = page.inner_text("#rules-summary")
            assert line.startswith(p["summary"]["zh"]), (line, p["summary"]["zh"])
            opts = {o["id"]: o for o in p["options"]}
            # change every kind of option; the summary follows at once
            mh = opts["min_huxi"]["values"][-1]
            page.select_option("#opt-min_huxi", label=mh["zh"])
            assert f"{mh['value']}胡起胡" in page.inner_text("#rules-summary")
            page.select_option("#opt-cap", label="20分")
            page.select_option("#opt-base_score", label="2分")
            page.select_option("#opt-turn_time", label="60秒")
            page.select_option("#bot", "easy")
            for o in p["options"]:  # the region's 玩法: its last choice, named in the line
                if o.get("variant"):
                    last = o["values"][-1]
                    page.select_option(f"#opt-{o['id']}", label=last["zh"])
                    assert last["sum"]["zh"] in page.inner_text("#rules-summary"), o["id"]
            first_mt = opts["mingtang"]["values"][0]
            page.uncheck(f"#create-form [data-option=mingtang] input[value={first_mt['value']}]")
            assert first_mt["zh"] + "、" not in page.inner_text("#rules-summary")
            page.fill("#hands", "1")
            players = 2 if p["players"] != 2 else 3
            page.select_option("#opt-players", label=f"{players}人")
            page.select_option("#bots", str(players - 1))
            line = page.inner_text("#rules-summary")
            for part in ("20分封顶", "底分2", "1局", "每步60秒", "机器人初级", f"{players}人 "):
                assert part in line, (part, line)
            page.click("#create-btn")
            page.wait_for_selector("#game:not(.hidden)")
            room = room_of(page)
            info = httpx.get(f"{server}/api/rooms/{room}").json()
            assert info["summary"]["zh"] == line  # computed the same way as the server
            assert len(info["seats"]) == players and info["bot"] == "easy"
            v = rules_values(server, room)
            assert v["min_huxi"] == mh["value"] and v["cap"] == 20 and v["base_score"] == 2
            # a race (R45) states its 局数 as the safety cap
            assert v.get("hands", v.get("race_cap")) == 1
            assert first_mt["value"] not in v.get("mingtang", [])
            wait_js(page, "['playing', 'settlement'].includes(document.body.dataset.phase)")
            assert stored_seat(page, room)["token"]
            page.goto(server + "/#/")
            page.reload()
            page.wait_for_selector("body[data-lobby=ready]")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def test_invite_join_page_and_languages(browser: Any, server: str) -> None:
    """A friends room shows the link and QR; the link opens the join page (rules line,
    seats, free seats); 加入 seats the friend; both are seated; errors in both languages."""
    ca, a = new_page(browser, **DESKTOP)
    cb, b = new_page(browser, **PHONE)
    try:
        open_lobby(a, server)
        a.select_option("#rules", "hunan")
        a.select_option("#opt-min_huxi", label="18胡息")
        a.select_option("#bots", "1")  # one seat for a friend
        a.fill("#name", "阿明")
        a.click("#create-btn")
        a.wait_for_selector("#invite:not(.hidden) img.qr")
        room = room_of(a)
        wait_js(a, "document.querySelector('#invite img.qr').naturalWidth > 0")
        link = a.input_value("#invite-link")
        assert link.endswith(f"/#/room/{room}")
        assert (
            httpx.get(f"{server}/api/rooms/{room}/qr.svg")
            .headers["content-type"]
            .startswith("image/svg+xml")
        )
        shot(a, "lobby-invite-desktop.png")

        b.goto(link)
        b.wait_for_selector("#join-page-btn")
        assert "18胡起胡" in b.inner_text("#join-summary")
        seats = b.inner_text("#join-seats")
        assert "阿明" in seats and "空位" in seats
        assert "空位 1 个" in b.inner_text("#join-page")
        assert b.is_hidden("#create-form")  # the join page, not the lobby
        shot(b, "join-phone.png")
        b.click("#join-page .lang")
        wait_js(
            b, "document.querySelector('#join-summary')?.textContent.includes('win from 18 huxi')"
        )
        assert "1 free seat" in b.inner_text("#join-page")
        assert chinese_only(b, ["#join-page"]) == []
        shot(b, "join-phone-en.png")
        b.fill("#join-page-name", "Bo")
        b.click("#join-page-btn")
        b.wait_for_selector("#game:not(.hidden)")
        assert stored_seat(b, room)["seat"] == 2
        info = httpx.get(f"{server}/api/rooms/{room}").json()
        assert [s["free"] for s in info["seats"]] == [False, False, False]
        assert [s["name"] for s in info["seats"]][2] == "Bo"
        for p in (a, b):
            wait_js(p, "['playing', 'settlement'].includes(document.body.dataset.phase)")
        assert a.is_hidden("#invite")

        # errors in the chosen language (b is in English now, a in Chinese)
        b.goto(server + "/#/room/ZZZZZZ")
        b.wait_for_selector("#join-error:not(:empty)")
        assert "No such room" in b.inner_text("#join-error")
        a.goto(server + "/#/room/ZZZZZZ")
        a.wait_for_selector("#join-error:not(:empty)")
        assert "房间不存在" in a.inner_text("#join-error")
        assert a.errors == [] and b.errors == []  # type: ignore[attr-defined]
    finally:
        ca.close()
        cb.close()


def test_english_lobby_and_rules_pages(browser: Any, server: str) -> None:
    """The English lobby shows no Chinese-only string; the language is remembered; the
    rules page of a preset and of the room being played (from the table's 规则)."""
    c, page = new_page(browser, **PHONE)
    try:
        open_lobby(page, server)
        page.click("#lang-btn")
        wait_js(page, "document.documentElement.lang === 'en'")
        page.select_option("#rules", "luzhou")
        assert chinese_only(page, MY_SCREENS) == []
        assert "win from 10 huxi" in page.inner_text("#rules-summary")
        shot(page, "lobby-phone-en.png")
        page.reload()
        page.wait_for_selector("body[data-lobby=ready]")
        assert page.inner_text("#create-btn") == "Create and sit down"  # remembered
        page.click("#lang-btn")  # back to 中文
        wait_js(page, "document.documentElement.lang === 'zh-CN'")

        page.select_option("#rules", "changde")
        page.click("#summary-rules-btn")
        page.wait_for_selector("#rules-page .rules-sec")
        assert "常德" in page.inner_text("#rules-title")
        assert "至少15胡息" in page.inner_text("#rules-page [data-item=min_huxi]")
        shot(page, "rules-phone.png")
        page.click("#rules-close")

        # a room's own rules, from the table
        page.select_option("#opt-min_huxi", label="21胡息")
        page.select_option("#opt-cap", label="50分")
        page.select_option("#bot", "easy")
        page.fill("#hands", "1")
        page.click("#create-btn")
        page.wait_for_selector("#game:not(.hidden)")
        bar_click(page, "#table-rules-btn")  # under ⋯ on a phone held upright
        page.wait_for_selector("#rules-page .rules-sec")
        room = room_of(page)
        assert room in page.inner_text("#rules-title")
        assert "21" in page.inner_text("#rules-page [data-item=min_huxi]")
        assert "50" in page.inner_text("#rules-page [data-item=cap]")
        page.click("#rules-close")
        assert page.is_hidden("#rules-page")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def test_rules_from_the_table_desktop(browser: Any, server: str) -> None:
    c, page = new_page(browser, **DESKTOP)
    try:
        open_lobby(page, server)
        page.select_option("#rules", "hunan")  # 3 seats: the human plays (never sits out)
        page.select_option("#opt-players", label="2人")
        page.select_option("#opt-base_score", label="5分")
        page.select_option("#bot", "easy")
        page.fill("#hands", "1")
        page.click("#create-btn")
        page.wait_for_selector("#game:not(.hidden)")
        wait_dealt(page)
        page.click("#table-rules-btn")
        page.wait_for_selector("#rules-page .rules-sec")
        assert "2人" in page.inner_text("#rules-page [data-section=seats]")
        assert "5" in page.inner_text("#rules-page [data-item=base_score]")
        shot(page, "rules-table-desktop.png")
    finally:
        c.close()


def _expected(server: str, at: int) -> str:
    r = httpx.post(f"{server}/api/tutorial/basics/step", json={"at": at}).json()
    return str(r["stop"]["expect"])


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_tutorial_by_its_prompts(browser: Any, server: str, size: str) -> None:
    """The tutorial from the lobby: each stop's explanation and choices; a wrong choice
    is explained and the right one outlined; the hand ends with the win (24 胡息)."""
    c, page = new_page(browser, **(DESKTOP if size == "desktop" else PHONE))
    try:
        open_lobby(page, server, "en" if size == "phone" else "zh")
        page.click("#tutorial-btn")
        page.click("#tut-start")
        page.wait_for_selector("#tut-text")
        steps = int(httpx.get(server + "/api/tutorial").json()["steps"])
        wrong_tried = False
        for at in range(steps):
            wait_js(
                page,
                f"(document.querySelector('#tut-step') || {{}}).textContent?.includes(' {at + 1}/')",
            )
            assert page.inner_text("#tut-text").strip()
            if size == "phone":
                assert chinese_only(page, ["#tut-panel", ".tut-head"]) == []
            if page.query_selector("#tut-next"):
                page.click("#tut-next")
                continue
            want = _expected(server, at)
            if not wrong_tried and want.startswith("peng"):
                page.click("#tut-choices [data-action=pass]")
                page.wait_for_selector("#tut-feedback.bad")
                assert page.query_selector(f"[data-action='{want}'].expected")
                if size == "desktop":
                    shot(page, "tutorial-desktop.png")
                wrong_tried = True
            card = want[8:] if want.startswith("discard:") else None
            if card and size == "phone":  # tap the card in the hand, as a player would
                page.click(f"#tutorial .board .hand .card.legal[data-card='{card}']")
            else:
                page.click(f"#tut-choices [data-action='{want}']")
            if at == 7 and size == "phone":
                page.wait_for_selector("#tut-feedback.good")
                shot(page, "tutorial-phone.png")
        page.wait_for_selector("#tut-result")
        assert "24" in page.inner_text("#tut-result")
        assert wrong_tried
        if size == "phone":
            shot(page, "tutorial-done-phone-en.png")
        page.click("#tut-finish")
        assert page.is_hidden("#tutorial")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def test_phrase_picker_sends_say(browser: Any, server: str) -> None:
    """The picker lists /api/phrases and sends {"type":"say"} on the table's socket
    (the server does not answer "say" yet: only what is sent is checked)."""
    c, page = new_page(browser, **DESKTOP)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    try:
        open_lobby(page, server)
        page.select_option("#bot", "easy")
        page.fill("#hands", "1")
        page.click("#create-btn")
        wait_js(page, "['playing', 'settlement'].includes(document.body.dataset.phase)")
        page.click("#phrases-btn")
        page.wait_for_selector("#phrases [data-phrase=nice]")
        assert page.inner_text("#phrases [data-phrase=nice]") == "打得好！"
        page.click("#phrases [data-phrase=nice]")
        for _ in range(100):
            if any('"say"' in s for s in sent):
                break
            page.wait_for_timeout(20)
        says = [json.loads(s) for s in sent if '"say"' in s]
        assert says == [{"type": "say", "phrase": "nice"}]
    finally:
        c.close()


@pytest.mark.slow
def test_a_hand_under_the_options_and_my_matches(browser: Any, server: str) -> None:
    """A hand played under the form's options: its record has those rules; 我的牌局 lists
    the match with its result and a replay link that opens the replay."""
    c, page = new_page(browser, **DESKTOP)
    try:
        open_lobby(page, server)
        page.select_option("#rules", "hunan")
        page.select_option("#opt-cap", label="10分")
        page.select_option("#opt-base_score", label="3分")
        page.select_option("#bot", "easy")
        page.fill("#hands", "1")
        page.click("#create-btn")
        page.wait_for_selector("#game:not(.hidden)")
        room = room_of(page)
        wait_js(page, "['playing', 'settlement', 'finished'].includes(document.body.dataset.phase)")
        play_hand(page, random.Random(15))
        token = stored_seat(page, room)["token"]
        m = httpx.post(f"{server}/api/my-matches", json={"tokens": [token]}).json()["matches"][0]
        hand = m["hands"][0]
        assert hand["finished"]
        rec = httpx.get(f"{server}/api/records/{hand['hand_id']}").json()
        rules = rec["rules"]
        flat = json.dumps(rules)
        assert '"cap": 10' in flat and '"base_score": 3' in flat, flat[:400]
        page.goto(server + "/#/")
        page.reload()
        page.wait_for_selector(f"#my-matches .match[data-room='{room}'] a.hand-link")
        page.eval_on_selector("#my-matches", "e => e.scrollIntoView()")
        shot(page, "lobby-matches-desktop.png")
        link = page.get_attribute(f"#my-matches .match[data-room='{room}'] a.hand-link", "href")
        assert link == f"#/replay/{hand['hand_id']}"
        page.click(f"#my-matches .match[data-room='{room}'] a.hand-link")
        page.wait_for_selector("#replay:not(.hidden)")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def test_error_follows_a_language_switch(browser: Any, server: str) -> None:
    """The join page's refusal is redrawn in the other language when it is switched."""
    c, page = new_page(browser, **PHONE)
    try:
        open_lobby(page, server)
        page.goto(server + "/#/room/QQQQQQ")
        page.wait_for_selector("#join-error:not(:empty)")
        assert "房间不存在" in page.inner_text("#join-error")
        page.click("#join-page .lang")
        wait_js(
            page,
            "(document.querySelector('#join-error') || {}).textContent?.includes('No such room')",
        )
        page.click("#join-page .lang")
        wait_js(
            page,
            "(document.querySelector('#join-error') || {}).textContent?.includes('房间不存在')",
        )
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def test_mingtang_chips_say_what_each_is_worth(browser: Any, server: str) -> None:
    """A 名堂 chip says its worth as the settlement does (R36): 娄底's 天胡 sets the hand
    at 100 息 (it read "100番"), 桂林's 海底 adds 2 子 (it read "2番"), a 番 is a 番."""
    c, page = new_page(browser, **DESKTOP)
    try:
        open_lobby(page, server)

        def chip(preset: str, mid: str) -> str:
            page.select_option("#rules", preset)
            sel = f"#create-form [data-option=mingtang] input[value={mid}]"
            return str(page.eval_on_selector(sel, "x => x.closest('label').innerText")).strip()

        assert chip("loudi", "tianhu").endswith("记100息")
        assert chip("guilin", "haihu").endswith("+2子")
        assert chip("hunan", "honghu").endswith("番")
    finally:
        c.close()


def test_yiwushi_is_not_offered_with_wang(browser: Any, server: str) -> None:
    """衡阳's 一五十 is not played with 王: with 王 chosen the lobby greys 一五十 out at
    不带 (as 亡牌 without 王), the summary does not name it, and the room is made
    without it; back to 无王 it can be chosen again."""
    c, page = new_page(browser, **DESKTOP)
    try:
        open_lobby(page, server, "zh")
        page.select_option("#rules", "hengyang")
        page.select_option("#opt-yiwushi", label="带")
        assert "一五十" in page.inner_text("#rules-summary")
        page.select_option("#opt-wang", "1")
        assert page.is_disabled("#opt-yiwushi")
        assert (
            page.eval_on_selector("#opt-yiwushi", "s => s.options[s.selectedIndex].text") == "不带"
        )
        assert "一五十" not in page.inner_text("#rules-summary")
        page.select_option("#opt-wang", "0")
        assert not page.is_disabled("#opt-yiwushi")
        page.select_option("#opt-yiwushi", label="带")
        page.select_option("#opt-wang", "1")
        page.click("#create-btn")
        page.wait_for_selector("#game:not(.hidden)")
        room = room_of(page)
        assert rules_values(server, room)["wang_count"] == 1
        assert "ju1510" not in httpx.get(f"{server}/api/rules/{room}").text  # no 一五十 row
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()


def test_english_summary_never_breaks_a_runs_name(browser: Any, server: str) -> None:
    """The English summary names 一五十 as 1-5-10: a phone's narrow line wraps between
    words, never inside the run's name (its hyphens are unbreakable, U+2011)."""
    c, page = new_page(browser, viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        open_lobby(page, server, "en")
        page.select_option("#rules", "hengyang")
        page.select_option("#opt-yiwushi", index=1)
        line = page.inner_text("#rules-summary")
        assert "1\u20115\u201110 run (一五十)" in line and "1-5-10" not in line, line
        # where the line wraps: one client rect per line of the text; the name is on one
        lines = page.evaluate("""() => {
          const n = document.querySelector('#rules-summary').firstChild;
          const at = n.textContent.indexOf('1\\u2011'), r = document.createRange();
          r.setStart(n, at); r.setEnd(n, at + 6);
          return r.getClientRects().length; }""")
        assert lines == 1
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        c.close()
