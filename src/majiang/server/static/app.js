// The browser client: lobby, table, settlement and replay. All state comes from the server's snapshots.
// Values from outside (names, codes, messages, URL parameters) reach the page as text: either through
// textContent or through the escaping template `h`; the page's policy allows no inline script or style.
// The table is updated in place (keyed nodes), never rebuilt, so a press that spans an update is kept.
(function () {
  const $ = (id) => document.getElementById(id);
  const { t } = I18N;
  const tn = (x) => I18N.tileName(x);
  const CODE_RE = /^[A-Z0-9]{1,16}$/;  // six digits now; older rooms' letter codes still open
  const TILE_RE = /^[1-9][mps]$|^[5-7]z$/;
  const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  const reduced = () => !!(motionQuery && motionQuery.matches);  // asked live: the setting may change

  // ---------------------------------------------------------------- markup helpers
  function esc(v) {
    return String(v == null ? "" : v).replace(/[&<>"'`]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" })[c]);
  }
  function raw(s) { return { __html: String(s) }; }
  function h(strings, ...values) {
    let out = strings[0];
    values.forEach((v, i) => {
      const one = (x) => (x && typeof x === "object" && "__html" in x ? x.__html : esc(x));
      out += (Array.isArray(v) ? v.map(one).join("") : one(v)) + strings[i + 1];
    });
    return raw(out);
  }
  function setHTML(el, markup) { el.innerHTML = markup.__html; }
  function node(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function setText(e, s) { if (e.textContent !== s) e.textContent = s; }
  // Keyed reconciliation: reuse each child whose key is still wanted, create the missing, drop the rest.
  function sync(container, items, make, update) {
    const old = new Map();
    for (const c of Array.from(container.children)) old.set(c.dataset.key, c);
    let prev = null;
    for (const it of items) {
      let e = old.get(it.key);
      const fresh = !e;
      if (e) old.delete(it.key);
      else { e = make(it); e.dataset.key = it.key; }
      update(e, it, fresh);
      const want = prev ? prev.nextSibling : container.firstChild;
      if (e !== want) container.insertBefore(e, want);
      prev = e;
    }
    old.forEach((e) => e.remove());
  }
  function tileMarkup(tile) { return tileSVG(tile && TILE_RE.test(tile) ? tile : null); }
  function tileNode() { return node("span", "tile"); }
  function paintTile(e, tile) {  // set the art only when the tile changes
    const code = tile && TILE_RE.test(tile) ? tile : "";
    if (e.dataset.tile !== code || !e.firstChild) { e.dataset.tile = code; e.innerHTML = tileMarkup(code); }
    e.title = code ? tn(code) : "";
  }
  function tilesHTML(list, cls = "") { return raw(list.map((x) => `<span class="tile ${cls}">${tileMarkup(x)}</span>`).join("")); }
  function splitTiles(s) {
    const out = []; let digits = [];
    for (const ch of s || "") { if (/[0-9]/.test(ch)) digits.push(ch); else { digits.forEach((d) => out.push(d + ch)); digits = []; } }
    return out;
  }
  function keyed(list) { const seen = {}; return list.map((x) => { seen[x] = (seen[x] || 0) + 1; return { key: `${x}#${seen[x]}`, tile: x }; }); }
  function botName(name) {  // the server names empty seats "bot 2 (greedy)": say it in the page's language
    const m = /^bot (\d+)(?: \((random|greedy|strong)\))?$/.exec(name || "");
    return m ? `${t("bot")}${m[1]}${m[2] ? ` (${t("bot_" + m[2])})` : ""}` : name === "empty" ? t("empty") : name;
  }
  function namesOf(r) { return r.names.map((n, i) => (r.humans && r.humans[i] ? n : botName(n))); }
  function signed(n) { return (n > 0 ? "+" : "") + n; }
  function variantName(v) { return t(v === "kawuxing" ? "kawuxing" : "sichuan"); }

  // ---------------------------------------------------------------- state
  let me = null, ws = null, snap = null, roomCode = null, retry = 0, clockSkew = 0;
  let picked = [], pickedFor = "", selKey = null, prevView = null, showHints = localStorage.getItem("majiang.hints") === "1";
  let replay = null, schema = null, summaryFor = null, settleClosedFor = null;
  // how this page is in the room: "seated" (or kept a seat), "invite" (a visitor deciding), "watch"
  let mode = "seated", nextSeat = null, hintsSentOn = null, creating = null;

  async function api(path, method = "GET", body = null) {
    const res = await fetch(path, { method, credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : null });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || data.detail || res.statusText);
    return data;
  }
  function showError(msg) { $("error").textContent = I18N.errorText(msg); }
  function showLobbyError(msg) { $("lobby-error").textContent = I18N.errorText(msg); }

  // ---------------------------------------------------------------- language and sound toggles
  function applyStatic() {
    document.documentElement.lang = I18N.lang === "en" ? "en" : "zh-Hans";
    document.querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(e.dataset.t); });
    document.querySelectorAll("[data-ph]").forEach((e) => { e.placeholder = t(e.dataset.ph); });
    $("title-sub").textContent = t("title");
    $("lang").textContent = t("lang"); $("lang").setAttribute("aria-label", `${t("lang")} · ${t("lang_label")}`);
    $("mute").textContent = Sound.muted ? t("unmute") : t("mute");
    $("mute").setAttribute("aria-pressed", Sound.muted ? "true" : "false");
    $("hint-toggle").setAttribute("aria-pressed", showHints ? "true" : "false");
    $("hint-toggle").classList.toggle("on", showHints);
    [...$("variant").options].forEach((o) => { o.textContent = variantName(o.value); });
    fillPresets(true);
    renderOptions();
  }
  $("lang").onclick = () => {
    I18N.setLang(I18N.lang === "en" ? "zh" : "en");
    applyStatic(); loadHistory();
    if (replay) replay.show(); else if (snap) render();
  };
  $("mute").onclick = () => { Sound.setMuted(!Sound.muted); applyStatic(); Sound.play("turn"); };
  $("hint-toggle").onclick = () => {
    showHints = !showHints; localStorage.setItem("majiang.hints", showHints ? "1" : "0"); send({ type: "hints", on: showHints });
    applyStatic(); if (snap) render();
  };
  document.addEventListener("pointerdown", () => Sound.unlock(), { once: true });

  // ---------------------------------------------------------------- lobby: player, room form from the rules schema
  function renderMe() { $("me").textContent = me ? me.name : ""; if (me && !$("name").value) $("name").value = me.name; }
  function fillPresets(keep) {
    const v = $("variant").value, cur = $("preset").value;
    const names = schema ? Object.keys(schema[v].presets) : (v === "kawuxing" ? ["standard", "xiangyang", "suizhou"] : ["chengdu", "modern"]);
    $("preset").textContent = "";
    names.forEach((p) => { const o = node("option", "", I18N.presetName(p)); o.value = p; $("preset").appendChild(o); });
    if (keep && names.includes(cur)) $("preset").value = cur;
  }
  let optValues = {};
  function presetValues() { return schema ? schema[$("variant").value].presets[$("preset").value] || {} : {}; }
  function renderOptions() {
    const box = $("opt-fields");
    if (!schema) return;
    const sv = schema[$("variant").value];
    sync(box, sv.options.map((o) => ({ key: `${$("variant").value}.${o.name}`, o })), (it) => {
      const row = node("div", "opt");
      const lab = node("label"); lab.htmlFor = `opt-${it.o.name}`;
      const title = node("span", "opt-name"); lab.appendChild(title);
      let input;
      if (it.o.type === "bool") { input = node("input"); input.type = "checkbox"; }
      else { input = node("select"); }
      input.id = `opt-${it.o.name}`; input.dataset.opt = it.o.name;
      input.onchange = () => {
        const o = it.o;
        let val = o.type === "bool" ? input.checked : o.choices[+input.value];
        const pv = presetValues(), baseVal = o.name in pv ? pv[o.name] : o.default;
        if (JSON.stringify(val) === JSON.stringify(baseVal)) delete optValues[o.name];
        else optValues[o.name] = val;
        checkOptions();
      };
      const help = node("small", "opt-help");
      lab.appendChild(input); row.appendChild(lab); row.appendChild(help);
      return row;
    }, (row, it) => {
      const o = it.o, input = row.querySelector("[data-opt]");
      setText(row.querySelector(".opt-name"), I18N.optLabel(o.name));
      setText(row.querySelector(".opt-help"), I18N.optHelp(o.name));
      const cur = o.name in optValues ? optValues[o.name] : (o.name in presetValues() ? presetValues()[o.name] : o.default);
      if (o.type === "bool") input.checked = !!cur;
      else {
        input.textContent = "";
        o.choices.forEach((c, i) => { const op = node("option", "", I18N.choiceName(c)); op.value = String(i); input.appendChild(op); });
        input.value = String(Math.max(0, o.choices.findIndex((c) => c === cur)));
      }
    });
    checkOptions();
  }
  function effective() {
    const out = {};
    const sv = schema[$("variant").value], base = presetValues();
    sv.options.forEach((o) => { out[o.name] = o.name in optValues ? optValues[o.name] : (o.name in base ? base[o.name] : o.default); });
    return out;
  }
  function checkOptions() {  // combinations the rules refuse, explained before the server is asked
    if (!schema) return true;
    const e = effective(), msgs = [];
    if ($("variant").value === "sichuan" && e.blood_river && !e.blood_battle) {
      msgs.push(I18N.lang === "en" ? "血流成河 (blood river) needs 血战到底 (blood battle) on" : "血流成河 需要打开 血战到底");
    }
    $("create-error").textContent = msgs.length ? t("opt_invalid", { m: msgs.join("; ") }) : "";
    $("create").disabled = msgs.length > 0;
    return !msgs.length;
  }
  async function loadSchema() {
    try { schema = await api("/api/rules-schema"); } catch (e) { schema = null; }
    fillPresets(true); renderOptions();
  }
  const showPeople = () => { $("people-field").hidden = $("variant").value !== "kawuxing"; };  // four friends: Kawuxing only
  $("variant").onchange = () => { optValues = {}; fillPresets(false); renderOptions(); showPeople(); };
  showPeople();
  $("preset").onchange = () => { optValues = {}; renderOptions(); };

  async function loadMe() {
    const old = localStorage.getItem("majiang.token");  // earlier versions kept the token here
    if (old) {
      try { me = await api("/api/session", "POST", { token: old }); } catch (e) { /* an unknown token */ }
      localStorage.removeItem("majiang.token"); localStorage.removeItem("majiang.me");
    }
    if (!me) { try { const r = await api("/api/me"); me = r.id ? r : null; } catch (e) { me = null; } }
    renderMe();
  }
  async function ensurePlayer() {
    if (me) return;
    const name = $("name").value.trim() || t("default_name", { n: String(Math.floor(1000 + Math.random() * 9000)) });
    const p = await api("/api/players", "POST", { name });
    me = { id: p.id, name: p.name };
    renderMe();
  }
  async function loadTables() {  // 回到牌桌: the unfinished tables you are seated at, first in the lobby
    if (!me) { $("back-card").hidden = true; return; }
    let rows = [];
    try { rows = await api("/api/tables"); } catch (e) { rows = []; }
    $("back-card").hidden = !rows.length;
    sync($("back-list"), rows.map((r) => ({ key: r.room, r })), () => { const b = node("button", "btn primary back-go"); b.type = "button"; b.onclick = () => b._go(); return b; },
      (b, it) => { b._go = () => joinAndOpen(it.r.room); setText(b, `${t("back_go")} · ${t("back_row", { g: variantName(it.r.variant), c: it.r.room, s: t("status_" + it.r.status) })}`); });
  }
  async function loadHistory() {
    if (!me) return;
    try {
      const rows = await api("/api/history");
      if (!rows.length) { $("history").textContent = t("no_history"); return; }
      setHTML($("history"), h`${rows.map((r) => {
        const mine = r.totals[r.seat] || 0;
        const others = r.names.filter((_, i) => i !== r.seat).map((n) => n || t("bot")).join(", ");
        const when = new Date(r.created * 1000).toLocaleString(I18N.lang === "en" ? "en" : "zh-CN", { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit" });
        const res = mine > 0 ? t("result_win") : mine < 0 ? t("result_lose") : t("result_even");
        return h`<div class="hist"><div><a href="/?room=${r.room}">${r.room}</a> <span class="hist-game">${variantName(r.variant)}</span> <span class="hist-when">${when}</span> · ${t("status_" + r.status)}</div>
          <div class="hist-who">${others}</div><div><b class="${mine >= 0 ? "pos" : "neg"}">${res} ${signed(mine)}</b> · ${r.hands}/${r.match_hands} ${Array.from({ length: r.hands }, (_, k) => h` <a class="rp" href="/?replay=${r.room}&amp;hand=${k}">${t("replay")} ${k + 1}</a>`)}</div></div>`;
      })}`);
    } catch (e) { /* a fresh player has no history */ }
  }
  $("save-name").onclick = async () => {
    try {
      if (me) { me = await api("/api/me", "POST", { name: $("name").value }); renderMe(); }
      else { await ensurePlayer(); }
      loadHistory();
    } catch (e) { showLobbyError(e.message); }
  };
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  $("create").onclick = async () => {
    if (creating || !checkOptions()) return;  // a double tap makes one room (and the server checks the key too)
    creating = creating || newKey();
    $("create").disabled = true;
    try {
      await ensurePlayer();
      const turn = +$("turn-seconds").value;
      const four = $("variant").value === "kawuxing" && $("people").value !== "3";
      const r = await api("/api/rooms", "POST", { create_key: creating, variant: $("variant").value, preset: $("preset").value,
        ...(four ? { people: 4, sit_out: $("people").value } : {}),
        bots: $("bots").value, hands: +$("hands").value, stake: +$("stake").value,
        options: Object.fromEntries(Object.entries(optValues).map(([k, x]) => [k, x === null ? "none" : x])),
        timers: { turn_seconds: turn, claim_seconds: Math.max(3, Math.round(turn / 2)) } });
      openRoom(r.code);
    } catch (e) { $("create-error").textContent = /option|blood/.test(e.message) ? t("opt_invalid", { m: I18N.errorText(e.message) }) : I18N.errorText(e.message); }
    finally { creating = null; $("create").disabled = false; }
  };
  async function joinAndOpen(code) {  // take (or find again) one's seat, then open the table
    const r = await api(`/api/rooms/${encodeURIComponent(code)}/join`, "POST");
    nextSeat = r.next_hand ? r.seat : null;
    openRoom(code, "seated");
  }
  $("join").onclick = async () => {
    try { await ensurePlayer(); await joinAndOpen($("code").value.trim().toUpperCase()); }
    catch (e) { showLobbyError(e.message); }
  };
  $("watch").onclick = () => openRoom($("code").value.trim().toUpperCase(), "watch");

  // ---------------------------------------------------------------- room connection
  function openRoom(code, how = "seated") {
    if (!CODE_RE.test(code)) { showLobbyError(t("err_code")); return; }
    roomCode = code; mode = how;
    history.replaceState(null, "", `/?room=${encodeURIComponent(code)}`);
    document.body.classList.add("in-room");
    $("lobby").hidden = true; $("room").hidden = false;
    connect();
  }
  function reconnect() { if (ws) { ws.onclose = null; ws.close(); } snap = null; connect(); }
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(roomCode)}?patches=1`);
    ws.onmessage = (ev) => {
      let msg = JSON.parse(ev.data);
      if (msg.type === "patch" && snap) msg = { ...applyPatch(snap, msg.patch), now: msg.now };  // only what changed
      if (msg.type === "snapshot") {
        if (msg.now) clockSkew = msg.now - Date.now();
        const key = pickKey(msg);
        if (key !== pickedFor) { picked = []; pickedFor = key; }
        snap = msg; retry = 0; showError("");
        if (snap.seat != null) { mode = "seated"; nextSeat = null; }
        if (snap.seat != null && hintsSentOn !== ws) { hintsSentOn = ws; send({ type: "hints", on: showHints }); }  // computed only when shown
        render();
        document.body.dataset.frames = String(+(document.body.dataset.frames || 0) + 1);  // for tests: updates seen
      } else if (msg.type === "chat") showChat(msg);
      else if (msg.type === "error") showError(msg.message);
    };
    ws.onclose = () => { setTimeout(connect, Math.min(5000, 500 * ++retry)); };
  }
  // The server's patches (views.diff): objects key by key ("~" lists keys gone), equal-length lists
  // item by item ("[]"), anything else replaced. The old snapshot is never changed in place.
  function applyPatch(old, change) {
    const isObj = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
    if (Array.isArray(old) && isObj(change) && "[]" in change) {
      const out = old.slice();
      for (const [i, v] of Object.entries(change["[]"])) out[+i] = applyPatch(old[+i], v);
      return out;
    }
    if (!isObj(old) || !isObj(change)) return change;
    const out = { ...old };
    for (const k of change["~"] || []) delete out[k];
    for (const [k, v] of Object.entries(change)) if (k !== "~") out[k] = k in old ? applyPatch(old[k], v) : v;
    return out;
  }
  function pickKey(m) {
    const v = m.view, mine = v && m.seat != null ? v.players[m.seat] : null;
    return mine ? `${m.room.hand_index}|${v.phase}|${mine.hand}` : "";
  }
  function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
  function act(action) { selKey = null; send({ type: "action", seq: snap.seq, action }); }

  // ---------------------------------------------------------------- the table (live and replay)
  const POS = { 4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "left"], 2: ["bottom", "top"] };
  function ensureBoard(n, bottom) {
    const board = $("table");
    const layout = `${n}|${bottom}`;
    if (board.dataset.layout === layout) return board;
    board.dataset.layout = layout; board.textContent = ""; prevView = null;
    board.className = `board n${n}`;
    const center = node("div", "center");
    center.innerHTML = '<div class="arrow"></div><svg class="ring" viewBox="0 0 40 40" aria-hidden="true"><circle class="ring-bg" cx="20" cy="20" r="16"/><circle class="ring-fg" cx="20" cy="20" r="16" stroke-dasharray="100.5" stroke-dashoffset="0"/></svg>';
    center.appendChild(node("div", "secs"));
    center.appendChild(node("div", "wall"));
    center.appendChild(node("div", "wall-edge"));
    center.appendChild(node("div", "dealer-name"));
    center.appendChild(node("div", "dice"));
    center.appendChild(node("div", "phase"));
    board.appendChild(center);
    for (let d = 0; d < n; d++) {
      const s = (bottom + d) % n;
      const seat = node("div", `seat pos-${POS[n][d]}`);
      seat.dataset.seat = String(s);
      const who = node("div", "who");
      who.appendChild(node("span", "avatar")); who.appendChild(node("span", "name")); who.appendChild(node("span", "badges")); who.appendChild(node("span", "score"));
      const row = node("div", "row hand");
      row.appendChild(node("span", "concealed")); row.appendChild(node("span", "drawn")); row.appendChild(node("span", "melds")); row.appendChild(node("span", "wins"));
      seat.appendChild(who); seat.appendChild(row); seat.appendChild(node("div", "waits")); seat.appendChild(node("div", "pond"));
      seat.appendChild(node("div", "call"));
      seat.appendChild(node("div", "bubble"));
      board.appendChild(seat);
    }
    return board;
  }
  function drawDice(e, dice) {
    const key = (dice || []).join(",");
    if (e.dataset.key === key) return;
    e.dataset.key = key;
    const PIPS = { 1: [[10, 10]], 2: [[5, 5], [15, 15]], 3: [[5, 5], [10, 10], [15, 15]], 4: [[5, 5], [15, 5], [5, 15], [15, 15]],
      5: [[5, 5], [15, 5], [10, 10], [5, 15], [15, 15]], 6: [[5, 5], [15, 5], [5, 10], [15, 10], [5, 15], [15, 15]] };
    e.innerHTML = (dice || []).filter((d) => d >= 1 && d <= 6).map((d) => `<svg viewBox="0 0 20 20" class="die" aria-hidden="true"><rect x="1" y="1" width="18" height="18" rx="4" fill="#fbf8ef"/>${PIPS[d].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2" fill="${d === 1 || d === 4 ? "#b3261e" : "#222"}"/>`).join("")}</svg>`).join("");
  }
  // A seat's avatar, generated: the name's initials (a Chinese name's first character) in a circle of a
  // colour taken from the name, the same at every table; a bot's seat shows its number.
  const AVATAR_COLOURS = 8;  // .avatar.c0 … .c7 in style.css
  function paintAvatar(e, name, bot) {
    const trimmed = name.trim();
    let text = "?";
    if (bot && /\d/.test(trimmed)) text = trimmed.match(/\d/)[0];
    else if (/^[\u3400-\u9fff]/.test(trimmed)) text = trimmed[0];
    else if (trimmed) text = trimmed.split(/[\s._-]+/).filter(Boolean).slice(0, 2).map((w) => Array.from(w)[0]).join("").toUpperCase();
    let hash = 0;
    for (const ch of trimmed) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
    const key = `${text}|${hash % AVATAR_COLOURS}|${bot ? 1 : 0}`;
    if (e.dataset.key === key) return;
    e.dataset.key = key;
    e.textContent = text;
    e.className = `avatar c${hash % AVATAR_COLOURS}` + (bot ? " bot" : "");
    e.setAttribute("aria-hidden", "true");
  }
  // The wall on the table's edge: a row of tile backs, each a share of the wall as dealt, emptying as it is drawn.
  let wallFull = 1, wallLast = -1;
  function drawWall(e, left) {
    const slots = 18;
    if (left > wallLast || !e.firstChild) wallFull = Math.max(left, 1);  // a new hand (or a new board): the wall as dealt
    wallLast = left;
    const filled = Math.ceil((slots * left) / wallFull);
    if (e.dataset.key === String(filled)) return;
    e.dataset.key = String(filled);
    let out = "";
    for (let i = 0; i < slots; i++) out += `<rect x="${i * 6 + 0.5}" y="0.5" width="5" height="8" rx="1" class="${i < filled ? "w-on" : "w-off"}"/>`;
    e.innerHTML = `<svg viewBox="0 0 ${slots * 6} 9" aria-hidden="true">${out}</svg>`;
  }
  function tileItems(list, prefix) { return keyed(list).map((x) => ({ ...x, key: prefix + x.key })); }
  function syncTiles(container, items, decorate) {
    sync(container, items, () => tileNode(), (e, it, fresh) => {
      paintTile(e, it.tile);
      e.className = "tile" + (it.cls ? " " + it.cls : "") + (fresh && it.enter ? " enter" : "");
      if (decorate) decorate(e, it);
    });
  }

  // ctx: {view, names, totals, mySeat, bottom, auto, connected, humans, live, legal}
  function renderBoard(ctx) {
    const v = ctx.view, n = v.players.length;
    const board = ensureBoard(n, ctx.bottom);
    board.hidden = false;
    const prev = prevView && prevView.players.length === n ? prevView : null;
    const center = board.querySelector(".center");
    const acting = v.phase === "turn" || v.phase === "claim" || v.phase === "rob" ? v.current : null;
    const d = acting == null ? null : (acting - ctx.bottom + n) % n;
    center.querySelector(".arrow").className = "arrow" + (d == null ? "" : " to-" + POS[n][d]);
    setText(center.querySelector(".wall"), t("wall", { n: v.tiles_left }));
    drawWall(center.querySelector(".wall-edge"), v.tiles_left);
    setText(center.querySelector(".dealer-name"), `${t("dealer")}: ${ctx.names[v.dealer] || ""}`);
    drawDice(center.querySelector(".dice"), ctx.dice);
    setText(center.querySelector(".phase"), v.phase === "exchange" || v.phase === "void" ? t("phase_" + v.phase) : "");
    const lastSeat = v.last_discard ? v.last_discard.seat : null;
    const legal = ctx.legal || [];
    const discardable = new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
    const exchanging = legal.some((a) => a.type === "exchange");
    const hinted = showHints && ctx.hints && ctx.hints.discards ? ctx.hints.discards.filter((x) => discardable.has(x.tile)).map((x) => x.tile)[0] : null;
    v.players.forEach((p, s) => {
      const seat = board.querySelector(`.seat[data-seat="${s}"]`);
      const mine = ctx.live && s === ctx.mySeat;
      seat.classList.toggle("me", mine);
      seat.classList.toggle("turn", acting === s);
      seat.classList.toggle("out", !!p.out);
      seat.classList.toggle("dealer", s === v.dealer);
      setText(seat.querySelector(".name"), ctx.names[s] || "");
      paintAvatar(seat.querySelector(".avatar"), ctx.names[s] || "", ctx.humans ? !ctx.humans[s] : false);
      setText(seat.querySelector(".score"), signed(ctx.totals[s] || 0));
      seat.querySelector(".score").className = "score " + ((ctx.totals[s] || 0) >= 0 ? "pos" : "neg");
      const badges = [];
      if (s === v.dealer) badges.push({ key: "dealer", text: t("dealer"), cls: "b-dealer" });
      if (p.void) badges.push({ key: "void", text: t("void_badge", { s: I18N.suitName(p.void) }), cls: "b-void s-" + p.void });
      if (p.declared) badges.push({ key: "decl", text: t(p.declared), cls: "b-decl" });
      if (p.out) badges.push({ key: "out", text: t("out"), cls: "b-out" });
      if (ctx.auto && ctx.auto[s]) badges.push({ key: "auto", text: t("auto"), cls: "b-auto" });
      if (ctx.humans && ctx.humans[s] && ctx.connected && !ctx.connected[s]) badges.push({ key: "off", text: t("offline"), cls: "b-off" });
      sync(seat.querySelector(".badges"), badges, () => node("span"), (e, it) => { setText(e, it.text); e.className = "badge " + it.cls; });
      // the hand: one's own face up with the drawn tile apart; others face down or as the rules reveal them
      let concealed = [], drawn = [];
      const showAll = p.hand != null;
      if (showAll) {
        concealed = splitTiles(p.hand);
        if (mine && v.drawn && TILE_RE.test(v.drawn)) {
          const k = concealed.lastIndexOf(v.drawn);
          if (k >= 0) { concealed.splice(k, 1); drawn = [v.drawn]; }
        }
      }
      const small = !mine;
      let items;
      if (showAll) {
        items = tileItems(concealed, "h").map((it) => ({ ...it, cls: (small ? "small" : "") }));
      } else if (p.revealed && p.revealed.tiles) {
        const shown = splitTiles(p.revealed.tiles);
        items = tileItems(shown, "r").map((it) => ({ ...it, cls: "small shown" }))
          .concat(Array.from({ length: Math.max(0, p.tiles - shown.length) }, (_, i) => ({ key: "b" + i, tile: null, cls: "small back" })));
      } else {
        items = Array.from({ length: p.tiles }, (_, i) => ({ key: "b" + i, tile: null, cls: "small back" }));
      }
      const dItems = drawn.map((x) => ({ key: "d" + x, tile: x, cls: small ? "small" : "", enter: true }));
      if (mine) {
        const hintKey = hinted ? (items.concat(dItems).find((it) => it.tile === hinted) || {}).key : null;  // one tile marked
        const pick = (it) => {
          const can = exchanging || discardable.has(it.tile);
          // on one's turn the tiles that may not go (定缺 first) are dimmed
          it.cls = (can ? "click" : discardable.size ? "dim" : "") + (picked.includes(it.key) ? " picked" : "") + (selKey === it.key ? " sel" : "") + (hintKey === it.key ? " hinted" : "");
        };
        items.forEach(pick); dItems.forEach(pick);
      }
      // where a new discard comes from (FLIP): the tile's place in the hand before this update
      const flights = [];
      const from = prev && p.discards.length > prev.players[s].discards.length && !reduced() ? handRects(seat) : null;
      syncTiles(seat.querySelector(".concealed"), items);
      syncTiles(seat.querySelector(".drawn"), dItems);
      // melds
      const melds = p.melds.map((m, i) => ({ key: `${i}:${m.kind}:${m.tile}`, m, fresh: prev && i >= prev.players[s].melds.length }));
      sync(seat.querySelector(".melds"), melds, () => node("span", "meld"), (e, it, fresh) => {
        const m = it.m, count = m.kind === "pong" ? 3 : 4;
        const list = Array.from({ length: count }, (_, k) => (m.tile == null || (m.kind === "concealed_kong" && (k === 0 || k === 3)) ? null : m.tile));
        syncTiles(e, list.map((x, k) => ({ key: String(k), tile: x, cls: "small" + (x ? "" : " back") })));
        if (fresh && it.fresh && !reduced()) { e.classList.add("flash"); bump("claims"); }
      });
      // winning tiles (血战: the winners' tiles laid out)
      const won = (v.wins || []).filter((w) => w.seat === s).map((w, i) => ({ key: `w${i}${w.tile}`, tile: w.tile, cls: "small won" }));
      syncTiles(seat.querySelector(".wins"), won);
      // waits of a declared hand
      const waitsEl = seat.querySelector(".waits");
      const rv = p.revealed;
      const waits = rv && rv.waits && rv.waits.length ? rv.waits : [];
      if (waits.length || (rv && rv.hidden_triplets)) {
        const text = (waits.length ? `${t("waits")} ${I18N.tilesWords(waits)}` : "") + (rv.hidden_triplets ? " · " + t("hidden_triplets", { n: rv.hidden_triplets }) : "");
        if (waitsEl.dataset.key !== text) { waitsEl.dataset.key = text; waitsEl.textContent = text; }
      } else if (waitsEl.dataset.key) { waitsEl.dataset.key = ""; waitsEl.textContent = ""; }
      // the pond: discards in rows, the latest marked, claimed ones greyed
      const pcount = prev ? prev.players[s].discards.length : p.discards.length;
      const pond = p.discards.map((x, i) => ({ key: String(i), tile: x,
        cls: "small" + (p.claimed[i] ? " claimed" : "") + (lastSeat === s && i === p.discards.length - 1 ? " last" : ""),
        fly: i >= pcount }));
      syncTiles(seat.querySelector(".pond"), pond, (e, it) => { if (it.fly && !e.dataset.flown) { e.dataset.flown = "1"; flights.push({ e, tile: it.tile }); } });
      if (flights.length) fly(seat, flights, from);
      // feedback for what just happened at this seat
      if (prev && ctx.live) {
        const pp = prev.players[s];
        if (p.discards.length > pp.discards.length) Sound.play("discard");
        if (p.melds.length > pp.melds.length) announce(seat, p.melds[p.melds.length - 1].kind === "pong" ? "pong" : "kong");
        else if (p.melds.some((m, i) => pp.melds[i] && pp.melds[i].kind !== m.kind)) announce(seat, "kong");
        const wonBefore = (prev.wins || []).filter((w) => w.seat === s).length, wonNow = (v.wins || []).filter((w) => w.seat === s);
        if (wonNow.length > wonBefore) announce(seat, wonNow[wonNow.length - 1].self_draw ? "zimo" : "win");
        if (p.declared && !pp.declared && CALLS[p.declared]) announce(seat, p.declared);
      }
    });
    prevView = v;
  }
  // A discard flies from the hand to its pond: First and Last measured, Inverted by a transform, Played
  // by the Web Animations API (no inline style, no keyframes to write). Nothing moves under
  // prefers-reduced-motion. Counted on <html data-flights> (and data-claims) for the tests.
  function bump(what) { const d = document.documentElement.dataset; d[what] = String(+(d[what] || 0) + 1); }
  function handRects(seat) {
    const out = { row: seat.querySelector(".row.hand").getBoundingClientRect(), tiles: new Map() };
    seat.querySelectorAll(".concealed .tile, .drawn .tile").forEach((e) => out.tiles.set(e.dataset.key, { tile: e.dataset.tile, r: e.getBoundingClientRect() }));
    return out;
  }
  function fly(seat, flights, from) {
    if (!from || reduced() || typeof Element.prototype.animate !== "function") return;
    const still = new Set(Array.from(seat.querySelectorAll(".concealed .tile, .drawn .tile")).map((e) => e.dataset.key));
    flights.forEach(({ e, tile }) => {
      const last = e.getBoundingClientRect();
      if (!last.width) return;
      // one's own tile: the one that left the hand; another seat's: the middle of its hand
      let first = null;
      from.tiles.forEach((x, key) => { if (!first && !still.has(key) && x.tile === tile) first = x.r; });
      if (!first) from.tiles.forEach((x, key) => { if (!first && !still.has(key)) first = x.r; });
      const r = first || from.row;
      const dx = r.left + r.width / 2 - (last.left + last.width / 2), dy = r.top + r.height / 2 - (last.top + last.height / 2);
      const k = first ? Math.max(1, first.width / last.width) : 1.3;
      e.animate([{ transform: `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px) scale(${k.toFixed(2)})`, zIndex: 3 }, { transform: "none", zIndex: 3 }],
        { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
      e.dataset.flew = `${Math.round(dx)},${Math.round(dy)}`;  // where it came from, relative to where it lies
      bump("flights");
    });
  }
  function callout(seat, text, kind) {
    const c = seat.querySelector(".call");
    c.textContent = text;
    c.className = "call" + (kind ? " k-" + kind : "");
    void c.offsetWidth; c.classList.add("show");
    clearTimeout(c._t); c._t = setTimeout(() => c.classList.remove("show"), 1200);
  }
  // A claim, kong, win or declaration said at the caller's seat, as the apps do: the game's own word drawn
  // large there and spoken (sound.js: a zh-CN voice where the browser has one, else its synthesised
  // sound; 静音 silences both). Counted on <html data-callouts> for the tests.
  const CALLS = { pong: ["碰", "pong"], kong: ["杠", "kong"], win: ["胡", "win"], zimo: ["自摸", "win"],
    liangdao: ["亮倒", "declare"], sing: ["唱歌", "declare"], dance: ["跳舞", "declare"] };
  function announce(seat, kind) {
    const [word, sound] = CALLS[kind];
    callout(seat, word, kind);
    Sound.say(word, sound);
    bump("callouts");
  }

  // ---------------------------------------------------------------- live render
  const ACTION_ORDER = ["win", "concealed_kong", "added_kong", "kong", "pong", "declare", "sing", "pass"];
  function actionLabel(a, variant, legal) {
    if (a.type === "win") return legal.some((x) => x.type === "discard") ? t("a_zimo") : t("a_win");
    if (a.type === "declare") return t(variant === "sichuan" ? "a_dance" : "a_declare");
    return t("a_" + a.type);
  }
  // An invite link's visitor: who is at the table and a large 入座 first; watching is their choice.
  function freeSeats(r) { return r.humans.map((x, i) => (!x && !(r.joining && r.joining[i]) ? i : null)).filter((i) => i != null); }
  function renderInvite(r, show) {
    $("invite").hidden = !show;
    if (!show) return;
    const names = namesOf(r);
    const host = r.host_seat != null ? names[r.host_seat] : null;
    setText($("invite-title"), host ? t("invite_title", { host, g: variantName(r.variant) }) : t("invite_title_nohost", { c: r.code, g: variantName(r.variant) }));
    setText($("invite-rules"), `${t("room")} ${r.code} · ` + t("invite_rules", { p: I18N.presetName(r.preset), h: r.hands, s: r.stake }));
    const free = freeSeats(r);
    sync($("invite-seats"), names.map((n, i) => ({ key: String(i), n, i })), () => node("div", "invite-seat"), (e, it) => {
      const open = free.includes(it.i), kept = nextSeat === it.i;
      e.classList.toggle("free", open); e.classList.toggle("kept", kept);
      const tags = [it.i === r.host_seat ? t("host") : "", r.joining && r.joining[it.i] ? t("joining_tag", { n: r.joining[it.i] }) : ""].filter(Boolean).join(" · ");
      setText(e, `${t("seat_n", { n: it.i + 1 })} · ${open ? t("invite_free") : it.n}${tags ? " (" + tags + ")" : ""}`);
    });
    const waitingSeat = nextSeat != null;
    const benchFree = r.four && !r.resting && !free.length;  // four friends: the fourth sits out first
    const canSit = free.length || benchFree;
    $("invite-sit").hidden = waitingSeat || !canSit;
    setText($("invite-sit"), benchFree ? t("sit_bench") : t("sit"));
    $("invite-name-row").hidden = !!me || waitingSeat || !canSit;
    $("invite-watch").hidden = waitingSeat;
    $("invite-watch").classList.toggle("primary", !canSit);
    setText($("invite-note"), waitingSeat ? t("invite_next_wait", { n: nextSeat + 1 }) : benchFree ? t("bench_free") : !free.length ? t("invite_full")
      : r.status === "playing" ? t("invite_next", { n: free[0] + 1 }) : "");
  }
  $("invite-sit").onclick = async () => {
    const b = $("invite-sit");
    if (b.disabled) return;
    b.disabled = true;
    try {
      if (!me && $("invite-name").value.trim()) $("name").value = $("invite-name").value;
      await ensurePlayer();
      const r = await api(`/api/rooms/${encodeURIComponent(roomCode)}/join`, "POST");
      nextSeat = r.next_hand ? r.seat : null;
      mode = "seated";
      reconnect();  // the server sees who this page is now: the seat, or the seat kept for the next hand
    } catch (e) { setText($("invite-note"), I18N.errorText(e.message)); }
    finally { b.disabled = false; }
  };
  $("invite-watch").onclick = () => { mode = "watch"; if (snap) render(); };
  // sitting this hand out (a four-person room's bench): told so instead of "watching"
  function restingMe(r) { return !!(r.resting && me && snap && snap.seat == null && r.resting.name === me.name); }
  function render() {
    const r = snap.room, v = snap.view, mySeat = snap.seat;
    const watching = mySeat == null;
    const inviting = watching && (mode === "invite" || nextSeat != null);
    document.body.classList.toggle("watching", watching && !inviting && !restingMe(r));
    document.body.classList.toggle("inviting", inviting);
    renderInvite(r, inviting);
    const joining = (r.joining || []).map((n, i) => (n ? `${t("seat_n", { n: i + 1 })} ${n}` : null)).filter(Boolean);
    setHTML($("room-head"), h`<b>${variantName(r.variant)}</b> ${I18N.presetName(r.preset)} · ${t("room")} <code>${r.code}</code> · <span class="handno">${t("hand_of", { i: r.hand_index + 1, n: r.hands })}</span>${watching && !inviting && !restingMe(r) ? h` · <span class="watch-tag">${t("watching")}</span>` : ""}${!watching && r.auto[mySeat] ? h` · <span class="auto-tag">${t("auto_on")}</span>` : ""}${joining.length ? h` · <span class="join-tag">${t("joining_tag", { n: joining.join(", ") })}</span>` : ""}${r.resting && r.status !== "lobby" ? h` · <span class="rest-tag">${restingMe(r) ? t("resting_you", { s: signed(r.resting.total) }) : t("resting", { n: r.resting.name, s: signed(r.resting.total) })}</span>` : ""}`);
    $("auto").hidden = watching || r.status !== "playing";
    setText($("auto"), !watching && r.auto[mySeat] ? t("auto_off") : t("auto"));
    $("auto").classList.toggle("on", !watching && !!r.auto[mySeat]);
    $("waiting").hidden = r.status !== "lobby" || inviting;
    $("chat-btn").hidden = watching || r.status === "lobby";
    $("dissolve").hidden = watching || r.status !== "playing" || !!r.dissolve;
    if ($("chat-btn").hidden) $("chat-menu").hidden = true;
    renderVote(r, mySeat);
    if (r.status === "lobby" || !v) {
      if (r.status === "lobby") renderLobbyRoom(r, mySeat);
      $("table").hidden = true; $("actions").textContent = ""; $("hints").textContent = ""; $("prompt").textContent = "";
      return;
    }
    const legal = v.legal || [];
    if (prevView && !(prevView.legal || []).length && legal.length) Sound.play("turn");
    renderBoard({ view: v, names: namesOf(r), totals: r.match_totals, mySeat, bottom: watching ? 0 : mySeat, auto: r.auto,
      connected: r.connected, humans: r.humans, live: true, legal, hints: snap.hints, dice: snap.dice });
    if (snap.settlement || r.match_over) showSettlement(); else { settleClosedFor = null; if ($("settlement").open) $("settlement").close(); }
    renderDock(v, legal, r);
    placeDock();
    tick();
  }
  // the dock (prompt and buttons) sits just above one's own seat: near the thumb, over neither the
  // hand nor one's pond, however many rows they take
  function placeDock() {
    const seat = document.querySelector(".board .seat.me") || document.querySelector(".board .pos-bottom");
    if (!seat) return;
    const px = `${Math.round($("room").getBoundingClientRect().bottom - seat.getBoundingClientRect().top + 4)}px`;
    if ($("room").style.getPropertyValue("--dock-bottom") !== px) $("room").style.setProperty("--dock-bottom", px);
    reserveDock();
  }
  // The board keeps a row above one's seat as tall as the dock has been this hand (style.css: the
  // "dock" area), so that the prompt and buttons cover no other seat nor the centre, and the table
  // does not jump each time a prompt comes and goes.
  let dockFor = null, dockMax = 0;
  function reserveDock() {
    const hand = snap && snap.room ? `${snap.room.code}|${snap.room.hand_index}|${innerWidth}x${innerHeight}` : null;
    if (dockFor !== hand) { dockFor = hand; dockMax = 0; }
    dockMax = Math.max(dockMax, Math.ceil($("dock").getBoundingClientRect().height));
    const px = `${dockMax}px`;
    if ($("room").style.getPropertyValue("--dock-h") !== px) $("room").style.setProperty("--dock-h", px);
  }
  window.addEventListener("resize", () => { if (snap && !replay) placeDock(); });
  function renderDock(v, legal, r) {
    const mySeat = snap.seat;
    let claimTile = null;
    const exchanges = legal.filter((a) => a.type === "exchange");
    const voids = legal.filter((a) => a.type === "void");
    const others = legal.filter((a) => ACTION_ORDER.includes(a.type)).sort((a, b) => ACTION_ORDER.indexOf(a.type) - ACTION_ORDER.indexOf(b.type));
    const items = [];
    let prompt = "";
    if (exchanges.length) {
      const hand = handItems();
      const tiles = picked.map((k) => (hand.find((x) => x.key === k) || {}).tile).filter(Boolean);
      const sel = tiles.slice().sort().join("");
      const chosen = exchanges.find((a) => a.tiles.slice().sort().join("") === sel) || null;
      prompt = t("exchange_pick");
      items.push({ key: "exchange", id: "do-exchange", text: chosen ? t("exchange_do", { t: I18N.tilesWords(tiles) }) : `${t("a_exchange")} · ${t("exchange_need", { n: 3 - tiles.length })}`,
        disabled: !chosen, cls: "primary", run: () => { if (chosen) act(chosen); } });
    } else if (voids.length) {
      prompt = t("void_pick");
      const hand = splitTiles(v.players[mySeat].hand);
      const count = (s) => hand.filter((x) => x[1] === s).length;
      const best = voids.slice().sort((a, b) => count(a.suit) - count(b.suit))[0];
      voids.forEach((a) => items.push({ key: "void" + a.suit, text: t("void_badge", { s: I18N.suitName(a.suit) }) + (a === best ? ` · ${t("suggested")}` : ""),
        cls: "suit s-" + a.suit + (a === best ? " suggested" : ""), run: () => act(a) }));
    } else {
      const byType = {};
      others.forEach((a) => { byType[a.type] = (byType[a.type] || 0) + 1; });
      // a claim names the tile it takes, on every button (碰 五筒, 杠 五筒, 胡 五筒), shown large beside them
      const claiming = (v.phase === "claim" || v.phase === "rob") && others.some((a) => a.type !== "pass");
      claimTile = claiming ? ((others.find((a) => a.tile && a.type !== "pass") || {}).tile || (v.last_discard || {}).tile || null) : null;
      if (claiming) prompt = claimTile ? t("claim_prompt", { t: tn(claimTile) }) : "";
      others.forEach((a) => {
        const withTile = a.tile && (claiming || byType[a.type] > 1 || ["declare", "sing", "concealed_kong", "added_kong"].includes(a.type));
        const discards = a.type === "declare" || a.type === "sing";  // these name the tile they discard
        // a declaration shows the waits it leaves (and how many of each are still unseen)
        const dw = discards && snap.declare_waits ? snap.declare_waits[a.tile] : null;
        const waitsText = dw ? ` · ${t("waits")} ${dw.length ? dw.map((w) => t("hint_left", { t: tn(w.tile), n: w.left })).join(" ") : "—"}` : "";
        items.push({ key: JSON.stringify(a), text: actionLabel(a, r.variant, legal) + (withTile ? (discards ? ` · ${t("a_discard")}${I18N.lang === "en" ? " " : ""}` : " ") + tn(a.tile) : "") + waitsText,
          cls: "act-" + a.type + (a.type === "win" ? " primary" : ""), run: () => act(a) });
      });
      if (legal.some((a) => a.type === "discard") && taught < 3) prompt = t("your_turn");  // taught thrice, then only the clock
      if (legal.some((a) => a.type === "declare" || a.type === "sing")) {  // not declaring is a choice too
        const plain = legal.filter((a) => a.type === "discard");
        const sel = handItems().find((x) => x.key === selKey);
        const pick = plain.find((a) => sel && a.tile === sel.tile) || plain.find((a) => a.tile === v.drawn) || plain[plain.length - 1];
        if (pick) items.push({ key: "nodeclare", id: "no-declare", text: t("no_declare", { t: tn(pick.tile) }), run: () => act(pick) });
        prompt = t(r.variant === "sichuan" ? "declare_prompt_sc" : "declare_prompt");
      }
      const meNow = mySeat != null ? v.players[mySeat] : null;
      if (meNow && meNow.declared && v.phase === "turn" && v.current === mySeat && !legal.some((a) => a.type === "win"))
        prompt = t("frozen_note");
    }
    const mine = mySeat != null ? v.players[mySeat] : null;
    if (mine && mine.out && !snap.settlement) {  // 血战: won and out; the others play on
      const w = (v.wins || []).filter((x) => x.seat === mySeat).slice(-1)[0];
      const left = v.players.filter((p) => !p.out).length;
      prompt = t(legal.length ? "out_note_done" : "out_note", { t: w ? tn(w.tile) : "", n: left });
    }
    if (snap.you && r.auto[mySeat]) prompt = t("auto_note");
    else if (snap.you && snap.you.missed > 0 && !snap.settlement) prompt = t("missed_note");
    if (snap.settlement && !$("settlement").open && mySeat != null) {
      if (!r.match_over && !(snap.you && snap.you.ready)) items.push({ key: "ready", id: "ready-dock", text: t("ready"), cls: "primary", run: () => send({ type: "ready" }) });
      items.push({ key: "settle", text: t("settlement"), run: () => { settleClosedFor = null; showSettlement(); } });
    }
    if (r.match_over && mySeat != null && !$("settlement").open) {
      items.push({ key: "rematch", id: "rematch-dock", text: r.rematch && r.rematch.by !== mySeat ? t("rematch_join") : t("rematch"), cls: "primary", run: rematch });
    }
    if (r.match_over) items.push({ key: "lobby", text: t("to_lobby"), run: () => { location.href = "/"; } });
    sync($("actions"), items, (it) => { const b = node("button"); b.type = "button"; b.onclick = () => { const cur = b._item; if (cur && !b.disabled) cur.run(); }; return b; },
      (b, it) => { b._item = it; setText(b, it.text); b.className = "btn " + (it.cls || ""); b.disabled = !!it.disabled; if (it.id) b.id = it.id; else b.removeAttribute("id"); });
    if (legal.length) {
      let tm = $("timer");
      if (!tm) { tm = node("span"); tm.id = "timer"; tm.dataset.clock = "you"; }
      if (tm.parentNode !== $("prompt")) $("prompt").appendChild(tm);
    }
    const pr = $("prompt");
    let txt = pr.querySelector(".ptext");
    if (!txt) { txt = node("span", "ptext"); pr.prepend(txt); }
    setText(txt, prompt);
    let big = pr.querySelector(".claim-tile");
    if (claimTile) {
      if (!big) { big = node("span", "tile claim-tile"); pr.prepend(big); }
      if (big.dataset.tile !== claimTile) { big.dataset.tile = claimTile; setHTML(big, raw(tileMarkup(claimTile))); big.setAttribute("aria-label", tn(claimTile)); }
    } else if (big) big.remove();
    const tm = $("timer"); if (tm && !legal.length) tm.remove();
    pr.classList.toggle("blank", !prompt && !$("timer"));  // no empty pill when there is nothing to say
    // hints: only legal moves, in words
    const hi = snap.hints;
    let hint = "";
    const win = legal.find((a) => a.type === "win");
    if (win) hint = t("hint_win", { a: actionLabel(win, r.variant, legal) });  // a win outranks any advice
    else if (showHints && hi) {
      const can = new Set(legal.filter((a) => a.type === "discard" || a.type === "declare").map((a) => a.tile));
      if (hi.discards) {
        hint = hi.discards.filter((d) => can.has(d.tile)).slice(0, 3).map((d) => t("hint_discard", { t: tn(d.tile),
          r: d.shanten === 0 ? t("hint_ready", { w: I18N.tilesWords(d.waits) }) : t("hint_shanten", { n: d.shanten }) }) + ` (${t("hint_count", { n: d.effective_count })})`).join(" · ");
      } else if (hi.waits && hi.waits.length) hint = t("hint_waits", { w: hi.waits.map((w) => t("hint_left", { t: tn(w.tile), n: w.left })).join(" · ") });
      else if (hi.shanten > 0) hint = t("hint_shanten", { n: hi.shanten });
    }
    setText($("hints"), hint);
  }
  function handItems() {
    const seat = document.querySelector(".seat.me");
    if (!seat) return [];
    return Array.from(seat.querySelectorAll(".concealed .tile, .drawn .tile")).map((e) => ({ key: e.dataset.key, tile: e.dataset.tile, e }));
  }

  // taps on one's own tiles: handled on the board, so nodes replaced or not, the press counts
  let taught = +(localStorage.getItem("majiang.taught") || 0);
  function learned() { if (taught < 3) localStorage.setItem("majiang.taught", String(++taught)); }
  function tapTile(e) {
    if (!snap || !snap.view || replay) return;
    const legal = snap.view.legal || [];
    const key = e.dataset.key;
    if (legal.some((a) => a.type === "exchange")) {
      picked = picked.includes(key) ? picked.filter((x) => x !== key) : picked.concat([key]).slice(-3);
      render(); return;
    }
    const tile = e.dataset.tile;
    if (!legal.some((a) => a.type === "discard" && a.tile === tile)) return;
    if (selKey === key) { learned(); act({ type: "discard", tile }); }
    else { selKey = key; render(); }
  }
  let press = null;
  $("table").addEventListener("pointerdown", (ev) => {
    const e = ev.target.closest(".seat.me .tile.click");
    press = e ? { key: e.dataset.key, y: ev.clientY } : null;
  });
  $("table").addEventListener("pointerup", (ev) => {
    if (!press) return;
    const dy = ev.clientY - press.y;
    if (dy < -30 && snap && snap.view) {  // dragged up: discard at once
      const e = document.querySelector(`.seat.me .tile[data-key="${CSS.escape(press.key)}"]`);
      if (e && (snap.view.legal || []).some((a) => a.type === "discard" && a.tile === e.dataset.tile)) {
        press = null; act({ type: "discard", tile: e.dataset.tile }); ev.preventDefault(); return;
      }
    }
  });
  $("table").addEventListener("click", (ev) => {
    const e = ev.target.closest(".seat.me .tile.click");
    if (e && press !== null) tapTile(e);
    press = null;
  });
  // keyboard play on a desktop
  document.addEventListener("keydown", (ev) => {
    if (!snap || !snap.view || replay || ev.target.closest("input, select, textarea, dialog")) return;
    const legal = snap.view.legal || [];
    const tiles = handItems().filter((x) => legal.some((a) => a.type === "discard" && a.tile === x.tile));
    const k = ev.key.toLowerCase();
    if ((k === "arrowleft" || k === "arrowright") && tiles.length) {
      let i = tiles.findIndex((x) => x.key === selKey);
      i = i < 0 ? tiles.length - 1 : (i + (k === "arrowleft" ? -1 : 1) + tiles.length) % tiles.length;
      selKey = tiles[i].key; render(); ev.preventDefault();
    } else if (k === "enter" && selKey) {
      const x = tiles.find((y) => y.key === selKey);
      if (x) { act({ type: "discard", tile: x.tile }); ev.preventDefault(); }
    } else {
      const want = { h: "win", p: "pong", k: "kong", " ": "pass" }[k];
      const a = want && legal.find((x) => x.type === want || (want === "kong" && /kong/.test(x.type)));
      if (a) { act(a); ev.preventDefault(); }
    }
  });

  let inviteFor = null, inviteUrl = "";
  function renderLobbyRoom(r, mySeat) {
    setText($("share-code"), r.code);
    if (inviteFor !== r.code) {  // the link and its QR code, asked once per room
      inviteFor = r.code; inviteUrl = `${location.origin}/?room=${r.code}`;
      setText($("share"), inviteUrl);
      $("share-qr").src = `/api/rooms/${encodeURIComponent(r.code)}/qr.svg`;
      api(`/api/rooms/${encodeURIComponent(r.code)}/invite`).then((x) => {
        inviteUrl = x.url; setText($("share"), x.url);
        $("share-note").dataset.local = x.local_only ? "1" : "";
        if (snap) render();
      }).catch(() => {});
    }
    $("share-qr").alt = t("qr_alt");
    // the host alone is told that only this computer can open the link (and how to change that)
    setText($("share-note"), $("share-note").dataset.local && mySeat != null && mySeat === r.host_seat ? t("share_note") : "");
    sync($("seats"), namesOf(r).map((n, i) => ({ key: String(i), n, i })), () => node("div", "seat-line"), (e, it) => {
      const ready = r.ready && r.ready[it.i] && r.humans[it.i] && it.i !== r.host_seat;
      const tags = [it.i === r.host_seat ? t("host") : "", it.i === mySeat ? t("you") : "", r.humans[it.i] ? "" : t("bot"), ready ? t("ready_tag") : ""].filter(Boolean).join(" · ");
      setText(e, `${t("seat_n", { n: it.i + 1 })}: ${it.n}${tags ? " (" + tags + ")" : ""}`);
    });
    $("bench-line").hidden = !r.four;
    if (r.four) setText($("bench-line"), r.resting ? t("bench_line", { n: r.resting.name }) : t("bench_free"));
    const free = r.humans.some((x) => !x) && mySeat == null;
    $("sit").hidden = !free;
    $("sit-name").parentElement.hidden = !!me;
    $("start").hidden = mySeat == null || mySeat !== r.host_seat;
    // 准备: the server deals the first hand once every seated player has said ready (the host by
    // starting), or when the ready timer that the host's start set going runs out
    const names = namesOf(r);
    const unready = r.humans.map((x, i) => (x && i !== r.host_seat && !(r.ready && r.ready[i]) ? names[i] : null)).filter(Boolean);
    $("start").disabled = !!r.starting;
    setText($("start"), r.starting ? t("starting") : t("start"));
    $("ready-lobby").hidden = mySeat == null || mySeat === r.host_seat || !!(r.ready && r.ready[mySeat]);
    const note = $("wait-note");
    const text = unready.length ? t(r.starting ? "start_wait" : "wait_ready", { l: unready.join(", ") }) : mySeat != null && mySeat !== r.host_seat ? t("waiting_start") : "";
    let words = note.querySelector(".words"), clock = note.querySelector(".clock");
    if (!words) { words = node("span", "words"); clock = node("span", "clock"); clock.dataset.clock = "1"; note.append(words, " ", clock); }
    setText(words, text);
    clock.hidden = !r.starting;
  }

  // ---------------------------------------------------------------- settlement and match summary
  function winHand(p, w) {
    const hand = splitTiles(p.hand || "");
    if (hand.length % 3 === 2) { const k = hand.lastIndexOf(w.tile); if (k >= 0) hand.splice(k, 1); }
    const melds = p.melds.map((m) => tilesHTML(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small"));
    return h`<div class="win-hand">${tilesHTML(hand, "small")}<span class="gap"></span>${melds.map((m) => h`<span class="meld">${m}</span>`)}<span class="gap"></span>${tilesHTML([w.tile], "small won")}</div>`;
  }
  function detailText(d, fans) { return I18N.paymentDetail(d, fans); }
  function fanEnglish(wins) { const out = {}; (wins || []).forEach((w) => (w.fans || []).forEach((f) => { if (f.english) out[f.name] = f.english; })); return out; }
  function showSettlement() {
    const s = snap.settlement, r = snap.room, names = namesOf(r), v = snap.view;
    if (!s) {  // dissolved mid-hand: the match totals and the summary
      setHTML($("settlement-body"), h`<h2 id="settle-h">${t("dissolved")}</h2><table class="totals"><tr><th></th>${names.map((n) => h`<th>${n}</th>`)}</tr>
        <tr><th>${t("match_total")}</th>${r.match_totals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr></table><div id="summary"></div>`);
      loadSummary();
      $("next").hidden = true; $("to-lobby").hidden = false; $("to-lobby").textContent = t("to_lobby"); $("close-settlement").textContent = t("close");
      showRematch(r);
      if (!$("settlement").open && settleClosedFor !== `${r.code}|end`) openAtTop($("settlement"));
      return;
    }
    const wins = s.wins.map((w) => h`<div class="win"><p><b>${t("win_by", { who: names[w.seat], t: tn(w.tile) })}</b> · ${w.self_draw ? t("zimo") : t("dianpao", { who: names[w.discarder] })}${w.robbed_kong ? " · " + t("robbed") : ""}</p>
      ${v ? winHand(v.players[w.seat], w) : ""}
      <p class="fans">${w.fans.map((f) => h`<span class="fan">${I18N.fanName(f)} ${r.variant === "kawuxing" ? "×" + f.multiplier : f.fan ? t("fan_n", { n: f.fan }) : ""}${f.count > 1 ? " ×" + f.count : ""}</span>`)} → <b>${r.variant === "kawuxing" ? t("mult_total", { n: w.multiplier }) : t("fan_total", { n: w.fan })}</b></p></div>`);
    const pays = s.payments.map((p) => h`<tr><td>${names[p.from]}</td><td>→</td><td>${names[p.to]}</td><td class="num">${p.amount}</td><td>${I18N.reasonName(p.reason)} ${detailText(p.detail, fanEnglish(s.wins))}</td></tr>`);
    const ready = r.ready ? r.ready.map((x, i) => (x ? names[i] : null)).filter(Boolean) : [];
    const totals = h`<table class="totals"><tr><th></th>${names.map((n) => h`<th>${n}</th>`)}</tr>
      <tr><th>${t("hand_total")}</th>${s.totals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr>
      <tr><th>${t("match_total")}</th>${r.match_totals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr></table>`;
    const rest = r.resting ? h`<p class="rest-line">${t("resting", { n: r.resting.name, s: signed(r.resting.total) })}</p>` : "";
    setHTML($("settlement-body"), h`<h2 id="settle-h">${s.result === "draw" ? t("drawn_hand") : t("settlement")} · ${t("hand_of", { i: r.hand_index + 1, n: r.hands })}</h2>${rest}${wins}
      ${pays.length ? h`<table class="pay">${pays}</table>` : ""}${totals}
      ${r.match_over ? h`<div id="summary"><h3>${t("match_over")}</h3></div>` : h`<p>${t("ready_list", { l: ready.join(", ") || "—" })} <span class="clock" data-clock="1"></span></p>`}`);
    if (r.match_over) loadSummary();
    const mineReady = snap.you && snap.you.ready;
    $("next").hidden = r.match_over || snap.seat == null;
    $("next").disabled = !!mineReady;
    $("next").textContent = mineReady ? t("ready_done") : t("ready");
    $("to-lobby").hidden = !r.match_over;
    $("to-lobby").textContent = t("to_lobby");
    showRematch(r);
    $("close-settlement").textContent = t("close");
    const key = `${r.code}|${r.hand_index}`;
    if (!$("settlement").open && settleClosedFor !== key) openAtTop($("settlement"));
  }
  // a dialog opens at its top (who won first), not scrolled down to the button that took the focus
  function openAtTop(dialog) {
    dialog.showModal();
    const head = dialog.querySelector("h2");
    if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
    dialog.scrollTop = 0;
  }
  function showRematch(r) {  // 再来一局: offered to every player of the match, in the same seats
    const offer = r.rematch && r.rematch.by !== snap.seat ? r.rematch : null;
    $("rematch").hidden = !r.match_over || snap.seat == null;
    $("rematch").textContent = offer ? t("rematch_join") : t("rematch");
    $("rematch").classList.toggle("primary", !!offer);
    const p = $("rematch-offer");
    p.hidden = !offer || !r.match_over;
    setText(p, offer ? t("rematch_offer", { who: namesOf(r)[offer.by] }) : "");
  }
  async function rematch() {
    try {
      const made = await api(`/api/rooms/${encodeURIComponent(snap.room.code)}/rematch`, "POST", {});
      location.href = `/?room=${encodeURIComponent(made.code)}`;
    } catch (e) { showError(e.message); }
  }
  async function loadSummary() {
    const r = snap.room, names = namesOf(r);
    let games = summaryFor && summaryFor.code === r.code ? summaryFor.games : null;
    if (!games) {
      try { games = await api(`/api/rooms/${encodeURIComponent(r.code)}/games`); } catch (e) { return; }
      summaryFor = { code: r.code, games };
    }
    const box = $("summary");
    if (!box || box.dataset.done) return;
    box.dataset.done = "1";
    games.sort((a, b) => a.hand_index - b.hand_index);
    // a four-person room: one column per person (a hand they sat out reads 休); points times the stake,
    // as the match row shows them
    const stake = r.stake || 1;
    const people = games.length && games[0].people ? games[0].people : null;
    const cols = people ? people.map(botName) : names;  // the server names bots in English: say it in the page's language
    const cell = (g, c) => { const i = people ? g.lineup.indexOf(c) : c; return i >= 0 && i < g.totals.length ? g.totals[i] * stake : null; };
    const run = cols.map(() => [0]);
    games.forEach((g) => cols.forEach((_, c) => run[c].push(run[c][run[c].length - 1] + (cell(g, c) || 0))));
    const finals = run.map((xs) => xs[xs.length - 1]);
    const top = finals.indexOf(Math.max(...finals));
    const lo = Math.min(0, ...run.flat()), hi = Math.max(1, ...run.flat());
    const W = 300, H = 120, X = (i) => 10 + (i * (W - 20)) / Math.max(1, games.length), Y = (x) => H - 10 - ((x - lo) * (H - 20)) / (hi - lo || 1);
    const COLORS = ["#f0c75e", "#5cc8ff", "#ff8a5c", "#b7e36b"];
    const lines = run.map((xs, s) => `<polyline fill="none" stroke="${COLORS[s % 4]}" stroke-width="2.5" points="${xs.map((x, i) => `${X(i).toFixed(1)},${Y(x).toFixed(1)}`).join(" ")}"/>`).join("");
    const chart = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("summary"))}"><line x1="10" x2="${W - 10}" y1="${Y(0)}" y2="${Y(0)}" stroke="#999" stroke-dasharray="3 3"/>${lines}</svg>`;
    setHTML(box, h`<h3>${t("summary")}: ${t("winner", { who: cols[top] })}</h3>
      <table class="totals"><tr><th>${t("hand_col")}</th>${cols.map((n, s) => h`<th><span class="key k${s}"></span>${n}</th>`)}</tr>
      ${games.map((g) => h`<tr><td>${g.hand_index + 1}</td>${cols.map((_, c) => { const x = cell(g, c); return x == null ? h`<td class="num rest">${t("rest_cell")}</td>` : h`<td class="num">${signed(x)}</td>`; })}</tr>`)}
      <tr class="sum"><th>${t("total_col")}</th>${finals.map((x) => h`<td class="num ${x >= 0 ? "pos" : "neg"}">${signed(x)}</td>`)}</tr></table>${raw(chart)}`);
  }
  function renderVote(r, mySeat) {
    const d = r.dissolve, box = $("vote");
    box.hidden = !d;
    if (!d) return;
    const names = namesOf(r), humans = r.humans.filter(Boolean).length, yes = d.votes.filter((x) => x === true).length;
    setText($("vote-text"), t("vote_text", { who: names[d.by], n: yes, m: humans }));
    $("vote-clock").dataset.deadline = String(d.deadline);
    const mine = mySeat == null ? true : d.votes[mySeat];
    $("vote-yes").hidden = mine != null; $("vote-no").hidden = mine != null;
  }
  $("vote-yes").onclick = () => send({ type: "dissolve", agree: true });
  $("vote-no").onclick = () => send({ type: "dissolve", agree: false });
  $("dissolve").onclick = () => send({ type: "dissolve", agree: true });  // the vote itself asks the others
  const PHRASES = ["hello", "hurry", "nice", "thanks", "oops", "again", "bye"];
  const EMOJI = ["laugh", "cry", "angry", "thumb", "flower"];
  const face = (mouth, extra = "") => `<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><circle cx="16" cy="16" r="14" fill="#f7c948" stroke="#a66b00"/><circle cx="11" cy="13" r="2" fill="#3a2a00"/><circle cx="21" cy="13" r="2" fill="#3a2a00"/>${mouth}${extra}</svg>`;
  const EMOJI_SVG = {
    laugh: face('<path d="M9 19 Q16 27 23 19 Z" fill="#7a1a12"/>'),
    cry: face('<path d="M10 23 Q16 17 22 23" stroke="#3a2a00" stroke-width="2" fill="none"/>', '<path d="M10 16 q-2 5 0 7 q2 -2 0 -7" fill="#5cc8ff"/>'),
    angry: face('<path d="M10 23 Q16 19 22 23" stroke="#3a2a00" stroke-width="2" fill="none"/>', '<path d="M7 8 L14 11 M25 8 L18 11" stroke="#3a2a00" stroke-width="2"/>').replace("#f7c948", "#ff8a5c"),
    thumb: '<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><rect x="4" y="14" width="6" height="14" rx="1" fill="#f0c75e"/><path d="M12 14 L17 4 Q20 4 19 10 L27 10 Q29 12 27 15 L25 27 Q24 28 22 28 L12 28 Z" fill="#f7c948" stroke="#a66b00"/></svg>',
    flower: '<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">' + [0, 72, 144, 216, 288].map((a) => `<circle cx="${(16 + 8 * Math.cos(a * Math.PI / 180)).toFixed(1)}" cy="${(16 + 8 * Math.sin(a * Math.PI / 180)).toFixed(1)}" r="6" fill="#ff7aa8"/>`).join("") + '<circle cx="16" cy="16" r="5" fill="#f0c75e"/></svg>',
  };
  function buildChatMenu() {
    const menu = $("chat-menu");
    menu.textContent = "";
    PHRASES.concat(EMOJI).forEach((p) => {
      const b = node("button", "chat-item" + (EMOJI.includes(p) ? " emoji" : "")); b.type = "button";
      if (EMOJI.includes(p)) { b.innerHTML = EMOJI_SVG[p]; b.setAttribute("aria-label", t("p_" + p)); } else b.textContent = t("p_" + p);
      b.dataset.phrase = p;
      b.onclick = () => { send({ type: "chat", phrase: p }); menu.hidden = true; $("chat-btn").setAttribute("aria-expanded", "false"); };
      menu.appendChild(b);
    });
  }
  $("chat-btn").onclick = () => {
    const menu = $("chat-menu");
    if (menu.hidden) buildChatMenu();
    menu.hidden = !menu.hidden;
    $("chat-btn").setAttribute("aria-expanded", menu.hidden ? "false" : "true");
  };
  function showChat(msg) {
    const seat = document.querySelector(`.board .seat[data-seat="${Number(msg.seat)}"]`);
    if (!seat || !(PHRASES.includes(msg.phrase) || EMOJI.includes(msg.phrase))) return;
    const b = seat.querySelector(".bubble");
    if (EMOJI.includes(msg.phrase)) { b.innerHTML = EMOJI_SVG[msg.phrase]; b.setAttribute("aria-label", t("p_" + msg.phrase)); }
    else b.textContent = t("p_" + msg.phrase);
    b.classList.add("show");
    clearTimeout(b._t); b._t = setTimeout(() => b.classList.remove("show"), 3500);
  }
  $("next").onclick = () => { send({ type: "ready" }); };
  $("close-settlement").onclick = () => { settleClosedFor = snap ? (snap.settlement ? `${snap.room.code}|${snap.room.hand_index}` : `${snap.room.code}|end`) : null; $("settlement").close(); if (snap) render(); };
  $("settlement").addEventListener("cancel", () => { settleClosedFor = snap ? `${snap.room.code}|${snap.room.hand_index}` : null; setTimeout(() => snap && render(), 0); });
  $("to-lobby").onclick = () => { location.href = "/"; };
  $("rematch").onclick = () => rematch();
  $("auto").onclick = () => { if (snap && snap.seat != null) send({ type: "auto", on: !snap.room.auto[snap.seat] }); };
  $("leave").onclick = () => {  // leaving mid-match asks first and says that 托管 plays meanwhile
    const r = snap && snap.room;
    if (r && snap.seat != null && r.status === "playing" && !r.match_over) $("leave-dialog").showModal();
    else location.href = "/";
  };
  $("leave-stay").onclick = () => $("leave-dialog").close();
  $("leave-go").onclick = () => { location.href = "/"; };
  $("share-btn").onclick = async () => {
    const r = snap && snap.room;
    const text = r ? t("share_text", { g: variantName(r.variant), c: r.code }) : "";
    try {
      if (navigator.share) { await navigator.share({ title: document.title, text, url: inviteUrl }); return; }
    } catch (e) { if (e && e.name === "AbortError") return; }
    try { await navigator.clipboard.writeText(`${text} ${inviteUrl}`); }
    catch (e) {  // no clipboard (plain http on another machine): select the link for a long-press copy
      const range = document.createRange(); range.selectNodeContents($("share")); const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
    }
    setText($("share-done"), t("share_copied")); clearTimeout($("share-done")._t); $("share-done")._t = setTimeout(() => setText($("share-done"), ""), 3000);
  };
  // 托管 ends at once on any tap or key of its player (the 托管 button itself toggles)
  function backFromAuto(e) {
    if (!snap || snap.seat == null || !snap.room.auto[snap.seat] || (e.target && e.target.id === "auto")) return;
    send({ type: "auto", on: false });
  }
  document.addEventListener("pointerdown", backFromAuto, true);
  document.addEventListener("keydown", backFromAuto, true);
  $("sit-down").onclick = async () => {
    try {
      if (!me && $("sit-name").value.trim()) $("name").value = $("sit-name").value;
      await ensurePlayer();
      await api(`/api/rooms/${encodeURIComponent(roomCode)}/join`, "POST");
      if (ws) { ws.onclose = null; ws.close(); }
      connect(false);
    } catch (e) { showError(e.message); }
  };
  $("ready-lobby").onclick = () => send({ type: "ready" });
  $("start").onclick = async () => { try { await api(`/api/rooms/${encodeURIComponent(roomCode)}/start`, "POST"); } catch (e) { showError(e.message); } };

  // ---------------------------------------------------------------- clocks
  function secondsLeft(deadline) { return deadline == null ? null : Math.max(0, (deadline - (Date.now() + clockSkew)) / 1000); }
  function tick() {
    if (!snap || replay) return;
    const mine = snap.you && snap.you.deadline, pub = snap.room.clock && snap.room.clock.deadline;
    document.querySelectorAll("[data-clock]").forEach((e) => {
      const left = secondsLeft(e.dataset.clock === "you" ? mine : pub);
      setText(e, left == null ? "" : t("seconds", { n: Math.ceil(left) }));
    });
    if (!$("vote").hidden) setText($("vote-clock"), t("seconds", { n: Math.ceil(secondsLeft(+$("vote-clock").dataset.deadline) || 0) }));
    const center = document.querySelector(".board .center");
    if (!center) return;
    const dl = mine || (snap.view && snap.view.phase === "turn" ? pub : null);
    const left = secondsLeft(dl);
    const timers = snap.room.timers || {};
    const total = snap.view && snap.view.phase === "turn" ? timers.turn_seconds || 15 : timers.claim_seconds || 8;
    const fg = center.querySelector(".ring-fg");
    fg.setAttribute("stroke-dashoffset", left == null ? "100.5" : String((100.5 * (1 - Math.min(1, left / total))).toFixed(1)));
    center.classList.toggle("urgent", left != null && left <= 5);
    setText(center.querySelector(".secs"), left == null ? "" : String(Math.ceil(left)));
  }
  setInterval(tick, 250);

  const svgIcon = (d) => `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="${d}" fill="currentColor"/></svg>`;
  const ICONS = { first: svgIcon("M5 5h3v14H5zM20 5v14L9 12z"), prev: svgIcon("M18 5v14L7 12z"), play: svgIcon("M7 5v14l12-7z"),
    pause: svgIcon("M6 5h4v14H6zM14 5h4v14h-4z"), next: svgIcon("M6 5v14l11-7zM17 5h2v14h-2z"), last: svgIcon("M4 5v14l11-7zM16 5h3v14h-3z") };
  // ---------------------------------------------------------------- replay: the same table, with play/pause, step and speed
  async function openReplay(code, hand) {
    document.body.classList.add("in-room");
    $("lobby").hidden = true; $("room").hidden = false;
    if (!CODE_RE.test(code) || !Number.isInteger(hand) || hand < 0) { showError(t("err_replay")); return; }
    let data;
    try { data = await api(`/api/rooms/${encodeURIComponent(code)}/games/${hand}/frames`); } catch (e) { showError(e.message); return; }
    let i = 0, timer = null, speed = 1;
    $("auto").hidden = true; $("hint-toggle").hidden = true;
    const last = data.frames.length - 1;
    const names = () => data.names.map(botName);  // "bot 2" is said in the page's language
    const label = (f) => {
      const m = /^seat (\d+): (.*)$/.exec(f.label || "");
      if (!m) return t("deal");
      const who = names()[+m[1]] || "";
      const a = m[2].trim(), parts = a.split(/\s+/);
      const kind = parts[0], arg = parts.slice(1).join("");
      const name = { discard: t("a_discard"), win: t("a_win"), pong: t("a_pong"), kong: t("a_kong"), concealed_kong: t("a_concealed_kong"),
        added_kong: t("a_added_kong"), pass: t("a_pass"), declare: t("a_declare"), sing: t("a_sing"), exchange: t("a_exchange"), void: t("a_void") }[kind];
      const tiles = splitTiles(arg).filter((x) => TILE_RE.test(x));
      const suit = /^[mps]$/.test(arg) ? I18N.suitName(arg) : "";
      return t("r_act", { who, a: `${name || ""} ${tiles.length ? I18N.tilesWords(tiles) : suit}`.trim() });
    };
    const show = () => {
      const f = data.frames[i], v = f.view;
      setHTML($("room-head"), h`<b>${t("replay_title")}</b> · ${t("room")} <code>${code}</code> · ${t("hand_n", { n: hand + 1 })} · <span class="step">${t("step", { i, n: last })}</span>: ${label(f)}`);
      renderBoard({ view: v, names: names(), totals: v.totals, mySeat: null, bottom: 0, live: false, legal: [] });
      sync($("actions"), [
        { key: "first", id: "rp-first", text: "|◀", aria: t("first"), run: () => { i = 0; show(); } },
        { key: "prev", id: "rp-prev", text: "◀", aria: t("prev"), run: () => { i = Math.max(0, i - 1); show(); } },
        { key: "play", id: "rp-play", text: timer ? "❚❚" : "▶", aria: timer ? t("pause") : t("play"), run: () => { if (timer) stop(); else play(); show(); } },
        { key: "next", id: "rp-next", text: "▶|", aria: t("next"), run: () => { i = Math.min(last, i + 1); show(); } },
        { key: "last", id: "rp-last", text: "⇥", aria: t("last"), run: () => { i = last; show(); } },
        { key: "speed", id: "rp-speed", text: `×${speed}`, aria: t("speed"), run: () => { speed = speed >= 4 ? 0.5 : speed * 2; if (timer) { stop(); play(); } show(); } },
      ], (it) => { const b = node("button", "btn rp"); b.type = "button"; b.onclick = () => b._item.run(); return b; },
      (b, it) => {
        b._item = it; b.id = it.id; b.setAttribute("aria-label", it.aria); b.title = it.aria;
        if (it.key === "speed") setText(b, it.text);
        else { const icon = ICONS[it.key === "play" && timer ? "pause" : it.key]; if (b.dataset.icon !== icon) { b.dataset.icon = icon; b.innerHTML = icon; } }
      });
      let slider = $("rp-slider");
      if (!slider) {
        slider = node("input"); slider.type = "range"; slider.id = "rp-slider"; slider.min = "0"; slider.setAttribute("aria-label", t("step", { i: "", n: "" }));
        slider.oninput = () => { i = +slider.value; show(); };
        $("prompt").appendChild(slider);
      }
      slider.max = String(last); slider.value = String(i);
      $("hints").textContent = i === last ? data.settlement.payments.map((p) => `${names()[p.from]} → ${names()[p.to]} ${p.amount} ${I18N.reasonName(p.reason)}`).join(" · ") || t("drawn_hand") : "";
    };
    const stop = () => { clearInterval(timer); timer = null; };
    const play = () => { timer = setInterval(() => { if (i >= last) { stop(); show(); return; } i += 1; show(); }, 900 / speed); };
    replay = { show };
    show();
  }

  // ---------------------------------------------------------------- start
  (async () => {
    applyStatic();
    loadSchema();
    await loadMe();
    loadHistory();
    loadTables();
    const params = new URLSearchParams(location.search);
    if (params.get("replay") != null) { openReplay(params.get("replay"), Number(params.get("hand") || 0)); return; }
    const code = (params.get("room") || "").trim().toUpperCase();
    if (code) {
      // one's own table (seated, or a seat kept for the next hand) opens as it was; anyone else is a
      // visitor, offered the free seat first
      // a known player is seated at once in a room still gathering (its own seat, or a free one)
      let mine = false;
      if (me && CODE_RE.test(code)) {
        try {
          mine = (await api("/api/tables")).some((x) => x.room === code) || (await api(`/api/rooms/${encodeURIComponent(code)}`)).status === "lobby";
        } catch (e) { mine = false; }
      }
      if (mine) { try { await joinAndOpen(code); return; } catch (e) { /* full, or finished meanwhile: look at it */ } }
      openRoom(code, "invite");
    }
  })();
})();
