// The settlement of a hand (who won with what, who paid whom) and the match's summary, in a dialog.
import { fanHelp, fansMultiply } from "./games.js";
import { I18N, t, tileName as tn } from "./i18n.js";
import { $, esc, h, raw, setHTML, setText, tilesHTML } from "./dom.js";
import { api } from "./protocol.js";
import { botName, fanWorth, namesOf, signed, splitTiles, winTotal } from "./words.js";

/**
 * @typedef {import('./state.js').State} State
 * A hand's settlement as the snapshot carries it (engine/views.py settlement: the protocol leaves it open).
 * @typedef {{from: number, to: number, amount: number, reason: string, detail?: string | null}} Payment
 * @typedef {{result: string, wins: Protocol.Win[], payments: Payment[], totals: number[]}} Settlement
 * One hand of the match's summary (/api/rooms/{code}/games).
 * @typedef {{hand_index: number, totals: number[], people?: string[], lineup: number[]}} HandRow
 */

/** @type {Map<string, HandRow[]>} the match's hands by room code, asked once per room */
const summaries = new Map();

/**
 * What the player closed with the dialog (or Escape), kept in the state's `settlementClosedFor`: this
 * hand's settlement (code|hand), or the match's end (code|end); it stays closed for it.
 * @param {Protocol.Snapshot | null} snap @param {boolean} cancelled
 * @returns {string | null}
 */
export function settlementKey(snap, cancelled) {
  return snap ? (snap.settlement || cancelled ? `${snap.room.code}|${snap.room.hand_index}` : `${snap.room.code}|end`) : null;
}
/** No settlement to show (a new hand): the dialog closes (the page forgets what was closed: the next one opens). */
export function hideSettlement() { if ($("settlement").open) $("settlement").close(); }

