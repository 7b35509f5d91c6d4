"""``majiang analyze``: shanten, waits and discard advice for a hand."""

from __future__ import annotations

import json
import sys

from majiang.cli.common import MAX_HAND_LINE, UsageError, add_meld_options, bounded_lines, can_encode, melds_from_args, open_input
from majiang.core.analysis import analyze_hand, shanten
from majiang.core.errors import MajiangError
from majiang.core.hand import Hand
from majiang.core.jsontext import decode_text
from majiang.core.tiles import ALL_TILES, Tile, format_tiles, parse_tiles, to_counts
from majiang.core.variants import get_variant
from majiang.games import GAMES

EXAMPLE_HAND = "1112345678999p5z"


def _render_analysis(text: str, result: dict, hand: Hand, visible_counts, glyphs: bool = True, chinese: bool = True) -> str:
    """The text report; ``glyphs``/``chinese``: whether the output can show 🀄 tiles and Chinese
    names (a stream in GBK or ASCII cannot: plain tile codes then)."""
    lines = []
    tiles = hand.tiles
    shown = [format_tiles(tiles)] + ([format_tiles(tiles, "unicode")] if glyphs else []) \
        + ([format_tiles(tiles, "chinese")] if chinese else [])
    lines.append("hand    " + "   ".join(shown))
    def name(t: Tile) -> str:
        return f"{t} {t.chinese}" if chinese else str(t)

    if hand.melds:
        lines.append("melds   " + "  ".join(f"{m.kind.chinese} {m.tile} ({m.tile.chinese})" if chinese
                                            else f"{m.kind.value} {m.tile}" for m in hand.melds))
    s = result["shanten"]
    label = {-1: "complete (胡)", 0: "ready (听牌)"}.get(s, f"{s} from ready ({s}向听)") if chinese else \
        {-1: "complete", 0: "ready"}.get(s, f"{s} from ready")
    lines.append(f"shanten {s}: {label}")
    if "waits" in result:
        if result["waits"]:
            parts = [f"{name(Tile.parse(w))} {'×' if chinese else 'x'}{left}"
                     for w, left in zip(result["waits"], result["waits_left"])]
            lines.append(f"waits   {', '.join(parts)}  ({result['tiles_left']} tiles left)")
        return "\n".join(lines)
    lines.append("")
    lines.append(f"{'discard':<12}{'shanten':>8}  {'tiles':>5}  effective / waits")
    for o in result["discards"]:
        what = "waits " + " ".join(o["waits"]) if o["waits"] else " ".join(o["effective"])
        lines.append(f"{name(Tile.parse(o['tile'])):<12}{o['shanten']:>8}  {o['effective_count']:>5}  {what}")
    return "\n".join(lines)


def _with_tiles_left(result: dict, hand: Hand, visible_counts) -> dict:
    """A 13-tile result with what the text report shows of its waits: the copies of each wait not
    in the hand, its melds or ``--visible`` (``waits_left``), and their sum (``tiles_left``)."""
    if "waits" not in result:
        return result
    seen = hand.all_counts()
    left = [max(0, 4 - seen[t] - visible_counts[t]) for t in (Tile.parse(w) for w in result["waits"])]
    return {**result, "waits_left": left, "tiles_left": sum(left)}


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
        return _batch(args, variant, melds, visible)
    if args.shanten_only:
        raise UsageError("--shanten-only is for --batch (one hand's report shows its shanten first)")
    if not args.hand:
        raise UsageError("a HAND is required (e.g. majiang analyze 1112345678999p5z --variant kawuxing)")
    result = analyze_hand(args.hand, variant, melds, args.void, visible)
    hand = Hand.parse(args.hand, melds)
    result = _with_tiles_left(result, hand, visible)
    if args.json:
        print(json.dumps(result, ensure_ascii=not can_encode(sys.stdout, "五")))
    else:
        print(_render_analysis(args.hand, result, hand, visible, glyphs=can_encode(sys.stdout, "🀄🀙"),
                               chinese=can_encode(sys.stdout, "胡听牌向五筒条万白发中碰杠")))
    return 0


def _batch(args, variant, melds, visible) -> int:
    """One JSON line out per line in; a line that fails (not a hand, not text) gets an error object
    in its place, and the run ends with status 2 and a line naming how many failed."""
    where = "stdin" if args.batch == "-" else args.batch
    stream = open_input(args.batch)
    write = sys.stdout.write
    dumps = json.dumps
    ascii_only = not can_encode(sys.stdout, "五")
    failed = first = 0
    with stream:
        for n, raw in bounded_lines(stream, where, MAX_HAND_LINE):
            try:  # one result line per input line: a line that is not text is an error line too
                line = decode_text(raw, f"line {n}").strip()
                if args.shanten_only:
                    result = {"shanten": shanten(Hand.parse(line, melds), variant, args.void)}
                else:
                    result = analyze_hand(line, variant, melds, args.void, visible)
            except MajiangError as exc:
                failed += 1
                first = first or n
                result = {"error": str(exc)}
            write(dumps(result, ensure_ascii=ascii_only, separators=(",", ":")) + "\n")
    if failed:
        sys.stdout.flush()
        raise UsageError(f"analyze: {failed} of {n} lines failed (the first: line {first}); each has an error object")
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
    p.add_argument("--shanten-only", action="store_true",
                   help="with --batch: only each hand's shanten, {\"shanten\": N} a line (much faster)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_analyze)
