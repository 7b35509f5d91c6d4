"""The optional native engine: the rules engine and the RL encoder in Rust (``native/``), for
environments that need many steps per second.

It plays exactly the Python engine's hands (same wall from the same seed, same legal actions,
same payments; ``tests/native/test_native.py`` plays both side by side and compares every mask,
observation and reward) but speaks only the RL env's action indices and arrays. It also plays the
``random`` and ``greedy`` bots (``Opponents``; greedy is ``majiang.agents.GreedyAgent`` decision
for decision, with the package's shanten tables handed over at first use). The Python
engine stays the reference and the only one with event logs and fan names; ``majiang.rl``
rebuilds a Python ``Game`` from a native hand when asked for one.

A platform wheel ships the library inside the package (``setup.py`` builds it where cargo is
found), and with it the hand analysis' extension module ``majiang.core._analysis`` (the same
build). In a checkout, build both once (needs ``cargo``)::

    python -m majiang.native build

``available()`` says whether the library loads. It is looked for in the package first (the
wheel's, or the one ``build`` put there), then in the checkout's own cargo output
(``native/target/release``); ``MAJIANG_NATIVE_LIB`` names the one file to load instead.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import subprocess
import sys
from array import array
from pathlib import Path
from typing import Callable

try:  # numpy is a dependency of every install; a bare source tree without it runs the Python engine
    import numpy as np
except ImportError:  # pragma: no cover - exercised by the plain-install smoke test in .ci/run
    np = None  # type: ignore[assignment]

from majiang.core.errors import IllegalActionError
from majiang.core.variants import get_variant
from majiang.engine import seed_string
from majiang.native import spec
from majiang.native.cargo import ANALYSIS_NAME, PYTHON_FEATURE, cargo_command, install
from majiang.native.cargo import LIB_NAME as _LIB_NAME
from majiang.native.spec import ABI_VERSION, N_ACTIONS, OBS_SIZE

_HERE = Path(__file__).resolve().parent.parent  # the library sits in the package's top folder
_CRATE = _HERE.parent.parent / "native"  # the checkout's crate, next to src/
_lib = None
_lib_path: Path | None = None
_load_error: str | None = None


def library_paths() -> list[Path]:
    """Where the library is looked for, in order: the package's own (a wheel ships it there,
    ``build`` puts it there), then the checkout's cargo output; only ``MAJIANG_NATIVE_LIB`` if set."""
    if os.environ.get("MAJIANG_NATIVE_LIB"):
        return [Path(os.environ["MAJIANG_NATIVE_LIB"])]
    paths = [_HERE / _LIB_NAME]
    if (_CRATE / "Cargo.toml").exists():
        paths.append(_CRATE / "target" / "release" / _LIB_NAME)
    return paths


def library_path() -> Path:
    """The library loaded, or (none loaded) the first place it is looked for."""
    _load()
    return _lib_path or library_paths()[0]


def _open(path: Path):
    """(the library at ``path``, None) if it loads and speaks this package's ABI, else (None, why)."""
    try:
        lib = ctypes.CDLL(str(path))
    except OSError as exc:
        return None, f"no native engine at {path} ({exc})"
    lib.mj_abi_version.restype = ctypes.c_int64
    if lib.mj_abi_version() != ABI_VERSION:
        return None, f"{path} is an old build (ABI {lib.mj_abi_version()}, need {ABI_VERSION}): rebuild it"
    lib.mj_obs_size.restype = ctypes.c_int64
    if lib.mj_obs_size() != OBS_SIZE:
        return None, f"{path} encodes {lib.mj_obs_size()} values, majiang.native.spec {OBS_SIZE}: rebuild it"
    missing = spec.declare_functions(lib)  # every prototype, from spec.FUNCTIONS
    if missing:
        return None, f"{path} is an old build (no {missing}): rebuild it"
    return lib, None


def _load():
    global _lib, _lib_path, _load_error
    if _lib is not None or _load_error is not None:
        return _lib
    if np is None:
        _load_error = "the native engine needs numpy (pip install numpy)"
        return None
    paths = library_paths()
    lib = None
    for path in paths:
        if not path.exists():
            continue
        lib, why = _open(path)
        if lib is not None:
            break
        _load_error = _load_error or why  # the first one's reason: the one that should have loaded
    if lib is None:
        _load_error = _load_error or (f"no native engine at {paths[0]}: install a platform wheel of majiang, "
                                      "or build it in a checkout with `python -m majiang.native build`")
        return None
    _load_error = None
    _lib, _lib_path = lib, path
    return lib


OBS_KINDS = {"float32": spec.OBS_KIND_FLOAT32, "uint8": spec.OBS_KIND_COMPACT}  # by observation dtype


def available() -> bool:
    """Whether the native library is built and loads."""
    return _load() is not None


def unavailable_reason() -> str | None:
    _load()
    return _load_error


def require():
    lib = _load()
    if lib is None:
        raise RuntimeError(_load_error)
    return lib


