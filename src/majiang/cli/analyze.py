"""``majiang analyze``: shanten, waits and discard advice for a hand."""

from __future__ import annotations

import json
import sys

from majiang.cli.common import UsageError, add_meld_options, melds_from_args
from majiang.core.analysis import analyze_hand
from majiang.core.errors import MajiangError
from majiang.core.hand import Hand
from majiang.core.jsontext import decode_text
from majiang.core.tiles import ALL_TILES, Tile, format_tiles, parse_tiles, to_counts
from majiang.core.variants import get_variant
from majiang.games import GAMES

EXAMPLE_HAND = "1112345678999p5z"


def _render_analysis(text: str, result: dict, hand: Hand, visible_counts) -> str:
    lines = []
    tiles = hand.tiles
    lines.append(f"hand    {format_tiles(tiles)}   {format_tiles(tiles, 'unicode')}   {format_tiles(tiles, 'chinese')}")
    if hand.melds:
        lines.append("melds   " + "  ".join(f"{m.kind.chinese} {m.tile} ({m.tile.chinese})" for m in hand.melds))
    s = result["shanten"]
    label = {-1: "complete (胡)", 0: "ready (听牌)"}.get(s, f"{s} from ready ({s}向听)")
    lines.append(f"shanten {s}: {label}")
    seen = hand.all_counts()
    if "waits" in result:
        if result["waits"]:
            parts = []
            total = 0
            for w in result["waits"]:
                t = Tile.parse(w)
                left = max(0, 4 - seen[t] - visible_counts[t])
                total += left
                parts.append(f"{w} {t.chinese} ×{left}")
            lines.append(f"waits   {', '.join(parts)}  ({total} tiles left)")
        return "\n".join(lines)
    lines.append("")
    lines.append(f"{'discard':<12}{'shanten':>8}  {'tiles':>5}  effective / waits")
    for o in result["discards"]:
        t = Tile.parse(o["tile"])
        what = "waits " + " ".join(o["waits"]) if o["waits"] else " ".join(o["effective"])
        lines.append(f"{o['tile'] + ' ' + t.chinese:<12}{o['shanten']:>8}  {o['effective_count']:>5}  {what}")
    return "\n".join(lines)


def _visible_counts(text: str | None) -> list[int]:
    if not text:
        return [0] * 30
    counts = to_counts(parse_tiles(text))
    for k, c in enumerate(counts):
        if c > 4:
            raise MajiangError(f"--visible holds {c} copies of {ALL_TILES[k]} (at most 4)")
    return counts


def cmd_analyze(args) -> int:
    variant = get_variant(args.variant)
    if args.void and not variant.two_suit_rule:
        raise UsageError(f"--void is a Sichuan rule; {variant.name} has no void suit")
    melds = melds_from_args(args)
    visible = _visible_counts(args.visible)
    if args.batch is not None:
        if args.hand:
            raise UsageError("give either HAND or --batch FILE, not both")
        stream = sys.stdin.buffer if args.batch == "-" else open(args.batch, "rb")
        out = sys.stdout
        write = out.write
        dumps = json.dumps
        with stream:
            for n, raw in enumerate(stream, 1):
                try:  # one result line per input line: a line that is not text is an error line too
                    line = decode_text(raw, f"line {n}").strip()
                    result = analyze_hand(line, variant, melds, args.void, visible)
                except MajiangError as exc:
                    result = {"error": str(exc)}
                write(dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
        return 0
    if not args.hand:
        raise UsageError("a HAND is required (e.g. majiang analyze 1112345678999p5z --variant kawuxing)")
    result = analyze_hand(args.hand, variant, melds, args.void, visible)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(_render_analysis(args.hand, result, Hand.parse(args.hand, melds), visible))
    return 0


def register(sub) -> None:
    p = sub.add_parser("analyze", help="shanten, waits and discard advice for a hand",
                       description="Analyse a hand: shanten (向听), waits (听牌) with tiles left, and for a "
                       "3n+2 hand every discard with what it leaves. HAND is the concealed part only.")
    p.add_argument("hand", nargs="?", metavar="HAND", help=f"concealed tiles, e.g. {EXAMPLE_HAND}")
    p.add_argument("--variant", required=True, choices=list(GAMES))
    add_meld_options(p)
    p.add_argument("--void", choices=["m", "p", "s"], help="Sichuan: the declared void suit (定缺)")
    p.add_argument("--visible", metavar="TILES", help="tiles seen on the table (discards, others' melds)")
    p.add_argument("--batch", metavar="FILE", help="one hand per line ('-' for stdin); JSON lines out")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_analyze)
