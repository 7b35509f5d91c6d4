"""PettingZoo: every seat an agent of one AEC environment (``make``)."""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from majiang.core.variants import get_variant
from majiang.engine import Game, describe
from majiang.games import GAMES
from majiang.games.rules import rules_for
from majiang.native import OBS_KINDS
from majiang.rl.backends import _as_index, _backend, _new_hand, _python_game
from majiang.rl.encoder import N_ACTIONS
from majiang.rl.gymnasium import check_render_mode, obs_length, spaces

# the first registered game (卡五星): PettingZoo's env()/raw_env()/parallel_env() take no arguments
DEFAULT_VARIANT = next(iter(GAMES))

class MajiangAEC(AECEnv):
    """One deal of ``variant`` per ``reset``, every seat an agent (``player_0`` …); see ``make``."""

    metadata = {"name": "majiang_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: str, preset: str | None = None, render_mode: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", **options) -> None:
        super().__init__()
        check_render_mode(render_mode)
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
        self._live = False  # a native hand not over: step's fast path (self._native and not self._over)
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
        self._other_at = self._other.ctypes.data

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
        k = self._hand_index
        self._game = None
        if self._native and self._hand is not None:  # the next deal in place: no new game, buffers kept
            seat = self._hand.redeal(k, k % n, self._mask_at, self._obs_at, self._obs_kind, self._seed)
        else:
            self._hand = _new_hand(self.backend, self.rules, self._seed, k, k % n)
            if self._native:  # the library's step with this env's buffers bound, called as (seat, action)
                self._step_call = self._hand.stepper(self._mask_at, self._obs_at, self._obs_kind)
                self._encode_other = self._hand.encoder(self._other_at, self._obs_kind)  # (seat) -> code
            seat = None
        self._hand_index += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._rewards_moved = False
        self._cumulative_moved = False  # whether any cumulative reward may be non-zero
        self._obs_seat = -1
        self._select(seat)

    def _select(self, seat: int | None = None) -> None:
        """The first seat to act; ``seat`` if the deal wrote its mask and observation already."""
        dealt = seat is not None
        if seat is None:
            seat = self._hand.to_act()
        if seat < 0:
            self._over = True
            self._live = False
            return
        self._over = False
        self._live = self._native
        self._seat = seat
        self.agent_selection = self.possible_agents[seat]
        if dealt:
            self._obs_seat = seat
        else:
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
        if self._native:  # the library's call with the address bound: numpy's lookup costs more than the call
            if self._encode_other(seat) < 0:
                raise RuntimeError(f"native engine: no observation of seat {seat}")
            return {"observation": self._other, "action_mask": self._no_mask}
        return {"observation": self._hand.encode(seat, out=self._other), "action_mask": self._no_mask}

    def last(self, observe: bool = True):
        """As ``AECEnv.last``; the acting agent's observation (already written by the step) is
        returned without another look-up."""
        agent = self.agent_selection
        if observe and self._obs_seat == self._seat and not self._over:
            if not self._cumulative_moved:  # no points moved yet this hand, no agent done: nothing to look up
                return {"observation": self._obs, "action_mask": self._mask}, 0, False, False, self.infos[agent]
            observation = {"observation": self._obs, "action_mask": self._mask}
        else:
            observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def agent_iter(self, max_iter: int = 2 ** 63):
        """As ``AECEnv.agent_iter``: the acting agent until every agent is done (a generator,
        cheaper per step than PettingZoo's iterator object)."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action):
        if not self._live:
            return self._step_other(action)
        # the native engine checks the action against the mask: -3 if not legal (nothing changed)
        code = self._step_call(self._seat, action if type(action) is int else _as_index(action))
        if 0 < code < 16:  # most steps: no points moved, the hand goes on
            if self._cumulative_moved:
                self._cumulative_rewards[self.agent_selection] = 0
            if self._rewards_moved:
                self._rewards_moved = False
                for a in self.possible_agents:
                    self.rewards[a] = 0
            self._seat = self._obs_seat = code - 1
            self.agent_selection = self.possible_agents[code - 1]
            return
        if code < 0:
            if code == -3:
                raise ValueError(f"action {action!r} is not legal for {self.agent_selection}; use the action_mask")
            raise RuntimeError(f"native engine error {code}")
        self._cumulative_rewards[self.agent_selection] = 0
        self._after_step((code & 15) - 1, self._hand.points() if code & 16 else None)
        self._obs_seat = self._seat

    def _step_other(self, action):
        """A step of the Python engine, or of an agent already done."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        seat = self._seat
        index = action if type(action) is int else _as_index(action)
        if not 0 <= index < N_ACTIONS or not self._mask[index]:
            raise ValueError(f"action {action!r} is not legal for {agent}; use the action_mask")
        self._cumulative_rewards[agent] = 0
        nxt, rewards = self._hand.step(seat, index, self._mask, self._mask_at)  # the next mask, in place
        self._obs_seat = -1
        self._after_step(nxt, rewards)

    def _after_step(self, nxt: int, rewards) -> None:
        """The rewards of a step and the next agent (``nxt``; -1: the hand is over)."""
        seat = self._seat
        if rewards is not None:
            self._rewards_moved = self._cumulative_moved = True
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = rewards[s]
            self._accumulate_rewards()
        elif self._rewards_moved:  # most steps move no money: the dict stays all zeros
            self._rewards_moved = False
            for a in self.possible_agents:
                self.rewards[a] = 0
        if nxt < 0:
            self._over = True
            self._live = False
            self.terminations = dict.fromkeys(self.agents, True)
            settlement = self._hand.settlement()
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


