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
from majiang.games.scoring import NO_WIN_SICHUAN, Fan, Score, WinContext, merge_fans
from majiang.core.tiles import Tile
from majiang.core.variants import SICHUAN, Variant

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
    sets = list(reading.sets) + [("triplet", int(m.tile)) for m in full.melds]
    all_triplets = all(kind == "triplet" for kind, _ in sets)
    if all_triplets:
        jiang = all(t % 9 + 1 in (2, 5, 8) for _, t in sets) and int(reading.pair) % 9 + 1 in (2, 5, 8)
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
    yaojiu = all(_is_terminal_set(kind, int(t)) for kind, t in sets) and int(reading.pair) % 9 + 1 in (1, 9)
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
    if ctx.after_kong and ctx.self_draw:
        fans.append(_fan("杠上花", rules.gangshanghua_fan))
    elif ctx.after_kong:
        fans.append(_fan("杠上炮"))
    if ctx.robbed_kong:
        fans.append(_fan("抢杠"))
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


# ---------------------------------------------------------------------------------------------
# Play: what the engine asks of Sichuan.

from majiang.engine.game import Payment, VariantPlay  # noqa: E402  (engine imports this module lazily)

SUIT_RANGE = {"m": range(0, 9), "p": range(9, 18), "s": range(18, 27)}
_SUIT_OF_KIND = "m" * 9 + "p" * 9 + "s" * 9 + "z" * 3


