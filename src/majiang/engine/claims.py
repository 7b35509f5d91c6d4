"""Claims on a discard (胡, 杠, 碰, 过) and robbing an added kong (抢杠胡): who may, and who gets it.

Every seat that may claim answers; the answers are resolved together by priority: 胡 over 杠 and
碰, several 胡 on one discard all win (一炮多响), in turn order from the discarder."""

from __future__ import annotations

from typing import TYPE_CHECKING

from majiang.core.analysis import waits
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import Tile
from majiang.engine.settlement import record_wins
from majiang.games.base import PASS, Action, Phase, WinRecord, tile_action
from majiang.games.scoring import Score

if TYPE_CHECKING:
    from majiang.engine.game import Game

def open_claims(game: Game, discarder: int, t: Tile) -> None:
    options: dict[int, list[Action]] = {}
    last = game.tiles_left == 0
    for s in range(game.n):
        if s == discarder or game.seats[s].out:
            continue
        opts = []
        if game.completes(s, game.seats[s].counts, t):
            score = game.score_ron(s, t)
            if score.win and game.play.win_allowed(game, s, score, False) and ron_not_blocked(game, s, score):
                opts.append(tile_action("win", t))
        h = game.seats[s].counts
        if not last and h[t] >= 2 and game.play.can_claim_tile(game, s, t):
            if h[t] == 3 and kong_keeps_declared(game, s, t):
                opts.append(tile_action("kong", t))
            if not game.seats[s].declared:
                opts.append(tile_action("pong", t))
        if opts:
            must = any(a.type == "win" for a in opts) and game.discard_last_four and game.play.must_win(game, s)
            options[s] = [a for a in opts if a.type == "win"] if must else opts + [PASS]
    if not options:
        if game.on_window is not None:
            game.on_window("claim")
        game.after_discard(discarder)
        return
    game.phase = Phase.CLAIM
    game.responses = {}
    game.pending = options


def ron_not_blocked(game: Game, seat: int, score: Score) -> bool:
    passed = game.seats[seat].passed_win
    if passed is None:
        return True
    return game.play.pass_allows_bigger(game) and score.uncapped > passed  # 番数增加: before any cap


def kong_keeps_declared(game: Game, seat: int, t: Tile) -> bool:
    """A declared (亮倒) hand may kong only if its waits stay the same."""
    if not game.seats[seat].declared:
        return True
    h = list(game.seats[seat].counts)
    h[t] -= 3
    after = waits(Hand(tuple(h), tuple(game.seats[seat].melds) + (Meld.kong(t),)), game.variant, game.seats[seat].void)
    return after == game.seats[seat].declared_waits and bool(after)


def resolve_claims(game: Game) -> None:
    assert game.last_discard is not None  # a claim window follows a discard
    discarder, t = game.last_discard
    responses = game.responses
    for s, a in responses.items():  # 漏胡/过水: any answer but 胡 (a pong or kong too) passes the win
        if a.type != "win" and any(x.type == "win" for x in game.pending[s]):
            game.seats[s].passed_win = game.score_ron(s, t).uncapped
    winners = [s for s in game.order_from(discarder) if responses.get(s, PASS).type == "win"]
    if winners:
        game.seats[discarder].claimed[-1] = True
        wins = [WinRecord(s, t, False, discarder, game.score_ron(s, t)) for s in winners]
        if not game.wins and len(wins) > 1:
            game.first_win_multi = True
        record_wins(game, wins)
        return
    for s, a in responses.items():
        if a.type in ("kong", "pong"):
            game.seats[discarder].claimed[-1] = True
            game.any_claim = True
            game.pending = {}
            game.responses = {}
            if a.type == "kong":
                game.seats[s].counts[t] -= 3
                game.seats[s].melds.append(Meld.kong(t))
                game.log_event("claim", seat=s, kind="kong", tile=str(t), discarder=discarder)
                game.complete_kong(s, t, "kong", discarder)
            else:
                game.seats[s].counts[t] -= 2
                game.seats[s].melds.append(Meld.pong(t))
                game.log_event("claim", seat=s, kind="pong", tile=str(t), discarder=discarder)
                game.drawn_from_wall = False
                game.kong_chain = 0
                game.last_draw = None
                game.begin_turn(s)
            return
    game.after_discard(discarder)


def robbers(game: Game, seat: int, t: Tile) -> dict[int, list[Action]]:
    out = {}
    for s in range(game.n):
        if s == seat or game.seats[s].out or not game.completes(s, game.seats[s].counts, t):
            continue
        score = game.score_ron(s, t, robbed=True)
        if score.win and game.play.win_allowed(game, s, score, False) and ron_not_blocked(game, s, score):
            must = game.fresh_last_four(t) and game.play.must_win(game, s)
            out[s] = [tile_action("win", t)] + ([] if must else [PASS])
    return out


def resolve_rob(game: Game) -> None:
    assert game.pending_kong is not None  # a rob window follows an added kong
    seat, t = game.pending_kong
    game.pending_kong = None
    for s, a in game.responses.items():
        if a.type == "pass":
            game.seats[s].passed_win = game.score_ron(s, t, robbed=True).uncapped
    winners = [s for s in game.order_from(seat) if game.responses.get(s, PASS).type == "win"]
    if winners:
        game.seats[seat].counts[t] -= 1  # the robbed tile leaves the kong maker's hand; the pong stays
        game.log_event("robbed", seat=seat, tile=str(t))
        wins = [WinRecord(s, t, False, seat, game.score_ron(s, t, robbed=True), robbed_kong=True)
                for s in winners]
        if not game.wins and len(wins) > 1:
            game.first_win_multi = True
        game.last_discard = (seat, t)
        record_wins(game, wins)
        return
    game.pending = {}
    game.responses = {}
    game.finish_added_kong(seat, t)
