/* lobby: the one lobby — the 大厅: room creation generated from GET /api/presets (every
 * preset's seats and options come from the server's rules data), joining by code (the
 * join page, invite.js), opening a replay by its id, 我的牌局. A created seat is stored
 * (store.js) and the page goes to #/room/ROOM, where app.js's router sits down. */
import { T, t, pick, unbroken, lang, onLang, api } from "./i18n.js";
import { openRules } from "./rulespage.js";
import { openTutorial } from "./tutorial.js";
import { $, el, button, langButton, storeSeat, mySeats, goRoom, keepReplayContext } from "./store.js";

// `friends`: seats the player chose to leave for friends (0: every other seat a bot). The
// bot count follows 人数 from it, so a "vs bots" room stays one when the seats change.
const L = { presets: [], levels: [], chosen: {}, preset: null, friends: 0 };

/** Bots the room is created with: every seat but mine and the friends'. */
const botsOf = () => Math.max(0, seatsOf() - 1 - L.friends);

/* ------------------------------------------------------------ the lobby */
/** Write the lobby (index.html has its empty parts) in the chosen language. */
/** What a 名堂 is worth (R36), as the settlement says it: ×番, units added, or the 底 set. */
/** A 名堂 chip as the chosen 玩法 make it (桂林's 自摸 +1 子 instead of ×2). */
function chipWorth(v) {
  let w = v;
  for (const o of L.preset.options) {
    const c = o.variant && o.values.find((x) => x.value === L.chosen[o.id]);
    if (c && c.mingtang && c.mingtang[v.value]) w = { ...w, ...c.mingtang[v.value] };
  }
  return w;
}

/** A 玩法 that needs 王 (亡牌) says nothing and cannot be chosen in a deck without; one
 * not played with 王 (一五十) likewise in a deck with them. */
function moot(o, chosen, preset = L.preset) {
  const wang = preset.options.find((x) => x.id === "wang");
  const n = chosen.wang ?? (wang && wang.default);
  return (o.needs === "wang" && n === 0) || (o.needs === "no_wang" && !!n);
}

function mingtangWorth(v) {
  if (v.effect === "units") return t("fanUnits", v.fan, v.unit);
  if (v.effect === "base") return t("fanBase", v.fan, v.unit);
  return t("fan", v.fan);
}

function buildLobby() {
  const bar = $("#hall-bar");
  bar.replaceChildren(
    navButton("tutorial-btn", T.navTutorial, () => openTutorial()),
    navButton("lobby-rules-btn", T.navRules, () => openRules(L.preset ? L.preset.name : "hunan")),
    navButton("matches-btn", T.navMatches, () => $("#my-matches").scrollIntoView({ behavior: "smooth" })),
    el("span", "spacer"), langButton("lang-btn"));
  $("#lobby h1").replaceChildren(T.appTitle + " ", el("small", null, T.appSub));
  subtitle();
  renderCreate();
  renderJoinForm();
  renderReplayForm();
  renderMatches();
  document.title = T.appTitle;
}
/** The lobby's subtitle names the chosen preset's game (桂林字牌, not always 湖南字牌). */
function subtitle() {
  const sub = $("#lobby h1 small");
  if (sub && L.preset) sub.textContent = T.appSubOf(pick(L.preset.label));
}
function navButton(id, text, onClick) {
  const b = button("nav", text, onClick);
  b.id = id;
  return b;
}

function renderCreate() {
  const form = $("#create-form");
  if (!form || !L.presets.length) return;
  form.classList.add("gen");
  form.replaceChildren();
  subtitle();
  form.append(el("h2", null, t("createTitle")));
  // 玩法 (preset): a new preset in /api/presets is a new option here
  const lp = el("label", "opt-preset");
  lp.append(el("span", null, t("preset")));
  const ps = el("select");
  ps.id = "rules";
  ps.name = "rules";
  for (const p of L.presets) {
    const o = el("option", null, t("presetOption", pick(p.label), p.players));
    o.value = p.name;
    ps.append(o);
  }
  ps.value = L.preset.name;
  ps.addEventListener("change", () => { choosePreset(ps.value); renderCreate(); });
  lp.append(ps);
  form.append(lp);
  for (const opt of L.preset.options) form.append(optionControl(opt));
  // 机器人 (how many seats bots take; the rest wait for friends)
  const lb = el("label", "opt-bots");
  lb.append(el("span", null, t("bots")));
  const bs = el("select");
  bs.id = "bots";
  bs.name = "bots";
  const n = seatsOf();
  for (let i = n - 1; i >= 0; i--) {
    const o = el("option", null, i === n - 1 ? t("botsAll", i) : t("botsFriends", i, n - 1 - i));
    o.value = String(i);
    bs.append(o);
  }
  if (L.friends > n - 1) L.friends = n - 1;
  bs.value = String(botsOf());
  bs.addEventListener("change", () => { L.friends = n - 1 - parseInt(bs.value, 10); });
  lb.append(bs);
  form.append(lb);
  const ln = el("label", "opt-name");
  ln.append(el("span", null, t("name")));
  const nm = el("input");
  nm.id = "name";
  nm.name = "name";
  nm.maxLength = 24;
  nm.placeholder = t("namePh");
  nm.value = L.name || "";
  nm.addEventListener("input", () => { L.name = nm.value; });
  ln.append(nm);
  form.append(ln);
  const sum = el("div", "summary");
  sum.id = "rules-summary";
  sum.setAttribute("aria-live", "polite");
  form.append(sum);
  const more = el("button", "link", t("rulesOf"));
  more.type = "button";
  more.id = "summary-rules-btn";
  more.addEventListener("click", () => openRules(L.preset.name, chosenOptions())); // as chosen
  form.append(more);
  const go = el("button", "primary", t("createBtn"));
  go.type = "submit";
  go.id = "create-btn";
  form.append(go);
  const err = el("p", "error");
  err.id = "create-error";
  err.setAttribute("role", "alert");
  form.append(err);
  updateSummary();
  widenLong(form);
}

