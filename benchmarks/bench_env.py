"""Environment steps per second, ours beside the peers' environments, in one run.

    pip install -e '.[rl,bench]'
    python -m majiang.native build          # optional: the native engine's rows
    python benchmarks/bench_env.py [--rounds 5] [--slice 0.4] [--backend both|python|native] [--json|--markdown]

A step is one decision with its observation encoded, the action a random legal one from the mask.
Every row keeps its env between rounds; each of ``--rounds`` rounds steps every row in turn for
``--slice`` seconds (interleaved, so a change in the machine's load falls on all rows alike), and
the row prints the min / median / max of its rounds and the ratio of its median to the best
peer's. Two rates per row: with the caller's action choice (the loop as a user writes it) and
without it (the env's own time: the action choice is timed apart and taken out, for the peers
alike). Rows:

  AEC            ``majiang.rl.make(variant, backend=..., obs_dtype=...)``: ``agent_iter`` /
                 ``last`` / ``step``, every seat's decision a step
  batch(N)       ``BatchEnv(variant, N, opponents=None, ...).step``: self-play, every game's
                 decision a step; ``uint8, reuse`` is ``obs_dtype="uint8", reuse_arrays=True``
  batch(N) vs greedy  one learner seat per game against the greedy bots (learner steps count)
  riichienv      the peer: ``riichienv.RiichiEnv(game_mode="4p-red-single")``, a random legal
                 action for every acting player and its ``Observation.encode()``
  RLCard         the peer: ``rlcard.make("mahjong")``, ``env.step`` (the next state encoded)

Peers that are not installed are left out. The native rows use one core (no threads).
``--markdown`` prints docs/BENCHMARKS.md's table (median (min–max), each row's call as that page names it).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: no BLAS threads spinning beside the timed one

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from majiang.rl import BatchEnv, make  # noqa: E402


class Row:
    """One env, stepped for a slice of seconds: ``turn(clock)`` plays one decision (or resets) and
    returns the steps it made and the seconds spent choosing the action (timed apart)."""

    def run(self, seconds: float) -> tuple[int, float, float]:
        turn = self.turn
        steps, choosing = 0, 0.0
        clock = time.perf_counter
        start = clock()
        while clock() - start < seconds:
            made, chose = turn(clock)
            steps += made
            choosing += chose
        return steps, clock() - start, choosing


class AecRow(Row):
    def __init__(self, variant: str, backend: str, obs_dtype: str = "float32") -> None:
        self.env = make(variant, backend=backend, obs_dtype=obs_dtype)
        self.rng = random.Random(0)
        self.seed = 0
        self.agents = iter(())

    def turn(self, clock) -> tuple[int, float]:
        env = self.env
        if next(self.agents, None) is None:
            env.reset(seed=self.seed)
            self.seed += 1
            self.agents = iter(env.agent_iter())
            return 0, 0.0
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            return 0, 0.0
        t = clock()
        action = self.rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        chose = clock() - t
        env.step(action)
        return 1, chose


class BatchRow(Row):
    def __init__(self, variant: str, n: int, backend: str, opponents: str | None = None, **kw) -> None:
        self.env = BatchEnv(variant, n, opponents=opponents, backend=backend, **kw)
        _, self.masks = self.env.reset()
        self.rng = np.random.default_rng(0)
        self.n = n

    def turn(self, clock) -> tuple[int, float]:
        t = clock()
        noise = self.rng.random(self.masks.shape, dtype=np.float32)
        actions = np.argmax(np.where(self.masks > 0, noise, -1.0), axis=1)
        chose = clock() - t
        self.masks = self.env.step(actions)[1]
        return self.n, chose


class RiichienvRow(Row):
    def __init__(self) -> None:
        import riichienv
        self.env = riichienv.RiichiEnv(game_mode="4p-red-single")
        self.obs = self.env.reset()
        self.rng = random.Random(0)

    def turn(self, clock) -> tuple[int, float]:
        env, rng = self.env, self.rng
        if env.done():
            self.obs = env.reset()
            return 0, 0.0
        t = clock()
        actions = {pid: rng.choice(o.legal_actions()) for pid, o in self.obs.items()}
        chose = clock() - t
        for o in self.obs.values():
            o.encode()
        self.obs = env.step(actions)
        return len(actions), chose


class RlcardRow(Row):
    def __init__(self) -> None:
        import rlcard
        self.env = rlcard.make("mahjong", config={"seed": 0})
        self.state, _ = self.env.reset()
        self.rng = random.Random(0)

    def turn(self, clock) -> tuple[int, float]:
        env = self.env
        if env.is_over():
            self.state, _ = env.reset()
            return 0, 0.0
        t = clock()
        action = self.rng.choice(list(self.state["legal_actions"].keys()))
        chose = clock() - t
        self.state, _ = env.step(action)
        return 1, chose


# docs/BENCHMARKS.md's name for each row: the call a user makes
README_NAMES = {
    "riichienv RiichiEnv (4 players, one round)": "riichienv `RiichiEnv.step` (the peer)",
    "RLCard mahjong": "RLCard `env.step` (the peer)",
    "Sichuan AEC, python": '`make("sichuan", backend="python")`, AEC',
    "Sichuan batch(32), python": '`BatchEnv("sichuan", 32, opponents=None, backend="python")`',
    "Sichuan AEC, native": '`make("sichuan", backend="native")`, AEC',
    "Sichuan AEC, native, uint8": 'the same, `obs_dtype="uint8"`',
    "Kawuxing AEC, native, uint8": '`make("kawuxing", backend="native", obs_dtype="uint8")`',
    "Sichuan batch(32), native": '`BatchEnv("sichuan", 32, opponents=None, backend="native")`',
    "Sichuan batch(32), native, uint8, reuse": 'the same with `obs_dtype="uint8", reuse_arrays=True`, 32 games',
    "Sichuan batch(128), native, uint8, reuse": "… 128 games",
    "Sichuan batch(1024), native, uint8, reuse": "… 1,024 games",
    "Kawuxing batch(128), native, uint8, reuse": '`BatchEnv("kawuxing", 128, opponents=None, …uint8, reuse)`',
    "Sichuan batch(128) vs greedy, native, uint8, reuse":
        '`BatchEnv("sichuan", 128, opponents="greedy", …uint8, reuse)` (learner steps)',
}


def markdown(report: dict, best: float | None) -> str:
    """docs/BENCHMARKS.md's table: median (min–max) rounded to hundreds, the ratio to the best peer."""
    def cell(r: dict) -> str:
        return f"{r['median']:,.0f} ({r['min']:,.0f}–{r['max']:,.0f})"

    def hundreds(r: dict) -> dict:
        return {k: round(v, -2) for k, v in r.items()}

    lines = ["| what is stepped | steps/s, with the action choice | steps/s, env alone | ÷ riichienv |",
             "|---|---:|---:|---:|"]
    order = sorted(report, key=lambda name: not report[name]["peer"])  # the peers first
    for name in order:
        r = report[name]
        ratio = "1" if r["peer"] else (f"{r['env_only']['median'] / best:.1f}×" if best else "")
        lines.append(f"| {README_NAMES.get(name, name)} | {cell(hundreds(r['with_choice']))} | "
                     f"{cell(hundreds(r['env_only']))} | {ratio} |")
    return "\n".join(lines)


