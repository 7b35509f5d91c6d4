// The wall (static/wall.js): it empties from the dealer's side, one side after another, clockwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { wallSides, wallTotal } from "../../src/majiang/server/static/wall.js";

const counts = (w) => Object.fromEntries(Object.entries(w.sides).map(([k, s]) => [k, s.stacks]));

test("a full 108-tile wall has four sides of 14 stacks", () => {
  const w = wallSides(108, 108, "bottom");
  assert.equal(w.perSide, 14);
  assert.deepEqual(counts(w), { bottom: 12, left: 14, top: 14, right: 14 });  // the side drawn first is short
});

test("the wall empties from the dealer's side first, then clockwise, never evening the sides out", () => {
  assert.deepEqual(counts(wallSides(55, 108, "bottom")), { bottom: 0, left: 0, top: 14, right: 14 });
  assert.deepEqual(counts(wallSides(55, 108, "top")), { top: 0, right: 0, bottom: 14, left: 14 });
  assert.deepEqual(counts(wallSides(9, 108, "right")), { right: 0, bottom: 0, left: 0, top: 5 });
  assert.deepEqual(counts(wallSides(0, 108, "left")), { bottom: 0, left: 0, top: 0, right: 0 });
});

test("an odd count leaves one tile on the stack being drawn from", () => {
  const w = wallSides(29, 108, "bottom");
  assert.deepEqual(counts(w), { bottom: 0, left: 0, top: 1, right: 14 });
  assert.equal(w.sides.top.one, true);
  assert.equal(w.sides.right.one, false);
});

test("the wall's size is read back from a view: what is left plus every tile out of it", () => {
  const v = { tiles_left: 44, wins: [], players: [
    { tiles: 14, discards: [], claimed: [], melds: [] }, { tiles: 13, discards: [], claimed: [], melds: [] },
    { tiles: 10, discards: ["1p", "2p"], claimed: [false, true], melds: [{ kind: "pong", tile: "2p" }] }] };
  assert.equal(wallTotal(v), 44 + 14 + 13 + 10 + 1 + 3);
  assert.equal(wallSides(44, wallTotal(v), "left").perSide, 11);  // 卡五星's 84 tiles: sides of 11 stacks
});
