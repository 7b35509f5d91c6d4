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

from majiang.bots.base import SeatView, native_engine
from majiang.bots.expert_outlook import outlook_claim, outlook_turn, plans_mask
from majiang.bots.expert_setup import exchange_search, void_search
from majiang.bots.rollout import ROLLOUT_AGENTS, rollout_python
from majiang.bots.strong import StrongAgent
from majiang.core.analysis import isolation, shanten_counts
from majiang.core.analysis import waits as waits_of
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import Tile, parse_tiles
from majiang.engine import Action
from majiang.engine.position import Position, SeatPosition


# What value="auto", search="auto" and claims="auto" mean in each game: its best setting as
# measured against strong (docs/BOTS.md). In Kawuxing the outlook of the seat's own draws gains,
# its pongs add a little and whole-deal search adds nothing on top; in Sichuan the outlook gains
# nothing measurable (blood battle's later wins and 查大叫 are what its model reads worst) and the
# discard search is the best measured.
GAME_DEFAULTS = {"kawuxing": {"value": "outlook", "search": "none", "claims": "outlook"},
                 "sichuan": {"value": "strong", "search": "discard", "claims": "strong"}}
SEARCH_KINDS = ("discard", "declare", "kong", "claim")


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

    warnings.warn("expert: the native engine is not built, so its search runs in Python: the same decisions, "
                  "30-60x slower (build it: python -m majiang.native build; engine=python to choose this)",
                  RuntimeWarning, stacklevel=3)


