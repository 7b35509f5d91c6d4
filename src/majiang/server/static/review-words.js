// 复盘's words (Chinese first, English complete) and how a review's numbers and actions are said. No
// DOM: node's tests import it as it is. Loaded with the review (review.js), not with the page: a
// first visit never needs them.
import { I18N, t } from "./i18n.js";
import { splitTiles } from "./words.js";

/** @type {Record<string, Record<string, string>>} */
export const WORDS = {
  zh: {
    title: "复盘 · {who}", queued: "排队中 (前面还有 {n} 个)…", running: "计算中… {s}秒 (你的 {n} 个决定)", waiting: "牌桌正忙, 等空闲时再算… {s}秒 (你的 {n} 个决定)", retry: "重试",
    match: "一致率 {p}", loss: "期望损失 {x} ±{e} 分", costliest: "损失最大:", step: "第{i}步 −{x}",
    sev_none: "无损失", sev_small: "小失误", sev_big: "大失误", you: "你", best: "推荐",
    played: "你: {a}", same: "和复盘一致", best_is: "复盘: {a}", cost: "损失 {x} ±{e} 分",
    options: "各选项的期望得分 (本局到结束)", prev: "上一个决定", next: "下一个决定", hide: "收起", show: "展开",
    not_decision: "这一步不是你的决定: 点时间轴上的彩色标记, 或「下一个决定」",
    none_reviewed: "这一局你没有需要选择的决定",
    strength: "复盘者: 大师 (expert) 的搜索, 每个决定抽样 {n} 次, 只用你当时看得到的信息, 每个选项由普通机器人打到本局结束; 差距在噪声 (两倍标准误) 以内不算损失, 损失 1 分以上为大失误。大师的实测 (每局得分, 95% 区间, 同桌对局): 卡五星 +0.69 [0.41, 0.97] (高手 +0.37 [0.19, 0.55]); 四川 +2.14 [1.57, 2.72] (高手 +1.69 [1.42, 1.96]); 单对高手: 卡五星领先 +0.12 [0.02, 0.21], 四川持平。",
  },
  en: {
    title: "Review · {who}", queued: "Queued ({n} ahead)…", running: "Reviewing… {s} s ({n} decisions of yours)", waiting: "Waiting while the tables in play come first… {s} s ({n} decisions of yours)", retry: "Try again",
    match: "Agreement {p}", loss: "Expected loss {x} ±{e} points", costliest: "Costliest:", step: "step {i} −{x}",
    sev_none: "no loss", sev_small: "small loss", sev_big: "big loss", you: "you", best: "best",
    played: "You: {a}", same: "as the reviewer", best_is: "Reviewer: {a}", cost: "cost {x} ±{e} points",
    options: "Expected points of the top options (to the end of the hand)", prev: "Previous decision", next: "Next decision",
    hide: "Hide", show: "Show",
    not_decision: "Not your decision here: tap a coloured mark on the timeline, or Next decision",
    none_reviewed: "You had no decision with a choice in this hand",
    strength: "Reviewer: the expert (大师) search, {n} samples a decision, from only what you could see then, every option played to the end of the hand by greedy bots; a difference within its noise (two standard errors) costs nothing, a loss of 1 point or more is big. The expert measured (points a hand, 95% intervals, at one table): Kawuxing +0.69 [0.41, 0.97] (strong +0.37 [0.19, 0.55]); Sichuan +2.14 [1.57, 2.72] (strong +1.69 [1.42, 1.96]); against strong alone +0.12 [0.02, 0.21] in Kawuxing, level in Sichuan.",
  },
};

/**
 * A word of the review in the page's language ({name} filled from params).
 * @param {string} key @param {Record<string, any>} [params]
 */
export function say(key, params) {
  const s = WORDS[I18N.lang === "en" ? "en" : "zh"][key];
  return s == null ? key : s.replace(/\{(\w+)\}/g, (_, k) => (params && params[k] != null ? String(params[k]) : ""));
}

/** Points as the review says them: two decimals, a sign where asked. @param {number} x @param {boolean} [sign] */
export function pts(x, sign = false) { return (sign && x > 0 ? "+" : "") + (Math.round(x * 100) / 100).toFixed(2); }

/**
 * An action as the library writes it ("discard 5p", "exchange 1m2m3m", "void m", "pass") in the
 * page's language: 打 五筒.
 * @param {string} text
 */
export function actionWords(text) {
  const [type, arg] = String(text || "").split(/\s+/, 2);
  const verb = t("a_" + type);
  const name = verb === "a_" + type ? type : verb;
  if (!arg) return name;
  if (/^[mps]$/.test(arg)) return `${name} ${I18N.suitName(arg)}`;
  const tiles = splitTiles(arg);
  return `${name} ${tiles.length > 1 ? I18N.tilesWords(tiles) : I18N.tileName(tiles[0] || arg)}`;
}

/** The three costliest decisions, costliest first. @param {any} review @returns {any[]} */
export function costliest(review) {
  return review.decisions.filter((/** @type {any} */ d) => d.loss > 0).sort((/** @type {any} */ a, /** @type {any} */ b) => b.loss - a.loss).slice(0, 3);
}
