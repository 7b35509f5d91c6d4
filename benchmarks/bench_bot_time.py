"""Decision time of the built-in agents, each beside ``strong`` measured in the same run.

    python -m majiang.native build      # expert's rollouts run in the native engine when built
    python benchmarks/bench_bot_time.py [--variant kawuxing] [--hands 12] [--json]
    python benchmarks/bench_bot_time.py --agents strong,expert:samples=12,work=60,expert

Each agent in the list takes seat 0 of the same hands (seeds ``time-0`` … ``time-N``) against
``strong`` in the other seats; every decision of seat 0 is timed in CPU time of this process
(``time.process_time``: a busy machine changes it little), and the searched ones (more than one
legal action) are also reported apart. The list is written as the arena's ``--bots``: a
``key=value`` after a comma belongs to the agent before it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from majiang.bots import make_agent, split_bots
from majiang.engine import Game
from majiang.games.rules import rules_for


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(spec: str, variant: str, hands: int) -> dict:
    n = 4 if variant == "sichuan" else 3
    rules = rules_for(variant)
    every: list[float] = []
    searched: list[float] = []
    for h in range(hands):
        game = Game(rules, seed=f"time-{h}", hand_index=0)
        agents = [make_agent(spec, h)] + [make_agent("strong", h * 10 + s) for s in range(1, n)]
        while not game.over:
            seat = game.pending_seats()[0]
            legal = game.legal_actions(seat)
            obs = game.observation(seat)
            if seat == 0:
                start = time.process_time()
                action = agents[0].act(obs, legal)
                spent = (time.process_time() - start) * 1000.0
                every.append(spent)
                if len(legal) > 1:
                    searched.append(spent)
            else:
                action = agents[seat].act(obs, legal)
            game.apply(seat, action)
    return {"agent": spec, "decisions": len(every), "median_ms": statistics.median(every),
            "p99_ms": percentile(every, 0.99), "max_ms": max(every),
            "choices": len(searched), "choice_median_ms": statistics.median(searched) if searched else None,
            "choice_p99_ms": percentile(searched, 0.99)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=["kawuxing", "sichuan"], default="kawuxing")
    ap.add_argument("--hands", type=int, default=12, help="hands per agent (default 12)")
    ap.add_argument("--agents", default="strong,expert",
                    help="agents to time, as the arena's --bots (default: strong,expert)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for spec in split_bots(args.agents):
        rows.append(measure(spec, args.variant, args.hands))
        if not args.json:
            r = rows[-1]
            print(f"{r['agent']:<36} {r['decisions']:>5} decisions  median {r['median_ms']:7.1f} ms  "
                  f"p99 {r['p99_ms']:7.1f} ms  max {r['max_ms']:7.1f} ms  |  {r['choices']} with a choice: "
                  f"median {r['choice_median_ms'] or 0:7.1f} ms, p99 {r['choice_p99_ms']:7.1f} ms", flush=True)
    if args.json:
        print(json.dumps({"variant": args.variant, "hands": args.hands, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
