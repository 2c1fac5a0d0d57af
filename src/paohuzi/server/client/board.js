/* board: THE renderer of a table — the seats around it (you at the bottom, 下家 right, 上家
 * left, 对家 / 坐底 top), their melds with 胡息, their discard piles and, where the frame
 * shows them, their hands (face up, or as backs); the open card; the wall and 亮张; your
 * 当前胡息 and your hand in columns (each 坎 its own). The live table, the tutorial and the
 * replay all draw through `drawBoard` from a view-shaped frame: the server's per-seat
 * `view` (INTERFACES §5), with `reveal` {hands, tables?, huxi} where every hand is open.
 * What is interactive (taps, drags, the log) is the caller's, through hooks. */
import { T } from "./i18n.js";
import { el } from "./store.js";
import { cardEl, meldEl, withWang } from "./cards.js";

const PARTS = new WeakMap();
/** The live table's parts keep the ids index.html, the tests and the animations know. */
const LIVE_IDS = { top: "seat-top", left: "seat-left", right: "seat-right", center: "center", turn: "turn",
  open: "open", ticker: "ticker", me: "me", mine: "mine", huxi: "huxi", huxiValue: "huxi-value", ting: "ting",
  hint: "hint", hand: "hand" };

/** Make `root` (a <main class="board">) a board: its parts are created once, the ones it
 * already has (the live table's dock and 吃 picker) stay between them. */
export function mountBoard(root, { live = false } = {}) {
  if (PARTS.has(root)) return PARTS.get(root);
  root.classList.add("board");
  const mk = (key, tag, cls) => {
    const e = el(tag, cls);
    if (live) e.id = LIVE_IDS[key];
    return e;
  };
  const p = {
    top: mk("top", "div", "slot slot-top"), left: mk("left", "div", "slot slot-left"),
    right: mk("right", "div", "slot slot-right"), center: mk("center", "div", "center"),
    turn: mk("turn", "div", "turn-text"), open: mk("open", "div", "open"), ticker: mk("ticker", "ol", "ticker"),
    me: mk("me", "div", "seat me"), mine: mk("mine", "div", "mine-info"), huxi: mk("huxi", "span", "huxi"),
    huxiLabel: el("span", "huxi-label"), huxiValue: mk("huxiValue", "b", "huxi-value"),
    ting: mk("ting", "span", "ting hidden"), hint: mk("hint", "span", "hint hidden"), hand: mk("hand", "div", "hand"),
    openKey: null,
    // a wide screen's middle, as the apps lay it (style.css shows them there only): the
    // wall as a stack, and each seat's discards in front of it
    wall: el("div", "wall-stack"), rivers: {},
  };
  for (const slot of ["left", "right", "top", "me"]) p.rivers[slot] = el("div", "river river-" + slot);
  p.ticker.setAttribute("aria-live", "polite");
  // 提示 may be cut to two lines (a phone held sideways, style.css): a tap shows it whole
  p.hint.addEventListener("click", () => p.hint.classList.toggle("open"));
  p.center.append(p.turn, p.open, p.ticker, p.wall, ...Object.values(p.rivers));
  p.huxi.append(p.huxiLabel, " ", p.huxiValue);
  p.mine.append(p.huxi, p.ting, p.hint);
  root.prepend(p.top, p.left, p.right, p.center);
  root.append(p.me, p.mine, p.hand);
  PARTS.set(root, p);
  return p;
}

/** A frame for a room whose hand is not dealt yet (no view): its seats, empty. */
export function emptyView(n, seat) {
  const none = () => Array.from({ length: n }, () => []);
  return { seat, seats: [...Array(n).keys()], dealer: null, phase: "waiting", current_player: null,
    hand: [], hand_sizes: Array(n).fill(0), tables: none(), table_huxi: Array(n).fill(0), piles: none(),
    wall: null, open: null, huxi: 0 };
}

/** Where seat `seat` sits, seen from `bottom`: "me" | "right" | "top" | "left". */
function slotOf(seat, bottom, n) {
  const k = (seat - bottom + n) % n;
  if (k === 0) return "me";
  if (n === 2) return "top";
  if (n === 3) return k === 1 ? "right" : "left";
  return ["me", "right", "top", "left"][k];
}

/** Draw `view` on the board `root`. Options (all optional):
 * - bottom: the seat drawn at the bottom (default: the view's own seat)
 * - reveal: {hands, tables, huxi} per seat, else the view's own `reveal` (a hand's end)
 * - name(s), badges(s) → [[class, text]…], score(s) → number|null, mark: a seat outlined as yours
 * - backs: others' concealed hands as face-down backs (else their size only)
 * - timers: a place for each other seat's countdown (claims.js fills it)
 * - turn: the line above the open card (default: whose turn it is)
 * - ticker: the last lines of the log to show (absent: the caller keeps the ticker)
 * - openKey: what makes the open card new (the live table keeps it across states)
 * - layout: the bottom hand's columns (default: by point); hand: {legal, decorate} (drawHand)
 * - tingpai: [{card, huxi, huxi_zimo}] the bottom seat waits on; bar: {wall, lz} elements */
