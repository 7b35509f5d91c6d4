// 复盘's words (static/review-words.js): both languages have the same keys and no key is left
// unsaid; a review's actions are said in words, never as tile codes; the costliest come first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "../../../src/majiang/server/static/i18n.js";
import { WORDS, actionWords, costliest, pts, say } from "../../../src/majiang/server/static/review-words.js";

test("the review's words have the same keys in Chinese and English", () => {
  assert.deepEqual(Object.keys(WORDS.en).sort(), Object.keys(WORDS.zh).sort());
  for (const lang of ["zh", "en"]) {
    for (const [key, text] of Object.entries(WORDS[lang])) assert.ok(text.trim(), `${lang} ${key}`);
  }
  assert.ok(!/[\u4e00-\u9fff]/.test(WORDS.en.match + WORDS.en.loss + WORDS.en.options));
});

test("actions are said in the page's language", () => {
  setLang("zh");
  assert.equal(actionWords("discard 5p"), "打 五筒");
  assert.equal(actionWords("pass"), "过");
  assert.equal(actionWords("void m"), "缺 万");
  assert.equal(actionWords("exchange 1m2m3m"), "换三张 一二三万");
  assert.equal(say("match", { p: "80%" }), "一致率 80%");
  setLang("en");
  assert.equal(actionWords("discard 7z"), "Discard 红中 (Red)");
  assert.equal(actionWords("win"), "Win");
  assert.equal(say("loss", { x: pts(1.234), e: pts(0.2) }), "Expected loss 1.23 ±0.20 points");
  setLang("zh");
});

test("the costliest three decisions, costliest first, none without a loss", () => {
  const review = { decisions: [0.5, 0, 2, 1.2, 0.1].map((loss, frame) => ({ frame, loss })) };
  assert.deepEqual(costliest(review).map((d) => d.frame), [2, 3, 0]);
  assert.deepEqual(costliest({ decisions: [{ frame: 1, loss: 0 }] }), []);
  assert.equal(pts(1.5, true), "+1.50");
  assert.equal(pts(-4, true), "-4.00");
});
