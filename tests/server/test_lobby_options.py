"""Lobby options generated from the rules data (issue 15): schema, validation, and rooms
that really play under the options chosen (the rules of the stored records)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paohuzi.core import records
from paohuzi.core.rules import PRESETS, Rules, RulesError
from paohuzi.core.scoring import payments
from paohuzi.core.variants import EXTRA_CAPS, variants
from paohuzi.server.present import options, rulesdoc
from paohuzi.server.wire import RoomError

from .conftest import TEST_LIMITS
from .helpers import Player, create_room, not_playing


def test_every_preset_has_labelled_options_with_defaults_among_values(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    for p in data["presets"]:
        assert {"name", "players", "hands", "label", "summary", "options"} <= set(p)
        assert p["summary"]["zh"] and p["summary"]["en"]
        ids = [o["id"] for o in p["options"]]
        assert ids == [
            "players",
            "wang",
            "mingtang",
            "min_huxi",
            "base_score",
            "cap",
            *(v.id for v in variants(p["name"])),  # the region's 玩法
            "hands",
            "turn_time",
            "ready_first",
            "bot",
        ]
        for o in p["options"]:
            assert o["zh"] and o["en"] and o["values"]
            values = [v["value"] for v in o["values"]]
            assert all(v["zh"] and v["en"] for v in o["values"])
            default = o["default"]
            assert set(default) <= set(values) if o["kind"] == "many" else default in values
    lv = data["levels"]
    assert [(x["id"], x["label"]) for x in lv] == [
        ("easy", "初级"),
        ("normal", "中级"),
        ("hard", "高级"),
    ]


def test_every_preset_creates_a_room_with_its_defaults_and_changed_options(
    make_client: Callable[..., TestClient],
) -> None:
    """The lobby's defaults are accepted for every preset, 娄底's 200-point race included
    (its 封顶 is above the house choices), and so is each preset with other players."""
    client = make_client(limits=replace(TEST_LIMITS, create_rate=100, create_burst=100))
    for p in client.get("/api/presets").json()["presets"]:
        opts = {o["id"]: o["default"] for o in p["options"]}
        r = client.post("/api/rooms", json={"rules": p["name"], "bots": 0, "options": opts})
        assert r.status_code == 200, (p["name"], r.text)
        n = 2 if p["players"] != 2 else 3
        opts.update(players=n, hands=1, cap=20, base_score=2)
        r = client.post("/api/rooms", json={"rules": p["name"], "bots": n - 1, "options": opts})
        assert r.status_code == 200, (p["name"], r.text)
        info = client.get(f"/api/rooms/{r.json()['room']}").json()
        assert len(info["seats"]) == n


def test_options_come_from_the_preset_data() -> None:
    lz = {o["id"]: o for o in options.schema(PRESETS["luzhou"])}
    hn = {o["id"]: o for o in options.schema(PRESETS["hunan"])}
    assert lz["players"]["default"] == 4 and hn["players"]["default"] == 3
    assert [v["zh"] for v in hn["players"]["values"]] == ["2人", "3人", "4人坐底"]
    # 坐底 as data (the lobby reads it): 4 seats with one sitting out, where the deck is short
    assert [(v["value"], v["sit_out"]) for v in hn["players"]["values"]] == [
        (2, False),
        (3, False),
        (4, True),
    ]
    assert [v["sit_out"] for v in lz["players"]["values"] if v["value"] == 4] == [True]
    # 泸州 lists all its 名堂 but counts only 红/乌/天/地 (scoring_mode hongwu) by default
    assert [v["value"] for v in lz["mingtang"]["values"]] == [
        m.id for m in PRESETS["luzhou"].mingtang
    ]
    assert lz["mingtang"]["default"] == ["honghu", "wuhu", "tianhu", "dihu"]
    # 起胡: only minimums that are worth at least 1 等 under the preset's 等 formula
    assert [v["value"] for v in hn["min_huxi"]["values"]] == [15, 18, 21]
    assert 10 in [v["value"] for v in lz["min_huxi"]["values"]]
    # a new preset needs no client change: its options follow its data
    house = PRESETS["hunan"].replace(name="house", min_huxi=9, deng=PRESETS["luzhou"].deng)
    ho = {o["id"]: o for o in options.schema(house)}
    assert ho["min_huxi"]["default"] == 9 and ho["mingtang"]["default"][0] == "honghu"
    assert options.summary(house)["zh"].startswith("house · 3人 · 9胡起胡")


def test_summary_names_the_configuration() -> None:
    c = options.apply(PRESETS["hunan"], {"players": 2, "min_huxi": 18, "cap": 20, "mingtang": []})
    s = options.summary(c.rules, "hard", 15)
    assert (
        s["zh"] == "湖南 · 2人 · 18胡起胡 · 无名堂 · 底分1 · 20分封顶 · 8局 · 每步15秒 · 机器人高级"
    )
    assert "capped at 20" in s["en"] and "no scoring patterns" in s["en"]


def test_summary_of_a_race_names_its_target_and_the_regions_words() -> None:
    """R45: 娄底's 局数 is only a safety cap; its 名堂 carry the region's own names."""
    s = options.summary(PRESETS["loudi"])
    assert s["zh"].endswith("200分封顶 · 先到100息胜（最多30局）")
    assert "一点朱" in s["zh"] and "海底捞" in s["zh"] and "点胡" not in s["zh"]
    assert s["en"].endswith("first to 100 points (at most 30 hands)")
    # 永州 names its patterns in its own words (the dealer's 天胡 counts as a 自摸)
    assert (
        "名堂：红胡、点胡、黑胡、自摸、天胡(自摸) · " in options.summary(PRESETS["yongzhou"])["zh"]
    )


@pytest.mark.parametrize(
    ("opts", "field"),
    [
        ({"players": 5}, "options.players"),
        ({"players": "3"}, "options.players"),
        ({"min_huxi": 14}, "options.min_huxi"),
        ({"base_score": 4}, "options.base_score"),
        ({"cap": True}, "options.cap"),
        ({"hands": 7}, "options.hands"),
        ({"turn_time": 1}, "options.turn_time"),
        ({"bot": "god"}, "options.bot"),
        ({"mingtang": ["gui"]}, "options.mingtang"),  # not a hunan 名堂
        ({"mingtang": "honghu"}, "options.mingtang"),
        ({"colour": "red"}, "options"),  # an unknown key is not echoed
        ({"wang": 5}, "options.wang"),  # R39: a deck holds 0–4 王
        ({"wang": -1}, "options.wang"),
        ({"wang": True}, "options.wang"),
        ({"wang": 2.0}, "options.wang"),  # a float is no count
        ({"min_huxi": 15.0}, "options.min_huxi"),
    ],
)
def test_bad_options_are_refused_and_create_nothing(
    client: TestClient, opts: dict[str, Any], field: str
) -> None:
    before = client.portal.call(client.app.state.storage.counts)["rooms"]  # type: ignore[attr-defined, union-attr]
    r = client.post("/api/rooms", json={"rules": "hunan", "options": opts})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "bad_options" and body["fields"] == [field]
    assert body["message_zh"] and body["message_en"] == "Invalid room options"
    assert client.portal.call(client.app.state.storage.counts)["rooms"] == before  # type: ignore[attr-defined, union-attr]


def test_wang_with_yiwushi_is_refused_in_words(client: TestClient) -> None:
    """衡阳's 一五十 is not played with 王 (docs/spec-notes.md): the lobby's refusal says
    so, in both languages, naming the two options — not only "房间选项无效"."""
    before = client.portal.call(client.app.state.storage.counts)["rooms"]  # type: ignore[attr-defined, union-attr]
    opts = {"wang": 1, "yiwushi": "on"}
    r = client.post("/api/rooms", json={"rules": "hengyang", "options": opts})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "bad_options"
    assert body["fields"] == ["options.wang", "options.yiwushi"]
    assert body["message"] == body["message_zh"]
    assert body["message_zh"].startswith("房间选项无效：") and "一五十" in body["message_zh"]
    assert "无王" in body["message_zh"] and "不带" in body["message_zh"]
    assert body["message_en"].startswith("Invalid room options: ")
    assert "1-5-10" in body["message_en"] and "no 王" in body["message_en"]
    assert client.portal.call(client.app.state.storage.counts)["rooms"] == before  # type: ignore[attr-defined, union-attr]
    # the rules page of those options (the lobby's 查看完整规则) answers the same words
    r = client.get("/api/rules/hengyang", params={"options": json.dumps(opts)})
    assert r.status_code == 422 and r.json()["message_en"] == body["message_en"]
    # each alone is played
    for ok in ({"wang": 1}, {"yiwushi": "on"}):
        r = client.post("/api/rooms", json={"rules": "hengyang", "bots": 3, "options": ok})
        assert r.status_code == 200, r.text


def test_house_scoring_options_change_payments() -> None:
    r = Rules(base_score=3, cap=20)
    assert payments(4, 0, [0, 1, 2], r) == [24, -12, -12]  # 4 底 × 3 分
    assert payments(10, 0, [0, 1, 2], r) == [40, -20, -20]  # 30 capped at 20 each
    assert payments(4, 0, [0, 1, 2], Rules()) == [8, -4, -4]  # no options: unchanged
    for bad in ({"base_score": "2"}, {"base_score": 0}, {"cap": -1}, {"cap": True}):
        with pytest.raises(RulesError):
            Rules.from_dict(bad)  # a file's slip is refused, not played


@pytest.mark.parametrize(
    "house", [{"cap": "10"}, {"base_score": 1000}, {"cap": True}, {"wang": 5}, {"wang": -1}]
)
def test_a_full_rules_object_with_bad_house_scoring_is_refused(
    client: TestClient, house: dict[str, Any]
) -> None:
    rules = {"preset": "hunan", **house}
    r = client.post("/api/rooms", json={"rules": rules, "bots": 2})
    assert r.status_code == 400 and r.json()["error"] == "bad_rules"
    ok = client.post("/api/rooms", json={"rules": {"preset": "hunan", "cap": 20}})
    assert ok.status_code == 200


def _play_until_win(client: TestClient, room: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        me = Player(ws)
        st = me.next_state()
        while True:
            if st["phase"] == "settlement" and not st["result"]["huangzhuang"]:
                return st
            assert st["phase"] != "finished", "no hand was won"
            if st["legal_actions"]:
                me.act(rng.choice(st["legal_actions"])["id"])
            st = me.next_state()


def test_a_room_plays_under_its_options(client: TestClient) -> None:
    opts = {
        "players": 4,
        "mingtang": ["honghu", "wuhu", "dianhu"],
        "base_score": 2,
        "cap": 10,
        "hands": 16,
        "bot": "easy",
    }
    room = create_room(client, rules="hunan", seed=21, options=opts)
    info = client.get(f"/api/rooms/{room['room']}").json()
    assert len(info["seats"]) == 4 and info["summary"]["zh"].startswith("湖南 · 4人坐底")
    assert info["hands"] == 16 and [p["bot"] for p in info["players"][1:]] == ["easy"] * 3
    st = _play_until_win(client, room)
    rec = client.get(f"/api/records/{st['hand_id']}").json()
    rules = Rules.from_dict(rec["rules"])  # the rules of the stored record
    assert rules.players == 4 and rules.sit_out
    assert [m.id for m in rules.mingtang] == ["honghu", "dianhu", "wuhu"]
    assert (rules.base_score, rules.cap) == (2, 10)
    res = st["result"]
    assert res["payments"].count(0) == 1  # the seat that sat out (坐底) pays nothing
    unit = min(res["di"] * 2, 10)  # each payer: 底 × 底分, at most 封顶
    winner = max(range(4), key=lambda s: res["payments"][s])
    losers = [p for s, p in enumerate(res["payments"]) if s != winner and p != 0]
    assert losers and all(p == -unit for p in losers), (res["di"], res["payments"])
    assert records.replay(rec).returns() == res["payments"]


def test_min_huxi_option_is_the_rooms_rule(client: TestClient) -> None:
    room = create_room(client, rules="hunan", seed=3, options={"min_huxi": 21, "players": 2})
    doc = client.get(f"/api/rules/{room['room']}").json()
    win = {s["id"]: s for s in doc["sections"]}["win"]["items"]
    assert {i["id"]: i for i in win}["min_huxi"]["value"] == 21
    assert client.portal.call(client.app.state.manager.get, room["room"]).rules.min_huxi == 21  # type: ignore[attr-defined, union-attr]
    assert len(client.get(f"/api/rooms/{room['room']}").json()["seats"]) == 2


def test_every_preset_offers_0_to_4_wang_defaulting_to_its_own() -> None:
    """无王/单王/双王/三王/四王 (R39) on every preset's form, its own count the default."""
    for name, r in PRESETS.items():
        o = {x["id"]: x for x in options.schema(r)}["wang"]
        assert [(v["value"], v["zh"]) for v in o["values"]] == [
            (0, "无王"),
            (1, "单王"),
            (2, "双王"),
            (3, "三王"),
            (4, "四王"),
        ]
        assert o["default"] == r.wang and o["kind"] == "one", name
    # the summary names 王 where there are some (and 无王 where the preset had some)
    assert "王" not in options.summary(PRESETS["hunan"])["zh"]
    two = options.apply(PRESETS["hunan"], {"wang": 2}).rules
    assert options.summary(two)["zh"].startswith("湖南 · 3人 · 双王 · 15胡起胡")
    assert "two 王" in options.summary(two)["en"]
    with_wang = next((r for r in PRESETS.values() if r.wang), None)
    if with_wang is not None:
        none = options.apply(with_wang, {"wang": 0}).rules
        assert none.wang == 0 and " · 无王 · " in options.summary(none)["zh"]


