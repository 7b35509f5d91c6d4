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
from majiang.core.hand import Hand, Meld, MeldKind
from majiang.games.scoring import NO_WIN_KAWUXING, Fan, Score, WinContext, merge_fans
from majiang.core.tiles import ALL_TILES, Tile
from majiang.core.variants import KAWUXING, Variant

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
    "亮倒": ("declared ready (亮倒)", 2),
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
    if rules.sigui == "full" or (rules.sigui == "half" and big_hand):
        for k in range(30):
            if k == win:
                continue
            if counts[k] == 4:
                fans.append(_fan("暗四归"))
            elif k in pongs and counts[k] == 1:
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


# ---------------------------------------------------------------------------------------------
# Play: what the engine asks of Kawuxing.

from majiang.engine.game import Action, Payment, VariantPlay, tile_action  # noqa: E402  (engine imports this module lazily)


class KawuxingPlay(VariantPlay):
    name = "kawuxing"
    players = 3

    @property
    def variant(self) -> Variant:
        return variant_for(self.rules)

    def score(self, hand: Hand, tile: Tile, ctx: WinContext) -> Score:
        return score_win(hand, tile, ctx, self.rules)

    def pass_allows_bigger(self, game) -> bool:
        return self.rules.louhu_unless_more

    def extra_turn_actions(self, game, seat: int) -> list[Action]:
        """亮倒: discard a tile so that the rest is ready, and reveal."""
        if game.declared[seat] or game.tiles_left == 0:
            return []
        return [tile_action("declare", t) for t in game.ready_discards(seat)]

    def declare(self, game, seat: int, discard: Tile, kind: str) -> None:
        game.declared[seat] = True
        game.declared_kind[seat] = "liangdao"
        game.declare_order.append(seat)
        after = list(game.hands[seat])
        after[discard] -= 1
        hand = Hand(tuple(after), tuple(game.melds[seat]))
        game.declared_waits[seat] = _waits(hand, self.variant)
        game._event("declare", seat=seat, kind="liangdao", waits=[str(t) for t in game.declared_waits[seat]])

    def revealed(self, game, seat: int) -> dict:
        """The declared hand as others see it: concealed triplets may stay hidden (三个的不亮)."""
        counts = list(game.hands[seat])
        drawn = game.last_draw
        if sum(counts) % 3 == 2 and game.current == seat and drawn is not None and counts[drawn]:
            counts[drawn] -= 1  # the tile just drawn stays hidden until it is discarded or won on
        hand = Hand(tuple(counts), tuple(game.melds[seat]))
        n = hand.concealed_count
        current_waits = _waits(hand, self.variant) if n % 3 == 1 else []
        hidden = []
        if self.rules.liangdao_hide_triplets and n % 3 == 1:
            for k in range(30):
                if counts[k] == 3:
                    rest = list(counts)
                    rest[k] -= 3
                    if sum(rest) and _waits(Hand(tuple(rest), hand.melds + (Meld.pong(k),)), self.variant) == current_waits:
                        counts[k] -= 3
                        hidden.append(k)
        from majiang.core.tiles import format_tiles, from_counts
        return {"tiles": format_tiles(from_counts(counts)), "hidden_triplets": len(hidden),
                "waits": [str(t) for t in current_waits]}

    def kong_payments(self, game, seat: int, kind: str, discarder, chain: int, at_once: bool = True) -> list[Payment]:
        unit = self.rules.base * 2 ** (chain - 1)  # 杠上杠: each further kong in a chain doubles
        label = {"concealed_kong": "暗杠", "added_kong": "蓄杠", "kong": "直杠"}[kind]
        detail = f"杠上杠 ×{2 ** (chain - 1)}" if chain > 1 else ""
        each = self.rules.direct_kong_pay if kind == "kong" else (2 if kind == "concealed_kong" else 1)
        amount = each * unit
        if self.rules.cap is not None and amount > self.rules.cap * self.rules.base:
            amount = self.rules.cap * self.rules.base  # 满 caps chained kong money too ("第三杠满")
            detail += " 满"
        if kind == "kong":
            return [Payment(discarder, seat, amount, label, detail)]
        return [Payment(s, seat, amount, label, detail) for s in range(game.n) if s != seat]

    def win_payments(self, game, win) -> list[Payment]:
        base = self.rules.base
        value = win.score.multiplier * base
        fans = " ".join(f.name for f in win.score.fans)
        extras = []  # (reason, amount per share, detail)
        if self.rules.piao:
            extras.append(("漂", 2 * self.rules.piao * base, f"both float {self.rules.piao}"))
        if self.rules.shukan and win.score.concealed_triplets:
            extras.append(("数坎", win.score.concealed_triplets * base, f"{win.score.concealed_triplets} 坎"))
        if self.rules.maima and win.self_draw and game.tiles_left > 0:
            horse = ALL_TILES[game.wall[game.front]]
            points = 10 if horse.is_honour else horse.rank
            game._event("horse", seat=win.seat, tile=str(horse), points=points)
            extras.append(("买马", points * base, f"马 {horse}"))
        if win.self_draw:
            payers, shares, reason = [s for s in range(game.n) if s != win.seat], 1, "自摸"
        elif game.declared[win.seat] and not game.declared[win.discarder]:
            payers, shares, reason = [win.discarder], 2, "包胡"  # both players' shares
        else:
            payers, shares, reason = [win.discarder], 1, "抢杠" if win.robbed_kong else "点炮"
        out = [Payment(p, win.seat, shares * value, reason, fans) for p in payers]
        for why, amount, detail in extras:
            out += [Payment(p, win.seat, shares * amount, why, detail) for p in payers]
        return out

    def draw_settlement(self, game) -> list[Payment]:
        """荒庄: kong money stands; 亮倒 players pay by the ``liangdao_draw_penalty`` option."""
        declared = [s for s in range(game.n) if game.declared[s]]
        base = self.rules.base
        if not declared:
            return []
        if self.rules.liangdao_draw_penalty == "first":
            first = game.declare_order[0]
            return [Payment(first, s, base, "亮倒荒庄", "first to declare pays") for s in range(game.n) if s != first]
        undeclared = [s for s in range(game.n) if not game.declared[s]]
        return [Payment(d, u, base, "亮倒荒庄", "declared pays undeclared") for d in declared for u in undeclared]

    def next_dealer(self, game) -> int:
        if not game.wins and self.rules.liangdao_draw_penalty == "first" and game.declare_order:
            return game.declare_order[0]  # whoever paid the 亮倒 draw penalty deals
        return super().next_dealer(game)


def _waits(hand, variant):
    from majiang.core.analysis import waits
    return waits(hand, variant)
