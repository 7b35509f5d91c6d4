// The page's DOM helpers. Values from outside (names, codes, messages, URL parameters) reach the page
// as text: either through textContent or through the escaping template `h`; the page's policy allows
// no inline script or style. Lists are updated in place (keyed nodes), never rebuilt, so a press that
// spans an update is kept.
import { tileSVG } from "./tiles.js";
import { tileName } from "./i18n.js";
import { TILE_RE } from "./words.js";

/**
 * The page's element of this id. Typed loosely: the page's ids name inputs, dialogs and buttons alike.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
export const reduced = () => !!(motionQuery && motionQuery.matches);  // asked live: the setting may change

/** @typedef {{__html: string}} Markup */
/** @param {any} v */
export function esc(v) {
  return String(v == null ? "" : v).replace(/[&<>"'`]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" })[c] || c);
}
/** @param {any} s @returns {Markup} */
export function raw(s) { return { __html: String(s) }; }
/**
 * A template whose values are escaped unless they are markup already (made by `h` or `raw`).
 * @param {TemplateStringsArray} strings
 * @param {...any} values
 * @returns {Markup}
 */
export function h(strings, ...values) {
  let out = strings[0];
  values.forEach((v, i) => {
    const one = (/** @type {any} */ x) => (x && typeof x === "object" && "__html" in x ? x.__html : esc(x));
    out += (Array.isArray(v) ? v.map(one).join("") : one(v)) + strings[i + 1];
  });
  return raw(out);
}
/** @param {Element} el @param {Markup} markup */
export function setHTML(el, markup) { el.innerHTML = markup.__html; }
/**
 * @param {string} tag
 * @param {string} [cls]
 * @param {string | null} [text]
 * @returns {any}
 */
export function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}
/**
 * The element `sel` finds under `root`, one the page's own markup always has there (the board's parts,
 * a dialog's fields): a missing one is a bug of the page, said at once.
 * @param {ParentNode} root @param {string} sel @returns {HTMLElement}
 */
export function part(root, sel) {
  const e = root.querySelector(sel);
  if (!e) throw new Error(`the page has no ${sel} here`);
  return /** @type {HTMLElement} */ (e);
}
/** @param {Element} e @param {string} s */
export function setText(e, s) { if (e.textContent !== s) e.textContent = s; }
/**
 * Keyed reconciliation: reuse each child whose key is still wanted, create the missing, drop the rest.
 * @template {{key: string, [more: string]: any}} T
 * @param {Element} container
 * @param {T[]} items
 * @param {(it: T) => any} make
 * @param {(e: any, it: T, fresh: boolean) => void} update
 */
export function sync(container, items, make, update) {
  const old = new Map();
  for (const c of Array.from(container.children)) old.set(/** @type {HTMLElement} */ (c).dataset.key, c);
  let prev = null;
  for (const it of items) {
    let e = old.get(it.key);
    const fresh = !e;
    if (e) old.delete(it.key);
    else { e = make(it); e.dataset.key = it.key; }
    update(e, it, fresh);
    const want = prev ? prev.nextSibling : container.firstChild;
    if (e !== want) container.insertBefore(e, want);
    prev = e;
  }
  old.forEach((e) => e.remove());
}
/** @param {string | null | undefined} tile */
export function tileMarkup(tile) { return tileSVG(tile && TILE_RE.test(tile) ? tile : null); }
export function tileNode() { return node("span", "tile"); }
/** @param {HTMLElement} e @param {string | null | undefined} tile */
export function paintTile(e, tile) {  // set the art only when the tile changes
  const code = tile && TILE_RE.test(tile) ? tile : "";
  if (e.dataset.tile !== code || !e.firstChild) { e.dataset.tile = code; e.innerHTML = tileMarkup(code); }
  e.title = code ? tileName(code) : "";
}
/** @param {(string | null)[]} list @param {string} [cls] */
export function tilesHTML(list, cls = "") { return raw(list.map((x) => `<span class="tile ${cls}">${tileMarkup(x)}</span>`).join("")); }
/** Counted on <html data-…> for the tests (flights, claims, callouts). @param {string} what */
export function bump(what) { const d = document.documentElement.dataset; d[what] = String(+(d[what] || 0) + 1); }
