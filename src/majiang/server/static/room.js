// The room around the table: the invite a visitor sees, the room as it gathers (seats, 准备, the
// share link), the dissolve vote, and quick chat.
import { presetName } from "./games.js";
import { I18N, t } from "./i18n.js";
import { $, h, node, setHTML, setText, sync } from "./dom.js";
import { api } from "./protocol.js";
import { freeSeats, restingMe } from "./state.js";
import { namesOf, signed, variantName } from "./words.js";

/** @typedef {import('./state.js').State} State */

/**
 * The bar above the table: the game, the rules, the room and the hand, and how this page is in it.
 * @param {State} state @param {Protocol.RoomView} r @param {boolean} watching @param {boolean} inviting
 */
export function renderRoomHead(state, r, watching, inviting) {
  const mySeat = state.snap ? state.snap.seat : null, resting = restingMe(state);
  const joining = (r.joining || []).map((/** @type {string | null} */ n, /** @type {number} */ i) => (n ? `${t("seat_n", { n: i + 1 })} ${n}` : null)).filter(Boolean);
  const tags = [];
  if (watching && !inviting && !resting) tags.push(h` · <span class="watch-tag">${t("watching")}</span>`);
  if (!watching && mySeat != null && r.auto[mySeat]) tags.push(h` · <span class="auto-tag">${t("auto_on")}</span>`);
  if (joining.length) tags.push(h` · <span class="join-tag">${t("joining_tag", { n: joining.join(", ") })}</span>`);
  if (r.resting && r.status !== "lobby") {
    const rest = resting ? t("resting_you", { s: signed(r.resting.total) }) : t("resting", { n: r.resting.name, s: signed(r.resting.total) });
    tags.push(h` · <span class="rest-tag">${rest}</span>`);
  }
  const hand = t("hand_of", { i: r.hand_index + 1, n: r.hands });
  // the hand's number first: a long game or rule name is what the ellipsis cuts, never "hand 2/4"
  setHTML($("room-head"), h`<span class="handno">${hand}</span> · <b>${variantName(r.variant)}</b> ${presetName(r.variant, r.preset)} · ${t("room")} <code>${r.code}</code>${tags}`);
}
/** @param {State} state @param {Protocol.RoomView} r @param {boolean} show */
export function renderInvite(state, r, show) {
  const me = state.me, nextSeat = state.nextSeat;
  $("invite").hidden = !show;
  if (!show) return;
  const names = namesOf(r);
  const host = r.host_seat != null ? names[r.host_seat] : null;
  setText($("invite-title"), host ? t("invite_title", { host, g: variantName(r.variant) }) : t("invite_title_nohost", { c: r.code, g: variantName(r.variant) }));
  setText($("invite-rules"), `${t("room")} ${r.code} · ` + t("invite_rules", { p: presetName(r.variant, r.preset), h: r.hands, s: r.stake }));
  const free = freeSeats(r);
  sync($("invite-seats"), names.map((n, i) => ({ key: String(i), n, i })), () => node("div", "invite-seat"), (e, it) => {
    const open = free.includes(it.i), kept = nextSeat === it.i;
    e.classList.toggle("free", open); e.classList.toggle("kept", kept);
    const tags = [it.i === r.host_seat ? t("host") : "", r.joining && r.joining[it.i] ? t("joining_tag", { n: r.joining[it.i] }) : ""].filter(Boolean).join(" · ");
    setText(e, `${t("seat_n", { n: it.i + 1 })} · ${open ? t("invite_free") : it.n}${tags ? " · " + tags : ""}`);  // a bot's name has its level in brackets already
  });
  const waitingSeat = nextSeat != null;
  const benchFree = r.four && !r.resting && !free.length;  // four friends: the fourth sits out first
  const canSit = free.length || benchFree;
  $("invite-sit").hidden = waitingSeat || !canSit;
  setText($("invite-sit"), benchFree ? t("sit_bench") : t("sit"));
  $("invite-name-row").hidden = !!me || waitingSeat || !canSit;
  $("invite-watch").hidden = waitingSeat;
  $("invite-watch").classList.toggle("primary", !canSit);
  setText($("invite-note"), waitingSeat ? t("invite_next_wait", { n: nextSeat + 1 }) : benchFree ? t("bench_free") : !free.length ? t("invite_full")
    : r.status === "playing" ? t("invite_next", { n: free[0] + 1 }) : "");
}

