"""What tiles and how many players each game uses.

>>> get_variant("kawuxing").num_tiles, get_variant("sichuan").num_tiles
(84, 108)
>>> get_variant("kawuxing").players, get_variant("sichuan").players
(3, 4)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass

from majiang.core.errors import RulesError
from majiang.core.tiles import ALL_TILES, Tile


@dataclass(frozen=True)
class Capabilities:
    """What a game has, each by name: code outside a game's folder asks for a feature, never which
    game it is, so a third game declares its own mix (the page reads them from the rules schema).
    The seats and the honours are the variant's own ``players`` and ``dragons``.

    >>> Capabilities(void_suit=True).void_suit, Capabilities().open_hand
    (True, False)
    """

    void_suit: bool = False  # 定缺: each player names a suit it may not win with
    two_suits: bool = False  # a win holds at most two suits, never the void suit (the analysis' rule)
    exchange: bool = False  # 换三张: three tiles change hands before play (where the rules ask it)
    open_hand: bool = False  # 亮倒: a ready hand may be laid open, which doubles its win
    blood_battle: bool = False  # 血战: a win takes its seat out and the others play on; a drawn wall
    # settles ready against unready hands (查大叫) and gives kong money back


@dataclass(frozen=True)
class Variant:
    """The tile set and table size of one game (rules options live in ``majiang.rules``).

    >>> v = get_variant("kawuxing")
    >>> v.players, v.suits, v.dragons
    (3, 'ps', True)
    """

    name: str
    name_zh: str
    suits: str  # suited suits present, e.g. "ps"
    dragons: bool
    players: int
    capabilities: Capabilities = Capabilities()  # what the game has beyond its tiles and seats

    @functools.cached_property
    def kinds(self) -> tuple[Tile, ...]:
        return tuple(t for t in ALL_TILES if (t.suit in self.suits) or (self.dragons and t.is_honour))

    @functools.cached_property
    def kind_set(self) -> frozenset[int]:
        return frozenset(int(t) for t in self.kinds)

    @property
    def num_tiles(self) -> int:
        return 4 * len(self.kinds)

    def with_suits(self, suits: str) -> "Variant":
        """Kawuxing's ``suits`` option: any two of the three suits."""
        suits = "".join(sorted(set(suits), key="mps".index))
        if len(suits) != len(self.suits) or any(s not in "mps" for s in suits):
            raise RulesError(f"{self.name} needs exactly {len(self.suits)} of the suits m, p, s", got=suits)
        return dataclasses.replace(self, suits=suits)


# How a name becomes a tile set: the games answer (``majiang.games.registry.variant_named``), wired
# in by the package root, so the core names no game, holds no table of them and imports none.
_lookup: Callable[[str], Variant] | None = None


def use_lookup(lookup: Callable[[str], Variant]) -> None:
    """Set where ``get_variant`` finds a tile set by name (the package root sets the games' registry)."""
    global _lookup
    _lookup = lookup


def get_variant(name: str | Variant) -> Variant:
    """The variant of that name (any case), or the variant given; RulesError for any other name.

    >>> get_variant("Sichuan").players, get_variant(get_variant("kawuxing")).num_tiles
    (4, 84)
    """
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str) or _lookup is None:
        raise RulesError(f"unknown variant {name!r}")
    return _lookup(name.lower())
