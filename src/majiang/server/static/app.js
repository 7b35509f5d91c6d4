// The browser client: lobby, table and settlement. All state comes from the server's snapshots.
(function () {
  const $ = (id) => document.getElementById(id);
  const PRESETS = { kawuxing: ["standard", "xiangyang", "suizhou"], sichuan: ["chengdu", "modern"] };
  const LABEL = { discard: "打", win: "胡 win", pong: "碰 pong", kong: "杠 kong", concealed_kong: "暗杠 kong",
    added_kong: "蓄杠 kong", pass: "过 pass", declare: "亮倒 declare", sing: "唱歌 sing", void: "定缺", exchange: "换三张" };
  let token = localStorage.getItem("majiang.token");
  let me = JSON.parse(localStorage.getItem("majiang.me") || "null");
  let ws = null, snap = null, roomCode = null, retry = 0, picked = [], pickedFor = "", decisionSince = Date.now();

  async function api(path, method = "GET", body = null) {
    const res = await fetch(path, { method, headers: { "Content-Type": "application/json", "X-Token": token || "" },
      body: body ? JSON.stringify(body) : null });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.detail || data.error || res.statusText);
    return data;
  }
  function showError(msg) { $("error").textContent = msg || ""; }
  function fillPresets() { $("preset").innerHTML = PRESETS[$("variant").value].map((p) => `<option>${p}</option>`).join(""); }
  function renderMe() { $("me").textContent = me ? `${me.name}` : ""; $("name").value = me ? me.name : ""; }

  async function ensurePlayer() {
    if (token && me) return;
    const name = $("name").value.trim() || "player";
    const p = await api("/api/players", "POST", { name });
    token = p.token; me = { id: p.id, name: p.name };
    localStorage.setItem("majiang.token", token); localStorage.setItem("majiang.me", JSON.stringify(me));
    renderMe();
  }
  async function loadHistory() {
    if (!token) return;
    try {
      const rows = await api("/api/history");
      $("history").innerHTML = rows.map((r) => `<div><a href="/?room=${r.room}">${r.room}</a> ${r.variant} ${r.status} · ${r.hands} hands · seat ${r.seat} · ${r.totals[r.seat] >= 0 ? "+" : ""}${r.totals[r.seat]}` +
        Array.from({ length: r.hands }, (_, h) => ` <a href="/?replay=${r.room}&hand=${h}">replay ${h + 1}</a>`).join("") + `</div>`).join("") || "—";
    } catch (e) { /* a fresh player has no history */ }
  }

  function openRoom(code, spectate) {
    roomCode = code;
    history.replaceState(null, "", `/?room=${code}`);
    $("lobby").hidden = true; $("room").hidden = false;
    connect(spectate);
  }
  function connect(spectate) {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = spectate || !token ? "" : `?token=${encodeURIComponent(token)}`;
    ws = new WebSocket(`${proto}://${location.host}/ws/${roomCode}${q}`);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "snapshot") {
        if (!snap || snap.seq !== msg.seq) decisionSince = Date.now();
        // keep a half-made 换三张 selection while others choose theirs (their choices move seq on)
        const key = pickKey(msg);
        if (key !== pickedFor) { picked = []; pickedFor = key; }
        snap = msg; retry = 0; showError(""); render();
      }
      else if (msg.type === "error") showError(msg.message);
    };
    ws.onclose = () => { setTimeout(() => connect(spectate), Math.min(5000, 500 * ++retry)); };
  }
  function pickKey(m) {
    const v = m.view, me = v && m.seat != null ? v.players[m.seat] : null;
    return me ? `${m.room.hand_index}|${v.phase}|${me.hand}` : "";
  }
  function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
  function act(action) { send({ type: "action", seq: snap.seq, action }); }

  function tiles(list, cls = "", click = null) {
    return list.map((t, i) => `<span class="tile ${cls} ${click ? "click" : ""}" data-i="${i}" data-tile="${t || ""}" title="${t ? t + " " + tileName(t) : "?"}">${tileSVG(t)}</span>`).join("");
  }
  function splitTiles(s) { const out = []; let digits = []; for (const ch of s || "") { if (/[0-9]/.test(ch)) digits.push(ch); else { digits.forEach((d) => out.push(d + ch)); digits = []; } } return out; }

  function render() {
    const r = snap.room, v = snap.view;
    $("room-head").innerHTML = `<b>${r.variant === "kawuxing" ? "卡五星" : "血战到底"}</b> ${r.preset} · room <code>${r.code}</code> · hand ${r.hand_index + 1}/${r.hands} · stake ${r.stake} · totals ${r.match_totals.map((t, i) => `${r.names[i]} ${t >= 0 ? "+" : ""}${t}`).join(" · ")}`;
    $("waiting").hidden = r.status !== "lobby";
    if (r.status === "lobby") {
      $("share").textContent = `${location.origin}/?room=${r.code}`;
      $("seats").innerHTML = r.names.map((n, i) => `<div>seat ${i}: ${n}</div>`).join("");
      $("table").innerHTML = ""; $("actions").innerHTML = ""; return;
    }
    if (!v) return;
    const mySeat = snap.seat;
    const order = mySeat == null ? v.players.map((p) => p.seat) : v.players.map((_, i) => (mySeat + i) % v.players.length);
    $("table").innerHTML = `<div>wall 牌墙 ${v.tiles_left} · phase ${v.phase}${v.last_discard ? ` · last discard ${v.last_discard.tile}` : ""}</div>` +
      order.map((s) => {
        const p = v.players[s];
        const melds = p.melds.map((m) => `<span class="meld">${tiles(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small")}</span>`).join("");
        const disc = p.discards.map((t, i) => `<span class="${p.claimed[i] ? "claimed" : ""}">${tiles([t], "small")}</span>`).join("");
        const hand = s === mySeat && p.hand ? tiles(splitTiles(p.hand), "", true) : (p.hand ? tiles(splitTiles(p.hand), "small") : tiles(Array(p.tiles).fill(null), "small"));
        const flags = [p.declared ? p.declared : "", p.void ? `缺${p.void}` : "", p.out ? "won 已胡" : "", s === v.dealer ? "庄" : ""].filter(Boolean).join(" ");
        const revealed = p.revealed && p.revealed.waits ? ` · waits ${p.revealed.waits.join(" ")}` : "";
        return `<div class="seat ${s === mySeat ? "me" : ""} ${v.current === s && v.phase === "turn" ? "turn" : ""}">` +
          `<div class="who">${r.names[s]} ${flags}${revealed} · ${v.totals[s] >= 0 ? "+" : ""}${v.totals[s]}</div>` +
          `<div class="row">${hand} ${melds}</div><div class="row">${disc}</div></div>`;
      }).join("");
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
    let html = others.map((a, i) =>
      `<button data-i="${i}">${LABEL[a.type] || a.type} ${a.tile || ""}${a.suit ? a.suit : ""}</button>`).join("");
    let chosen = null;
    if (exchanges.length) {
      const mine = splitTiles(v.players[mySeat].hand);
      const sel = picked.map((i) => mine[i]).sort().join("");
      chosen = exchanges.find((a) => a.tiles.slice().sort().join("") === sel) || null;
      html += `<button id="do-exchange" ${chosen ? "" : "disabled"}>换三张 pass ${picked.length ? picked.map((i) => mine[i]).join(" ") : "— pick three tiles of one suit"}</button>`;
    }
    $("actions").innerHTML = html + (legal.length ? ` <span id="timer"></span>` : "");
    document.querySelectorAll("#actions button[data-i]").forEach((b) => { b.onclick = () => act(others[+b.dataset.i]); });
    if (chosen) $("do-exchange").onclick = () => act(chosen);
    const h = snap.hints;
    $("hints").innerHTML = !h ? "" : h.discards ? "hint 建议: " + h.discards.slice(0, 3).map((d) => `打 ${d.tile} → ${d.shanten === 0 ? "听 " + d.waits.join(" ") : d.shanten + "向听"} (${d.effective_count} left)`).join(" · ")
      : h.waits && h.waits.length ? "听牌 waiting on " + h.waits.map((w) => `${w.tile} ${tileName(w.tile)} ×${w.left}`).join(" · ") : h.shanten > 0 ? `${h.shanten} 向听 from ready` : "";
    if (snap.settlement && !$("settlement").open) showSettlement();
  }
  function showSettlement() {
    const s = snap.settlement, names = snap.room.names, variant = snap.room.variant;
    const wins = s.wins.map((w) => `<p><b>${names[w.seat]}</b> 胡 ${w.tile} ${w.self_draw ? "自摸" : "点炮 " + names[w.discarder]}: ` +
      w.fans.map((f) => `${f.name} ${f.english} ${variant === "kawuxing" ? "×" + f.multiplier : f.fan + "番"}`).join(", ") + ` → ×${w.multiplier}</p>`).join("");
    const pays = s.payments.map((p) => `<tr><td>${names[p.from]}</td><td>→ ${names[p.to]}</td><td>${p.amount}</td><td>${p.reason} ${p.detail || ""}</td></tr>`).join("");
    $("settlement-body").innerHTML = `<h2>${s.result === "draw" ? "荒庄 drawn hand" : "结算 settlement"}</h2>${wins}<table class="pay">${pays}</table>` +
      `<p>hand: ${s.totals.map((t, i) => `${names[i]} ${t >= 0 ? "+" : ""}${t}`).join(" · ")}</p>` +
      `<p>match: ${snap.room.match_totals.map((t, i) => `${names[i]} ${t >= 0 ? "+" : ""}${t}`).join(" · ")}</p>` +
      (snap.room.match_over ? "<p><b>Match over 终局</b></p>" : "");
    $("next").hidden = snap.room.match_over || snap.seat == null;
    $("settlement").showModal();
  }

  setInterval(() => { const t = $("timer"); if (t) t.textContent = `time ${Math.floor((Date.now() - decisionSince) / 1000)}s`; }, 500);
  $("variant").onchange = fillPresets;
  $("save-name").onclick = async () => { token = null; me = null; await ensurePlayer(); loadHistory(); };
  $("create").onclick = async () => {
    try {
      await ensurePlayer();
      const options = {};
      for (const part of $("options").value.split(",")) {
        const [k, v] = part.split("=").map((x) => (x || "").trim());
        if (k) options[k] = v;
      }
      const r = await api("/api/rooms", "POST", { variant: $("variant").value, preset: $("preset").value,
        bots: $("bots").value, hands: +$("hands").value, stake: +$("stake").value, options });
      openRoom(r.code);
    } catch (e) { alert(e.message); }
  };
  $("join").onclick = async () => {
    try { await ensurePlayer(); const code = $("code").value.trim().toUpperCase(); await api(`/api/rooms/${code}/join`, "POST"); openRoom(code); }
    catch (e) { alert(e.message); }
  };
  $("watch").onclick = () => openRoom($("code").value.trim().toUpperCase(), true);
  $("start").onclick = async () => { try { await api(`/api/rooms/${roomCode}/start`, "POST"); } catch (e) { showError(e.message); } };
  $("next").onclick = () => { $("settlement").close(); send({ type: "next" }); };
  $("close-settlement").onclick = () => $("settlement").close();

  async function openReplay(code, hand) {
    $("lobby").hidden = true; $("room").hidden = false;
    let data;
    try { data = await api(`/api/rooms/${code}/games/${hand}/frames`); } catch (e) { showError(e.message); return; }
    let i = 0;
    const show = () => {
      const f = data.frames[i], v = f.view;
      $("room-head").innerHTML = `Replay 回放 · room <code>${code}</code> · hand ${hand + 1} · step ${i}/${data.frames.length - 1}: ${f.label}`;
      $("table").innerHTML = v.players.map((p) => {
        const melds = p.melds.map((m) => `<span class="meld">${tiles(Array(m.kind === "pong" ? 3 : 4).fill(m.tile), "small")}</span>`).join("");
        const disc = p.discards.map((t, k) => `<span class="${p.claimed[k] ? "claimed" : ""}">${tiles([t], "small")}</span>`).join("");
        return `<div class="seat ${v.current === p.seat ? "turn" : ""}"><div class="who">${data.names[p.seat]} ${p.void ? "缺" + p.void : ""} · ${v.totals[p.seat] >= 0 ? "+" : ""}${v.totals[p.seat]}</div>` +
          `<div class="row">${tiles(splitTiles(p.hand), "small")} ${melds}</div><div class="row">${disc}</div></div>`;
      }).join("");
      $("actions").innerHTML = `<button id="rp-first">⏮</button><button id="rp-prev">◀</button><button id="rp-next">▶</button><button id="rp-last">⏭</button>` +
        ` <input id="rp-slider" type="range" min="0" max="${data.frames.length - 1}" value="${i}">`;
      $("rp-first").onclick = () => { i = 0; show(); };
      $("rp-prev").onclick = () => { i = Math.max(0, i - 1); show(); };
      $("rp-next").onclick = () => { i = Math.min(data.frames.length - 1, i + 1); show(); };
      $("rp-last").onclick = () => { i = data.frames.length - 1; show(); };
      $("rp-slider").oninput = (e) => { i = +e.target.value; show(); };
      $("hints").innerHTML = i === data.frames.length - 1 ? data.settlement.payments.map((p) => `${data.names[p.from]} → ${data.names[p.to]} ${p.amount} ${p.reason}`).join(" · ") : "";
    };
    show();
  }

  fillPresets(); renderMe(); loadHistory();
  const params = new URLSearchParams(location.search);
  if (params.get("replay")) { openReplay(params.get("replay"), +(params.get("hand") || 0)); return; }
  if (params.get("room")) {
    const code = params.get("room");
    (async () => {
      try { if (token) await api(`/api/rooms/${code}/join`, "POST"); } catch (e) { /* watch instead */ }
      openRoom(code);
    })();
  }
})();
