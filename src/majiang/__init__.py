"""majiang: Hubei Kawuxing (卡五星) and Sichuan blood-battle (血战到底) mahjong.

The core (tiles, hands, analysis, rules, scoring) uses only the standard library.

>>> from majiang import Hand, shanten, waits
>>> [str(t) for t in waits(Hand.parse("2345p555s789s6z6z6z"), "kawuxing")]
['2p', '5p']
"""

from majiang.core.analysis import discard_advice, is_winning, readings, shanten, waits
from majiang.core.errors import (
    HandError,
    IllegalActionError,
    MajiangError,
    RulesError,
    TileError,
)
from majiang.core.hand import Hand, Meld, MeldKind
from majiang.core.tiles import Tile, format_tiles, parse_tiles
from majiang.core.variants import KAWUXING, SICHUAN, Variant, get_variant

__version__ = "0.1.0"
__all__ = [
    "Hand", "HandError", "IllegalActionError", "KAWUXING", "MajiangError", "Meld", "MeldKind",
    "RulesError", "SICHUAN", "Tile", "TileError", "Variant", "discard_advice", "format_tiles",
    "get_variant", "is_winning", "parse_tiles", "readings", "shanten", "waits",
]
