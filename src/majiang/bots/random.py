"""``random``: a uniformly random legal action (the floor of every ladder)."""

from __future__ import annotations

import random

from majiang.engine import Action


class RandomAgent:
    name = "random"
    needs_observation = False  # play_hand may pass None: it only looks at the legal actions

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: dict, legal: list[Action]) -> Action:
        return self.rng.choice(legal)
