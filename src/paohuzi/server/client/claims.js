/* claims: the action buttons (only the legal choices), the 吃 picker (each package once,
 * with the 胡息 it brings and the hand cards it uses), the countdown ring, keyboard. */
import { T } from "./i18n.js";
import { S, $, $$, el } from "./store.js";
import { cardsEl, zh } from "./cards.js";
import { markUses } from "./hand.js";
import { cue } from "./sound.js";

let act = () => {};
export function setActor(fn) { act = fn; }

const ORDER = ["hu", "peng", "chi", "pass"];

export function renderActions(rerender) {
  const m = S.msg;
  const box = $("#actions");
  const picker = $("#chi-picker");
  box.replaceChildren();
  picker.replaceChildren();
  picker.classList.add("hidden");
  picker.classList.remove("floating");
  markUses(null);
  if (!m || m.phase !== "playing") return;
  const acts = m.legal_actions;
  const discards = acts.filter((a) => a.type === "discard");
  if (discards.length) {
    const sel = S.selected && discards.find((a) => a.card === S.selected.card);
    const b = el("button", "primary", sel ? T.discardBtn(zh(sel.card)) : T.pickDiscard);
    b.id = "discard-btn";
    b.disabled = !sel;
    b.title = T.keys.discard;
    b.append(el("kbd", "key", T.keys.discard));
    if (sel) b.dataset.actionId = sel.id;
    b.addEventListener("click", () => sel && act(sel.id));
    box.append(b);
  }
  const chis = acts.filter((a) => a.type === "chi");
  for (const type of ORDER) {
    // one button per type; 胡 once more per 王 pattern it may take (R41: 胡 三 · 王钓)
    const each = type === "hu" ? acts.filter((x) => x.type === type) : [acts.find((x) => x.type === type)];
    for (const a of each) {
      if (!a) continue;
      let b;
      if (type === "chi") {
        b = el("button", "chi", T.chiN(zh(a.card), chis.length));
        b.id = "chi-btn";
        b.addEventListener("click", () => { S.chiOpen = !S.chiOpen; rerender(); });
      } else {
        const text = type === "pass" || !a.card ? T.act[type] : `${T.act[type]} ${zh(a.card)}`;
        b = el("button", type, a.pattern ? `${text} · ${T.patterns[a.pattern]}` : text);
        b.dataset.actionId = a.id;
        if (a.pattern) b.dataset.pattern = a.pattern;
        b.addEventListener("click", () => act(a.id));
      }
      b.dataset.type = type;
      b.title = `${T.act[type]} (${T.keys[type]})`;
      b.append(el("kbd", "key", T.keys[type])); // shown only with a keyboard (style.css)
      box.append(b);
    }
  }
  if (chis.length && S.chiOpen) {
    renderPicker(chis, picker);
    placePicker(picker, $("#chi-btn"));
  }
}

/** The picker opens at the 吃 button: above its row of buttons, beside the open card and
 * the prompt rather than over them (the claimed card stays in sight) if that is still near
 * the button; else below the row (over the hand, which waits for the choice); always on
 * screen. While open it follows the button: a banner, the ring or a new prompt that moves
 * the row moves the picker with it (once, in CI, it was left 143 px away). */
const NEAR = 60;
function placePicker(picker, btn) {
  picker.classList.add("floating");
  Object.assign(picker.style, { left: "0px", top: "0px" });
  const pad = 6, vw = innerWidth, vh = innerHeight;
  const b = btn.getBoundingClientRect();
  const row = $("#actions").getBoundingClientRect();
  const r = picker.getBoundingClientRect();
  const card = $("#open-card");
  const o = card && !card.closest(".hidden") ? card.getBoundingClientRect() : null;
  // the prompt ("请选择：吃 / 过") stays in sight as well as the open card
  const prompt = $("#game .turn-text");
  const q = prompt && prompt.textContent && prompt.getClientRects().length ? prompt.getBoundingClientRect() : null;
  const clampX = (x) => Math.min(Math.max(x, pad), vw - r.width - pad);
  const clampY = (y) => Math.min(Math.max(y, pad), vh - r.height - pad);
  const over = (a, x, y) => a && x < a.right + pad && x + r.width > a.left - pad && y < a.bottom + pad && y + r.height > a.top - pad;
  const hits = (x, y) => over(o, x, y) || over(q, x, y);
  const gap = (x, y) => Math.hypot(Math.max(0, x - b.right, b.left - x - r.width), Math.max(0, y - b.bottom, b.top - y - r.height));
  const above = clampY(row.top - r.height - pad), below = clampY(row.bottom + pad);
  const centre = clampX(b.left + b.width / 2 - r.width / 2);
  const right = o ? o.right + pad : centre, leftOf = o ? o.left - pad - r.width : centre;
  const sides = o && b.left + b.width / 2 < o.left + o.width / 2 ? [leftOf, right] : [right, leftOf];
  const tries = [[centre, above], ...sides.map((x) => [x, above])];
  const fits = ([x, y]) => x >= pad - 0.5 && x + r.width <= vw - pad + 0.5 && !hits(x, y) && gap(x, y) <= NEAR;
  const [left, top] = tries.find(fits) || [centre, below];
  Object.assign(picker.style, { left: `${Math.round(left)}px`, top: `${Math.round(top)}px` });
  follow(picker);
}

