/* app: the client's entry point — the connection to a seat (WS /ws/{ID}?token=T, the
 * `state` messages in, {"type":"act",…} out, reconnection), the one router (#/,
 * #/room/ID, #/replay/HAND, #/tutorial, #/rules/KEY) and the render loop of the live
 * table. Everything shown of the game comes from the server's per-seat `view`.
 * The lobby is lobby.js (friends: invite.js); the table's parts are table.js (board.js draws it), hand.js,
 * claims.js, settlement.js and topbar.js; replays replay.js; the tutorial tutorial.js. */
import { S, $, el, nameOf, settings, saveSettings, seatOf, forgetSeat, touchSeat, send, dispatchSaid } from "./store.js";
import { T, onLang, pick, errText, toggleLang } from "./i18n.js";
import { zh } from "./cards.js";
import { syncLayout, renderHand } from "./hand.js";
import { renderTable, processLog } from "./table.js";
import { mountBoard } from "./board.js";
import { renderActions, setActor, tick, onKey } from "./claims.js";
import { renderSettlement } from "./settlement.js";
import { rememberDeal } from "./fairdeal.js";
import { cue, unlockOnGesture } from "./sound.js";
import { initTopbar } from "./topbar.js";
import { openReplay, replayStep, replaySeek, stopReplay, replaySpeed, replaySeat, rerenderReplay } from "./replay.js";
import { initLobby, renderMatches } from "./lobby.js";
import { showJoin, hideJoin, syncInvite } from "./invite.js";
import { openTutorial } from "./tutorial.js";
import { openRules } from "./rulespage.js";
import { togglePhrases } from "./phrases.js";

function show(id) {
  for (const s of ["lobby", "game", "replay"]) $("#" + s).classList.toggle("hidden", s !== id);
  if (id !== "game") { $("#settlement").classList.add("hidden"); $("#settle-bar").classList.add("hidden"); }
  syncInvite(S.msg && id === "game" ? S.msg.phase : null, S.msg ? freeSeats(S.msg) : 0);
  syncWakeLock();
}
const freeSeats = (m) => m.players.filter((p) => p.kind === "free").length;

const replay = (id) => openReplay(id, show, replayContext());
/** What the table knows about a hand it replays: the seats' names and which one is mine. */
function replayContext() {
  if (S.msg && S.room && !S.leaving && S.msg.players) return { names: S.msg.players.map((p) => p.name || null), seat: S.seat };
  return null;
}

/* ---------------------------------------------------------------- the interface language */
/** Static labels of index.html (data-t / data-t-title / data-t-aria name a key of T). */
function relabel() {
  for (const e of document.querySelectorAll("[data-t]")) { const v = T[e.dataset.t]; if (typeof v === "string") e.textContent = v; }
  for (const e of document.querySelectorAll("[data-t-title]")) { const v = T[e.dataset.tTitle]; if (typeof v === "string") e.title = v; }
  for (const e of document.querySelectorAll("[data-t-aria]")) { const v = T[e.dataset.tAria]; if (typeof v === "string") e.setAttribute("aria-label", v); }
}
onLang(() => {
  relabel();
  syncToggles();
  $("#claim-note").classList.add("hidden"); // (its words were the old language's)
  if (S.msg && !$("#game").classList.contains("hidden")) {
    const mute = settings.mute; // the log is rewritten in the new language, silently
    settings.mute = true;
    S.logHand = null;
    try { processLog(true); } finally { settings.mute = mute; }
    render();
  }
  rerenderReplay();
});

/* ---------------------------------------------------------------- a seat */
function enterRoom(room, token, seat) {
  if (S.ws) { const old = S.ws; S.ws = null; old.close(); }
  Object.assign(S, { room, token, seat, msg: null, hint: null, closeReason: null, layout: [], layoutHand: null,
    selected: null, logHand: null, logN: 0, leaving: false, retry: 0, settleFor: null, settleHidden: false, pendingReady: false,
    wantRematch: false, offset: null, chiOpen: false, askDissolve: false,
    lastSettle: null, missed: null, review: null, readyFor: null, closes: [] });
  if (location.hash !== "#/room/" + room) history.replaceState(null, "", "#/room/" + room);
  guard(room);
  for (const k of ["phase", "hand", "version"]) delete document.body.dataset[k]; // the old room's, until a state comes
  show("game");
  renderSettlement(); // the last room's sheet goes at once, not at this room's first state
  $("#log-list").replaceChildren();
  $("#ticker").replaceChildren();
  connect();
}

