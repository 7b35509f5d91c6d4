"""Gymnasium: one seat learns against built-in agents (``single_agent``)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from majiang.bots import make_agent
from majiang.core.variants import get_variant
from majiang.engine import Game, describe
from majiang.games.rules import rules_for
from majiang.rl.backends import _as_index, _engine_for, _new_hand, _python_game, _seed_state
from majiang.rl.encoder import N_ACTIONS, OBS_COMPACT_SIZE, OBS_SIZE


OBS_DTYPES = ("float32", "uint8")  # the observation's encodings (majiang.rl.encoder)


def obs_length(obs_dtype: str) -> int:
    """The observation's length in the encoding ``obs_dtype``; ValueError for an unknown one."""
    if obs_dtype not in OBS_DTYPES:
        raise ValueError(f"obs_dtype must be one of {', '.join(OBS_DTYPES)}, got {obs_dtype!r}")
    return OBS_SIZE if obs_dtype == "float32" else OBS_COMPACT_SIZE


def spaces(obs_dtype: str = "float32"):
    """The observation and action spaces every env of this package shares (``obs_dtype``
    ``uint8``: the compact observation)."""
    observation = gym.spaces.Box(low=0, high=255, shape=(OBS_COMPACT_SIZE,), dtype=np.uint8) \
        if obs_length(obs_dtype) == OBS_COMPACT_SIZE else \
        gym.spaces.Box(low=-1e4, high=1e4, shape=(OBS_SIZE,), dtype=np.float32)
    obs_space = gym.spaces.Dict({
        "observation": observation,
        "action_mask": gym.spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
    })
    return obs_space, gym.spaces.Discrete(N_ACTIONS)


def _safe_index(mask: np.ndarray) -> int:
    """What an illegal action is replaced by: pass, else the lowest discard, else the first legal."""
    if mask[153]:
        return 153
    legal = np.flatnonzero(mask)
    discards = legal[legal < 30]
    return int(discards[0] if len(discards) else legal[0])


class MajiangSingle(gym.Env):
    """One seat learns against built-in agents; see ``single_agent``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant: str, opponents: str = "greedy", seat: int = 0, preset: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", **options) -> None:
        obs_length(obs_dtype)  # an unknown encoding fails here
        self._obs_dtype = np.dtype(obs_dtype)
        engine = _engine_for(opponents, backend)
        self.opponents_kind = opponents
        self.rules = rules_for(variant, preset, **options)
        self.n = get_variant(variant).players
        if not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0-{self.n - 1}, got {seat}")
        self.seat = seat
        self.backend = engine
        self.observation_space, self.action_space = spaces(obs_dtype)
        self._seed = 0
        self._hand_index = 0
        self._hand = None
        self._game: Game | None = None
        self.opponents = [make_agent(opponents, seed=s) for s in range(self.n)] if engine == "python" else []
        if engine == "native":  # bots made once, as the Python agents are: their draws run on
            from majiang.native import Opponents
            self._opponents = Opponents(opponents, self.n, state=_seed_state(0))
        self.render_mode = "ansi"

    @property
    def game(self) -> Game | None:
        return _python_game(self)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._hand_index = seed, 0
            # random opponents draw from the seed, so a seed replays the same episode; greedy ones keep
            # their draws going on both engines alike (the engines are held equal on them)
            if self.backend == "native" and self.opponents_kind == "random":
                from majiang.native import Opponents
                self._opponents = Opponents("random", self.n, state=_seed_state(seed))
            elif self.backend == "python" and self.opponents_kind == "random":
                self.opponents = [make_agent("random", seed=seed * self.n + s) for s in range(self.n)]
        while True:
            self._hand = _new_hand(self.backend, self.rules, self._seed, self._hand_index, self._hand_index % self.n)
            self._game = None
            self._hand_index += 1
            if self._advance() >= 0:
                break
        return self._obs(), {}

    def _advance(self) -> int:
        """Let the other seats play to the learner's next decision; who acts then (-1: over)."""
        hand = self._hand
        if self.backend == "native":
            return hand.play(self.seat, self._opponents)
        g = hand.game
        while not g.over:
            s = g.pending_seats()[0]
            if s == self.seat:
                return s
            agent = self.opponents[s]
            obs = g.observation(s) if getattr(agent, "needs_observation", True) else None
            g.apply(s, agent.act(obs, g.legal_actions(s)))
        return -1

    def _obs(self):
        if self._hand.over:
            self._mask = np.zeros(N_ACTIONS, dtype=np.int8)
        else:
            self._mask = self._hand.mask(self.seat)
        obs = self._hand.encode(self.seat, np.empty(self.observation_space["observation"].shape, self._obs_dtype))
        return {"observation": obs, "action_mask": self._mask.copy()}

    def step(self, action):
        if self._hand is None:
            raise RuntimeError("call reset() before step()")
        if self._hand.over:
            raise RuntimeError("the hand is over: call reset()")
        info = {}
        index = _as_index(action)
        if not 0 <= index < N_ACTIONS or not self._mask[index]:
            index = _safe_index(self._mask)
            info["illegal"] = True
        self._hand.apply(self.seat, index)
        self._advance()
        reward = float(self._hand.rewards()[self.seat])
        obs = self._obs()
        over = self._hand.over
        if over:
            info["settlement"] = self._hand.settlement()
        return obs, reward, over, False, info

    def render(self):
        return describe(self.game, self.seat)


def single_agent(variant: str, opponents: str = "greedy", seat: int = 0, preset: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", **options) -> MajiangSingle:
    """A Gymnasium ``Env``: one seat learns, the others are built-in agents (or ``random``).

    An action outside the mask is replaced by a safe default (pass, else the lowest discard;
    ``info["illegal"]`` is True). A hand that ends before the learner's first decision (another
    seat's 天胡) is skipped. With ``opponents`` ``greedy`` or ``random`` the native engine plays
    when it is built (``backend``: as in ``make``): its greedy bots are ``GreedyAgent`` decision
    for decision (same games as the Python engine); its random ones draw from the library's own
    generator, seeded from the env's seed. ``obs_dtype="uint8"``: the compact observation
    (``majiang.rl.encoder``), ``float32`` (default) the full one.
    """
    return MajiangSingle(variant, opponents, seat, preset, backend, obs_dtype, **options)
