"""One call of shanten and waits through each compiled binding: the C extension
(``majiang.core._speedups``, today's fast path) beside the Rust crate's CPython binding
(``majiang.core._analysis``, ``native/src/python.rs``), on the same hands, in one process.

    cargo build --release --features python --manifest-path native/Cargo.toml --target-dir native/target/python
    python benchmarks/bench_binding.py [--rounds 15] [--hands 500] [--seed 1]

Each row times ``--hands`` calls, both bindings in turn, ``--rounds`` times; it prints each one's
best round (nanoseconds a call: the least disturbed by a busy machine) and the median. Rows: random
14-tile Kawuxing and Sichuan hands for ``shanten``, ready 13-tile two-suit hands for ``waits``
(the hands of ``bench_analysis.py``).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

from bench_analysis import KINDS_KAWUXING, KINDS_SICHUAN, as_hand, random_hands, ready_hands

from majiang.core import analysis

ROOT = Path(__file__).resolve().parents[1]


def rust_binding(path: Path):
    """The crate built with the ``python`` feature, loaded as ``majiang.core._analysis``."""
    loader = importlib.machinery.ExtensionFileLoader("majiang.core._analysis", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return analysis._configure_rust(module)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--library", type=Path, default=ROOT / "native/target/python/release/libmajiang_native.so")
    args = ap.parse_args()
    if analysis.speedups is None:
        sys.exit("the C extension is not built (pip install -e .)")
    rust = rust_binding(args.library)
    rnd = random.Random(args.seed)
    kawuxing = [as_hand(c) for c in random_hands(args.hands, KINDS_KAWUXING, 14, rnd)]
    sichuan = [as_hand(c) for c in random_hands(args.hands, KINDS_SICHUAN, 14, rnd)]
    ready = [as_hand(c) for c in ready_hands(args.hands, rnd)]
    c = analysis.speedups
    rows = [("shanten/kawuxing", "kawuxing", kawuxing, c.shanten, rust.shanten),
            ("shanten/sichuan", "sichuan", sichuan, c.shanten, rust.shanten),
            ("waits/sichuan", "sichuan", ready, c.waits, rust.waits)]
    for name, variant, hands, c_fn, rust_fn in rows:
        for h in hands:  # the same answers, and every table built before timing
            assert c_fn(h, variant) == rust_fn(h, variant), h
        times: dict[str, list[float]] = {"C": [], "Rust": []}
        for _ in range(args.rounds):
            for label, fn in (("C", c_fn), ("Rust", rust_fn)):
                t = time.perf_counter()
                for h in hands:
                    fn(h, variant)
                times[label].append((time.perf_counter() - t) / len(hands) * 1e9)
        best = {k: min(v) for k, v in times.items()}
        print(f"{name:18} " + "   ".join(f"{k} {best[k]:5.0f} ns (median {statistics.median(v):5.0f})"
                                          for k, v in times.items())
              + f"   Rust / C best {best['Rust'] / best['C']:.2f}")


if __name__ == "__main__":
    main()
