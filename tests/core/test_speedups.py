"""The optional C path of hand analysis (``core/_speedups.c``) gives exactly what the Python path
gives: shanten and waits of random hands of both games, every hand size, with and without a
void suit and melds; and bad input still raises the Python path's errors."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.core import analysis
from majiang.core.errors import MajiangError
from majiang.core.hand import Hand, Meld, MeldKind
from majiang.core.variants import Variant
from majiang.games.kawuxing.tiles import KAWUXING
from majiang.games.sichuan.tiles import SICHUAN

NO_EXT = bool(os.environ.get("MAJIANG_NO_EXT"))
THREE_SUITS = Variant("three-suits", "三门", "mps", False, 4)
VARIANTS = ["kawuxing", "sichuan", KAWUXING, SICHUAN, KAWUXING.with_suits("ms"), THREE_SUITS]


def speedups():
    return analysis.speedups


def test_c_path_is_loaded():
    """Wherever the tests run (CI's editable install builds it), the C path is what answers:
    the public functions are the C ones, with no Python frame around them."""
    import majiang
    if NO_EXT:
        assert speedups() is None and majiang.shanten is analysis._shanten_python
        pytest.skip("MAJIANG_NO_EXT is set: the Python path alone")
    assert speedups() is not None, (
        "the C extension majiang.core._speedups is not built here: pip install -e . "
        "(or python setup.py build_ext --inplace) builds it; MAJIANG_NO_EXT=1 tests without it")
    assert majiang.shanten is analysis.shanten is speedups().shanten
    assert majiang.waits is analysis.waits is speedups().waits
    before = speedups().forwarded()
    assert majiang.shanten(Hand.parse("1112345678999p"), "kawuxing") == 0
    assert speedups().forwarded() == before  # answered in C


needs_c = pytest.mark.skipif(NO_EXT, reason="MAJIANG_NO_EXT is set")


def random_hand(rnd: random.Random, variant: Variant) -> Hand:
    """Any size the analysis takes (3n+1 or 3n+2 concealed tiles, 0-4 melds, at most 14 in all),
    often built from sets so that ready and winning hands are common."""
    kinds = [int(t) for t in variant.kinds]
    if variant.capabilities.two_suits and rnd.random() < 0.6:
        keep = rnd.sample(variant.suits, 2)
        kinds = [k for k in kinds if k >= 27 or "mps"[k // 9] in keep]
    left = {k: 4 for k in kinds}
    melds = []
    for _ in range(rnd.choice([0, 0, 0, 1, 2, 3, 4])):
        k = rnd.choice(kinds)
        kind = rnd.choice([MeldKind.PONG, MeldKind.PONG, MeldKind.KONG, MeldKind.CONCEALED_KONG])
        size = 3 if kind is MeldKind.PONG else 4
        if left[k] >= size:
            left[k] -= size
            melds.append(Meld(kind, k))
    sizes = [n for n in range(1, 15 - 3 * len(melds)) if n % 3]
    n = rnd.choice(sizes)
    counts = [0] * 30
    held = 0

    def take(k: int) -> bool:
        nonlocal held
        if held < n and left.get(k, 0) > 0:
            left[k] -= 1
            counts[k] += 1
            held += 1
            return True
        return False

    if rnd.random() < 0.6:  # sets and a pair, then random tiles for what is missing
        for _ in range(6):
            k = rnd.choice(kinds)
            if k < 27 and k % 9 <= 6 and rnd.random() < 0.6:
                if all(left.get(x, 0) > 0 for x in (k, k + 1, k + 2)) and held + 3 <= n:
                    for x in (k, k + 1, k + 2):
                        take(x)
            else:
                for _ in range(rnd.choice([2, 3])):
                    take(k)
    while held < n:
        take(rnd.choice(kinds))
    return Hand(tuple(counts), tuple(melds))


def voids_of(variant: Variant) -> list:
    return [None, *variant.suits] if variant.capabilities.two_suits else [None]


@needs_c
@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=400, deadline=None)
def test_c_shanten_and_waits_equal_python(seed, which):
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    c = speedups()
    for _ in range(8):
        hand = random_hand(rnd, resolved)
        for void in voids_of(resolved):
            before = c.forwarded()
            got = c.shanten(hand, variant, void) if void is None else c.shanten(hand, variant, void=void)
            assert got == analysis._shanten_python(hand, variant, void), (hand, variant, void)
            if hand.concealed_count % 3 == 1:
                w = c.waits(hand, variant, void)
                assert w == analysis._waits_python(hand, variant, void), (hand, variant, void)
                assert all(type(t) is type(e) for t, e in zip(w, analysis._waits_python(hand, variant, void)))
            assert c.forwarded() == before  # the C path answered, rather than handing the call to Python


def _outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except (MajiangError, AttributeError) as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("text, melds, variant, void", [
    ("1112345678999m", (), "kawuxing", None),         # m is not a kawuxing suit
    ("1112345678999p", (), "kawuxing", "p"),          # kawuxing has no void
    ("1112345678999m", (), "sichuan", "z"),           # not a suit
    ("1112345678999m", (), "sichuan", "mp"),          # (the Python path takes it as no void)
    ("1112345678999m5z", (), "sichuan", None),        # no dragons in sichuan
    ("111234567899m", (), "sichuan", None),           # 3n tiles
    ("11122m", [Meld.pong(t) for t in ("1p", "2p", "3p", "4p")], "sichuan", None),  # too many tiles
    ("1112345678999m", (), "riichi", None),           # unknown variant
    ("1112345678999m", (), 7, None),
])
def test_bad_input_raises_as_the_python_path(text, melds, variant, void):
    try:
        hand = Hand.parse(text, list(melds))
    except MajiangError:
        pytest.skip("the hand itself is refused")
    assert _outcome(analysis.shanten, hand, variant, void) == _outcome(analysis._shanten_python, hand, variant, void)
    assert _outcome(analysis.waits, hand, variant, void) == _outcome(analysis._waits_python, hand, variant, void)


@needs_c
def test_variant_names_built_at_run_time_share_one_plan():
    hand = Hand.parse("123m456m789m111p2p")
    before = speedups().forwarded()
    for _ in range(100):
        name = "".join(["sich", "uan"])  # a new string object each time
        assert speedups().shanten(hand, name, None) == 0
    assert speedups().shanten(hand, "SICHUAN", None) == 0
    assert speedups().forwarded() == before


def test_odd_arguments_go_to_python():
    hand = Hand.parse("1112345678999p")
    assert analysis.shanten(hand=hand, variant="kawuxing") == 0
    assert analysis.shanten(hand, variant="kawuxing", void=None) == 0
    with pytest.raises(TypeError):
        analysis.shanten(hand)
    with pytest.raises(TypeError):
        analysis.shanten(hand, "kawuxing", None, 1)
    with pytest.raises(TypeError):
        analysis.waits(hand, "kawuxing", colour="red")


def test_counts_that_are_not_plain_small_ints():
    """Counts the C path does not read by identity (bools, numpy integers) give the same answers."""
    np = pytest.importorskip("numpy")
    plain, singles = Hand.parse("1112345678999p"), Hand.parse("123456789p1234s")
    for counts in (tuple(np.array(plain.counts, dtype=np.int64)), tuple(bool(c) for c in singles.counts)):
        hand = Hand(counts)
        assert analysis.shanten(hand, "kawuxing") == analysis._shanten_python(hand, "kawuxing")
        assert analysis.waits(hand, "kawuxing") == analysis._waits_python(hand, "kawuxing")


@needs_c
@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1),
       dtype=st.sampled_from(["int8", "uint8", "int16", "int32", "int64"]))
@settings(max_examples=60, deadline=None)
def test_c_batch_equals_numpy(seed, which, dtype):
    """batch_shanten in one call into C gives what its numpy path gives, for every closed size."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    hands = [random_hand(rnd, resolved) for _ in range(40)]
    closed = np.array([h.counts for h in hands if not h.melds], dtype=dtype)
    if not len(closed):
        return
    for void in voids_of(resolved):
        for sets in (1, 3, 4):
            got = batch.batch_shanten(closed, variant, void, sets)
            assert got.dtype == np.int8
            assert got.tolist() == batch._batch_shanten_numpy(closed, resolved, void, sets).tolist()
            assert speedups().shanten_rows(np.ascontiguousarray(closed), np.empty(len(closed), dtype=np.int8),
                                           resolved, void, sets)  # C did it


@needs_c
def test_c_batch_leaves_odd_arrays_to_numpy():
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    five = np.zeros((1, 30), dtype=np.int8)
    five[0, 0] = 5  # not a count
    assert not speedups().shanten_rows(five, np.empty(1, dtype=np.int8), "sichuan", None, 4)
    floats = np.zeros((2, 30), dtype=np.float64)
    assert not speedups().shanten_rows(floats, np.empty(2, dtype=np.int8), "sichuan", None, 4)
    ints = np.array([Hand.parse("1112345678999m").counts], dtype=np.int64)
    assert batch.batch_shanten(ints[:, :27], "sichuan").tolist() == [0]


def ready_rows(rnd: random.Random, variant: Variant, n: int) -> list[list[int]]:
    """Closed 13-tile hands one tile short of sets and a pair (so most have waits), and a few
    seven-pairs shapes; in the variant's kinds, at most four of a kind."""
    kinds = [int(t) for t in variant.kinds]
    out = []
    while len(out) < n:
        c = [0] * 30
        if rnd.random() < 0.15:
            for k in rnd.sample(kinds, 7):
                c[k] += 2
        else:
            for _ in range(4):
                k = rnd.choice(kinds)
                if k < 27 and k % 9 < 7 and rnd.random() < 0.6:
                    for x in (k, k + 1, k + 2):
                        c[x] += 1
                else:
                    c[k] += 3
            c[rnd.choice(kinds)] += 2
        if max(c) > 4:
            continue
        held = [k for k in range(30) for _ in range(c[k])]
        c[rnd.choice(held)] -= 1
        out.append(c)
    return out


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1),
       dtype=st.sampled_from(["int8", "uint8", "int16", "int64"]))
