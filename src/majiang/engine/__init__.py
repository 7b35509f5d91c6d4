"""The rules engine: one deal of either game as a state machine (``Game``), split by concern.

``game`` (the phase machine: deal, 换三张, 定缺, turns, kongs), ``seat`` (each seat's state),
``claims`` (胡/杠/碰 on a discard, 抢杠), ``settlement`` (money, wins, the end of a deal), ``views``
(what each seat may see; records), ``wall`` (the seeded shuffle), ``log`` (JSON lines in and out).
The games' rules come from ``majiang.games``; the engine applies what their hooks decide.
"""

from majiang.engine.game import Game
from majiang.engine.seat import Seat
from majiang.engine.views import describe
from majiang.engine.wall import RNG_VERSION, first_dealer, seed_string, shuffled_wall
from majiang.games import play_for
from majiang.games.base import (
                                ACTION_TYPES,
                                Action,
                                ActionType,
                                KongRecord,
                                Payment,
                                Phase,
                                Result,
                                WinRecord,
                                tile_action,
)

__all__ = ["ACTION_TYPES", "Action", "ActionType", "Game", "KongRecord", "Payment", "Phase", "RNG_VERSION", "Result",
           "Seat", "WinRecord", "describe", "first_dealer", "play_for", "seed_string", "shuffled_wall", "tile_action"]
