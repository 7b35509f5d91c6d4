"""The hand analysis' compiled path, the Rust engine bound to CPython (``native/src/python.rs``,
cargo feature ``python``: the extension module ``majiang.core._analysis``, built by setup.py and
``python -m majiang.native build``), gives exactly what the Python reference gives: shanten and
waits of random hands of both games, every hand size, with and without a void suit and melds,
shanten_counts and waits_counts, the batch calls on every integer type; and bad input still
raises the Python path's errors (what Rust cannot decide goes to the Python functions).

The tests that go through the public functions run with or without the module (``MAJIANG_NO_EXT=1``
runs the suite on the pure-Python path); the rest need it."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

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
HOME_CARGO = Path.home() / ".cargo" / "bin" / "cargo"
CARGO = (os.environ.get("CARGO") or shutil.which("cargo")
         or (str(HOME_CARGO) if os.access(HOME_CARGO, os.X_OK) else None))
THREE_SUITS = Variant("three-suits", "三门", "mps", False, 4)
VARIANTS = ["kawuxing", "sichuan", KAWUXING, SICHUAN, KAWUXING.with_suits("ms"), THREE_SUITS]


def test_rust_path_is_loaded():
    """Wherever the tests run with cargo (CI's editable install builds the module), the Rust path
    is what answers: the public functions are the Rust ones, with no Python frame around them."""
    import majiang
    if NO_EXT:
        assert analysis.rust is None and majiang.shanten is analysis._shanten_python
        pytest.skip("MAJIANG_NO_EXT is set: the Python path alone")
    if analysis.rust is None and CARGO is None:
        pytest.skip("needs cargo (the Rust module is not built here)")
    assert analysis.rust is not None, (
        "the Rust module majiang.core._analysis is not built here: pip install -e . (or python -m majiang.native "
        "build) builds it; MAJIANG_NO_EXT=1 tests without it")
    assert majiang.shanten is analysis.shanten is analysis.rust.shanten
    assert majiang.waits is analysis.waits is analysis.rust.waits
    before = analysis.rust.forwarded()
    assert majiang.shanten(Hand.parse("1112345678999p"), "kawuxing") == 0
    assert analysis.rust.forwarded() == before  # answered in Rust


@pytest.fixture(scope="module")
def rust():
    """The Rust module as analysis.py and batch.py configured it."""
    if analysis.rust is None:
        pytest.skip("MAJIANG_NO_EXT is set" if NO_EXT else "the Rust module is not built (needs cargo)")
    from majiang.core import batch  # noqa: F401 - configures the batch calls
    return analysis.rust


def test_the_hot_path_reads_in_place(rust):
    # tuples and lists read in place, counts by address: this interpreter is laid out as expected
    assert rust.layout() == 7


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


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=400, deadline=None)
def test_rust_shanten_and_waits_equal_python(rust, seed, which):
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    for _ in range(8):
        hand = random_hand(rnd, resolved)
        for void in voids_of(resolved):
            before = rust.forwarded()
            got = rust.shanten(hand, variant, void) if void is None else rust.shanten(hand, variant, void=void)
            assert got == analysis._shanten_python(hand, variant, void), (hand, variant, void)
            if hand.concealed_count % 3 == 1:
                w = rust.waits(hand, variant, void)
                assert w == analysis._waits_python(hand, variant, void), (hand, variant, void)
                assert all(type(t) is type(e) for t, e in zip(w, analysis._waits_python(hand, variant, void)))
            assert rust.forwarded() == before  # the Rust path answered, rather than handing the call to Python


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


def test_variant_names_built_at_run_time_share_one_plan(rust):
    hand = Hand.parse("123m456m789m111p2p")
    before = rust.forwarded()
    for _ in range(100):
        name = "".join(["sich", "uan"])  # a new string object each time
        assert rust.shanten(hand, name, None) == 0
    assert rust.shanten(hand, "SICHUAN", None) == 0
    assert rust.forwarded() == before


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
    """Counts the Rust path does not read by identity (bools, numpy integers) give the same answers."""
    np = pytest.importorskip("numpy")
    plain, singles = Hand.parse("1112345678999p"), Hand.parse("123456789p1234s")
    for counts in (tuple(np.array(plain.counts, dtype=np.int64)), tuple(bool(c) for c in singles.counts)):
        hand = Hand(counts)
        assert analysis.shanten(hand, "kawuxing") == analysis._shanten_python(hand, "kawuxing")
        assert analysis.waits(hand, "kawuxing") == analysis._waits_python(hand, "kawuxing")


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1),
       dtype=st.sampled_from(["int8", "uint8", "int16", "int32", "int64", "uint64"]))
@settings(max_examples=60, deadline=None)
def test_batch_shanten_equals_numpy(rust, seed, which, dtype):
    """batch_shanten in one call into Rust gives what its numpy path gives, for every closed size,
    every void and number of sets, 30- and 27-wide rows."""
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
            expected = batch._batch_shanten_numpy(closed, resolved, void, sets).tolist()
            before = rust.forwarded()
            got = batch.batch_shanten(closed, variant, void, sets)
            assert got.dtype == np.int8 and got.tolist() == expected
            assert batch.batch_shanten(closed, variant, void=void, sets=sets).tolist() == expected
            assert rust.forwarded() == before  # Rust did it
            out = np.full(len(closed), 77, dtype=np.int8)
            assert rust.shanten_rows(closed, out, resolved, void, sets) and out.tolist() == expected
    if not any(int(t) >= 27 for t in resolved.kinds):
        narrow = np.ascontiguousarray(closed[:, :27])
        out = np.empty(len(closed), dtype=np.int8)
        assert rust.shanten_rows(narrow, out, resolved, None, 4)
        assert out.tolist() == batch._batch_shanten_numpy(narrow, resolved, None, 4).tolist()


def test_shanten_rows_leaves_odd_arrays_to_numpy(rust):
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    five = np.zeros((1, 30), dtype=np.int8)
    five[0, 0] = 5  # not a count
    assert not rust.shanten_rows(five, np.empty(1, dtype=np.int8), "sichuan", None, 4)
    floats = np.zeros((2, 30), dtype=np.float64)
    assert not rust.shanten_rows(floats, np.empty(2, dtype=np.int8), "sichuan", None, 4)
    rows = np.zeros((2, 30), dtype=np.int8)
    assert not rust.shanten_rows(rows[:, ::2], np.empty(2, dtype=np.int8), "sichuan", None, 4)  # not contiguous
    assert not rust.shanten_rows(rows, np.empty(3, dtype=np.int8), "sichuan", None, 4)  # the wrong length
    assert not rust.shanten_rows(rows, np.empty(2, dtype=np.int16), "sichuan", None, 4)  # not int8
    assert not rust.shanten_rows(rows, np.empty(2, dtype=np.int8), "kawuxing", "m", 4)  # no void there
    assert not rust.shanten_rows(rows, np.empty(2, dtype=np.int8), "sichuan", None, 5)
    assert not rust.shanten_rows(rows[:, :27], np.empty(2, dtype=np.int8), "kawuxing", None, 4)  # dragons cut off
    assert rust.shanten_rows(rows, np.empty(2, dtype=np.int8), "sichuan", None, 4)
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
    """batch_waits (one call into Rust when it is built) marks exactly the kinds waits_counts lists,
    row by row: ready hands, seven pairs, random hands of every closed size, every void."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    rows = ready_rows(rnd, resolved, 30) + [list(h.counts) for h in (random_hand(rnd, resolved) for _ in range(20))
                                            if not h.melds]
    counts = np.array(rows, dtype=dtype)
    before = analysis.rust.forwarded() if analysis.rust else 0
    for void in voids_of(resolved):
        got = batch.batch_waits(counts, variant, void)
        assert got.dtype == np.bool_ and got.shape == counts.shape
        for row, marks in zip(rows, got):
            assert np.flatnonzero(marks).tolist() == analysis._waits_counts_python(row, row, resolved, void)
    # Rust answers every batch, unless a row holds 14 tiles of one suit (beyond its waits table: the
    # Python function answers that batch, by design)
    whole_suit = any(sum(row[9 * s:9 * s + 9]) > 13 for row in rows for s in range(3))
    if analysis.rust is not None and not whole_suit:
        assert analysis.rust.forwarded() == before


