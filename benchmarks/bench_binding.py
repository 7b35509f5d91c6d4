"""One call of shanten, waits, shanten_counts and waits_counts through each compiled binding: the C extension
(``majiang.core._speedups``, today's fast path) beside the Rust crate's CPython binding
(``majiang.core._analysis``, ``native/src/python.rs``), on the same hands, in one process.

    cargo build --release --features python --manifest-path native/Cargo.toml --target-dir native/target/python
    python benchmarks/bench_binding.py [--rounds 21] [--chunk 500] [--seed 1]

The hands and the rounds are ``bench_analysis.py``'s: 4,096 random 14-tile Kawuxing and Sichuan
hands for ``shanten``, 4,096 ready 13-tile two-suit hands for ``waits``; each round times
``--chunk`` calls on the next slice of them, the C binding, the Rust binding and the peers that
are installed in turn (so each binding meets caches the others have just used, as a call in a
program does). It prints each binding's median and best round (nanoseconds a call) and the ratio
Rust / C of the medians.
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

from bench_analysis import (
    KINDS_KAWUXING,
    KINDS_SICHUAN,
    as_hand,
    peers_shanten,
    peers_waits,
    random_hands,
    rate,
    ready_hands,
)

from majiang.core import analysis
from majiang.games.sichuan.tiles import SICHUAN

ROOT = Path(__file__).resolve().parents[1]


def rate_waits_counts(fn, inputs: list, variant) -> float:
    """Calls per second of ``fn(counts, counts, variant)``: closed hands, totals their counts."""
    t = time.perf_counter()
    for x in inputs:
        fn(x, x, variant)
    return len(inputs) / (time.perf_counter() - t)


def rust_binding(path: Path):
    """The crate built with the ``python`` feature, loaded as ``majiang.core._analysis``."""
    loader = importlib.machinery.ExtensionFileLoader("majiang.core._analysis", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return analysis._configure_rust(module)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--library", type=Path, default=ROOT / "native/target/python/release/libmajiang_native.so")
    args = ap.parse_args()
    if analysis.speedups is None:
        sys.exit("the C extension is not built (pip install -e .)")
    rust = rust_binding(args.library)
    rnd = random.Random(args.seed)
    kawuxing = random_hands(4096, KINDS_KAWUXING, 14, rnd)
    sichuan = random_hands(4096, KINDS_SICHUAN, 14, rnd)
    ready = ready_hands(4096, rnd)
    c = analysis.speedups
    rows = [("shanten/kawuxing", "kawuxing", kawuxing, c.shanten, rust.shanten, peers_shanten()),
            ("shanten/sichuan", "sichuan", sichuan, c.shanten, rust.shanten, peers_shanten()),
            ("waits/sichuan", "sichuan", ready, c.waits, rust.waits, peers_waits()),
            ("shanten_counts/sc", SICHUAN, sichuan, c.shanten_counts, rust.shanten_counts, peers_shanten()),
            ("waits_counts/sc", SICHUAN, ready, c.waits_counts, rust.waits_counts, peers_waits())]
    for name, variant, counts, c_fn, rust_fn, peers in rows:
        on_counts = name.split("/")[0].endswith("_counts")
        hands = [list(x) for x in counts] if on_counts else [as_hand(x) for x in counts]
        timer = rate_waits_counts if name.startswith("waits_counts") else rate
        for h in hands:  # the same answers, and every table built before timing
            if timer is rate_waits_counts:
                assert c_fn(h, h, variant) == rust_fn(h, h, variant), h
            else:
                assert c_fn(h, variant) == rust_fn(h, variant), h
        peer_inputs = [(fn, arg, [conv(x) for x in counts]) for conv, fn, arg in peers.values()]
        times: dict[str, list[float]] = {"C": [], "Rust": []}
        for round_ in range(args.rounds):
            at = round_ * args.chunk % (len(hands) - args.chunk + 1)
            for label, fn in (("C", c_fn), ("Rust", rust_fn)):
                times[label].append(1e9 / timer(fn, hands[at:at + args.chunk], variant))
            for fn, arg, inputs in peer_inputs:  # the peers' calls, between ours (not timed)
                rate(fn, inputs[at:at + args.chunk // 4], arg)
        median = {k: statistics.median(v) for k, v in times.items()}
        print(f"{name:18} " + "   ".join(f"{k} {median[k]:5.0f} ns (best {min(v):5.0f})" for k, v in times.items())
              + f"   Rust / C {median['Rust'] / median['C']:.2f}")


if __name__ == "__main__":
    main()
