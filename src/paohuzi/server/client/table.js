/* table: the live table — drawn by board.js from the state's `view` with what only the
 * live table has (the players' badges and match scores, their timers, the prompt that names
 * your legal choices, your hand's arrangement, 听); its event log (记录) and ticker, told by
 * narrate.js, with the sounds; and the cards' moves between two states (FLIP). */
import { T } from "./i18n.js";
import { S, $, $$, el, nameOf, settings, shownName } from "./store.js";
import { drawBoard, emptyView } from "./board.js";
import { eventText } from "./narrate.js";
import { liveHand } from "./hand.js";
import { cue, announce } from "./sound.js";

/** Draw the live table (the state S.msg, whose `view` is set). */
export function renderTable(hooks) {
  const m = S.msg;
  drawBoard($("#table"), m.view || emptyView(m.players.length, S.seat), {
    name: (s) => (s === S.seat ? `${T.me}·${shownName(m.players[s].name, s)}` : nameOf(s)),
    badges: (s) => badgesOf(m.players[s], s),
    score: (s) => m.scores[s],
    timers: true,
    turn: turnText(),
    openKey: m.hand_id,
    layout: m.view ? S.layout : [],
    hand: liveHand(hooks),
    tingpai: m.tingpai || [],
    bar: { wall: $("#wall-label"), lz: $("#lz-label") },
  });
}

function badgesOf(p, seat) {
  const ready = S.msg.phase === "waiting" && p.ready && p.kind !== "free" ? [["ready", T.readyBadge]] : []; // 准备 done
  return [...ready, ...seatBadges(p, seat)];
}
function seatBadges(p, seat) {
  if (p.kind === "bot") return [["", T.bot]];
  if (p.kind === "free") return [["off", T.free]];
  if (p.away) return [["away", T.away]];
  if (p.kind === "human" && seat !== S.seat) return [[p.connected ? "on" : "off", p.connected ? T.online : T.offline]];
  return [];
}

function turnText() {
  const m = S.msg, v = m.view;
  if (!v) { // waiting: for seats (the board says 等待入座), or, all seated, for 准备
    if (m.phase !== "waiting") return "";
    return m.players.some((p) => p.kind === "free") ? undefined : T.waitingReady;
  }
  if (m.phase !== "playing") return m.phase === "finished" ? T.matchOver : T.handOver;
  const acts = m.legal_actions;
  if (acts.length && v.phase === "discard") return T.turnDiscard;
  if (acts.length) { // name only the legal choices
    const types = ["hu", "peng", "chi", "pass"].filter((t) => acts.some((a) => a.type === t));
    return T.choose(types.map((t) => T.act[t]));
  }
  return undefined; // whose turn it is, as the view tells (board.js)
}

/* ------------------------------------------------------------ the event log */
const SOUND_OF = { draw: "draw", discard: "discard", chi: "chi", peng: "peng", wei: "wei", chouwei: "wei",
  ti: "ti", pao: "pao", hu: "hu" };

/** New events go to the full log (记录) and the last few to the compact ticker, which has
 * its own place on the table and never covers it; the first ones of a (re)connection are
 * quiet (no sounds). */
export function processLog(first) {
  const m = S.msg, v = m.view;
  if (!v) return;
  if (S.logHand !== m.hand_id) {
    S.logHand = m.hand_id;
    S.logN = 0;
    $("#log-list").replaceChildren();
    $("#ticker").replaceChildren();
  }
  const quiet = first && S.logN === 0 && v.log.length > 4;
  // cards move only within a hand already on screen (not on a reconnection or a new hand)
  planFlights(S.logN > 0 ? v.log.slice(S.logN) : []);
  for (const e of v.log.slice(S.logN)) {
    const text = eventText(e, nameOf, S.seat);
    if (!quiet && SOUND_OF[e.type]) {
      cue(SOUND_OF[e.type]);
      if (["chi", "peng", "pao", "hu"].includes(e.type)) announce(e.type);
    }
    if (!text) continue;
    $("#log-list").append(el("li", null, text));
    if (e.type === "deal") continue;
    const li = el("li", ["ti", "wei", "chouwei", "pao", "hu"].includes(e.type) ? "auto" : "", text);
    $("#ticker").append(li);
  }
  const t = $("#ticker");
  while (t.children.length > 3) t.firstChild.remove();
  S.logN = v.log.length;
  const log = $("#log");
  log.scrollTop = log.scrollHeight;
}