export function drawBoard(root, view, o = {}) {
  const p = mountBoard(root);
  const n = view.hand_sizes.length;
  const bottom = o.bottom ?? view.seat;
  const reveal = o.reveal || view.reveal || null;
  const name = o.name || ((s) => (s === bottom ? T.me : T.player(s)));
  root.dataset.n = String(n);
  for (const slot of ["top", "left", "right"]) p[slot].replaceChildren();
  for (let s = 0; s < n; s++) {
    const slot = slotOf(s, bottom, n);
    const node = slot === "me" ? p.me : el("div", "seat");
    fillSeat(node, view, s, { ...o, bottom, reveal, name, n });
    if (slot !== "me") p[slot].append(node);
  }
  drawMiddle(p, view, bottom, n);
  drawOpen(p, view, name, o.openKey);
  p.turn.textContent = o.turn ?? turnOf(view, name, bottom);
  if (o.ticker) p.ticker.replaceChildren(...o.ticker.slice(-3).map((x) => el("li", null, x)));
  const mine = bottom === view.seat ? withWang(view.hand, view.wang)
    : reveal && reveal.hands ? withWang(reveal.hands[bottom], (reveal.wang || [])[bottom]) : null;
  p.huxiLabel.textContent = T.curHuxi;
  p.huxiValue.textContent = String(bottom === view.seat ? view.huxi : reveal && reveal.huxi ? reveal.huxi[bottom] : "");
  drawTing(p.ting, o.tingpai || []);
  p.hint.classList.remove("open"); // a new state: 提示 cut short again (its text is new)
  drawHand(p.hand, o.layout || initialLayout(mine || []), o.hand);
  if (o.bar) drawBar(o.bar, view.phase === "waiting" ? null : view);
}

function fillSeat(node, v, seat, o) {
  const { n, bottom, reveal } = o;
  const nm = o.name(seat);
  node.replaceChildren();
  node.dataset.seat = String(seat);
  const head = el("div", "seat-head");
  head.append(el("span", "name", nm));
  const rel = T.rel[n] && T.rel[n][(seat - bottom + n) % n];
  if (rel && rel !== nm) head.append(el("span", "badge rel", rel));
  if (o.mark === seat) head.append(el("span", "badge you", T.me));
  if (v.dealer === seat) head.append(el("span", "badge dealer", T.dealer));
  for (const [cls, text] of o.badges ? o.badges(seat) : []) head.append(el("span", "badge " + cls, text));
  const out = !v.seats.includes(seat);
  if (out) head.append(el("span", "badge out", T.outOf(v.rules))); // 坐底, or 坐醒 / 数醒
  const sc = o.score ? o.score(seat) : null;
  if (sc !== null && sc !== undefined) head.append(el("span", "score", `${sc > 0 ? "+" : ""}${sc}`));
  if (o.timers && seat !== bottom) { // another seat's public timer (its discard)
    const t = el("span", "timer");
    t.dataset.timerSeat = String(seat);
    head.append(t);
  }
  const tables = reveal && reveal.tables ? reveal.tables[seat] : v.tables[seat];
  const dealt = v.phase !== "waiting";
  const th = reveal && reveal.tables ? tables.reduce((a, m) => a + (m.huxi || 0), 0) : v.table_huxi[seat];
  const thEl = el("span", "table-huxi", T.tableHuxi(th));
  thEl.dataset.tableHuxi = String(th);
  if (dealt) head.append(thEl);
  const shown = reveal && reveal.hands ? withWang(reveal.hands[seat], (reveal.wang || [])[seat])
    : v.watched && seat === v.dealer ? v.watched : null; // 坐醒: the seat out sees the dealer's hand
  if (seat !== bottom && !out && dealt) head.append(el("span", "count", T.handCount(v.hand_sizes[seat])));
  node.append(head);
  node.classList.toggle("out", out);
  node.classList.toggle("mine", o.mark === seat);
  node.classList.toggle("turn", v.phase !== "over" && v.current_player === seat);
  const melds = el("div", "melds");
  for (const m of tables) melds.append(meldEl(m));
  node.append(melds);
  if (seat !== bottom && !out && (shown || o.backs)) { // another seat's hand: open, or backs
    const h = el("div", "seat-hand " + (shown ? "reveal" : "closed"));
    for (const c of shown || Array(v.hand_sizes[seat]).fill(null)) h.append(cardEl(c, "mini"));
    node.append(h);
  }
  const pile = el("div", "pile");
  for (const c of v.piles[seat]) pile.append(cardEl(c, "mini"));
  node.append(pile);
}

/** The open card: large, who turned it up (翻) or discarded it (打), told apart by frame.
 * Drawn again only when it changes (`key`), so a card flying there keeps flying. */
