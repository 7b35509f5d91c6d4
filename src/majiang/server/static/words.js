// What the page says about the game, without the DOM: tile lists, names, signed scores.
import { t } from "./i18n.js";

export const CODE_RE = /^[A-Z0-9]{1,16}$/;  // six digits now; older rooms' letter codes still open
export const TILE_RE = /^[1-9][mps]$|^[5-7]z$/;

/**
 * A hand as the server writes it ("123m55p") as tile codes (["1m", "2m", "3m", "5p", "5p"]).
 * @param {string | null | undefined} s
 * @returns {string[]}
 */
export function splitTiles(s) {
  const out = []; let digits = [];
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
  const m = /^bot (\d+)(?: \((random|greedy|strong)\))?$/.exec(name || "");
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
export function variantName(v) { return t(v === "kawuxing" ? "kawuxing" : "sichuan"); }
