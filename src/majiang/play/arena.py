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
import os
import zlib
from dataclasses import dataclass, field

from majiang.bots import make_agent
from majiang.core.errors import MajiangError
from majiang.core.jsontext import decode_text, loads
from majiang.core.variants import get_variant
from majiang.engine import Game
from majiang.games.rules import rules_from_json, rules_to_json
from majiang.play.runner import play_hand

_AGENT_CACHE: dict = {}
_IN_PROCESS: dict = {}  # "object:N" -> an agent object given to run_arena (it plays in this process only)


def _agent(bots: list[str], entry: int, seed: int, task: dict):
    """The agent for one entry of ``bots``. Built-ins are made afresh (reseeded) for every hand; an
    external bot keeps one process per entry for all that entry's hands in this worker, or, with
    ``share_bots``, one process for every entry running the same command."""
    spec = bots[entry]
    if spec in _IN_PROCESS:
        return _IN_PROCESS[spec]
    timeout = task.get("timeout", 1.0)
    if not spec.startswith("cmd:"):
        return make_agent(spec, seed, timeout)
    owner = bots.index(spec) if task.get("share_bots") else entry
    stderr = task.get("bot_stderr")
    key = (spec, timeout, owner, stderr)
    if key not in _AGENT_CACHE:
        if not _AGENT_CACHE:  # a pool worker closes its bots as it exits
            from multiprocessing import util
            util.Finalize(None, close_agents, exitpriority=10)
        label = f"{owner}" + (" (shared)" if task.get("share_bots") and bots.count(spec) > 1 else "")
        if stderr not in (None, "-"):
            stderr = os.path.join(stderr, bot_stderr_name(bots, owner, bool(task.get("share_bots"))))
        _AGENT_CACHE[key] = make_agent(spec, seed, timeout, stderr=stderr, label=f"entry {label} [{spec}]")
    return _AGENT_CACHE[key]


def bot_stderr_name(bots: list[str], entry: int, shared: bool) -> str:
    """The file, in the run's output folder, that keeps the stderr of the bot of ``entry``."""
    return f"bot{entry}{'-shared' if shared and bots.count(bots[entry]) > 1 else ''}.stderr"


def close_agents() -> None:
    """Stop the external bots this process started (their stderr files are complete after this)."""
    while _AGENT_CACHE:
        _, agent = _AGENT_CACHE.popitem()
        agent.close()


class _InterruptsHeld:
    """From creation to ``release()``, SIGINT is ignored and blocked here: processes started
    meanwhile begin with it ignored (an ignored signal stays ignored in the program a process
    starts), and a Ctrl-C that comes meanwhile waits, blocked (Linux keeps a blocked signal even
    while it is ignored), to reach this process at ``release()``, once its handler is back. Only in
    the main thread, where Python handles signals; elsewhere nothing changes."""

    def __init__(self) -> None:
        import signal
        import threading

        self.previous = None
        if threading.current_thread() is threading.main_thread():
            if hasattr(signal, "pthread_sigmask"):
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            self.previous = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def release(self) -> None:
        import signal

        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
            if hasattr(signal, "pthread_sigmask"):
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _ignore_interrupt() -> None:
    """A pool worker's start: Ctrl-C (SIGINT, sent to the whole process group) is the parent's
    (one that came while the worker started, held back until now, is dropped with it)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def play_deal_in_worker(task: dict) -> dict:
    """``play_deal`` in a worker process (local pool or Ray): what the run has said once already
    (a bot taking the Python engine, ``PythonEngineWarning``) is not said again by every worker."""
    import warnings

    from majiang.bots.base import PythonEngineWarning

    warnings.simplefilter("ignore", PythonEngineWarning)
    return play_deal(task)


def play_deal(task: dict) -> dict:
    """Play one deal in every rotation. ``task``: rules (JSON), bots, seed, deal, timeout."""
    rules = rules_from_json(task["rules"])
    bots = task["bots"]
    n = len(bots)
    seed, deal = task["seed"], task["deal"]
    out = {"deal": deal, "entries": [empty_entry() for _ in range(n)]}
    for r in range(n):
        entry_at = [(s + r) % n for s in range(n)]  # which bot entry sits at each seat
        agents = []
        before = []
        for s in range(n):
            a = _agent(bots, entry_at[s], zlib.crc32(f"{seed}/{deal}/{r}/{s}".encode()), task)
            agents.append(a)
            before.append((dict(_seat_stats(a, s)), len(getattr(a, "rejected", ()))))
        game = Game(rules, seed=seed, hand_index=deal, dealer=deal % n)
        play_hand(game, agents)
        for s in range(n):
            e = out["entries"][entry_at[s]]
            tally(e, game, s)
            stats = _seat_stats(agents[s], s)
            for k in ("timeouts", "illegal", "malformed", "crashes"):
                e[k] += stats.get(k, 0) - before[s][0].get(k, 0)
            new = [r for r in getattr(agents[s], "rejected", ())[before[s][1]:] if r.get("seat") == s]
            if new:  # the first few, with their reasons, for the report
                e.setdefault("rejected", []).extend(
                    {"rotation": r, "reason": x["reason"], "reply": x.get("reply")} for x in new)
                del e["rejected"][REJECTIONS_SHOWN:]
    for e in out["entries"]:
        e["points"] /= n
    return out


def tally(entry: dict, game: Game, seat: int) -> None:
    """Add ``seat``'s result in the finished ``game`` to a deal's ``entry`` (points, wins, …)."""
    entry["points"] += game.totals()[seat]
    entry["hands"] += 1
    mine = [w for w in game.wins if w.seat == seat]
    entry["wins"] += len(mine)
    entry["self_draws"] += sum(1 for w in mine if w.self_draw)
    entry["win_value"] += sum(w.score.multiplier for w in mine)
    entry["deal_ins"] += sum(1 for w in game.wins if not w.self_draw and w.discarder == seat)
    entry["draws"] += game.result == "draw"


def _seat_stats(agent, seat: int) -> dict:
    per = getattr(agent, "seat_stats", None)
    if per is not None:
        return per.get(seat, {})
    return getattr(agent, "stats", {})


def empty_entry() -> dict:
    """A deal's entry before any hand is counted."""
    return {"points": 0.0, "hands": 0, "wins": 0, "self_draws": 0, "win_value": 0, "deal_ins": 0, "draws": 0,
            "timeouts": 0, "illegal": 0, "malformed": 0, "crashes": 0}


