"""What tiles and how many players each game uses.

>>> get_variant("kawuxing").num_tiles, get_variant("sichuan").num_tiles
(84, 108)
>>> get_variant("kawuxing").players, get_variant("sichuan").players
(3, 4)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from majiang.core.errors import RulesError
from majiang.core.tiles import ALL_TILES, Tile


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
    two_suit_rule: bool  # Sichuan: a win holds at most two suits and never the void suit

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
            raise RulesError(f"{self.name} needs exactly {len(self.suits)} of the suits m, p, s, got {suits!r}")
        return Variant(self.name, self.name_zh, suits, self.dragons, self.players, self.two_suit_rule)


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
