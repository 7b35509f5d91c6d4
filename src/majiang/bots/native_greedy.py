"""``greedy`` (or ``careful``) decided in one native library call, for the web server's event loop.

``GreedyAgent`` in Python takes about 0.2 ms a decision (a shanten per discard) and needs the seat's
observation; the native engine makes the same choice in microseconds from the game's position.
``NativeGreedyAgent.act_in_game`` reads the live ``Game`` only to hand the native engine what
``GreedyAgent`` would read from the seat's observation (its own hand and melds, its void, the
declared waits everyone sees, how many tiles are left): the choice is the one
``GreedyAgent(key)`` would make from that observation, ``key`` drawn from the agent's own
generator for each decision (``tests/native/test_native_greedy.py`` checks this decision for decision).
Where a position cannot hold the moment (换三张, 定缺, a robbable kong) or the native engine is not
built, the Python agent decides with the same key.
"""

from __future__ import annotations

import random
from typing import Callable

from majiang.bots.base import native_engine
from majiang.bots.greedy import CarefulAgent, GreedyAgent
from majiang.engine import Action
from majiang.native.spec import action_index

POLICIES = {"greedy": GreedyAgent, "careful": CarefulAgent}


class NativeGreedyAgent:
    name = "greedy"
    needs_observation = False  # it decides from the game (act_in_game), not from an observation

    def __init__(self, seed: int = 0, policy: str = "greedy") -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be {' or '.join(POLICIES)}, not {policy!r}")
        self.rng = random.Random(seed)
        self.policy = policy
        self.native = native_engine()
        self.fallbacks = 0  # decisions the Python agent made (for tests)
        self._caller: tuple = (None, None)  # (rules, the library's decision bound to them): one table's rules

    def _decision(self, rules):
        """The native decision bound to ``rules``, kept while the rules object is the same one."""
        if self._caller[0] is not rules:
            self._caller = (rules, self.native.policy_caller(rules, self.policy))
        return self._caller[1]

    def act_in_game(self, game, seat: int, legal: list[Action]) -> Action:
        return self.prepare(game, seat, legal)()

    def prepare(self, game, seat: int, legal: list[Action]) -> Callable[[], Action]:
        """``act_in_game`` in two halves: this one reads the game (on the thread that changes it),
        the one it returns decides from what was read (on any thread, while the game moves on)."""
        return self.plan(game, seat, legal)[0]

    def plan(self, game, seat: int, legal: list[Action]) -> tuple[Callable[[], Action], bool]:
        """``prepare``'s decision, and whether it is bounded and cheap: the one legal action, a win,
        or one native library call (tens of microseconds, no search). False: the Python agent decides (换三张, 定缺, a
        robbable kong, no native engine), a shanten per discard."""
        key = self.rng.getrandbits(32)
        if len(legal) == 1:  # nothing to choose (a void tile to play, a single discard): no row, no call
            only = legal[0]
            return (lambda: only), True
        win = next((a for a in legal if a.type == "win"), None)
        if win is not None:  # greedy always wins; the engine's win rules (漏胡, …) are the game's
            return (lambda: win), True
        row = self.native.game_position_row(game) if self.native is not None else None
        observation = game.observation(seat) if row is None else None
        native_act = self._decision(game.rules) if row is not None else None

        def decide() -> Action:
            if native_act is not None:
                try:
                    index = native_act(row, seat, key)
                except RuntimeError:
                    index = None
                if index is not None:
                    for a in legal:
                        if action_index(a) == index:
                            return a
            self.fallbacks += 1
            return POLICIES[self.policy](key).act(observation if observation is not None
                                                  else game.observation(seat), legal)

        return decide, row is not None


def available() -> bool:
    """Whether the native engine is built and loads (else ``NativeGreedyAgent`` is the Python agent)."""
    return native_engine() is not None
