"""新手教学 (xīnshǒu jiàoxué): guided hands from scenario files, run on the real engine.

A scenario (``server/tutorials/NAME.json``) is a stacked deck (§4 record
order), the dealer, the learner's seat and a ``script``: the whole hand, entry
by entry. An entry is one of

* ``{"seat": s, "do": "<action id>"}`` — a scripted seat's choice, applied;
* ``{"seat": LEARNER, "do": id, "concept": c, "text": {zh, en}}`` — a *choice
  stop*: the learner must pick ``do`` (``wrong`` explains other picks);
* ``{"note": c, "text": {zh, en}}`` — a *note stop*: something to read (the
  learner answers ``next``), shown where his next decision waits.

Both stops may carry ``expect``: facts the engine must show once the stop is
passed — ``event`` (type, seat, card, ``groups``: a 吃 with its 比 has 2+),
``huxi`` (the learner's 当前胡息), ``chou`` (a card kind among his 臭牌),
``result`` (winner, 胡息, 名堂 ids). The hand is played on a
:class:`~paohuzi.table.Table`: the learner is its outside seat, every other
seat a :class:`ScriptedBot` that plays its script entries and passes the claims
the script does not name. Everything shown and checked is the learner's view
(the engine's one hidden-information filter): another seat's 过 is never seen
(R16). :func:`run` plays the script to the end and checks every ``expect``;
:func:`step` is the web's state machine: it replays from the deal to stop
``at`` (a hand is cheap), so the server keeps no tutorial state.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from paohuzi.core.actions import PASS, Action, IllegalAction
from paohuzi.core.cards import CODES, Card
from paohuzi.core.events import Event
from paohuzi.core.mingtang import PATTERNS
from paohuzi.core.player import Bot, Observation
from paohuzi.core.result import HandResult
from paohuzi.core.rules import Rules, preset
from paohuzi.core.state import GameState
from paohuzi.core.views import view
from paohuzi.server.present.choices import action_choice_dict
from paohuzi.server.present.options import mingtang_label
from paohuzi.table import Table

DIR = Path(__file__).parent / "tutorials"
NEXT = "next"  # the learner's answer at a note stop


class ScenarioError(ValueError):
    """A scenario whose script does not play as written (a bug in the file)."""


@dataclass(frozen=True)
class Scenario:
    name: str
    data: dict[str, Any]

    @property
    def learner(self) -> int:
        return int(self.data.get("learner", 0))

    @property
    def stops(self) -> list[int]:
        """Indices (into the script) of the entries the learner stops at."""
        return [i for i, e in enumerate(self.data["script"]) if _is_stop(e, self.learner)]

    @property
    def rules(self) -> Rules:
        return preset(self.data.get("rules", "hunan"))

    def new_state(self) -> GameState:
        deck = [Card.parse(c) for c in self.data["deck"].split()]
        if len(deck) != 80:
            raise ScenarioError(f"{self.name}: the deck has {len(deck)} cards")
        return GameState(self.rules, deck=deck, dealer=self.data["dealer"])


def _is_stop(entry: dict[str, Any], learner: int) -> bool:
    return "note" in entry or entry.get("seat") == learner


def names() -> list[str]:
    return sorted(p.stem for p in DIR.glob("*.json"))


@lru_cache(maxsize=16)
def load(name: str) -> Scenario:
    return Scenario(name, json.loads((DIR / f"{name}.json").read_text(encoding="utf-8")))


def catalogue() -> list[dict[str, Any]]:
    return [
        {"name": n, "title": load(n).data["title"], "concepts": load(n).data["concepts"]}
        for n in names()
    ]


class ScriptedBot(Bot):
    """A scripted seat: plays its entry when the script's next entry is its own,
    and passes every claim the script does not name (R16: claims in any order)."""

    name = "script"

    def __init__(self, run: Run):
        self.run = run

    def act(self, obs: Observation, rng: random.Random) -> Action:
        entry = self.run.next_entry()
        if entry is not None and entry.get("seat") == obs.seat and "do" in entry:
            self.run.pos += 1
            return self.run.find(obs.seat, entry["do"], obs.legal)
        for a in obs.legal:
            if a.type == PASS:
                return a
        raise ScenarioError(
            f"{self.run.sc.name}: entry {self.run.pos}: seat {obs.seat} must decide, "
            f"the script names {entry}"
        )


class Run:
    """A scenario played up to some stop on a :class:`~paohuzi.table.Table`: the
    learner is its one outside seat, every other seat a :class:`ScriptedBot`.

    What the learner is shown, and what the stops' facts are checked against,
    comes from the learner's :func:`~paohuzi.core.views.view` alone.
    """

    def __init__(self, sc: Scenario):
        self.sc = sc
        seats: list[Bot | None] = [ScriptedBot(self) for _ in range(sc.rules.players)]
        seats[sc.learner] = None
        self.table = Table(seats, sc.rules)
        self.state = self.table.deal(sc.new_state())
        self.pos = 0  # next script entry
        self.mark = 0  # the learner's log length before his last choice

    @property
    def log(self) -> tuple[Event, ...]:
        """Everything the learner has seen happen (his view's log)."""
        return view(self.state, self.sc.learner).log

    def next_entry(self) -> dict[str, Any] | None:
        script = self.sc.data["script"]
        return script[self.pos] if self.pos < len(script) else None

    def find(self, seat: int, aid: str, legal: list[Action]) -> Action:
        """The legal action ``aid`` names, or :class:`ScenarioError`."""
        try:
            want = Action.from_id(seat, aid)
        except IllegalAction as e:
            raise ScenarioError(f"{self.sc.name}: entry {self.pos}: {aid}: {e}") from None
        for a in legal:
            if want.matches(a):
                return a
        ids = [a.id() for a in legal]
        raise ScenarioError(f"{self.sc.name}: entry {self.pos}: {seat} {aid} is not legal ({ids})")

    def advance(self) -> dict[str, Any] | None:
        """Let the scripted seats play up to the next stop (returned, not yet answered):
        a note is read, and a choice made, where the learner's next decision waits."""
        self.table.run_bots()
        entry = self.next_entry()
        if entry is not None and not _is_stop(entry, self.sc.learner):
            raise ScenarioError(
                f"{self.sc.name}: entry {self.pos} ({entry}) was never asked for "
                f"(seats to act: {self.state.to_act()})"
            )
        return entry

    def answer(self, entry: dict[str, Any]) -> None:
        """Pass the stop ``entry`` the right way (the learner's expected choice)."""
        if "do" in entry:
            me = self.sc.learner
            self.table.apply(self.find(me, entry["do"], self.state.legal_actions(me)))
        self.pos += 1

    def pass_stop(self, entry: dict[str, Any]) -> int:
        """Answer the stop; where (in the learner's log) the events its facts are about begin.

        The next stops show the events from the learner's last choice on (its
        consequences included); a note looks back to the same place.
        """
        if "do" in entry:
            self.mark = len(self.log)
        self.answer(entry)
        return self.mark

    def check(self, entry: dict[str, Any], since: int) -> list[str]:
        """What of the stop's ``expect`` the learner was not shown (empty: all true)."""
        exp = entry.get("expect", {})
        me = self.sc.learner
        v = view(self.state, me)
        log = v.log
        bad = []
        ev, then = exp.get("event"), exp.get("then")
        hits = [i for i, e in enumerate(log) if i >= since and ev and _matches(e, ev)]
        if ev is not None and not hits:
            bad.append(f"no event {ev}")
        nxt = [log[i + 1] for i in hits if i + 1 < len(log)]
        if then is not None and not any(_matches(e, then) for e in nxt):
            bad.append(f"{ev} not followed by {then}")
        if "huxi" in exp and v.huxi != exp["huxi"]:
            bad.append(f"huxi {v.huxi} != {exp['huxi']}")
        if "chou" in exp and Card.parse(exp["chou"]) not in v.chou:
            bad.append(f"{exp['chou']} is not 臭牌")
        if "result" in exp:
            bad += _check_result(v.result, exp["result"])
        return bad


def _matches(e: Event, want: dict[str, Any]) -> bool:
    if e.type != want["type"] or ("seat" in want and e.seat != want["seat"]):
        return False
    if "card" in want and (e.card is None or CODES[e.card] != want["card"]):
        return False
    return "groups" not in want or len(e.get("groups") or ()) >= want["groups"]


def _check_result(res: HandResult | None, want: dict[str, Any]) -> list[str]:
    if res is None:
        return ["the hand is not over"]
    d = res.to_dict()
    bad = []
    for k in ("winner", "huxi"):
        if k in want and d.get(k) != want[k]:
            bad.append(f"result {k} {d.get(k)} != {want[k]}")
    got = sorted(m.id for m in res.settlement.mingtang) if res.settlement else []
    if "mingtang" in want and got != sorted(want["mingtang"]):
        bad.append(f"名堂 {got} != {want['mingtang']}")
    return bad


def run(sc: Scenario) -> list[dict[str, Any]]:
    """Play the whole script the right way; every stop with what its ``expect`` missed.

    A stop's facts are checked where the learner stands next (the next stop, or
    the end): a 臭牌 exists only once its claim window has closed.
    """
    r = Run(sc)
    out = []
    pending: tuple[dict[str, Any], int] | None = None
    while True:
        entry = r.advance()
        if pending is not None:
            out.append({"entry": pending[0], "missed": r.check(*pending)})
        if entry is None:
            break
        pending = (entry, r.pass_stop(entry))
    if not r.state.is_terminal():
        raise ScenarioError(f"{sc.name}: the script ends before the hand does")
    return out


def _replay_to(sc: Scenario, at: int) -> tuple[Run, dict[str, Any] | None, int]:
    """The run standing at stop ``at`` (its entry; None past the end) and where its events start."""
    r = Run(sc)
    entry = r.advance()
    for _ in range(at):
        if entry is None:
            break
        r.pass_stop(entry)
        entry = r.advance()
    return r, entry, r.mark


def public(sc: Scenario) -> dict[str, Any]:
    """``GET /api/tutorial/NAME``: what the client shows before the first step (no deck)."""
    d = sc.data
    return {
        "name": sc.name,
        "title": d["title"],
        "intro": d.get("intro"),
        "concepts": d["concepts"],
        "rules": d.get("rules", "hunan"),
        "learner": sc.learner,
        "steps": len(sc.stops),
    }


def step(sc: Scenario, at: int, action: str | None) -> dict[str, Any]:
    """``POST /api/tutorial/NAME/step``: stop ``at`` shown, and ``action`` checked against it.

    Right: the answer moves on to stop ``at + 1`` (shown in the reply). Wrong:
    the learner stays at ``at`` and gets the stop's ``wrong`` explanation.
    """
    r, entry, mark = _replay_to(sc, at)
    if entry is None:
        return {"at": at, "done": True, **_show(r, None, mark)}
    if action is None:
        return {"at": at, "done": False, **_show(r, entry, mark)}
    want = entry.get("do", NEXT)
    ok = action == want or (want != NEXT and _same(sc.learner, action, want))
    if not ok:
        return {
            "at": at,
            "done": False,
            "correct": False,
            "explain": entry.get("wrong") or entry["text"],
            **_show(r, entry, mark),
        }
    nxt = step(sc, at + 1, None)
    return {**nxt, "correct": True}


@lru_cache(maxsize=8)
def bundle(name: str) -> dict[str, Any]:
    """``GET /api/tutorial/NAME/bundle``: every answer :func:`step` gives for the
    scenario, by ``"at"`` (a stop shown) and ``"at|action"`` (a choice checked) — the
    whole tutorial in one document, so the installed app's service worker can answer its
    steps with the network cut (the server stays the one judge: these are its answers)."""
    sc = load(name)
    out: dict[str, Any] = {}
    for at in range(len(sc.stops) + 1):
        shown = out[str(at)] = step(sc, at, None)
        for c in (shown.get("stop") or {}).get("choices", []):
            out[f"{at}|{c}"] = step(sc, at, c)
    return {"name": name, "steps": out}


def _same(seat: int, given: str, want: str) -> bool:
    try:
        return Action.from_id(seat, given).matches(Action.from_id(seat, want))
    except IllegalAction:
        return False


def _show(r: Run, entry: dict[str, Any] | None, mark: int) -> dict[str, Any]:
    """The learner's view (the one hidden-information filter), the stop and what just
    happened — the events of the learner's own log since ``mark``."""
    v = view(r.state, r.sc.learner)
    d = v.to_dict()
    d.pop("legal_actions")
    d.pop("result")
    out: dict[str, Any] = {
        "view": d,
        "events": d["log"][mark:],
        "huxi": v.huxi,
    }
    if entry is not None:
        out["stop"] = {
            "concept": entry.get("concept", entry.get("note")),
            "text": entry["text"],
            "expect": entry.get("do", NEXT),
            "choices": v.legal_ids() if "do" in entry else [NEXT],
            # each choice as the table describes it (吃: the 吃 group then each 比 group)
            "actions": [action_choice_dict(a) for a in v.legal] if "do" in entry else [],
        }
    if v.result is not None:
        out["result"] = res = v.result.to_dict()
        ids = {p.name: mid for mid, p in PATTERNS.items()}
        for m in res.get("mingtang", []):  # the 名堂 in English too (the English page)
            if m.get("name") in ids:
                m["label"] = mingtang_label(ids[m["name"]])
    return out


__all__ = [
    "Run",
    "Scenario",
    "ScenarioError",
    "bundle",
    "catalogue",
    "load",
    "names",
    "public",
    "run",
    "step",
]
