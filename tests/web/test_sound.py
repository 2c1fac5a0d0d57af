"""Sound cues (sound.js, Web Audio) on the events of the hand, and the mute setting.

An init script puts a recording stand-in for ``AudioContext`` (and ``speechSynthesis``)
into the page: every oscillator started is kept with its frequency and wave, which name
the cue (a discard starts a 330 Hz square wave, a card turned up a 660 Hz triangle, your
turn an 880 Hz sine). While playing against bots, each discard and each draw of the log
schedules its cue; with 静音 nothing sounds, the setting is kept across a reload, and
switching the sound back on brings the cues back.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .helpers import VIEWPORTS, bar_click, create, play_rooms, wait_js

pytestmark = pytest.mark.browser

FAKE_AUDIO_JS = """(() => {
  window.__osc = [];
  window.__said = [];
  class Param {
    constructor() { this.value = 0; }
    setValueAtTime() { return this; }
    linearRampToValueAtTime() { return this; }
    exponentialRampToValueAtTime() { return this; }
  }
  class Node { connect(n) { return n; } disconnect() {} }
  class Osc extends Node {
    constructor() { super(); this.type = 'sine'; this.frequency = new Param(); }
    start(t) { window.__osc.push({ f: this.frequency.value, type: this.type, t }); }
    stop() {}
  }
  class Gain extends Node { constructor() { super(); this.gain = new Param(); } }
  class Ctx {
    constructor() { this.state = 'running'; this.destination = new Node(); }
    get currentTime() { return performance.now() / 1000; }
    createOscillator() { return new Osc(); }
    createGain() { return new Gain(); }
    resume() { return Promise.resolve(); }
  }
  window.AudioContext = Ctx;
  window.webkitAudioContext = Ctx;
  try {
    Object.defineProperty(window, 'speechSynthesis',
      { configurable: true, value: { speak: (u) => window.__said.push(u.text), cancel() {} } });
  } catch (e) { /* the announcer is not what this checks */ }
})();"""

# The first note of a cue (sound.js CUES), unique to it.
DISCARD = (330, "square")
DRAW = (660, "triangle")
TURN = (880, "sine")


class Events:
    """Every event the page was sent after a hand's first state (the log's new part of
    each state; the first one brings only the deal, or is quiet: a reconnection)."""

    def __init__(self, page: Any) -> None:
        self.types: list[str] = []
        self._hand: Any = None
        self._n = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: Any) -> None:
        m = json.loads(payload)
        if m.get("type") != "state" or not m.get("view"):
            return
        log = m["view"]["log"]
        if m["hand_id"] != self._hand:  # a hand's first state: the deal, or quiet (more
            self._hand, self._n = m["hand_id"], len(log)  # than the deal: a (re)connection)
            return
        self.types += [e["type"] for e in log[self._n :]]
        self._n = len(log)

    def count(self, t: str) -> int:
        return self.types.count(t)


def played(page: Any) -> list[tuple[int, str]]:
    return [(round(o["f"]), o["type"]) for o in page.evaluate("window.__osc")]


def test_cues_follow_the_events(server: str, browser: Any) -> None:
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    ctx.add_init_script(FAKE_AUDIO_JS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    events = Events(page)
    create(page, server, hands=1)
    rng = random.Random(11)
    play_rooms(page, rng, lambda _: events.count("discard") >= 3 and events.count("draw") >= 2)
    got = played(page)
    # one cue per event: every discard and every card turned up (no sound for a pass)
    assert got.count(DISCARD) == events.count("discard"), (got, events.types)
    assert got.count(DRAW) == events.count("draw"), (got, events.types)
    assert TURN in got, "your turn has its cue"
    assert errors == []
    ctx.close()


def test_mute_silences_and_survives_reload(server: str, browser: Any) -> None:
    ctx = browser.new_context(**VIEWPORTS["phone-portrait"])
    ctx.add_init_script(FAKE_AUDIO_JS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    events = Events(page)
    create(page, server, hands=4)
    bar_click(page, "#mute-btn")  # under ⋯ on a phone held upright
    assert page.get_attribute("#mute-btn", "aria-pressed") == "true"
    page.evaluate("window.__osc.length = 0")
    rng = random.Random(12)
    seen = len(events.types)
    play_rooms(page, rng, lambda _: events.count("discard") >= 2 and len(events.types) > seen + 4)
    assert played(page) == [], "静音: not a sound"
    assert page.evaluate("window.__said") == []

    page.reload()
    page.wait_for_selector("#game:not(.hidden)")
    wait_js(page, "['playing', 'settlement'].includes(document.body.dataset.phase)")
    assert page.get_attribute("#mute-btn", "aria-pressed") == "true", "the setting is kept"
    assert page.evaluate("JSON.parse(localStorage.getItem('phz:settings')).mute") is True
    seen = len(events.types)
    play_rooms(page, rng, lambda _: len(events.types) > seen + 4)
    assert played(page) == [], "still silent after a reload"

    if page.get_attribute("body", "data-phase") in ("settlement", "finished"):
        create(page, page.url.split("/#")[0], hands=1)  # the sheet would cover the button
    bar_click(page, "#mute-btn")  # sound on again
    assert page.get_attribute("#mute-btn", "aria-pressed") == "false"
    seen = len(events.types)
    play_rooms(page, rng, lambda _: any(t in ("discard", "draw") for t in events.types[seen:]))
    got = played(page)
    assert DISCARD in got or DRAW in got, got
    assert errors == []
    ctx.close()
