/* 跑胡子 web client — plain ES modules, no build step.
 * Talks INTERFACES.md §5: POST /api/rooms, POST /api/rooms/{ID}/join, WS /ws/{ID}?token=T
 * ({"type":"state",…} in, {"type":"act","version":n,"action":id} out), GET /api/replays/{hand}.
 * Everything shown of the game comes from the server's per-seat `view`.
 * Modules: store (strings, settings, session), cards, hand, table, claims, settlement,
 * sound, replay, topbar; this one: lobby, connection, routing and the render loop. */
import { T, S, $, el, settings, saveSettings, saveSession, loadSession } from "./store.js";
import { onLang, pick, errText, api } from "./i18n.js";
import { cardEl, zh } from "./cards.js";
import { syncLayout, renderHand } from "./hand.js";
import { renderSeats, renderCenter, processLog } from "./table.js";
import { renderActions, setActor, tick, onKey } from "./claims.js";
import { renderSettlement } from "./settlement.js";
import { cue, unlockOnGesture } from "./sound.js";
import { initTopbar } from "./topbar.js";
import { openReplay, replayStep, replaySeek, stopReplay, replaySpeed, replaySeat, rerenderReplay } from "./replay.js";

function show(id) {
  for (const s of ["lobby", "game", "replay"]) $("#" + s).classList.toggle("hidden", s !== id);
  if (id !== "game") { $("#settlement").classList.add("hidden"); $("#settle-bar").classList.add("hidden"); }
}

const replay = (id) => openReplay(id, api, show, replayContext(id));
/** What the table knows about a hand it replays: the seats' names and which one is mine. */
function replayContext(id) {
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
  if (S.msg && !$("#game").classList.contains("hidden")) {
    const mute = settings.mute; // the log is rewritten in the new language, silently
    settings.mute = true;
    S.logHand = null;
    try { processLog(true); } finally { settings.mute = mute; }
    render();
  }
  rerenderReplay();
});

/* ---------------------------------------------------------------- lobby */
function fillBots() {
  const players = $("#rules").value === "luzhou" ? 4 : 3;
  const sel = $("#bots");
  sel.replaceChildren();
  for (let i = players - 1; i >= 0; i--) {
    const o = el("option", null, i === players - 1 ? `${i} 个 (人机对战)` : `${i} 个 (留 ${players - 1 - i} 座给朋友)`);
    o.value = String(i);
    sel.append(o);
  }
}

async function createRoom(ev) {
  ev.preventDefault();
  $("#lobby-error").textContent = "";
  try {
    const r = await api("/api/rooms", {
      rules: $("#rules").value, bots: parseInt($("#bots").value, 10), bot: $("#bot").value,
      hands: parseInt($("#hands").value, 10) || undefined, name: $("#name").value || undefined,
    });
    enterRoom(r.room, r.token, r.seat);
  } catch (e) { $("#lobby-error").textContent = T.createFail(e.message); }
}

async function joinRoom(ev) {
  ev.preventDefault();
  $("#lobby-error").textContent = "";
  const code = $("#join-room").value.trim().toUpperCase();
  if (!code) return;
  const old = loadSession(code);
  if (old) { enterRoom(code, old.token, old.seat); return; }
  try {
    const r = await api(`/api/rooms/${code}/join`, { name: $("#join-name").value || undefined });
    enterRoom(code, r.token, r.seat);
  } catch (e) { $("#lobby-error").textContent = T.joinFail(e.message); }
}

function enterRoom(room, token, seat) {
  if (S.ws) { const old = S.ws; S.ws = null; old.close(); }
  Object.assign(S, { room, token, seat, msg: null, hint: null, closeReason: null, layout: [], layoutHand: null,
    selected: null, logHand: null, logN: 0, leaving: false, retry: 0, settleFor: null, settleHidden: false, pendingReady: false,
    openKey: null, wantRematch: false, offset: null, chiOpen: false });
  saveSession();
  if (location.hash !== "#/room/" + room) history.replaceState(null, "", "#/room/" + room);
  show("game");
  $("#log-list").replaceChildren();
  $("#ticker").replaceChildren();
  connect();
}

