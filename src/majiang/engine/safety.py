"""Which discards deal into a revealed hand: the one notion of safety every automatic chooser uses.

A declared hand whose waits are shown to the table (Kawuxing's 亮倒, Sichuan's 跳舞; 唱歌 shows
only that the hand is ready) tells every seat which tiles it wins on. Those tiles are *unsafe*
for the other seats still playing. Whatever plays a discard that no person chose (a missed
timer, 托管, a bot) or suggests one (the terminal ``play`` hint) discards an unsafe tile only
when every legal discard is unsafe (a declared hand's drawn tile, 海底's last tile, a void
suit's tiles before others).

``unsafe_tiles`` reads the seat's observation, so it knows only what that seat may see; a
``Game`` and a seat give the same answer (it reads that seat's observation).

>>> from majiang.games.base import Action
>>> obs = {"seat": 0, "players": [
...     {"seat": 0, "out": False},
...     {"seat": 1, "out": False, "revealed": {"tiles": "234m55s", "waits": ["6s", "9s"]}},
...     {"seat": 2, "out": False, "revealed": {"ready": True}}]}
>>> sorted(str(t) for t in unsafe_tiles(obs))
['6s', '9s']
>>> legal = [Action("discard", "6s"), Action("discard", "1m"), Action("declare", "6s")]
>>> [str(a) for a in safe_choices(legal, unsafe_tiles(obs))]
['discard 1m']
>>> [str(a) for a in safe_choices(legal[:1], unsafe_tiles(obs))]  # nothing else to discard: forced
['discard 6s']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from majiang.core.tiles import Tile
from majiang.games.base import Action

if TYPE_CHECKING:
    from majiang.engine.game import Game

DISCARDING = frozenset(("discard", "declare", "sing"))  # the actions that put a tile on the table


def unsafe_tiles(source: "dict | Game", seat: int | None = None) -> frozenset[Tile]:
    """The tiles another seat still playing has shown it wins on, as ``seat`` sees the table.

    ``source`` is a seat's observation (``Game.observation(seat)``; ``seat`` is read from it),
    or a ``Game`` with ``seat``. A seat that left the table (血战) wins nothing more."""
    if not isinstance(source, dict):
        if seat is None:
            raise TypeError("unsafe_tiles(game, seat): a game needs the seat whose safety is asked")
        source = source.observation(seat)
    me = source.get("seat")
    out: set[Tile] = set()
    for p in source.get("players", ()):
        if p.get("seat") == me or p.get("out"):
            continue
        for w in (p.get("revealed") or {}).get("waits") or ():
            out.add(Tile.parse(w))
    return frozenset(out)


def safe_choices(legal: Iterable[Action], unsafe: Any) -> list[Action]:
    """``legal`` less every discard (plain, 亮倒, 唱歌/跳舞) of an ``unsafe`` tile, when a discard of
    some other tile is legal; otherwise ``legal`` unchanged (each discard is forced into a wait).
    Other actions (a win, a kong, a pass) are kept."""
    legal = list(legal)
    if not unsafe:
        return legal
    if not any(a.type in DISCARDING and a.tile not in unsafe for a in legal):
        return legal
    return [a for a in legal if a.type not in DISCARDING or a.tile not in unsafe]


def deals_in(action: Action, legal: Iterable[Action], unsafe: Any) -> bool:
    """Does choosing ``action`` among ``legal`` discard into a shown wait while a safe discard is
    legal (what no automatic chooser may do)?"""
    return action.type in DISCARDING and action.tile in unsafe and action not in safe_choices(legal, unsafe)
