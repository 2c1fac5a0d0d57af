/* lobby: the 大厅 (room creation generated from GET /api/presets `options`, joining by
 * code, replays, 我的牌局), the join page an invite link opens (#/room/ID without a seat
 * of this browser), the invite card (link + QR) while a room waits for friends, and the
 * 规则 / 💬 buttons on the table. Languages: i18n.js.
 *
 * It works beside app.js without reaching into it: the old lobby's ids stay (#rules, #bot,
 * #hands, #name, #create-btn, #join-room, #replay-id) and app.js keeps its listeners on the
 * forms; a created or joined seat is stored as app.js stores it (localStorage `phz:ROOM`
 * = {token, seat}) and the page goes to #/room/ROOM, where app.js's router finds it. */
import { t, pick, lang, setLang, onLang, api, errText } from "./i18n.js";
import { openRules } from "./rulespage.js";
import { openTutorial } from "./tutorial.js";
import { installPhrases } from "./phrases.js";

import { $, el, dialog, closeButton } from "./store.js";

const L = { presets: [], levels: [], chosen: {}, preset: null, bots: null };

/* ------------------------------------------------------------ sessions (as store.js keeps them) */
const ROOM_KEY = /^phz:([A-Z0-9]{4,16})$/;
export function storeSeat(room, token, seat) {
  localStorage.setItem("phz:" + room, JSON.stringify({ token, seat }));
}
export function seatOf(room) {
  try {
    const x = JSON.parse(localStorage.getItem("phz:" + room) || "null");
    return x && typeof x.token === "string" ? x : null;
  } catch { return null; }
}
/** Every seat this browser holds: [{room, token, seat}]. */
export function mySeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    const m = k && ROOM_KEY.exec(k);
    if (!m) continue;
    const s = seatOf(m[1]);
    if (s) out.push({ room: m[1], ...s });
  }
  return out;
}
function goRoom(room) {
  // app.js's router enters a room whose seat is stored; make sure the hash really changes
  if (location.hash === "#/room/" + room) history.replaceState(null, "", "#/");
  location.hash = "#/room/" + room;
}

/* ------------------------------------------------------------ the lobby */
function buildLobby() {
  const lobby = $("#lobby");
  if (!lobby) return;
  lobby.classList.add("hall");
  let bar = $("#hall-bar");
  if (!bar) {
    bar = el("nav", null);
    bar.id = "hall-bar";
    const h1 = $("h1", lobby);
    if (h1) h1.after(bar); else lobby.prepend(bar);
  }
  bar.replaceChildren();
  const nav = (id, key, fn) => {
    const b = el("button", "nav", t(key));
    b.type = "button";
    b.id = id;
    b.addEventListener("click", fn);
    bar.append(b);
  };
  nav("tutorial-btn", "navTutorial", () => openTutorial());
  nav("lobby-rules-btn", "navRules", () => openRules(L.preset ? L.preset.name : "hunan"));
  nav("matches-btn", "navMatches", () => $("#my-matches").scrollIntoView({ behavior: "smooth" }));
  const sp = el("span", "spacer");
  bar.append(sp);
  const lb = el("button", "lang", t("langSwitch"));
  lb.type = "button";
  lb.id = "lang-btn";
  lb.title = t("langSwitchTitle");
  lb.addEventListener("click", () => setLang(lang() === "zh" ? "en" : "zh"));
  bar.append(lb);

  const h1 = $("h1", lobby);
  if (h1) { h1.replaceChildren(t("appTitle") + " ", el("small", null, t("appSub"))); }
  renderCreate();
  renderJoinForm();
  renderReplayForm();
  let mm = $("#my-matches");
  if (!mm) {
    mm = el("section", "panel matches");
    mm.id = "my-matches";
    lobby.append(mm);
  }
  renderMatches();
  document.title = t("appTitle");
}

