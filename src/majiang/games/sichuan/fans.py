"""四川 血战到底 Sichuan: the fan table (番, value = base × 2^fan) and what differs in settlement.

A named combination is a total, not added to its parts (清对 3 = 清一色 + 对对胡); 根 and the
situational fans add to whatever hand fan applies; the total is capped by ``rules.cap_fan``.

>>> from majiang.core.hand import Hand, Meld
>>> from majiang.games.rules import rules_for
>>> from majiang.games.scoring import WinContext
>>> r = rules_for("sichuan")
>>> def fans(h, w, melds=(), **ctx):
...     s = score_win(Hand.parse(h, list(melds)), Tile.parse(w), WinContext(**ctx), r)
...     return [(f.name, f.value) for f in s.fans], s.fan
>>> fans("2344567m345789p", "7m")
([('平胡', 0)], 0)
>>> fans("1122334467899m", "5m")   # not a win: 11223344 + 5 + 67899
([], 0)
>>> fans("1123345678999m", "2m")
([('清一色', 2)], 2)
>>> fans("1122224455779m", "9m")   # 清龙七对
([('清龙七对', 5)], 5)
"""

from __future__ import annotations

from majiang.core.analysis import Reading, is_winning, readings
from majiang.core.hand import Hand
from majiang.core.tiles import Tile
from majiang.games.scoring import Fan, Score, WinContext, merge_fans
from majiang.games.sichuan.tiles import SICHUAN

NO_WIN_SICHUAN = Score(False, "sichuan")

FAN_NAMES = {  # Chinese name: (English, 番)
    "平胡": ("plain win", 0),
    "根": ("four of a kind (root)", 1),
    "对对胡": ("all triplets", 1),
    "清一色": ("one suit", 2),
    "七对": ("seven pairs", 2),
    "幺九": ("terminals in every set", 2),
    "金钩钓": ("single wait after four melds", 2),
    "清对": ("one suit, all triplets", 3),
    "将对": ("all triplets of 2, 5, 8", 3),
    "龙七对": ("seven pairs with a four", 4),
    "清七对": ("one-suit seven pairs", 4),
    "清幺九": ("one suit, terminals in every set", 4),
    "清龙七对": ("one-suit seven pairs with a four", 5),
    "清金钩钓": ("one suit, single wait after four melds", 4),
    "将金钩钓": ("2-5-8 triplets, single wait after four melds", 4),
    "天胡": ("heavenly hand", 5),
    "地胡": ("earthly hand", 5),
    "杠上花": ("win on a kong replacement", 2),
    "杠上炮": ("win on the discard after a kong", 1),
    "抢杠": ("robbing a kong", 1),
    "海底捞月": ("self-draw on the last tile", 1),
    "海底炮": ("win on the last discard", 1),
    "自摸加番": ("self-draw bonus fan", 1),
}

FAN_HELP = {  # Chinese name: (what it is in Chinese, in English), said to a player in the settlement
    "平胡": ("没有其他番型的普通胡牌", "a win with no other pattern"),
    "根": ("每有四张相同的牌 (杠或手里四张) 加一番", "one fan for each four of a kind you hold or have kong'd"),
    "对对胡": ("四组都是刻子 (三张相同) 加一对", "four sets of three alike and a pair"),
    "清一色": ("全部是同一门花色", "every tile of one suit"),
    "七对": ("七个对子组成的胡牌", "a hand of seven pairs"),
    "幺九": ("每组和将牌都带一或九", "every set and the pair hold a 1 or a 9"),
    "金钩钓": ("四组都碰杠在外, 单钓一张", "four melds shown, waiting on a single tile"),
    "清对": ("同一花色的对对胡", "all triplets, every tile of one suit"),
    "将对": ("全是二五八的刻子和将", "all triplets and the pair of 2, 5 or 8"),
    "龙七对": ("七对里有四张相同的牌", "seven pairs, two of them the same tile"),
    "清七对": ("同一花色的七对", "seven pairs of one suit"),
    "清幺九": ("同一花色的幺九", "one suit, a 1 or a 9 in every set and the pair"),
    "清龙七对": ("同一花色的龙七对", "seven pairs of one suit, two of them the same tile"),
    "清金钩钓": ("同一花色的金钩钓", "one suit, four melds shown, a single-tile wait"),
    "将金钩钓": ("二五八的金钩钓", "2-5-8 melds shown, a single wait on a 2, 5 or 8"),
    "天胡": ("庄家起手就胡", "the dealer wins on the deal"),
    "地胡": ("闲家第一次摸牌就胡", "a player wins on their first draw"),
    "杠上花": ("杠后补的牌自摸胡", "self-drawn win on the tile drawn after a kong"),
    "杠上炮": ("别人杠后打出的牌被你胡", "a win on the tile discarded just after a kong"),
    "抢杠": ("别人加杠时胡那张牌", "winning on the tile another player adds to a kong"),
    "海底捞月": ("摸最后一张牌自摸胡", "self-drawn win on the last tile of the wall"),
    "海底炮": ("胡最后一张牌打出的炮", "a win on the discard of the last tile"),
    "自摸加番": ("自摸多加一番", "one more fan for a self-drawn win"),
}


