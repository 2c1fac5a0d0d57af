"""The client in English (issue 15): every key of the one string table, strings.zh.js, has
an English entry in strings.en.js (and the other way round, down to the nested tables, with
the same kinds of values), no module but those two defines a string table,
the language switch of the lobby applies to the table and survives a reload, a legal
choice before the match starts (准备) is a button, and "said" shows as a bubble."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from .helpers import (
    ROOT,
    VIEWPORTS,
    bar_click,
    click_a_legal_choice,
    create,
    open_seat,
    shot,
    wait_dealt,
    wait_js,
)

pytestmark = pytest.mark.browser

CLIENT = ROOT / "src" / "paohuzi" / "server" / "client"

# every key of the two tables (as i18n.js serves them), with the shape of its value, nested
# tables walked
SHAPE_JS = """async () => {
  const { TABLES } = await import('/static/i18n.js');
  const shape = (o) => {
    const out = {};
    for (const k of Object.keys(o)) {
      const v = o[k];
      out[k] = typeof v === 'function' ? 'function'
        : Array.isArray(v) ? 'array:' + v.length
        : v && typeof v === 'object' ? shape(v) : typeof v;
    }
    return out;
  };
  return { zh: shape(TABLES.zh), en: shape(TABLES.en) };
}"""

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_key_of_t_has_english_and_back(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    tables = page.evaluate(SHAPE_JS)
    zh, en = tables["zh"], tables["en"]

    def diff(a: dict[str, Any], b: dict[str, Any], path: str = "T") -> list[str]:
        bad = [f"{path}.{k}: only in Chinese" for k in a if k not in b]
        bad += [f"{path}.{k}: only in English" for k in b if k not in a]
        for k in a.keys() & b.keys():
            if isinstance(a[k], dict) and isinstance(b[k], dict):
                bad += diff(a[k], b[k], f"{path}.{k}")
            elif a[k] != b[k]:
                bad.append(f"{path}.{k}: {a[k]} vs {b[k]}")
        return bad

    assert len(zh) > 150
    assert diff(zh, en) == []
    # the source agrees: every key written in strings.zh.js is seen in the browser, and
    # i18n.js's tables are those two files, nothing else (one table per language)
    src = (CLIENT / "strings.zh.js").read_text(encoding="utf-8")
    top_zh = re.findall(r"^  (\w+):", src, re.M)
    assert len(top_zh) > 100 and set(top_zh) <= set(zh), "every key of strings.zh.js is seen"
    i18n = (CLIENT / "i18n.js").read_text(encoding="utf-8")
    assert 'import ZH from "./strings.zh.js"' in i18n and 'import EN from "./strings.en.js"' in i18n
    # no other module holds a table of its own: no object literal of zh/en strings
    for js in CLIENT.glob("*.js"):
        if js.name.startswith("strings."):
            continue
        text = js.read_text(encoding="utf-8")
        assert not re.search(r"\b(T_ZH|T_EN|STR)\b|^\s*(zh|en):\s*\{", text, re.M), js.name
    page.close()


def test_the_table_in_english_and_back(server: str, browser: Any) -> None:
    for name in ("phone-portrait", "desktop"):
        ctx = browser.new_context(**VIEWPORTS[name])
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(server + "/")
        wait_js(page, "document.body.dataset.lobby === 'ready'")
        page.click("#lang-btn")  # the lobby's switch
        wait_js(page, "document.documentElement.lang === 'en'")
        create(page, server, hands=2)
        wait_js(page, "document.querySelectorAll('.slot .seat').length > 0")
        assert page.inner_text("#log-btn") == "Log"
        assert page.inner_text("#leave-btn") == "Leave"
        assert re.search(r"Hunan · hand 1/2", page.inner_text("#hand-label"))
        assert page.inner_text("#room-label").startswith("Room ")
        assert page.inner_text("#wall-label").startswith("Wall ")
        assert page.inner_text("#huxi").startswith("Huxi now")
        rels = page.eval_on_selector_all(
            ".slot .seat .badge.rel", "xs => xs.map((x) => x.textContent)"
        )
        assert set(rels) == {"Left", "Right"}
        names = page.eval_on_selector_all(".slot .seat .name", "xs => xs.map((x) => x.textContent)")
        assert sorted(names) == ["Bot 1", "Bot 2"], names  # the server's 机器人1, 机器人2
        for sel in ("#topbar", "#turn", "#mine"):
            text = page.inner_text(sel)
            # cards are 字 and so are names; labels are English
            assert not re.search(r"轮到|等待|当前胡息|记录|离开|房间|牌墙|下家|上家", text), (
                sel,
                text,
            )
        rng = random.Random(2)
        for _ in range(6):  # a few turns in, so that the table has melds and a log
            if page.get_attribute("body", "data-phase") != "playing":
                break
            version = page.get_attribute("body", "data-version")
            if page.query_selector("#actions button") and click_a_legal_choice(page, rng):
                wait_js(page, f"document.body.dataset.version !== '{version}'", 15)
            else:
                page.wait_for_timeout(50)
        page.wait_for_timeout(500)
        shot(page, f"table-en-{name}.png")
        # kept across a reload
        page.reload()
        page.wait_for_selector("#game:not(.hidden)")
        wait_js(page, "document.querySelector('#log-btn').textContent === 'Log'")
        wait_dealt(page)  # the room's state is back, not just the page
        # and the table's own switch goes back to Chinese, labels and all
        if page.get_attribute("body", "data-phase") != "playing":  # a bot may have won
            page.click("#settle-hide-btn")  # 看牌桌 shows the bar
        bar_click(page, "#table-lang-btn")  # under ⋯ on a phone held upright
        wait_js(page, "document.documentElement.lang === 'zh-CN'")
        assert page.inner_text("#log-btn") == "记录"
        assert "第 1/2 局" in page.inner_text("#hand-label")
        rels = page.eval_on_selector_all(
            ".slot .seat .badge.rel", "xs => xs.map((x) => x.textContent)"
        )
        assert set(rels) == {"上家", "下家"}
        names = page.eval_on_selector_all(".slot .seat .name", "xs => xs.map((x) => x.textContent)")
        assert sorted(names) == ["机器人1", "机器人2"], names
        assert errors == []
        ctx.close()


def test_waiting_choices_are_buttons_and_said_is_a_bubble(server: str, browser: Any) -> None:
    """A room waiting for a friend: a legal choice offered then is a button that sends
    it; a "said" message shows a bubble by the seat for about 3 s."""
    r = httpx.post(
        server + "/api/rooms", json={"rules": "hunan", "bots": 1, "hands": 1, "name": "甲"}
    )
    r.raise_for_status()
    room = r.json()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    open_seat(page, server, room["room"], room["token"])
    wait_js(page, "document.body.dataset.phase === 'waiting'")
    # the state as a server offering 准备 would send it (app.js draws what it is given)
    offered = page.evaluate("""async () => {
      const { S } = await import('/static/store.js');
      const real = S.msg.legal_actions.some((a) => a.id === 'ready');
      if (!real) S.msg = { ...S.msg, legal_actions: [{ id: 'ready', type: 'ready' }] };
      (await import('/static/app.js')).rerender();
      return real;
    }""")
    page.wait_for_selector("#waiting-actions:not(.hidden) button[data-action-id='ready']")
    assert page.inner_text("#waiting-actions button") == "准备"
    page.click("#waiting-actions button")
    page.wait_for_timeout(200)
    assert any(re.search(r'"action":\s*"ready"', f) for f in sent), (offered, sent)
    # 快捷语: a phrase goes out through app.js's send as {"type":"say"} ...
    page.click("#phrases-btn")
    page.click("#phrases button.phrase")
    page.wait_for_timeout(200)
    says = [f for f in sent if '"say"' in f]
    assert len(says) == 1 and '"phrase"' in says[0], sent
    # ... and the server's "said" shows as a bubble by the seat for about 3 s
    page.wait_for_selector(".said-bubble[data-seat='0']", timeout=5000)
    assert page.inner_text(".said-bubble[data-seat='0']")
    page.evaluate("""async () => (await import('/static/store.js')).dispatchSaid(
      { type: 'said', seat: 1, phrase: 'x', text_zh: '快点吧', text_en: 'Hurry up' })""")
    page.wait_for_selector(".said-bubble[data-seat='1']")
    assert page.inner_text(".said-bubble[data-seat='1']") == "快点吧"
    page.wait_for_selector(".said-bubble", state="detached", timeout=5000)
    page.close()
