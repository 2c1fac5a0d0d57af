/* rulespage: the 规则 page, written from GET /api/rules/{preset or ROOM} — for a room,
 * that room's own rules (its options included), so a player reads only the rules in force.
 * Shown over whatever screen is open (the lobby, the join page or the table). */
import { t, pick, onLang, api } from "./i18n.js";

import { $, el, dialog, closeButton, sheetOpened, sheetClosed } from "./store.js";

let openKey = null;
let openOptions = null;
let seq = 0;

/** The rules page of `key` (a preset or a room); a preset's with `options` (as a room is
 * created with them: the lobby's choices) states the rules those options make. */
export async function openRules(key, options = null) {
  openKey = key;
  openOptions = options;
  const page = dialog("rules-page", "lobby-overlay rules-overlay", (p) =>
    p.addEventListener("click", (ev) => { if (ev.target === p) closeRules(); }));
  page.dataset.key = key;
  sheetOpened("rules-page");
  const s = ++seq;
  const sheet = el("div", "lobby-sheet rules");
  sheet.append(head(key, ""), el("p", "muted", t("loading")));
  page.replaceChildren(sheet);
  let doc;
  const q = options ? `?options=${encodeURIComponent(JSON.stringify(options))}` : "";
  try { doc = await api(`/api/rules/${encodeURIComponent(key)}${q}`); } catch (e) {
    if (s !== seq) return;
    const err = el("p", "error", t("loadFail", e.message));
    err.id = "rules-error";
    sheet.replaceChildren(head(key, ""), err);
    return;
  }
  if (s !== seq) return;
  render(sheet, key, doc);
}

function closeRules() {
  openKey = null;
  const p = $("#rules-page");
  if (p) p.classList.add("hidden");
  sheetClosed("rules-page");
}

function head(key, title) {
  const h = el("header", "sheet-head");
  const h2 = el("h2", null, title);
  h2.id = "rules-title";
  h.append(h2, closeButton(closeRules, "rules-close"));
  return h;
}

function render(sheet, key, doc) {
  const title = doc.room ? t("roomRulesTitle", doc.room) : t("rulesTitle", pick(doc.label));
  sheet.replaceChildren(head(key, title));
  if (doc.room) sheet.append(el("p", "muted", t("rulesInForce")));
  const sum = el("p", "summary", pick(doc.summary));
  sum.id = "rules-summary-line";
  sheet.append(sum);
  for (const sec of doc.sections) {
    const box = el("section", "rules-sec");
    box.dataset.section = sec.id;
    box.append(el("h3", null, pick(sec.title)));
    const withValues = sec.items.filter((it) => Array.isArray(it.values) && it.values.length === 4);
    if (sec.id === "huxi" && withValues.length) {
      const tb = el("table", "huxi-table");
      // red and black columns only where a colour changes a value (泸州); else 小 / 大
      const coloured = withValues.some((it) => it.values[0] !== it.values[2] || it.values[1] !== it.values[3]);
      const tr = el("tr");
      for (const h of t(coloured ? "huxiHead" : "huxiHeadPlain")) tr.append(el("th", null, h));
      tb.append(tr);
      for (const it of withValues) {
        const r = el("tr");
        const name = pick(it).split(/[：:]/)[0];
        r.append(el("th", null, name));
        for (const v of coloured ? it.values : it.values.slice(0, 2)) r.append(el("td", null, String(v)));
        tb.append(r);
      }
      box.append(tb);
    }
    const ul = el("ul");
    for (const it of sec.items) {
      if (sec.id === "huxi" && withValues.includes(it)) continue;
      const li = el("li");
      li.dataset.item = it.id;
      li.append(el("span", null, pick(it)));
      if (it.rule) li.append(el("small", "rule-ref", it.rule));
      ul.append(li);
    }
    box.append(ul);
    sheet.append(box);
  }
}

onLang(() => { if (openKey) openRules(openKey, openOptions); });