def test_batches_of_one_and_into_given_arrays(rust):
    """A batch of one hand, of none, and results written into the caller's arrays (out=), as a
    new array; all in Rust, and what it does not take handed to Python."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    counts = np.array([Hand.parse("1112345678999m").counts, Hand.parse("123m456p789s11m23p").counts], dtype=np.int8)
    ready = counts.copy()
    ready[:, 0] -= 1
    out = np.full(2, 7, dtype=np.int8)
    before = rust.forwarded()
    assert batch.batch_shanten(counts, "sichuan", out=out) is out and out.tolist() == [0, 3]
    assert batch.batch_shanten(counts[:1], "sichuan").tolist() == [0]
    assert batch.batch_shanten(counts[:0], "sichuan").tolist() == []
    marks = np.zeros((2, 30), dtype=np.bool_)
    assert batch.batch_waits(ready, "sichuan", None, marks) is marks
    assert marks.tolist() == batch.batch_waits(ready, "sichuan").tolist()
    assert np.flatnonzero(marks[0]).tolist() == analysis._waits_counts_python(
        ready[0].tolist(), ready[0].tolist(), SICHUAN, None)
    assert batch.batch_waits(np.ascontiguousarray(ready[:, :27]), "sichuan").shape == (2, 27)
    assert rust.forwarded() == before  # all in Rust
    with pytest.raises(ValueError):
        batch.batch_shanten(counts, "sichuan", out=np.zeros(3, dtype=np.int8))  # the wrong shape
    with pytest.raises(ValueError):
        batch.batch_waits(ready, "sichuan", out=np.zeros((2, 30), dtype=np.int8))  # not bool
    five = counts.copy()
    five[0, 0] = 5
    with pytest.raises(MajiangError):
        batch.batch_shanten(five, "sichuan")  # handed to Python, which says why
    with pytest.raises(MajiangError):
        batch.batch_waits(five, "sichuan")
    assert batch.batch_shanten(counts[:, ::1].T.copy().T, "sichuan").tolist() == [0, 3]  # Fortran order


def test_small_batch_results_are_never_rewritten_while_held(rust):
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
    """Bad input gets the one-line errors of the Python path, with or without the Rust path."""
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
    """Strided views and plain lists (which the Rust path does not take) give the same answers."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    rows = [Hand.parse("1112345678999m").counts, Hand.parse("123m456p789s11m23p").counts]
    wide = np.zeros((2, 60), dtype=np.int64)
    wide[:, ::2] = rows
    assert batch.batch_shanten(wide[:, ::2], "sichuan").tolist() == [0, 3]
    assert batch.batch_shanten([list(r) for r in rows], "sichuan").tolist() == [0, 3]
    with pytest.raises(MajiangError):
        batch.batch_shanten(np.array(rows), "riichi")


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=300, deadline=None)
def test_rust_shanten_counts_equals_python(rust, seed, which):
    """shanten_counts, the engine's and bots' fast path, in Rust gives what the Python one gives:
    every hand size, with and without caps (melds), seven pairs on or off, meld suits."""
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    c = rust
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