@settings(max_examples=60, deadline=None)
def test_batch_waits_equal_waits_counts(seed, which, dtype):
    """batch_waits (one call into C when it is built) marks exactly the kinds waits_counts lists,
    row by row: ready hands, seven pairs, random hands of every closed size, every void."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    rows = ready_rows(rnd, resolved, 30) + [list(h.counts) for h in (random_hand(rnd, resolved) for _ in range(20))
                                            if not h.melds]
    counts = np.array(rows, dtype=dtype)
    before = speedups().forwarded() if speedups() else 0
    for void in voids_of(resolved):
        got = batch.batch_waits(counts, variant, void)
        assert got.dtype == np.bool_ and got.shape == counts.shape
        for row, marks in zip(rows, got):
            assert np.flatnonzero(marks).tolist() == analysis._waits_counts_python(row, row, resolved, void)
    # C answers every batch, unless a row holds 14 tiles of one suit (beyond its waits table: the
    # Python function answers that batch, by design)
    whole_suit = any(sum(row[9 * s:9 * s + 9]) > 13 for row in rows for s in range(3))
    if speedups() is not None and not whole_suit:
        assert speedups().forwarded() == before


@needs_c
def test_batches_of_one_and_into_given_arrays():
    """A batch of one hand, and results written into the caller's arrays (out=), as a new array."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    counts = np.array([Hand.parse("1112345678999m").counts, Hand.parse("123m456p789s11m23p").counts], dtype=np.int8)
    ready = counts.copy()
    ready[:, 0] -= 1
    out = np.full(2, 7, dtype=np.int8)
    assert batch.batch_shanten(counts, "sichuan", out=out) is out and out.tolist() == [0, 3]
    assert batch.batch_shanten(counts[:1], "sichuan").tolist() == [0]
    marks = np.zeros((2, 30), dtype=np.bool_)
    assert batch.batch_waits(ready, "sichuan", None, marks) is marks
    assert marks.tolist() == batch.batch_waits(ready, "sichuan").tolist()
    assert np.flatnonzero(marks[0]).tolist() == analysis._waits_counts_python(
        ready[0].tolist(), ready[0].tolist(), SICHUAN, None)
    with pytest.raises(ValueError):
        batch.batch_shanten(counts, "sichuan", out=np.zeros(3, dtype=np.int8))  # the wrong shape
    with pytest.raises(ValueError):
        batch.batch_waits(ready, "sichuan", out=np.zeros((2, 30), dtype=np.int8))  # not bool


