// The page's words without the DOM (static/words.js): tile lists, replay steps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ACTION_KEYS, avatarsOf, botName, fanWorth, keyLabel, keyed, replayStep, shortcutRows, signed, splitTiles, winTotal } from "../../../src/majiang/server/static/words.js";
import { I18N } from "../../../src/majiang/server/static/i18n.js";

test("a hand's text as tiles, each keyed apart from its copies", () => {
  assert.deepEqual(splitTiles("123m55p7z"), ["1m", "2m", "3m", "5p", "5p", "7z"]);
  assert.deepEqual(keyed(["5p", "5p", "1m"]).map((x) => x.key), ["5p#1", "5p#2", "1m#1"]);
  assert.deepEqual([3, 0, -2].map(signed), ["+3", "0", "-2"]);
});

test("a replay frame's step: its own seat and action first, else its label", () => {
  assert.deepEqual(replayStep({ seat: 1, action: { type: "discard", tile: "5p" }, label: "seat 2: pass" }),
    { seat: 1, type: "discard", tiles: ["5p"], suit: null });
  assert.deepEqual(replayStep({ seat: 0, action: { type: "exchange", tiles: ["1m", "2m", "<b>"] } }),
    { seat: 0, type: "exchange", tiles: ["1m", "2m"], suit: null });
  assert.deepEqual(replayStep({ label: "seat 2: void m" }), { seat: 2, type: "void", tiles: [], suit: "m" });
  assert.deepEqual(replayStep({ label: "seat 0: exchange 1m2m3m" }), { seat: 0, type: "exchange", tiles: ["1m", "2m", "3m"], suit: null });
  assert.equal(replayStep({ label: "deal" }), null);
});

test("a bot's name in the page's language, whatever its level", () => {
  assert.equal(botName("bot 2 (expert)"), "机器人2 (大师)");
  assert.equal(botName("bot 1 (greedy)"), "机器人1 (普通)");
  assert.equal(botName("Alice"), "Alice");
});

test("the keyboard's shortcuts: one map, labelled on buttons and listed in the help sheet", () => {
  I18N.setLang("zh");
  assert.deepEqual(["win", "pong", "kong", "concealed_kong", "added_kong", "pass", "declare", "discard"].map(keyLabel),
    ["H", "P", "K", "K", "K", "空格", "", ""]);
  const rows = shortcutRows();
  assert.deepEqual(rows.map((r) => r[0]), ["←→", "回车", "H", "P", "K", "空格"]);
  assert.ok(rows.every(([k, what]) => k && what && !/^(a_|kb_|key_)/.test(what)));
  assert.deepEqual(Object.values(ACTION_KEYS).sort(), ["kong", "pass", "pong", "win"]);
  I18N.setLang("en");
  assert.equal(keyLabel("pass"), "Space");
  I18N.setLang("zh");
});

test("a 平胡 is worth the base (底分), never 0番, in both languages; fans and multipliers say their worth", () => {
  const pinghu = { fan: 0, multiplier: 1 };
  I18N.setLang("zh");
  assert.equal(fanWorth(pinghu, false), "底分");
  assert.equal(winTotal(pinghu, false), "共 ×1 底分");
  assert.equal(fanWorth({ fan: 2, multiplier: 4 }, false), "2番");
  assert.equal(winTotal({ fan: 2, multiplier: 4 }, false), "共 2 番 (×4 底分)");
  assert.equal(fanWorth({ fan: 0, multiplier: 2 }, true), "×2");
  assert.equal(winTotal({ fan: 0, multiplier: 8 }, true), "共 ×8");
  I18N.setLang("en");
  assert.equal(fanWorth(pinghu, false), "base");
  assert.equal(winTotal(pinghu, false), "×1 the stake");
  assert.doesNotMatch(winTotal(pinghu, false) + fanWorth(pinghu, false), /0 ?fan/);
  I18N.setLang("zh");
});

test("each person at a table has an avatar of their own: 小红 and 小刚 differ, colours never repeat", () => {
  const a = avatarsOf(["小红", "小刚", "bot 2", "Ana Lee"], [false, false, true, false]);
  assert.deepEqual(a.map((x) => x.text), ["红", "刚", "2", "AL"]);
  assert.equal(new Set(a.map((x) => x.colour)).size, 4);
  const same = avatarsOf(["小红", "小红"], [false, false]);  // even two of one name: two colours
  assert.notEqual(same[0].colour, same[1].colour);
  assert.deepEqual(avatarsOf(["小红"], [false]), [a[0]]);
  assert.deepEqual(avatarsOf(["机器人2", "bot3"], [false, false]).map((x) => x.text), ["2", "3"]);  // a replay's bots  // the same person, the same colour at every table (when free)
});
