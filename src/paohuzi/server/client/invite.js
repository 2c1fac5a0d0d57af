/* invite: playing with friends — the join page an invite link opens (#/room/ID where this
 * browser holds no seat: the room's rules line, its seats, a name and 加入) and the invite
 * card the table shows while its room waits for friends (the link, 复制链接, the QR code). */
import { t, pick, lang, onLang, api, errText } from "./i18n.js";
import { openRules } from "./rulespage.js";
import { S, $, el, button, langButton, dialog, closeButton, storeSeat, goRoom } from "./store.js";

let joinSeq = 0;
const joinCache = { code: null, info: null, error: null };
export async function showJoin(code, reuse = false) {
  const page = dialog("join-page", "lobby-overlay");
  document.body.classList.add("join-open"); // the join page, not the lobby behind it
  page.dataset.room = code;
  const seq = ++joinSeq;
  const card = el("div", "lobby-sheet join");
  card.append(langButton());
  card.append(el("h2", null, t("joinRoom", code)));
  card.append(el("p", "muted", t("loading")));
  page.replaceChildren(card);
  let info = null, error = null;
  if (reuse && joinCache.code === code) ({ info, error } = joinCache);
  else {
    try { info = await api(`/api/rooms/${encodeURIComponent(code)}`); } catch (e) { error = e; }
    Object.assign(joinCache, { code, info, error });
  }
  if (seq !== joinSeq || page.dataset.room !== code) return;
  card.replaceChildren(langButton(), el("h2", null, t("joinRoom", code)));
  const err = el("p", "error");
  err.id = "join-error";
  err.setAttribute("role", "alert");
  if (error) {
    err.textContent = t("joinFail", error.data ? errText(error.data, error.message) : error.message);
    card.append(err, backButton());
    return;
  }
  card.append(el("p", "invited", t("invitedTo")));
  const sum = el("p", "summary", pick(info.summary));
  sum.id = "join-summary";
  card.append(sum);
  const st = el("p", "status");
  st.append(el("span", null, t("roomStatus")), el("b", null, pick(info.status_label)));
  card.append(st);
  const seats = el("ul", "seat-list");
  seats.id = "join-seats";
  for (const s of info.seats) {
    const li = el("li", s.free ? "free" : s.kind);
    li.append(el("span", "seat-no", t("seatN", s.seat)));
    li.append(el("span", "seat-name", s.free ? t("seatFree") : s.name || ""));
    if (!s.free) li.append(el("span", "seat-kind", s.kind === "bot" ? t("seatBot") : t("seatHuman")));
    seats.append(li);
  }
  card.append(seats);
  const free = info.seats.filter((s) => s.free).length;
  card.append(el("p", "free-count", free ? t("freeSeats", free) : t("noFree")));
  if (free) {
    const ln = el("label", "join-name");
    const nm = el("input");
    nm.id = "join-page-name";
    nm.maxLength = 24;
    nm.placeholder = t("namePh");
    ln.append(el("span", null, t("joinAs")), nm);
    card.append(ln);
    const b = el("button", "primary big", t("joinNow"));
    b.type = "button";
    b.id = "join-page-btn";
    b.addEventListener("click", async () => {
      b.disabled = true;
      err.textContent = "";
      try {
        const r = await api(`/api/rooms/${encodeURIComponent(code)}/join`, nm.value ? { name: nm.value } : {});
        storeSeat(code, r.token, r.seat);
        hideJoin();
        goRoom(code);
      } catch (e) {
        err.textContent = t("joinFail", e.message);
        b.disabled = false;
      }
    });
    card.append(b);
  }
  card.append(err);
  const row = el("div", "row");
  const rb = el("button", null, t("joinRules"));
  rb.type = "button";
  rb.addEventListener("click", () => openRules(code));
  row.append(rb, backButton());
  card.append(row);
}
export function hideJoin() {
  const p = $("#join-page");
  if (p) { p.classList.add("hidden"); p.dataset.room = ""; }
  document.body.classList.remove("join-open");
}
function backButton() {
  return button(null, t("backLobby"), () => { hideJoin(); history.replaceState(null, "", "#/"); location.hash = "#/"; });
}
/* ------------------------------------------------------------ invite card (a room waiting) */
let inviteDismissed = null;
/** The invite card while the table of this browser's seat waits for friends (`phase` is
 * the shown table's, null when no table is shown; `free`: its seats nobody has taken —
 * a full room invites nobody, and the card would cover 准备). */
export function syncInvite(phase, free = 1) {
  const room = S.room;
  const on = phase === "waiting" && free > 0 && room && inviteDismissed !== room;
  let card = $("#invite");
  if (!on) { if (card) card.classList.add("hidden"); return; }
  if (!card) {
    card = el("aside", "invite");
    card.id = "invite";
    document.body.append(card);
  }
  if (card.dataset.room === room && !card.classList.contains("hidden") && card.dataset.lang === lang()) return;
  card.dataset.room = room;
  card.dataset.lang = lang();
  card.classList.remove("hidden");
  const link = `${location.origin}/#/room/${room}`;
  const x = closeButton(() => { inviteDismissed = room; card.classList.add("hidden"); });
  const img = el("img", "qr");
  img.src = `/api/rooms/${room}/qr.svg`;
  img.alt = t("qrAlt", room);
  img.width = 148;
  img.height = 148;
  const a = el("input", "invite-link");
  a.id = "invite-link";
  a.readOnly = true;
  a.value = link;
  a.addEventListener("focus", () => a.select());
  const note = el("span", "copied");
  const cp = button("primary", t("copyLink"), async () => {
    try {
      await navigator.clipboard.writeText(link);
      note.textContent = t("copied");
    } catch {
      a.focus();
      a.select();
      try { note.textContent = document.execCommand("copy") ? t("copied") : t("copyFail"); } catch { note.textContent = t("copyFail"); }
    }
  });
  cp.id = "copy-link-btn";
  const row = el("div", "row");
  row.append(cp, note);
  const body = el("div", "invite-body");
  body.append(el("p", null, t("inviteHelp")), a, row);
  card.replaceChildren(x, el("h3", null, t("inviteTitle") + " · " + room), img, body);
}


onLang(() => { // the open page and card in the new language
  const jp = $("#join-page");
  if (jp && !jp.classList.contains("hidden") && jp.dataset.room) showJoin(jp.dataset.room, true);
  const card = $("#invite");
  if (card && !card.classList.contains("hidden")) { card.dataset.lang = ""; syncInvite("waiting"); }
});
