"""卡五星 Kawuxing: the fan table (番型, multiplied together) and what differs in settlement.

Value = base × the product of every fan that applies, over the reading that pays most, then
capped by ``rules.cap``. 屁胡 (×1) is listed only when nothing else applies.

>>> from majiang.core.hand import Hand, Meld
>>> from majiang.games.rules import rules_for
>>> from majiang.games.scoring import WinContext
>>> r = rules_for("kawuxing")
>>> def fans(h, w, melds=(), **ctx):
...     s = score_win(Hand.parse(h, list(melds)), Tile.parse(w), WinContext(**ctx), r)
...     return [(f.name, f.value) for f in s.fans], s.multiplier
>>> fans("1122334456677p", "5p")  # 清一色 × 七对: 七对 never with 卡五星
([('清一色', 4), ('七对', 4)], 16)
>>> fans("1122334455566p", "5p")  # 清一色 × 卡五星 × 暗四归 = 32 (= 清一色 × 龙七对)
([('清一色', 4), ('卡五星', 2), ('暗四归', 4)], 32)
>>> fans("4556p123s789s555z", "5p")
([('卡五星', 2)], 2)
>>> fans("3455p123s789s555z", "5p")  # a 5 that does not sit between 4 and 6
([('屁胡', 1)], 1)
"""

from __future__ import annotations

from majiang.core.analysis import Reading, is_winning, readings
from majiang.core.hand import Hand, MeldKind
from majiang.core.tiles import Tile
from majiang.core.variants import Variant
from majiang.games.kawuxing.tiles import KAWUXING
from majiang.games.scoring import Fan, Score, WinContext, merge_fans

NO_WIN_KAWUXING = Score(False, "kawuxing")

DRAGONS = (27, 28, 29)

FAN_NAMES = {  # Chinese name: (English, multiplier)
    "屁胡": ("plain win", 1),
    "碰碰胡": ("all triplets", 2),
    "明四归": ("fourth of an own pong", 2),
    "暗四归": ("fourth of a concealed three", 4),
    "七对": ("seven pairs", 4),
    "龙七对": ("seven pairs with a four", 8),
    "双龙七对": ("seven pairs with two fours", 16),
    "三龙七对": ("seven pairs with three fours", 32),
    "小三元": ("little three dragons", 4),
    "大三元": ("big three dragons", 8),
    "清一色": ("one suit", 4),
    "卡五星": ("five between four and six", 2),
    "手抓一": ("single tile after four melds", 4),
    "杠上开花": ("win on a kong replacement", 2),
    "杠上炮": ("win on the discard after a kong", 2),
    "抢杠": ("robbing a kong", 2),
    "海底捞": ("self-draw on the last tile", 2),
    "海底炮": ("win on the last discard", 2),
    "亮倒": ("declared ready", 2),
}

FAN_HELP = {  # Chinese name: (what it is in Chinese, in English), said to a player in the settlement
    "屁胡": ("没有其他番型的普通胡牌", "a win with no other pattern"),
    "碰碰胡": ("四组都是刻子 (三张相同) 加一对", "four sets of three alike and a pair"),
    "明四归": ("胡的牌是自己已碰那张的第四张", "the winning tile is the fourth of a pong you made"),
    "暗四归": ("胡的牌是手里暗藏三张的第四张", "the winning tile is the fourth of three you hold hidden"),
    "七对": ("七个对子组成的胡牌", "a hand of seven pairs"),
    "龙七对": ("七对里有四张相同的牌", "seven pairs, two of them the same tile"),
    "双龙七对": ("七对里有两组四张相同的牌", "seven pairs holding two sets of four alike"),
    "三龙七对": ("七对里有三组四张相同的牌", "seven pairs holding three sets of four alike"),
    "小三元": ("中发白两种是刻子, 第三种做将", "two dragon triplets and a pair of the third dragon"),
    "大三元": ("中发白都是刻子", "triplets of all three dragons"),
    "清一色": ("全部是同一门花色", "every tile of one suit"),
    "卡五星": ("胡的五夹在四和六之间 (如四五六筒胡五筒)", "the winning 5 sits between your 4 and 6 of its suit"),
    "手抓一": ("四组都亮在外, 单钓最后一张", "four melds shown, waiting on a single tile"),
    "杠上开花": ("杠后补的牌自摸胡", "self-drawn win on the tile drawn after a kong"),
    "杠上炮": ("别人杠后打出的牌被你胡", "a win on the tile discarded just after a kong"),
    "抢杠": ("别人加杠时胡那张牌", "winning on the tile another player adds to a kong"),
    "海底捞": ("摸最后一张牌自摸胡", "self-drawn win on the last tile of the wall"),
    "海底炮": ("胡最后一张牌打出的炮", "a win on the discard of the last tile"),
    "亮倒": ("胡牌的人已经亮倒 (亮牌报听)", "the winner had declared ready, hand shown"),
}


def variant_for(rules) -> Variant:
    return KAWUXING if rules.suits == "ps" else KAWUXING.with_suits(rules.suits)


