"""Agents: each sees only its own seat's observation (``Game.observation``) and returns one of the
legal actions. Nothing here reads the game state directly.

``random``  a uniformly random legal action.
``greedy``  wins when it can, otherwise keeps the best shanten (ties: the most useful tiles);
            claims a pong or kong only when it does not slow the hand; picks the void suit with
            the fewest tiles, passes three of its weakest suit, declares 亮倒 whenever ready.
``strong``  plays for value (清一色, 七对, 对对胡, 卡五星, 根), counts unseen tiles (effective
            tiles of each discard), defends against revealed hands (亮倒, 跳舞), void suits and
            late-game threats, folds hopeless Kawuxing hands, decides 亮倒 (唱歌/跳舞) and kongs
            by expected value (kong money and the hand's value against the change in its chance
            of winning, from a small model of the rest of the hand), and between close discards
            looks ahead by sampling the unseen tiles (determinised Monte Carlo) within a
            per-move budget of work, not time, so a seed replays the same on any machine. Its
            weights differ per game (see
            ``StrongAgent.WEIGHTS``): Sichuan blood battle is a race where speed and safety pay
            more than size, and a Sichuan hand not ready at the draw pays 查大叫, so it never folds.
``cmd:…``   an external program speaking the JSON-lines protocol (``majiang.botproto``).
"""

from __future__ import annotations

import math
import random
import time
from typing import Protocol

from majiang.core.analysis import shanten_counts, waits
from majiang.engine.game import Action, Game
from majiang.core.hand import Hand, Meld, MeldKind
from majiang.games.rules import rules_from_json
from majiang.games.scoring import WinContext, score
from majiang.core.tiles import ALL_TILES, Tile, parse_tiles, to_counts


class Agent(Protocol):
    name: str

    def act(self, obs: dict, legal: list[Action]) -> Action: ...


class RandomAgent:
    name = "random"
    needs_observation = False  # play_hand may pass None: it only looks at the legal actions

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: dict, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


_VARIANT_CACHE: dict = {}


class SeatView:
    """What one seat knows, decoded from its observation once per decision."""

    def __init__(self, obs: dict) -> None:
        self.obs = obs
        self.seat = seat = obs["seat"]
        key = tuple(sorted((k, str(v)) for k, v in obs["rules"].items()))
        if key not in _VARIANT_CACHE:
            from majiang.engine.game import play_for
            rules = rules_from_json(obs["rules"])
            _VARIANT_CACHE[key] = (rules, play_for(rules).variant)
        self.rules, self.variant = _VARIANT_CACHE[key]
        self.sichuan = obs["variant"] == "sichuan"
        me = obs["players"][seat]
        self.counts = to_counts(parse_tiles(me["hand"]))
        self.melds = [Meld.from_json(m) for m in me["melds"]]
        self.void = me["void"]
        self.phase = obs["phase"]
        self.tiles_left = obs["tiles_left"]
        ld = obs.get("last_discard")
        self.last_discard = Tile.parse(ld["tile"]) if ld else None
        self.caps = None
        if self.melds:
            self.caps = [4] * 30
            for m in self.melds:
                self.caps[m.tile] -= m.size
        self.meld_suits = "".join(sorted({m.tile.suit for m in self.melds})) if self.sichuan else ""

    def shanten(self, counts, melds=None) -> int:
        melds = self.melds if melds is None else melds
        caps = self.caps
        if melds is not self.melds:
            caps = [4] * 30 if melds else None
            for m in melds:
                caps[m.tile] -= m.size
        suits = "".join(sorted({m.tile.suit for m in melds})) if self.sichuan else ""
        return shanten_counts(counts, self.variant, 4 - len(melds), self.void, caps,
                              seven_pairs=not melds, meld_suits=suits)

    def seen(self) -> list[int]:
        """Copies of each kind this seat can see: own hand, every meld, discards, revealed tiles."""
        seen = list(self.counts)
        for p in self.obs["players"]:
            for m in p["melds"]:
                if m["tile"] is not None:
                    seen[Tile.parse(m["tile"])] += 4 if m["kind"] != "pong" else 3
            for t, claimed in zip(p["discards"], p["claimed"]):
                if not claimed:
                    seen[Tile.parse(t)] += 1
            for t in p.get("won_tiles", ()):
                seen[Tile.parse(t)] += 1
        return seen

    def unseen(self) -> list[int]:
        return [max(0, 4 - c) for c in self.seen()]

    def opponents(self) -> list[dict]:
        return [p for p in self.obs["players"] if p["seat"] != self.seat and not p["out"]]


