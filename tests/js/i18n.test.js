// The catalogue (static/i18n.js): both languages have the same keys, every error code is said in
// both, and a refusal is read by its code first (the English words only when a server sends no code).
import { test } from "node:test";
import assert from "node:assert/strict";
import { setGames } from "../../src/majiang/server/static/games.js";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { I18N, errorCode, errorCodes, errorText, isRulesError, setLang, t } from "../../src/majiang/server/static/i18n.js";

const SCHEMA = fileURLToPath(new URL("../../src/majiang/data/protocol.schema.json", import.meta.url));

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
  assert.equal(errorText({ code: "room.full", params: {}, message: "no such room" }), "房间已满");
  setLang("en");
  assert.equal(errorText({ code: "room.not_found", message: "whatever" }), "No such room");
  setLang("zh");
});

// the options' names come from the games' declarations (games.js), as the page loads them
setGames({ g: { options: [{ name: "suits", label: { zh: "花色", en: "Suits" } }, { name: "cap", label: { zh: "封顶", en: "Cap" } }] } });

test("a server without codes: its English is mapped to the code once, in i18n only", () => {
  assert.deepEqual(errorCode("the table is full"), { code: "room.full", params: {} });
  assert.deepEqual(errorCode("option suits must be a number"), { code: "rules.invalid_option", params: { option: "suits" } });
  assert.equal(errorText("no such room"), "没有这个房间");
  assert.equal(errorText("option suits must be a number"), "规则选项「花色」的值无效");
  assert.equal(errorText("something new"), "操作未被接受");
  assert.equal(errorText(""), "");
  assert.equal(errorText("已经是中文"), "已经是中文");
});

test("a refusal of the room form's options is told by its code", () => {
  assert.ok(isRulesError({ code: "rules.invalid_option", params: { option: "cap" }, message: "" }));
  assert.ok(isRulesError({ code: "rules.blood_river_needs_blood_battle" }));
  assert.ok(!isRulesError({ code: "room.full", message: "option blood" }));  // the words are not read when a code is there
  assert.ok(isRulesError("blood_river needs blood_battle"));
  setLang("en");
  assert.equal(errorText({ code: "rules.invalid_option", params: { option: "cap" }, message: "option cap must be a number" }),
    "Cap 封顶: option cap must be a number");
  setLang("zh");
});

test("messages fill their parameters and fall back to the key", () => {
  assert.equal(t("hand_of", { i: 2, n: 8 }), "第 2/8 局");
  assert.equal(t("no_such_key_here"), "no_such_key_here");
});
