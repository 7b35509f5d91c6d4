// The page's entry: it holds the one state, feeds it the server's frames and the player's taps through
// `reduce`, and draws it with the render modules (lobby, room, table, dock, settlement, replay). All
// game state comes from the server's snapshots.
import { I18N, t } from "./i18n.js";
import { Sound } from "./sound.js";
import { $, esc, raw, setHTML, setText } from "./dom.js";
import { api, roomSocket, roomUrl } from "./protocol.js";
import { createStore, initialState, legalMoves, restingMe, secondsLeft } from "./state.js";
import { ACTION_KEYS, CODE_RE, namesOf, variantName } from "./words.js";
import { handItems, lastView, renderBoard } from "./table.js";
import { placeDock, renderDock } from "./dock.js";
import { openHelp, tipButtons } from "./help.js";
import { hideSettlement, rematch, settlementKey, showSettlement } from "./settlement.js";
import { buildChatMenu, inviteLink, renderInvite, renderLobbyRoom, renderRoomHead, renderVote, showChat } from "./room.js";
import { openReplay, redrawReplay } from "./replay.js";
import { ensurePlayer, fillPresets, initLobby, loadHistory, loadMe, loadSchema, loadTables, renderOptions } from "./lobby.js";

// the one holder of the page's state (state.js): what this browser kept seeds it
const page = createStore(initialState({ showHints: localStorage.getItem("majiang.hints") === "1",
  taught: +(localStorage.getItem("majiang.taught") || 0) }));
const dispatch = page.dispatch;
/** @type {WeakSet<WebSocket>} the sockets the hints setting was sent on (hints are computed only when shown) */
const hintsSentOn = new WeakSet();

/** @param {unknown} e a refusal (ApiError, socket error frame) or the page's own words */
function showError(e) { $("error").textContent = I18N.errorText(e); }
/** @param {unknown} e */
function showLobbyError(e) { $("lobby-error").textContent = I18N.errorText(e); }
/** A room code's refusal beside the code box (the lobby's own line is far below the other cards). @param {unknown} e */
function showJoinError(e) { $("join-error").textContent = I18N.errorText(e); }

/** @type {import('./lobby.js').LobbyHooks} what the lobby is given of the page */
const lobby = { state: () => page.state, dispatch, openRoom, joinAndOpen, showLobbyError, showJoinError };

// ---------------------------------------------------------------- the room's socket
const socket = roomSocket(() => roomUrl(page.state.roomCode || ""), (msg, ws) => {
  dispatch({ type: "frame", msg, at: Date.now() });
  if (msg.type === "snapshot" || (msg.type === "patch" && page.state.snap)) {
    socket.settled(); showError("");
    if (page.state.snap && page.state.snap.seat != null && !hintsSentOn.has(ws)) { hintsSentOn.add(ws); send({ type: "hints", on: page.state.showHints }); }
    render();
    document.body.dataset.frames = String(+(document.body.dataset.frames || 0) + 1);  // for tests: updates seen
  } else if (msg.type === "chat") showChat(msg);
  else if (msg.type === "error") showError(msg);
});
/** @param {Protocol.ClientMessage} msg */
function send(msg) { socket.send(msg); }
/** @param {Protocol.Action} action one of the snapshot's legal moves (of the decision numbered `seq`) */
function act(action) {
  const seq = page.state.snap && page.state.snap.seq;
  if (seq == null) return;  // no decision to answer
  dispatch({ type: "acted" }); send({ type: "action", seq, action });
}
const dockActions = { act, send, rematch: () => rematch(page.state, showError), reopenSettlement };
/** The dock's 结算 button: the dialog again. */
function reopenSettlement() { dispatch({ type: "settlement-closed", key: null }); showSettlement(page.state); }

/**
 * @param {string} code
 * @param {import('./state.js').Mode} [how]
 */