def test_rust_shanten_counts_hands_odd_input_to_python(rust):
    counts = list(Hand.parse("1112345678999m").counts)
    before = rust.forwarded()
    assert analysis.shanten_counts(counts, "sichuan") == 0
    assert rust.forwarded() == before
    assert analysis.shanten_counts(counts, "sichuan", meld_suits="z") == \
        analysis._shanten_counts_python(counts, "sichuan", meld_suits="z")
    assert analysis.shanten_counts(counts, "sichuan", seven_pairs=1) == 0  # not a bool: Python answers
    with pytest.raises(MajiangError):
        analysis.shanten_counts(counts, "riichi")
    assert rust.forwarded() == before + 3


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=300, deadline=None)
def test_rust_waits_counts_equals_python(rust, seed, which):
    """waits_counts, the engine's fast path, in Rust gives what the Python one gives."""
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    c = rust
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


def test_rust_waits_counts_hands_odd_input_to_python(rust):
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


def test_batch_shanten_of_every_suit_vector(rust):
    """Every suit vector of at most 14 tiles (every class of the tables, every path of the rank a
    row is read by), alone and beside fixed other groups, in both games' layouts: the Rust batch
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
        before = rust.forwarded()
        got = batch.batch_shanten(rows, variant)
        assert rust.forwarded() == before  # answered in Rust
        assert np.array_equal(got, batch._batch_shanten_numpy(rows, variant, None, 4))


def test_batch_waits_of_every_suit_vector(rust):
    """Every suit vector of 3n+1 tiles (at most 13), alone and beside a complete other suit: the
    Rust batch (per-suit wait tables) marks what the one-hand waits_counts (which tries each tile)
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
            assert np.flatnonzero(marks).tolist() == rust.waits_counts(row, row, variant)
        for i in rnd.sample(range(len(listed)), 200):
            assert np.flatnonzero(got[i]).tolist() == analysis._waits_counts_python(listed[i], listed[i], variant, None)