function renderCreate() {
  const form = $("#create-form");
  if (!form || !L.presets.length) return;
  form.classList.add("gen");
  form.replaceChildren();
  form.append(el("h2", null, t("createTitle")));
  // 玩法 (preset): a new preset in /api/presets is a new option here
  const lp = el("label", "opt-preset");
  lp.append(el("span", null, t("preset")));
  const ps = el("select");
  ps.id = "rules";
  ps.name = "rules";
  for (const p of L.presets) {
    const o = el("option", null, `${pick(p.label)}（${t("players", p.players)}）`);
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
  if (L.bots === null || L.bots > n - 1) L.bots = n - 1;
  bs.value = String(L.bots);
  bs.addEventListener("change", () => { L.bots = parseInt(bs.value, 10); });
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
  more.addEventListener("click", () => openRules(L.preset.name));
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
}

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
      c.append(cb, el("span", null, txt + (v.fan ? ` ${t("fan", v.fan)}` : "")));
      if (v.en && lang() === "zh") c.title = v.en;
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
  sel.addEventListener("change", () => {
    L.chosen[opt.id] = opt.values[sel.selectedIndex].value;
    if (opt.id === "players") { renderCreate(); return; }
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
  L.bots = null;
  Object.assign(L, keep);
}

/** Seats of the configuration (4人坐底 has four seats). */
function seatsOf() {
  const p = L.chosen.players;
  return Number.isInteger(p) ? p : L.preset.players;
}

/** The one-line summary, computed as the server's options.summary is. */
export function summaryOf(preset, chosen, levels, language) {
  const en = language === "en";
  const opt = (id) => preset.options.find((o) => o.id === id);
  const n = chosen.players ?? preset.players;
  const sitOut = n === 4 && (opt("players")?.values.find((v) => v.value === 4)?.zh || "").includes("坐底");
  const parts = [en ? preset.label.en : preset.label.zh];
  parts.push(en ? `${n} players` + (sitOut ? ", one sits out" : "") : (sitOut ? `${n}人坐底` : `${n}人`));
  const mh = chosen.min_huxi ?? preset.min_huxi;
  parts.push(en ? `win from ${mh} huxi` : `${mh}胡起胡`);
  const mo = opt("mingtang");
  const mts = mo ? mo.values.filter((v) => (chosen.mingtang || []).includes(v.value)) : [];
  if (en) parts.push(mts.length ? `${mts.length} scoring patterns` : "no scoring patterns");
  else parts.push(mts.length ? "名堂：" + mts.map((v) => v.zh).join("、") : "无名堂");
  const base = chosen.base_score ?? 1, cap = chosen.cap ?? 0;
  parts.push(en ? `${base} pt per 底` : `底分${base}`);
  parts.push(cap ? (en ? `capped at ${cap}` : `${cap}分封顶`) : (en ? "no cap" : "不封顶"));
  const hands = chosen.hands ?? preset.hands;
  parts.push(en ? `${hands} hands` : `${hands}局`);
  if (chosen.turn_time) parts.push(en ? `${chosen.turn_time} s a turn` : `每步${chosen.turn_time}秒`);
  const lv = levels.find((x) => x.id === chosen.bot);
  if (lv) parts.push(en ? `${lv.label_en.toLowerCase()} bots` : `机器人${lv.label}`);
  return parts.join(" · ");
}

function updateSummary() {
  const s = $("#rules-summary");
  if (s) s.textContent = summaryOf(L.preset, L.chosen, L.levels, lang());
}

async function createRoom(ev) {
  ev.preventDefault();
  ev.stopImmediatePropagation(); // app.js's older handler stays quiet
  const err = $("#create-error");
  err.textContent = "";
  const options = {};
  for (const o of L.preset.options) {
    const v = L.chosen[o.id];
    if (o.id === "hands" && !o.values.some((x) => x.value === v)) continue; // sent as `hands`
    options[o.id] = v;
  }
  const body = { rules: L.preset.name, bots: L.bots, options };
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
  ev.stopImmediatePropagation();
  const code = ($("#join-room").value || "").trim().toUpperCase();
  if (!code) return;
  goRoom(code);
}

function renderReplayForm() {
  const form = $("#replay-form");
  if (!form) return;
  const id = $("#replay-id") ? $("#replay-id").value : "";
  form.replaceChildren(el("h2", null, t("replayTitle")));
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
async function renderMatches() {
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

function matchItem(m) {
  const li = el("li", "match");
  li.dataset.room = m.room;
  const top = el("div", "match-head");
  top.append(el("b", null, t("matchRoom", m.room, m.date)));
  const done = m.hands.filter((h) => h.finished).length;
  top.append(el("span", "badge", t("handsPlayed", done, m.hands_total)));
  const score = m.scores && m.scores.length ? m.scores[m.seat] : null;
  if (score !== null && score !== undefined) {
    const cls = score > 0 ? "win" : score < 0 ? "lose" : "";
    top.append(el("span", "badge " + cls, t("myScore", score)));
  }
  li.append(top, el("div", "match-sum", pick(m.summary)));
  const hands = el("div", "match-hands");
  for (const h of m.hands) {
    if (!h.finished) continue;
    const a = el("a", "hand-link");
    a.href = h.replay;
    const who = h.winner === null || h.winner === undefined ? null
      : h.winner === m.seat ? t("me") : (m.seats[h.winner] && m.seats[h.winner].name) || t("seatName", h.winner);
    a.textContent = `${t("handN", h.index + 1)} · ${who === null ? t("huang") : t("wonBy", who, h.huxi)} · ${t("replay")}`;
    // the replay shows the seats' names and marks mine (replay.js reads this)
    a.addEventListener("click", () => {
      try {
        sessionStorage.setItem("phz:replayctx:" + h.hand_id,
          JSON.stringify({ names: (m.seats || []).map((x) => (x && x.name) || null), seat: m.seat }));
      } catch { /* storage off: seats by number */ }
    });
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

/* ------------------------------------------------------------ the join page */
let joinSeq = 0;
const joinCache = { code: null, info: null, error: null };
async function showJoin(code, reuse = false) {
  const page = dialog("join-page", "lobby-overlay");
  document.body.classList.add("join-open"); // the join page, not the lobby behind it
  page.dataset.room = code;
  const seq = ++joinSeq;
  const card = el("div", "lobby-sheet join");
  card.append(langButton());
  card.append(el("h2", null, t("joinRoom", code)));
  card.append(el("p", "muted", t("loading")));
  page.replaceChildren(card);
  let info = null, error = null;
  if (reuse && joinCache.code === code) ({ info, error } = joinCache);
  else {
    try { info = await api(`/api/rooms/${encodeURIComponent(code)}`); } catch (e) { error = e; }
    Object.assign(joinCache, { code, info, error });
  }
  if (seq !== joinSeq || page.dataset.room !== code) return;
  card.replaceChildren(langButton(), el("h2", null, t("joinRoom", code)));
  const err = el("p", "error");
  err.id = "join-error";
  err.setAttribute("role", "alert");
  if (error) {
    err.textContent = t("joinFail", error.data ? errText(error.data, error.message) : error.message);
    card.append(err, backButton());
    return;
  }
  card.append(el("p", "invited", t("invitedTo")));
  const sum = el("p", "summary", pick(info.summary));
  sum.id = "join-summary";
  card.append(sum);
  const st = el("p", "status");
  st.append(el("span", null, t("roomStatus") + "："), el("b", null, pick(info.status_label)));
  card.append(st);
  const seats = el("ul", "seat-list");
  seats.id = "join-seats";
  for (const s of info.seats) {
    const li = el("li", s.free ? "free" : s.kind);
    li.append(el("span", "seat-no", t("seatN", s.seat)));
    li.append(el("span", "seat-name", s.free ? t("seatFree") : s.name || ""));
    if (!s.free) li.append(el("span", "seat-kind", s.kind === "bot" ? t("seatBot") : t("seatHuman")));
    seats.append(li);
  }
  card.append(seats);
  const free = info.seats.filter((s) => s.free).length;
  card.append(el("p", "free-count", free ? t("freeSeats", free) : t("noFree")));
  if (free) {
    const ln = el("label", "join-name");
    const nm = el("input");
    nm.id = "join-page-name";
    nm.maxLength = 24;
    nm.placeholder = t("namePh");
    ln.append(el("span", null, t("joinAs")), nm);
    card.append(ln);
    const b = el("button", "primary big", t("joinNow"));
    b.type = "button";
    b.id = "join-page-btn";
    b.addEventListener("click", async () => {
      b.disabled = true;
      err.textContent = "";
      try {
        const r = await api(`/api/rooms/${encodeURIComponent(code)}/join`, nm.value ? { name: nm.value } : {});
        storeSeat(code, r.token, r.seat);
        hideJoin();
        goRoom(code);
      } catch (e) {
        err.textContent = t("joinFail", e.message);
        b.disabled = false;
      }
    });
    card.append(b);
  }
  card.append(err);
  const row = el("div", "row");
  const rb = el("button", null, t("joinRules"));
  rb.type = "button";
  rb.addEventListener("click", () => openRules(code));
  row.append(rb, backButton());
  card.append(row);
}
function hideJoin() {
  const p = $("#join-page");
  if (p) { p.classList.add("hidden"); p.dataset.room = ""; }
  document.body.classList.remove("join-open");
}
function backButton() {
  const b = el("button", null, t("backLobby"));
  b.type = "button";
  b.addEventListener("click", () => { hideJoin(); history.replaceState(null, "", "#/"); location.hash = "#/"; });
  return b;
}
export function langButton() {
  const b = el("button", "lang", t("langSwitch"));
  b.type = "button";
  b.title = t("langSwitchTitle");
  b.addEventListener("click", () => setLang(lang() === "zh" ? "en" : "zh"));
  return b;
}

/* ------------------------------------------------------------ invite card (a room waiting) */
function roomOfHash() {
  const m = /^#\/room\/([A-Za-z0-9]+)/.exec(location.hash);
  return m ? m[1].toUpperCase() : null;
}
let inviteDismissed = null;
function syncInvite() {
  const phase = document.body.dataset.phase;
  const room = roomOfHash();
  const game = $("#game");
  const show = phase === "waiting" && room && seatOf(room) && game && !game.classList.contains("hidden")
    && inviteDismissed !== room;
  let card = $("#invite");
  if (!show) { if (card) card.classList.add("hidden"); return; }
  if (!card) {
    card = el("aside", "invite");
    card.id = "invite";
    document.body.append(card);
  }
  if (card.dataset.room === room && !card.classList.contains("hidden") && card.dataset.lang === lang()) return;
  card.dataset.room = room;
  card.dataset.lang = lang();
  card.classList.remove("hidden");
  const link = `${location.origin}/#/room/${room}`;
  const x = closeButton(() => { inviteDismissed = room; card.classList.add("hidden"); });
  const img = el("img", "qr");
  img.src = `/api/rooms/${room}/qr.svg`;
  img.alt = t("qrAlt", room);
  img.width = 148;
  img.height = 148;
  const a = el("input", "invite-link");
  a.id = "invite-link";
  a.readOnly = true;
  a.value = link;
  a.addEventListener("focus", () => a.select());
  const cp = el("button", "primary", t("copyLink"));
  cp.type = "button";
  cp.id = "copy-link-btn";
  const note = el("span", "copied");
  cp.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      note.textContent = t("copied");
    } catch {
      a.focus();
      a.select();
      try { note.textContent = document.execCommand("copy") ? t("copied") : t("copyFail"); } catch { note.textContent = t("copyFail"); }
    }
  });
  const row = el("div", "row");
  row.append(cp, note);
  const body = el("div", "invite-body");
  body.append(el("p", null, t("inviteHelp")), a, row);
  card.replaceChildren(x, el("h3", null, t("inviteTitle") + " · " + room), img, body);
}

/* ------------------------------------------------------------ buttons on the table */
function installTableButtons() {
  const bar = $("#topbar");
  if (!bar) return;
  let b = $("#table-rules-btn");
  if (!b) {
    b = el("button", "table-extra");
    b.type = "button";
    b.id = "table-rules-btn";
    b.addEventListener("click", () => { const r = roomOfHash(); if (r) openRules(r); });
    const anchor = $("#log-btn", bar);
    if (anchor) anchor.before(b); else bar.append(b);
  }
  b.textContent = t("rulesBtn");
  installPhrases(bar);
  // the language switch on the table too (the same choice as the lobby's, kept in localStorage)
  let lb = $("#table-lang-btn");
  if (!lb) {
    lb = el("button", "table-extra lang");
    lb.type = "button";
    lb.id = "table-lang-btn";
    lb.addEventListener("click", () => setLang(lang() === "zh" ? "en" : "zh"));
    const anchor = $("#leave-btn", bar);
    if (anchor) anchor.before(lb); else bar.append(lb);
  }
  lb.textContent = lang() === "zh" ? "EN" : "中";
  lb.title = t("langSwitchTitle");
  lb.setAttribute("aria-label", t("langSwitchTitle"));
}

/* ------------------------------------------------------------ routing beside app.js */
function route() {
  const h = location.hash.replace(/^#\/?/, "");
  const [kind, arg] = h.split("/");
  if (kind === "room" && arg) {
    const code = arg.toUpperCase();
    if (!seatOf(code)) { showJoin(code); return; }
    hideJoin();
    return;
  }
  hideJoin();
  if (kind === "tutorial") { openTutorial(arg); return; }
  if (kind === "rules" && arg) { openRules(decodeURIComponent(arg)); return; }
  if (!kind) renderMatches();
}

function relabel() {
  buildLobby();
  installTableButtons();
  const jp = $("#join-page");
  if (jp && !jp.classList.contains("hidden") && jp.dataset.room) showJoin(jp.dataset.room, true);
  const inv = $("#invite");
  if (inv) inv.dataset.lang = "";
  syncInvite();
}

async function init() {
  // forms: ours answer first (capture on the document runs before app.js's listeners)
  document.addEventListener("submit", (ev) => {
    if (ev.target && ev.target.id === "create-form" && L.preset) createRoom(ev);
    else if (ev.target && ev.target.id === "join-form") joinByCode(ev);
  }, true);
  window.addEventListener("hashchange", route);
  new MutationObserver(syncInvite).observe(document.body, { attributes: true, attributeFilter: ["data-phase"] });
  window.addEventListener("hashchange", syncInvite);
  onLang(relabel);
  installTableButtons();
  route();
  try {
    const data = await api("/api/presets");
    L.presets = data.presets;
    L.levels = data.levels || [];
    choosePreset(L.presets[0].name);
  } catch (e) {
    const err = $("#lobby-error");
    if (err) err.textContent = t("loadFail", e.message);
  }
  buildLobby();
  document.body.dataset.lobby = "ready"; // for tests
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
