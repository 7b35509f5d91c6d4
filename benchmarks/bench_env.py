"""Environment steps per second, ours beside RLCard's mahjong environment, in one run.

    pip install -e '.[rl,bench]'
    python benchmarks/bench_env.py [--seconds 5] [--json]

A step is one decision with its observation encoded. Ours: the PettingZoo AEC env (every seat's
decision is a step, random legal actions from the mask) and the batch API over 32 games, in
self-play (every seat's decision is a step, as in RLCard) and with one learner seat per game
against random opponents (only the learner's decisions count as steps); last, the self-play batch
split over ``--workers`` processes (all cores; the other rows use one).
RLCard: ``env.step`` with a random legal action, the next state encoded as RLCard does.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from majiang.env import BatchEnv, make


def aec(variant: str, seconds: float) -> float:
    env = make(variant)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def batched(variant: str, seconds: float, n: int = 32, opponents: str | None = "random", workers: int = 1) -> float:
    env = BatchEnv(variant, n, opponents=opponents, workers=workers)
    _, masks = env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        noise = rng.random(masks.shape)
        actions = np.argmax(np.where(masks > 0, noise, -1.0), axis=1)
        _, masks, _, _ = env.step(actions)
        steps += n
    rate = steps / (time.perf_counter() - start)
    env.close()
    return rate


def rlcard_steps(seconds: float) -> float | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(rng.choice(legal))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--workers", type=int, default=2, help="processes for the multi-process batch rows")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    ref = rlcard_steps(args.seconds)
    rows = {f"{v} AEC steps/s": aec(v, args.seconds) for v in ("sichuan", "kawuxing")}
    rows.update({f"{v} batch(32) self-play": batched(v, args.seconds, opponents=None) for v in ("sichuan", "kawuxing")})
    rows.update({f"{v} batch(32) vs random": batched(v, args.seconds) for v in ("sichuan", "kawuxing")})
    if args.workers > 1:
        rows.update({f"{v} batch(32) self-play, {args.workers} processes":
                     batched(v, args.seconds, opponents=None, workers=args.workers) for v in ("sichuan", "kawuxing")})
    if args.json:
        print(json.dumps({"rlcard_steps_per_s": ref, **rows}, indent=2))
        return
    print(f"{args.seconds:.0f} s per row, one core unless the row says; RLCard mahjong env: {ref:,.0f} steps/s" if ref else
          "RLCard not installed: pip install rlcard")
    for name, value in rows.items():
        ratio = f"{value / ref:6.1f}x" if ref else ""
        print(f"{name:<40}{value:>10,.0f}  {ratio}")


if __name__ == "__main__":
    main()