def _fan(name: str, value: int | None = None) -> Fan:
    english, default = FAN_NAMES[name]
    return Fan(name, english, default if value is None else value)


def _reading_fans(hand: Hand, full: Hand, win: Tile, reading: Reading, rules) -> list[Fan]:
    """Fans that depend on how the tiles are read (the pattern), for one reading."""
    fans: list[Fan] = []
    counts = full.counts
    suits = {t.suit for t in full.tiles} | {m.tile.suit for m in full.melds}
    one_suit = len(suits) == 1 and "z" not in suits
    if one_suit:
        fans.append(_fan("清一色"))
    if reading.seven_pairs:
        fours = sum(1 for c in counts if c == 4)
        fans.append(_fan(("七对", "龙七对", "双龙七对", "三龙七对")[fours]))
        return fans
    triplet_tiles = [t for kind, t in reading.sets if kind == "triplet"] + [m.tile for m in full.melds]
    if all(kind == "triplet" for kind, _ in reading.sets):
        fans.append(_fan("碰碰胡"))
    dragon_triplets = sum(1 for t in triplet_tiles if t in DRAGONS)
    big_hand = one_suit
    if dragon_triplets == 3:
        fans.append(_fan("大三元"))
        big_hand = True
    elif dragon_triplets == 2 and reading.pair in DRAGONS:
        fans.append(_fan("小三元"))
        big_hand = True
    if win.rank == 5 and not win.is_honour and ("sequence", Tile(int(win) - 1)) in reading.sets:
        fans.append(_fan("卡五星"))
    if len(full.melds) == 4:
        fans.append(_fan("手抓一", rules.shouzhuayi))
    # 四归: the winning tile as a fourth always counts; other fours kept in hand by the option.
    pongs = {int(m.tile) for m in full.melds if m.kind is MeldKind.PONG}
    if int(win) in pongs:
        fans.append(_fan("明四归"))
    elif hand.counts[win] == 3:
        fans.append(_fan("暗四归"))
    if rules.sigui == "full" or (rules.sigui in ("half", "half_concealed") and big_hand):
        for k in range(30):
            if k == win:
                continue
            if counts[k] == 4:
                fans.append(_fan("暗四归"))
            elif k in pongs and counts[k] == 1 and rules.sigui != "half_concealed":  # 随州: 否则不算明四规
                fans.append(_fan("明四归"))
    return fans


def _situation_fans(ctx: WinContext, rules) -> list[Fan]:
    fans = []
    if ctx.after_kong and ctx.self_draw:
        fans.append(_fan("杠上开花", 2 ** ctx.kong_chain))
    elif ctx.after_kong:  # 随州: "杠上杠翻倍，放炮也翻" (gangshangpao_chain)
        fans.append(_fan("杠上炮", 2 ** ctx.kong_chain if rules.gangshangpao_chain else None))
    if ctx.robbed_kong:
        fans.append(_fan("抢杠"))
    if ctx.last_tile and rules.haidi != "none":
        if ctx.self_draw:
            fans.append(_fan("海底捞"))
        elif rules.haidi == "both":
            fans.append(_fan("海底炮"))
    if ctx.declared:
        fans.append(_fan("亮倒"))
    return fans


def _product(fans) -> int:
    out = 1
    for f in fans:
        out *= f.value
    return out


def score_win(hand: Hand, win: Tile, ctx: WinContext, rules) -> Score:
    """Score ``hand`` (concealed tiles before the win, with melds) completed by ``win``."""
    variant = variant_for(rules)
    full = hand.add(win)
    if not is_winning(full, variant):
        return NO_WIN_KAWUXING
    situation = _situation_fans(ctx, rules)
    best: list[Fan] | None = None
    best_value = 0
    best_reading = None
    for reading in readings(full, variant):
        fans = _reading_fans(hand, full, win, reading, rules) + situation
        value = _product(fans)
        if value > best_value:
            best, best_value, best_reading = fans, value, reading
    assert best is not None and best_reading is not None
    if not best:
        best = [_fan("屁胡")]
    merged = merge_fans(best, multiplicative=True)
    capped = best_value if rules.cap is None else min(best_value, rules.cap)
    if not ctx.self_draw and best_value < rules.min_ron_multiplier:
        return NO_WIN_KAWUXING  # 屁胡只能自摸 and the like: too small to win on a discard
    return Score(True, "kawuxing", merged, multiplier=capped, uncapped=best_value,
                 concealed_triplets=_kan(hand, full, win, best_reading, ctx))


def _kan(hand: Hand, full: Hand, win: Tile, reading: Reading, ctx: WinContext) -> int:
    """坎: concealed triplets of the reading and concealed kongs; a triplet completed by a
    discard is exposed (明刻), not a 坎."""
    if reading.seven_pairs:
        return 0
    n = sum(1 for kind, t in reading.sets if kind == "triplet")
    if not ctx.self_draw and ("triplet", win) in reading.sets and hand.counts[win] == 2:
        n -= 1
    return n + sum(1 for m in full.melds if m.kind is MeldKind.CONCEALED_KONG)