class ExpertAgent:
    name = "expert"

    def __init__(self, seed: int = 0, samples: int = 48, first: int = 12, batch: int = 12, width: int = 4,
                 work: int = 240, margin: float = 1.0, discard_weight: float = 0.3, ready_bias: int = 0,
                 rollout: str = "greedy", safety: float = -1.0, engine: str = "auto", setup: str = "strong",
                 play: str = "search", search: str = "auto", hands: str = "random", draws: int = 24,
                 value: str = "auto", orders: int = 100, gain: float = 0.3, plans: str = "all",
                 declare: str = "strong", claims: str = "auto", hazard: float = 1.0, frozen: float = 0.0,
                 passes: int = 0, read: int = 0, read_beta: float = 2.0, read_isolation: float = 0.5) -> None:
        """``samples``: determinizations at most a decision; ``first`` of them for every
        candidate, then ``batch`` more at a time while the best two are close, within ``work``
        rollouts a decision; ``width``: plain discards kept besides ``strong``'s; ``margin``: leave
        ``strong``'s choice only for a candidate better by that many standard errors;
        ``discard_weight``: how likely an opponent is to hold a kind it discarded (its neighbours:
        the square root), against 1 for other kinds (1: no weighting); ``ready_bias``: draw each
        opponent's hand that many more times and keep the one nearest ready (real hands are
        shaped by play, random ones are far from ready); ``rollout``: who plays the rollouts,
        "careful" (``CarefulAgent``: greedy that never discards a revealed wait) or "greedy";
        ``safety``: when 0 or more, search only discards at most that much more dangerous than
        ``strong``'s choice by ``strong``'s danger estimate (the rollouts' sampled hands are
        seldom ready, so they see little danger); ``engine``: "native", "python" or "auto" (native when built);
        ``setup``: "strong" (定缺 and 换三张 as ``strong``) or "search" (both searched too, see
        ``expert_setup``); ``play``: "search", or "strong" to play every later decision as
        ``strong`` (measures the setup search alone);
        ``search``: the decisions searched by whole-deal rollouts, "none", "all" or kinds joined by
        "+" from "discard" (another plain discard than the choice so far), "declare", "kong",
        "claim", or "auto": each game's best measured (``GAME_DEFAULTS``);
        ``hands``: "random" (opponents' hidden tiles drawn by ``discard_weight`` alone) or "played"
        (each undeclared opponent's shanten drawn first from how far real hands are from ready
        after that many discards, ``PLAYED_SHANTEN``, then up to ``draws`` hands drawn until one
        is that far; a 唱歌/跳舞 hand is drawn ready);
        ``value``: "outlook" (discards weighed by ``majiang.bots.outlook``), "strong" or "auto"
        (``GAME_DEFAULTS``);
        ``orders``: the outlook's sampled orders of draws a decision; ``gain``: leave ``strong``'s
        discard (or pong/pass) only for one the outlook values this many points higher;
        ``plans``: the outlook's plans, "all", "none" (the hand as it is) or "flush"/"pairs"
        joined by "+"; ``declare``: 亮倒 with an outlook discard by "strong"'s rule or the
        "outlook"'s; ``claims``: pongs by "strong", the "outlook" or "auto" (``GAME_DEFAULTS``);
        ``hazard``: a factor on the model's chance that another seat ends the hand each round;
        ``frozen``: how much of the deal-ins a frozen hand cannot avoid once another hand is
        declared is charged to 亮倒 (``StrongAgent._frozen_risk``; 0: none, 1: all; docs/BOTS.md);
        ``passes``: redraw (up to that many times) a sampled opponent hand that would have won on a
        tile discarded since that opponent's last turn (``passed_kinds``), 0 to draw as before;
        ``read``: draw that many hands for each undeclared opponent (with ``hands=played``: that
        many as far from ready as drawn) and keep one with the chance that its last discard was
        the one to let go (``_discard_likelihood``: ``read_beta`` per step of shanten it keeps,
        ``read_isolation`` per point of ``isolation``; without ``hands=played``, ``passes`` is not
        applied to these draws), 0 to keep the first."""
        self.rng = random.Random(seed)
        self.strong = StrongAgent(seed, samples=0, frozen=frozen)  # its look-ahead: the search does better
        self.samples = max(1, int(samples))
        self.first = max(1, min(int(first), self.samples))
        self.batch = max(1, int(batch))
        self.work = max(1, int(work))
        self.margin = float(margin)
        self.discard_weight = min(1.0, max(1e-3, float(discard_weight)))
        self.ready_bias = max(0, int(ready_bias))
        self.width = max(1, int(width))
        if rollout not in ROLLOUT_AGENTS:
            raise ValueError(f"rollout must be {' or '.join(ROLLOUT_AGENTS)}, not {rollout!r}")
        self.policy = rollout
        self.safety = float(safety)
        if engine not in ("auto", "native", "python"):
            raise ValueError(f"engine must be auto, native or python, not {engine!r}")
        self.native = None if engine == "python" else native_engine()
        if engine == "native" and self.native is None:
            raise RuntimeError("the native engine is not built (python -m majiang.native build)")
        if engine == "auto" and self.native is None:
            _warn_python_engine()
        if setup not in ("strong", "search"):
            raise ValueError(f"setup must be strong or search, not {setup!r}")
        self.setup = setup
        if play not in ("search", "strong"):
            raise ValueError(f"play must be search or strong, not {play!r}")
        self.play_search = play == "search"
        self.search_option = str(search)
        self.search_kinds: set[str] = set()  # search="auto": set by the game at its first decision
        self.resolved_for: str | None = None  # the game the "auto" options were last resolved for
        if search != "auto":
            self.search_kinds = search_kinds(self.search_option)
        if hands not in ("random", "played"):
            raise ValueError(f"hands must be random or played, not {hands!r}")
        self.hands = hands
        self.draws = max(1, int(draws))
        if value not in ("outlook", "strong", "auto"):
            raise ValueError(f"value must be outlook, strong or auto, not {value!r}")
        self.value_option = self.value = value
        self.orders = max(1, int(orders))
        self.gain = float(gain)
        self.plans = plans_mask(str(plans))
        if declare not in ("strong", "outlook"):
            raise ValueError(f"declare must be strong or outlook, not {declare!r}")
        self.declare = declare
        if claims not in ("strong", "outlook", "auto"):
            raise ValueError(f"claims must be strong, outlook or auto, not {claims!r}")
        self.claims_option = self.claims = claims
        self.model_params = {} if float(hazard) == 1.0 else {"hazard_scale": float(hazard)}
        self.passes = max(0, int(passes))
        self.read = max(0, int(read))
        self.read_beta = float(read_beta)
        self.read_isolation = float(read_isolation)
        self.rollouts = 0  # played so far (for measurements)
        self.failures = 0  # searches abandoned for strong's choice
        self.outlooks = 0  # decisions the outlook valued
        self.overruled = 0  # ... where it left strong's choice

    # -- the decision -----------------------------------------------------------------------------

    def act(self, obs: dict, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "win" in types:
            return next(a for a in legal if a.type == "win")
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
            self.resolved_for = obs["variant"]
            defaults = GAME_DEFAULTS[obs["variant"]]
            if self.value_option == "auto":
                self.value = defaults["value"]
            if self.claims_option == "auto":
                self.claims = defaults["claims"]
            if self.search_option == "auto":
                self.search_kinds = search_kinds(defaults["search"])
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
        if self.safety >= 0 and choice.tile is not None:
            danger, _ = self.strong._danger(view, unseen)
            keep = [a for a in keep if danger[a.tile] <= danger[choice.tile] + self.safety]
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
        """What every sample of this decision shares: the unseen tiles, and per seat its known
        tiles and melds, its sets of unknown kind (concealed kongs, 亮倒's hidden triplets), how
        many single tiles it hides and the suit it may not hold."""
        me = obs["seat"]
        pool = []
        for k, c in obs["visible"].items():
            pool.extend([int(Tile.parse(k))] * (4 - c))
        seats = []
        for p in obs["players"]:
            s = p["seat"]
            counts = [0] * 30
            if s == me:
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
            if s == me and p.get("declared"):  # our own declared waits (the engine keeps them)
                held = list(counts)
                if sum(held) % 3 == 2 and obs.get("drawn"):
                    held[Tile.parse(obs["drawn"])] -= 1
                hand = Hand(tuple(held), tuple(melds))
                waits = [int(t) for t in waits_of(hand, SeatView(obs).variant, p.get("void"))]
            weights = None  # how likely the seat is to hold each kind, relative to the others
            if s != me and not p["out"] and hidden:
                weights = [1.0] * 30
                if p.get("void") and not holds_void(p):  # none of its void suit left (unless nothing else is)
                    at = "mps".index(p["void"]) * 9
                    weights[at:at + 9] = [1e-9] * 9
                if self.discard_weight < 1.0:  # what a seat discarded it seldom still holds, nor next to it
                    near = self.discard_weight ** 0.5
                    for t in {int(Tile.parse(x)) for x in p["discards"]}:
                        weights[t] = min(weights[t], self.discard_weight)
                        for d in (-1, 1):
                            u = t + d
                            if t < 27 and 0 <= u < 27 and u // 9 == t // 9:
                                weights[u] = min(weights[u], near)
            seats.append((counts, melds, triplets, max(0, hidden), weights, p.get("void"), bool(p["out"]),
                          p.get("declared"), waits,
                          passed_kinds(obs, s) if weights is not None and self.passes else (),
                          last_discard(p) if weights is not None and self.read else None))
        if obs["phase"] == "claim":
            ld = obs["last_discard"]
            head = ("claim", ld["seat"], int(Tile.parse(ld["tile"])))
        else:
            drawn = obs.get("drawn")
            head = ("turn", me, int(Tile.parse(drawn)) if drawn else None)
        targets: list = [None] * len(seats)
        if self.hands == "played":
            table = PLAYED_SHANTEN.get(obs["variant"])
            for p in obs["players"]:
                s = p["seat"]
                if s == me or p["out"] or not seats[s][3]:
                    continue
                if p.get("declared"):  # a 唱歌/跳舞 hand is ready
                    targets[s] = (1.0,)
                elif table is not None:
                    row = table[min(len(p["discards"]), len(table) - 1)][1 if p["melds"] else 0]
                    cum, acc = [], 0.0
                    for x in row:
                        acc += x
                        cum.append(acc)
                    targets[s] = tuple(cum)
        if self.ready_bias or self.hands == "played" or self.passes or self.read:
            view = SeatView(obs)
            rules, variant = view.rules, view.variant
            if self.native is not None:
                native = self.native

                def distance(counts, melds, void):
                    return native.shanten(rules, counts, 4 - len(melds), void, None, not melds)
            else:
                def distance(counts, melds, void):
                    return shanten_counts(counts, variant, 4 - len(melds), void, None, seven_pairs=not melds)
            self._distance = distance
        return pool, seats, head, obs["dealer"], targets

    def sample(self, prepared: tuple, rng: random.Random) -> Position:
        """One arrangement of the tiles this seat cannot see, consistent with what it has seen."""
        pool, fixed, head, dealer, targets = prepared
        pool = list(pool)
        rng.shuffle(pool)
        left = [0] * 30
        for t in pool:
            left[t] += 1
        seats: list[SeatPosition] = []
        for counts, melds, triplets, _, _, void, out, declared, waits, _, _ in fixed:
            counts = list(counts)
            if None in melds:
                melds = [m if m is not None else Meld.concealed_kong(self._take_set(left, 4, rng) or 0)
                         for m in melds]
            for _ in range(triplets):
                k = self._take_set(left, 3, rng)
                if k is not None:
                    counts[k] += 3
            seats.append(SeatPosition(counts, list(melds), void, out, declared, waits))
        rest = []  # what is left of the pool, in its shuffled order
        for t in pool:
            if left[t] > 0:
                left[t] -= 1
                rest.append(t)
        for s, f in enumerate(fixed):
            n, weights = f[3], f[4]
            if not n:
                continue
            if weights is None:
                grab, rest = rest[:n], rest[n:]
            else:
                chosen = self._choose_hand(rest, n, weights, seats[s].counts, seats[s].melds, f[5], targets[s],
                                           f[9], f[10], rng.random)
                grab = [rest[i] for i in sorted(chosen)]
                rest = [t for i, t in enumerate(rest) if i not in chosen]
            c = seats[s].counts
            for t in grab:
                c[t] += 1
        return Position(head[0], head[1], head[2], dealer, rest, seats)

    def _choose_hand(self, rest: list[int], n: int, weights, held, melds, void, target, passed, last,
                     rand) -> set[int]:
        """Which ``n`` of the tiles ``rest`` an opponent holding ``held`` (and ``melds``) is dealt,
        as indices into ``rest``: weighted draws without replacement (Efraimidis-Spirakis keys),
        then, as the options say, the draw as far from ready as ``target`` wants (``hands=played``),
        one of ``read`` by the likelihood of its ``last`` discard, the nearest ready of
        1 + ``ready_bias``, or one not complete with a ``passed`` tile."""
        def draw() -> set[int]:
            keys = sorted(((rand() ** (1.0 / weights[t]), i) for i, t in enumerate(rest)), reverse=True)
            return {i for _, i in keys[:n]}

        def hand(chosen: set[int]) -> list[int]:
            c = list(held)
            for i in chosen:
                c[rest[i]] += 1
            return c

        read = self.read if last is not None else 0
        matches: list[set[int]] = []  # the hands that are candidates for the read
        if target is not None:  # of up to ``draws`` draws, the first that far from ready (else the nearest)
            u = rand()
            want = next((d for d, c in enumerate(target) if u < c), len(target) - 1)
            best = None
            for _ in range(self.draws * max(1, read)):
                chosen = draw()
                c = hand(chosen)
                d = abs(min(4, self._distance(c, melds, void)) - want)
                if passed and self._wins_on(c, melds, void, passed):
                    d += 10  # it would have won on a tile let go since its last turn
                if best is None or d < best[0]:
                    best = (d, chosen)
                if d == 0:
                    matches.append(chosen)
                    if len(matches) >= read:
                        break
            if not (read and matches):
                return best[1]
        elif read:
            matches = [draw() for _ in range(read)]
        if read:  # one of them by the chance its last discard was let go from it
            odds = [self._discard_likelihood(hand(m), melds, void, last) for m in matches]
            u = rand() * sum(odds)
            for chosen, o in zip(matches, odds):
                u -= o
                if u <= 0:
                    return chosen
            return matches[-1]
        if self.ready_bias:  # of several draws, the hand nearest ready
            tries = [draw() for _ in range(1 + self.ready_bias)]
            return min(tries, key=lambda c: self._distance(hand(c), melds, void))
        chosen = draw()
        if passed:  # a hand that would have won on a tile discarded since its last turn is redrawn
            for _ in range(self.passes):
                if not self._wins_on(hand(chosen), melds, void, passed):
                    break
                chosen = draw()
        return chosen

    def _discard_likelihood(self, counts, melds, void, discarded: int) -> float:
        """How likely a player holding ``counts`` (3n+1, after its discard) was to let go of
        ``discarded`` rather than any other kind of the 3n+2 it held: a softmax over the kinds
        held, each scored by the shanten left without it (``read_beta`` a step) and how isolated
        it was (``read_isolation`` a point of ``isolation``). A void-suit tile held goes first."""
        held = list(counts)
        held[discarded] += 1
        if void:
            at = "mps".index(void) * 9
            if any(held[at:at + 9]):
                return 1.0 if at <= discarded < at + 9 else 1e-6
        scores = {}
        for k in range(30):
            if held[k]:
                held[k] -= 1
                s = min(6, self._distance(held, melds, void))
                held[k] += 1
                scores[k] = -self.read_beta * s - self.read_isolation * isolation(held, k)
        top = max(scores.values())
        return math.exp(scores[discarded] - top) / sum(math.exp(v - top) for v in scores.values())

    def _wins_on(self, counts, melds, void, kinds) -> bool:
        """Whether a hand waiting for a tile (3n+1) would be complete with any of ``kinds``."""
        if self._distance(counts, melds, void) != 0:
            return False
        for k in kinds:
            counts[k] += 1
            done = self._distance(counts, melds, void) == -1
            counts[k] -= 1
            if done:
                return True
        return False

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
        me = obs["seat"]
        which = list(which)
        self.rollouts += len(which)
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


# How far from ready (shanten 0, 1, 2, 3, 4 or more) an undeclared opponent's hand is, by how many
# tiles it has discarded (the last row: that many or more) and whether it has melded (second
# entry), in `strong` self-play (150 Kawuxing `standard`, 60 Sichuan `chengdu` deals, at every turn).
PLAYED_SHANTEN = {
    "kawuxing": (
        ((0.00, 0.11, 0.42, 0.41, 0.05), (0.00, 0.11, 0.42, 0.41, 0.05)),  # 0
        ((0.00, 0.24, 0.53, 0.23, 0.01), (0.00, 0.38, 0.62, 0.00, 0.00)),  # 1
        ((0.00, 0.45, 0.47, 0.08, 0.00), (0.00, 0.74, 0.26, 0.00, 0.00)),  # 2
        ((0.01, 0.62, 0.34, 0.04, 0.00), (0.04, 0.84, 0.12, 0.00, 0.00)),  # 3
        ((0.06, 0.65, 0.28, 0.02, 0.00), (0.06, 0.85, 0.09, 0.00, 0.00)),  # 4
        ((0.08, 0.77, 0.14, 0.01, 0.00), (0.08, 0.82, 0.10, 0.00, 0.00)),  # 5
        ((0.11, 0.81, 0.07, 0.01, 0.00), (0.11, 0.80, 0.09, 0.00, 0.00)),  # 6
        ((0.10, 0.85, 0.05, 0.00, 0.00), (0.27, 0.63, 0.10, 0.00, 0.00)),  # 7
        ((0.10, 0.87, 0.03, 0.00, 0.00), (0.31, 0.58, 0.11, 0.00, 0.00)),  # 8
        ((0.04, 0.94, 0.02, 0.00, 0.00), (0.34, 0.61, 0.05, 0.00, 0.00)),  # 9+
    ),
    "sichuan": (
        ((0.00, 0.01, 0.15, 0.44, 0.40), (0.00, 0.01, 0.15, 0.44, 0.40)),  # 0
        ((0.00, 0.04, 0.26, 0.52, 0.19), (0.00, 0.23, 0.18, 0.51, 0.08)),  # 1
        ((0.01, 0.09, 0.33, 0.50, 0.07), (0.00, 0.21, 0.50, 0.27, 0.02)),  # 2
        ((0.04, 0.14, 0.45, 0.33, 0.04), (0.01, 0.36, 0.52, 0.11, 0.00)),  # 3
        ((0.04, 0.22, 0.45, 0.25, 0.03), (0.08, 0.47, 0.36, 0.08, 0.02)),  # 4
        ((0.07, 0.35, 0.37, 0.21, 0.00), (0.11, 0.55, 0.28, 0.07, 0.00)),  # 5
        ((0.11, 0.42, 0.37, 0.10, 0.00), (0.23, 0.47, 0.26, 0.03, 0.00)),  # 6
        ((0.15, 0.45, 0.33, 0.08, 0.00), (0.27, 0.57, 0.16, 0.00, 0.00)),  # 7
        ((0.24, 0.48, 0.28, 0.00, 0.00), (0.37, 0.49, 0.14, 0.00, 0.00)),  # 8
        ((0.30, 0.57, 0.13, 0.00, 0.00), (0.43, 0.52, 0.06, 0.00, 0.00)),  # 9
        ((0.39, 0.58, 0.03, 0.00, 0.00), (0.53, 0.44, 0.03, 0.00, 0.00)),  # 10
        ((0.45, 0.53, 0.03, 0.00, 0.00), (0.64, 0.34, 0.03, 0.00, 0.00)),  # 11
        ((0.60, 0.36, 0.03, 0.00, 0.00), (0.66, 0.34, 0.00, 0.00, 0.00)),  # 12
        ((0.81, 0.19, 0.00, 0.00, 0.00), (0.79, 0.21, 0.00, 0.00, 0.00)),  # 13+
    ),
}


def passed_kinds(obs: dict, seat: int) -> tuple[int, ...]:
    """The kinds ``seat``'s hand as it is now did not win on: every tile discarded by another seat
    since its own last discard (a win beats every other claim, and a seat wins whenever it can:
    a pass is rare), placed in time by the turn order (the i-th discard of a seat about i rounds
    in; claims shift that a little). Empty where a discard may not be won (a minimum value for
    wins on a discard)."""
    if int((obs.get("rules") or {}).get("min_ron_multiplier", 1)) > 1:
        return ()
    players = obs["players"]
    n = len(players)
    dealer = obs["dealer"]

    def when(p: int, i: int) -> int:
        return i * n + (p - dealer) % n

    mine = players[seat]["discards"]
    since = when(seat, len(mine) - 1) if mine else -1
    kinds: set[int] = set()
    for p in players:
        if p["seat"] == seat:
            continue
        for i in range(len(p["discards"]) - 1, -1, -1):
            if when(p["seat"], i) <= since:
                break
            kinds.add(int(Tile.parse(p["discards"][i])))
    return tuple(sorted(kinds))


def last_discard(player: dict) -> int | None:
    """The kind a seat let go of last (its hand now is what it held then without it), or None
    when it has not discarded or is declared (a declared hand's discards are forced)."""
    if not player["discards"] or player.get("declared"):
        return None
    return int(Tile.parse(player["discards"][-1]))


def holds_void(player: dict) -> bool:
    """Whether another seat may still hold tiles of its void suit: a seat holding any must discard
    them first, so once it has discarded a tile of another suit it holds none (a void tile it
    draws later goes out on that same turn). Before its first discard it may hold several."""
    discards = player["discards"]
    return not discards or Tile.parse(discards[-1]).suit == player["void"]
