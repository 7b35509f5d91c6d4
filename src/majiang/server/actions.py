"""What is played for a person who did not decide, and a client's action checked for shape."""

from __future__ import annotations

from typing import Any

from majiang.core.errors import MajiangError
from majiang.engine import Action
from majiang.engine.safety import safe_choices
from majiang.server.errors import Refusal


def player_default(legal: list, drawn: Any, safe: bool, unsafe: Any = frozenset()) -> tuple[Action | None, list]:
    """What is played for a person who did not decide: (the action, or None to let the seat's bot
    choose among the returned choices). A win is taken whenever the rules offer one (every app's
    托管 does); otherwise only moves that decide nothing for the player: a claim is passed, and on
    one's turn a plain discard (``safe``: the tile just drawn, as a missed timer plays it; 托管: the
    bot's pick among the discards), never a kong, a pong or a 亮倒/唱歌/跳舞. 换三张 and 定缺 have no
    neutral move: the bot chooses. ``unsafe``: the tiles the table has shown it wins on
    (``majiang.engine.safety.unsafe_tiles``): no discard of one while another discard is legal.

    >>> from majiang.engine import Action
    >>> from majiang.core.tiles import Tile
    >>> legal = [Action("discard", Tile.parse("5p")), Action("discard", Tile.parse("7s")),
    ...          Action("declare", Tile.parse("7s"))]
    >>> player_default(legal, Tile.parse("7s"), safe=True)[0]
    Action(type='discard', tile=7s, tiles=(), suit=None)
    >>> [str(a.tile) for a in player_default(legal, Tile.parse("7s"), safe=False)[1]]
    ['5p', '7s']
    >>> str(player_default(legal, Tile.parse("7s"), safe=True, unsafe={Tile.parse("7s")})[0])
    'discard 5p'
    """
    win = next((a for a in legal if a.type == "win"), None)
    if win is not None:
        return win, legal
    passing = next((a for a in legal if a.type == "pass"), None)
    if passing is not None:
        return passing, legal
    discards = safe_choices([a for a in legal if a.type == "discard"], unsafe)
    if not discards:
        return None, legal  # 换三张 / 定缺
    if safe:
        drawn_out = next((a for a in discards if a.tile == drawn), None)
        return drawn_out or discards[-1], discards
    return None, discards


def parse_action(data: Any) -> Action:
    """A client's action, checked for shape without echoing what it sent."""
    from majiang.engine import ACTION_TYPES

    if not isinstance(data, dict) or not isinstance(data.get("type"), str) or data["type"] not in ACTION_TYPES:
        raise Refusal("action.malformed", types=", ".join(ACTION_TYPES))
    tile, tiles = data.get("tile"), data.get("tiles", [])
    if tile is not None and (not isinstance(tile, str) or len(tile) > 8):
        raise Refusal("action.bad_tile")
    if not isinstance(tiles, list) or len(tiles) > 4 or not all(isinstance(t, str) and len(t) <= 8 for t in tiles):
        raise Refusal("action.bad_tiles")
    try:
        return Action.from_json(data)
    except MajiangError:
        raise Refusal("action.bad_tile_name") from None
