/* i18n: the interface language (中文 by default, English), remembered in localStorage
 * `phz:lang`; the strings of the lobby, join page, rules page, tutorial, my matches and
 * phrases in both languages (STR.zh / STR.en have the same keys: a test checks it);
 * server texts ({zh, en} objects, error message_zh / message_en) shown in the chosen one.
 *
 * For the table's string table (store.js `T`): `bilingual(T, T_EN)` returns a view of T
 * that answers from T_EN when English is chosen and T_EN has the key, so the table can
 * be translated key by key without touching its call sites. */

const KEY = "phz:lang";
export const LANGS = ["zh", "en"];

function initial() {
  try {
    const v = localStorage.getItem(KEY);
    if (LANGS.includes(v)) return v;
  } catch { /* storage off */ }
  return "zh";
}

let current = initial();
const listeners = new Set();

export const lang = () => current;
export function setLang(l) {
  if (!LANGS.includes(l) || l === current) return;
  current = l;
  try { localStorage.setItem(KEY, l); } catch { /* storage off */ }
  applyDocLang();
  for (const f of listeners) { try { f(l); } catch (e) { console.error(e); } }
}
export function onLang(f) { listeners.add(f); return () => listeners.delete(f); }
function applyDocLang() { document.documentElement.lang = current === "en" ? "en" : "zh-CN"; }
applyDocLang();

/** A string of this module's tables; a function entry is called with args. */
export function t(key, ...args) {
  const v = STR[current][key] ?? STR.zh[key];
  if (v === undefined) return key;
  return typeof v === "function" ? v(...args) : v;
}
/** A server text {zh, en} (or a plain string) in the chosen language. */
export function pick(x) {
  if (x === null || x === undefined) return "";
  if (typeof x !== "object") return String(x);
  return x[current] ?? x.zh ?? x.en ?? "";
}
/** A server error body (`{error, message, message_zh, message_en}`) in the chosen language. */
export function errText(data, fallback) {
  if (data && typeof data === "object") {
    const m = current === "en" ? data.message_en : data.message_zh;
    if (m) return m;
    if (data.message) return data.message;
  }
  return fallback || t("errGeneric");
}
/** The table's T seen through the chosen language (see the header). */
export function bilingual(zhTable, enTable) {
  return new Proxy(zhTable, {
    get(o, k) { return current === "en" && enTable && k in enTable ? enTable[k] : o[k]; },
  });
}

/** An API call: JSON in and out; a failure throws an Error whose `.data` is the body and
 * whose message is already in the chosen language. */
export async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const e = new Error(errText(data, r.statusText));
    e.data = data;
    e.status = r.status;
    throw e;
  }
  return data;
}

/* ------------------------------------------------------------ cards: tooltips */
const SMALL = "一二三四五六七八九十";
const BIG = "壹贰叁肆伍陆柒捌玖拾";
const PINYIN_S = ["yī", "èr", "sān", "sì", "wǔ", "liù", "qī", "bā", "jiǔ", "shí"];
const PINYIN_B = ["yī", "èr", "sān", "sì", "wǔ", "lù", "qī", "bā", "jiǔ", "shí"];
/** A card's tooltip: the 字 with its pinyin and, in English, what it is. */
export function cardTitle(code) {
  if (!code) return current === "en" ? "face-down card" : "扣着的牌";
  const big = code[0] === "d";
  const n = parseInt(code.slice(1), 10);
  const ch = (big ? BIG : SMALL)[n - 1];
  const py = (big ? PINYIN_B : PINYIN_S)[n - 1];
  const red = [2, 7, 10].includes(n);
  if (current === "en") return `${ch} (${py}) — ${big ? "big" : "small"} ${n}${red ? ", red" : ""}`;
  return `${big ? "大" : "小"}${ch}（${py}）${red ? " 红字" : ""}`;
}
export const cardZh = (code) => (code ? (code[0] === "d" ? BIG : SMALL)[parseInt(code.slice(1), 10) - 1] : "□");

