"""Reinforcement-learning environments for both games (needs ``pip install majiang[rl]``).

``make(variant, preset=None, **options)`` returns a PettingZoo ``AECEnv``;
``single_agent(variant, opponents="greedy", ...)`` a Gymnasium ``Env`` for one seat against
built-in agents; ``BatchEnv`` steps many games with numpy arrays in and out (one learner seat
against built-in agents, or self-play with ``opponents=None``).

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

from .agents import _isolation, make_agent
from .engine import Action, Game
from .rules import rules_for
from .tiles import ALL_TILES

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
    counts = game.hands[seat]
    for a in game.legal_actions(seat):
        i = action_index(a)
        if a.type == "exchange":
            best = out.get(i)
            if best is not None and sum(_isolation(counts, t) for t in best.tiles) <= \
                    sum(_isolation(counts, t) for t in a.tiles):
                continue
        out[i] = a
    return out


_ORDER = np.arange(32) * 30 + 120  # where the i-th discard's one-hot starts within a slot
_DECLARED = ("liangdao", "sing", "dance")


def _fill_slot(slot: np.ndarray, game: Game, s: int, hidden_void: bool) -> None:
    """Write seat ``s``'s public slot (as any other seat sees it) into the zeroed ``slot``."""
    f = SLOT - 11
    for m in game.melds[s]:
        if m.kind.value == "pong":
            slot[m.tile] += 1
        elif m.kind.value == "kong":
            slot[30 + m.tile] += 1
        elif game.over:
            slot[60 + m.tile] += 1
        else:
            slot[f] += 1  # a concealed kong shows only as a count
    ds = game.discards[s]
    if ds:
        arr = np.fromiter(ds, dtype=np.intp, count=len(ds))
        slot[90:120] = np.bincount(arr, minlength=30)
        first = arr[:32]
        slot[_ORDER[:len(first)] + first] = 1.0
    kind = game.declared_kind[s]
    if kind:
        slot[f + 1 + _DECLARED.index(kind)] = 1.0
        if kind != "sing":
            slot[1080 + np.fromiter(game.declared_waits[s], dtype=np.intp)] = 1.0
    slot[f + 4] = float(game.out[s])
    if game.void[s] is not None and not hidden_void:
        slot[f + 5 + "mps".index(game.void[s])] = 1.0
    slot[f + 8] = len(game.won_tiles[s])
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
        discards = game.discards
        stale: set[int] = set()
        for k in range(seen, len(events)):
            event = events[k]
            kind = event["type"]
            if kind == "discard":
                s = event["seat"]
                i = counts[s]
                t = discards[s][i]
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
                counts[s] = len(discards[s])
            state[1] = len(events)
            return slots
    slots = np.zeros((4, SLOT), dtype=np.float32)
    for s in range(game.n):
        _fill_slot(slots[s], game, s, mode[0])
    game.caches["env_slots"] = [slots, len(events), [len(d) for d in game.discards], mode]
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
    hands = game.hands
    obs[0:30] = hands[seat]
    if seat == game.current and game.phase == "turn" and game.drawn_from_wall and game.last_draw is not None:
        obs[30 + int(game.last_draw)] = 1.0
    slots = _public_slots(game)
    slots[:n, SLOT - 2] = [sum(h) / 14.0 for h in hands]  # tiles held
    block = obs[60:_TAIL].reshape(4, SLOT)
    block[:n - seat] = slots[seat:n]  # seats in turn order from the observer
    if seat:
        block[n - seat:n] = slots[:seat]
    if not game.over:  # the observer sees its own concealed kongs
        for m in game.melds[seat]:
            if m.kind.value == "concealed_kong":
                obs[60 + 60 + m.tile] += 1
                obs[60 + SLOT - 11] -= 1
    if game.void[seat] is not None:  # the observer knows its own void before the others see it
        obs[60 + SLOT - 6 + "mps".index(game.void[seat])] = 1.0
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


