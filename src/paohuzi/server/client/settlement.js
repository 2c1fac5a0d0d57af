/* settlement: the result sheet (R33–R38). No timer: the next hand starts when every
 * present human taps 下一局. 看牌桌 hides the sheet behind a bar that brings it back.
 * When the match is over (phase "finished") the sheet is the match summary: ranking,
 * 大赢家, the best hand, points per hand with totals (the state's `summary`; without it,
 * the ranking of `scores`), the last hand folded below, 再来一场 and 返回大厅. */
import { T, lang } from "./i18n.js";
import { S, $, el, nameOf, shownName } from "./store.js";
import { cardEl, cardsEl, codeOfZh, zh } from "./cards.js";
import { dealCheck } from "./fairdeal.js";

export function renderSettlement() {
  const review = S.review; // a past hand's settlement (one 托管 finished), shown on request
  const m = review || S.msg;
  const box = $("#settlement");
  const bar = $("#settle-bar");
  $("#settle-close-btn").classList.toggle("hidden", !review);
  $("#settle-hide-btn").classList.toggle("hidden", !!review);
  // a match a 解散 vote ended mid-hand is finished without a hand's result
  const over = m && (m.result || m.phase === "finished") && !$("#game").classList.contains("hidden")
    && (m.phase === "settlement" || m.phase === "finished");
  if (!over) { box.classList.add("hidden"); bar.classList.add("hidden"); return; }
  const fresh = S.settleFor !== m.hand_id + m.phase;
  if (fresh) { S.settleFor = m.hand_id + m.phase; S.settleHidden = false; }
  if (review) S.settleHidden = false;
  box.classList.toggle("hidden", S.settleHidden);
  bar.classList.toggle("hidden", !S.settleHidden);
  const r = m.result;
  // a 王 pattern names the win (R41: no 自摸 on a pattern)
  const how = r && (r.pattern ? ` · ${T.patterns[r.pattern]}` : r.tianhu ? T.tianhu : r.self_drawn ? T.zimo
    : r.turned_by !== null && r.turned_by !== undefined ? T.turnedBy(nameOf(r.turned_by)) : "");
  const title = !r ? "" : r.huangzhuang ? T.huang : T.winTitle(nameOf(r.winner), how);
  const finished = m.phase === "finished";
  box.classList.toggle("finished", finished);
  $("#settle-title").textContent = finished ? (m.dissolved ? T.dissolvedPrefix : T.finishedPrefix) + T.sumTitle : title;
  const ms = $("#match-summary");
  ms.classList.toggle("hidden", !finished);
  if (finished) ms.replaceChildren(...matchSummary(m));
  const body = $("#settle-body");
  body.replaceChildren();
  let into = body;
  if (r && finished) { // the last hand, folded under the summary
    const det = el("details", "last-hand");
    det.append(el("summary", null, `${T.lastHand} · ${title}`));
    body.append(det);
    into = det;
  }
  if (r && !r.huangzhuang) into.append(summary(r), ...xingWhy(r), groupsTable(r));
  if (r) {
    into.append(paymentsTable(r, m));
    const why = whyLines(r, m); // 坐醒/数醒's 醒, a 荒庄's penalty or 亡牌: why money moved
    if (why.length) into.append(...why);
    if (r.race) into.append(raceLine(r.race));
    into.append(el("p", "handno", T.handNo(r.hand_index, r.hands_total, m.hand_id)));
    into.append(fairLine(m));
  }
  const canReady = m.legal_actions.some((a) => a.id === "ready");
  for (const b of [$("#ready-btn"), $("#bar-ready-btn")]) {
    b.classList.toggle("hidden", finished || !!review);
    b.disabled = !canReady;
    b.textContent = canReady ? T.ready : T.waitOthers;
  }
  const humans = m.players.filter((p) => p.kind === "human" && (p.connected || p.seat === S.seat));
  $("#ready-count").textContent = finished || review ? "" : T.readyCount(humans.filter((p) => p.ready).length, humans.length);
  $("#rematch-btn").classList.toggle("hidden", !finished);
  $("#rematch-btn").disabled = finished && !m.rematch && !m.legal_actions.some((a) => a.id === "rematch");
  $("#lobby-btn").classList.toggle("hidden", !finished);
  $("#settle-replay-btn").classList.toggle("hidden", !r);
  if (fresh) $("#settle-scroll").scrollTop = 0; // a new sheet opens at its top ("X 胡了", 胡息, 等, 名堂)
}

/* 可验证洗牌: the revealed deck against the commitment sent at the deal (fairdeal.js) */
function fairLine(m) {
  const p = el("p", "fair-deal");
  p.id = "fair-deal";
  p.title = T.fairTitle;
  showFair(p, dealCheck(m, (res) => { // the sheet may have been drawn again meanwhile
    const now = document.getElementById("fair-deal");
    if (now && S.msg && S.msg.hand_id === m.hand_id) showFair(now, res);
  }));
  return p;
}

