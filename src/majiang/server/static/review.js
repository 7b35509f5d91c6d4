// 复盘: one's own decisions in a finished hand beside the reviewer's (server/reviews.py), drawn over
// the replay: coloured marks on the timeline (none / small / big cost), a header (agreement, the
// expected points given away, the three costliest decisions to jump to) and, at a decision, what was
// played, what the reviewer would play and the top options' expected points. Asked for once (POST),
// then polled (GET) while the server queues and computes it. Loaded only when a review is asked for
// (replay.js imports it then), with its words (review-words.js) and its look (review.css).
import { I18N, t } from "./i18n.js";
import { $, h, node, setHTML } from "./dom.js";
import { api } from "./protocol.js";
import { costliest, pts, actionWords, say } from "./review-words.js";

// the look, from the same fingerprint as this module (a file asked for with it is kept a year)
if (!document.getElementById("review-css")) {
  const link = node("link"); link.id = "review-css"; link.rel = "stylesheet";
  link.href = new URL("./review.css" + new URL(import.meta.url).search, import.meta.url).href;
  document.head.appendChild(link);
}

const POLL_MS = 2000;  // polls count as costly requests (the router allows an address 60 a minute)

/**
 * The review of one's own seat in a hand: asked for, then polled until done; `onProgress` is told
 * each state on the way ({status, ahead, seconds, decisions}). Throws the server's refusal.
 * @param {string} code @param {number} hand @param {(s: any) => void} onProgress
 * @returns {Promise<any>} the answer with status "done" (its `review`) or "failed" (its `error`)
 */
export async function fetchReview(code, hand, onProgress) {
  const path = `/api/rooms/${encodeURIComponent(code)}/games/${hand}/review`;
  let got = await api(path, "POST", {});
  while (got.status === "queued" || got.status === "running") {
    onProgress(got);
    await new Promise((r) => setTimeout(r, POLL_MS));
    got = await api(path);
  }
  return got;
}

/**
 * The marks of one's decisions along the timeline, each placed at its frame among `last` + 1 and
 * coloured by its cost; a tap jumps there.
 * @param {any} review @param {number} last the last frame's index @param {(frame: number) => void} jump
 */
export function drawMarks(review, last, jump) {
  let strip = $("rv-marks");
  if (!strip) {
    strip = node("div", "rv-marks"); strip.id = "rv-marks";
    const slider = $("rp-slider");
    slider.parentNode.insertBefore(strip, slider);
  }
  strip.replaceChildren(...review.decisions.map((/** @type {any} */ d) => {
    const b = node("button", `rv-mark sev-${d.severity}`);
    b.type = "button";
    b.style.left = `${(100 * d.frame) / Math.max(1, last)}%`;
    b.title = `${t("step", { i: d.frame, n: last })} · ${say("sev_" + d.severity)}`;
    b.setAttribute("aria-label", b.title);
    b.onclick = () => jump(d.frame);
    return b;
  }));
}

/**
 * The review's panel at frame `frame`: its header, then the decision made there (when one was).
 * @param {any} got the server's answer ({status, seat, review} or progress) @param {number} frame
 * @param {number} last @param {string} who the reviewed seat's name
 * @param {{jump: (frame: number) => void, retry: () => void}} on
 */