@needs_c
def test_small_batch_results_are_never_rewritten_while_held():
    """Small results are arrays kept for reuse once nothing holds them: one the caller still holds
    (by name, through a view or in a list) is never written by a later call."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    rnd = random.Random(3)
    rows = np.array([h.counts for h in (random_hand(rnd, SICHUAN) for _ in range(400)) if not h.melds][:64],
                    dtype=np.int8)
    held, views = [], []
    for i in range(len(rows) - 1):
        got = batch.batch_shanten(rows[i:i + 2], "sichuan")
        marks = batch.batch_waits(rows[i:i + 1], "sichuan")
        if i % 3 == 0:
            held.append((got, got.copy(), marks, marks.copy()))
        elif i % 3 == 1:
            views.append((got[1:], got[1:].copy()))
    assert all(np.array_equal(a, b) and np.array_equal(c, d) for a, b, c, d in held)
    assert all(np.array_equal(a, b) for a, b in views)


def test_batch_waits_refuses_bad_input():
    """Bad input gets the one-line errors of the Python path, with or without the C path."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    five = np.zeros((1, 30), dtype=np.int64)
    five[0, 0] = 5
    for bad, variant, void in ((five, "sichuan", None), (np.zeros((2, 31), dtype=np.int8), "sichuan", None),
                               (np.zeros((1, 30), dtype=np.int8), "sichuan", "mp"),
                               (np.zeros((1, 30), dtype=np.int8), "kawuxing", "m"),
                               (np.zeros((1, 30), dtype=np.int8), "riichi", None)):
        with pytest.raises(MajiangError):
            batch.batch_waits(bad, variant, void)


