"""``expert``: ``strong``'s play, its discards and pongs weighed by the outlook of this seat's own
futures, and (optionally) determinized Monte Carlo search over whole deals.

By default each game plays its best measured setting (``GAME_DEFAULTS``): Kawuxing the outlook,
Sichuan the discard search.

Discards (``value="outlook"``, ``majiang.bots.expert_outlook``): every discard ``strong`` would
allow is valued by ``majiang.bots.outlook`` over ``orders`` sampled orders of this seat's next
draws, the plans 清一色 and 七对 beside the hand as it is, the other seats as a model of what they do
to this one, round by round (how soon the hand ends, what their wins and this seat's deal-ins cost,
how often their discards feed a wait). ``strong``'s choice stands unless another discard is worth
more than ``gain`` points more. 亮倒 is ``strong``'s expected-value rule (``declare="outlook"``:
the outlook's); pongs are the outlook's in Kawuxing (``claims="strong"``: ``strong``'s).

Search (``search=``): at a decision with more than one sensible option (a discard,
亮倒/唱歌/跳舞 with it, a kong, a claim), the candidates are pruned first (the choice so far, the
discards that keep the best shanten with the most live tiles, every kong and declaration of those
tiles, every claim), then the hidden tiles are sampled consistently with what this seat has seen
(``visible`` and each player's ``hidden`` count; the tiles of revealed 亮倒 hands, their hidden
triplets and other seats' concealed kongs as whole sets; no tiles of a known 定缺 suit in an
opponent's hand once it has discarded another suit, and fewer of the kinds it discarded and their
neighbours), the rest of the wall is shuffled, and each candidate is played to the end of the deal
by ``greedy`` at every seat (``rollout="careful"``: ``CarefulAgent``, greedy that never discards a
revealed wait). The choice is the candidate with the best mean of this seat's points from here on
(kong money, 包胡, 查大叫 and 血战's later wins included, as the engine settles them).

Every candidate meets the same samples (and in the search the same rollout players: common random
numbers), so differences are paired. Work, not time, bounds both: ``orders`` sampled futures a
valued decision; ``samples`` determinizations and ``work`` rollouts a searched one, first
``first`` samples for every candidate, then more in batches while the best two are within two
standard errors of each other (candidates clearly behind are dropped). The same seed makes the
same decisions on any machine.

Both run in the native library (``majiang.native.outlook``, ``majiang.native.rollouts``: one call
per decision or batch) when it is built, else in Python (``majiang.bots.outlook``,
``majiang.engine.position``), which computes exactly the same numbers, only slower. 定缺 and 换三张
are ``strong``'s unless ``setup="search"``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import NamedTuple

from majiang.bots.base import PythonEngineWarning, SeatView, native_engine, native_engine_missing
from majiang.bots.expert_outlook import outlook_claim, outlook_turn, plans_mask
from majiang.bots.expert_setup import exchange_search, setup_points, void_search
from majiang.bots.rollout import ROLLOUT_AGENTS, rollout_python
from majiang.bots.strong import StrongAgent
from majiang.core.analysis import waits as waits_of
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import Tile, parse_tiles
from majiang.engine import Action
from majiang.engine.position import Position, SeatPosition
from majiang.engine.safety import safe_choices, unsafe_tiles
from majiang.games import GAMES, get_game

# What value="auto", search="auto" and claims="auto" mean in each game: its best setting as
# measured against strong (docs/BOTS-LAB.md), declared with the game (``GameSpec.bots["expert"]``).
GAME_DEFAULTS = {name: game.bots["expert"] for name, game in GAMES.items() if "expert" in game.bots}
SEARCH_KINDS = ("discard", "declare", "kong", "claim")
PAUSE_CHUNK = 8  # native rollouts between two ``pause`` calls: about half a millisecond (in Python, one)


class OptionValue(NamedTuple):
    """One option as ``ExpertAgent.option_values`` values it: this seat's mean points from the
    decision to the end of the deal over the sampled deals, the standard error of that mean, and
    the points of each sample (every option meets the same samples, so two options' ``points``
    pair up: the standard error of their difference is far smaller than either's)."""

    action: Action
    mean: float
    stderr: float
    points: tuple[float, ...]


def mean_stderr(points) -> tuple[float, float]:
    """The mean of ``points`` and its standard error (0 for a single point)."""
    n = len(points)
    mean = sum(points) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((x - mean) ** 2 for x in points) / (n - 1) / n)