class SichuanPlay(VariantPlay):
    name = "sichuan"
    players = 4

    def winners_play_on(self, game) -> bool:
        return self.rules.blood_river

    @property
    def variant(self) -> Variant:
        return SICHUAN

    def setup_phase(self, game) -> str:
        return "exchange" if self.rules.exchange_three else "void"

    def holds_void(self, game, seat: int) -> bool:
        v = game.void[seat]
        return v is not None and any(game.hands[seat][k] for k in SUIT_RANGE[v])

    def can_discard(self, game, seat: int, tile: int) -> bool:
        if self.holds_void(game, seat):
            return Tile(tile).suit == game.void[seat]
        if self.rules.sing_dance and not game.declared[seat]:
            protected = self._dancers_waits(game, seat)
            if tile in protected:  # allowed only when every tile held would deal in
                return all(k in protected for k in range(30) if game.hands[seat][k])
        return True

    def discardable(self, game, seat: int) -> list[int]:
        h = game.hands[seat]
        held = [k for k in range(30) if h[k]]
        v = game.void[seat]
        if v is not None:
            void_tiles = [k for k in held if _SUIT_OF_KIND[k] == v]
            if void_tiles:
                return void_tiles
        if self.rules.sing_dance and not game.declared[seat]:
            protected = self._dancers_waits(game, seat)
            safe = [k for k in held if k not in protected]
            if safe:
                return safe
        return held

    def _dancers_waits(self, game, seat: int) -> set[int]:
        return {int(t) for s in range(game.n) if s != seat and not game.out[s]
                and game.declared_kind[s] == "dance" for t in game.declared_waits[s]}

    def extra_turn_actions(self, game, seat: int) -> list:
        """唱歌 (declare ready, waits hidden) and 跳舞 (declare and reveal the waits)."""
        if not self.rules.sing_dance or game.declared[seat] or game.tiles_left == 0:
            return []
        from majiang.engine.game import tile_action
        tiles = game.ready_discards(seat)
        return [tile_action(kind, t) for t in tiles for kind in ("sing", "declare")]

    def declare(self, game, seat: int, discard: Tile, kind: str) -> None:
        game.declared[seat] = True
        game.declared_kind[seat] = "sing" if kind == "sing" else "dance"
        after = list(game.hands[seat])
        after[discard] -= 1
        from majiang.core.analysis import waits
        game.declared_waits[seat] = waits(Hand(tuple(after), tuple(game.melds[seat])), SICHUAN, game.void[seat])
        shown = [str(t) for t in game.declared_waits[seat]] if kind != "sing" else None
        game._event("declare", seat=seat, kind=game.declared_kind[seat], waits=shown)

    def revealed(self, game, seat: int) -> dict:
        if game.declared_kind[seat] == "dance":
            return {"waits": [str(t) for t in game.declared_waits[seat]]}
        return {"ready": True}

    def can_claim_tile(self, game, seat: int, tile: int) -> bool:
        return _SUIT_OF_KIND[tile] != game.void[seat]

    def score(self, hand: Hand, tile: Tile, ctx: WinContext) -> Score:
        return score_win(hand, tile, ctx, self.rules)

    def must_win(self, game, seat: int) -> bool:
        return self.rules.last_four_must_win

    def pass_allows_bigger(self, game) -> bool:
        return self.rules.pass_win_unless_more

    def earthly_on_discard(self) -> bool:
        return self.rules.earthly == "first_round"

    def _payers(self, game, seat: int) -> list[int]:
        return [s for s in range(game.n) if s != seat and not game.out[s]]

    def kong_payments(self, game, seat: int, kind: str, discarder, chain: int, at_once: bool = True) -> list[Payment]:
        if not self.rules.kong_money:
            return []
        if kind == "added_kong" and not at_once and self.rules.late_added_kong == "none":
            return []  # 未即时加杠的不收取分数
        base = self.rules.base
        if kind == "kong":
            return [Payment(discarder, seat, self.rules.direct_kong_pay * base, "点杠", "刮风")]
        if kind == "concealed_kong":
            return [Payment(s, seat, 2 * base, "暗杠", "下雨") for s in self._payers(game, seat)]
        return [Payment(s, seat, base, "加杠", "刮风") for s in self._payers(game, seat)]

    def win_payments(self, game, win) -> list[Payment]:
        base = self.rules.base
        value = win.score.multiplier * base
        fans = " ".join(f.name for f in win.score.fans)
        if win.self_draw:
            bonus = base if self.rules.self_draw_bonus == "base" else 0
            return [Payment(s, win.seat, value + bonus, "自摸", fans + (" 自摸加底" if bonus else ""))
                    for s in self._payers(game, win.seat)]
        out = [Payment(win.discarder, win.seat, value, "抢杠" if win.robbed_kong else "点炮", fans)]
        if not win.robbed_kong and game.discard_chain > 0:
            out += self._gangshangpao(game, win)
        return out

    def _gangshangpao(self, game, win) -> list[Payment]:
        """杠上炮: the discarder's last kong money is refunded, or (呼叫转移) passed to the winner."""
        kong = next((k for k in reversed(game.kongs) if k.seat == win.discarder), None)
        if kong is None or kong.settled:
            return []
        kong.settled = True
        received = [p for p in kong.payments if p.payee == win.discarder]
        if self.rules.call_transfer:
            total = sum(p.amount for p in received)
            return [Payment(win.discarder, win.seat, total, "呼叫转移", "杠上炮: kong money to the winner")]
        return [Payment(win.discarder, p.payer, p.amount, "退杠", "杠上炮: kong money refunded")
                for p in received if not game.out[p.payer] or p.payer == win.seat]

    def after_wins(self, game, wins) -> bool:
        if not self.rules.blood_battle:
            return False
        if self.rules.blood_river:
            return True  # 血流成河: everyone plays on until the wall is empty
        for w in wins:
            game.out[w.seat] = True
        return len(game.active_seats()) >= 2

    def is_pig(self, game, seat: int) -> bool:
        """花猪: still holding tiles of three suits (that is, of the void suit) at the draw."""
        suits = {Tile(k).suit for k in range(27) if game.hands[seat][k]} | {m.tile.suit for m in game.melds[seat]}
        return len(suits) == 3 or self.holds_void(game, seat)

    def best_ready_value(self, game, seat: int) -> int:
        """查大叫: the highest value the ready hand could win (0 if not ready)."""
        hand = game.hand(seat)
        if hand.concealed_count % 3 != 1:
            return 0
        from majiang.core.analysis import waits
        best = 0
        for t in waits(hand, SICHUAN, game.void[seat]):
            s = score_win(hand, t, WinContext(void=game.void[seat]), self.rules)
            if s.win:
                best = max(best, s.multiplier * self.rules.base)
        return best

    def draw_settlement(self, game) -> list[Payment]:
        active = game.active_seats()
        if len(active) < 2:
            return []
        out: list[Payment] = []
        pigs = [s for s in active if self.is_pig(game, s)]
        pig_fine = self.rules.flower_pig_penalty * self.rules.base
        for p in pigs:
            for s in active:
                if s not in pigs:
                    out.append(Payment(p, s, pig_fine, "花猪", "查花猪"))
        values = {s: self.best_ready_value(game, s) for s in active if s not in pigs}
        ready = [s for s, v in values.items() if v > 0]
        not_ready = [s for s, v in values.items() if v == 0]
        for n in not_ready:
            for r in ready:
                out.append(Payment(n, r, values[r], "大叫", "查大叫"))
        for k in game.kongs:
            if k.seat in ready or game.out[k.seat] or k.settled:
                continue
            for p in k.payments:
                if p.payee == k.seat and not game.out[p.payer]:
                    out.append(Payment(k.seat, p.payer, p.amount, "退杠", "not ready at the draw"))
        return out
