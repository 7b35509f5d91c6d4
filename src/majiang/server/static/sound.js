// Sound effects synthesised here with Web Audio (no recordings): a tile click, calls, a win, your turn.
// Calls (碰, 杠, 胡 …) are spoken by the browser's own speech synthesis when it has a Chinese voice.
// Muting silences both and is remembered in this browser.
// The audio starts only after the player's first tap or key: a context made or resumed before that is
// refused, with a console warning for every sound (a page reloaded, a link opened at a table).
// the mute switch: a setting of this browser's speaker, read wherever a sound is played (the one
// module-level `let` of this module: tests/page/test_page_js.py lists it)
let muted = localStorage.getItem("majiang.mute") === "1";
// the audio context, made at the first sound once the player has tapped (and kept: one per page)
const speaker = (() => {
  /** @type {AudioContext | null} */
  let ctx = null;
  let gestured = false;
  return {
    /** The player's tap or key: the context may start from now on. */
    allow() { gestured = true; },
    /** The context, running; null before the player's first tap, or without Web Audio. @returns {AudioContext | null} */
    get() {
      const nav = /** @type {any} */ (navigator);
      if (!gestured && !(nav.userActivation && nav.userActivation.hasBeenActive)) return null;
      if (!ctx) {
        const AC = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
        if (!AC) return null;
        const made = new AC();
        ctx = made;
        const shown = () => { document.documentElement.dataset.audio = made.state; };  // tests read it
        made.onstatechange = shown;
        shown();
      }
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      return ctx;
    },
  };
})();
const audio = () => speaker.get();
/** @param {number} freq @param {number} start @param {number} dur @param {OscillatorType} [type] @param {number} [gain] @param {number} [slide] */
function tone(freq, start, dur, type = "sine", gain = 0.18, slide = 0) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + start;
  const o = a.createOscillator(), g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  if (slide) o.frequency.exponentialRampToValueAtTime(freq * slide, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(a.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.02);
}
function click() {  // a tile set down: a short filtered noise burst
  const a = audio();
  if (!a) return;
  const len = Math.floor(a.sampleRate * 0.05), buf = a.createBuffer(1, len, a.sampleRate), d = buf.getChannelData(0);
  for (let i = 0; i < len; i++) d[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 4);
  const src = a.createBufferSource(), f = a.createBiquadFilter(), g = a.createGain();
  src.buffer = buf; f.type = "bandpass"; f.frequency.value = 2400; g.gain.value = 0.7;
  src.connect(f).connect(g).connect(a.destination);
  src.start();
}
/** @type {Record<string, () => void>} */
const SOUNDS = {
  discard: () => { click(); tone(900, 0, 0.06, "triangle", 0.08); },
  pong: () => { tone(520, 0, 0.12, "square", 0.08); tone(660, 0.1, 0.16, "square", 0.08); },
  kong: () => { tone(440, 0, 0.1, "sawtooth", 0.07); tone(554, 0.09, 0.1, "sawtooth", 0.07); tone(659, 0.18, 0.2, "sawtooth", 0.07); },
  win: () => { [523, 659, 784, 1046].forEach((f, i) => tone(f, i * 0.09, 0.35, "triangle", 0.15)); },
  turn: () => { tone(1320, 0, 0.12, "sine", 0.1); tone(1760, 0.08, 0.18, "sine", 0.08); },
  draw: () => { tone(300, 0, 0.05, "triangle", 0.06, 1.6); },
  declare: () => { [392, 523, 659].forEach((f, i) => tone(f, i * 0.07, 0.3, "triangle", 0.1)); },
};
// a Chinese voice of the browser's speech synthesis, or null (none installed, or not listed yet)
function chineseVoice() {
  const synth = window.speechSynthesis;
  if (!synth || typeof window.SpeechSynthesisUtterance !== "function") return null;
  const voices = synth.getVoices() || [];
  return voices.find((x) => /^zh[-_]CN/i.test(x.lang)) || voices.find((x) => /^zh/i.test(x.lang)) || null;
}
try { if (window.speechSynthesis) window.speechSynthesis.getVoices(); } catch (e) { /* Chromium loads its list on the first ask */ }
// the last sounds played, newest last, on <html data-sounds> (a page's own record; tests read it)
/** @type {string[]} */
const played = [];
/** @param {string} name */
function note(name) {
  played.push(name);
  if (played.length > 24) played.shift();
  const d = document.documentElement.dataset;
  d.sounds = played.join(" ");
  d.soundCount = String(+(d.soundCount || 0) + 1);
}
export const Sound = {
  /** @param {string} name */
  play(name) {
    if (muted || !SOUNDS[name]) return;
    note(name);
    try { SOUNDS[name](); } catch (e) { /* no audio device */ }
  },
  // speak a call in Chinese, or play the named sound where no Chinese voice is present
  /** @param {string} text @param {string} fallback */
  say(text, fallback) {
    if (muted) return;
    const voice = chineseVoice();
    if (!voice) { this.play(fallback); return; }
    note("say");
    try {
      const u = new SpeechSynthesisUtterance(text);
      u.lang = "zh-CN"; u.rate = 1.15;
      try { u.voice = voice; } catch (e) { /* a voice list of plain objects: the language is enough */ }
      window.speechSynthesis.cancel();  // a call is news only now: never queue behind an older one
      window.speechSynthesis.speak(u);
    } catch (e) { this.play(fallback); }
  },
  get muted() { return muted; },
  /** @param {boolean} m */
  setMuted(m) {
    muted = !!m; localStorage.setItem("majiang.mute", muted ? "1" : "0");
    try { if (muted && window.speechSynthesis) window.speechSynthesis.cancel(); } catch (e) { /* no speech */ }
  },
  /** The player's tap or key: the audio may start now (muted, it starts with the first sound). */
  unlock() { speaker.allow(); if (!muted) audio(); },
};
