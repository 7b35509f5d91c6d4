"""Reinforcement-learning environments for both games (needs ``pip install majiang[rl]``).

``make(variant, preset=None, **options)`` returns a PettingZoo ``AECEnv``;
``single_agent(variant, opponents="greedy", ...)`` a Gymnasium ``Env`` for one seat against
built-in agents; ``BatchEnv`` steps many games with numpy arrays in and out (one learner seat
against built-in agents, or self-play with ``opponents=None``).

Two engines play the same hands: the Python rules engine (``majiang.engine``, the reference) and
the optional native one (``majiang.native``, Rust: build it with ``python -m majiang.native
build``), which is 5 to 100 times faster and plays the ``greedy`` and ``random`` bots itself.
``backend="auto"`` (the default) takes the native engine when it is built and the opponents allow
it (``strong`` and external bots need Python games); ``"python"`` or ``"native"`` choose. Either way the same seed gives the same deals, masks, observations and
rewards (``tests/test_native.py``); with the native engine ``info["settlement"]`` is a summary
(result, wins with their multipliers, totals, next dealer) and ``env.game`` replays the hand in
the Python engine for its full event log.

Action space (the same ``Discrete(160)`` for both games; masked by ``action_mask``):

====== =======================================================================
0-29    discard tile kind k (0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-29 白发中)
30-59   declare while discarding k (Kawuxing 亮倒, Sichuan 跳舞)
60-89   唱歌 while discarding k (Sichuan ``sing_dance``)
90-119  concealed kong (暗杠) of k
120-149 added kong (蓄杠/加杠) of k
150     win (胡)        151 pong (碰)       152 kong on the discard (直杠)   153 pass (过)
154-156 void suit m, p, s (定缺)
157-159 换三张: pass three tiles of suit m, p, s (the three least connected of that suit)
====== =======================================================================

Observation (``float32``, ``OBS_SIZE`` values; seats are relative: 0 is the observer, then
the players after it in turn order; a 3-player game leaves slot 3 empty):

- own concealed counts (30), the tile just drawn (30, one-hot);
- per seat slot (4 × 1121): pongs (30), exposed kongs (30), concealed kongs (30; another seat's
  show only as a count), discard counts (30), the discards in order (32 × 30 one-hot), revealed
  waits (30), and 11 flags: hidden-kong count, declared 亮倒/唱歌/跳舞, out (won, 血战), void m/p/s,
  tiles set aside (血流成河), tiles held / 14, seat present;
- tiles left / 108, phase (exchange, void, turn, claim, rob, over), the last discard (30) and who
  made it (4), the dealer (4), this hand's money so far / 32 (4).

It holds nothing the seat may not know (``tests/test_env.py`` shuffles every hidden tile and checks
that the encoding does not change). Rewards are settlement points (kong money as it is paid,
wins, the draw settlement), in units of the base.
"""

from __future__ import annotations

import numpy as np

from majiang.bots import make_agent
from majiang.bots.base import isolation
from majiang.core.tiles import ALL_TILES
from majiang.engine import Action, Game
from majiang.games.rules import rules_for

N_ACTIONS = 160
SLOT = 30 * 5 + 32 * 30 + 11
OBS_SIZE = 60 + 4 * SLOT + 1 + 6 + 30 + 4 + 4 + 4
PHASES = ("exchange", "void", "turn", "claim", "rob", "over")
_SIMPLE = {"win": 150, "pong": 151, "kong": 152, "pass": 153}


def action_index(a: Action) -> int:
    t = a.type
    if t == "discard":
        return int(a.tile)
    if t == "declare":
        return 30 + int(a.tile)
    if t == "sing":
        return 60 + int(a.tile)
    if t == "concealed_kong":
        return 90 + int(a.tile)
    if t == "added_kong":
        return 120 + int(a.tile)
    if t in _SIMPLE:
        return _SIMPLE[t]
    if t == "void":
        return 154 + "mps".index(a.suit)
    if t == "exchange":
        return 157 + "mps".index(a.tiles[0].suit)
    raise ValueError(f"no index for {a}")


