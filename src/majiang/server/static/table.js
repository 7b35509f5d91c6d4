// The table, live and in replay: seats, hands, melds, ponds and the centre, updated in place. A
// discard flies from hand to pond; claims, kongs, wins and declarations are called out at the seat.
import { I18N, t, tileName as tn } from "./i18n.js";
import { Sound } from "./sound.js";
import { bump, node, paintTile, part, reduced, setText, sync, tileNode } from "./dom.js";
import { TILE_RE, avatarsOf, keyed, signed, splitTiles } from "./words.js";
import { wallSides } from "./wall.js";
import { wallSize } from "./games.js";

/**
 * What one drawing of the board needs.
 * @typedef {{view: Protocol.Observation, names: string[], totals: number[], mySeat: number | null, bottom: number, live: boolean,
 *   legal: Protocol.Action[], auto?: boolean[], connected?: boolean[], humans?: boolean[], hints?: Protocol.Open | null,
 *   dice?: number[] | null, showHints?: boolean, picked?: string[], selKey?: string | null,
 *   received?: Protocol.Received | null}} BoardContext
 */

/** @type {WeakMap<Element, Protocol.Observation>} the view each board drew last (what changed since is animated and called out) */
const drawnViews = new WeakMap();
/** The view the board shows now, or null before the first drawing. */
export function lastView() { const board = document.getElementById("table"); return (board && drawnViews.get(board)) || null; }

