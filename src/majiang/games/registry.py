"""The games by name: each game's package registers one ``GameSpec``, its declaration, and
everything else (the engine, validation, the rules schema, the native encoding, the docs' options
table, the bots) asks it. Third-party games register through the ``majiang.games`` entry point
group (``load_entry_points``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from majiang.core.errors import RulesError
from majiang.core.variants import Variant

ENTRY_POINT_GROUP = "majiang.games"


@dataclass(frozen=True)
class GameSpec:
    """One game: its tiles and seats, its options and presets, its fan table and its play hooks."""

    name: str  # "kawuxing", "sichuan": the name rules, logs and commands use
    name_zh: str
    variant: Variant  # the default tile set and table size
    options: type  # the frozen dataclass of its rules options (fields declared with ``declare.option``)
    presets: dict[str, Any]  # name: ``declare.Preset``
    default_preset: str
    play: type  # its ``GamePlay`` subclass
    score_win: Callable[..., Any]  # (hand, winning tile, WinContext, rules) -> Score
    fan_names: dict[str, tuple[str, int]]  # Chinese name: (English, value)
    fans_multiply: bool  # Kawuxing: fans are multipliers (×2 × ×4); Sichuan: 番 that add up
    name_en: str = ""
    native: bool = False  # the Rust engine (``native/``) plays it: its options get a native encoding
    bots: dict[str, dict[str, Any]] = field(default_factory=dict)  # per bot family: its tuned parameters
    payments: tuple[str, ...] = ()  # every payment reason its settlement can write
    declarations: dict[str, tuple[str, str]] = field(default_factory=dict)  # action type: (zh, en) of the
    # declaration it makes ("declare": 亮倒 in 卡五星, 跳舞 in 血战; "sing": 唱歌)
    fan_help: dict[str, tuple[str, str]] = field(default_factory=dict)  # Chinese name: (zh, en) of
    # what the fan is, in a player's words (the settlement says it beside the fan)


GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    GAMES[spec.name] = spec


def unregister(name: str) -> None:
    """Remove a game (tests that plug in a toy game clean up with this)."""
    GAMES.pop(name, None)


def get_game(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown variant {name!r} ({' or '.join(GAMES)})") from None


def variant_named(name: str) -> Variant:
    """The tile set of the game called ``name`` (lower case); RulesError naming the games for any
    other. ``core.variants.get_variant`` asks this (the package root wires it in)."""
    game = GAMES.get(name)
    if game is None:
        raise RulesError(f"unknown variant {name!r} ({' or '.join(sorted(GAMES))})")
    return game.variant


def load_entry_points() -> list[str]:
    """Import every installed package's game (the ``majiang.games`` entry point group: each entry
    names a module that calls ``register``, or a callable returning a ``GameSpec``). Returns the
    names of the games it added; a broken entry point is skipped with a warning, never fatal."""
    import warnings
    from importlib.metadata import entry_points

    before = set(GAMES)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = ep.load()
            if callable(loaded) and not isinstance(loaded, type):
                spec = loaded()
                if isinstance(spec, GameSpec):
                    register(spec)
        except Exception as exc:  # a third-party package must not stop the package loading
            warnings.warn(f"the game entry point {ep.name!r} failed to load: {exc}", stacklevel=2)
    return [name for name in GAMES if name not in before]
