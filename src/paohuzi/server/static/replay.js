/* replay: steps through a finished hand (GET /api/replays/{hand}), every hand face up. */
import { T, S, $, el } from "./store.js";
import { cardEl, meldEl } from "./cards.js";
import { initialLayout } from "./hand.js";
import { eventText } from "./table.js";

const R = { data: null, i: 0, timer: null };

export async function openReplay(handId, api, show) {
  show("replay");
  history.replaceState(null, "", "#/replay/" + handId);
  $("#replay-title").textContent = T.replayTitle(handId);
  $("#replay-table").replaceChildren(el("p", null, T.loading));
  try {
    R.data = await api(`/api/replays/${encodeURIComponent(handId)}`);
  } catch (e) {
    $("#replay-table").replaceChildren(el("p", "error", T.replayFail(e.message)));
    return;
  }
  R.i = 0;
  $("#replay-slider").max = String(R.data.frames.length - 1);
  renderReplay();
}

function renderReplay() {
  const d = R.data;
  const f = d.frames[R.i];
  const box = $("#replay-table");
  box.replaceChildren();
  const info = el("div", "seat");
  info.append(el("div", "seat-head", T.replayStep(T.rules[d.rules] || d.rules, R.i, d.frames.length - 1, f.wall)));
  const lz = el("div");
  lz.append(T.liang + " ", cardEl(d.liangzhang, "mini"));
  if (f.open) lz.append(`　${T.player(f.open.owner)} ${T.openSrc[f.open.source] || ""} `, cardEl(f.open.card, "mini"));
  info.append(lz);
  box.append(info);
  for (let s = 0; s < d.players; s++) {
    const seat = el("div", "seat");
    const out = !d.seats.includes(s);
    seat.classList.toggle("out", out);
    seat.classList.toggle("turn", f.to_act.includes(s));
    const head = el("div", "seat-head");
    head.append(el("span", "name", `${T.player(s)}${s === d.dealer ? `（${T.dealer}）` : ""}${out ? `（${T.out}）` : ""}`),
      el("span", "score", T.huxi(f.huxi[s])));
    const melds = el("div", "melds");
    for (const mm of f.tables[s]) melds.append(meldEl(mm));
    const hand = el("div", "hand");
    for (const col of initialLayout(f.hands[s])) {
      const c = el("div", "col");
      for (const code of col) c.append(cardEl(code, "mini"));
      hand.append(c);
    }
    const pile = el("div", "pile");
    for (const c of f.piles[s]) pile.append(cardEl(c, "mini"));
    seat.append(head, hand, melds, pile);
    box.append(seat);
  }
  const saved = [S.seat, S.msg];
  [S.seat, S.msg] = [-1, null]; // a replay names every seat by number
  const lines = f.events.filter((e) => e.type !== "deal").map(eventText).filter(Boolean);
  [S.seat, S.msg] = saved;
  $("#replay-step").textContent = R.i === 0 ? T.dealt : lines.join("；");
  $("#replay-slider").value = String(R.i);
}

export function replayStep(what) {
  const n = R.data ? R.data.frames.length : 0;
  if (!n) return;
  if (what === "play") {
    if (R.timer) { clearInterval(R.timer); R.timer = null; $("#replay-play").textContent = T.play; return; }
    $("#replay-play").textContent = T.pause;
    R.timer = setInterval(() => {
      if (R.i >= n - 1) { replayStep("play"); return; }
      R.i++; renderReplay();
    }, 900);
    return;
  }
  R.i = { first: 0, prev: Math.max(0, R.i - 1), next: Math.min(n - 1, R.i + 1), last: n - 1 }[what];
  renderReplay();
}

export function replaySeek(i) { R.i = i; renderReplay(); }
export function stopReplay() { if (R.timer) replayStep("play"); }