def test_a_room_with_wang_deals_them_and_says_so(client: TestClient) -> None:
    """A room created with 双王 plays a deck of 82 (R39); its invite data and rules page say
    双王, and what 王 may and may not do (R39–R41)."""
    room = create_room(client, rules="hunan", seed=4, options={"wang": 2})
    info = client.get(f"/api/rooms/{room['room']}").json()
    assert " · 双王 · " in info["summary"]["zh"] and "two 王" in info["summary"]["en"]
    doc = client.get(f"/api/rules/{room['room']}").json()
    sec = {s["id"]: s for s in doc["sections"]}["wang"]
    items = {i["id"]: i for i in sec["items"]}
    assert items["wang_count"]["value"] == 2 and items["wang_never"]["rule"] == "R39"
    assert "wang" not in {s["id"] for s in client.get("/api/rules/hunan").json()["sections"]}
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        st = Player(ws).play(random.Random(2), not_playing)
    rec = client.get(f"/api/records/{st['hand_id']}").json()
    assert rec["deck"].count("w") == 2 and len(rec["deck"]) == 82
    assert Rules.from_dict(rec["rules"]).wang == 2


def test_four_players_of_a_preset_with_xing_seat_the_zuoxing_seat() -> None:
    """R42/R7: four at 永州 or 桂林 — the seat that sits out is the 坐醒 seat that collects
    醒; 湖南 (no 醒) sits one out without it; 衡阳's 14-card hands deal all four."""
    for name, sit, collects in (
        ("yongzhou", True, True),
        ("guilin", True, True),
        ("hunan", True, False),
        ("hengyang", False, False),
    ):
        r = options.apply(PRESETS[name].with_players(3), {"players": 4}).rules
        assert (r.players, r.sit_out, r.xing_seat) == (4, sit, collects), name


