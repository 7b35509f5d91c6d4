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
from test_speedups import VARIANTS, _outcome, random_hand, voids_of

ROOT = Path(__file__).resolve().parents[1]
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
    assert rust.layout() == 3  # tuples read in place, counts by address: this interpreter is laid out as expected


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
