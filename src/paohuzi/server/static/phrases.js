/* phrases: the 快捷语 / emoji picker (GET /api/phrases: a fixed list, no free text).
 * A choice is sent as {"type":"say","phrase":id} on the table's websocket (store.js's
 * S.ws, the socket app.js opened); a {"type":"said",…} from the server shows as a bubble
 * by the seat that said it. The server side of "say" is not wired yet (docs/web.md). */
import { t, pick, onLang, api } from "./i18n.js";

import { $, el, S } from "./store.js";

let catalogue = null;
let lastSaid = 0;
let hooked = null; // the socket we listen to

async function load() {
  if (!catalogue) catalogue = await api("/api/phrases");
  return catalogue;
}

/** Put the 💬 button into the table's top bar (once) and listen for "said". */
export function installPhrases(bar) {
  let b = $("#phrases-btn");
  if (!b) {
    b = el("button", "table-extra");
    b.type = "button";
    b.id = "phrases-btn";
    b.addEventListener("click", toggle);
    const anchor = $("#log-btn", bar);
    if (anchor) anchor.before(b); else bar.append(b);
    setInterval(hookSocket, 500);
  }
  b.textContent = t("phrasesBtn");
  b.title = t("phrasesTitle");
  b.setAttribute("aria-label", t("phrasesTitle"));
}

/** Send a phrase on the table's socket; false when there is none or it is too soon. */
export function say(id) {
  const ws = S.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  const gap = ((catalogue && catalogue.min_interval_s) || 2) * 1000;
  if (Date.now() - lastSaid < gap) { flash(t("phraseWait")); return false; }
  lastSaid = Date.now();
  ws.send(JSON.stringify({ type: "say", phrase: id }));
  return true;
}

async function toggle() {
  let p = $("#phrases");
  if (p && !p.classList.contains("hidden")) { p.classList.add("hidden"); return; }
  let cat;
  try { cat = await load(); } catch { return; }
  if (!p) {
    p = el("div", "phrases");
    p.id = "phrases";
    p.setAttribute("role", "menu");
    document.body.append(p);
  }
  render(p, cat);
  p.classList.remove("hidden");
}

function render(p, cat) {
  const x = el("button", "close", "×");
  x.type = "button";
  x.title = t("close");
  x.addEventListener("click", () => p.classList.add("hidden"));
  const list = el("div", "phrase-list");
  for (const ph of cat.phrases) list.append(item(ph, "phrase"));
  const emo = el("div", "emoji-list");
  for (const e of cat.emoji) emo.append(item(e, "emoji"));
  p.replaceChildren(x, el("h3", null, t("phrasesTitle")), emo, list);
}

function item(ph, cls) {
  const b = el("button", cls, pick(ph));
  b.type = "button";
  b.dataset.phrase = ph.id;
  b.setAttribute("role", "menuitem");
  b.addEventListener("click", () => { if (say(ph.id)) $("#phrases").classList.add("hidden"); });
  return b;
}

/** Listen on the table's current socket for "said" (app.js ignores types it does not know). */
function hookSocket() {
  const ws = S.ws;
  if (!ws || ws === hooked) return;
  hooked = ws;
  ws.addEventListener("message", (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    if (m && m.type === "said") bubble(m);
  });
}

function bubble(m) {
  const seatEl = document.querySelector(`.seat[data-seat="${m.seat}"]`);
  const b = el("div", "said-bubble", pick(m));
  document.body.append(b);
  const r = seatEl ? seatEl.getBoundingClientRect() : { left: innerWidth / 2 - 60, top: innerHeight / 2, width: 120 };
  b.style.left = Math.max(4, Math.min(innerWidth - 200, r.left + r.width / 2 - 60)) + "px";
  b.style.top = Math.max(40, r.top - 8) + "px";
  setTimeout(() => b.remove(), 3000);
}

function flash(text) {
  const p = $("#phrases");
  if (!p) return;
  let n = $(".phrase-note", p);
  if (!n) { n = el("p", "phrase-note"); p.append(n); }
  n.textContent = text;
}

onLang(() => { const p = $("#phrases"); if (p && catalogue) render(p, catalogue); });