export function drawPanel(got, frame, last, who, on) {
  let panel = $("review-panel");
  if (!panel) {
    panel = node("aside", "review-panel"); panel.id = "review-panel";
    panel.setAttribute("aria-live", "polite");
    $("room").appendChild(panel);
  }
  panel.hidden = false;
  placePanel();
  const folded = panel.classList.contains("folded");
  const fold = h`<button type="button" class="tool rv-fold" aria-expanded="${folded ? "false" : "true"}">${folded ? say("show") : say("hide")}</button>`;
  if (got.status !== "done") {
    const line = got.status === "queued" ? say("queued", { n: got.ahead || 0 })
      : got.status === "running" ? say(got.waiting ? "waiting" : "running", { s: Math.round(got.seconds || 0), n: got.decisions || 0 })
        : got.status === "failed" ? I18N.errorText({ code: got.error, message: got.error }) : I18N.errorText(got.refusal);
    setHTML(panel, h`<div class="rv-head"><b>${t("review")}</b> <span class="rv-wait">${line}</span>${got.status === "failed" ? h` <button type="button" class="tool rv-retry">${say("retry")}</button>` : ""}</div>`);
    const retry = panel.querySelector(".rv-retry");
    if (retry) retry.onclick = on.retry;
    return;
  }
  const r = got.review, here = r.decisions.find((/** @type {any} */ d) => d.frame === frame);
  const counts = r.severities || {};
  const rate = r.match_rate == null ? "—" : `${Math.round(r.match_rate * 100)}%`;
  const top = costliest(r);
  const frames = r.decisions.map((/** @type {any} */ d) => d.frame);
  const prev = frames.filter((/** @type {number} */ f) => f < frame).pop(), next = frames.find((/** @type {number} */ f) => f > frame);
  const step = here ? decisionHTML(here) : h`<p class="rv-note">${r.decisions.length ? say("not_decision") : say("none_reviewed")}</p>`;
  setHTML(panel, h`<div class="rv-head"><b>${say("title", { who })}</b>${fold}</div>
    <div class="rv-body"><p class="rv-sum"><span>${say("match", { p: rate })}</span> · <span>${say("loss", { x: pts(r.total_loss), e: pts(r.total_loss_stderr || 0) })}</span> · <span class="sev-small">${say("sev_small")} ${counts.small || 0}</span> · <span class="sev-big">${say("sev_big")} ${counts.big || 0}</span></p>
    ${top.length ? h`<p class="rv-top">${say("costliest")} ${top.map((/** @type {any} */ d) => h`<button type="button" class="rv-jump sev-${d.severity}" data-frame="${d.frame}">${say("step", { i: d.frame, x: pts(d.loss) })}</button>`)}</p>` : ""}
    ${step}
    <p class="rv-nav"><button type="button" class="tool rv-jump" data-frame="${prev == null ? "" : prev}" ${prev == null ? "disabled" : ""}>◀ ${say("prev")}</button> <button type="button" class="tool rv-jump" data-frame="${next == null ? "" : next}" ${next == null ? "disabled" : ""}>${say("next")} ▶</button></p>
    <p class="rv-strength">${say("strength", { n: r.budget })}</p></div>`);
  panel.querySelectorAll(".rv-jump").forEach((/** @type {any} */ b) => { if (b.dataset.frame !== "") b.onclick = () => on.jump(+b.dataset.frame); });
  const f = panel.querySelector(".rv-fold");
  if (f) f.onclick = () => { panel.classList.toggle("folded"); drawPanel(got, frame, last, who, on); };
}

/**
 * The review over the replay at frame `frame`: the panel, and the timeline's marks once it is done.
 * @param {any} got @param {number} frame @param {number} last @param {string} who
 * @param {{jump: (frame: number) => void, retry: () => void}} on
 */
export function draw(got, frame, last, who, on) {
  drawPanel(got, frame, last, who || "", on);
  if (got.status === "done") drawMarks(got.review, last, on.jump);
}

/** One decision: what was played, the reviewer's best and the cost, and the top options. @param {any} d */
function decisionHTML(d) {
  const same = d.played === d.best;
  const rows = d.options.map((/** @type {any} */ o) => h`<tr class="${o.action === d.played ? "played" : ""} ${o.action === d.best ? "best" : ""}"><td>${actionWords(o.action)}${o.action === d.played ? h` <span class="rv-tag">${say("you")}</span>` : ""}${o.action === d.best ? h` <span class="rv-tag best">${say("best")}</span>` : ""}</td><td class="num">${pts(o.value, true)}</td><td class="num err">±${pts(o.stderr)}</td></tr>`);
  return h`<div class="rv-step sev-${d.severity}"><p><span class="rv-badge sev-${d.severity}">${say("sev_" + d.severity)}</span> ${say("played", { a: actionWords(d.played) })}${same ? h` · ${say("same")}` : h` · ${say("best_is", { a: actionWords(d.best) })}`}${d.loss > 0 ? h` · <b>${say("cost", { x: pts(d.loss), e: pts(d.loss_stderr) })}</b>` : ""}</p>
    <table class="rv-options"><caption>${say("options")}</caption>${rows}</table></div>`;
}

/** The panel just below the room's bar, however many lines it takes (a phone wraps it). */
function placePanel() {
  const panel = $("review-panel"), bar = $("room-bar");
  if (panel && bar) panel.style.setProperty("--rv-top", `${bar.offsetTop + bar.offsetHeight + 4}px`);
}
addEventListener("resize", placePanel);

/** The review's marks and panel gone (another replay, or none). */
export function hideReview() {
  const panel = $("review-panel"), strip = $("rv-marks");
  if (panel) panel.hidden = true;
  if (strip) strip.remove();
}