function openRoom(code, how = "seated") {
  if (!CODE_RE.test(code)) { showJoinError(t("err_code")); return; }
  dispatch({ type: "open", code, mode: how });
  history.replaceState(null, "", `/?room=${encodeURIComponent(code)}`);
  guardBack();
  document.body.classList.add("in-room");
  $("lobby").hidden = true; $("room").hidden = false;
  socket.connect();
}
/** Take (or find again) one's seat, then open the table. @param {string} code */
async function joinAndOpen(code) {
  const r = await api(`/api/rooms/${encodeURIComponent(code)}/join`, "POST");
  dispatch({ type: "joined", nextSeat: r.next_hand ? r.seat : null });
  openRoom(code, "seated");
}

// ---------------------------------------------------------------- drawing the room
function render() {
  const snap = page.state.snap;
  if (!snap) return;
  const r = snap.room, v = snap.view, mySeat = snap.seat;
  const watching = mySeat == null;
  const inviting = watching && (page.state.mode === "invite" || page.state.nextSeat != null);
  document.body.classList.toggle("watching", watching && !inviting && !restingMe(page.state));
  document.body.classList.toggle("inviting", inviting);
  renderInvite(page.state, r, inviting);
  renderRoomHead(page.state, r, watching, inviting);
  $("auto").hidden = watching || r.status !== "playing";
  setText($("auto"), mySeat != null && r.auto[mySeat] ? t("auto_off") : t("auto"));
  $("auto").classList.toggle("on", mySeat != null && !!r.auto[mySeat]);
  tipButtons();  // the 托管 button's words change: its accessible name follows
  $("waiting").hidden = r.status !== "lobby" || inviting;
  $("chat-btn").hidden = watching || r.status === "lobby";
  $("dissolve").hidden = watching || r.status !== "playing" || !!r.dissolve;
  if ($("chat-btn").hidden) $("chat-menu").hidden = true;
  renderVote(r, mySeat);
  keepAwake(r.status === "playing" && !!v && !snap.settlement && !r.match_over);  // the screen stays on during a hand
  if (r.status === "lobby" || !v) {
    if (r.status === "lobby") renderLobbyRoom(page.state, r, mySeat, () => { if (page.state.snap) render(); });
    $("table").hidden = true; $("actions").textContent = ""; $("hints").textContent = ""; $("prompt").textContent = "";
    placeTurnNote();
    return;
  }
  const legal = v.legal || [];
  const prev = lastView();
  if (prev && !(prev.legal || []).length && legal.length) Sound.play("turn");
  renderBoard({ view: v, names: namesOf(r), totals: r.match_totals, mySeat, bottom: mySeat == null ? 0 : mySeat, auto: r.auto,
    connected: r.connected, humans: r.humans, live: true, legal, hints: snap.hints, dice: snap.dice, received: snap.received,
    showHints: page.state.showHints, picked: page.state.picked, selKey: page.state.selKey });
  if (snap.settlement || r.match_over) showSettlement(page.state);
  else { hideSettlement(); dispatch({ type: "settlement-closed", key: null }); }  // the next one opens
  renderDock(page.state, v, legal, r, dockActions);
  placeDock();
  placeTurnNote();
  tick();
}
window.addEventListener("resize", () => { if (page.state.snap && !page.state.replaying) { placeDock(); placeTurnNote(); } });

// An upright phone: the felt left empty above the side seats asks for the phone to be turned, as the
// apps are played; a tap turns it where the browser can (full screen, orientation locked) and hides it.
const upright = matchMedia("(max-width: 600px) and (orientation: portrait)");
function placeTurnNote() {
  const note = $("turn-note"), board = $("table");
  let show = false;
  if (!board.hidden && upright.matches && !page.state.replaying && localStorage.getItem("majiang.turnNote") !== "0") {
    const room = $("room").getBoundingClientRect(), top = board.querySelector(".pos-top");
    const from = top ? top.getBoundingClientRect().bottom : board.getBoundingClientRect().top;
    const to = Math.min(...[...board.querySelectorAll(".pos-left, .pos-right, .center")].map((e) => e.getBoundingClientRect().top));
    note.hidden = false;  // measured before anything is painted
    const h = note.getBoundingClientRect().height;
    show = Number.isFinite(to) && to - from >= h + 16;
    if (show) note.style.top = `${Math.round((from + to - h) / 2 - room.top)}px`;
  }
  note.hidden = !show;
}
$("turn-note").onclick = async () => {
  localStorage.setItem("majiang.turnNote", "0"); $("turn-note").hidden = true;
  try {
    await document.documentElement.requestFullscreen();
    await /** @type {any} */ (screen.orientation).lock("landscape");
  } catch (e) { /* an iPhone cannot: the note said how */ }
};