def test_batch_of_views_and_lists():
    """Strided views and plain lists (which the C path does not take) give the same answers."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    rows = [Hand.parse("1112345678999m").counts, Hand.parse("123m456p789s11m23p").counts]
    wide = np.zeros((2, 60), dtype=np.int64)
    wide[:, ::2] = rows
    assert batch.batch_shanten(wide[:, ::2], "sichuan").tolist() == [0, 3]
    assert batch.batch_shanten([list(r) for r in rows], "sichuan").tolist() == [0, 3]
    with pytest.raises(MajiangError):
        batch.batch_shanten(np.array(rows), "riichi")


@needs_c
@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=300, deadline=None)
def test_c_shanten_counts_equals_python(seed, which):
    """shanten_counts, the engine's and bots' fast path, in C gives what the Python one gives:
    every hand size, with and without caps (melds), seven pairs on or off, meld suits."""
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    c = speedups()
    for _ in range(6):
        hand = random_hand(rnd, resolved)
        counts = list(hand.counts) + ([0] * 4 if rnd.random() < 0.3 else [])  # 34-kind vectors too
        caps = analysis._caps(hand)
        sets = hand.sets_needed
        meld_suits = analysis._meld_suits(hand, resolved)
        for void in voids_of(resolved):
            for seven in (None, True, False):
                args = (counts, variant, sets, void, caps, seven, meld_suits)
                before = c.forwarded()
                assert c.shanten_counts(*args) == analysis._shanten_counts_python(*args), args
                assert c.forwarded() == before
                kwargs = {"sets": sets, "void": void, "caps": caps, "seven_pairs": seven, "meld_suits": meld_suits}
                assert c.shanten_counts(tuple(counts), variant, **kwargs) == \
                    analysis._shanten_counts_python(counts, variant, **kwargs)


@needs_c
def test_c_shanten_counts_hands_odd_input_to_python():
    counts = list(Hand.parse("1112345678999m").counts)
    before = speedups().forwarded()
    assert analysis.shanten_counts(counts, "sichuan") == 0
    assert speedups().forwarded() == before
    assert analysis.shanten_counts(counts, "sichuan", meld_suits="z") == \
        analysis._shanten_counts_python(counts, "sichuan", meld_suits="z")
    assert analysis.shanten_counts(counts, "sichuan", seven_pairs=1) == 0  # not a bool: Python answers
    with pytest.raises(MajiangError):
        analysis.shanten_counts(counts, "riichi")
    assert speedups().forwarded() == before + 3


@needs_c
@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=300, deadline=None)
def test_c_waits_counts_equals_python(seed, which):
    """waits_counts, the engine's fast path, in C gives what the Python one gives."""
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    c = speedups()
    for _ in range(8):
        hand = random_hand(rnd, resolved)
        if hand.concealed_count % 3 != 1:
            continue
        counts, totals = list(hand.counts), hand.all_counts()
        for void in voids_of(resolved):
            for closed in (True, False):
                before = c.forwarded()
                got = c.waits_counts(counts, totals, resolved, void, closed)
                assert got == analysis._waits_counts_python(counts, totals, resolved, void, closed)
                assert c.forwarded() == before
                assert c.waits_counts(tuple(counts), totals, resolved, void=void, closed=closed) == got


