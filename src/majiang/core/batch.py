"""Shanten and waits of many closed hands at once (needs numpy, a dependency of every install).

The same tables as ``majiang.analysis``: each suit vector maps to a row class, and the min-plus
combinations of classes are precomputed as full arrays, so a batch is a few gathers. With the
Rust engine's module built (``analysis.rust``) ``batch_shanten`` and ``batch_waits`` are one call
into Rust over the whole array (rows of 1-byte counts are read in place); without it numpy
(shanten) and the one-hand Python functions (waits) answer the same.

>>> import numpy as np
>>> from majiang.core.tiles import parse_tiles, to_counts
>>> hands = np.array([to_counts(parse_tiles(h)) for h in ["1112345678999m", "123m456p789s11m23p"]])
>>> batch_shanten(hands, "sichuan").tolist()
[0, 3]
>>> batch_shanten(hands, "sichuan", void="s").tolist()
[0, 3]
>>> np.flatnonzero(batch_waits(hands[:1, :], "sichuan")[0]).tolist()  # 1112345678999m waits on 1-9m
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from majiang.core import analysis
from majiang.core.analysis import INF, _check_void, _plan, tables
from majiang.core.errors import HandError
from majiang.core.variants import Variant, get_variant


@functools.cache
def _arrays():
    t = tables()
    rows = np.array(t.rows, dtype=np.int16)  # (nc, 10)
    nc = len(rows)
    # pair[a, b] = min-plus combination (nc, nc, 10)
    comb = np.full((nc, nc, 10), INF, dtype=np.int16)
    for m in range(5):
        for p in range(2):
            j = m * 2 + p
            for m1 in range(m + 1):
                for p1 in range(p + 1):
                    comb[:, :, j] = np.minimum(comb[:, :, j],
                                               rows[:, None, m1 * 2 + p1] + rows[None, :, (m - m1) * 2 + p - p1])
    comb = np.minimum(comb, INF)
    pair_rows, pair_ids = np.unique(comb.reshape(-1, 10), axis=0, return_inverse=True)
    pair_ids = pair_ids.reshape(nc, nc)
    # final[sets][x, c] for x a row (nc or pair class) and c a class: sets sets + one pair
    def final(left: np.ndarray, sets: int) -> np.ndarray:
        out = np.full((len(left), nc), INF, dtype=np.int16)
        for m in range(sets + 1):
            out = np.minimum(out, left[:, None, m * 2] + rows[None, :, (sets - m) * 2 + 1])
            out = np.minimum(out, left[:, None, m * 2 + 1] + rows[None, :, (sets - m) * 2])
        return out
    two = [final(rows, s) for s in range(5)]
    three = [final(pair_rows.astype(np.int16), s) for s in range(5)]
    suit = np.frombuffer(t.suit, dtype=np.uint16) if t.suit.itemsize == 2 else np.array(t.suit, dtype=np.uint16)
    honour = np.array(t.honour, dtype=np.uint16)
    return suit, honour, pair_ids, two, three


_POW = 5 ** np.arange(8, -1, -1, dtype=np.int64)
_rust = analysis.rust  # the Rust module, or None
_POW3 = np.array([25, 5, 1], dtype=np.int64)


def batch_shanten(counts, variant: Variant | str, void: str | None = None, sets: int = 4,
                  out: np.ndarray | None = None) -> np.ndarray:
    """Shanten of each row of an (N, 30) or (N, 27) count array of closed hands, as int8.

    Seven pairs is included when ``sets`` is 4 (a full closed hand). ``out`` (an int8 array of
    N) is written and returned instead of a new array. With the Rust module built
    (``analysis.rust``) this is its ``batch_shanten``: one call into Rust does the batch, small
    or large; otherwise numpy does.
    """
    result = _batch_shanten_python(counts, variant, void, sets)
    if out is None:
        return result
    out[...] = result
    return out


def _batch_shanten_python(counts, variant: Variant | str, void: str | None = None, sets: int = 4) -> np.ndarray:
    if isinstance(sets, bool) or not hasattr(sets, "__index__") or not 0 <= operator.index(sets) <= 4:
        raise HandError(f"sets must be 0-4, got {sets!r}")
    sets = operator.index(sets)
    if not isinstance(counts, np.ndarray):
        counts = np.asarray(counts)
    if _rust is not None and counts.ndim == 2:  # the Rust path resolves the variant itself, once
        out = np.empty(len(counts), dtype=np.int8)
        # a strided view (a slice of columns) is copied once into rows Rust reads straight
        if _rust.shanten_rows(counts, out, variant, void, sets) or (
                not counts.flags.c_contiguous
                and _rust.shanten_rows(np.ascontiguousarray(counts), out, variant, void, sets)):
            return out
    resolved = get_variant(variant)
    _check_void(resolved, void)
    _check_counts(counts)
    return _batch_shanten_numpy(counts, resolved, void, sets)


def _check_counts(counts: np.ndarray) -> None:
    """What both batch functions take: an (N, 30) or (N, 27) integer array of 0-4 copies a kind."""
    if counts.ndim != 2 or counts.shape[1] not in (27, 30) or counts.dtype.kind not in "iub":
        raise HandError(f"counts must be an (N, 30) or (N, 27) integer array, got shape {counts.shape} "
                        f"of {counts.dtype}")
    if counts.size and (counts.min() < 0 or counts.max() > 4):
        raise HandError("counts must be 0-4 copies of a kind")


def _batch_shanten_numpy(counts: np.ndarray, variant: Variant, void: str | None, sets: int) -> np.ndarray:
    """``batch_shanten`` with numpy alone: the reference of the Rust path, and what answers without it."""
    suit, honour, pair_ids, two, three = _arrays()
    groups, choices = _plan(variant, void)
    packed = []
    tiles = []
    for g in groups:
        block = counts[:, g.start:g.start + g.size].astype(np.int64)
        packed.append(suit[block @ _POW] if g.size == 9 else honour[block @ _POW3])
        tiles.append(block.sum(axis=1))
    ids = [(p & 255).astype(np.intp) for p in packed]
    pairs = [(p >> 8).astype(np.int16) for p in packed]
    best = np.full(len(counts), INF, dtype=np.int16)
    for choice in choices:
        if len(choice) == 3:
            a, b, c = choice
            d = three[sets][pair_ids[ids[a], ids[b]], ids[c]]
        elif len(choice) == 2:
            a, b = choice
            d = two[sets][ids[a], ids[b]]
        else:
            raise ValueError("a single-group variant is not supported in batch mode")
        if sets == 4:
            p = sum(pairs[i] for i in choice)
            n = sum(tiles[i] for i in choice)
            need = 7 - p
            d7 = need + np.maximum(0, need - (n - 2 * p))
            d7 = np.where(need <= 0, 0, d7)
            d = np.minimum(d, d7)
        best = np.minimum(best, d)
    return best.astype(np.int8) - 1


def batch_waits(counts, variant: Variant | str, void: str | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """Waits of each row of an (N, 30) or (N, 27) count array of closed hands: a bool array of
    the same shape, ``[i, k]`` true when a tile of kind ``k`` completes hand ``i`` (what
    ``analysis.waits_counts(row, row, variant, void)`` lists). ``out`` (a bool array of that
    shape) is written and returned instead of a new array. With the Rust module built this is
    its ``batch_waits``: one call into Rust over the whole array."""
    counts = np.asarray(counts)
    resolved = get_variant(variant)
    _check_void(resolved, void)
    _check_counts(counts)
    result = np.zeros(counts.shape, dtype=np.bool_)
    pad = [0] * (30 - counts.shape[1])
    for i, row in enumerate(counts.tolist()):
        full = row + pad
        result[i, analysis._waits_counts_python(full, full, resolved, void)] = True
    if out is None:
        return result
    out[...] = result
    return out


_python_batch_shanten, _python_batch_waits = batch_shanten, batch_waits  # what a compiled path hands on to
if _rust is not None:  # the Rust functions, which hand what they do not take to the ones above
    import importlib

    try:  # numpy's C-API table, through which Rust makes result arrays (checked there on a probe)
        _array_api = importlib.import_module("numpy._core._multiarray_umath")._ARRAY_API
    except ImportError:  # numpy 1
        _array_api = importlib.import_module("numpy.core._multiarray_umath")._ARRAY_API
    _rust.configure_batch(batch_shanten, batch_waits, np.empty, np.dtype(np.int8), np.dtype(np.uint8),
                          np.dtype(np.bool_), _array_api, np.zeros((3, 30), dtype=np.int8))
    batch_shanten = _rust.batch_shanten  # noqa: F811
    batch_waits = _rust.batch_waits  # noqa: F811


# ---------------------------------------------------------------------------------------------
# Many hands from text at once (``majiang analyze --batch``): a parser of the plain notation over a
# whole block of lines in numpy, and every discard of many 14-tile hands with its effective tiles.

_BYTE_KIND = np.full(256 * 16, -1, dtype=np.int16)  # [suit letter * 16 + digit] -> kind (-1: no tile)
for _letter, _base in ((b"m", 0), (b"p", 9), (b"s", 18)):
    _BYTE_KIND[_letter[0] * 16 + 1:_letter[0] * 16 + 10] = np.arange(_base, _base + 9)
_BYTE_KIND[ord("z") * 16 + 5:ord("z") * 16 + 8] = (27, 28, 29)  # 5z 白, 6z 发, 7z 中 (no winds in either game)
_BYTE_CLASS = np.zeros(256, dtype=np.uint8)  # 0 any other byte, 1 a digit 1-9, 2 a suit letter, 3 a newline
_BYTE_CLASS[list(b"123456789")] = 1
_BYTE_CLASS[list(b"mpsz")] = 2
_BYTE_CLASS[10] = 3


def parse_hands(lines) -> tuple[np.ndarray, np.ndarray]:
    """Tile counts of many hands in the plain notation (``123m456p55z``) at once: ``lines`` is
    bytes (or text) holding one hand a line, or a list of lines. Returns an (N, 30) int16 array of
    counts and an (N,) bool array, True where the line is plain notation read here; a line in any
    other form (Chinese names, 🀄, spaces, a stray letter, digits with no suit, a wind), or not
    ASCII, is False with a row of zeros, for ``Hand.parse`` to read or refuse. Counts are not
    checked (a fifth copy is counted): that is the caller's, as for ``batch_shanten``.

    >>> counts, ok = parse_hands(b"1112345678999m\\n5z6z7z\\n12x\\n")
    >>> ok.tolist(), counts[0, :9].tolist(), counts[1, 27:].tolist()
    ([True, True, False], [3, 1, 1, 1, 1, 1, 1, 1, 3], [1, 1, 1])
    """
    if isinstance(lines, (list, tuple)):
        lines = (b"\n" if lines and isinstance(lines[0], bytes) else "\n").join(lines)
    if isinstance(lines, str):
        lines = lines.encode("utf-8", "surrogatepass")
    buf = np.frombuffer(lines if lines.endswith(b"\n") else lines + b"\n", dtype=np.uint8)
    cls = _BYTE_CLASS[buf]
    newline = cls == 3
    n = int(np.count_nonzero(newline))
    line_of = np.cumsum(newline, dtype=np.int32)
    line_of -= newline  # the line each byte belongs to (its newline included)
    bad = np.zeros(n + 1, dtype=np.bool_)
    bad[line_of[cls == 0]] = True  # any other byte: not plain notation
    # each digit takes the next suit letter or newline after it (a newline: no suit, not plain)
    marks = cls >= 2
    marker_at = np.flatnonzero(marks)
    d = np.flatnonzero(cls == 1)
    following = marker_at[np.cumsum(marks, dtype=np.int32)[d]]
    kinds = _BYTE_KIND[buf[following].astype(np.intp) * 16 + (buf[d] - 48)]
    bad[line_of[d[kinds < 0]]] = True  # digits with no suit letter after them, or 1z-4z
    s = np.flatnonzero(cls == 2)
    bad[line_of[s[(s == 0) | (cls[s - 1] != 1)]]] = True  # a suit letter with no digit before it (s - 1 = -1: the
    # buffer's last byte, a newline, so the first byte's letter is caught either way)
    keep = kinds >= 0
    flat = np.bincount(line_of[d[keep]] * 30 + kinds[keep], minlength=n * 30)
    counts = flat[:n * 30].reshape(n, 30).astype(np.int16)
    ok = ~bad[:n]
    counts[~ok] = 0
    return counts, ok


def batch_discards(counts, variant: Variant | str, void: str | None = None, visible=None):
    """Every distinct discard of many closed 14-tile hands, as ``discard_advice`` gives them one
    hand at a time (its order: best shanten, then most unseen effective tiles, then most kinds,
    then tile order). ``counts``: an (N, 30) array of valid hands of the variant; ``visible``: 30
    counts of tiles seen elsewhere, or None. Returns, one row per discard, grouped by hand in
    order: ``hand`` (its row in ``counts``), ``tile`` (the kind discarded), ``shanten`` (of the 13
    tiles left), ``effective`` ((M, 30) bool: the draws that lower it; the waits when it is 0)
    and ``unseen`` (the copies of those not in the hand nor ``visible``)."""
    resolved = get_variant(variant)
    counts = np.asarray(counts, dtype=np.int8)
    hand, tile = np.nonzero(counts)
    after = counts[hand]
    after[np.arange(len(hand)), tile] -= 1
    shanten = batch_shanten(after, resolved, void)
    kinds = np.array(sorted(resolved.kind_set), dtype=np.intp)
    effective = np.zeros(after.shape, dtype=np.bool_)
    ready = shanten == 0
    if ready.any():
        effective[ready] = batch_waits(after[ready], resolved, void)
    rest = np.flatnonzero(~ready)
    for start in range(0, len(rest), 4096):  # a draw of every kind: (rows × kinds) hands a call, in slices
        rows = rest[start:start + 4096]
        drawn = np.repeat(after[rows], len(kinds), axis=0)
        can = (after[rows][:, kinds] < 4)  # a fifth copy is no draw (and not a hand to ask about)
        drawn[np.arange(len(drawn)), np.tile(kinds, len(rows))] += can.reshape(-1).astype(np.int8)
        lower = batch_shanten(drawn, resolved, void).reshape(len(rows), len(kinds)) < shanten[rows, None]
        effective[rows[:, None], kinds[None, :]] = lower & can
    seen = counts[hand].astype(np.int16)
    if visible is not None:
        seen = seen + np.asarray(visible, dtype=np.int16)[None, :30]
    unseen = np.where(effective, np.maximum(0, 4 - seen), 0).sum(axis=1)
    n_eff = effective.sum(axis=1)
    key = ((((hand.astype(np.int64) * 16 + shanten) * 256 + (255 - unseen)) * 64 + (63 - n_eff)) * 32 + tile)
    order = np.argsort(key, kind="stable")
    return hand[order], tile[order], shanten[order], effective[order], unseen[order]