def peers() -> dict:
    found = {}
    for name, row in (("riichienv RiichiEnv (4 players, one round)", RiichienvRow), ("RLCard mahjong", RlcardRow)):
        try:
            found[name] = row()
        except ImportError:
            pass
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--slice", type=float, default=0.4, help="seconds a row steps in one round")
    ap.add_argument("--backend", choices=["both", "python", "native"], default="both",
                    help="which engine's rows (both: native too when it is built)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    from majiang import native

    backends = {"both": ["python", "native"], "python": ["python"], "native": ["native"]}[args.backend]
    if not native.available():
        if args.backend == "native":
            raise SystemExit(native.unavailable_reason())
        backends = ["python"]
    rows: dict = {}
    for backend in backends:
        rows[f"Sichuan AEC, {backend}"] = AecRow("sichuan", backend)
        if backend == "native":
            rows["Sichuan AEC, native, uint8"] = AecRow("sichuan", backend, "uint8")
            rows["Kawuxing AEC, native, uint8"] = AecRow("kawuxing", backend, "uint8")
            rows["Sichuan batch(32), native"] = BatchRow("sichuan", 32, backend)
            for n in (32, 128, 1024):
                rows[f"Sichuan batch({n}), native, uint8, reuse"] = BatchRow("sichuan", n, backend, obs_dtype="uint8",
                                                                             reuse_arrays=True)
            rows["Kawuxing batch(128), native, uint8, reuse"] = BatchRow("kawuxing", 128, backend, obs_dtype="uint8",
                                                                        reuse_arrays=True)
            rows["Sichuan batch(128) vs greedy, native, uint8, reuse"] = BatchRow(
                "sichuan", 128, backend, opponents="greedy", obs_dtype="uint8", reuse_arrays=True)
        else:
            rows["Sichuan batch(32), python"] = BatchRow("sichuan", 32, backend)
    others = peers()
    every = {**rows, **others}
    results: dict = {name: ([], []) for name in every}
    for _ in range(args.rounds):
        for name, row in every.items():
            steps, elapsed, choosing = row.run(args.slice)
            results[name][0].append(steps / elapsed)
            results[name][1].append(steps / max(elapsed - choosing, 1e-9))

    def stats(v: list[float]) -> dict:
        return {"min": min(v), "median": statistics.median(v), "max": max(v)}

    report = {name: {"with_choice": stats(results[name][0]), "env_only": stats(results[name][1]),
                     "peer": name in others} for name in every}
    best = max((report[p]["env_only"]["median"] for p in others), default=None)
    if args.json:
        print(json.dumps({"rounds": args.rounds, "slice_s": args.slice, "rows": report}, indent=2))
        return
    if args.markdown:
        print(markdown(report, best))
        return
    print(f"steps/s, min / median / max over {args.rounds} interleaved rounds of {args.slice:g} s, one core; "
          "first with the caller's random action choice, then the env alone" +
          ("" if others else "; no peer installed (pip install riichienv rlcard)"))
    for name, r in report.items():
        w, e = r["with_choice"], r["env_only"]
        ratio = f"{e['median'] / best:7.1f}x" if best and not r["peer"] else ""
        print(f"{name:<52}{w['min']:>11,.0f}{w['median']:>11,.0f}{w['max']:>11,.0f}  |"
              f"{e['min']:>11,.0f}{e['median']:>11,.0f}{e['max']:>11,.0f}  {ratio}")


if __name__ == "__main__":
    main()
