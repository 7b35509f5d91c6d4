"""``majiang arena`` and ``majiang arena-merge``: agents over duplicate deals, and merged reports."""

from __future__ import annotations

import json
import os
import sys

from majiang.bots import split_bots
from majiang.cli.common import Progress, UsageError, add_rules_options, bot_help, check_bots, rules_from_args


def cmd_arena(args) -> int:
    from majiang.play.arena import bot_stderr_name, check_plot, run_arena

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    most = 4 * (os.cpu_count() or 1)  # each worker is a process with its own engine and bots
    if not 1 <= args.workers <= most:
        raise UsageError(f"--workers must be 1-{most} (4 a core here), got {args.workers}")
    if args.first_deal < 0:
        raise UsageError("--first-deal must be 0 or more")
    if not args.timeout > 0 or args.timeout == float("inf"):
        raise UsageError(f"--timeout must be a number of seconds above 0, got {args.timeout:g}")
    if args.plot:
        check_plot(args.plot)
    rules = rules_from_args(args)
    bots = check_bots(split_bots(args.bots))
    bot_stderr = "-" if args.bot_stderr else None
    sink = None
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "deals.jsonl")
        if os.path.exists(path):
            raise UsageError(f"{path} already holds a run: give another --out folder "
                             "(runs are merged with majiang arena-merge)")
        if bot_stderr is None:
            bot_stderr = args.out
        sink = open(path, "w", encoding="utf-8")
    bar = Progress(args.games, f"arena {rules.variant}")

    def save(deal: dict) -> None:
        sink.write(json.dumps(deal, separators=(",", ":")) + "\n")
        sink.flush()

    try:
        if sink is not None:
            from majiang.games.rules import rules_to_json
            from majiang.play.arena import ArenaResult
            head = ArenaResult(rules.variant, rules.preset, bots, args.seed, rules=rules_to_json(rules))
            sink.write(json.dumps(head.header(args.first_deal, args.games), ensure_ascii=False) + "\n")
            sink.flush()
        result = run_arena(rules, bots, args.games, args.seed, workers=args.workers, backend=args.backend,
                           ray_address=args.ray_address, timeout=args.timeout, progress=bar.step,
                           first_deal=args.first_deal, share_bots=args.share_bots, bot_stderr=bot_stderr,
                           on_deal=save if sink is not None else None)
    finally:
        if sink is not None:
            sink.close()
    summary = result.summary()
    if args.out:
        summary["out"] = args.out
        stderr_files = sorted({bot_stderr_name(bots, bots.index(b) if args.share_bots else i, args.share_bots)
                               for i, b in enumerate(bots) if b.startswith("cmd:")})
        if bot_stderr == args.out and stderr_files:
            summary["bot_stderr"] = [os.path.join(args.out, f) for f in stderr_files]
        with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
            json.dump(summary, f, ensure_ascii=False, indent=1)
    return _report(args, result, summary)


def _report(args, result, summary: dict) -> int:
    if args.plot:
        summary["plot"] = args.plot
    if args.json:
        print(json.dumps(summary, ensure_ascii=False), flush=True)
    else:
        _print_table(summary)
    if args.plot:  # after the report is out: a plot that fails loses nothing
        from majiang.play.arena import plot

        plot(result, args.plot)
        if not args.json:
            print(f"plot written to {args.plot}")
    return 0


def _print_table(summary: dict) -> None:
    ranges = ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in summary["deal_ranges"])
    print(f"{summary['deals']} duplicate deals ({ranges}) of {summary['variant']}/{summary['preset']} (each "
          f"played in {summary['hands_per_deal']} seat rotations), seed {summary['seed']}")
    print(f"{'agent':<22}{'points/hand':>12}{'95% interval':>22}{'win':>7}{'tsumo':>7}{'deal-in':>8}"
          f"{'value':>7}{'draw':>6}{'t/o':>5}{'bad':>5}{'died':>5}")
    names = [_short_name(e["agent"]) for e in summary["agents"]]
    for e, name in zip(summary["agents"], names):
        if names.count(name) > 1:
            name = f"{name[:17]} #{e['seat_entry']}"
        lo, hi = e["ci95"]
        print(f"{name[:21]:<22}{e['mean_points']:>12.3f}{f'[{lo:.3f}, {hi:.3f}]':>22}"
              f"{e['win_rate']:>7.1%}{e['self_draw_rate']:>7.1%}{e['deal_in_rate']:>8.1%}"
              f"{e['mean_win_value']:>7.2f}{e['draw_rate']:>6.1%}{e['timeouts']:>5}{e['illegal_replies']:>5}"
              f"{e['crashes']:>5}")
    for e, name in zip(summary["agents"], names):
        shown = e.get("rejected") or []
        bad = e["timeouts"] + e["illegal_replies"]
        if shown:
            print(f"{name}: {bad} replies rejected; the first {len(shown)}:" if bad > len(shown)
                  else f"{name}: rejected replies:")
        for r in shown:
            reply = f": {r['reply']}" if r.get("reply") else ""
            print(f"  deal {r['deal']} rotation {r['rotation']}: {r['reason']}{reply}")
    if summary.get("out"):
        print(f"deals written to {os.path.join(summary['out'], 'deals.jsonl')}")
    for f in summary.get("bot_stderr", []):
        print(f"bot stderr kept in {f}")
    sys.stdout.flush()


