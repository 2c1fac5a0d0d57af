"""Cards travel on the web table (table.js, Web Animations).

Playing against bots by clicking: a discard flies from the hand (or the discarder's seat)
to the open card's place or on to the pile, a drawn card from the wall, a 吃/碰/偎/提/跑's
cards to the taker's melds. The page counts its flights (``window.phzFlights``) and an
init script records every ``Element.animate`` call with its id (``fly-discard``…). A
flight is stopped halfway for a screenshot at 844×390 and 1280×800: the open card and
the buttons stay uncovered. With ``prefers-reduced-motion: reduce`` nothing flies.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from .helpers import VIEWPORTS, create, play_rooms, shot, uncovered, wait_js

pytestmark = pytest.mark.browser

# Every Element.animate call, with its id and the card's code.
RECORD_JS = """(() => {
  const real = Element.prototype.animate;
  window.__anims = [];
  Element.prototype.animate = function (frames, opts) {
    const a = real.call(this, frames, opts);
    window.__anims.push({ id: (opts && opts.id) || '', card: this.dataset ? this.dataset.card || '' : '' });
    return a;
  };
})();"""

FLYING_JS = "document.getAnimations().filter((a) => (a.id || '').startsWith('fly-')).length"


def flights(page: Any) -> dict[str, int]:
    return dict(page.evaluate("({...window.phzFlights})"))


def recorded(page: Any) -> list[str]:
    return [a["id"] for a in page.evaluate("window.__anims")]


def freeze_halfway(page: Any) -> list[tuple[str, float]]:
    """Stop every card in the air about halfway (0.3 of the time: it eases out); returns
    their flights' ids and ends (ms after their start, a delay included)."""
    return list(
        page.evaluate("""async () => {
      const fly = document.getAnimations().filter((a) => (a.id || '').startsWith('fly-'));
      for (const a of fly) a.pause();
      await Promise.all(fly.map((a) => a.ready));
      for (const a of fly) a.currentTime = a.effect.getTiming().duration * 0.3;
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      return fly.map((a) => [a.id, a.effect.getComputedTiming().endTime]);
    }""")
    )


def release(page: Any) -> None:
    page.evaluate(
        "document.getAnimations().forEach((a) => { if ((a.id || '').startsWith('fly-')) a.finish(); })"
    )


@pytest.mark.parametrize("name", ["phone-landscape", "desktop"])
def test_cards_fly(server: str, browser: Any, name: str) -> None:
    ctx = browser.new_context(**VIEWPORTS[name])
    ctx.add_init_script(RECORD_JS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create(page, server, hands=1)
    width = page.viewport_size["width"]
    shots: dict[str, Any] = {}
    most = [0]

    def on_flight(page: Any) -> None:
        frozen = freeze_halfway(page)
        if not frozen:  # they landed before we could stop them (a busy machine)
            return
        ids = [i for i, _ in frozen]
        most[0] = max(most[0], len(ids))
        # a state's flights are over in well under two seconds, however many cards moved
        assert max(end for _, end in frozen) <= 1600, frozen
        kind = next((k for k in ("meld", "discard") if f"fly-{k}" in ids and k not in shots), None)
        if kind:
            # a card in the air takes no clicks and covers no button nor the open card
            assert not uncovered(page), uncovered(page)
            shots[kind] = shot(page, f"web-fly-{kind}-{width}.png")
        release(page)

    def done(page: Any) -> bool:
        f = flights(page)
        return f["discard"] > 0 and f["meld"] > 0 and len(shots) == 2

    play_rooms(page, random.Random(5), done, lambda p: p.evaluate(FLYING_JS) and on_flight(p))
    ids = recorded(page)
    assert "fly-discard" in ids and "fly-meld" in ids, ids
    assert most[0] <= 24, f"flights pile up: {most[0]} at once"
    # nothing stays in the air for long (a newer state ends an older one's flights at once)
    # (a card's `flying` class goes in the flight's finish handler, a frame after it ends)
    wait_js(page, f"{FLYING_JS} === 0 && !document.querySelector('.card.flying')", 3)
    assert errors == []
    ctx.close()


def test_reduced_motion_no_flights(server: str, browser: Any) -> None:
    opts: dict[str, Any] = {**VIEWPORTS["desktop"], "reduced_motion": "reduce"}
    ctx = browser.new_context(**opts)
    ctx.add_init_script(RECORD_JS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create(page, server, hands=1)

    def done(page: Any) -> bool:  # a dozen events of play seen
        return bool(page.evaluate("document.getElementById('log-list').childElementCount >= 12"))

    play_rooms(page, random.Random(5), done)
    assert flights(page) == {"draw": 0, "discard": 0, "pile": 0, "meld": 0}
    assert not [i for i in recorded(page) if i.startswith("fly-")]
    assert errors == []
    ctx.close()
