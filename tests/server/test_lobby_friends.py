"""Friends (issue 15): public join info, the invite QR code, quick phrases, rules pages."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
import segno
from fastapi.testclient import TestClient

from paohuzi.core.rules import PRESETS
from paohuzi.core.variants import variants
from paohuzi.server.http import qr
from paohuzi.server.room import phrases, readiness

from .helpers import create_room


def test_join_info_names_seats_free_seats_rules_and_status(client: TestClient) -> None:
    r = create_room(client, bots=0, name="阿明", options={"players": 3, "cap": 50})
    info = client.get(f"/api/rooms/{r['room']}").json()
    assert info["status"] == info["phase"] == "waiting"
    assert info["status_label"] == {"zh": "等人", "en": "waiting for players"}
    assert info["seats"] == [
        {"seat": 0, "kind": "human", "name": "阿明", "free": False},
        {"seat": 1, "kind": "free", "name": None, "free": True},
        {"seat": 2, "kind": "free", "name": None, "free": True},
    ]
    assert info["free_seats"] == [1, 2]  # the existing fields stay
    assert "50分封顶" in info["summary"]["zh"] and "capped at 50" in info["summary"]["en"]
    client.post(f"/api/rooms/{r['room']}/join", json={"name": "小红"})
    info = client.get(f"/api/rooms/{r['room']}").json()
    assert [s["name"] for s in info["seats"]] == ["阿明", "小红", None]
    assert r["token"] not in str(info)  # tokens never in public info


def test_invite_qr_code_is_an_svg_of_the_rooms_link(client: TestClient) -> None:
    r = create_room(client, bots=1)
    res = client.get(f"/api/rooms/{r['room'].lower()}/qr.svg")
    assert res.status_code == 200 and res.headers["content-type"] == "image/svg+xml"
    root = ET.fromstring(res.content)
    assert root.tag.endswith("svg") and any(el.tag.endswith("path") for el in root.iter())
    link = f"http://testserver/#/room/{r['room']}"
    assert qr.invite_link("http://testserver/", r["room"]) == link
    # the same modules as segno's code for exactly that link (and not for another room)
    assert res.content == qr.svg(link)
    other = segno.make("http://testserver/#/room/ZZZZZZ", error="m")
    assert res.content != qr.svg("http://testserver/#/room/ZZZZZZ")
    assert segno.make(link, error="m").designator == other.designator  # same size: a fair test


def test_phrases_are_a_fixed_bilingual_list(client: TestClient) -> None:
    data = client.get("/api/phrases").json()
    assert len(data["phrases"]) >= 6 and len(data["emoji"]) >= 6
    ids = [p["id"] for p in data["phrases"] + data["emoji"]]
    assert len(ids) == len(set(ids))
    for p in data["phrases"] + data["emoji"]:
        assert p["zh"] and p["en"] and phrases.validate(p["id"]) is not None
    assert phrases.validate("nice").zh == "打得好！"  # type: ignore[union-attr]
    for bad in ("", "NICE", "<script>", None, 3, ["nice"]):
        assert phrases.validate(bad) is None
    said = phrases.said(2, phrases.BY_ID["thumbs"]).model_dump(mode="json")
    assert said == {
        "type": "said",
        "seat": 2,
        "phrase": "thumbs",
        "text_zh": "👍",
        "text_en": "👍",
        "kind": "emoji",
    }


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_page_of_each_preset_comes_from_its_rules(client: TestClient, name: str) -> None:
    r = PRESETS[name]
    doc = client.get(f"/api/rules/{name}").json()
    assert doc["rules"] == name and doc["label"]["zh"] and doc["label"]["en"]
    sections = {s["id"]: s for s in doc["sections"]}
    extra = (
        (["wang"] if r.wang else [])  # R39–R41, where the preset deals 王 (永州)
        + (["xing"] if r.xing != "none" else [])
        + (["race"] if r.match == "race" else [])
        + (["variants"] if variants(name) else [])  # the region's options (玩法)
    )
    assert list(sections) == ["seats", "huxi", "moves", "win", "mingtang", "scoring", *extra]
    for s in doc["sections"]:
        assert s["title"]["zh"] and s["title"]["en"]
        for item in s["items"]:
            assert item["zh"] and item["en"], item
    moves = {i["id"] for i in sections["moves"]["items"]}
    assert {"chi", "bi", "peng", "wei", "ti", "pao", "chou", "bakuai"} <= moves
    assert f"{r.min_huxi}" in {i["id"]: i for i in sections["win"]["items"]}["min_huxi"]["zh"]
    counted = [m for m in r.mingtang if r.uses(m.id)]
    mt = sections["mingtang"]["items"]
    assert [(i["id"], i["fan"]) for i in mt] == [(m.id, m.fan) for m in counted]
    peng = {i["id"]: i for i in sections["huxi"]["items"]}["huxi_peng"]
    assert peng["values"] == [r.huxi_table.value("peng", c) for c in (0, 10, 1, 11)]


@pytest.mark.parametrize(
    ("name", "zh", "en"),
    [
        # 醒 (R42), the unit, 5 门子 (R43), 明偎, 包赔 × (n − 1) and forced wins (R44)
        ("guilin", ["翻醒", "本醒", "每张加1子", "连翻", "子 = 1 + (胡息 − 10) ÷ 3", "有胡必胡",
                    "包赔 × 2", "海底：加2子", "自摸：×2", "底 = (子 + 醒数) × 番",
                    "地胡：闲家胡庄家打出的第一张牌", "荒庄：没人胡，不计分；由庄家下家坐庄"],
         ["翻醒", "+1 子 each", "zi (子) = 1 + (huxi − 10) ÷ 3", "有胡必胡", "2 times over",
          "+2 子", "multiplied", "any non-dealer wins on the dealer's first discard"]),
        ("hengyang", ["每家14张", "5个门子", "明偎", "每张加1囤", "囤 = 1 + (胡息 − 6) ÷ 3",
                      "包赔 × 3", "小红：×2（8–9张红字）", "庄家起手15张就是胡牌",
                      "地胡：闲家胡庄家打出的第一张牌"],
         ["14 cards each", "5 groups", "open wei", "+1 囤 each", "3 times over", "×2 (8–9 red cards)"]),
        # a score in 息, 名堂 that set the base, the race (R45)
        ("loudi", ["息 = 胡息", "计100息", "一点朱：×2", "放炮必胡", "先到100息", "每局最多100",
                   "庄家扣10息", "四舍五入到10", "最多30局", "赢家得分"],
         ["xi (息) = huxi", "counts 100 息", "放炮必胡", "reaches 100", "at most 100 a hand",
          "loses 10", "nearest 10", "every two players settle", "at most 30 hands"]),
        # issue 23: no discard win, not even 地胡; 囤 from 起胡; 上醒; 封顶 300
        ("yongzhou", ["只能胡翻出来的牌，不能胡打出的牌", "囤 = 2 + (胡息 − 15) ÷ 3", "上醒",
                      "王钓/王闯/王炸除外：下家可用于别人打出的牌",
                      "封顶：每家每局最多300分", "点胡：×3", "黑胡：×4"],
         ["never a discard", "tun (囤) = 2 + (huxi − 15) ÷ 3", "moved one point up",
          "capped at 300"]),
    ],
)  # fmt: skip
def test_the_rules_page_states_the_second_waves_fields(
    client: TestClient, name: str, zh: list[str], en: list[str]
) -> None:
    """Issue 22: the rules page (and so the client's 规则) states 醒, the unit, 5-门子
    hands, forced wins, 包赔, the 名堂's effects and the race, in both languages."""
    doc = client.get(f"/api/rules/{name}").json()
    text_zh = "\n".join(i["zh"] for s in doc["sections"] for i in s["items"])
    text_en = "\n".join(i["en"] for s in doc["sections"] for i in s["items"])
    for part in zh:
        assert part in text_zh, (part, text_zh)
    for part in en:
        assert part in text_en, (part, text_en)
    assert "等 =" not in text_zh  # the unit is the preset's
    # R29 as the preset has it: 下家 only where 地胡 is the 下家's (it said so everywhere)
    assert ("庄家下家胡" in text_zh) == (PRESETS[name].dihu == "first_discard")
    hunan = client.get("/api/rules/hunan").json()
    assert {s["id"] for s in hunan["sections"]}.isdisjoint({"xing", "race"})


def test_a_rooms_rules_page_shows_only_its_own_rules(client: TestClient) -> None:
    r = create_room(client, rules="luzhou", bots=2, options={"players": 3, "mingtang": ["zimo"]})
    for url in (f"/api/rules/{r['room']}", f"/api/rooms/{r['room']}/rules"):
        doc = client.get(url).json()
        assert doc["room"] == r["room"] and doc["rules"] == "luzhou"
        items = {s["id"]: s["items"] for s in doc["sections"]}
        assert [i["id"] for i in items["mingtang"]] == ["zimo"]  # not the preset's 红/乌/天/地
        assert items["seats"][0]["zh"] == "3人"
    assert client.get("/api/rules/ZZZZZZ").status_code == 404


def test_table_settings_are_kept_with_the_room(client: TestClient) -> None:
    """turn time and 准备 are room settings, not rules: stored in the room's config."""
    r = create_room(client, bots=1, options={"turn_time": 15, "ready_first": True})
    config = client.portal.call(client.app.state.storage.load_room, r["room"]).config.to_dict()  # type: ignore[attr-defined, union-attr]
    assert config["turn_time"] == 15 and config["ready_first"] is True
    plain = create_room(client, bots=1)
    config = client.portal.call(client.app.state.storage.load_room, plain["room"]).config.to_dict()  # type: ignore[attr-defined, union-attr]
    assert "turn_time" not in config and "ready_first" not in config
    bad = client.post("/api/rooms", json={"options": {"ready_first": 1}})
    assert bad.status_code == 422 and bad.json()["fields"] == ["options.ready_first"]


def test_readiness_before_the_first_hand() -> None:
    kinds = ["human", "bot", "human"]
    assert readiness.can_deal_first(kinds, set(), ready_first=False)
    assert not readiness.can_deal_first(kinds, {0}, ready_first=True)
    assert readiness.can_deal_first(kinds, {0, 2}, ready_first=True)  # bots need not
    assert not readiness.can_deal_first(["human", "free", "bot"], {0}, ready_first=False)
    assert readiness.may_ready(False, "human") is None
    assert readiness.may_ready(True, "human") == "not_waiting"
