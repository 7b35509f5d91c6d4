// The wall (static/wall.js): it empties from the dealer's side, one side after another, clockwise;
// its size is the game's (static/games.js wallSize, from the rules schema).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { wallSides } from "../../../src/majiang/server/static/wall.js";
import { setGames, wallSize } from "../../../src/majiang/server/static/games.js";

// what /api/rules-schema serves (tests/page/test_page_js.py writes it to MAJIANG_RULES_SCHEMA)
const path = process.env.MAJIANG_RULES_SCHEMA;
const schema = path ? JSON.parse(readFileSync(path, "utf-8")) : null;

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

test("the wall's size is the game's, as the rules schema declares it (84 tiles: sides of 11 stacks)", { skip: !schema && "no schema given" }, () => {
  setGames(schema);
  assert.equal(wallSize("kawuxing"), 84);
  assert.equal(wallSize("sichuan"), 108);
  assert.equal(wallSides(44, wallSize("kawuxing"), "left").perSide, 11);
  assert.equal(wallSides(44, wallSize("sichuan"), "left").perSide, 14);  // the size, not the count left
  assert.equal(wallSize("no-such-game"), 0);
  setGames({});
});

test("before the schema has come, the count left stands for the wall's size", () => {
  setGames({});
  assert.equal(wallSides(44, wallSize("sichuan"), "left").perSide, 6);
});
