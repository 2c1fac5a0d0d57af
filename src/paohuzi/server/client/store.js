/* store: what the modules share — the table's session S and its socket (`send`, the
 * "said" hooks), what this browser keeps (settings; the hand's arrangement; the seats it
 * holds, `phz:ROOM` = {token, seat}; a replay's seat names for the tab: each key written
 * only here), going to a room, DOM helpers, and how a seat's name is shown. Strings are
 * in strings.*.js (i18n.js `T`). */
import { T, toggleLang } from "./i18n.js";

/* ------------------------------------------------------------ settings (localStorage) */
const SETTINGS_KEY = "phz:settings";
const DEFAULTS = { hints: false, mute: false, voice: true, vibrate: true };

function loadSettings() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") }; } catch { return { ...DEFAULTS }; }
}
export function saveSettings() { localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); }
export const settings = loadSettings();

/** The hand arrangement survives a reload: kept per room, for the hand it belongs to. */
export function saveLayout(room, handId, layout) {
  localStorage.setItem("phz:layout:" + room, JSON.stringify({ hand: handId, layout }));
}
export function loadLayout(room, handId) {
  try {
    const x = JSON.parse(localStorage.getItem("phz:layout:" + room) || "null");
    return x && x.hand === handId && Array.isArray(x.layout) ? x.layout : null;
  } catch { return null; }
}

/* ------------------------------------------------------------ the seats this browser holds */
const SEAT_KEY = /^phz:([A-Z0-9]{4,16})$/;
export function storeSeat(room, token, seat) {
  localStorage.setItem("phz:" + room, JSON.stringify({ token, seat, at: Date.now() }));
}
/** The seat in `room` was just used (left, or sat at): it comes first in mySeats(). */
export function touchSeat(room) {
  const s = seatOf(room);
  if (s) storeSeat(room, s.token, s.seat);
}
/** The seat held in `room` ({token, seat}), or null. */
export function seatOf(room) {
  try {
    const x = JSON.parse(localStorage.getItem("phz:" + room) || "null");
    return x && typeof x.token === "string" ? x : null;
  } catch { return null; }
}
export function forgetSeat(room) { localStorage.removeItem("phz:" + room); }
/** Every seat this browser holds: [{room, token, seat, at}], the last used first (the
 * server reads only the first 50: a player of many matches must find the newest). */
export function mySeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const m = SEAT_KEY.exec(localStorage.key(i) || "");
    const s = m && seatOf(m[1]);
    if (s) out.push({ room: m[1], ...s });
  }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0));
}

/** Go to the table of `room` (app.js's router sits down with the stored seat, or opens the
 * join page); the hash is made to change even when it names the room already. */
export function goRoom(room) {
  if (location.hash === "#/room/" + room) history.replaceState(null, "", "#/");
  location.hash = "#/room/" + room;
}

/** What 我的牌局 knows of a hand it opens a replay of ({names, seat}), for this tab only. */
export function keepReplayContext(handId, ctx) {
  try { sessionStorage.setItem("phz:replayctx:" + handId, JSON.stringify(ctx)); } catch { /* storage off: seats by number */ }
}
export function replayContext(handId) {
  try { return JSON.parse(sessionStorage.getItem("phz:replayctx:" + handId) || "null"); } catch { return null; }
}

/* ------------------------------------------------------------ the session and its socket */
export const S = {
  room: null, token: null, seat: null, ws: null, msg: null, retry: 0, closes: [], leaving: false, afterBack: null, selfPop: false,
  layout: [], layoutHand: null, selected: null, logHand: null, logN: 0, offset: null,
  chiOpen: false, settleHidden: false, pendingReady: false, settleFor: null, hint: null, wantRematch: false,
};

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

/* ------------------------------------------------------------ DOM helpers */
export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
/** A button of `type="button"` (never a form's submit). */
export function button(cls, text, onClick) {
  const b = el("button", cls, text);
  b.type = "button";
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

/** The page's dialog `id` (made once, as a `cls` section; `init` then), shown. */
/** A sheet Back closes gets its own history entry (the same address): Back pops it and
 * app.js closes the sheet; a sheet closed by its own button steps back off it (then to
 * the address ``to``, if given: the lobby's, for a sheet that had one of its own). */
export function sheetOpened(id) {
  if (history.state?.phzSheet !== id) history.pushState({ ...(history.state || {}), phzSheet: id }, "", location.href);
}
export function sheetClosed(id, to = null) {
  if (history.state?.phzSheet !== id) { if (to) history.replaceState(null, "", to); return; }
  if (to) S.afterBack = to; // app.js goes there once off the sheet's entry …
  else S.selfPop = true; // … or lets this pop be
  history.back();
}

export function dialog(id, cls, init) {
  let page = $("#" + id);
  if (!page) {
    page = el("section", cls);
    page.id = id;
    page.setAttribute("role", "dialog");
    if (init) init(page);
    document.body.append(page);
  }
  page.classList.remove("hidden");
  return page;
}

/** A dialog's × button. */
export function closeButton(onClick, id) {
  const x = button("close", "×", onClick);
  if (id) x.id = id;
  x.title = T.close;
  return x;
}

/** 中文 / English (the choice is kept in localStorage by i18n.js). */
export function langButton(id) {
  const b = button("lang", T.langSwitch, toggleLang);
  if (id) b.id = id;
  b.title = T.langSwitchTitle;
  return b;
}

/** A seat of the live table by name: 我 for mine, else its shown name. */
export function nameOf(seat) {
  if (seat === S.seat) return T.me;
  const p = S.msg && S.msg.players && S.msg.players[seat];
  return shownName(p && p.name, seat);
}

/** A seat's name as shown: the server's default names (机器人N, 玩家N) in the chosen
 * language; a name a player chose, as it is. */
export function shownName(name, seat) {
  if (!name) return T.player(seat);
  const m = /^(机器人|玩家)(\d+)$/.exec(name);
  if (!m) return name;
  return m[1] === "机器人" ? T.botN(Number(m[2])) : T.playerN(Number(m[2]));
}
