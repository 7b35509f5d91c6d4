"""The games: what each one's rules are, and the hooks the engine asks.

``base`` (actions, phases, payments and the ``GamePlay`` hooks every game implements), ``rules``
(options and presets, shared machinery), ``scoring`` (what a win is worth, shared types), and one
package per game: ``kawuxing`` (卡五星) and ``sichuan`` (血战到底), each with ``options`` (its rules
options and presets), ``fans`` (its fan table) and ``play`` (its hooks). A new game is a new
package that calls ``register`` with its ``GameSpec`` (options declared with ``declare.option``);
an installed package's game registers through the ``majiang.games`` entry point group.

>>> sorted(GAMES), get_game("sichuan").variant.players
(['kawuxing', 'sichuan'], 4)
"""

from majiang.games import kawuxing, sichuan  # noqa: F401  (each registers itself)
from majiang.games.registry import GAMES, GameSpec, get_game, load_entry_points, register, unregister

load_entry_points()


def play_for(rules):
    """The hooks of the game ``rules`` are for."""
    return get_game(rules.variant).play(rules)


__all__ = ["GAMES", "GameSpec", "get_game", "load_entry_points", "play_for", "register", "unregister"]
