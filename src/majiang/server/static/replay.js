// A replay: the same table, with play/pause, step and speed, frame by frame as the server built them.
import { I18N, t } from "./i18n.js";
import { $, h, node, setHTML, setText, sync } from "./dom.js";
import { api } from "./protocol.js";
import { renderBoard } from "./table.js";
import { placeDock } from "./dock.js";
import { CODE_RE, botName, replayStep } from "./words.js";

// the open replay listens for this (the state's `replaying` says whether one is open)
const REDRAW = "majiang:redraw-replay";
/** Draw the open replay's current frame again (after a language change). */
export function redrawReplay() { window.dispatchEvent(new Event(REDRAW)); }
/** review.js, loaded when first asked for (with this module's fingerprint) */
const loaded = /** @type {{ review: any }} */ ({ review: null });

const svgIcon = (/** @type {string} */ d) => `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="${d}" fill="currentColor"/></svg>`;
/** @type {Record<string, string>} */
const ICONS = { first: svgIcon("M5 5h3v14H5zM20 5v14L9 12z"), prev: svgIcon("M18 5v14L7 12z"), play: svgIcon("M7 5v14l12-7z"),
  pause: svgIcon("M6 5h4v14H6zM14 5h4v14h-4z"), next: svgIcon("M6 5v14l11-7zM17 5h2v14h-2z"), last: svgIcon("M4 5v14l11-7zM16 5h3v14h-3z") };
// ---------------------------------------------------------------- replay: the same table, with play/pause, step and speed
/**
 * @param {string} code
 * @param {number} hand
 * @param {(e: any) => void} showError
 */
export async function openReplay(code, hand, showError) {
  document.body.classList.add("in-room");
  $("lobby").hidden = true; $("room").hidden = false;
  if (!CODE_RE.test(code) || !Number.isInteger(hand) || hand < 0) { showError(t("err_replay")); return; }
  let data;
  try { data = await api(`/api/rooms/${encodeURIComponent(code)}/games/${hand}/frames`); } catch (e) { showError(e); return; }
  let i = 0, speed = 1;
  /** @type {any} 复盘: the server's answer (progress, the review) or a refusal */
  let review = null;
  /** @type {any} */
  let timer = null;
  $("auto").hidden = true; $("hint-toggle").hidden = true;
  const last = data.frames.length - 1;
  const names = () => data.names.map(botName);  // "bot 2" is said in the page's language
  const label = (/** @type {any} */ f) => {
    const step = replayStep(f);
    if (!step) return t("deal");
    const who = names()[step.seat] || "";
    /** @type {Record<string, string>} */
    const words = { discard: t("a_discard"), win: t("a_win"), pong: t("a_pong"), kong: t("a_kong"), concealed_kong: t("a_concealed_kong"),
      added_kong: t("a_added_kong"), pass: t("a_pass"), declare: t("a_declare"), sing: t("a_sing"), exchange: t("a_exchange"), void: t("a_void") };
    const suit = step.suit ? I18N.suitName(step.suit) : "";
    return t("r_act", { who, a: `${words[step.type] || ""} ${step.tiles.length ? I18N.tilesWords(step.tiles) : suit}`.trim() });
  };
  const show = () => {
    const f = data.frames[i], v = f.view;
    // the step and what it shows first (a phone's width cuts the end), then which replay this is
    setHTML($("room-head"), h`<span class="step">${t("step", { i, n: last })}</span>: ${label(f)} · <b>${t("replay_title")}</b> · ${t("room")} <code>${code}</code> · ${t("hand_n", { n: hand + 1 })}`);
    const seat = review && review.seat || 0;
    renderBoard({ view: v, names: names(), totals: v.totals, mySeat: null, bottom: seat, live: false, legal: [] });
    sync($("actions"), [
      { key: "first", id: "rp-first", text: "|◀", aria: t("first"), run: () => { i = 0; show(); } },
      { key: "prev", id: "rp-prev", text: "◀", aria: t("prev"), run: () => { i = Math.max(0, i - 1); show(); } },
      { key: "play", id: "rp-play", text: timer ? "❚❚" : "▶", aria: timer ? t("pause") : t("play"), run: () => { if (timer) stop(); else play(); show(); } },
      { key: "next", id: "rp-next", text: "▶|", aria: t("next"), run: () => { i = Math.min(last, i + 1); show(); } },
      { key: "last", id: "rp-last", text: "⇥", aria: t("last"), run: () => { i = last; show(); } },
      { key: "speed", id: "rp-speed", text: `×${speed}`, aria: t("speed"), run: () => { speed = speed >= 4 ? 0.5 : speed * 2; if (timer) { stop(); play(); } show(); } },
      { key: "review", id: "rp-review", text: t("review"), aria: t("review"), run: askReview },
    ], (it) => { const b = node("button", "btn rp"); b.type = "button"; b.onclick = () => b._item.run(); return b; },
    (b, it) => {
      b._item = it; b.id = it.id; b.setAttribute("aria-label", it.aria); b.title = it.aria;
      if (it.key === "speed" || it.key === "review") setText(b, it.text);
      else { const icon = ICONS[it.key === "play" && timer ? "pause" : it.key]; if (b.dataset.icon !== icon) { b.dataset.icon = icon; b.innerHTML = icon; } }
    });
    let slider = $("rp-slider");
    if (!slider) {
      slider = node("input"); slider.type = "range"; slider.id = "rp-slider"; slider.min = "0"; slider.setAttribute("aria-label", t("step", { i: "", n: "" }));
      slider.oninput = () => { i = +slider.value; show(); };
      $("prompt").appendChild(slider);
    }
    slider.max = String(last); slider.value = String(i);
    $("hints").textContent = i === last ? data.settlement.payments.map((/** @type {{from: number, to: number, amount: number, reason: string}} */ p) => `${names()[p.from]} → ${names()[p.to]} ${p.amount} ${I18N.reasonName(p.reason)}`).join(" · ") || t("drawn_hand") : "";
    if (review && loaded.review) loaded.review.draw(review, i, last, names()[seat], { jump: (/** @type {number} */ f) => { stop(); i = f; show(); }, retry: askReview });
    placeDock();  // the controls above the bottom seat, as a player's buttons are: never over its discards
  };
  const askReview = async () => {
    if (review && /done|queued|running/.test(review.status)) return;
    review = { status: "queued" };
    try {
      loaded.review = loaded.review || await import("./review.js" + new URL(import.meta.url).search);
      show();
      review = await loaded.review.fetchReview(code, hand, (/** @type {any} */ p) => { review = p; show(); });
      if (review.review && review.review.decisions.length) { stop(); i = review.review.decisions[0].frame; }
    } catch (e) { review = { status: "refused", refusal: e }; if (!loaded.review) showError(e); }
    show();
  };
  const stop = () => { clearInterval(timer); timer = null; };
  const play = () => { timer = setInterval(() => { if (i >= last) { stop(); show(); return; } i += 1; show(); }, 900 / speed); };
  window.addEventListener(REDRAW, show);
  if (loaded.review) loaded.review.hideReview();
  show();
  if (/[?&]review=1/.test(location.search)) askReview();
  addEventListener("resize", () => placeDock());
}