/** Re-place the open picker whenever what it is placed by moves (checked each frame). */
let following = 0;
function follow(picker) {
  cancelAnimationFrame(following);
  const where = () => {
    const btn = $("#chi-btn"), card = $("#open-card");
    const rects = [btn, card, $("#actions")].map((e) => (e ? e.getBoundingClientRect() : null));
    return { btn, key: JSON.stringify([innerWidth, innerHeight, ...rects.map((x) => x && [x.left, x.top, x.width, x.height])]) };
  };
  const was = where().key;
  const step = () => {
    if (!picker.isConnected || picker.classList.contains("hidden")) return;
    const now = where();
    if (!now.btn) return;
    if (now.key !== was) { placePicker(picker, now.btn); return; }
    following = requestAnimationFrame(step);
  };
  following = requestAnimationFrame(step);
}

function renderPicker(chis, picker) {
  picker.classList.remove("hidden");
  chis.forEach((a, k) => {
    const pkg = el("button", "package");
    pkg.type = "button";
    pkg.dataset.actionId = a.id;
    pkg.title = `${T.act.chi} ${a.groups.map((g) => g.map(zh).join("")).join(` ${T.bi} `)} (${k + 1})`;
    a.groups.forEach((g, i) => {
      if (i === 1) pkg.append(el("span", "label", T.bi));
      const w = cardsEl(g, "mini");
      if (i) w.classList.add("bi");
      pkg.append(w);
    });
    const h = el("span", "gain", T.huxiGain(a.huxi ?? 0));
    h.dataset.huxi = String(a.huxi ?? "");
    pkg.append(h);
    // the hand cards this package takes: all its cards but the claimed one
    const uses = a.groups.flat();
    uses.splice(uses.indexOf(a.card), 1);
    const show = () => markUses(uses);
    pkg.addEventListener("pointerenter", show);
    pkg.addEventListener("focus", show);
    pkg.addEventListener("pointerleave", () => markUses(null));
    pkg.addEventListener("click", () => act(a.id));
    picker.append(pkg);
  });
}

/* ------------------------------------------------------------ the countdown ring */
/* Deadlines are server epoch seconds; S.offset maps them to this clock. The number never
 * exceeds the room's timeout (a late message must not read "31" on a 30 s timer). */
export function tick() {
  const m = S.msg;
  const ring = $("#ring");
  $$("[data-timer-seat]").forEach((t) => { t.textContent = ""; });
  if (!m || m.phase !== "playing") { ring.classList.add("hidden"); return; }
  const total = m.away_timeout;
  const left = (t) => Math.min(total, Math.max(0, t.deadline - (Date.now() / 1000 + S.offset)));
  const secs = (x) => Math.min(Math.floor(total), Math.ceil(x));
  for (const t of m.timers || []) {
    if (t.seat === S.seat) continue;
    const x = $(`[data-timer-seat="${t.seat}"]`);
    if (x) x.textContent = T.secs(secs(left(t))) + "s";
  }
  const mine = (m.timers || []).find((t) => t.seat === S.seat);
  if (!mine) { ring.classList.add("hidden"); return; }
  const l = left(mine), n = secs(l);
  ring.classList.remove("hidden");
  ring.classList.toggle("urgent", n <= 5);
  if (n <= 5 && n > 0 && n !== S.lastTick) cue("tick"); // an audible warning before 托管
  S.lastTick = n;
  $("#ring-num").textContent = T.secs(n);
  const c = $("#ring-arc");
  const len = 2 * Math.PI * 16;
  c.style.strokeDasharray = `${len}`;
  c.style.strokeDashoffset = `${len * (1 - l / total)}`;
  const discarding = m.view && m.view.phase === "discard";
  $("#ring-warn").textContent = n <= 5 ? (discarding ? T.warnAway : T.warnClaim) : "";
}

/* ------------------------------------------------------------ keyboard (desktop) */
export function onKey(ev, hooks) {
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  const m = S.msg;
  if (!m || $("#game").classList.contains("hidden")) return;
  const k = ev.key.toLowerCase();
  // Enter and Space on a focused control (a bar or menu button) belong to it: the
  // browser presses it, and playing a card as well would be an action nobody asked for.
  if ((k === "enter" || k === " ") && ev.target.closest && ev.target.closest("button, a[href], summary")) return;
  if (m.phase !== "playing") {
    if (k === "enter" && !$("#ready-btn").disabled && !$("#ready-btn").classList.contains("hidden")) $("#ready-btn").click();
    return;
  }
  const byType = (t) => $(`#actions button[data-type="${t}"]`);
  const map = { h: "hu", p: "peng", c: "chi", g: "pass" };
  if (map[k] && byType(map[k])) { ev.preventDefault(); byType(map[k]).click(); return; }
  if (S.chiOpen && /^[1-9]$/.test(k)) {
    const p = $$("#chi-picker .package")[parseInt(k, 10) - 1];
    if (p) { ev.preventDefault(); p.click(); }
    return;
  }
  if (k === "escape" && S.chiOpen) { S.chiOpen = false; hooks.changed(); return; }
  if ((k === "enter" || k === " ") && $("#discard-btn") && !$("#discard-btn").disabled) { ev.preventDefault(); $("#discard-btn").click(); return; }
  if (k === "arrowleft" || k === "arrowright") { // walk the selection over the legal cards
    const cards = $$("#hand .card.legal");
    if (!cards.length) return;
    ev.preventDefault();
    let i = cards.findIndex((c) => c.classList.contains("selected"));
    i = i < 0 ? 0 : (i + (k === "arrowright" ? 1 : cards.length - 1)) % cards.length;
    const col = cards[i].closest(".col");
    const idx = [...col.children].indexOf(cards[i]);
    S.selected = { col: parseInt(col.dataset.col, 10), idx, card: cards[i].dataset.card };
    hooks.changed();
  }
}