# ------------------------------------------------------------------ 玩法 (core/variants.py)
def test_each_regions_options_are_offered_with_its_own_first() -> None:
    """PRESETS.md's options of 永州, 桂林 and 衡阳 as the lobby's selects, the preset's
    own play the default; a preset's other 封顶 (永州 600, 娄底 400) among the caps."""
    for name, rules in PRESETS.items():
        opts = {o["id"]: o for o in options.schema(rules)}
        for v in variants(name):
            o = opts[v.id]
            assert o["variant"] is True and o["default"] == v.choices[0].value
            assert [x["value"] for x in o["values"]] == [c.value for c in v.choices]
            assert all(x["sum"]["zh"] and x["sum"]["en"] for x in o["values"])
        caps = [x["value"] for x in opts["cap"]["values"]]
        assert set(EXTRA_CAPS.get(name, ())) <= set(caps) and rules.cap in caps
    assert {v.id for v in variants("yongzhou")} == {"xing", "xing_double", "hongzhuan", "wangpai"}
    assert {v.id for v in variants("hunan")} == set()


def test_a_room_plays_under_the_regional_options_chosen(client: TestClient) -> None:
    """永州 with 跟醒, 双醒, 红转朱黑, 亡牌 and 封顶 600: the room's rules (and so its
    records) carry each; the summary line names them; the rules page states 跟醒."""
    opts = {"xing": "gen", "xing_double": "on", "hongzhuan": "on", "wangpai": "on", "cap": 600}
    room = create_room(client, rules="yongzhou", seed=4, options=opts)
    rules = client.portal.call(client.app.state.manager.get, room["room"]).rules  # type: ignore[attr-defined, union-attr]
    assert (rules.xing, rules.xing_offset, rules.xing_double) == ("gen", 0, True)
    assert rules.huangzhuang.wang_pay == 5 and rules.cap == 600
    assert [m.id for m in rules.mingtang][:3] == ["honghu", "shisanhong", "dahong"]
    line = client.get(f"/api/rooms/{room['room']}").json()["summary"]["zh"]
    for part in ("600分封顶", "跟醒", "双醒", "红转朱黑", "亡牌"):
        assert part in line, (part, line)
    assert line.startswith(options.summary(rules)["zh"])  # then the bots' level
    doc = client.get(f"/api/rules/{room['room']}").json()
    xing = {s["id"]: s for s in doc["sections"]}["xing"]["items"]
    assert {i["id"]: i for i in xing}["xing_source"]["value"] == "gen"
    items = {i["id"]: i for s in doc["sections"] for i in s["items"]}
    assert "亡牌" in items["huangzhuang"]["zh"] and "per extra 王" in items["huangzhuang"]["en"]


