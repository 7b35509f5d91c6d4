"""``majiang simulate``'s memory against the number of hands: flat, as its summary streams.

    python benchmarks/bench_simulate_memory.py [--variant sichuan] [--hands 100 400 1600] [--bots random]

For each count of hands it runs ``simulate`` (the command's function, no log folder) and reports
the peak of Python's allocations during the run (``tracemalloc``), what the library's bounded
caches held at its end (they fill to their ``maxsize`` and stop: a short run sees them grow), and
what the run left allocated besides them once it ended (garbage collected), and that per hand,
the slope between the smallest and the largest run. Before the summary streamed, a match kept every
hand's result (about 2 KB a hand: 10 million hands would need about 20 GB); now the peak holds
one hand's game and the running counts, whatever the number of hands, so 10 million hands stay
far under 200 MB (the projection printed is the largest run's peak less its caches, plus the slope times 10M,
plus the caches at their full size).
"""

from __future__ import annotations

import argparse
import gc
import json
import time
import tracemalloc

from majiang.cli.simulate import simulate
from majiang.games.rules import rules_for


def bounded_caches() -> list:
    """The library's bounded ``functools.lru_cache``s (a table's hands as text, and the like):
    they fill up to their ``maxsize`` and stop, so a short run sees them grow; they are measured
    apart and counted at their full size in the projection."""
    import sys

    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("majiang") or module is None:
            continue
        for attr in list(vars(module).values()):
            info = getattr(attr, "cache_info", None)
            if callable(info) and callable(getattr(attr, "cache_clear", None)) and info().maxsize:
                if all(attr is not f for f in found):
                    found.append(attr)
    return found


CACHES: list = []  # found once, before the runs (the search itself allocates)


def measure(variant: str, hands: int, bots: str) -> dict:
    """Peak allocations of a run of ``hands`` hands, and what the bounded caches held at its end."""
    rules = rules_for(variant)
    for cache in CACHES:
        cache.cache_clear()
    gc.collect()
    tracemalloc.start()
    t = time.perf_counter()
    simulate(rules, hands, "bench", [bots], progress=False)
    seconds = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    gc.collect()  # a finished hand's cycles, not yet collected, are not memory the run keeps
    held, entries, full = 0, 0, 0
    for cache in CACHES:
        info = cache.cache_info()
        before = tracemalloc.get_traced_memory()[0]
        cache.cache_clear()
        gc.collect()  # the cache's entries are freed with its links, which the collector frees
        freed = before - tracemalloc.get_traced_memory()[0]
        held += freed
        entries += info.currsize
        full += int(freed / info.currsize * info.maxsize) if info.currsize else 0
    kept = tracemalloc.get_traced_memory()[0]  # what the run left allocated besides the caches
    tracemalloc.stop()
    return {"hands": hands, "peak_bytes": peak, "cache_bytes": held, "cache_entries": entries,
            "caches_full_bytes": full, "kept_bytes": kept, "seconds": seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="sichuan")
    ap.add_argument("--hands", type=int, nargs="+", default=[100, 400, 1600])
    ap.add_argument("--bots", default="random")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    simulate(rules_for(args.variant), 5, "bench", [args.bots], progress=False)
    CACHES.extend(bounded_caches())
    measure(args.variant, 100, args.bots)  # tables and finite caches (actions by kind) filled before measuring
    runs = [measure(args.variant, n, args.bots) for n in sorted(args.hands)]
    first, last = runs[0], runs[-1]
    # what stays allocated per hand once a run ends, besides the bounded caches (which stop at their maxsize)
    slope = (last["kept_bytes"] - first["kept_bytes"]) / max(1, last["hands"] - first["hands"])
    projected = last["peak_bytes"] - last["cache_bytes"] + max(0.0, slope) * (10_000_000 - last["hands"]) \
        + last["caches_full_bytes"]
    report = {"variant": args.variant, "bots": args.bots, "runs": runs, "bytes_per_hand": slope,
              "projected_10M_hands_bytes": projected}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for r in runs:
        print(f"{r['hands']:>8} hands: peak {r['peak_bytes'] / 1e6:8.2f} MB of Python allocations, of which bounded "
              f"caches {r['cache_bytes'] / 1e6:.2f} MB ({r['cache_entries']} entries; "
              f"{r['caches_full_bytes'] / 1e6:.1f} MB when full); {r['kept_bytes'] / 1e3:.1f} KB kept after it "
              f"besides them ({r['seconds']:.1f} s)")
    print(f"kept per hand besides the bounded caches: {slope:,.1f} bytes; 10M hands projected, caches full: "
          f"{projected / 1e6:,.1f} MB")


if __name__ == "__main__":
    main()
