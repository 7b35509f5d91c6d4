"""The engines the envs step, behind one interface (``Backend``): a Python ``Game`` (``PyHand``) or
the native engine's ``NativeGame``. Action indices in, masks and observations written into arrays,
points per step out."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from majiang.core.errors import IllegalActionError
from majiang.engine import Action, Game
from majiang.rl.encoder import N_ACTIONS, encode, legal_map


class Backend(Protocol):
    """One deal as the envs step it (``PyHand`` and ``majiang.native.NativeGame`` both are one)."""

    @property
    def over(self) -> bool: ...

    def to_act(self) -> int: ...

    def mask(self, seat: int, out: np.ndarray | None = None) -> np.ndarray: ...

    def encode(self, seat: int, out: np.ndarray | None = None) -> np.ndarray: ...

    def apply(self, seat: int, index: int) -> int: ...

    def step(self, seat: int, index: int, mask: np.ndarray, mask_at: int = 0) -> tuple: ...

    def rewards(self) -> list[int] | tuple[int, ...]: ...

    def settlement(self) -> dict: ...

    def to_python(self) -> Game: ...


class PyHand:
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
    if hand is None or isinstance(hand, PyHand):
        return None if hand is None else hand.game
    if env._game is None or len(env._game.actions) != len(hand.actions):
        env._game = hand.to_python()
    return env._game


def _new_hand(backend: str, rules, seed, hand_index: int, dealer: int):
    if backend == "native":
        from majiang.native import NativeGame
        return NativeGame(rules, seed, hand_index, dealer)
    return PyHand(rules, seed, hand_index, dealer)


_warned = False


def _warn_python_engine(reason: str | None) -> None:
    """Say once per process that ``auto`` took the Python engine (about 20× fewer steps a second)."""
    global _warned
    if _warned:
        return
    _warned = True
    import sys
    import warnings

    level, frame = 2, sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("majiang."):
        level, frame = level + 1, frame.f_back  # point at the caller's line, outside this package
    warnings.warn(f"majiang.rl: backend='auto' steps the Python engine, about 20x slower than the native "
                  f"one; pass backend='python' to choose it. {reason or 'The native engine is not built.'}",
                  RuntimeWarning, stacklevel=level)


def _backend(backend: str) -> str:
    """``auto`` is ``native`` when the native engine is built (``python -m majiang.native build``)."""
    if backend not in ("auto", "python", "native"):
        raise ValueError(f"backend must be auto, python or native, got {backend!r}")
    from majiang import native
    if backend == "auto":
        if native.available():
            return "native"
        _warn_python_engine(native.unavailable_reason())
        return "python"
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
