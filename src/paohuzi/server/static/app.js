/* 跑胡子 web client — vanilla JS, no build step.
 * Talks INTERFACES.md §5: POST /api/rooms, POST /api/rooms/{ID}/join, WS /ws/{ID}?token=T
 * ({"type":"state",…} in, {"type":"act","version":n,"action":id} out), GET /api/replays/{hand}.
 * Everything shown of the game comes from the server's per-seat `view`. */
"use strict";

const SMALL_ZH = "一二三四五六七八九十";
const BIG_ZH = "壹贰叁肆伍陆柒捌玖拾";
const KIND_ZH = { chi: "吃", peng: "碰", wei: "偎", chouwei: "臭偎", pao: "跑", ti: "提",
  kan: "坎", ju: "句", jiao: "绞", jiang: "将" };
const RULES_ZH = { hunan: "湖南", changde: "常德", luzhou: "泸州" };
const AUTO = new Set(["ti", "wei", "chouwei", "pao"]);

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
};

/* ---------------------------------------------------------------- cards */
function point(code) { return parseInt(code.slice(1), 10); }
function isBig(code) { return code[0] === "d"; }
function isRed(code) { const p = point(code); return p === 2 || p === 7 || p === 10; }
function zh(code) { return (isBig(code) ? BIG_ZH : SMALL_ZH)[point(code) - 1]; }
function codeOfZh(ch) {
  let i = SMALL_ZH.indexOf(ch);
  if (i >= 0) return "x" + (i + 1);
  i = BIG_ZH.indexOf(ch);
  return i >= 0 ? "d" + (i + 1) : null;
}
function kindIndex(code) { return (isBig(code) ? 10 : 0) + point(code) - 1; }
function cardsText(codes) { return codes.map((c) => (c ? zh(c) : "□")).join(""); }

/** One card: null → a face-down back. 大字 cream/heavy, 小字 white/light, 红字 red. */
function cardEl(code, size) {
  const d = el("div", "card" + (size ? " " + size : ""));
  if (!code) { d.classList.add("back"); return d; }
  d.classList.add(isBig(code) ? "big" : "small");
  if (isRed(code)) d.classList.add("red");
  d.dataset.card = code;
  d.title = (isBig(code) ? "大" : "小") + zh(code);
  d.append(el("span", "glyph", zh(code)), el("span", "tag", isBig(code) ? "大" : "小"));
  return d;
}
function cardsEl(codes, size = "mini") {
  const w = el("span", "cards");
  for (const c of codes) w.append(cardEl(c, size));
  return w;
}
function meldEl(m) {
  const w = el("div", "meld");
  w.append(cardsEl(m.cards), el("span", "kind", KIND_ZH[m.kind] || m.kind));
  return w;
}

/* ---------------------------------------------------------------- session */
const S = {
  room: null, token: null, seat: null, ws: null, msg: null, retry: 0, leaving: false,
  layout: [], layoutHand: null, selected: null, logHand: null, logN: 0, offset: 0,
  chiOpen: false, settleHidden: false, settleFor: null,
};

function saveSession() {
  localStorage.setItem("phz:" + S.room, JSON.stringify({ token: S.token, seat: S.seat }));
}
function loadSession(room) {
  try { return JSON.parse(localStorage.getItem("phz:" + room) || "null"); } catch { return null; }
}

function show(id) {
  for (const s of ["lobby", "game", "replay"]) $("#" + s).classList.toggle("hidden", s !== id);
  if (id !== "game") $("#settlement").classList.add("hidden");
}

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const msg = data.message || (data.detail && JSON.stringify(data.detail)) || r.statusText;
    throw new Error(msg);
  }
  return data;
}

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
      rules: $("#rules").value, bots: parseInt($("#bots").value, 10), bot: $("#bot").value, // easy | normal | hard
      hands: parseInt($("#hands").value, 10) || undefined, name: $("#name").value || undefined,
    });
    enterRoom(r.room, r.token, r.seat);
  } catch (e) { $("#lobby-error").textContent = "创建失败：" + e.message; }
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
  } catch (e) { $("#lobby-error").textContent = "加入失败：" + e.message; }
}