/** @type {Map<string, string>} each room's invite link by its code (the server's, once it answered): asked once per room */
const invites = new Map();
/** The invite link of the room (the server's, once it answered). @param {string | null} code */
export function inviteLink(code) { return (code && invites.get(code)) || ""; }
/**
 * @param {State} state
 * @param {Protocol.RoomView} r the room
 * @param {number | null} mySeat
 * @param {() => void} redraw asked when the server's invite link arrives
 */
export function renderLobbyRoom(state, r, mySeat, redraw) {
  const me = state.me;
  setText($("share-code"), r.code);
  if (!invites.has(r.code)) {  // the link and its QR code, asked once per room
    invites.set(r.code, `${location.origin}/?room=${r.code}`);
    setText($("share"), invites.get(r.code) || "");
    $("share-qr").src = `/api/rooms/${encodeURIComponent(r.code)}/qr.svg`;
    api(`/api/rooms/${encodeURIComponent(r.code)}/invite`).then((x) => {
      invites.set(r.code, x.url); setText($("share"), x.url);
      $("share-note").dataset.local = x.local_only ? "1" : "";
      redraw();
    }).catch(() => {});
  }
  $("share-qr").alt = t("qr_alt");
  // the host alone is told that only this computer can open the link (and how to change that)
  setText($("share-note"), $("share-note").dataset.local && mySeat != null && mySeat === r.host_seat ? t("share_note") : "");
  sync($("seats"), namesOf(r).map((n, i) => ({ key: String(i), n, i })), () => node("div", "seat-line"), (e, it) => {
    const ready = r.ready && r.ready[it.i] && r.humans[it.i] && it.i !== r.host_seat;
    const tags = [it.i === r.host_seat ? t("host") : "", it.i === mySeat ? t("you") : "", r.humans[it.i] ? "" : t("bot"), ready ? t("ready_tag") : ""].filter(Boolean).join(" · ");
    setText(e, `${t("seat_n", { n: it.i + 1 })}: ${it.n}${tags ? " · " + tags : ""}`);  // a bot's name has its level in brackets already
  });
  $("bench-line").hidden = !r.four;
  if (r.four) setText($("bench-line"), r.resting ? t("bench_line", { n: r.resting.name }) : t("bench_free"));
  const free = r.humans.some((x) => !x) && mySeat == null;
  $("sit").hidden = !free;
  $("sit-name").parentElement.hidden = !!me;
  $("start").hidden = mySeat == null || mySeat !== r.host_seat;
  // 准备: the server deals the first hand once every seated player has said ready (the host by
  // starting), or when the ready timer that the host's start set going runs out
  const names = namesOf(r);
  const unready = r.humans.map((x, i) => (x && i !== r.host_seat && !(r.ready && r.ready[i]) ? names[i] : null)).filter(Boolean);
  $("start").disabled = !!r.starting;
  setText($("start"), r.starting ? t("starting") : t("start"));
  $("ready-lobby").hidden = mySeat == null || mySeat === r.host_seat || !!(r.ready && r.ready[mySeat]);
  const note = $("wait-note");
  const text = unready.length ? t(r.starting ? "start_wait" : "wait_ready", { l: unready.join(", ") }) : mySeat != null && mySeat !== r.host_seat ? t("waiting_start") : "";
  let words = note.querySelector(".words"), clock = note.querySelector(".clock");
  if (!words) { words = node("span", "words"); clock = node("span", "clock"); clock.dataset.clock = "1"; note.append(words, " ", clock); }
  setText(words, text);
  clock.hidden = !r.starting;
}

/** @param {Protocol.RoomView} r @param {number | null} mySeat */
export function renderVote(r, mySeat) {
  const d = r.dissolve, box = $("vote");
  box.hidden = !d;
  if (!d) return;
  const names = namesOf(r), humans = r.humans.filter(Boolean).length, yes = d.votes.filter((x) => x === true).length;
  setText($("vote-text"), t("vote_text", { who: names[d.by], n: yes, m: humans }));
  $("vote-clock").dataset.deadline = String(d.deadline);
  const mine = mySeat == null ? true : d.votes[mySeat];
  $("vote-yes").hidden = mine != null; $("vote-no").hidden = mine != null;
}

