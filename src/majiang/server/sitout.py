"""卡五星 with four friends: three play each hand and the fourth sits out (the 襄阳麻将卡五星玩法 text's
"每局3个人第4人观战"; the 地方棋牌游戏规则整理——卡五星 text, on the game's 大悟/孝感 origins:
"如有四人便是嬴家休息一轮").
Which one sits out is the room's ``sit_out`` rule:

- ``winner`` (嬴家休息一轮): a winner rests: the first winner, which after 一炮双响 is the first of the
  two in turn from the discarder (not the discarder, who deals next but lost); on a drawn hand, where
  nobody won, the next dealer rests. The one who sat out takes the resting seat, so after a single
  winner or a draw it deals; after 一炮双响 the discarder deals.
- ``rotate``: in turn, seat by seat, so each of the four sits out one hand in four.

The three table seats stay the engine's seats; the fourth person waits on the bench. A swap moves the
bench person into the resting person's seat, so a seat's points are not a person's: each person's
match total is summed over the hands they played (the seat ledger: each hand's lineup, stored with
the hand; ``seating``). The rule and the bench live in the room's settings as ``{"four": {"rule",
"bench"}}`` (rooms before the seat ledger also kept a ``lineups`` list there, still read).
"""

from __future__ import annotations

RULES = ("winner", "rotate")


def people_for(plays: int) -> tuple[int, ...]:
    """How many people a room of a game for ``plays`` players seats: that many, or four at a
    three-player table (one sits out each hand)."""
    return (plays, 4) if plays == 3 else (plays,)


def new_state(rule: str) -> dict:
    return {"rule": rule, "bench": None}


def person(seat: dict, index: int) -> str:
    """Who sits in a seat, as a key that follows a person from seat to seat (a bot stays put)."""
    return seat.get("player") or f"bot:{index}"


def resting_winner(game) -> int:
    """Who rests under ``winner`` after ``game``: the first winner (the engine keeps a multiple ron's
    winners in turn from the discarder), or the next dealer when nobody won."""
    return game.wins[0].seat if game.wins else game.next_dealer()


def rester(rule: str, finished_hand: int, winner: int, players: int = 3) -> int:
    """The table seat whose player sits out the hand after ``finished_hand`` (``winner``: the seat
    ``resting_winner`` names).

    >>> rester("winner", 0, winner=2), [rester("rotate", h, 0) for h in range(4)]
    (2, [0, 1, 2, 0])
    """
    return winner if rule == "winner" else finished_hand % players


def swap(seats: list[dict], bench: dict, seat: int) -> tuple[list[dict], dict]:
    """The bench person takes ``seat``; its player goes to the bench.

    >>> seats = [{"player": "a", "name": "A", "bot": None}, {"player": "b", "name": "B", "bot": None},
    ...          {"player": "c", "name": "C", "bot": None}]
    >>> new, bench = swap(seats, {"player": "d", "name": "D"}, 1)
    >>> [s["name"] for s in new], bench
    (['A', 'D', 'C'], {'player': 'b', 'name': 'B'})
    """
    out = [dict(s) for s in seats]
    rests = {"player": out[seat]["player"], "name": out[seat]["name"]}
    out[seat] = {"player": bench["player"], "name": bench["name"], "bot": None}
    return out, rests