function enterRoom(room, token, seat) {
  if (S.ws) { const old = S.ws; S.ws = null; old.close(); }
  Object.assign(S, { room, token, seat, msg: null, hint: null, closeReason: null, layout: [], layoutHand: null, selected: null,
    logHand: null, logN: 0, leaving: false, retry: 0, settleFor: null, settleHidden: false });
  saveSession();
  if (location.hash !== "#/room/" + room) history.replaceState(null, "", "#/room/" + room);
  show("game");
  $("#log-list").replaceChildren();
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
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { S.retry = 0; onState(m); }
    else if (m.type === "hint") { S.hint = m; renderHint(); }
    else if (m.type === "error") onError(m);
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws || S.leaving) return;
    if (ev.code === 4401 || ev.code === 4404 || ev.code === 4403) {
      if (ev.code !== 4403) localStorage.removeItem("phz:" + S.room);
      show("lobby");
      $("#lobby-error").textContent = S.closeReason || (ev.code === 4404 ? "房间不存在" : "座位凭证无效");
      return;
    }
    if (ev.code === 4409) { notice(S.closeReason || "这个座位已在别处连接", "error"); return; } // the newer tab plays
    notice("连接断开，正在重连…");
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(() => { if (S.ws === ws && !S.leaving) connect(); }, 300 * 2 ** S.retry);
  };
}

function send(obj) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
}
function act(id) {
  if (!S.msg) return;
  send({ type: "act", version: S.msg.version, action: id });
  S.selected = null;
  S.chiOpen = false;
}

function onError(m) {
  if (m.code === "stale_version") return; // a newer state is on its way
  // the server's own words (Chinese, for players); onclose shows those that end the connection
  if (["bad_token", "unknown_room", "bad_origin", "replaced"].includes(m.code)) { S.closeReason = m.message; return; }
  notice("⚠ " + m.message, "error");
}

/* ---------------------------------------------------------------- state */
function nameOf(seat) {
  if (seat === S.seat) return "我";
  const p = S.msg && S.msg.players[seat];
  return p ? p.name || `玩家${seat + 1}` : `玩家${seat + 1}`;
}

function onState(m) {
  const first = !S.msg || S.msg.hand_id !== m.hand_id;
  S.msg = m;
  S.offset = m.server_time - Date.now() / 1000;
  document.body.dataset.version = String(m.version); // for tests and debugging
  document.body.dataset.phase = m.phase;
  if (m.phase !== "settlement" && m.phase !== "finished") S.settleHidden = false;
  processLog(m, first);
  render();
}

function processLog(m, first) {
  const v = m.view;
  if (!v) return;
  if (S.logHand !== m.hand_id) {
    S.logHand = m.hand_id;
    S.logN = 0;
    $("#log-list").replaceChildren();
  }
  const quiet = first && S.logN === 0 && v.log.length > 4; // a (re)connection: no toast storm
  for (const e of v.log.slice(S.logN)) {
    const text = eventText(e);
    if (!text) continue;
    const li = el("li", null, text);
    $("#log-list").append(li);
    if (!quiet && e.type !== "deal" && e.type !== "pile" && e.type !== "settle") {
      notice(text, AUTO.has(e.type) || e.type === "hu" ? "auto" : "");
    }
  }
  S.logN = v.log.length;
  const log = $("#log");
  log.scrollTop = log.scrollHeight;
}

function eventText(e) {
  const who = e.seat !== undefined && e.seat !== null ? nameOf(e.seat) : "";
  const card = e.card ? zh(e.card) : "";
  switch (e.type) {
    case "deal": return e.seat === S.seat ? `发牌：我拿到 ${e.count} 张` : null;
    case "liangzhang": return card ? `${who}亮张 ${card}` : `${who}的亮张（暗）`;
    case "bottom": return `底牌 ${card}`;
    case "ti": return `${who} 提 ${card || ""}`.trim();
    case "wei": return card ? `${who} 偎 ${card}` : `${who} 偎牌`;
    case "chouwei": return `${who} 臭偎 ${card}`;
    case "pao": return `${who} 跑 ${card}`;
    case "draw": return card ? `${who} 翻出 ${card}` : `${who} 翻牌`;
    case "discard": return `${who} 打出 ${card}`;
    case "chi": {
      const g = (e.groups || []).map((x) => cardsText(x));
      return `${who} 吃 ${card}（${g[0] || ""}${g.length > 1 ? " 比 " + g.slice(1).join(" ") : ""}）`;
    }
    case "peng": return `${who} 碰 ${card}`;
    case "pass": return `${who} 过`;
    case "pile": return `${card} 无人要，进${who}的弃牌区`;
    case "hu": return e.card ? `${who} 胡 ${card}${e.self_drawn ? "（自摸）" : ""}` : `${who} 天胡！`;
    case "huangzhuang": return "荒庄：牌墙摸完，无人胡牌";
    case "settle": return null;
    default: return `${who} ${e.type} ${card}`;
  }
}

