// The games as the page says them (static/games.js), from the declarations the server serves
// (tests/page/test_page_js.py writes /api/rules-schema's answer to MAJIANG_RULES_SCHEMA).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { I18N } from "../../../src/majiang/server/static/i18n.js";
import {
  brokenConstraints, choiceName, declarationName, fanHelp, fansMultiply, gameIds, gameName, optionHelp, optionName, peopleChoices,
  presetIds, presetName, setGames,
} from "../../../src/majiang/server/static/games.js";

const path = process.env.MAJIANG_RULES_SCHEMA;
const schema = path ? JSON.parse(readFileSync(path, "utf-8")) : null;

test("every game, preset, option and choice is said in Chinese and in English", { skip: !schema && "no schema given" }, () => {
  setGames(schema);
  assert.ok(gameIds().length >= 2);
  for (const lang of ["zh", "en"]) {
    I18N.setLang(lang);
    for (const v of gameIds()) {
      const g = schema[v];
      assert.equal(gameName(v), g.label[lang]);
      if (lang === "en") assert.ok(!/[\u3400-\u9fff]/.test(gameName(v)), `${v}: no Chinese in English`);
      for (const p of presetIds(v)) assert.ok(presetName(v, p) && presetName(v, p) !== p || g.preset_labels[p][lang] === p, `${v}.${p}`);
      for (const o of g.options) {
        assert.ok(optionName(o) && optionName(o) !== o.name, `${v}.${o.name} has no ${lang} label`);
        assert.ok(optionHelp(o), `${v}.${o.name} has no ${lang} help`);
        for (const c of o.choices || []) assert.ok(choiceName(o, c) !== "", `${v}.${o.name}=${c}`);
      }
      assert.ok(peopleChoices(v).includes(g.players));
      assert.ok(declarationName(v, "declare"));
    }
  }
  I18N.setLang("zh");
});

test("a win is counted as the game declares it, and a broken constraint is said with both options' names", () => {
  setGames({
    toy: { players: 3, people: [3, 4], label: { zh: "玩具", en: "Toy" }, fans_multiply: true,
      declarations: { declare: { zh: "亮", en: "show" } }, presets: { a: {} }, preset_labels: { a: { zh: "甲", en: "A" } },
      options: [{ name: "x", type: "bool", default: false, label: { zh: "叉", en: "Ex" }, help: { zh: "", en: "" } },
        { name: "y", type: "choice", default: null, choices: [null, 8], choice_labels: [{ zh: "无", en: "none" }, { zh: "8", en: "8" }],
          label: { zh: "歪", en: "Why" }, help: { zh: "", en: "" } }],
      constraints: [{ option: "x", needs: "z" }] },
  });
  I18N.setLang("zh");
  assert.equal(fansMultiply("toy"), true);
  assert.equal(fansMultiply("nosuch"), false);
  assert.deepEqual(peopleChoices("toy"), [3, 4]);
  assert.equal(declarationName("toy", "declare"), "亮");
  assert.equal(presetName("toy", "a"), "甲");
  assert.equal(choiceName({ choices: [null, 8], choice_labels: [{ zh: "无", en: "none" }, { zh: "8", en: "8" }] }, null), "无");
  assert.deepEqual(brokenConstraints("toy", { x: true, z: false }), ["叉 需要打开 z"]);
  assert.deepEqual(brokenConstraints("toy", { x: true, z: true }), []);
  I18N.setLang("en");
  assert.equal(gameName("toy"), "Toy");
  assert.equal(presetName("toy", "a"), "A");
  assert.equal(declarationName("toy", "declare"), "show");
  assert.equal(I18N.errorText({ code: "rules.invalid_option", params: { option: "y" }, message: "bad y" }), "Why: bad y");
  I18N.setLang("zh");
});

test("every fan of every game says what it is, in Chinese and English, from the schema", { skip: !schema && "no schema given" }, () => {
  setGames(schema);
  const CJK = /[\u3400-\u9fff]/;
  for (const v of gameIds()) {
    for (const name of Object.keys(schema[v].fan_labels)) {
      I18N.setLang("zh");
      assert.ok(CJK.test(fanHelp(v, name)), `${v} ${name}: no Chinese line`);
      I18N.setLang("en");
      const en = fanHelp(v, name);
      assert.ok(en && !CJK.test(en), `${v} ${name}: English line ${JSON.stringify(en)}`);
      assert.ok(!CJK.test(schema[v].fan_labels[name].en), `${v} ${name}: Chinese in its English name`);
    }
  }
  I18N.setLang("zh");
  assert.equal(fanHelp("no-such-game", "屁胡"), "");
});
