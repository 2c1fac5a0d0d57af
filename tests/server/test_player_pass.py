"""The settlement says why money moved (a player's pass): the 坐醒/数醒 seat's 醒 from
each loser, and on a 荒庄 the dealer's penalty or cost and 亡牌 with the 王 each held."""

from __future__ import annotations

from typing import Any

import pytest

from bot_hands import bot_match
from paohuzi.core.rules import Rules
from paohuzi.core.variants import parse
from paohuzi.core.views import view
from paohuzi.server.messages import HandSettlement
from paohuzi.server.present.settlement import hand_settlement


def _hands(rules: Rules, seeds: range, hands: int = 8) -> Any:
    """Every finished hand of bot matches: (state, its seat-0 settlement)."""
    for seed in seeds:
        for table, st in bot_match(rules, seed, hands):
            m = table.match
            assert st.result is not None
            yield st, hand_settlement(st.result, view(st, st.seats[0]), m.scores, 1, 1, rules)


@pytest.mark.parametrize("preset", ["yongzhou", "guilin"])
def test_the_xing_seat_says_what_each_loser_paid_it(preset: str) -> None:
    """4人: the seat that sits out collects 番 × 醒数 from each loser; the sheet names the
    seat, 番, 醒数 and what each paid, and that is all the seat got."""
    rules = parse(preset).with_players(4)
    assert rules.xing_seat
    wins = 0
    for st, sheet in _hands(rules, range(3)):
        if sheet.huangzhuang:
            assert sheet.xing_seat is None
            continue
        line = sheet.xing_seat
        assert line is not None
        assert line.seat not in st.seats and line.losers == len(st.seats) - 1
        assert line.fan == sheet.fan and line.xing == sheet.xing
        assert line.each == min(sheet.fan * (sheet.xing or 0), rules.cap or 10**9)
        assert sheet.payments[line.seat] == line.each * line.losers
        wins += 1
    assert wins
    # three players: no sit-out seat, nothing said
    for _, sheet in _hands(parse(preset), range(1), 3):
        assert sheet.xing_seat is None


def test_wangpai_on_a_huangzhuang_names_the_wang_each_held() -> None:
    """永州 亡牌: between every two seats the one holding more 王 pays 5 per extra 王 — the
    sheet carries the 王 counts, the dealer and the 5, which add up to the payments."""
    rules = parse("yongzhou:wangpai=on")
    seen = 0
    for st, sheet in _hands(rules, range(12)):
        if not sheet.huangzhuang:
            assert sheet.huang is None
            continue
        h = sheet.huang
        assert h is not None and h.dealer == st.dealer and h.wang_pay == 5
        assert h.wang is not None and len(h.wang) == rules.players
        want = [0] * rules.players
        for i in range(rules.players):
            for j in range(i + 1, rules.players):
                d = (h.wang[i] - h.wang[j]) * 5
                want[i] -= d
                want[j] += d
        assert list(sheet.payments) == want
        seen += 1
    assert seen
    # without 亡牌 nothing moves on a 荒庄 and nothing is said
    for _, sheet in _hands(parse("yongzhou"), range(4)):
        if sheet.huangzhuang:
            assert sheet.huang is None and not any(sheet.payments)


def test_a_race_huangzhuang_names_the_dealers_penalty() -> None:
    """娄底 (R45): a 荒庄 costs the dealer 10 息; the sheet says who and how much."""
    rules = parse("loudi")
    seen = 0
    for st, sheet in _hands(rules, range(6)):
        if sheet.huangzhuang:
            h = sheet.huang
            assert h is not None and h.dealer == st.dealer and h.penalty == 10
            assert sheet.payments[st.dealer] == -10
            seen += 1
    assert seen


def test_the_new_fields_stay_off_the_wire_where_not_used() -> None:
    fields = HandSettlement.model_fields
    assert "xing_seat" in fields and "huang" in fields


def _items(rules: str) -> list[tuple[str, dict[str, Any]]]:
    from paohuzi.server.present.rulesdoc import document

    return [(s["id"], it) for s in document(parse(rules))["sections"] for it in s["items"]]


def test_hengyang_states_only_its_open_wei() -> None:
    """衡阳 (明偎): the 偎 lies face up — the page never also says 扣着放 (face down)."""
    items = _items("hengyang")
    wei = [it for sid, it in items if sid == "moves" and ("偎：" in it["zh"] or "明偎" in it["zh"])]
    assert len(wei) == 1 and "亮着放" in wei[0]["zh"] and "face up" in wei[0]["en"]
    assert not any("扣着放" in it["zh"] or "face down" in it["en"] for _, it in items)
    hunan = [it for sid, it in _items("hunan") if sid == "moves" and it["id"] == "wei"]
    assert "扣着放" in hunan[0]["zh"]  # elsewhere a 偎 lies face down


