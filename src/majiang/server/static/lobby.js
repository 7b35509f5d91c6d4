// The lobby: who this player is, the room form (built from the server's rules schema), joining by
// code, one's unfinished tables and the history of one's matches.
import { brokenConstraints, choiceName, game, gameIds, loadGames, optionHelp, optionName, peopleChoices, presetIds, presetName } from "./games.js";
import { I18N, t } from "./i18n.js";
import { $, h, node, setHTML, setText, sync } from "./dom.js";
import { api } from "./protocol.js";
import { botName, signed, variantName } from "./words.js";

/**
 * What the lobby needs from the page (every function here that reads or changes the state is given
 * it): the state, a way to change it, and the way into a room.
 * @typedef {{state: () => import('./state.js').State, dispatch: (ev: import('./state.js').Event) => void,
 *   openRoom: (code: string, how?: import('./state.js').Mode) => void, joinAndOpen: (code: string) => Promise<void>,
 *   showLobbyError: (e: any) => void, showJoinError: (e: any) => void}} LobbyHooks
 */
/** @param {LobbyHooks} ui */
const me = (ui) => ui.state().me;
/** @param {LobbyHooks} ui @param {import('./state.js').Player | null} p */
const setMe = (ui, p) => ui.dispatch({ type: "me", me: p });

/** @param {LobbyHooks} ui */
export function renderMe(ui) { const p = me(ui); $("me").textContent = p ? p.name : ""; if (p && !$("name").value) $("name").value = p.name; }
/** The games the server declares, in the variant list (the first is chosen unless one already is). */
export function fillVariants() {
  const cur = $("variant").value;
  $("variant").textContent = "";
  gameIds().forEach((v) => { const o = node("option", "", variantName(v)); o.value = v; $("variant").appendChild(o); });
  if (gameIds().includes(cur)) $("variant").value = cur;
}
/** @param {boolean} keep the preset chosen, where the game has it */
export function fillPresets(keep) {
  const v = $("variant").value, cur = $("preset").value;
  const names = presetIds(v);
  $("preset").textContent = "";
  names.forEach((p) => { const o = node("option", "", presetName(v, p)); o.value = p; $("preset").appendChild(o); });
  if (keep && names.includes(cur)) $("preset").value = cur;
}
/** @returns {Record<string, import("./games.js").OptionValue>} */
function presetValues() { const g = game($("variant").value); return g ? g.presets[$("preset").value] || {} : {}; }
/** The room form's rule options, as the game declares them (the state's `formOptions`: those changed from the preset's). @param {LobbyHooks} ui */
export function renderOptions(ui) {
  const box = $("opt-fields");
  const sv = game($("variant").value);
  if (!sv) return;
  sync(box, sv.options.map((o) => ({ key: `${$("variant").value}.${o.name}`, o })), (it) => {
    const row = node("div", "opt");
    const lab = node("label"); lab.htmlFor = `opt-${it.o.name}`;
    const title = node("span", "opt-name"); lab.appendChild(title);
    let input;
    if (it.o.type === "bool") { input = node("input"); input.type = "checkbox"; }
    else { input = node("select"); }
    input.id = `opt-${it.o.name}`; input.dataset.opt = it.o.name;
    input.onchange = () => {
      const o = it.o;
      let val = o.type === "bool" ? input.checked : (o.choices || [])[+input.value];
      const pv = presetValues(), baseVal = o.name in pv ? pv[o.name] : o.default;
      ui.dispatch({ type: "option", name: o.name, value: JSON.stringify(val) === JSON.stringify(baseVal) ? undefined : val });
      checkOptions(ui);
    };
    const help = node("small", "opt-help");
    lab.appendChild(input); row.appendChild(lab); row.appendChild(help);
    return row;
  }, (row, it) => {
    const o = it.o, input = row.querySelector("[data-opt]");
    setText(row.querySelector(".opt-name"), optionName(o));
    setText(row.querySelector(".opt-help"), optionHelp(o));
    const optValues = ui.state().formOptions;
    const cur = o.name in optValues ? optValues[o.name] : (o.name in presetValues() ? presetValues()[o.name] : o.default);
    if (o.type === "bool") input.checked = !!cur;
    else {
      input.textContent = "";
      (o.choices || []).forEach((c, i) => { const op = node("option", "", choiceName(o, c)); op.value = String(i); input.appendChild(op); });
      input.value = String(Math.max(0, (o.choices || []).findIndex((c) => c === cur)));
    }
  });
  checkOptions(ui);
}
/** Every option's value as the room would have it. @param {LobbyHooks} ui */
function effective(ui) {
  /** @type {Record<string, import("./games.js").OptionValue>} */
  const out = {};
  const sv = game($("variant").value), base = presetValues(), optValues = ui.state().formOptions;
  if (sv) sv.options.forEach((o) => { out[o.name] = o.name in optValues ? optValues[o.name] : (o.name in base ? base[o.name] : o.default); });
  return out;
}
/** Combinations the rules refuse, explained before the server is asked. @param {LobbyHooks} ui */
export function checkOptions(ui) {
  if (!game($("variant").value)) return true;
  const e = effective(ui);
  const msgs = brokenConstraints($("variant").value, e);
  $("create-error").textContent = msgs.length ? t("opt_invalid", { m: msgs.join("; ") }) : "";
  $("create").disabled = msgs.length > 0;
  return !msgs.length;
}
/** @param {LobbyHooks} ui */
export async function loadSchema(ui) {
  try { await loadGames(); } catch (e) { /* the form stays empty; creating a room says why */ }
  fillVariants(); fillPresets(true); renderOptions(ui); showPeople();
}

