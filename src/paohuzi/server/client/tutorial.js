/* tutorial: 新手教学, a guided first hand driven by the scenario API.
 * GET /api/tutorial(/NAME) gives the title, intro and number of stops; each stop comes
 * from POST /api/tutorial/NAME/step {"at": k} (the learner's view, the events since the
 * last choice, the explanation and the legal choices); a choice is checked by the server
 * ({"at": k, "action": id} → the next stop with correct: true, or the same stop with
 * correct: false and `explain`). The browser keeps only which stop it is on. */
import { cardEl, meldEl } from "./cards.js";
import { t, pick, lang, setLang, onLang, api, cardTitle, cardZh } from "./i18n.js";

import { $, el, dialog, closeButton } from "./store.js";

const TU = { meta: null, cur: null, feedback: null, busy: false };

function card(code, size) {
  const c = cardEl(code || null, size);
  c.title = cardTitle(code);
  return c;
}

export async function openTutorial(name) {
  const page = dialog("tutorial", "tutorial");
  document.body.classList.add("tutorial-open");
  page.replaceChildren(el("p", "muted pad", t("loading")));
  try {
    TU.meta = await api(name ? `/api/tutorial/${encodeURIComponent(name)}` : "/api/tutorial");
  } catch (e) {
    page.replaceChildren(header(), el("p", "error pad", t("loadFail", e.message)));
    return;
  }
  TU.cur = null;
  TU.feedback = null;
  renderIntro();
}