// ---------------------------------------------------------------- clocks
function tick() {
  const snap = page.state.snap;
  if (!snap || page.state.replaying) return;
  const now = Date.now();
  const mine = snap.you && snap.you.deadline, pub = snap.room.clock && snap.room.clock.deadline;
  document.querySelectorAll("[data-clock]").forEach((e) => {
    const left = secondsLeft(page.state, /** @type {HTMLElement} */ (e).dataset.clock === "you" ? mine : pub, now);
    setText(e, left == null ? "" : t("seconds", { n: Math.ceil(left) }));
  });
  if (!$("vote").hidden) setText($("vote-clock"), t("seconds", { n: Math.ceil(secondsLeft(page.state, +$("vote-clock").dataset.deadline, now) || 0) }));
  const center = document.querySelector(".board .center");
  if (!center) return;
  const dl = mine || (snap.view && snap.view.phase === "turn" ? pub : null);
  const left = secondsLeft(page.state, dl, now);
  const timers = snap.room.timers || {};
  const total = snap.view && snap.view.phase === "turn" ? Number(timers.turn_seconds) || 15 : Number(timers.claim_seconds) || 8;
  const fg = /** @type {Element} */ (center.querySelector(".ring-fg"));
  fg.setAttribute("stroke-dashoffset", left == null ? "100.5" : String((100.5 * (1 - Math.min(1, left / total))).toFixed(1)));
  center.classList.toggle("urgent", left != null && left <= 5);
  setText(/** @type {Element} */ (center.querySelector(".secs")), left == null ? "" : String(Math.ceil(left)));
}
setInterval(tick, 250);

// ---------------------------------------------------------------- language and sound toggles
function applyStatic() {
  document.documentElement.lang = I18N.lang === "en" ? "en" : "zh-Hans";
  document.querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(/** @type {HTMLElement} */ (e).dataset.t || ""); });
  document.querySelectorAll("[data-ph]").forEach((e) => { /** @type {HTMLInputElement} */ (e).placeholder = t(/** @type {HTMLElement} */ (e).dataset.ph || ""); });
  $("title-sub").textContent = t("title");
  $("brand").textContent = t("brand"); document.title = `${t("brand")} · ${t("title")}`;
  $("lang").textContent = t("lang"); $("lang").setAttribute("aria-label", `${t("lang")} · ${t("lang_label")}`);
  // the sound's state at a glance: a speaker with its waves, or struck through, beside the button's word
  const icon = `<svg class="icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M3 7h3l4-4v14l-4-4H3z" fill="currentColor"/>${
    Sound.muted ? '<path d="M13 7l5 6M18 7l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
      : '<path d="M13 6.5a5 5 0 0 1 0 7M15.5 4a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>'}</svg>`;
  setHTML($("mute"), raw(`${icon}<span class="words">${esc(Sound.muted ? t("unmute") : t("mute"))}</span>`));
  $("mute").dataset.sound = Sound.muted ? "off" : "on";
  $("mute").setAttribute("aria-pressed", Sound.muted ? "true" : "false");
  $("hint-toggle").setAttribute("aria-pressed", page.state.showHints ? "true" : "false");
  $("hint-toggle").classList.toggle("on", page.state.showHints);
  [...$("variant").options].forEach((o) => { o.textContent = variantName(o.value); });
  fillPresets(true);
  renderOptions(lobby);
  tipButtons();
}
$("lang").onclick = () => {
  I18N.setLang(I18N.lang === "en" ? "zh" : "en");
  applyStatic(); loadHistory(lobby);
  if (page.state.replaying) redrawReplay(); else if (page.state.snap) render();
};
$("help-btn").onclick = () => openHelp();
$("close-help").onclick = () => /** @type {HTMLDialogElement} */ ($("help-dialog")).close();
$("mute").onclick = () => { Sound.setMuted(!Sound.muted); applyStatic(); Sound.play("turn"); };
$("hint-toggle").onclick = () => {
  dispatch({ type: "hints", on: !page.state.showHints });
  localStorage.setItem("majiang.hints", page.state.showHints ? "1" : "0"); send({ type: "hints", on: page.state.showHints });
  applyStatic(); if (page.state.snap) render();
};
document.addEventListener("pointerdown", () => Sound.unlock(), { once: true });
document.addEventListener("keydown", () => Sound.unlock(), { once: true });