@dataclass
class ArenaResult:
    variant: str
    preset: str
    bots: list[str]
    seed: object
    deals: list[dict] = field(default_factory=list)
    rules: dict | None = None  # the rules as JSON (checked when result files are merged)
    skipped: list[str] = field(default_factory=list)  # result-file lines cut short, not read

    def __repr__(self) -> str:
        """Short: the table and how many deals, not every deal's record (``summary()`` has the numbers)."""
        return (f"ArenaResult({self.variant}/{self.preset}, bots={','.join(self.bots)}, seed={self.seed!r}, "
                f"{len(self.deals)} deals; .summary() for the results)")

    def summary(self) -> dict:
        """The report of the run as JSON: per seat entry (``agents``, in the order the bots were
        given) the mean points per hand with its 95% interval (``ci95``), the win, self-draw,
        deal-in and draw rates, the mean win value, hands played, and the external bots' timeouts,
        illegal replies, crashes and first rejected replies; besides, the variant, preset, seed,
        deals played (``deals``, ``deal_ranges``) and hands per deal (seat rotations)."""
        n = len(self.bots)
        deals = sorted(self.deals, key=lambda d: d["deal"])  # the same numbers however they were split
        entries = []
        for i, name in enumerate(self.bots):
            pts = [d["entries"][i]["points"] for d in deals]
            agg = empty_entry()
            rejected: list[dict] = []
            for d in deals:
                for k, v in d["entries"][i].items():
                    if k == "rejected":
                        if len(rejected) < REJECTIONS_SHOWN:
                            rejected.extend({"deal": d["deal"], **x} for x in v[:REJECTIONS_SHOWN - len(rejected)])
                    elif k != "points":
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
                "crashes": agg.get("crashes", 0), "rejected": rejected,
            })
        return {"variant": self.variant, "preset": self.preset, "seed": self.seed, "deals": len(deals),
                "deal_ranges": deal_ranges([d["deal"] for d in deals]), "hands_per_deal": n, "agents": entries}

    def header(self, first_deal: int = 0, games: int | None = None) -> dict:
        """The first line of a result file (``deals.jsonl``); one line per deal follows."""
        return {"type": "arena", "format": RESULT_FORMAT, "variant": self.variant, "preset": self.preset,
                "rules": self.rules, "bots": self.bots, "seed": self.seed, "first_deal": first_deal,
                "games": games}


RESULT_FORMAT = 1
REJECTIONS_SHOWN = 5  # rejected replies of each agent shown in the report, with their reasons


def deal_ranges(deals: list[int]) -> list[list[int]]:
    """Sorted deal indexes as inclusive runs: [0, 1, 2, 5, 6] -> [[0, 2], [5, 6]]."""
    out: list[list[int]] = []
    for d in sorted(deals):
        if out and d == out[-1][1] + 1:
            out[-1][1] = d
        else:
            out.append([d, d])
    return out


