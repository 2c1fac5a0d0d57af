"""玩法 (core/variants.py): the second-wave regions' options (PRESETS.md "Second wave")
as data — each choice the rules PRESETS.md describes, R34 等/囤/子, R36 名堂, R42 醒,
R44 有胡必胡, R6 亡牌. The referee walks every variant in play (tests/engine/test_referee.py)."""

from __future__ import annotations

import pytest

from paohuzi.core import variants as variants_module
from paohuzi.core.position import Position
from paohuzi.core.rules import (
    GUILIN,
    HENGYANG,
    PRESETS,
    YONGZHOU,
    YONGZHOU_HONGZHUAN,
    Effect,
    Rules,
    RulesError,
    preset,
)
from paohuzi.core.scoring import settle
from paohuzi.core.variants import VARIANTS, choice_of, parse, patched, play, stated, variants

EVERY = [(name, v, c) for name, vs in VARIANTS.items() for v in vs for c in v.choices]
PLAIN = "一二三四五六七八九壹贰叁肆伍陆柒捌拾拾拾"  # + 玖: 拾拾拾 6, 一二三 3, 壹贰叁 6 → 15


def played(rules: Rules, **chosen: str) -> Rules:
    for v in variants(rules.name):
        if v.id in chosen:
            rules = patched(rules, v.choice(chosen[v.id]).patch)
    return rules


@pytest.mark.parametrize(("name", "variant", "choice"), EVERY, ids=lambda x: getattr(x, "id", x))
def test_every_choice_is_valid_rules_and_is_read_back(name: str, variant, choice) -> None:
    """Each choice makes rules that validate and round-trip; choice_of names it again; the
    first choice is the preset itself."""
    base = PRESETS[name]
    r = patched(base, choice.patch)
    assert Rules.from_dict(r.to_dict()) == r and r.name == name
    assert choice_of(variant, r) is choice
    assert choice_of(variant, base) is variant.choices[0]
    assert patched(base, variant.choices[0].patch) == base


def test_R42_xing_choices_set_the_source_and_offset() -> None:
    """翻醒 上醒/本醒/下醒 move the turned card +1/0/−1; 跟醒 uses the winning card."""
    got = {c.value: (patched(YONGZHOU, c.patch).xing, patched(YONGZHOU, c.patch).xing_offset)
           for c in variants("yongzhou")[0].choices}  # fmt: skip
    assert got == {"fan+1": ("fan", 1), "fan0": ("fan", 0), "fan-1": ("fan", -1), "gen": ("gen", 0)}
    assert played(HENGYANG, xing="none").xing == "none"
    assert played(YONGZHOU, xing_double="on").xing_double is True


def test_R36_hongzhuan_is_the_yongzhou_option_data_and_pays_dianhu_for_13_red() -> None:
    """红转朱黑: 红胡 only 10–12 red; 13–15 red 点胡 ×3, 16 or more 黑胡 ×4."""
    r = played(YONGZHOU, hongzhuan="on")
    assert r.mingtang == YONGZHOU_HONGZHUAN
    assert played(YONGZHOU, hongzhuan="off") == YONGZHOU


def test_R6_wangpai_pays_five_per_extra_wang() -> None:
    assert played(YONGZHOU, wangpai="on").huangzhuang.wang_pay == 5
    assert YONGZHOU.huangzhuang.wang_pay == 0


def test_R34_guilin_zi_by_five() -> None:
    """子 = 1 + ⌊(油 − 起胡) / 5⌋ (option /5) against /3: at 25 油, 4 子 against 6."""
    assert GUILIN.deng_of(25) == 6 and played(GUILIN, zi_step="5").deng_of(25) == 4
    assert played(GUILIN, zi_step="5").replace(min_huxi=15).deng_of(25) == 3  # from 起胡


def test_R36_guilin_zimo_plus_one_zi_instead_of_double() -> None:
    """自摸 +1 子 instead of ×2 (天胡 counts as 自摸, so it too): 15 油 self-drawn is
    2 子 × 2 = 4 as the preset plays it, 2 + 1 = 3 with the option."""
    p = Position.from_dict({"hand": PLAIN, "win": "玖", "self_drawn": True})
    own, unit = settle(p, GUILIN), settle(p, played(GUILIN, zimo="unit"))
    assert (own.deng, own.fan, own.di) == (2, 2, 4)
    assert (unit.deng, unit.fan, unit.di) == (3, 1, 3)
    tianhu = {m.id: m for m in played(GUILIN, zimo="unit").mingtang}["tianhu"]
    assert (tianhu.fan, tianhu.effect) == (1, Effect.UNITS)


