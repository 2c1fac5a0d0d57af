"""Helpers of the lobby / join page / rules / tutorial browser tests (test_lobby_*.py)."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
DOC_IMG = ROOT / "docs" / "img"

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# the pictures docs/web.md shows in "Lobby, invites, rules, tutorial and languages (browser)"
DOC_SHOTS = {
    "lobby-desktop.png",
    "lobby-phone-en.png",
    "lobby-invite-desktop.png",
    "join-phone.png",
    "join-phone-en.png",
    "rules-phone.png",
    "rules-table-desktop.png",
    "tutorial-desktop.png",
    "tutorial-phone.png",
    "tutorial-done-phone-en.png",
    "lobby-matches-desktop.png",
}


def new_page(browser: Any, **ctx: Any) -> tuple[Any, Any]:
    """A browser context and its page; the page's JS errors collect in ``page.errors``."""
    c = browser.new_context(**ctx)
    p = c.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.errors = errors  # type: ignore[attr-defined]
    return c, p


def shot(page: Any, name: str) -> Path:
    """A screenshot in artifacts/ (and docs/img/ with PAOHUZI_UPDATE_SCREENSHOTS=1)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    assert path.stat().st_size > 5_000, f"{name}: an empty-looking screenshot"
    if os.environ.get("PAOHUZI_UPDATE_SCREENSHOTS") == "1" and name in DOC_SHOTS:
        DOC_IMG.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOC_IMG / name)
    return path


def wait_js(page: Any, expr: str, timeout: float = 20.0) -> None:
    """Poll ``expr`` until true (the page's CSP forbids ``wait_for_function``'s eval)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expr):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expr}"
        time.sleep(0.03)


def open_lobby(page: Any, base: str, lang: str = "zh") -> None:
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('phz:lang', '{lang}')")
    page.goto(base + "/#/")
    page.reload()
    page.wait_for_selector("body[data-lobby=ready]")


def presets(base: str) -> list[dict[str, Any]]:
    return list(httpx.get(base + "/api/presets").json()["presets"])


def rules_values(base: str, key: str) -> dict[str, Any]:
    """The values the rules page of a preset or a room states: {item id: value}."""
    doc = httpx.get(f"{base}/api/rules/{key}").json()
    out: dict[str, Any] = {}
    for sec in doc["sections"]:
        for it in sec["items"]:
            if "value" in it:
                out[it["id"]] = it["value"]
            if sec["id"] == "mingtang":
                out.setdefault("mingtang", []).append(it["id"])
    return out


def stored_seat(page: Any, room: str) -> dict[str, Any]:
    return dict(page.evaluate(f"JSON.parse(localStorage.getItem('phz:{room}'))"))


def room_of(page: Any) -> str:
    return str(page.evaluate("location.hash.split('/')[2]"))


CJK = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")

CHINESE_ONLY_JS = """(roots) => {
  const bad = [];
  const cjk = /[\\u3400-\\u9fff]/, latin = /[A-Za-z0-9]/;
  for (const sel of roots) for (const root of document.querySelectorAll(sel)) {
    if (root.closest('.hidden')) continue;
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const s = n.textContent.trim();
      if (!s || !cjk.test(s) || latin.test(s.replace(/[\\u3400-\\u9fff]/g, ''))) continue;
      const p = n.parentElement;
      if (p.closest('.card, .seat-name, .meld, .lang')) continue;
      if (p.closest('button[data-action]')) continue;  // 打 四 → "Discard 四" has Latin
      bad.push(s);
    }
    for (const e of root.querySelectorAll('[placeholder], [title]')) {
      for (const a of ['placeholder', 'title']) {
        const v = e.getAttribute(a);
        if (v && cjk.test(v) && !latin.test(v) && !e.closest('.card, .lang')) bad.push(a + ': ' + v);
      }
    }
  }
  return bad;
}"""


def chinese_only(page: Any, roots: list[str]) -> list[str]:
    """Visible text of ``roots`` that is Chinese with no English beside it."""
    return list(page.evaluate(CHINESE_ONLY_JS, roots))