/** 离开 asks first: a player who leaves by mistake thinks the match is lost. What happens
 * next depends on who stays: with another human at the table the match goes on (a bot
 * plays the seat); with nobody else the server waits (turn timers run only while a human
 * is connected), so the match is where it was when the player comes back. */
function askLeave() {
  const others = (S.msg?.players || []).some((p) => p.kind === "human" && p.seat !== S.seat && p.connected);
  $("#leave-note").textContent = others ? T.leaveNote : T.leaveNoteAlone;
  $("#leave-confirm").classList.remove("hidden");
  $("#leave-stay").focus();
}
function leave() {
  $("#leave-confirm").classList.add("hidden");
  if (S.room) touchSeat(S.room); // 我的牌局 lists it first
  S.leaving = true;
  if (S.ws) S.ws.close();
  if (history.state?.phzGuard) { S.afterBack = "#/"; history.back(); return; } // off the guard (below)
  history.replaceState(null, "", "#/");
  route();
}

/* The sheets Back closes (the table's, and the lobby's tutorial and rules page), top
   first, with what closes each; then the 快捷语 panel, the ⋯ menu and the 吃 picker:
   Back closes the one on top, as a phone's Back does in an app. */
const SHEETS = [["#leave-confirm", "#leave-stay"], ["#rules-page", "#rules-close"], ["#tutorial", "#tut-close"],
  ["#log", "#log-close"]];
function closeSheet() { // the sheet on top, as its × closes it: true if one was open
  for (const [sheet, close] of SHEETS) {
    const e = $(sheet);
    if (e && !e.classList.contains("hidden") && $(close)) { $(close).click(); return true; }
  }
  if ($("#phrases") && !$("#phrases").classList.contains("hidden")) { $("#phrases").classList.add("hidden"); return true; }
  return false;
}
function closeTopSheet() {
  if (closeSheet()) return true;
  if ($("#topbar").classList.contains("menu-open")) { $("#menu-btn").click(); return true; }
  if (S.chiOpen) { S.chiOpen = false; rerender(); return true; }
  return false;
}

/* Back at a table. Entering a room pushes a guard entry (the same address, state
   {phzGuard}) over the room's own: Back from it lands on the room's entry — no hashchange,
   only a popstate — and the table stays: the sheet on top closes, else 离开 asks first, as
   its button does; the guard is pushed again. 离开 steps back off the guard, then goes to
   the lobby. A typed address or a link (another hash) is routed as ever. */
function guard(room) {
  if (history.state?.phzGuard !== room) history.pushState({ phzGuard: room }, "", "#/room/" + room);
}
function onPopState(ev) {
  if (S.selfPop) { S.selfPop = false; return; } // a sheet closed by its button stepped off its entry
  if (S.afterBack !== null) { const to = S.afterBack; S.afterBack = null; history.replaceState(null, "", to); route(); return; }
  const here = S.room && !S.leaving && !$("#game").classList.contains("hidden");
  const offGuard = here && !ev.state?.phzGuard && location.hash === "#/room/" + S.room;
  if (offGuard) guard(S.room);
  if (!closeTopSheet() && offGuard) askLeave(); // a sheet (lobby's or table's) closes first
}

