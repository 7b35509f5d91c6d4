// The browser client: lobby, table and settlement. All state comes from the server's snapshots.
// Every value that comes from outside (names, codes, messages, URL parameters) is escaped by `h`,
// and the page's policy allows no inline script, so no text can become markup that runs.
(function () {
  const $ = (id) => document.getElementById(id);
  const PRESETS = { kawuxing: ["standard", "xiangyang", "suizhou"], sichuan: ["chengdu", "modern"] };
  const LABEL = { discard: "打", win: "胡 win", pong: "碰 pong", kong: "杠 kong", concealed_kong: "暗杠 kong",
    added_kong: "蓄杠 kong", pass: "过 pass", declare: "亮倒 declare", sing: "唱歌 sing", dance: "跳舞 dance",
    void: "定缺", exchange: "换三张" };
  const SUIT_ZH = { m: "万", p: "筒", s: "条" };

  // Markup from a template: interpolated values are escaped unless wrapped in raw().
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
  function cat(...parts) { return raw(parts.map((x) => x.__html).join("")); }
  function setHTML(el, markup) { el.innerHTML = markup.__html; }
  const CODE_RE = /^[A-Z0-9]{1,16}$/;

  let me = null;
  let ws = null, snap = null, roomCode = null, retry = 0, picked = [], pickedFor = "", clockSkew = 0;

  async function api(path, method = "GET", body = null) {
    const res = await fetch(path, { method, credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : null });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || data.detail || res.statusText);
    return data;
  }
  function showError(msg) { $("error").textContent = msg || ""; }
  function fillPresets() { setHTML($("preset"), h`${PRESETS[$("variant").value].map((p) => h`<option>${p}</option>`)}`); }
  function renderMe() { $("me").textContent = me ? me.name : ""; $("name").value = me ? me.name : ""; }

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
    const name = $("name").value.trim() || "player";
    const p = await api("/api/players", "POST", { name });
    me = { id: p.id, name: p.name };
    renderMe();
  }
  async function loadHistory() {
    if (!me) return;
    try {
      const rows = await api("/api/history");
      setHTML($("history"), rows.length ? h`${rows.map((r) => cat(h`<div><a href="/?room=${r.room}">${r.room}</a> ${r.variant === "kawuxing" ? "卡五星" : "血战到底"} ${r.status} · ${r.hands} hands · ${signed(r.totals[r.seat])}`,
        h`${Array.from({ length: r.hands }, (_, k) => h` <a href="/?replay=${r.room}&amp;hand=${k}">replay ${k + 1}</a>`)}</div>`))}` : h`—`);
    } catch (e) { /* a fresh player has no history */ }
  }

  function openRoom(code, spectate) {
    if (!CODE_RE.test(code)) { showError("a room code is letters and digits"); return; }
    roomCode = code;
    history.replaceState(null, "", `/?room=${encodeURIComponent(code)}`);
    $("lobby").hidden = true; $("room").hidden = false;
    connect(spectate);
  }
  function connect(spectate) {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(roomCode)}`);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "snapshot") {
        if (msg.now) clockSkew = msg.now - Date.now();
        // keep a half-made 换三张 selection while others choose theirs
        const key = pickKey(msg);
        if (key !== pickedFor) { picked = []; pickedFor = key; }
        snap = msg; retry = 0; showError(""); render();
      } else if (msg.type === "error") showError(msg.message);
    };
    ws.onclose = () => { setTimeout(() => connect(spectate), Math.min(5000, 500 * ++retry)); };
  }
  function pickKey(m) {
    const v = m.view, mine = v && m.seat != null ? v.players[m.seat] : null;
    return mine ? `${m.room.hand_index}|${v.phase}|${mine.hand}` : "";
  }
  function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
  function act(action) { send({ type: "action", seq: snap.seq, action }); }

  function tiles(list, cls = "", click = false) {
    return h`${list.map((t, i) => h`<span class="tile ${cls} ${click ? "click" : ""}" data-i="${i}" data-tile="${t || ""}" title="${t ? tileName(t) : "?"}">${raw(tileSVG(t))}</span>`)}`;
  }
  function splitTiles(s) { const out = []; let digits = []; for (const ch of s || "") { if (/[0-9]/.test(ch)) digits.push(ch); else { digits.forEach((d) => out.push(d + ch)); digits = []; } } return out; }
  function signed(n) { return (n >= 0 ? "+" : "") + n; }
  function tileWords(list) { return list.map((t) => tileName(t)).join(" "); }

  function seatHand(p, s, mySeat) {
    if (p.hand) return tiles(splitTiles(p.hand), s === mySeat ? "" : "small", s === mySeat);
    const rv = p.revealed;
    if (rv && rv.tiles) {  // 亮倒: the hand as the rules show it, the rest face down
      const shown = splitTiles(rv.tiles);
      return h`${tiles(shown, "small shown")}${tiles(Array(Math.max(0, p.tiles - shown.length)).fill(null), "small")}`;
    }
    return tiles(Array(p.tiles).fill(null), "small");
  }

  function render() {
    const r = snap.room, v = snap.view, mySeat = snap.seat;
    const stateWord = mySeat == null ? "watching 观战" : r.auto[mySeat] ? "托管 auto-play" : "";
    setHTML($("room-head"), h`<b>${r.variant === "kawuxing" ? "卡五星" : "血战到底"}</b> ${r.preset} · room <code>${r.code}</code> · hand ${r.hand_index + 1}/${r.hands} · stake ${r.stake} · ${stateWord}`);
    $("auto").hidden = mySeat == null || r.status !== "playing";
    $("auto").textContent = mySeat != null && r.auto[mySeat] ? "取消托管 stop auto-play" : "托管 auto-play";
    $("waiting").hidden = r.status !== "lobby";
    if (r.status === "lobby") {
      renderLobbyRoom(r, mySeat);
      $("table").textContent = ""; $("actions").textContent = ""; $("hints").textContent = ""; return;
    }
    if (!v) return;
    const order = mySeat == null ? v.players.map((p) => p.seat) : v.players.map((_, i) => (mySeat + i) % v.players.length);
    const last = v.last_discard ? h` · last discard 上家打 ${tileName(v.last_discard.tile)}` : h``;
    setHTML($("table"), h`<div>wall 牌墙 ${v.tiles_left}${last}</div>${order.map((s) => {
      const p = v.players[s];
      const melds = p.melds.map((m) => h`<span class="meld">${tiles(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small")}</span>`);
      const disc = p.discards.map((t, i) => h`<span class="${p.claimed[i] ? "claimed" : ""}">${tiles([t], "small")}</span>`);
      const flags = [p.declared ? (LABEL[p.declared] || p.declared) : "", p.void ? `缺${SUIT_ZH[p.void]}` : "", p.out ? "已胡 won" : "",
        s === v.dealer ? "庄" : "", r.auto[s] ? "托管" : "", r.humans[s] && !r.connected[s] ? "离线 offline" : ""].filter(Boolean).join(" ");
      const waits = p.revealed && p.revealed.waits && p.revealed.waits.length ? h` · 听 ${tileWords(p.revealed.waits)}` : h``;
      const turn = v.current === s && v.phase === "turn";
      return cat(h`<div class="seat ${s === mySeat ? "me" : ""} ${turn ? "turn" : ""}" data-seat="${s}">`,
        h`<div class="who">${r.names[s]} ${flags}${waits} · ${signed(r.match_totals[s])}${turn ? raw('<span class="clock" data-clock="1"></span>') : ""}</div>`,
        h`<div class="row">${seatHand(p, s, mySeat)} ${melds}</div><div class="row">${disc}</div></div>`);
    })}`);
    const legal = v.legal || [];
    const exchanges = legal.filter((a) => a.type === "exchange");
    const discardTiles = new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
    document.querySelectorAll(".seat.me .tile.click").forEach((el) => {
      const t = el.dataset.tile, i = +el.dataset.i;
      if (exchanges.length) {  // 换三张: pick three tiles of one suit, then confirm
        if (picked.includes(i)) el.classList.add("picked");
        el.onclick = () => { picked = picked.includes(i) ? picked.filter((x) => x !== i) : picked.concat([i]).slice(-3); render(); };
      } else if (discardTiles.has(t)) el.onclick = () => act({ type: "discard", tile: t });
      else el.classList.remove("click");
    });
    const others = legal.filter((a) => a.type !== "discard" && a.type !== "exchange");
    let buttons = others.map((a, i) =>
      h`<button data-i="${i}">${LABEL[a.type] || a.type} ${a.tile ? tileName(a.tile) : ""}${a.suit ? SUIT_ZH[a.suit] : ""}</button>`);
    let chosen = null;
    if (exchanges.length) {
      const mine = splitTiles(v.players[mySeat].hand);
      const sel = picked.map((i) => mine[i]).sort().join("");
      chosen = exchanges.find((a) => a.tiles.slice().sort().join("") === sel) || null;
      buttons = buttons.concat([h`<button id="do-exchange" ${raw(chosen ? "" : "disabled")}>换三张 pass ${picked.length ? tileWords(picked.map((i) => mine[i])) : "— pick three tiles of one suit"}</button>`]);
    }
    setHTML($("actions"), h`${buttons}${legal.length ? raw(' <span id="timer" data-clock="you"></span>') : ""}`);
    document.querySelectorAll("#actions button[data-i]").forEach((b) => { b.onclick = () => act(others[+b.dataset.i]); });
    if (chosen) $("do-exchange").onclick = () => act(chosen);
    const hi = snap.hints;
    $("hints").textContent = !hi ? "" : hi.discards ? "hint 建议: " + hi.discards.slice(0, 3).map((d) => `打 ${tileName(d.tile)} → ${d.shanten === 0 ? "听 " + tileWords(d.waits) : d.shanten + "向听"} (${d.effective_count} 张)`).join(" · ")
      : hi.waits && hi.waits.length ? "听牌 waiting on " + hi.waits.map((w) => `${tileName(w.tile)} ×${w.left}`).join(" · ") : hi.shanten > 0 ? `${hi.shanten} 向听 from ready` : "";
    if (snap.settlement) showSettlement(); else if ($("settlement").open) $("settlement").close();
    tick();
  }

  function renderLobbyRoom(r, mySeat) {
    api("/api/server").then((s) => {
      const local = /^(127\.|localhost$|\[::1\]$)/.test(location.hostname);
      const base = local && s.share_urls.length ? s.share_urls[0].replace(/\/$/, "") : location.origin;
      $("share").textContent = `${base}/?room=${r.code}`;
      $("share-note").textContent = local && !s.share_urls.length ? "Only this computer can open this address: start the server with --host 0.0.0.0 so friends on your network can join. 朋友要连同一网络" : "";
    }).catch(() => { $("share").textContent = `${location.origin}/?room=${r.code}`; });
    setHTML($("seats"), h`${r.names.map((n, i) => h`<div>seat ${i + 1}: ${n}${i === r.host_seat ? " (host 房主)" : ""}${i === mySeat ? " ← you" : ""}</div>`)}`);
    const free = r.humans.some((x) => !x) && mySeat == null;
    $("sit").hidden = !free;
    $("sit-name").hidden = !!me; $("sit-name").parentElement.hidden = !!me;
    $("start").hidden = mySeat == null || mySeat !== r.host_seat;
  }

  function showSettlement() {
    const s = snap.settlement, names = snap.room.names, variant = snap.room.variant;
    const wins = s.wins.map((w) => h`<p><b>${names[w.seat]}</b> 胡 ${tileName(w.tile)} ${w.self_draw ? "自摸" : "点炮 " + names[w.discarder]}: ${w.fans.map((f) => `${f.name} ${f.english} ${variant === "kawuxing" ? "×" + f.multiplier : f.fan + "番"}`).join(", ")} → ×${w.multiplier}</p>`);
    const pays = s.payments.map((p) => h`<tr><td>${names[p.from]}</td><td>→ ${names[p.to]}</td><td>${p.amount}</td><td>${p.reason} ${p.detail || ""}</td></tr>`);
    const ready = snap.room.ready ? snap.room.ready.map((x, i) => x ? names[i] : null).filter(Boolean) : [];
    setHTML($("settlement-body"), cat(h`<h2>${s.result === "draw" ? "荒庄 drawn hand" : "结算 settlement"}</h2>${wins}<table class="pay">${pays}</table>`,
      h`<p>hand: ${s.totals.map((t, i) => `${names[i]} ${signed(t)}`).join(" · ")}</p>`,
      h`<p>match: ${snap.room.match_totals.map((t, i) => `${names[i]} ${signed(t)}`).join(" · ")}</p>`,
      (snap.room.match_over ? h`<p><b>Match over 终局</b></p>` : h`<p>准备 ready: ${ready.join(", ") || "—"} <span data-clock="1"></span></p>`)));
    const mineReady = snap.you && snap.you.ready;
    $("next").hidden = snap.room.match_over || snap.seat == null;
    $("next").disabled = !!mineReady;
    $("next").textContent = mineReady ? "已准备 ready — waiting for the others" : "准备 Ready for the next hand";
    $("to-lobby").hidden = !snap.room.match_over;
    if (!$("settlement").open) $("settlement").showModal();
  }

  function secondsLeft(deadline) { return deadline == null ? null : Math.max(0, Math.ceil((deadline - (Date.now() + clockSkew)) / 1000)); }
  function tick() {
    if (!snap) return;
    const mine = snap.you && snap.you.deadline, pub = snap.room.clock && snap.room.clock.deadline;
    document.querySelectorAll("[data-clock]").forEach((el) => {
      const left = secondsLeft(el.dataset.clock === "you" ? mine : pub);
      el.textContent = left == null ? "" : `${left}s`;
    });
  }
  setInterval(tick, 250);

  $("variant").onchange = fillPresets;
  $("save-name").onclick = async () => {
    try {
      if (me) { me = await api("/api/me", "POST", { name: $("name").value }); renderMe(); }
      else { await ensurePlayer(); }
      loadHistory();
    } catch (e) { showLobbyError(e.message); }
  };
  function showLobbyError(msg) { $("lobby-error").textContent = msg; }
  $("create").onclick = async () => {
    try {
      await ensurePlayer();
      const options = {};
      for (const part of $("options").value.split(",")) {
        const [k, val] = part.split("=").map((x) => (x || "").trim());
        if (k) options[k] = val;
      }
      const r = await api("/api/rooms", "POST", { variant: $("variant").value, preset: $("preset").value,
        bots: $("bots").value, hands: +$("hands").value, stake: +$("stake").value, options });
      openRoom(r.code);
    } catch (e) { showLobbyError(e.message); }
  };
  $("join").onclick = async () => {
    try { await ensurePlayer(); const code = $("code").value.trim().toUpperCase(); await api(`/api/rooms/${encodeURIComponent(code)}/join`, "POST"); openRoom(code); }
    catch (e) { showLobbyError(e.message); }
  };
  $("watch").onclick = () => openRoom($("code").value.trim().toUpperCase(), true);
  $("sit-down").onclick = async () => {
    try {
      if (!me && $("sit-name").value.trim()) $("name").value = $("sit-name").value;
      await ensurePlayer();
      await api(`/api/rooms/${encodeURIComponent(roomCode)}/join`, "POST");
      if (ws) { ws.onclose = null; ws.close(); }
      connect(false);
    } catch (e) { showError(e.message); }
  };
  $("start").onclick = async () => { try { await api(`/api/rooms/${encodeURIComponent(roomCode)}/start`, "POST"); } catch (e) { showError(e.message); } };
  $("next").onclick = () => { send({ type: "ready" }); };
  $("auto").onclick = () => { if (snap && snap.seat != null) send({ type: "auto", on: !snap.room.auto[snap.seat] }); };
  $("close-settlement").onclick = () => $("settlement").close();
  $("to-lobby").onclick = () => { location.href = "/"; };

  async function openReplay(code, hand) {
    $("lobby").hidden = true; $("room").hidden = false;
    if (!CODE_RE.test(code) || !Number.isInteger(hand) || hand < 0) { showError("not a replay link"); return; }
    let data;
    try { data = await api(`/api/rooms/${encodeURIComponent(code)}/games/${hand}/frames`); } catch (e) { showError(e.message); return; }
    let i = 0;
    const show = () => {
      const f = data.frames[i], v = f.view;
      setHTML($("room-head"), h`Replay 回放 · room <code>${code}</code> · hand ${hand + 1} · step ${i}/${data.frames.length - 1}: ${f.label}`);
      setHTML($("table"), h`${v.players.map((p) => {
        const melds = p.melds.map((m) => h`<span class="meld">${tiles(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small")}</span>`);
        const disc = p.discards.map((t, k) => h`<span class="${p.claimed[k] ? "claimed" : ""}">${tiles([t], "small")}</span>`);
        return h`<div class="seat ${v.current === p.seat ? "turn" : ""}"><div class="who">${data.names[p.seat]} ${p.void ? "缺" + SUIT_ZH[p.void] : ""} · ${signed(v.totals[p.seat])}</div><div class="row">${tiles(splitTiles(p.hand), "small")} ${melds}</div><div class="row">${disc}</div></div>`;
      })}`);
      setHTML($("actions"), h`<button id="rp-first" aria-label="first">|◀</button><button id="rp-prev" aria-label="previous">◀</button><button id="rp-next" aria-label="next">▶</button><button id="rp-last" aria-label="last">▶|</button> <input id="rp-slider" type="range" min="0" max="${data.frames.length - 1}" value="${i}" aria-label="step">`);
      $("rp-first").onclick = () => { i = 0; show(); };
      $("rp-prev").onclick = () => { i = Math.max(0, i - 1); show(); };
      $("rp-next").onclick = () => { i = Math.min(data.frames.length - 1, i + 1); show(); };
      $("rp-last").onclick = () => { i = data.frames.length - 1; show(); };
      $("rp-slider").oninput = (e) => { i = +e.target.value; show(); };
      $("hints").textContent = i === data.frames.length - 1 ? data.settlement.payments.map((p) => `${data.names[p.from]} → ${data.names[p.to]} ${p.amount} ${p.reason}`).join(" · ") : "";
    };
    show();
  }

  (async () => {
    fillPresets();
    await loadMe();
    loadHistory();
    const params = new URLSearchParams(location.search);
    if (params.get("replay") != null) { openReplay(params.get("replay"), Number(params.get("hand") || 0)); return; }
    const code = params.get("room");
    if (code != null) {
      if (me && CODE_RE.test(code)) {
        try { await api(`/api/rooms/${encodeURIComponent(code)}/join`, "POST"); } catch (e) { /* started or full: watch */ }
      }
      openRoom(code);
    }
  })();
})();
