"""What a hand is worth over this seat's own future draws: ``expert``'s evaluation of a discard.

The other seats are not played out here; what they do to this seat is a *model*, per round from now
(``Model``: the chance the hand ends before this seat draws again, what their wins and this seat's
deal-ins cost, how often their discards feed a wait, what the end of the wall pays), worked out from
the observation by ``model_for``. This seat's own future is sampled: each sample fixes the order in
which it would draw the unseen tiles (a determinization of the wall from its point of view), and a
hand is played along it by a plan-following policy until it is one step from ready; from there on
the value is exact, an expectation over every draw (``ready``, ``one_away``), with the best discard
after each draw and, at ready, the better of staying hidden and declaring (Kawuxing 亮倒).

Plans: the hand as it is (``all``), 清一色 in one suit (the other tiles are given up first), and 七对
(``pairs``). A plan is valued by its own shanten and its complete hands are scored by the game's fan
table, so a plan that is slower but worth more wins when it should.

This module is the reference; ``majiang.native.outlook`` computes the same numbers in the native
library (one call per decision), sample for sample, and ``tests/bots/test_outlook.py`` holds them equal.

>>> from majiang.games.rules import rules_for
>>> from majiang.core.tiles import parse_tiles, to_counts
>>> rules = rules_for("kawuxing")
>>> model = Model.plain(rounds=8, payers=2)
>>> hand = to_counts(parse_tiles("123456789p1199s5z"))
>>> unseen = [0] * 30
>>> for k in range(9, 30):
...     unseen[k] = 4 - hand[k]
>>> out = evaluate(rules, hand, [], None, unseen, model, samples=16, key=7)
>>> best = max(out, key=lambda r: r.value)
>>> str(best.tile), best.plan, best.declare
('5z', 'all', True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from majiang.core.analysis import isolation, shanten_counts
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import ALL_TILES, Tile
from majiang.games import get_game
from majiang.games.rules import Rules
from majiang.games.scoring import WinContext, score
from majiang.native import PLANS, check_hand, spec

ALL_PLANS = 0b11111
ROUNDS = spec.OUTLOOK_MAX_ROUNDS  # a model covers at most this many rounds


@dataclass
class Model:
    """What the other seats do to this one, per round from now (index t = 1 … rounds; index 0
    unused): in round t they take their turns, then this seat draws.

    ``hazard``: the chance the hand ends in that round by another seat's win (Kawuxing; 0 in blood
    battle, where the others' wins do not end it). ``cost``: what the round costs this seat while it
    is still in and undeclared (the others' self-draws, its own deal-ins), ``declared_cost`` once it
    has declared (its draws then go out whatever they are). ``feed_hidden``/``feed_declared``: how
    many of the others' discards that round may feed a hidden/declared wait, in units of a share of
    the unseen tiles; ``shares_declared`` the same weighted by what each discarder pays a declared
    hand (包胡: an undeclared discarder pays twice). At the end of the wall: ``end_unready`` for a
    hand not ready, ``end_ready`` plus ``end_ready_value`` × its best wait's value for a ready
    hidden hand (查大叫), ``end_declared`` for a declared one (亮倒荒庄). ``payers``: who pays a
    self-draw. ``declare``: whether a ready hand may declare (Kawuxing 亮倒)."""

    rounds: int
    payers: float
    hazard: list[float] = field(default_factory=list)
    cost: list[float] = field(default_factory=list)
    declared_cost: list[float] = field(default_factory=list)
    feed_hidden: list[float] = field(default_factory=list)
    feed_declared: list[float] = field(default_factory=list)
    shares_declared: list[float] = field(default_factory=list)
    end_unready: float = 0.0
    end_ready: float = 0.0
    end_ready_value: float = 0.0
    end_declared: float = 0.0
    declare: bool = False

    @classmethod
    def plain(cls, rounds: int, payers: int, feed: float = 1.0, declare: bool = True) -> "Model":
        """Nobody else wins and nothing costs anything: for examples and tests."""
        z = [0.0] * (rounds + 1)
        f = [0.0] + [feed * payers] * rounds
        return cls(rounds, float(payers), list(z), list(z), list(z), list(f), list(f), list(f), declare=declare)


@dataclass(frozen=True)
class Valued:
    """One candidate discard: its value, the plan that gives it, and (a discard that leaves the hand
    ready) whether declaring with it is worth more than staying hidden."""

    tile: Tile
    value: float
    plan: str
    declare: bool


def pairs_shanten(counts) -> int:
    """Shanten toward seven pairs alone (a four of a kind is two pairs)."""
    pairs = 0
    for c in counts:
        pairs += c >> 1
    return 6 - min(7, pairs)


class Outlook:
    """One seat's hand evaluated under a ``Model`` (melds fixed: no claims are modelled)."""

    def __init__(self, rules: Rules, melds, void: str | None, unseen, model: Model, plans: int = ALL_PLANS) -> None:
        from majiang.games import play_for

        self.allowed = plans
        self.rules = rules
        self.variant = play_for(rules).variant
        self.kinds = [int(t) for t in self.variant.kinds]
        self.melds = tuple(melds)
        self.sets = 4 - len(self.melds)
        self.void = void
        self.void_start = "mps".index(void) * 9 if void else -1
        two_suits = self.variant.capabilities.two_suits  # the suit limit looks at meld tiles too
        self.meld_suits = "".join(sorted({m.tile.suit for m in self.melds})) if two_suits else ""
        self.caps = None
        if self.melds:
            self.caps = [4] * 30
            for m in self.melds:
                self.caps[m.tile] -= m.size
        total = sum(unseen[k] for k in self.kinds)
        self.total = total
        self.prob = [unseen[k] / total if total else 0.0 for k in range(30)]
        self.pool = [k for k in self.kinds for _ in range(unseen[k])]
        self.model = model
        self.T = min(model.rounds, ROUNDS)
        self._score: dict = {}
        self._ready: dict = {}
        self._one: dict = {}

    # -- plans --------------------------------------------------------------------------------

    def plans(self, counts) -> list[int]:
        """The plans worth valuing for a hand (indices into ``PLANS``): always the hand as it is;
        清一色 in a suit holding all but at most five of the tiles (at least six of them) when the
        melds allow it; 七对 with at least four pairs and no melds."""
        out = [0]
        total = sum(counts)
        meld_bits = 0
        for m in self.melds:
            meld_bits |= 1 << (int(m.tile) // 9)
        for su in range(3):
            if su * 9 not in self.kinds and su * 9 + 8 not in self.kinds:
                continue
            if su * 9 == self.void_start or (meld_bits and meld_bits != 1 << su):
                continue
            n = sum(counts[su * 9:su * 9 + 9])
            if n >= 6 and n >= total - 5 and self.allowed >> (1 + su) & 1:
                out.append(1 + su)
        if not self.melds and self.allowed >> 4 & 1:
            pairs = 0
            for c in counts:
                if c >= 2:
                    pairs += 1
            if pairs >= 4:
                out.append(4)
        return out

    def shanten(self, counts, plan: int) -> int:
        if plan == 4:
            return pairs_shanten(counts)
        if plan:
            start = (plan - 1) * 9
            counts = [c if start <= k < start + 9 else 0 for k, c in enumerate(counts)]
        return shanten_counts(counts, self.variant, self.sets, self.void, self.caps,
                              seven_pairs=not self.melds, meld_suits=self.meld_suits)

    def junk(self, k: int, plan: int) -> bool:
        """A tile the plan gives up (other suits for a flush; the void suit always)."""
        if self.void_start >= 0 and self.void_start <= k < self.void_start + 9:
            return True
        return 1 <= plan <= 3 and not ((plan - 1) * 9 <= k < plan * 9)

    def holdable(self, counts, x: int) -> bool:
        return counts[x] < 4 and (self.caps is None or counts[x] < self.caps[x])

    # -- values -------------------------------------------------------------------------------

    def win_value(self, counts, x: int, self_draw: bool, declared: bool) -> float:
        key = (bytes(counts), x, self_draw, declared)
        v = self._score.get(key)
        if v is None:
            s = score(Hand(tuple(counts), self.melds), x,
                      WinContext(self_draw=self_draw, declared=declared, void=self.void), self.rules)
            v = float(s.multiplier) if s.win else 0.0
            self._score[key] = v
        return v

    def ready(self, counts, plan: int) -> tuple[list[float], list[bool]]:
        """A ready hand (13 tiles less three per meld): its expected result from the end of round t
        (t = 0 … T), and whether it is then worth more declared than hidden."""
        key = (bytes(counts), plan)
        got = self._ready.get(key)
        if got is not None:
            return got
        m = self.model
        T = self.T
        waits = []
        for x in self.kinds:
            if self.prob[x] > 0.0 and self.holdable(counts, x):
                counts[x] += 1
                if self.shanten(counts, plan) == -1:
                    waits.append(x)
                counts[x] -= 1
        rows = []
        for declared in ((False, True) if m.declare else (False,)):
            ps = es = pw = ew = best_ron = 0.0
            for x in waits:
                px = self.prob[x]
                ron = self.win_value(counts, x, False, declared)
                ps += px
                es += px * self.win_value(counts, x, True, declared) * m.payers
                pw += px
                ew += px * ron
                if ron > best_ron:
                    best_ron = ron
            feed = m.feed_declared if declared else m.feed_hidden
            shares = m.shares_declared if declared else m.feed_hidden
            cost = m.declared_cost if declared else m.cost
            V = [0.0] * (T + 1)
            V[T] = m.end_declared if declared else m.end_ready + m.end_ready_value * best_ron
            for t in range(T, 0, -1):
                stay = 1.0 - m.hazard[t] - pw * feed[t]
                if stay < 0.0:
                    stay = 0.0
                V[t - 1] = ew * shares[t] - cost[t] + stay * (es + (1.0 - ps) * V[t])
            rows.append(V)
        if len(rows) == 1:
            out = (rows[0], [False] * (T + 1))
        else:
            hidden, shown = rows
            out = ([h if h >= s else s for h, s in zip(hidden, shown)], [s > h for h, s in zip(hidden, shown)])
        self._ready[key] = out
        return out

    def one_away(self, counts, plan: int) -> list[float]:
        """A hand one step from ready: its expected result from the end of round t (t = 0 … T),
        taking after each draw the discard that leaves the best ready hand."""
        key = (bytes(counts), plan)
        got = self._one.get(key)
        if got is not None:
            return got
        m = self.model
        T = self.T
        moves = []  # (chance, the best ready hand's values per t)
        stay = 1.0
        for x in self.kinds:
            px = self.prob[x]
            if px == 0.0 or not self.holdable(counts, x):
                continue
            counts[x] += 1
            if self.shanten(counts, plan) == 0:
                best = None
                for d in self.kinds:
                    if counts[d] and d != x:
                        counts[d] -= 1
                        if self.shanten(counts, plan) == 0:
                            v = self.ready(counts, plan)[0]
                            best = list(v) if best is None else [a if a >= b else b for a, b in zip(best, v)]
                        counts[d] += 1
                if best is not None:
                    moves.append((px, best))
                    stay -= px
            counts[x] -= 1
        V = [0.0] * (T + 1)
        V[T] = m.end_unready
        for t in range(T, 0, -1):
            acc = stay * V[t]
            for px, best in moves:
                acc += px * best[t]
            V[t - 1] = (1.0 - m.hazard[t]) * acc - m.cost[t]
        self._one[key] = V
        return V

    def rollout(self, counts, plan: int, order, s: int) -> float:
        """A hand two or more steps from ready, played along one order of draws: each draw that
        brings it closer is kept (the plan's junk, then the least connected tile, goes), until the
        hand is one step from ready; then its exact value."""
        m = self.model
        c = list(counts)
        survive = 1.0
        total = 0.0
        for t in range(1, self.T + 1):
            total -= survive * m.cost[t]
            survive *= 1.0 - m.hazard[t]
            x = order[t - 1]
            if not self.holdable(c, x):
                continue
            c[x] += 1
            s14 = self.shanten(c, plan)
            if s14 >= s:
                c[x] -= 1
                continue
            if s14 == 1:
                best = None
                for d in self.kinds:
                    if c[d] and d != x:
                        c[d] -= 1
                        if self.shanten(c, plan) == 1:
                            v = self.one_away(c, plan)[t]
                            if best is None or v > best:
                                best = v
                        c[d] += 1
                if best is not None:
                    return total + survive * best
            pick = None
            for d in self.kinds:
                if c[d]:
                    c[d] -= 1
                    if self.shanten(c, plan) == s14:
                        key = (0 if self.junk(d, plan) else 1, isolation(c, d), d)
                        if pick is None or key < pick:
                            pick = key
                    c[d] += 1
            c[pick[2]] -= 1
            s = s14
        return total + survive * m.end_unready

    def value(self, counts, orders) -> tuple[float, int]:
        """The best plan's value for a hand waiting for a draw, and that plan."""
        best = None
        for plan in self.plans(counts):
            s = self.shanten(counts, plan)
            if s >= 98:
                continue
            if s == 0:
                v = self.ready(counts, plan)[0][0]
            elif s == 1:
                v = self.one_away(counts, plan)[0]
            elif not orders:
                continue
            else:
                acc = 0.0
                for order in orders:
                    acc += self.rollout(counts, plan, order, s)
                v = acc / len(orders)
            if best is None or v > best[0]:
                best = (v, plan)
        return best if best is not None else (-1.0e9, 0)

    def orders(self, samples: int, key: int) -> list[list[int]]:
        """``samples`` orders of this seat's next draws: the unseen tiles shuffled by
        ``random.Random(key)``, one shuffle per sample, the first T of each."""
        rng = random.Random(key)
        out = []
        for _ in range(samples):
            pool = list(self.pool)
            rng.shuffle(pool)
            out.append(pool[:self.T])
        return out


def evaluate(rules: Rules, counts, melds, void: str | None, unseen, model: Model, samples: int = 64,
             key: int = 0, candidates=None, plans: int = ALL_PLANS) -> list[Valued]:
    """Every candidate discard of a hand holding a drawn tile (``counts``: 14 tiles less three per
    meld), valued over the same ``samples`` orders of draws. ``candidates``: the kinds to value
    (default: every kind held). The reference of ``majiang.native.outlook``."""
    melds = [m if isinstance(m, Meld) else Meld.from_json(m) for m in melds]
    check_hand(counts, melds)
    out = Outlook(rules, melds, void, unseen, model, plans)
    orders = out.orders(samples, key)
    c = list(counts)
    kinds = [k for k in out.kinds if c[k]] if candidates is None else [int(k) for k in candidates]
    result = []
    for k in kinds:
        c[k] -= 1
        v, plan = out.value(c, orders)
        declare = False
        if model.declare and out.shanten(c, plan) == 0:
            declare = out.ready(c, plan)[1][0]
        c[k] += 1
        result.append(Valued(ALL_TILES[k], v, PLANS[plan], declare))
    return result


# -- the model of the other seats, from an observation ---------------------------------------------
# The rates per round of each game's model live in its declaration (``GameSpec.bots["outlook"]``).



def draws_left(tiles_left: int, players: int, position: int) -> int:
    """How many more tiles a seat draws when the next ``players`` draws go round the table and it
    draws ``position``-th of them (its own turn just taken: ``players``)."""
    return (tiles_left - position) // players + 1 if tiles_left >= position else 0


def model_for(view, params: dict | None = None, position: int | None = None) -> Model:
    """The other seats' effect on ``view``'s seat, round by round (``position``: where this seat
    draws in the next round of draws, see ``draws_left``; default last, as after its own discard)."""
    p = dict(get_game(view.obs["variant"]).bots["outlook"])
    p.update(params or {})
    liangdao = p["liangdao"]  # the model of a 亮倒 game: declarations, 包胡, the hand ends at a win
    opps = view.opponents()
    n = len(opps) + 1
    T = min(ROUNDS, draws_left(view.tiles_left, n, n if position is None else position))
    unseen = view.unseen()
    total = max(1, sum(unseen[int(k)] for k in view.variant.kinds))
    m = Model(T, float(len(opps)), [0.0] * (T + 1), [0.0] * (T + 1), [0.0] * (T + 1), [0.0] * (T + 1),
              [0.0] * (T + 1), [0.0] * (T + 1), declare=liangdao)
    q = p["declare_rate"]
    declared_at_end = 0.0
    fixed = []  # per opponent: (declared now, live waits)
    for o in opps:
        waits = (o.get("revealed") or {}).get("waits") or []
        if o["declared"] and waits:
            fixed.append((True, sum(unseen[int(Tile.parse(w))] for w in waits)))
        else:
            fixed.append((False, p["live_future"]))
    for t in range(1, T + 1):
        shown = [1.0 if d else 1.0 - (1.0 - q) ** t for d, _ in fixed]
        h = c = dc = 0.0
        for j, (_, live) in enumerate(fixed):
            self_draw = live / total
            # a declared seat wins on its draws and on what the other declared seats must discard
            fed = sum(shown[i] for i in range(len(fixed)) if i != j) * self_draw * p["feed_open"]
            h += shown[j] * (self_draw + fed + p["ron_third"]) + (1.0 - shown[j]) * p["win_hidden"]
            c += (shown[j] * self_draw * p["value_declared"]
                  + (1.0 - shown[j]) * p["win_hidden"] * 0.5 * p["value_hidden"])
            dc += shown[j] * self_draw * p["value_declared"]  # a declared seat discards what it draws
            m.feed_hidden[t] += shown[j] * p["feed_open"] + (1.0 - shown[j]) * p["feed_hidden"]
            m.feed_declared[t] += shown[j] * p["feed_open"] + (1.0 - shown[j]) * p["feed_shown"]
            m.shares_declared[t] += shown[j] * p["feed_open"] + (1.0 - shown[j]) * p["feed_shown"] * 2.0
            if t == T:
                declared_at_end += shown[j]
        m.hazard[t] = min(0.6, h * p.get("hazard_scale", 1.0)) if liangdao else 0.0
        m.cost[t] = (c + p["deal_in_hidden"] * p["value_hidden"]) * p.get("cost_scale", 1.0)
        m.declared_cost[t] = (c + dc) * p.get("cost_scale", 1.0)
    if liangdao:  # 亮倒荒庄 (``count``): each declared seat pays each undeclared one 1
        m.end_unready = m.end_ready = declared_at_end
        m.end_declared = -(len(opps) - declared_at_end)
    else:  # 查大叫: a ready hand is paid its best value by those not ready, a hand not ready pays
        m.end_ready_value = float(len(opps)) * p["end_ready_share"]
        m.end_unready = -float(len(opps)) * p["end_unready_share"] * p["value_hidden"]
    return m


def evaluate_waiting(rules: Rules, counts, melds, void: str | None, unseen, model: Model, samples: int = 64,
                     key: int = 0, plans: int = ALL_PLANS) -> tuple[float, str]:
    """A hand waiting for a draw (``counts``: 13 tiles less three per meld, e.g. after a claim is
    passed): its best plan's value and that plan, over ``samples`` orders of draws."""
    melds = [m if isinstance(m, Meld) else Meld.from_json(m) for m in melds]
    check_hand(counts, melds, waiting=True)
    out = Outlook(rules, melds, void, unseen, model, plans)
    v, plan = out.value(list(counts), out.orders(samples, key))
    return v, PLANS[plan]