/* ---------------------------------------------------------------- websocket */
const FIRST_STATE_MS = 8000;
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${S.room}?token=${encodeURIComponent(S.token)}`);
  S.ws = ws;
  // the server answers a connection with the table at once: a socket silent this long
  // (a handshake lost on the way, a proxy holding it) is closed and made again
  const silent = setTimeout(() => { if (S.ws === ws) ws.close(); }, FIRST_STATE_MS);
  ws.onopen = () => { if (settings.hints) send({ type: "hints", on: true }); };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { clearTimeout(silent); S.retry = 0; onState(m); }
    else if (m.type === "hint") { S.hint = m; renderHint(); }
    else if (m.type === "said") dispatchSaid(m);
    else if (m.type === "error") onError(m);
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws || S.leaving) return;
    // why the table did not come (a failed browser test shows it): the last few closes
    S.closes = [...S.closes.slice(-4), { code: ev.code, reason: S.closeReason, ms: Math.round(performance.now()) }];
    if (ev.code === 4401 || ev.code === 4404 || ev.code === 4403) {
      if (ev.code !== 4403) forgetSeat(S.room);
      show("lobby");
      $("#lobby-error").textContent = S.closeReason || (ev.code === 4404 ? T.noRoom : T.badToken);
      return;
    }
    if (ev.code === 4409) { status(S.closeReason || T.replacedElsewhere); return; } // the newer tab plays
    status(T.reconnecting);
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(() => { if (S.ws === ws && !S.leaving) connect(); }, 300 * 2 ** S.retry);
  };
}

/** Draw the table again from S.msg (tests, and a change of language). */
export function rerender() { if (S.msg) render(); }
function act(id) {
  if (!S.msg) return;
  if (id === "ready") S.readyFor = S.msg.hand_id; // this settlement was seen
  S.lastAct = S.msg.version; // my own choice: nothing was taken from me
  if (!send({ type: "act", version: S.msg.version, action: id })) {
    // mid-reconnection: 准备 is kept and sent when the table is back (it stays the
    // same choice); a move is not, as the table may have moved on meanwhile
    if (id === "ready") S.pendingReady = true;
    status(T.reconnecting);
  }
  S.selected = null;
  S.chiOpen = false;
}
setActor(act);

function onError(m) {
  if (m.code === "stale_version") return; // a newer state is on its way
  if (["bad_token", "unknown_room", "bad_origin", "replaced"].includes(m.code)) { S.closeReason = errText(m, m.message); return; }
  status("⚠ " + errText(m, m.message || m.code));
}

/** One line of connection / error news in the status strip (never over the table). */
function status(text) {
  const s = $("#status");
  s.textContent = text;
  s.style.top = Math.round($("#game:not(.hidden) #topbar")?.getBoundingClientRect().bottom ?? 0) + 4 + "px";
  s.classList.remove("hidden");
  clearTimeout(S.statusTimer);
  S.statusTimer = setTimeout(() => s.classList.add("hidden"), 4000);
}

/* ---------------------------------------------------------------- state */
/** A state from the socket (exported for tests: the table's reaction to a given state). */
export function receive(m) { onState(m); }

const CLAIMS = ["hu", "peng", "chi"];
const TAKES = ["hu", "peng", "chi", "pao", "ti", "wei"];
/** My claim is gone without my choosing (another seat's 碰 / 胡 took the card): say who
 * took it, at the buttons, for a few seconds. */
function noteLostClaim(prev, m) {
  const had = prev && prev.hand_id === m.hand_id && prev.phase === "playing"
    && prev.legal_actions.filter((a) => CLAIMS.includes(a.type));
  if (!had || !had.length || !m.view || !prev.view || S.lastAct === prev.version) return;
  if (m.legal_actions.some((a) => CLAIMS.includes(a.type) && a.card === had[0].card)) return;
  const card = had[0].card;
  const took = m.view.log.slice(prev.view.log.length)
    .find((e) => TAKES.includes(e.type) && e.seat !== S.seat && (!e.card || e.card === card));
  if (!took) return;
  const n = $("#claim-note");
  n.textContent = T.claimTaken(nameOf(took.seat), T.act[took.type] || T.kinds[took.type] || took.type, zh(took.card || card));
  n.classList.remove("hidden");
  clearTimeout(S.noteTimer);
  S.noteTimer = setTimeout(() => n.classList.add("hidden"), 3500);
}

function onState(m) {
  noteLostClaim(S.msg, m);
  const first = !S.msg || S.msg.hand_id !== m.hand_id;
  const wasMine = S.msg && S.msg.phase === "playing" && S.msg.legal_actions.length > 0;
  S.msg = m;
  rememberDeal(m);
  // the largest offset seen is the one least delayed by the network
  const off = m.server_time - Date.now() / 1000;
  S.offset = S.offset === null ? off : Math.max(S.offset, off);
  document.body.dataset.version = String(m.version); // for tests and debugging
  document.body.dataset.phase = m.phase;
  document.body.dataset.hand = m.hand_id || "";
  if (m.phase !== "settlement" && m.phase !== "finished") S.settleHidden = false;
  noteMissedSettlement(m);
  if (m.rematch && S.wantRematch) { goRematch(); return; }
  processLog(first);
  if (S.pendingReady && m.legal_actions.some((a) => a.id === "ready")) { S.pendingReady = false; act("ready"); }
  if (m.phase !== "settlement") S.pendingReady = false;
  if (!wasMine && m.phase === "playing" && m.legal_actions.length) {
    cue("turn");
    if (settings.vibrate && navigator.vibrate) navigator.vibrate(120); // my turn, felt in the hand
  }
  render();
}

function render() {
  const m = S.msg;
  $("#room-label").textContent = T.room(m.room);
  $("#hand-label").textContent = T.handOf(T.rules[m.rules] || m.rules, Math.max(m.hand_index, 1), m.hands);
  const free = freeSeats(m);
  $("#waiting").classList.toggle("hidden", m.phase !== "waiting");
  $("#waiting").textContent = free ? T.waitFriends(free, m.room, `${location.origin}/#/room/${m.room}`) : T.allSeated;
  $("#away-banner").classList.toggle("hidden", !m.away);
  renderWaitingChoices();
  if (m.view) syncLayout(m.view); else S.layout = [];
  renderTable(hooks);
  renderActions(changed);
  renderHint();
  renderSettlement();
  renderDissolve();
  syncInvite(m.phase, free);
  syncWakeLock();
  tick();
}

