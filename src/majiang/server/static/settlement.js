// The settlement of a hand (who won with what, who paid whom) and the match's summary, in a dialog.
import { fansMultiply } from "./games.js";
import { I18N, t, tileName as tn } from "./i18n.js";
import { $, esc, h, raw, setHTML, setText, tilesHTML } from "./dom.js";
import { api } from "./protocol.js";
import { botName, namesOf, signed, splitTiles } from "./words.js";

/** @typedef {import('./state.js').State} State */

/** @type {string | null} the hand (code|hand, or code|end) whose settlement this player closed */
let settleClosedFor = null;
/** @type {{code: string, games: any[]} | null} the match's hands, asked once per room */
let summaryFor = null;

/** The player closed the dialog (or pressed Escape): it stays closed for this hand. @param {State} state @param {boolean} cancelled */
export function settlementClosed(state, cancelled) {
  const snap = state.snap;
  settleClosedFor = snap ? (snap.settlement || cancelled ? `${snap.room.code}|${snap.room.hand_index}` : `${snap.room.code}|end`) : null;
}
/** The dock's 结算 button: the dialog again. @param {State} state */
export function reopenSettlement(state) { settleClosedFor = null; showSettlement(state); }
/** No settlement to show (a new hand): the dialog closes and will open for the next one. */
export function hideSettlement() { settleClosedFor = null; if ($("settlement").open) $("settlement").close(); }

