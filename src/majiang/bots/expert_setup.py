"""``expert``'s 定缺 and 换三张 by search (Sichuan): judged by playing the hand out.

``strong`` gives up the suit that leaves the best two-suit shanten, then the one with fewest tiles.
Where another suit is close (its shanten at most one worse), ``void_search`` deals the tiles this
seat cannot see at random (nothing has been discarded yet, so every arrangement is as likely),
gives each opponent the void ``strong`` would choose with that hand, and plays the deal out from
the dealer's first turn once per candidate suit, every seat played by the rollout policy
(common random numbers: every candidate meets the same deals and the same players). The seats
before this one's first decision are stepped in the Python engine (a few moves), the rest is one
batch of native rollouts (or the Python reference). It keeps ``strong``'s suit unless another is
better by ``margin`` standard errors, and spends at most ``work`` rollouts.

``exchange_search`` does the same for 换三张: ``strong``'s three tiles against the least connected
three of each other suit that has three. In each sample every opponent passes what ``strong``
would pass, the direction is drawn as the dice fall (an odd sum to the next seat, 6 or 12 across,
else to the previous; the dice are not in the observation), every seat then gives up the suit
``strong`` would, and the deal is played out as above.
"""

from __future__ import annotations

import math
import random

from majiang.bots.base import SeatView, isolation, suit_counts
from majiang.bots.rollout import ROLLOUT_AGENTS, rollout_python
from majiang.bots.strong import exchange_choice, void_choice
from majiang.core.analysis import shanten_counts
from majiang.core.tiles import Tile
from majiang.engine import Action
from majiang.engine.position import Position, SeatPosition, game_at, position_of


def void_candidates(view: SeatView, choice: Action) -> list[str]:
    """``strong``'s suit first, then every suit whose two-suit shanten is at most one worse."""
    counts = view.counts
    sets = 4 - len(view.melds)
    shanten = {v: shanten_counts(counts, view.variant, sets, v, None, seven_pairs=True) for v in "mps"}
    best = shanten[choice.suit]
    return [choice.suit] + [v for v in "mps" if v != choice.suit and shanten[v] <= best + 1]


