"""``majiang play``: you against bots in the terminal."""

from __future__ import annotations

import sys

from majiang.bots import AGENTS, make_agent
from majiang.cli.common import UsageError, add_rules_options, rules_from_args
from majiang.core.tiles import Tile, format_tiles
from majiang.core.variants import get_variant
from majiang.engine import Action, Game, describe
from majiang.games import get_game
from majiang.play.match import Match


def cmd_play(args) -> int:
    if args.hands < 1:
        raise UsageError(f"--hands must be at least 1, got {args.hands}")
    rules = rules_from_args(args)
    n = get_variant(rules.variant).players
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
        fans = ", ".join(f"{f.name} {f.english} " + (f"×{f.value}" if get_game(game.rules.variant).fans_multiply else f"{f.value}番")
                         for f in w.score.fans)
        lines.append(f"seat {w.seat} wins on {w.tile} {how}: {fans} -> ×{w.score.multiplier}")
    for p in game.payments:
        lines.append(f"  seat {p.payer} pays seat {p.payee} {p.amount} ({p.reason}{' ' + p.detail if p.detail else ''})")
    lines.append(f"hand totals: {game.totals()}")
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("play", help="play in the terminal against bots",
                       description="You sit at seat 0; bots take the other seats.")
    add_rules_options(p)
    p.add_argument("--seed", default="0", metavar="S")
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--bot", default="greedy", metavar="LEVEL",
                   help=f"the bots' strength: {', '.join(AGENTS)} (weakest to strongest; default greedy)")
    p.set_defaults(func=cmd_play)