/* ------------------------------------------------------------ card movement */
/* What moved is read off the new events of the log. processLog runs before the table is
 * redrawn: the places the cards leave (a hand card, a seat, the wall, the open card) are
 * measured then; in the next frame, after the redraw, each card in its new place (the open
 * card, a pile, a meld) is moved back there and flies home (FLIP, Web Animations). A card
 * that was turned up or discarded and then piled or taken within one state passes by the
 * open card's place on its way; cards that pass there go one after the other. A flight is
 * only a transform of the card already in place: it takes no clicks (.flying) and delays
 * nothing; a newer state ends every flight at once (the end state is what shows). */
const LEG_MS = 300;
let flights = [];
let pending = 0; // the frame a plan waits for
/** Flights started since the page opened, by kind — for tests and debugging. */
const flown = { draw: 0, discard: 0, pile: 0, meld: 0 };
window.phzFlights = flown;

/** The speed of the flights: 0 (none) with reduced motion or an optional setting. */
function motion() {
  if (!Element.prototype.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  const k = { off: 0, fast: 0.6, slow: 1.6 }[settings.motion];
  return k === undefined ? 1 : k;
}

/** Where something is now: its centre and width (w null: a seat, no card size to start from). */
function spot(node, sized = true) {
  if (!node) return null;
  const r = node.getBoundingClientRect();
  if (!r.width && !r.height) return null;
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: sized ? r.width : null };
}

function endFlights() {
  if (pending) cancelAnimationFrame(pending);
  pending = 0;
  for (const a of flights) { try { a.finish(); } catch { /* gone with its card */ } }
  flights = [];
}

/** Read the moves out of `events` (the log's new part) and fly them after the redraw. */
function planFlights(events) {
  endFlights();
  const k = motion();
  if (!k || !events.length) return;
  const me = S.seat;
  const usedHand = new Set();
  const handCard = (c) => { // one of my hand cards, each used once
    const d = $$(`#hand .card[data-card="${c}"]`).find((x) => !usedHand.has(x));
    if (!d) return spot($("#hand"), false);
    usedHand.add(d);
    return spot(d);
  };
  const seatSpot = (s) => (s === me ? spot($("#hand"), false)
    : spot(document.querySelector(`#table .seat[data-seat="${s}"] .seat-head`), false));
  const fromHand = (s, c) => (s === me && c ? handCard(c) : seatSpot(s));
  const oldKeys = {};
  const keysOf = (s) => {
    if (!oldKeys[s]) oldKeys[s] = $$(`#table .seat[data-seat="${s}"] .meld`).map((m) => m.dataset.key);
    return oldKeys[s];
  };
  let at = 0; // when the open card's place is free again (in legs from now)
  const moves = [];
  let open = null; // the card in the open since this state began: {kind, card, from}
  const oldOpen = spot($("#open-card"));
  // the card leaving the open card's place: from there, or by it (from its own source)
  const taken = () => {
    const t = open ? { from: open.from, via: true, delay: at } : { from: oldOpen, via: false, delay: at };
    if (open) at += 1;
    open = null;
    return t;
  };
  const meld = (s, c, own, bi = false) => {
    keysOf(s);
    const t = taken();
    moves.push({ kind: "meld", seat: s, card: c, taken: t, own, bi });
  };
  for (const e of events) {
    const s = e.seat, c = e.card || null;
    switch (e.type) {
      case "draw": open = { kind: "draw", card: c, from: spot($("#wall-label"), false) }; break;
      case "discard": open = { kind: "discard", card: c, from: fromHand(s, c) }; break;
      case "pile": moves.push({ kind: "pile", seat: s, card: c, ...taken() }); break;
      case "chi": {
        const own = (e.groups || []).flat();
        const i = own.indexOf(c);
        if (i >= 0) own.splice(i, 1);
        meld(s, c, own.map((x) => fromHand(s, x)), (e.groups || []).length > 1);
        break;
      }
      case "peng": case "wei": case "chouwei": meld(s, c, [fromHand(s, c), fromHand(s, c)]); break;
      case "ti": case "pao": {
        if (e.base === "hand" && e.source === "hand") { // 提 of four held cards: no open card
          keysOf(s);
          const own = [0, 1, 2, 3].map(() => fromHand(s, c));
          moves.push({ kind: "meld", seat: s, card: c, taken: { from: own.pop(), via: false, delay: at }, own });
        } else meld(s, c, e.base === "table" ? [] : [0, 1, 2].map(() => fromHand(s, c)));
        break;
      }
      case "hu": open = null; break;
      default: break;
    }
  }
  if (open) moves.push({ kind: open.kind, card: open.card, from: open.from, delay: at, open: true });
  if (!moves.length) return;
  // a long run of cards by the open card's place (the wall's end) is told faster: ≤ 3 legs
  const leg = LEG_MS * k * Math.min(1, 3 / Math.max(at, 1));
  pending = requestAnimationFrame(() => { pending = 0; fly(moves, oldKeys, oldOpen, leg); });
}

