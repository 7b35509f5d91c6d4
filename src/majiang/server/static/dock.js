// The dock: the prompt, the hints and the buttons of one's decision, just above one's own seat.
import { declarationName, declares } from "./games.js";
import { I18N, t, tileName as tn } from "./i18n.js";
import { $, node, raw, setHTML, setText, sync, tileMarkup } from "./dom.js";
import { keyLabel, splitTiles } from "./words.js";
import { handItems } from "./table.js";

// a phone, upright or on its side (style.css's own query): the hint bar is one line there
const PHONE = "(max-width: 600px), (orientation: landscape) and (max-height: 520px)";

/**
 * What the dock's buttons do (the page's entry wires them to the socket and the settlement).
 * @typedef {{act: (a: Protocol.Action) => void, send: (msg: Protocol.ClientMessage) => void, rematch: () => void, reopenSettlement: () => void}} DockActions
 */

export const ACTION_ORDER = ["win", "concealed_kong", "added_kong", "kong", "pong", "declare", "sing", "pass"];
/** What a button of one's decision does, for its tooltip. @param {Protocol.Action} a @param {Protocol.Action[]} legal */
export function actionTip(a, legal) {
  if (a.type === "win") return legal.some((x) => x.type === "discard") ? t("tip_zimo") : t("tip_win");
  return t("tip_" + a.type);  // declare: 亮倒 or 跳舞, the hand shown; sing: 唱歌, hidden
}
/** @param {Protocol.Action} a @param {string} variant @param {Protocol.Action[]} legal */
export function actionLabel(a, variant, legal) {
  if (a.type === "win") return legal.some((x) => x.type === "discard") ? t("a_zimo") : t("a_win");
  if (a.type === "declare" || a.type === "sing") return declarationName(variant, a.type);
  return t("a_" + a.type);
}
/**
 * A button's words, a second line of them where it has one (a declaration's waits), its tooltip and
 * (on a computer: style.css shows .kbd only with a fine pointer) its key: the accessible name starts
 * with the words the button shows.
 * @param {HTMLElement} b @param {string} text @param {string} [tip] @param {string} [key] @param {string} [sub]
 */
export function labelButton(b, text, tip, key, sub) {
  /** @type {HTMLElement} */
  let words = b.querySelector(".words") || node("span", "words");
  if (!words.parentNode) { b.textContent = ""; b.appendChild(words); }
  setText(words, text);
  const line = b.querySelector(".sub");
  if (sub) { const l = line || node("span", "sub"); if (!line) words.after(l); setText(l, sub); }
  else if (line) line.remove();
  const kbd = b.querySelector("kbd");
  if (key) { const k = kbd || node("kbd", "kbd"); if (!kbd) { k.setAttribute("aria-hidden", "true"); b.appendChild(k); } setText(k, key); }
  else if (kbd) kbd.remove();
  const shown = sub ? `${text} ${sub}` : text, label = tip ? `${shown}: ${tip}` : shown;
  if (b.title !== (tip || "")) b.title = tip || "";
  if (b.getAttribute("aria-label") !== label) b.setAttribute("aria-label", label);
}
/**
 * Where the dock lies: just above one's own seat (--dock-bottom) and, where the layout gives it the
 * centre's column (style.css: the side seats reach down beside it), between the side seats
 * (--dock-l, --dock-r: the centre's edges).
 */
export function placeDock() {
  const seat = document.querySelector(".board .seat.me") || document.querySelector(".board .pos-bottom");
  if (!seat) return;
  const room = $("room").getBoundingClientRect();
  setVar("--dock-bottom", `${Math.round(room.bottom - seat.getBoundingClientRect().top + 4)}px`);
  const centre = document.querySelector(".board .center");
  if (centre) {
    const c = centre.getBoundingClientRect();
    setVar("--dock-l", `${Math.round(c.left - room.left)}px`);
    setVar("--dock-r", `${Math.round(room.right - c.right)}px`);
  }
  reserveDock();
}
/** @param {string} name @param {string} value */
function setVar(name, value) { if ($("room").style.getPropertyValue(name) !== value) $("room").style.setProperty(name, value); }
// The board's "dock" row (style.css) is as tall as the dock is now, and at least as tall as its usual
// prompt and row of buttons (--dock-min, per layout): no band is kept empty for a tall dock seen once
// this hand. Nothing one taps moves when the dock comes, goes or grows: one's own seat is the board's
// bottom row and the dock stands on it, while the other seats and the centre keep to the top of their
// places (the side seats reach down past the dock's row where it lies in the centre's column), so the
// row only takes felt from under the centre; only a dock taller than its usual (several rows of 亮倒
// options) makes the centre's place shorter while it is up.
function reserveDock() {
  setVar("--dock-h", `${Math.ceil($("dock").getBoundingClientRect().height)}px`);
}
/**
 * @param {import('./state.js').State} state
 * @param {Protocol.Observation} v the view
 * @param {Protocol.Action[]} legal
 * @param {Protocol.RoomView} r the room
 * @param {DockActions} ui
 */
