"""What tiles and how many players each game uses.

>>> get_variant("kawuxing").num_tiles, get_variant("sichuan").num_tiles
(84, 108)
>>> get_variant("kawuxing").players, get_variant("sichuan").players
(3, 4)
"""

from __future__ import annotations

import functools
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


# The two built-in games' tile sets stay here, so the core's hand analysis works by name without
# loading the games; every other game's is added as it registers (``majiang.games.register``).
KAWUXING = Variant("kawuxing", "卡五星", "ps", True, 3, False)
SICHUAN = Variant("sichuan", "血战到底", "mps", False, 4, True)
VARIANTS: dict[str, Variant] = {"kawuxing": KAWUXING, "sichuan": SICHUAN}


def get_variant(name: str | Variant) -> Variant:
    """The variant of that name (any case), or the variant given; RulesError for any other name.

    >>> get_variant("Sichuan").players, get_variant(KAWUXING) is KAWUXING
    (4, True)
    """
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        raise RulesError(f"unknown variant {name!r} ({' or '.join(VARIANTS)})") from None