/** Give a select the whole row where its longest value would not fit its column (a
 * phone held upright, the longer English). Measured in the page, not guessed. */
let measure = null;
function widenLong(form) {
  const sels = [...form.querySelectorAll("label > select")];
  for (const s of sels) s.parentElement.classList.remove("long");
  measure = measure || document.createElement("canvas").getContext("2d");
  for (const s of sels) {
    if (!s.clientWidth) continue; // not laid out (the lobby hidden)
    const cs = getComputedStyle(s);
    measure.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const need = Math.max(...[...s.options].map((o) => measure.measureText(o.textContent).width));
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24; // the arrow
    if (need > room) s.parentElement.classList.add("long");
  }
}
addEventListener("resize", () => { const f = $("#create-form"); if (f && L.preset) widenLong(f); });

/** One control per option of the schema: `one` → a select (局数: a number field, as the
 * old lobby had, with the schema's values offered), `many` → a row of check chips. */
function optionControl(opt) {
  const box = el(opt.kind === "many" ? "fieldset" : "label", "opt opt-" + opt.id);
  box.dataset.option = opt.id;
  const title = el(opt.kind === "many" ? "legend" : "span", null, pick(opt));
  box.append(title);
  const cur = L.chosen[opt.id];
  if (opt.kind === "many") {
    const chips = el("div", "chips");
    for (const v of opt.values) {
      const c = el("label", "chip");
      const cb = el("input");
      cb.type = "checkbox";
      cb.value = v.value;
      cb.checked = cur.includes(v.value);
      cb.addEventListener("change", () => {
        const set = new Set(L.chosen[opt.id]);
        if (cb.checked) set.add(v.value); else set.delete(v.value);
        L.chosen[opt.id] = opt.values.map((x) => x.value).filter((x) => set.has(x));
        updateSummary();
      });
      const txt = lang() === "en" ? v.en : v.zh;
      c.append(cb, el("span", null, txt + (v.fan ? ` ${mingtangWorth(chipWorth(v))}` : "")));
      chips.append(c);
    }
    box.append(chips);
    return box;
  }
  if (opt.id === "hands" && opt.values.every((v) => Number.isInteger(v.value))) {
    const inp = el("input");
    inp.type = "number";
    inp.id = "hands";
    inp.name = "hands";
    inp.min = "1";
    inp.max = "64";
    inp.value = String(cur);
    const dl = el("datalist");
    dl.id = "hands-values";
    for (const v of opt.values) { const o = el("option"); o.value = String(v.value); dl.append(o); }
    inp.setAttribute("list", dl.id);
    inp.addEventListener("input", () => {
      const n = parseInt(inp.value, 10);
      if (n >= 1 && n <= 64) { L.chosen.hands = n; updateSummary(); }
    });
    box.append(inp, dl);
    return box;
  }
  const sel = el("select");
  sel.id = opt.id === "bot" ? "bot" : "opt-" + opt.id; // #bot: the old lobby's id
  sel.name = opt.id;
  opt.values.forEach((v, i) => {
    const o = el("option", null, lang() === "en" ? v.en : v.zh);
    o.value = String(i);
    if (opt.id === "bot") o.value = String(v.value);
    o.dataset.index = String(i);
    sel.append(o);
  });
  const idx = opt.values.findIndex((v) => v.value === cur);
  sel.selectedIndex = Math.max(0, idx);
  if (moot(opt, L.chosen)) { sel.selectedIndex = 0; sel.disabled = true; L.chosen[opt.id] = opt.default; }
  sel.addEventListener("change", () => {
    L.chosen[opt.id] = opt.values[sel.selectedIndex].value;
    // seats, 王 (亡牌 needs them) and the 玩法 (they relabel the 名堂 chips) redraw the form
    if (opt.id === "players" || opt.id === "wang" || opt.variant) { renderCreate(); return; }
    updateSummary();
  });
  box.append(sel);
  return box;
}

