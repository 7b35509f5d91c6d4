"""Environment steps per second, ours beside RLCard's mahjong environment, in one run.

    pip install -e '.[rl,bench]'
    python -m majiang.native build          # optional: the native engine's rows
    python benchmarks/bench_env.py [--seconds 5] [--backend both|python|native] [--json]

A step is one decision with its observation encoded. Ours: the PettingZoo AEC env (every seat's
decision is a step, random legal actions from the mask) and the batch API over 32 games, in
self-play (every seat's decision is a step, as in RLCard) and with one learner seat per game
against random or greedy opponents (only the learner's decisions count as steps); last, the self-play batch
split over ``--workers`` cores (processes for the Python engine; threads for the native one, on a
batch of 1024 beside the same batch on one core, since threads pay only with 128+ games each;
the other rows use one core). Each row runs on the Python engine and, when built, the native one.
RLCard: ``env.step`` with a random legal action, the next state encoded as RLCard does.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from majiang.rl import BatchEnv, make


def aec(variant: str, seconds: float, backend: str = "python") -> float:
    env = make(variant, backend=backend)
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


def batched(variant: str, seconds: float, n: int = 32, opponents: str | None = "random", workers: int = 1,
            backend: str = "python") -> float:
    env = BatchEnv(variant, n, opponents=opponents, workers=workers, backend=backend)
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
    ap.add_argument("--workers", type=int, default=2, help="cores for the multi-core batch rows (default 2)")
    ap.add_argument("--backend", choices=["both", "python", "native"], default="both",
                    help="which engine's rows (both: native too when it is built)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from majiang import native

    backends = {"both": ["python", "native"], "python": ["python"], "native": ["native"]}[args.backend]
    if not native.available():
        if args.backend == "native":
            raise SystemExit(native.unavailable_reason())
        backends = ["python"]
    ref = rlcard_steps(args.seconds)
    variants = ("sichuan", "kawuxing")
    rows = {}
    for backend in backends:
        split = f"{args.workers} {'threads' if backend == 'native' else 'processes'}"
        rows.update({f"{v} AEC, {backend}": aec(v, args.seconds, backend) for v in variants})
        rows.update({f"{v} batch(32) self-play, {backend}": batched(v, args.seconds, opponents=None, backend=backend)
                     for v in variants})
        rows.update({f"{v} batch(32) vs random, {backend}": batched(v, args.seconds, backend=backend)
                     for v in variants})
        rows.update({f"{v} batch(32) vs greedy, {backend}": batched(v, args.seconds, opponents="greedy",
                                                                   backend=backend) for v in variants})
        if args.workers > 1 and backend == "python":
            rows.update({f"{v} batch(32) self-play, python, {split}":
                         batched(v, args.seconds, opponents=None, workers=args.workers) for v in variants})
        elif args.workers > 1:  # threads pay only with big batches (128+ games per thread)
            for v in variants:
                rows[f"{v} batch(1024) self-play, native"] = batched(v, args.seconds, n=1024, opponents=None,
                                                                     backend=backend)
                rows[f"{v} batch(1024) self-play, native, {split}"] = batched(
                    v, args.seconds, n=1024, opponents=None, workers=args.workers, backend=backend)
    if args.json:
        print(json.dumps({"rlcard_steps_per_s": ref, **rows}, indent=2))
        return
    print(f"{args.seconds:g} s per row, one core unless the row says; RLCard mahjong env: {ref:,.0f} steps/s" if ref else
          "RLCard not installed: pip install rlcard")
    for name, value in rows.items():
        ratio = f"{value / ref:6.1f}x" if ref else ""
        print(f"{name:<52}{value:>10,.0f}  {ratio}")

if __name__ == "__main__":
    main()