def _fan(name: str, value: int | None = None, count: int = 1) -> Fan:
    english, default = FAN_NAMES[name]
    return Fan(name, english, default if value is None else value, count)


def _is_terminal_set(kind: str, t: int) -> bool:
    rank = t % 9 + 1
    if kind == "sequence":
        return rank in (1, 7)
    return rank in (1, 9)


def _pattern(full: Hand, reading: Reading) -> tuple[list[Fan], int]:
    """The hand fan of one reading and how many fours it already uses (龙七对's four)."""
    suits = {t.suit for t in full.tiles} | {m.tile.suit for m in full.melds}
    qing = len(suits) == 1
    if reading.seven_pairs:
        fours = sum(1 for c in full.counts if c == 4)
        if fours:
            return [_fan("清龙七对" if qing else "龙七对")], 1
        return [_fan("清七对" if qing else "七对")], 0
    pair = reading.pair
    assert pair is not None  # seven pairs returned above
    sets = list(reading.sets) + [("triplet", int(m.tile)) for m in full.melds]
    all_triplets = all(kind == "triplet" for kind, _ in sets)
    if all_triplets:
        jiang = all(t % 9 + 1 in (2, 5, 8) for _, t in sets) and int(pair) % 9 + 1 in (2, 5, 8)
        golden = len(full.melds) == 4
        if golden and qing:
            return [_fan("清金钩钓")], 0
        if golden and jiang:
            return [_fan("将金钩钓")], 0
        if golden:
            return [_fan("金钩钓")], 0
        if qing:
            return [_fan("清对")], 0
        if jiang:
            return [_fan("将对")], 0
        return [_fan("对对胡")], 0
    yaojiu = all(_is_terminal_set(kind, int(t)) for kind, t in sets) and int(pair) % 9 + 1 in (1, 9)
    if yaojiu:
        return [_fan("清幺九" if qing else "幺九")], 0
    if qing:
        return [_fan("清一色")], 0
    return [], 0


def _roots(full: Hand) -> int:
    """根: every four of a kind the hand holds (kongs, four concealed, a pong and its fourth)."""
    return sum(1 for c in full.all_counts() if c == 4)


def _situation_fans(ctx: WinContext, rules) -> list[Fan]:
    fans = []
    kongs = ctx.kong_chain if rules.gangshang_chain else 1  # 成都: "每杠", per kong of the chain
    if ctx.after_kong and ctx.self_draw:
        fans.append(_fan("杠上花", rules.gangshanghua_fan * kongs))
    elif ctx.after_kong:
        fans.append(_fan("杠上炮", kongs))
    if ctx.robbed_kong and rules.robbed_kong_fan:
        fans.append(_fan("抢杠", rules.robbed_kong_fan))
    if ctx.last_tile and rules.haidi:
        fans.append(_fan("海底捞月" if ctx.self_draw else "海底炮"))
    if ctx.self_draw and rules.self_draw_bonus == "fan":
        fans.append(_fan("自摸加番"))
    return fans


def score_win(hand: Hand, win: Tile, ctx: WinContext, rules) -> Score:
    """Score ``hand`` (concealed tiles before the win, with melds) completed by ``win``."""
    full = hand.add(win)
    if not is_winning(full, SICHUAN, ctx.void):
        return NO_WIN_SICHUAN
    roots_all = _roots(full)
    situation = _situation_fans(ctx, rules)
    best: list[Fan] | None = None
    best_total = -1
    for reading in readings(full, SICHUAN, ctx.void):
        pattern, used = _pattern(full, reading)
        if rules.heavenly_earthly and (ctx.heavenly or ctx.earthly):
            special = _fan("天胡" if ctx.heavenly else "地胡")
            if not pattern or special.value >= pattern[0].value:
                pattern = [special]
                used = 0
        fans = list(pattern)
        roots = roots_all - used
        if roots:
            fans.append(_fan("根", roots, roots))
        fans += situation
        total = sum(f.value for f in fans)
        if total > best_total:
            best, best_total = fans, total
    assert best is not None
    if not best:
        best = [_fan("平胡")]  # listed only when nothing else applies
    merged = merge_fans(best, multiplicative=False)
    fan = best_total if rules.cap_fan is None else min(best_total, rules.cap_fan)
    return Score(True, "sichuan", merged, fan=fan, multiplier=2 ** fan, uncapped=best_total)
