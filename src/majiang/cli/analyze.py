"""``majiang analyze``: shanten, waits and discard advice for a hand."""

from __future__ import annotations

import json
import sys

from majiang.cli.common import (
    MAX_BATCH_BYTES,
    MAX_HAND_LINE,
    UsageError,
    add_meld_options,
    can_encode,
    melds_from_args,
    open_input,
)
from majiang.core.analysis import analyze_hand, shanten
from majiang.core.errors import MajiangError
from majiang.core.hand import Hand
from majiang.core.jsontext import decode_text
from majiang.core.tiles import ALL_TILES, Tile, format_tiles, parse_tiles, to_counts
from majiang.core.variants import get_variant
from majiang.games import GAMES

EXAMPLE_HAND = "1112345678999p5z"


def _render_analysis(text: str, result: dict, hand: Hand, visible_counts, glyphs: bool = True,
                     chinese: bool = True) -> str:
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
    if args.void and not variant.capabilities.void_suit:
        raise UsageError(f"--void needs a game with a void suit (定缺); {variant.name} has none")
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
    in its place, and the run ends with status 2 and a line naming how many failed.

    Read in blocks: closed hands in the plain notation (most batches) are parsed and analysed many
    at a time in numpy and C (``majiang.core.batch``); any other line takes the one-hand path,
    which also words every error, so both give the same line for the same hand."""
    where = "stdin" if args.batch == "-" else args.batch
    stream = open_input(args.batch, MAX_BATCH_BYTES)
    write = sys.stdout.write
    ascii_only = not can_encode(sys.stdout, "五")
    fast = _FastBatch(get_variant(variant), args.void, visible, args.shanten_only) if not melds else None
    failed = first = n = 0
    with stream:
        for block in _blocks(stream, where, MAX_HAND_LINE, max_bytes=MAX_BATCH_BYTES):
            count = block.count(b"\n")
            out = fast.answer(block, count) if fast is not None else [None] * count
            lines = block.split(b"\n") if None in out else []  # lines the fast path left: the one-hand path's
            for i in [i for i, o in enumerate(out) if o is None]:
                raw = lines[i]
                try:  # one result line per input line: a line that is not text is an error line too
                    line = decode_text(raw, f"line {n + i + 1}").strip()
                    if args.shanten_only:
                        result = {"shanten": shanten(Hand.parse(line, melds), variant, args.void)}
                    else:
                        result = analyze_hand(line, variant, melds, args.void, visible)
                except MajiangError as exc:
                    failed += 1
                    first = first or n + i + 1
                    result = {"error": str(exc)}
                out[i] = json.dumps(result, ensure_ascii=ascii_only, separators=(",", ":")) + "\n"
            n += count
            write("".join(out))
    if failed:
        sys.stdout.flush()
        raise UsageError(f"analyze: {failed} of {n} lines failed (the first: line {first}); each has an error object")
    return 0


def _blocks(stream, where: str, max_line: int, size: int = 1 << 20, max_bytes: int | None = None):
    """Whole lines of ``stream`` in blocks of about ``size`` bytes, each ending in a newline (one is
    added to a last line without). A line over ``max_line`` bytes ends the reading with a
    UsageError once the lines before it are yielded: a stream that never breaks its lines
    (/dev/zero) costs one block of memory, not all of it. So does more than ``max_bytes`` in all
    (a pipe that never ends)."""
    import numpy as np

    read = getattr(stream, "read1", stream.read)  # what has arrived: a slow pipe's lines are answered as they come
    carry = b""
    before = 0  # lines in earlier blocks
    total = 0
    while True:
        data = read(size)
        total += len(data)
        if max_bytes is not None and total > max_bytes:
            raise UsageError(f"{where}: more than the {max_bytes:,} bytes this command reads")
        if not data:
            if carry:
                yield carry + b"\n"
            return
        cut = data.rfind(b"\n")
        if cut < 0:
            carry += data
            if len(carry) > max_line:
                raise _too_long(where, before + 1, max_line)
            continue
        block, carry = carry + data[:cut + 1], data[cut + 1:]
        ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10)
        lengths = np.diff(ends, prepend=-1) - 1
        long = np.flatnonzero(lengths > max_line)
        if len(long):
            k = int(long[0])
            if k:
                yield block[:int(ends[k - 1]) + 1]
            raise _too_long(where, before + k + 1, max_line)
        before += len(ends)
        yield block
        if len(carry) > max_line:
            raise _too_long(where, before + 1, max_line)


def _too_long(where: str, line: int, max_line: int) -> UsageError:
    return UsageError(f"{where}: line {line} is longer than {max_line:,} bytes (not this command's input?)")


class _FastBatch:
    """The batch's fast path: closed 13- and 14-tile hands in the plain notation, answered as the
    one-hand path answers them (tests/cli/test_cli.py holds the two equal), many at a time."""

    def __init__(self, variant, void, visible, shanten_only: bool) -> None:
        import numpy as np

        self.np = np
        self.variant, self.void, self.shanten_only = variant, void, shanten_only
        self.visible = np.asarray(visible, dtype=np.int16)
        self.outside = np.ones(30, dtype=np.bool_)
        self.outside[sorted(variant.kind_set)] = False  # kinds not in this game
        self.names = [f'"{t}"' for t in ALL_TILES]
        self.shanten_lines = np.array([f'{{"shanten":{s}}}\n' for s in range(-1, 9)], dtype=object)
        # a set of kinds as JSON, from three pieces of 10 kinds each: ',"1m","3m"' and so on
        self.pieces = [["".join("," + self.names[g * 10 + k] for k in range(10) if bits >> k & 1)
                        for bits in range(1024)] for g in range(3)]
        self.weights = 1 << np.arange(10, dtype=np.int32)

    def _lists(self, rows) -> list[str]:
        """Each row of a (M, 30) bool array as the JSON list of its kinds' names, without brackets."""
        rows = rows.astype(self.np.int32)
        a, b, c = (rows[:, g * 10:g * 10 + 10] @ self.weights for g in range(3))
        p0, p1, p2 = self.pieces
        return [(p0[x] + p1[y] + p2[z])[1:] for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())]

    def answer(self, block: bytes, count: int) -> list:
        """The result line of each line of ``block`` this path answers; None for the others."""
        from majiang.core.batch import batch_discards, batch_shanten, batch_waits, parse_hands

        np = self.np
        out: list = [None] * count
        counts, ok = parse_hands(block)
        sizes = counts.sum(axis=1)
        ok &= ((sizes == 13) | (sizes == 14)) & (counts.max(axis=1) <= 4) & ~(counts[:, self.outside] > 0).any(axis=1)
        ok &= ((counts + self.visible) <= 4).all(axis=1)  # else the one-hand path words the error
        rows = np.flatnonzero(ok)
        if not len(rows):
            return out
        hands = counts[rows].astype(np.int8)
        sh = batch_shanten(hands, self.variant, self.void)
        if self.shanten_only:
            answered = np.full(count, None, dtype=object)
            answered[rows] = self.shanten_lines[sh.astype(np.intp) + 1]
            return answered.tolist()
        thirteen = sizes[rows] == 13
        self._waits(out, rows[thirteen], hands[thirteen], sh[thirteen], batch_waits)
        if (~thirteen).any():
            self._discards(out, rows[~thirteen], hands[~thirteen], sh[~thirteen], batch_discards)
        return out

    def _waits(self, out, rows, hands, sh, batch_waits) -> None:
        np = self.np
        waits = np.zeros(hands.shape, dtype=np.bool_)
        ready = sh == 0
        if ready.any():
            waits[ready] = batch_waits(hands[ready], self.variant, self.void)
        for r, s, listed in zip(rows.tolist(), sh.tolist(), self._lists(waits)):
            out[r] = f'{{"shanten":{s},"waits":[{listed}]}}\n'

    def _discards(self, out, rows, hands, sh, batch_discards) -> None:
        np = self.np
        hand, tile, s13, eff, unseen = batch_discards(hands, self.variant, self.void, self.visible)
        names = self.names
        options = [f'{{"tile":{names[t]},"shanten":{s},"waits":[{listed if s == 0 else ""}],'
                   f'"effective":[{listed}],"effective_count":{u}}}'
                   for t, s, listed, u in zip(tile.tolist(), s13.tolist(), self._lists(eff), unseen.tolist())]
        starts = np.flatnonzero(np.diff(hand, prepend=-1)).tolist() + [len(hand)]
        for r, s, a, b in zip(rows.tolist(), sh.tolist(), starts, starts[1:]):
            out[r] = (f'{{"shanten":{s},"win":{"true" if s == -1 else "false"},"discards":['
                      + ",".join(options[a:b]) + "]}\n")


def register(sub) -> None:
    p = sub.add_parser("analyze", help="shanten, waits and discard advice for a hand",
                       description="Analyse a hand: shanten (向听), waits (听牌) with tiles left, and for a "
                       "3n+2 hand every discard with what it leaves. HAND is the concealed part only.")
    p.add_argument("hand", nargs="?", metavar="HAND", help=f"concealed tiles, e.g. {EXAMPLE_HAND}")
    p.add_argument("--variant", required=True, choices=list(GAMES))
    add_meld_options(p)
    p.add_argument("--void", choices=["m", "p", "s"], help="Sichuan: the declared void suit (定缺)")
    p.add_argument("--visible", metavar="TILES", help="tiles seen on the table (discards, others' melds)")
    p.add_argument("--batch", metavar="FILE",
                   help="one hand per line ('-' for stdin); JSON lines out, one per line in (an error object for "
                   "a line that is not a hand; then status 2); lines of at most 4,096 bytes, 256 MiB in all")
    p.add_argument("--shanten-only", action="store_true",
                   help="with --batch: only each hand's shanten, {\"shanten\": N} a line (much faster)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_analyze)
