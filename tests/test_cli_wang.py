"""``paohuzi simulate`` / ``replay --check`` / ``score`` with 王 (R39–R40, INTERFACES §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paohuzi.cli.main import main
from paohuzi.core.records import HandRecord, check
from paohuzi.core.rules import HUNAN


@pytest.mark.parametrize(("wang", "bots"), [(1, "random"), (2, "greedy"), (4, "greedy")])
def test_simulated_wang_hands_replay_and_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], wang: int, bots: str
) -> None:
    """~200 hands with 王 from a rules file (hunan + wang), records written, then
    ``replay --check`` finds every one ok; the deck names each 王 ``w`` and a win
    with 王 records the position (``w`` in the hand) and the 王 assignment."""
    rules = tmp_path / "wang.toml"
    rules.write_text(HUNAN.replace(name=f"hunan_w{wang}", wang=wang).to_toml(), encoding="utf-8")
    out = tmp_path / "rec"
    argv = ["simulate", "--games", "200", "--seed", str(wang), "--workers", "1"]
    assert main([*argv, "--bots", bots, "--rules", str(rules), "--records", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", "--check", str(out)]) == 0
    assert "200 of 200 records ok" in capsys.readouterr().out
    wild, narrated = 0, False
    for f in sorted(out.glob("*.json")):
        rec = json.loads(f.read_text(encoding="utf-8"))
        assert rec["deck"].count("w") == wang and len(rec["deck"]) == 80 + wang
        assert HandRecord.from_dict(rec).to_dict() == rec
        res = rec["result"]
        pos = res.get("position") or {}
        if "w" in pos.get("hand", "").split() or pos.get("win") == "w":
            wild += 1
            assert pos["self_drawn"] is True and res.get("discarder") is None  # R40
            n = pos["hand"].split().count("w") + (pos.get("win") == "w")
            assert len(res["settlement"]["wang"]) == n
            if not narrated:  # `paohuzi replay` tells what each 王 became (R40)
                assert main(["replay", str(f)]) == 0
                text = capsys.readouterr().out
                assert (
                    "王 作 "
                    + "".join(
                        {"x": "一二三四五六七八九十", "d": "壹贰叁肆伍陆柒捌玖拾"}[c[0]][
                            int(c[1:]) - 1
                        ]
                        for c in res["settlement"]["wang"]
                    )
                    in text
                )
                narrated = True
    assert wild > 0


def test_a_tampered_wang_record_fails_the_check(tmp_path: Path) -> None:
    """A record whose deck lost its 王 (or gained one) is refused by the check."""
    from paohuzi.core.state import GameState

    st = GameState(HUNAN.replace(wang=2), seed=5)
    rec = json.loads(json.dumps(HandRecord.of(st).to_dict()))
    i = rec["deck"].index("w")
    rec["deck"][i] = "x1"
    assert check(rec)


def test_simulated_pattern_wins_replay_and_pass_the_referee(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R41 end to end: hunan + 2 王 + yongzhou's pattern 番, 300 greedy hands; every
    record replays ok, the referee finds 0 problems, and pattern wins happen — each a
    ``hu`` action and event with its ``pattern``, the position and 番 line carrying it."""
    import referee

    rules = tmp_path / "wang.toml"
    r = HUNAN.replace(name="hunan_pat", wang=2, wang_fan=(4, 8, 8, 16, 16, 32))
    rules.write_text(r.to_toml(), encoding="utf-8")
    out = tmp_path / "rec"
    argv = ["simulate", "--games", "300", "--seed", "5", "--workers", "1", "--bots", "greedy"]
    assert main([*argv, "--rules", str(rules), "--records", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", "--check", str(out)]) == 0
    assert "300 of 300 records ok" in capsys.readouterr().out
    patterns = 0
    for f in sorted(out.glob("*.json")):
        rec = json.loads(f.read_text(encoding="utf-8"))
        assert referee.check(rec) == [], f.name
        hu = [e for e in rec["events"] if e["type"] == "hu" and e.get("pattern")]
        if hu:
            patterns += 1
            pat = hu[0]["pattern"]
            assert any(a.get("pattern") == pat for a in rec["actions"])
            assert rec["result"]["position"]["pattern"] == pat
            ids = [m["id"] for m in rec["result"]["settlement"]["mingtang"]]
            assert pat in ids and "zimo" not in ids
    assert patterns > 0
