// Tile art drawn here as SVG: no third-party images. Kinds are written 1m-9m, 1p-9p, 1s-9s, 5z 白, 6z 发, 7z 中.
(function () {
  const NUM = "一二三四五六七八九";
  const SUIT = { m: ["万", "#b3261e"], p: ["筒", "#1f4fa3"], s: ["条", "#1d7a3a"] };
  const DRAGON = { "5": ["白", "#1f4fa3"], "6": ["发", "#1d7a3a"], "7": ["中", "#b3261e"] };
  function dots(n, color) {
    //筒: circles in a small grid
    const pos = { 1: [[20, 28]], 2: [[20, 16], [20, 40]], 3: [[11, 12], [20, 28], [29, 44]],
      4: [[12, 16], [28, 16], [12, 40], [28, 40]], 5: [[12, 14], [28, 14], [20, 28], [12, 42], [28, 42]],
      6: [[12, 12], [28, 12], [12, 28], [28, 28], [12, 44], [28, 44]],
      7: [[10, 10], [20, 16], [30, 22], [12, 34], [28, 34], [12, 46], [28, 46]],
      8: [[12, 9], [28, 9], [12, 22], [28, 22], [12, 35], [28, 35], [12, 48], [28, 48]],
      9: [[9, 11], [20, 11], [31, 11], [9, 28], [20, 28], [31, 28], [9, 45], [20, 45], [31, 45]] };
    const r = n === 1 ? 11 : n <= 4 ? 6.5 : 5;
    return pos[n].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${color}" stroke-width="2.2"/>`).join("");
  }
  function sticks(n, color) {
    // 条: short bamboo sticks
    let out = "";
    const cols = n <= 3 ? n : n <= 6 ? 3 : 3, rows = Math.ceil(n / cols);
    for (let i = 0; i < n; i++) {
      const c = i % cols, r = Math.floor(i / cols);
      const x = 20 + (c - (Math.min(cols, n - r * cols) - 1) / 2) * 10, y = 28 + (r - (rows - 1) / 2) * 16;
      out += `<rect x="${x - 2.5}" y="${y - 6.5}" width="5" height="13" rx="2" fill="${(n === 1 || i === 0 && n % 2) ? "#b3261e" : color}"/>`;
    }
    return out;
  }
  window.tileSVG = function (tile) {
    let body = "";
    if (!tile) {
      body = `<rect x="3" y="3" width="34" height="50" rx="5" fill="#2c7a5c"/><rect x="7" y="7" width="26" height="42" rx="3" fill="none" stroke="#7fc9a8" stroke-width="1.2"/>` +
        `<path d="M20 16 L27 28 L20 40 L13 28 Z" fill="none" stroke="#7fc9a8" stroke-width="1.2"/>`;
    } else {
      const rank = tile[0], suit = tile[1];
      if (suit === "z") {
        const [ch, color] = DRAGON[rank];
        body = ch === "白" ? `<rect x="9" y="10" width="22" height="36" rx="3" fill="none" stroke="${color}" stroke-width="2.5"/>`
          : `<text x="20" y="37" font-size="26" text-anchor="middle" fill="${color}" font-weight="bold">${ch}</text>`;
      } else if (suit === "p") {
        body = dots(+rank, SUIT.p[1]);
      } else if (suit === "s") {
        body = sticks(+rank, SUIT.s[1]);
      } else {
        body = `<text x="20" y="24" font-size="17" text-anchor="middle" fill="#222">${NUM[+rank - 1]}</text>` +
          `<text x="20" y="47" font-size="17" text-anchor="middle" fill="${SUIT.m[1]}">万</text>`;
      }
    }
    if (tile && !/^[1-9][mps]$|^[5-7]z$/.test(tile)) tile = null;  // only tile codes reach the markup
    const label = tile ? window.tileName(tile) : (window.I18N && window.I18N.lang === "en" ? "hidden tile" : "暗牌");
    return `<svg viewBox="0 0 40 56" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}">` +
      `<rect x="1" y="1" width="38" height="54" rx="5" fill="#fbf8ef" stroke="#8a8470"/>${body}</svg>`;
  };
  window.tileName = function (tile) {
    if (window.I18N) return window.I18N.tileName(tile);
    const rank = tile[0], suit = tile[1];
    if (suit === "z") return DRAGON[rank][0];
    return NUM[+rank - 1] + SUIT[suit][0];
  };
})();
