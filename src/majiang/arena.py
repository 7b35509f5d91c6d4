"""The arena: agents play duplicate deals and the results come with honest error bars.

Duplicate format: every deal (a seed and a deal index fix the wall and dice) is played once per
rotation of the agents through the seats, so each agent plays every seat of every deal and the
luck of the deal cancels out. A deal is one hand, not a match, so its dealer is fixed by the deal
index (``deal % players``) rather than rolled: every rotation of a deal is dealt the same tiles to
the same seats with the same dealer, so the rotations stay comparable, and over many deals each
seat deals equally often. The unit of measurement is the deal: an agent's points in a deal are
its mean over the rotations, and its 95% interval is 1.96 standard errors over deals.

Deals are independent tasks, run in order in this process, over K local processes, or as Ray
tasks; all three give the same numbers for the same seed.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

from .agents import make_agent, play_hand
from .engine import Game
from .rules import rules_from_json, rules_to_json

_AGENT_CACHE: dict = {}


def _agent(spec: str, seed: int, timeout: float):
    """Reuse agents within a worker (external bots keep their process); reseed built-ins per hand."""
    key = (spec, timeout) if spec.startswith("cmd:") else None
    if key is not None:
        if key not in _AGENT_CACHE:
            _AGENT_CACHE[key] = make_agent(spec, seed, timeout)
        return _AGENT_CACHE[key]
    return make_agent(spec, seed, timeout)


def play_deal(task: dict) -> dict:
    """Play one deal in every rotation. ``task``: rules (JSON), bots, seed, deal, timeout."""
    rules = rules_from_json(task["rules"])
    bots = task["bots"]
    n = len(bots)
    seed, deal = task["seed"], task["deal"]
    out = {"deal": deal, "entries": [_empty() for _ in range(n)]}
    for r in range(n):
        entry_at = [(s + r) % n for s in range(n)]  # which bot entry sits at each seat
        agents = []
        before = []
        for s in range(n):
            spec = bots[entry_at[s]]
            a = _agent(spec, zlib.crc32(f"{seed}/{deal}/{r}/{s}".encode()), task.get("timeout", 1.0))
            agents.append(a)
            before.append(dict(getattr(a, "stats", {})))
        game = Game(rules, seed=seed, hand_index=deal, dealer=deal % n)
        play_hand(game, agents)
        totals = game.totals()
        for s in range(n):
            e = out["entries"][entry_at[s]]
            e["points"] += totals[s]
            e["hands"] += 1
            my_wins = [w for w in game.wins if w.seat == s]
            e["wins"] += len(my_wins)
            e["self_draws"] += sum(1 for w in my_wins if w.self_draw)
            e["win_value"] += sum(w.score.multiplier for w in my_wins)
            e["deal_ins"] += sum(1 for w in game.wins if not w.self_draw and w.discarder == s)
            e["draws"] += game.result == "draw"
            stats = getattr(agents[s], "stats", {})
            for k in ("timeouts", "illegal", "malformed"):
                e[k] += stats.get(k, 0) - before[s].get(k, 0)
    for e in out["entries"]:
        e["points"] /= n
    return out


def _empty() -> dict:
    return {"points": 0.0, "hands": 0, "wins": 0, "self_draws": 0, "win_value": 0, "deal_ins": 0, "draws": 0,
            "timeouts": 0, "illegal": 0, "malformed": 0}


@dataclass
class ArenaResult:
    variant: str
    preset: str
    bots: list[str]
    seed: object
    deals: list[dict] = field(default_factory=list)

    def summary(self) -> dict:
        n = len(self.bots)
        entries = []
        for i, name in enumerate(self.bots):
            pts = [d["entries"][i]["points"] for d in self.deals]
            agg = _empty()
            for d in self.deals:
                for k, v in d["entries"][i].items():
                    if k != "points":
                        agg[k] += v
            mean = sum(pts) / len(pts) if pts else 0.0
            var = sum((p - mean) ** 2 for p in pts) / (len(pts) - 1) if len(pts) > 1 else 0.0
            half = 1.96 * math.sqrt(var / len(pts)) if pts else 0.0
            hands = agg["hands"] or 1
            entries.append({
                "seat_entry": i, "agent": name, "mean_points": mean, "ci95": [mean - half, mean + half],
                "win_rate": agg["wins"] / hands, "self_draw_rate": agg["self_draws"] / hands,
                "deal_in_rate": agg["deal_ins"] / hands,
                "mean_win_value": agg["win_value"] / agg["wins"] if agg["wins"] else 0.0,
                "draw_rate": agg["draws"] / hands, "hands": agg["hands"],
                "timeouts": agg["timeouts"], "illegal_replies": agg["illegal"] + agg["malformed"],
            })
        return {"variant": self.variant, "preset": self.preset, "seed": self.seed, "deals": len(self.deals),
                "hands_per_deal": n, "agents": entries}


def run_arena(rules, bots: list[str], games: int, seed, workers: int = 1, backend: str = "local",
              ray_address: str | None = None, timeout: float = 1.0, progress=None) -> ArenaResult:
    from .errors import MajiangError

    n = 3 if rules.variant == "kawuxing" else 4
    if len(bots) != n:
        raise MajiangError(f"{rules.variant} needs {n} bots, got {len(bots)}: {','.join(bots)}")
    for b in bots:
        if not b.startswith("cmd:"):
            make_agent(b)  # fail fast on unknown names
    tasks = [{"rules": rules_to_json(rules), "bots": bots, "seed": seed, "deal": d, "timeout": timeout}
             for d in range(games)]
    result = ArenaResult(rules.variant, rules.preset, bots, seed)
    if backend == "ray":
        try:
            import ray
        except ImportError:
            raise MajiangError("the ray backend needs ray: pip install 'majiang[ray]'") from None
        started = not ray.is_initialized()
        if started:
            if ray_address:
                ray.init(address=ray_address, log_to_driver=False)
            else:
                ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        remote = ray.remote(play_deal)
        refs = [remote.remote(t) for t in tasks]
        for ref in refs:
            result.deals.append(ray.get(ref))
            if progress:
                progress()
        if started:
            ray.shutdown()
    elif workers > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers) as pool:
            for deal in pool.imap(play_deal, tasks, chunksize=max(1, min(16, games // (workers * 8) or 1))):
                result.deals.append(deal)
                if progress:
                    progress()
    else:
        for t in tasks:
            result.deals.append(play_deal(t))
            if progress:
                progress()
    return result


def plot(result: ArenaResult, path: str) -> None:
    """Score distributions per agent, and each agent's running mean with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    for i, name in enumerate(result.bots):
        pts = [d["entries"][i]["points"] for d in result.deals]
        label = f"{name} (seat entry {i})"
        ax1.hist(pts, bins=40, alpha=0.45, label=label)
        means, lo, hi = [], [], []
        total = 0.0
        sq = 0.0
        for k, p in enumerate(pts, 1):
            total += p
            sq += p * p
            m = total / k
            var = (sq - k * m * m) / (k - 1) if k > 1 else 0.0
            half = 1.96 * math.sqrt(max(var, 0.0) / k)
            means.append(m)
            lo.append(m - half)
            hi.append(m + half)
        xs = range(1, len(pts) + 1)
        ax2.plot(xs, means, label=label)
        ax2.fill_between(xs, lo, hi, alpha=0.2)
    ax1.set_title("points per deal (mean over seat rotations)")
    ax1.set_xlabel("points")
    ax1.legend(fontsize=8)
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_title("running mean with 95% interval")
    ax2.set_xlabel("deals")
    ax2.legend(fontsize=8)
    fig.suptitle(f"{result.variant}/{result.preset}: {', '.join(result.bots)}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
