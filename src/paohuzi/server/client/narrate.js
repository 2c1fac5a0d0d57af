/* narrate: the one narrator of game events (a view's `log` entries, a tutorial step's or a
 * replay frame's `events`) in the chosen language, for the live table's log and ticker,
 * the tutorial and the replay alike. It tells only what the event says: which events a
 * screen gets is the server's business (the seat's view log). */
import { T } from "./i18n.js";
import { zh, cardsText } from "./cards.js";

/** One line for event `e`, or null for one not told (another seat's deal, settle).
 * `who(seat)` names a seat; `me` is the seat told as 我 / You (its deal is told). */
export function eventText(e, who, me) {
  const name = e.seat !== undefined && e.seat !== null ? who(e.seat) : "";
  const card = e.card ? zh(e.card) : "";
  const E = T.ev;
  switch (e.type) {
    case "deal": return e.seat === me ? E.dealMe(e.count) : null;
    case "liangzhang": return E.liang(name, card);
    case "bottom": return E.bottom(card);
    case "ti": return E.ti(name, card);
    case "wei": return E.wei(name, card);
    case "chouwei": return E.chouwei(name, card);
    case "pao": return E.pao(name, card);
    case "draw": return E.draw(name, card);
    case "discard": return E.discard(name, card);
    case "chi": {
      const g = (e.groups || []).map((x) => cardsText(x));
      return E.chi(name, card, g[0] + (g.length > 1 ? ` ${T.bi} ` + g.slice(1).join(" ") : ""));
    }
    case "peng": return E.peng(name, card);
    case "pass": return E.pass(name);
    case "pile": return E.pile(name, card);
    case "hu": return E.hu(name, card, e.self_drawn, e.pattern && T.patterns[e.pattern]);
    case "huangzhuang": return E.huang;
    case "xing": return E.xing(name, card, e.turned ? zh(e.turned) : "", e.count ?? 0, e.source === "wall");
    case "settle": return null;
    default: return `${name} ${e.type} ${card}`.trim();
  }
}

/** The lines of `events` that are told, in order. */
export function narrate(events, who, me) {
  return (events || []).map((e) => eventText(e, who, me)).filter(Boolean);
}
