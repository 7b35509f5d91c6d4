"""Tile kinds and the text forms they are written in.

A *tile kind* is one of 30 values (``Tile``), an ``int`` from 0 to 29:
0-8 are 1m-9m (万), 9-17 are 1p-9p (筒), 18-26 are 1s-9s (条), and 27, 28, 29 are
the dragons 5z 白, 6z 发, 7z 中 (riichi-style numbering, so hands paste from other tools).
Physical tiles (four of each kind) are not a type of their own: a hand is a multiset of kinds.

Three notations are read and written:

>>> parse_tiles("123m5p77z")
[1m, 2m, 3m, 5p, 7z, 7z]
>>> parse_tiles("一万 五筒 中")
[1m, 5p, 7z]
>>> format_tiles(parse_tiles("5p 1m 3m 2m 6z"))
'123m5p6z'
>>> format_tiles(parse_tiles("123m"), style="chinese")
'一万二万三万'
>>> format_tiles(parse_tiles("1m5z"), style="unicode")
'🀇🀆'
>>> parse_tiles("🀇🀙🀐🀄")
[1m, 1p, 1s, 7z]
>>> parse_tiles("12x")
Traceback (most recent call last):
...
majiang.TileError: unknown character 'x' at position 3 in '12x'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from majiang.core.errors import TileError

SUITS = "mpsz"
SUIT_NAMES_ZH = {"m": "万", "p": "筒", "s": "条"}
SUIT_NAMES_EN = {"m": "characters", "p": "dots", "s": "bamboo", "z": "dragons"}
_NUMERALS = "一二三四五六七八九"
_DRAGON_ZH = {5: "白", 6: "发", 7: "中"}
_DRAGON_EN = {5: "white dragon", 6: "green dragon", 7: "red dragon"}
NUM_KINDS = 30
_SUIT_OF = "m" * 9 + "p" * 9 + "s" * 9 + "z" * 3
_MPSZ = tuple(f"{i % 9 + 1}{_SUIT_OF[i]}" if i < 27 else f"{i - 22}z" for i in range(30))


class Tile(int):
    """One of the 30 tile kinds. Compares and indexes as an int; prints as ``5p``.

    >>> t = Tile.parse("5p")
    >>> int(t), t.suit, t.rank, t.chinese, t.english
    (13, 'p', 5, '五筒', '5 of dots')
    >>> Tile.parse("中").mpsz, Tile.parse("發") == Tile.parse("6z")
    ('7z', True)
    """

    __slots__ = ()
    _all: ClassVar[list["Tile"]] = []  # the 30 shared instances, once made

    def __new__(cls, index: int) -> "Tile":
        if cls._all:
            try:
                return cls._all[index]
            except (IndexError, TypeError):
                raise TileError(f"tile index {index!r} is out of range 0-29") from None
        return int.__new__(cls, index)

    @property
    def suit(self) -> str:
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """1-9 for suited tiles; 5, 6, 7 for 白, 发, 中 (their z number)."""
        i = int(self)
        return i % 9 + 1 if i < 27 else i - 22

    @property
    def is_honour(self) -> bool:
        return int(self) >= 27

    @property
    def mpsz(self) -> str:
        return _MPSZ[self]

    @property
    def chinese(self) -> str:
        if self.is_honour:
            return _DRAGON_ZH[self.rank]
        return _NUMERALS[self.rank - 1] + SUIT_NAMES_ZH[self.suit]

    @property
    def english(self) -> str:
        if self.is_honour:
            return _DRAGON_EN[self.rank]
        return f"{self.rank} of {SUIT_NAMES_EN[self.suit]}"

    @property
    def unicode(self) -> str:
        return _UNICODE[int(self)]

    def __repr__(self) -> str:
        return _MPSZ[self]  # formatted once per kind: tiles are printed into every event

    def __str__(self) -> str:
        return _MPSZ[self]

    @classmethod
    def parse(cls, text: str) -> "Tile":
        """Read exactly one tile in any notation."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileError(f"expected one tile, got {len(tiles)} in {text!r}")
        return tiles[0]


Tile._all = [Tile(i) for i in range(NUM_KINDS)]
ALL_TILES: tuple[Tile, ...] = tuple(Tile._all)

# Unicode mahjong block: 🀇-🀏 characters, 🀐-🀘 bamboo, 🀙-🀡 dots, 🀄 中 🀅 发 🀆 白.
_UNICODE = (
    [chr(0x1F007 + r) for r in range(9)]
    + [chr(0x1F019 + r) for r in range(9)]
    + [chr(0x1F010 + r) for r in range(9)]
    + [chr(0x1F006), chr(0x1F005), chr(0x1F004)]
)

_SINGLE_CHAR_TILES: dict[str, int] = {ch: i for i, ch in enumerate(_UNICODE)}
_SINGLE_CHAR_TILES.update({"白": 27, "发": 28, "發": 28, "中": 29})
_SUIT_WORDS = {
    "万": "m", "萬": "m",
    "筒": "p", "饼": "p", "餅": "p",
    "条": "s", "條": "s", "索": "s",
}
_SEPARATORS = set(" \t,，、;|_-")
_PLAIN_MPSZ = re.compile(r"(?:[1-9]+[mps]|[567]+z)+")
_GROUP = re.compile(r"([1-9]+)([mpsz])")
_SUIT_BASE = {"m": -1, "p": 8, "s": 17, "z": 22}