/** Before the match starts every legal choice (准备, …) is a button under the banner. */
function renderWaitingChoices() {
  const m = S.msg;
  const box = $("#waiting-actions");
  const acts = m.phase === "waiting" ? m.legal_actions || [] : [];
  box.classList.toggle("hidden", !acts.length);
  box.replaceChildren();
  for (const a of acts) {
    const b = el("button", a.id === "ready" ? "primary" : null, T.choiceLabel[a.id] || a.label || a.id);
    b.type = "button";
    b.dataset.actionId = a.id;
    b.addEventListener("click", () => act(a.id));
    box.append(b);
  }
}

function changed() { renderHand(hooks); renderActions(changed); renderHint(); }
const hooks = { changed, discard: (id) => act(id) };

/** 提示 (optional): the suggested choice is outlined and its reason shown. */
function renderHint() {
  const h = $("#hint");
  const m = S.msg;
  document.querySelectorAll(".hinted").forEach((x) => x.classList.remove("hinted"));
  if (!settings.hints || !m || m.phase !== "playing" || !m.legal_actions.length) { h.classList.add("hidden"); return; }
  h.classList.remove("hidden");
  const x = S.hint && S.hint.version === m.version ? S.hint.hint : null; // a hint follows its state
  if (x === undefined || x === null) { h.textContent = T.hintThinking; return; }
  if (typeof x !== "object") { h.textContent = T.hintPrefix + x; return; }
  let text = T.hintPrefix + ((x.reason && pick(x.reason)) || x.label || "");
  if (x.tingpai && x.tingpai.length) text += `\u3000${T.ting} ` + x.tingpai.map((tp) => T.tingItem(tp.zh || zh(tp.card), tp.huxi)).join(" ");
  h.textContent = text;
  if (!x.action) return;
  if (x.action.startsWith("discard:")) {
    const c = $(`#hand .card.legal[data-card="${x.action.slice(8)}"]`);
    if (c) c.classList.add("hinted");
  } else {
    const b = $(`#actions [data-action-id="${CSS.escape(x.action)}"], #chi-picker [data-action-id="${CSS.escape(x.action)}"]`);
    if (b) b.classList.add("hinted");
    else if (x.action.startsWith("chi:") && $("#chi-btn")) $("#chi-btn").classList.add("hinted");
  }
}

/* ---------------------------------------------------------------- a settlement 托管 skipped */
/** The server readies a seat on 托管 at once, so the next hand can follow a settlement
 * its player never saw: the last one is kept and offered (查看上一局结算) until the next. */
function noteMissedSettlement(m) {
  if (m.phase === "settlement" && m.result) S.lastSettle = m;
  const last = S.lastSettle;
  if (m.phase === "playing" && last && last.hand_id !== m.hand_id && S.readyFor !== last.hand_id) {
    S.missed = last;
    S.lastSettle = null;
  }
  if (m.phase !== "playing") S.missed = S.review = null; // this hand's own sheet comes first
  $("#missed-banner").classList.toggle("hidden", !S.missed);
}
function showMissed(on) {
  S.review = on ? S.missed : null;
  if (!on) { S.missed = null; $("#missed-banner").classList.add("hidden"); }
  renderSettlement();
}

/* ---------------------------------------------------------------- the installed app */
/** Keep the screen on while a hand is played (Screen Wake Lock, where the browser has
 * it); the browser drops the lock when the page is hidden: asked again when it is back. */
