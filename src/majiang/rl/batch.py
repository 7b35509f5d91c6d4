"""``BatchEnv``: many games stepped together, numpy arrays in and out, on one core or several."""

from __future__ import annotations

import numpy as np

from majiang.core.variants import get_variant
from majiang.engine import Game
from majiang.games.rules import rules_for
from majiang.rl.backends import _engine_for, _new_hand, _seed_state
from majiang.rl.encoder import N_ACTIONS
from majiang.rl.gymnasium import _safe_index, obs_length, single_agent


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
        self.obs_dtype = spec["obs_dtype"]
        n = hi - lo
        if self.self_play or self.backend == "native":
            self.rules = rules_for(spec["variant"], spec["preset"], **spec["options"])
            self.players = spec["players"]
            self.hands: list = []
            self._counter = np.zeros(n, dtype=np.int64)  # each game's next hand index
            self._deal = None
            if self.backend == "native":
                import ctypes

                from majiang import native
                self._lib = native.require()
                if self.self_play:  # the library deals finished games itself, from their seed strings
                    prefixes = [native.seed_prefix(self.seed * 100003 + lo + j) for j in range(n)]
                    if all(p is not None for p in prefixes):
                        rows = np.zeros((max(1, n), native.spec.MAX_SEED_PREFIX), dtype=np.uint8)
                        for j, p in enumerate(prefixes):
                            rows[j, :len(p)] = np.frombuffer(p, dtype=np.uint8)
                        self._deal = (rows, self._counter)
                self._obs_kind = native.OBS_KINDS[self.obs_dtype]
                self._bound_rows = None  # the rows whose addresses self._bound holds
                self._pointers = (ctypes.c_void_p * max(1, n))()
                if not self.self_play:  # each game's own bots, as each game is its own single_agent env
                    self._opponent_kind = spec["opponents"]
                    self._opponents = [self._make_opponents(j) for j in range(n)]
                    self._opponent_pointers = (ctypes.c_void_p * max(1, n))(*[o._ptr for o in self._opponents])
        else:
            self.envs = [single_agent(spec["variant"], spec["opponents"], seat=spec["seat"], preset=spec["preset"],
                                      backend="python", obs_dtype=spec["obs_dtype"], **spec["options"])
                         for _ in range(n)]

    @property
    def games(self) -> list[Game]:
        if self._deal is not None:  # hands the library dealt itself: their index and dealer, from the counts
            for hand, k in zip(self.hands, (self._counter - 1).tolist()):
                if hand.hand_index != k:
                    hand.dealt(k, k % self.players)
        return [h.to_python() for h in self.hands]

    def _make_opponents(self, j: int):
        from majiang.native import Opponents
        return Opponents(self._opponent_kind, self.players, state=_seed_state(self.seed * 100003 + self.lo + j))

    def _new_hand(self, j: int):
        while True:
            k = int(self._counter[j])
            self._counter[j] += 1
            hand = _new_hand(self.backend, self.rules, self.seed * 100003 + self.lo + j, k, k % self.players)
            # against bots: play to the learner's first decision (skip a hand without one)
            if self.self_play or hand.play(self.learner, self._opponents[j]) >= 0:
                break
        if self.backend == "native":
            self._pointers[j] = hand._ptr
        return hand

    def _step_native(self, actions: np.ndarray, rewards: np.ndarray, dones: np.ndarray) -> None:
        """One library call steps every game (and the opponents); finished games are dealt again
        in place. The library checks every action before applying any: a self-play batch with an
        illegal one raises ``ValueError`` (no game changed); against bots an illegal action
        becomes a safe default, as in ``single_agent``."""
        if not self.hands:
            return
        rows = self.rows
        if self._bound_rows is not rows:  # the library call with these arrays' addresses, made once
            from majiang.native import batch_stepper
            self._bound = batch_stepper(self._lib, self._pointers, rows, self.threads, self.learner,
                                        None if self.self_play else self._opponent_pointers, self._deal)
            self._bound_rows = rows
        while True:
            bad = self._bound()
            if bad == -1:
                break
            if bad < 0:
                raise RuntimeError(f"native engine error {bad}")
            if self.self_play:
                raise ValueError(f"game {self.lo + bad}: action {int(actions[bad])} is not legal for seat "
                                 f"{int(rows['seats'][bad])}; use the action mask")
            actions[bad] = _safe_index(self.hands[bad].mask(self.learner))
        if self._deal is not None:  # the library dealt finished games again (``games`` catches up)
            return
        finished = np.flatnonzero(dones).tolist()
        if finished:
            obs, masks = rows["obs"], rows["masks"]
            obs_at, masks_at, obs_stride = obs.ctypes.data, masks.ctypes.data, obs.strides[0]
            for j in finished:
                self._redeal(j, masks_at + j * N_ACTIONS, obs_at + j * obs_stride)

    def _redeal(self, j: int, mask_at: int, obs_at: int) -> None:
        """Game ``j``'s next hand in place of the finished one (a native game), and its row."""
        hand = self.hands[j]
        while True:
            k = int(self._counter[j])
            self._counter[j] += 1
            seat = hand.redeal(k, k % self.players, mask_at, obs_at, self._obs_kind)
            # against bots: play to the learner's first decision (skip a hand without one)
            if self.self_play:
                self.rows["seats"][j] = seat
                return
            if hand.play(self.learner, self._opponents[j]) >= 0:
                break
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
        self._counter[:] = 0  # in place: the library's deal reads this array
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


