/* hand: your hand on the live table — its arrangement (kept in localStorage for the hand
 * it belongs to), taps and drags. board.js draws the columns; this module says what a
 * card does: a tap selects it (a second tap on a legal card, or 打出, discards it), only a
 * drag moves a card to another column (or past the last one: a new column). A 坎 is a
 * column of its own and never split (R17). */
import { S, $, $$, saveLayout, loadLayout } from "./store.js";
import { point, withWang } from "./cards.js";
import { drawHand, initialLayout, isKan } from "./board.js";

/** Keep the player's arrangement; drop cards that left, place new ones by point; a kind
 * held three times is always its own column (a 坎 cannot be split). */
function reconcile(layout, hand) {
  const left = {};
  for (const c of hand) left[c] = (left[c] || 0) + 1;
  const kans = new Set(Object.keys(left).filter((c) => left[c] >= 3));
  // a 坎 already whole in its own column stays where the player put it
  const whole = (col) => col.length === left[col[0]] && kans.has(col[0]) && isKan(col);
  const kept = new Set(layout.filter(whole).map((col) => col[0]));
  const cols = layout.map((col) => (whole(col) ? [...col]
    : col.filter((c) => !kans.has(c) && (left[c] > 0 ? (left[c]--, true) : false))));
  for (const c of kept) left[c] = 0;
  for (const c of kans) {
    if (kept.has(c)) continue;
    const at = cols.findIndex((col) => col.length && point(col[0]) > point(c));
    cols.splice(at < 0 ? cols.length : at, 0, Array(left[c]).fill(c));
    left[c] = 0;
  }
  for (const [c, n] of Object.entries(left)) {
    for (let i = 0; i < n; i++) {
      const home = cols.find((col) => col.length && col.length < 4 && point(col[0]) === point(c) && !isKan(col));
      if (home) home.push(c);
      else {
        const at = cols.findIndex((col) => col.length && point(col[0]) > point(c));
        cols.splice(at < 0 ? cols.length : at, 0, [c]);
      }
    }
  }
  return cols.filter((col) => col.length);
}

export function syncLayout(v) {
  const key = S.msg.hand_id;
  if (S.layoutHand !== key || !S.layout.length) {
    const saved = loadLayout(S.room, key);
    const hand = withWang(v.hand, v.wang); // 王 shown, never discardable (R39)
    S.layout = saved ? reconcile(saved, hand) : initialLayout(hand);
    S.layoutHand = key;
    S.selected = null;
  } else {
    S.layout = reconcile(S.layout, withWang(v.hand, v.wang));
  }
  saveLayout(S.room, key, S.layout);
  if (S.selected) {
    const col = S.layout[S.selected.col];
    if (!col || col[S.selected.idx] !== S.selected.card) S.selected = null;
  }
}

function move(from, toCol) {
  const [ci, idx] = from;
  if (ci === toCol || isKan(S.layout[ci]) || (toCol >= 0 && isKan(S.layout[toCol]))) return false;
  const [card] = S.layout[ci].splice(idx, 1);
  if (toCol < 0) S.layout.push([card]);
  else S.layout[toCol].push(card);
  S.layout = S.layout.filter((c) => c.length);
  S.selected = null;
  saveLayout(S.room, S.layoutHand, S.layout);
  return true;
}

/** The live hand for board.js: the legal discards and what a card does.
 * `hooks` = { changed(), discard(id) } from the app. */
export function liveHand(hooks) {
  const m = S.msg;
  const legal = new Map(m.legal_actions.filter((a) => a.type === "discard").map((a) => [a.card, a.id]));
  const decorate = (d, ci, i, code, kan) => {
    const sel = S.selected && S.selected.col === ci && S.selected.idx === i;
    if (sel) d.classList.add("selected");
    d.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (S.dragged) { S.dragged = false; return; }
      if (sel && legal.has(code)) { hooks.discard(legal.get(code)); return; } // tap again: discard
      S.selected = sel ? null : { col: ci, idx: i, card: code };
      hooks.changed();
    });
    d.addEventListener("dblclick", (ev) => { ev.stopPropagation(); if (legal.has(code)) hooks.discard(legal.get(code)); });
    if (!kan) d.addEventListener("pointerdown", (ev) => startDrag(ev, d, [ci, i], hooks));
  };
  return { legal, decorate };
}

/** Draw the hand again alone (a tap, a drag: nothing else changed). */
export function renderHand(hooks) {
  if (!S.msg || !S.msg.view) { $("#hand").replaceChildren(); return; }
  drawHand($("#hand"), S.layout, liveHand(hooks));
}

/* Pointer drag (mouse and touch alike): past 8 px a ghost follows the pointer; dropped on
 * a column the card joins it, dropped beside the columns it starts a new one. */
function startDrag(ev, card, from, hooks) {
  if (ev.button !== 0) return;
  const x0 = ev.clientX, y0 = ev.clientY;
  let ghost = null;
  const target = (x, y) => {
    const under = document.elementFromPoint(x, y);
    const col = under && under.closest("#hand .col");
    if (col) return parseInt(col.dataset.col, 10);
    return under && under.closest("#hand") ? -1 : null;
  };
  const onMove = (e) => {
    if (!ghost && Math.hypot(e.clientX - x0, e.clientY - y0) < 8) return;
    if (!ghost) {
      ghost = card.cloneNode(true);
      ghost.classList.add("ghost");
      document.body.append(ghost);
      card.classList.add("dragging");
    }
    ghost.style.left = e.clientX - ghost.offsetWidth / 2 + "px";
    ghost.style.top = e.clientY - ghost.offsetHeight / 2 + "px";
    $$("#hand .col.drop").forEach((x) => x.classList.remove("drop"));
    ghost.style.display = "none";
    const t = target(e.clientX, e.clientY);
    ghost.style.display = "";
    if (t !== null && t >= 0) $(`#hand .col[data-col="${t}"]`).classList.add("drop");
  };
  const onUp = (e) => {
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onUp);
    if (!ghost) return;
    ghost.remove();
    S.dragged = true; // the click that follows a drag is not a tap
    setTimeout(() => { S.dragged = false; }, 0);
    const t = target(e.clientX, e.clientY);
    if (t !== null) move(from, t);
    hooks.changed();
  };
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  window.addEventListener("pointercancel", onUp);
}

/** Outline the hand cards a 吃 option would use (each code once per use). */
export function markUses(codes) {
  $$("#hand .card.uses").forEach((x) => x.classList.remove("uses"));
  const taken = new Set();
  for (const c of codes || []) {
    const d = $$(`#hand .card[data-card="${c}"]`).find((x) => !taken.has(x));
    if (d) { taken.add(d); d.classList.add("uses"); }
  }
}
