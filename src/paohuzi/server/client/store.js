/* store: every UI string of the table (T_ZH, and T_EN with the same keys: a test checks
 * it), the settings kept in localStorage, the session S shared by the modules, DOM helpers.
 * `T` answers in the language chosen in i18n.js (中文 / English, kept in localStorage). */
import { bilingual, t } from "./i18n.js";

export const T_ZH = {
  turnDiscard: "轮到你出牌",
  choose: (names) => `请选择：${names.join(" / ")}`,
  waitFor: (who) => `等待 ${who}`,
  othersDeciding: "等待其他玩家选择…",
  waitingSeats: "等待入座",
  handOver: "本局结束",
  matchOver: "比赛结束",
  me: "我",
  player: (i) => `玩家${i + 1}`,
  botN: (n) => `机器人${n}`, playerN: (n) => `玩家${n}`,
  rel: { 3: { 1: "下家", 2: "上家" }, 4: { 1: "下家", 2: "对家", 3: "上家" } },
  dealer: "庄", bot: "机器人", free: "空位", offline: "离线", online: "在线", away: "托管", out: "坐底",
  handCount: (n) => `${n}张`,
  tableHuxi: (n) => `${n}息`,
  openSrc: { draw: "翻出", discard: "打出", liangzhang: "亮张" },
  openDraw: "翻", openDiscard: "打",
  room: (c) => `房间 ${c}`,
  handOf: (rules, i, n) => `${rules} · 第 ${i}/${n} 局`,
  wall: (n) => `牌墙 ${n}`,
  liang: "亮张", bottomCard: "底",
  rules: { hunan: "湖南", changde: "常德", luzhou: "泸州" },
  kinds: { chi: "吃", peng: "碰", wei: "偎", chouwei: "臭偎", pao: "跑", ti: "提", kan: "坎",
    ju: "句", jiao: "绞", jiang: "将" },
  act: { hu: "胡", peng: "碰", chi: "吃", pass: "过", discard: "打出" },
  keys: { hu: "H", peng: "P", chi: "C", pass: "G", discard: "Enter" },
  discardBtn: (c) => `打出 ${c}`,
  pickDiscard: "选一张牌打出",
  chiN: (c, n) => `吃 ${c}${n > 1 ? `（${n} 种）` : ""}`,
  bi: "比",
  huxiGain: (n) => `+${n} 胡息`,
  curHuxi: "当前胡息",
  ting: "听",
  tingItem: (c, h) => `${c}${h !== null && h !== undefined ? `(${h}息)` : ""}`,
  secs: (n) => `${n}`,
  warnAway: "即将托管！",
  warnClaim: "即将自动选择",
  awayBanner: "托管中：机器人正在替你出牌",
  resume: "取消托管",
  waitFriends: (n, room, link) => `等待 ${n} 位朋友加入 — 房间号 ${room}（分享链接：${link}）`,
  hint: "提示", hintThinking: "提示：思考中…", hintPrefix: "提示：",
  log: "记录", leave: "离开", muted: "♪ 静音", sound: "♪ 音效", voiceLabel: "语音",
  more: "更多",
  logTitle: "牌局记录", close: "关闭", countdown: "倒计时", settlementLabel: "结算",
  reconnecting: "连接断开，正在重连…",
  replacedElsewhere: "这个座位已在别处连接",
  noRoom: "房间不存在", badToken: "座位凭证无效",
  createFail: (m) => `创建失败：${m}`, joinFail: (m) => `加入失败：${m}`,
  // settlement
  winTitle: (who, how) => `${who} 胡了！${how}`,
  tianhu: "（天胡）", zimo: "（自摸）",
  huang: "荒庄", finishedPrefix: "比赛结束 · ",
  winCard: "胡牌 ", huxi: (n) => `胡息 ${n}`, doubled: (d, n) => `翻倍 ${d} → ${n}`,
  deng: (n) => `等 ${n}`, mingtang: (t) => `名堂 ${t}`, pinghu: "平胡", fan: (n) => `番 ${n}`, di: (n) => `底 ${n}`,
  mtItem: (name, fan) => `${name} ${fan}番`,
  groupsHead: ["门子", "", "胡息"],
  payHead: ["玩家", "本局", "总分", "当前总息数", "手牌"],
  winnerTag: "（胡）", discarderTag: "（放炮）",
  handNo: (i, n, id) => `第 ${i}/${n} 局 · 牌局编号 ${id}`,
  ready: "下一局", waitOthers: "等待其他玩家…", readyCount: (k, n) => `已准备 ${k}/${n}`,
  replayHand: "回放本局", viewTable: "看牌桌", backToResult: "返回结算",
  rematch: "再来一场", toLobby: "返回大厅",
  // events
  ev: {
    dealMe: (n) => `发牌：我拿到 ${n} 张`,
    liang: (w, c) => (c ? `${w}亮张 ${c}` : `${w}的亮张（暗）`),
    bottom: (c) => `底牌 ${c}`,
    ti: (w, c) => `${w} 提 ${c}`.trim(), wei: (w, c) => (c ? `${w} 偎 ${c}` : `${w} 偎牌`),
    chouwei: (w, c) => `${w} 臭偎 ${c}`, pao: (w, c) => `${w} 跑 ${c}`,
    draw: (w, c) => (c ? `${w} 翻出 ${c}` : `${w} 翻牌`), discard: (w, c) => `${w} 打出 ${c}`,
    chi: (w, c, g) => `${w} 吃 ${c}（${g}）`, peng: (w, c) => `${w} 碰 ${c}`, pass: (w) => `${w} 过`,
    pile: (w, c) => `${c} 无人要，进${w}的弃牌区`,
    hu: (w, c, zimo) => (c ? `${w} 胡 ${c}${zimo ? "（自摸）" : ""}` : `${w} 天胡！`),
    huang: "荒庄：牌墙摸完，无人胡牌",
  },
  voice: { chi: "吃", peng: "碰", pao: "跑", hu: "胡了", ti: "提", wei: "偎" },
  // replay
  replayTitle: (id) => `回放 ${id}`, loading: "载入中…", replayFail: (m) => `无法载入回放：${m}`,
  replayStep: (r, i, n, w) => `${r} · 第 ${i}/${n} 步 · 牌墙 ${w}`, dealt: "发牌",
  play: "▶ 播放", pause: "⏸ 暂停",
  rpFirst: "第一步", rpPrev: "上一步", rpNext: "下一步", rpLast: "最后一步", speed: "速度",
  viewAs: "视角", allOpen: "全部明牌", seatView: (name) => `${name}的视角`, youTag: "（你）",
  stepLabel: (i, n) => `第 ${i}/${n} 步`, hidden: "扣着", sep: "；",
  // waiting room: every legal choice is a button
  readyBtn: "准备", choiceLabel: { ready: "准备", rematch: "再来一场", start: "开始" },
  // match summary
  sumTitle: "比赛总结", ranking: "排名", rankN: (i) => `第${i}名`, perHand: "每局得分",
  handCol: "局", handRow: (i) => `第${i}局`, totalRow: "合计", bigWinner: "大赢家", bestHand: "最佳一局",
  bestHandText: (who, i, n) => `${who} · 第${i}局 · ${n > 0 ? "+" : ""}${n}`,
  seatBest: (i, n) => `最佳：第${i}局 +${n}`,
  handWin: (who, h, f) => `${who}胡${h !== null && h !== undefined ? ` ${h}息` : ""}${f ? ` ${f}番` : ""}`,
  handHuang: "荒庄", lastHand: "最后一局详情", points: (n) => `${n > 0 ? "+" : ""}${n} 分`,
  summaryFallback: "（按总分排名）",
};