function drawOpen(p, v, name, key0) {
  const o = v.open;
  const key = o ? `${key0 ?? ""}:${o.card}:${o.owner}:${o.source}:${T.openDraw}` : null;
  if (!key) { p.open.replaceChildren(); p.open.className = "open"; p.openKey = null; return; }
  if (p.openKey === key) return;
  p.openKey = key;
  p.open.className = "open src-" + o.source;
  const card = cardEl(o.card, "huge");
  card.classList.add("open-card");
  if (p.open.id) card.id = "open-card"; // the live table's (animations and tests find it)
  p.open.replaceChildren(el("span", "src-badge", o.source === "draw" ? T.openDraw : T.openDiscard), card,
    el("span", "caption", `${name(o.owner)} ${T.openSrc[o.source] || o.source}`));
}

/** The wall (a stack of backs and how many are left) and every seat's discards in front
 * of it, in the middle of the table (shown on wide screens; the seats keep theirs too). */
function drawMiddle(p, v, bottom, n) {
  const dealt = v.phase !== "waiting" && typeof v.wall === "number";
  p.wall.replaceChildren();
  p.wall.classList.toggle("empty", !dealt);
  if (dealt) {
    const stack = el("div", "backs");
    for (let i = 0; i < Math.min(4, Math.ceil(v.wall / 6)); i++) stack.append(cardEl(null, "mini"));
    p.wall.append(stack, el("span", "wall-count", T.wall(v.wall)));
  }
  for (const r of Object.values(p.rivers)) { r.replaceChildren(); delete r.dataset.seat; }
  for (let s = 0; s < n; s++) {
    const r = p.rivers[slotOf(s, bottom, n)];
    if (!r || !v.piles[s]) continue;
    r.dataset.seat = String(s);
    for (const c of v.piles[s]) r.append(cardEl(c, "mini"));
  }
}

/** Whose turn it is, as the view tells it (the live table says more: its legal choices). */
function turnOf(v, name, bottom) {
  if (v.phase === "waiting") return T.waitingSeats;
  if (v.phase === "over") return T.handOver;
  if (bottom === v.seat && (v.to_act || []).includes(v.seat)) { // the bottom seat decides: you, or (a replay) whom
    if (name(bottom) !== T.me) return T.waitFor(name(bottom));
    return v.phase === "discard" ? T.turnDiscard : T.yourChoice;
  }
  if (v.current_player !== null && v.current_player !== undefined && v.current_player >= 0) return T.waitFor(name(v.current_player));
  return v.others_deciding ? T.othersDeciding : "";
}

/** 听: each card that would win, with its 胡息. */
function drawTing(box, ting) {
  box.replaceChildren();
  box.classList.toggle("hidden", !ting.length);
  if (!ting.length) return;
  box.append(el("span", "ting-label", T.ting));
  for (const x of ting) {
    const w = el("span", "ting-item");
    w.append(cardEl(x.card, "mini"), el("span", null, String(x.huxi ?? x.huxi_zimo ?? "")));
    box.append(w);
  }
}

/** The wall's count, the 亮张 and (泸州) the shown bottom card, in a bar's two labels. */
function drawBar(bar, v) {
  if (bar.wall) bar.wall.textContent = v ? T.wall(v.wall) : "";
  if (bar.lz) bar.lz.replaceChildren();
  if (!bar.lz || !v) return;
  bar.lz.replaceChildren(T.liang + " ", cardEl(v.liangzhang || null, "mini"));
  if (v.bottom) bar.lz.append(" " + T.bottomCard + " ", cardEl(v.bottom, "mini"));
}

/* ------------------------------------------------------------ the hand */
export const isKan = (col) => col.length >= 3 && col.every((x) => x === col[0]);

/** The first grouping of a hand: each 坎 its own column, then the other cards by point
 * (小 below 大). */
export function initialLayout(hand) {
  const count = {};
  for (const c of hand) count[c] = (count[c] || 0) + 1;
  const cols = [];
  for (let pt = 1; pt <= 10; pt++) {
    const rest = [];
    for (const c of ["x" + pt, "d" + pt]) {
      const k = count[c] || 0;
      if (k >= 3) cols.push(Array(k).fill(c));
      else for (let i = 0; i < k; i++) rest.push(c);
    }
    if (rest.length) cols.push(rest);
  }
  if (count.w) cols.push(Array(count.w).fill("w")); // 王 (R39): one column at the end
  return cols;
}

/** The hand's columns into `box`. `h.legal`: the codes that may be discarded (a Set or a
 * Map code → action id), rimmed green; `h.decorate(card, col, idx, code, kan)` adds what a
 * card does (taps, drags: the caller's). */
export function drawHand(box, cols, h = {}) {
  box.replaceChildren();
  box.style.setProperty("--cols", String(Math.max(cols.length, 1))); // held upright: one row (style.css)
  cols.forEach((col, ci) => {
    const c = el("div", "col");
    const kan = isKan(col);
    c.classList.toggle("kan", kan);
    c.dataset.col = String(ci);
    col.forEach((code, i) => {
      const d = cardEl(code);
      if (h.legal && h.legal.has(code)) d.classList.add("legal");
      if (kan) d.classList.add("kanned");
      if (h.decorate) h.decorate(d, ci, i, code, kan);
      c.append(d);
    });
    box.append(c);
  });
}
