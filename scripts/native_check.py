"""Play hands in the Python engine and the native one side by side and compare every legal-action
mask, every seat's observation and every payment (the long form of ``tests/native/test_native.py``).

    python -m majiang.native build
    python scripts/native_check.py [--hands 200] [--json]

Seats are played by the built-in greedy and random agents (as in ``engine_fingerprint.py``), so
the hands reach what real play reaches: declarations, kongs after 亮倒, multiple wins, 查大叫.
Then, per configuration, a random learner plays ``--hands / 4`` hands against greedy bots on both
engines (the library's own greedy bots against ``GreedyAgent``): every observation, mask and
reward must match. Exits non-zero at the first difference, naming the configuration and where.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from majiang.bots import GreedyAgent, RandomAgent
from majiang.engine import Game
from majiang.games.rules import rules_for
from majiang.native import NativeGame, available, unavailable_reason
from majiang.rl import action_index, encode, legal_map, mask_of, single_agent

CONFIGS = [("kawuxing", None, {}), ("kawuxing", "xiangyang", {}), ("kawuxing", "suizhou", {}),
           ("kawuxing", None, {"sigui": "full", "piao": 1, "maima": True, "shukan": True, "louhu_unless_more": True}),
           ("sichuan", None, {}), ("sichuan", "modern", {}), ("sichuan", None, {"sing_dance": True}),
           ("sichuan", None, {"blood_river": True}), ("sichuan", None, {"blood_battle": False, "cap_fan": 2})]


def check_hand(rules, seed: int) -> tuple[int, str | None]:
    g = Game(rules, seed=seed)
    ng = NativeGame(rules, seed=seed)
    agents = [RandomAgent(seed * 7 + i) if (seed + i) % 2 else GreedyAgent(seed * 7 + i) for i in range(g.n)]
    paid = [0] * g.n
    steps = 0
    while not g.over:
        seat = g.pending_seats()[0]
        if ng.to_act() != seat:
            return steps, f"step {steps}: native asks seat {ng.to_act()}, Python seat {seat}"
        mask, mapping = mask_of(g, seat)
        if not np.array_equal(ng.mask(seat), mask):
            return steps, f"step {steps}: masks differ for seat {seat}"
        for s in range(g.n):
            if not np.array_equal(ng.encode(s), encode(g, s)):
                return steps, f"step {steps}: observations differ for seat {s}"
        action = agents[seat].act(g.observation(seat), g.legal_actions(seat))
        index = action_index(action)
        if action.type == "exchange":  # the env offers one 换三张 per suit: play that one
            action = legal_map(g, seat)[index]
        g.apply(seat, action)
        ng.apply(seat, index)
        steps += 1
        totals = g.totals()
        if list(ng.rewards()) != [t - p for t, p in zip(totals, paid)]:
            return steps, f"step {steps}: payments differ"
        paid = totals
    if ng.to_act() != -1 or ng.settlement()["totals"] != g.totals():
        return steps, "the hand ends differently"
    return steps, None


def check_greedy(variant: str, preset, options: dict, hands: int, seat: int) -> tuple[int, str | None]:
    """A random learner against greedy bots on both engines; (learner steps, first difference)."""
    def trajectory(backend: str):
        env = single_agent(variant, "greedy", seat=seat, preset=preset, backend=backend, **options)
        rng = np.random.default_rng(seat)
        obs, _ = env.reset(seed=hands)
        played = 0
        while played < hands:
            obs, reward, done, _, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            yield obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, done
            if done:
                played += 1
                yield info["settlement"]["totals"]
                obs, _ = env.reset()

    steps = 0
    for a, b in zip(trajectory("python"), trajectory("native")):
        if a != b:
            return steps, f"learner step {steps} against greedy bots (seat {seat})"
        steps += isinstance(a, tuple)  # the other items are hands' totals
    return steps, None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200, help="hands per configuration (default 200)")
    ap.add_argument("--json", action="store_true", help="print the totals as JSON")
    args = ap.parse_args()
    if not available():
        print(unavailable_reason(), file=sys.stderr)
        return 2
    start = time.perf_counter()
    steps = hands = 0
    for variant, preset, options in CONFIGS:
        rules = rules_for(variant, preset, **options)
        for seed in range(args.hands):
            n, problem = check_hand(rules, seed)
            steps += n
            hands += 1
            if problem:
                print(f"DIFFERENT: {variant} {preset or ''} {options} seed {seed}: {problem}", file=sys.stderr)
                return 1
    greedy_steps = 0
    for k, (variant, preset, options) in enumerate(CONFIGS):
        n, problem = check_greedy(variant, preset, options, max(1, args.hands // 4), k % 3)
        greedy_steps += n
        if problem:
            print(f"DIFFERENT: {variant} {preset or ''} {options}: {problem}", file=sys.stderr)
            return 1
    result = {"hands": hands, "steps": steps, "configurations": len(CONFIGS), "greedy_learner_steps": greedy_steps,
              "different": 0, "seconds": round(time.perf_counter() - start, 1)}
    print(json.dumps(result) if args.json else
          f"{hands} hands, {steps} decisions in {len(CONFIGS)} configurations, and {greedy_steps} learner steps "
          f"against greedy bots: no difference ({result['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