function choosePreset(name) {
  const keep = { name: L.name };
  L.preset = L.presets.find((p) => p.name === name) || L.presets[0];
  L.chosen = {};
  for (const o of L.preset.options) L.chosen[o.id] = Array.isArray(o.default) ? [...o.default] : o.default;
  L.friends = 0;
  Object.assign(L, keep);
}

/** Seats of the configuration (4人坐底 has four seats). */
function seatsOf() {
  const p = L.chosen.players;
  return Number.isInteger(p) ? p : L.preset.players;
}

/** The one-line summary of a configuration, made of the same parts, in the same order, as
 * the server's options.summary (the test compares them); 坐底 as the server's schema says. */
function summaryOf(preset, chosen, levels) {
  const X = T.sum;
  const opt = (id) => preset.options.find((o) => o.id === id);
  const n = chosen.players ?? preset.players;
  const seat = opt("players") && opt("players").values.find((v) => v.value === n);
  const mo = opt("mingtang");
  const mts = mo ? mo.values.filter((v) => (chosen.mingtang || []).includes(v.value)) : [];
  const parts = [pick(preset.label), X.players(n, !!(seat && seat.sit_out), seat && seat.sit_out_word), X.minHuxi(chosen.min_huxi ?? preset.min_huxi),
    X.mingtang(mts), X.base(chosen.base_score ?? 1), X.cap(chosen.cap ?? 0),
    // 玩法 played otherwise than the preset: what the server's summary says of each
    ...preset.options.filter((o) => o.variant && !moot(o, chosen, preset) && (chosen[o.id] ?? o.default) !== o.default)
      .map((o) => pick(o.values.find((v) => v.value === chosen[o.id]).sum)),
    preset.race ? X.race(preset.race, preset.unit, chosen.hands ?? preset.hands) : X.hands(chosen.hands ?? preset.hands)];
  const wo = opt("wang"); // 王 (R39): named where chosen, or where the preset deals some
  const wang = wo && wo.values.find((v) => v.value === (chosen.wang ?? wo.default));
  if (wang && (wang.value || wo.default)) parts.splice(2, 0, pick(wang));
  if (chosen.turn_time) parts.push(X.turn(chosen.turn_time));
  const lv = levels.find((x) => x.id === chosen.bot);
  if (lv) parts.push(X.bots(lv));
  return parts.join(" · ");
}

function updateSummary() {
  const s = $("#rules-summary");
  if (s) s.textContent = unbroken(summaryOf(L.preset, L.chosen, L.levels));
}

/** The options chosen, as POST /api/rooms takes them (a 局数 not offered goes as `hands`). */
function chosenOptions() {
  const options = {};
  for (const o of L.preset.options) {
    const v = L.chosen[o.id];
    if (o.id === "hands" && !o.values.some((x) => x.value === v)) continue; // sent as `hands`
    options[o.id] = v;
  }
  return options;
}

async function createRoom() {
  const err = $("#create-error");
  err.textContent = "";
  const options = chosenOptions();
  const body = { rules: L.preset.name, bots: botsOf(), options };
  if (!("hands" in options)) body.hands = L.chosen.hands;
  if (L.name) body.name = L.name;
  const btn = $("#create-btn");
  btn.disabled = true;
  try {
    const r = await api("/api/rooms", body);
    storeSeat(r.room, r.token, r.seat);
    goRoom(r.room);
  } catch (e) {
    err.textContent = t("createFail", e.message);
  } finally { btn.disabled = false; }
}

function renderJoinForm() {
  const form = $("#join-form");
  if (!form) return;
  const code = $("#join-room") ? $("#join-room").value : "";
  form.replaceChildren(el("h2", null, t("joinTitle")));
  const l1 = el("label", null);
  const inp = el("input");
  inp.id = "join-room";
  inp.maxLength = 6;
  inp.placeholder = t("roomCodePh");
  inp.setAttribute("autocapitalize", "characters");
  inp.value = code;
  l1.append(el("span", null, t("roomCode")), inp);
  const b = el("button", null, t("joinBtn"));
  b.type = "submit";
  b.id = "join-btn";
  form.append(l1, b);
}

/** Joining by code opens the join page (rules, seats) instead of sitting down blind. */
function joinByCode(ev) {
  ev.preventDefault();
  const code = ($("#join-room").value || "").trim().toUpperCase();
  if (!code) return;
  goRoom(code);
}