/** After the redraw: each moved card, in its new place, starts where it came from. */
function fly(moves, oldKeys, oldOpen, leg) {
  const newMelds = {}; // the seat's melds that were not down before
  const fresh = (s) => {
    if (newMelds[s]) return newMelds[s];
    const left = [...(oldKeys[s] || [])];
    return (newMelds[s] = $$(`#table .seat[data-seat="${s}"] .meld`).filter((m) => {
      const i = left.indexOf(m.dataset.key);
      if (i >= 0) { left.splice(i, 1); return false; }
      return true;
    }));
  };
  // the open card's place: where the open card is (or was), else the middle of the table
  const place = spot($("#open-card")) || oldOpen || spot($("#center"), false);
  const go = (card, from, via, delay, kind) => launch(card, from, via ? place : null, delay * leg, leg, kind);
  const claimed = new Set();
  for (const mv of moves) {
    if (mv.open) {
      const card = $("#open-card");
      if (card && (!mv.card || card.dataset.card === mv.card)) go(card, mv.from, false, mv.delay, mv.kind);
    } else if (mv.kind === "pile") {
      const cards = $$(`#table .seat[data-seat="${mv.seat}"] .pile .card, #table .river[data-seat="${mv.seat}"] .card`)
        .filter((x) => x.getClientRects().length).reverse(); // the pile shown: the seat's, or (wide) the middle's
      const card = cards.find((x) => (!mv.card || x.dataset.card === mv.card) && !claimed.has(x));
      if (card) { claimed.add(card); go(card, mv.from, mv.via, mv.delay, "pile"); }
    } else {
      const all = fresh(mv.seat).filter((x) => !claimed.has(x));
      const m = all.find((x) => !mv.card || x.querySelector(`.card[data-card="${mv.card}"]`)) || all[0];
      if (!m) continue;
      claimed.add(m);
      const cards = $$(".meld-cards .card", m);
      // the taken card is the last of its kind in the column; the others came from the hand
      let t = cards.map((x) => x.dataset.card).lastIndexOf(mv.card);
      if (t < 0) t = cards.length - 1;
      const own = [...mv.own];
      const n = own.length + 1;
      const tk = mv.taken;
      // the hand's cards set off as the taken one leaves the open card's place
      const ownDelay = tk.delay + (tk.via ? 1 : 0);
      cards.forEach((card, i) => {
        if (i === t) go(card, tk.from, tk.via, tk.delay, "meld");
        else if (cards.length - i <= n && own.length) go(card, own.shift(), false, ownDelay, "meld");
      });
      flown.meld++;
      if (mv.bi) { // 比: the other groups of a 吃 come from the hand whole
        for (const m2 of fresh(mv.seat).filter((x) => !claimed.has(x))) {
          claimed.add(m2);
          for (const card of $$(".meld-cards .card", m2)) go(card, own.shift() || tk.from, false, ownDelay, "meld");
        }
      }
    }
  }
}

/** Move `card` (in its new place) back to `from` and let it fly home, by `via` if given. */
function launch(card, from, via, delay, leg, kind) {
  if (!from) return;
  const b = card.getBoundingClientRect();
  if (!b.width) return;
  const cx = b.left + b.width / 2, cy = b.top + b.height / 2;
  if (!via && Math.abs(from.x - cx) < 2 && Math.abs(from.y - cy) < 2) return;
  const end = getComputedStyle(card).transform;
  const rest = end && end !== "none" ? end : "";
  const scale = (w) => (w ? Math.min(2.5, Math.max(0.4, w / b.width)) : 0.6);
  const at = (p, o) => ({ transform: `translate(${p.x - cx}px, ${p.y - cy}px) scale(${scale(p.w)}) ${rest}`, opacity: o });
  const frames = [at(from, from.w ? 1 : 0)]; // out of a seat (or the wall) it fades in
  if (via) frames.push({ ...at(via, 1), offset: 0.4 }, { ...at(via, 1), offset: 0.6 }); // a look at it
  frames.push({ transform: rest || "none", opacity: 1 });
  card.classList.add("flying");
  const a = card.animate(frames, { duration: via ? 2 * leg : leg, delay, fill: "backwards",
    easing: via ? "ease-in-out" : "cubic-bezier(.25, .7, .3, 1)", id: "fly-" + kind });
  const done = () => card.classList.remove("flying");
  a.finished.then(done, done);
  flights.push(a);
  if (kind !== "meld") flown[kind]++;
}