def legal_map(game: Game, seat: int) -> dict[int, Action]:
    """Index → the engine action it stands for (for 换三张, the suit's least connected three)."""
    out: dict[int, Action] = {}
    counts = game.seats[seat].counts
    for a in game.legal_actions(seat):
        i = action_index(a)
        if a.type == "exchange":
            best = out.get(i)
            if best is not None and sum(isolation(counts, t) for t in best.tiles) <= \
                    sum(isolation(counts, t) for t in a.tiles):
                continue
        out[i] = a
    return out


_ORDER = np.arange(32) * 30 + 120  # where the i-th discard's one-hot starts within a slot
_DECLARED = ("liangdao", "sing", "dance")


def _fill_slot(slot: np.ndarray, game: Game, s: int, hidden_void: bool) -> None:
    """Write seat ``s``'s public slot (as any other seat sees it) into the zeroed ``slot``."""
    f = SLOT - 11
    for m in game.seats[s].melds:
        if m.kind.value == "pong":
            slot[m.tile] += 1
        elif m.kind.value == "kong":
            slot[30 + m.tile] += 1
        elif game.over:
            slot[60 + m.tile] += 1
        else:
            slot[f] += 1  # a concealed kong shows only as a count
    ds = game.seats[s].discards
    if ds:
        arr = np.fromiter(ds, dtype=np.intp, count=len(ds))
        slot[90:120] = np.bincount(arr, minlength=30)
        first = arr[:32]
        slot[_ORDER[:len(first)] + first] = 1.0
    kind = game.seats[s].declared_kind
    if kind:
        slot[f + 1 + _DECLARED.index(kind)] = 1.0
        if kind != "sing":
            slot[1080 + np.fromiter(game.seats[s].declared_waits, dtype=np.intp)] = 1.0
    slot[f + 4] = float(game.seats[s].out)
    if game.seats[s].void is not None and not hidden_void:
        slot[f + 5 + "mps".index(game.seats[s].void)] = 1.0
    slot[f + 8] = len(game.seats[s].won_tiles)
    slot[f + 10] = 1.0  # tiles held (f + 9) changes at every draw: encode writes it


_QUIET_EVENTS = frozenset({"draw", "action", "payment", "horse"})  # events that change no public slot
_SEAT_EVENTS = frozenset({"claim", "kong", "declare", "win", "robbed"})  # change only their seat's slot


def _public_slots(game: Game) -> np.ndarray:
    """Every seat's public slot, a (4, SLOT) array kept in ``game.caches`` and brought up to date
    from the game's new events: a discard is written in place; a claim, kong, declaration or win
    rebuilds its seat's slot; anything else (setup, the end) rebuilds them all."""
    state = game.caches.get("env_slots")
    events = game.events
    mode = (game.phase in ("exchange", "void"), game.phase == "over")
    if state is not None and state[3] == mode and state[1] <= len(events):
        slots, seen, counts, _ = state
        if seen == len(events):
            return slots
        seats = game.seats
        stale: set[int] = set()
        for k in range(seen, len(events)):
            event = events[k]
            kind = event["type"]
            if kind == "discard":
                s = event["seat"]
                i = counts[s]
                t = seats[s].discards[i]
                counts[s] = i + 1
                slots[s, 90 + t] += 1
                if i < 32:
                    slots[s, 120 + i * 30 + t] = 1.0
            elif kind in _SEAT_EVENTS:
                stale.add(event["seat"])
            elif kind not in _QUIET_EVENTS:
                break
        else:
            for s in stale:
                slots[s] = 0.0
                _fill_slot(slots[s], game, s, mode[0])
                counts[s] = len(seats[s].discards)
            state[1] = len(events)
            return slots
    slots = np.zeros((4, SLOT), dtype=np.float32)
    for s in range(game.n):
        _fill_slot(slots[s], game, s, mode[0])
    game.caches["env_slots"] = [slots, len(events), [len(seat.discards) for seat in game.seats], mode]
    return slots


_TAIL = 60 + 4 * SLOT  # where the table-wide values start


