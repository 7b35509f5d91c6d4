"""Money and the end of a deal: payments as the game decides them, wins recorded, the draw
settlement (查叫, 花猪, 亮倒 penalties), and who deals next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from majiang.games.base import Payment, Phase, Result, WinRecord

if TYPE_CHECKING:
    from majiang.engine.game import Game

def pay(game: Game, payments: list[Payment]) -> None:
    for p in payments:
        if p.amount:
            game.payments.append(p)
            game.log_event("payment", **p.to_json())


def record_wins(game: Game, wins: list[WinRecord]) -> None:
    game.pending = {}
    game.responses = {}
    keep_playing = game.play.winners_play_on(game)
    for i, w in enumerate(wins):
        if i == 0:  # the one physical tile goes to the first winner
            if keep_playing:
                game.seats[w.seat].won_tiles.append(w.tile)  # 血流成河: set aside, the hand plays on
            else:
                game.seats[w.seat].counts[w.tile] += 1
        game.wins.append(w)
        game.log_event("win", **w.to_json())
        decided = game.play.win_payments(game, w)
        for event in decided.events:
            game.events.append(dict(event))
        for kong in decided.settles:
            kong.settled = True
        pay(game, decided.payments)
    after = game.play.after_wins(game, wins)
    for seat in after.leave:
        game.seats[seat].out = True
    if not after.goes_on:
        finish(game, Result.WIN)
        return
    last_winner = wins[-1].seat
    if any(w.self_draw for w in wins):
        nxt = game.next_seat(last_winner)
    else:
        discarder = wins[0].discarder
        assert discarder is not None  # not a self-draw
        order = [s for s in game.order_from(discarder)]
        winners = {w.seat for w in wins}
        last = max(winners, key=lambda s: order.index(s))
        nxt = game.next_seat(last)
    if game.tiles_left == 0:
        end_draw(game)
        return
    game.kong_chain = 0
    game.draw_tile(nxt)


def end_draw(game: Game) -> None:
    game.pending = {}
    game.responses = {}
    pay(game, game.play.draw_settlement(game))
    finish(game, Result.WIN if game.wins else Result.DRAW)


def finish(game: Game, result: Result) -> None:
    game.phase = Phase.OVER
    game.pending = {}
    game.result = result
    game.log_event("end", result=result, totals=totals(game), next_dealer=game.play.next_dealer(game))


def totals(game: Game) -> list[int]:
    out = [0] * game.n
    for p in game.payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out