def _arrays(num_envs: int, players: int, self_play: bool, buffers=None, empty: bool = False,
            obs_dtype: str = "float32") -> dict:
    shapes = {"obs": ((num_envs, obs_length(obs_dtype)), np.dtype(obs_dtype)),
              "masks": ((num_envs, N_ACTIONS), np.int8),
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
        games = _Slice(spec, lo, hi, _arrays(spec["num_envs"], spec["players"], spec["opponents"] is None, buffers,
                                             obs_dtype=spec["obs_dtype"]))
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


def _let_go(arrays: dict) -> bool:
    """Whether nothing but ``arrays`` holds its arrays (no caller's name, view or container)."""
    import sys

    return all(sys.getrefcount(v) <= 3 for v in arrays.values())  # the dict, the loop, the argument


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

    ``obs_dtype="uint8"``: the compact observation (``majiang.rl.encoder``; ``expand`` gives the
    float32 one back), a quarter of the memory. ``step`` returns new arrays, never the ones it
    returned before (it writes into a set the caller has let go of, when there is one); with
    ``reuse_arrays=True`` it returns the same arrays at every step instead, overwritten by the next
    step: no allocation and the least memory (with ``uint8``, under 8 KiB per game in all).
    """

    def __init__(self, variant: str, num_envs: int, opponents: str | None = "greedy", seed: int = 0,
                 seat: int = 0, preset: str | None = None, workers: int = 1, backend: str = "auto",
                 obs_dtype: str = "float32", reuse_arrays: bool = False, **options) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = num_envs
        self.self_play = opponents is None
        self.players = get_variant(variant).players
        rules_for(variant, preset, **options)  # bad options fail here, before any worker starts
        obs_length(obs_dtype)
        self.obs_dtype = obs_dtype
        self.reuse_arrays = bool(reuse_arrays)
        self._spare: dict | None = None  # arrays returned two steps ago, written again once let go
        if not self.self_play and not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0-{self.players - 1}, got {seat}")
        self.backend = _engine_for(opponents, backend)
        spec = {"variant": variant, "preset": preset, "options": options, "opponents": opponents, "seed": seed,
                "seat": seat, "num_envs": num_envs, "players": self.players, "backend": self.backend,
                "obs_dtype": obs_dtype}
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

            sizes = {k: max(1, v.nbytes) for k, v in _arrays(num_envs, self.players, self.self_play,
                                                             obs_dtype=obs_dtype).items()}
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
            self._arr = _arrays(num_envs, self.players, self.self_play, self._buffers, obs_dtype=obs_dtype)
            try:
                self._gather()
            except RuntimeError:
                self._local = None
                self.close()
                raise
        else:
            self._arr = _arrays(num_envs, self.players, self.self_play, obs_dtype=obs_dtype)
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
        if self.reuse_arrays:
            return self._arr["obs"], self._arr["masks"]
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
        # the native library checks every action itself before it applies any (_Slice._step_native)
        if self.self_play and self.backend != "native":  # check every action first: a bad batch changes no game
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
        if self.reuse_arrays:  # the same arrays, written in place
            a = self._arr
            a["actions"][:] = actions
            self._local.step()
            return a["obs"], a["masks"], a["rewards"], a["dones"]
        # one process: step into arrays the caller does not hold, so its arrays are never overwritten
        fresh = self._spare if self._spare is not None and _let_go(self._spare) else \
            _arrays(self.num_envs, self.players, self.self_play, empty=True, obs_dtype=self.obs_dtype)
        fresh["actions"][:] = actions
        fresh["seats"][:] = self._arr["seats"]
        before = self._arr
        self._spare, self._arr, self._local.rows = before, fresh, fresh
        try:
            self._local.step()
        except ValueError:  # refused before any game changed: the arrays stay those of the last step
            self._spare, self._arr, self._local.rows = fresh, before, before
            raise
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
        self._spare = None
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


__all__ = ["BatchEnv"]
