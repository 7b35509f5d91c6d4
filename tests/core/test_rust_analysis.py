"""The Rust hand analysis bound to CPython by hand (``native/src/python.rs``, cargo feature
``python``: the module ``majiang.core._analysis``) gives exactly what the Python reference gives:
shanten and waits of random hands of both games, every size, with and without a void and melds;
what it cannot decide goes to the Python functions, which raise their usual errors.

Not wired into ``core/analysis.py`` yet (issue 50 item 1: the C extension stays the fast path
until the Rust one costs no more per call), so the test builds it with cargo and loads it."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.core import analysis
from majiang.core.hand import Hand, Meld
from majiang.core.variants import Variant
from majiang.games.kawuxing.tiles import KAWUXING
from test_speedups import VARIANTS, _outcome, random_hand, voids_of

ROOT = Path(__file__).resolve().parents[2]
HOME_CARGO = Path.home() / ".cargo" / "bin" / "cargo"
CARGO = (os.environ.get("CARGO") or shutil.which("cargo")
         or (str(HOME_CARGO) if os.access(HOME_CARGO, os.X_OK) else None))
pytestmark = pytest.mark.skipif(CARGO is None or sys.platform != "linux", reason="needs cargo (Linux)")


@pytest.fixture(scope="module")
def rust(tmp_path_factory):
    target = ROOT / "native" / "target" / "python"
    subprocess.run([CARGO, "build", "--release", "--frozen", "--quiet", "--features", "python", "--manifest-path",
                    str(ROOT / "native" / "Cargo.toml"), "--target-dir", str(target)], check=True, timeout=900,
                   env=dict(os.environ, PATH=str(Path(CARGO).parent) + os.pathsep + os.environ.get("PATH", "")))
    path = tmp_path_factory.mktemp("ext") / "_analysis.abi3.so"
    shutil.copyfile(target / "release" / "libmajiang_native.so", path)
    loader = importlib.machinery.ExtensionFileLoader("majiang.core._analysis", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    analysis._configure_rust(module)
    return module


def test_the_hot_path_reads_in_place(rust):
    # tuples and lists read in place, counts by address: this interpreter is laid out as expected
    assert rust.layout() == 7


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=300, deadline=None)
def test_rust_shanten_and_waits_equal_python(rust, seed, which):
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    for _ in range(8):
        hand = random_hand(rnd, resolved)
        for void in voids_of(resolved):
            got = rust.shanten(hand, variant, void) if void is None else rust.shanten(hand, variant, void=void)
            assert got == analysis._shanten_python(hand, variant, void), (hand, variant, void)
            if hand.concealed_count % 3 == 1:
                assert rust.waits(hand, variant, void) == analysis._waits_python(hand, variant, void), (hand, void)


@pytest.mark.parametrize("text, melds, variant, void", [
    ("1112345678999m", (), "kawuxing", None),         # m is not a kawuxing suit
    ("1112345678999p", (), "kawuxing", "p"),          # kawuxing has no void
    ("1112345678999m", (), "sichuan", "z"),           # not a suit
    ("111234567899m", (), "sichuan", None),           # 3n tiles
    ("11122m", [Meld.pong(t) for t in ("1p", "2p", "3p", "4p")], "sichuan", None),  # too many tiles
    ("1112345678999m", (), "riichi", None),           # unknown variant
    ("1112345678999m", (), 7, None),
])
def test_bad_input_raises_as_the_python_path(rust, text, melds, variant, void):
    hand = Hand.parse(text, list(melds))
    assert _outcome(rust.shanten, hand, variant, void) == _outcome(analysis._shanten_python, hand, variant, void)
    assert _outcome(rust.waits, hand, variant, void) == _outcome(analysis._waits_python, hand, variant, void)


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=300, deadline=None)
def test_rust_shanten_counts_equals_python(rust, seed, which):
    """shanten_counts, the engine's and bots' fast path: every hand size, with and without caps
    (melds), seven pairs on or off, meld suits, lists and tuples, by position and by name; all
    answered in Rust."""
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    for _ in range(6):
        hand = random_hand(rnd, resolved)
        counts = list(hand.counts) + ([0] * 4 if rnd.random() < 0.3 else [])  # 34-kind vectors too
        caps = analysis._caps(hand)
        sets = hand.sets_needed
        meld_suits = analysis._meld_suits(hand, resolved)
        for void in voids_of(resolved):
            for seven in (None, True, False):
                args = (counts, variant, sets, void, caps, seven, meld_suits)
                before = rust.forwarded()
                assert rust.shanten_counts(*args) == analysis._shanten_counts_python(*args), args
                kwargs = {"sets": sets, "void": void, "caps": caps, "seven_pairs": seven, "meld_suits": meld_suits}
                assert rust.shanten_counts(tuple(counts), variant, **kwargs) == \
                    analysis._shanten_counts_python(counts, variant, **kwargs)
                assert rust.forwarded() == before


def test_rust_shanten_counts_hands_odd_input_to_python(rust):
    counts = list(Hand.parse("1112345678999m").counts)
    before = rust.forwarded()
    assert rust.shanten_counts(counts, "sichuan") == 0
    assert rust.forwarded() == before
    assert rust.shanten_counts(counts, "sichuan", meld_suits="z") == \
        analysis._shanten_counts_python(counts, "sichuan", meld_suits="z")
    assert rust.shanten_counts(counts, "sichuan", seven_pairs=1) == 0  # not a bool: Python answers
    riichi = (counts, "riichi")
    assert _outcome(rust.shanten_counts, *riichi) == _outcome(analysis._shanten_counts_python, *riichi)
    assert rust.forwarded() == before + 3


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1))
@settings(max_examples=300, deadline=None)
def test_rust_waits_counts_equals_python(rust, seed, which):
    """waits_counts, the engine's fast path: every 3n+1 hand, open and closed, every void."""
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    for _ in range(8):
        hand = random_hand(rnd, resolved)
        if hand.concealed_count % 3 != 1:
            continue
        counts, totals = list(hand.counts), hand.all_counts()
        for void in voids_of(resolved):
            for closed in (True, False):
                before = rust.forwarded()
                got = rust.waits_counts(counts, totals, resolved, void, closed)
                assert got == analysis._waits_counts_python(counts, totals, resolved, void, closed)
                assert rust.waits_counts(tuple(counts), totals, resolved, void=void, closed=closed) == got
                assert rust.forwarded() == before


