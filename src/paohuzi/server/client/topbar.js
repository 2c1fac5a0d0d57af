/* topbar: the table's top bar stays one row. Where its labels and controls do not fit
 * side by side (a phone held upright, the longer English labels) the bar is made
 * .compact: the hand's labels and 快捷语 stay in the bar, and the controls of #bar-menu
 * (the room code, 提示, 语音, 音效, 规则, 记录, the language, 离开) go into a menu that the
 * ⋯ button (#menu-btn) opens. Whether it fits is measured, not guessed from the width:
 * the bar is laid out in full, and made compact if that takes more than one row. */
import { $ } from "./store.js";

const bar = () => $("#topbar");

/** True when the shown items of the bar take more than one row. */
function wraps(b) {
  const items = [...b.querySelectorAll(":scope > *, #bar-menu > *")]
    .map((e) => e.getBoundingClientRect())
    .filter((r) => r.width && r.height);
  if (!items.length) return false;
  const top = Math.min(...items.map((r) => r.top));
  const bottom = Math.max(...items.map((r) => r.bottom));
  const tallest = Math.max(...items.map((r) => r.height));
  return bottom - top > tallest + 2;
}

/** Lay the bar out in full; compact (one row, the menu under ⋯) if that wraps. */
function fitBar() {
  const b = bar();
  if (!b || !b.getClientRects().length) return; // the table is not shown
  b.classList.remove("compact");
  const compact = wraps(b);
  b.classList.toggle("compact", compact);
  if (!compact) setMenu(false);
}

function menuOpen() { return bar().classList.contains("menu-open"); }

function setMenu(open) {
  const b = bar();
  b.classList.toggle("menu-open", open);
  $("#menu-btn").setAttribute("aria-expanded", String(open));
}

export function initTopbar() {
  const b = bar();
  $("#menu-btn").addEventListener("click", () => setMenu(!menuOpen()));
  // a choice in the menu closes it, except the ones that only switch a setting
  $("#bar-menu").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (btn && btn.id !== "mute-btn" && menuOpen()) setMenu(false);
  });
  document.addEventListener("pointerdown", (ev) => {
    if (menuOpen() && !ev.target.closest("#bar-menu, #menu-btn")) setMenu(false);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && menuOpen()) { setMenu(false); $("#menu-btn").focus(); }
  });
  // measured again when its width may change (a turned phone, a resized window) and when
  // its labels do (each state, the language); only its classes change here, never its
  // children, so this observer does not call itself
  window.addEventListener("resize", fitBar);
  new MutationObserver(fitBar).observe(b, { childList: true, subtree: true, characterData: true });
}
