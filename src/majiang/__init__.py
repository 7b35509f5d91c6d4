"""majiang: Hubei Kawuxing (卡五星) and Sichuan blood-battle (血战到底) mahjong.

Everything a program needs comes from this one import: hands and their analysis, scoring, the
rules, a deal to play, and replaying a log. The core (tiles, hands, analysis, rules, scoring) uses
only the standard library; the engine's names (``Game``, ``replay`` …) load on first use.

>>> import majiang
>>> hand = majiang.Hand.parse("2345p555s789s6z6z6z")
>>> [str(t) for t in majiang.waits(hand, "kawuxing")]
['2p', '5p']
>>> majiang.score("4688p123s789s555z", "5p", rules="kawuxing", self_draw=True).multiplier
2
>>> game = majiang.Game("sichuan", preset="modern", seed=1)
>>> game.pending_seats(), game.tiles_left
([0, 1, 2, 3], 55)
>>> majiang.rules_for("kawuxing", "xiangyang").preset
'xiangyang'
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
from majiang.core.variants import Variant, get_variant, use_lookup

__version__ = "0.1.0"


def _variant_named(name: str) -> Variant:
    """The core's tile sets by name come from the games (loaded here on the first name asked, with
    every installed game's entry point), so ``import majiang`` stays light and the core names none."""
    from majiang.games.registry import variant_named

    return variant_named(name)


use_lookup(_variant_named)

# name -> the module that defines it: loaded when first asked for, so ``import majiang`` stays light
_LAZY = {
    "Game": "majiang.engine.game", "Action": "majiang.games.base", "describe": "majiang.engine.views",
    "replay": "majiang.engine.log", "write_log": "majiang.engine.log", "LogError": "majiang.engine.log",
    "PositionError": "majiang.engine.notation", "unsafe_tiles": "majiang.engine.safety",
    "safe_choices": "majiang.engine.safety",
    "score": "majiang.games.scoring", "WinContext": "majiang.games.scoring", "Score": "majiang.games.scoring",
    "rules_for": "majiang.games.rules",
    "KAWUXING": "majiang.games.kawuxing.tiles", "SICHUAN": "majiang.games.sichuan.tiles",
}

__all__ = [
    "Action", "Game", "Hand", "HandError", "IllegalActionError", "KAWUXING", "LogError", "MajiangError", "Meld",
    "MeldKind", "PositionError", "RulesError", "SICHUAN", "Score", "Tile", "TileError", "Variant", "WinContext",
    "describe",
    "discard_advice", "format_tiles", "get_variant", "is_winning", "parse_tiles", "readings", "replay",
    "rules_for", "safe_choices", "score", "shanten", "unsafe_tiles", "waits", "write_log",
]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'majiang' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