@pytest.mark.parametrize("rules", ["yongzhou", "yongzhou:hongzhuan=on", "hengyang", "loudi"])
def test_each_mingtang_name_is_stated_once(rules: str) -> None:
    """永州 红转朱黑: 13–15 red is 点胡 as one red is — one 点胡 item saying both, one 黑胡."""
    names = [it["zh"].split("：")[0] for sid, it in _items(rules) if sid == "mingtang"]
    assert len(names) == len(set(names)), names
    if rules == "yongzhou:hongzhuan=on":
        mt = {it["zh"].split("：")[0]: it for sid, it in _items(rules) if sid == "mingtang"}
        assert "只有一张红字" in mt["点胡"]["zh"] and "13–15张红字" in mt["点胡"]["zh"]
        assert "没有红字" in mt["黑胡"]["zh"] and "16张红字或以上" in mt["黑胡"]["zh"]
        assert mt["黑胡"]["en"].startswith("No red (黑胡)")


def test_honghu_is_a_red_hand_in_english_and_a_region_keeps_its_word() -> None:
    """红胡 is 10 or more red cards (R36), not "all red"; 永州's 黑胡 is not called 乌胡."""
    from paohuzi.server.present.options import mingtang_label, schema

    assert mingtang_label("honghu")["en"] == "Red hand (红胡)"
    for name in ("hunan", "yongzhou", "hengyang", "luzhou", "guilin"):
        for _, it in _items(name):
            assert "All red" not in it["en"], it
    chips = {
        v["value"]: v["en"]
        for o in schema(parse("yongzhou"))
        if o["id"] == "mingtang"
        for v in o["values"]
    }
    assert chips["honghu"] == "Red hand (红胡)" and chips["wuhu"] == "No red (黑胡)"
    guilin = {it["id"]: it["en"] for sid, it in _items("guilin") if sid == "mingtang"}
    assert guilin["haihu"].startswith("Last card (海底)")


@pytest.mark.parametrize("rules", ["guilin", "yongzhou", "hengyang", "hunan"])
def test_the_rules_page_cites_tianhu_and_names_its_unit_one_way(rules: str) -> None:
    """天胡 cites R28 in the 20-card presets (R43 is the 14/17-card hands'); the unit's
    English is one name page-wide (tun (囤), never also units (囤))."""
    items = _items(rules)
    tianhu = [it for sid, it in items if it["id"] == "tianhu" and sid != "mingtang"]
    r = parse(rules)
    for it in tianhu:
        assert it["rule"] == ("R28" if r.melds_to_win == 7 else "R43"), it
    text = " ".join(it["en"] for _, it in items)
    assert f"units ({r.unit})" not in text


def test_a_presets_rules_page_with_the_lobbys_options(client: Any) -> None:
    """The lobby's 查看完整规则 states the options chosen: 红转朱黑 带 is 现用, 4人 坐醒."""
    import json

    q = {"options": json.dumps({"hongzhuan": "on", "players": 4})}
    doc = client.get("/api/rules/yongzhou", params=q).json()
    items = {it["id"]: it for s in doc["sections"] for it in s["items"]}
    assert "带（现用）" in items["variant_hongzhuan"]["zh"]
    assert "坐醒" in items["players"]["zh"] and "4人坐醒" in doc["summary"]["zh"]
    plain = client.get("/api/rules/yongzhou").json()
    items = {it["id"]: it for s in plain["sections"] for it in s["items"]}
    assert "不带（现用）" in items["variant_hongzhuan"]["zh"]
    for bad in ('{"hongzhuan": "x"}', "[1", '"on"'):
        r = client.get("/api/rules/yongzhou", params={"options": bad})
        assert r.status_code == 422 and r.json()["error"] == "bad_options"


def test_sit_out_and_forced_win_are_named_as_the_region_does() -> None:
    """4人: 永州 坐醒, 桂林 数醒, elsewhere 坐底 (lobby values, the summary); 桂林's option
    is titled 必胡, not one of its values (有胡必胡 / 可不胡)."""
    from paohuzi.server.present.options import schema, summary

    for name, word in (("yongzhou", "坐醒"), ("guilin", "数醒"), ("hunan", "坐底")):
        opts = {o["id"]: o for o in schema(parse(name))}
        four = next(v for v in opts["players"]["values"] if v["value"] == 4)
        assert four["zh"] == f"4人{word}" and four["sit_out_word"] == word
        assert f"4人{word}" in summary(parse(name).with_players(4))["zh"]
    fw = next(o for o in schema(parse("guilin")) if o["id"] == "forced_win")
    assert fw["zh"] == "必胡" and fw["zh"] not in [v["zh"] for v in fw["values"]]
