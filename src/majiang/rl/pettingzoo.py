"""PettingZoo: every seat an agent of one AEC environment (``make``)."""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv

from majiang.core.variants import get_variant
from majiang.engine import Game, describe
from majiang.games.rules import rules_for
from majiang.rl.backends import _as_index, _backend, _new_hand, _python_game
from majiang.rl.encoder import N_ACTIONS
from majiang.native import OBS_KINDS
from majiang.rl.gymnasium import obs_length, spaces


class MajiangAEC(AECEnv):
    """One deal of ``variant`` per ``reset``, every seat an agent (``player_0`` …); see ``make``."""

    metadata = {"name": "majiang_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: str, preset: str | None = None, render_mode: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", **options) -> None:
        super().__init__()
        length = obs_length(obs_dtype)
        self.metadata = dict(self.metadata, name=f"majiang_{variant}_v0")
        self.rules = rules_for(variant, preset, **options)
        self.backend = _backend(backend)
        self._native = self.backend == "native"
        n = get_variant(variant).players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space, act_space = spaces(obs_dtype)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.render_mode = render_mode
        self._seed = None
        self._hand_index = 0
        self._hand = None
        self._game: Game | None = None
        self._seat = 0
        self._over = True
        self._mask = np.zeros(N_ACTIONS, dtype=np.int8)  # the acting seat's, rewritten in place
        self._mask_at = self._mask.ctypes.data
        self._no_mask = np.zeros(N_ACTIONS, dtype=np.int8)  # every other seat's (read-only)
        self._no_mask.flags.writeable = False
        # observations are written into these, and observe returns them (views, not copies): the
        # acting seat's (the native step writes it in the same call), and one for any other seat
        self._obs = np.zeros(length, dtype=obs_dtype)
        self._obs_at = self._obs.ctypes.data
        self._obs_kind = OBS_KINDS[obs_dtype]
        self._obs_seat = -1  # whose observation self._obs holds now (-1: none)
        self._other = np.zeros(length, dtype=obs_dtype)

    @property
    def game(self) -> Game | None:
        return _python_game(self)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
            self._hand_index = 0
        elif self._seed is None:
            self._seed = int(np.random.SeedSequence().entropy % (2 ** 63))
        n = len(self.possible_agents)
        self._hand = _new_hand(self.backend, self.rules, self._seed, self._hand_index, self._hand_index % n)
        self._game = None
        self._hand_index += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._rewards_moved = False
        self._obs_seat = -1
        self._select()

    def _select(self, seat: int | None = None) -> None:
        if seat is None:
            seat = self._hand.to_act()
        if seat < 0:
            self._over = True
            return
        self._over = False
        self._seat = seat
        self.agent_selection = self.possible_agents[seat]
        self._hand.mask(seat, out=self._mask)

    def observe(self, agent):
        """``agent``'s observation and action mask as views of arrays the env owns: the next
        ``step`` (or ``observe`` of another agent) overwrites them; copy what you keep."""
        seat = self._seat_of.get(agent)
        if seat is None:
            seat = int(agent[7:])  # "player_3"
        if seat == self._seat and not self._over:
            if self._obs_seat != seat:
                self._hand.encode(seat, out=self._obs)
                self._obs_seat = seat
            return {"observation": self._obs, "action_mask": self._mask}
        return {"observation": self._hand.encode(seat, out=self._other), "action_mask": self._no_mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        seat = self._seat
        index = action if type(action) is int else _as_index(action)
        if not 0 <= index < N_ACTIONS or not self._mask[index]:
            raise ValueError(f"action {action!r} is not legal for {agent}; use the action_mask")
        self._cumulative_rewards[agent] = 0
        hand = self._hand
        if self._native:  # one library call: the action, the points, the next mask and observation
            nxt, rewards = hand.step_obs(seat, index, self._mask_at, self._obs_at, self._obs_kind)
            self._obs_seat = nxt
        else:
            nxt, rewards = hand.step(seat, index, self._mask, self._mask_at)  # the next mask, in place
            self._obs_seat = -1
        if rewards is not None:
            self._rewards_moved = True
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = rewards[s]
            self._accumulate_rewards()
        elif self._rewards_moved:  # most steps move no money: the dict stays all zeros
            self._rewards_moved = False
            for a in self.possible_agents:
                self.rewards[a] = 0
        if nxt < 0:
            self._over = True
            self.terminations = dict.fromkeys(self.agents, True)
            settlement = hand.settlement()
            for a in self.agents:
                self.infos[a] = {"settlement": settlement}
            # walk dead agents out in order
            self.agent_selection = self.agents[(seat + 1) % len(self.agents)]
            return
        self._seat = nxt
        self.agent_selection = self.possible_agents[nxt]

    def render(self):
        if self.render_mode != "ansi":
            return None
        seat = self.possible_agents.index(self.agent_selection)
        return describe(self.game, seat)

    def close(self):
        pass


def make(variant: str, preset: str | None = None, render_mode: str | None = None, backend: str = "auto",
         obs_dtype: str = "float32", **options) -> MajiangAEC:
    """A PettingZoo ``AECEnv`` for one hand of ``variant`` (a new deal at every ``reset``).

    ``backend``: ``python`` steps the Python engine; ``native`` the Rust one (``majiang.native``:
    the same hands, many times faster; ``info["settlement"]`` then holds the result, wins and
    totals, and ``env.unwrapped.game`` replays the hand in Python for the full event log);
    ``auto`` (default) is native when it is built. ``obs_dtype``: ``float32`` (default) or ``uint8``,
    the compact observation (``majiang.rl.encoder``: 4,609 bytes, ``expand`` gives the float32 one
    back). ``observe`` returns views of the env's own arrays, overwritten by the next step."""
    return MajiangAEC(variant, preset, render_mode, backend, obs_dtype, **options)
