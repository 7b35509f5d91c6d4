"""Live tables: the names the server's routes and the tests use, from the modules that hold them.

One table (``live_table.LiveTable``) is driven by its match (``match``), clock (``clock``),
presence and 托管 (``presence``), 准备 (``readiness``), votes (``votes``), bots (``table_bots``),
driver (``driver``) and fan-out (``fanout``); ``tables.Tables`` keeps every live table of a server
and its leases. docs/ARCHITECTURE.md draws the parts and the path of one action through them.
"""

from majiang.server.actions import parse_action, player_default
from majiang.server.clock import (
    ABSENT_AFTER,
    AUTO_DELAY,
    BOT_DELAY,
    FROZEN_DELAY,
    MISSES_BEFORE_AUTO,
    WINDOWS,
    TableSettings,
)
from majiang.server.commands import CHAT_GAP, CHAT_PHRASES
from majiang.server.live_table import LiveTable
from majiang.server.match import IllegalTransition, MatchState
from majiang.server.presence import Connection
from majiang.server.tables import Elsewhere, Tables
from majiang.server.table_bots import IN_PLACE, TableBot, as_table_bot
from majiang.server.votes import DISSOLVE_GAP, DISSOLVE_SECONDS

__all__ = ["ABSENT_AFTER", "AUTO_DELAY", "BOT_DELAY", "CHAT_GAP", "CHAT_PHRASES", "DISSOLVE_GAP",
           "DISSOLVE_SECONDS", "FROZEN_DELAY", "IN_PLACE", "MISSES_BEFORE_AUTO", "WINDOWS", "Connection",
           "Elsewhere", "IllegalTransition", "LiveTable", "MatchState", "TableBot", "TableSettings", "Tables",
           "as_table_bot", "parse_action", "player_default"]