/* ------------------------------------------------------------ the tables */
export const STR = {
  zh: {
    appTitle: "跑胡子", appSub: "湖南字牌",
    langSwitch: "English", langSwitchTitle: "Switch to English",
    navTutorial: "新手教学", navRules: "规则", navMatches: "我的牌局",
    createTitle: "创建房间", preset: "玩法", bots: "机器人",
    botsAll: (n) => `${n} 个（人机对战）`, botsFriends: (n, f) => `${n} 个（留 ${f} 座给朋友）`,
    name: "昵称", namePh: "玩家1", createBtn: "创建并入座", summary: "规则",
    rulesOf: "查看完整规则", players: (n) => `${n}人`,
    joinTitle: "加入房间", roomCode: "房间号", roomCodePh: "例如 AB12CD", joinBtn: "加入",
    replayTitle: "回放", replayId: "牌局编号", replayIdPh: "牌局编号（结算页可见）", replayBtn: "查看回放",
    loading: "载入中…", errGeneric: "出错了，请稍后再试", createFail: (m) => `创建失败：${m}`,
    joinFail: (m) => `加入失败：${m}`, loadFail: (m) => `载入失败：${m}`,
    // join page
    joinRoom: (c) => `加入房间 ${c}`, invitedTo: "朋友邀请你来打跑胡子", roomStatus: "状态",
    seatN: (i) => `${i + 1}号座`, seatFree: "空位", seatBot: "机器人", seatHuman: "玩家",
    freeSeats: (n) => `空位 ${n} 个`, noFree: "座位已满", joinNow: "加入", joinAs: "你的昵称",
    joinRules: "规则详情", backLobby: "返回大厅", enterSeat: "进入我的座位",
    // invite
    inviteTitle: "邀请朋友", inviteHelp: "把链接发给朋友，或让他用手机扫码：", copyLink: "复制链接",
    copied: "已复制", copyFail: "请长按链接复制", close: "关闭", qrAlt: (c) => `房间 ${c} 的二维码`,
    waitingFor: (n) => `还差 ${n} 人`,
    // rules page
    rulesTitle: (l) => `${l} 规则`, roomRulesTitle: (c) => `房间 ${c} 的规则`, rulesInForce: "本房间正在使用的规则",
    fan: (n) => `${n}番`, huxiHead: ["", "黑小", "黑大", "红小", "红大"],
    // my matches
    matchesTitle: "我的牌局", noMatches: "还没有牌局（在这个浏览器里打过的牌局会列在这里）",
    matchRoom: (c, d) => `房间 ${c} · ${d}`, handsPlayed: (k, n) => `已打 ${k}/${n} 局`,
    myScore: (s) => `我的得分 ${s > 0 ? "+" : ""}${s}`, resultWin: "赢", resultLose: "输", resultDraw: "平",
    handN: (i) => `第${i}局`, huang: "荒庄", wonBy: (w, h) => `${w}胡 ${h}息`, me: "我",
    replay: "回放", rejoin: "回到牌桌", refresh: "刷新",
    // table additions
    rulesBtn: "规则", phrasesBtn: "快捷语", phrasesTitle: "快捷语", phraseTab: "短语", emojiTab: "表情",
    phraseWait: "说得太快了，稍等一下", said: (w, p) => `${w}：${p}`, seatName: (i) => `玩家${i + 1}`,
    // tutorial
    tutTitle: "新手教学", tutStart: "开始", tutStep: (i, n) => `第 ${i}/${n} 步`, tutNext: "继续",
    tutRight: "✓ 正确！", tutWrong: "再想想：", tutDone: "完成了！", tutFinish: "回到大厅",
    tutAgain: "再来一遍", tutTapCard: "点一张亮绿框的牌打出，或点下面的按钮", tutYou: "你", tutWall: (n) => `牌墙 ${n}`,
    tutHuxi: (n) => `当前胡息 ${n}`, tutOpen: { draw: "翻出", discard: "打出", deal: "亮张" },
    tutResult: (h, d, f, di) => `${h}胡息 · ${d}等 · ${f}番 · 底 ${di}`, tutConcepts: "你会学到：",
    tutEvents: "刚才：", tutHandCount: (n) => `${n}张`, tutPile: "弃牌",
    concept: { ti: "提", discard: "出牌", chou: "臭牌", peng: "碰", pao: "跑", bakuai: "八块", chi_bi: "吃与比",
      wei: "偎", huxi: "胡息", hu: "胡", mingtang: "名堂", kan: "坎", next: "继续" },
    rel: { 0: "你", 1: "下家", 2: "上家", 3: "上家" }, rel4: { 0: "你", 1: "下家", 2: "对家", 3: "上家" },
    kinds: { chi: "吃", peng: "碰", wei: "偎", chouwei: "臭偎", pao: "跑", ti: "提", kan: "坎", ju: "句",
      jiao: "绞", jiang: "将", dui: "对" },
    act: { discard: (c) => `打 ${c}`, peng: (c) => `碰 ${c}`, chi: (c, g) => `吃 ${c}：${g}`, hu: (c) => `胡 ${c}`,
      pass: "过", next: "继续", bi: " 比 " },
    ev: {
      deal: (w, n) => `${w}拿到 ${n} 张`, liangzhang: (w, c) => `${w}亮张 ${c}`, ti: (w, c) => `${w}提 ${c}`,
      wei: (w, c) => `${w}偎 ${c}`, chouwei: (w, c) => `${w}臭偎 ${c}`, pao: (w, c) => `${w}跑 ${c}`,
      peng: (w, c) => `${w}碰 ${c}`, chi: (w, c) => `${w}吃 ${c}`, discard: (w, c) => `${w}打出 ${c}`,
      draw: (w, c) => `${w}翻出 ${c}`, pass: (w) => `${w}过`, pile: (w, c) => `${c} 进了${w}的弃牌区`,
      hu: (w, c) => `${w}胡 ${c}`, settle: () => "结算", huang: () => "荒庄",
    },
  },
  en: {
    appTitle: "Paohuzi", appSub: "Hunan word cards",
    langSwitch: "中文", langSwitchTitle: "切换到中文",
    navTutorial: "Tutorial", navRules: "Rules", navMatches: "My matches",
    createTitle: "New room", preset: "Rules", bots: "Bots",
    botsAll: (n) => `${n} (play the bots)`, botsFriends: (n, f) => `${n} (${f} seat${f > 1 ? "s" : ""} for friends)`,
    name: "Name", namePh: "Player 1", createBtn: "Create and sit down", summary: "Rules",
    rulesOf: "Full rules", players: (n) => `${n} players`,
    joinTitle: "Join a room", roomCode: "Room code", roomCodePh: "e.g. AB12CD", joinBtn: "Join",
    replayTitle: "Replay", replayId: "Hand id", replayIdPh: "hand id (on the result sheet)", replayBtn: "Watch",
    loading: "Loading…", errGeneric: "Something went wrong, please try again", createFail: (m) => `Could not create the room: ${m}`,
    joinFail: (m) => `Could not join: ${m}`, loadFail: (m) => `Could not load: ${m}`,
    joinRoom: (c) => `Join room ${c}`, invitedTo: "A friend invites you to play paohuzi", roomStatus: "Status",
    seatN: (i) => `Seat ${i + 1}`, seatFree: "free", seatBot: "bot", seatHuman: "player",
    freeSeats: (n) => `${n} free seat${n === 1 ? "" : "s"}`, noFree: "No free seat", joinNow: "Join", joinAs: "Your name",
    joinRules: "Rules in detail", backLobby: "Back to the lobby", enterSeat: "Go to my seat",
    inviteTitle: "Invite friends", inviteHelp: "Send your friends the link, or let them scan the code:", copyLink: "Copy link",
    copied: "Copied", copyFail: "Press and hold the link to copy it", close: "Close", qrAlt: (c) => `QR code of room ${c}`,
    waitingFor: (n) => `${n} more to come`,
    rulesTitle: (l) => `${l} rules`, roomRulesTitle: (c) => `Rules of room ${c}`, rulesInForce: "The rules this room plays by",
    fan: (n) => `${n} fan`, huxiHead: ["", "black small", "black big", "red small", "red big"],
    matchesTitle: "My matches", noMatches: "No matches yet (the ones played in this browser appear here)",
    matchRoom: (c, d) => `Room ${c} · ${d}`, handsPlayed: (k, n) => `${k}/${n} hands played`,
    myScore: (s) => `my score ${s > 0 ? "+" : ""}${s}`, resultWin: "won", resultLose: "lost", resultDraw: "even",
    handN: (i) => `Hand ${i}`, huang: "no winner", wonBy: (w, h) => `${w} won, ${h} huxi`, me: "me",
    replay: "Replay", rejoin: "Back to the table", refresh: "Refresh",
    rulesBtn: "Rules", phrasesBtn: "Chat", phrasesTitle: "Quick chat", phraseTab: "Phrases", emojiTab: "Emoji",
    phraseWait: "Too fast, wait a moment", said: (w, p) => `${w}: ${p}`, seatName: (i) => `Player ${i + 1}`,
    tutTitle: "Tutorial", tutStart: "Start", tutStep: (i, n) => `Step ${i}/${n}`, tutNext: "Continue",
    tutRight: "✓ Right!", tutWrong: "Not quite: ", tutDone: "Well done!", tutFinish: "Back to the lobby",
    tutAgain: "Once more", tutTapCard: "Tap a green-rimmed card to discard it, or a button below", tutYou: "You", tutWall: (n) => `wall ${n}`,
    tutHuxi: (n) => `huxi now ${n}`, tutOpen: { draw: "turned up", discard: "discarded", deal: "shown" },
    tutResult: (h, d, f, di) => `${h} huxi · ${d} 等 · ${f} fan · 底 ${di}`, tutConcepts: "You will learn:",
    tutEvents: "Just now:", tutHandCount: (n) => `${n} cards`, tutPile: "discards",
    concept: { ti: "ti (four)", discard: "discarding", chou: "refused card", peng: "peng", pao: "pao", bakuai: "no discard after a 2nd pao",
      chi_bi: "chi and bi", wei: "wei", huxi: "huxi", hu: "winning", mingtang: "scoring patterns", kan: "kan", next: "continue" },
    rel: { 0: "You", 1: "Right", 2: "Left", 3: "Left" }, rel4: { 0: "You", 1: "Right", 2: "Across", 3: "Left" },
    kinds: { chi: "chi", peng: "peng", wei: "wei", chouwei: "wei*", pao: "pao", ti: "ti", kan: "kan", ju: "run",
      jiao: "mix", jiang: "pair", dui: "pair" },
    act: { discard: (c) => `Discard ${c}`, peng: (c) => `Peng ${c}`, chi: (c, g) => `Chi ${c}: ${g}`, hu: (c) => `Win on ${c}`,
      pass: "Pass", next: "Continue", bi: " + " },
    ev: {
      deal: (w, n) => `${w}: ${n} cards dealt`, liangzhang: (w, c) => `${w} showed ${c}`, ti: (w, c) => `${w}: ti ${c}`,
      wei: (w, c) => `${w}: wei ${c}`, chouwei: (w, c) => `${w}: wei ${c}`, pao: (w, c) => `${w}: pao ${c}`,
      peng: (w, c) => `${w}: peng ${c}`, chi: (w, c) => `${w}: chi ${c}`, discard: (w, c) => `${w} discarded ${c}`,
      draw: (w, c) => `${w} turned up ${c}`, pass: (w) => `${w} passed`, pile: (w, c) => `${c} went to ${w}'s discards`,
      hu: (w, c) => `${w} won on ${c}`, settle: () => "settlement", huang: () => "no winner",
    },
  },
};
