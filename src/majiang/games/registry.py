"""The games by name: each game's package registers what the engine and the tools need of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from majiang.core.errors import RulesError
from majiang.core.variants import Variant


@dataclass(frozen=True)
class GameSpec:
    """One game: its tiles and seats, its options and presets, its fan table and its play hooks."""

    name: str  # "kawuxing", "sichuan": the name rules, logs and commands use
    name_zh: str
    variant: Variant  # the default tile set and table size
    options: type  # the frozen dataclass of its rules options
    presets: dict[str, dict[str, Any]]
    default_preset: str
    play: type  # its ``GamePlay`` subclass
    score_win: Callable[..., Any]  # (hand, winning tile, WinContext, rules) -> Score
    fan_names: dict[str, tuple[str, int]]  # Chinese name: (English, value)
    fans_multiply: bool  # Kawuxing: fans are multipliers (×2 × ×4); Sichuan: 番 that add up


GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    GAMES[spec.name] = spec


def get_game(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown variant {name!r} ({' or '.join(GAMES)})") from None