/** @type {Record<number, string[]>} each seat's place on the screen, from one's own (bottom) round */
const POS = { 4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "left"], 2: ["bottom", "top"] };
/** @param {number} n seats @param {number} bottom the seat drawn at the bottom */
function ensureBoard(n, bottom) {
  const board = part(document, "#table");
  const layout = `${n}|${bottom}`;
  if (board.dataset.layout === layout) return board;
  board.dataset.layout = layout; board.textContent = ""; drawnViews.delete(board);
  board.className = `board n${n}`;
  const center = node("div", "center");
  center.innerHTML = '<div class="arrow"></div><svg class="ring" viewBox="0 0 40 40" aria-hidden="true"><circle class="ring-bg" cx="20" cy="20" r="16"/><circle class="ring-fg" cx="20" cy="20" r="16" stroke-dasharray="100.5" stroke-dashoffset="0"/></svg>';
  center.appendChild(node("div", "secs"));
  center.appendChild(node("div", "wall"));
  for (const side of WALL_SIDES) center.appendChild(node("div", `wall-row wall-${side}`));
  center.appendChild(node("div", "dealer-name"));
  center.appendChild(node("div", "dice"));
  center.appendChild(node("div", "phase"));
  board.appendChild(center);
  for (let d = 0; d < n; d++) {
    const s = (bottom + d) % n;
    const seat = node("div", `seat pos-${POS[n][d]}`);
    seat.dataset.seat = String(s);
    const who = node("div", "who");
    who.appendChild(node("span", "avatar")); who.appendChild(node("span", "name")); who.appendChild(node("span", "badges")); who.appendChild(node("span", "score"));
    const row = node("div", "row hand");
    row.appendChild(node("span", "concealed")); row.appendChild(node("span", "drawn")); row.appendChild(node("span", "melds")); row.appendChild(node("span", "wins"));
    seat.appendChild(who); seat.appendChild(row); seat.appendChild(node("div", "waits")); seat.appendChild(node("div", "pond"));
    seat.appendChild(node("div", "call"));
    seat.appendChild(node("div", "bubble"));
    board.appendChild(seat);
  }
  return board;
}
/** @param {HTMLElement} e @param {number[] | null | undefined} dice */
function drawDice(e, dice) {
  const key = (dice || []).join(",");
  if (e.dataset.key === key) return;
  e.dataset.key = key;
  /** @type {Record<number, number[][]>} */
  const PIPS = { 1: [[10, 10]], 2: [[5, 5], [15, 15]], 3: [[5, 5], [10, 10], [15, 15]], 4: [[5, 5], [15, 5], [5, 15], [15, 15]],
    5: [[5, 5], [15, 5], [10, 10], [5, 15], [15, 15]], 6: [[5, 5], [15, 5], [5, 10], [15, 10], [5, 15], [15, 15]] };
  const pips = (/** @type {number} */ d) => PIPS[d].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2" fill="${d === 1 || d === 4 ? "#b3261e" : "#222"}"/>`).join("");
  e.innerHTML = (dice || []).filter((d) => d >= 1 && d <= 6)
    .map((d) => `<svg viewBox="0 0 20 20" class="die" aria-hidden="true"><rect x="1" y="1" width="18" height="18" rx="4" fill="#fbf8ef"/>${pips(d)}</svg>`).join("");
}
// A seat's avatar (words.js avatarsOf): a mark and a colour of its own at this table.
/** @param {HTMLElement} e @param {{text: string, colour: number}} a @param {boolean} bot */
function paintAvatar(e, a, bot) {
  const key = `${a.text}|${a.colour}|${bot ? 1 : 0}`;
  if (e.dataset.key === key) return;
  e.dataset.key = key;
  e.textContent = a.text;
  e.className = `avatar c${a.colour}` + (bot ? " bot" : "");
  e.setAttribute("aria-hidden", "true");
}
// The wall around the centre (wall.js): each side's stacks of two tile backs, drawn from the dealer's
// side and on clockwise, so one side empties after another; a drawn stack leaves its place empty, so
// the sides keep their length and the wall is seen to shrink from where the drawing is.
const WALL_SIDES = ["top", "right", "bottom", "left"];
// the sides drawn from their far end as the screen reads them (right to left, bottom to top): their
// empty places come last
const DRAWN_BACKWARDS = new Set(["bottom", "left"]);
/** @param {HTMLElement} center @param {Protocol.Observation} v @param {string} first the side the wall is drawn from */
function drawWall(center, v, first) {
  // the wall's size is the game's (the rules schema declares it); before the schema has come, the
  // count left stands for it, and the wall is drawn again at its size once it has
  const { perSide, sides } = wallSides(v.tiles_left, wallSize(v.variant), first);
  const key = `${v.tiles_left}|${perSide}|${first}`;
  if (center.dataset.wall === key) return;
  center.dataset.wall = key;
  center.style.setProperty("--wall-half", String(Math.ceil(perSide / 2)));
  center.style.setProperty("--wall-third", String(Math.ceil(perSide / 3)));  // a low centre's short sides three deep
  for (const side of WALL_SIDES) {
    const { stacks, one } = sides[side];
    const kept = Array.from({ length: stacks }, () => "stack");
    if (one) kept[DRAWN_BACKWARDS.has(side) ? stacks - 1 : 0] += " one";
    const gone = Array.from({ length: perSide - stacks }, () => "stack gone");
    const all = DRAWN_BACKWARDS.has(side) ? kept.concat(gone) : gone.concat(kept);
    const out = stacks ? all.map((c) => `<i class="${c}"></i>`).join("") : "";
    const e = part(center, `.wall-${side}`);
    if (e.innerHTML !== out) e.innerHTML = out;
  }
}
/**
 * A tile as the board lays it: its key among its row's, its code (null: a tile's back), its classes.
 * @typedef {{key: string, tile: string | null, cls?: string, enter?: boolean, fly?: boolean, recv?: string, recvTitle?: string}} TileItem
 */
/** @param {string[]} list @param {string} prefix @returns {TileItem[]} */
function tileItems(list, prefix) { return keyed(list).map((x) => ({ ...x, key: prefix + x.key })); }
/** @param {Element} container @param {TileItem[]} items @param {(e: HTMLElement, it: TileItem) => void} [decorate] */
function syncTiles(container, items, decorate) {
  sync(container, items, () => tileNode(), (e, it, fresh) => {
    paintTile(e, it.tile);
    e.className = "tile" + (it.cls ? " " + it.cls : "") + (fresh && it.enter ? " enter" : "");
    if (decorate) decorate(e, it);
  });
}

