/* settlement: the result sheet (R33–R38). No timer: the next hand starts when every
 * present human taps 下一局. 看牌桌 hides the sheet behind a bar that brings it back;
 * the match's last sheet offers 再来一场 and 返回大厅. */
import { T, S, $, el, nameOf } from "./store.js";
import { cardEl, cardsEl, codeOfZh } from "./cards.js";

export function renderSettlement() {
  const m = S.msg;
  const box = $("#settlement");
  const bar = $("#settle-bar");
  const over = m && m.result && !$("#game").classList.contains("hidden") && (m.phase === "settlement" || m.phase === "finished");
  if (!over) { box.classList.add("hidden"); bar.classList.add("hidden"); return; }
  if (S.settleFor !== m.hand_id + m.phase) { S.settleFor = m.hand_id + m.phase; S.settleHidden = false; }
  box.classList.toggle("hidden", S.settleHidden);
  bar.classList.toggle("hidden", !S.settleHidden);
  const r = m.result;
  const how = r.tianhu ? T.tianhu : r.self_drawn ? T.zimo : "";
  const title = r.huangzhuang ? T.huang : T.winTitle(nameOf(r.winner), how);
  $("#settle-title").textContent = (m.phase === "finished" ? T.finishedPrefix : "") + title;
  const body = $("#settle-body");
  body.replaceChildren();
  if (!r.huangzhuang) body.append(summary(r), groupsTable(r));
  body.append(paymentsTable(r), el("p", "handno", T.handNo(r.hand_index, r.hands_total, m.hand_id)));
  const finished = m.phase === "finished";
  const canReady = m.legal_actions.some((a) => a.id === "ready");
  for (const b of [$("#ready-btn"), $("#bar-ready-btn")]) {
    b.classList.toggle("hidden", finished);
    b.disabled = !canReady;
    b.textContent = canReady ? T.ready : T.waitOthers;
  }
  const humans = m.players.filter((p) => p.kind === "human" && (p.connected || p.seat === S.seat));
  $("#ready-count").textContent = finished ? "" : T.readyCount(humans.filter((p) => p.ready).length, humans.length);
  $("#rematch-btn").classList.toggle("hidden", !finished);
  $("#lobby-btn").classList.toggle("hidden", !finished);
}

function summary(r) {
  const sum = el("div", "summary");
  if (r.win_card) { const s = el("span", null, T.winCard); s.append(cardEl(r.win_card, "mini")); sum.append(s); }
  sum.append(el("span", null, T.huxi(r.huxi)));
  if (r.doubled && r.doubled.length) sum.append(el("span", null, T.doubled(r.doubled_zh.join("、"), r.scored_huxi)));
  sum.append(el("span", null, T.deng(r.deng)));
  const mt = r.mingtang.length ? r.mingtang.map((x) => T.mtItem(x.name, x.fan)).join("、") : T.pinghu;
  sum.append(el("span", null, T.mingtang(mt)), el("span", null, T.fan(Math.max(r.fan, 1))), el("span", null, T.di(r.di)));
  return sum;
}

function groupsTable(r) {
  const t = el("table", "groups");
  t.append(row(T.groupsHead, "th"));
  for (const g of r.groups) {
    const tr = el("tr");
    tr.append(el("td", null, T.kinds[g.kind] || g.kind));
    const td = el("td");
    td.append(cardsEl([...g.cards].map(codeOfZh).filter(Boolean)));
    tr.append(td, el("td", "num", String(g.huxi)));
    t.append(tr);
  }
  return t;
}

function paymentsTable(r) {
  const t = el("table", "payments");
  t.append(row(T.payHead, "th"));
  r.payments.forEach((pay, s) => {
    const tr = el("tr");
    tr.append(el("td", null, nameOf(s) + (s === r.winner ? T.winnerTag : "") + (s === r.discarder ? T.discarderTag : "")));
    tr.append(el("td", "num " + (pay > 0 ? "pos" : pay < 0 ? "neg" : ""), (pay > 0 ? "+" : "") + pay));
    const tot = r.match_scores[s];
    tr.append(el("td", "num", (tot > 0 ? "+" : "") + tot));
    tr.append(el("td", "num", String((r.current_huxi || [])[s] ?? "")));
    const td = el("td", "hand-cell");
    td.append(cardsEl((r.hands || [])[s] || []));
    tr.append(td);
    t.append(tr);
  });
  return t;
}

function row(cells, tag) {
  const tr = el("tr");
  for (const c of cells) tr.append(el(tag, null, c));
  return tr;
}
