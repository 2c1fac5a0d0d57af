"""Browser tests of a player's pass (issue: the lobby's bots follow 人数, 醒 told in words,
the sit-out seat's name, the match summary's row at 390 px, the 吃 picker's prompt).
Uses conftest.py's ``server`` and ``browser``."""

from __future__ import annotations

from typing import Any

import pytest

from .lobby_helpers import DESKTOP, open_lobby, shot

pytestmark = pytest.mark.browser


def _page(browser: Any, **ctx: Any) -> tuple[Any, Any]:
    c = browser.new_context(**ctx)
    p = c.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.errors = errors  # type: ignore[attr-defined]
    return c, p


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_bots_follow_the_seats(browser: Any, server: str, lang: str) -> None:
    """人数 changed: every other seat is still a bot (a "vs bots" room never waits for a
    friend); a friend's seat chosen after the change is kept through the next change."""
    c, page = _page(browser, **DESKTOP)
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
    c, page = _page(browser, **DESKTOP)
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
