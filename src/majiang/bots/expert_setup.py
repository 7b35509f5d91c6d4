"""``expert``'s 定缺 by search (Sichuan): which suit to give up, judged by playing the hand out.

``strong`` gives up the suit that leaves the best two-suit shanten, then the one with fewest tiles.
Where another suit is close (its shanten at most one worse), ``void_search`` deals the tiles this
seat cannot see at random (nothing has been discarded yet, so every arrangement is as likely),
gives each opponent the void ``strong`` would choose with that hand, and plays the deal out from
the dealer's first turn once per candidate suit, every seat played by the rollout policy
(common random numbers: every candidate meets the same deals and the same players). The seats
before this one's first decision are stepped in the Python engine (a few moves), the rest is one
batch of native rollouts (or the Python reference). It keeps ``strong``'s suit unless another is
better by ``margin`` standard errors, and spends at most ``work`` rollouts.
"""

from __future__ import annotations

import math
import random

from majiang.bots.base import SeatView, suit_counts
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


def opponent_void(counts: list[int], variant) -> str:
    """The suit ``strong`` gives up with these tiles."""
    sc = suit_counts(counts)
    return min("mps", key=lambda v: (shanten_counts(counts, variant, 4, v, None, seven_pairs=True), sc[v], v))


def void_search(agent, obs: dict, legal: list[Action], choice: Action) -> Action:
    view = SeatView(obs)
    suits = void_candidates(view, choice)
    if len(suits) == 1:
        return choice
    me, dealer, rules, variant = obs["seat"], obs["dealer"], view.rules, view.variant
    pool = [int(Tile.parse(k)) for k, c in obs["visible"].items() for _ in range(4 - c)]
    hidden = {p["seat"]: p.get("hidden", 0) for p in obs["players"]}
    rng = random.Random(agent.rng.getrandbits(64))
    samples = max(2, min(agent.samples, agent.work // len(suits)))
    points: list[list[float]] = [[] for _ in suits]
    for _ in range(samples):
        rng.shuffle(pool)
        hands, at = [], 0
        for s in range(len(obs["players"])):
            if s == me:
                hands.append(list(view.counts))
                continue
            c = [0] * 30
            for t in pool[at:at + hidden[s]]:
                c[t] += 1
            at += hidden[s]
            hands.append(c)
        wall = pool[at:]
        voids = [None if s == me else opponent_void(hands[s], variant) for s in range(len(hands))]
        keys = [rng.getrandbits(32) for _ in hands]
        for i, suit in enumerate(suits):
            seats = [SeatPosition(list(h), [], suit if s == me else voids[s]) for s, h in enumerate(hands)]
            points[i].append(_play_out(agent, rules, Position("turn", dealer, None, dealer, list(wall), seats),
                                       me, keys))
    best = max(range(len(suits)), key=lambda i: sum(points[i]))
    if best != 0:  # leave strong's suit only when another is clearly better
        d = [a - b for a, b in zip(points[best], points[0])]
        n = len(d)
        mean = sum(d) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, n - 1) / n)
        if mean <= agent.margin * se:
            best = 0
    return next(a for a in legal if a.suit == suits[best])


def _play_out(agent, rules, pos: Position, me: int, keys: list[int]) -> float:
    """This seat's points from ``pos`` to the end of the deal, every seat playing the rollout
    policy seeded by its key: the seats before this one's first decision in the Python engine,
    then one rollout from there (native when built)."""
    from majiang.bots.expert import ROLLOUT_AGENTS, rollout_python

    agent.rollouts += 1
    g = game_at(rules, pos)
    agents = {}
    while not g.over and me not in g.pending_seats():
        s = g.pending_seats()[0]
        agent_s = agents.get(s) or agents.setdefault(s, ROLLOUT_AGENTS[agent.policy](keys[s]))
        g.apply(s, agent_s.act(g.observation(s), g.legal_actions(s)))
    if g.over:
        return float(g.totals()[me])
    here = position_of(g)
    if here is None:  # (a robbable kong before this seat's first turn: never seen) scored as it stands
        return float(g.totals()[me])
    so_far = g.totals()[me]
    first = ROLLOUT_AGENTS[agent.policy](keys[me]).act(g.observation(me), g.legal_actions(me))
    if agent.native is not None:
        import numpy as np

        from majiang.native import spec

        row = agent.native.position_array(here).reshape(1, -1)
        acts = np.array([spec.action_index(first)], dtype=np.int64)
        k = np.array([keys], dtype=np.uint32)
        return float(so_far + agent.native.rollouts(rules, row, me, acts, k, agent.policy)[0, me])
    return float(so_far + rollout_python(rules, here, me, first, keys, agent.policy)[me])
