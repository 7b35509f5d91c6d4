"""Agent speed, ours beside RLCard's mahjong environment, measured in one run.

    pip install -e '.[bench]'
    python benchmarks/bench_agents.py [--seconds 5] [--json]

Rows: decisions per second with uniformly random agents (ours: full hands of each game through
the rules engine, every action checked; RLCard: `rlcard.make("mahjong")` with its RandomAgent),
and greedy self-play hands per second in Sichuan blood battle, one core.
"""

from __future__ import annotations

import argparse
import json
import time

from majiang.bots import make_agent
from majiang.engine import Game
from majiang.games.rules import rules_for
from majiang.play.runner import play_hand


def ours(variant: str, bot: str, seconds: float) -> tuple[float, float]:
    n = 4 if variant == "sichuan" else 3
    rules = rules_for(variant)
    start = time.perf_counter()
    decisions = hands = 0
    while time.perf_counter() - start < seconds:
        g = Game(rules, seed="bench", hand_index=hands)
        play_hand(g, [make_agent(bot, s) for s in range(n)])
        decisions += len(g.actions)
        hands += 1
    el = time.perf_counter() - start
    return decisions / el, hands / el


def rlcard_random(seconds: float) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    start = time.perf_counter()
    decisions = 0
    while time.perf_counter() - start < seconds:
        trajectories, _ = env.run(is_training=False)
        # each player's trajectory alternates state, action, state …: count the actions
        decisions += sum((len(t) - 1) // 2 for t in trajectories)
    return decisions / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    ref = rlcard_random(args.seconds)
    rows = {}
    for variant in ("sichuan", "kawuxing"):
        rows[f"random decisions/s ({variant})"] = ours(variant, "random", args.seconds)[0]
    rows["greedy hands/s (sichuan)"] = ours("sichuan", "greedy", args.seconds)[1]
    if args.json:
        print(json.dumps({"rlcard_random_decisions_per_s": ref, **rows}, indent=2))
        return
    print(f"one core, {args.seconds:.0f} s per row")
    print(f"{'':<34}{'ours':>10}{'RLCard':>10}{'ratio':>8}")
    for name, value in rows.items():
        if name.startswith("random") and ref:
            print(f"{name:<34}{value:>10,.0f}{ref:>10,.0f}{value / ref:>7.1f}x")
        else:
            print(f"{name:<34}{value:>10,.1f}{'':>10}{'':>8}  (target 20 hands/s)")


if __name__ == "__main__":
    main()
