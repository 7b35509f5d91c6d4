"""What the engine asks of 血战到底: 换三张 and 定缺, 唱歌/跳舞, kong money (刮风下雨), win money
(杠上炮 and 呼叫转移), who leaves after a win (血战, 血流成河), and the draw settlement (查花猪,
查大叫, 退杠)."""

from __future__ import annotations

from majiang.core.analysis import waits
from majiang.core.hand import Hand
from majiang.core.tiles import Tile
from majiang.core.variants import Variant
from majiang.games.base import (
    AfterWins,
    Declaration,
    GamePlay,
    Payment,
    Phase,
    Settlement,
    tile_action,
)
from majiang.games.scoring import Score, WinContext
from majiang.games.sichuan.fans import score_win
from majiang.games.sichuan.tiles import SICHUAN

SUIT_RANGE = {"m": range(0, 9), "p": range(9, 18), "s": range(18, 27)}
_SUIT_OF_KIND = "m" * 9 + "p" * 9 + "s" * 9 + "z" * 3


class SichuanPlay(GamePlay):
    name = "sichuan"
    players = 4

    def winners_play_on(self, game) -> bool:
        return self.rules.blood_river

    @property
    def variant(self) -> Variant:
        return SICHUAN

    def setup_phase(self, game) -> Phase:
        return Phase.EXCHANGE if self.rules.exchange_three else Phase.VOID

    def added_kong_only_at_once(self) -> bool:
        return self.rules.late_added_kong == "forbid"

    def holds_void(self, game, seat: int) -> bool:
        v = game.seats[seat].void
        return v is not None and any(game.seats[seat].counts[k] for k in SUIT_RANGE[v])

    def can_discard(self, game, seat: int, tile: int) -> bool:
        if self.holds_void(game, seat):
            return Tile(tile).suit == game.seats[seat].void
        if self.rules.sing_dance and not game.seats[seat].declared:
            protected = self._dancers_waits(game, seat)
            if tile in protected:  # allowed only when every tile held would deal in
                return all(k in protected for k in range(30) if game.seats[seat].counts[k])
        return True

    def discardable(self, game, seat: int) -> list[int]:
        h = game.seats[seat].counts
        held = [k for k in range(30) if h[k]]
        v = game.seats[seat].void
        if v is not None:
            void_tiles = [k for k in held if _SUIT_OF_KIND[k] == v]
            if void_tiles:
                return void_tiles
        if self.rules.sing_dance and not game.seats[seat].declared:
            protected = self._dancers_waits(game, seat)
            safe = [k for k in held if k not in protected]
            if safe:
                return safe
        return held

    def _dancers_waits(self, game, seat: int) -> set[int]:
        return {int(t) for s in range(game.n) if s != seat and not game.seats[s].out
                and game.seats[s].declared_kind == "dance" for t in game.seats[s].declared_waits}

    def extra_turn_actions(self, game, seat: int) -> list:
        """唱歌 (declare ready, waits hidden) and 跳舞 (declare and reveal the waits)."""
        if not self.rules.sing_dance or game.seats[seat].declared or game.tiles_left == 0:
            return []
        tiles = game.ready_discards(seat)
        return [tile_action(kind, t) for t in tiles for kind in ("sing", "declare")]

    def declare(self, game, seat: int, discard: Tile, kind: str) -> Declaration:
        after = list(game.seats[seat].counts)
        after[discard] -= 1
        hand_waits = waits(Hand(tuple(after), tuple(game.seats[seat].melds)), SICHUAN, game.seats[seat].void)
        shown = [str(t) for t in hand_waits] if kind != "sing" else None
        return Declaration("sing" if kind == "sing" else "dance", hand_waits, shown)

    def revealed(self, game, seat: int) -> dict:
        if game.seats[seat].declared_kind == "dance":
            return {"waits": [str(t) for t in game.seats[seat].declared_waits]}
        return {"ready": True}

    def can_claim_tile(self, game, seat: int, tile: int) -> bool:
        return _SUIT_OF_KIND[tile] != game.seats[seat].void

    def score(self, hand: Hand, tile: Tile, ctx: WinContext) -> Score:
        return score_win(hand, tile, ctx, self.rules)

    def must_win(self, game, seat: int) -> bool:
        return self.rules.last_four_must_win

    def pass_allows_bigger(self, game) -> bool:
        return self.rules.pass_win_unless_more

    def earthly_on_discard(self) -> bool:
        return self.rules.earthly == "first_round"

    def _payers(self, game, seat: int) -> list[int]:
        return [s for s in range(game.n) if s != seat and not game.seats[s].out]

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

    def win_payments(self, game, win) -> Settlement:
        base = self.rules.base
        value = win.score.multiplier * base
        fans = " ".join(f.name for f in win.score.fans)
        if win.self_draw:
            bonus = base if self.rules.self_draw_bonus == "base" else 0
            return Settlement([Payment(s, win.seat, value + bonus, "自摸", fans + (" 自摸加底" if bonus else ""))
                               for s in self._payers(game, win.seat)])
        out = [Payment(win.discarder, win.seat, value, "抢杠" if win.robbed_kong else "点炮", fans)]
        if not win.robbed_kong and game.discard_chain > 0:
            kong = next((k for k in reversed(game.kongs) if k.seat == win.discarder), None)
            if kong is not None and not kong.settled:
                return Settlement(out + self._gangshangpao(game, win, kong), settles=[kong])
        return Settlement(out)

    def _gangshangpao(self, game, win, kong) -> list[Payment]:
        """杠上炮: the discarder's last kong money is refunded, or (呼叫转移) passed to the winner."""
        received = [p for p in kong.payments if p.payee == win.discarder]
        if self.rules.call_transfer:
            total = sum(p.amount for p in received)
            return [Payment(win.discarder, win.seat, total, "呼叫转移", "杠上炮: kong money to the winner")]
        return [Payment(win.discarder, p.payer, p.amount, "退杠", "杠上炮: kong money refunded")
                for p in received if not game.seats[p.payer].out or p.payer == win.seat]

    def after_wins(self, game, wins) -> AfterWins:
        if not self.rules.blood_battle:
            return AfterWins(False)
        if self.rules.blood_river:
            return AfterWins(True)  # 血流成河: everyone plays on until the wall is empty
        leave = tuple(w.seat for w in wins)
        staying = [s for s in game.active_seats() if s not in leave]
        return AfterWins(len(staying) >= 2, leave)

    def is_pig(self, game, seat: int) -> bool:
        """花猪: still holding tiles of three suits (that is, of the void suit) at the draw."""
        suits = {Tile(k).suit for k in range(27) if game.seats[seat].counts[k]} \
            | {m.tile.suit for m in game.seats[seat].melds}
        return len(suits) == 3 or self.holds_void(game, seat)

    def best_ready_value(self, game, seat: int) -> int:
        """查大叫: the highest value the ready hand could win (0 if not ready)."""
        hand = game.hand(seat)
        if hand.concealed_count % 3 != 1:
            return 0
        best = 0
        for t in waits(hand, SICHUAN, game.seats[seat].void):
            s = score_win(hand, t, WinContext(void=game.seats[seat].void), self.rules)
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
            if k.seat in ready or game.seats[k.seat].out or k.settled:
                continue
            for p in k.payments:
                if p.payee == k.seat and not game.seats[p.payer].out:
                    out.append(Payment(k.seat, p.payer, p.amount, "退杠", "not ready at the draw"))
        return out
