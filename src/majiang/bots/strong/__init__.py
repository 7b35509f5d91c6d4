"""``strong``: plays for value, counts unseen tiles, defends, decides 亮倒 (唱歌/跳舞) and kongs by
expected value, and looks ahead between close discards (``value``, ``defence``, ``lookahead``).

Its weights differ per game (``GameSpec.bots["strong"]``, declared with each game): Sichuan blood
battle is a race where speed and safety pay more than size, and a Sichuan hand not ready at the
draw pays 查大叫, so it never folds."""

from __future__ import annotations

from majiang.bots.base import SeatView, isolation, suit_counts
from majiang.bots.greedy import GreedyAgent
from majiang.bots.strong.defence import Defence
from majiang.bots.strong.lookahead import LookAhead
from majiang.bots.strong.value import Value
from majiang.core.analysis import shanten_counts
from majiang.core.hand import Meld
from majiang.engine import Action
from majiang.games import get_game


class StrongAgent(Value, Defence, LookAhead, GreedyAgent):
    """Value, defence and sampled look-ahead on top of greedy shanten play."""

    name = "strong"

    def __init__(self, seed: int = 0, work: int = 1200, samples: int = 24, budget_ms: float | None = None,
                 frozen: float = 0.0) -> None:
        """The look-ahead samples up to ``samples`` futures and stops once it has evaluated
        ``work`` hands (on this project's machine: median about 12 ms a close decision, 99th
        percentile under 100 ms). Work, not time, bounds it, so the same seed plays the same game
        on any machine and under any load; ``budget_ms`` adds a wall-clock cap for real-time
        play (results then depend on the machine's speed)."""
        super().__init__(seed)
        self.work = work
        self.samples = samples
        self.budget = None if budget_ms is None else budget_ms / 1000.0
        self.frozen = float(frozen)

    # The discard score's weights (units: one step of shanten = 100) differ per game: each game
    # declares its own (``GameSpec.bots["strong"]["weights"]``, with how they were measured).
    # Values of the Sichuan plans (``_plan_shanten``), in multiples of a plain win: modest, since a
    # plan that costs a step of shanten also loses races (4x values raised the mean winning value
    # from 1.5 to 2.4 but lost more races than that gained).
    plan_values = {"plain": 1.0, "flush": 1.6, "pairs": 1.6}

    # -- decisions ------------------------------------------------------------------------------

    def act(self, obs: dict, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "void" in types or "exchange" in types:
            return self._setup(SeatView(obs), legal, types)
        return super().act(obs, legal)

    def _setup(self, view: SeatView, legal: list[Action], types) -> Action:
        """定缺 and 换三张 by what each choice leaves: the best two-suit shanten, then fewest tiles."""
        sets = 4 - len(view.melds)
        if "void" in types:
            return Action("void", suit=void_choice(view.counts, view.variant, sets))
        tiles = exchange_choice(view.counts, view.variant, sets)
        return next(a for a in legal if a.tiles == tiles)

    def _claim_decision(self, view: SeatView, legal: list[Action]) -> Action:
        kong = next((a for a in legal if a.type == "kong"), None)
        if kong is not None:
            if self._kong_gain(view, view.unseen(), kong, None) > 0:
                return kong
            legal = [a for a in legal if a is not kong]
        if view.fans_add:  # 番 that add up: a claim is judged by the plan it serves
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
        # Folding pays where the first win ends the hand; in a blood battle a hand that is not ready
        # at the draw pays 查大叫 to every ready hand, and the arena showed folding losing more than it saved.
        folding = not view.has.blood_battle and current >= 2 and max(danger) >= 2.0
        weights = get_game(view.obs["variant"]).bots["strong"]["weights"]
        scored = []
        for a in plain:
            k = a.tile
            counts[k] -= 1
            s = view.shanten(counts)
            planned = self._plan_shanten(view, counts, s=s)
            eff = view.live_improvers(counts, s, unseen) if not folding or s <= 1 else 0
            counts[k] += 1
            value = (-planned * 100.0 + eff * weights["effective"] - isolation(counts, k)
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


def void_choice(counts, variant, sets: int = 4) -> str:
    """``strong``'s 定缺: the suit whose loss leaves the best two-suit shanten, then the fewest tiles."""
    sc = suit_counts(counts)
    return min("mps", key=lambda v: (shanten_counts(counts, variant, sets, v, None, seven_pairs=True), sc[v], v))


def exchange_choice(counts, variant, sets: int = 4) -> tuple:
    """``strong``'s 换三张: three tiles of the suit it means to give up (one that has three), the
    least connected three (the first of the engine's order among equals)."""
    import itertools

    from majiang.core.tiles import ALL_TILES

    sc = suit_counts(counts)
    target = min((v for v in "mps" if sc[v] >= 3),
                 key=lambda v: (shanten_counts(counts, variant, sets, v, None, seven_pairs=True), sc[v], v))
    start = "mps".index(target) * 9
    tiles = [ALL_TILES[k] for k in range(start, start + 9) for _ in range(counts[k])]
    options = sorted(set(itertools.combinations(tiles, 3)))
    return min(options, key=lambda combo: sum(isolation(counts, t) for t in combo))