def _deal(view: SeatView, obs: dict, pool: list[int], rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Every seat's concealed tiles (this seat's as they are, the others' drawn from the shuffled
    unseen ``pool``) and the wall that is left, in its drawn order."""
    rng.shuffle(pool)
    hands, at = [], 0
    for p in obs["players"]:
        if p["seat"] == obs["seat"]:
            hands.append(list(view.counts))
            continue
        c = [0] * 30
        for t in pool[at:at + p.get("hidden", 0)]:
            c[t] += 1
        at += p.get("hidden", 0)
        hands.append(c)
    return hands, pool[at:]


def _unseen(obs: dict) -> list[int]:
    return [int(Tile.parse(k)) for k, c in obs["visible"].items() for _ in range(4 - c)]


def _choose(agent, points: list[list[float]]) -> int:
    """The best candidate by mean points, unless it beats candidate 0 (``strong``'s) by less than
    ``margin`` standard errors of the paired difference."""
    best = max(range(len(points)), key=lambda i: sum(points[i]))
    if best != 0:
        d = [a - b for a, b in zip(points[best], points[0])]
        n = len(d)
        mean = sum(d) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, n - 1) / n)
        if mean <= agent.margin * se:
            best = 0
    return best


def _search(agent, obs: dict, view: SeatView, count: int, positions) -> int:
    """Which of ``count`` candidates plays out best: ``positions(hands, wall, rng)`` gives each
    candidate's starting position for one deal of the unseen tiles."""
    n = max(2, min(agent.samples, agent.work // count))
    return _choose(agent, _points(agent, obs, view, count, positions, n))


def _points(agent, obs: dict, view: SeatView, count: int, positions, n: int) -> list[list[float]]:
    """Each of ``count`` candidates' points over ``n`` deals of the unseen tiles (the same deals
    and players for every candidate)."""
    me = obs["seat"]
    pool = _unseen(obs)
    rng = random.Random(agent.rng.getrandbits(64))
    points: list[list[float]] = [[] for _ in range(count)]
    pause = getattr(agent, "pause", None)
    for _ in range(n):
        if pause is not None:  # a review waits here while a server's tables work (one deal: about a millisecond)
            pause()
        hands, wall = _deal(view, obs, pool, rng)
        keys = [rng.getrandbits(32) for _ in hands]
        for i, pos in enumerate(positions(hands, wall, rng)):
            points[i].append(_play_out(agent, view.rules, pos, me, keys))
    return points


def setup_points(agent, obs: dict, options: list[Action], n: int) -> list[list[float]]:
    """Each of ``options`` (all 定缺 or all 换三张) valued by the search above over ``n`` deals:
    this seat's points in each deal, played out from the dealer's first turn (for ``expert``'s
    ``option_values``, which a review reads)."""
    view = SeatView(obs)
    kinds = {a.type for a in options}
    if kinds == {"void"}:
        builder = _void_positions(view, obs, [a.suit for a in options])
    elif kinds == {"exchange"}:
        builder = _exchange_positions(view, obs, options)
    else:
        raise ValueError(f"setup_points values 定缺 or 换三张 options, not {sorted(kinds)}")
    return _points(agent, obs, view, len(options), builder, max(2, int(n)))


def void_search(agent, obs: dict, legal: list[Action], choice: Action) -> Action:
    view = SeatView(obs)
    suits = void_candidates(view, choice)
    if len(suits) == 1:
        return choice
    best = _search(agent, obs, view, len(suits), _void_positions(view, obs, suits))
    return next(a for a in legal if a.suit == suits[best])


def _void_positions(view: SeatView, obs: dict, suits: list[str]):
    """The positions of one deal, one for each of ``suits`` as this seat's void: every opponent
    gives up the suit ``strong`` would with its sampled hand."""
    me, dealer = obs["seat"], obs["dealer"]

    def positions(hands, wall, rng):
        voids = [None if s == me else void_choice(hands[s], view.variant) for s in range(len(hands))]
        return [Position("turn", dealer, None, dealer, list(wall),
                         [SeatPosition(list(h), [], suit if s == me else voids[s]) for s, h in enumerate(hands)])
                for suit in suits]

    return positions


def exchange_candidates(view: SeatView, legal: list[Action], choice: Action) -> list[Action]:
    """``strong``'s three tiles first, then the least connected three of each other suit with three."""
    counts = view.counts
    out = [choice]
    for suit in "mps":
        if suit == choice.tiles[0].suit:
            continue
        options = [a for a in legal if a.tiles[0].suit == suit]
        if options:
            out.append(min(options, key=lambda a: sum(isolation(counts, t) for t in a.tiles)))
    return out


# how the dice send the three tiles: 2d6, an odd sum to the next seat, 6 or 12 across, else back
_STEPS = [(1, 18 / 36), (2, 6 / 36), (-1, 12 / 36)]


def exchange_search(agent, obs: dict, legal: list[Action], choice: Action) -> Action:
    view = SeatView(obs)
    options = exchange_candidates(view, legal, choice)
    if len(options) == 1:
        return choice
    return options[_search(agent, obs, view, len(options), _exchange_positions(view, obs, options))]


def _exchange_positions(view: SeatView, obs: dict, options: list[Action]):
    """The positions of one deal, one for each of ``options`` as this seat's three tiles: every
    opponent passes what ``strong`` would, the direction drawn as the dice fall."""
    me, dealer, n = obs["seat"], obs["dealer"], len(obs["players"])

    def positions(hands, wall, rng):
        passed = {s: [int(t) for t in exchange_choice(hands[s], view.variant)] for s in range(n) if s != me}
        r, step = rng.random(), -1
        for st, p in _STEPS:
            if r < p:
                step = st
                break
            r -= p
        out = []
        for option in options:
            after = [list(h) for h in hands]
            for s, tiles in {**passed, me: [int(t) for t in option.tiles]}.items():
                for t in tiles:
                    after[s][t] -= 1
                    after[(s + step) % n][t] += 1
            out.append(Position("turn", dealer, None, dealer, list(wall),
                                [SeatPosition(h, [], _void_after(h, view.variant)) for h in after]))
        return out

    return positions


def _void_after(counts: list[int], variant) -> str:
    """The void a seat gets after the exchange: a suit it no longer holds (天缺), else ``strong``'s."""
    sc = suit_counts(counts)
    missing = [v for v in "mps" if sc[v] == 0]
    return missing[0] if missing else void_choice(counts, variant)


def _play_out(agent, rules, pos: Position, me: int, keys: list[int]) -> float:
    """This seat's points from ``pos`` to the end of the deal, every seat playing the rollout
    policy seeded by its key: the seats before this one's first decision in the Python engine,
    then one rollout from there (native when built)."""
    agent.rollouts += 1
    g = game_at(rules, pos)
    agents = {s: ROLLOUT_AGENTS[agent.policy](keys[s]) for s in range(g.n)}
    while not g.over and me not in g.pending_seats():
        s = g.pending_seats()[0]
        g.apply(s, agents[s].act(g.observation(s), g.legal_actions(s)))
    here = None if g.over or any(seat.out for seat in g.seats) else position_of(g)
    if here is None:
        # over already, or somebody has won (a position holds no wins), or a robbable kong: the
        # rest is played here, in the Python engine, by the same players (rare: a few in a thousand)
        while not g.over:
            s = g.pending_seats()[0]
            g.apply(s, agents[s].act(g.observation(s), g.legal_actions(s)))
        return float(g.totals()[me])
    so_far = g.totals()[me]
    first = agents[me].act(g.observation(me), g.legal_actions(me))
    if agent.native is not None:
        import numpy as np

        from majiang.native import spec

        row = agent.native.position_array(here).reshape(1, -1)
        acts = np.array([spec.action_index(first)], dtype=np.int64)
        k = np.array([keys], dtype=np.uint32)
        return float(so_far + agent.native.rollouts(rules, row, me, acts, k, agent.policy)[0, me])
    return float(so_far + rollout_python(rules, here, me, first, keys, agent.policy)[me])
