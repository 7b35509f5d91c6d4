"""Hand-analysis throughput, ours beside the `mahjong` package's, measured in one run on the same hands.

    pip install -e '.[bench]'
    python benchmarks/bench_analysis.py [--hands 100000] [--seed 1] [--json]

Rows:
  shanten        random 13-tile m/p/s hands; ours = closed-hand shanten with the same rules as the
                 reference (three suits, seven pairs); reference = Shanten.calculate_shanten.
  shanten/sichuan ours under Sichuan's two-suit rule (a harder question), same hands.
  batch shanten  ours vectorised with numpy (majiang.batch), per hand, vs the reference per hand.
  waits          ready hands; ours = majiang.analysis.waits_counts; reference = Agari.is_agari on
                 every candidate tile.
  cli --batch    `majiang analyze --batch` end to end (process start, parse, analyse, JSON out) vs
                 the reference's in-process waits rate.
  tables         resident memory and time of import + first call, in a fresh process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from majiang.core.analysis import closed_shanten_function, tables, waits_counts
from majiang.core.tiles import format_tiles, from_counts
from majiang.core.variants import SICHUAN, Variant

THREE_SUITS = Variant("three-suits", "三门", "mps", False, 4, False)


def random_hands(n: int, rnd: random.Random) -> list[list[int]]:
    wall = [k for k in range(27) for _ in range(4)]
    out = []
    for _ in range(n):
        rnd.shuffle(wall)
        c = [0] * 34
        for t in wall[:13]:
            c[t] += 1
        out.append(c)
    return out


def ready_hands(n: int, rnd: random.Random) -> list[list[int]]:
    """Complete hands (four sets + pair) with one tile removed."""
    out = []
    while len(out) < n:
        c = [0] * 34
        for _ in range(4):
            if rnd.random() < 0.5:
                k = rnd.randrange(27)
                c[k] += 3
            else:
                s = rnd.randrange(3) * 9 + rnd.randrange(7)
                for x in (s, s + 1, s + 2):
                    c[x] += 1
        c[rnd.randrange(27)] += 2
        if max(c) > 4:
            continue
        tiles = [k for k in range(27) for _ in range(c[k])]
        c[rnd.choice(tiles)] -= 1
        out.append(c)
    return out


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        sys.exit("the reference needs the mahjong package: pip install -e '.[bench]'")
    rnd = random.Random(args.seed)
    hands = random_hands(args.hands, rnd)
    ready = ready_hands(max(1000, args.hands // 10), rnd)
    tables()
    rows = []

    ref = Shanten()
    t_ref = timed(lambda: [ref.calculate_shanten(h) for h in hands])
    ours_fn = closed_shanten_function(THREE_SUITS)
    t_ours = timed(lambda: [ours_fn(h) for h in hands])
    ref_vals = [ref.calculate_shanten(h) for h in hands[:5000]]
    our_vals = [ours_fn(h) for h in hands[:5000]]
    agree = sum(a == b for a, b in zip(ref_vals, our_vals)) / len(ref_vals)
    rows.append(("shanten", len(hands) / t_ours, len(hands) / t_ref, f"agree {agree:.2%} (4-of-a-kind as 2 pairs differs)"))

    sich = closed_shanten_function(SICHUAN)
    t_s = timed(lambda: [sich(h) for h in hands])
    rows.append(("shanten/sichuan", len(hands) / t_s, len(hands) / t_ref, "two-suit rule"))

    try:
        import numpy as np

        from majiang.core.batch import _arrays, batch_shanten
        _arrays()
        arr = np.array(hands, dtype=np.int8)[:, :27]
        t_b = timed(batch_shanten, arr, THREE_SUITS)
        same = (batch_shanten(arr[:5000], THREE_SUITS).tolist() == our_vals)
        rows.append(("batch shanten", len(hands) / t_b, len(hands) / t_ref, f"numpy; equals scalar: {same}"))
    except ImportError:
        rows.append(("batch shanten", float("nan"), len(hands) / t_ref, "numpy not installed"))

    agari = Agari()

    def ref_waits(c):
        out = []
        for k in range(27):
            if c[k] < 4:
                c[k] += 1
                if agari.is_agari(c):
                    out.append(k)
                c[k] -= 1
        return out

    t_rw = timed(lambda: [ref_waits(h) for h in ready])
    t_ow = timed(lambda: [waits_counts(h, h, THREE_SUITS) for h in ready])
    same_w = sum(ref_waits(h) == waits_counts(h, h, THREE_SUITS) for h in ready[:2000]) / 2000
    rows.append(("waits (ready)", len(ready) / t_ow, len(ready) / t_rw, f"agree {same_w:.2%} (4-of-a-kind as 2 pairs differs)"))

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for h in ready:
            f.write(format_tiles(from_counts(h[:30])) + "\n")
        path = f.name
    cmd = [sys.executable, "-m", "majiang", "analyze", "--batch", path, "--variant", "sichuan"]
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    t_cli = time.perf_counter() - t
    os.unlink(path)
    rows.append(("cli --batch", len(ready) / t_cli, len(ready) / t_rw, "whole process vs in-process waits"))

    # current resident size (ru_maxrss would inherit this big parent's peak across fork/exec)
    rss_now = "int([l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1])"
    probe = ("import time; t=time.perf_counter(); import majiang.core.analysis as a; "
             "from majiang.core.hand import Hand; a.shanten(Hand.parse('1112345678999m'), 'sichuan'); "
             f"print(time.perf_counter()-t, {rss_now})")
    base = f"print(0, {rss_now})"
    first, rss = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    _, rss0 = subprocess.run([sys.executable, "-c", base], capture_output=True, text=True, check=True).stdout.split()
    table_mb = (int(rss) - int(rss0)) / 1024  # KiB

    if args.json:
        print(json.dumps({"hands": len(hands), "rows": [
            {"name": n, "ours_per_s": o, "reference_per_s": r, "speedup": o / r, "note": note} for n, o, r, note in rows],
            "tables_mb": table_mb, "import_first_call_s": float(first)}, indent=2))
        return
    print(f"{len(hands):,} random hands, {len(ready):,} ready hands, one core, seed {args.seed}")
    print(f"{'':<17}{'ours/s':>12}{'mahjong/s':>12}{'speedup':>9}  note")
    for n, o, r, note in rows:
        print(f"{n:<17}{o:>12,.0f}{r:>12,.0f}{o / r:>8.1f}x  {note}")
    print(f"tables: {table_mb:.1f} MB resident over a bare interpreter; import + first call {float(first) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