def _spaces():
    from gymnasium import spaces

    obs_space = spaces.Dict({
        "observation": spaces.Box(low=-1e4, high=1e4, shape=(OBS_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
    })
    return obs_space, spaces.Discrete(N_ACTIONS)


# ---------------------------------------------------------------------------------------------
# PettingZoo AEC


def make(variant: str, preset: str | None = None, render_mode: str | None = None, **options):
    """A PettingZoo ``AECEnv`` for one hand of ``variant`` (a new deal at every ``reset``)."""
    from pettingzoo import AECEnv

    class MajiangAEC(AECEnv):
        metadata = {"name": f"majiang_{variant}_v0", "render_modes": ["ansi"], "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.rules = rules_for(variant, preset, **options)
            n = 3 if variant == "kawuxing" else 4
            self.possible_agents = [f"player_{i}" for i in range(n)]
            obs_space, act_space = _spaces()
            self.observation_spaces = {a: obs_space for a in self.possible_agents}
            self.action_spaces = {a: act_space for a in self.possible_agents}
            self.render_mode = render_mode
            self._seed = None
            self._hand = 0
            self.game: Game | None = None

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def reset(self, seed=None, options=None):
            if seed is not None:
                self._seed = seed
                self._hand = 0
            elif self._seed is None:
                self._seed = int(np.random.SeedSequence().entropy % (2 ** 63))
            n = len(self.possible_agents)
            self.game = Game(self.rules, seed=self._seed, hand_index=self._hand, dealer=self._hand % n)
            self._hand += 1
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self._paid = [0] * n
            self._select()

        def _select(self) -> None:
            g = self.game
            if g.over:
                return
            seat = g.pending_seats()[0]
            self.agent_selection = self.possible_agents[seat]
            self._mask, self._mapping = mask_of(g, seat)

        def observe(self, agent):
            seat = self.possible_agents.index(agent)
            if agent == self.agent_selection and not self.game.over:
                mask = self._mask.copy()
            else:
                mask = np.zeros(N_ACTIONS, dtype=np.int8)
            return {"observation": encode(self.game, seat), "action_mask": mask}

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                return self._was_dead_step(action)
            seat = self.possible_agents.index(agent)
            if action is None or int(action) not in self._mapping:
                raise ValueError(f"action {action!r} is not legal for {agent}; use the action_mask")
            self._cumulative_rewards[agent] = 0
            paid_before = len(self.game.payments)
            self.game.apply(seat, self._mapping[int(action)])
            if len(self.game.payments) != paid_before:  # most steps move no money
                totals = self.game.totals()
                for s, a in enumerate(self.possible_agents):
                    self.rewards[a] = totals[s] - self._paid[s]
                    self._paid[s] = totals[s]
            else:
                for a in self.possible_agents:
                    self.rewards[a] = 0
            if self.game.over:
                self.terminations = dict.fromkeys(self.agents, True)
                for a in self.agents:
                    self.infos[a] = {"settlement": self.game.settlement()}
                self._accumulate_rewards()
                # walk dead agents out in order
                self.agent_selection = self.agents[(seat + 1) % len(self.agents)]
                return
            self._accumulate_rewards()
            self._select()

        def render(self):
            if self.render_mode != "ansi":
                return None
            from .cli_play import _describe
            seat = self.possible_agents.index(self.agent_selection)
            return _describe(self.game, seat)

        def close(self):
            pass

    return MajiangAEC()


# ---------------------------------------------------------------------------------------------
# Gymnasium single agent


def single_agent(variant: str, opponents: str = "greedy", seat: int = 0, preset: str | None = None,
                 **options):
    """A Gymnasium ``Env``: one seat learns, the others are built-in agents (or ``random``).

    An action outside the mask is replaced by a safe default (``info["illegal"]`` is True).
    """
    import gymnasium as gym

    class MajiangSingle(gym.Env):
        metadata = {"render_modes": ["ansi"]}

        def __init__(self) -> None:
            self.rules = rules_for(variant, preset, **options)
            self.n = 3 if variant == "kawuxing" else 4
            self.seat = seat
            self.observation_space, self.action_space = _spaces()
            self._seed = 0
            self._hand = 0
            self.game: Game | None = None
            self.opponents = [make_agent(opponents, seed=s) for s in range(self.n)]
            self.render_mode = "ansi"

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            if seed is not None:
                self._seed, self._hand = seed, 0
            self.game = Game(self.rules, seed=self._seed, hand_index=self._hand, dealer=self._hand % self.n)
            self._hand += 1
            self._paid = 0
            self._advance()
            return self._obs(), {}

        def _advance(self) -> None:
            g = self.game
            while not g.over:
                s = g.pending_seats()[0]
                if s == self.seat:
                    break
                agent = self.opponents[s]
                obs = g.observation(s) if getattr(agent, "needs_observation", True) else None
                g.apply(s, agent.act(obs, g.legal_actions(s)))

        def _obs(self):
            if self.game.over:
                mask = np.zeros(N_ACTIONS, dtype=np.int8)
                self._mapping = {}
            else:
                mask, self._mapping = mask_of(self.game, self.seat)
            return {"observation": encode(self.game, self.seat), "action_mask": mask}

        def step(self, action):
            info = {}
            a = self._mapping.get(int(action))
            if a is None:
                from .botproto import safe_default
                a = safe_default({"drawn": None}, self.game.legal_actions(self.seat))
                info["illegal"] = True
            self.game.apply(self.seat, a)
            self._advance()
            total = self.game.totals()[self.seat]
            reward = float(total - self._paid)
            self._paid = total
            obs = self._obs()
            if self.game.over:
                info["settlement"] = self.game.settlement()
            return obs, reward, self.game.over, False, info

        def render(self):
            from .cli_play import _describe
            return _describe(self.game, self.seat)

    return MajiangSingle()


class _Slice:
    """Games ``lo .. hi - 1`` of a batch, stepped in this process, writing their rows of the
    batch's arrays. Game ``i`` plays its ``k``-th hand with seed ``seed * 100003 + i``, hand index
    ``k`` and dealer ``k mod players``, however the batch is split across processes."""

    def __init__(self, spec: dict, lo: int, hi: int, arrays: dict) -> None:
        self.lo, self.hi = lo, hi
        self.seed = spec["seed"]
        self.self_play = spec["opponents"] is None
        self.rows = {k: v[lo:hi] for k, v in arrays.items()}
        n = hi - lo
        if self.self_play:
            self.rules = rules_for(spec["variant"], spec["preset"], **spec["options"])
            self.players = spec["players"]
            self.games: list[Game] = []
            self._hands = [0] * n
            self._paid = [[0] * self.players for _ in range(n)]  # each game's totals so far
            self._payments = [0] * n  # how many payments each game had at the last step
            self._mappings: list[dict[int, Action]] = [{}] * n
        else:
            self.envs = [single_agent(spec["variant"], spec["opponents"], seat=spec["seat"], preset=spec["preset"],
                                      **spec["options"]) for _ in range(n)]

    def _new_game(self, j: int) -> Game:
        k = self._hands[j]
        self._hands[j] += 1
        self._paid[j] = [0] * self.players
        self._payments[j] = 0
        return Game(self.rules, seed=self.seed * 100003 + self.lo + j, hand_index=k, dealer=k % self.players)

    def _observe(self, j: int) -> None:
        g = self.games[j]
        seat = g.pending_seats()[0]
        self.rows["seats"][j] = seat
        self._mappings[j] = mapping = legal_map(g, seat)
        mask = self.rows["masks"][j]
        mask.fill(0)
        mask[list(mapping)] = 1
        encode(g, seat, out=self.rows["obs"][j])

    def reset(self) -> None:
        rows = self.rows
        if not self.self_play:
            for j, env in enumerate(self.envs):
                o, _ = env.reset(seed=self.seed * 100003 + self.lo + j)
                rows["obs"][j] = o["observation"]
                rows["masks"][j] = o["action_mask"]
            return
        self._hands = [0] * len(self._hands)
        self.games = [self._new_game(j) for j in range(len(self._hands))]
        for j in range(len(self.games)):
            self._observe(j)

    def step(self) -> None:
        rows = self.rows
        actions, rewards, dones = rows["actions"], rows["rewards"], rows["dones"]
        dones[:] = False
        if not self.self_play:
            for j, env in enumerate(self.envs):
                o, r, done, _, _ = env.step(int(actions[j]))
                rewards[j] = r
                if done:
                    dones[j] = True
                    o, _ = env.reset()
                rows["obs"][j] = o["observation"]
                rows["masks"][j] = o["action_mask"]
            return
        seats = rows["seats"].tolist()
        rewards.fill(0.0)
        for j, (g, a) in enumerate(zip(self.games, actions.tolist())):
            g.apply(seats[j], self._mappings[j][a])
            if len(g.payments) != self._payments[j]:  # most steps move no money
                self._payments[j] = len(g.payments)
                totals = g.totals()
                rewards[j] = [t - p for t, p in zip(totals, self._paid[j])]
                self._paid[j] = totals
            if g.over:
                dones[j] = True
                self.games[j] = self._new_game(j)
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

    ``workers=K`` splits the games across this process and K - 1 worker processes (shared memory,
    one round trip per step): the same games and results as ``workers=1``, on K cores. Call
    ``close()`` (or use ``with``) to stop the workers.
    """

    def __init__(self, variant: str, num_envs: int, opponents: str | None = "greedy", seed: int = 0,
                 seat: int = 0, preset: str | None = None, workers: int = 1, **options) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = num_envs
        self.self_play = opponents is None
        self.players = 3 if variant == "kawuxing" else 4
        rules_for(variant, preset, **options)  # bad options fail here, before any worker starts
        spec = {"variant": variant, "preset": preset, "options": options, "opponents": opponents, "seed": seed,
                "seat": seat, "num_envs": num_envs, "players": self.players}
        self.workers = max(1, min(int(workers), num_envs))
        bounds = [num_envs * k // self.workers for k in range(self.workers + 1)]
        self._buffers: dict = {}
        self._procs: list = []
        self._conns: list = []
        if self.workers > 1:
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
        self._local = _Slice(spec, 0, bounds[1], self._arr)
        self._ready = False

    @property
    def seats(self) -> np.ndarray:
        """Who acts next in each game (self-play)."""
        return self._arr["seats"]

    @property
    def games(self) -> list[Game]:
        """The games stepped in this process (all of them with ``workers=1``)."""
        if self.self_play:
            return self._local.games
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