@needs_c
def test_c_waits_counts_hands_odd_input_to_python():
    counts = list(Hand.parse("1112345678999p").counts)
    with pytest.raises(AttributeError):  # a name, not a Variant: the Python function's own error
        analysis.waits_counts(counts, counts, "kawuxing")
    assert analysis.waits_counts(counts, counts, KAWUXING, closed=1) == \
        analysis._waits_counts_python(counts, counts, KAWUXING, closed=1)


def every_suit_vector(most: int):
    """Every vector of nine counts 0-4 holding at most ``most`` tiles, as an (M, 9) int8 array."""
    np = pytest.importorskip("numpy")
    grid = np.indices((5,) * 9).reshape(9, -1).T.astype(np.int8)
    return grid[grid.sum(axis=1) <= most]


@needs_c
def test_batch_shanten_of_every_suit_vector():
    """Every suit vector of at most 14 tiles (every class of the tables, every path of the rank a
    row is read by), alone and beside fixed other groups, in both games' layouts: the C batch
    gives what the numpy path gives."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    suits = every_suit_vector(14)
    for variant, at, others in ((SICHUAN, 9, {}), (SICHUAN, 18, {0: 1, 1: 1, 2: 1, 9: 2}),
                                (KAWUXING, 9, {}), (KAWUXING, 18, {9: 1, 10: 1, 11: 1, 27: 2})):
        rows = np.zeros((len(suits), 30), dtype=np.int8)
        rows[:, at:at + 9] = suits
        for kind, copies in others.items():
            rows[:, kind] = copies
        before = speedups().forwarded()
        got = batch.batch_shanten(rows, variant)
        assert speedups().forwarded() == before  # answered in C
        assert np.array_equal(got, batch._batch_shanten_numpy(rows, variant, None, 4))


@needs_c
def test_batch_waits_of_every_suit_vector():
    """Every suit vector of 3n+1 tiles (at most 13), alone and beside a complete other suit: the
    C batch (per-suit wait tables) marks what the one-hand waits_counts (which tries each tile)
    lists; a sample also against the Python reference."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    suits = every_suit_vector(13)
    suits = suits[suits.sum(axis=1) % 3 == 1]
    rnd = random.Random(5)
    for variant, at, others in ((SICHUAN, 9, {}), (SICHUAN, 18, {3: 1, 4: 1, 5: 1}), (KAWUXING, 18, {}),
                                (KAWUXING, 9, {28: 3})):
        rows = np.zeros((len(suits), 30), dtype=np.int8)
        rows[:, at:at + 9] = suits
        for kind, copies in others.items():
            rows[:, kind] = copies
        got = batch.batch_waits(rows, variant)
        listed = rows.tolist()
        for row, marks in zip(listed, got):
            assert np.flatnonzero(marks).tolist() == speedups().waits_counts(row, row, variant)
        for i in rnd.sample(range(len(listed)), 200):
            assert np.flatnonzero(got[i]).tolist() == analysis._waits_counts_python(listed[i], listed[i], variant, None)


