// Words for the buttons: each button of the header, the table's bar and the dock says what it does
// (a tooltip, and the accessible name after its words), and a help sheet lists them, with the
// keyboard's shortcuts on a computer (a fine pointer) only.
import { $, h, setHTML } from "./dom.js";
import { t } from "./i18n.js";
import { labelButton } from "./dock.js";
import { shortcutRows } from "./words.js";

// the buttons that stay on the page, by id: the tooltip's key
const STATIC_TIPS = { lang: "tip_lang", mute: "tip_mute", "help-btn": "tip_help", "hint-toggle": "tip_hint", auto: "tip_auto",
  "chat-btn": "tip_chat", dissolve: "tip_dissolve", leave: "tip_leave" };
// the help sheet's rows: a button's words, what it does
const SHEET = [["a_win", "tip_win"], ["a_zimo", "tip_zimo"], ["a_pong", "tip_pong"], ["a_kong", "tip_kong"], ["a_concealed_kong", "tip_concealed_kong"],
  ["a_added_kong", "tip_added_kong"], ["a_pass", "tip_pass"], ["a_declare", "tip_declare"], ["a_sing", "tip_sing"],
  ["hint", "tip_hint"], ["auto", "tip_auto"], ["chat", "tip_chat"], ["dissolve", "tip_dissolve"], ["leave", "tip_leave"],
  ["ready", "tip_ready"], ["settlement", "tip_settle"], ["rematch", "tip_rematch"], ["mute", "tip_mute"]];

/** Whether the page is used with a mouse (keys and their labels are shown then, never on touch). */
export function finePointer() { return typeof matchMedia === "function" && matchMedia("(pointer: fine)").matches; }

/** Each static button's tooltip and accessible name, in the page's language (its words kept first). */
export function tipButtons() {
  for (const [id, key] of Object.entries(STATIC_TIPS)) {
    const b = $(id);
    if (!b) continue;
    const words = (b.querySelector(".words") || b).textContent || "";
    b.title = t(key);
    b.setAttribute("aria-label", id === "help-btn" ? `${words} ${t("help")}: ${t(key)}` : `${words}: ${t(key)}`);  // "?" says "help" too
  }
  // the lobby's two inputs without a visible label are named in the page's language too
  for (const [id, key] of [["name", "your_name"], ["code", "code_ph"]]) { const e = $(id); if (e) e.setAttribute("aria-label", t(key)); }
}

/** Open the help sheet (written in the page's language each time it opens). */
export function openHelp() {
  const keys = finePointer() ? h`<h3>${t("help_keys")}</h3><table class="help-keys">${shortcutRows().map(([k, what]) => h`<tr><td><kbd>${k}</kbd></td><td>${what}</td></tr>`)}</table><h3>${t("help_buttons")}</h3>` : "";
  setHTML($("help-body"), h`<h2 id="help-h">${t("help_title")}</h2>
    ${keys}<dl class="help-list">${SHEET.map(([b, what]) => h`<div><dt>${t(b)}</dt><dd>${t(what)}</dd></div>`)}</dl>`);  // the keys first: a computer's player looks for them
  labelButton($("close-help"), t("close"), t("tip_close"));
  const d = /** @type {HTMLDialogElement} */ ($("help-dialog"));
  if (!d.open) d.showModal();
  d.scrollTop = 0;
}