export function renderDock(state, v, legal, r, ui) {
  const snap = state.snap, picked = state.picked, selKey = state.selKey, showHints = state.showHints;
  if (!snap) return;
  const mySeat = snap.seat;
  /** @type {string | null} */
  let claimTile = null;
  const exchanges = legal.filter((a) => a.type === "exchange");
  const voids = legal.filter((a) => a.type === "void");
  const others = legal.filter((a) => ACTION_ORDER.includes(a.type)).sort((a, b) => ACTION_ORDER.indexOf(a.type) - ACTION_ORDER.indexOf(b.type));
  /** @type {{key: string, id?: string, text: string, sub?: string, tip?: string, keys?: string, disabled?: boolean, cls?: string, run: () => void}[]} */
  const items = [];
  let prompt = "";
  if (exchanges.length) {
    const hand = handItems();
    const tiles = picked.flatMap((k) => hand.filter((x) => x.key === k).slice(0, 1).map((x) => x.tile));
    const sel = tiles.slice().sort().join("");
    const chosen = exchanges.find((a) => (a.tiles || []).slice().sort().join("") === sel) || null;
    prompt = t("exchange_pick");
    items.push({ key: "exchange", id: "do-exchange", tip: t("tip_exchange"), text: chosen ? t("exchange_do", { t: I18N.tilesWords(tiles) }) : `${t("a_exchange")} · ${t("exchange_need", { n: 3 - tiles.length })}`,
      disabled: !chosen, cls: "primary", run: () => { if (chosen) ui.act(chosen); } });
  } else if (voids.length) {
    prompt = t("void_pick");
    const hand = mySeat != null ? splitTiles(v.players[mySeat].hand) : [];
    const count = (/** @type {string | undefined} */ s) => hand.filter((x) => x[1] === s).length;
    const best = voids.slice().sort((a, b) => count(a.suit) - count(b.suit))[0];
    voids.forEach((a) => items.push({ key: "void" + a.suit, text: t("void_badge", { s: I18N.suitName(a.suit || "") }) + (a === best ? ` · ${t("suggested")}` : ""),
      cls: "suit s-" + a.suit + (a === best ? " suggested" : ""), tip: t("tip_void"), run: () => ui.act(a) }));
  } else {
    /** @type {Record<string, number>} */
    const byType = {};
    others.forEach((a) => { byType[a.type] = (byType[a.type] || 0) + 1; });
    // a claim names the tile it takes, on every button (碰 五筒, 杠 五筒, 胡 五筒), shown large beside them
    const claiming = (v.phase === "claim" || v.phase === "rob") && others.some((a) => a.type !== "pass");
    claimTile = claiming ? (others.find((a) => a.tile && a.type !== "pass")?.tile || v.last_discard?.tile || null) : null;
    if (claiming) prompt = claimTile ? t("claim_prompt", { t: tn(claimTile) }) : "";
    others.forEach((a) => {
      const withTile = a.tile && (claiming || byType[a.type] > 1 || ["declare", "sing", "concealed_kong", "added_kong"].includes(a.type));
      const discards = a.type === "declare" || a.type === "sing";  // these name the tile they discard
      // a declaration shows the waits it leaves (and how many of each are still unseen), on a line of their own
      const dw = discards && a.tile && snap.declare_waits ? snap.declare_waits[a.tile] : null;
      const waitsText = dw ? `${t("waits")} ${dw.length ? dw.map((w) => t("hint_left", { t: tn(w.tile), n: w.left })).join(" ") : "—"}` : "";
      items.push({ key: JSON.stringify(a), text: actionLabel(a, r.variant, legal) + (withTile ? (discards ? ` · ${t("a_discard")}${I18N.lang === "en" ? " " : ""}` : " ") + tn(a.tile) : ""),
        sub: waitsText, cls: "act-" + a.type + (a.type === "win" ? " primary" : ""), tip: actionTip(a, legal), keys: keyLabel(a.type), run: () => ui.act(a) });
    });
    if (legal.some((a) => a.type === "discard") && state.taught < 3) prompt = t("your_turn");  // taught thrice, then only the clock
    if (legal.some((a) => a.type === "declare" || a.type === "sing")) {  // not declaring is a choice too
      const plain = legal.filter((a) => a.type === "discard");
      const sel = handItems().find((x) => x.key === selKey);
      const pick = plain.find((a) => sel && a.tile === sel.tile) || plain.find((a) => a.tile === v.drawn) || plain[plain.length - 1];
      if (pick) items.push({ key: "nodeclare", id: "no-declare", text: t("no_declare", { t: tn(pick.tile) }), tip: t("tip_no_declare"), run: () => ui.act(pick) });
      prompt = t(declares(r.variant, "sing") ? "declare_prompt_sc" : "declare_prompt");  // 唱歌 beside 跳舞
    }
    const meNow = mySeat != null ? v.players[mySeat] : null;
    if (meNow && meNow.declared && v.phase === "turn" && v.current === mySeat && !legal.some((a) => a.type === "win"))
      prompt = t("frozen_note");
  }
  const mine = mySeat != null ? v.players[mySeat] : null;
  if (mine && mine.out && !snap.settlement) {  // 血战: won and out; the others play on
    const w = (v.wins || []).filter((x) => x.seat === mySeat).slice(-1)[0];
    const left = v.players.filter((p) => !p.out).length;
    prompt = t(legal.length ? "out_note_done" : "out_note", { t: w ? tn(w.tile) : "", n: left });
  }
  if (snap.you && mySeat != null && r.auto[mySeat]) prompt = t("auto_note");
  else if (snap.you && snap.you.missed > 0 && !snap.settlement) prompt = t("missed_note");
  if (snap.settlement && !$("settlement").open && mySeat != null) {
    if (!r.match_over && !(snap.you && snap.you.ready)) items.push({ key: "ready", id: "ready-dock", text: t("ready"), cls: "primary", tip: t("tip_ready"), run: () => ui.send({ type: "ready" }) });
    items.push({ key: "settle", text: t("settlement"), tip: t("tip_settle"), run: ui.reopenSettlement });
  }
  if (r.match_over && mySeat != null && !$("settlement").open) {
    items.push({ key: "rematch", id: "rematch-dock", text: r.rematch && r.rematch.by !== mySeat ? t("rematch_join") : t("rematch"), cls: "primary", tip: t("tip_rematch"), run: ui.rematch });
  }
  if (r.match_over) items.push({ key: "lobby", text: t("to_lobby"), tip: t("tip_lobby"), run: () => { location.href = "/"; } });
  // the dock's buttons as a claim's row or a declaration's options (style.css lays each out compact)
  $("dock").classList.toggle("claiming", !!claimTile);
  $("dock").classList.toggle("choosing", legal.some((a) => a.type === "declare" || a.type === "sing"));
  $("dock").classList.toggle("picking", !!(exchanges.length || voids.length));
  sync($("actions"), items, (it) => { const b = node("button"); b.type = "button"; b.onclick = () => { const cur = b._item; if (cur && !b.disabled) cur.run(); }; return b; },
    (b, it) => { b._item = it; labelButton(b, it.text, it.tip, it.keys, it.sub); b.className = "btn " + (it.cls || ""); b.disabled = !!it.disabled; if (it.id) b.id = it.id; else b.removeAttribute("id"); });
  if (legal.length) {
    let tm = $("timer");
    if (!tm) { tm = node("span"); tm.id = "timer"; tm.dataset.clock = "you"; }
    if (tm.parentNode !== $("prompt")) $("prompt").appendChild(tm);
  }
  const pr = $("prompt");
  let txt = pr.querySelector(".ptext");
  if (!txt) { txt = node("span", "ptext"); pr.prepend(txt); }
  setText(txt, prompt);
  let big = pr.querySelector(".claim-tile");
  if (claimTile) {
    if (!big) { big = node("span", "tile claim-tile"); pr.prepend(big); }
    if (big.dataset.tile !== claimTile) { big.dataset.tile = claimTile; setHTML(big, raw(tileMarkup(claimTile))); big.setAttribute("aria-label", tn(claimTile)); }
  } else if (big) big.remove();
  const tm = $("timer"); if (tm && !legal.length) tm.remove();
  pr.classList.toggle("blank", !prompt && !$("timer"));  // no empty pill when there is nothing to say
  // hints: only legal moves, in words
  const hi = snap.hints;
  let hint = "";
  const win = legal.find((a) => a.type === "win");
  if (win) hint = t("hint_win", { a: actionLabel(win, r.variant, legal) });  // a win outranks any advice
  else if (showHints && hi) {
    const can = new Set(legal.filter((a) => a.type === "discard" || a.type === "declare").map((a) => a.tile));
    if (hi.discards) {
      // plain words ("打六万 → 差2张听牌，33张可进"); a phone's one line holds the best discard alone
      const few = matchMedia(PHONE).matches ? 1 : 3;
      hint = hi.discards.filter((/** @type {{tile: string}} */ d) => can.has(d.tile)).slice(0, few).map((/** @type {{tile: string, shanten: number, waits: string[], effective_count: number}} */ d) => t("hint_discard", { t: tn(d.tile),
        r: d.shanten === 0 ? t("hint_ready", { w: I18N.tilesWords(d.waits) }) : t("hint_shanten", { n: d.shanten }) }) + (I18N.lang === "en" ? ", " : "，") + t("hint_count", { n: d.effective_count })).join(" · ");
    } else if (hi.waits && hi.waits.length) hint = t("hint_waits", { w: hi.waits.map((/** @type {{tile: string, left: number}} */ w) => t("hint_left", { t: tn(w.tile), n: w.left })).join(" · ") });
    else if (hi.shanten > 0) hint = t("hint_shanten", { n: hi.shanten });
  }
  setText($("hints"), hint);
  if ($("hints").title !== hint) $("hints").title = hint;  // the whole line where a phone on its side cuts it to one
}
