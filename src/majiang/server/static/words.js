// What the page says about the game, without the DOM: tile lists, names, signed scores.
import { gameName } from "./games.js";
import { t } from "./i18n.js";

export const CODE_RE = /^[A-Z0-9]{1,16}$/;  // six digits now; older rooms' letter codes still open
export const TILE_RE = /^[1-9][mps]$|^[5-7]z$/;

/**
 * A hand as the server writes it ("123m55p") as tile codes (["1m", "2m", "3m", "5p", "5p"]).
 * @param {string | null | undefined} s
 * @returns {string[]}
 */
export function splitTiles(s) {
  /** @type {string[]} */
  const out = []; /** @type {string[]} */ let digits = [];
  for (const ch of s || "") { if (/[0-9]/.test(ch)) digits.push(ch); else { digits.forEach((d) => out.push(d + ch)); digits = []; } }
  return out;
}
/**
 * Tiles with keys that stay put while the list changes around them ("5p#1", "5p#2").
 * @param {string[]} list
 * @returns {{key: string, tile: string}[]}
 */
export function keyed(list) {
  /** @type {Record<string, number>} */
  const seen = {};
  return list.map((x) => { seen[x] = (seen[x] || 0) + 1; return { key: `${x}#${seen[x]}`, tile: x }; });
}
/**
 * The server names empty seats "bot 2 (greedy)": said in the page's language.
 * @param {string | null | undefined} name
 * @returns {string}
 */
export function botName(name) {
  const m = /^bot (\d+)(?: \((random|greedy|strong|expert)\))?$/.exec(name || "");
  return m ? `${t("bot")}${m[1]}${m[2] ? ` (${t("bot_" + m[2])})` : ""}` : name === "empty" ? t("empty") : name || "";
}
/**
 * The seats' names as the page shows them (a bot's in the page's language).
 * @param {{names: string[], humans?: boolean[]}} r
 * @returns {string[]}
 */
export function namesOf(r) { return r.names.map((n, i) => (r.humans && r.humans[i] ? n : botName(n))); }
/** @param {number} n */
export function signed(n) { return (n > 0 ? "+" : "") + n; }
/** @param {string} v */
export function variantName(v) { return gameName(v); }

/**
 * What a replay frame shows being done: the seat and the action (its type, tiles and suit), or null
 * for the deal. A frame's own `seat` and `action` (the action's JSON) come first; a server without
 * them says it only in its label ("seat 1: discard 5p"), read here and nowhere else.
 * @param {{seat?: number | null, action?: any, label?: string}} frame
 * @returns {{seat: number, type: string, tiles: string[], suit: string | null} | null}
 */
export function replayStep(frame) {
  const a = frame.action;
  if (a && typeof a === "object" && typeof a.type === "string" && Number.isInteger(frame.seat)) {
    const tiles = (Array.isArray(a.tiles) ? a.tiles : a.tile ? [a.tile] : []).filter((/** @type {any} */ x) => TILE_RE.test(x));
    return { seat: /** @type {number} */ (frame.seat), type: a.type, tiles, suit: /^[mps]$/.test(a.suit) ? a.suit : null };
  }
  const m = /^seat (\d+): (.*)$/.exec(frame.label || "");
  if (!m) return null;
  const parts = m[2].trim().split(/\s+/), arg = parts.slice(1).join("");
  return { seat: +m[1], type: parts[0], tiles: splitTiles(arg).filter((x) => TILE_RE.test(x)), suit: /^[mps]$/.test(arg) ? arg : null };
}

// The keyboard's shortcuts (app.js answers them; the help sheet and the buttons show them on a
// computer): a key, the action type it takes (K takes any kong).
/** @type {Record<string, string>} */
export const ACTION_KEYS = { h: "win", p: "pong", k: "kong", " ": "pass" };
/** The key that takes an action of this type, as a label ("H", "Space"), or "". @param {string} type */
export function keyLabel(type) {
  const key = Object.keys(ACTION_KEYS).find((k) => ACTION_KEYS[k] === type || (ACTION_KEYS[k] === "kong" && /kong/.test(type)));
  return key == null ? "" : key === " " ? t("key_space") : key.toUpperCase();
}
/** The keys as the help sheet lists them: [the key, what it does]. @returns {[string, string][]} */
export function shortcutRows() {
  return [[t("key_arrows"), t("kb_pick")], [t("key_enter"), t("kb_discard")],
    ...Object.entries(ACTION_KEYS).map(([k, type]) => /** @type {[string, string]} */ ([keyLabel(type), t("a_" + type)]))];
}

/**
 * What one fan of a win is worth, as the settlement says it: ×N where fans multiply, N番, and
 * 底分 for a fan worth nothing above the base (平胡), never "0番".
 * @param {{fan?: number, multiplier?: number}} f Kawuxing's fans have a multiplier, Sichuan's a 番 @param {boolean} multiplies
 */
export function fanWorth(f, multiplies) {
  return multiplies ? t("worth_times", { n: f.multiplier }) : f.fan ? t("fan_n", { n: f.fan }) : t("fan_base");
}

/**
 * A win's total line: "共 ×4" where fans multiply, "共 2 番 (×4 底分)", or "共 ×1 底分" for a
 * win of no fan above the base.
 * @param {{fan?: number, multiplier: number}} w @param {boolean} multiplies
 */
export function winTotal(w, multiplies) {
  if (multiplies) return t("mult_total", { n: w.multiplier });
  return w.fan ? t("fan_total_x", { n: w.fan, m: w.multiplier }) : t("fan_total_base", { m: w.multiplier });
}

/** The avatars' colours (.avatar.c0 … .c7 in style.css). */
export const AVATAR_COLOURS = 8;
/**
 * The seats' avatars at one table: a mark (a bot's number; a Chinese name's last character, the given
 * name's, since 小红 and 小刚 share their first; else the initials of up to two words) in a colour
 * taken from the name, the same at every table, moved on to the next free one where two seats would
 * share it, so no two people at a table look alike.
 * @param {string[]} names @param {boolean[]} bots
 * @returns {{text: string, colour: number}[]}
 */
export function avatarsOf(names, bots) {
  const taken = new Set();
  return names.map((name, i) => {
    const trimmed = (name || "").trim();
    let text = "?";
    const digit = /\d/.exec(trimmed);
    const cjk = trimmed.match(/[\u3400-\u9fff]/g);
    if ((bots[i] || /^(bot ?|机器人)\d/.test(trimmed)) && digit) text = digit[0];  // a replay knows bots by name only
    else if (cjk && /^[\u3400-\u9fff]/.test(trimmed)) text = cjk[cjk.length - 1];
    else if (trimmed) text = trimmed.split(/[\s._-]+/).filter(Boolean).slice(0, 2).map((w) => Array.from(w)[0]).join("").toUpperCase();
    let hash = 0;
    for (const ch of trimmed) hash = (hash * 31 + /** @type {number} */ (ch.codePointAt(0))) >>> 0;
    let colour = hash % AVATAR_COLOURS;
    for (let k = 0; k < AVATAR_COLOURS && taken.has(colour); k++) colour = (colour + 1) % AVATAR_COLOURS;
    taken.add(colour);
    return { text, colour };
  });
}
