"""The home-screen icons (icon-192.png, icon-512.png): a 中 tile on the table's felt, drawn from
rectangles (no font needed, so every machine draws the same pixels).

    python scripts/make_icons.py            # rewrite src/majiang/server/static/icon-*.png

Needs Pillow. The felt fills the whole square and the tile stays inside its middle 80 %, so one
picture serves both as a plain icon and as a "maskable" one (the phone cuts it to a circle or a
rounded square). tests/page/test_pwa.py checks the sizes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent.parent / "src" / "majiang" / "server" / "static"
FELT, FELT_EDGE = (20, 84, 61), (10, 42, 32)
TILE, TILE_SIDE, TILE_EDGE = (251, 248, 239), (204, 194, 160), (138, 132, 112)
RED = (179, 38, 30)
SIZES = (192, 512)
DRAW = 1024  # drawn large, then scaled down: smooth edges


def picture() -> Image.Image:
    s = DRAW
    img = Image.new("RGB", (s, s), FELT)
    d = ImageDraw.Draw(img)
    d.ellipse((-s * 0.3, -s * 0.3, s * 1.3, s * 1.3), outline=FELT_EDGE, width=int(s * 0.12))  # a darker rim
    w, h = s * 0.46, s * 0.62  # the tile, upright, well inside the middle 80 %
    x0, y0 = (s - w) / 2, (s - h) / 2 - s * 0.02
    r = s * 0.06
    d.rounded_rectangle((x0, y0 + s * 0.04, x0 + w, y0 + h + s * 0.04), r, fill=TILE_SIDE, outline=TILE_EDGE, width=6)
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), r, fill=TILE, outline=TILE_EDGE, width=6)
    # 中: a wide box, and one stroke down through it
    cx, cy = s / 2, y0 + h / 2
    bw, bh, stroke = w * 0.64, h * 0.32, s * 0.06
    lift = h * 0.04
    d.rectangle((cx - bw / 2, cy - bh / 2 - lift, cx + bw / 2, cy + bh / 2 - lift), outline=RED, width=int(stroke))
    d.rectangle((cx - stroke / 2, cy - h * 0.36, cx + stroke / 2, cy + h * 0.36), fill=RED)
    return img


def main(argv: list[str]) -> int:
    big = picture()
    for size in SIZES:
        small = big.resize((size, size), Image.LANCZOS).quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        out = STATIC / f"icon-{size}.png"
        small.save(out, optimize=True)
        print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