// ---------------------------------------------------------------- taps and keys on one's own tiles
// handled on the board, so nodes replaced or not, the press counts
/** One discard made by the double tap the prompt teaches (taught thrice, then only the clock; kept in this browser). */
function learnedDiscard() { dispatch({ type: "learned" }); localStorage.setItem("majiang.taught", String(page.state.taught)); }
/** @param {HTMLElement} e a tile of one's hand */
function tapTile(e) {
  if (!page.state.snap || !page.state.snap.view || page.state.replaying) return;
  const legal = legalMoves(page.state);
  const key = e.dataset.key || "";
  if (legal.some((a) => a.type === "exchange")) { dispatch({ type: "pick", key }); render(); return; }
  const tile = e.dataset.tile;
  if (!legal.some((a) => a.type === "discard" && a.tile === tile)) return;
  if (page.state.selKey === key) { learnedDiscard(); act({ type: "discard", tile }); }
  else { dispatch({ type: "select", key }); render(); }
}
// a press on one's own tile: a tap selects it (a second tap discards), a drag upwards discards at once
(function wireTilePresses() {
  /** @type {{key: string, y: number} | null} */
  let press = null;
  /** @param {Event} ev */
  const myTile = (ev) => /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest(".seat.me .tile.click"));
  $("table").addEventListener("pointerdown", (/** @type {PointerEvent} */ ev) => {
    const e = myTile(ev);
    press = e ? { key: e.dataset.key || "", y: ev.clientY } : null;
  });
  $("table").addEventListener("pointerup", (/** @type {PointerEvent} */ ev) => {
    if (!press) return;
    const dy = ev.clientY - press.y;
    if (dy < -30 && page.state.snap && page.state.snap.view) {  // dragged up: discard at once
      const e = /** @type {HTMLElement | null} */ (document.querySelector(`.seat.me .tile[data-key="${CSS.escape(press.key)}"]`));
      if (e && legalMoves(page.state).some((a) => a.type === "discard" && a.tile === e.dataset.tile)) {
        press = null; act({ type: "discard", tile: e.dataset.tile }); ev.preventDefault(); return;
      }
    }
  });
  $("table").addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    const e = myTile(ev);
    if (e && press !== null) tapTile(e);
    press = null;
  });
})();
// keyboard play on a desktop
document.addEventListener("keydown", (ev) => {
  if (!page.state.snap || !page.state.snap.view || page.state.replaying || /** @type {Element} */ (ev.target).closest("input, select, textarea, dialog")) return;
  const legal = legalMoves(page.state), selKey = page.state.selKey;
  const tiles = handItems().filter((x) => legal.some((a) => a.type === "discard" && a.tile === x.tile));
  const k = ev.key.toLowerCase();
  if ((k === "arrowleft" || k === "arrowright") && tiles.length) {
    let i = tiles.findIndex((x) => x.key === selKey);
    i = i < 0 ? tiles.length - 1 : (i + (k === "arrowleft" ? -1 : 1) + tiles.length) % tiles.length;
    dispatch({ type: "select", key: tiles[i].key }); render(); ev.preventDefault();
  } else if (k === "enter" && selKey) {
    const x = tiles.find((y) => y.key === selKey);
    if (x) { act({ type: "discard", tile: x.tile }); ev.preventDefault(); }
  } else {
    const want = ACTION_KEYS[k];
    const a = want && legal.find((x) => x.type === want || (want === "kong" && /kong/.test(x.type)));
    if (a) { act(a); ev.preventDefault(); }
  }
});
// 托管 ends at once on any tap or key of its player (the 托管 button itself toggles)
/** @param {Event} e */
function backFromAuto(e) {
  const snap = page.state.snap;
  if (!snap || snap.seat == null || !snap.room.auto[snap.seat] || (e.target && /** @type {Element} */ (e.target).id === "auto")) return;
  send({ type: "auto", on: false });
}
document.addEventListener("pointerdown", backFromAuto, true);
document.addEventListener("keydown", backFromAuto, true);