def _short_name(agent: str) -> str:
    """``cmd:python path/to/my_bot.py --x`` -> ``cmd:my_bot.py --x`` (the table's column is narrow)."""
    if not agent.startswith("cmd:") or len(agent) <= 21:
        return agent
    words = agent[4:].split()
    # the program, or the script it runs: the first later word that looks like a path
    prog = next((i for i, w in enumerate(words) if i and not w.startswith("-") and ("/" in w or "." in w)), 0)
    return "cmd:" + " ".join([os.path.basename(words[prog])] + words[prog + 1:])


def cmd_arena_merge(args) -> int:
    from majiang.play.arena import read_results

    if args.plot:
        from majiang.play.arena import check_plot

        check_plot(args.plot)
    import os

    from majiang.cli.common import MAX_RESULTS_BYTES, check_file

    for path in args.results:
        check_file(os.path.join(path, "deals.jsonl") if os.path.isdir(path) else path, MAX_RESULTS_BYTES,
                   "result file")
    result = read_results(args.results)
    for where in result.skipped:
        print(f"majiang: {where}: a line cut short (an interrupted run) was skipped", file=sys.stderr)
    return _report(args, result, result.summary())


def register(sub) -> None:
    p = sub.add_parser("arena", help="pit agents against each other over duplicate deals",
                       description="Each deal is replayed with the agents rotated through every seat, so "
                       "the luck of the deal cancels out; results per agent with 95% intervals. A long "
                       "run can be split (or resumed) with --first-deal and --out, and the parts merged "
                       "with majiang arena-merge into the same report as one run.",
                       epilog="Example, the second half of 2,000 deals (merge with the first): majiang arena "
                       "--variant sichuan --bots strong,greedy,greedy,greedy --games 1000 --first-deal 1000 "
                       "--out run2; majiang arena-merge run1 run2")
    add_rules_options(p)
    p.add_argument("--bots", required=True,
                   help="comma-separated agents, one per seat: " + bot_help() + " (Kawuxing's outlook) or "
                   "expert:samples=96,work=480 (Sichuan's search); each cmd: entry gets its own process; "
                   "every option in docs/BOTS.md")
    p.add_argument("--games", type=int, required=True, metavar="N", help="number of duplicate deals")
    p.add_argument("--first-deal", type=int, default=0, metavar="N",
                   help="play deals N .. N+games-1 of the seed's sequence (default 0): split a run over "
                   "machines, or resume one after the last deal its deals.jsonl holds")
    p.add_argument("--seed", default="0", metavar="S", help="the seed of the deals (default 0): the same seed "
                   "and deal numbers give the same deals")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="local processes (default 1)")
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--ray-address", metavar="ADDR", help="a running Ray cluster (default: start one here)")
    p.add_argument("--timeout", type=float, default=1.0, metavar="SEC",
                   help="per-decision time limit for cmd: bots (default 1 s)")
    p.add_argument("--out", metavar="DIR",
                   help="the run's output folder: deals.jsonl (each deal's result as it finishes, for "
                   "arena-merge), summary.json, and each cmd: bot's stderr (botN.stderr)")
    p.add_argument("--bot-stderr", action="store_true",
                   help="pass the cmd: bots' stderr through to this terminal, each line prefixed with "
                   "its entry (default: kept in --out, and the end of it printed when a bot dies)")
    p.add_argument("--share-bots", action="store_true",
                   help="identical cmd: entries share one process (prompts then come for several seats; "
                   "the 'seat' field tells them apart). Default: one process per entry")
    p.add_argument("--plot", metavar="FILE.png", help="draw score distributions and running means")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("arena-merge", help="merge arena result files into one report",
                       description="Read the deals.jsonl of several arena runs of the same table (same "
                       "rules, bots and seed; disjoint deals, e.g. from --first-deal) and report them as "
                       "one run: the same means and 95% intervals as a single run over those deals.")
    p.add_argument("results", nargs="+", metavar="FILE_OR_DIR",
                   help="deals.jsonl files, or the --out folders holding them")
    p.add_argument("--plot", metavar="FILE.png", help="draw score distributions and running means")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_arena_merge)
