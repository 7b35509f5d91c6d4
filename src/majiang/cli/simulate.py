"""``majiang simulate``: many seeded deals with bots, summarised."""

from __future__ import annotations

import json
import os
import zlib
from collections import Counter

from majiang.bots import make_agent, split_bots
from majiang.cli.common import Progress, UsageError, add_rules_options, bot_help, check_bots, rules_from_args
from majiang.core.errors import MajiangError
from majiang.core.variants import get_variant
from majiang.engine import Game
from majiang.games import get_game
from majiang.play.match import Match
from majiang.play.runner import play_hand


def simulate(rules, games: int, seed, bots: list[str], log_dir: str | None = None, progress: bool = True,
             check=None) -> dict:
    n = get_variant(rules.variant).players
    if len(bots) == 1:
        bots = bots * n
    if len(bots) != n:
        raise MajiangError(f"{rules.variant} needs {n} bots, got {len(bots)}")
    agents = [make_agent(b, seed=zlib.crc32(f"{seed}/{i}".encode())) for i, b in enumerate(bots)]
    fan_counts: Counter = Counter()
    stats = Counter()
    match = Match(rules, seed, keep_hands=False)  # the summary streams: nothing kept per hand
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
    if "花猪" in get_game(rules.variant).payments:  # a game with the draw's 查花猪 and 查大叫
        out["flower_pigs"] = stats["flower_pigs"]
        out["ready_at_draw"] = stats["ready_at_draw"]
    return out


def cmd_simulate(args) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    rules = rules_from_args(args)
    bots = check_bots(split_bots(args.bots), get_variant(rules.variant).players)
    out = simulate(rules, args.games, args.seed, bots, args.log)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{out['games']} hands of {rules.variant}/{rules.preset}, seed {args.seed}, bots {','.join(bots)}")
    print(f"wins {out['wins']} (self-drawn {out['self_draws']}), drawn hands {out['draws']}")
    if "flower_pigs" in out:
        print(f"flower pigs {out['flower_pigs']}, ready at the draw {out['ready_at_draw']}")
    print("fans: " + ", ".join(f"{k} {v}" for k, v in out["fan_counts"].items()))
    print("seat totals: " + "  ".join(f"seat {i}: {v:+d}" for i, v in enumerate(out["seat_totals"])))
    print(f"payments sum: {out['payments_sum']}")
    return 0


def register(sub) -> None:
    p = sub.add_parser("simulate", help="play many hands with bots and summarise",
                       description="Play N hands (a long match with the dealer rules) with built-in bots.")
    add_rules_options(p)
    p.add_argument("--games", type=int, required=True, metavar="N")
    p.add_argument("--seed", default="0", metavar="S", help="the same seed gives the same games")
    p.add_argument("--bots", default="greedy",
                   help="comma-separated agents, one per seat or one for all (default greedy): " + bot_help())
    p.add_argument("--log", metavar="DIR", help="write each hand's JSON-lines event log here")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)