def _isolation(counts, k: int) -> int:
    """Higher is more useful: neighbours and copies make a tile worth keeping."""
    score = counts[k] * 3
    if k < 27:
        r = k % 9
        for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= r + d <= 8:
                score += w * min(counts[k + d], 1)
        if r in (0, 8):
            score -= 1
    return score


def _suit_counts(counts) -> dict[str, int]:
    return {s: sum(counts["mps".index(s) * 9:"mps".index(s) * 9 + 9]) for s in "mps"}


def _exchange_pick(counts, legal: list[Action]) -> Action:
    """换三张: three tiles of the weakest suit that has three."""
    sc = _suit_counts(counts)
    suit = min((s for s in "mps" if sc[s] >= 3), key=lambda s: (sc[s], s))
    options = [a for a in legal if a.tiles[0].suit == suit]
    return min(options, key=lambda a: sum(_isolation(counts, t) for t in a.tiles))


def _void_pick(counts) -> Action:
    sc = _suit_counts(counts)
    return Action("void", suit=min("mps", key=lambda s: (sc[s], s)))


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: dict, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "win" in types:
            return next(a for a in legal if a.type == "win")
        view = SeatView(obs)
        if "exchange" in types:
            return _exchange_pick(view.counts, legal)
        if "void" in types:
            return _void_pick(view.counts)
        if view.phase in ("claim", "rob"):
            return self._claim_decision(view, legal)
        return self._turn(view, legal)

    def _claim_decision(self, view: "SeatView", legal: list[Action]) -> Action:
        return self._claim(view, legal)

    def _turn(self, view: "SeatView", legal: list[Action]) -> Action:
        counts = view.counts
        current = None
        for a in legal:
            if a.type in ("concealed_kong", "added_kong"):
                if current is None:
                    current = view.shanten(counts)
                after, melds = _after_kong(view, a)
                if view.shanten(after, melds) <= current:
                    return a
        discards = [a for a in legal if a.type == "discard"]
        declares = {a.tile: a for a in legal if a.type == "declare"}
        best = self._best_discard(view, discards)
        return declares.get(best.tile, best)

    def _best_discard(self, view: SeatView, discards: list[Action]) -> Action:
        counts = view.counts
        scored = []
        for a in discards:
            k = a.tile
            counts[k] -= 1
            s = view.shanten(counts)
            counts[k] += 1
            scored.append((s, _isolation(counts, k), self.rng.random(), a))
        scored.sort(key=lambda x: x[:3])
        return scored[0][3]

    def _claim(self, view: SeatView, legal: list[Action]) -> Action:
        pass_action = next((a for a in legal if a.type == "pass"), legal[0])
        t = view.last_discard
        counts = view.counts
        before = view.shanten(counts)
        for a in legal:
            if a.type == "kong":
                after = list(counts)
                after[t] -= 3
                if view.shanten(after, view.melds + [Meld.kong(t)]) <= before:
                    return a
        for a in legal:
            if a.type == "pong":
                after = list(counts)
                after[t] -= 2
                if view.shanten(after, view.melds + [Meld.pong(t)]) < before:
                    return a
        return pass_action


def _after_kong(view: SeatView, a: Action):
    after = list(view.counts)
    if a.type == "concealed_kong":
        after[a.tile] -= 4
        melds = view.melds + [Meld.concealed_kong(a.tile)]
    else:
        after[a.tile] -= 1
        melds = [Meld.kong(m.tile, added=True) if (m.tile == a.tile and m.kind is MeldKind.PONG) else m
                 for m in view.melds]
    return after, melds