function leave() {
  S.leaving = true;
  if (S.ws) S.ws.close();
  history.replaceState(null, "", "#/");
  show("lobby");
}

/* ---------------------------------------------------------------- websocket */
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${S.room}?token=${encodeURIComponent(S.token)}`);
  S.ws = ws;
  ws.onopen = () => { if (settings.hints) send({ type: "hints", on: true }); };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { S.retry = 0; onState(m); }
    else if (m.type === "hint") { S.hint = m; renderHint(); }
    else if (m.type === "said") dispatchSaid(m);
    else if (m.type === "error") onError(m);
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws || S.leaving) return;
    if (ev.code === 4401 || ev.code === 4404 || ev.code === 4403) {
      if (ev.code !== 4403) localStorage.removeItem("phz:" + S.room);
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

/** Send one message on the table's socket; false when it is not open. */
export function send(obj) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
  S.ws.send(JSON.stringify(obj));
  return true;
}
const saidHandlers = new Set();
/** Call `handler(msg)` for every {"type":"said",…} the table's socket brings; returns an unhook. */
export function onSaid(handler) { saidHandlers.add(handler); return () => saidHandlers.delete(handler); }
export function dispatchSaid(m) { for (const f of saidHandlers) { try { f(m); } catch (e) { console.error(e); } } }
/** Draw the table again from S.msg (tests, and a change of language). */
export function rerender() { if (S.msg) render(); }
function act(id) {
  if (!S.msg) return;
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
  s.classList.remove("hidden");
  clearTimeout(S.statusTimer);
  S.statusTimer = setTimeout(() => s.classList.add("hidden"), 4000);
}

/* ---------------------------------------------------------------- state */
function onState(m) {
  const first = !S.msg || S.msg.hand_id !== m.hand_id;
  const wasMine = S.msg && S.msg.phase === "playing" && S.msg.legal_actions.length > 0;
  S.msg = m;
  // the largest offset seen is the one least delayed by the network
  const off = m.server_time - Date.now() / 1000;
  S.offset = S.offset === null ? off : Math.max(S.offset, off);
  document.body.dataset.version = String(m.version); // for tests and debugging
  document.body.dataset.phase = m.phase;
  document.body.dataset.hand = m.hand_id || "";
  if (m.phase !== "settlement" && m.phase !== "finished") S.settleHidden = false;
  if (m.rematch && S.wantRematch) { goRematch(); return; }
  processLog(first);
  if (S.pendingReady && m.legal_actions.some((a) => a.id === "ready")) { S.pendingReady = false; act("ready"); }
  if (m.phase !== "settlement") S.pendingReady = false;
  if (!wasMine && m.phase === "playing" && m.legal_actions.length) cue("turn");
  render();
}

function render() {
  const m = S.msg;
  const v = m.view;
  $("#room-label").textContent = T.room(m.room);
  $("#hand-label").textContent = T.handOf(T.rules[m.rules] || m.rules, Math.max(m.hand_index, 1), m.hands);
  $("#wall-label").textContent = v ? T.wall(v.wall) : "";
  const lz = $("#lz-label");
  lz.replaceChildren();
  if (v) {
    lz.append(T.liang + " ", cardEl(v.liangzhang || null, "mini"));
    if (v.bottom) lz.append(" " + T.bottomCard + " ", cardEl(v.bottom, "mini"));
  }
  const free = m.players.filter((p) => p.kind === "free").length;
  $("#waiting").classList.toggle("hidden", m.phase !== "waiting");
  $("#waiting").textContent = T.waitFriends(free, m.room, `${location.origin}/#/room/${m.room}`);
  $("#away-banner").classList.toggle("hidden", !m.away);
  renderWaitingChoices();
  if (v) syncLayout(v); else S.layout = [];
  renderSeats();
  renderMine();
  renderCenter();
  renderHand(hooks);
  renderActions(changed);
  renderHint();
  renderSettlement();
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