function renderReplayForm() {
  const form = $("#replay-form");
  if (!form) return;
  const id = $("#replay-id") ? $("#replay-id").value : "";
  form.replaceChildren(el("h2", null, t("replayFormTitle")));
  const l1 = el("label", null);
  const inp = el("input");
  inp.id = "replay-id";
  inp.maxLength = 40;
  inp.placeholder = t("replayIdPh");
  inp.value = id;
  l1.append(el("span", null, t("replayId")), inp);
  const b = el("button", null, t("replayBtn"));
  b.type = "submit";
  form.append(l1, b);
}

/* ------------------------------------------------------------ 我的牌局 */
let matchesSeq = 0;
export async function renderMatches() {
  const box = $("#my-matches");
  if (!box) return;
  const seq = ++matchesSeq;
  const head = el("h2", null, t("matchesTitle"));
  const rb = el("button", "link", t("refresh"));
  rb.type = "button";
  rb.addEventListener("click", renderMatches);
  head.append(rb);
  const seats = mySeats();
  if (!seats.length) { box.replaceChildren(head, el("p", "muted", t("noMatches"))); return; }
  let data;
  try {
    data = await api("/api/my-matches", { tokens: seats.map((s) => s.token).slice(0, 50) });
  } catch (e) {
    if (seq === matchesSeq) box.replaceChildren(head, el("p", "error", t("loadFail", e.message)));
    return;
  }
  if (seq !== matchesSeq) return;
  const list = el("ul", "match-list");
  for (const m of data.matches) list.append(matchItem(m));
  box.replaceChildren(head, data.matches.length ? list : el("p", "muted", t("noMatches")));
}

/** A match's start in this browser's own time zone (the server's `date` is UTC). */
function localTime(epoch, fallback) {
  if (typeof epoch !== "number") return fallback;
  const d = new Date(epoch * 1000), p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function matchItem(m) {
  const li = el("li", "match");
  li.dataset.room = m.room;
  const top = el("div", "match-head");
  top.append(el("b", null, t("matchRoom", m.room, localTime(m.created, m.date))));
  const done = m.hands.filter((h) => h.finished).length;
  top.append(el("span", "badge", t("handsPlayed", done, m.hands_total)));
  if (m.dissolved) top.append(el("span", "badge dissolved", t("matchDissolved"))); // 解散: not merely unfinished
  else if (m.status === "finished") top.append(el("span", "badge", t("matchEnded")));
  const score = m.scores && m.scores.length ? m.scores[m.seat] : null;
  if (score !== null && score !== undefined) {
    const cls = score > 0 ? "win" : score < 0 ? "lose" : "";
    top.append(el("span", "badge " + cls, t("myScore", score)));
  }
  li.append(top, el("div", "match-sum", unbroken(pick(m.summary))));
  const hands = el("div", "match-hands");
  for (const h of m.hands) {
    if (!h.finished) continue;
    const a = el("a", "hand-link");
    a.href = h.replay;
    const who = h.winner === null || h.winner === undefined ? null
      : h.winner === m.seat ? t("me") : (m.seats[h.winner] && m.seats[h.winner].name) || T.player(h.winner);
    a.textContent = `${t("handN", h.index + 1)} · ${who === null ? t("huang") : t("wonBy", who, h.huxi)} · ${t("replay")}`;
    // the replay shows the seats' names and marks mine (replay.js reads this)
    a.addEventListener("click", () => keepReplayContext(h.hand_id,
      { names: (m.seats || []).map((x) => (x && x.name) || null), seat: m.seat }));
    hands.append(a);
  }
  if (hands.childElementCount) li.append(hands);
  if (m.status !== "finished") {
    const b = el("button", null, t("rejoin"));
    b.type = "button";
    b.addEventListener("click", () => goRoom(m.room));
    li.append(b);
  }
  return li;
}


/** Wire the lobby's forms and load the presets (the router, app.js, shows it). */
export async function initLobby() {
  $("#create-form").addEventListener("submit", (ev) => { ev.preventDefault(); if (L.preset) createRoom(); });
  $("#join-form").addEventListener("submit", joinByCode);
  $("#replay-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const id = $("#replay-id").value.trim();
    if (id) location.hash = "#/replay/" + encodeURIComponent(id);
  });
  onLang(buildLobby);
  buildLobby();
  try {
    const data = await api("/api/presets");
    L.presets = data.presets;
    L.levels = data.levels || [];
    choosePreset(L.presets[0].name);
  } catch (e) {
    $("#lobby-error").textContent = t("loadFail", e.message);
  }
  renderCreate();
  document.body.dataset.lobby = "ready"; // for tests
}
