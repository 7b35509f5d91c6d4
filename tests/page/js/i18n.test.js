// The catalogue (static/i18n.js): both languages have the same keys, every error code is said in
// both, and a refusal is read by its code and parameters, never by its English words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setGames } from "../../../src/majiang/server/static/games.js";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { I18N, errorCode, errorCodes, errorText, firstLang, isRulesError, setLang, t } from "../../../src/majiang/server/static/i18n.js";

const SCHEMA = fileURLToPath(new URL("../../../src/majiang/data/protocol.schema.json", import.meta.url));

/**
 * The error codes the server declares: protocol.schema.json's "errors" (code → its message and
 * parameters), or the enum of its $defs.ErrorCode.
 * @returns {string[]}
 */
function serverCodes() {
  const schema = JSON.parse(readFileSync(SCHEMA, "utf8"));
  if (schema.errors && typeof schema.errors === "object") return Object.keys(schema.errors);
  const defs = schema.$defs || schema.definitions || {};
  return (defs.ErrorCode && defs.ErrorCode.enum) || [];
}

test("the two catalogues have the same keys", () => {
  assert.deepEqual(I18N.keys("en").sort(), I18N.keys("zh").sort());
  assert.ok(I18N.keys("zh").length > 150);
});

test("every error code the server declares is said in Chinese and English", { skip: !existsSync(SCHEMA) && "no protocol.schema.json yet" }, () => {
  const codes = serverCodes();
  assert.ok(codes.length > 0, "protocol.schema.json declares no error codes");
  const known = new Set(errorCodes());
  assert.deepEqual(codes.filter((c) => !known.has(c)), []);
});

test("every error code of the page has words in both languages (none but a stale press is silent)", () => {
  for (const lang of ["zh", "en"]) {
    setLang(lang);
    for (const code of errorCodes()) {
      const text = errorText({ code, message: "x" });
      if (code === "action.stale") assert.equal(text, "");
      else assert.ok(text && text !== "x", `${lang} ${code}`);
    }
  }
  setLang("zh");
});

test("a code is read before the words, which may say anything", () => {
  setLang("zh");
  assert.equal(errorText({ code: "room.not_found", message: "reworded: that room is unknown" }), "没有这个房间");
  assert.equal(errorText({ code: "seat.table_full", params: {}, message: "no such room" }), "房间已满");
  assert.equal(errorText({ code: "room.bad_people", params: { plays: 4 }, message: "people is 4" }), "这个玩法只能 4 人");
  setLang("en");
  assert.equal(errorText({ code: "room.not_found", message: "whatever" }), "No such room");
  setLang("zh");
});

// the options' names come from the games' declarations (games.js), as the page loads them
setGames({ g: { options: [{ name: "suits", label: { zh: "花色", en: "Suits" } }, { name: "cap", label: { zh: "封顶", en: "Cap" } }] } });

test("words without a code are never read: a network error is said as it is in English, generically in Chinese", () => {
  assert.deepEqual(errorCode("the table is full"), { code: null, params: {} });
  assert.equal(errorText("Failed to fetch"), "操作未被接受");
  assert.equal(errorText(""), "");
  assert.equal(errorText({ code: "no.such_code", message: "x" }), "操作未被接受");
});

test("a refusal of the room form's options is told by its code", () => {
  assert.ok(isRulesError({ code: "rules.invalid_option", params: { option: "cap" }, message: "" }));
  assert.ok(isRulesError({ code: "rules.bad_option_name" }));
  assert.ok(!isRulesError({ code: "seat.table_full", message: "option blood" }));  // the words are never read
  assert.ok(!isRulesError("blood_river needs blood_battle"));
  setLang("en");
  assert.equal(errorText({ code: "rules.invalid_option", params: { option: "cap", reason: "option cap must be a number" }, message: "x" }),
    "Cap: option cap must be a number");
  setLang("zh");
  assert.equal(errorText({ code: "rules.invalid_option", params: { option: "suits", reason: "r" } }), "规则选项「花色」的值无效");
  setLang("zh");
});