def encode(game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``seat`` (see the module docstring), written into ``out`` if
    given. The public slots come from a cache kept up to date from the game's events."""
    n = game.n
    if out is None:
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
    else:  # the slots are overwritten below: clear only the rest
        obs = out
        obs[:60] = 0.0
        obs[_TAIL:] = 0.0
        if n == 3:
            obs[60 + 3 * SLOT:_TAIL] = 0.0
    seats = game.seats
    obs[0:30] = seats[seat].counts
    if seat == game.current and game.phase == "turn" and game.drawn_from_wall and game.last_draw is not None:
        obs[30 + int(game.last_draw)] = 1.0
    slots = _public_slots(game)
    slots[:n, SLOT - 2] = [sum(seat.counts) / 14.0 for seat in seats]  # tiles held
    block = obs[60:_TAIL].reshape(4, SLOT)
    block[:n - seat] = slots[seat:n]  # seats in turn order from the observer
    if seat:
        block[n - seat:n] = slots[:seat]
    if not game.over:  # the observer sees its own concealed kongs
        for m in game.seats[seat].melds:
            if m.kind.value == "concealed_kong":
                obs[60 + 60 + m.tile] += 1
                obs[60 + SLOT - 11] -= 1
    if game.seats[seat].void is not None:  # the observer knows its own void before the others see it
        obs[60 + SLOT - 6 + "mps".index(game.seats[seat].void)] = 1.0
    g = _TAIL
    obs[g] = game.tiles_left / 108.0
    obs[g + 1 + PHASES.index(game.phase)] = 1.0
    if game.last_discard is not None:
        who, t = game.last_discard
        obs[g + 7 + t] = 1.0
        obs[g + 37 + (who - seat) % n] = 1.0
    obs[g + 41 + (game.dealer - seat) % n] = 1.0
    if game.payments:
        totals = game.totals()
        obs[g + 45:g + 45 + n] = [x / 32.0 for x in totals[seat:] + totals[:seat]]
    return obs


def mask_of(game: Game, seat: int) -> tuple[np.ndarray, dict[int, Action]]:
    mapping = legal_map(game, seat)
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    if mapping:
        mask[list(mapping)] = 1
    return mask, mapping


class _PyHand:
    """A Python ``Game`` behind the interface the envs step (``majiang.native.NativeGame`` has the
    same): action indices in, masks and observations written into arrays, points per step out."""

    __slots__ = ("game", "_seat", "_mapping", "_payments", "_paid")

    def __init__(self, rules, seed, hand_index: int, dealer: int) -> None:
        self.game = Game(rules, seed=seed, hand_index=hand_index, dealer=dealer)
        self._seat = -1
        self._mapping: dict[int, Action] = {}
        self._payments = 0
        self._paid = [0] * self.game.n

    def to_act(self) -> int:
        g = self.game
        return -1 if g.over else g.pending_seats()[0]

    @property
    def over(self) -> bool:
        return self.game.over

    def mask(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        self._seat, self._mapping = seat, legal_map(self.game, seat)
        if out is None:
            out = np.zeros(N_ACTIONS, dtype=np.int8)
        else:
            out.fill(0)
        if self._mapping:
            out[list(self._mapping)] = 1
        return out

    def encode(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        return encode(self.game, seat, out)

    def apply(self, seat: int, index: int) -> int:
        """Apply action ``index`` for ``seat``; returns who decides next (-1: the hand is over)."""
        mapping = self._mapping if seat == self._seat else legal_map(self.game, seat)
        action = mapping.get(index)
        if action is None:
            from majiang.core.errors import IllegalActionError
            raise IllegalActionError(f"action {index} is not legal for seat {seat} now")
        self._seat = -1
        self.game.apply(seat, action)
        return self.to_act()

    def step(self, seat: int, index: int, mask: np.ndarray, mask_at: int = 0):
        """Apply ``index``; write the next seat's mask into ``mask``. Returns (next seat or -1,
        every seat's points or None when none moved), as ``NativeGame.step``."""
        nxt = self.apply(seat, index)
        if nxt >= 0:
            self.mask(nxt, out=mask)
        rewards = self.rewards()
        return nxt, (rewards if any(rewards) else None)

    def rewards(self) -> list[int] | tuple[int, ...]:
        g = self.game
        if len(g.payments) == self._payments:  # most steps move no money
            return (0,) * g.n
        self._payments = len(g.payments)
        totals = g.totals()
        out = [t - p for t, p in zip(totals, self._paid)]
        self._paid = totals
        return out

    def settlement(self) -> dict:
        return self.game.settlement()

    def to_python(self) -> Game:
        return self.game


def _python_game(env) -> Game | None:
    """An env's hand as a Python ``Game``: a native hand is replayed in Python (again only after
    further actions), for its event log, fans and payments."""
    hand = env._hand
    if hand is None or isinstance(hand, _PyHand):
        return None if hand is None else hand.game
    if env._game is None or len(env._game.actions) != len(hand.actions):
        env._game = hand.to_python()
    return env._game


def _new_hand(backend: str, rules, seed, hand_index: int, dealer: int):
    if backend == "native":
        from majiang.native import NativeGame
        return NativeGame(rules, seed, hand_index, dealer)
    return _PyHand(rules, seed, hand_index, dealer)


def _backend(backend: str) -> str:
    """``auto`` is ``native`` when the native engine is built (``python -m majiang.native build``)."""
    if backend not in ("auto", "python", "native"):
        raise ValueError(f"backend must be auto, python or native, got {backend!r}")
    from majiang import native
    if backend == "auto":
        return "native" if native.available() else "python"
    if backend == "native":
        native.require()
    return backend


def _as_index(action) -> int:
    """An action index from an int or numpy integer (or a whole float); -1 for anything else."""
    if isinstance(action, (bool, np.bool_)):
        return -1
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, (float, np.floating)) and float(action).is_integer():
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1:
        return _as_index(action.reshape(()).item())
    return -1


def _spaces():
    from gymnasium import spaces

    obs_space = spaces.Dict({
        "observation": spaces.Box(low=-1e4, high=1e4, shape=(OBS_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
    })
    return obs_space, spaces.Discrete(N_ACTIONS)


# ---------------------------------------------------------------------------------------------
# PettingZoo AEC


def make(variant: str, preset: str | None = None, render_mode: str | None = None, backend: str = "auto",
         **options):
    """A PettingZoo ``AECEnv`` for one hand of ``variant`` (a new deal at every ``reset``).

    ``backend``: ``python`` steps the Python engine; ``native`` the Rust one (``majiang.native``:
    the same hands, many times faster; ``info["settlement"]`` then holds the result, wins and
    totals, and ``env.unwrapped.game`` replays the hand in Python for the full event log);
    ``auto`` (default) is native when it is built."""
    from pettingzoo import AECEnv

    engine = _backend(backend)

    class MajiangAEC(AECEnv):
        metadata = {"name": f"majiang_{variant}_v0", "render_modes": ["ansi"], "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.rules = rules_for(variant, preset, **options)
            self.backend = engine
            n = 3 if variant == "kawuxing" else 4
            self.possible_agents = [f"player_{i}" for i in range(n)]
            obs_space, act_space = _spaces()
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
            self._hand = _new_hand(engine, self.rules, self._seed, self._hand_index, self._hand_index % n)
            self._game = None
            self._hand_index += 1
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self._rewards_moved = False
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
            seat = int(agent[7:])  # "player_3"
            if seat == self._seat and not self._over:
                mask = self._mask.copy()
            else:
                mask = np.zeros(N_ACTIONS, dtype=np.int8)
            return {"observation": self._hand.encode(seat), "action_mask": mask}

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                return self._was_dead_step(action)
            seat = self._seat
            index = _as_index(action)
            if not 0 <= index < N_ACTIONS or not self._mask[index]:
                raise ValueError(f"action {action!r} is not legal for {agent}; use the action_mask")
            self._cumulative_rewards[agent] = 0
            hand = self._hand
            nxt, rewards = hand.step(seat, index, self._mask, self._mask_at)  # the next mask, in place
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
            from majiang.cli.play import _describe
            seat = self.possible_agents.index(self.agent_selection)
            return _describe(self.game, seat)

        def close(self):
            pass

    return MajiangAEC()


# ---------------------------------------------------------------------------------------------
# Gymnasium single agent


def _safe_index(mask: np.ndarray) -> int:
    """What an illegal action is replaced by: pass, else the lowest discard, else the first legal."""
    if mask[153]:
        return 153
    legal = np.flatnonzero(mask)
    discards = legal[legal < 30]
    return int(discards[0] if len(discards) else legal[0])


NATIVE_OPPONENTS = ("random", "greedy")  # the bots the native engine plays itself


def _engine_for(opponents: str | None, backend: str) -> str:
    """The native engine plays self-play and the random and greedy bots; others need Python games."""
    if opponents is None or opponents in NATIVE_OPPONENTS:
        return _backend(backend)
    if backend == "native":
        raise ValueError(f"the native backend plays {' or '.join(NATIVE_OPPONENTS)} opponents or self-play, "
                         f"not {opponents!r}: use backend='python' (or 'auto')")
    _backend(backend)  # reject unknown names
    return "python"


def _seed_state(seed: int) -> int:
    """A 64-bit generator state for the native random opponents of one game."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % 2 ** 64


def single_agent(variant: str, opponents: str = "greedy", seat: int = 0, preset: str | None = None,
                 backend: str = "auto", **options):
    """A Gymnasium ``Env``: one seat learns, the others are built-in agents (or ``random``).

    An action outside the mask is replaced by a safe default (pass, else the lowest discard;
    ``info["illegal"]`` is True). A hand that ends before the learner's first decision (another
    seat's 天胡) is skipped. With ``opponents`` ``greedy`` or ``random`` the native engine plays
    when it is built (``backend``: as in ``make``): its greedy bots are ``GreedyAgent`` decision
    for decision (same games as the Python engine); its random ones draw from the library's own
    generator, seeded from the env's seed.
    """
    import gymnasium as gym

    engine = _engine_for(opponents, backend)

    class MajiangSingle(gym.Env):
        metadata = {"render_modes": ["ansi"]}

        def __init__(self) -> None:
            self.rules = rules_for(variant, preset, **options)
            self.n = 3 if variant == "kawuxing" else 4
            if not 0 <= seat < self.n:
                raise ValueError(f"seat must be 0-{self.n - 1}, got {seat}")
            self.seat = seat
            self.backend = engine
            self.observation_space, self.action_space = _spaces()
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
                if engine == "native" and opponents == "random":
                    from majiang.native import Opponents
                    self._opponents = Opponents("random", self.n, state=_seed_state(seed))
            while True:
                self._hand = _new_hand(engine, self.rules, self._seed, self._hand_index, self._hand_index % self.n)
                self._game = None
                self._hand_index += 1
                if self._advance() >= 0:
                    break
            return self._obs(), {}

        def _advance(self) -> int:
            """Let the other seats play to the learner's next decision; who acts then (-1: over)."""
            hand = self._hand
            if engine == "native":
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
            return {"observation": self._hand.encode(self.seat), "action_mask": self._mask.copy()}

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
            from majiang.cli.play import _describe
            return _describe(self.game, self.seat)

    return MajiangSingle()


class _Slice:
    """Games ``lo .. hi - 1`` of a batch, stepped in this process, writing their rows of the
    batch's arrays. Game ``i`` plays its ``k``-th hand with seed ``seed * 100003 + i``, hand index
    ``k`` and dealer ``k mod players``, however the batch is split across processes and whichever
    engine plays it."""

    def __init__(self, spec: dict, lo: int, hi: int, arrays: dict) -> None:
        self.lo, self.hi = lo, hi
        self.seed = spec["seed"]
        self.self_play = spec["opponents"] is None
        self.rows = {k: v[lo:hi] for k, v in arrays.items()}
        self.backend = spec["backend"]
        self.threads = spec.get("threads", 1)
        self.learner = spec["seat"]
        n = hi - lo
        if self.self_play or self.backend == "native":
            self.rules = rules_for(spec["variant"], spec["preset"], **spec["options"])
            self.players = spec["players"]
            self.hands: list = []
            self._counter = [0] * n
            if self.backend == "native":
                import ctypes

                from majiang import native
                self._lib = native.require()
                self._pointers = (ctypes.c_void_p * max(1, n))()
                if not self.self_play:  # each game's own bots, as each game is its own single_agent env
                    self._opponent_kind = spec["opponents"]
                    self._opponents = [self._make_opponents(j) for j in range(n)]
                    self._opponent_pointers = (ctypes.c_void_p * max(1, n))(*[o._ptr for o in self._opponents])
        else:
            self.envs = [single_agent(spec["variant"], spec["opponents"], seat=spec["seat"], preset=spec["preset"],
                                      backend="python", **spec["options"]) for _ in range(n)]

    @property
    def games(self) -> list[Game]:
        return [h.to_python() for h in self.hands]

    def _make_opponents(self, j: int):
        from majiang.native import Opponents
        return Opponents(self._opponent_kind, self.players, state=_seed_state(self.seed * 100003 + self.lo + j))

    def _new_hand(self, j: int):
        while True:
            k = self._counter[j]
            self._counter[j] += 1
            hand = _new_hand(self.backend, self.rules, self.seed * 100003 + self.lo + j, k, k % self.players)
            # against bots: play to the learner's first decision (skip a hand without one)
            if self.self_play or hand.play(self.learner, self._opponents[j]) >= 0:
                break
        if self.backend == "native":
            self._pointers[j] = hand._ptr
        return hand

    def _step_native(self, actions: np.ndarray, rewards: np.ndarray, dones: np.ndarray) -> None:
        """One library call steps every game (and the opponents); finished games are dealt again."""
        from majiang.native import batch_step, batch_step_vs
        if not self.hands:
            return
        rows = self.rows
        if self.self_play:
            bad = batch_step(self._lib, self._pointers, actions, rows["seats"], rows["obs"], rows["masks"], rewards,
                             dones, self.threads)
        else:
            bad = batch_step_vs(self._lib, self._pointers, actions, self.learner, self._opponent_pointers,
                                rows["obs"], rows["masks"], rewards, dones, self.threads)
        if bad != -1:  # actions were checked (or replaced) against the masks: a bug, not bad input
            raise RuntimeError(f"native engine refused game {self.lo + bad}'s action {int(actions[bad])}")
        for j in np.flatnonzero(dones).tolist():
            self.hands[j] = self._new_hand(j)
            self._observe(j)

    def _observe(self, j: int) -> None:
        hand = self.hands[j]
        seat = hand.to_act()
        self.rows["seats"][j] = seat
        hand.mask(seat, out=self.rows["masks"][j])
        hand.encode(seat, out=self.rows["obs"][j])

    def reset(self) -> None:
        rows = self.rows
        if not self.self_play and self.backend != "native":
            for j, env in enumerate(self.envs):
                o, _ = env.reset(seed=self.seed * 100003 + self.lo + j)
                rows["obs"][j] = o["observation"]
                rows["masks"][j] = o["action_mask"]
            return
        self._counter = [0] * len(self._counter)
        if not self.self_play and self._opponent_kind == "random":  # reseeded, as reset(seed) does
            self._opponents = [self._make_opponents(j) for j in range(len(self._counter))]
            for j, o in enumerate(self._opponents):
                self._opponent_pointers[j] = o._ptr
        self.hands = []
        for j in range(len(self._counter)):
            self.hands.append(self._new_hand(j))
            self._observe(j)

    def step(self) -> None:
        rows = self.rows
        actions, rewards, dones = rows["actions"], rows["rewards"], rows["dones"]
        if self.backend == "native":
            self._step_native(actions, rewards, dones)
            return
        if not self.self_play:
            dones[:] = False
            for j, env in enumerate(self.envs):
                o, r, done, _, _ = env.step(int(actions[j]))
                rewards[j] = r
                if done:
                    dones[j] = True
                    o, _ = env.reset()
                rows["obs"][j] = o["observation"]
                rows["masks"][j] = o["action_mask"]
            return
        dones[:] = False
        seats = rows["seats"].tolist()
        for j, (hand, a) in enumerate(zip(self.hands, actions.tolist())):
            hand.apply(seats[j], a)
            rewards[j] = hand.rewards()
            if hand.over:
                dones[j] = True
                self.hands[j] = self._new_hand(j)
            self._observe(j)


def _arrays(num_envs: int, players: int, self_play: bool, buffers=None, empty: bool = False) -> dict:
    shapes = {"obs": ((num_envs, OBS_SIZE), np.float32), "masks": ((num_envs, N_ACTIONS), np.int8),
              "rewards": ((num_envs, players) if self_play else (num_envs,), np.float32),
              "dones": ((num_envs,), np.bool_), "seats": ((num_envs,), np.int64), "actions": ((num_envs,), np.int64)}
    if buffers is None:
        make_array = np.empty if empty else np.zeros
        return {k: make_array(shape, dtype) for k, (shape, dtype) in shapes.items()}
    return {k: np.ndarray(shape, dtype, buffer=buffers[k].buf) for k, (shape, dtype) in shapes.items()}


def _worker(conn, spec: dict, lo: int, hi: int, names: dict) -> None:
    """A batch worker process: steps its slice of games in shared memory when told to."""
    from multiprocessing import shared_memory

    buffers = {k: shared_memory.SharedMemory(name=v) for k, v in names.items()}
    try:
        games = _Slice(spec, lo, hi, _arrays(spec["num_envs"], spec["players"], spec["opponents"] is None, buffers))
        conn.send(("ready", None))
        while True:
            command = conn.recv()
            if command == "close":
                break
            try:
                games.reset() if command == "reset" else games.step()
                conn.send(("ok", None))
            except Exception as exc:  # reported to the parent, which raises it
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        games = None
        for b in buffers.values():
            b.close()
        conn.close()


class BatchEnv:
    """Many games stepped together: numpy arrays in and out; finished games restart at once.

    With ``opponents`` (an agent name, default ``greedy``) each game is a single-agent env: seat
    ``seat`` learns and the built-in agents play the other seats between its steps. With
    ``opponents=None`` every seat is the learner (self-play): each step is the decision of whoever
    must act in each game, ``seats`` says who that is, and ``step`` returns every seat's points
    from the step as a ``(num_envs, players)`` array.

    ``workers=K`` splits the games over K cores: the native engine on up to K threads within one
    call (only with at least 128 games per thread: smaller chunks cost more to hand out than to
    step), the Python engine across this process and K - 1 worker processes (shared memory, one
    round trip per step). Either way the same games and results as ``workers=1``. Call
    ``close()`` (or use ``with``) to stop worker processes.

    ``backend`` as in ``make``: self-play and the ``greedy`` and ``random`` opponents run on the
    native engine when it is built (one library call steps the whole batch, opponents included).
    """

    def __init__(self, variant: str, num_envs: int, opponents: str | None = "greedy", seed: int = 0,
                 seat: int = 0, preset: str | None = None, workers: int = 1, backend: str = "auto",
                 **options) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = num_envs
        self.self_play = opponents is None
        self.players = 3 if variant == "kawuxing" else 4
        rules_for(variant, preset, **options)  # bad options fail here, before any worker starts
        if not self.self_play and not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0-{self.players - 1}, got {seat}")
        self.backend = _engine_for(opponents, backend)
        spec = {"variant": variant, "preset": preset, "options": options, "opponents": opponents, "seed": seed,
                "seat": seat, "num_envs": num_envs, "players": self.players, "backend": self.backend}
        self.workers = max(1, min(int(workers), num_envs))
        bounds = [num_envs * k // self.workers for k in range(self.workers + 1)]
        self._buffers: dict = {}
        self._procs: list = []
        self._conns: list = []
        # the native engine splits the batch over threads inside one library call (it holds no
        # Python lock); the Python engine needs processes
        spec["threads"] = self.workers if self.backend == "native" else 1
        if self.workers > 1 and self.backend != "native":
            import multiprocessing as mp
            from multiprocessing import shared_memory

            sizes = {k: max(1, v.nbytes) for k, v in _arrays(num_envs, self.players, self.self_play).items()}
            self._buffers = {k: shared_memory.SharedMemory(create=True, size=n) for k, n in sizes.items()}
            ctx = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
            names = {k: b.name for k, b in self._buffers.items()}
            for k in range(1, self.workers):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(child, spec, bounds[k], bounds[k + 1], names), daemon=True)
                proc.start()
                child.close()
                self._procs.append(proc)
                self._conns.append(parent)
            self._arr = _arrays(num_envs, self.players, self.self_play, self._buffers)
            try:
                self._gather()
            except RuntimeError:
                self._local = None
                self.close()
                raise
        else:
            self._arr = _arrays(num_envs, self.players, self.self_play)
        self._local = _Slice(spec, 0, num_envs if self.backend == "native" else bounds[1], self._arr)
        self._ready = False

    @property
    def seats(self) -> np.ndarray:
        """Who acts next in each game (self-play)."""
        return self._arr["seats"]

    @property
    def games(self) -> list[Game]:
        """The games stepped in this process (all of them with ``workers=1``)."""
        if self.self_play or self.backend == "native":
            return self._local.games  # native hands are replayed in Python
        return [env.game for env in self._local.envs]

    def _gather(self) -> None:
        errors = []
        for conn in self._conns:
            try:
                status, message = conn.recv()
            except (EOFError, OSError):
                status, message = "error", ("the worker process exited (a script that starts workers must "
                                            "run its code under `if __name__ == \"__main__\":`)")
            if status == "error":
                errors.append(message)
        if errors:
            raise RuntimeError(f"batch worker failed: {errors[0]}")

    def _run(self, command: str) -> None:
        for conn in self._conns:
            conn.send(command)
        getattr(self._local, command)()
        self._gather()

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        self._run("reset")
        self._ready = True
        return self._arr["obs"].copy(), self._arr["masks"].copy()

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per game; returns (observations, masks, rewards, dones).

        An action outside a game's mask raises ``ValueError`` naming the game (self-play) or is
        replaced by a safe default (single-agent, as in ``single_agent``)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions).reshape(-1)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got {actions.size}")
        if actions.dtype.kind == "f" and np.all(np.isfinite(actions)) and np.all(actions == np.round(actions)):
            actions = actions.astype(np.int64)
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers (action indices), got {actions.dtype}")
        if self.self_play:  # check every action first: a bad batch changes no game
            in_range = (actions >= 0) & (actions < N_ACTIONS)
            legal = in_range & (self._arr["masks"][np.arange(self.num_envs), np.where(in_range, actions, 0)] != 0)
            if not legal.all():
                i = int(np.flatnonzero(~legal)[0])
                raise ValueError(f"game {i}: action {int(actions[i])} is not legal for seat {self.seats[i]}; "
                                 "use the action mask")
        elif self.backend == "native":  # as single_agent: an illegal action becomes a safe default
            masks = self._arr["masks"]
            in_range = (actions >= 0) & (actions < N_ACTIONS)
            legal = in_range & (masks[np.arange(self.num_envs), np.where(in_range, actions, 0)] != 0)
            if not legal.all():
                actions = actions.copy()
                for i in np.flatnonzero(~legal).tolist():
                    actions[i] = _safe_index(masks[i])
        if self._conns:  # shared memory is rewritten at every step: hand out copies
            self._arr["actions"][:] = actions
            self._run("step")
            a = self._arr
            return a["obs"].copy(), a["masks"].copy(), a["rewards"].copy(), a["dones"].copy()
        # one process: step into fresh arrays, so the caller's arrays are never overwritten
        fresh = _arrays(self.num_envs, self.players, self.self_play, empty=True)
        fresh["actions"][:] = actions
        fresh["seats"][:] = self._arr["seats"]
        self._arr = fresh
        self._local.rows = fresh
        self._local.step()
        return fresh["obs"], fresh["masks"], fresh["rewards"], fresh["dones"]

    def close(self) -> None:
        for conn in self._conns:
            try:
                conn.send("close")
            except (BrokenPipeError, OSError):
                pass
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
        self._conns, self._procs = [], []
        self._arr = {k: v.copy() for k, v in self._arr.items()}  # keep the last results readable
        if self._local is not None:
            self._local.rows = {k: v[self._local.lo:self._local.hi] for k, v in self._arr.items()}
        for b in self._buffers.values():
            b.close()
            b.unlink()
        self._buffers = {}

    def __enter__(self) -> "BatchEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_procs", None) or getattr(self, "_buffers", None):
            try:
                self.close()
            except Exception:
                pass


__all__ = ["make", "single_agent", "BatchEnv", "encode", "action_index", "N_ACTIONS", "OBS_SIZE", "ALL_TILES"]
