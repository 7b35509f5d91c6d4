"""``majiang play``: you against bots in the terminal, at seat 0."""

from __future__ import annotations

import sys

from majiang.bots import AGENTS, make_agent
from majiang.cli.common import UsageError, add_rules_options, check_bots, rules_from_args
from majiang.core.tiles import Tile, format_tiles
from majiang.core.variants import get_variant
from majiang.engine import Action, Game, describe
from majiang.engine.safety import DISCARDING, safe_choices, unsafe_tiles
from majiang.engine.views import DECLARATION_NAMES
from majiang.games import get_game
from majiang.play.match import Match

YOU = 0
MAX_MOVE_LINE = 1000  # characters read for one move: a longer line is read as several bad moves, never held
RECENT = 8  # others' moves shown before each of your decisions

_LABELS = {"discard": "discard 打", "win": "win 胡", "pong": "pong 碰", "kong": "kong 杠",
           "concealed_kong": "concealed kong 暗杠", "added_kong": "added kong 蓄杠", "pass": "pass 过",
           "declare": "declare ready, discarding", "sing": "sing 唱歌, discarding",
           "exchange": "pass three 换三张", "void": "void suit 定缺"}
# words typed for an action, besides its number and (for a discard) its tile
_WORDS = {"pass": ("pass", "p", "过", "guo"), "win": ("win", "hu", "胡", "和", "自摸"), "pong": ("pong", "peng", "碰"),
          "kong": ("kong", "gang", "杠"), "concealed_kong": ("kong", "gang", "杠", "暗杠"),
          "added_kong": ("kong", "gang", "杠", "蓄杠", "加杠"),
          "declare": ("declare", "liangdao", "亮倒", "亮", "跳舞"),
          "sing": ("sing", "唱歌")}
_HELP = ("type a number, a tile to discard (5p, 五筒), or a word: pass/过, pong/碰, kong/杠, win/胡, "
         "declare/亮倒 TILE; hint for shanten and waits; q to quit")


def cmd_play(args) -> int:
    if args.hands < 1:
        raise UsageError(f"--hands must be at least 1, got {args.hands}")
    rules = rules_from_args(args)
    n = get_variant(rules.variant).players
    check_bots([args.bot])
    agents = [None] + [make_agent(args.bot, seed=i) for i in range(1, n)]
    names = ["you"] + [args.bot] * (n - 1)
    match = Match(rules, args.seed)
    stdin = sys.stdin
    if hasattr(stdin, "reconfigure"):  # bytes that are not text read as a bad move, not a traceback
        try:
            stdin.reconfigure(errors="replace")
        except (ValueError, OSError):
            pass
    print(_HELP)
    for _ in range(args.hands):
        game = match.new_game()
        told = 0  # events narrated so far
        while not game.over:
            seat = game.pending_seats()[0]
            legal = game.legal_actions(seat)
            if seat != YOU:
                game.apply(seat, agents[seat].act(game.observation(seat), legal))
                continue
            moves, told = moves_since(game, told)
            if len(legal) == 1:
                if legal[0].type != "pass":  # a pass with nothing to claim is no news
                    print(f"you {_action_label(legal[0])} (the only move)")
                game.apply(YOU, legal[0])
                continue
            print()
            if moves:
                print("since your last move: " + "; ".join(moves[-RECENT:]))
            print(describe(game, YOU, names))
            _print_choices(game, legal)
            while True:
                print("your move: ", end="", flush=True)
                line = stdin.readline(MAX_MOVE_LINE)
                if not line:  # input ended (a pipe or file of moves ran out) with the hand unfinished
                    print()
                    raise UsageError("play: the input ended before the game did (type q to quit)")
                if line.strip().lower() in ("q", "quit", "exit"):
                    print()
                    return 0
                text = line.strip()
                if text.lower() in ("hint", "?", "h"):
                    print(hint(game, YOU))
                    continue
                choice, problem = parse_choice(text, legal)
                if choice is not None:
                    break
                print(problem)
            game.apply(YOU, choice)
        moves, told = moves_since(game, told)
        match.record(game)
        if moves:
            print("last moves: " + "; ".join(moves[-RECENT:]))
        print(describe(game, YOU, names))
        print(render_settlement(game))
    print(f"match totals: {match.totals}")
    return 0