export function closeTutorial() {
  const p = $("#tutorial");
  if (p) p.classList.add("hidden");
  document.body.classList.remove("tutorial-open");
  TU.cur = null;
  if (/^#\/tutorial/.test(location.hash)) history.replaceState(null, "", "#/");
}

function header() {
  const h = el("header", "tut-head");
  h.append(el("b", "tut-title", TU.meta ? pick(TU.meta.title) : t("tutTitle")));
  const step = el("span", "tut-step");
  step.id = "tut-step";
  if (TU.cur && TU.meta) step.textContent = TU.cur.done ? t("tutDone") : t("tutStep", TU.cur.at + 1, TU.meta.steps);
  h.append(step, el("span", "spacer"));
  const lb = el("button", "lang", t("langSwitch"));
  lb.type = "button";
  lb.title = t("langSwitchTitle");
  lb.addEventListener("click", () => setLang(lang() === "zh" ? "en" : "zh"));
  h.append(lb, closeButton(closeTutorial, "tut-close"));
  return h;
}

function renderIntro() {
  const page = $("#tutorial");
  const box = el("div", "tut-intro lobby-sheet");
  box.append(el("h2", null, pick(TU.meta.title)), el("p", null, pick(TU.meta.intro)));
  const cs = el("p", "concepts");
  cs.append(el("span", null, t("tutConcepts")));
  for (const c of TU.meta.concepts) cs.append(el("span", "chip", t("concept")[c] || c));
  box.append(cs);
  const b = el("button", "primary big", t("tutStart"));
  b.type = "button";
  b.id = "tut-start";
  b.addEventListener("click", () => step(0));
  box.append(b);
  page.replaceChildren(header(), box);
}

async function step(at, action) {
  if (TU.busy) return;
  TU.busy = true;
  try {
    const body = action === undefined ? { at } : { at, action };
    const r = await api(`/api/tutorial/${encodeURIComponent(TU.meta.name)}/step`, body);
    if (action !== undefined && action !== "next") {
      TU.feedback = r.correct ? { ok: true } : { ok: false, explain: r.explain, expect: TU.cur && TU.cur.stop && TU.cur.stop.expect };
    } else TU.feedback = null;
    TU.cur = r;
    render();
  } catch (e) {
    const fb = $("#tut-feedback");
    if (fb) { fb.className = "feedback bad"; fb.textContent = e.message; }
  } finally { TU.busy = false; }
}

/* ------------------------------------------------------------ names and labels */
function who(seat) {
  const v = TU.cur.view;
  const n = v.seats ? v.seats.length : 3;
  const rel = (seat - TU.meta.learner + n) % n;
  return (n === 4 ? t("rel4") : t("rel"))[rel];
}
function actionLabel(a) {
  const A = t("act");
  if (a.type === "discard") return A.discard(cardZh(a.card));
  if (a.type === "peng") return A.peng(cardZh(a.card));
  if (a.type === "hu") return A.hu(cardZh(a.card));
  if (a.type === "pass") return A.pass;
  if (a.type === "chi") return A.chi(cardZh(a.card), (a.groups || []).map((g) => g.map(cardZh).join("")).join(A.bi));
  return lang() === "zh" && a.label ? a.label : a.id;
}
function eventText(e) {
  const f = t("ev")[e.type];
  if (!f) return null;
  if (e.type === "deal") return e.seat === TU.meta.learner ? f(who(e.seat), e.count) : null;
  return f(who(e.seat ?? TU.meta.learner), e.card ? cardZh(e.card) : "?");
}

/* ------------------------------------------------------------ the table of a stop */
function seatBox(v, s) {
  const box = el("div", "t-seat");
  box.dataset.seat = String(s);
  const head = el("div", "t-seat-head");
  head.append(el("b", null, who(s)));
  if (v.dealer === s) head.append(el("span", "dealer", lang() === "en" ? "dealer" : "庄"));
  if (s !== TU.meta.learner) head.append(el("span", "muted", t("tutHandCount", v.hand_sizes[s])));
  head.append(el("span", "t-tablehuxi", `${v.table_huxi[s]}${lang() === "en" ? " huxi" : "息"}`));
  box.append(head);
  const melds = el("div", "t-melds");
  for (const m of v.tables[s] || []) melds.append(meldEl(m)); // the table's own meld
  box.append(melds);
  const pile = v.piles && v.piles[s];
  if (pile && pile.length) {
    const p = el("div", "t-pile");
    p.append(el("span", "muted", t("tutPile")));
    for (const c of pile) p.append(card(c, "mini"));
    box.append(p);
  }
  return box;
}

function handColumns(hand) {
  const byPoint = new Map();
  for (const c of [...hand].sort((a, b) => parseInt(a.slice(1), 10) - parseInt(b.slice(1), 10) || (a < b ? 1 : -1))) {
    const p = parseInt(c.slice(1), 10);
    if (!byPoint.has(p)) byPoint.set(p, []);
    byPoint.get(p).push(c);
  }
  const cols = [];
  for (const cs of byPoint.values()) {
    // a 坎 (three alike) is a column of its own
    const counts = {};
    for (const c of cs) counts[c] = (counts[c] || 0) + 1;
    const kan = Object.keys(counts).filter((c) => counts[c] >= 3);
    for (const k of kan) cols.push({ kan: true, cards: cs.filter((c) => c === k) });
    const rest = cs.filter((c) => !kan.includes(c));
    if (rest.length) cols.push({ kan: false, cards: rest });
  }
  return cols;
}

function render() {
  const page = $("#tutorial");
  const r = TU.cur;
  const v = r.view;
  const stop = r.stop || { choices: [], actions: [] };
  const wrap = el("div", "tut-body");
  const table = el("div", "tut-table");
  // the other seats
  const others = el("div", "t-others");
  for (const s of v.seats || [0, 1, 2]) if (s !== TU.meta.learner) others.append(seatBox(v, s));
  table.append(others);
  // the open card and what just happened
  const mid = el("div", "t-center");
  const open = el("div", "t-open");
  open.id = "tut-open";
  if (v.open && v.open.card) {
    open.append(card(v.open.card, "huge"));
    open.append(el("span", "muted", `${who(v.open.owner)} ${t("tutOpen")[v.open.source] || ""}`));
  }
  mid.append(open);
  const evs = el("ol", "t-events");
  evs.id = "tut-events";
  const lines = (r.events || []).map(eventText).filter(Boolean).slice(-4);
  if (lines.length) { evs.append(el("li", "muted", t("tutEvents"))); for (const l of lines) evs.append(el("li", null, l)); }
  mid.append(evs);
  mid.append(el("span", "muted t-wall", t("tutWall", v.wall)));
  table.append(mid);
  // me
  table.append(seatBox(v, TU.meta.learner));
  const mine = el("div", "t-mine");
  const hx = el("span", "t-huxi-now", t("tutHuxi", r.huxi ?? v.huxi));
  hx.id = "tut-huxi";
  mine.append(hx);
  table.append(mine);
  const hand = el("div", "t-hand");
  hand.id = "tut-hand";
  const legal = new Set((stop.choices || []).filter((c) => c.startsWith("discard:")).map((c) => c.slice(8)));
  const expectCard = TU.feedback && !TU.feedback.ok && TU.feedback.expect && TU.feedback.expect.startsWith("discard:") ? TU.feedback.expect.slice(8) : null;
  for (const col of handColumns(v.hand || [])) {
    const c = el("div", "t-col" + (col.kan ? " kan" : ""));
    for (const code of col.cards) {
      const ce = card(code);
      if (!col.kan && legal.has(code)) {
        ce.classList.add("legal");
        if (code === expectCard) ce.classList.add("expected");
        ce.tabIndex = 0;
        ce.setAttribute("role", "button");
        ce.addEventListener("click", () => step(r.at, "discard:" + code));
        ce.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") step(r.at, "discard:" + code); });
      }
      c.append(ce);
    }
    hand.append(c);
  }
  table.append(hand);
  wrap.append(table);
  wrap.append(panel(r, stop));
  page.replaceChildren(header(), wrap);
}

function panel(r, stop) {
  const p = el("div", "tut-panel");
  p.id = "tut-panel";
  const fb = el("p", "feedback");
  fb.id = "tut-feedback";
  fb.setAttribute("role", "status");
  if (TU.feedback && TU.feedback.ok) { fb.classList.add("good"); fb.textContent = t("tutRight"); }
  else if (TU.feedback) { fb.classList.add("bad"); fb.textContent = t("tutWrong") + pick(TU.feedback.explain); }
  p.append(fb);
  if (r.done) {
    p.append(el("h3", null, t("tutDone")));
    const res = r.result || {};
    if (res.winner !== undefined && res.winner !== null) {
      const line = el("p", "result", t("tutResult", res.huxi, res.deng, res.fan, res.di));
      line.id = "tut-result";
      p.append(line);
      if (res.mingtang && res.mingtang.length) {
        p.append(el("p", null, res.mingtang.map((m) => `${m.name} ${t("fan", m.fan)}`).join(" · ")));
      }
    }
    const row = el("div", "tut-buttons");
    const again = el("button", null, t("tutAgain"));
    again.type = "button";
    again.addEventListener("click", () => { TU.feedback = null; step(0); });
    const fin = el("button", "primary", t("tutFinish"));
    fin.type = "button";
    fin.id = "tut-finish";
    fin.addEventListener("click", closeTutorial);
    row.append(again, fin);
    p.append(row);
    try { localStorage.setItem("phz:tutorial", "done"); } catch { /* storage off */ }
    return p;
  }
  if (stop.concept) p.append(el("span", "chip concept", t("concept")[stop.concept] || stop.concept));
  const text = el("p", "tut-text", pick(stop.text));
  text.id = "tut-text";
  p.append(text);
  const row = el("div", "tut-buttons");
  row.id = "tut-choices";
  const choices = stop.choices || [];
  if (choices.some((c) => c.startsWith("discard:"))) p.append(el("p", "muted", t("tutTapCard")));
  const wrongExpect = TU.feedback && !TU.feedback.ok ? TU.feedback.expect : null;
  for (const id of choices) {
    if (id.startsWith("discard:")) continue; // tapped on the hand (and buttons below)
    const a = (stop.actions || []).find((x) => x.id === id) || { id, type: id };
    const b = el("button", "choice " + (a.type || ""), id === "next" ? t("act").next : actionLabel(a));
    b.type = "button";
    b.dataset.action = id;
    if (id === "next") { b.classList.add("primary"); b.id = "tut-next"; }
    if (id === wrongExpect) b.classList.add("expected");
    b.addEventListener("click", () => step(r.at, id));
    row.append(b);
  }
  for (const id of choices.filter((c) => c.startsWith("discard:"))) {
    const b = el("button", "choice discard", actionLabel({ type: "discard", card: id.slice(8) }));
    b.type = "button";
    b.dataset.action = id;
    b.title = cardTitle(id.slice(8));
    if (id === wrongExpect) b.classList.add("expected");
    b.addEventListener("click", () => step(r.at, id));
    row.append(b);
  }
  p.append(row);
  return p;
}

onLang(() => {
  if (!TU.meta || !$("#tutorial") || $("#tutorial").classList.contains("hidden")) return;
  if (TU.cur) render(); else renderIntro();
});