function notice(text, cls = "") {
  const n = el("div", "notice " + cls, text);
  $("#notices").append(n);
  setTimeout(() => n.remove(), 3300);
  while ($("#notices").children.length > 4) $("#notices").firstChild.remove();
}

/* ---------------------------------------------------------------- hand layout */
/** Initial grouping: each 坎 its own column, then the other cards by point (小 below 大). */
function initialLayout(hand) {
  const count = {};
  for (const c of hand) count[c] = (count[c] || 0) + 1;
  const cols = [];
  for (let p = 1; p <= 10; p++) {
    const rest = [];
    for (const c of ["x" + p, "d" + p]) {
      const n = count[c] || 0;
      if (n >= 3) cols.push(Array(n).fill(c));
      else for (let i = 0; i < n; i++) rest.push(c);
    }
    if (rest.length) cols.push(rest);
  }
  return cols;
}

/** Keep the player's arrangement; drop cards that left the hand, place new ones by point. */
function reconcile(layout, hand) {
  const left = {};
  for (const c of hand) left[c] = (left[c] || 0) + 1;
  const cols = layout.map((col) => col.filter((c) => (left[c] > 0 ? (left[c]--, true) : false)));
  for (const [c, n] of Object.entries(left)) {
    for (let i = 0; i < n; i++) {
      const home = cols.find((col) => col.length && col.length < 4 && point(col[0]) === point(c)
        && !(col.length === 3 && col.every((x) => x === col[0])));
      if (home) home.push(c);
      else {
        const at = cols.findIndex((col) => col.length && point(col[0]) > point(c));
        cols.splice(at < 0 ? cols.length : at, 0, [c]);
      }
    }
  }
  return cols.filter((col) => col.length);
}

function syncLayout(v) {
  const key = S.msg.hand_id;
  if (S.layoutHand !== key || !S.layout.length) {
    S.layout = initialLayout(v.hand);
    S.layoutHand = key;
    S.selected = null;
  } else {
    S.layout = reconcile(S.layout, v.hand);
  }
  if (S.selected) {
    const col = S.layout[S.selected.col];
    if (!col || col[S.selected.idx] !== S.selected.card) S.selected = null;
  }
}

function moveSelected(toCol) {
  const s = S.selected;
  if (!s || s.col === toCol) return;
  const [card] = S.layout[s.col].splice(s.idx, 1);
  if (toCol === -1) S.layout.push([card]);
  else S.layout[toCol].push(card);
  S.layout = S.layout.filter((c) => c.length);
  S.selected = null;
  renderHand();
  renderActions();
  renderHint();
}

function renderHand() {
  const m = S.msg;
  const box = $("#hand");
  box.replaceChildren();
  if (!m || !m.view) return;
  const legal = new Set(m.legal_actions.filter((a) => a.type === "discard").map((a) => a.card));
  S.layout.forEach((col, ci) => {
    const c = el("div", "col");
    const kan = col.length === 3 && col.every((x) => x === col[0]);
    if (kan) c.classList.add("kan");
    c.dataset.col = String(ci);
    col.forEach((code, i) => {
      const d = cardEl(code);
      if (legal.has(code)) d.classList.add("legal");
      if (kan) d.classList.add("kanned");
      const sel = S.selected && S.selected.col === ci && S.selected.idx === i;
      if (sel) d.classList.add("selected");
      d.draggable = true;
      d.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (S.selected && S.selected.col !== ci) { moveSelected(ci); return; }
        S.selected = sel ? null : { col: ci, idx: i, card: code };
        renderHand();
        renderActions();
        renderHint();
      });
      d.addEventListener("dblclick", (ev) => {
        ev.stopPropagation();
        if (legal.has(code)) act("discard:" + code);
      });
      d.addEventListener("dragstart", (ev) => {
        S.selected = { col: ci, idx: i, card: code };
        ev.dataTransfer.setData("text/plain", code);
      });
      c.append(d);
    });
    c.addEventListener("click", () => moveSelected(ci));
    addDrop(c, ci);
    box.append(c);
  });
  const add = el("div", "col newcol", "＋");
  add.title = "移到新的一列";
  add.addEventListener("click", () => moveSelected(-1));
  addDrop(add, -1);
  box.append(add);
}