def raw_env(variant: str = DEFAULT_VARIANT, preset: str | None = None, render_mode: str | None = None,
            backend: str = "auto", obs_dtype: str = "float32", **options) -> MajiangAEC:
    """PettingZoo's name for the env without wrappers: ``make``'s env."""
    return MajiangAEC(variant, preset, render_mode, backend, obs_dtype, **options)


def env(variant: str = DEFAULT_VARIANT, preset: str | None = None, render_mode: str | None = None,
        backend: str = "auto", obs_dtype: str = "float32", **options):
    """``raw_env`` in PettingZoo's usual wrappers (an action outside the space and a call out of
    order, such as ``step`` before ``reset``, are refused with their errors), as PettingZoo's own
    environments' ``env()`` gives them; ``make``/``raw_env`` skip them for speed."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        raw_env(variant, preset, render_mode, backend, obs_dtype, **options)))


class MajiangParallel(ParallelEnv):
    """The AEC env (``MajiangAEC``) under PettingZoo's parallel API, for code written for it. One
    seat decides at a time, so at each step exactly one agent's ``action_mask`` has a move (the
    seat to act: a turn, or one claimant after another at a discard) and the others' are all
    zeros; ``step`` takes that agent's action from ``actions`` and ignores the rest. Observations
    are copies (the AEC env's are views of its own arrays)."""

    def __init__(self, variant: str = DEFAULT_VARIANT, preset: str | None = None, render_mode: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", **options) -> None:
        self.aec = MajiangAEC(variant, preset, render_mode, backend, obs_dtype, **options)
        self.metadata = dict(self.aec.metadata, is_parallelizable=True)
        self.possible_agents = self.aec.possible_agents
        self.render_mode = render_mode
        self.agents: list[str] = []

    @property
    def game(self) -> Game | None:
        return self.aec.game

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def _observations(self) -> dict:
        return {a: {k: v.copy() for k, v in self.aec.observe(a).items()} for a in self.agents}

    def reset(self, seed=None, options=None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict):
        aec = self.aec
        if not self.agents:
            raise RuntimeError("the hand is over: call reset()")
        acting = aec.agent_selection
        if acting not in actions:
            raise ValueError(f"actions holds no action for {acting}, the agent to act (the one whose "
                             "action_mask has a move)")
        aec.step(actions[acting])
        rewards = {a: float(aec.rewards[a]) for a in self.agents}
        terminations = {a: bool(aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(aec.truncations[a]) for a in self.agents}
        infos = {a: dict(aec.infos[a]) for a in self.agents}
        observations = self._observations()
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()

    def close(self):
        self.aec.close()


def parallel_env(variant: str = DEFAULT_VARIANT, preset: str | None = None, render_mode: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", **options) -> MajiangParallel:
    """The env under PettingZoo's parallel API (``MajiangParallel``: one agent with moves a step)."""
    return MajiangParallel(variant, preset, render_mode, backend, obs_dtype, **options)