def search_kinds(option: str) -> set[str]:
    """The decisions a ``search=`` option names: "none", "all" or kinds joined by "+"."""
    kinds = set(SEARCH_KINDS) if option == "all" else set() if option == "none" else set(option.split("+"))
    if not kinds <= set(SEARCH_KINDS):
        raise ValueError(f"search must be none, all, auto or kinds joined by + from {sorted(SEARCH_KINDS)}, "
                         f"not {option!r}")
    return kinds


_warned = False


def _warn_python_engine() -> None:
    """Say once per process that ``expert`` searches in the Python engine: the same decisions, 30-60x slower."""
    global _warned
    if _warned:
        return
    _warned = True
    import warnings

    warnings.warn(f"expert: its search runs in Python (the same decisions, 30-60x slower; engine=python "
                  f"chooses it quietly): {native_engine_missing()}", PythonEngineWarning, stacklevel=3)


def _one_of(name: str, value, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of ``allowed``, else a ValueError naming the option and its choices."""
    if value not in allowed:
        raise ValueError(f"{name} must be {', '.join(allowed[:-1])} or {allowed[-1]}, not {value!r}")
    return value


def _engine_for(option: str):
    """The native library for ``engine=`` ("auto", "native" or "python"), or None for the Python engine."""
    _one_of("engine", option, ("auto", "native", "python"))
    native = None if option == "python" else native_engine()
    if option == "native" and native is None:
        raise RuntimeError(f"expert: engine=native, but {native_engine_missing()}")
    if option == "auto" and native is None:
        _warn_python_engine()
    return native


class ExpertAgent:
    """``strong`` steered by look-ahead (the module's docstring says how). The options a user
    tunes are the budget (``orders``; ``samples``, ``first``, ``batch``, ``work``), how far the
    look-ahead may overrule ``strong`` (``gain``, ``margin``) and which look-ahead decides where
    (``value``, ``search``, ``claims``: "auto" is each game's best measured, ``GAME_DEFAULTS``).

    >>> ExpertAgent(1, orders=50).orders
    50
    >>> ExpertAgent(1, search="discard+kong").search_kinds == {"discard", "kong"}
    True
    """

    name = "expert"

    def __init__(self, seed: int = 0, samples: int = 48, first: int = 12, batch: int = 12, width: int = 4,
                 work: int = 240, margin: float = 1.0, discard_weight: float = 0.3, rollout: str = "greedy",
                 engine: str = "auto", setup: str = "strong", play: str = "search", search: str = "auto",
                 value: str = "auto", orders: int = 100, gain: float = 0.3, plans: str = "all",
                 declare: str = "strong", claims: str = "auto") -> None:
        """The search (``search=``): ``samples`` determinizations at most a decision, ``first``
        of them for every candidate, then ``batch`` more at a time while the best two are close,
        within ``work`` rollouts a decision; ``width`` plain discards kept besides ``strong``'s;
        ``margin``: leave ``strong``'s choice only for a candidate better by that many standard
        errors; ``discard_weight``: how likely an opponent is to hold a kind it discarded (its
        neighbours: the square root), against 1 for other kinds (1: no weighting); ``rollout``:
        who plays the rollouts, "greedy" or "careful" (``CarefulAgent``: greedy that never
        discards a revealed wait); ``search``: the decisions searched, "none", "all", kinds
        joined by "+" from "discard", "declare", "kong", "claim", or "auto" (``GAME_DEFAULTS``).

        The outlook (``value="outlook"``): ``orders`` sampled orders of draws a decision;
        ``gain``: leave ``strong``'s discard (or pong/pass) only for one the outlook values this
        many points higher; ``plans``: "all", "none" (the hand as it is) or "flush"/"pairs" joined
        by "+"; ``declare``: 亮倒 with an outlook discard by "strong"'s rule or the "outlook"'s;
        ``value`` and ``claims`` (pongs): "outlook", "strong" or "auto" (``GAME_DEFAULTS``).

        ``engine``: "native", "python" or "auto" (native when built; the same decisions either
        way); ``setup``: 定缺 and 换三张 as "strong" or by "search" (``expert_setup``); ``play``:
        "search", or "strong" to play every later decision as ``strong`` (measures the setup
        search alone)."""
        self.rng = random.Random(seed)
        self.strong = StrongAgent(seed, samples=0)  # its look-ahead: the search does better
        self._set_search_budget(samples, first, batch, work, width, margin)
        self.discard_weight = min(1.0, max(1e-3, float(discard_weight)))
        self.policy = _one_of("rollout", rollout, tuple(ROLLOUT_AGENTS))
        self.native = _engine_for(engine)
        self.setup = _one_of("setup", setup, ("strong", "search"))
        self.play_search = _one_of("play", play, ("search", "strong")) == "search"
        self._set_outlook(orders, gain, plans, declare)
        self.search_option = str(search)
        self.value_option = self.value = _one_of("value", value, ("outlook", "strong", "auto"))
        self.claims_option = self.claims = _one_of("claims", claims, ("strong", "outlook", "auto"))
        self.search_kinds: set[str] = set() if search == "auto" else search_kinds(self.search_option)
        self.resolved_for: str | None = None  # the game the "auto" options were last resolved for
        self.rollouts = 0  # played so far (for measurements)
        self.failures = 0  # searches abandoned for strong's choice
        self.outlooks = 0  # decisions the outlook valued
        self.overruled = 0  # ... where it left strong's choice
        # called between pieces of a search of about a millisecond each (rollouts in chunks of
        # ``PAUSE_CHUNK``): a server's 复盘 waits there while its live tables work (server/quiet.py)
        self.pause: Callable[[], None] | None = None

    def _set_search_budget(self, samples, first, batch, work, width, margin) -> None:
        self.samples = max(1, int(samples))
        self.first = max(1, min(int(first), self.samples))
        self.batch = max(1, int(batch))
        self.work = max(1, int(work))
        self.width = max(1, int(width))
        self.margin = float(margin)

    def _set_outlook(self, orders, gain, plans, declare) -> None:
        self.orders = max(1, int(orders))
        self.gain = float(gain)
        self.plans = plans_mask(str(plans))
        self.declare = _one_of("declare", declare, ("strong", "outlook"))
        self.model_params: dict = {}  # outlook.model_for's parameters: its own defaults

    # -- the decision -----------------------------------------------------------------------------

    def act(self, obs: dict, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "win" in types:
            return next(a for a in legal if a.type == "win")
        if obs["phase"] == "turn":  # no search, outlook or fallback may deal into a shown wait
            legal = safe_choices(legal, unsafe_tiles(obs))
        if ("void" in types or "exchange" in types) and self.setup == "search" and len(legal) > 1:
            search = void_search if "void" in types else exchange_search
            try:
                return search(self, obs, legal, self.strong.act(obs, legal))
            except (ValueError, RuntimeError):  # a sample the engine refused (never seen in the tests)
                self.failures += 1
                return self.strong.act(obs, legal)
        if len(legal) == 1 or "void" in types or "exchange" in types or obs["phase"] == "rob" or not self.play_search:
            return self.strong.act(obs, legal)
        view = SeatView(obs)
        if obs["variant"] != self.resolved_for:
            self._resolve_auto(obs["variant"])
        choice = self.strong.act(obs, legal)
        if self.value == "outlook":
            if view.phase == "turn":
                choice = outlook_turn(self, view, legal, choice)
            elif view.phase == "claim" and self.claims == "outlook":
                choice = outlook_claim(self, view, legal, choice)
        if not self.search_kinds:
            return choice
        candidates = self.candidates(view, legal, choice)
        if len(candidates) == 1:
            return candidates[0]
        try:
            return self.search(obs, candidates, choice)
        except (ValueError, RuntimeError):  # a sample the engine refused (never seen in the tests)
            self.failures += 1
            return choice

    def option_values(self, obs: dict, options: list[Action], samples: int | None = None) -> list[OptionValue]:
        """Each of ``options`` (legal at ``obs``) valued by the whole-deal search, whatever this
        agent's own settings decide with: ``samples`` determinizations (default ``self.samples``)
        of what this seat cannot see, every option played from each to the end of the deal by the
        rollout players (the same samples and players for every option: the differences pair up).
        定缺 and 换三张 are played out from the dealer's first turn as ``setup="search"`` plays them.
        Reads only the observation; draws from this agent's seed, so a later ``act`` differs from
        one without this call, but ``act`` itself is unchanged. Not for 抢杠 (``phase`` "rob"): a
        position cannot hold a robbable kong, so a ValueError says so.

        >>> from majiang import Game
        >>> g = Game("kawuxing", seed=1)
        >>> s = g.pending_seats()[0]
        >>> values = ExpertAgent(1).option_values(g.observation(s), g.legal_actions(s)[:2], samples=4)
        >>> [(str(v.action), len(v.points)) for v in values]
        [('discard 2p', 4), ('discard 5p', 4)]
        """
        n = max(2, int(self.samples if samples is None else samples))
        options = list(options)
        if not options:
            return []
        kinds = {a.type for a in options}
        if kinds & {"void", "exchange"}:
            points = setup_points(self, obs, options, n)
        elif obs["phase"] in ("turn", "claim"):
            rng = random.Random(self.rng.getrandbits(64))
            prepared = self.prepare(obs)
            positions = []
            for i in range(n):
                if self.pause is not None and i % PAUSE_CHUNK == 0:
                    self.pause()
                positions.append(self.sample(prepared, rng))
            keys = [[rng.getrandbits(32) for _ in obs["players"]] for _ in range(n)]
            points = [self.play(obs, positions, keys, range(n), a) for a in options]
        else:
            raise ValueError(f"option_values: a {obs['phase']!r} decision cannot be set as a position")
        return [OptionValue(a, *mean_stderr(p), tuple(float(x) for x in p)) for a, p in zip(options, points)]

    def _resolve_auto(self, variant: str) -> None:
        """The options left at "auto" as ``variant``'s ``GAME_DEFAULTS``."""
        self.resolved_for = variant
        defaults = get_game(variant).bots["expert"]
        if self.value_option == "auto":
            self.value = defaults["value"]
        if self.claims_option == "auto":
            self.claims = defaults["claims"]
        if self.search_option == "auto":
            self.search_kinds = search_kinds(defaults["search"])

    def candidates(self, view: SeatView, legal: list[Action], choice: Action) -> list[Action]:
        """The options worth a search: every claim; on a turn, ``strong``'s choice, every kong, the
        discards of the best shanten with the most live tiles (``width`` of them) and the
        declarations with any of those tiles. ``strong``'s choice comes first."""
        kinds = self.search_kinds
        if view.phase == "claim":
            return [choice] + [a for a in legal if a != choice] if "claim" in kinds else [choice]
        counts = view.counts
        unseen = view.unseen()
        plain = [a for a in legal if a.type == "discard"]
        scored = []
        for a in plain:
            k = a.tile
            counts[k] -= 1
            s = view.shanten(counts)
            eff = view.live_improvers(counts, s, unseen)
            counts[k] += 1
            scored.append((s, -eff, int(k), a))
        scored.sort(key=lambda x: x[:3])
        best = scored[0][0] if scored else 99
        keep = [x[3] for x in scored if x[0] == best]
        keep = keep[:self.width]
        tiles = {a.tile for a in keep} | {choice.tile}
        out = [choice]
        for a in legal:
            if a == choice:
                continue
            if (a.type in ("concealed_kong", "added_kong") and "kong" in kinds) \
                    or (a.type == "discard" and a in keep and "discard" in kinds) \
                    or (a.type in ("declare", "sing") and a.tile in tiles and "declare" in kinds):
                out.append(a)
        return out

    # -- determinizations -------------------------------------------------------------------------

    def prepare(self, obs: dict) -> tuple:
        """What every sample of this decision shares: the unseen tiles; per seat its known tiles
        and melds, its sets of unknown kind (concealed kongs, 亮倒's hidden triplets), how many
        single tiles it hides, how likely it is to hold each kind, and its void, out, declared
        and waits; what is being decided (``_head``); the dealer."""
        pool = [int(Tile.parse(k)) for k, c in obs["visible"].items() for _ in range(4 - c)]
        seats = [self._known(obs, p) for p in obs["players"]]
        return pool, seats, _head(obs), obs["dealer"]

    def _known(self, obs: dict, p: dict) -> tuple:
        """One seat's share of ``prepare``: (counts, melds, triplets, hidden, weights, void, out,
        declared, waits)."""
        mine = p["seat"] == obs["seat"]
        counts = [0] * 30
        if mine:
            for t in parse_tiles(p["hand"]):
                counts[t] += 1
        hidden = p.get("hidden", 0)
        melds = []
        for m in p["melds"]:
            if m["tile"] is None:  # another seat's concealed kong: four copies of an unseen kind
                melds.append(None)
                hidden -= 4
            else:
                melds.append(Meld.from_json(m))
        waits: list[int] = []
        triplets = 0
        rev = p.get("revealed")
        if rev:
            waits = [int(Tile.parse(t)) for t in rev.get("waits", [])]
            for t in parse_tiles(rev.get("tiles") or ""):
                counts[t] += 1
            triplets = rev.get("hidden_triplets", 0)
            hidden -= 3 * triplets
        if mine and p.get("declared"):  # our own declared waits (the engine keeps them)
            waits = _own_waits(obs, counts, melds, p.get("void"))
        weights = self._weights(p) if not mine and not p["out"] and hidden else None
        return (counts, melds, triplets, max(0, hidden), weights, p.get("void"), bool(p["out"]),
                p.get("declared"), waits)

    def _weights(self, p: dict) -> list[float]:
        """How likely another seat still in the hand is to hold each kind, relative to the others:
        none of its void suit once it holds none, and less of what it discarded and next to it."""
        weights = [1.0] * 30
        if p.get("void") and not holds_void(p):
            at = "mps".index(p["void"]) * 9
            weights[at:at + 9] = [1e-9] * 9
        if self.discard_weight < 1.0:
            near = self.discard_weight ** 0.5
            for t in {int(Tile.parse(x)) for x in p["discards"]}:
                weights[t] = min(weights[t], self.discard_weight)
                for d in (-1, 1):
                    u = t + d
                    if t < 27 and 0 <= u < 27 and u // 9 == t // 9:
                        weights[u] = min(weights[u], near)
        return weights

    def sample(self, prepared: tuple, rng: random.Random) -> Position:
        """One arrangement of the tiles this seat cannot see, consistent with what it has seen."""
        pool, fixed, head, dealer = prepared
        pool = list(pool)
        rng.shuffle(pool)
        left = [0] * 30
        for t in pool:
            left[t] += 1
        seats = [self._with_sets(f, left, rng) for f in fixed]
        rest = []  # what is left of the pool, in its shuffled order
        for t in pool:
            if left[t] > 0:
                left[t] -= 1
                rest.append(t)
        for seat, f in zip(seats, fixed):
            n, weights = f[3], f[4]
            if not n:
                continue
            if weights is None:
                grab, rest = rest[:n], rest[n:]
            else:
                chosen = _weighted_draw(rest, n, weights, rng.random)
                grab = [rest[i] for i in sorted(chosen)]
                rest = [t for i, t in enumerate(rest) if i not in chosen]
            for t in grab:
                seat.counts[t] += 1
        return Position(head[0], head[1], head[2], dealer, rest, seats)

    def _with_sets(self, fixed: tuple, left: list[int], rng: random.Random) -> SeatPosition:
        """A seat's known tiles with its sets of unknown kind dealt from ``left``: a concealed
        kong four of a kind, a hidden triplet three."""
        counts, melds, triplets, _, _, void, out, declared, waits = fixed
        counts = list(counts)
        if None in melds:
            melds = [m if m is not None else Meld.concealed_kong(self._take_set(left, 4, rng) or 0) for m in melds]
        for _ in range(triplets):
            k = self._take_set(left, 3, rng)
            if k is not None:
                counts[k] += 3
        return SeatPosition(counts, list(melds), void, out, declared, waits)

    @staticmethod
    def _take_set(left, size: int, rng: random.Random):
        kinds = [k for k in range(30) if left[k] >= size]
        if not kinds:
            return None
        k = kinds[rng.randrange(len(kinds))]
        left[k] -= size
        return k
    # -- the search -------------------------------------------------------------------------------

    def search(self, obs: dict, candidates: list[Action], choice: Action) -> Action:
        seed = self.rng.getrandbits(64)
        players = len(obs["players"])
        positions: list[Position] = []
        keys: list[list[int]] = []
        points: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        rng = random.Random(seed)
        prepared = self.prepare(obs)
        target = self.first
        while True:
            while len(positions) < target:
                positions.append(self.sample(prepared, rng))
                keys.append([rng.getrandbits(32) for _ in range(players)])
            done = len(points[alive[0]])
            new = range(done, len(positions))
            for i in alive:
                points[i].extend(self.play(obs, positions, keys, new, candidates[i]))
            best = max(alive, key=lambda i: sum(points[i]))
            n = len(points[best])
            still = [best]
            for i in alive:
                if i == best:
                    continue
                d = [a - b for a, b in zip(points[best], points[i])]
                mean = sum(d) / n
                var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
                se = math.sqrt(var / n) if n > 1 else float("inf")
                if mean <= 2.0 * se:
                    still.append(i)
            alive = sorted(still)
            spent = sum(len(p) for p in points)
            more = min(self.batch, self.samples - len(positions), (self.work - spent) // len(alive))
            if len(alive) == 1 or more <= 0:
                break
            target = len(positions) + more
        best = max(alive, key=lambda i: (sum(points[i]) / len(points[i]), candidates[i] == choice))
        if self.margin > 0 and best != 0:  # candidates[0] is strong's choice: leave it only when clearly worse
            d = [a - b for a, b in zip(points[best], points[0])]
            n = len(d)
            mean = sum(d) / n
            se = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, n - 1) / n)
            if mean <= self.margin * se:
                return candidates[0]
        return candidates[best]

    def play(self, obs: dict, positions: list[Position], keys, which, action: Action) -> list[float]:
        """This seat's points in the rollouts from ``positions[i]`` (i in ``which``) after ``action``."""
        which = list(which)
        self.rollouts += len(which)
        chunk = PAUSE_CHUNK if self.native is not None else 1  # a Python rollout alone takes milliseconds
        if self.pause is not None and len(which) > chunk:  # the same rollouts, a pause between chunks
            return [x for at in range(0, len(which), chunk)
                    for x in self._play_chunk(obs, positions, keys, which[at:at + chunk], action)]
        return self._play_chunk(obs, positions, keys, which, action)

    def _play_chunk(self, obs: dict, positions: list[Position], keys, which: list[int], action: Action) -> list[float]:
        if self.pause is not None:
            self.pause()
        me = obs["seat"]
        if self.native is not None:
            return self.play_native(obs, positions, keys, which, action)
        rules = SeatView(obs).rules
        out = []
        for i in which:
            g = rollout_python(rules, positions[i], me, action, keys[i], self.policy)
            out.append(g[me])
        return out

    def play_native(self, obs, positions, keys, which, action) -> list[float]:
        import numpy as np

        native = self.native
        rules = SeatView(obs).rules
        from majiang.native import spec

        rows = np.zeros((len(which), spec.POS_LEN), dtype=np.int64)
        for r, i in enumerate(which):
            native.position_array(positions[i], rows[r])
        acts = np.full(len(which), spec.action_index(action), dtype=np.int64)
        k = np.array([keys[i] for i in which], dtype=np.uint32)
        pts = native.rollouts(rules, rows, obs["seat"], acts, k, self.policy)
        return pts[:, obs["seat"]].tolist()


def _head(obs: dict) -> tuple:
    """What the decision is, as a position starts: ("claim", discarder, tile) or ("turn", seat, drawn)."""
    if obs["phase"] == "claim":
        ld = obs["last_discard"]
        return "claim", ld["seat"], int(Tile.parse(ld["tile"]))
    drawn = obs.get("drawn")
    return "turn", obs["seat"], int(Tile.parse(drawn)) if drawn else None


def _own_waits(obs: dict, counts: list[int], melds: list, void) -> list[int]:
    """This seat's waits as declared: its hand without the tile just drawn."""
    held = list(counts)
    if sum(held) % 3 == 2 and obs.get("drawn"):
        held[Tile.parse(obs["drawn"])] -= 1
    return [int(t) for t in waits_of(Hand(tuple(held), tuple(melds)), SeatView(obs).variant, void)]


def _weighted_draw(rest: list[int], n: int, weights: list[float], rand) -> set[int]:
    """Which ``n`` of the tiles ``rest`` a hand is dealt, as indices into ``rest``: weighted draws
    without replacement (Efraimidis-Spirakis keys)."""
    keys = sorted(((rand() ** (1.0 / weights[t]), i) for i, t in enumerate(rest)), reverse=True)
    return {i for _, i in keys[:n]}


def holds_void(player: dict) -> bool:
    """Whether another seat may still hold tiles of its void suit: a seat holding any must discard
    them first, so once it has discarded a tile of another suit it holds none (a void tile it
    draws later goes out on that same turn). Before its first discard it may hold several."""
    discards = player["discards"]
    return not discards or Tile.parse(discards[-1]).suit == player["void"]