// ---------------------------------------------------------------- the room's buttons
$("invite-sit").onclick = async () => {
  const b = $("invite-sit");
  if (b.disabled) return;
  b.disabled = true;
  try {
    if (!page.state.me && $("invite-name").value.trim()) $("name").value = $("invite-name").value;
    await ensurePlayer(lobby);
    const r = await api(`/api/rooms/${encodeURIComponent(page.state.roomCode || "")}/join`, "POST");
    dispatch({ type: "joined", nextSeat: r.next_hand ? r.seat : null });
    dispatch({ type: "mode", mode: "seated" });
    dispatch({ type: "dropped" });
    socket.reopen();  // the server sees who this page is now: the seat, or the seat kept for the next hand
  } catch (e) { setText($("invite-note"), I18N.errorText(e)); }
  finally { b.disabled = false; }
};
$("invite-watch").onclick = () => { dispatch({ type: "mode", mode: "watch" }); if (page.state.snap) render(); };
$("sit-down").onclick = async () => {
  try {
    if (!page.state.me && $("sit-name").value.trim()) $("name").value = $("sit-name").value;
    await ensurePlayer(lobby);
    await api(`/api/rooms/${encodeURIComponent(page.state.roomCode || "")}/join`, "POST");
    socket.reopen();
  } catch (e) { showError(e); }
};
$("ready-lobby").onclick = () => send({ type: "ready" });
$("start").onclick = async () => { try { await api(`/api/rooms/${encodeURIComponent(page.state.roomCode || "")}/start`, "POST"); } catch (e) { showError(e); } };
$("vote-yes").onclick = () => send({ type: "dissolve", agree: true });
$("vote-no").onclick = () => send({ type: "dissolve", agree: false });
$("dissolve").onclick = () => send({ type: "dissolve", agree: true });  // the vote itself asks the others
$("chat-btn").onclick = () => {
  const menu = $("chat-menu");
  if (menu.hidden) buildChatMenu((msg) => { send(msg); menu.hidden = true; $("chat-btn").setAttribute("aria-expanded", "false"); });
  menu.hidden = !menu.hidden;
  $("chat-btn").setAttribute("aria-expanded", menu.hidden ? "false" : "true");
};
$("next").onclick = () => { send({ type: "ready" }); };
$("close-settlement").onclick = () => { dispatch({ type: "settlement-closed", key: settlementKey(page.state.snap, false) }); $("settlement").close(); if (page.state.snap) render(); };
$("settlement").addEventListener("cancel", () => { dispatch({ type: "settlement-closed", key: settlementKey(page.state.snap, true) }); setTimeout(() => page.state.snap && render(), 0); });
$("to-lobby").onclick = () => { location.href = "/"; };
$("rematch").onclick = () => rematch(page.state, showError);
$("auto").onclick = () => { const snap = page.state.snap; if (snap && snap.seat != null) send({ type: "auto", on: !snap.room.auto[snap.seat] }); };
/** Whether leaving now leaves a match one plays in (托管 then plays for one): leaving asks first. */
function leavingAMatch() {
  const snap = page.state.snap;
  return !!(snap && snap.seat != null && snap.room.status === "playing" && !snap.room.match_over);
}
$("leave").onclick = () => {  // leaving mid-match asks first and says that 托管 plays meanwhile
  if (leavingAMatch()) $("leave-dialog").showModal();
  else location.href = "/";
};
// The browser's back button at a table is 离开 too: the room's page keeps one entry of its own above
// it in the history, so going back lands here (never on the previous site) and asks the same way.
function guardBack() {
  if (!(history.state && history.state.table)) history.pushState({ table: true }, "", location.href);
}
window.addEventListener("popstate", () => {
  if (!page.state.roomCode || page.state.replaying || (history.state && history.state.table)) return;
  if (!leavingAMatch()) { location.href = "/"; return; }
  guardBack();  // stay at the table until the player says 离开
  const d = /** @type {HTMLDialogElement} */ ($("leave-dialog"));
  if (!d.open) d.showModal();
});
$("leave-stay").onclick = () => $("leave-dialog").close();
$("leave-go").onclick = () => { location.href = "/"; };
$("share-btn").onclick = async () => {
  const r = page.state.snap && page.state.snap.room, url = inviteLink(page.state.roomCode);
  const text = r ? t("share_text", { g: variantName(r.variant), c: r.code }) : "";
  try {
    if (navigator.share) { await navigator.share({ title: document.title, text, url }); return; }
  } catch (e) { if (e instanceof DOMException && e.name === "AbortError") return; }
  try { await navigator.clipboard.writeText(`${text} ${url}`); }
  catch (e) {  // no clipboard (plain http on another machine): select the link for a long-press copy
    const range = document.createRange(); range.selectNodeContents($("share")); const sel = getSelection();
    if (sel) { sel.removeAllRanges(); sel.addRange(range); }
  }
  setText($("share-done"), t("share_copied")); clearTimeout($("share-done")._t); $("share-done")._t = setTimeout(() => setText($("share-done"), ""), 3000);
};

