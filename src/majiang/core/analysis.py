"""Hand analysis: win test, readings, waits, shanten and discard advice, per variant.

Shanten here is the exact exchange distance minus one: the least number of tiles that must be
drawn (each replacing a discard) before the hand is ready. -1 means the hand already wins.
Per-suit tables (``scripts/build_tables.py``, shipped compressed in ``data/``) give, for every
suit vector and every target of *m* sets and *p* pairs, how many tiles must be added; a hand is
the min-plus combination of its suits, so no search runs at analysis time.

>>> from majiang.core.hand import Hand, Meld
>>> shanten(Hand.parse("1112345678999p"), "kawuxing")
0
>>> [str(t) for t in waits(Hand.parse("1112345678999p"), "kawuxing")]
['1p', '2p', '3p', '4p', '5p', '6p', '7p', '8p', '9p']
>>> is_winning(Hand.parse("11223344556677s"), "kawuxing")
True
>>> shanten(Hand.parse("123m456p789s11m23p"), "sichuan")  # three suits: 789s must go
3
>>> is_winning(Hand.parse("123m456p789s11m456m"), "sichuan")
False
>>> four_pongs = [Meld.pong("1p"), Meld.pong("2p"), Meld.pong("3p"), Meld.pong("4p")]
>>> [str(t) for t in waits(Hand.parse("1p", melds=four_pongs), "kawuxing")]
[]
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import sys
import zlib
from array import array
from dataclasses import dataclass
from importlib import resources
from typing import Any

from majiang.core.errors import HandError
from majiang.core.hand import Hand, MeldKind
from majiang.core.tiles import ALL_TILES, Tile
from majiang.core.variants import Variant, get_variant

ROW = 10  # distances to a target of (sets, pair), index sets*2 + pair
INF = 99
_POW5 = tuple(5 ** (8 - i) for i in range(9))
SUIT_START = {"m": 0, "p": 9, "s": 18}


class _Tables:
    """Shipped per-group classes plus min-plus combinations filled in lazily.

    Every suit vector (5**9 of them) and dragon vector (125) maps to one of 146 distinct rows;
    the combination of two rows is one of 180. So combining is a lookup in small tables that
    fill themselves on first use (a few hundred kB at most).
    """

    def __init__(self) -> None:
        data = resources.files("majiang").joinpath("data")
        self.suit = array("H", zlib.decompress(data.joinpath("suit_table.bin").read_bytes()))
        self.honour = array("H", zlib.decompress(data.joinpath("honour_table.bin").read_bytes()))
        if sys.byteorder != "little":
            self.suit.byteswap()
            self.honour.byteswap()
        self.rows: list[tuple[int, ...]] = [tuple(r) for r in json.loads(data.joinpath("classes.json").read_text())]
        self.nc = len(self.rows)
        self.pair_ids = bytearray(b"\xff" * (self.nc * self.nc))
        self.pair_rows: list[tuple[int, ...]] = []
        self._pair_index: dict[tuple[int, ...], int] = {}
        self.final2 = [bytearray(b"\xff" * (self.nc * self.nc)) for _ in range(5)]
        self.final3 = [bytearray(b"\xff" * (256 * self.nc)) for _ in range(5)]

    def pair(self, ia: int, ib: int) -> int:
        """Class of the combination of two group classes."""
        j = ia * self.nc + ib
        v = self.pair_ids[j]
        if v == 255:
            row = _min_plus(self.rows[ia], self.rows[ib])
            known = self._pair_index.get(row)
            if known is None:
                known = self._pair_index[row] = len(self.pair_rows)
                self.pair_rows.append(row)
                assert known < 255
            self.pair_ids[j] = v = known
        return v

    def two(self, sets: int, ia: int, ib: int) -> int:
        table = self.final2[sets]
        j = ia * self.nc + ib
        v = table[j]
        if v == 255:
            v = table[j] = min(_combiner(2, sets)(self.rows[ia], self.rows[ib]), INF)
        return v

    def three(self, sets: int, ia: int, ib: int, ic: int) -> int:
        ab = self.pair(ia, ib)
        table = self.final3[sets]
        j = ab * self.nc + ic
        v = table[j]
        if v == 255:
            v = table[j] = min(_combiner(2, sets)(self.pair_rows[ab], self.rows[ic]), INF)
        return v


def _min_plus(a, b) -> tuple[int, ...]:
    return tuple(
        min(INF, min(a[m1 * 2 + p1] + b[(m - m1) * 2 + p - p1] for m1 in range(m + 1) for p1 in range(p + 1)))
        for m in range(5) for p in range(2)
    )


@functools.cache
def tables() -> _Tables:
    return _Tables()


def table_info() -> dict:
    """Sizes of the loaded tables, for documentation and checks."""
    t = tables()
    return {"suit_vectors": len(t.suit), "honour_vectors": len(t.honour), "classes": t.nc,
            "pair_classes_seen": len(t.pair_rows)}


# ---------------------------------------------------------------------------------------------
# Group rows: a group is a suit (nine kinds) or the dragons (three kinds, no sequences).


def _suit_key(c, s: int) -> int:
    return ((((((((c[s] * 5 + c[s + 1]) * 5 + c[s + 2]) * 5 + c[s + 3]) * 5 + c[s + 4]) * 5
                + c[s + 5]) * 5 + c[s + 6]) * 5 + c[s + 7]) * 5 + c[s + 8])


def _honour_key(c) -> int:
    return (c[27] * 5 + c[28]) * 5 + c[29]


# (tiles added at this kind, sequences started here, sets added, pairs added), by tiles added
_DP_OPTIONS = {
    seq: sorted((k + 3 * trip + 2 * pr, k, k + trip, pr)
                for k in (range(5) if seq else (0,)) for trip in (0, 1) for pr in (0, 1))
    for seq in (True, False)
}


@functools.lru_cache(maxsize=65536)
def capped_row(counts: tuple[int, ...], caps: tuple[int, ...], sequences: bool = True) -> tuple[int, ...]:
    """Distances for one group when some kinds have fewer than four copies left (melds hold them).

    A left-to-right dynamic programme over kinds, independent of the shipped tables; the tests
    also use it as the reference the tables are checked against.

    >>> capped_row((1, 0, 0, 0, 0, 0, 0, 0, 0), (4,) * 9)[:4]   # (sets, pair): (0,0) (0,1) (1,0) (1,1)
    (0, 1, 2, 4)
    >>> capped_row((1, 0, 0, 0, 0, 0, 0, 0, 0), (1,) + (4,) * 8)[1]  # a pair of 1s needs a 2nd 1: gone
    2
    """
    n = len(counts)
    # state: (pending seqs from i-1, pending from i-2, sets, pairs) -> best overlap
    states = {(0, 0, 0, 0): 0}
    for i in range(n):
        h, cap = counts[i], caps[i]
        options = _DP_OPTIONS[sequences and i <= n - 3]
        new: dict[tuple[int, int, int, int], int] = {}
        get = new.get
        for (a, b, m, p), ov in states.items():
            base = a + b
            room = cap - base
            if room < 0:
                continue
            for add, k, dm, dp in options:
                if add > room:
                    break
                if m + dm > 4 or p + dp > 1:
                    continue
                t = base + add
                key = (k, a, m + dm, p + dp)
                val = ov + (h if h < t else t)
                if get(key, -1) < val:
                    new[key] = val
        states = new
    best = [-1] * 10
    for (a, b, m, p), ov in states.items():
        if a == 0 and b == 0 and ov > best[m * 2 + p]:
            best[m * 2 + p] = ov
    return tuple(INF if best[j] < 0 else 3 * (j // 2) + 2 * (j % 2) - best[j] for j in range(10))


@dataclass(frozen=True)
class _Group:
    start: int
    size: int  # 9 or 3

    def key(self, c) -> int:
        return _suit_key(c, self.start) if self.size == 9 else _honour_key(c)

    def packed(self, c) -> int:
        """``class | pairs << 8`` from the shipped table."""
        t = tables()
        return t.suit[_suit_key(c, self.start)] if self.size == 9 else t.honour[_honour_key(c)]

    def row(self, c, caps=None) -> tuple[int, ...]:
        if caps is not None:
            s = self.start
            cap = tuple(caps[s:s + self.size])
            if min(cap) < 4:
                return capped_row(tuple(c[s:s + self.size]), cap, self.size == 9)
        return tables().rows[self.packed(c) & 255]

    def tiles(self, c) -> int:
        return sum(c[self.start:self.start + self.size])

    def pairs(self, c) -> int:
        return sum(x // 2 for x in c[self.start:self.start + self.size])


_GROUPS = {"m": _Group(0, 9), "p": _Group(9, 9), "s": _Group(18, 9), "z": _Group(27, 3)}


# ---------------------------------------------------------------------------------------------
# Min-plus combination of group rows, unrolled once per (groups, sets) shape.


@functools.cache
def _combiner(groups: int, sets: int):
    """A function of ``groups`` rows giving the least additions for ``sets`` sets and one pair."""
    used: set = set()
    terms = []
    for parts in itertools.product(range(sets + 1), repeat=groups):
        if sum(parts) != sets:
            continue
        for j in range(groups):
            idx = [parts[g] * 2 + (1 if g == j else 0) for g in range(groups)]
            used.update((g, idx[g]) for g in range(groups))
            terms.append("+".join(f"r{g}_{idx[g]}" for g in range(groups)))
    args = ", ".join(f"r{g}" for g in range(groups))
    lines = [f"def combine({args}):"]
    for g, i in sorted(used):
        lines.append(f"    r{g}_{i} = r{g}[{i}]")
    lines.append(f"    return {terms[0]}" if len(terms) == 1 else f"    return min({', '.join(terms)})")
    ns: dict = {}
    exec("\n".join(lines), ns)  # noqa: S102 - generated from the fixed shape above
    return ns["combine"]


def _seven_pairs_distance(pairs: int, tiles: int) -> int:
    """Tiles to add for seven pairs (a four counts as two pairs), from the usable pairs and tiles."""
    need = 7 - pairs
    if need <= 0:
        return 0
    singles = tiles - 2 * pairs
    return need + max(0, need - singles)


def _groups_for(variant: Variant) -> list[str]:
    return [s for s in variant.suits] + (["z"] if variant.dragons else [])


def _check_void(variant: Variant, void: str | None) -> str | None:
    if void is None:
        return None
    if not variant.capabilities.void_suit:
        raise HandError(f"{variant.name} has no void suit (定缺)")
    if not isinstance(void, str) or len(void) != 1 or void not in variant.suits:  # one suit, not "mp" or ""
        raise HandError(f"void suit must be one of {', '.join(variant.suits)}, got {str(void)[:8]!r}")
    return void


def _suit_choices(variant: Variant, void: str | None) -> list[list[str]]:
    """The sets of groups a win may use: all of them, or (Sichuan) every two-suit choice."""
    if not variant.capabilities.two_suits:
        return [_groups_for(variant)]
    if void is not None:
        return [[s for s in variant.suits if s != void]]
    return [[s for s in variant.suits if s != v] for v in variant.suits]


@functools.cache
def _plan(variant: Variant, void: str | None,
          meld_suits: str = "") -> tuple[tuple[_Group, ...], tuple[tuple[int, ...], ...]]:
    """The variant's groups and, as index tuples into them, the group sets a win may use
    (for Sichuan, those holding every suit the melds are in)."""
    names = _groups_for(variant)
    choices = [c for c in _suit_choices(variant, void) if all(s in c for s in meld_suits)]
    return tuple(_GROUPS[g] for g in names), tuple(tuple(names.index(g) for g in c) for c in choices)


NO_WIN = INF - 1  # shanten of a hand that can never win (Sichuan melds in three suits or the void)


def shanten_counts(counts, variant: Variant | str, sets: int = 4, void: str | None = None,
                   caps=None, seven_pairs: bool | None = None, meld_suits: str = "") -> int:
    """Shanten of a concealed count vector that must still form ``sets`` sets and a pair.

    ``caps`` (per kind, copies not held by melds) matters only when melds exist; ``meld_suits``
    are the suits of the melds, which a Sichuan hand must keep.
    Seven pairs counts when ``seven_pairs`` (default: when ``sets`` is 4 and ``caps`` is None).
    No validation: this is the fast path under ``shanten``. Returns ``NO_WIN`` (98) when no
    win can be reached.
    """
    if variant.__class__ is not Variant:
        variant = get_variant(variant)
    if seven_pairs is None:
        seven_pairs = sets == 4 and caps is None
    groups, choices = _plan(variant, void, meld_suits)
    t = tables()
    if caps is not None and min(min(caps[g.start:g.start + g.size]) for g in groups) < 4:
        rows = [g.row(counts, caps) for g in groups]
        ids = None
    else:
        packed = [g.packed(counts) for g in groups]
        ids = [v & 255 for v in packed]
    best = NO_WIN + 1
    for choice in choices:
        if ids is None:
            d = _combiner(len(choice), sets)(*(rows[i] for i in choice))
        elif len(choice) == 3:
            d = t.three(sets, ids[choice[0]], ids[choice[1]], ids[choice[2]])
        elif len(choice) == 2:
            d = t.two(sets, ids[choice[0]], ids[choice[1]])
        else:
            d = t.rows[ids[choice[0]]][sets * 2 + 1]
        if seven_pairs:
            pairs = sum(groups[i].pairs(counts) for i in choice) if ids is None else sum(packed[i] >> 8 for i in choice)
            if 7 - pairs < d:
                d = min(d, _seven_pairs_distance(pairs, sum(groups[i].tiles(counts) for i in choice)))
        if d < best:
            best = d
    return best - 1


def closed_shanten_function(variant: Variant | str, void: str | None = None):
    """A specialised shanten for closed 13/14-tile count vectors (no melds), for bots and batches.

    >>> f = closed_shanten_function("sichuan")
    >>> from majiang.core.tiles import to_counts, parse_tiles
    >>> f(to_counts(parse_tiles("1112345678999m")))
    0
    """
    variant = get_variant(variant)
    t = tables()
    suit, honour = t.suit, t.honour
    three, two = t.three, t.two
    groups, choices = _plan(variant, void)
    starts = [g.start for g in groups]

    if not variant.capabilities.two_suits and len(groups) == 3:
        s0, s1 = starts[0], starts[1]
        g2 = groups[2]
        third = (lambda c: honour[(c[27] * 5 + c[28]) * 5 + c[29]]) if g2.size == 3 \
            else (lambda c, s=g2.start: suit[_suit_key(c, s)])

        def closed_shanten(c) -> int:
            v0 = suit[_suit_key(c, s0)]
            v1 = suit[_suit_key(c, s1)]
            v2 = third(c)
            d = three(4, v0 & 255, v1 & 255, v2 & 255)
            d7 = 7 - ((v0 >> 8) + (v1 >> 8) + (v2 >> 8))
            return (d if d < d7 else d7) - 1
        return closed_shanten

    def two_suit_shanten(c) -> int:  # Sichuan: the best two suits (or the two besides the void)
        v = [suit[_suit_key(c, s)] for s in starts]
        best = INF
        for i, j in choices:
            vi, vj = v[i], v[j]
            d = two(4, vi & 255, vj & 255)
            pairs = (vi >> 8) + (vj >> 8)
            if 7 - pairs < d:
                si, sj = starts[i], starts[j]
                d = min(d, _seven_pairs_distance(pairs, sum(c[si:si + 9]) + sum(c[sj:sj + 9])))
            if d < best:
                best = d
        return best - 1
    return two_suit_shanten


def _caps(hand: Hand):
    if not hand.melds:
        return None
    caps = [4] * 30
    for m in hand.melds:
        caps[m.tile] -= m.size
    return caps


def _meld_suits(hand: Hand, variant: Variant) -> str:
    if not variant.capabilities.two_suits:
        return ""
    return "".join(sorted({m.tile.suit for m in hand.melds}))


def shanten(hand: Hand, variant: Variant | str, void: str | None = None) -> int:
    """Distance to ready of a 3n+1 or 3n+2 hand (best of standard and seven pairs).

    Sichuan hands must drop one suit (the declared void, or whichever is cheapest); a hand whose
    melds already hold three suits, or the void suit, can never win and gets ``NO_WIN`` (98).

    >>> shanten(Hand.parse("123p456p789p11s34s"), "kawuxing")
    0
    """
    variant = get_variant(variant)
    hand.check(variant)
    void = _check_void(variant, void)
    closed_full = not hand.melds and hand.concealed_count >= 13
    return shanten_counts(hand.counts, variant, hand.sets_needed, void, _caps(hand),
                          seven_pairs=closed_full, meld_suits=_meld_suits(hand, variant))


def _suits_ok(hand: Hand, variant: Variant, void: str | None) -> bool:
    if not variant.capabilities.two_suits:
        return True
    c = hand.all_counts()
    present = [s for s in variant.suits if any(c[SUIT_START[s]:SUIT_START[s] + 9])]
    return len(present) <= 2 and (void is None or void not in present)


def _is_standard_win(counts) -> bool:
    pair_groups = 0
    for g in ("m", "p", "s", "z"):
        grp = _GROUPS[g]
        n = grp.tiles(counts)
        if n == 0:
            continue
        r = n % 3
        if r == 1:
            return False
        if r == 2:
            pair_groups += 1
            if pair_groups > 1:
                return False
        if grp.row(counts)[(n // 3) * 2 + (r == 2)] != 0:
            return False
    return pair_groups == 1


def _is_seven_pairs(hand: Hand) -> bool:
    return not hand.melds and hand.concealed_count == 14 and all(c % 2 == 0 for c in hand.counts)


def complete_counts(counts, totals, variant: Variant, void: str | None = None, closed: bool = True) -> bool:
    """Fast path of ``is_winning`` on a 3n+2 concealed count vector (``totals`` includes the
    meld tiles, for the Sichuan suit rule); no validation."""
    if variant.capabilities.two_suits:
        if void is not None:  # without the void suit at most two suits remain
            start = SUIT_START[void]
            if any(totals[start:start + 9]):
                return False
        elif sum(1 for s in variant.suits if any(totals[SUIT_START[s]:SUIT_START[s] + 9])) > 2:
            return False
    if _is_standard_win(counts):
        return True
    # seven pairs (a four counts as two pairs): fourteen tiles, no odd count
    return closed and sum(counts) == 14 and not counts.count(1) and not counts.count(3)


def is_winning(hand: Hand, variant: Variant | str, void: str | None = None) -> bool:
    """Whether a 3n+2 hand (winning tile included) is complete under the variant's rules.

    >>> is_winning(Hand.parse("123p456p789p11s345s"), "kawuxing")
    True
    """
    variant = get_variant(variant)
    hand.check(variant, sizes=(2,))
    void = _check_void(variant, void)
    if not _suits_ok(hand, variant, void):
        return False
    return _is_standard_win(hand.counts) or _is_seven_pairs(hand)


def waits(hand: Hand, variant: Variant | str, void: str | None = None) -> list[Tile]:
    """Tiles that complete a 3n+1 hand, in tile order, counting only tiles that can still exist
    (not all four already in the player's own hand and melds).

    >>> waits(Hand.parse("123p456p789p11s34s"), "kawuxing")
    [2s, 5s]
    """
    variant = get_variant(variant)
    hand.check(variant, sizes=(1,))
    void = _check_void(variant, void)
    return [ALL_TILES[t] for t in waits_counts(hand.counts, hand.all_counts(), variant, void,
                                               closed=not hand.melds)]


def waits_counts(counts, totals, variant: Variant, void: str | None = None, closed: bool = True) -> list[int]:
    """Fast path of ``waits`` on count vectors (``totals`` includes meld tiles); no validation.

    Only the group that receives the tile changes, so each candidate is one table lookup.
    """
    t = tables()
    if variant.capabilities.two_suits:
        present = [s for s in variant.suits if any(totals[SUIT_START[s]:SUIT_START[s] + 9])]
        if len(present) > 2 or (void is not None and void in present):
            return []
    groups = _plan(variant, None)[0]
    info = []
    for g in groups:
        n = g.tiles(counts)
        packed = g.packed(counts)
        r = n % 3
        done = r != 1 and t.rows[packed & 255][(n // 3) * 2 + (r == 2)] == 0
        info.append((g, n, packed, r, done))
    out = []
    unfinished = [j for j, o in enumerate(info) if not o[4]]
    # the new tile changes one group, so every other group must already be complete: with two
    # unfinished groups (most hands) only seven pairs can still wait
    for gi, (g, n, packed, r, _) in enumerate(info) if len(unfinished) < 2 else ():
        if (n + 1) % 3 == 1 or (unfinished and unfinished[0] != gi):
            continue
        pair_groups = sum(1 for j, o in enumerate(info) if j != gi and o[3] == 2) + ((n + 1) % 3 == 2)
        if pair_groups != 1:
            continue
        if variant.capabilities.two_suits and n == 0:
            continue  # a lone tile of a new suit never completes
        idx = ((n + 1) // 3) * 2 + ((n + 1) % 3 == 2)
        table = t.suit if g.size == 9 else t.honour
        key = g.key(counts)
        pows = _POW5 if g.size == 9 else (25, 5, 1)
        for r_ in range(g.size):
            k = g.start + r_
            if totals[k] < 4 and t.rows[table[key + pows[r_]] & 255][idx] == 0:
                out.append(k)
    if closed and sum(counts) == 13:
        pairs = sum(x // 2 for x in counts)
        if pairs == 6:
            odd = next(k for k in range(30) if counts[k] % 2)
            if totals[odd] < 4 and odd not in out:
                out.append(odd)
                out.sort()
    return out


# ---------------------------------------------------------------------------------------------
# The compiled path: the Rust engine's hand analysis (``native/``), bound to CPython as the optional
# extension module ``majiang.core._analysis`` (``native/src/python.rs``, built by setup.py where
# cargo is found, and shipped in the wheels): ``shanten`` and ``waits`` of one hand,
# ``shanten_counts`` and ``waits_counts``, in one call into Rust, with no Python frame around it.
# Whatever it cannot decide (bad input) it hands, as called, to the Python functions above, kept as
# ``_shanten_python``, ``_waits_python``, ``_shanten_counts_python`` and ``_waits_counts_python``:
# the reference, raising the usual errors. Without the module (an install without cargo, which
# said so in one line when it installed) these answer themselves. ``MAJIANG_NO_EXT=1`` leaves it
# unloaded (to test or time the Python path).


def _rust_plan(variant: Variant | str) -> tuple[int, int, int, int]:
    """What the Rust binding asks once per variant object: its kinds (a bit per kind), its suits
    (a bit per suit m, p, s), whether the dragons are a group, and whether the two-suit rule holds."""
    variant = get_variant(variant)
    return (sum(1 << int(t) for t in variant.kinds), sum(1 << "mps".index(s) for s in variant.suits),
            int(any(int(t) >= 27 for t in variant.kinds)), int(variant.capabilities.two_suits))


def _configure_rust(module: Any) -> Any:
    """Hand the Rust binding what it needs once: the Python functions it forwards what it cannot
    decide to, the variant resolver, the shipped tables (native-endian uint16 bytes), ``MeldKind.PONG``
    and ``ALL_TILES``."""
    t = tables()
    rows = array("H", (v for row in t.rows for v in row)).tobytes()
    module.configure(_shanten_python, _waits_python, _rust_plan, t.suit.tobytes(), t.honour.tobytes(), rows,
                     MeldKind.PONG, tuple(ALL_TILES), _shanten_counts_python, _waits_counts_python)
    return module


def _load_rust() -> Any:
    if os.environ.get("MAJIANG_NO_EXT"):
        return None
    try:
        from majiang.core import _analysis  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _configure_rust(_analysis)


_shanten_python = shanten
_waits_python = waits
_shanten_counts_python = shanten_counts
_waits_counts_python = waits_counts
rust = _load_rust()  # the Rust module, or None: the Python functions answer
if rust is not None:
    globals().update(shanten=rust.shanten, waits=rust.waits, shanten_counts=rust.shanten_counts,
                     waits_counts=rust.waits_counts)


# ---------------------------------------------------------------------------------------------
# Readings (decompositions) of a winning hand, for scoring.


@dataclass(frozen=True)
class Reading:
    """One way to read a complete hand: the pair and the concealed sets, or seven pairs.

    ``sets`` holds ("sequence", lowest tile) and ("triplet", tile) for the concealed part only;
    the hand's melds are separate.
    """

    pair: Tile | None
    sets: tuple[tuple[str, Tile], ...]
    seven_pairs: bool = False

    def __repr__(self) -> str:
        if self.seven_pairs:
            return "Reading(seven pairs)"
        body = " ".join(
            (f"{t}{ALL_TILES[t + 1].rank}{ALL_TILES[t + 2].rank}" if kind == "sequence" else f"{t}x3")
            for kind, t in self.sets
        )
        return f"Reading(pair {self.pair}; {body})"


def _decompose(counts: list[int], start: int, acc: list, out: list) -> None:
    i = start
    while i < 30 and counts[i] == 0:
        i += 1
    if i == 30:
        out.append(tuple(acc))
        return
    if counts[i] >= 3:
        counts[i] -= 3
        acc.append(("triplet", ALL_TILES[i]))
        _decompose(counts, i, acc, out)
        acc.pop()
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        acc.append(("sequence", ALL_TILES[i]))
        _decompose(counts, i, acc, out)
        acc.pop()
        for k in (i, i + 1, i + 2):
            counts[k] += 1


def readings(hand: Hand, variant: Variant | str, void: str | None = None) -> list[Reading]:
    """Every reading of a winning 3n+2 hand (empty if it does not win).

    >>> for reading in readings(Hand.parse("11122233344455m"), "sichuan"):
    ...     print(reading)
    Reading(pair 2m; 1mx3 2m34 3m45 3m45)
    Reading(pair 5m; 1m23 1m23 1m23 4mx3)
    Reading(pair 5m; 1mx3 2m34 2m34 2m34)
    Reading(pair 5m; 1mx3 2mx3 3mx3 4mx3)
    """
    variant = get_variant(variant)
    if not is_winning(hand, variant, void):
        return []
    out: list[Reading] = []
    counts = list(hand.counts)
    for p in range(30):
        if counts[p] >= 2:
            counts[p] -= 2
            found: list = []
            _decompose(counts, 0, [], found)
            out.extend(Reading(ALL_TILES[p], sets) for sets in found)
            counts[p] += 2
    if _is_seven_pairs(hand):
        out.append(Reading(None, (), True))
    return sorted(set(out), key=lambda r: (r.seven_pairs, r.pair or 0, r.sets))


# ---------------------------------------------------------------------------------------------
# Discard advice.


@dataclass(frozen=True)
class DiscardOption:
    tile: Tile
    shanten: int
    waits: tuple[Tile, ...]
    effective: tuple[Tile, ...]
    effective_count: int

    def to_json(self) -> dict:
        return {
            "tile": str(self.tile),
            "shanten": self.shanten,
            "waits": [str(t) for t in self.waits],
            "effective": [str(t) for t in self.effective],
            "effective_count": self.effective_count,
        }


def effective_tiles(hand: Hand, variant: Variant | str, void: str | None = None) -> tuple[int, list[Tile]]:
    """For a 3n+1 hand: its shanten and the tiles whose draw lowers it (tiles that can exist)."""
    variant = get_variant(variant)
    s = shanten(hand, variant, void)
    if s == 0:
        return s, waits(hand, variant, void)
    total = hand.all_counts()
    counts = list(hand.counts)
    caps = _caps(hand)
    closed_full = not hand.melds and hand.concealed_count == 13
    out = []
    for t in variant.kinds:
        if total[t] >= 4:
            continue
        counts[t] += 1
        if shanten_counts(counts, variant, hand.sets_needed, void, caps, seven_pairs=closed_full,
                          meld_suits=_meld_suits(hand, variant)) < s:
            out.append(t)
        counts[t] -= 1
    return s, out


def discard_advice(hand: Hand, variant: Variant | str, void: str | None = None,
                   visible=None) -> list[DiscardOption]:
    """For a 3n+2 hand: every distinct discard with the shanten it leaves, its waits, its
    effective tiles and how many of those are unseen, best first.

    >>> discard_advice(Hand.parse("123p456p789p11s34s7z"), "kawuxing")[0]
    DiscardOption(tile=7z, shanten=0, waits=(2s, 5s), effective=(2s, 5s), effective_count=8)

    Unseen copies = 4 minus those in the 14-tile hand (the discard counts as seen), the melds
    and ``visible`` (tiles on the table, as counts or a list of tiles).
    """
    variant = get_variant(variant)
    hand.check(variant, sizes=(2,))
    seen = list(hand.all_counts())
    if visible is not None:
        vis = visible if len(visible) == 30 and all(isinstance(v, int) and v <= 4 for v in visible) \
            and not isinstance(visible[0], Tile) else None
        if vis is None:
            vis = [0] * 30
            for t in visible:
                vis[t] += 1
        for k in range(30):
            seen[k] += vis[k]
    out = []
    for x in sorted({t for t in hand.tiles}):
        after = hand.remove(x)
        s, eff = effective_tiles(after, variant, void)
        count = sum(max(0, 4 - seen[t]) for t in eff)
        out.append(DiscardOption(x, s, tuple(eff) if s == 0 else (), tuple(eff), count))
    out.sort(key=lambda o: (o.shanten, -o.effective_count, -len(o.effective), int(o.tile)))
    return out


def isolation(counts, k: int) -> int:
    """Higher is more useful: neighbours and copies make a tile worth keeping."""
    score = counts[k] * 3
    if k < 27:
        r = k % 9
        for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= r + d <= 8:
                score += w * min(counts[k + d], 1)
        if r in (0, 8):
            score -= 1
    return score


def analyze_hand(text: str, game: str, melds: list, void: str | None, visible) -> dict:
    """What ``majiang analyze`` and the web game's hint say of one hand, as JSON: shanten, and the
    waits (13 tiles) or each discard's effect (14 tiles). Raises ``MajiangError`` on bad input."""
    variant = get_variant(game)
    hand = Hand.parse(text, melds)
    s = shanten(hand, variant, void)  # validates the hand
    if visible is not None:
        for k, (own, seen) in enumerate(zip(hand.all_counts(), visible)):
            if own + seen > 4:
                raise HandError(f"{ALL_TILES[k]}: the hand holds {own} and {seen} more are visible; "
                                "there are only 4 of each tile")
    if hand.concealed_count % 3 == 1:
        w = waits_counts(hand.counts, hand.all_counts(), variant, void, closed=not hand.melds) if s == 0 else []
        return {"shanten": s, "waits": [str(ALL_TILES[t]) for t in w]}
    advice = discard_advice(hand, variant, void, visible=visible)
    return {"shanten": s, "win": s == -1, "discards": [o.to_json() for o in advice]}