function addDrop(node, ci) {
  node.addEventListener("dragover", (ev) => { ev.preventDefault(); node.classList.add("drop"); });
  node.addEventListener("dragleave", () => node.classList.remove("drop"));
  node.addEventListener("drop", (ev) => { ev.preventDefault(); node.classList.remove("drop"); moveSelected(ci); });
}

/* ---------------------------------------------------------------- rendering */
function render() {
  const m = S.msg;
  const v = m.view;
  const n = m.players.length;
  $("#room-label").textContent = `房间 ${m.room}`;
  $("#hand-label").textContent = `${RULES_ZH[m.rules] || m.rules} · 第 ${Math.max(m.hand_index, 1)}/${m.hands} 局`;
  $("#wall-label").textContent = v ? `牌墙 ${v.wall}` : "";
  const lz = $("#lz-label");
  lz.replaceChildren();
  if (v) {
    lz.append("亮张 ", v.liangzhang ? cardEl(v.liangzhang, "mini") : cardEl(null, "mini"));
    if (v.bottom) lz.append(" 底 ", cardEl(v.bottom, "mini"));
  }
  const free = m.players.filter((p) => p.kind === "free").length;
  $("#waiting").classList.toggle("hidden", m.phase !== "waiting");
  $("#waiting").textContent = `等待 ${free} 位朋友加入 — 房间号 ${m.room}（分享链接：${location.origin}/#/room/${m.room}）`;
  $("#away-banner").classList.toggle("hidden", !m.away);
  $("#hints-toggle").checked = !!S.hintsOn;

  const opp = $("#opponents");
  opp.replaceChildren();
  for (let k = 1; k < n; k++) opp.append(seatEl((S.seat + k) % n, k, n));
  fillSeat($("#me"), S.seat);

  if (v) {
    syncLayout(v);
    $("#huxi-value").textContent = String(v.huxi);
  } else {
    S.layout = [];
  }
  renderCenter();
  renderHand();
  renderActions();
  renderHint();
  renderSettlement();
  tick();
}

const REL = { 3: { 1: "下家", 2: "上家" }, 4: { 1: "下家", 2: "对家", 3: "上家" } };

function seatEl(seat, k, n) {
  const d = el("div", "seat");
  d.dataset.seat = String(seat);
  d.append(el("div", "seat-head"), el("div", "melds"), el("div", "pile"));
  fillSeat(d, seat, (REL[n] || {})[k]);
  return d;
}

function fillSeat(node, seat, rel) {
  const m = S.msg;
  const v = m.view;
  const p = m.players[seat];
  const head = $(".seat-head", node);
  head.replaceChildren();
  head.append(el("span", "name", seat === S.seat ? `我（${p.name}）` : p.name || `玩家${seat + 1}`));
  if (rel) head.append(el("span", "badge", rel));
  const badges = el("span", "badges");
  if (v && v.dealer === seat) badges.append(el("span", "badge dealer", "庄"));
  if (p.kind === "bot") badges.append(el("span", "badge", "机器人"));
  if (p.kind === "free") badges.append(el("span", "badge off", "空位"));
  if (p.kind === "human" && !p.connected && seat !== S.seat) badges.append(el("span", "badge off", "离线"));
  if (p.away) badges.append(el("span", "badge away", "托管"));
  const out = v && !v.seats.includes(seat);
  if (out) badges.append(el("span", "badge", "坐底"));
  head.append(badges, el("span", "score", `${m.scores[seat] >= 0 ? "+" : ""}${m.scores[seat]}`));
  const timer = el("span", "timer");
  timer.dataset.timerSeat = String(seat);
  head.append(timer);
  node.classList.toggle("out", !!out);
  node.classList.toggle("turn", !!v && v.current_player === seat);
  const melds = $(".melds", node);
  melds.replaceChildren();
  const pile = $(".pile", node);
  pile.replaceChildren();
  if (!v) return;
  for (const mm of v.tables[seat]) melds.append(meldEl(mm));
  if (seat !== S.seat && !out) {
    const backs = el("span", "backs");
    for (let i = 0; i < Math.min(v.hand_sizes[seat], 8); i++) backs.append(cardEl(null, "mini"));
    melds.append(backs, el("span", "count", `手牌 ${v.hand_sizes[seat]}`));
  }
  for (const c of v.piles[seat]) pile.append(cardEl(c, "mini"));
}

