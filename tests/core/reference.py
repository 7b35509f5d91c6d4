"""Brute-force reference for hand analysis: slow, obvious, and sharing no code with the tables.

Everything here works on plain count lists (30 kinds) and searches directly.
"""

from __future__ import annotations

import functools
import itertools

SUIT_OF = ["m"] * 9 + ["p"] * 9 + ["s"] * 9 + ["z"] * 3


def kinds_of(variant: str) -> list[int]:
    if variant == "kawuxing":
        return list(range(9, 30))
    return list(range(27))


def _sets_only(counts: list[int], need: int) -> bool:
    """Can the tiles be split into exactly ``need`` sets (triplets or sequences)?"""
    i = next((k for k in range(30) if counts[k]), None)
    if i is None:
        return need == 0
    if need == 0:
        return False
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _sets_only(counts, need - 1)
        counts[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        ok = _sets_only(counts, need - 1)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
        return ok
    return False


def suits_ok(counts: list[int], melds: list[int], variant: str, void: str | None) -> bool:
    if variant != "sichuan":
        return True
    present = {SUIT_OF[k] for k in range(27) if counts[k]} | {SUIT_OF[t] for t in melds}
    return len(present) <= 2 and (void is None or void not in present)


def is_win(counts: list[int], melds: list[int], variant: str, void: str | None = None) -> bool:
    """``melds`` lists the tile of each meld (their kind does not matter for the shape)."""
    n = sum(counts)
    if n % 3 != 2 or not suits_ok(counts, melds, variant, void):
        return False
    counts = list(counts)
    for p in range(30):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = _sets_only(counts, (n - 2) // 3)
            counts[p] += 2
            if ok:
                return True
    return not melds and n == 14 and all(c % 2 == 0 for c in counts)


def available(counts: list[int], melds_full: list[int], t: int) -> bool:
    return counts[t] + melds_full[t] < 4


def waits(counts, melds, meld_counts, variant, void=None) -> list[int]:
    out = []
    for t in kinds_of(variant):
        if counts[t] + meld_counts[t] >= 4:
            continue
        c = list(counts)
        c[t] += 1
        if is_win(c, melds, variant, void):
            out.append(t)
    return out


def shanten_upto(counts, melds, meld_counts, variant, void=None, depth=2) -> int:
    """Exact shanten when it is at most ``depth``, else ``depth + 1``, of a 3n+1 hand.

    shanten <= k  iff  some k+1 added tiles (each still existing) let the hand contain a win:
    the k discards are whatever is left over. Searched over every multiset of added tiles.
    """
    n = sum(counts)
    sets = (n - 1) // 3
    kinds = kinds_of(variant)
    for k in range(depth + 1):
        for extra in itertools.combinations_with_replacement(kinds, k + 1):
            c = list(counts)
            ok = True
            for t in extra:
                c[t] += 1
                if c[t] + meld_counts[t] > 4:
                    ok = False
                    break
            if ok and _contains_win(tuple(c), tuple(melds), sets, variant, void, n + 1):
                return k
    return depth + 1


@functools.lru_cache(maxsize=None)
def _contains_win(counts, melds, sets, variant, void, size) -> bool:
    """Does some sub-multiset of ``size`` tiles form a win (sets + pair, or seven pairs)?"""
    allowed_suits = [None]
    if variant == "sichuan":
        allowed_suits = [(s, t) for s, t in (("p", "s"), ("m", "s"), ("m", "p"))
                         if void is None or void not in (s, t)]
    for suits in allowed_suits:
        c = list(counts)
        if suits is not None:
            if any(SUIT_OF[t] not in suits for t in melds):
                continue
            c = [x if SUIT_OF[k] in suits else 0 for k, x in enumerate(c)]
        for p in range(30):
            if c[p] >= 2:
                c[p] -= 2
                if _find_sets(c, 0, sets):
                    return True
                c[p] += 2
        if not melds and size == 14 and sum(x // 2 for x in c) >= 7:
            return True
    return False


def _find_sets(c: list[int], i: int, need: int) -> bool:
    if need == 0:
        return True
    while i < 30 and c[i] == 0:
        i += 1
    if i >= 30:
        return False
    if c[i] >= 3:
        c[i] -= 3
        ok = _find_sets(c, i, need - 1)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = _find_sets(c, i, need - 1)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        if ok:
            return True
    return _find_sets(c, i + 1, need)


@functools.lru_cache(maxsize=None)
def _suit_targets(n: int, sequences: bool):
    """Every target of one group: (sets, pair, counts) for 0-4 sets and 0-1 pair."""
    melds = [("t", i) for i in range(n)] + ([("s", i) for i in range(n - 2)] if sequences else [])
    out = []
    for sets in range(5):
        for combo in itertools.combinations_with_replacement(melds, sets):
            base = [0] * n
            for kind, i in combo:
                if kind == "t":
                    base[i] += 3
                else:
                    for k in (i, i + 1, i + 2):
                        base[k] += 1
            if max(base) > 4:
                continue
            out.append((sets, 0, tuple(base)))
            for p in range(n):
                if base[p] <= 2:
                    t = list(base)
                    t[p] += 2
                    out.append((sets, 1, tuple(t)))
    return out


def suit_distances(h: tuple[int, ...], caps: tuple[int, ...], sequences: bool = True) -> list[int]:
    """For each (sets, pair) (index sets*2+pair): min over targets t <= caps of sum(max(t - h, 0))."""
    best = [99] * 10
    for sets, pair, t in _suit_targets(len(h), sequences):
        if any(a > c for a, c in zip(t, caps)):
            continue
        d = sum(a - b for a, b in zip(t, h) if a > b)
        j = sets * 2 + pair
        if d < best[j]:
            best[j] = d
    return best
