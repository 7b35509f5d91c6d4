"""Rollouts in the Python engine: a deal played to its end from a position by the rollout
players (``greedy``, or ``careful``: greedy that never discards a revealed wait). ``expert``'s
search and its setup search (``expert_setup``) both play them when the native engine is not built."""

from __future__ import annotations

from majiang.bots.greedy import CarefulAgent, GreedyAgent
from majiang.engine import Action
from majiang.engine.position import Position, game_at

ROLLOUT_AGENTS = {"careful": CarefulAgent, "greedy": GreedyAgent}


def rollout_python(rules, pos: Position, seat: int, action: Action, keys: list[int],
                   policy: str = "greedy") -> list[int]:
    """One rollout in the Python engine: ``seat`` plays ``action`` at its first decision, then
    ``GreedyAgent(keys[s])`` (``policy`` "careful": ``CarefulAgent``) plays every decision of every
    seat s. Each seat's points from ``pos``."""
    g = game_at(rules, pos)
    agents = [ROLLOUT_AGENTS[policy](k) for k in keys]
    first = True
    while not g.over:
        s = g.pending_seats()[0]
        if s == seat and first:
            first = False
            g.apply(s, action)
            continue
        g.apply(s, agents[s].act(g.observation(s), g.legal_actions(s)))
    if first:
        raise ValueError(f"seat {seat} had no decision in the rollout")
    return g.totals()