function renderCenter() {
  const m = S.msg;
  const v = m.view;
  const turn = $("#turn");
  const open = $("#open");
  open.replaceChildren();
  if (!v) { turn.textContent = m.phase === "waiting" ? "等待入座" : ""; return; }
  if (m.phase !== "playing") turn.textContent = m.phase === "finished" ? "比赛结束" : "本局结束";
  else if (m.legal_actions.length) turn.textContent = v.phase === "discard" ? "轮到你出牌" : "请选择：吃 / 碰 / 胡 / 过";
  else if (v.current_player !== null && v.current_player >= 0) turn.textContent = `等待 ${nameOf(v.current_player)}`;
  else turn.textContent = v.others_deciding ? "等待其他玩家选择…" : "";
  if (v.open) {
    const src = { draw: "翻出", discard: "打出", liangzhang: "亮张" }[v.open.source] || v.open.source;
    open.append(cardEl(v.open.card, "huge"), el("span", null, `${nameOf(v.open.owner)} ${src}`));
  }
}

function renderActions() {
  const m = S.msg;
  const box = $("#actions");
  const picker = $("#chi-picker");
  box.replaceChildren();
  picker.replaceChildren();
  picker.classList.add("hidden");
  if (!m || m.phase !== "playing") return;
  const acts = m.legal_actions;
  const discards = acts.filter((a) => a.type === "discard");
  if (discards.length) {
    const sel = S.selected && discards.find((a) => a.card === S.selected.card);
    const b = el("button", "primary", sel ? `打出 ${zh(sel.card)}` : "选一张牌打出");
    b.id = "discard-btn";
    b.disabled = !sel;
    if (sel) b.dataset.actionId = sel.id;
    b.addEventListener("click", () => sel && act(sel.id));
    box.append(b);
  }
  const chis = acts.filter((a) => a.type === "chi");
  for (const a of acts) {
    if (a.type === "discard" || a.type === "chi") continue;
    const b = el("button", a.type, a.type === "pass" ? "过" : a.label);
    b.dataset.actionId = a.id;
    b.addEventListener("click", () => act(a.id));
    if (a.type === "pass") box.append(b); else box.prepend(b);
  }
  if (chis.length) {
    const b = el("button", "chi", `吃 ${zh(chis[0].card)}${chis.length > 1 ? ` (${chis.length} 种)` : ""}`);
    b.id = "chi-btn";
    b.addEventListener("click", () => { S.chiOpen = !S.chiOpen; renderActions(); renderHint(); });
    const pass = $('[data-action-id="pass"]', box);
    box.insertBefore(b, pass);
    if (S.chiOpen) {
      picker.classList.remove("hidden");
      for (const a of chis) {
        const pkg = el("div", "package");
        pkg.tabIndex = 0;
        pkg.dataset.actionId = a.id;
        pkg.title = a.label;
        a.groups.forEach((g, i) => {
          const w = cardsEl(g, "mini");
          if (i) w.classList.add("bi");
          pkg.append(w);
          if (i === 0 && a.groups.length > 1) pkg.append(el("span", "label", "比"));
        });
        pkg.addEventListener("click", () => act(a.id));
        pkg.addEventListener("keydown", (ev) => { if (ev.key === "Enter") act(a.id); });
        picker.append(pkg);
      }
    }
  }
}

