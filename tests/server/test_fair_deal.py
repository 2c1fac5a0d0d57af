"""可验证洗牌: the deal's commitment is sent at the deal and revealed with the hand
(docs/fair-dealing.md); hands of rooms open to other humans come from the OS source."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from paohuzi.core import fairness
from paohuzi.core.records import HandRecord

from .helpers import Player, create_room, not_playing

MODULE = [sys.executable, "-m", "paohuzi.cli.main"]


def _play_one(client: TestClient, **body: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """One hand played at random: the commitment seen at the deal, the first and the
    settlement state; every state of the hand carries the same commitment (INTERFACES §5)."""
    r = create_room(client, hands=2, **body)
    with client.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        p = Player(ws)
        first = p.until(lambda s: s["phase"] == "playing")
        seen = {first["deck_commitment"]}
        end = p.play(random.Random(3), lambda s: seen.add(s["deck_commitment"]) or not_playing(s))
    assert len(seen) == 1
    assert "salt" not in json.dumps(end) and "deck" not in end  # only the record reveals
    return first["deck_commitment"], first, end


def test_commitment_at_the_deal_matches_the_record_that_reveals_the_salt(
    client: TestClient,
) -> None:
    commit, _, end = _play_one(client, bots=2)
    assert len(commit) == 64 and end["deck_commitment"] == commit
    rec = client.get(f"/api/records/{end['hand_id']}").json()
    assert rec["deck_commitment"] == commit and len(rec["salt"]) == 32
    text = f"paohuzi-deal-v1:{rec['salt']}:{','.join(rec['deck'])}".encode()
    assert hashlib.sha256(text).hexdigest() == commit  # the byte layout of docs/web.md
    assert HandRecord.from_dict(rec).check() == []


def test_nothing_of_the_deck_leaks_while_the_hand_runs(client: TestClient) -> None:
    """The deck stays unknowable during the hand: no seed, no salt, no record yet."""
    r = create_room(client, bots=1)
    client.post(f"/api/rooms/{r['room']}/join", json={"name": "友"})  # a friend's room
    with client.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        st = Player(ws).until(lambda s: s["phase"] == "playing")
    text = json.dumps(st)
    assert '"seed"' not in text and '"salt"' not in text and '"deck"' not in text
    assert client.get(f"/api/records/{st['hand_id']}").status_code == 404
    assert client.get(f"/api/replays/{st['hand_id']}").status_code == 404


def test_every_hand_has_its_own_salt(client: TestClient) -> None:
    salts = set()
    for _ in range(2):
        _, _, end = _play_one(client, bots=2)
        salts.add(client.get(f"/api/records/{end['hand_id']}").json()["salt"])
    assert len(salts) == 2


def test_replay_check_passes_then_fails_on_a_tampered_deck(
    client: TestClient, tmp_path: Path
) -> None:
    _, _, end = _play_one(client, bots=2)
    rec = client.get(f"/api/records/{end['hand_id']}").json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    ok = subprocess.run([*MODULE, "replay", "--check", str(good)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(rec, salt="0" * 32)))
    out = subprocess.run([*MODULE, "replay", "--check", str(bad)], capture_output=True, text=True)
    assert out.returncode == 1 and "deck_commitment" in out.stderr
    assert "not the commitment" in out.stderr


def test_a_swapped_deck_is_caught_even_with_a_matching_seed() -> None:
    """A server that re-deals another deck (and its seed) after committing is caught."""
    from paohuzi.core.state import GameState

    st = GameState(seed=1)
    deck = [c.code for c in HandRecord.of(st).deck]
    shown = fairness.revealed(deck, "ab" * 16)
    other = HandRecord.of(GameState(seed=2), **shown)
    problems = other.check()
    assert any("not the commitment" in p for p in problems), problems
    assert HandRecord.of(st, **shown).check() == []
    half = HandRecord.of(st, salt="ab" * 16)  # a salt without its commitment
    assert any("deck_commitment" in p for p in half.check())


def test_a_room_open_to_friends_deals_hands_from_the_os_source(
    make_client: Callable[..., TestClient],
) -> None:
    """Before: every hand's seed followed from the match seed (one Mersenne Twister)."""
    from paohuzi.core.match import Match
    from paohuzi.core.rules import HUNAN

    client = make_client()
    r = create_room(client, bots=1, hands=2)  # a free seat: a friend may sit
    client.post(f"/api/rooms/{r['room']}/join", json={"name": "友"})
    mgr = client.app.state.manager  # type: ignore[attr-defined]
    room = client.portal.call(mgr.get, r["room"])  # type: ignore[union-attr]
    row = client.portal.call(mgr.storage.load_room, r["room"])  # type: ignore[union-attr]
    assert room.state is not None and room.own_seeds
    assert room.state.seed != Match(HUNAN, row.match_seed, 2).hand_seeds[0]
    assert row.hands[0].seed == room.state.seed  # stored: a restart re-deals the same hand


def test_a_restart_reveals_the_salt_committed_before_it(
    make_client: Callable[..., TestClient], db_path: Path
) -> None:
    a = make_client()
    r = create_room(a, bots=2, hands=1)
    with a.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        commit = Player(ws).until(lambda s: s["phase"] == "playing")["deck_commitment"]
    a.__exit__(None, None, None)
    b = make_client()  # the same database and its deal key file
    with b.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        p = Player(ws)
        assert p.next_state()["deck_commitment"] == commit
        end = p.play(random.Random(5), not_playing)
    assert end["deck_commitment"] == commit
    rec = b.get(f"/api/records/{end['hand_id']}").json()
    assert rec["deck_commitment"] == commit and fairness.verify(rec["deck"], rec) is None
    assert (db_path.parent / (db_path.name + ".dealkey")).stat().st_mode & 0o077 == 0


def test_the_deal_key_file_is_made_once_private_and_reused(tmp_path: Path) -> None:
    from paohuzi.server import dealkey

    path = tmp_path / "k" / "dealkey"
    key = dealkey.load_or_create(path)
    assert len(key) == 32 and path.stat().st_mode & 0o077 == 0
    assert dealkey.load_or_create(path) == key
    assert dealkey.default_path("postgresql://db/x").name == "dealkey"  # not beside a URL
    assert dealkey.default_path(tmp_path / "a.sqlite3") == tmp_path / "a.sqlite3.dealkey"


def test_serve_refuses_a_bad_deal_key_file(tmp_path: Path) -> None:
    from paohuzi.cli.main import build_parser
    from paohuzi.cli.serve import run

    bad = tmp_path / "bad.key"
    bad.write_text("not hex at all")
    args = build_parser().parse_args(
        ["serve", "--db", str(tmp_path / "x.sqlite3"), "--deal-key-file", str(bad)]
    )
    assert run(args) == 2