function syncWakeLock() {
  const want = !!(S.msg && S.msg.phase === "playing" && !S.leaving && document.visibilityState === "visible"
    && !$("#game").classList.contains("hidden"));
  if (want && !S.wake && !S.wakeAsked && navigator.wakeLock) {
    S.wakeAsked = true;
    navigator.wakeLock.request("screen").then((lock) => {
      S.wake = lock;
      lock.addEventListener("release", () => { S.wake = null; });
      if (!S.msg || S.msg.phase !== "playing") lock.release();
    }).catch(() => { /* refused (battery saver, no user gesture yet): the screen may sleep */ })
      .finally(() => { S.wakeAsked = false; });
  } else if (!want && S.wake) {
    S.wake.release().catch(() => {});
    S.wake = null;
  }
}
function registerWorker() {
  if (!("serviceWorker" in navigator)) return; // http on a LAN address: no worker, no offline
  navigator.serviceWorker.register("/sw.js").catch(() => { /* the app works without it */ });
}

/* ---------------------------------------------------------------- 解散房间 */
/** The vote every seat sees while it is open (the state's `dissolve`); asking first shows
 * the same dialog as a confirmation (S.askDissolve). A refusal is said once. */
function renderDissolve() {
  const m = S.msg, box = $("#dissolve-vote");
  const v = m && m.phase !== "finished" ? m.dissolve : null;
  const refused = v && v.refused_by !== undefined && v.refused_by !== null;
  if (refused && S.refusedSaid !== v.deadline) { S.refusedSaid = v.deadline; status(T.dissolveRefused(nameOf(v.refused_by))); }
  const open = v && !refused;
  const asking = S.askDissolve && !open && m && ["playing", "settlement"].includes(m.phase);
  box.classList.toggle("hidden", !open && !asking);
  document.body.dataset.dissolve = open ? "open" : ""; // for tests
  if (!open && !asking) return;
  const yes = $("#dissolve-yes"), no = $("#dissolve-no"), list = $("#dissolve-votes");
  list.replaceChildren();
  if (asking) {
    $("#dissolve-title").textContent = T.dissolveAskTitle;
    $("#dissolve-note").textContent = T.dissolveAskNote;
    $("#dissolve-left").textContent = "";
    yes.textContent = T.dissolveAsk;
    no.textContent = T.cancel;
    yes.classList.remove("hidden");
    no.classList.remove("hidden");
    return;
  }
  $("#dissolve-title").textContent = T.dissolveTitle(nameOf(v.by));
  $("#dissolve-note").textContent = "";
  v.votes.forEach((x, s) => {
    const li = el("li", x === true ? "yes" : x === false ? "no" : "wait");
    li.dataset.seat = String(s);
    li.append(el("span", "who", nameOf(s)), el("span", "vote", x === true ? T.voteYes : x === false ? T.voteNo : T.voteWait));
    list.append(li);
  });
  const mine = v.votes[S.seat];
  yes.textContent = T.dissolveAgree;
  no.textContent = T.dissolveRefuse;
  yes.classList.toggle("hidden", mine !== null);
  no.classList.toggle("hidden", mine !== null);
  if (mine !== null) $("#dissolve-note").textContent = T.dissolveWaiting;
  tickDissolve();
}
function tickDissolve() {
  const m = S.msg;
  const v = m && m.dissolve;
  if (!v || $("#dissolve-vote").classList.contains("hidden")) return;
  const left = Math.max(0, Math.ceil(v.deadline - (Date.now() / 1000 + (S.offset || 0))));
  $("#dissolve-left").textContent = T.dissolveLeft(left);
}
function answerDissolve(agree) {
  const v = S.msg && S.msg.dissolve;
  const open = v && (v.refused_by === undefined || v.refused_by === null);
  if (!open && S.askDissolve) { S.askDissolve = false; if (agree) send({ type: "dissolve", agree: true }); }
  else if (open) send({ type: "dissolve", agree });
  renderDissolve();
}

/* ---------------------------------------------------------------- match end */
function rematch() {
  S.wantRematch = true;
  if (S.msg && S.msg.rematch) goRematch(); else act("rematch");
}
function goRematch() { // the same seat (and token) in the new room
  const code = S.msg.rematch;
  S.leaving = true;
  enterRoom(code, S.token, S.seat);
}

function closeReplay() {
  stopReplay();
  if (S.room && S.token && !S.leaving) { show("game"); history.replaceState(null, "", "#/room/" + S.room); render(); }
  else { history.replaceState(null, "", "#/"); route(); }
}

