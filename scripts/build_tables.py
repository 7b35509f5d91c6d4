"""Build the per-suit distance tables shipped in ``src/majiang/data/``.

For every count vector ``h`` of one suit (nine kinds, 0-4 copies each: 5**9 vectors) and every
target of ``m`` sets (0-4) plus ``p`` pairs (0-1), the table holds the least number of tiles that
must be *added* to ``h`` so that it contains such a target with no kind above four copies:
``d(h) = min over targets t of sum(max(t_i - h_i, 0))``. A whole hand's shanten is the
min-plus combination of its suits' rows, minus one (see ``majiang.analysis``).
The dragons use a three-kind table built the same way without sequences (99 = impossible).

Only 146 distinct rows occur, so what ships is small: ``classes.json`` lists the rows, and
``suit_table.bin``/``honour_table.bin`` (zlib) hold one little-endian uint16 per vector:
``class | pairs << 8`` where ``pairs = sum(c // 2)`` feeds seven-pairs shanten.

Run: ``python scripts/build_tables.py`` (needs numpy; takes a few seconds). Output is
deterministic; ``tests/core/test_analysis.py`` checks the shipped tables against an independent reference.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import zlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "src" / "majiang" / "data"
ROW = 10  # distances, index sets*2 + pair


def shifted(arr: np.ndarray, vec: tuple[int, ...]) -> np.ndarray:
    """result[h] = arr[h - vec] where h >= vec, else False."""
    out = np.zeros_like(arr)
    src = tuple(slice(0, 5 - v) for v in vec)
    dst = tuple(slice(v, 5) for v in vec)
    out[dst] = arr[src]
    return out


def build(kinds: int, sequences: bool) -> bytes:
    shape = (5,) * kinds
    unit = lambda pos, n: tuple(n if k == pos else 0 for k in range(kinds))  # noqa: E731
    melds = [unit(i, 3) for i in range(kinds)]
    if sequences:
        melds += [tuple(1 if i <= k <= i + 2 else 0 for k in range(kinds)) for i in range(kinds - 2)]
    pairs = [unit(i, 2) for i in range(kinds)]

    exact = {}
    base = np.zeros(shape, dtype=bool)
    base[(0,) * kinds] = True
    exact[0, 0] = base
    for m in range(1, 5):
        acc = np.zeros(shape, dtype=bool)
        for meld in melds:
            acc |= shifted(exact[m - 1, 0], meld)
        exact[m, 0] = acc
    for m in range(5):
        acc = np.zeros(shape, dtype=bool)
        for pair in pairs:
            acc |= shifted(exact[m, 0], pair)
        exact[m, 1] = acc

    rows = np.zeros(shape + (ROW,), dtype=np.uint8)
    for (m, p), targets in exact.items():
        contains = targets.copy()
        for axis in range(kinds):  # upward closure: h contains a target
            contains = np.logical_or.accumulate(contains, axis=axis)
        dist = np.where(contains, 0, 99).astype(np.int16)
        while True:  # d(h) = 1 + min_i d(h + e_i) where h lacks a target
            new = dist.copy()
            for axis in range(kinds):
                lo = [slice(None)] * kinds
                hi = [slice(None)] * kinds
                lo[axis] = slice(0, 4)
                hi[axis] = slice(1, 5)
                new[tuple(lo)] = np.minimum(new[tuple(lo)], dist[tuple(hi)] + 1)
            if np.array_equal(new, dist):
                break
            dist = new
        assert dist.max() <= 14 or not sequences  # 3 dragon kinds cannot hold 4 sets: 99
        rows[..., m * 2 + p] = dist
    pairs = np.zeros(shape, dtype=np.uint16)
    for idx in itertools.product(range(5), repeat=kinds):
        pairs[idx] = sum(c // 2 for c in idx)
    return rows.reshape(-1, ROW), pairs.reshape(-1)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    built = {name: build(kinds, seqs) for name, kinds, seqs in (("suit", 9, True), ("honour", 3, False))}
    classes, inverse = np.unique(np.concatenate([rows for rows, _ in built.values()]), axis=0, return_inverse=True)
    assert len(classes) < 256
    offset = 0
    for name, (rows, pairs) in built.items():
        ids = inverse.reshape(-1)[offset:offset + len(rows)].astype(np.uint16)
        offset += len(rows)
        packed = (ids | (pairs << 8)).astype("<u2").tobytes()
        path = OUT / f"{name}_table.bin"
        path.write_bytes(zlib.compress(packed, 9))
        print(f"{path.name}: {len(packed):,} bytes raw, {path.stat().st_size:,} compressed")
    (OUT / "classes.json").write_text(json.dumps([[int(x) for x in r] for r in classes]) + "\n")
    print(f"classes.json: {len(classes)} distinct rows")


if __name__ == "__main__":
    main()