def config_of(rules) -> np.ndarray:
    """The rules as the flat integer array the library reads (``spec.encode_rules``, generated from
    the games' declarations like the crate's ``Options::from_config``)."""
    return np.array(spec.encode_rules(rules), dtype=np.int64)


@functools.lru_cache(maxsize=64)
def _config(rules) -> np.ndarray:
    """``config_of``, once per rules object (rules are frozen)."""
    return config_of(rules)


def seed_key(seed, hand_index: int) -> bytes:
    """The 32-bit words (little-endian bytes) that ``random.Random(seed_string(...))`` passes to
    MT19937's ``init_by_array``: the string's bytes and their SHA-512, read as one big-endian
    integer, in 32-bit words from the least significant."""
    text = seed_string(seed, hand_index).encode()
    n = int.from_bytes(text + hashlib.sha512(text).digest(), "big")
    words = max(1, (n.bit_length() + 31) // 32)
    return n.to_bytes(4 * words, "little")


def seed_prefix(seed) -> bytes | None:
    """The bytes of ``seed_string(seed, k)`` before ``k``, for the library to make ``seed_key``
    itself (``mj_batch_step_deal``); ``None`` when a seed's strings are not that prefix and the
    index, or the prefix does not fit ``spec.MAX_SEED_PREFIX`` bytes."""
    text = seed_string(seed, 0).encode()
    prefix = text[:-1]
    if (len(prefix) > spec.MAX_SEED_PREFIX or b"\0" in prefix or text[-1:] != b"0"
            or seed_string(seed, 12345).encode() != prefix + b"12345"):
        return None
    return prefix


class NativeGame:
    """One hand in the native engine: the same deal as ``Game(rules, seed, hand_index, dealer)``.

    ``actions`` lists (seat, action index) as played (the library keeps them), so the Python
    ``Game`` can be rebuilt (``to_python``)."""

    __slots__ = ("rules", "seed", "hand_index", "dealer", "n", "_ptr", "_lib", "_summary", "_obs", "_obs_at",
                 "_mask", "_mask_at", "_paid", "_paid_at", "_zeros", "_given")

    def __init__(self, rules, seed=0, hand_index: int = 0, dealer: int = 0, wall: list[int] | None = None,
                 dice: tuple[int, int] = (1, 1), front: int = 0) -> None:
        """``wall`` (with ``dice``): deal that wall instead of shuffling, as ``Game(wall=…)`` does;
        ``front`` > 0 then moves the next draw there after the deal (a test wall's scripted end)."""
        lib = require()
        self._lib = lib
        self.rules = rules
        self.seed, self.hand_index, self.dealer = seed, hand_index, dealer
        self.n = get_variant(rules.variant).players
        if not 0 <= dealer < self.n:
            raise IllegalActionError(f"dealer must be a seat 0-{self.n - 1}")
        self._given = None
        if wall is not None:
            tiles = np.array([int(t) for t in wall], dtype=np.uint8)
            self._given = (tiles.tolist(), tuple(dice), front)
            self._ptr = lib.mj_new_wall(_config(rules).ctypes.data, tiles.ctypes.data, len(tiles), dealer,
                                        dice[0], dice[1], front)
            if not self._ptr:
                raise IllegalActionError(f"an injected wall must hold each {rules.variant} tile four times")
        else:
            key = seed_key(seed, hand_index)  # the library shuffles as Python's random would
            self._ptr = lib.mj_new_seeded(_config(rules).ctypes.data, key, len(key) // 4, dealer)
        if not self._ptr:
            raise RuntimeError("the native engine failed to deal")
        self._obs = None  # buffers the library writes into, made on first use (batches write their rows)
        self._zeros = (0,) * self.n

    def _buffers(self) -> None:
        # their addresses looked up once: numpy's lookup costs more than the library call
        self._obs = np.empty(OBS_SIZE, dtype=np.float32)
        self._obs_at = self._obs.ctypes.data
        self._mask = np.empty(N_ACTIONS, dtype=np.int8)
        self._mask_at = self._mask.ctypes.data
        self._paid = np.zeros(self.n, dtype=np.int64)
        self._paid_at = self._paid.ctypes.data
        self._summary = np.zeros(64, dtype=np.int64)

    def __del__(self) -> None:
        ptr = getattr(self, "_ptr", None)
        if ptr:
            self._lib.mj_free(ptr)
            self._ptr = None

    def wall(self) -> tuple[list[int], tuple[int, int]]:
        """The wall as dealt (tile kinds, draws from the front) and the dice."""
        out = np.zeros(136, dtype=np.uint8)
        dice = np.zeros(2, dtype=np.int64)
        n = self._lib.mj_wall(self._ptr, out.ctypes.data, dice.ctypes.data)
        return out[:n].tolist(), (int(dice[0]), int(dice[1]))

    def to_act(self) -> int:
        """The seat that decides next (lowest pending seat), or -1 when the hand is over."""
        return self._lib.mj_to_act(self._ptr)

    @property
    def over(self) -> bool:
        return self._lib.mj_to_act(self._ptr) < 0

    def apply(self, seat: int, action: int) -> int:
        """Apply ``action`` for ``seat``; returns who decides next (-1: the hand is over)."""
        code = self._lib.mj_apply(self._ptr, seat, action)
        if code < -1:
            if code == -3:
                raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
            raise RuntimeError(f"native engine error {code}")
        return code

    def step(self, seat: int, action: int, mask: np.ndarray, mask_at: int):
        """Apply ``action``; write the next seat's mask into ``mask`` (whose address is
        ``mask_at``). Returns (next seat or -1, every seat's points or None when none moved)."""
        if self._obs is None:
            self._buffers()
        code = self._lib.mj_step(self._ptr, seat, action, mask_at, self._paid_at)
        if code < 0:
            if code == -3:
                raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
            raise RuntimeError(f"native engine error {code}")
        return (code & 15) - 1, (self._paid.tolist() if code & 16 else None)

    def step_obs(self, seat: int, action: int, mask_at: int, obs_at: int, kind: int):
        """``step``, and the next seat's observation of kind ``kind`` (``spec.OBS_KIND_*``)
        written at address ``obs_at``, in one library call."""
        code = self.stepper(mask_at, obs_at, kind)(seat, action)
        if code < 0:
            if code == -3:
                raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
            raise RuntimeError(f"native engine error {code}")
        return (code & 15) - 1, (self._paid.tolist() if code & 16 else None)

    def stepper(self, mask_at: int, obs_at: int, kind: int):
        """``(seat, action) -> code``: ``mj_step_obs`` on this hand with its buffers bound, for an
        env's step loop. ``code``: -3 the action is not legal (nothing changed), below that an
        internal error, else next seat + 1 (0: the hand is over), plus 16 when points moved;
        then ``points()`` are every seat's. Valid while this hand lives."""
        if self._obs is None:
            self._buffers()
        return _direct_calls(self._lib)[0](self._ptr, mask_at, self._paid_at, obs_at, kind)

    def encoder(self, out_at: int, kind: int):
        """``(seat) -> code``: ``seat``'s observation of kind ``kind`` written at address ``out_at``
        (room for it), for an env's other seats; ``code`` below 0 for a seat that has none. Valid
        while this hand lives."""
        return _direct_calls(self._lib)[1](self._ptr, out_at, kind)

    def points(self) -> list[int]:
        """Every seat's points of the last step that moved any (``stepper``'s code has 16)."""
        return self._paid.tolist()

    def redeal(self, hand_index: int, dealer: int, mask_at: int, obs_at: int, kind: int, seed=None) -> int:
        """Deal hand ``hand_index`` of ``seed`` (default: this game's) with the same rules in place
        of the one this game holds, as ``NativeGame(rules, seed, hand_index, dealer)`` would; write
        the mask and observation (kind ``kind``) of the seat to act at ``mask_at`` and ``obs_at``.
        Returns that seat."""
        if seed is not None:
            self.seed = seed
        key = seed_key(self.seed, hand_index)
        seat = self._lib.mj_redeal_obs(self._ptr, key, len(key) // 4, dealer, mask_at, obs_at, kind)
        if seat < -1:
            raise RuntimeError(f"native engine error {seat}")
        self.hand_index, self.dealer, self._given = hand_index, dealer, None
        return seat

    def dealt(self, hand_index: int, dealer: int) -> None:
        """The library dealt hand ``hand_index`` of this game's seed in place (a batch's step)."""
        self.hand_index, self.dealer, self._given = hand_index, dealer, None

    def play(self, learner: int, opponents: "Opponents") -> int:
        """``opponents`` play until ``learner`` must decide; returns it, or -1 if the hand ended."""
        code = self._lib.mj_play(self._ptr, learner, opponents._ptr)
        if code < -1:
            raise RuntimeError(f"native engine error {code}")
        return code

    @property
    def actions(self) -> list[tuple[int, int]]:
        count = self._lib.mj_actions(self._ptr, None, 0)
        out = np.zeros((max(count, 1), 2), dtype=np.int64)
        self._lib.mj_actions(self._ptr, out.ctypes.data, count)
        return [(s, a) for s, a in out[:count].tolist()]

    def mask(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            if self._obs is None:
                self._buffers()
            self._lib.mj_mask(self._ptr, seat, self._mask_at)
            return self._mask.copy()
        self._lib.mj_mask(self._ptr, seat, out.ctypes.data)
        return out

    def encode(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            if self._obs is None:
                self._buffers()
            self._lib.mj_encode(self._ptr, seat, self._obs_at)
            return self._obs.copy()
        if out.dtype == np.uint8:  # the compact observation
            if out.size < spec.OBS_COMPACT_SIZE:
                raise ValueError(f"a compact observation needs {spec.OBS_COMPACT_SIZE} bytes")
            self._lib.mj_encode_obs(self._ptr, seat, out.ctypes.data, spec.OBS_KIND_COMPACT)
            return out
        self._lib.mj_encode(self._ptr, seat, out.ctypes.data)
        return out

    def rewards(self) -> list[int] | tuple[int, ...]:
        """Every seat's points since the last call (a shared tuple of zeros when none moved)."""
        if self._obs is None:
            self._buffers()
        if self._lib.mj_rewards(self._ptr, self._paid_at):
            return self._paid.tolist()
        return self._zeros

    def summary(self) -> dict:
        """Result, totals, next dealer and the wins (seat, tile, multiplier …) of the hand so far."""
        if self._obs is None:
            self._buffers()
        s = self._summary
        need = self._lib.mj_summary(self._ptr, s.ctypes.data, len(s))
        if need > len(s):
            self._summary = s = np.zeros(need, dtype=np.int64)
            self._lib.mj_summary(self._ptr, s.ctypes.data, len(s))
        v = s.tolist()
        from majiang.core.tiles import ALL_TILES
        n = self.n
        wins = []
        S = spec
        for k in range(v[S.SUMMARY_WINS]):
            at = S.SUMMARY_TOTALS + n + S.SUMMARY_WIN_LEN * k
            row = v[at:at + S.SUMMARY_WIN_LEN]
            seat, tile, self_draw = row[S.SUMMARY_WIN_SEAT], row[S.SUMMARY_WIN_TILE], row[S.SUMMARY_WIN_SELF_DRAW]
            discarder, robbed = row[S.SUMMARY_WIN_DISCARDER], row[S.SUMMARY_WIN_ROBBED]
            mult = row[S.SUMMARY_WIN_MULTIPLIER]
            wins.append({"seat": seat, "tile": str(ALL_TILES[tile]), "self_draw": bool(self_draw),
                         "discarder": None if discarder == S.NO_DISCARDER else discarder, "robbed_kong": bool(robbed),
                         "multiplier": mult})
        result = {S.RESULT_NONE: None, S.RESULT_WIN: "win", S.RESULT_DRAW: "draw"}[v[S.SUMMARY_RESULT]]
        return {"result": result, "wins": wins, "totals": v[S.SUMMARY_TOTALS:S.SUMMARY_TOTALS + n],
                "next_dealer": v[S.SUMMARY_NEXT_DEALER] if result else None, "tiles_left": v[S.SUMMARY_TILES_LEFT]}

    def totals(self) -> list[int]:
        return self.summary()["totals"]

    def settlement(self) -> dict:
        """What the envs report at the end of a hand (``to_python().settlement()`` has it all)."""
        out = self.summary()
        del out["tiles_left"]
        return out

    def to_python(self):
        """The same hand replayed in the Python engine (event log, fans, payments)."""
        from majiang.engine import Game

        if self._given is None:
            g = Game(self.rules, seed=self.seed, hand_index=self.hand_index, dealer=self.dealer)
        else:
            wall, dice, front = self._given
            g = Game(self.rules, seed=self.seed, hand_index=self.hand_index, dealer=self.dealer, wall=wall, dice=dice)
            if front:
                g.front = max(g.front, min(front, g.back))
        for seat, index in self.actions:
            g.apply(seat, spec.legal_map(g, seat)[index])
        return g


def batch_step(lib, pointers, actions: np.ndarray, seats: np.ndarray, obs: np.ndarray, masks: np.ndarray,
               rewards: np.ndarray, dones: np.ndarray, threads: int = 1) -> int:
    """Step every game of a batch in one call on ``threads`` threads (``mj_batch_step``); returns
    -1 or the first game whose action was refused. The arrays must be C-contiguous."""
    return lib.mj_batch_step(pointers, len(actions), actions.ctypes.data, seats.ctypes.data, obs.ctypes.data,
                             masks.ctypes.data, rewards.ctypes.data, rewards.shape[1], dones.ctypes.data, threads)


def batch_step_vs(lib, pointers, actions: np.ndarray, learner: int, opponents, obs: np.ndarray,
                  masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray, threads: int = 1) -> int:
    """One learner decision per game against each game's opponents (``mj_batch_step_vs``);
    ``opponents`` is a ctypes array of their pointers."""
    return lib.mj_batch_step_vs(pointers, len(actions), actions.ctypes.data, learner, opponents, obs.ctypes.data,
                                masks.ctypes.data, rewards.ctypes.data, dones.ctypes.data, threads)


@functools.lru_cache(maxsize=4)
def _direct_calls(lib):
    """``(step, encode)``: ``step(game, mask, rewards, obs, kind)`` -> a callable ``(seat, action) ->
    code`` calling ``lib.mj_step_obs``, ``encode(game, obs, kind)`` -> ``(seat) -> code`` calling
    ``lib.mj_encode_obs``, the rest bound: the Rust module's direct calls when it is built
    (``majiang.core._analysis.stepper`` and ``encoder``, ~0.05 µs), else through ctypes (~1 µs)."""
    from majiang.core.analysis import rust

    if rust is None:
        step, encode = lib.mj_step_obs, lib.mj_encode_obs

        def stepper(g, mask, rewards, obs, kind):
            return lambda seat, action: step(g, seat, action, mask, rewards, obs, kind)

        def encoder(g, obs, kind):
            return lambda seat: encode(g, seat, obs, kind)

        return stepper, encoder
    return tuple(functools.partial(bind, ctypes.cast(fn, ctypes.c_void_p).value)
                 for bind, fn in ((rust.stepper, lib.mj_step_obs), (rust.encoder, lib.mj_encode_obs)))


def batch_step_obs(lib, pointers, actions: np.ndarray, seats: np.ndarray, obs: np.ndarray, masks: np.ndarray,
                   rewards: np.ndarray, dones: np.ndarray, threads: int = 1) -> int:
    """``batch_step`` writing ``obs`` rows of its dtype's kind (float32, or uint8: compact)."""
    kind = OBS_KINDS[obs.dtype.name]
    return lib.mj_batch_step_obs(pointers, len(actions), actions.ctypes.data, seats.ctypes.data, obs.ctypes.data,
                                 kind, masks.ctypes.data, rewards.ctypes.data, rewards.shape[1], dones.ctypes.data,
                                 threads)


def batch_stepper(lib, pointers, rows: dict, threads: int = 1, learner: int | None = None, opponents=None,
                  deal: tuple[np.ndarray, np.ndarray] | None = None):
    """``() -> code``: ``batch_step_obs`` (or, with ``learner`` and ``opponents``,
    ``batch_step_vs_obs``) of the arrays in ``rows`` (actions, seats, obs, masks, rewards, dones),
    their addresses looked up once (numpy's lookup costs more than a small batch's step). Valid
    while those arrays live. ``deal`` (self-play): ``(prefixes, hands)``, a ``(n, MAX_SEED_PREFIX)``
    uint8 array of ``seed_prefix`` rows and an int64 array of next hand indices: the library deals
    finished games their next hand itself (``mj_batch_step_deal``)."""
    at = {k: v.ctypes.data for k, v in rows.items()}
    n, kind = len(rows["actions"]), OBS_KINDS[rows["obs"].dtype.name]
    if opponents is None and deal is not None:
        prefixes, hands = deal
        args = (n, at["actions"], at["seats"], at["obs"], kind, at["masks"], at["rewards"], rows["rewards"].shape[1],
                at["dones"], threads, prefixes.ctypes.data, hands.ctypes.data)
        from majiang.core.analysis import rust

        if rust is not None:  # no ctypes conversion of 13 arguments
            return functools.partial(rust.batch_step_at, ctypes.cast(lib.mj_batch_step_deal, ctypes.c_void_p).value,
                                     ctypes.addressof(pointers), *args)
        return functools.partial(lib.mj_batch_step_deal, pointers, *args)
    if opponents is None:
        return functools.partial(lib.mj_batch_step_obs, pointers, n, at["actions"], at["seats"], at["obs"], kind,
                                 at["masks"], at["rewards"], rows["rewards"].shape[1], at["dones"], threads)
    return functools.partial(lib.mj_batch_step_vs_obs, pointers, n, at["actions"], learner, opponents, at["obs"],
                             kind, at["masks"], at["rewards"], at["dones"], threads)


def batch_step_vs_obs(lib, pointers, actions: np.ndarray, learner: int, opponents, obs: np.ndarray,
                      masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray, threads: int = 1) -> int:
    """``batch_step_vs`` writing ``obs`` rows of its dtype's kind (float32, or uint8: compact)."""
    kind = OBS_KINDS[obs.dtype.name]
    return lib.mj_batch_step_vs_obs(pointers, len(actions), actions.ctypes.data, learner, opponents,
                                    obs.ctypes.data, kind, masks.ctypes.data, rewards.ctypes.data,
                                    dones.ctypes.data, threads)


OPPONENTS = ("random", "greedy")  # what the library can play for the seats a learner does not


def _share_tables(lib) -> None:
    """Greedy play needs shanten: hand the library the package's shipped tables, once."""
    if getattr(lib, "_tables_shared", False):
        return
    from array import array

    from majiang.core.analysis import tables

    t = tables()
    rows = array("H", [v for row in t.rows for v in row])
    code = lib.mj_set_tables(t.suit.buffer_info()[0], len(t.suit), t.honour.buffer_info()[0], len(t.honour),
                             rows.buffer_info()[0], len(t.rows))
    if code:
        raise RuntimeError(f"the native engine refused the shanten tables ({code})")
    lib._tables_shared = True


class Opponents:
    """The built-in opponents the library plays: ``random`` (its own generator, seeded by
    ``state``) or ``greedy`` (``GreedyAgent(seeds[s])`` at seat s, draw for draw)."""

    __slots__ = ("kind", "_ptr", "_lib")

    def __init__(self, kind: str, players: int, state: int = 0, seeds: list[int] | None = None) -> None:
        if kind not in OPPONENTS:
            raise ValueError(f"the native engine plays {' or '.join(OPPONENTS)} opponents, not {kind!r}")
        lib = self._lib = require()
        self.kind = kind
        if kind == "greedy":
            _share_tables(lib)
            seeds = list(range(players)) if seeds is None else seeds
            if any(not 0 <= s < 2 ** 32 for s in seeds):
                raise ValueError("greedy seeds must be in 0 .. 2**32 - 1")
            keys = np.array(seeds, dtype=np.uint32)
            self._ptr = lib.mj_opponents_new(1, 0, keys.ctypes.data, 1, players)
        else:
            self._ptr = lib.mj_opponents_new(0, state % 2 ** 64, None, 0, players)
        if not self._ptr:
            raise RuntimeError("the native engine could not make the opponents")

    def __del__(self) -> None:
        ptr = getattr(self, "_ptr", None)
        if ptr:
            self._lib.mj_opponents_free(ptr)
            self._ptr = None


_MELD_CODES = {"pong": spec.POS_MELD_PONG, "kong": spec.POS_MELD_KONG, "concealed_kong": spec.POS_MELD_CONCEALED}
_DECLARED_CODES = {None: spec.DECLARED_NONE, "liangdao": spec.DECLARED_LIANGDAO, "sing": spec.DECLARED_SING,
                   "dance": spec.DECLARED_DANCE}


def _position_row(mode: str, actor: int, tile: int | None, dealer: int, wall, seats) -> list[int]:
    """The ``POS_*`` integers of a position as a list: ``seats`` yields each seat's (counts, melds,
    void, out, declared, waits) as ``SeatPosition`` or the engine's ``Seat`` hold them."""
    S = spec
    row = _ZERO_ROW.copy()  # whole-slice writes: a list is filled several times faster than numpy items
    row[S.POS_MODE] = S.POS_MODE_CLAIM if mode == "claim" else S.POS_MODE_TURN
    row[S.POS_ACTOR] = actor
    row[S.POS_TILE] = -1 if tile is None else tile
    row[S.POS_DEALER] = dealer
    row[S.POS_WALL_LEN] = len(wall)
    row[S.POS_WALL:S.POS_WALL + len(wall)] = wall
    at = S.POS_SEATS
    for counts, melds, void, out, declared, waits in seats:
        row[at + S.POS_COUNTS:at + S.POS_COUNTS + 30] = counts
        row[at + S.POS_VOID] = -1 if void is None else "mps".index(void)
        row[at + S.POS_OUT] = 1 if out else 0
        row[at + S.POS_DECLARED] = _DECLARED_CODES[declared]
        if waits:
            row[at + S.POS_WAITS] = sum(1 << int(t) for t in set(waits))
        if melds:
            row[at + S.POS_MELDS] = len(melds)
            for i, m in enumerate(melds):
                row[at + S.POS_MELD + 2 * i] = _MELD_CODES[m.kind.value]
                row[at + S.POS_MELD + 2 * i + 1] = int(m.tile)
        at += S.POS_SEAT_LEN
    return row


_ZERO_ROW = [0] * spec.POS_LEN


def _position_list(pos) -> list[int]:
    """A ``majiang.engine.position.Position``'s ``POS_*`` integers as a list."""
    return _position_row(pos.mode, pos.actor, pos.tile, pos.dealer, pos.wall,
                         ((sp.counts, sp.melds, sp.void, sp.out, sp.declared, sp.waits) for sp in pos.seats))


def position_array(pos, out: np.ndarray | None = None) -> np.ndarray:
    """A ``majiang.engine.position.Position`` as the ``POS_*`` integers ``mj_rollouts`` reads."""
    row = _position_list(pos)
    if out is None:
        return np.array(row, dtype=np.int64)
    out[:] = row
    return out


def game_position_row(game) -> array | None:
    """``position_array(position_of(game))`` read straight off the game, as the integers' buffer
    (no ``Position`` built, no numpy): what a greedy bot on the web server's event loop hands the
    library for each decision. None where ``position_of`` is None."""
    from majiang.engine.position import decision_point

    point = decision_point(game)
    if point is None:
        return None
    mode, actor, tile = point
    return array("q", _position_row(mode, actor, tile, game.dealer, game.wall[game.front:game.back],
                                    ((s.counts, s.melds, s.void, s.out, s.declared_kind, s.declared_waits)
                                     for s in game.seats)))


ROLLOUT_POLICIES = {"greedy": spec.ROLLOUT_GREEDY, "careful": spec.ROLLOUT_CAREFUL}


def rollouts(rules, positions: np.ndarray, seat: int, actions, keys, policy: str = "greedy") -> np.ndarray:
    """Play one rollout per row of ``positions`` (``position_array`` rows) in one library call:
    ``seat`` plays ``actions[i]`` (action indices) at its first decision, then every decision of
    every seat is ``GreedyAgent(keys[i][s])``'s (``policy`` "careful": ``CarefulAgent``'s).
    Returns each seat's points from the position on, one row per rollout."""
    lib = require()
    _share_tables(lib)
    n = len(positions)
    players = get_variant(rules.variant).players
    pos = np.ascontiguousarray(positions, dtype=np.int64)
    acts = np.ascontiguousarray(actions, dtype=np.int64)
    k = np.ascontiguousarray(keys, dtype=np.uint32).reshape(n, players)
    out = np.zeros((n, players), dtype=np.int64)
    code = lib.mj_rollouts(_config(rules).ctypes.data, pos.ctypes.data, n, seat, acts.ctypes.data, k.ctypes.data,
                           ROLLOUT_POLICIES[policy], out.ctypes.data)
    if code != spec.RET_OK:
        raise RuntimeError(f"the native engine refused a rollout ({code})")
    return out


def policy_act(rules, position, seat: int, key: int, policy: str = "greedy") -> int:
    """One decision of ``GreedyAgent(key)`` (``policy`` "careful": ``CarefulAgent(key)``) for
    ``seat`` at ``position`` (a ``majiang.engine.position.Position``), in one library call: the
    action index (``spec.action_index``). RuntimeError when the seat has no decision there."""
    return policy_caller(rules, policy)(array("q", _position_list(position)), seat, key)


@functools.lru_cache(maxsize=64)
def policy_caller(rules, policy: str = "greedy") -> Callable[[array, int, int], int]:
    """``policy_act`` with ``rules`` and ``policy`` bound once (the library, its shanten
    tables, the rules' configuration): ``(row, seat, key) -> action index``, ``row`` a
    ``game_position_row`` buffer. A bot that decides many times keeps this (hashing a rules object
    costs more than the library's lookups)."""
    lib = require()
    _share_tables(lib)
    config = _config(rules)
    call, address, code_of_policy = lib.mj_policy_act, config.ctypes.data, ROLLOUT_POLICIES[policy]

    def act(row: array, seat: int, key: int) -> int:
        code = call(address, row.buffer_info()[0], seat, key & 0xFFFFFFFF, code_of_policy)
        if code < 0:
            raise RuntimeError(f"the native engine found no decision for seat {seat} there ({code})")
        return code

    act.config = config  # type: ignore[attr-defined]  # the array at ``address`` lives as long as ``act``
    return act


PLANS = ("all", "flush_m", "flush_p", "flush_s", "pairs")  # the OUTLOOK_PLAN_* numbers' names, in order


def check_hand(counts, melds, waiting: bool = False) -> None:
    """ValueError unless ``counts`` is a hand holding a drawn tile (14 tiles less three per meld)
    or, ``waiting``, one waiting for a draw (13 less three per meld), at most four of a kind."""
    if len(counts) != 30 or any(not 0 <= c <= 4 for c in counts) or len(melds) > 4:
        raise ValueError("a hand is 30 counts of 0 to 4 copies, with at most four melds")
    size = 13 - 3 * len(melds) if waiting else 14 - 3 * len(melds)
    if sum(counts) != size:
        what = "waiting for a draw" if waiting else "holding a drawn tile"
        raise ValueError(f"a hand {what} has {size} tiles with {len(melds)} melds, not {sum(counts)}")


def outlook(rules, counts, melds, void: str | None, unseen, model, samples: int, key: int,
            candidates=None, plans: int = 0b11111) -> list[tuple[int, float, str, bool]]:
    """``majiang.bots.outlook.evaluate`` in one library call: (kind, value, plan, declare) for each
    candidate discard (default: every kind held), in kind order."""
    check_hand(counts, melds)
    kinds = [k for k in range(30) if counts[k]] if candidates is None else sorted({int(k) for k in candidates})
    values, flags = _outlook_call(rules, counts, melds, void, unseen, model, samples, key, kinds, plans, False)
    return [(k, float(values[k]), PLANS[int(flags[k]) % spec.OUTLOOK_DECLARES],
             bool(flags[k] // spec.OUTLOOK_DECLARES)) for k in kinds if counts[k]]


def outlook_waiting(rules, counts, melds, void: str | None, unseen, model, samples: int, key: int,
                    plans: int = 0b11111) -> tuple[float, str]:
    """``majiang.bots.outlook.evaluate_waiting`` in one library call: (value, plan)."""
    check_hand(counts, melds, waiting=True)
    values, flags = _outlook_call(rules, counts, melds, void, unseen, model, samples, key, [], plans, True)
    return float(values[0]), PLANS[int(flags[0])]


def _outlook_call(rules, counts, melds, void, unseen, model, samples, key, kinds, plans, waiting):
    lib = require()
    _share_tables(lib)
    S = spec
    h = np.zeros(S.OUTLOOK_IN_LEN, dtype=np.int64)
    h[S.OUTLOOK_COUNTS:S.OUTLOOK_COUNTS + 30] = counts
    h[S.OUTLOOK_UNSEEN:S.OUTLOOK_UNSEEN + 30] = unseen
    h[S.OUTLOOK_VOID] = -1 if void is None else "mps".index(void)
    h[S.OUTLOOK_MELDS] = len(melds)
    for i, m in enumerate(melds):
        h[S.OUTLOOK_MELD + 2 * i] = _MELD_CODES[m.kind.value]
        h[S.OUTLOOK_MELD + 2 * i + 1] = int(m.tile)
    h[S.OUTLOOK_CANDIDATES] = sum(1 << k for k in kinds)
    h[S.OUTLOOK_SAMPLES] = samples
    h[S.OUTLOOK_KEY] = key & 0xFFFFFFFF
    h[S.OUTLOOK_PLANS] = plans
    h[S.OUTLOOK_WAITING] = int(waiting)
    a = model_array(model)
    values = np.zeros(30, dtype=np.float64)
    flags = np.zeros(30, dtype=np.int64)
    code = lib.mj_outlook(_config(rules).ctypes.data, h.ctypes.data, a.ctypes.data, values.ctypes.data,
                          flags.ctypes.data)
    if code != spec.RET_OK:
        raise RuntimeError(f"the native engine refused the hand ({code})")
    return values, flags


def model_array(model) -> np.ndarray:
    """A ``majiang.bots.outlook.Model`` as the ``OUTLOOK_MODEL_LEN`` floats ``mj_outlook`` reads."""
    S = spec
    a = np.zeros(S.OUTLOOK_MODEL_LEN, dtype=np.float64)
    T = min(model.rounds, S.OUTLOOK_MAX_ROUNDS)
    a[S.OUTLOOK_ROUNDS] = T
    a[S.OUTLOOK_PAYERS] = model.payers
    a[S.OUTLOOK_END_UNREADY] = model.end_unready
    a[S.OUTLOOK_END_READY] = model.end_ready
    a[S.OUTLOOK_END_READY_VALUE] = model.end_ready_value
    a[S.OUTLOOK_END_DECLARED] = model.end_declared
    a[S.OUTLOOK_DECLARE] = float(model.declare)
    for at, row in ((S.OUTLOOK_HAZARD, model.hazard), (S.OUTLOOK_COST, model.cost),
                    (S.OUTLOOK_DECLARED_COST, model.declared_cost), (S.OUTLOOK_FEED_HIDDEN, model.feed_hidden),
                    (S.OUTLOOK_FEED_DECLARED, model.feed_declared), (S.OUTLOOK_SHARES_DECLARED, model.shares_declared)):
        a[at:at + T + 1] = row[:T + 1]
    return a


def shanten(rules, counts, sets: int = 4, void: str | None = None, caps=None, seven_pairs: bool = True,
            meld_suits: str = "") -> int:
    """The library's ``shanten_counts`` (for tests against the Python one)."""
    lib = require()
    _share_tables(lib)
    c = np.array(counts, dtype=np.uint8)
    cp = None if caps is None else np.array(caps, dtype=np.uint8)
    bits = sum(1 << "mps".index(x) for x in meld_suits)
    return lib.mj_shanten(_config(rules).ctypes.data, c.ctypes.data, sets, -1 if void is None else "mps".index(void),
                          None if cp is None else cp.ctypes.data, int(seven_pairs), bits)


def build(release: bool = True, quiet: bool = False) -> Path:
    """Build the crate with cargo and put the library next to this module, and the hand analysis'
    extension module (``majiang/core/_analysis.abi3.so``, the same build) where it imports from."""
    if not (_CRATE / "Cargo.toml").exists():
        raise RuntimeError(f"no crate at {_CRATE}: build from a source checkout")
    cmd = cargo_command(os.environ.get("CARGO", "cargo"), _CRATE / "Cargo.toml", release,
                        ("--quiet",) if quiet else ())
    subprocess.run(cmd, check=True)
    install(_CRATE / "target" / ("release" if release else "debug") / _LIB_NAME, _HERE)
    return _HERE / _LIB_NAME


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m majiang.native", description="The optional native engine.")
    ap.add_argument("command", choices=["build", "status", "spec"],
                    help="build: compile it and the hand analysis' module with cargo; status: does it load; "
                         "spec: write native/src/spec.rs "
                         "from majiang.native.spec (the constants both sides share)")
    ap.add_argument("--quiet", action="store_true", help="no cargo progress, one line at the end")
    args = ap.parse_args(argv)
    if args.command in ("build", "spec") and not (_CRATE / "Cargo.toml").exists():
        print(f"majiang.native: no crate at {_CRATE}: {args.command} works in a source checkout "
              "(git clone, then pip install -e .)", file=sys.stderr)
        return 2
    if args.command == "build":
        try:
            built = build(quiet=args.quiet)
            print(f"built {built}" + (f" and {built.parent / 'core' / ANALYSIS_NAME}" if PYTHON_FEATURE else ""))
        except FileNotFoundError as exc:
            print(f"majiang.native: cargo not found ({exc.filename}): install Rust (rustup.rs) or set CARGO",
                  file=sys.stderr)
            return 2
        except subprocess.CalledProcessError as exc:
            print(f"majiang.native: cargo failed (exit {exc.returncode}; its messages are above)", file=sys.stderr)
            return 2
        return 0
    if args.command == "spec":
        path = _CRATE / "src" / "spec.rs"
        path.write_text(spec.rust_source())
        (_CRATE / "src" / "abi.rs").write_text(spec.rust_abi_source())
        print(f"wrote {path} and abi.rs (ABI {ABI_VERSION})")
        return 0
    if available():
        print(f"native engine: {library_path()}")
        return 0
    print(unavailable_reason())
    return 1