/* ---------------------------------------------------------------- the router */
function route() {
  const h = location.hash.replace(/^#\/?/, "");
  const [kind, arg] = h.split("/");
  if (kind === "room" && arg) {
    const code = arg.toUpperCase();
    const seat = seatOf(code);
    if (seat) { hideJoin(); touchSeat(code); enterRoom(code, seat.token, seat.seat); return; }
    show("lobby");
    showJoin(code); // an invite: the room's rules and seats, and 加入
    return;
  }
  hideJoin();
  if (kind === "replay" && arg) { S.leaving = true; replay(decodeURIComponent(arg)); return; }
  show("lobby");
  if (kind === "tutorial") openTutorial(arg);
  else if (kind === "rules" && arg) openRules(decodeURIComponent(arg));
  else renderMatches();
}

function syncToggles() {
  $("#hints-toggle").checked = settings.hints;
  $("#mute-btn").textContent = settings.mute ? T.muted : T.sound;
  $("#mute-btn").setAttribute("aria-pressed", String(settings.mute));
  $("#mute-btn").classList.toggle("off", settings.mute);
  $("#voice-toggle").checked = settings.voice;
  $("#vibrate-toggle").checked = settings.vibrate;
}

function wire() {
  mountBoard($("#table"), { live: true });
  relabel();
  syncToggles();
  unlockOnGesture();
  initTopbar();
  $("#leave-btn").addEventListener("click", askLeave);
  $("#dissolve-btn").addEventListener("click", () => {
    $("#leave-confirm").classList.add("hidden");
    S.askDissolve = true;
    renderDissolve();
  });
  $("#dissolve-yes").addEventListener("click", () => answerDissolve(true));
  $("#dissolve-no").addEventListener("click", () => answerDissolve(false));
  $("#leave-go").addEventListener("click", leave);
  $("#leave-stay").addEventListener("click", () => $("#leave-confirm").classList.add("hidden"));
  $("#log-btn").addEventListener("click", () => $("#log").classList.toggle("hidden"));
  $("#log-close").addEventListener("click", () => $("#log").classList.add("hidden"));
  $("#resume-btn").addEventListener("click", () => send({ type: "resume" }));
  $("#table-rules-btn").addEventListener("click", () => S.room && openRules(S.room)); // the room's own rules
  $("#phrases-btn").addEventListener("click", togglePhrases);
  $("#table-lang-btn").addEventListener("click", toggleLang);
  $("#hints-toggle").addEventListener("change", (ev) => {
    settings.hints = ev.target.checked;
    saveSettings();
    send({ type: "hints", on: settings.hints });
    renderHint();
  });
  $("#mute-btn").addEventListener("click", () => { settings.mute = !settings.mute; saveSettings(); syncToggles(); });
  $("#voice-toggle").addEventListener("change", (ev) => { settings.voice = ev.target.checked; saveSettings(); });
  $("#vibrate-toggle").addEventListener("change", (ev) => { settings.vibrate = ev.target.checked; saveSettings(); });
  document.addEventListener("visibilitychange", syncWakeLock);
  for (const id of ["#ready-btn", "#bar-ready-btn"]) $(id).addEventListener("click", () => act("ready"));
  $("#settle-hide-btn").addEventListener("click", () => { S.settleHidden = true; renderSettlement(); });
  $("#settle-show-btn").addEventListener("click", () => { S.settleHidden = false; renderSettlement(); });
  $("#settle-replay-btn").addEventListener("click", () => { const m = S.review || S.msg; if (m) replay(m.hand_id); });
  $("#missed-settle-btn").addEventListener("click", () => showMissed(true));
  $("#missed-close").addEventListener("click", () => showMissed(false));
  $("#settle-close-btn").addEventListener("click", () => showMissed(false));
  document.addEventListener("phz:replay", (ev) => { if (ev.detail) replay(ev.detail); });
  $("#rematch-btn").addEventListener("click", rematch);
  $("#lobby-btn").addEventListener("click", leave);
  document.querySelectorAll("#replay-controls [data-step]").forEach((b) => b.addEventListener("click", () => replayStep(b.dataset.step)));
  $("#replay-slider").addEventListener("input", (ev) => replaySeek(parseInt(ev.target.value, 10)));
  $("#replay-speed").addEventListener("change", (ev) => replaySpeed(parseFloat(ev.target.value)));
  $("#replay-seat").addEventListener("change", (ev) => replaySeat(ev.target.value));
  $("#replay-close").addEventListener("click", closeReplay);
  document.addEventListener("keydown", (ev) => onKey(ev, hooks));
  // Escape closes the sheet on top (the menu and the 吃 picker close on their own keys)
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && closeSheet()) ev.preventDefault(); });
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", onPopState);
  setInterval(() => { tick(); tickDissolve(); }, 250);
  initLobby();
  route();
  registerWorker();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
else wire();
