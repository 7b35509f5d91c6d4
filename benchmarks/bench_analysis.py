"""Hand-analysis speed per call: ours (the public functions) beside the peers, in one run on the same hands.

    pip install -e '.[bench]'            # the peers: mahjong, xiangting, riichienv
    python benchmarks/bench_analysis.py [--repeats 21] [--chunk 500] [--seed 1] [--json]
    python benchmarks/bench_analysis.py --baseline REV [--rounds 7]   # ours beside an earlier revision

Each row times one function on the same hands, every implementation in turn, ``--repeats``
rounds interleaved (so a change in the machine's load falls on all of them alike); a round times
a short run of calls (up to ``--chunk`` hands, about 2 ms: a busy shared machine pauses longer
runs), each round on the next slice of the hands. It prints the min / median / max of the calls
per second and the ratio of our median to the best peer's. Peers that are not installed are left
out. Rows:

  shanten/kawuxing  random 14-tile Kawuxing hands (dots, bamboo, dragons): ours is the public
                    ``majiang.shanten(hand, "kawuxing")`` on a ``Hand``; the peers get the same
                    tiles in their own form (riichienv ``calculate_shanten`` on 136-tile ids,
                    xiangting ``calculate_replacement_number``, mahjong ``Shanten.calculate_shanten``
                    on 34 counts) and answer under riichi rules, which agree on these hands but for
                    seven pairs with a four of a kind.
  shanten/sichuan   random 14-tile hands of three suits: ours ``majiang.shanten(hand, "sichuan")``
                    (the two-suit rule: a harder question), the peers the same tiles as above.
  waits/sichuan     ready 13-tile hands of two suits: ours the public ``majiang.waits(hand, "sichuan")``
                    (a list of tiles); xiangting ``calculate_necessary_tiles``, riichienv
                    ``HandEvaluator(tiles).get_waits()``, mahjong ``Agari.is_agari`` on every tile.
  batch_shanten/N   ``majiang.core.batch.batch_shanten`` on an (N, 30) int8 array of closed Sichuan
                    hands a call (N = 1, 32, 1024), hands per second, beside our own one-hand call
                    and the peers' one-hand calls on the same hands (they have no batch call).
  batch_waits/N     ``majiang.core.batch.batch_waits`` on N ready hands a call, the same way.
  batch-text/*      ``majiang analyze --batch`` on lines of random 14-tile Sichuan hands: its block
                    path (numpy parser, batch analysis, JSON) 1,024 lines a call beside the
                    one-line-at-a-time path it replaced, for the full advice (every discard),
                    ``--shanten-only``, and turning text into counts alone.

Ratios: ours against the best peer's median (and best run against best run); batch rows also
against our own one-hand call.

``--baseline REV``: this checkout's analysis beside the one of git revision REV, built as a
checkout of it builds (its native engine and compiled analysis, ``bench_server.baseline_source``),
in one run: ``--rounds`` pairs of short runs of this script (``--repeats 5``, ours only), this
tree's and REV's in turn, in fresh processes. It prints per row the median over the rounds of
each one's median (ns a call, or a hand for batch rows) and the median of the pairs' ratios
(this / REV: below 1 is faster).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: no BLAS threads spinning beside the timed one

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import majiang  # noqa: E402
from majiang.core.hand import Hand  # noqa: E402

KINDS_KAWUXING = list(range(9, 30))
KINDS_SICHUAN = list(range(27))


def random_hands(n: int, kinds: list[int], size: int, rnd: random.Random) -> list[list[int]]:
    wall = [k for k in kinds for _ in range(4)]
    out = []
    for _ in range(n):
        c = [0] * 34
        for t in rnd.sample(wall, size):
            c[t] += 1
        out.append(c)
    return out


def ready_hands(n: int, rnd: random.Random) -> list[list[int]]:
    """Complete two-suit hands (four sets and a pair) with one tile taken out."""
    out = []
    while len(out) < n:
        suits = rnd.sample(range(3), 2)
        c = [0] * 34
        for _ in range(4):
            s = rnd.choice(suits) * 9
            if rnd.random() < 0.5:
                c[s + rnd.randrange(9)] += 3
            else:
                k = s + rnd.randrange(7)
                for x in (k, k + 1, k + 2):
                    c[x] += 1
        c[rnd.choice(suits) * 9 + rnd.randrange(9)] += 2
        if max(c) > 4:
            continue
        tiles = [k for k in range(34) for _ in range(c[k])]
        c[rnd.choice(tiles)] -= 1
        out.append(c)
    return out


def as_hand(c: list[int]) -> Hand:
    return Hand(tuple(c[:30]))


def as_136(c: list[int]) -> list[int]:
    return [4 * k + j for k in range(34) for j in range(c[k])]


def peers_shanten() -> dict:
    found = {}
    try:
        import riichienv
        found["riichienv calculate_shanten"] = (as_136, riichienv.calculate_shanten, None)
    except ImportError:
        pass
    try:
        import xiangting
        four = xiangting.PlayerCount.FOUR
        found["xiangting calculate_replacement_number"] = (list, xiangting.calculate_replacement_number, four)
    except ImportError:
        pass
    try:
        from mahjong.shanten import Shanten
        found["mahjong Shanten.calculate_shanten"] = (list, Shanten().calculate_shanten, None)
    except ImportError:
        pass
    return found


def peers_waits() -> dict:
    found = {}
    try:
        import xiangting
        four = xiangting.PlayerCount.FOUR
        found["xiangting calculate_necessary_tiles"] = (list, xiangting.calculate_necessary_tiles, four)
    except ImportError:
        pass
    try:
        import riichienv
        evaluator = riichienv.HandEvaluator
        found["riichienv HandEvaluator.get_waits"] = (as_136, lambda t: evaluator(t).get_waits(), None)
    except ImportError:
        pass
    try:
        from mahjong.agari import Agari
        agari = Agari()

        def agari_waits(c):
            out = []
            for k in range(34):
                if c[k] < 4:
                    c[k] += 1
                    if agari.is_agari(c):
                        out.append(k)
                    c[k] -= 1
            return out
        found["mahjong Agari.is_agari on every tile"] = (list, agari_waits, None)
    except ImportError:
        pass
    return found


def rate(fn, inputs: list, arg=None) -> float:
    """Calls per second of ``fn(x)``, or ``fn(x, arg)``, over ``inputs``: each function called
    directly, with no wrapper of ours (the loop's own cost is included, alike for all)."""
    t = time.perf_counter()
    if arg is None:
        for x in inputs:
            fn(x)
    else:
        for x in inputs:
            fn(x, arg)
    return len(inputs) / (time.perf_counter() - t)


def batch_text_rows(rnd: random.Random) -> list:
    """``majiang analyze --batch`` on text lines of random 14-tile Sichuan hands, hands per second:
    its block path (``majiang.core.batch.parse_hands`` and the batch analysis, 1,024 lines a
    call) beside the path every line took before (``Hand.parse`` then ``analyze_hand`` and
    ``json.dumps`` a line), for the full advice, ``--shanten-only``, and text to counts alone."""
    from majiang.cli.analyze import _FastBatch
    from majiang.core.analysis import analyze_hand
    from majiang.core.batch import parse_hands
    from majiang.core.tiles import format_tiles, parse_tiles, to_counts
    from majiang.core.variants import get_variant

    lines = [format_tiles(as_hand(c).tiles) for c in random_hands(8192, KINDS_SICHUAN, 14, rnd)]
    blocks = [("\n".join(lines[i:i + 1024]) + "\n").encode() for i in range(0, len(lines), 1024)]
    variant = get_variant("sichuan")
    full, only = _FastBatch(variant, None, [0] * 30, False), _FastBatch(variant, None, [0] * 30, True)

    def old_line(line: str, _arg) -> str:  # the loop body of the batch before: one hand at a time
        return json.dumps(analyze_hand(line, variant, [], None, [0] * 30), ensure_ascii=False, separators=(",", ":"))

    def old_shanten(line: str, _arg) -> int:
        return majiang.shanten(Hand.parse(line), variant)

    return [
        ("batch-text/advice", [("analyze --batch block path, 1024 lines a call", lambda b, _: full.answer(b, 1024), 0,
                                blocks, 1024),
                               ("majiang.analyze_hand + json.dumps a line (before)", old_line, 0, lines, 1)]),
        ("batch-text/shanten", [("analyze --batch --shanten-only block path", lambda b, _: only.answer(b, 1024), 0,
                                 blocks, 1024),
                                ("majiang.shanten(Hand.parse(line)) (before)", old_shanten, 0, lines, 1)]),
        ("batch-text/parse", [("parse_hands(block), 1024 lines a call", lambda b, _: parse_hands(b), 0, blocks, 1024),
                              ("majiang.core.tiles.to_counts(parse_tiles(line)) (before)",
                               lambda x, _: to_counts(parse_tiles(x)), 0, lines, 1)]),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=21)
    ap.add_argument("--chunk", type=int, default=500, help="most calls in one timing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", metavar="PREFIX",
                    help="time only the rows whose name starts so (e.g. batch-text; several: a,b)")
    ap.add_argument("--ours-only", action="store_true", help="leave the peers out")
    ap.add_argument("--baseline", metavar="REV", help="time this tree beside git revision REV (see above)")
    ap.add_argument("--rounds", type=int, default=7, help="with --baseline: pairs of runs")
    args = ap.parse_args()
    if args.baseline:
        beside_baseline(args)
        return
    rnd = random.Random(args.seed)
    kawuxing = random_hands(4096, KINDS_KAWUXING, 14, rnd)
    sichuan = random_hands(4096, KINDS_SICHUAN, 14, rnd)
    ready = ready_hands(4096, rnd)
    majiang.shanten(as_hand(kawuxing[0]), "kawuxing")  # tables load (and the C path binds) before timing
    from majiang.core import analysis
    compiled = getattr(analysis, "rust", None) or getattr(analysis, "speedups", None)  # (a baseline's C one)
    path = "pure Python" if compiled is None else f"compiled ({compiled.__name__})"
    if args.ours_only:
        globals().update(peers_shanten=dict, peers_waits=dict)

    # (row, [(label, fn, second argument, inputs, hands per input)]): ours first
    rows = []
    for name, hands, variant in (("shanten/kawuxing", kawuxing, "kawuxing"), ("shanten/sichuan", sichuan, "sichuan")):
        impls = [(f'majiang.shanten(hand, "{variant}")', majiang.shanten, variant, [as_hand(c) for c in hands], 1)]
        impls += [(label, fn, arg, [conv(c) for c in hands], 1) for label, (conv, fn, arg) in peers_shanten().items()]
        rows.append((name, impls))
    impls = [('majiang.waits(hand, "sichuan")', majiang.waits, "sichuan", [as_hand(c) for c in ready], 1)]
    impls += [(label, fn, arg, [conv(c) for c in ready], 1) for label, (conv, fn, arg) in peers_waits().items()]
    rows.append(("waits/sichuan", impls))
    try:
        import numpy as np

        from majiang.core.batch import _arrays, batch_shanten, batch_waits
        _arrays()
        batch_waits(np.zeros((1, 30), dtype=np.int8), "sichuan")  # its tables, before timing
        for what, hands, fn, one_fn, peer_fns in (("shanten", sichuan, batch_shanten, majiang.shanten, peers_shanten),
                                                  ("waits", ready, batch_waits, majiang.waits, peers_waits)):
            arr = np.ascontiguousarray(np.array(hands, dtype=np.int8)[:, :30])  # (N, 30) rows, as callers keep them
            one = [as_hand(c) for c in hands]
            singles = [(label, f, arg, [conv(c) for c in hands], 1) for label, (conv, f, arg) in peer_fns().items()]
            for n in (1, 32, 1024):
                arrays = [arr[i:i + n] for i in range(0, len(arr) - n + 1, n)]
                rows.append((f"batch_{what}/{n}", [
                    (f'batch_{what}(counts, "sichuan"), {n} a call', fn, "sichuan", arrays, n),
                    (f'majiang.{what}(hand, "sichuan")', one_fn, "sichuan", one, 1), *singles]))
        rows.extend(batch_text_rows(rnd))
    except ImportError:
        pass

    if args.only:
        rows = [r for r in rows if r[0].startswith(tuple(args.only.split(",")))]
    # calls in one timing: about 2 ms of them (from a first short run), at most --chunk
    sized = []
    for name, impls in rows:
        out = []
        for label, fn, arg, inputs, per_input in impls:
            calls = max(1, min(args.chunk, len(inputs), int(rate(fn, inputs[:8], arg) * 0.002)))
            out.append((label, fn, arg, inputs, per_input, calls))
        sized.append((name, out))
    results: dict = {name: {label: [] for label, *_ in impls} for name, impls in sized}
    for round_ in range(args.repeats):
        for name, impls in sized:
            for label, fn, arg, inputs, per_input, calls in impls:
                at = round_ * calls % (len(inputs) - calls + 1)
                results[name][label].append(rate(fn, inputs[at:at + calls], arg) * per_input)

    report = []
    for name, impls in sized:
        entries = []
        for label, *_ in impls:
            v = results[name][label]
            entries.append({"function": label, "min": min(v), "median": statistics.median(v), "max": max(v)})
        ours = entries[0]
        peers = [e for e in entries[1:] if not e["function"].startswith("majiang.")]
        best = max(peers, key=lambda e: e["median"]) if peers else None
        mine = [e for e in entries[1:] if e["function"].startswith("majiang.")]
        report.append({"row": name, "ours": ours, "peers": entries[1:],
                       "ratio_to_best": ours["median"] / best["median"] if best else None,
                       "ratio_of_mins": ours["max"] / best["max"] if best else None,
                       "ratio_to_one_hand": ours["median"] / mine[0]["median"] if mine else None})
    if args.json:
        print(json.dumps({"analysis_path": path, "repeats": args.repeats, "rows": report}, indent=2))
        return
    print(f"analysis on its {path} path; calls/s, min / median / max over {args.repeats} interleaved repeats, one core")
    for r in report:
        ratios = (f"  (ours / best peer: {r['ratio_to_best']:.2f}x medians, {r['ratio_of_mins']:.2f}x best runs"
                  if r["ratio_to_best"] else "  (")
        if r["ratio_to_one_hand"]:
            ratios += f"{'; ' if r['ratio_to_best'] else ''}ours / our one-hand call: {r['ratio_to_one_hand']:.2f}x"
        print(f"\n{r['row']}" + (ratios + ")" if ratios != "  (" else ""))
        for e in [r["ours"], *r["peers"]]:
            print(f"  {e['function']:<42}{e['min']:>12,.0f}{e['median']:>12,.0f}{e['max']:>12,.0f}"
                  f"   {1e9 / e['median']:>7,.0f} ns")


def beside_baseline(args) -> None:
    """This tree's rows beside git revision ``args.baseline``'s, in alternating fresh processes."""
    import subprocess
    import sys

    from bench_server import baseline_source

    base_src = baseline_source(args.baseline)
    run = [sys.executable, os.path.abspath(__file__), "--json", "--ours-only", "--repeats", "5", "--seed",
           str(args.seed), "--chunk", str(args.chunk)] + (["--only", args.only] if args.only else [])
    ours: dict[str, list[float]] = {}
    base: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    paths = {}
    for _ in range(args.rounds):
        pair = {}
        for label, env in (("this", dict(os.environ)), ("base", dict(os.environ, PYTHONPATH=base_src))):
            out = json.loads(subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout)
            paths[label] = out["analysis_path"]
            pair[label] = {r["row"]: 1e9 / r["ours"]["median"] for r in out["rows"]}
        for row, ns in pair["this"].items():
            if row in pair["base"]:
                ours.setdefault(row, []).append(ns)
                base.setdefault(row, []).append(pair["base"][row])
                ratios.setdefault(row, []).append(ns / pair["base"][row])
    if args.json:
        print(json.dumps({"baseline": args.baseline, "paths": paths, "rounds": args.rounds, "rows": [
            {"row": r, "this_ns": statistics.median(ours[r]), "baseline_ns": statistics.median(base[r]),
             "ratio": statistics.median(ratios[r]), "ratio_min": min(ratios[r]), "ratio_max": max(ratios[r])}
            for r in ours]}, indent=2))
        return
    print(f"this tree ({paths['this']}) beside {args.baseline} ({paths['base']}); ns a call (a hand for batch rows), "
          f"median over {args.rounds} alternating pairs of runs; ratio this / {args.baseline}: median (min-max)")
    for r in ours:
        q = ratios[r]
        print(f"  {r:<22}{statistics.median(ours[r]):>10,.0f}{statistics.median(base[r]):>10,.0f}"
              f"   {statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})")


if __name__ == "__main__":
    main()