def _index(suit: str, rank: int, text: str, pos: int) -> int:
    if suit == "z":
        if rank not in (5, 6, 7):
            raise TileError(
                f"honour '{rank}z' at position {pos} in {text!r} is not a dragon "
                "(only 5z 白, 6z 发, 7z 中 exist in these games)"
            )
        return 22 + rank
    if not 1 <= rank <= 9:
        raise TileError(f"rank {rank} at position {pos} in {text!r} is not 1-9")
    return "mps".index(suit) * 9 + rank - 1


def parse_tiles(text: str) -> list[Tile]:
    """Read tiles written in mpsz (``123m55z``), Chinese names or Unicode tile characters.

    Notations may be mixed; spaces and commas separate. ``0`` is not accepted (no red fives).

    >>> parse_tiles("一万 5p 🀄")
    [1m, 5p, 7z]
    """
    if not isinstance(text, str):
        raise TileError(f"tiles must be given as text, not {type(text).__name__}")
    if _PLAIN_MPSZ.fullmatch(text):  # the common case, fast; anything else gets the careful parser
        out_fast: list[Tile] = []
        for digits, suit in _GROUP.findall(text):
            base = _SUIT_BASE[suit]
            out_fast.extend(ALL_TILES[base + int(d)] for d in digits)
        return out_fast
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (rank, position) of digits awaiting a suit letter
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        pos = i + 1
        if ch in _SEPARATORS:
            i += 1
            continue
        if ch.isdigit() and ch.isascii():
            pending.append((int(ch), pos))
            i += 1
            continue
        if ch in "mpsz" or ch in "MPSZ":
            suit = ch.lower()
            if not pending:
                raise TileError(f"suit letter {ch!r} at position {pos} in {text!r} has no digits before it")
            for rank, rpos in pending:
                if rank == 0:
                    raise TileError(f"'0' at position {rpos} in {text!r} is not a tile rank (1-9)")
                out.append(_index(suit, rank, text, rpos))
            pending.clear()
            i += 1
            continue
        known = ch in _SINGLE_CHAR_TILES or ch in _NUMERALS
        if not known:
            raise TileError(f"unknown character {ch!r} at position {pos} in {text!r}")
        if pending:
            raise TileError(f"digits before position {pos} in {text!r} have no suit letter (m, p, s or z)")
        if ch in _SINGLE_CHAR_TILES:
            out.append(_SINGLE_CHAR_TILES[ch])
            i += 1
            continue
        if ch in _NUMERALS and i + 1 < n and text[i + 1] in _SUIT_WORDS:
            out.append("mps".index(_SUIT_WORDS[text[i + 1]]) * 9 + _NUMERALS.index(ch))
            i += 2
            continue
        raise TileError(f"Chinese numeral {ch!r} at position {pos} in {text!r} is not followed by 万, 筒 or 条")
    if pending:
        raise TileError(f"digits at the end of {text!r} have no suit letter (m, p, s or z)")
    return [ALL_TILES[k] for k in out]


def format_tiles(tiles: Iterable[int], style: str = "mpsz", sort: bool = True) -> str:
    """Write tiles as compact mpsz (default), ``chinese`` names or ``unicode`` characters.

    >>> tiles = parse_tiles("55p123m")
    >>> format_tiles(tiles), format_tiles(tiles, style="chinese")
    ('123m55p', '一万二万三万五筒五筒')
    """
    seq = sorted(tiles) if sort else list(tiles)
    if style == "chinese":
        return "".join(ALL_TILES[t].chinese for t in seq)
    if style == "unicode":
        return "".join(_UNICODE[t] for t in seq)
    if style != "mpsz":
        raise ValueError(f"unknown tile style {style!r} (mpsz, chinese or unicode)")
    parts: list[str] = []
    run_suit = ""
    digits: list[str] = []
    for t in seq:
        tile = ALL_TILES[t]
        if tile.suit != run_suit and digits:
            parts.append("".join(digits) + run_suit)
            digits = []
        run_suit = tile.suit
        digits.append(str(tile.rank))
    if digits:
        parts.append("".join(digits) + run_suit)
    return "".join(parts)


def to_counts(tiles: Iterable[int], size: int = NUM_KINDS) -> list[int]:
    """Count tiles per kind (a list of 30 counts).

    >>> to_counts(parse_tiles("112m"))[:3]
    [2, 1, 0]
    """
    counts = [0] * size
    for t in tiles:
        counts[t] += 1
    return counts


def from_counts(counts: Iterable[int]) -> list[Tile]:
    """The sorted tiles of a count vector.

    >>> from_counts([2, 0, 1])
    [1m, 1m, 3m]
    """
    return [ALL_TILES[k] for k, c in enumerate(counts) for _ in range(c)]
