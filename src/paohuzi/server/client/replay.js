/* replay: steps through a finished hand (GET /api/replays/{hand}): play / pause at
 * 0.5× / 1× / 2×, one step forward or back, the slider; every hand open, or one seat's
 * view (the others' hands face down). Seats carry their real names when the replay
 * says them (`names`) or the table it was opened from knows them; the viewer's own
 * seat is marked. */
import { T, S, $, el, shownName } from "./store.js";
import { cardEl, meldEl } from "./cards.js";
import { initialLayout } from "./hand.js";
import { eventText } from "./table.js";

const BASE_MS = 900;
const R = { data: null, i: 0, timer: null, speed: 1, view: "all", names: [], mine: null };

/** ctx (optional): {names: [name per seat], seat: the viewer's seat} from the table. */
export async function openReplay(handId, api, show, ctx = null) {
  stopReplay();
  show("replay");
  history.replaceState(null, "", "#/replay/" + handId);
  $("#replay-title").textContent = T.replayTitle(handId);
  $("#replay-title").dataset.hand = handId;
  $("#replay-table").replaceChildren(el("p", null, T.loading));
  $("#replay-step").textContent = "";
  R.data = null;
  try {
    R.data = await api(`/api/replays/${encodeURIComponent(handId)}`);
  } catch (e) {
    $("#replay-table").replaceChildren(el("p", "error", T.replayFail(e.message)));
    return;
  }
  const d = R.data;
  if (!ctx) { // opened from 我的牌局 (lobby.js leaves what it knows of the seats)
    try { ctx = JSON.parse(sessionStorage.getItem("phz:replayctx:" + handId) || "null"); } catch { ctx = null; }
  }
  const fromServer = Array.isArray(d.names) ? d.names
    : Array.isArray(d.seat_names) ? d.seat_names
      : Array.isArray(d.players_info) ? d.players_info.map((p) => p && p.name) : [];
  R.names = Array.from({ length: d.players }, (_, s) => fromServer[s] || (ctx && ctx.names && ctx.names[s]) || null);
  R.mine = Number.isInteger(d.viewer) ? d.viewer : ctx && Number.isInteger(ctx.seat) ? ctx.seat : null;
  R.view = "all";
  R.i = 0;
  $("#replay-slider").max = String(d.frames.length - 1);
  fillSeatSelect();
  renderReplay();
}

const seatName = (s) => shownName(R.names[s], s);

function fillSeatSelect() {
  const sel = $("#replay-seat");
  if (!sel || !R.data) return;
  sel.replaceChildren();
  const all = el("option", null, T.allOpen);
  all.value = "all";
  sel.append(all);
  for (let s = 0; s < R.data.players; s++) {
    const o = el("option", null, T.seatView(seatName(s) + (s === R.mine ? T.youTag : "")));
    o.value = String(s);
    sel.append(o);
  }
  sel.value = R.view;
}

/** Event texts with the replay's names (the viewer's seat as 我 / You). */
function stepText(f) {
  const saved = [S.seat, S.msg];
  S.seat = R.mine === null ? -1 : R.mine;
  S.msg = { players: R.names.map((name, seat) => ({ seat, name: name || T.player(seat) })) };
  try {
    return f.events.filter((e) => e.type !== "deal").map(eventText).filter(Boolean).join(T.sep);
  } finally {
    [S.seat, S.msg] = saved;
  }
}

function renderReplay() {
  const d = R.data;
  if (!d) return;
  const f = d.frames[R.i];
  const n = d.frames.length - 1;
  const box = $("#replay-table");
  box.replaceChildren();
  box.dataset.view = R.view;
  const info = el("div", "seat rp-info");
  info.append(el("div", "seat-head", T.replayStep(T.rules[d.rules] || d.rules, R.i, n, f.wall)));
  const lz = el("div");
  lz.append(T.liang + " ", cardEl(d.liangzhang, "mini"));
  if (f.open) lz.append(`　${seatName(f.open.owner)} ${T.openSrc[f.open.source] || ""} `, cardEl(f.open.card, "mini"));
  info.append(lz);
  box.append(info);
  for (let s = 0; s < d.players; s++) {
    const seat = el("div", "seat");
    seat.dataset.replaySeat = String(s);
    const out = !d.seats.includes(s);
    seat.classList.toggle("out", out);
    seat.classList.toggle("turn", f.to_act.includes(s));
    seat.classList.toggle("mine", s === R.mine);
    const head = el("div", "seat-head");
    const name = el("span", "name", seatName(s));
    if (s === R.mine) name.append(el("span", "badge you", T.me));
    if (s === d.dealer) name.append(el("span", "badge dealer", T.dealer));
    if (out) name.append(el("span", "badge", T.out));
    head.append(name, el("span", "score", T.huxi(f.huxi[s])));
    const melds = el("div", "melds");
    for (const mm of f.tables[s]) melds.append(meldEl(mm));
    const hand = el("div", "hand");
    const open = R.view === "all" || R.view === String(s);
    if (open) {
      for (const col of initialLayout(f.hands[s])) {
        const c = el("div", "col");
        for (const code of col) c.append(cardEl(code, "mini"));
        hand.append(c);
      }
    } else {
      hand.classList.add("closed");
      for (let k = 0; k < f.hands[s].length; k++) hand.append(cardEl(null, "mini"));
    }
    const pile = el("div", "pile");
    for (const c of f.piles[s]) pile.append(cardEl(c, "mini"));
    seat.append(head, hand, melds, pile);
    box.append(seat);
  }
  $("#replay-step").textContent = R.i === 0 ? T.dealt : stepText(f);
  $("#replay-pos").textContent = T.stepLabel(R.i, n);
  $("#replay").dataset.step = String(R.i);
  $("#replay-slider").value = String(R.i);
  $("#replay-play").textContent = R.timer ? T.pause : T.play;
}

function startTimer() {
  const n = R.data.frames.length;
  clearInterval(R.timer);
  R.timer = setInterval(() => {
    if (R.i >= n - 1) { replayStep("play"); return; }
    R.i++;
    renderReplay();
  }, BASE_MS / R.speed);
}

export function replayStep(what) {
  const n = R.data ? R.data.frames.length : 0;
  if (!n) return;
  if (what === "play") {
    if (R.timer) { clearInterval(R.timer); R.timer = null; }
    else { if (R.i >= n - 1) R.i = 0; startTimer(); }
    renderReplay();
    return;
  }
  R.i = { first: 0, prev: Math.max(0, R.i - 1), next: Math.min(n - 1, R.i + 1), last: n - 1 }[what];
  renderReplay();
}

export function replaySeek(i) { if (!R.data) return; R.i = i; renderReplay(); }
export function replaySpeed(x) {
  R.speed = [0.5, 1, 2].includes(x) ? x : 1;
  if (R.timer) startTimer();
}
export function replaySeat(v) { R.view = v; renderReplay(); }
export function stopReplay() { if (R.timer) { clearInterval(R.timer); R.timer = null; } }
/** The language changed: redraw what is shown. */
export function rerenderReplay() {
  if (!R.data) return;
  $("#replay-title").textContent = T.replayTitle($("#replay-title").dataset.hand || R.data.hand_id);
  fillSeatSelect();
  renderReplay();
}