/** 换三张: which way the tiles went round (the server's word), short for the tile's badge and in full. */
export function receivedLabel(/** @type {{direction: string}} */ received) {
  return { short: t("recv_" + received.direction), long: t(`recv_${received.direction}_long`) };
}
// 换三张: the three tiles passed to this seat marked in its hand (an outline and the direction's word)
// until its first discard, as the apps do; the server sends them only to this seat, and only until then.
/** @param {TileItem[]} items @param {{tiles: string[], direction: string} | null | undefined} received */
function markReceived(items, received) {
  if (!received || !received.tiles) return;
  const left = received.tiles.slice(), label = receivedLabel(received);
  for (let i = items.length - 1; i >= 0 && left.length; i--) {  // the copies sorted last: any copy will do
    const k = left.indexOf(items[i].tile || "");
    if (k >= 0) { left.splice(k, 1); items[i].cls += " recv"; items[i].recv = label.short; items[i].recvTitle = label.long; }
  }
}

/**
 * A seat's name; a bot's level ("机器人1 (普通)", "bot 1 (normal)") in a span of its own, which a phone's
 * narrow seat leaves out rather than cut the name (the whole name stays its title).
 * @param {Element} el @param {string} name @param {boolean} bot
 */
function paintName(el, name, bot) {
  const m = bot ? /^(.+?)( \(.+\))$/.exec(name) : null;
  if (el.textContent === name && !!el.querySelector(".lvl") === !!m) return;
  el.textContent = m ? m[1] : name;
  if (m) el.appendChild(node("span", "lvl", m[2]));
  /** @type {HTMLElement} */ (el).title = name;
}