def read_results(paths: list[str]) -> ArenaResult:
    """Merge result files (``deals.jsonl``, or the folders holding one) of the same table: the same
    rules, bots and seed, and no deal twice. A last line cut short by an interruption is skipped."""


    result = None
    where: dict[int, str] = {}
    for path in paths:
        if os.path.isdir(path):
            path = os.path.join(path, "deals.jsonl")
        with open(path, "rb") as f:
            lines = decode_text(f.read(), path).split("\n")
        try:
            head = loads(lines[0], path)
        except MajiangError:
            head = None
        if not isinstance(head, dict) or head.get("type") != "arena" \
                or not all(k in head for k in ("variant", "preset", "rules", "bots", "seed")):
            raise MajiangError(f"{path} is not an arena result file (no arena header on its first line)")
        if not (isinstance(head["bots"], list) and head["bots"] and all(isinstance(b, str) for b in head["bots"])
                and isinstance(head["variant"], str) and isinstance(head["preset"], str)):
            raise MajiangError(f"{path}: its header names no table (variant, preset and a list of bots)")
        if head.get("format") != RESULT_FORMAT:
            raise MajiangError(f"{path}: result format {head.get('format')}, this version reads {RESULT_FORMAT}")
        if result is None:
            result = ArenaResult(head["variant"], head["preset"], head["bots"], head["seed"], rules=head["rules"])
        else:
            for k in ("rules", "bots", "seed"):
                if head[k] != getattr(result, k):
                    raise MajiangError(f"{path} has other {k} than {paths[0]}: "
                                       f"{_difference(head[k], getattr(result, k))}")
        for i, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            try:
                deal = loads(line, f"{path}:{i}")
                if not isinstance(deal, dict) or not isinstance(deal.get("deal"), int) \
                        or not isinstance(deal.get("entries"), list) or len(deal["entries"]) != len(result.bots) \
                        or not all(_is_entry(e) for e in deal["entries"]):
                    raise MajiangError(f"{path}:{i}: not a deal of this table")
            except MajiangError:
                if i == len(lines):  # the last line, with no newline: cut short by an interruption
                    result.skipped.append(f"{path}:{i}")
                    continue
                raise
            d = deal["deal"]
            if d in where:
                raise MajiangError(f"deal {d} is in both {where[d]} and {path}")
            where[d] = path
            result.deals.append(deal)
    if result is None:
        raise MajiangError("no result files given")
    result.deals.sort(key=lambda d: d["deal"])
    return result


def _is_entry(entry) -> bool:
    """A deal's entry as ``empty_entry`` lays it out: every count a finite number."""
    return isinstance(entry, dict) and all(
        isinstance(entry.get(k), (int, float)) and not isinstance(entry.get(k), bool) for k in empty_entry())


def _difference(theirs, ours) -> str:
    """What differs between two headers' values, by key where both are objects."""
    import json

    def text(v) -> str:
        t = json.dumps(v, ensure_ascii=False)
        return t if len(t) <= 60 else t[:57] + "..."

    if isinstance(theirs, dict) and isinstance(ours, dict):
        keys = [k for k in dict.fromkeys([*ours, *theirs]) if theirs.get(k) != ours.get(k)]
        return "; ".join(f"{k} {text(theirs.get(k))} vs {text(ours.get(k))}" for k in keys[:4]) + \
            ("; ..." if len(keys) > 4 else "")
    return f"{text(theirs)} vs {text(ours)}"


def agent_name(agent) -> str:
    """How an entry is named in the report: its spec, or an agent object's ``name`` (else its class)."""
    if isinstance(agent, str):
        return agent
    return str(getattr(agent, "name", None) or type(agent).__name__)