function showFair(p, res) {
  const unsure = res === null || res.why === "unreachable"; // no evidence either way
  p.className = "fair-deal " + (unsure ? "pending" : res.ok ? "ok" : "bad");
  p.textContent = res === null ? T.fairPending : res.ok ? T.fairOk
    : unsure ? T.fairUnsure(T.fairWhy[res.why]) : T.fairBad(T.fairWhy[res.why] || res.why);
}

function summary(r) {
  const sum = el("div", "summary");
  if (r.win_card) { const s = el("span", null, T.winCard); s.append(cardEl(r.win_card, "mini")); sum.append(s); }
  sum.append(el("span", null, T.huxi(r.huxi)));
  const doubled = lang() === "en" && r.doubled_en?.length ? r.doubled_en : r.doubled_zh;
  if (r.doubled && r.doubled.length) sum.append(el("span", null, T.doubled(doubled.join(T.listSep), r.scored_huxi)));
  const unit = r.unit || "等";
  // 自摸's +1 等 said where it is counted (R34; the terminal's sheet says it too)
  sum.append(el("span", "units", unit === "等" ? T.deng(r.deng) + (r.zimo ? T.zimoDeng : "") : T.units(unit, r.deng)));
  if (r.xing_cards) { // 醒 (R42): the card(s) turned and the units they brought
    const x = el("span", "xing", T.xingCard);
    if (r.xing_cards.length) for (const c of r.xing_cards) x.append(cardEl(c, "mini"));
    else x.append("—");
    x.append(" " + T.xingCount(r.xing, unit));
    sum.append(x);
  }
  if (r.wang && r.wang.length) { // R40: what each 王 stood for in the scored split
    const w = el("span", "wang-as", T.wangAs);
    for (const c of r.wang) w.append(asWang(cardEl(c, "mini")));
    sum.append(w);
  }
  const mt = r.mingtang.length ? r.mingtang.map((x) => mtText(x, r.fan_combine, unit)).join(T.listSep) : T.pinghu;
  sum.append(el("span", "mingtang", T.mingtang(mt)), el("span", null, T.fanLine(Math.max(r.fan, 1))));
  if (r.huang_multiplier > 1) sum.append(el("span", "huang-fan", T.huangFan(r.huang_multiplier))); // 黄番: why 底 is more than 等 × 番
  sum.append(el("span", null, T.di(r.di)));
  return sum;
}

/** 醒 (R42), under the line that counts it, where the count needs a reason: 连翻 turned
 * another 醒牌 because the one before made a four-group in the winner's 门子, and 双醒
 * counts the sum twice. Each 醒牌 with what it counted (the server's `xing_counts`). */
function xingWhy(r) {
  const cards = r.xing_cards || [];
  const counts = r.xing_counts || [];
  if (counts.length !== cards.length || !(cards.length > 1 || r.xing_double)) return [];
  const parts = cards.map((c, i) => [zh(c), counts[i], i < cards.length - 1]);
  return [el("p", "why xing-why", T.xingWhy(parts, !!r.xing_double, r.unit || "等"))];
}

/** One 名堂 with its effect: ×番 where 番 multiply, +units, or the base it sets (娄底 100). */
function mtText(x, combine, unit) {
  const name = lang() === "en" && x.name_en ? x.name_en : x.name;
  if (x.effect === "base") return T.mtBase(name, x.fan, unit);
  if (x.effect === "units") return T.mtUnits(name, x.fan, unit);
  return combine === "multiply" ? T.mtTimes(name, x.fan) : T.mtItem(name, x.fan);
}

/** 放炮罚 (R45): every seat's running total against the target. */
function raceLine(race) {
  const p = el("p", "race-line", T.raceTarget(race.target));
  race.totals.forEach((t, s) => { // the name, then its total apart (never "机器人2 0" as "机器人20")
    const x = el("span", "race-total", nameOf(s) + T.raceSep);
    x.append(el("b", "num", signed(t)));
    p.append(x);
  });
  return p;
}

/** A card a 王 stood for (R40): in the 王's colours, named in its title. */
function asWang(card) {
  if (!card) return card;
  card.classList.add("as-wang");
  card.title = T.wangAs + card.title;
  return card;
}

function groupsTable(r) {
  const t = el("table", "groups");
  t.append(row(T.groupsHead, "th"));
  for (const g of r.groups) {
    const tr = el("tr");
    tr.append(el("td", null, T.kinds[g.kind] || g.kind));
    const td = el("td");
    const cards = cardsEl([...g.cards].map(codeOfZh).filter(Boolean));
    for (const k of g.wang || []) asWang(cards.children[k]); // R40: the card a 王 stood for
    td.append(cards);
    tr.append(td, el("td", "num", String(g.huxi)));
    t.append(tr);
  }
  return alignHeads(t);
}

