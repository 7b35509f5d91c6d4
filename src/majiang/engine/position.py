"""A game set directly to a position: one seat's determinized view of a deal in play (its own
tiles, the others' sampled tiles, a sampled order of the wall), for search (the ``expert`` agent
plays rollouts from such positions).

Nothing has been paid, won or konged before the position (a rollout's points are what moves from
there on), nobody can win 天胡/地胡 any more, and every seat has drawn (``draws`` = 2). The native
engine's ``Game::from_position`` builds the same state field for field, so both engines play the
same rollout from one position.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from majiang.core.hand import Meld
from majiang.core.tiles import ALL_TILES
from majiang.engine import claims
from majiang.engine.game import Game
from majiang.games.base import Phase


@dataclass
class SeatPosition:
    counts: list[int]  # concealed tiles by kind
    melds: list[Meld] = field(default_factory=list)
    void: str | None = None
    out: bool = False
    declared: str | None = None  # "liangdao", "sing", "dance"
    waits: list[int] = field(default_factory=list)  # declared waits


@dataclass
class Position:
    """``mode`` "turn": ``actor`` decides its turn (``tile``: the tile it drew, or None after a
    claim); "claim": ``actor`` has just discarded ``tile`` and the claims open. ``wall``: the
    tiles left in draw order (kong replacements come from its end)."""

    mode: str
    actor: int
    tile: int | None
    dealer: int
    wall: list[int]
    seats: list[SeatPosition]


def game_at(rules, pos: Position) -> Game:
    """A ``Game`` at ``pos`` (its legality checks work as in any game from here on)."""
    from majiang.games import play_for

    kinds = play_for(rules).variant.kinds
    g = Game(rules, wall=[int(k) for k in kinds for _ in range(4)], dealer=pos.dealer)
    g.wall = [int(t) for t in pos.wall]
    g.front, g.back = 0, len(g.wall)
    g.declare_order = []
    for s, sp in enumerate(pos.seats):
        seat = g.seats[s]
        seat.counts = [int(c) for c in sp.counts]
        seat.melds = list(sp.melds)
        seat.void = sp.void
        seat.out = sp.out
        seat.declared_kind = sp.declared
        seat.declared_waits = [ALL_TILES[t] for t in sorted(sp.waits)]
        if sp.declared is not None:
            g.declare_order.append(s)
        seat.discards, seat.claimed, seat.won_tiles = [], [], []
        seat.draws, seat.passed_win, seat.exchange_choice = 2, None, None
    g.pending, g.responses = {}, {}
    g.any_claim = True
    g.kong_chain = g.discard_chain = 0
    g.discard_last_four = False
    g.last_discard = None
    g.pending_kong = None
    g.events = []
    if pos.mode == "claim":
        assert pos.tile is not None  # a claim position names the discard
        t = ALL_TILES[pos.tile]
        g.last_draw = None
        g.drawn_from_wall = g.last_four_draw = False
        g.current = pos.actor
        g.seats[pos.actor].discards.append(t)
        g.seats[pos.actor].claimed.append(False)
        g.last_discard = (pos.actor, t)
        g.phase = Phase.TURN
        claims.open_claims(g, pos.actor, t)
    else:
        g.last_draw = None if pos.tile is None else ALL_TILES[pos.tile]
        g.drawn_from_wall = pos.tile is not None
        g.last_four_draw = pos.tile is not None and len(g.wall) < 4
        g.begin_turn(pos.actor)
    return g


def decision_point(game: Game) -> tuple[str, int, int | None] | None:
    """(mode, actor, tile) of the position ``game`` stands at, as ``Position`` names them: a turn
    (its tile: the one just drawn from the wall) or an open claim window; None for the other
    phases (换三张, 定缺, a robbable kong, the end), which a position cannot hold."""
    if game.phase == Phase.TURN:
        tile = int(game.last_draw) if game.drawn_from_wall and game.last_draw is not None else None
        return "turn", game.current, tile
    if game.phase == Phase.CLAIM and game.last_discard is not None:
        actor, t = game.last_discard
        return "claim", actor, int(t)
    return None


def position_of(game: Game) -> Position | None:
    """The position ``game`` stands at, as ``game_at`` reads one (the inverse, for a decision that
    looks only at hands, melds, declarations and the wall: the native engine's greedy bots), or
    None where ``decision_point`` finds none."""
    point = decision_point(game)
    if point is None:
        return None
    mode, actor, tile = point
    seats = [SeatPosition(list(s.counts), list(s.melds), s.void, s.out, s.declared_kind,
                          [int(w) for w in s.declared_waits]) for s in game.seats]
    return Position(mode, actor, tile, game.dealer, game.wall[game.front:game.back], seats)