def run_arena(rules, bots: list, games: int, seed, workers: int = 1, backend: str = "local",
              ray_address: str | None = None, timeout: float = 1.0, progress=None, first_deal: int = 0,
              share_bots: bool = False, bot_stderr: str | None = None, on_deal=None) -> ArenaResult:
    """Deals ``first_deal`` .. ``first_deal + games - 1`` of the seed's sequence. ``bots``: one entry
    per seat, a name (``"greedy"``, ``"expert:samples=96"``, ``"cmd:PROGRAM"``) or an agent object
    (anything with ``act(obs, legal)``; it plays in this process, so with ``workers=1``, and keeps its
    own state across hands: give each entry its own object). ``bot_stderr``: a folder for the
    external bots' stderr files, ``"-"`` to pass it through, or None (kept in memory, printed when
    a bot dies). ``on_deal(deal)`` sees each deal's result as it comes, in order."""

    n = get_variant(rules.variant).players
    names = [agent_name(b) for b in bots]
    if len(bots) != n:
        raise MajiangError(f"{rules.variant} needs {n} bots, got {len(bots)}: {','.join(names)}")
    if first_deal < 0:
        raise MajiangError(f"the first deal is {first_deal}; deals are numbered from 0")
    objects = {f"object:{i}": b for i, b in enumerate(bots) if not isinstance(b, str)}
    for b in objects.values():
        if not callable(getattr(b, "act", None)):
            raise MajiangError(f"agent {agent_name(b)!r} has no act(obs, legal) method")
    if objects and (workers > 1 or backend != "local"):
        raise MajiangError("agent objects play in this process: use workers=1 and the local backend "
                           "(or give the agent as a name or a cmd: program)")
    specs = [b if isinstance(b, str) else f"object:{i}" for i, b in enumerate(bots)]
    for b in specs:
        if not b.startswith(("cmd:", "object:")):
            make_agent(b)  # fail fast on unknown names
    rules_json = rules_to_json(rules)
    # made as the deals are played (a generator): a run of a billion deals costs no memory up front
    tasks = ({"rules": rules_json, "bots": specs, "seed": seed, "deal": d, "timeout": timeout,
              "share_bots": share_bots, "bot_stderr": bot_stderr}
             for d in range(first_deal, first_deal + games))
    result = ArenaResult(rules.variant, rules.preset, names, seed, rules=rules_to_json(rules))

    def done(deal: dict) -> None:
        result.deals.append(deal)
        if on_deal:
            on_deal(deal)
        if progress:
            progress()

    if backend == "ray":
        try:
            import ray
        except ImportError:
            raise MajiangError("the ray backend needs ray: pip install 'majiang[ray]'") from None
        started = not ray.is_initialized()
        if started:
            if ray_address:
                _check_reachable(ray_address)
                ray.init(address=ray_address, log_to_driver=bot_stderr == "-")
            else:
                ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=bot_stderr == "-")
        remote = ray.remote(play_deal_in_worker)
        refs = [remote.remote(t) for t in tasks]
        for ref in refs:
            done(ray.get(ref))
        if started:
            ray.shutdown()
    elif workers > 1:
        import multiprocessing as mp

        # the workers leave Ctrl-C to this process, which ends the pool: a worker that took the
        # signal itself would print its own traceback ("Process SpawnPoolWorker-2:") beside ours.
        # They start with it ignored (_InterruptsHeld), so a Ctrl-C while they import is not theirs either.
        held = _InterruptsHeld()
        try:
            pool = mp.get_context("spawn").Pool(workers, initializer=_ignore_interrupt)
        except BaseException:
            held.release()
            raise
        with pool:
            held.release()  # a Ctrl-C meanwhile is raised here, where leaving the block ends the pool
            for deal in pool.imap(play_deal_in_worker, tasks, chunksize=max(1, min(16, games // (workers * 8) or 1))):
                done(deal)
            pool.close()
            pool.join()  # workers exit normally, closing their bots
    else:
        _IN_PROCESS.update(objects)
        try:
            for t in tasks:
                done(play_deal(t))
        finally:
            close_agents()
            for key in objects:
                _IN_PROCESS.pop(key, None)
    return result


def check_plot(path: str) -> None:
    """Refuse, before any game is played, a plot that could not be drawn: matplotlib missing, a
    format it does not write, a folder that does not exist."""
    import importlib.util
    import os

    if importlib.util.find_spec("matplotlib") is None:
        raise MajiangError("--plot needs matplotlib: pip install 'majiang[plot]'")
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    if ext not in kinds:
        raise MajiangError(f"--plot {path}: give a file ending in one of .{', .'.join(sorted(kinds))}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise MajiangError(f"--plot {path}: no folder {folder}")


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


def _check_reachable(address: str, seconds: float = 5.0) -> None:
    """A Ray cluster's ``host:port`` (or ``ray://host:port``) answers within ``seconds``, or a
    ``MajiangError`` says so: Ray itself waits a minute or more on an address nobody answers at.
    ``auto`` (Ray's own lookup) is left to Ray.

    >>> _check_reachable("127.0.0.1:1", 1.0)
    Traceback (most recent call last):
    ...
    majiang.MajiangError: cannot reach the Ray cluster at 127.0.0.1:1 (ConnectionRefusedError)
    """
    import socket

    where = address.split("://", 1)[-1]
    host, sep, port = where.rpartition(":")
    if address == "auto" or not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as exc:
        raise MajiangError(f"cannot reach the Ray cluster at {address} ({type(exc).__name__})") from None