class StrongAgent(GreedyAgent):
    """Value, defence and sampled look-ahead on top of greedy shanten play."""

    name = "strong"

    def __init__(self, seed: int = 0, work: int = 1200, samples: int = 24, budget_ms: float | None = None) -> None:
        """The look-ahead samples up to ``samples`` futures and stops once it has evaluated
        ``work`` hands (on this project's machine: median about 12 ms a close decision, 99th
        percentile under 100 ms). Work, not time, bounds it, so the same seed plays the same game
        on any machine and under any load; ``budget_ms`` adds a wall-clock cap for real-time
        play (results then depend on the machine's speed)."""
        super().__init__(seed)
        self.work = work
        self.samples = samples
        self.budget = None if budget_ms is None else budget_ms / 1000.0

    # Weights of the discard score (units: one step of shanten = 100), per game. Sichuan is a race
    # (three of four players win most hands and each win takes from everyone still playing), so
    # there the effective-tile count and safety weigh most and the value terms only break ties;
    # measured in the arena over duplicate deals, the Kawuxing weights (value first) lost to
    # greedy in Sichuan.
    WEIGHTS = {
        "kawuxing": {"effective": 0.3, "value": 2.0, "danger": 0.5, "kong": 0.0},
        "sichuan": {"effective": 2.0, "value": 0.3, "danger": 2.0, "kong": 60.0},
    }
    # "kong": the cost of breaking a concealed triplet whose fourth tile is still live. A Sichuan
    # kong is paid at once (暗杠 2 from everyone still playing) and adds a 根 (one 番, doubling the
    # win): worth more than most plain wins, so triplets are kept and pongs taken when they cost no
    # shanten (in the arena, paired over the same 600 deals: +0.2 points/hand for the triplets,
    # +0.38 with the pongs).
    # Values of the Sichuan plans (``_plan_shanten``), in multiples of a plain win: modest, since a
    # plan that costs a step of shanten also loses races (4x values raised the mean winning value
    # from 1.5 to 2.4 but lost more races than that gained).
    plan_values = {"plain": 1.0, "flush": 1.6, "pairs": 1.6}

    # -- danger ---------------------------------------------------------------------------------

    def _danger(self, view: SeatView, unseen: list[int]) -> tuple[list[float], set[int]]:
        """A rough weight that discarding each kind deals into someone, and the kinds that surely
        do (a revealed 亮倒/跳舞 wait)."""
        danger = [0.0] * 30
        forbidden: set[int] = set()
        late = max(0.0, 1.0 - view.tiles_left / 40.0)
        for p in view.opponents():
            revealed = p.get("revealed") or {}
            waits = revealed.get("waits")
            if waits:
                forbidden.update(int(Tile.parse(w)) for w in waits)
                continue
            threat = 0.15 + 0.25 * len(p["melds"]) + 0.6 * late + (0.8 if p["declared"] else 0.0)
            their_discards = {Tile.parse(t) for t in p["discards"]}
            for k in range(30):
                if view.sichuan and p["void"] and ALL_TILES[k].suit == p["void"]:
                    continue  # they cannot win on their void suit
                if k in their_discards:
                    w = 0.2  # players rarely wait on what they threw away
                elif unseen[k] == 0:
                    w = 0.0
                else:
                    r = k % 9 + 1 if k < 27 else 0
                    w = 0.6 if (k >= 27 or r in (1, 9)) else (0.8 if r in (2, 8) else 1.0)
                    if unseen[k] == 1:
                        w *= 0.5
                danger[k] += threat * w
        return danger, forbidden

    # -- value ----------------------------------------------------------------------------------

    def _value_bias(self, view: SeatView, counts, k: int) -> float:
        """Bonus for discarding ``k`` given the big hands the rest of the hand points to."""
        bonus = 0.0
        suits = {s: n for s, n in _suit_counts(counts).items() if s != view.void}
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
            bonus -= (3.0 if view.sichuan else 1.0) * (1.5 if pairs >= 4 else 1.0)
        if not view.sichuan and k < 27 and k % 9 in (3, 5) and counts[k - 1 if k % 9 == 5 else k + 1] == 0:
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
        if not view.sichuan:
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
    TYPICAL_VALUE = {"kawuxing": 2.8, "sichuan": 1.7}
    TYPICAL_LIVE = 5
    FEED = 0.5  # how often an opponent lets go of a hidden wait, relative to its share of the unseen
    FEED_SHOWN = 0.05  # ... and of a revealed one (only when nothing else can be discarded)
    OTHER_WIN = 0.04  # chance per turn that a given opponent wins (Kawuxing: ends the hand)

    @staticmethod
    def _step_chance(view: SeatView) -> float:
        """w: the chance that a hand closes one step of shanten before the hand ends."""
        return 0.25 + 0.25 * min(1.0, view.tiles_left / 55.0)

    def _race(self, view: SeatView, unseen, live: int, shown: bool = False,
              extra_draws: int = 0) -> tuple[float, float, float, float]:
        """For a ready hand with ``live`` winning tiles unseen: the chances that it self-draws,
        that it wins on a discard, that nobody wins before the wall ends, and the expected number
        of turns it stays in play."""
        active = len(view.opponents()) + 1
        draws = view.tiles_left / active + extra_draws
        p = live / max(1, sum(unseen))
        h_self = p
        h_ron = (active - 1) * p * (self.FEED_SHOWN if shown else self.FEED)
        h_other = 0.0 if view.sichuan else self.OTHER_WIN * (active - 1)
        total = min(0.95, h_self + h_ron + h_other)
        if draws <= 0:
            return 0.0, 0.0, 1.0, 0.0
        if total <= 0:
            return 0.0, 0.0, 1.0, draws
        reach = 1.0 - (1.0 - total) ** draws
        scale = reach / (h_self + h_ron + h_other)
        return scale * h_self, scale * h_ron, 1.0 - reach, reach / total

    def _exposure(self, view: SeatView, turns: float) -> float:
        """What staying in a Sichuan hand costs: other players' self-draws, paid until one's own
        win takes one out of the hand."""
        if not view.sichuan:
            return 0.0  # a Kawuxing hand ends at the first win: nothing to wait out
        return turns * len(view.opponents()) * self.OTHER_WIN * self.TYPICAL_VALUE["sichuan"]

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
        declared = kind is not None and not view.sichuan  # 亮倒 doubles a Kawuxing win
        values = self._wait_values(view, counts, melds, declared)
        live = sum(unseen[w] for w, _, _ in values)
        p_self, p_ron, p_none, turns = self._race(view, unseen, live, kind == "declare", extra_draws)
        gain = -self._exposure(view, turns)
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
        p_self, p_ron, _, turns = self._race(view, unseen, self.TYPICAL_LIVE, extra_draws=extra_draws)
        typical = (p_self * len(view.opponents()) + p_ron) * self.TYPICAL_VALUE[view.obs["variant"]]
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
        return money * (0.85 if view.sichuan else 1.0)

    def _kong_gain(self, view: SeatView, unseen, a: Action, danger) -> float:
        """What making kong ``a`` adds to the expected result of the hand."""
        if a.type == "kong":  # on a discard: against letting it go
            after = list(view.counts)
            after[a.tile] -= 3
            melds = view.melds + [Meld.kong(a.tile)]
            before = self._hand_ev(view, unseen, view.counts, view.melds)
        else:
            after, melds = _after_kong(view, a)
            before = self._turn_ev(view, unseen, list(view.counts), view.melds)
        gain = self._kong_money(view, a.type) + self._hand_ev(view, unseen, after, melds, extra_draws=1) - before
        if a.type == "added_kong":  # 抢杠: someone waiting on the tile wins on it instead
            rob = min(1.0, danger[a.tile] * 0.15)
            gain -= rob * (self._kong_money(view, a.type) + 2 * self.TYPICAL_VALUE[view.obs["variant"]])
        return gain

    # -- decisions ------------------------------------------------------------------------------

    def act(self, obs: dict, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "void" in types or "exchange" in types:
            return self._setup(SeatView(obs), legal, types)
        return super().act(obs, legal)

    def _setup(self, view: SeatView, legal: list[Action], types) -> Action:
        """定缺 and 换三张 by what each choice leaves: the best two-suit shanten, then fewest tiles."""
        counts = view.counts
        sc = _suit_counts(counts)
        sets = 4 - len(view.melds)

        def after_void(v: str) -> tuple:
            return (shanten_counts(counts, view.variant, sets, v, None, seven_pairs=True), sc[v], v)

        if "void" in types:
            return Action("void", suit=min("mps", key=after_void))
        # 换三张: give away three tiles of the suit we mean to void (it must have three)
        suits = [v for v in "mps" if sc[v] >= 3]
        target = min(suits, key=after_void)
        options = [a for a in legal if a.tiles[0].suit == target]
        return min(options, key=lambda a: sum(_isolation(counts, t) for t in a.tiles))

    def _claim_decision(self, view: SeatView, legal: list[Action]) -> Action:
        kong = next((a for a in legal if a.type == "kong"), None)
        if kong is not None:
            if self._kong_gain(view, view.unseen(), kong, None) > 0:
                return kong
            legal = [a for a in legal if a is not kong]
        if view.sichuan:
            return self._claim_by_plan(view, legal)
        choice = self._claim(view, legal)
        if choice.type == "pong" and view.shanten(view.counts) <= 1:
            # a pong that breaks a near seven-pairs hand is not worth it
            pairs = sum(1 for c in view.counts if c >= 2)
            if not view.melds and pairs >= 5:
                return next((a for a in legal if a.type == "pass"), choice)
        return choice

    def _claim_by_plan(self, view: SeatView, legal: list[Action]) -> Action:
        """Sichuan pongs: when the best discard after it clearly improves the plan-adjusted
        shanten (so no pong that breaks a flush or seven pairs for a plain hand), or when it costs
        no shanten and the fourth tile is live (a kong to come)."""
        pass_action = next((a for a in legal if a.type == "pass"), legal[0])
        t = view.last_discard
        counts = view.counts
        s_before = view.shanten(counts)
        before = self._plan_shanten(view, counts, s=s_before)
        for a in legal:
            if a.type == "pong":
                after = list(counts)
                after[t] -= 2
                melds = view.melds + [Meld.pong(t)]
                best = 99.0
                for k in range(30):
                    if after[k]:
                        after[k] -= 1
                        best = min(best, self._plan_shanten(view, after, melds))
                        after[k] += 1
                if best < before - 0.5:
                    return a
                # a pong that costs no shanten, with the fourth tile live: kong money and a 根 later
                if view.tiles_left > 8 and view.unseen()[t] and view.shanten(after, melds) <= s_before:
                    return a
        return pass_action

    def _turn(self, view: SeatView, legal: list[Action]) -> Action:
        counts = view.counts
        unseen = view.unseen()
        current = view.shanten(counts)
        danger, forbidden = self._danger(view, unseen)
        kongs = [(self._kong_gain(view, unseen, a, danger), a) for a in legal
                 if a.type in ("concealed_kong", "added_kong")]
        if kongs:
            gain, kong = max(kongs, key=lambda x: x[0])
            if gain > 0:
                return kong  # kong money now and a replacement draw, against what it does to the hand
        discards = [a for a in legal if a.type in ("discard", "declare", "sing")]
        plain = [a for a in discards if a.type == "discard"]
        if any(a.tile not in forbidden for a in plain):
            plain = [a for a in plain if a.tile not in forbidden]  # never deal into a revealed hand
        # Folding pays in Kawuxing; in Sichuan a hand that is not ready at the draw pays 查大叫 to
        # every ready hand, and the arena showed folding losing more than it saved.
        folding = not view.sichuan and current >= 2 and max(danger) >= 2.0
        weights = self.WEIGHTS[view.obs["variant"]]
        scored = []
        for a in plain:
            k = a.tile
            counts[k] -= 1
            s = view.shanten(counts)
            planned = self._plan_shanten(view, counts, s=s)
            eff = 0
            if not folding or s <= 1:
                for t in view.variant.kinds:
                    if unseen[t] and (view.caps is None or counts[t] < view.caps[t]):
                        counts[t] += 1
                        if view.shanten(counts) < s:
                            eff += unseen[t]
                        counts[t] -= 1
            counts[k] += 1
            value = (-planned * 100.0 + eff * weights["effective"] - _isolation(counts, k)
                     + weights["value"] * self._value_bias(view, counts, k))
            if counts[k] == 3 and unseen[k] and view.tiles_left > 8:
                value -= weights["kong"]
            risk = danger[k] * (400.0 if folding else weights["danger"])
            scored.append((value - risk, s, eff, a))
        scored.sort(key=lambda x: -x[0])
        best = scored[0]
        if len(scored) > 1 and not folding and best[1] <= 2:
            second = scored[1]
            if second[0] > best[0] - 3.0 and second[1] == best[1]:
                best = self._look_ahead(view, [best, second], unseen)
        chosen = best[3]
        declares = [a for a in discards if a.type != "discard" and a.tile not in forbidden
                    and (a.tile == chosen.tile or danger[a.tile] <= danger[chosen.tile])]
        if declares and best[1] == 0:
            return self._declare_by_value(view, unseen, chosen, declares)
        return chosen

    def _declare_by_value(self, view: SeatView, unseen, chosen: Action, declares: list[Action]) -> Action:
        """Declare (亮倒, 唱歌, 跳舞) when that is worth more than staying hidden with the chosen
        discard. 亮倒 doubles a Kawuxing win and makes an undeclared discarder pay both shares, so
        any live wait is worth showing. The Sichuan declarations add no 番 and freeze the hand; 跳舞
        also keeps others from discarding the waits, which (by the model of ``_race``) trades wins
        on discards, paid by one player, for later self-draws, paid by everyone still in, against
        a longer stay in the hand."""
        counts = list(view.counts)

        def value(a: Action) -> float:
            counts[a.tile] -= 1
            ev = self._ready_ev(view, unseen, counts, view.melds, None if a.type == "discard" else a.type)
            counts[a.tile] += 1
            return ev

        best_ev, best = value(chosen), chosen
        for a in declares:
            ev = value(a)
            if ev > best_ev + 1e-9:
                best_ev, best = ev, a
        return best

    def _look_ahead(self, view: SeatView, candidates, unseen) -> tuple:
        """Sample the unseen tiles as this seat's next draws and count wins within reach."""
        deadline = None if self.budget is None else time.perf_counter() + self.budget
        pool = [k for k in range(30) for _ in range(unseen[k])]
        draws = max(1, min(8, view.tiles_left // max(1, len(view.obs["players"]))))
        wins = [0] * len(candidates)
        trials = 0
        self._evaluations = 0
        for _ in range(self.samples):
            if self._evaluations >= self.work or (deadline is not None and time.perf_counter() > deadline):
                break
            self.rng.shuffle(pool)
            future = pool[:draws]
            trials += 1
            for i, cand in enumerate(candidates):
                counts = list(view.counts)
                counts[cand[3].tile] -= 1
                if self._sim_wins(view, counts, future):
                    wins[i] += 1
        if trials == 0:
            return candidates[0]
        best_i = max(range(len(candidates)), key=lambda i: (wins[i], -i))
        return candidates[best_i]

    def _sim_wins(self, view: SeatView, counts, future) -> bool:
        for t in future:
            if view.caps is not None and counts[t] >= view.caps[t]:
                continue
            counts[t] += 1
            self._evaluations += 1
            if view.shanten(counts) == -1:
                return True
            best_k, best_s = None, 99
            for k in range(30):
                if counts[k]:
                    counts[k] -= 1
                    s = view.shanten(counts)
                    self._evaluations += 1
                    counts[k] += 1
                    if s < best_s:
                        best_k, best_s = k, s
            counts[best_k] -= 1
        return False


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "strong": StrongAgent}


def make_agent(spec: str, seed: int = 0, timeout: float = 1.0, stderr: str | None = None,
               label: str | None = None):
    """An agent from its name, or ``cmd:PROGRAM ARGS`` for an external bot (``stderr``: a file for
    its stderr, or ``"-"`` to pass it through; ``label`` names it in messages)."""
    if spec.startswith("cmd:"):
        from majiang.bots.external import SubprocessAgent
        return SubprocessAgent(spec[4:], timeout=timeout, stderr=stderr, label=label)
    try:
        return AGENTS[spec](seed)
    except KeyError:
        from majiang.core.errors import MajiangError
        raise MajiangError(f"unknown agent {spec!r} (known: {', '.join(AGENTS)}, or cmd:PROGRAM)") from None


def play_hand(game: Game, agents: list, check=None) -> Game:
    """Run a hand to the end, asking each pending seat's agent (lowest seat first). An agent with a
    ``start_hand(seat)`` method (external bots) is told first that a hand begins."""
    for seat, agent in enumerate(agents):
        start = getattr(agent, "start_hand", None)
        if start is not None:
            start(seat)
    while not game.over:
        seat = game.pending_seats()[0]
        legal = game.legal_actions(seat)
        agent = agents[seat]
        obs = game.observation(seat) if getattr(agent, "needs_observation", True) else None
        action = agent.act(obs, legal)
        game.apply(seat, action)
        if check is not None:
            check(game)
    return game


__all__ = ["Agent", "RandomAgent", "GreedyAgent", "StrongAgent", "SeatView", "make_agent", "play_hand"]
