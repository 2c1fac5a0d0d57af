/* cards: codes ("x1".."x10" 小字, "d1".."d10" 大字), their 字 and pinyin, and how a card
 * and a table meld are drawn. A null code is a card face down (a blue back). */
import { T } from "./i18n.js";
import { el } from "./store.js";

const SMALL_ZH = "一二三四五六七八九十";
const BIG_ZH = "壹贰叁肆伍陆柒捌玖拾";
const PINYIN_S = ["yī", "èr", "sān", "sì", "wǔ", "liù", "qī", "bā", "jiǔ", "shí"];
const PINYIN_B = ["yī", "èr", "sān", "sì", "wǔ", "lù", "qī", "bā", "jiǔ", "shí"];

// "w" is a 王 (R39): no kind of its own; sorted after 十 so that 王 sit together at the end
export const point = (code) => (code === "w" ? 11 : parseInt(code.slice(1), 10));
const isBig = (code) => code[0] === "d";
const isRed = (code) => [2, 7, 10].includes(point(code)); // 二七十 / 贰柒拾 (R3)
export const zh = (code) => (code === "w" ? "王" : code ? (isBig(code) ? BIG_ZH : SMALL_ZH)[point(code) - 1] : "□");
/** A seat's concealed cards as shown: its natural cards, then its 王 (`wang`, R39). */
export const withWang = (hand, n) => (n ? hand.concat(Array(n).fill("w")) : hand);
export const cardsText = (codes) => codes.map(zh).join("");
export function codeOfZh(ch) {
  let i = SMALL_ZH.indexOf(ch);
  if (i >= 0) return "x" + (i + 1);
  i = BIG_ZH.indexOf(ch);
  return i >= 0 ? "d" + (i + 1) : null;
}

/** A card's tooltip: the 字 with its pinyin and, in English, what it is. */
export function cardTitle(code) {
  if (!code) return T.faceDown;
  if (code === "w") return "王 wáng · wild";
  const n = point(code);
  return T.cardTip(zh(code), (isBig(code) ? PINYIN_B : PINYIN_S)[n - 1], isBig(code), n, isRed(code));
}

/** One card: null → a face-down back. 大字 cream/heavy, 小字 white/light, 红字 red. */
export function cardEl(code, size) {
  const d = el("div", "card" + (size ? " " + size : ""));
  d.title = cardTitle(code);
  if (!code) { d.classList.add("back"); return d; }
  d.dataset.card = code;
  if (code === "w") { d.classList.add("wang"); d.append(el("span", "glyph", "王")); return d; }
  d.classList.add(isBig(code) ? "big" : "small");
  if (isRed(code)) d.classList.add("red");
  d.append(el("span", "glyph", zh(code)), el("span", "tag", isBig(code) ? "大" : "小"));
  return d;
}

export function cardsEl(codes, size = "mini") {
  const w = el("span", "cards");
  for (const c of codes) w.append(cardEl(c, size));
  return w;
}

/** A table meld as the apps draw it: a column of small cards, its kind, its 胡息 below
 * (null: another seat's 偎, whose card is not seen). */
export function meldEl(m) {
  const w = el("div", "meld");
  w.dataset.key = meldKey(m); // table.js tells a new meld from the ones already down
  const col = el("div", "meld-cards");
  for (const c of m.cards) col.append(cardEl(c, "mini"));
  const known = m.huxi !== null && m.huxi !== undefined;
  const huxi = el("span", "meld-huxi", known ? String(m.huxi) : "?");
  huxi.dataset.huxi = known ? String(m.huxi) : "";
  w.append(col, el("span", "kind", T.kinds[m.kind] || m.kind), huxi);
  return w;
}

/** What a meld is (kind and cards): a 偎 that becomes 提 is another meld. */
const meldKey = (m) => `${m.kind}:${m.cards.map((c) => c || "").join(",")}`;