def test_batch_edge_rows():
    """Fours (a wait on a kind held four times is no wait), seven pairs with a four, rows of no
    tiles, no rows, 27-wide rows: the same as the Python reference, with or without the C path."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    from majiang.core.tiles import parse_tiles, to_counts
    hands = ["1111234567899m", "111123456789m", "11112222333m4p", "1111m2222p3333m4p", "1111m23m456m789m9m",
             "11112233445566m", "1122334455667m", "1111223344556m", "1111222233334m", "4444m", "1m", "44445555p",
             "123m456p789s5z", "11p55z66z77z"]
    rows = [list(to_counts(parse_tiles(h)))[:30] for h in hands] + [[0] * 30]
    for variant, kept in ((SICHUAN, rows), (KAWUXING, [r for r in rows if not any(r[:9])])):
        counts = np.array(kept, dtype=np.int8)
        for width in (30, 27) if variant is SICHUAN else (30,):
            part = np.ascontiguousarray(counts[:, :width])
            assert batch.batch_shanten(part, variant).tolist() == batch._batch_shanten_numpy(part, variant, None,
                                                                                               4).tolist()
            marks = batch.batch_waits(part, variant)
            for row, got in zip(kept, marks):
                full = row[:width] + [0] * (30 - width)
                assert np.flatnonzero(got).tolist() == analysis._waits_counts_python(full, full, variant, None)
        assert batch.batch_shanten(np.zeros((0, 30), dtype=np.int8), variant).shape == (0,)
        assert batch.batch_waits(np.zeros((0, 30), dtype=np.int8), variant).shape == (0, 30)
    marks = batch.batch_waits(np.array(rows, dtype=np.int8), SICHUAN)
    assert marks[hands.index("1111m23m456m789m9m")].nonzero()[0].tolist() == [2, 5, 8]
    assert not (marks & (np.array(rows) == 4)).any()  # never a fifth copy


def test_batch_shanten_refuses_bad_input():
    """batch_shanten gets the one-line typed errors batch_waits gives: a float or wrongly shaped
    array, a count outside 0-4, a bad sets or void, with or without the C path."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    negative = np.zeros((1, 30), dtype=np.int8)
    negative[0, 3] = -1
    five = np.zeros((1, 30), dtype=np.int64)
    five[0, 0] = 5
    for bad in (np.zeros((2, 30), dtype=np.float64), np.zeros((2, 31), dtype=np.int8), np.zeros(30, dtype=np.int8),
                np.zeros((1, 2, 30), dtype=np.int8), negative, five, [[0] * 29]):
        with pytest.raises(MajiangError):
            batch.batch_shanten(bad, "sichuan")
    ok = np.zeros((1, 30), dtype=np.int8)
    for sets in (5, -1, "4", True, 2.0):
        with pytest.raises(MajiangError):
            batch.batch_shanten(ok, "sichuan", None, sets)
    with pytest.raises(MajiangError):
        batch.batch_shanten(ok, "sichuan", "x")
    assert batch.batch_shanten(ok, "sichuan", None, np.int64(4)).tolist() == batch.batch_shanten(ok, "sichuan").tolist()


def test_batch_finds_a_bad_count_anywhere():
    """A count outside 0-4 at any place of any row (the C path checks eight bytes at a time) gets
    the typed error, in 1-byte arrays of either sign and in wider ones."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    for dtype, values in (("int8", (5, -1, 127, -128)), ("uint8", (5, 128, 255)), ("int16", (5, -1, 300))):
        for width in (30, 27):
            for at in range(width):
                for value in values:
                    counts = np.zeros((3, width), dtype=dtype)
                    counts[at % 3, at] = value
                    with pytest.raises(MajiangError):
                        batch.batch_shanten(counts, "sichuan")
                    with pytest.raises(MajiangError):
                        batch.batch_waits(counts, "sichuan")
