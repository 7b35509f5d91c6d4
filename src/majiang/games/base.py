"""What every game defines and the engine drives: actions, phases, payments, and the hooks.

A game (``majiang.games.kawuxing``, ``majiang.games.sichuan``) subclasses ``GamePlay``. The engine
asks its hooks what the rules decide (which tiles may be discarded, what a kong or a win pays,
what a declaration reveals, whether the deal goes on after a win) and applies the answer itself:
hooks read the game, they never change it. The engine reads only the answers, never the game's
name.

>>> Action.from_json({"type": "discard", "tile": "5p"})
Action(type=<ActionType.DISCARD: 'discard'>, tile=5p, tiles=(), suit=None)
>>> str(tile_action("pong", 13)), ActionType.PONG == "pong"
('pong 5p', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from majiang.core.errors import IllegalActionError, MajiangError
from majiang.core.hand import Hand
from majiang.core.tiles import ALL_TILES, Tile, parse_tiles
from majiang.games.scoring import Score, WinContext

if TYPE_CHECKING:
    from majiang.core.variants import Variant


class Phase(StrEnum):
    """Where a deal stands; each compares equal to its name (``Phase.TURN == "turn"``)."""

    DEAL = "deal"
    EXCHANGE = "exchange"  # 换三张
    VOID = "void"  # 定缺
    TURN = "turn"  # one seat draws (or has claimed) and discards
    CLAIM = "claim"  # the others answer a discard: 胡, 杠, 碰 or 过
    ROB = "rob"  # the others answer an added kong: 抢杠胡 or 过
    OVER = "over"


class Result(StrEnum):
    WIN = "win"  # at least one win
    DRAW = "draw"  # 荒庄: the wall ran out with no win


class ActionType(StrEnum):
    DISCARD = "discard"
    WIN = "win"
    PONG = "pong"
    KONG = "kong"  # 直杠: a kong on another's discard
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    ADDED_KONG = "added_kong"  # 加杠/蓄杠
    PASS = "pass"
    DECLARE = "declare"  # discard and declare: Kawuxing 亮倒, Sichuan 跳舞
    SING = "sing"  # Sichuan 唱歌: discard and declare ready, waits hidden
    EXCHANGE = "exchange"  # 换三张
    VOID = "void"  # 定缺


ACTION_TYPES = tuple(t.value for t in ActionType)
_TYPE_SET = frozenset(ACTION_TYPES)


def _parse_tiles_text(text: str) -> list[Tile]:
    try:
        return parse_tiles(text)
    except MajiangError as exc:
        raise IllegalActionError(f"bad tile in action: {exc}") from None


def _as_tile(value: Any) -> Tile:
    """A tile given as a Tile, its text (``"9s"``, ``"九条"``) or its kind number (0-29)."""
    if isinstance(value, Tile):
        return ALL_TILES[int(value)]
    if isinstance(value, str):
        tiles = _parse_tiles_text(value)
        if len(tiles) != 1:
            raise IllegalActionError(f"bad tile in action: expected one tile, got {len(tiles)} in {value!r}")
        return tiles[0]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(ALL_TILES):
        return ALL_TILES[value]
    raise IllegalActionError(f"bad tile in action: {value!r} is not a tile (give its text, such as '5p')")


@dataclass(frozen=True)
class Action:
    """One decision. ``type`` is an ``ActionType`` (or its name: ``Action("pass")``);
    ``tile``/``tiles``/``suit`` as the type needs.

    >>> a = Action.from_json({"type": "discard", "tile": "5p"})
    >>> print(a), a.to_json()
    discard 5p
    (None, {'type': 'discard', 'tile': '5p'})
    """

    type: str
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    suit: str | None = None

    def __post_init__(self) -> None:
        # a tile given as text ("9s") or a kind number is the Tile itself: equal to the legal one
        if self.type not in _TYPE_SET:
            raise IllegalActionError(f"unknown action type {self.type!r} (one of {', '.join(ACTION_TYPES)})")
        tile = self.tile
        if tile is not None and tile.__class__ is not Tile:
            object.__setattr__(self, "tile", _as_tile(tile))
        tiles = self.tiles
        if tiles and (tiles.__class__ is not tuple or any(t.__class__ is not Tile for t in tiles)):
            if isinstance(tiles, str):
                tiles = _parse_tiles_text(tiles)
            object.__setattr__(self, "tiles", tuple(sorted(_as_tile(t) for t in tiles)))
        if self.suit is not None and self.suit not in ("m", "p", "s"):
            raise IllegalActionError(f"bad suit {self.suit!r} (m, p or s)")

    def __eq__(self, other: object) -> bool:
        # legal actions are checked by membership at every decision: identity first, then fields
        if self is other:
            return True
        if other.__class__ is not Action:
            return NotImplemented
        return (self.type == other.type and self.tile == other.tile and self.tiles == other.tiles
                and self.suit == other.suit)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"type": str(self.type)}
        if self.tile is not None:
            d["tile"] = str(self.tile)
        if self.tiles:
            d["tiles"] = [str(t) for t in self.tiles]
        if self.suit is not None:
            d["suit"] = self.suit
        return d

    @classmethod
    def from_json(cls, d: Any) -> "Action":
        if not isinstance(d, dict) or not isinstance(d.get("type"), str):
            raise IllegalActionError(f"an action is an object with a 'type', got {d!r}")
        if d["type"] not in ACTION_TYPES:
            raise IllegalActionError(f"unknown action type {d['type']!r} (one of {', '.join(ACTION_TYPES)})")
        try:
            tile = Tile.parse(d["tile"]) if d.get("tile") is not None else None
            tiles = tuple(sorted(Tile.parse(t) for t in d.get("tiles", ())))
        except (ValueError, TypeError) as exc:
            raise IllegalActionError(f"bad tile in action: {exc}") from None
        suit = d.get("suit")
        if suit is not None and suit not in ("m", "p", "s"):
            raise IllegalActionError(f"bad suit {suit!r} (m, p or s)")
        return cls(ActionType(d["type"]), tile, tiles, suit)

    @classmethod
    def parse(cls, text: Any) -> "Action":  # Any: a compiled build checks the type itself
        """An action from its text, as ``str(action)`` writes it: ``discard 5p``, ``pass``,
        ``exchange 1m2m3m``, ``void s`` (any tile notation: ``discard 五筒``). Raises
        ``IllegalActionError`` on malformed text (whether the action is legal is the game's question).

        >>> Action.parse("discard 9s") == Action("discard", "9s")
        True
        >>> a = Action.parse("exchange 3m 1m 2m")
        >>> str(a), Action.parse(str(a)) == a
        ('exchange 1m2m3m', True)
        >>> Action.parse("discard")
        Traceback (most recent call last):
        majiang.IllegalActionError: 'discard' needs one tile, as in 'discard 5p'
        """
        if not isinstance(text, str):
            raise IllegalActionError(f"an action's text is a string, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise IllegalActionError("an empty action: write one such as 'discard 5p' or 'pass'")
        kind, rest = words[0].lower(), " ".join(words[1:])
        if kind not in _TYPE_SET:
            raise IllegalActionError(f"unknown action type {words[0]!r} (one of {', '.join(ACTION_TYPES)})")
        if kind == "pass":
            if rest:
                raise IllegalActionError(f"'pass' takes nothing after it, got {rest!r}")
            return PASS
        if kind == "void":
            if rest not in ("m", "p", "s"):
                raise IllegalActionError(f"'void' needs a suit, m, p or s, as in 'void s'; got {rest!r}")
            return cls(ActionType.VOID, suit=rest)
        tiles = _parse_tiles_text(rest) if rest else []
        if kind == "exchange":
            if len(tiles) != 3:
                raise IllegalActionError(f"'exchange' needs three tiles, as in 'exchange 1m2m3m'; got {len(tiles)}")
            return cls(ActionType.EXCHANGE, tiles=tuple(sorted(tiles)))
        if len(tiles) != 1:
            raise IllegalActionError(f"{kind!r} needs one tile, as in '{kind} 5p'"
                                     + (f"; got {len(tiles)} in {rest!r}" if tiles else ""))
        return tile_action(kind, tiles[0])

    def __str__(self) -> str:
        parts = [str(self.type)]
        if self.tile is not None:
            parts.append(str(self.tile))
        if self.tiles:
            parts.append("".join(str(t) for t in self.tiles))
        if self.suit:
            parts.append(self.suit)
        return " ".join(parts)


_ACTION_CACHE: dict = {}


def tile_action(type_: str, tile) -> Action:
    """The shared instance of a one-tile action (actions are immutable; legal-action lists are
    rebuilt at every decision, so sharing them saves most of that cost)."""
    kind = int(tile) if tile is not None else None
    key = (type_, kind)
    a = _ACTION_CACHE.get(key)
    if a is None:
        a = _ACTION_CACHE[key] = Action(ActionType(type_), ALL_TILES[kind] if kind is not None else None)
    return a


PASS = Action(ActionType.PASS)


@dataclass
class Payment:
    payer: int
    payee: int
    amount: int
    reason: str  # Chinese name of the rule, e.g. 自摸, 点炮, 暗杠, 花猪
    detail: str = ""

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason,
                "detail": self.detail}


@dataclass
class WinRecord:
    seat: int
    tile: Tile
    self_draw: bool
    discarder: int | None
    score: Score
    robbed_kong: bool = False

    def to_json(self) -> dict:
        return {"seat": self.seat, "tile": str(self.tile), "self_draw": self.self_draw,
                "discarder": self.discarder, "robbed_kong": self.robbed_kong, **self.score.to_json()}


@dataclass
class KongRecord:
    seat: int
    tile: Tile
    kind: str  # concealed_kong, added_kong, kong (direct)
    payments: list[Payment] = field(default_factory=list)
    chain: int = 1
    settled: bool = False  # its money was refunded or passed on (杠上炮, 退杠)


@dataclass(frozen=True)
class Declaration:
    """What a declaration (亮倒, 唱歌, 跳舞) fixes: its kind, the hand's waits, and the waits shown
    to everyone in the event log (``None``: kept hidden, as in 唱歌)."""

    kind: str  # "liangdao", "sing" or "dance"
    waits: list[Tile]
    shown: list[str] | None


@dataclass
class Settlement:
    """A win's money as a game decides it: payments, events logged before them (买马's horse), and
    kong records whose money this win settles (杠上炮 refunds or hands it on)."""

    payments: list[Payment]
    events: list[dict] = field(default_factory=list)
    settles: list[KongRecord] = field(default_factory=list)


@dataclass(frozen=True)
class AfterWins:
    """Whether the deal goes on after wins, and which winners leave the table (血战)."""

    goes_on: bool
    leave: tuple[int, ...] = ()


class GamePlay:
    """What differs between the games; each game's ``play`` module subclasses it. Hooks get the
    ``Game`` (``majiang.engine``) to read and return what the rules decide."""

    name = ""
    players = 0
    # 海底: the last tile drawn must itself be discarded (卡五星)
    last_draw_discarded = False

    def __init__(self, rules) -> None:
        self.rules = rules

    @property
    def variant(self) -> "Variant":
        raise NotImplementedError

    def setup_phase(self, game) -> Phase:
        """The first phase after the deal: a turn, or Sichuan's 换三张/定缺."""
        return Phase.TURN

    def can_discard(self, game, seat: int, tile: int) -> bool:
        return True

    def discardable(self, game, seat: int) -> list[int]:
        """The kinds this seat may discard now (all it holds, unless the game restricts)."""
        h = game.seats[seat].counts
        return [k for k in range(30) if h[k]]

    def can_claim_tile(self, game, seat: int, tile: int) -> bool:
        return True

    def added_kong_only_at_once(self) -> bool:
        """May an added kong be made only on drawing its fourth tile (即时加杠)?"""
        return False

    def kong_chain_spans_players(self) -> bool:
        """Does a kong on the discard that followed another player's kong continue that kong's
        chain (杠上杠 across players)? Off: a chain is one player's own consecutive kongs, so a kong
        on a discard starts at 1."""
        return False

    def extra_turn_actions(self, game, seat: int) -> list[Action]:
        return []

    def win_allowed(self, game, seat: int, score: Score, self_draw: bool) -> bool:
        return score.win

    def kong_payments(self, game, seat: int, kind: str, discarder: int | None, chain: int,
                      at_once: bool = True) -> list[Payment]:
        """Kong money. ``at_once``: an added kong made on drawing its fourth tile (not later)."""
        raise NotImplementedError

    def win_payments(self, game, win: WinRecord) -> Settlement:
        raise NotImplementedError

    def after_wins(self, game, wins: list[WinRecord]) -> AfterWins:
        """Called after wins are recorded: does the deal go on, and who leaves?"""
        return AfterWins(False)

    def draw_settlement(self, game) -> list[Payment]:
        return []

    def first_dealer_seat(self) -> int | None:
        """The seat that deals a match's first hand, or ``None``: rolled by the dice."""
        return None

    def score(self, hand: Hand, tile: Tile, ctx: WinContext) -> Score:
        raise NotImplementedError

    def must_win(self, game, seat: int) -> bool:
        """Must a win on one of the wall's last four tiles be taken (Sichuan 最后四张必胡)? The engine
        asks only when the tile won on is one of them."""
        return False

    def earthly_on_discard(self) -> bool:
        """Does a win on a discard in the first go-around count as 地胡 (Sichuan ``earthly``)?"""
        return False

    def pass_allows_bigger(self, game) -> bool:
        """After passing a win, may a bigger win on a later discard be taken before one's draw?"""
        return False

    def declare(self, game, seat: int, discard: Tile, kind: str) -> Declaration:
        raise IllegalActionError(f"{self.name} has no declaration")

    def winners_play_on(self, game) -> bool:
        """血流成河: winners stay at the table and may win again."""
        return False

    def revealed(self, game, seat: int) -> dict:
        return {}

    def next_dealer(self, game) -> int:
        """First winner deals next; a first win that was a multiple ron: the discarder; a draw: same."""
        if not game.wins:
            return game.dealer
        if game.first_win_multi:
            return game.wins[0].discarder
        return game.wins[0].seat