def _print_choices(game: Game, legal: list[Action]) -> None:
    last = game.last_discard
    for i, a in enumerate(legal):
        where = ""
        if a.type in ("pong", "kong") or (a.type == "win" and game.phase.value in ("claim", "rob")):
            if game.phase.value == "rob" and game.pending_kong is not None:
                where = f" (robbing seat {game.pending_kong[0]}'s kong 抢杠)"
            elif last is not None:
                where = f" (seat {last[0]}'s discard)"
        print(f"  {i:>2}) {_action_label(a)}{where}")


def moves_since(game: Game, start: int) -> tuple[list[str], int]:
    """What happened at the table since event ``start``, as seat 0 may know it: discards, claims,
    kongs (a concealed one without its tile), declarations, wins; never another seat's tiles."""
    out = []
    for e in game.events[start:]:
        t = e["type"]
        if t == "action":
            a = Action.from_json(e["action"])
            who = "you" if e["seat"] == YOU else f"seat {e['seat']}"
            if a.type in ("pass", "discard", "declare", "sing", "win", "void"):
                continue  # shown by their own events (a void once every seat has chosen)
            if a.type == "exchange":
                out.append(f"{who} passed three tiles" if e["seat"] != YOU else f"you passed {format_tiles(a.tiles)}")
            elif a.type == "concealed_kong" and e["seat"] != YOU:
                out.append(f"{who} made a concealed kong 暗杠")
            else:
                out.append(f"{who} {_action_label(a)}")
        elif t == "discard":
            who = "you" if e["seat"] == YOU else f"seat {e['seat']}"
            out.append(f"{who} discarded {e['tile']} {Tile.parse(e['tile']).chinese}")
        elif t == "declare":
            who = "you" if e["seat"] == YOU else f"seat {e['seat']}"
            waits = e.get("waits")
            shown = f", waiting on {' '.join(waits) if isinstance(waits, list) else waits}" if waits else ""
            out.append(f"{who} declared {DECLARATION_NAMES.get(e['kind'], e['kind'])}{shown}")
        elif t == "win":
            who = "you" if e["seat"] == YOU else f"seat {e['seat']}"
            how = "self-drawn 自摸" if e.get("self_draw") else f"on seat {e.get('discarder')}'s tile"
            out.append(f"{who} won 胡 on {e['tile']} {how}")
        elif t == "voids":
            out.append("voids 定缺: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(e["voids"]) if v))
        elif t == "exchanged":
            out.append("the three tiles went round")
    return out, len(game.events)


def hint(game: Game, seat: int) -> str:
    """Shanten and waits of ``seat``'s hand, or each discard's effect on a turn (``majiang analyze``)."""
    from majiang.core.analysis import analyze_hand

    hand = game.hand(seat)
    visible = game.observation(seat).get("visible", {})
    seen = [0] * 30
    for k, c in visible.items():
        seen[int(Tile.parse(k))] = c
    own = hand.all_counts()
    others = [max(0, s - o) for s, o in zip(seen, own)]  # analyze_hand counts the hand's own tiles itself
    result = analyze_hand(format_tiles(hand.tiles), game.variant.name, list(hand.melds), game.seats[seat].void,
                          others)
    s = result["shanten"]
    head = {-1: "complete (胡)", 0: "ready (听牌)"}.get(s, f"{s} from ready ({s}向听)")
    if "waits" in result:
        return f"hint: {head}" + (f", waits {' '.join(result['waits'])}" if result["waits"] else "")
    # the discards it may suggest: legal ones, never a shown wait while a safe one is legal
    unsafe = unsafe_tiles(game, seat)
    legal = game.legal_actions(seat)
    allowed = {str(a.tile) for a in safe_choices(legal, unsafe) if a.type in DISCARDING}
    options = [o for o in result["discards"] if not allowed or o["tile"] in allowed]
    best = sorted(options, key=lambda o: (o["shanten"], -o["effective_count"]))[:3]
    parts = [f"{o['tile']} → {o['shanten']} "
             f"({'waits ' + ' '.join(o['waits']) if o['waits'] else str(o['effective_count']) + ' tiles help'})"
             for o in best]
    avoid = sorted({str(a.tile) for a in legal if a.type in DISCARDING and a.tile in unsafe} - allowed)
    return f"hint: {head}; best discards: " + ", ".join(parts) + \
        (f"; never {' '.join(avoid)} (a shown wait)" if avoid else "")


def _action_label(a: Action) -> str:
    label = _LABELS[a.type]
    if a.tile is not None:
        label += f" {a.tile} {a.tile.chinese}"
    if a.tiles:
        label += " " + format_tiles(a.tiles)
    if a.suit:
        label += f" {a.suit}"
    return label


def parse_choice(text: str, legal: list[Action]) -> tuple[Action | None, str]:
    """The legal action ``text`` names (a number, a tile to discard, or a word with an optional
    tile: ``pong``, ``碰``, ``pass``, ``declare 5p``), or None and what is wrong.

    >>> from majiang.games.base import tile_action
    >>> legal = [tile_action("pong", 4), Action.from_json({"type": "pass"})]
    >>> [str(parse_choice(w, legal)[0]) for w in ("碰", "pass", "0", "过")]
    ['pong 5m', 'pass', 'pong 5m', 'pass']
    >>> parse_choice("kong", legal)[1]
    "'kong' is not one of the choices above (type hint for advice, q to quit)"
    """
    if text.isdigit():
        return (legal[int(text)], "") if int(text) < len(legal) else (None, f"no choice {text}: 0-{len(legal) - 1}")
    word, _, rest = text.partition(" ")
    tile = None
    for piece in (rest, word) if rest else (word,):
        try:
            tile = Tile.parse(piece.strip())
            break
        except ValueError:
            continue
    named = [a for a in legal if word.lower() in _WORDS.get(a.type, ())]
    if named:
        if tile is not None and rest:
            named = [a for a in named if a.tile == tile]
        if len(named) == 1 or (named and len({a.type for a in named}) == 1 and tile is None and
                               len({a.tile for a in named}) == 1):
            return named[0], ""
        if len(named) > 1:
            tiles = ", ".join(str(a.tile) for a in named if a.tile)
            return None, f"which one? add the tile ({tiles}) or type its number"
    if tile is not None and not rest:
        discard = next((a for a in legal if a.type == "discard" and a.tile == tile), None)
        if discard is not None:
            return discard, ""
        return None, f"you cannot discard {tile} now"
    return None, f"'{text}' is not one of the choices above (type hint for advice, q to quit)"


def render_settlement(game: Game) -> str:
    lines = [f"=== hand over: {getattr(game.result, 'value', game.result)}"]
    for w in game.wins:
        how = "self-drawn 自摸" if w.self_draw else f"on seat {w.discarder}'s tile"
        multiply = get_game(game.rules.variant).fans_multiply
        fans = ", ".join(f"{f.name} {f.english} " + (f"×{f.value}" if multiply else f"{f.value}番")
                         for f in w.score.fans)
        lines.append(f"seat {w.seat} wins on {w.tile} {how}: {fans} -> ×{w.score.multiplier}")
    for p in game.payments:
        detail = " " + p.detail if p.detail else ""
        lines.append(f"  seat {p.payer} pays seat {p.payee} {p.amount} ({p.reason}{detail})")
    lines.append(f"hand totals: {game.totals()}")
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("play", help="play in the terminal against bots",
                       description="You sit at seat 0; bots take the other seats. Before each of your "
                       "decisions the table is drawn (ponds, melds, revealed hands, money, your hand) with "
                       "the others' moves since your last one. " + _HELP + ".")
    add_rules_options(p)
    p.add_argument("--seed", default="0", metavar="S")
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--bot", default="greedy", metavar="LEVEL",
                   help=f"the bots' strength: {', '.join(AGENTS)} (weakest to strongest; default greedy)")
    p.set_defaults(func=cmd_play)