def test_a_variant_with_the_mingtang_choice_keeps_its_own_patterns() -> None:
    """红转朱黑 with 红胡 left out: its 点胡/黑胡 (13+ red) stay, as the option says; the
    summary names the 名堂 the lobby offers and the option."""
    ch = options.apply(
        PRESETS["yongzhou"],
        {"hongzhuan": "on", "mingtang": ["dianhu", "wuhu", "zimo", "tianhu"]},
    )
    ids = [m.id for m in ch.rules.mingtang]
    assert "honghu" not in ids and {"shisanhong", "dahong", "dianhu"} <= set(ids)
    zh = options.summary(ch.rules)["zh"]
    assert "红转朱黑" in zh and "名堂：点胡、黑胡、自摸、天胡(自摸)" in zh, zh


@pytest.mark.parametrize(
    "bad",
    [{"xing": "fan+2"}, {"xing": 1}, {"zi_step": "5"}, {"hongzhuan": True}, {"cap": 600}],
)
def test_a_variant_value_outside_the_schema_is_refused(bad: dict[str, Any]) -> None:
    """永州's choices only (桂林's 子 /5 is no 永州 option; 600 is no 湖南 cap)."""
    rules = PRESETS["hunan"] if "cap" in bad else PRESETS["yongzhou"]
    with pytest.raises(RoomError) as e:
        options.apply(rules, bad)
    assert e.value.status == 422


