"""A player's hand: concealed tiles plus declared melds (pongs and kongs; these games have no chow).

>>> h = Hand.parse("123p456p789p1s5z", melds=[Meld.pong("7z")])
>>> h
Hand('123456789p1s5z', melds=[pong 7z])
>>> h.tile_count, h.sets_needed
(14, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from majiang.core.errors import HandError, TileError
from majiang.core.tiles import (
    ALL_TILES,
    NUM_KINDS,
    Tile,
    format_tiles,
    from_counts,
    parse_tiles,
    to_counts,
)
from majiang.core.variants import Variant, get_variant


class MeldKind(str, Enum):
    """What a meld is; its value is the name the logs and the JSON protocol use.

    >>> MeldKind("concealed_kong") is MeldKind.CONCEALED_KONG, MeldKind.PONG.value
    (True, 'pong')
    """

    PONG = "pong"  # 碰
    KONG = "kong"  # exposed kong: 直杠 (on a discard) or 蓄杠/加杠 (added to a pong)
    CONCEALED_KONG = "concealed_kong"  # 暗杠

    @property
    def chinese(self) -> str:
        return {"pong": "碰", "kong": "明杠", "concealed_kong": "暗杠"}[self.value]


@dataclass(frozen=True)
class Meld:
    """A claimed or declared set: a pong or a kong of one tile (``added``: a 蓄杠 made on an own pong).

    >>> from majiang.core.tiles import parse_tiles
    >>> Meld(MeldKind.PONG, parse_tiles("5p")[0])
    pong 5p
    """

    kind: MeldKind
    tile: Tile
    added: bool = False  # a kong made by adding the fourth tile to an own pong (蓄杠)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", MeldKind(self.kind))
        if not isinstance(self.tile, Tile):
            object.__setattr__(self, "tile", _one_tile(self.tile))

    @classmethod
    def pong(cls, tile: str | int) -> "Meld":
        return cls(MeldKind.PONG, _one_tile(tile))

    @classmethod
    def kong(cls, tile: str | int, added: bool = False) -> "Meld":
        return cls(MeldKind.KONG, _one_tile(tile), added)

    @classmethod
    def concealed_kong(cls, tile: str | int) -> "Meld":
        return cls(MeldKind.CONCEALED_KONG, _one_tile(tile))

    @property
    def size(self) -> int:
        return 3 if self.kind is MeldKind.PONG else 4

    @property
    def is_kong(self) -> bool:
        return self.kind is not MeldKind.PONG

    def __repr__(self) -> str:
        return f"{self.kind.value} {self.tile}"

    def to_json(self) -> dict:
        d: dict = {"kind": self.kind.value, "tile": str(self.tile)}
        if self.added:
            d["added"] = True
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Meld":
        return cls(MeldKind(d["kind"]), _one_tile(d["tile"]), bool(d.get("added", False)))


def _one_tile(tile: str | int) -> Tile:
    if isinstance(tile, str):
        return Tile.parse(tile)
    return ALL_TILES[tile] if 0 <= int(tile) < NUM_KINDS else Tile(tile)


@dataclass(frozen=True)
class Hand:
    """Concealed tile counts (30 kinds) and melds. Validated on construction.

    >>> Hand.parse("11111m")
    Traceback (most recent call last):
    ...
    majiang.TileError: a fifth copy of 1m: 5 in hand and melds
    """

    counts: tuple[int, ...]
    melds: tuple[Meld, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.counts) != NUM_KINDS:
            raise HandError(f"a hand needs 30 counts, got {len(self.counts)}")
        if len(self.melds) > 4:
            raise HandError(f"at most 4 melds, got {len(self.melds)}")
        total = list(self.counts)
        for m in self.melds:
            total[m.tile] += m.size
        for k, c in enumerate(total):
            if c > 4:
                raise TileError(f"a fifth copy of {ALL_TILES[k]}: {c} in hand and melds")
            if self.counts[k] < 0:
                raise HandError(f"negative count of {ALL_TILES[k]}")

    @classmethod
    def parse(cls, text: str, melds: list[Meld] | tuple[Meld, ...] = ()) -> "Hand":
        """The concealed tiles written as text, with any melds (``Meld.pong("5p")`` …).

        Digits before a suit letter: ``m`` characters, ``p`` dots, ``s`` bamboo, ``z`` the dragons
        (5z 白, 6z 发, 7z 中); the order does not matter, and Chinese names and 🀄 glyphs also read.

        >>> h = Hand.parse("1112345678999p5z")
        >>> str(h), h.concealed_count
        ('1112345678999p5z', 14)
        >>> str(Hand.parse("23m", [Meld.pong("5p")]))
        '23m [pong 5p]'
        >>> Hand.parse("12x")
        Traceback (most recent call last):
        ...
        majiang.TileError: unknown character 'x' at position 3 in '12x'
        """
        return cls(tuple(to_counts(parse_tiles(text))), tuple(melds))

    @classmethod
    def from_tiles(cls, tiles, melds=()) -> "Hand":
        return cls(tuple(to_counts(tiles)), tuple(melds))

    @property
    def tiles(self) -> list[Tile]:
        return from_counts(self.counts)

    @property
    def concealed_count(self) -> int:
        return sum(self.counts)

    @property
    def tile_count(self) -> int:
        """Tiles counted the way a hand's size is: a kong counts as three."""
        return self.concealed_count + 3 * len(self.melds)

    @property
    def sets_needed(self) -> int:
        """Sets the concealed part must still form (besides the pair)."""
        return (self.concealed_count - 1) // 3

    @property
    def is_closed(self) -> bool:
        """No pong or exposed kong (concealed kongs keep a hand closed)."""
        return all(m.kind is MeldKind.CONCEALED_KONG for m in self.melds)

    def all_counts(self) -> list[int]:
        """Counts including meld tiles (a kong counts four)."""
        total = list(self.counts)
        for m in self.melds:
            total[m.tile] += m.size
        return total

    def add(self, tile: int) -> "Hand":
        c = list(self.counts)
        c[tile] += 1
        return Hand(tuple(c), self.melds)

    def remove(self, tile: int) -> "Hand":
        c = list(self.counts)
        if c[tile] <= 0:
            raise HandError(f"{ALL_TILES[tile]} is not in the hand")
        c[tile] -= 1
        return Hand(tuple(c), self.melds)

    def check(self, variant: Variant | str, sizes: tuple[int, ...] = (1, 2)) -> None:
        """Raise ``HandError`` unless the hand fits ``variant`` and has a size that can be analysed.

        ``sizes`` are the allowed remainders of the concealed count modulo 3.
        """
        variant = get_variant(variant)
        allowed = variant.kind_set
        for k, c in enumerate(self.all_counts()):
            if c and k not in allowed:
                raise HandError(f"{ALL_TILES[k]} is not a tile of {variant.name} ({variant.name_zh})")
        n = self.concealed_count
        if n % 3 not in sizes or n == 0 or self.tile_count > 14:
            raise HandError(
                f"a count that cannot be analysed: {n} concealed tiles and {len(self.melds)} melds "
                f"(need 3n+1 or 3n+2 tiles, at most 14 counting each meld as 3)"
            )

    def __str__(self) -> str:
        s = format_tiles(self.tiles)
        for m in self.melds:
            s += f" [{m!r}]"
        return s

    def __repr__(self) -> str:
        return f"Hand({format_tiles(self.tiles)!r}, melds={list(self.melds)!r})"