function winHand(p, w) {
  const hand = splitTiles(p.hand || "");
  if (hand.length % 3 === 2) { const k = hand.lastIndexOf(w.tile); if (k >= 0) hand.splice(k, 1); }
  const melds = p.melds.map((m) => tilesHTML(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small"));
  return h`<div class="win-hand">${tilesHTML(hand, "small")}<span class="gap"></span>${melds.map((m) => h`<span class="meld">${m}</span>`)}<span class="gap"></span>${tilesHTML([w.tile], "small won")}</div>`;
}
function fanEnglish(wins) { const out = {}; (wins || []).forEach((w) => (w.fans || []).forEach((f) => { if (f.english) out[f.name] = f.english; })); return out; }
/** @param {State} state */
export function showSettlement(state) {
  const snap = state.snap;
  const s = snap.settlement, r = snap.room, names = namesOf(r), v = snap.view;
  if (!s) {  // dissolved mid-hand: the match totals and the summary
    setHTML($("settlement-body"), h`<h2 id="settle-h">${t("dissolved")}</h2><table class="totals"><tr><th></th>${names.map((n) => h`<th>${n}</th>`)}</tr>
      <tr><th>${t("match_total")}</th>${r.match_totals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr></table><div id="summary"></div>`);
    loadSummary(state);
    $("next").hidden = true; $("to-lobby").hidden = false; $("to-lobby").textContent = t("to_lobby"); $("close-settlement").textContent = t("close");
    showRematch(state, r);
    if (!$("settlement").open && settleClosedFor !== `${r.code}|end`) openAtTop($("settlement"));
    return;
  }
  const multiplies = fansMultiply(r.variant);  // × (multipliers) rather than 番
  const fanLine = (/** @type {any} */ f) => {
    const worth = multiplies ? "×" + f.multiplier : f.fan ? t("fan_n", { n: f.fan }) : "";
    return h`<span class="fan">${I18N.fanName(f)} ${worth}${f.count > 1 ? " ×" + f.count : ""}</span>`;
  };
  const wins = s.wins.map((w) => h`<div class="win"><p><b>${t("win_by", { who: names[w.seat], t: tn(w.tile) })}</b> · ${w.self_draw ? t("zimo") : t("dianpao", { who: names[w.discarder] })}${w.robbed_kong ? " · " + t("robbed") : ""}</p>
    ${v ? winHand(v.players[w.seat], w) : ""}
    <p class="fans">${w.fans.map(fanLine)} → <b>${multiplies ? t("mult_total", { n: w.multiplier }) : t("fan_total", { n: w.fan })}</b></p></div>`);
  const pays = s.payments.map((p) => h`<tr><td>${names[p.from]}</td><td>→</td><td>${names[p.to]}</td><td class="num">${p.amount}</td><td>${I18N.reasonName(p.reason)} ${I18N.paymentDetail(p.detail, fanEnglish(s.wins))}</td></tr>`);
  const ready = r.ready ? r.ready.map((x, i) => (x ? names[i] : null)).filter(Boolean) : [];
  const totals = h`<table class="totals"><tr><th></th>${names.map((n) => h`<th>${n}</th>`)}</tr>
    <tr><th>${t("hand_total")}</th>${s.totals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr>
    <tr><th>${t("match_total")}</th>${r.match_totals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr></table>`;
  const rest = r.resting ? h`<p class="rest-line">${t("resting", { n: r.resting.name, s: signed(r.resting.total) })}</p>` : "";
  setHTML($("settlement-body"), h`<h2 id="settle-h">${s.result === "draw" ? t("drawn_hand") : t("settlement")} · ${t("hand_of", { i: r.hand_index + 1, n: r.hands })}</h2>${rest}${wins}
    ${pays.length ? h`<table class="pay">${pays}</table>` : ""}${totals}
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
  const key = `${r.code}|${r.hand_index}`;
  if (!$("settlement").open && settleClosedFor !== key) openAtTop($("settlement"));
}
// a dialog opens at its top (who won first), not scrolled down to the button that took the focus
function openAtTop(dialog) {
  dialog.showModal();
  const head = dialog.querySelector("h2");
  if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
  dialog.scrollTop = 0;
}
// 再来一局: offered to every player of the match, in the same seats
/** @param {State} state @param {any} r */
function showRematch(state, r) {
  const snap = state.snap;
  const offer = r.rematch && r.rematch.by !== snap.seat ? r.rematch : null;
  $("rematch").hidden = !r.match_over || snap.seat == null;
  $("rematch").textContent = offer ? t("rematch_join") : t("rematch");
  $("rematch").classList.toggle("primary", !!offer);
  const p = $("rematch-offer");
  p.hidden = !offer || !r.match_over;
  setText(p, offer ? t("rematch_offer", { who: namesOf(r)[offer.by] }) : "");
}
/** 再来一局: the new room opens (the same rules and seats). @param {State} state @param {(e: any) => void} onError */
export async function rematch(state, onError) {
  const snap = state.snap;
  try {
    const made = await api(`/api/rooms/${encodeURIComponent(snap.room.code)}/rematch`, "POST", {});
    location.href = `/?room=${encodeURIComponent(made.code)}`;
  } catch (e) { onError(e); }
}
/** @param {State} state */
async function loadSummary(state) {
  const r = state.snap.room, names = namesOf(r);
  let games = summaryFor && summaryFor.code === r.code ? summaryFor.games : null;
  if (!games) {
    try { games = await api(`/api/rooms/${encodeURIComponent(r.code)}/games`); } catch (e) { return; }
    summaryFor = { code: r.code, games };
  }
  const box = $("summary");
  if (!box || box.dataset.done) return;
  box.dataset.done = "1";
  games.sort((a, b) => a.hand_index - b.hand_index);
  // a four-person room: one column per person (a hand they sat out reads 休); points times the stake,
  // as the match row shows them
  const stake = r.stake || 1;
  const people = games.length && games[0].people ? games[0].people : null;
  const cols = people ? people.map(botName) : names;  // the server names bots in English: say it in the page's language
  const cell = (g, c) => { const i = people ? g.lineup.indexOf(c) : c; return i >= 0 && i < g.totals.length ? g.totals[i] * stake : null; };
  const run = cols.map(() => [0]);
  games.forEach((g) => cols.forEach((_, c) => run[c].push(run[c][run[c].length - 1] + (cell(g, c) || 0))));
  const finals = run.map((xs) => xs[xs.length - 1]);
  const top = finals.indexOf(Math.max(...finals));
  const lo = Math.min(0, ...run.flat()), hi = Math.max(1, ...run.flat());
  const W = 300, H = 120, X = (i) => 10 + (i * (W - 20)) / Math.max(1, games.length), Y = (x) => H - 10 - ((x - lo) * (H - 20)) / (hi - lo || 1);
  const COLORS = ["#f0c75e", "#5cc8ff", "#ff8a5c", "#b7e36b"];
  const lines = run.map((xs, s) => `<polyline fill="none" stroke="${COLORS[s % 4]}" stroke-width="2.5" points="${xs.map((x, i) => `${X(i).toFixed(1)},${Y(x).toFixed(1)}`).join(" ")}"/>`).join("");
  const chart = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("summary"))}"><line x1="10" x2="${W - 10}" y1="${Y(0)}" y2="${Y(0)}" stroke="#999" stroke-dasharray="3 3"/>${lines}</svg>`;
  setHTML(box, h`<h3>${t("summary")}: ${t("winner", { who: cols[top] })}</h3>
    <table class="totals"><tr><th>${t("hand_col")}</th>${cols.map((n, s) => h`<th><span class="key k${s}"></span>${n}</th>`)}</tr>
    ${games.map((g) => h`<tr><td>${g.hand_index + 1}</td>${cols.map((_, c) => { const x = cell(g, c); return x == null ? h`<td class="num rest">${t("rest_cell")}</td>` : h`<td class="num">${signed(x)}</td>`; })}</tr>`)}
    <tr class="sum"><th>${t("total_col")}</th>${finals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr></table>${raw(chart)}`);
}