export const T_EN = {
  turnDiscard: "Your turn: discard a card",
  choose: (names) => `Choose: ${names.join(" / ")}`,
  waitFor: (who) => `Waiting for ${who}`,
  othersDeciding: "Waiting for the others to choose…",
  waitingSeats: "Waiting for players",
  handOver: "Hand over",
  matchOver: "Match over",
  me: "You",
  player: (i) => `Player ${i + 1}`,
  botN: (n) => `Bot ${n}`, playerN: (n) => `Player ${n}`,
  rel: { 3: { 1: "Right", 2: "Left" }, 4: { 1: "Right", 2: "Across", 3: "Left" } },
  dealer: "Dealer", bot: "Bot", free: "Free", offline: "Offline", online: "Online", away: "Auto", out: "Sitting out",
  handCount: (n) => `${n} cards`,
  tableHuxi: (n) => `${n} huxi`,
  openSrc: { draw: "turned up", discard: "discarded", liangzhang: "shown" },
  openDraw: "Drawn", openDiscard: "Discard",
  room: (c) => `Room ${c}`,
  handOf: (rules, i, n) => `${rules} · hand ${i}/${n}`,
  wall: (n) => `Wall ${n}`,
  liang: "Shown", bottomCard: "Bottom",
  rules: { hunan: "Hunan", changde: "Changde", luzhou: "Luzhou" },
  kinds: { chi: "chi", peng: "peng", wei: "wei", chouwei: "wei*", pao: "pao", ti: "ti", kan: "kan",
    ju: "run", jiao: "mix", jiang: "pair" },
  act: { hu: "Win", peng: "Peng", chi: "Chi", pass: "Pass", discard: "Discard" },
  keys: { hu: "H", peng: "P", chi: "C", pass: "G", discard: "Enter" },
  discardBtn: (c) => `Discard ${c}`,
  pickDiscard: "Pick a card to discard",
  chiN: (c, n) => `Chi ${c}${n > 1 ? ` (${n} ways)` : ""}`,
  bi: "+",
  huxiGain: (n) => `+${n} huxi`,
  curHuxi: "Huxi now",
  ting: "Waiting on",
  tingItem: (c, h) => `${c}${h !== null && h !== undefined ? ` (${h} huxi)` : ""}`,
  secs: (n) => `${n}`,
  warnAway: "Auto-play soon!",
  warnClaim: "Choosing for you soon",
  awayBanner: "Auto-play: a bot is playing for you",
  resume: "Take back",
  waitFriends: (n, room, link) => `Waiting for ${n} friend${n === 1 ? "" : "s"} — room ${room} (link: ${link})`,
  hint: "Hints", hintThinking: "Hint: thinking…", hintPrefix: "Hint: ",
  log: "Log", leave: "Leave", muted: "♪ Muted", sound: "♪ Sound", voiceLabel: "Voice",
  more: "More",
  logTitle: "Hand log", close: "Close", countdown: "Countdown", settlementLabel: "Result",
  reconnecting: "Connection lost, reconnecting…",
  replacedElsewhere: "This seat was opened elsewhere",
  noRoom: "No such room", badToken: "This seat's key is not valid",
  createFail: (m) => `Could not create the room: ${m}`, joinFail: (m) => `Could not join: ${m}`,
  winTitle: (who, how) => `${who === "You" ? "You win" : `${who} wins`}!${how}`,
  tianhu: " (natural win)", zimo: " (self-drawn)",
  huang: "No winner", finishedPrefix: "Match over · ",
  winCard: "Winning card ", huxi: (n) => `huxi ${n}`, doubled: (d, n) => `doubled ${d} → ${n}`,
  deng: (n) => `等 ${n}`, mingtang: (t) => `patterns ${t}`, pinghu: "plain win", fan: (n) => `fan ${n}`, di: (n) => `base ${n}`,
  mtItem: (name, fan) => `${name} ${fan} fan`,
  groupsHead: ["Group", "", "Huxi"],
  payHead: ["Player", "This hand", "Total", "Huxi total", "Hand"],
  winnerTag: " (won)", discarderTag: " (fed)",
  handNo: (i, n, id) => `Hand ${i}/${n} · hand id ${id}`,
  ready: "Next hand", waitOthers: "Waiting for the others…", readyCount: (k, n) => `Ready ${k}/${n}`,
  replayHand: "Replay this hand", viewTable: "See the table", backToResult: "Back to the result",
  rematch: "Play again", toLobby: "Back to the lobby",
  ev: {
    dealMe: (n) => `Deal: you get ${n} cards`,
    liang: (w, c) => (c ? `${w}: shown card ${c}` : `${w}: shown card (hidden)`),
    bottom: (c) => `Bottom card ${c}`,
    ti: (w, c) => `${w}: ti ${c}`.trim(), wei: (w, c) => (c ? `${w}: wei ${c}` : `${w}: wei`),
    chouwei: (w, c) => `${w}: wei* ${c}`, pao: (w, c) => `${w}: pao ${c}`,
    draw: (w, c) => (c ? `${w}: turn up ${c}` : `${w}: turn up a card`), discard: (w, c) => `${w}: discard ${c}`,
    chi: (w, c, g) => `${w}: chi ${c} (${g})`, peng: (w, c) => `${w}: peng ${c}`, pass: (w) => `${w}: pass`,
    pile: (w, c) => `Nobody takes ${c}: to ${w}'s discards`,
    hu: (w, c, zimo) => (c ? `${w}: win on ${c}${zimo ? " (self-drawn)" : ""}` : `${w}: natural win!`),
    huang: "No winner: the wall ran out",
  },
  voice: { chi: "吃", peng: "碰", pao: "跑", hu: "胡了", ti: "提", wei: "偎" }, // the calls stay Chinese
  replayTitle: (id) => `Replay ${id}`, loading: "Loading…", replayFail: (m) => `Could not load the replay: ${m}`,
  replayStep: (r, i, n, w) => `${r} · step ${i}/${n} · wall ${w}`, dealt: "Deal",
  play: "▶ Play", pause: "⏸ Pause",
  rpFirst: "First step", rpPrev: "Step back", rpNext: "Step forward", rpLast: "Last step", speed: "Speed",
  viewAs: "View", allOpen: "All hands open", seatView: (name) => `${name}'s view`, youTag: " (you)",
  stepLabel: (i, n) => `step ${i}/${n}`, hidden: "hidden", sep: "; ",
  readyBtn: "Ready", choiceLabel: { ready: "Ready", rematch: "Play again", start: "Start" },
  sumTitle: "Match summary", ranking: "Ranking", rankN: (i) => ["1st", "2nd", "3rd", "4th"][i - 1] || `${i}th`,
  perHand: "Points per hand", handCol: "Hand", handRow: (i) => `Hand ${i}`, totalRow: "Total",
  bigWinner: "Big winner", bestHand: "Best hand",
  bestHandText: (who, i, n) => `${who} · hand ${i} · ${n > 0 ? "+" : ""}${n}`,
  seatBest: (i, n) => `best: hand ${i} +${n}`,
  handWin: (who, h, f) => `${who} wins${h !== null && h !== undefined ? ` ${h} huxi` : ""}${f ? ` ${f} fan` : ""}`,
  handHuang: "No winner", lastHand: "Last hand in detail", points: (n) => `${n > 0 ? "+" : ""}${n} pts`,
  summaryFallback: "(ranked by total score)",
};

