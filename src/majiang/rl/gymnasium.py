"""Gymnasium: one seat learns against built-in agents (``single_agent``)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from majiang.bots import make_agent
from majiang.core.variants import get_variant
from majiang.engine import Game, describe
from majiang.games import GAMES
from majiang.games.rules import rules_for
from majiang.rl.backends import _as_index, _engine_for, _new_hand, _python_game, _seed_state
from majiang.rl.encoder import N_ACTIONS, OBS_COMPACT_SIZE, OBS_SIZE

OBS_DTYPES = ("float32", "uint8")  # the observation's encodings (majiang.rl.encoder)
RENDER_MODES = ("ansi",)  # the table as text (describe); no window


def check_render_mode(render_mode) -> None:
    """None or one of ``RENDER_MODES``; a ValueError names the modes for anything else ("human")."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))} "
                         f"(the table as text), got {render_mode!r}")


def env_id(variant: str) -> str:
    """The Gymnasium id of ``variant``'s single-seat env, registered on first use:
    ``majiang/Kawuxing-v0``, ``majiang/Sichuan-v0``."""
    id_ = f"majiang/{variant.capitalize()}-v0"
    if id_ not in gym.registry:
        gym.register(id_, entry_point="majiang.rl.gymnasium:MajiangSingle", kwargs={"variant": variant})
    return id_


def _opponent_specs(opponents, n: int, seat: int) -> list:
    """One agent spec per seat (None at the learner's): ``opponents`` a name for every other seat,
    or a list or tuple of names for the other seats in turn order from seat 0."""
    if isinstance(opponents, str):
        return [None if s == seat else opponents for s in range(n)]
    if not isinstance(opponents, (list, tuple)) or not all(isinstance(o, str) for o in opponents):
        raise ValueError(f"opponents must be an agent name or a list of {n - 1} names, got {opponents!r}")
    if len(opponents) != n - 1:
        raise ValueError(f"opponents lists the {n - 1} other seats' agents; got {len(opponents)}: {list(opponents)!r}")
    others = iter(opponents)
    return [None if s == seat else next(others) for s in range(n)]


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

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, variant: str, opponents="greedy", seat: int = 0, preset: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", render_mode: str | None = None,
                 **options) -> None:
        obs_length(obs_dtype)  # an unknown encoding fails here
        check_render_mode(render_mode)
        self._obs_dtype = np.dtype(obs_dtype)
        self.rules = rules_for(variant, preset, **options)
        self.n = get_variant(variant).players
        if isinstance(seat, bool) or not hasattr(seat, "__index__") or not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0-{self.n - 1}, got {seat!r}")
        specs = _opponent_specs(opponents, self.n, seat)
        kinds = {o for o in specs if o is not None}
        uniform = kinds.pop() if len(kinds) == 1 else None  # one kind at every other seat (the native engine's case)
        engine = _engine_for(uniform if uniform is not None else tuple(opponents), backend)
        self.opponents_kind = uniform
        self._specs = specs
        self.seat = seat
        self.backend = engine
        self.observation_space, self.action_space = spaces(obs_dtype)
        self._seed = 0
        self._hand_index = 0
        self._hand = None
        self._game: Game | None = None
        self.opponents = [make_agent(o if o is not None else "random", seed=s) for s, o in enumerate(specs)] \
            if engine == "python" else []
        if engine == "native":  # bots made once, as the Python agents are: their draws run on
            from majiang.native import Opponents
            self._opponents = Opponents(uniform, self.n, state=_seed_state(0))
        self.render_mode = render_mode
        # the spec Gymnasium's tools make more of (check_env's render and close checks): this env's arguments
        from dataclasses import replace
        self.spec = replace(gym.spec(env_id(variant)), kwargs={
            "variant": variant, "opponents": opponents, "seat": seat, "preset": preset, "backend": backend,
            "obs_dtype": obs_dtype, "render_mode": render_mode, **options})

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
            elif self.backend == "python":
                for s, o in enumerate(self._specs):
                    if o == "random":
                        self.opponents[s] = make_agent("random", seed=seed * self.n + s)
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
        """The table as the learner sees it, as text (``render_mode="ansi"``); None without a render mode."""
        if self.render_mode is None:
            return None
        if self._hand is None:
            return "(no hand: call reset())"
        return describe(self.game, self.seat)


def single_agent(variant: str, opponents="greedy", seat: int = 0, preset: str | None = None,
                 backend: str = "auto", obs_dtype: str = "float32", render_mode: str | None = None,
                 **options) -> MajiangSingle:
    """A Gymnasium ``Env``: one seat learns, the others are built-in agents (or ``random``).

    An action outside the mask is replaced by a safe default (pass, else the lowest discard;
    ``info["illegal"]`` is True). A hand that ends before the learner's first decision (another
    seat's 天胡) is skipped. With ``opponents`` ``greedy`` or ``random`` the native engine plays
    when it is built (``backend``: as in ``make``): its greedy bots are ``GreedyAgent`` decision
    for decision (same games as the Python engine); its random ones draw from the library's own
    generator, seeded from the env's seed. ``obs_dtype="uint8"``: the compact observation
    (``majiang.rl.encoder``), ``float32`` (default) the full one. ``opponents``: one agent name
    for every other seat, or a list of names for the other seats in turn order (``["random",
    "greedy"]``: mixed kinds play on the Python engine). ``render_mode``: None or ``"ansi"``
    (``render()`` returns the table as text). The env has a ``spec`` (``env_id``: also made by
    ``gymnasium.make("majiang/Kawuxing-v0", opponents=...)``).
    """
    return MajiangSingle(variant, opponents, seat, preset, backend, obs_dtype, render_mode, **options)


for _variant in GAMES:  # the ids gymnasium.make knows once this module is imported, one per registered game
    env_id(_variant)