def test_a_variant_turned_off_is_named_so() -> None:
    """桂林 plays 连翻: a room without it says 不带连翻; its defaults say nothing of 玩法."""
    off = options.apply(PRESETS["guilin"], {"lianfan": "off", "haidi": "3"}).rules
    zh, en = options.summary(off)["zh"], options.summary(off)["en"]
    assert "不带连翻" in zh and "八一字牌：海底+3子" in zh and "no chained bonus cards (连翻)" in en
    plain = options.summary(PRESETS["guilin"])["zh"]
    assert not any(w in plain for w in ("连翻", "八一字牌", "醒"))


def test_a_variant_relabels_the_mingtang_chips_it_changes() -> None:
    """桂林's 自摸加一子: the 自摸 and 天胡 chips say +1 子, not ×2 (the schema says so for
    the lobby); 八一字牌's 海底 +3."""
    opts = {o["id"]: o for o in options.schema(PRESETS["guilin"])}
    unit = {v["value"]: v for v in opts["zimo"]["values"]}["unit"]
    assert unit["mingtang"] == {
        "zimo": {"fan": 1, "effect": "units"},
        "tianhu": {"fan": 1, "effect": "units"},
    }
    assert "mingtang" not in opts["zimo"]["values"][0]  # the preset's own: the chips as they are
    assert {v["value"]: v for v in opts["haidi"]["values"]}["3"]["mingtang"] == {
        "haihu": {"fan": 3, "effect": "units"}
    }


