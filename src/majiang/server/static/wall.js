// The wall as a table shows it, from the one count the server sends (tiles left to draw): four sides
// of stacks of two, drawn from the dealer's side first and on round the table clockwise (as the
// apps show it), so one side empties, then the next. No DOM.

/** The screen's sides in the order a wall is drawn from (clockwise seen from above). */
export const DRAW_ORDER = ["bottom", "left", "top", "right"];

/**
 * How many stacks each side still holds and where the odd tile lies.
 * @param {number} left tiles left to draw
 * @param {number} total tiles the wall held before the deal (only its size is drawn: a side holds a quarter)
 * @param {string} first the side drawn from first (the dealer's)
 * @returns {{perSide: number, sides: Record<string, {stacks: number, one: boolean}>}}
 */
export function wallSides(left, total, first) {
  const perSide = Math.max(1, Math.ceil(Math.max(total, left) / 8));
  const start = Math.max(0, DRAW_ORDER.indexOf(first));
  const order = DRAW_ORDER.map((_, i) => DRAW_ORDER[(start + i) % 4]);
  let stacks = Math.ceil(Math.max(0, left) / 2);
  /** @type {Record<string, {stacks: number, one: boolean}>} */
  const sides = {};
  for (let i = 3; i >= 0; i--) {  // the last sides to be drawn are still whole
    const here = Math.min(perSide, stacks);
    sides[order[i]] = { stacks: here, one: false };
    stacks -= here;
  }
  const drawing = order.find((s) => sides[s].stacks > 0);  // an odd tile: the stack being drawn from has one
  if (drawing && left % 2 === 1) sides[drawing].one = true;
  return { perSide, sides };
}
