/* table: the seats around it (you at the bottom, 下家 right, 上家 left, 对家/坐底 top),
 * their melds with 胡息, discard piles, the open card, and the compact event log. */
import { T, S, $, el, nameOf } from "./store.js";
import { cardEl, meldEl, zh, cardsText } from "./cards.js";
import { cue, announce } from "./sound.js";

/** Where seat `seat` sits, seen from you: "me" | "right" | "top" | "left". */
export function slotOf(seat, n) {
  const k = (seat - S.seat + n) % n;
  if (k === 0) return "me";
  if (n === 3) return k === 1 ? "right" : "left";
  return ["me", "right", "top", "left"][k];
}

export function renderSeats() {
  const m = S.msg;
  const n = m.players.length;
  $("#table").dataset.n = String(n);
  for (const slot of ["top", "left", "right"]) $("#seat-" + slot).replaceChildren();
  for (let s = 0; s < n; s++) {
    const slot = slotOf(s, n);
    const node = slot === "me" ? $("#me") : el("div", "seat");
    node.dataset.seat = String(s);
    fillSeat(node, s, T.rel[n] && T.rel[n][(s - S.seat + n) % n]);
    if (slot !== "me") $("#seat-" + slot).append(node);
  }
}

function fillSeat(node, seat, rel) {
  const m = S.msg;
  const v = m.view;
  const p = m.players[seat];
  node.replaceChildren();
  const head = el("div", "seat-head");
  head.append(el("span", "name", seat === S.seat ? `${T.me}·${p.name}` : p.name || T.player(seat)));
  if (rel) head.append(el("span", "badge rel", rel));
  if (v && v.dealer === seat) head.append(el("span", "badge dealer", T.dealer));
  if (p.kind === "bot") head.append(el("span", "badge", T.bot));
  else if (p.kind === "free") head.append(el("span", "badge off", T.free));
  else if (p.away) head.append(el("span", "badge away", T.away));
  else if (p.kind === "human" && seat !== S.seat) head.append(el("span", "badge " + (p.connected ? "on" : "off"), p.connected ? T.online : T.offline));
  const out = v && !v.seats.includes(seat);
  if (out) head.append(el("span", "badge", T.out));
  const sc = m.scores[seat];
  head.append(el("span", "score", `${sc > 0 ? "+" : ""}${sc}`));
  if (seat !== S.seat) { // another seat's public timer (its discard), filled by tick()
    const t = el("span", "timer");
    t.dataset.timerSeat = String(seat);
    head.append(t);
  }
  if (v) {
    const th = el("span", "table-huxi", T.tableHuxi(v.table_huxi[seat]));
    th.dataset.tableHuxi = String(v.table_huxi[seat]);
    head.append(th);
    if (seat !== S.seat && !out) head.append(el("span", "count", T.handCount(v.hand_sizes[seat])));
  }
  node.append(head);
  node.classList.toggle("out", !!out);
  node.classList.toggle("turn", !!v && m.phase === "playing" && v.current_player === seat);
  if (!v) return;
  const melds = el("div", "melds");
  for (const mm of v.tables[seat]) melds.append(meldEl(mm));
  node.append(melds);
  // every hand is shown once the hand is over (a win and 荒庄 alike)
  const reveal = v.reveal && v.reveal.hands && v.reveal.hands[seat];
  if (reveal && seat !== S.seat) {
    const r = el("div", "reveal");
    for (const c of reveal) r.append(cardEl(c, "mini"));
    node.append(r);
  }
  const pile = el("div", "pile");
  for (const c of v.piles[seat]) pile.append(cardEl(c, "mini"));
  node.append(pile);
}

/** The open card: large, who turned it up (翻) or discarded it (打), told apart by frame. */
export function renderCenter() {
  const m = S.msg;
  const v = m.view;
  const open = $("#open");
  const key = v && v.open ? `${m.hand_id}:${v.open.card}:${v.open.owner}:${v.open.source}` : null;
  if (!key) { open.replaceChildren(); open.className = ""; S.openKey = null; }
  else if (S.openKey !== key) {
    S.openKey = key;
    const src = v.open.source;
    open.className = "src-" + src;
    const card = cardEl(v.open.card, "huge");
    card.id = "open-card";
    open.replaceChildren(el("span", "src-badge", src === "draw" ? T.openDraw : T.openDiscard), card,
      el("span", "caption", `${nameOf(v.open.owner)} ${T.openSrc[src] || src}`));
    flyIn(card, src === "draw" ? $("#wall-label") : seatNode(v.open.owner));
  }
  $("#turn").textContent = turnText();
}

function seatNode(seat) { return document.querySelector(`.seat[data-seat="${seat}"]`); }

/** A short move from the wall or the owner's seat to the open card's place. */
function flyIn(card, from) {
  if (!from || !card.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  requestAnimationFrame(() => {
    const a = from.getBoundingClientRect(), b = card.getBoundingClientRect();
    if (!b.width) return;
    const dx = a.left + a.width / 2 - (b.left + b.width / 2), dy = a.top + a.height / 2 - (b.top + b.height / 2);
    card.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
      { duration: 260, easing: "ease-out" });
  });
}

function turnText() {
  const m = S.msg, v = m.view;
  if (!v) return m.phase === "waiting" ? T.waitingSeats : "";
  if (m.phase !== "playing") return m.phase === "finished" ? T.matchOver : T.handOver;
  const acts = m.legal_actions;
  if (acts.length && v.phase === "discard") return T.turnDiscard;
  if (acts.length) { // name only the legal choices
    const types = ["hu", "peng", "chi", "pass"].filter((t) => acts.some((a) => a.type === t));
    return T.choose(types.map((t) => T.act[t]));
  }
  if (v.current_player !== null && v.current_player >= 0) return T.waitFor(nameOf(v.current_player));
  return v.others_deciding ? T.othersDeciding : "";
}

/* ------------------------------------------------------------ the event log */
const SOUND_OF = { draw: "draw", discard: "discard", chi: "chi", peng: "peng", wei: "wei", chouwei: "wei",
  ti: "ti", pao: "pao", hu: "hu" };

export function eventText(e) {
  const who = e.seat !== undefined && e.seat !== null ? nameOf(e.seat) : "";
  const card = e.card ? zh(e.card) : "";
  const E = T.ev;
  switch (e.type) {
    case "deal": return e.seat === S.seat ? E.dealMe(e.count) : null;
    case "liangzhang": return E.liang(who, card);
    case "bottom": return E.bottom(card);
    case "ti": return E.ti(who, card);
    case "wei": return E.wei(who, card);
    case "chouwei": return E.chouwei(who, card);
    case "pao": return E.pao(who, card);
    case "draw": return E.draw(who, card);
    case "discard": return E.discard(who, card);
    case "chi": {
      const g = (e.groups || []).map((x) => cardsText(x));
      return E.chi(who, card, g[0] + (g.length > 1 ? ` ${T.bi} ` + g.slice(1).join(" ") : ""));
    }
    case "peng": return E.peng(who, card);
    case "pass": return E.pass(who);
    case "pile": return E.pile(who, card);
    case "hu": return E.hu(who, e.card ? card : "", e.self_drawn);
    case "huangzhuang": return E.huang;
    case "settle": return null;
    default: return `${who} ${e.type} ${card}`;
  }
}

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
  for (const e of v.log.slice(S.logN)) {
    const text = eventText(e);
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