/** The sentences that explain payments beyond 底: what the seat that sat out collected
 * (坐醒 / 数醒: 番 × 醒数 from each loser), a 荒庄's cost or race penalty for the dealer,
 * 亡牌 with the 王 each seat held. */
function whyLines(r, m) {
  const out = [];
  const x = r.xing_seat;
  if (x) out.push(el("p", "why xing-seat", T.xingSeat(T.outOf(m.rules), nameOf(x.seat), x.fan, x.xing, x.each, x.losers)));
  const h = r.huang;
  if (h && h.penalty) out.push(el("p", "why huang-why", T.huangPenalty(nameOf(h.dealer), h.penalty, r.unit || "息")));
  if (h && h.cost) out.push(el("p", "why huang-why", T.huangCost(nameOf(h.dealer), h.cost)));
  if (h && h.wang_pay && h.wang) {
    const held = h.wang.map((n, s) => T.wangHeld(nameOf(s), n)).join(T.listSep);
    out.push(el("p", "why wang-pai", T.wangPai(h.wang_pay, held)));
  }
  return out;
}

function paymentsTable(r, m) {
  const t = el("table", "payments");
  t.append(row(T.payHead, "th"));
  r.payments.forEach((pay, s) => {
    const tr = el("tr");
    const who = el("td", null);
    who.append(el("span", "who-name", nameOf(s))); // 机器人1 on one line, its tag may wrap
    const tag = s === r.winner ? T.winnerTag : s === r.discarder ? (r.baopei ? T.baopeiTag(r.baopei) : T.discarderTag)
      : r.xing_seat && s === r.xing_seat.seat ? T.xingSeatTag(T.outOf(m.rules)) : "";
    if (tag) who.append(el("span", "who-tag", tag)); // 包赔: why the discarder pays ×3
    tr.append(who);
    tr.append(el("td", "num " + (pay > 0 ? "pos" : pay < 0 ? "neg" : ""), (pay > 0 ? "+" : "") + pay));
    const tot = r.match_scores[s];
    tr.append(el("td", "num", (tot > 0 ? "+" : "") + tot));
    // the winner's 总息数 with the winning card in is the win's 胡息 (R33; the view's
    // figure is from before the card, and read 6 beside a win of 18)
    const cur = s === r.winner && !r.huangzhuang ? r.huxi : (r.current_huxi || [])[s];
    tr.append(el("td", "num", String(cur ?? "")));
    const td = el("td", "hand-cell");
    td.append(cardsEl((r.hands || [])[s] || []));
    tr.append(td);
    t.append(tr);
  });
  return alignHeads(t);
}

/* ------------------------------------------------------------ the match summary */
const signed = (n) => (n > 0 ? "+" : "") + n;
function realName(s) {
  const p = S.msg.players && S.msg.players[s];
  return shownName(p && p.name, s);
}
function nameCell(tag, s) {
  const c = el(tag, "who", realName(s));
  if (s === S.seat) c.append(el("span", "badge you", T.me));
  return c;
}

/** The match's numbers: the server's `summary`, or (without it) what `scores` tells. */
export function summaryOf(m) {
  const n = m.players.length;
  const x = m.summary;
  if (x && Array.isArray(x.totals)) return { ...x, hands: x.hands || [], fallback: false };
  const totals = Array.isArray(m.scores) && m.scores.length ? m.scores
    : m.result && m.result.match_scores ? m.result.match_scores : Array(n).fill(0);
  const ranking = [...totals.keys()].sort((a, b) => totals[b] - totals[a] || a - b);
  const top = Math.max(...totals);
  return { hands: [], totals, ranking, big_winner: top > 0 ? ranking.filter((s) => totals[s] === top) : [],
    best_hand: null, fallback: true };
}

