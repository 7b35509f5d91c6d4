"""Worked hands that each show one fan settling real money, for the conformance corpus: a hand
wins on the dealer's first discard (``ron``) or on its own first draw (``tsumo``), the other seats
dealt what is left (in at most two suits each, so Sichuan's 定缺 is automatic)."""

from __future__ import annotations

from itertools import combinations

from majiang.core.tiles import Tile, parse_tiles
from majiang.engine import play_for
from majiang.games.rules import rules_for
from scenario import act, discard, game_with, pass_all


def _fill(pool: list[int], count: int, suits) -> list[int]:
    for pair in suits:
        picked = [k for k in pool if Tile(k).suit in pair][:count]
        if len(picked) == count:
            for k in picked:
                pool.remove(k)
            return picked
    raise AssertionError("no filler left")


def dealt(variant: str, fixed: dict[int, str], options: dict, draws: str = "", lead: str = "") -> list[str]:
    """Every seat's hand: ``fixed`` ones as given, the others filler (none of it from ``draws``, the
    wall's next tiles); a filled dealer holds ``lead`` (its first discard) too."""
    rules = rules_for(variant, None, **options)
    kinds = [int(k) for k in play_for(rules).variant.kinds]
    n = play_for(rules).variant.players
    pool = sorted(k for k in kinds for _ in range(4))
    for t in parse_tiles("".join(fixed.values()) + lead + draws):
        pool.remove(int(t))
    suits = sorted({Tile(k).suit for k in kinds})
    pairs = [set(p) for p in combinations(suits, 2)] if len(suits) > 2 else [set(suits)]
    hands = []
    for seat in range(n):
        if seat in fixed:
            hands.append(fixed[seat])
            continue
        if seat == 0 and lead:
            tiles = [int(Tile.parse(lead))] + _fill(pool, 13, [p for p in pairs if Tile.parse(lead).suit in p])
        else:
            tiles = _fill(pool, 14 if seat == 0 else 13, pairs)
        hands.append("".join(str(Tile(k)) for k in sorted(tiles)))
    return hands


def deal(variant: str, winner: str, first: str, options: dict, draws: str = "") -> list[str]:
    """Seat 1 holds ``winner``; the dealer holds ``first`` (its first discard) and filler."""
    return dealt(variant, {1: winner}, options, draws, first)


def ron(variant: str, winner: str, tile: str, **options):
    """Seat 1 wins ``tile``, the dealer's first discard."""
    g = game_with(variant, deal(variant, winner, tile, options), **options)
    discard(g, 0, tile)
    act(g, 1, "win", tile)
    pass_all(g)
    return g


def tsumo(variant: str, winner: str, tile: str, first: str, **options):
    """Seat 1 draws ``tile`` after the dealer's first discard ``first`` (passed) and wins it."""
    g = game_with(variant, deal(variant, winner, first, options, tile), draws=tile, **options)
    discard(g, 0, first)
    pass_all(g)
    act(g, 1, "win", tile)
    return g


def fans(g) -> list[str]:
    return [f.name for w in g.wins for f in w.score.fans]


def pongs(variant: str, winner: str, first: str, then: str, discards: str, **options):
    """Seat 1 pongs the dealer's first discard ``first``, then each tile of ``then`` but the last as
    seat 2 draws and discards it, discarding ``discards`` in turn; the last of ``then`` it wins."""
    g = game_with(variant, deal(variant, winner, first, options, then), draws=then, **options)
    discard(g, 0, first)
    claimed = [first] + [str(t) for t in parse_tiles(then)]
    for tile, away in zip(claimed, [str(t) for t in parse_tiles(discards)]):
        if tile != first:
            discard(g, 2, tile)
        act(g, 1, "pong", tile)
        pass_all(g)
        discard(g, 1, away)
        pass_all(g)
    discard(g, 2, claimed[-1])
    act(g, 1, "win", claimed[-1])
    pass_all(g)
    return g


def kong_bloom(variant: str, dealer: str, kong: str, replacement: str, **options):
    """The dealer makes a concealed kong of ``kong`` at once and wins on its ``replacement``."""
    g = game_with(variant, dealt(variant, {0: dealer}, options, replacement), replacements=replacement, **options)
    act(g, 0, "concealed_kong", kong)
    act(g, 0, "win", replacement)
    return g


def last_tile(variant: str, first: str, seat1: str, seat2: str, tile: str, won_by: int, **options):
    """Seat 1 draws the wall's last tile ``tile`` after the dealer's first discard: it wins it
    (``won_by`` 1), or discards it and seat 2 wins it (``won_by`` 2)."""
    hands = dealt(variant, {1: seat1, 2: seat2}, options, tile, first)
    g = game_with(variant, hands, draws=tile, near_end=True, **options)
    discard(g, 0, first)
    pass_all(g)
    if won_by == 1:
        act(g, 1, "win", tile)
    else:
        discard(g, 1, tile)
        act(g, 2, "win", tile)
        pass_all(g)
    return g
