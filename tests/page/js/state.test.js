// The page's state (static/state.js): what a frame, a tap and the room's events change, with no DOM.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createStore, freeSeats, initialState, legalMoves, pickKey, reduce, restingMe, secondsLeft } from "../../../src/majiang/server/static/state.js";

/** A snapshot of seat `seat` with hand `hand` in phase `phase`. */
function snapshot({ seat = 0, hand = "123m456p789s11z", phase = "turn", handIndex = 0, legal = [], now = 0 } = {}) {
  const players = [{ hand }, { hand: null }, { hand: null }];
  return { type: "snapshot", seq: 3, seat, now, room: { hand_index: handIndex, humans: [true, false, false], resting: null },
    view: { phase, players, legal } };
}

test("a snapshot replaces the state's, and a patch is applied to it", () => {
  let s = reduce(initialState(), { type: "frame", msg: snapshot(), at: 0 });
  assert.equal(s.snap.seq, 3);
  s = reduce(s, { type: "frame", msg: { type: "patch", patch: { seq: 4 }, now: 0 }, at: 0 });
  assert.equal(s.snap.seq, 4);
  assert.equal(s.snap.view.phase, "turn");
});

test("a patch before any snapshot, a chat or an error leave the state as it was", () => {
  const s = initialState();
  assert.equal(reduce(s, { type: "frame", msg: { type: "patch", patch: { seq: 4 } }, at: 0 }), s);
  const seen = reduce(s, { type: "frame", msg: snapshot(), at: 0 });
  assert.equal(reduce(seen, { type: "frame", msg: { type: "chat", seat: 1, phrase: "hello" }, at: 0 }), seen);
  assert.equal(reduce(seen, { type: "frame", msg: { type: "error", code: "action.stale" }, at: 0 }), seen);
});

test("the clock's skew is the server's time less this page's", () => {
  const s = reduce(initialState(), { type: "frame", msg: snapshot({ now: 10_500 }), at: 10_000 });
  assert.equal(s.clockSkew, 500);
  assert.equal(secondsLeft(s, 20_500, 10_000), 10);
  assert.equal(secondsLeft(s, 1_000, 10_000), 0);
  assert.equal(secondsLeft(s, null, 10_000), null);
});

test("picks for 换三张: three at most, a second tap puts one back, a new hand forgets them", () => {
  let s = reduce(initialState(), { type: "frame", msg: snapshot({ phase: "exchange" }), at: 0 });
  for (const key of ["1m#1", "2m#1", "3m#1", "4p#1"]) s = reduce(s, { type: "pick", key });
  assert.deepEqual(s.picked, ["2m#1", "3m#1", "4p#1"]);
  s = reduce(s, { type: "pick", key: "3m#1" });
  assert.deepEqual(s.picked, ["2m#1", "4p#1"]);
  s = reduce(s, { type: "frame", msg: snapshot({ phase: "exchange" }), at: 0 });  // the same hand again: kept
  assert.deepEqual(s.picked, ["2m#1", "4p#1"]);
  s = reduce(s, { type: "frame", msg: snapshot({ phase: "exchange", hand: "123m456p789s11z2m" }), at: 0 });
  assert.deepEqual(s.picked, []);
  assert.equal(pickKey(s.snap), "0|exchange|123m456p789s11z2m");
});

test("a seated snapshot ends a visitor's invite; a spectator's keeps it", () => {
  let s = reduce(initialState(), { type: "open", code: "123456", mode: "invite" });
  s = reduce(s, { type: "joined", nextSeat: 2 });
  const watching = reduce(s, { type: "frame", msg: snapshot({ seat: null }), at: 0 });
  assert.equal(watching.mode, "invite");
  assert.equal(watching.nextSeat, 2);
  const seated = reduce(watching, { type: "frame", msg: snapshot({ seat: 2 }), at: 0 });
  assert.equal(seated.mode, "seated");
  assert.equal(seated.nextSeat, null);
  assert.equal(seated.roomCode, "123456");
});

test("a selection is dropped by the action it leads to; the state given is never changed", () => {
  const s0 = reduce(initialState(), { type: "frame", msg: snapshot({ legal: [{ type: "discard", tile: "1m" }] }), at: 0 });
  const s1 = reduce(s0, { type: "select", key: "1m#1" });
  assert.equal(s1.selKey, "1m#1");
  assert.equal(s0.selKey, null);
  assert.equal(reduce(s1, { type: "acted" }).selKey, null);
  assert.deepEqual(legalMoves(s1), [{ type: "discard", tile: "1m" }]);
  assert.deepEqual(legalMoves(initialState()), []);
  assert.equal(reduce(s1, { type: "dropped" }).snap, null);
});

test("free seats and the bench", () => {
  assert.deepEqual(freeSeats({ humans: [true, false, false], joining: [null, "ana", null] }), [2]);
  let s = reduce(initialState(), { type: "me", me: { id: "p1", name: "ana" } });
  const msg = snapshot({ seat: null });
  msg.room.resting = { name: "ana", total: 3 };
  s = reduce(s, { type: "frame", msg, at: 0 });
  assert.ok(restingMe(s));
  assert.ok(!restingMe(reduce(s, { type: "me", me: { id: "p2", name: "bo" } })));
});

test("the discard is taught thrice: the count stops at three, seeded by what the browser kept", () => {
  let s = initialState({ taught: 1 });
  for (let i = 0; i < 4; i++) s = reduce(s, { type: "learned" });
  assert.equal(s.taught, 3);
  assert.equal(reduce(s, { type: "learned" }), s);
});

test("a closed settlement is remembered by its hand until the page forgets it", () => {
  let s = reduce(initialState(), { type: "settlement-closed", key: "123456|2" });
  assert.equal(s.settlementClosedFor, "123456|2");
  assert.equal(reduce(s, { type: "settlement-closed", key: "123456|2" }), s);  // a render's reset changes nothing twice
  s = reduce(s, { type: "settlement-closed", key: null });
  assert.equal(s.settlementClosedFor, null);
});

test("the room form keeps the options changed from the preset's: one set, one put back, all reset", () => {
  let s = reduce(initialState(), { type: "option", name: "blood_river", value: true });
  s = reduce(s, { type: "option", name: "cap", value: null });
  assert.deepEqual(s.formOptions, { blood_river: true, cap: null });
  const before = s.formOptions;
  s = reduce(s, { type: "option", name: "blood_river", value: undefined });
  assert.deepEqual(s.formOptions, { cap: null });
  assert.deepEqual(before, { blood_river: true, cap: null }, "the state given is not changed");
  assert.deepEqual(reduce(s, { type: "options-reset" }).formOptions, {});
});

test("the store holds the latest state and changes it only by dispatch", () => {
  const store = createStore(initialState());
  const first = store.state;
  store.dispatch({ type: "hints", on: true });
  assert.equal(store.state.showHints, true);
  assert.equal(first.showHints, false);
});