/** 提示 (optional): the suggested choice is outlined; 听牌 with their 胡息 listed. */
function renderHint() {
  const h = $("#hint");
  const m = S.msg;
  document.querySelectorAll(".hinted").forEach((x) => x.classList.remove("hinted"));
  if (!S.hintsOn || !m || m.phase !== "playing") { h.classList.add("hidden"); return; }
  h.classList.remove("hidden");
  const x = S.hint && S.hint.version === m.version ? S.hint.hint : null; // a hint follows its state
  if (x === undefined || x === null) { h.textContent = "提示：思考中…"; return; }
  if (typeof x !== "object") { h.textContent = "提示：" + x; return; }
  let text = "提示：" + ((x.reason && x.reason.zh) || x.label || "");
  if (x.tingpai && x.tingpai.length) {
    text += "　听 " + x.tingpai.map((t) => t.zh + (t.huxi !== null && t.huxi !== undefined ? `(${t.huxi}息)` : "")).join(" ");
  }
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

/* timers: deadlines are server epoch seconds; S.offset maps them to this clock */
function tick() {
  const m = S.msg;
  document.querySelectorAll("[data-timer-seat]").forEach((t) => { t.textContent = ""; });
  if (!m) return;
  const now = Date.now() / 1000 + S.offset;
  for (const t of m.timers || []) {
    const left = Math.max(0, Math.ceil(t.deadline - now));
    document.querySelectorAll(`[data-timer-seat="${t.seat}"]`).forEach((x) => { x.textContent = `剩 ${left} 秒`; });
  }
}
setInterval(tick, 500);

/* ---------------------------------------------------------------- settlement */
function renderSettlement() {
  const m = S.msg;
  const box = $("#settlement");
  if (!m || !m.result || $("#game").classList.contains("hidden") || (m.phase !== "settlement" && m.phase !== "finished")) { box.classList.add("hidden"); return; }
  if (S.settleFor !== m.hand_id + m.phase) { S.settleFor = m.hand_id + m.phase; S.settleHidden = false; }
  box.classList.toggle("hidden", S.settleHidden);
  const r = m.result;
  const title = r.huangzhuang ? "荒庄" : `${nameOf(r.winner)} 胡了！${r.tianhu ? "（天胡）" : r.self_drawn ? "（自摸）" : ""}`;
  $("#settle-title").textContent = (m.phase === "finished" ? "比赛结束 · " : "") + title;
  const body = $("#settle-body");
  body.replaceChildren();
  if (!r.huangzhuang) {
    const sum = el("div", "summary");
    if (r.win_card) { const s = el("span", null, "胡牌 "); s.append(cardEl(r.win_card, "mini")); sum.append(s); }
    sum.append(el("span", null, `胡息 ${r.huxi}`));
    if (r.doubled && r.doubled.length) sum.append(el("span", null, `翻倍 ${r.doubled_zh.join("、")} → ${r.scored_huxi}`));
    sum.append(el("span", null, `等 ${r.deng}`));
    const mt = r.mingtang.length ? r.mingtang.map((x) => `${x.name} ${x.fan}番`).join("、") : "平胡";
    sum.append(el("span", null, `名堂 ${mt}`), el("span", null, `番 ${Math.max(r.fan, 1)}`), el("span", null, `底 ${r.di}`));
    body.append(sum);
    const t = el("table");
    t.append(row(["门子", "", "胡息"], "th"));
    for (const g of r.groups) {
      const codes = [...g.cards].map(codeOfZh).filter(Boolean);
      const tr = el("tr");
      tr.append(el("td", null, KIND_ZH[g.kind] || g.kind));
      const td = el("td"); td.append(cardsEl(codes)); tr.append(td);
      tr.append(el("td", "num", String(g.huxi)));
      t.append(tr);
    }
    body.append(t);
  }
  const t2 = el("table");
  t2.append(row(["玩家", "本局", "总分", "当前总息数", "手牌"], "th"));
  r.payments.forEach((pay, s) => {
    const tr = el("tr");
    tr.append(el("td", null, nameOf(s) + (s === r.winner ? "（胡）" : "") + (s === r.discarder ? "（放炮）" : "")));
    tr.append(el("td", "num " + (pay > 0 ? "pos" : pay < 0 ? "neg" : ""), (pay > 0 ? "+" : "") + pay));
    const tot = r.match_scores[s];
    tr.append(el("td", "num", (tot > 0 ? "+" : "") + tot));
    tr.append(el("td", "num", String((r.current_huxi || [])[s] ?? "")));
    const td = el("td"); td.append(cardsEl((r.hands || [])[s] || [])); tr.append(td);
    t2.append(tr);
  });
  body.append(t2, el("p", null, `第 ${r.hand_index}/${r.hands_total} 局 · 牌局编号 ${m.hand_id}`));
  const ready = $("#ready-btn");
  const canReady = m.legal_actions.some((a) => a.id === "ready");
  ready.classList.toggle("hidden", m.phase === "finished");
  ready.disabled = !canReady;
  ready.textContent = canReady ? "下一局" : "等待其他玩家…";
}

function row(cells, tag) {
  const tr = el("tr");
  for (const c of cells) tr.append(el(tag, null, c));
  return tr;
}

/* ---------------------------------------------------------------- replay */
const R = { data: null, i: 0, timer: null };

async function openReplay(handId) {
  show("replay");
  history.replaceState(null, "", "#/replay/" + handId);
  $("#replay-title").textContent = `回放 ${handId}`;
  $("#replay-table").replaceChildren(el("p", null, "载入中…"));
  try {
    R.data = await api(`/api/replays/${encodeURIComponent(handId)}`);
  } catch (e) {
    $("#replay-table").replaceChildren(el("p", "error", "无法载入回放：" + e.message));
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
  info.append(el("div", "seat-head", `${RULES_ZH[d.rules] || d.rules} · 第 ${R.i}/${d.frames.length - 1} 步 · 牌墙 ${f.wall}`));
  const lz = el("div");
  lz.append("亮张 ", cardEl(d.liangzhang, "mini"));
  if (f.open) lz.append(`　玩家${f.open.owner + 1} ${({ draw: "翻出", discard: "打出", liangzhang: "亮张" })[f.open.source] || ""} `, cardEl(f.open.card, "mini"));
  info.append(lz);
  box.append(info);
  for (let s = 0; s < d.players; s++) {
    const seat = el("div", "seat");
    const out = !d.seats.includes(s);
    seat.classList.toggle("out", out);
    seat.classList.toggle("turn", f.to_act.includes(s));
    const head = el("div", "seat-head");
    head.append(el("span", "name", `玩家${s + 1}${s === d.dealer ? "（庄）" : ""}${out ? "（坐底）" : ""}`), el("span", "score", `胡息 ${f.huxi[s]}`));
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
  const step = $("#replay-step");
  const saveSeat = S.seat;
  S.seat = -1; // replay: name every seat by number
  const lines = f.events.map(eventTextReplay).filter(Boolean);
  S.seat = saveSeat;
  step.textContent = R.i === 0 ? "发牌" : lines.join("；");
  $("#replay-slider").value = String(R.i);
}

function eventTextReplay(e) {
  const saved = S.msg;
  S.msg = null;
  const t = e.type === "deal" ? null : eventText(e);
  S.msg = saved;
  return t;
}

function replayStep(what) {
  const n = R.data ? R.data.frames.length : 0;
  if (!n) return;
  if (what === "play") {
    if (R.timer) { clearInterval(R.timer); R.timer = null; $("#replay-play").textContent = "▶ 播放"; return; }
    $("#replay-play").textContent = "⏸ 暂停";
    R.timer = setInterval(() => {
      if (R.i >= n - 1) { replayStep("play"); return; }
      R.i++; renderReplay();
    }, 900);
    return;
  }
  R.i = { first: 0, prev: Math.max(0, R.i - 1), next: Math.min(n - 1, R.i + 1), last: n - 1 }[what];
  renderReplay();
}

function closeReplay() {
  if (R.timer) replayStep("play");
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
  if (kind === "replay" && arg) { S.leaving = true; openReplay(decodeURIComponent(arg)); return; }
  show("lobby");
}

document.addEventListener("DOMContentLoaded", () => {
  fillBots();
  $("#rules").addEventListener("change", fillBots);
  $("#create-form").addEventListener("submit", createRoom);
  $("#join-form").addEventListener("submit", joinRoom);
  $("#replay-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const id = $("#replay-id").value.trim();
    if (id) { S.leaving = true; openReplay(id); }
  });
  $("#leave-btn").addEventListener("click", leave);
  $("#log-btn").addEventListener("click", () => $("#log").classList.toggle("hidden"));
  $("#resume-btn").addEventListener("click", () => send({ type: "resume" }));
  $("#hints-toggle").addEventListener("change", (ev) => {
    S.hintsOn = ev.target.checked;
    send({ type: "hints", on: S.hintsOn });
    renderHint();
  });
  $("#ready-btn").addEventListener("click", () => act("ready"));
  $("#settle-hide-btn").addEventListener("click", () => { S.settleHidden = true; $("#settlement").classList.add("hidden"); });
  $("#settle-replay-btn").addEventListener("click", () => S.msg && openReplay(S.msg.hand_id));
  document.querySelectorAll("#replay-controls [data-step]").forEach((b) => b.addEventListener("click", () => replayStep(b.dataset.step)));
  $("#replay-slider").addEventListener("input", (ev) => { R.i = parseInt(ev.target.value, 10); renderReplay(); });
  $("#replay-close").addEventListener("click", closeReplay);
  window.addEventListener("hashchange", route);
  route();
});
