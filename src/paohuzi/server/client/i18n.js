/* i18n: the interface language (中文 by default, English), remembered in localStorage
 * `phz:lang` and set on <html lang>; the one string table of that language (`T`, read from
 * strings.zh.js / strings.en.js); server texts ({zh, en} objects, error message_zh /
 * message_en) in the chosen language; the JSON API call every module uses. */
import ZH from "./strings.zh.js";
import EN from "./strings.en.js";

const KEY = "phz:lang";
const LANGS = ["zh", "en"];
/** The string tables by language (the same keys: a test checks it). */
export const TABLES = { zh: ZH, en: EN };

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
export const toggleLang = () => setLang(current === "zh" ? "en" : "zh");
export function onLang(f) { listeners.add(f); return () => listeners.delete(f); }
function applyDocLang() { document.documentElement.lang = current === "en" ? "en" : "zh-CN"; }
applyDocLang();

/** The strings of the chosen language: `T.key` (a function entry is called by its reader). */
export const T = new Proxy({}, { get: (_, k) => TABLES[current][k] ?? ZH[k] });
/** `T[key]`, called with `args` when it is a function; the key itself when unknown. */
export function t(key, ...args) {
  const v = T[key];
  if (v === undefined) return key;
  return typeof v === "function" ? v(...args) : v;
}
/** A server text {zh, en} (or a plain string) in the chosen language. */
export function pick(x) {
  if (x === null || x === undefined) return "";
  if (typeof x !== "object") return String(x);
  return x[current] ?? x.zh ?? x.en ?? "";
}
/** ``text`` with the hyphens of 1-5-10 / 2-7-10 unbreakable (U+2011): a line wraps
 * between words, never inside a run's name. */
export function unbroken(text) { return text.replace(/(\d)-(?=\d)/g, "$1\u2011"); }
/** A server error body (`{error, message, message_zh, message_en}`) in the chosen language. */
export function errText(data, fallback) {
  if (data && typeof data === "object") {
    const m = current === "en" ? data.message_en : data.message_zh;
    if (m) return m;
    if (data.message) return data.message;
  }
  return fallback || T.errGeneric;
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