/** @param {BoardContext} ctx */
export function renderBoard(ctx) {
  const v = ctx.view, n = v.players.length;
  const board = ensureBoard(n, ctx.bottom);
  board.hidden = false;
  const before = drawnViews.get(board), prev = before && before.players.length === n ? before : null;
  const center = part(board, ".center");
  const acting = v.phase === "turn" || v.phase === "claim" || v.phase === "rob" ? v.current : null;
  const d = acting == null ? null : (acting - ctx.bottom + n) % n;
  part(center, ".arrow").className = "arrow" + (d == null ? "" : " to-" + POS[n][d]);
  setText(part(center, ".wall"), t("wall", { n: v.tiles_left }));
  drawWall(center, v, POS[n][(v.dealer - ctx.bottom + n) % n]);
  setText(part(center, ".dealer-name"), `${t("dealer")}: ${ctx.names[v.dealer] || ""}`);
  drawDice(part(center, ".dice"), ctx.dice);
  setText(part(center, ".phase"), v.phase === "exchange" || v.phase === "void" ? t("phase_" + v.phase) : "");
  const lastSeat = v.last_discard ? v.last_discard.seat : null;
  const legal = ctx.legal || [];
  const discardable = new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
  const exchanging = legal.some((a) => a.type === "exchange");
  const picked = ctx.picked || [], selKey = ctx.selKey || null;
  const hinted = ctx.showHints && ctx.hints && ctx.hints.discards ? ctx.hints.discards.filter((/** @type {{tile: string}} */ x) => discardable.has(x.tile)).map((/** @type {{tile: string}} */ x) => x.tile)[0] : null;
  const avatars = avatarsOf(v.players.map((_, s) => ctx.names[s] || ""), v.players.map((_, s) => !!ctx.humans && !ctx.humans[s]));
  v.players.forEach((p, s) => {
    const seat = part(board, `.seat[data-seat="${s}"]`);
    const mine = ctx.live && s === ctx.mySeat;
    seat.classList.toggle("me", mine);
    seat.classList.toggle("turn", acting === s);
    seat.classList.toggle("out", !!p.out);
    seat.classList.toggle("dealer", s === v.dealer);
    const bot = !!ctx.humans && !ctx.humans[s];
    paintName(part(seat, ".name"), ctx.names[s] || "", bot);
    paintAvatar(part(seat, ".avatar"), avatars[s], bot);
    setText(part(seat, ".score"), signed(ctx.totals[s] || 0));
    part(seat, ".score").className = "score " + ((ctx.totals[s] || 0) >= 0 ? "pos" : "neg");
    const badges = [];
    if (s === v.dealer) badges.push({ key: "dealer", text: t("dealer"), cls: "b-dealer" });
    // the suit's own character, coloured as its tiles (缺万 / void 万); its English name on hover
    if (p.void) badges.push({ key: "void", text: t("void_badge", { s: I18N.suitMark(p.void) }), cls: "b-void s-" + p.void, title: t("void_badge", { s: I18N.suitName(p.void) }) });
    if (p.declared) badges.push({ key: "decl", text: t(p.declared), cls: "b-decl" });
    if (p.out) badges.push({ key: "out", text: t("out"), cls: "b-out" });
    if (ctx.auto && ctx.auto[s]) badges.push({ key: "auto", text: t("auto"), cls: "b-auto" });
    if (ctx.humans && ctx.humans[s] && ctx.connected && !ctx.connected[s]) badges.push({ key: "off", text: t("offline"), cls: "b-off" });
    sync(part(seat, ".badges"), badges, () => node("span"), (e, it) => { setText(e, it.text); e.className = "badge " + it.cls; e.title = it.title || ""; });
    // the hand: one's own face up with the drawn tile apart; others face down or as the rules reveal them
    /** @type {string[]} */
    let concealed = [];
    /** @type {string[]} */
    let drawn = [];
    const showAll = p.hand != null;
    if (showAll) {
      concealed = splitTiles(p.hand);
      if (mine && v.drawn && TILE_RE.test(v.drawn)) {
        const k = concealed.lastIndexOf(v.drawn);
        if (k >= 0) { concealed.splice(k, 1); drawn = [v.drawn]; }
      }
    }
    const small = !mine;
    /** @type {TileItem[]} */
    let items;
    if (showAll) {
      // another seat's hand laid open (the hand is over): face up in rows like a declared one, unmarked
      items = tileItems(concealed, "h").map((it) => ({ ...it, cls: (small ? "small open" : "") }));
    } else if (p.revealed && p.revealed.tiles) {
      const shown = splitTiles(p.revealed.tiles);
      items = tileItems(shown, "r").map((it) => ({ ...it, cls: "small shown" }))
        .concat(Array.from({ length: Math.max(0, p.tiles - shown.length) }, (_, i) => ({ key: "b" + i, tile: null, cls: "small back" })));
    } else {
      items = Array.from({ length: p.tiles }, (_, i) => ({ key: "b" + i, tile: null, cls: "small back" }));
    }
    const dItems = drawn.map((x) => ({ key: "d" + x, tile: x, cls: small ? "small" : "", enter: true }));
    if (mine) {
      const hintKey = hinted ? (items.concat(dItems).find((it) => it.tile === hinted) || {}).key : null;  // one tile marked
      const pick = (/** @type {TileItem} */ it) => {
        const can = exchanging || (it.tile != null && discardable.has(it.tile));
        // on one's turn the tiles that may not go (定缺 first) are dimmed
        it.cls = (can ? "click" : discardable.size ? "dim" : "") + (picked.includes(it.key) ? " picked" : "") + (selKey === it.key ? " sel" : "") + (hintKey === it.key ? " hinted" : "");
      };
      items.forEach(pick); dItems.forEach(pick);
      markReceived(items, ctx.received);
    }
    // where a new discard comes from (FLIP): the tile's place in the hand before this update
    /** @type {Flight[]} */
    const flights = [];
    const from = prev && p.discards.length > prev.players[s].discards.length && !reduced() ? handRects(seat) : null;
    syncTiles(part(seat, ".concealed"), items, (e, it) => {
      if (it.recv) { e.dataset.recv = it.recv; e.title = it.recvTitle || it.recv; } else if (e.dataset.recv) { delete e.dataset.recv; e.removeAttribute("title"); }
    });
    syncTiles(part(seat, ".drawn"), dItems);
    // melds
    const melds = p.melds.map((m, i) => ({ key: `${i}:${m.kind}:${m.tile}`, m, fresh: prev && i >= prev.players[s].melds.length }));
    sync(part(seat, ".melds"), melds, () => node("span", "meld"), (e, it, fresh) => {
      const m = it.m, count = m.kind === "pong" ? 3 : 4;
      const list = Array.from({ length: count }, (_, k) => (m.tile == null || (m.kind === "concealed_kong" && (k === 0 || k === 3)) ? null : m.tile));
      syncTiles(e, list.map((x, k) => ({ key: String(k), tile: x, cls: "small" + (x ? "" : " back") })));
      if (fresh && it.fresh && !reduced()) { e.classList.add("flash"); bump("claims"); }
    });
    // winning tiles (血战: the winners' tiles laid out)
    const won = (v.wins || []).filter((w) => w.seat === s).map((w, i) => ({ key: `w${i}${w.tile}`, tile: w.tile, cls: "small won" }));
    syncTiles(part(seat, ".wins"), won);
    // waits of a declared hand
    const waitsEl = /** @type {HTMLElement} */ (part(seat, ".waits"));
    const rv = p.revealed;
    const waits = rv && rv.waits && rv.waits.length ? rv.waits : [];
    if (waits.length || (rv && rv.hidden_triplets)) {
      const text = (waits.length ? `${t("waits")} ${I18N.tilesWords(waits)}` : "") + (rv && rv.hidden_triplets ? " · " + t("hidden_triplets", { n: rv.hidden_triplets }) : "");
      if (waitsEl.dataset.key !== text) { waitsEl.dataset.key = text; waitsEl.textContent = text; }
    } else if (waitsEl.dataset.key) { waitsEl.dataset.key = ""; waitsEl.textContent = ""; }
    // the pond: discards in rows, the latest marked, claimed ones greyed
    const pcount = prev ? prev.players[s].discards.length : p.discards.length;
    const pond = p.discards.map((x, i) => ({ key: String(i), tile: x,
      cls: "small" + (p.claimed[i] ? " claimed" : "") + (lastSeat === s && i === p.discards.length - 1 ? " last" : ""),
      fly: i >= pcount }));
    syncTiles(part(seat, ".pond"), pond, (e, it) => { if (it.fly && !e.dataset.flown) { e.dataset.flown = "1"; flights.push({ e, tile: it.tile }); } });
    if (flights.length) fly(seat, flights, from);
    // feedback for what just happened at this seat
    if (prev && ctx.live) {
      const pp = prev.players[s];
      if (p.discards.length > pp.discards.length) Sound.play("discard");
      if (p.melds.length > pp.melds.length) announce(seat, p.melds[p.melds.length - 1].kind === "pong" ? "pong" : "kong");
      else if (p.melds.some((m, i) => pp.melds[i] && pp.melds[i].kind !== m.kind)) announce(seat, "kong");
      const wonBefore = (prev.wins || []).filter((w) => w.seat === s).length, wonNow = (v.wins || []).filter((w) => w.seat === s);
      if (wonNow.length > wonBefore) announce(seat, wonNow[wonNow.length - 1].self_draw ? "zimo" : "win");
      if (p.declared && !pp.declared && CALLS[p.declared]) announce(seat, p.declared);
    }
  });
  drawnViews.set(board, v);
}
// A discard flies from the hand to its pond: First and Last measured, Inverted by a transform, Played
// by the Web Animations API (no inline style, no keyframes to write). Nothing moves under
// prefers-reduced-motion. Counted on <html data-flights> (and data-claims) for the tests.
/**
 * @typedef {{e: HTMLElement, tile: string | null}} Flight a discard to fly into the pond
 * @typedef {{row: DOMRect, tiles: Map<string | undefined, {tile: string | undefined, r: DOMRect}>}} HandRects
 */