/** 当前胡息 (R33) and, while you wait, 听: the cards that win, with their 胡息. */
function renderMine() {
  const m = S.msg, v = m.view;
  $("#huxi-value").textContent = v ? String(v.huxi) : "0";
  const t = $("#ting");
  t.replaceChildren();
  const ting = m.tingpai || [];
  t.classList.toggle("hidden", !ting.length);
  if (ting.length) {
    t.append(el("span", "ting-label", T.ting));
    for (const x of ting) {
      const w = el("span", "ting-item");
      w.append(cardEl(x.card, "mini"), el("span", null, String(x.huxi ?? x.huxi_zimo ?? "")));
      t.append(w);
    }
  }
}

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
  if (x.tingpai && x.tingpai.length) text += `　${T.ting} ` + x.tingpai.map((t) => T.tingItem(t.zh || zh(t.card), t.huxi)).join(" ");
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
  else { history.replaceState(null, "", "#/"); show("lobby"); }
}

/* ---------------------------------------------------------------- wiring */
function route() {
  const h = location.hash.replace(/^#\/?/, "");
  const [kind, arg] = h.split("/");
  if (kind === "room" && arg) {
    const code = arg.toUpperCase();
    const sess = loadSession(code);
    if (sess) { enterRoom(code, sess.token, sess.seat); return; }
    show("lobby");
    $("#join-room").value = code;
    return;
  }
  if (kind === "replay" && arg) { S.leaving = true; replay(decodeURIComponent(arg)); return; }
  show("lobby");
}

function syncToggles() {
  $("#hints-toggle").checked = settings.hints;
  $("#mute-btn").textContent = settings.mute ? T.muted : T.sound;
  $("#mute-btn").setAttribute("aria-pressed", String(settings.mute));
  $("#mute-btn").classList.toggle("off", settings.mute);
  $("#voice-toggle").checked = settings.voice;
}

function wire() {
  relabel();
  fillBots();
  syncToggles();
  unlockOnGesture();
  initTopbar();
  $("#rules").addEventListener("change", fillBots);
  $("#create-form").addEventListener("submit", createRoom);
  $("#join-form").addEventListener("submit", joinRoom);
  $("#replay-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const id = $("#replay-id").value.trim();
    if (id) { S.leaving = true; replay(id); }
  });
  $("#leave-btn").addEventListener("click", leave);
  $("#log-btn").addEventListener("click", () => $("#log").classList.toggle("hidden"));
  $("#log-close").addEventListener("click", () => $("#log").classList.add("hidden"));
  $("#resume-btn").addEventListener("click", () => send({ type: "resume" }));
  $("#hints-toggle").addEventListener("change", (ev) => {
    settings.hints = ev.target.checked;
    saveSettings();
    send({ type: "hints", on: settings.hints });
    renderHint();
  });
  $("#mute-btn").addEventListener("click", () => { settings.mute = !settings.mute; saveSettings(); syncToggles(); });
  $("#voice-toggle").addEventListener("change", (ev) => { settings.voice = ev.target.checked; saveSettings(); });
  for (const id of ["#ready-btn", "#bar-ready-btn"]) $(id).addEventListener("click", () => act("ready"));
  $("#settle-hide-btn").addEventListener("click", () => { S.settleHidden = true; renderSettlement(); });
  $("#settle-show-btn").addEventListener("click", () => { S.settleHidden = false; renderSettlement(); });
  $("#settle-replay-btn").addEventListener("click", () => S.msg && replay(S.msg.hand_id));
  document.addEventListener("phz:replay", (ev) => { if (ev.detail) replay(ev.detail); });
  $("#rematch-btn").addEventListener("click", rematch);
  $("#lobby-btn").addEventListener("click", leave);
  document.querySelectorAll("#replay-controls [data-step]").forEach((b) => b.addEventListener("click", () => replayStep(b.dataset.step)));
  $("#replay-slider").addEventListener("input", (ev) => replaySeek(parseInt(ev.target.value, 10)));
  $("#replay-speed").addEventListener("change", (ev) => replaySpeed(parseFloat(ev.target.value)));
  $("#replay-seat").addEventListener("change", (ev) => replaySeat(ev.target.value));
  $("#replay-close").addEventListener("click", closeReplay);
  document.addEventListener("keydown", (ev) => onKey(ev, hooks));
  window.addEventListener("hashchange", route);
  setInterval(tick, 250);
  route();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
else wire();