def test_batch_edge_rows():
    """Fours (a wait on a kind held four times is no wait), seven pairs with a four, rows of no
    tiles, no rows, 27-wide rows: the same as the Python reference, with or without the Rust path."""
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
    array, a count outside 0-4, a bad sets or void, with or without the Rust path."""
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
    """A count outside 0-4 at any place of any row (the Rust path checks the bytes of a chunk at once) gets
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


def _native_runs():
    """An AEC hand loop (stepper, encoder) and a self-play batch (batch_step_at) on the native
    engine, as bytes to compare."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from majiang.rl import BatchEnv, make
    env = make("sichuan", backend="native", obs_dtype="uint8")
    rng = random.Random(5)
    out = []
    for hand in range(3):
        env.reset(seed=11 if hand == 0 else None)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            other = env.observe(f"player_{(int(agent[7:]) + 1) % 4}")["observation"].tobytes()  # the encoder
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, other))
            env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    batch = BatchEnv("sichuan", 6, opponents=None, seed=9, backend="native")
    obs, masks = batch.reset()
    choose = np.random.default_rng(3)
    for _ in range(300):
        actions = np.argmax(np.where(masks > 0, choose.random(masks.shape), -1.0), axis=1)
        obs, masks, rewards, dones = batch.step(actions)
        out.append((obs.tobytes(), masks.tobytes(), rewards.tobytes(), dones.tobytes()))
    return out


def test_rust_stepper_encoder_and_batch_step_play_as_ctypes(rust, monkeypatch):
    """``stepper``, ``encoder`` and ``batch_step_at`` (calls into the ctypes-loaded native library
    through its functions' addresses) play the same hands as the calls through ctypes."""
    from majiang import native
    if not native.available():
        pytest.skip(str(native.unavailable_reason()))
    calls = {"steps": 0}

    class Counted:  # the Rust module's RL calls, counted
        def stepper(self, *args):
            calls["steps"] += 1
            return rust.stepper(*args)

        encoder = staticmethod(rust.encoder)

        def batch_step_at(self, *args):
            calls["steps"] += 1
            return rust.batch_step_at(*args)

    try:
        monkeypatch.setattr(analysis, "rust", None)  # through ctypes
        native._direct_calls.cache_clear()
        before = _native_runs()
        monkeypatch.setattr(analysis, "rust", Counted())
        native._direct_calls.cache_clear()
        assert _native_runs() == before
    finally:
        native._direct_calls.cache_clear()
    assert calls["steps"] > 300  # both went through the Rust module
    with pytest.raises(TypeError):
        rust.stepper(1, 2)
    with pytest.raises(ValueError):
        rust.encoder(0, 0, 0, 0)
    with pytest.raises(TypeError):
        rust.batch_step_at(*range(13))
