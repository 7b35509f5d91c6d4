"""Reinforcement-learning environments for both games (needs ``pip install majiang[rl]``).

``make(variant, preset=None, **options)`` returns a PettingZoo ``AECEnv`` (``raw_env`` the same,
``env`` it wrapped in PettingZoo's order-enforcing and bounds-checking wrappers, as PettingZoo's
own environments offer them, and ``parallel_env`` the parallel API: one seat acts at a time, so
each step one agent's mask has moves and the others' are empty);
``single_agent(variant, opponents="greedy", ...)`` a Gymnasium ``Env`` for one seat against
built-in agents (also ``gymnasium.make("majiang/Kawuxing-v0")`` or ``"majiang/Sichuan-v0"`` once
``majiang.rl.gymnasium`` is imported, or ``gymnasium.make("majiang.rl.gymnasium:majiang/Sichuan-v0")``); ``BatchEnv``
steps many games with numpy arrays in and out (one learner seat
against built-in agents, or self-play with ``opponents=None``).

Two engines play the same hands: the Python rules engine (``majiang.engine``, the reference) and
the optional native one (``majiang.native``, Rust: build it with ``python -m majiang.native
build``), which is 5 to 100 times faster and plays the ``greedy`` and ``random`` bots itself.
``backend="auto"`` (the default) takes the native engine when it is built and the opponents allow
it (``strong`` and external bots need Python games); ``"python"`` or ``"native"`` choose. Either way the same seed
gives the same deals, masks, observations and
rewards (``tests/native/test_native.py``); with the native engine ``info["settlement"]`` is a summary
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

With ``obs_dtype="uint8"`` (``make``, ``single_agent``, ``BatchEnv``) the envs give the compact
observation instead: ``OBS_COMPACT_SIZE`` (4,609) bytes, the same indices and whole numbers, tiles
held and tiles left unscaled, and the money as four little-endian int32 after the first
``OBS_SIZE`` bytes; ``expand`` gives exactly the float32 vector back, ``compact`` the other way.
The AEC env's ``observe`` returns views of the env's own arrays (the next step overwrites them);
``BatchEnv(reuse_arrays=True)`` returns the same arrays from every step.

It holds nothing the seat may not know (``tests/rl/test_env.py`` shuffles every hidden tile and checks
that the encoding does not change). Rewards are settlement points (kong money as it is paid,
wins, the draw settlement), in units of the base.
"""

from __future__ import annotations

from typing import Any

from majiang.native.spec import N_ACTIONS, OBS_COMPACT_SIZE, OBS_SIZE, action_index, legal_map

_LAZY = {"make": "pettingzoo", "MajiangAEC": "pettingzoo", "env": "pettingzoo", "raw_env": "pettingzoo",
         "parallel_env": "pettingzoo", "MajiangParallel": "pettingzoo", "single_agent": "gymnasium",
         "MajiangSingle": "gymnasium", "BatchEnv": "batch", "encode": "encoder", "mask_of": "encoder",
         "compact": "encoder", "expand": "encoder"}


def __getattr__(name: str) -> Any:
    """The envs load their frameworks (numpy, Gymnasium, PettingZoo) only when asked for."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'majiang.rl' has no attribute {name!r}")
    import importlib

    try:
        loaded = importlib.import_module(f"majiang.rl.{module}")
    except ModuleNotFoundError as exc:  # a plain install: say which extra, in one line
        if exc.name in ("gymnasium", "pettingzoo", "numpy"):
            raise ModuleNotFoundError(f"majiang.rl.{name} needs {exc.name}: pip install 'majiang[rl]'",
                                      name=exc.name) from None
        raise
    return getattr(loaded, name)


__all__ = ["BatchEnv", "MajiangAEC", "MajiangSingle", "N_ACTIONS", "OBS_COMPACT_SIZE", "OBS_SIZE", "action_index",
           "MajiangParallel", "compact", "encode", "env", "expand", "legal_map", "make", "mask_of",
           "parallel_env", "raw_env", "single_agent"]
