"""The ``majiang`` command line.

Every subcommand takes ``--json`` for scripts; bad input exits with status 2 and one line on
stderr naming the problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from majiang.core.analysis import analyze_hand
from majiang.core.errors import MajiangError
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import ALL_TILES, Tile, format_tiles, parse_tiles, to_counts
from majiang.core.variants import get_variant

EXAMPLE_HAND = "1112345678999p5z"


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def _add_meld_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pong", action="append", default=[], metavar="T", help="a pong (碰) of tile T; repeatable")
    p.add_argument("--kong", action="append", default=[], metavar="T",
                   help="an exposed kong (明杠: 直杠 or 蓄杠) of T; repeatable")
    p.add_argument("--concealed-kong", action="append", default=[], metavar="T",
                   help="a concealed kong (暗杠) of T; repeatable")


def _melds(args) -> list[Meld]:
    return ([Meld.pong(t) for t in args.pong] + [Meld.kong(t) for t in args.kong]
            + [Meld.concealed_kong(t) for t in args.concealed_kong])


# ---------------------------------------------------------------------------------------------
# analyze


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
    melds = _melds(args)
    visible = _visible_counts(args.visible)
    if args.batch is not None:
        if args.hand:
            raise UsageError("give either HAND or --batch FILE, not both")
        stream = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")
        out = sys.stdout
        write = out.write
        dumps = json.dumps
        with stream:
            for line in stream:
                line = line.strip()
                try:
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


# ---------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="majiang",
        description="Kawuxing (卡五星) and Sichuan blood-battle (血战到底) mahjong: analysis, scoring, play.",
        epilog="Tiles are written 123m456p789s and 5z 白, 6z 发, 7z 中 (Chinese names and 🀄 also read).",
    )
    parser.add_argument("--version", action="version", version="majiang 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("analyze", help="shanten, waits and discard advice for a hand",
                       description="Analyse a hand: shanten (向听), waits (听牌) with tiles left, and for a "
                       "3n+2 hand every discard with what it leaves. HAND is the concealed part only.")
    p.add_argument("hand", nargs="?", metavar="HAND", help=f"concealed tiles, e.g. {EXAMPLE_HAND}")
    p.add_argument("--variant", required=True, choices=["kawuxing", "sichuan"])
    _add_meld_options(p)
    p.add_argument("--void", choices=["m", "p", "s"], help="Sichuan: the declared void suit (定缺)")
    p.add_argument("--visible", metavar="TILES", help="tiles seen on the table (discards, others' melds)")
    p.add_argument("--batch", metavar="FILE", help="one hand per line ('-' for stdin); JSON lines out")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_analyze)

    from majiang.cli import game as cli_game  # noqa: F401  (registers score, simulate, play, replay)
    cli_game.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return args.func(args)
    except (UsageError, MajiangError) as exc:
        msg = str(exc).replace("\n", " ")
        print(msg if msg.startswith("majiang") else f"majiang: {msg}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"majiang: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