def test_hongzhuan_patterns_follow_the_chips_they_count_as() -> None:
    """红转朱黑's 13–15 red counts as 点胡 and 16+ as 黑胡: without those chips, not at all."""
    yz = PRESETS["yongzhou"]
    only_zimo = options.apply(yz, {"hongzhuan": "on", "mingtang": ["zimo"]}).rules
    assert [m.id for m in only_zimo.mingtang] == ["zimo"]
    dian = options.apply(yz, {"hongzhuan": "on", "mingtang": ["dianhu", "zimo"]}).rules
    assert [m.id for m in dian.mingtang] == ["shisanhong", "dianhu", "zimo"]
    # chosen, so said, even where no red 名堂 is left for it to change
    assert "红转朱黑" in options.summary(only_zimo)["zh"]


def test_wangpai_needs_wang() -> None:
    """亡牌 in a deck without 王 pays nothing: neither played nor said; with 王, both."""
    yz = PRESETS["yongzhou"]
    none = options.apply(yz, {"wang": 0, "wangpai": "on"}).rules
    assert none.huangzhuang.wang_pay == 0 and "亡牌" not in options.summary(none)["zh"]
    four = options.apply(yz, {"wang": 4, "wangpai": "on"}).rules
    assert four.huangzhuang.wang_pay == 5 and "亡牌" in options.summary(four)["zh"]
    assert {o["id"]: o for o in options.schema(yz)}["wangpai"]["needs"] == "wang"
    # and the other way: 衡阳's 一五十 is not played with 王 (the lobby greys it out there)
    hy = {o["id"]: o for o in options.schema(PRESETS["hengyang"])}
    assert hy["yiwushi"]["needs"] == "no_wang" and "needs" not in hy["tun"]


def test_the_rules_page_states_what_a_variant_turns_off_and_each_count() -> None:
    """What a region does and a room does not (桂林 可不胡, 不连翻) is stated, not just
    left out; red-count 名堂 say their count (永州 红转朱黑: 点胡 13–15, 黑胡 16 or more,
    named as the region names them in English too); the payment names a win on a card
    another player turned up (everyone pays, R44)."""
    doc = rulesdoc.document(
        options.apply(PRESETS["guilin"], {"forced_win": "none", "lianfan": "off"}).rules
    )
    items = {i["id"]: i for s in doc["sections"] for i in s["items"]}
    assert items["forced_win"]["value"] == "none" and "可以不胡" in items["forced_win"]["zh"]
    assert "不连翻" in items["xing_chain"]["zh"]
    assert "turned up" in items["payment"]["en"] and "翻出" in items["payment"]["zh"]
    yz = options.apply(PRESETS["yongzhou"], {"hongzhuan": "on"}).rules
    mt = {i["id"]: i for s in rulesdoc.document(yz)["sections"] for i in s["items"]}
    # one item per name: 点胡 (one red, or 13–15) and 黑胡 (none, or 16+) each once
    assert mt["shisanhong"]["zh"] == "点胡：×3（只有一张红字，或13–15张红字）"
    assert mt["dahong"]["zh"] == "黑胡：×4（没有红字，或16张红字或以上）"
    assert mt["dahong"]["en"].startswith("No red (黑胡): ×4 (no red card, or 16 or more")
    assert mt["honghu"]["zh"] == "红胡：×2（10–12张红字）"
    assert "dianhu" not in mt and "wuhu" not in mt
    plain = {
        i["id"]: i for s in rulesdoc.document(PRESETS["guilin"])["sections"] for i in s["items"]
    }
    assert "forced_win" in plain and "可以不胡" not in plain["forced_win"]["zh"]  # 有胡必胡


def test_the_rules_page_lists_the_regions_options_with_the_one_played() -> None:
    """A player reading 桂林's rules learns what the lobby lets a room change (PRESETS.md's
    options), the one this table plays marked."""
    doc = rulesdoc.document(options.apply(PRESETS["guilin"], {"zimo": "unit"}).rules)
    sec = {s["id"]: s for s in doc["sections"]}["variants"]
    items = {i["id"]: i for i in sec["items"]}
    assert set(items) == {f"variant_{v.id}" for v in variants("guilin")}
    assert items["variant_zimo"]["zh"] == "自摸：自摸×2、自摸加一子（现用）"
    assert items["variant_zimo"]["value"] == "unit" and items["variant_xing"]["value"] == "fan0"
    hunan = rulesdoc.document(PRESETS["hunan"])
    assert "variants" not in {s["id"] for s in hunan["sections"]}  # no options in PRESETS.md