test("messages fill their parameters and fall back to the key", () => {
  assert.equal(t("hand_of", { i: 2, n: 8 }), "第 2/8 局");
  assert.equal(t("no_such_key_here"), "no_such_key_here");
});

test("the page's brand and a new player's default name are said in the page's language", () => {
  setLang("zh");
  assert.equal(t("brand"), "麻将");
  assert.match(t("default_name", { n: "1234" }), /^玩家1234$/);
  setLang("en");
  assert.equal(t("brand"), "Majiang");
  assert.equal(t("default_name", { n: "1234" }), "Player 1234");
  setLang("zh");
});

test("the words this page adds for the settlement, the help and the tooltips hold no Chinese in English", () => {
  const CJK = /[\u3400-\u9fff]/;
  const added = I18N.keys("en").filter((k) => /^(tip_|help|dc_|kb_pick|kb_discard|key_|settle_|players_col|worth_times|brand)/.test(k));
  assert.ok(added.length > 30);
  setLang("en");
  for (const k of added) assert.ok(!CJK.test(t(k).replace(/[←→]/g, "")), `${k}: ${t(k)}`);
  setLang("zh");
  for (const k of added.filter((x) => x.startsWith("tip_"))) assert.ok(CJK.test(t(k)), `${k} in Chinese: ${t(k)}`);
});

test("a field the server names by its key is said by the form's label, in the message's language", () => {
  const err = { code: "number.out_of_range", params: { field: "hands", lo: 1, hi: 64 }, message: "hands must be ..." };
  setLang("zh");
  assert.equal(errorText(err), "局数 必须是 1 到 64 的整数");
  assert.ok(!/[A-Za-z]/.test(errorText({ ...err, params: { field: "stake", lo: 1, hi: 1000 } })));
  setLang("en");
  assert.equal(errorText(err), "Hands must be a whole number from 1 to 64");
  setLang("zh");
});

test("the page follows the browser's language until the player chooses one", () => {
  assert.equal(firstLang(null, ["en-US", "en"]), "en");
  assert.equal(firstLang(null, ["fr-FR", "zh-CN", "en"]), "zh");
  assert.equal(firstLang(null, ["de-DE"]), "zh");
  assert.equal(firstLang(null, undefined), "zh");
  assert.equal(firstLang("zh", ["en-US"]), "zh");  // the player's choice wins
  assert.equal(firstLang("en", ["zh-CN"]), "en");
});

test("English names a suit by its English name, and a payment's reason and details never run together", () => {
  setLang("en");
  assert.equal(t("void_badge", { s: I18N.suitName("m") }), "void Characters (万)");
  const fans = { 清一色: "pure suit", 根: "four of a kind (root)" };
  assert.equal(I18N.paymentWhy("点炮", "清一色 根", fans), "discarded the winning tile: pure suit, four of a kind (root)");
  assert.equal(I18N.paymentWhy("点杠", "刮风"), "kong on a discard: wind (exposed kong)");
  assert.equal(I18N.paymentWhy("直杠", "杠上杠 ×2 满"), "direct kong: kong after kong ×2, capped");
  assert.equal(I18N.paymentWhy("数坎", "3 坎"), "concealed triplets: 3 triplet(s)");
  assert.equal(I18N.paymentWhy("买马", "马 5p"), "horse: horse 五筒 (5 Dots)");
  assert.equal(I18N.paymentWhy("退杠", "杠上炮: kong money refunded"), "kong money returned: discard after a kong: kong money refunded");
  assert.equal(I18N.paymentWhy("自摸", ""), "self-draw");
  setLang("zh");
  assert.equal(I18N.paymentWhy("点炮", "清一色 根", fans), "点炮 清一色 根");
  assert.equal(I18N.paymentWhy("退杠", "杠上炮: kong money refunded"), "退杠");
  assert.equal(t("void_badge", { s: I18N.suitName("m") }), "缺万");
});
