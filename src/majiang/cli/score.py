"""``majiang score``: what a winning hand is worth."""

from __future__ import annotations

import argparse
import json

from majiang.cli.common import UsageError, add_meld_options, add_rules_options, melds_from_args, rules_from_args
from majiang.core.hand import Hand
from majiang.core.tiles import Tile


def cmd_score(args) -> int:
    from majiang.games import get_game, play_for
    from majiang.games.scoring import WinContext, score

    rules = rules_from_args(args)
    variant = play_for(rules).variant  # the rules' tiles (卡五星's ``suits``)
    has = variant.capabilities  # what the game has: 定缺 (and its 天胡/地胡), 亮倒
    if not has.void_suit and (args.void or args.heavenly or args.earthly):
        raise UsageError("--void, --heavenly and --earthly need a game with a void suit (定缺); "
                         f"{variant.name} has none")
    if not has.open_hand and args.liangdao:
        raise UsageError(f"--liangdao needs a game with 亮倒; {variant.name} has none")
    if args.robbed_kong and args.self_draw:
        raise UsageError("--robbed-kong is a win on another player's kong tile, not a self-draw")
    if args.robbed_kong and args.after_kong:
        raise UsageError("--robbed-kong and --after-kong cannot both hold")
    if args.heavenly and args.earthly:
        raise UsageError("--heavenly and --earthly cannot both hold")
    if (args.heavenly or args.earthly) and not args.self_draw:
        raise UsageError("天胡/地胡 (--heavenly/--earthly) are self-drawn: add --self-draw")
    hand = Hand.parse(args.hand, melds_from_args(args))
    win = Tile.parse(args.win)
    hand.check(variant, sizes=(1,))
    hand.add(win).check(variant, sizes=(2,))  # the winning tile must exist (no fifth copy) and belong
    ctx = WinContext(self_draw=args.self_draw, kong_chain=1 if args.after_kong else 0,
                     robbed_kong=args.robbed_kong, last_tile=args.last_tile,
                     declared=bool(args.liangdao), heavenly=args.heavenly, earthly=args.earthly,
                     void=args.void)
    result = score(hand, win, ctx, rules)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    if not result.win:
        print(f"{hand} + {win}: not a win under {rules.variant}/{rules.preset}")
        return 0
    print(f"{hand} + {win} ({win.chinese})  [{rules.variant}/{rules.preset}]")
    multiply = get_game(rules.variant).fans_multiply  # ×2 × ×4, or 番 that add up
    for f in result.fans:
        val = f"×{f.value}" if multiply else f"{f.value} 番"
        count = f" ({f.count})" if f.count > 1 else ""
        print(f"  {f.name:<6} {f.english:<44} {val}{count}")
    if multiply:
        cap = f" (capped from {result.uncapped})" if result.uncapped != result.multiplier else ""
        print(f"multiplier ×{result.multiplier}{cap}: each payer pays {result.multiplier} × base")
    else:
        cap = f" (capped from {result.uncapped})" if result.uncapped != result.fan else ""
        print(f"{result.fan} 番{cap} = ×{result.multiplier}")
    return 0


def register(sub) -> None:
    p = sub.add_parser("score", help="what a winning hand is worth",
                       description="Score a win. HAND is the concealed tiles before the winning tile "
                       "(3n+1 of them); melds come from --pong/--kong/--concealed-kong.")
    p.add_argument("hand", metavar="HAND")
    p.add_argument("--win", required=True, metavar="TILE", help="the winning tile")
    add_meld_options(p)
    p.add_argument("--void", choices=["m", "p", "s"], help="Sichuan: the declared void suit")
    p.add_argument("--self-draw", action="store_true", help="self-drawn (自摸); otherwise won on a discard")
    # the library's word is self_draw (WinContext, majiang.score); --tsumo, the Japanese word, still reads
    p.add_argument("--tsumo", action="store_true", dest="self_draw", help=argparse.SUPPRESS)
    p.add_argument("--liangdao", action="store_true", help="Kawuxing: the winner had declared 亮倒")
    p.add_argument("--after-kong", action="store_true",
                   help="with --self-draw: 杠上开花 (kong replacement); without: 杠上炮 (discard after a kong)")
    p.add_argument("--robbed-kong", action="store_true", help="抢杠: won on a tile added to a kong")
    p.add_argument("--last-tile", action="store_true", help="won on the last tile (海底)")
    p.add_argument("--heavenly", action="store_true", help="Sichuan 天胡: dealer wins on the deal")
    p.add_argument("--earthly", action="store_true", help="Sichuan 地胡: non-dealer wins on the first draw")
    add_rules_options(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)