function matchSummary(m) {
  const x = summaryOf(m);
  const big = new Set(x.big_winner || []);
  const out = [];
  // ranking (ties share a place); a race (R45) ranks by its settlement, not its 息 totals
  const race = x.race;
  const result = race ? race.final : x.totals;
  const ranking = x.ranking; // (the server's: a race's by its settlement)
  const ol = el("ol", "ranking");
  let place = 0;
  ranking.forEach((s, k) => {
    if (k === 0 || result[s] !== result[ranking[k - 1]]) place = k + 1;
    const li = el("li", big.has(s) ? "big-winner" : null);
    li.dataset.seat = String(s);
    li.append(el("span", "rank", T.rankN(place)), nameCell("span", s));
    if (big.has(s)) li.append(el("span", "badge big", T.bigWinner));
    const t = result[s];
    li.append(el("span", "pts " + (t > 0 ? "pos" : t < 0 ? "neg" : ""), T.points(t)));
    if (race) li.append(el("span", "race-sum", T.raceSum(x.totals[s])));
    const mine = (x.best_hands || [])[s]; // each player's best hand
    if (mine) li.append(el("span", "seat-best", T.seatBest(mine.index, mine.score)));
    ol.append(li);
  });
  out.push(el("h3", null, T.ranking + (x.fallback ? " " + T.summaryFallback : "")), ol);
  if (x.race) out.push(...raceFinal(x.race));
  const b = x.best_hand;
  if (b) {
    const p = el("p", "best-hand");
    p.append(el("span", "badge best", "★ " + T.bestHand), " " + T.bestHandText(realName(b.seat), b.index, b.score));
    out.push(p);
  }
  if (!x.hands.length) return out;
  // points per hand: a row per hand, a column per seat, the totals below
  const seats = [...x.totals.keys()];
  const t = el("table", "per-hand");
  const head = el("tr");
  head.append(el("th", null, T.handCol));
  for (const s of seats) {
    const th = nameCell("th", s);
    if (big.has(s)) th.classList.add("big-winner");
    head.append(th);
  }
  t.append(head);
  for (const h of x.hands) {
    const tr = el("tr");
    tr.dataset.hand = String(h.index);
    const isBest = b && b.index === h.index;
    if (isBest) tr.classList.add("best");
    const th = el("th", "hand-no");
    if (h.hand_id) { // the hand's label opens its replay (app.js listens)
      const rb = el("button", "link rp", T.handRow(h.index) + " ▸");
      rb.type = "button";
      rb.title = T.replayHand;
      rb.dataset.hand = h.hand_id;
      rb.addEventListener("click", () => document.dispatchEvent(new CustomEvent("phz:replay", { detail: h.hand_id })));
      th.append(rb);
    } else th.append(T.handRow(h.index));
    const who = h.winner === null || h.winner === undefined ? T.handHuang : T.handWin(realName(h.winner), h.huxi, h.fan);
    th.append(el("small", null, who));
    // a 王 pattern (R41) names the win, as the hand's sheet does in its title
    if (h.pattern) th.append(el("small", "hand-pattern", T.patterns[h.pattern] || h.pattern));
    tr.append(th);
    for (const s of seats) {
      const v = (h.scores || [])[s] ?? 0;
      const td = el("td", "num " + (v > 0 ? "pos" : v < 0 ? "neg" : ""), signed(v));
      if (h.winner === s) td.classList.add("won");
      if (isBest && b.seat === s) { td.classList.add("best"); td.prepend("★ "); }
      tr.append(td);
    }
    t.append(tr);
  }
  const tot = el("tr", "totals");
  tot.append(el("th", null, T.totalRow));
  for (const s of seats) {
    const v = x.totals[s];
    tot.append(el("td", "num " + (v > 0 ? "pos" : v < 0 ? "neg" : "") + (big.has(s) ? " big-winner" : ""), signed(v)));
  }
  t.append(tot);
  const wrap = el("div", "per-hand-wrap");
  wrap.append(t);
  out.push(el("h3", null, T.perHand), wrap);
  return out;
}

/** A race's final settlement (R45): totals, rounded, pair by pair, each seat's result. */
function raceFinal(race) {
  const t = el("table", "race-final");
  t.append(row(T.raceHead(race.round_to), "th"));
  race.totals.forEach((tot, s) => {
    const tr = el("tr");
    tr.dataset.seat = String(s);
    const f = race.final[s];
    tr.append(nameCell("td", s), el("td", "num", signed(tot)), el("td", "num", signed(race.rounded[s])),
      el("td", "num " + (f > 0 ? "pos" : f < 0 ? "neg" : ""), signed(f)));
    t.append(tr);
  });
  alignHeads(t);
  const ul = el("ul", "transfers");
  for (const x of race.transfers) ul.append(el("li", null, T.pays(realName(x.payer), realName(x.payee), x.amount)));
  if (!race.transfers.length) ul.append(el("li", null, T.noTransfers));
  const out = [el("h3", null, T.raceTitle), el("p", "race-end", race.reached ? T.raceReached(race.target) : T.raceCapped), t, ul];
  const huang = race.huang_penalties.map((n, s) => [n, s]).filter(([n]) => n > 0);
  if (huang.length) out.push(el("p", "race-huang", T.raceHuang(huang.map(([n, s]) => `${realName(s)} −${n}`).join(T.listSep))));
  return out;
}

function row(cells, tag) {
  const tr = el("tr");
  for (const c of cells) tr.append(el(tag, null, c));
  return tr;
}

/** A head over numbers stands where they do (right), read off the first row below it. */
function alignHeads(t) {
  const [head, first] = t.rows;
  if (!first) return t;
  [...head.cells].forEach((th, i) => th.classList.toggle("num", !!first.cells[i]?.classList.contains("num")));
  return t;
}
