"""Build games with chosen hands and draws, for worked settlement examples."""

from __future__ import annotations

from majiang.bots import GreedyAgent
from majiang.core.tiles import Tile, parse_tiles
from majiang.engine import Action, Game
from majiang.games.rules import rules_for


class Eager(GreedyAgent):
    """Greedy, but takes every win, claim, kong and declaration it is offered: windows, reveals
    and kongs then happen often."""

    def act(self, obs, legal):
        for kind in ("win", "declare", "dance", "sing", "kong", "concealed_kong", "added_kong", "pong"):
            for a in legal:
                if a.type == kind:
                    return a
        return super().act(obs, legal)


def build_wall(variant_kinds, hands: list[str], dealer: int, draws: str = "", replacements: str = "",
               near_end: bool = False) -> list[int]:
    """A wall whose deal gives ``hands`` (seat order; the dealer's hand has 14 tiles), whose next
    draws are ``draws`` and whose kong replacements (from the back) are ``replacements``.
    ``near_end``: the draws are the last tiles of the wall (the filler sits before them)."""
    n = len(hands)
    tiles = [parse_tiles(h) for h in hands]
    for s, ts in enumerate(tiles):
        want = 14 if s == dealer else 13
        assert len(ts) == want, f"seat {s} needs {want} tiles, got {len(ts)}"
    pool = [int(k) for k in variant_kinds for _ in range(4)]
    used = [int(t) for ts in tiles for t in ts] + [int(t) for t in parse_tiles(draws)] + \
        [int(t) for t in parse_tiles(replacements)]
    for t in used:
        pool.remove(t)  # raises if a tile is used five times
    deal = []
    order = [(dealer + k) % n for k in range(n)]
    queues = {s: list(tiles[s]) for s in range(n)}
    for _ in range(13):
        for s in order:
            deal.append(int(queues[s].pop(0)))
    deal.append(int(queues[dealer].pop(0)))
    front = deal + [int(t) for t in parse_tiles(draws)]
    back = [int(t) for t in reversed(parse_tiles(replacements))]
    if near_end:
        return deal + pool + [int(t) for t in parse_tiles(draws)] + back
    return front + pool + back


def game_with(variant: str, hands: list[str], dealer: int = 0, draws: str = "", replacements: str = "",
              preset: str | None = None, near_end: bool = False, **options) -> Game:
    """A game dealt ``hands``; with ``near_end`` the filler is skipped, so ``draws`` are the last tiles
    of the wall (tile accounting then no longer holds: only for end-of-wall rules)."""
    rules = rules_for(variant, preset, **options)
    from majiang.engine import play_for
    kinds = play_for(rules).variant.kinds
    wall = build_wall(kinds, hands, dealer, draws, replacements, near_end)
    game = Game(rules, seed="test", dealer=dealer, wall=wall)
    game.scripted_front = 0  # where the draws were moved to (``near_end``), to deal it again elsewhere
    if near_end:
        game.front = game.scripted_front = len(wall) - len(parse_tiles(draws)) - len(parse_tiles(replacements))
    return game


def act(game: Game, seat: int, type_: str, tile: str | None = None, **kw) -> None:
    game.apply(seat, Action(type_, Tile.parse(tile) if tile else None, **kw))


def pass_all(game: Game) -> None:
    """Everyone with a pending claim passes (nothing happens outside a claim or a robbed kong)."""
    if game.phase not in ("claim", "rob"):
        return
    for s in game.pending_seats():
        act(game, s, "pass")


def discard(game: Game, seat: int, tile: str) -> None:
    act(game, seat, "discard", tile)


def payments(game: Game) -> list[tuple[int, int, int, str]]:
    return [(p.payer, p.payee, p.amount, p.reason) for p in game.payments]
