"""``strong``'s sense of value: plans (清一色, 七对, 对对胡, 卡五星, 根), the race to a win, and
the expected value of 亮倒/唱歌/跳舞 and kongs from a small model of the rest of the hand."""

from __future__ import annotations

import math

from majiang.bots.base import SeatView, after_kong, suit_counts
from majiang.core.analysis import waits
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import ALL_TILES, Tile
from majiang.engine import Action
from majiang.games import get_game
from majiang.games.scoring import WinContext, score


class Value:

    def _value_bias(self, view: SeatView, counts, k: int) -> float:
        """Bonus for discarding ``k`` given the big hands the rest of the hand points to."""
        bonus = 0.0
        suits = {s: n for s, n in suit_counts(counts).items() if s != view.void}
        total = sum(counts)
        main = max(suits, key=suits.get) if suits else None
        if main is not None and not ALL_TILES[k].is_honour:
            melds_off = any(m.tile.suit != main for m in view.melds)
            if suits[main] >= total * 0.6 and not melds_off:  # heading for 清一色
                bonus += 1.5 if ALL_TILES[k].suit != main else -0.5
        if k >= 27 and counts[k] == 1:
            bonus += 0.5  # a lone dragon rarely helps
        pairs = sum(1 for c in counts if c >= 2)
        if counts[k] >= 2:
            # 七对 / 对对胡 / 根 potential: worth a lot in Sichuan, where each 番 doubles the value
            bonus -= (3.0 if view.fans_add else 1.0) * (1.5 if pairs >= 4 else 1.0)
        if "卡五星" in view.fans and k < 27 and k % 9 in (3, 5) and counts[k - 1 if k % 9 == 5 else k + 1] == 0:
            # keep 4_6 shapes that could become 卡五星
            if counts[k + 2 if k % 9 == 3 else k - 2]:
                bonus -= 0.7
        if counts[k] >= 3:
            bonus -= 0.5  # a 根 or 坎 in the making
        return bonus

    def _plan_shanten(self, view: SeatView, counts, melds=None, s: int | None = None) -> float:
        """Shanten lowered by the value of the best plan the hand can still follow.

        A plan with value V at shanten s is worth about w^s * V, where w (the chance of closing one
        step before the hand ends) falls as the wall empties; in shanten units that is
        s - log V / log(1/w). Plans: plain (the usual shanten, seven pairs included), 七对, and
        清一色 in each suit the melds allow. Kawuxing values come from ``_value_bias`` instead.
        """
        melds = view.melds if melds is None else melds
        if s is None:
            s = view.shanten(counts, melds)
        if not view.fans_add:
            return float(s)
        unit = math.log(1.0 / self._step_chance(view))
        best = s - math.log(self.plan_values["plain"]) / unit
        if not melds:
            pairs = sum(c // 2 for c in counts)
            best = min(best, 6 - min(7, pairs) - math.log(self.plan_values["pairs"]) / unit)
        meld_suits = {m.tile.suit for m in melds}
        for i, suit in enumerate("mps"):
            if suit == view.void or (meld_suits and meld_suits != {suit}):
                continue
            part = counts[i * 9:i * 9 + 9]
            if sum(part) < 7:
                continue  # too far from a flush to matter
            one_suit = [0] * 30
            one_suit[i * 9:i * 9 + 9] = part
            best = min(best, view.shanten(one_suit, melds) - math.log(self.plan_values["flush"]) / unit)
        return best


    # -- expected values: 亮倒 and kongs -------------------------------------------------------
    # A plain model of the rest of the hand, in base units per hand: each of our draws wins with
    # chance live/unseen; each opponent discard feeds a wait with a fraction of that chance (far
    # less once the waits are shown); in Kawuxing the hand also ends when another player wins
    # (about 4% per opponent turn). A hand s steps from ready wins about w^s as often as a ready
    # one with a typical wait, for a typical value (the mean winning value in the arena).
    # the mean winning value is the game's (``GameSpec.bots["strong"]["typical_value"]``); a
    # declared hand frozen into a loss costs the 亮倒 game's (measured in 卡五星, used wherever one declares)
    FROZEN_LOSS_VALUE = 2.8
    TYPICAL_LIVE = 5
    FEED = 0.5  # how often an opponent lets go of a hidden wait, relative to its share of the unseen
    FEED_SHOWN = 0.05  # ... and of a revealed one (only when nothing else can be discarded)
    OTHER_WIN = 0.04  # chance per turn that a given opponent wins (Kawuxing: ends the hand)

    @staticmethod
    def _typical_value(view: SeatView) -> float:
        return get_game(view.obs["variant"]).bots["strong"]["typical_value"]

    @staticmethod
    def _step_chance(view: SeatView) -> float:
        """w: the chance that a hand closes one step of shanten before the hand ends."""
        return 0.25 + 0.25 * min(1.0, view.tiles_left / 55.0)

    def _race(self, view: SeatView, unseen, live: int, shown: bool = False,
              extra_draws: int = 0, lose: float = 0.0) -> tuple[float, float, float, float, float]:
        """For a ready hand with ``live`` winning tiles unseen: the chances that it self-draws,
        that it wins on a discard, that nobody wins before the wall ends, the expected number of
        turns it stays in play, and (``lose``: the chance per turn that its own draw must go out
        into another seat's win, for a frozen 亮倒 hand) that it deals in first."""
        active = len(view.opponents()) + 1
        draws = view.tiles_left / active + extra_draws
        p = live / max(1, sum(unseen))
        h_self = p
        h_ron = (active - 1) * p * (self.FEED_SHOWN if shown else self.FEED)
        h_other = 0.0 if view.has.blood_battle else self.OTHER_WIN * (active - 1)
        rates = h_self + h_ron + h_other + lose
        total = min(0.95, rates)
        if draws <= 0:
            return 0.0, 0.0, 1.0, 0.0, 0.0
        if total <= 0:
            return 0.0, 0.0, 1.0, draws, 0.0
        reach = 1.0 - (1.0 - total) ** draws
        scale = reach / rates
        return scale * h_self, scale * h_ron, 1.0 - reach, reach / total, scale * lose

    frozen = 0.0  # how much of the deal-ins a frozen 亮倒 hand cannot avoid is priced (``_frozen_risk``)

    def _frozen_risk(self, view: SeatView, unseen) -> float:
        """The chance per turn that a frozen (declared) Kawuxing hand draws another declared seat's
        live wait, which it must then discard into that seat's win (an ordinary 点炮 of a 亮倒 hand:
        about twice a typical win). A hidden hand keeps such a tile instead."""
        total = max(1, sum(unseen))
        live = 0
        for p in view.opponents():
            for w in (p.get("revealed") or {}).get("waits") or ():
                if p["declared"] == "liangdao":
                    live += unseen[int(Tile.parse(w))]
        return live / total

    def _exposure(self, view: SeatView, turns: float) -> float:
        """What staying in a Sichuan hand costs: other players' self-draws, paid until one's own
        win takes one out of the hand."""
        if not view.has.blood_battle:
            return 0.0  # the hand ends at the first win: nothing to wait out
        return turns * len(view.opponents()) * self.OTHER_WIN * self._typical_value(view)

    def _wait_values(self, view: SeatView, counts, melds, declared: bool = False) -> list[tuple[int, int, int]]:
        """(wait, self-draw value, discard value) per payer for each wait of a ready hand."""
        hand = Hand(tuple(counts), tuple(melds))
        out = []
        for w in waits(hand, view.variant, view.void):
            own = score(hand, w, WinContext(self_draw=True, declared=declared, void=view.void), view.rules)
            ron = score(hand, w, WinContext(self_draw=False, declared=declared, void=view.void), view.rules)
            out.append((int(w), own.multiplier if own.win else 0, ron.multiplier if ron.win else 0))
        return out

    def _ready_ev(self, view: SeatView, unseen, counts, melds, kind: str | None = None,
                  extra_draws: int = 0) -> float:
        """Expected winnings of a ready hand (13 tiles, or fewer with melds); ``kind`` the
        declaration it would make now (``declare`` shows the waits), if any."""
        declared = kind is not None and view.has.open_hand  # 亮倒 doubles the win
        values = self._wait_values(view, counts, melds, declared)
        live = sum(unseen[w] for w, _, _ in values)
        lose = self._frozen_risk(view, unseen) if kind == "declare" and self.frozen else 0.0
        p_self, p_ron, p_none, turns, p_lose = self._race(view, unseen, live, kind == "declare", extra_draws, lose)
        gain = -self._exposure(view, turns) - p_lose * self.frozen * self.FROZEN_LOSS_VALUE
        if live:
            own = sum(unseen[w] * v for w, v, _ in values) / live
            ron = sum(unseen[w] * v for w, _, v in values) / live
            shares = 2 if declared else 1  # 包胡: an undeclared discarder pays both shares
            gain += p_self * len(view.opponents()) * own + p_ron * shares * ron
        if declared:  # 亮倒荒庄: the declared hand pays if nobody wins
            undeclared = sum(1 for p in view.opponents() if not p["declared"])
            gain -= p_none * (undeclared if view.rules.liangdao_draw_penalty == "count" else len(view.opponents()))
        return gain

    def _hand_ev(self, view: SeatView, unseen, counts, melds, extra_draws: int = 0) -> float:
        """Expected winnings of a hand that is waiting for a draw (13 tiles, less three per meld)."""
        s = view.shanten(counts, melds)
        if s <= 0:
            return self._ready_ev(view, unseen, counts, melds, extra_draws=extra_draws)
        p_self, p_ron, _, turns, _ = self._race(view, unseen, self.TYPICAL_LIVE, extra_draws=extra_draws)
        typical = (p_self * len(view.opponents()) + p_ron) * self._typical_value(view)
        chance = self._step_chance(view) ** s
        # a hand that never gets there stays to the end of a Sichuan hand, paying others' self-draws
        stay = chance * turns + (1.0 - chance) * view.tiles_left / (len(view.opponents()) + 1)
        return typical * chance - self._exposure(view, stay)

    def _turn_ev(self, view: SeatView, unseen, counts, melds) -> float:
        """Expected winnings of a hand holding a drawn tile, after its best discard."""
        best_s = view.shanten(counts, melds)  # of a 3n+2 hand: that of its best discard
        best = -math.inf  # (a Sichuan hand's value can be negative: the others' self-draws)
        for k in range(30):
            if counts[k]:
                counts[k] -= 1
                keeps = view.shanten(counts, melds) == best_s
                if keeps:
                    best = max(best, self._hand_ev(view, unseen, counts, melds))
                counts[k] += 1
                if keeps and best_s > 0:
                    break  # every discard at that shanten gets the same typical value
        return best

    def _kong_money(self, view: SeatView, kind: str) -> float:
        """What a kong pays at once, in base units (a Sichuan kong maker who is not ready when the
        wall runs out gives it back, hence the discount there)."""
        rules = view.rules
        if not getattr(rules, "kong_money", True):
            return 0.0
        payers = len(view.opponents())
        money = {"kong": rules.direct_kong_pay, "concealed_kong": 2 * payers, "added_kong": payers}[kind]
        return money * (0.85 if view.has.blood_battle else 1.0)

    def _kong_gain(self, view: SeatView, unseen, a: Action, danger) -> float:
        """What making kong ``a`` adds to the expected result of the hand."""
        if a.type == "kong":  # on a discard: against letting it go
            after = list(view.counts)
            after[a.tile] -= 3
            melds = view.melds + [Meld.kong(a.tile)]
            before = self._hand_ev(view, unseen, view.counts, view.melds)
        else:
            after, melds = after_kong(view, a)
            before = self._turn_ev(view, unseen, list(view.counts), view.melds)
        gain = self._kong_money(view, a.type) + self._hand_ev(view, unseen, after, melds, extra_draws=1) - before
        if a.type == "added_kong":  # 抢杠: someone waiting on the tile wins on it instead
            rob = min(1.0, danger[a.tile] * 0.15)
            gain -= rob * (self._kong_money(view, a.type) + 2 * self._typical_value(view))
        return gain
