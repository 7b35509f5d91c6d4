// The games as the server declares them (/api/rules-schema, built from each game's own declaration):
// their names, presets, options and labels, who may sit, how a win is counted and what a declaration
// is called. The page names no game and keeps no rule's label of its own: a new game or option shows
// up here without a line of the page changing. No DOM.
import { api } from "./protocol.js";
import { I18N, nameOptions, t } from "./i18n.js";

/**
 * The declarations as /api/rules-schema sends them (majiang.server.schema.rules_schema), the parts the page reads.
 * @typedef {{zh: string, en: string}} Label
 * @typedef {import("./state.js").OptionValue} OptionValue
 * @typedef {{name: string, type: string, default: OptionValue, choices?: OptionValue[], choice_labels?: (Label | null)[],
 *   label?: Label, help?: Label}} GameOption
 * @typedef {{label: Label, options: GameOption[], presets: Record<string, Record<string, OptionValue>>,
 *   preset_labels?: Record<string, Label>, people?: number[], tiles?: number, fans_multiply?: boolean,
 *   declarations?: Record<string, Label>, fan_help?: Record<string, Label>, constraints?: {option: string, needs: string}[]}} Game
 */
/** @type {Map<string, Game>} the schema, by game id: the server's catalogue, replaced whole by setGames */
const declared = new Map();

/** Fetch the declarations once (the lobby's form and the table both read them). */
export async function loadGames() { setGames(await api("/api/rules-schema")); }
/** @param {Record<string, Game> | null} schema the schema as the server sends it (tests, or a page given it) */
export function setGames(schema) {
  declared.clear();
  for (const [id, g] of Object.entries(schema || {})) declared.set(id, g);
  nameOptions([...declared.values()].flatMap((g) => g.options || []));
}
/** @returns {string[]} */
export function gameIds() { return [...declared.keys()]; }
/** @param {string} v @returns {Game | null} */
export function game(v) { return declared.get(v) || null; }

/**
 * A declared label in the page's language (the schema's ``en`` holds no Chinese: tested).
 * @param {Label | undefined} l
 */
export function said(l) {
  if (!l) return "";
  return I18N.lang === "en" ? l.en : l.zh;
}
/** @param {string} v */
export function gameName(v) { const g = game(v); return g ? said(g.label) : v; }
/** @param {string} v @returns {string[]} */
export function presetIds(v) { const g = game(v); return g ? Object.keys(g.presets) : []; }
/** @param {string} v @param {string | null} p a room's preset (none: its options alone) */
export function presetName(v, p) { const g = game(v), l = p != null && g && g.preset_labels && g.preset_labels[p]; return l ? said(l) : p || ""; }
/** @param {GameOption} o an option of the schema */
export function optionName(o) { return o.label ? said(o.label) : o.name; }
/** @param {GameOption} o */
export function optionHelp(o) { return o.help ? (I18N.lang === "en" ? o.help.en : o.help.zh) : ""; }
/** @param {GameOption} o an option @param {OptionValue} value one of its choices */
export function choiceName(o, value) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  const i = (o.choices || []).findIndex((c) => c === value);
  const l = i >= 0 && o.choice_labels ? o.choice_labels[i] : null;
  if (l) return I18N.lang === "en" ? l.en : l.zh;
  return value === null ? t("none_opt") : String(value);
}
/** Whether a win is counted as a multiplier (×) rather than in 番. @param {string} v */
export function fansMultiply(v) { const g = game(v); return !!(g && g.fans_multiply); }
/**
 * What a fan is, in a line of the page's language (the game's fan table declares it), or "".
 * @param {string} v @param {string} name the fan's Chinese name
 */
export function fanHelp(v, name) {
  const g = game(v), l = g && g.fan_help && g.fan_help[name];
  return l ? (I18N.lang === "en" ? l.en : l.zh) : "";
}
/** The tiles of the game's wall before the deal (the table draws the wall's size from it), or 0 unknown. @param {string} v @returns {number} */
export function wallSize(v) { const g = game(v); return g && g.tiles ? g.tiles : 0; }
/** How many people a room of the game may seat. @param {string} v @returns {number[]} */
export function peopleChoices(v) { const g = game(v); return g && g.people ? g.people : []; }
/** What the game calls a declaration (`declare`, `sing`), in the page's language. @param {string} v @param {string} kind */
export function declarationName(v, kind) {
  const g = game(v), l = g && g.declarations && g.declarations[kind];
  return l ? said(l) : t("a_" + kind);
}
/** @param {string} v @param {string} kind */
export function declares(v, kind) { const g = game(v); return !!(g && g.declarations && g.declarations[kind]); }
/**
 * The declared constraints the chosen options break, said: "血流成河 needs 血战到底".
 * @param {string} v @param {Record<string, OptionValue>} values every option's effective value
 * @returns {string[]}
 */
export function brokenConstraints(v, values) {
  const g = game(v);
  if (!g) return [];
  const byName = Object.fromEntries(g.options.map((o) => [o.name, o]));
  return (g.constraints || []).filter((c) => values[c.option] && !values[c.needs])
    .map((c) => t("opt_needs", { a: byName[c.option] ? optionName(byName[c.option]) : c.option,
      b: byName[c.needs] ? optionName(byName[c.needs]) : c.needs }));
}