def test_rust_waits_counts_hands_odd_input_to_python(rust):
    counts = list(Hand.parse("1112345678999p").counts)
    with pytest.raises(AttributeError):  # a name, not a Variant: the Python function's own error
        rust.waits_counts(counts, counts, "kawuxing")
    assert rust.waits_counts(counts, counts, KAWUXING, closed=1) == \
        analysis._waits_counts_python(counts, counts, KAWUXING, closed=1)


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1),
       dtype=st.sampled_from(["int8", "uint8", "int16", "int32", "int64", "uint64"]))
@settings(max_examples=60, deadline=None)
def test_rust_shanten_rows_equal_numpy(rust, seed, which, dtype):
    """shanten_rows (the batch's one call) gives what batch_shanten's numpy path gives, for every
    closed size, every void and number of sets, 30- and 27-wide rows; a variant whose win is one
    group is left to numpy, as the C path leaves it."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    closed = np.array([h.counts for h in (random_hand(rnd, resolved) for _ in range(40)) if not h.melds], dtype=dtype)
    if not len(closed):
        return
    one_group = resolved.capabilities.two_suits and len(resolved.suits) + any(int(t) >= 27 for t in resolved.kinds) < 3
    for void in voids_of(resolved):
        for sets in (1, 3, 4):
            out = np.full(len(closed), 77, dtype=np.int8)
            done = rust.shanten_rows(closed, out, resolved, void, sets)
            assert done == (not one_group)
            if done:
                assert out.tolist() == batch._batch_shanten_numpy(closed, resolved, void, sets).tolist()
    if not any(int(t) >= 27 for t in resolved.kinds) and not one_group:
        narrow = np.ascontiguousarray(closed[:, :27])
        out = np.empty(len(closed), dtype=np.int8)
        assert rust.shanten_rows(narrow, out, resolved, None, 4)
        assert out.tolist() == batch._batch_shanten_numpy(narrow, resolved, None, 4).tolist()


def test_rust_shanten_rows_leaves_odd_arrays_to_numpy(rust):
    np = pytest.importorskip("numpy")
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


def test_rust_stepper_encoder_and_batch_step_play_as_the_c_ones(rust, monkeypatch):
    """``stepper``, ``encoder`` and ``batch_step_at`` (calls into the ctypes-loaded native library
    through its functions' addresses) play the same hands as the C extension's or ctypes."""
    from majiang import native
    if not native.available():
        pytest.skip(str(native.unavailable_reason()))
    native._direct_calls.cache_clear()
    before = _native_runs()
    calls = {"steps": 0}

    class RustOnly:  # the Rust module's RL calls, counted, and nothing of the C module
        def stepper(self, *args):
            calls["steps"] += 1
            return rust.stepper(*args)

        encoder = staticmethod(rust.encoder)

        def batch_step_at(self, *args):
            calls["steps"] += 1
            return rust.batch_step_at(*args)

    monkeypatch.setattr(analysis, "speedups", RustOnly())
    native._direct_calls.cache_clear()
    try:
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


@pytest.fixture(scope="module")
def rust_batch(rust):
    """The Rust module with the batch calls configured as batch.py configures the C ones."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    rust.configure_batch(batch._python_batch_shanten, batch._python_batch_waits, np.empty, np.dtype(np.int8),
                         np.dtype(np.uint8), np.dtype(np.bool_), None, None)
    return rust