/** @param {HTMLElement} seat @returns {HandRects} */
function handRects(seat) {
  /** @type {HandRects} */
  const out = { row: part(seat, ".row.hand").getBoundingClientRect(), tiles: new Map() };
  seat.querySelectorAll(".concealed .tile, .drawn .tile").forEach((el) => { const e = /** @type {HTMLElement} */ (el); out.tiles.set(e.dataset.key, { tile: e.dataset.tile, r: e.getBoundingClientRect() }); });
  return out;
}
/** @param {HTMLElement} seat @param {Flight[]} flights @param {HandRects | null} from */
function fly(seat, flights, from) {
  if (!from || reduced() || typeof Element.prototype.animate !== "function") return;
  const still = new Set(Array.from(seat.querySelectorAll(".concealed .tile, .drawn .tile"), (e) => /** @type {HTMLElement} */ (e).dataset.key));
  flights.forEach(({ e, tile }) => {
    const last = e.getBoundingClientRect();
    if (!last.width) return;
    // one's own tile: the one that left the hand; another seat's: the middle of its hand
    /** @type {DOMRect | null} */
    let first = null;
    for (const [key, x] of from.tiles) if (!first && !still.has(key) && x.tile === tile) first = x.r;
    for (const [key, x] of from.tiles) if (!first && !still.has(key)) first = x.r;
    const r = first || from.row;
    const dx = r.left + r.width / 2 - (last.left + last.width / 2), dy = r.top + r.height / 2 - (last.top + last.height / 2);
    const k = first ? Math.max(1, first.width / last.width) : 1.3;
    e.animate([{ transform: `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px) scale(${k.toFixed(2)})`, zIndex: 3 }, { transform: "none", zIndex: 3 }],
      { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
    e.dataset.flew = `${Math.round(dx)},${Math.round(dy)}`;  // where it came from, relative to where it lies
    bump("flights");
  });
}
/** the timer that takes each seat's callout down again */
const calloutTimers = new WeakMap();
/** @param {HTMLElement} seat @param {string} text @param {string} kind */
function callout(seat, text, kind) {
  const c = part(seat, ".call");
  c.textContent = text;
  c.className = "call" + (kind ? " k-" + kind : "");
  void c.offsetWidth; c.classList.add("show");
  clearTimeout(calloutTimers.get(c)); calloutTimers.set(c, setTimeout(() => c.classList.remove("show"), 1200));
}
// A claim, kong, win or declaration said at the caller's seat, as the apps do: the game's own word drawn
// large there and spoken (sound.js: a zh-CN voice where the browser has one, else its synthesised
// sound; 静音 silences both). Counted on <html data-callouts> for the tests.
// On the English page the word drawn is the catalogue's (the voice still calls it in Chinese).
/** @type {Record<string, [string, string, string]>} a call's word, its sound, its catalogue key */
const CALLS = { pong: ["碰", "pong", "a_pong"], kong: ["杠", "kong", "a_kong"], win: ["胡", "win", "a_win"],
  zimo: ["自摸", "win", "a_zimo"], liangdao: ["亮倒", "declare", "a_declare"], sing: ["唱歌", "declare", "a_sing"],
  dance: ["跳舞", "declare", "a_dance"] };
/** @param {HTMLElement} seat @param {string} kind */
function announce(seat, kind) {
  const [word, sound, key] = CALLS[kind];
  callout(seat, I18N.lang === "en" ? t(key) : word, kind);
  Sound.say(word, sound);
  bump("callouts");
}
/** One's own tiles as the board shows them (key, tile code, node). @returns {{key: string, tile: string, e: HTMLElement}[]} */
export function handItems() {
  const seat = document.querySelector(".seat.me");
  if (!seat) return [];
  return Array.from(seat.querySelectorAll(".concealed .tile, .drawn .tile"), (e) => /** @type {HTMLElement} */ (e))
    .map((e) => ({ key: e.dataset.key || "", tile: e.dataset.tile || "", e }));
}