/** The table's strings in the chosen language (i18n.js `lang()`). */
export const T = bilingual(T_ZH, T_EN);

/* ------------------------------------------------------------ settings (localStorage) */
const SETTINGS_KEY = "phz:settings";
const DEFAULTS = { hints: false, mute: false, voice: true };

export function loadSettings() {
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

export function saveSession() {
  localStorage.setItem("phz:" + S.room, JSON.stringify({ token: S.token, seat: S.seat }));
}
export function loadSession(room) {
  try { return JSON.parse(localStorage.getItem("phz:" + room) || "null"); } catch { return null; }
}

/* ------------------------------------------------------------ the session */
export const S = {
  room: null, token: null, seat: null, ws: null, msg: null, prev: null, retry: 0, leaving: false,
  layout: [], layoutHand: null, selected: null, logHand: null, logN: 0, offset: null,
  chiOpen: false, settleHidden: false, pendingReady: false, settleFor: null, hint: null, wantRematch: false,
};

/* ------------------------------------------------------------ DOM helpers */
export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/** The page's dialog ``id`` (made once, as a ``cls`` section; ``init`` then), shown. */
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
  const x = el("button", "close", "×");
  x.type = "button";
  if (id) x.id = id;
  x.title = t("close");
  x.addEventListener("click", onClick);
  return x;
}

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