@given(seed=st.integers(0, 2 ** 32), which=st.integers(0, len(VARIANTS) - 1),
       dtype=st.sampled_from(["int8", "uint8", "int16", "int32", "int64"]))
@settings(max_examples=60, deadline=None)
def test_rust_batches_equal_the_references(rust_batch, seed, which, dtype):
    """batch_shanten gives what the numpy path gives and batch_waits marks what waits_counts
    lists, row by row: ready hands, seven pairs, random closed hands, every void and sets."""
    np = pytest.importorskip("numpy")
    from majiang.core import batch
    from test_speedups import ready_rows
    variant = VARIANTS[which]
    resolved = variant if isinstance(variant, Variant) else analysis.get_variant(variant)
    rnd = random.Random(seed)
    rows = ready_rows(rnd, resolved, 30) + [list(h.counts) for h in (random_hand(rnd, resolved) for _ in range(20))
                                            if not h.melds]
    counts = np.array(rows, dtype=dtype)
    for void in voids_of(resolved):
        for sets in (1, 3, 4):
            try:
                expected = batch._batch_shanten_numpy(counts, resolved, void, sets).tolist()
            except ValueError:  # a single-group variant: not in batch mode, either way
                with pytest.raises(ValueError):
                    rust_batch.batch_shanten(counts, variant, void, sets)
                continue
            assert rust_batch.batch_shanten(counts, variant, void, sets).tolist() == expected
            assert rust_batch.batch_shanten(counts, variant, void=void, sets=sets).tolist() == expected
        got = rust_batch.batch_waits(counts, variant, void)
        assert got.dtype == np.bool_ and got.shape == counts.shape
        for row, marks in zip(rows, got):
            assert np.flatnonzero(marks).tolist() == analysis._waits_counts_python(row, row, resolved, void)


def test_rust_batches_of_one_into_given_arrays_and_odd_input(rust_batch):
    np = pytest.importorskip("numpy")
    from majiang.core.errors import HandError
    counts = np.array([Hand.parse("1112345678999m").counts, Hand.parse("123m456p789s11m23p").counts], dtype=np.int8)
    ready = counts.copy()
    ready[:, 0] -= 1
    out = np.full(2, 7, dtype=np.int8)
    before = rust_batch.forwarded()
    assert rust_batch.batch_shanten(counts, "sichuan", out=out) is out and out.tolist() == [0, 3]
    assert rust_batch.batch_shanten(counts[:1], "sichuan").tolist() == [0]
    assert rust_batch.batch_shanten(counts[:0], "sichuan").tolist() == []
    marks = np.zeros((2, 30), dtype=np.bool_)
    assert rust_batch.batch_waits(ready, "sichuan", None, marks) is marks
    assert marks.tolist() == rust_batch.batch_waits(ready, "sichuan").tolist()
    assert rust_batch.batch_waits(np.ascontiguousarray(ready[:, :27]), "sichuan").shape == (2, 27)
    assert rust_batch.forwarded() == before  # all in Rust
    with pytest.raises(ValueError):
        rust_batch.batch_shanten(counts, "sichuan", out=np.zeros(3, dtype=np.int8))  # the wrong shape
    with pytest.raises(ValueError):
        rust_batch.batch_waits(ready, "sichuan", out=np.zeros((2, 30), dtype=np.int8))  # not bool
    five = counts.copy()
    five[0, 0] = 5
    with pytest.raises(HandError):
        rust_batch.batch_shanten(five, "sichuan")  # handed to Python, which says why
    with pytest.raises(HandError):
        rust_batch.batch_waits(five, "sichuan")
    assert rust_batch.batch_shanten(counts[:, ::1].T.copy().T, "sichuan").tolist() == [0, 3]  # Fortran order