export const PHRASES = ["hello", "hurry", "nice", "thanks", "oops", "again", "bye"];
export const EMOJI = ["laugh", "cry", "angry", "thumb", "flower"];
const face = (/** @type {string} */ mouth, extra = "") => `<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><circle cx="16" cy="16" r="14" fill="#f7c948" stroke="#a66b00"/><circle cx="11" cy="13" r="2" fill="#3a2a00"/><circle cx="21" cy="13" r="2" fill="#3a2a00"/>${mouth}${extra}</svg>`;
/** @type {Record<string, string>} */
const EMOJI_SVG = {
  laugh: face('<path d="M9 19 Q16 27 23 19 Z" fill="#7a1a12"/>'),
  cry: face('<path d="M10 23 Q16 17 22 23" stroke="#3a2a00" stroke-width="2" fill="none"/>', '<path d="M10 16 q-2 5 0 7 q2 -2 0 -7" fill="#5cc8ff"/>'),
  angry: face('<path d="M10 23 Q16 19 22 23" stroke="#3a2a00" stroke-width="2" fill="none"/>', '<path d="M7 8 L14 11 M25 8 L18 11" stroke="#3a2a00" stroke-width="2"/>').replace("#f7c948", "#ff8a5c"),
  thumb: '<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><rect x="4" y="14" width="6" height="14" rx="1" fill="#f0c75e"/><path d="M12 14 L17 4 Q20 4 19 10 L27 10 Q29 12 27 15 L25 27 Q24 28 22 28 L12 28 Z" fill="#f7c948" stroke="#a66b00"/></svg>',
  flower: '<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">' + [0, 72, 144, 216, 288].map((a) => `<circle cx="${(16 + 8 * Math.cos(a * Math.PI / 180)).toFixed(1)}" cy="${(16 + 8 * Math.sin(a * Math.PI / 180)).toFixed(1)}" r="6" fill="#ff7aa8"/>`).join("") + '<circle cx="16" cy="16" r="5" fill="#f0c75e"/></svg>',
};
/** The quick-chat menu, in the page's language. @param {(msg: any) => void} send */
export function buildChatMenu(send) {
  const menu = $("chat-menu");
  menu.textContent = "";
  PHRASES.concat(EMOJI).forEach((p) => {
    const b = node("button", "chat-item" + (EMOJI.includes(p) ? " emoji" : "")); b.type = "button";
    if (EMOJI.includes(p)) { b.innerHTML = EMOJI_SVG[p]; b.setAttribute("aria-label", t("p_" + p)); } else b.textContent = t("p_" + p);
    b.dataset.phrase = p;
    b.onclick = () => { send({ type: "chat", phrase: p }); menu.hidden = true; $("chat-btn").setAttribute("aria-expanded", "false"); };
    menu.appendChild(b);
  });
}
/** A chat message shown at its seat. @param {{seat: number, phrase: string}} msg */
export function showChat(msg) {
  const seat = document.querySelector(`.board .seat[data-seat="${Number(msg.seat)}"]`);
  if (!seat || !(PHRASES.includes(msg.phrase) || EMOJI.includes(msg.phrase))) return;
  const b = /** @type {any} */ (seat.querySelector(".bubble"));
  if (EMOJI.includes(msg.phrase)) { b.innerHTML = EMOJI_SVG[msg.phrase]; b.setAttribute("aria-label", t("p_" + msg.phrase)); }
  else b.textContent = t("p_" + msg.phrase);
  placeBubble(b, seat);
  b.classList.add("show");
  clearTimeout(b._t); b._t = setTimeout(() => b.classList.remove("show"), 3500);
}
/**
 * A chat bubble beside its seat's name line, never over it (nor over another seat's name or score)
 * and inside the screen: under the line, or above it for one's own seat at the bottom; it is fixed
 * to the screen, so a seat that clips its contents does not cut it.
 * @param {HTMLElement} b @param {Element} seat
 */
function placeBubble(b, seat) {
  const line = (seat.querySelector(".who") || seat).getBoundingClientRect();
  b.style.left = "0px"; b.style.top = "0px";
  const w = b.offsetWidth, hgt = b.offsetHeight;
  const below = !seat.classList.contains("me") && !seat.classList.contains("pos-bottom");
  const top = below ? line.bottom + 4 : line.top - hgt - 4;
  b.style.left = `${Math.round(Math.max(4, Math.min(line.left, innerWidth - w - 4)))}px`;
  b.style.top = `${Math.round(Math.max(4, Math.min(top, innerHeight - hgt - 4)))}px`;
}