// ---------------------------------------------------------------- an app on the home screen
// The service worker (sw.js) keeps the page's files; only a secure context (https, localhost) has one.
if (window.isSecureContext && navigator.serviceWorker) {
  window.addEventListener("load", () => navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then(() => { document.documentElement.dataset.worker = "registered"; }, () => {}), { once: true });
}
// The screen stays awake during a hand; the lock lost while the page was hidden is taken again.
/** the held WakeLockSentinel, whether one is being asked for, and whether a hand wants one */
const wake = /** @type {{ lock: any, asking: boolean, on: boolean }} */ ({ lock: null, asking: false, on: false });
/** @param {boolean} on */
function keepAwake(on) {
  wake.on = on;
  const mark = document.documentElement.dataset;  // for tests
  if (!on && wake.lock) { wake.lock.release().catch(() => {}); wake.lock = null; delete mark.wakeLock; }
  const wl = /** @type {any} */ (navigator).wakeLock;
  if (!on || wake.lock || wake.asking || !wl || document.visibilityState !== "visible") return;
  wake.asking = true;
  wl.request("screen").then((/** @type {any} */ held) => {
    wake.asking = false;
    if (!wake.on) { held.release(); return; }
    wake.lock = held; mark.wakeLock = "held";
    held.addEventListener("release", () => { if (wake.lock === held) { wake.lock = null; delete mark.wakeLock; } });
  }, () => { wake.asking = false; });  // refused: the screen sleeps as it would
}
document.addEventListener("visibilitychange", () => keepAwake(wake.on));

// ---------------------------------------------------------------- start
initLobby(lobby);
(async () => {
  applyStatic();
  loadSchema(lobby);
  await loadMe(lobby);
  loadHistory(lobby);
  loadTables(lobby);
  const params = new URLSearchParams(location.search);
  const replay = params.get("replay");
  if (replay != null) { dispatch({ type: "replay" }); openReplay(replay, Number(params.get("hand") || 0), showError); return; }
  const code = (params.get("room") || "").trim().toUpperCase();
  if (code) {
    // one's own table (seated, or a seat kept for the next hand) opens as it was; anyone else is a
    // visitor, offered the free seat first; a known player is seated at once in a room still
    // gathering (its own seat, or a free one)
    let mine = false;
    if (page.state.me && CODE_RE.test(code)) {
      try {
        mine = (await api("/api/tables")).some((/** @type {{room: string}} */ x) => x.room === code) || (await api(`/api/rooms/${encodeURIComponent(code)}`)).status === "lobby";
      } catch (e) { mine = false; }
    }
    if (mine) { try { await joinAndOpen(code); return; } catch (e) { /* full, or finished meanwhile: look at it */ } }
    openRoom(code, "invite");
  }
})();
