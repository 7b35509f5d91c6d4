"""What the engine asks of 卡五星: 亮倒 and what it reveals, kong and win money (包胡, 漂, 数坎, 买马),
the drawn-deal penalties, and who deals next."""

from __future__ import annotations

from majiang.core.analysis import waits
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import ALL_TILES, Tile, format_tiles, from_counts
from majiang.core.variants import Variant
from majiang.games.base import (
    Action,
    Declaration,
    GamePlay,
    Payment,
    Settlement,
    tile_action,
)
from majiang.games.kawuxing.fans import score_win, variant_for
from majiang.games.scoring import Score, WinContext


class KawuxingPlay(GamePlay):
    name = "kawuxing"
    players = 3
    last_draw_discarded = True  # 海底: the last tile drawn is discarded itself

    def added_kong_only_at_once(self) -> bool:
        return True  # 蓄杠 only on drawing the fourth tile

    def kong_chain_spans_players(self) -> bool:
        return True  # "如果A杠后打出的牌被别人杠…第二杠要翻倍": another player's kong continues the chain

    @property
    def variant(self) -> Variant:
        return variant_for(self.rules)

    def score(self, hand: Hand, tile: Tile, ctx: WinContext) -> Score:
        return score_win(hand, tile, ctx, self.rules)

    def pass_allows_bigger(self, game) -> bool:
        return self.rules.louhu_unless_more

    def extra_turn_actions(self, game, seat: int) -> list[Action]:
        """亮倒: discard a tile so that the rest is ready, and reveal."""
        if game.seats[seat].declared or game.tiles_left == 0:
            return []
        return [tile_action("declare", t) for t in game.ready_discards(seat)]

    def declare(self, game, seat: int, discard: Tile, kind: str) -> Declaration:
        after = list(game.seats[seat].counts)
        after[discard] -= 1
        hand_waits = _waits(Hand(tuple(after), tuple(game.seats[seat].melds)), self.variant)
        return Declaration("liangdao", hand_waits, [str(t) for t in hand_waits])

    def revealed(self, game, seat: int) -> dict:
        """The declared hand as others see it: concealed triplets may stay hidden (三个的不亮)."""
        counts = list(game.seats[seat].counts)
        drawn = game.last_draw
        if sum(counts) % 3 == 2 and game.current == seat and drawn is not None and counts[drawn]:
            counts[drawn] -= 1  # the tile just drawn stays hidden until it is discarded or won on
        # every frame of every seat shows it: worked out once per hand state, not per view
        cache = game.caches.setdefault("revealed", {})
        key = (seat, tuple(counts), len(game.seats[seat].melds))
        found = cache.get(key)
        if found is None:
            if len(cache) > 64:
                cache.clear()
            found = cache[key] = self._revealed(game, seat, counts)
        return {**found, "waits": list(found["waits"])}

    def _revealed(self, game, seat: int, counts: list[int]) -> dict:
        hand = Hand(tuple(counts), tuple(game.seats[seat].melds))
        n = hand.concealed_count
        current_waits = _waits(hand, self.variant) if n % 3 == 1 else []
        hidden = []
        if self.rules.liangdao_hide_triplets and n % 3 == 1:
            for k in range(30):
                if counts[k] == 3:
                    rest = list(counts)
                    rest[k] -= 3
                    if sum(rest) and _waits(Hand(tuple(rest), hand.melds + (Meld.pong(k),)),
                                            self.variant) == current_waits:
                        counts[k] -= 3
                        hidden.append(k)
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

    def win_payments(self, game, win) -> Settlement:
        base = self.rules.base
        value = win.score.multiplier * base
        fans = " ".join(f.name for f in win.score.fans)
        extras = []  # (reason, amount per share, detail)
        events = []
        if self.rules.piao:
            extras.append(("漂", 2 * self.rules.piao * base, f"both float {self.rules.piao}"))
        if self.rules.shukan and win.score.concealed_triplets:
            extras.append(("数坎", win.score.concealed_triplets * base, f"{win.score.concealed_triplets} 坎"))
        if self.rules.maima and win.self_draw and game.tiles_left > 0:
            horse = ALL_TILES[game.wall[game.front]]
            points = 10 if horse.is_honour else horse.rank
            events.append({"type": "horse", "seat": win.seat, "tile": str(horse), "points": points})
            extras.append(("买马", points * base, f"马 {horse}"))
        if win.self_draw:
            payers, shares, reason = [s for s in range(game.n) if s != win.seat], 1, "自摸"
        elif game.seats[win.seat].declared and not game.seats[win.discarder].declared:
            payers, shares, reason = [win.discarder], 2, "包胡"  # both players' shares
        else:
            payers, shares, reason = [win.discarder], 1, "抢杠" if win.robbed_kong else "点炮"
        out = [Payment(p, win.seat, shares * value, reason, fans) for p in payers]
        for why, amount, detail in extras:
            out += [Payment(p, win.seat, shares * amount, why, detail) for p in payers]
        return Settlement(out, events)

    def draw_settlement(self, game) -> list[Payment]:
        """荒庄: kong money stands; 亮倒 players pay by the ``liangdao_draw_penalty`` option."""
        declared = [s for s in range(game.n) if game.seats[s].declared]
        base = self.rules.base
        if not declared:
            return []
        if self.rules.liangdao_draw_penalty in ("first", "first_pays"):
            first = game.declare_order[0]
            return [Payment(first, s, base, "亮倒荒庄", "first to declare pays") for s in range(game.n) if s != first]
        undeclared = [s for s in range(game.n) if not game.seats[s].declared]
        return [Payment(d, u, base, "亮倒荒庄", "declared pays undeclared") for d in declared for u in undeclared]

    def first_dealer_seat(self) -> int | None:
        return 0 if self.rules.first_dealer == "east" else None

    def next_dealer(self, game) -> int:
        if not game.wins and self.rules.liangdao_draw_penalty == "first" and game.declare_order:
            return game.declare_order[0]  # whoever paid the 亮倒 draw penalty deals
        return super().next_dealer(game)


def _waits(hand, variant):
    return waits(hand, variant)
