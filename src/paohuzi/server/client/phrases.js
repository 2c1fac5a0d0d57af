/* phrases: the 快捷语 / emoji picker the table's 快捷语 button opens (GET /api/phrases: a
 * fixed list, no free text). A choice is sent as {"type":"say","phrase":id} on the table's
 * socket (store.js `send`); a {"type":"said","seat":s,"phrase":id,…} the server broadcasts
 * (store.js `onSaid`) shows as a speech bubble by the seat that said it for about 3 s. */
import { t, pick, onLang, api } from "./i18n.js";
import { $, el, closeButton, send, onSaid } from "./store.js";

let catalogue = null;
let lastSaid = 0;

async function load() {
  if (!catalogue) catalogue = await api("/api/phrases");
  return catalogue;
}

/** Send a phrase on the table's socket; false when there is none or it is too soon. */
export function say(id) {
  const gap = ((catalogue && catalogue.min_interval_s) || 2) * 1000;
  if (Date.now() - lastSaid < gap) { flash(t("phraseWait")); return false; }
  if (!send({ type: "say", phrase: id })) return false;
  lastSaid = Date.now();
  return true;
}

/** Open the picker, or close it. */
export async function togglePhrases() {
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
  const x = closeButton(() => p.classList.add("hidden"));
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

/** What a "said" message says: its own text (`text_zh`/`text_en`), else the catalogue's. */
async function textOf(m) {
  if (m.text_zh || m.text_en) return pick({ zh: m.text_zh, en: m.text_en });
  let cat = catalogue;
  try { cat = await load(); } catch { /* offline: the id is all there is */ }
  const all = cat ? [...(cat.phrases || []), ...(cat.emoji || [])] : [];
  const x = all.find((p) => p.id === m.phrase);
  return x ? pick(x) : String(m.phrase ?? "");
}

/** A speech bubble by the seat (one per seat: a newer phrase replaces the older). */
export async function bubble(m) {
  const text = await textOf(m);
  const old = document.querySelector(`.said-bubble[data-seat="${m.seat}"]`);
  if (old) old.remove();
  const seatEl = document.querySelector(`#game .seat[data-seat="${m.seat}"]`);
  const b = el("div", "said-bubble", text);
  b.dataset.seat = String(m.seat);
  b.setAttribute("role", "status");
  document.body.append(b);
  const r = seatEl && seatEl.getClientRects().length ? seatEl.getBoundingClientRect()
    : { left: innerWidth / 2 - 60, top: innerHeight / 2, width: 120 };
  const w = b.offsetWidth || 120;
  b.style.left = Math.max(4, Math.min(innerWidth - w - 4, r.left + r.width / 2 - w / 2)) + "px";
  b.style.top = Math.max(40, r.top - b.offsetHeight - 4) + "px";
  setTimeout(() => b.remove(), 3000);
}
onSaid(bubble);

function flash(text) {
  const p = $("#phrases");
  if (!p) return;
  let n = $(".phrase-note", p);
  if (!n) { n = el("p", "phrase-note"); p.append(n); }
  n.textContent = text;
}

onLang(() => { const p = $("#phrases"); if (p && catalogue) render(p, catalogue); });
