// Tile art drawn here as SVG for this project: no third-party images. Kinds are written 1m-9m, 1p-9p,
// 1s-9s, 5z 白, 6z 发, 7z 中. The faces follow the traditional designs (1条 a bird, 筒 coloured coins,
// 万 a numeral over a red 萬) in a 40 × 56 box: an ivory face on a green body, as the tiles of a real set.
// Shapes are bold and few so that a pond tile 15 px wide still reads (7/8/9条 differ in outline, not detail).
import { I18N, tileName } from "./i18n.js";

const NUM = "一二三四五六七八九";
const RED = "#c62f24", GREEN = "#1a7a3c", BLUE = "#1f4fa3", DARK_GREEN = "#0d4a23", INK = "#1b1b2a", IVORY = "#fbf8ef";
const SERIF = `font-family="'Noto Serif CJK SC','Songti SC','STSong','SimSun',serif" font-weight="900" text-anchor="middle"`;
const f = (/** @type {number} */ x) => +x.toFixed(2);

// 筒: a coin is a filled disc, an ivory ring and a coloured centre
/** @param {number} x @param {number} y @param {number} r @param {string} color */
function coin(x, y, r, color) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/><circle cx="${x}" cy="${y}" r="${f(r * 0.68)}" fill="${IVORY}"/>` +
    `<circle cx="${x}" cy="${y}" r="${f(r * 0.42)}" fill="${color}"/>`;
}
const B = BLUE, G = GREEN, R = RED;
// [x, y, colour] per coin, the traditional colours: 2 green over blue, 3 blue-red-green, 6 and 7 green over red, 8 blue, 9 blue/red/green rows
/** @type {Record<number, [number, number, string][]>} */
const COINS = {
  2: [[20, 15, G], [20, 38, B]],
  3: [[10.5, 12, B], [20, 26.5, R], [29.5, 41, G]],
  4: [[12, 15, B], [28, 15, G], [12, 38, G], [28, 38, B]],
  5: [[11, 12, B], [29, 12, G], [20, 26.5, R], [11, 41, G], [29, 41, B]],
  6: [[12, 10.5, G], [28, 10.5, G], [12, 27, R], [28, 27, R], [12, 42, R], [28, 42, R]],
  7: [[9.5, 8.5, G], [20, 14, G], [30.5, 19.5, G], [12.5, 31, R], [27.5, 31, R], [12.5, 43.5, R], [27.5, 43.5, R]],
  8: [[12.5, 9, B], [27.5, 9, B], [12.5, 20.5, B], [27.5, 20.5, B], [12.5, 32, B], [27.5, 32, B], [12.5, 43.5, B], [27.5, 43.5, B]],
  9: [[9.5, 10.5, B], [20, 10.5, B], [30.5, 10.5, B], [9.5, 26.5, R], [20, 26.5, R], [30.5, 26.5, R], [9.5, 42.5, G], [20, 42.5, G], [30.5, 42.5, G]],
};
/** @type {Record<number, number>} */
const COIN_R = { 2: 8.5, 3: 7.2, 4: 7.2, 5: 6.6, 6: 6.2, 7: 5.4, 8: 5.4, 9: 5.3 };
function oneCoin() {  // 1筒: one large coin with a rosette
  let petals = "";
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    petals += `<circle cx="${f(20 + 8.6 * Math.cos(a))}" cy="${f(26.5 + 8.6 * Math.sin(a))}" r="1.7" fill="${IVORY}"/>`;
  }
  return `<circle cx="20" cy="26.5" r="15" fill="${BLUE}"/><circle cx="20" cy="26.5" r="12.6" fill="${IVORY}"/>` +
    `<circle cx="20" cy="26.5" r="11.4" fill="${GREEN}"/>${petals}<circle cx="20" cy="26.5" r="6" fill="${RED}"/>` +
    `<circle cx="20" cy="26.5" r="3" fill="${IVORY}"/><circle cx="20" cy="26.5" r="1.5" fill="${RED}"/>`;
}
/** @param {number} n */
function dots(n) {
  if (n === 1) return oneCoin();
  return COINS[n].map(([x, y, c]) => coin(x, y, COIN_R[n], c)).join("");
}

// 条: a bamboo stick with a joint in the middle and at both ends, optionally tilted (degrees)
/** @param {number} x @param {number} y @param {number} len @param {string} color @param {number} [tilt] */
function stick(x, y, len, color, tilt = 0) {
  const h = len / 2, node = color === RED ? "#7a1812" : DARK_GREEN;
  return `<g transform="translate(${x} ${y})${tilt ? ` rotate(${tilt})` : ""}">` +
    `<rect x="-2.5" y="${-h}" width="5" height="${len}" rx="2.5" fill="${color}"/>` +
    `<rect x="-3.1" y="-0.9" width="6.2" height="1.8" rx="0.9" fill="${node}"/>` +
    `<rect x="-3.1" y="${f(-h)}" width="6.2" height="1.6" rx="0.8" fill="${node}"/>` +
    `<rect x="-3.1" y="${f(h - 1.6)}" width="6.2" height="1.6" rx="0.8" fill="${node}"/>` +
    `<rect x="-0.7" y="${f(-h + 2.4)}" width="1.1" height="${f(len / 2 - 3.6)}" rx="0.5" fill="#fff" opacity=".45"/></g>`;
}
// [x, y, length, colour, tilt] per stick: 5 and 9 with red in the middle, 7 with a red stick on top, 8 as M over W
/** @type {Record<number, [number, number, number, string, number?][]>} */
const STICKS = {
  2: [[20, 15, 19, G], [20, 38, 19, G]],
  3: [[20, 15, 19, G], [12, 38, 19, G], [28, 38, 19, G]],
  4: [[12, 15, 19, G], [28, 15, 19, G], [12, 38, 19, G], [28, 38, 19, G]],
  5: [[9.5, 15, 19, G], [30.5, 15, 19, G], [20, 26.5, 19, R], [9.5, 38, 19, G], [30.5, 38, 19, G]],
  6: [[9.5, 15, 19, G], [20, 15, 19, G], [30.5, 15, 19, G], [9.5, 38, 19, G], [20, 38, 19, G], [30.5, 38, 19, G]],
  7: [[20, 9.5, 13, R], [9.5, 25, 13, G], [20, 25, 13, G], [30.5, 25, 13, G], [9.5, 41.5, 13, G], [20, 41.5, 13, G], [30.5, 41.5, 13, G]],
  8: [[7.5, 15, 19, G], [16, 15, 19, G, 18], [24, 15, 19, G, -18], [32.5, 15, 19, G],
    [7.5, 38, 19, G], [16, 38, 19, G, -18], [24, 38, 19, G, 18], [32.5, 38, 19, G]],
  9: [[9.5, 10, 13, G], [20, 10, 13, R], [30.5, 10, 13, G], [9.5, 26.5, 13, G], [20, 26.5, 13, R], [30.5, 26.5, 13, G],
    [9.5, 43, 13, G], [20, 43, 13, R], [30.5, 43, 13, G]],
};
function bird() {  // 1条: a perched bird facing left, green body, blue wing, red head and crest, a fanned tail
  return `<path d="M24 31 L37 45 L31 46 Z" fill="${BLUE}"/><path d="M24 30 L38 37 L35 42 Z" fill="${GREEN}"/>` +
    `<path d="M23 32 L31 48 L25 48 Z" fill="${GREEN}"/>` +
    `<line x1="17" y1="37" x2="15" y2="46" stroke="#8a5a1c" stroke-width="1.6" stroke-linecap="round"/>` +
    `<line x1="21" y1="37" x2="21" y2="46" stroke="#8a5a1c" stroke-width="1.6" stroke-linecap="round"/>` +
    `<rect x="9" y="45.5" width="18" height="2" rx="1" fill="#8a5a1c"/>` +
    `<ellipse cx="19" cy="30" rx="9.5" ry="8" fill="${GREEN}"/>` +
    `<path d="M14 27 Q22 22 28 30 Q22 36 15 32 Z" fill="${BLUE}"/>` +
    `<path d="M16 29.5 Q21 28 25 31" stroke="${IVORY}" stroke-width="1" fill="none"/>` +
    `<circle cx="12.5" cy="18.5" r="6" fill="${RED}"/>` +
    `<path d="M9 13 Q11 7 15 8 Q13 10 14.5 13 Z" fill="${RED}"/><circle cx="15" cy="7.8" r="1.4" fill="#e8a317"/>` +
    `<path d="M7 17.5 L1.5 20 L7.2 21 Z" fill="#e8a317"/>` +
    `<circle cx="11" cy="17.5" r="1.8" fill="${IVORY}"/><circle cx="10.6" cy="17.5" r="0.9" fill="${INK}"/>`;
}
/** @param {number} n */
function bamboo(n) { return n === 1 ? bird() : STICKS[n].map(([x, y, len, c, tilt]) => stick(x, y, len, c, tilt)).join(""); }

/** @param {number} n */
function characters(n) {  // 万: the numeral in dark ink over 萬 in red
  return `<text x="20" y="22" font-size="19" ${SERIF} fill="${INK}">${NUM[n - 1]}</text>` +
    `<text x="20" y="47" font-size="22" ${SERIF} fill="${RED}">萬</text>`;
}
/** @param {string} rank */
function dragon(rank) {
  if (rank === "5") {  // 白: an empty face in a blue double frame
    return `<rect x="7" y="8" width="26" height="37" rx="2.5" fill="none" stroke="${BLUE}" stroke-width="3"/>` +
      `<rect x="11" y="12" width="18" height="29" rx="1" fill="none" stroke="${BLUE}" stroke-width="1.2"/>`;
  }
  if (rank === "6") return `<text x="20" y="38" font-size="30" ${SERIF} fill="${GREEN}">發</text>`;
  return `<text x="20" y="38.5" font-size="32" ${SERIF} fill="${RED}">中</text>`;
}

// A tile lying face up: the green body shows below the ivory face. A hidden tile: the body only,
// with a lighter bevel, as the backs of the wall and of other seats' concealed tiles.
const FACE_UP = `<rect x="1" y="1" width="38" height="54" rx="5" fill="#2a8a58"/><rect x="1" y="51" width="38" height="4" rx="2" fill="#1c6b43"/>` +
  `<rect x="1" y="1" width="38" height="51" rx="5" fill="${IVORY}" stroke="#b7ae95" stroke-width="0.8"/>`;
const BACK = `<rect x="1" y="1" width="38" height="54" rx="5" fill="#1f7a4c" stroke="#0f4a2c" stroke-width="0.8"/>` +
  `<rect x="4" y="4" width="32" height="46" rx="3.5" fill="#2e9a62"/><rect x="4" y="4" width="32" height="10" rx="3.5" fill="#4fb882" opacity=".55"/>` +
  `<rect x="1" y="50" width="38" height="5" rx="2.5" fill="${IVORY}" opacity=".85"/>`;
/**
 * The SVG of one tile face up, or of a tile's back when `tile` is not a tile code.
 * @param {string | null | undefined} tile
 * @returns {string}
 */
export function tileSVG(tile) {
  if (tile && !/^[1-9][mps]$|^[5-7]z$/.test(tile)) tile = null;  // only tile codes reach the markup
  let body = "";
  if (tile) {
    const rank = tile[0], suit = tile[1];
    body = suit === "z" ? dragon(rank) : suit === "p" ? dots(+rank) : suit === "s" ? bamboo(+rank) : characters(+rank);
  }
  const label = tile ? tileName(tile) : I18N.lang === "en" ? "hidden tile" : "暗牌";
  return `<svg viewBox="0 0 40 56" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}">` +
    (tile ? FACE_UP + body : BACK) + `</svg>`;
}
