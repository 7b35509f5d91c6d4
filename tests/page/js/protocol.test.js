// applyPatch (static/protocol.js) against the server's own patches: the pytest side plays bot matches
// and writes, for every frame, the snapshot before, the patch the server sent and the snapshot a
// whole-frame client got next (tests/page/test_page_js.py sets MAJIANG_PATCH_FIXTURES to that file).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { applyPatch, retryDelay } from "../../../src/majiang/server/static/protocol.js";

const fixtures = process.env.MAJIANG_PATCH_FIXTURES;

test("the server's patches rebuild every next snapshot exactly", { skip: !fixtures && "MAJIANG_PATCH_FIXTURES is not set (pytest sets it)" }, () => {
  const lines = readFileSync(/** @type {string} */ (fixtures), "utf8").split("\n").filter(Boolean);
  assert.ok(lines.length > 40, `only ${lines.length} frames`);
  for (const [i, line] of lines.entries()) {
    const { before, patch, after } = JSON.parse(line);
    const frozen = JSON.stringify(before);
    assert.deepEqual(applyPatch(before, patch), after, `frame ${i}`);
    assert.equal(JSON.stringify(before), frozen, `frame ${i}: the old snapshot was changed in place`);
  }
});

test("keys gone, equal-length lists item by item, anything else replaced", () => {
  const old = { a: 1, b: { c: [1, 2], d: null }, e: 5 };
  assert.deepEqual(applyPatch(old, { b: { c: { "[]": { 1: 3 } }, d: "x" }, "~": ["e"] }), { a: 1, b: { c: [1, 3], d: "x" } });
  assert.deepEqual(applyPatch([1, 2], [1, 2, 3]), [1, 2, 3]);  // a list of another length comes whole
  assert.deepEqual(applyPatch({ a: 1 }, { b: { x: 1 } }), { a: 1, b: { x: 1 } });  // a new key is a value, not a patch
  assert.deepEqual(applyPatch({ a: { x: 1 } }, { a: null }), { a: null });
  assert.deepEqual(applyPatch(null, { x: 1 }), { x: 1 });
});

test("reconnections back off to five seconds", () => {
  assert.deepEqual([1, 2, 3, 10, 11, 50].map(retryDelay), [500, 1000, 1500, 5000, 5000, 5000]);
});
