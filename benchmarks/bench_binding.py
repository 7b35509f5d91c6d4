"""One call of each compiled analysis function: this tree's Rust binding (``majiang.core._analysis``,
``native/src/python.rs``) beside the C extension it replaced (``majiang.core._speedups``, built from
an earlier revision), on the same hands, in one process.

    python -m majiang.native build
    python benchmarks/bench_binding.py [--baseline 8ad68ae] [--rounds 21] [--chunk 500] [--seed 1]

The C extension is built from ``--baseline`` (the last revision that had it) as a checkout of it
builds it (``bench_server.baseline_source``) and loaded beside this tree's analysis, which hands
it the tables and Python fallbacks it asks for (``c_tables`` below, as that revision's
``analysis.py`` did). The hands and the rounds are ``bench_analysis.py``'s: 4,096 random 14-tile
Kawuxing and Sichuan hands for ``shanten``, 4,096 ready 13-tile two-suit hands for ``waits``, the
batch calls on (N, 30) int8 arrays of them; each round times ``--chunk`` calls (batch rows: hands)
on the next slice, the C binding and then the Rust one. It prints each binding's median and best
round (nanoseconds a call, a hand for batch rows) and the ratio Rust / C of the medians.
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

from bench_analysis import KINDS_KAWUXING, KINDS_SICHUAN, as_hand, random_hands, rate, ready_hands

from majiang.core import analysis
from majiang.core.analysis import ALL_TILES, MeldKind, _groups_for, _plan, get_variant, tables
from majiang.games.sichuan.tiles import SICHUAN


def c_plan(variant) -> tuple:
    """What the C extension asks once per variant (the baseline's ``analysis._speedup_plan``)."""
    variant = get_variant(variant)
    names = _groups_for(variant)
    per_void: list = []
    for void in (None, "m", "p", "s"):
        if void is not None and not (variant.capabilities.two_suits and void in variant.suits):
            per_void.append(None)
            continue
        per_void.append(tuple(sum(1 << g for g in choice) for choice in _plan(variant, void)[1]))
    return (sum(1 << int(t) for t in variant.kinds), tuple((g.start, g.size) for g in _plan(variant, None)[0]),
            variant.capabilities.two_suits, tuple(names.index(s) if s in names else -1 for s in "mps"), tuple(per_void))


def c_tables() -> tuple:
    t = tables()
    return (t.suit, t.honour, bytes(v for row in t.rows for v in row), c_plan, ALL_TILES, MeldKind.PONG)


def c_extension(rev: str):
    """The C extension of revision ``rev``, built and configured against this tree's analysis."""
    import numpy as np
    from bench_server import baseline_source

    from majiang.core import batch

    found = list((Path(baseline_source(rev)) / "majiang" / "core").glob("_speedups*.so"))
    if not found:
        sys.exit(f"{rev} has no C extension that builds here")
    loader = importlib.machinery.ExtensionFileLoader("majiang.core._speedups", str(found[0]))
    c = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(c)
    c.configure(analysis._shanten_python, analysis._waits_python, c_tables, analysis._shanten_counts_python,
                analysis._waits_counts_python)
    c.configure_batch(batch._python_batch_shanten, batch._python_batch_waits, np.empty, np.dtype(np.int8),
                      np.dtype(np.uint8), np.dtype(np.bool_), batch._array_api, np.zeros((3, 30), dtype=np.int8))
    return c


def rate_waits_counts(fn, inputs: list, variant) -> float:
    """Calls per second of ``fn(counts, counts, variant)``: closed hands, totals their counts."""
    t = time.perf_counter()
    for x in inputs:
        fn(x, x, variant)
    return len(inputs) / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="8ad68ae", help="the revision whose C extension to time beside")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if analysis.rust is None:
        sys.exit("the Rust module is not built (python -m majiang.native build)")
    import numpy as np

    rust, c = analysis.rust, c_extension(args.baseline)
    rnd = random.Random(args.seed)
    kawuxing = random_hands(4096, KINDS_KAWUXING, 14, rnd)
    sichuan = random_hands(4096, KINDS_SICHUAN, 14, rnd)
    ready = ready_hands(4096, rnd)
    rows = [("shanten/kawuxing", "kawuxing", kawuxing, "shanten", 0),
            ("shanten/sichuan", "sichuan", sichuan, "shanten", 0),
            ("waits/sichuan", "sichuan", ready, "waits", 0),
            ("shanten_counts/sc", SICHUAN, sichuan, "shanten_counts", 0),
            ("waits_counts/sc", SICHUAN, ready, "waits_counts", 0)]
    rows += [(f"batch_{what}/{n}", "sichuan", hands, f"batch_{what}", n)
             for what, hands in (("shanten", sichuan), ("waits", ready)) for n in (1, 32, 1024)]
    for name, variant, counts, fn_name, per_call in rows:
        c_fn, rust_fn = getattr(c, fn_name), getattr(rust, fn_name)
        timer = rate_waits_counts if fn_name == "waits_counts" else rate
        if per_call:
            arr = np.ascontiguousarray(np.array(counts, dtype=np.int8)[:, :30])
            inputs = [arr[i:i + per_call] for i in range(0, len(arr) - per_call + 1, per_call)]
            assert all(np.array_equal(c_fn(x, variant), rust_fn(x, variant)) for x in inputs)
        else:
            inputs = [list(x) for x in counts] if fn_name.endswith("_counts") else [as_hand(x) for x in counts]
            for h in inputs:  # the same answers, and every table built before timing
                if timer is rate_waits_counts:
                    assert c_fn(h, h, variant) == rust_fn(h, h, variant), h
                else:
                    assert c_fn(h, variant) == rust_fn(h, variant), h
        calls = max(1, min(args.chunk, args.chunk // max(per_call, 1) * 4, len(inputs)))
        times: dict[str, list[float]] = {"C": [], "Rust": []}
        for round_ in range(args.rounds):
            at = round_ * calls % (len(inputs) - calls + 1)
            for label, fn in (("C", c_fn), ("Rust", rust_fn)):
                times[label].append(1e9 / (timer(fn, inputs[at:at + calls], variant) * max(per_call, 1)))
        median = {k: statistics.median(v) for k, v in times.items()}
        print(f"{name:19} " + "   ".join(f"{k} {median[k]:5.0f} ns (best {min(v):5.0f})" for k, v in times.items())
              + f"   Rust / C {median['Rust'] / median['C']:.2f}", flush=True)


if __name__ == "__main__":
    main()