/** @param {Protocol.Player} p @param {Protocol.Win} w */
function winHand(p, w) {
  const hand = splitTiles(p.hand || "");
  if (hand.length % 3 === 2) { const k = hand.lastIndexOf(w.tile); if (k >= 0) hand.splice(k, 1); }
  const melds = p.melds.map((m) => tilesHTML(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small"));
  return h`<div class="win-hand">${tilesHTML(hand, "small")}<span class="gap"></span>${melds.map((m) => h`<span class="meld">${m}</span>`)}<span class="gap"></span>${tilesHTML([w.tile], "small won")}</div>`;
}
/** @param {Protocol.Win[]} wins */
function fanEnglish(wins) { const out = /** @type {Record<string, string>} */ ({}); (wins || []).forEach((w) => (w.fans || []).forEach((f) => { if (f.english) out[f.name] = f.english; })); return out; }
// A name as the settlement shows it: one line, cut with an ellipsis (the whole name on hover), and
// in the score rows an avatar of its first letter in the seat's colour.
/** @param {string} name @param {number} seat @param {boolean} [avatar] */
function who(name, seat, avatar = false) {
  const bot = name && name.startsWith(t("bot")) && /\d/.exec(name.slice(t("bot").length));  // a bot: its number, as at the table
  const initial = bot ? bot[0] : [...(name || "?")][0].toUpperCase();
  return h`<span class="who-cell">${avatar ? h`<span class="avatar k${seat % 4}" aria-hidden="true">${initial}</span>` : ""}<span class="who" title="${name}">${name}</span></span>`;
}
/**
 * One row per player: this hand's points (when there are) and the match's; the winners marked.
 * @param {string[]} names @param {number[] | null} hand @param {number[]} match @param {number[]} winners
 */
function scoreRows(names, hand, match, winners) {
  return h`<table class="totals by-player"><tr><th>${t("players_col")}</th>${hand ? h`<th>${t("hand_total")}</th>` : ""}<th>${t("match_total")}</th></tr>
    ${names.map((n, /** @type {number} */ i) => h`<tr class="${winners.includes(i) ? "won" : ""}"><td>${who(n, i, true)}</td>${hand ? h`<td class="num ${hand[i] >= 0 ? "pos" : "neg"}">${signed(hand[i])}</td>` : ""}<td class="num ${match[i] >= 0 ? "pos" : "neg"}">${signed(match[i])}</td></tr>`)}</table>`;
}
// 查大叫 / 查花猪: the hands that decided a drawn hand's check, each with its waits (or why it paid)
/** @param {Settlement} s @param {Protocol.Snapshot} snap @param {string[]} names */
function drawCheck(s, snap, names) {
  const checked = s.payments.filter((p) => p.reason === "大叫" || p.reason === "花猪");
  const v = snap.view, waits = snap.end_waits;
  if (!checked.length || !v) return "";
  const seats = [...new Set(checked.flatMap((p) => [p.from, p.to]))].sort((a, b) => a - b);
  const pigs = new Set(checked.filter((p) => p.reason === "花猪").map((p) => p.from));
  const rows = seats.map((seat) => {
    const p = v.players[seat], w = waits ? waits[seat] : null;
    const state = pigs.has(seat) ? t("dc_pig") : w && w.length ? t("dc_ready", { w: I18N.tilesWords(w) }) : t("dc_not_ready");
    const melds = (p.melds || []).map((m) => h`<span class="meld">${tilesHTML(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small")}</span>`);
    return h`<div class="dc-row ${pigs.has(seat) ? "pig" : w && w.length ? "ready" : "not-ready"}"><p>${who(names[seat], seat)} <span class="dc-state">${state}</span></p>
      <div class="win-hand">${tilesHTML(splitTiles(p.hand || ""), "small")}${melds.length ? h`<span class="gap"></span>${melds}` : ""}${w && w.length && !pigs.has(seat) ? h`<span class="gap"></span><span class="dc-waits">${tilesHTML(w, "small wait")}</span>` : ""}</div></div>`;
  });
  return h`<div class="draw-check"><h3>${t("dc_title")}</h3>${rows}</div>`;
}
/** @param {State} state */
export function showSettlement(state) {
  const snap = state.snap;
  if (!snap) return;
  const s = /** @type {Settlement | null} */ (snap.settlement), r = snap.room, names = namesOf(r), v = snap.view;
  if (!s) {  // dissolved mid-hand: the match totals and the summary
    setHTML($("settlement-body"), h`<h2 id="settle-h">${t("dissolved")}</h2>${scoreRows(names, null, r.match_totals, [])}<div id="summary"></div>`);
    loadSummary(state);
    $("next").hidden = true; $("to-lobby").hidden = false; $("to-lobby").textContent = t("to_lobby"); $("close-settlement").textContent = t("close");
    showRematch(state, r);
    if (!$("settlement").open && state.settlementClosedFor !== `${r.code}|end`) openAtTop($("settlement"));
    return;
  }
  const multiplies = fansMultiply(r.variant);  // × (multipliers) rather than 番
  const fanLine = (/** @type {Protocol.Fan} */ f) => {
    const worth = fanWorth(f, multiplies);
    const help = fanHelp(r.variant, f.name);
    return h`<li class="fan"><span class="fan-name">${I18N.fanName(f)}</span> <span class="worth">${worth}${f.count && f.count > 1 ? " ×" + f.count : ""}</span>${help ? h`<span class="fan-help">${help}</span>` : ""}</li>`;
  };
  const winners = [...new Set(s.wins.map((w) => w.seat))];
  const wins = s.wins.map((w) => h`<div class="win"><p>${who(names[w.seat], w.seat)} <b>${t("win_by", { who: "", t: tn(w.tile) }).trim()}</b> · ${w.self_draw ? t("zimo") : t("dianpao", { who: w.discarder == null ? "" : names[w.discarder] })}${w.robbed_kong ? " · " + t("robbed") : ""}</p>
    ${v ? winHand(v.players[w.seat], w) : ""}
    <ul class="fans">${w.fans.map(fanLine)}</ul><p class="fan-total"><b>${winTotal(w, multiplies)}</b></p></div>`);
  const pays = s.payments.map((p) => h`<tr><td>${who(names[p.from], p.from)}</td><td>→</td><td>${who(names[p.to], p.to)}</td><td class="num">${p.amount}</td><td class="why">${I18N.paymentWhy(p.reason, p.detail, fanEnglish(s.wins))}</td></tr>`);
  const ready = r.ready ? r.ready.map((x, i) => (x ? names[i] : null)).filter(Boolean) : [];
  const rest = r.resting ? h`<p class="rest-line">${t("resting", { n: r.resting.name, s: signed(r.resting.total) })}</p>` : "";
  // the first line names the winner(s): who won is what a player looks for first
  const head = winners.length ? t("settle_won", { who: winners.map((i) => names[i]).join(", ") }) : t("settle_drawn");
  // 复盘 of one's seat, in a tab of its own (the next hand may start meanwhile)
  const review = snap.seat != null ? h`<a class="rv-link" id="review-link" target="_blank" rel="noopener" href="/?replay=${r.code}&amp;hand=${r.hand_index}&amp;review=1">${t("review")}</a>` : "";
  setHTML($("settlement-body"), h`<h2 id="settle-h">${head}</h2><p class="settle-sub">${s.result === "draw" ? t("drawn_hand") : t("settlement")} · ${t("hand_of", { i: r.hand_index + 1, n: r.hands })}</p>${review}${rest}${wins}
    ${drawCheck(s, snap, names)}${pays.length ? h`<table class="pay">${pays}</table>` : ""}${scoreRows(names, s.totals, r.match_totals, winners)}
    ${r.match_over ? h`<div id="summary"><h3>${t("match_over")}</h3></div>` : h`<p>${t("ready_list", { l: ready.join(", ") || "—" })} <span class="clock" data-clock="1"></span></p>`}`);
  if (r.match_over) loadSummary(state);
  const mineReady = snap.you && snap.you.ready;
  $("next").hidden = r.match_over || snap.seat == null;
  $("next").disabled = !!mineReady;
  $("next").textContent = mineReady ? t("ready_done") : t("ready");
  $("to-lobby").hidden = !r.match_over;
  $("to-lobby").textContent = t("to_lobby");
  showRematch(state, r);
  $("close-settlement").textContent = t("close");
  tipDialogButtons();
  const key = `${r.code}|${r.hand_index}`;
  if (!$("settlement").open && state.settlementClosedFor !== key) openAtTop($("settlement"));
}
// the dialog's buttons say what they do on hover and to a screen reader (their words first)
function tipDialogButtons() {
  for (const [id, tip] of [["next", "tip_ready"], ["rematch", "tip_rematch"], ["to-lobby", "tip_lobby"], ["close-settlement", "tip_close"]]) {
    const b = $(id); b.title = t(tip); b.setAttribute("aria-label", `${b.textContent}: ${t(tip)}`);
  }
}
// a dialog opens at its top (who won first), not scrolled down to the button that took the focus
/** @param {HTMLDialogElement} dialog */
function openAtTop(dialog) {
  dialog.showModal();
  const head = dialog.querySelector("h2");
  if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
  dialog.scrollTop = 0;
  const body = dialog.querySelector("#settlement-body");  // the settlement scrolls its words, its buttons stay
  if (body) body.scrollTop = 0;
}
// 再来一局: offered to every player of the match, in the same seats
/** @param {State} state @param {Protocol.RoomView} r */
function showRematch(state, r) {
  const seat = state.snap ? state.snap.seat : null;
  const offer = r.rematch && r.rematch.by !== seat ? r.rematch : null;
  $("rematch").hidden = !r.match_over || seat == null;
  $("rematch").textContent = offer ? t("rematch_join") : t("rematch");
  $("rematch").classList.toggle("primary", !!offer);
  const p = $("rematch-offer");
  p.hidden = !offer || !r.match_over;
  setText(p, offer ? t("rematch_offer", { who: namesOf(r)[offer.by] }) : "");
}
/** 再来一局: the new room opens (the same rules and seats). @param {State} state @param {(e: unknown) => void} onError */
export async function rematch(state, onError) {
  const snap = state.snap;
  if (!snap) return;
  try {
    const made = await api(`/api/rooms/${encodeURIComponent(snap.room.code)}/rematch`, "POST", {});
    location.href = `/?room=${encodeURIComponent(made.code)}`;
  } catch (e) { onError(e); }
}
/** @param {State} state */
async function loadSummary(state) {
  if (!state.snap) return;
  const r = state.snap.room, names = namesOf(r);
  /** @type {HandRow[] | undefined} */
  let games = summaries.get(r.code);
  if (!games) {
    try { games = /** @type {HandRow[]} */ (await api(`/api/rooms/${encodeURIComponent(r.code)}/games`)); } catch (e) { return; }
    summaries.set(r.code, games);
  }
  const box = $("summary");
  if (!box || box.dataset.done) return;
  box.dataset.done = "1";
  games.sort((a, b) => a.hand_index - b.hand_index);
  // one row per person who played (a four-person room's hand they sat out reads 休; a hand before a
  // friend sat down, or after a bot was relieved, reads —); points times the stake,
  // as the match row shows them
  const stake = r.stake || 1;
  const people = games.length && games[0].people ? games[0].people : null;
  const cols = people ? people.map(botName) : names;  // the server names bots in English: say it in the page's language
  const cell = (/** @type {HandRow} */ g, /** @type {number} */ c) => { const i = people ? g.lineup.indexOf(c) : c; return i >= 0 && i < g.totals.length ? g.totals[i] * stake : null; };
  const run = cols.map(() => [0]);
  games.forEach((g) => cols.forEach((_, c) => run[c].push(run[c][run[c].length - 1] + (cell(g, c) || 0))));
  const finals = run.map((xs) => xs[xs.length - 1]);
  const top = finals.indexOf(Math.max(...finals));
  const lo = Math.min(0, ...run.flat()), hi = Math.max(1, ...run.flat());
  const W = 300, H = 120, X = (/** @type {number} */ i) => 10 + (i * (W - 20)) / Math.max(1, games.length), Y = (/** @type {number} */ x) => H - 10 - ((x - lo) * (H - 20)) / (hi - lo || 1);
  // a colour per person, line and key alike: a match can have more people than seats (a friend who
  // relieved a bot has a row of their own beside the bot's)
  const COLORS = ["#f0c75e", "#5cc8ff", "#ff8a5c", "#b7e36b", "#c792ea", "#f48fb1", "#4dd0c0", "#e0e0e0"];
  const colour = (/** @type {number} */ s) => COLORS[s % COLORS.length];
  // each line a little apart from the others, so two players with the same scores show both lines
  const apart = (/** @type {number} */ s) => (s - (run.length - 1) / 2) * 2.5;
  const lines = run.map((xs, s) => `<polyline fill="none" stroke="${colour(s)}" stroke-width="2.5" points="${xs.map((x, i) => `${X(i).toFixed(1)},${(Y(x) + apart(s)).toFixed(1)}`).join(" ")}"/>`).join("");
  const chart = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("summary"))}"><line x1="10" x2="${W - 10}" y1="${Y(0)}" y2="${Y(0)}" stroke="#999" stroke-dasharray="3 3"/>${lines}</svg>`;
  // one row per person (a name and an avatar, one line), a column per hand, the total last: the
  // names never squeeze into narrow column heads on a phone; many hands scroll sideways
  setHTML(box, h`<h3>${t("summary")}: ${t("winner", { who: cols[top] })}</h3>
    <div class="scroll-x"><table class="totals summary-table"><tr><th>${t("players_col")}</th>${games.map((g) => h`<th class="num">${g.hand_index + 1}</th>`)}<th class="num">${t("total_col")}</th></tr>
    ${cols.map((n, c) => h`<tr class="${c === top ? "won" : ""}"><td>${raw(`<svg class="key" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="${colour(c)}"/></svg>`)}${who(n, c)}</td>${games.map((g) => { const x = cell(g, c); return x == null ? h`<td class="num rest">${t(r.four ? "rest_cell" : "absent_cell")}</td>` : h`<td class="num">${signed(x)}</td>`; })}<td class="num sum ${finals[c] >= 0 ? "pos" : "neg"}">${signed(finals[c])}</td></tr>`)}</table></div>${raw(chart)}`);
  tipDialogButtons();
}