/** @param {LobbyHooks} ui */
export async function loadMe(ui) {
  const old = localStorage.getItem("majiang.token");  // earlier versions kept the token here
  if (old) {
    try { setMe(ui, await api("/api/session", "POST", { token: old })); } catch (e) { /* an unknown token */ }
    localStorage.removeItem("majiang.token"); localStorage.removeItem("majiang.me");
  }
  if (!me(ui)) { try { const r = await api("/api/me"); setMe(ui, r.id ? r : null); } catch (e) { setMe(ui, null); } }
  renderMe(ui);
}
/** @param {LobbyHooks} ui */
export async function ensurePlayer(ui) {
  if (me(ui)) return;
  const name = $("name").value.trim() || t("default_name", { n: String(Math.floor(1000 + Math.random() * 9000)) });
  const p = await api("/api/players", "POST", { name });
  setMe(ui, { id: p.id, name: p.name });
  renderMe(ui);
}
/** 回到牌桌: the unfinished tables you are seated at, first in the lobby. @param {LobbyHooks} ui */
export async function loadTables(ui) {
  if (!me(ui)) { $("back-card").hidden = true; return; }
  let rows = [];
  try { rows = await api("/api/tables"); } catch (e) { rows = []; }
  $("back-card").hidden = !rows.length;
  sync($("back-list"), rows.map((/** @type {{room: string, variant: string, status: string}} */ r) => ({ key: r.room, r })), () => { const b = node("button", "btn primary back-go"); b.type = "button"; b.onclick = () => b._go(); return b; },
    (b, it) => { b._go = () => ui.joinAndOpen(it.r.room); setText(b, `${t("back_go")} · ${t("back_row", { g: variantName(it.r.variant), c: it.r.room, s: t("status_" + it.r.status) })}`); });
}
/** @param {LobbyHooks} ui */
export async function loadHistory(ui) {
  if (!me(ui)) return;
  try {
    const rows = await api("/api/history");
    if (!rows.length) { $("history").textContent = t("no_history"); return; }
    setHTML($("history"), h`${rows.map((/** @type {{room: string, variant: string, status: string, seat: number, names: (string | null)[], totals: number[], created: number, hands: number, match_hands: number}} */ r) => {
      const mine = r.totals[r.seat] || 0;
      // a bot by its seat (机器人2), as the table names it
      const others = r.names.map((n, i) => n || botName(`bot ${i}`)).filter((_, i) => i !== r.seat).join(I18N.lang === "en" ? ", " : "、");
      const when = new Date(r.created * 1000).toLocaleString(I18N.lang === "en" ? "en" : "zh-CN", { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit" });
      const res = mine > 0 ? t("result_win") : mine < 0 ? t("result_lose") : t("result_even");
      return h`<div class="hist"><div><a href="/?room=${r.room}">${r.room}</a> <span class="hist-game">${variantName(r.variant)}</span> <span class="hist-when">${when}</span> · ${t("status_" + r.status)}</div>
        <div class="hist-who">${others}</div><div><b class="${mine >= 0 ? "pos" : "neg"}">${res} ${signed(mine)}</b> · ${r.hands}/${r.match_hands} ${Array.from({ length: r.hands }, (_, k) => h` <a class="rp" href="/?replay=${r.room}&amp;hand=${k}">${t("replay")} ${k + 1}</a>`)}</div></div>`;
    })}`);
  } catch (e) { /* a fresh player has no history */ }
}
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
/** Four friends where the game seats them. */
function showPeople() { $("people-field").hidden = peopleChoices($("variant").value).length < 2; }
/** Wire the lobby's controls. @param {LobbyHooks} ui */
export function initLobby(ui) {
  $("variant").onchange = () => { ui.dispatch({ type: "options-reset" }); fillPresets(false); renderOptions(ui); showPeople(); };
  showPeople();
  $("preset").onchange = () => { ui.dispatch({ type: "options-reset" }); renderOptions(ui); };
  $("save-name").onclick = async () => {
    try {
      if (me(ui)) { setMe(ui, await api("/api/me", "POST", { name: $("name").value })); renderMe(ui); }
      else { await ensurePlayer(ui); }
      loadHistory(ui);
    } catch (e) { ui.showLobbyError(e); }
  };
  /** @type {string | null} the key of the room being created (a double tap makes one room) */
  let creating = null;
  $("create").onclick = async () => {
    if (creating || !checkOptions(ui)) return;  // a double tap makes one room (and the server checks the key too)
    creating = creating || newKey();
    $("create").disabled = true;
    try {
      await ensurePlayer(ui);
      const optValues = ui.state().formOptions;
      const turn = +$("turn-seconds").value;
      const four = peopleChoices($("variant").value).length > 1 && $("people").value !== "3";
      const r = await api("/api/rooms", "POST", { create_key: creating, variant: $("variant").value, preset: $("preset").value,
        ...(four ? { people: 4, sit_out: $("people").value } : {}),
        bots: $("bots").value, hands: +$("hands").value, stake: +$("stake").value,
        options: Object.fromEntries(Object.entries(optValues).map(([k, x]) => [k, x === null ? "none" : x])),
        timers: { turn_seconds: turn, claim_seconds: Math.max(3, Math.round(turn / 2)), pace: $("pace").value } });
      ui.openRoom(r.code);
    } catch (e) { $("create-error").textContent = I18N.isRulesError(e) ? t("opt_invalid", { m: I18N.errorText(e) }) : I18N.errorText(e); }
    finally { creating = null; $("create").disabled = false; }
  };
  $("join").onclick = async () => {
    ui.showJoinError("");
    try { await ensurePlayer(ui); await ui.joinAndOpen($("code").value.trim().toUpperCase()); }
    catch (e) { ui.showJoinError(e); }
  };
  $("watch").onclick = () => { ui.showJoinError(""); ui.openRoom($("code").value.trim().toUpperCase(), "watch"); };
}
