/* replay: steps through a finished hand (GET /api/replays/{hand}[?seat=S]): play / pause at
 * 0.5× / 1× / 2×, one step forward or back, the slider. Every frame is view-shaped and
 * drawn by board.js as the live table is: with every hand open (the frames' `reveal`,
 * you — or else the dealer — at the bottom), or as one seat saw the hand (?seat=S: that
 * seat's views, the others' hands as backs). Seats carry their real names (the replay's
 * `names`, or what the table it was opened from knows); the viewer's own seat is marked. */
import { T, api } from "./i18n.js";
import { $, el, shownName, replayContext } from "./store.js";
import { drawBoard } from "./board.js";
import { narrate } from "./narrate.js";

const BASE_MS = 900;
const R = { hand: null, data: {}, i: 0, timer: null, speed: 1, view: "all", names: [], mine: null, seq: 0 };

/** ctx (optional): {names: [name per seat], seat: the viewer's seat} from the table. */
export async function openReplay(handId, show, ctx = null) {
  stopReplay();
  show("replay");
  history.replaceState(null, "", "#/replay/" + handId);
  Object.assign(R, { hand: handId, data: {}, i: 0, view: "all" });
  $("#replay-title").textContent = T.replayTitle(handId);
  $("#replay-title").dataset.hand = handId;
  $("#replay-table").classList.add("hidden");
  $("#replay-note").textContent = T.loading;
  $("#replay-step").textContent = "";
  const d = await load("all");
  if (!d) return;
  if (!ctx) { // opened from 我的牌局 (lobby.js leaves what it knows of the seats)
    ctx = replayContext(handId);
  }
  const names = Array.isArray(d.names) ? d.names : [];
  R.names = Array.from({ length: d.players }, (_, s) => names[s] || (ctx && ctx.names && ctx.names[s]) || null);
  R.mine = ctx && Number.isInteger(ctx.seat) ? ctx.seat : null;
  $("#replay-slider").max = String(d.frames.length - 1);
  fillSeatSelect();
  renderReplay();
}

/** The frames of one way of seeing the hand ("all", or a seat), fetched once. */
async function load(view) {
  if (R.data[view]) return R.data[view];
  const hand = R.hand, seq = ++R.seq;
  const q = view === "all" ? "" : `?seat=${view}`;
  try {
    const d = await api(`/api/replays/${encodeURIComponent(hand)}${q}`);
    if (R.hand === hand) R.data[view] = d;
    return d;
  } catch (e) {
    if (seq === R.seq) {
      $("#replay-table").classList.add("hidden");
      $("#replay-note").textContent = T.replayFail(e.message);
    }
    return null;
  }
}

const seatName = (s) => shownName(R.names[s], s);

function fillSeatSelect() {
  const sel = $("#replay-seat");
  const d = R.data.all;
  if (!sel || !d) return;
  sel.replaceChildren();
  const all = el("option", null, T.allOpen);
  all.value = "all";
  sel.append(all);
  for (let s = 0; s < d.players; s++) {
    const o = el("option", null, T.seatView(seatName(s) + (s === R.mine ? T.youTag : "")));
    o.value = String(s);
    sel.append(o);
  }
  sel.value = R.view;
}

function renderReplay() {
  const d = R.data[R.view];
  if (!d) return;
  const f = d.frames[R.i];
  const n = d.frames.length - 1;
  const board = $("#replay-table");
  board.classList.remove("hidden");
  board.dataset.view = R.view;
  $("#replay-note").textContent = "";
  const who = (s) => (s === R.mine ? T.me : seatName(s)); // the narrator's: 我 for the viewer
  drawBoard(board, f.view, {
    bottom: R.view === "all" ? R.mine ?? d.dealer : Number(R.view),
    reveal: f.reveal,
    name: seatName,
    mark: R.mine,
    backs: true,
    ticker: told(d, who), // the last steps, as the table's ticker tells them
    bar: { wall: $("#replay-wall"), lz: $("#replay-lz") },
  });
  $("#replay-step").textContent = R.i === 0 ? T.dealt
    : narrate(f.events.filter((e) => e.type !== "deal"), who, R.mine).join(T.sep);
  $("#replay-pos").textContent = T.stepLabel(R.i, n);
  $("#replay").dataset.step = String(R.i);
  $("#replay-slider").value = String(R.i);
  $("#replay-play").textContent = R.timer ? T.pause : T.play;
}

/** The lines of the steps up to this one (the ticker shows the last). */
function told(d, who) {
  const events = d.frames.slice(1, R.i + 1).flatMap((f) => f.events);
  return narrate(events.filter((e) => e.type !== "deal"), who, R.mine).slice(-3);
}

function startTimer() {
  clearInterval(R.timer);
  R.timer = setInterval(() => {
    const n = R.data.all.frames.length;
    if (R.i >= n - 1) { replayStep("play"); return; }
    R.i++;
    renderReplay();
  }, BASE_MS / R.speed);
}

export function replayStep(what) {
  const n = R.data.all ? R.data.all.frames.length : 0;
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

export function replaySeek(i) { if (!R.data.all) return; R.i = i; renderReplay(); }
export function replaySpeed(x) {
  R.speed = [0.5, 1, 2].includes(x) ? x : 1;
  if (R.timer) startTimer();
}
/** "all" (every hand open) or a seat's number: the same step, seen so. */
export async function replaySeat(v) {
  R.view = v;
  if (await load(v)) renderReplay();
}
export function stopReplay() { if (R.timer) { clearInterval(R.timer); R.timer = null; } }
/** The language changed: redraw what is shown. */
export function rerenderReplay() {
  if (!R.data.all) return;
  $("#replay-title").textContent = T.replayTitle(R.hand);
  fillSeatSelect();
  renderReplay();
}