@pytest.mark.parametrize("h", range(6, 40))
def test_R34_hengyang_tun_options(h: int) -> None:
    """囤 = 1 + ⌊(H − 6)/3⌋; 加一囤 (PRESETS.md "底分 option 2"): one more; 一息一囤: 囤 = H."""
    assert HENGYANG.deng_of(h) == 1 + (h - 6) // 3
    assert played(HENGYANG, tun="3+1").deng_of(h) == 2 + (h - 6) // 3
    assert played(HENGYANG, tun="1").deng_of(h) == h


def test_R36_bayi_zipai_haidi_plus_three_and_R42_lianfan_off() -> None:
    """八一字牌 is 桂林 with 海底 +3 子 (PRESETS.md); 连翻 (on in 桂林) may be turned off."""
    haidi = {m.id: m for m in played(GUILIN, haidi="3").mingtang}["haihu"]
    assert (haidi.fan, haidi.effect) == (3, Effect.UNITS)
    p = Position.from_dict({"hand": PLAIN, "win": "玖", "last_card": True})
    assert settle(p, GUILIN).deng == 2 + 2 and settle(p, played(GUILIN, haidi="3")).deng == 2 + 3
    assert GUILIN.xing_chain and not played(GUILIN, lianfan="off").xing_chain
    both = played(GUILIN, zimo="unit", haidi="3")  # two 名堂 options: each its own entries
    assert [(m.id, m.fan) for m in both.mingtang] == [
        ("zimo", 1),
        ("tianhu", 1),
        ("dihu", 2),
        ("haihu", 3),
    ]


def test_R44_forced_win_choices() -> None:
    assert GUILIN.forced_win == "any" and played(GUILIN, forced_win="none").forced_win == "none"
    assert [played(HENGYANG, forced_win=v).forced_win for v in ("none", "any", "discard")] == [
        "none",
        "any",
        "discard",
    ]


def test_presets_without_options_in_presets_md_have_none() -> None:
    assert {n for n in PRESETS if variants(n)} == {"yongzhou", "guilin", "hengyang"}


def test_play_records_the_choices_other_than_the_presets() -> None:
    """The rules carry what was chosen (extra.variants); the preset's own choices add
    nothing, so a room on the preset's defaults plays the preset itself."""
    assert play(GUILIN, {"xing": "fan0", "zi_step": "3"}) == GUILIN
    r = play(GUILIN, {"xing": "gen", "zi_step": "3", "lianfan": "off"})
    assert dict(r.extra)["variants"] == "xing=gen,lianfan=off"
    assert Rules.from_dict(r.to_dict()) == r  # through a record
    assert [stated(v, r).value for v in variants("guilin")] == [
        "gen",
        "any",
        "3",
        "fan",
        "2",
        "off",
    ]
    assert parse("guilin:xing=gen,lianfan=off") == r
    with pytest.raises(KeyError):
        play(GUILIN, {"xing": "sideways"})


def test_a_preset_name_with_options_is_a_preset_everywhere() -> None:
    """``parse`` reads every name an entry point is given (the RL envs, OpenSpiel's
    ``rules`` parameter, arena, ladder, the server, the CLI): a plain name is the preset
    itself, one with options the preset played so."""
    assert parse("guilin") is preset("guilin") is GUILIN
    assert parse("guilin:zimo=unit") == play(GUILIN, {"zimo": "unit"})
    with pytest.raises(RulesError, match="guilin has no option 'tun'"):
        parse("guilin:tun=1")
    with pytest.raises(RulesError, match="unknown preset 'gui'"):
        parse("gui")


@pytest.mark.parametrize(
    "text", ["guilin:zimo=unit,haidi=3", "hengyang:tun=3+1, xing=gen", "yongzhou:cap=600", "loudi"]
)
def test_the_compact_spelling_reads_as_the_same_rules(text: str) -> None:
    """``PRESET:ID:VALUE;…`` (OpenSpiel's game strings) is the same choice as ``ID=VALUE,…``."""
    short = variants_module.compact(text)
    assert "=" not in short and "," not in short
    assert variants_module.parse(short) == variants_module.parse(text)
    assert variants_module.compact(short) == short
    with pytest.raises(RulesError):
        variants_module.compact(
            text.replace(":", ":bogus:1;", 1) if ":" in text else text + ":bogus:1"
        )
