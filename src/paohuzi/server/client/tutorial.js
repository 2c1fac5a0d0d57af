/* tutorial: 新手教学, a guided first hand driven by the scenario API.
 * GET /api/tutorial(/NAME) gives the title, intro and number of stops; each stop comes
 * from POST /api/tutorial/NAME/step {"at": k} (the learner's view, the events since the
 * last choice as the learner saw them, the explanation and the legal choices); a choice is
 * checked by the server ({"at": k, "action": id} → the next stop with correct: true, or
 * the same stop with correct: false and `explain`). The table is board.js's, drawn from
 * the learner's view as the live table is; narrate.js tells the events. The browser keeps
 * only which stop it is on. */
import { T, t, pick, onLang, api } from "./i18n.js";
import { $, el, button, langButton, dialog, closeButton, sheetOpened, sheetClosed } from "./store.js";
import { zh, cardTitle } from "./cards.js";
import { drawBoard } from "./board.js";
import { narrate } from "./narrate.js";

const TU = { meta: null, cur: null, feedback: null, busy: false, seq: 0 };

export async function openTutorial(name) {
  const page = dialog("tutorial", "tutorial");
  sheetOpened("tutorial");
  document.body.classList.add("tutorial-open");
  // its × while it loads too: Back (app.js closeSheet) closes a sheet through its ×
  page.replaceChildren(header(), el("p", "muted pad", t("loading")));
  const s = ++TU.seq;
  let meta;
  try {
    meta = await api(name ? `/api/tutorial/${encodeURIComponent(name)}` : "/api/tutorial");
  } catch (e) {
    if (s === TU.seq) page.replaceChildren(header(), el("p", "error pad", t("loadFail", e.message)));
    return;
  }
  if (s !== TU.seq) return; // closed (or opened again) while it loaded
  TU.meta = meta;
  TU.cur = null;
  TU.feedback = null;
  renderIntro();
}

function closeTutorial() {
  TU.seq++; // a load still on its way renders nothing
  const p = $("#tutorial");
  if (p) p.classList.add("hidden");
  document.body.classList.remove("tutorial-open");
  TU.cur = null;
  sheetClosed("tutorial", /^#\/tutorial/.test(location.hash) ? "#/" : null);
}

function header() {
  const h = el("header", "tut-head");
  h.append(el("b", "tut-title", TU.meta ? pick(TU.meta.title) : t("tutTitle")));
  const step = el("span", "tut-step");
  step.id = "tut-step";
  if (TU.cur && TU.meta) step.textContent = TU.cur.done ? t("tutDone") : t("tutStep", TU.cur.at + 1, TU.meta.steps);
  const wall = el("span", "tut-wall"), lz = el("span", "tut-lz"); // board.js writes them
  h.append(step, wall, lz, el("span", "spacer"), langButton(), closeButton(closeTutorial, "tut-close"));
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
  const b = button("primary big", t("tutStart"), () => go(0));
  b.id = "tut-start";
  box.append(b);
  page.replaceChildren(header(), box);
}

async function go(at, action) {
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

/* ------------------------------------------------------------ a stop */
/** A choice's label, as the live table's buttons say it. */
function actionLabel(a) {
  const card = a.card ? " " + zh(a.card) : "";
  if (a.type === "chi") return `${T.act.chi}${card}: ${(a.groups || []).map((g) => g.map(zh).join("")).join(` ${T.bi} `)}`;
  if (T.act[a.type]) return T.act[a.type] + (a.type === "pass" ? "" : card);
  return a.label || a.id;
}

function render() {
  const page = $("#tutorial");
  const r = TU.cur;
  const v = r.view;
  const me = TU.meta.learner;
  const n = v.hand_sizes.length;
  const stop = r.stop || { choices: [], actions: [] };
  const name = (s) => (s === me ? T.me : T.rel[n][(s - me + n) % n]);
  const legal = new Set((stop.choices || []).filter((c) => c.startsWith("discard:")).map((c) => c.slice(8)));
  const fb = TU.feedback;
  const expected = fb && !fb.ok && fb.expect && fb.expect.startsWith("discard:") ? fb.expect.slice(8) : null;
  const head = header();
  const board = el("main", "tut-board");
  drawBoard(board, v, {
    name,
    ticker: narrate(r.events, name, me),
    bar: { wall: $(".tut-wall", head), lz: $(".tut-lz", head) },
    hand: { legal, decorate: (d, ci, i, code) => {
      if (!legal.has(code)) return;
      if (code === expected) d.classList.add("expected");
      d.tabIndex = 0;
      d.setAttribute("role", "button");
      d.addEventListener("click", () => go(r.at, "discard:" + code));
      d.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") go(r.at, "discard:" + code); });
    } },
  });
  const wrap = el("div", "tut-body");
  wrap.append(board, panel(r, stop));
  page.replaceChildren(head, wrap);
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
        p.append(el("p", null, res.mingtang.map((m) => `${m.label ? t("mtName", pick(m.label), m.name) : m.name} ${t("fan", m.fan)}`).join(" · ")));
      }
    }
    const row = el("div", "tut-buttons");
    const again = button(null, t("tutAgain"), () => { TU.feedback = null; go(0); });
    const fin = button("primary", t("tutFinish"), closeTutorial);
    fin.id = "tut-finish";
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
    const b = el("button", "choice " + (a.type || ""), id === "next" ? t("tutNext") : actionLabel(a));
    b.type = "button";
    b.dataset.action = id;
    if (id === "next") { b.classList.add("primary"); b.id = "tut-next"; }
    if (id === wrongExpect) b.classList.add("expected");
    b.addEventListener("click", () => go(r.at, id));
    row.append(b);
  }
  for (const id of choices.filter((c) => c.startsWith("discard:"))) {
    const b = el("button", "choice discard", actionLabel({ type: "discard", card: id.slice(8) }));
    b.type = "button";
    b.dataset.action = id;
    b.title = cardTitle(id.slice(8));
    if (id === wrongExpect) b.classList.add("expected");
    b.addEventListener("click", () => go(r.at, id));
    row.append(b);
  }
  p.append(row);
  return p;
}

onLang(() => {
  if (!TU.meta || !$("#tutorial") || $("#tutorial").classList.contains("hidden")) return;
  if (TU.cur) render(); else renderIntro();
});
