"""``majiang simulate``, ``majiang replay`` and ``majiang play``."""

from __future__ import annotations

import json
import os
import sys
import zlib
from collections import Counter

from majiang.bots import make_agent, split_bots
from majiang.core.errors import MajiangError
from majiang.core.tiles import Tile, format_tiles
from majiang.engine import Action, Game, describe
from majiang.play.match import Match
from majiang.play.runner import play_hand


class Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.n = total, label, 0
        self.on = sys.stderr.isatty()

    def step(self) -> None:
        self.n += 1
        if self.on and (self.n == self.total or self.n % max(1, self.total // 100) == 0):
            width = 30
            done = int(width * self.n / self.total)
            sys.stderr.write(f"\r{self.label} [{'#' * done}{'.' * (width - done)}] {self.n}/{self.total}")
            if self.n == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def simulate(rules, games: int, seed, bots: list[str], log_dir: str | None = None, progress: bool = True,
             check=None) -> dict:
    n = 3 if rules.variant == "kawuxing" else 4
    if len(bots) == 1:
        bots = bots * n
    if len(bots) != n:
        raise MajiangError(f"{rules.variant} needs {n} bots, got {len(bots)}")
    agents = [make_agent(b, seed=zlib.crc32(f"{seed}/{i}".encode())) for i, b in enumerate(bots)]
    fan_counts: Counter = Counter()
    stats = Counter()
    match = Match(rules, seed)
    bar = Progress(games, f"{rules.variant}/{rules.preset}") if progress else None
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)

    def on_hand(game: Game, res) -> None:
        from majiang.engine.log import game_records, write_jsonl

        stats["draws"] += game.result == "draw" or not game.wins
        for w in game.wins:
            stats["wins"] += 1
            stats["self_draws"] += w.self_draw
            for f in w.score.fans:
                fan_counts[f.name] += 1
        stats["flower_pigs"] += len({p.payer for p in game.payments if p.reason == "花猪"})
        stats["ready_at_draw"] += len({p.payee for p in game.payments if p.reason == "大叫"})
        if log_dir:
            write_jsonl(game_records(game), os.path.join(log_dir, f"{rules.variant}-{seed}-{res.index:05d}.jsonl"))
        if bar:
            bar.step()

    for _ in range(games):
        game = match.new_game()
        play_hand(game, agents, check)
        res = match.record(game)
        on_hand(game, res)
    totals = match.totals
    out = {"games": games, "wins": stats["wins"], "self_draws": stats["self_draws"], "draws": stats["draws"],
           "fan_counts": dict(sorted(fan_counts.items(), key=lambda kv: (-kv[1], kv[0]))),
           "payments_sum": sum(totals), "seat_totals": totals}
    if rules.variant == "sichuan":
        out["flower_pigs"] = stats["flower_pigs"]
        out["ready_at_draw"] = stats["ready_at_draw"]
    return out


def cmd_simulate(args) -> int:
    from majiang.cli.game import rules_from_args
    from majiang.cli.main import UsageError

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    rules = rules_from_args(args)
    bots = split_bots(args.bots)
    out = simulate(rules, args.games, args.seed, bots, args.log)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{out['games']} hands of {rules.variant}/{rules.preset}, seed {args.seed}, bots {','.join(bots)}")
    print(f"wins {out['wins']} (self-drawn {out['self_draws']}), drawn hands {out['draws']}")
    if rules.variant == "sichuan":
        print(f"flower pigs {out['flower_pigs']}, ready at the draw {out['ready_at_draw']}")
    print("fans: " + ", ".join(f"{k} {v}" for k, v in out["fan_counts"].items()))
    print("seat totals: " + "  ".join(f"seat {i}: {v:+d}" for i, v in enumerate(out["seat_totals"])))
    print(f"payments sum: {out['payments_sum']}")
    return 0


# ---------------------------------------------------------------------------------------------


def cmd_replay(args) -> int:
    from majiang.engine.log import read_jsonl, rebuild, split_hands

    records = read_jsonl(args.log)
    results = []
    for hand_records in split_hands(records):
        game = rebuild(hand_records)
        results.append(game)
    if args.json:
        print(json.dumps([{"hand_index": g.hand_index, "actions": len(g.actions), **g.settlement()}
                          for g in results], ensure_ascii=False))
        return 0
    for g in results:
        print(render_replay(g))
    print(f"ok: {len(results)} hand(s) replayed, every event matches the log")
    return 0


def render_replay(game: Game) -> str:
    lines = [f"hand {game.hand_index} of {game.play.name}/{game.rules.preset}: dealer seat {game.dealer}, "
             f"dice {game.dice[0]}+{game.dice[1]}"]
    for e in game.events:
        t = e["type"]
        if t == "deal":
            for s, h in enumerate(e["hands"]):
                lines.append(f"  seat {s} dealt {h}")
        elif t == "action":
            a = Action.from_json(e["action"])
            if a.type not in ("pass",):
                lines.append(f"  seat {e['seat']}: {a}")
        elif t in ("win", "payment", "kong", "declare", "voids", "exchanged", "robbed"):
            lines.append("  " + t + " " + json.dumps({k: v for k, v in e.items() if k != "type"}, ensure_ascii=False))
    lines.append(f"  result {game.result}; totals {game.totals()}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------


def cmd_play(args) -> int:
    from majiang.cli.game import rules_from_args

    rules = rules_from_args(args)
    n = 3 if rules.variant == "kawuxing" else 4
    agents = [None] + [make_agent(args.bot, seed=i) for i in range(1, n)]
    match = Match(rules, args.seed)
    stdin = sys.stdin
    for _ in range(args.hands):
        game = match.new_game()
        while not game.over:
            seat = game.pending_seats()[0]
            legal = game.legal_actions(seat)
            if seat != 0:
                game.apply(seat, agents[seat].act(game.observation(seat), legal))
                continue
            if len(legal) == 1:
                game.apply(0, legal[0])
                continue
            print(describe(game, 0))
            for i, a in enumerate(legal):
                print(f"  {i:>2}) {_action_label(a)}")
            while True:
                print("choose a number (or a tile to discard, q to quit): ", end="", flush=True)
                line = stdin.readline()
                if not line or line.strip() == "q":
                    print()
                    return 0
                choice = _parse_choice(line.strip(), legal)
                if choice is not None:
                    break
                print("not one of the choices above")
            game.apply(0, choice)
        match.record(game)
        print(describe(game, 0))
        print(render_settlement(game))
    print(f"match totals: {match.totals}")
    return 0


_LABELS = {"discard": "discard 打", "win": "win 胡", "pong": "pong 碰", "kong": "kong 杠",
           "concealed_kong": "concealed kong 暗杠", "added_kong": "added kong 蓄杠", "pass": "pass 过",
           "declare": "declare ready 亮倒, discarding", "exchange": "pass three 换三张", "void": "void suit 定缺"}


def _action_label(a: Action) -> str:
    label = _LABELS[a.type]
    if a.tile is not None:
        label += f" {a.tile} {a.tile.chinese}"
    if a.tiles:
        label += " " + format_tiles(a.tiles)
    if a.suit:
        label += f" {a.suit}"
    return label


def _parse_choice(text: str, legal: list[Action]) -> Action | None:
    if text.isdigit() and int(text) < len(legal):
        return legal[int(text)]
    try:
        t = Tile.parse(text)
    except ValueError:
        return None
    return next((a for a in legal if a.type == "discard" and a.tile == t), None)


def render_settlement(game: Game) -> str:
    lines = [f"=== hand over: {game.result}"]
    for w in game.wins:
        how = "self-drawn 自摸" if w.self_draw else f"on seat {w.discarder}'s tile"
        fans = ", ".join(f"{f.name} {f.english} " + (f"×{f.value}" if game.play.name == "kawuxing" else f"{f.value}番")
                         for f in w.score.fans)
        lines.append(f"seat {w.seat} wins on {w.tile} {how}: {fans} -> ×{w.score.multiplier}")
    for p in game.payments:
        lines.append(f"  seat {p.payer} pays seat {p.payee} {p.amount} ({p.reason}{' ' + p.detail if p.detail else ''})")
    lines.append(f"hand totals: {game.totals()}")
    return "\n".join(lines)


def cmd_arena(args) -> int:
    from majiang.cli.game import rules_from_args
    from majiang.cli.main import UsageError
    from majiang.play.arena import bot_stderr_name, run_arena

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.first_deal < 0:
        raise UsageError("--first-deal must be 0 or more")
    rules = rules_from_args(args)
    bots = split_bots(args.bots)
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
    from majiang.play.arena import plot

    if args.plot:
        plot(result, args.plot)
        summary["plot"] = args.plot
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
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
    if summary.get("out"):
        print(f"deals written to {os.path.join(summary['out'], 'deals.jsonl')}")
    for f in summary.get("bot_stderr", []):
        print(f"bot stderr kept in {f}")
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0


def lan_urls(host: str, port: int) -> list[str]:
    """Addresses others on the network can open: this machine's own addresses when serving on all
    interfaces (read from the host's name, no traffic sent), else the one given."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        return [] if host.startswith("127.") or host in ("localhost", "::1") else [f"http://{host}:{port}/"]
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = info[4][0]
            if not addr.startswith("127.") and addr not in found:
                found.append(addr)
    except OSError:
        pass
    return [f"http://{a}:{port}/" for a in found]


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

    result = read_results(args.results)
    for where in result.skipped:
        print(f"majiang: {where}: a line cut short (an interrupted run) was skipped", file=sys.stderr)
    return _report(args, result, result.summary())


def cmd_serve(args) -> int:
    try:
        import uvicorn

        from majiang.server.app import create_app, default_db_url
    except ImportError as exc:
        raise MajiangError(f"the web game needs its extra: pip install 'majiang[web]' ({exc.name} missing)") from None
    url = args.db or default_db_url()
    share = lan_urls(args.host, args.port)
    workers = args.bot_workers if args.bot_workers is not None else (os.cpu_count() or 1)
    import socket

    hosts = ["127.0.0.1", "localhost", "::1", args.host, socket.gethostname()] + \
        [u.split("//")[1].rsplit(":", 1)[0] for u in share] + (args.allowed_host or [])
    app = create_app(url, bot_delay=args.bot_delay, share_urls=share, new_players_per_10min=args.new_players,
                     bot_workers=workers, allowed_hosts=hosts)
    print(f"majiang: database {url}")
    local = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    print(f"majiang: open http://{local}:{args.port}/ in a browser", flush=True)
    if share:
        print("majiang: friends on your network open " + " or ".join(share), flush=True)
    elif args.host.startswith("127.") or args.host == "localhost":
        print("majiang: only this computer can connect; to let friends on your network join, "
              "serve with --host 0.0.0.0", flush=True)
    # a websocket frame larger than this is refused by the protocol layer before the app reads it
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=64 * 1024,
                h11_max_incomplete_event_size=64 * 1024)
    return 0


def register(sub) -> None:
    from majiang.cli.game import add_rules_options

    p = sub.add_parser("serve", help="the web game: rooms, bots, reconnection, replays",
                       description="Serve the browser game. SQLite by default (~/.majiang/majiang.sqlite3); "
                       "PostgreSQL with --db postgresql://user:pass@host/db.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on: 127.0.0.1 (default) is this computer only; 0.0.0.0 lets "
                   "others on your network join (the addresses to share are printed)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", metavar="URL", help="SQLAlchemy database URL")
    p.add_argument("--bot-delay", type=float, default=0.4, metavar="SEC", help="how long bots think (default 0.4)")
    p.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help="processes that run the bots' decisions, off the event loop (default: one per core; "
                   "0: a thread of the server process)")
    p.add_argument("--allowed-host", action="append", metavar="NAME",
                   help="a host name browsers may use to reach this server, besides its own addresses "
                   "(repeatable; e.g. the public name behind a proxy; '*' allows any)")
    p.add_argument("--new-players", type=int, default=20, metavar="N",
                   help="players one address may create in 10 minutes (default 20)")
    p.set_defaults(func=cmd_serve)

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
                   help="comma-separated agents, one per seat: random, greedy, strong, expert, or cmd:PROGRAM "
                   "(an external bot, docs/BOTS.md; each entry gets its own process); options after a "
                   "colon, e.g. expert:samples=200,work=500")
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

    p = sub.add_parser("simulate", help="play many hands with bots and summarise",
                       description="Play N hands (a long match with the dealer rules) with built-in bots.")
    add_rules_options(p)
    p.add_argument("--games", type=int, required=True, metavar="N")
    p.add_argument("--seed", default="0", metavar="S", help="the same seed gives the same games")
    p.add_argument("--bots", default="greedy", help="comma-separated agents per seat (random, greedy)")
    p.add_argument("--log", metavar="DIR", help="write each hand's JSON-lines event log here")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="check a JSON-lines game log and print it",
                       description="Rebuild every hand in LOG from its start record and actions, check "
                       "that every logged event comes out the same, and print the hand.")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("play", help="play in the terminal against bots",
                       description="You sit at seat 0; bots take the other seats.")
    add_rules_options(p)
    p.add_argument("--seed", default="0", metavar="S")
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--bot", default="greedy", help="the bots' strength (random, greedy)")
    p.set_defaults(func=cmd_play)
