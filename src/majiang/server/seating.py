"""Who sits where, in which hand: the room's seating as one pure transition, and the seat ledger.

Every change to who sits where is a command applied by ``step(seating, command) -> (seating,
effect)``: a join (a free seat, a seat a rematch keeps, a bot's seat from the next hand, a
four-person room's bench), a deal (the first hand, or the next: friends who waited sit down, a
rematch seat's owner takes it, a four-person room swaps who sits out), the end of the match. It does
no I/O: the caller (the room's live table, holding its lock) stores what changed in one transaction
and only then tells anyone. ``tests/server/test_seating.py`` drives it with hypothesis's stateful
testing over random interleavings and checks the invariants after every step:

- a person holds at most one place in a room (a seat, a seat from the next hand, a kept rematch
  seat, the bench), and a seat holds at most one person in a hand;
- every dealt hand has exactly one lineup, naming who sat in each seat (``Lineup``);
- a seat a rematch keeps for a player is theirs until the rematch ends: no one else is given it;
- a finished match seats nobody.

The seat ledger: each hand's lineup is stored with the hand's start (``games.lineup``). Totals,
战绩, the summary and replays read it, so a person's record counts only the hands they played, and a
bot keeps its own results (its key is its seat: ``bot:1``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from majiang.server import sitout
from majiang.server.errors import Refusal

Seat = dict[str, Any]  # {"player": id|None, "name": str|None, "bot": level|None, "next"?: {...}, "for"?: id}


@dataclass(frozen=True)
class Seating:
    """A room's seats as its rules see them: the status (lobby, playing, finished), the table's seats,
    a four-person room's bench and sit-out rule, and the hand in play (-1 before the first deal)."""

    status: str
    seats: tuple[Seat, ...]
    rule: str | None = None  # a four-person Kawuxing room's sit-out rule (sitout.RULES), else None
    bench: dict | None = None  # {"player", "name"}: the fourth person, sitting out
    hand: int = -1
    hands: int = 1  # hands in the match

    @classmethod
    def of_room(cls, room: dict, hand: int = -1) -> Seating:
        four = (room.get("settings") or {}).get("four")
        return cls(room["status"], tuple(dict(s) for s in room["seats"]), (four or {}).get("rule"),
                   (four or {}).get("bench"), hand, int(room.get("hands") or 1))

    def settings(self, settings: dict | None) -> dict:
        """The room's settings with this bench (unchanged for a room of one person a seat)."""
        settings = dict(settings or {})
        if self.rule is not None:
            four = dict(settings.get("four") or {})  # (a room from before the seat ledger keeps its "lineups")
            settings["four"] = {**four, "rule": self.rule, "bench": self.bench}
        return settings

    def place_of(self, player: str) -> tuple[str, int] | None:
        """Where a person is: ("seat", i), ("next", i) a bot's seat from the next hand, ("kept", i) a
        seat a rematch keeps for them, ("bench", n) sitting out; None: nowhere."""
        for i, s in enumerate(self.seats):
            if s.get("player") == player:
                return "seat", i
            if (s.get("next") or {}).get("player") == player:
                return "next", i
            if not s.get("player") and s.get("for") == player:
                return "kept", i
        if (self.bench or {}).get("player") == player:
            return "bench", len(self.seats)
        return None


@dataclass(frozen=True)
class Seated:
    """Where a join put a player: ``how`` is "seat" (seated now), "next_hand" (a seat from the next
    hand on) or "bench" (a four-person room's fourth, sitting out until swapped in)."""

    seat: int
    how: str
    changed: bool = field(default=True, compare=False)  # False: the player was there already

    def to_json(self) -> dict:
        return {"seat": self.seat} | ({self.how: True} if self.how != "seat" else {})


@dataclass(frozen=True)
class Join:
    player: str
    name: str


@dataclass(frozen=True)
class Deal:
    """Deal a hand: the first (``finished`` None) or the one after hand ``finished``; ``winner`` is
    the seat a four-person room's ``winner`` rule rests (``sitout.resting_winner``: the first winner,
    or on a drawn hand the dealer who keeps the deal)."""

    finished: int | None = None
    winner: int = 0


@dataclass(frozen=True)
class Finish:
    """The match is over (its last hand, or a 解散)."""


Command = Join | Deal | Finish


def step(seating: Seating, command: Command) -> tuple[Seating, Any]:
    """The one transition: the new seating and what happened (a ``Seated`` for a join, the hand's
    ``Lineup`` for a deal, None for the end). A refusal (``Refusal``) changes nothing."""
    if isinstance(command, Join):
        return _join(seating, command)
    if isinstance(command, Deal):
        return _deal(seating, command)
    if isinstance(command, Finish):
        return replace(seating, status="finished"), None
    raise TypeError(f"not a seating command: {command!r}")


def _join(s: Seating, cmd: Join) -> tuple[Seating, Seated]:
    place = s.place_of(cmd.player)
    if place is not None and place[0] != "kept":
        how = {"seat": "seat", "next": "next_hand", "bench": "bench"}[place[0]]
        return s, Seated(place[1], how, changed=False)
    if s.status == "finished":
        raise Refusal("match.over", status=409)
    seats = [dict(x) for x in s.seats]
    me = {"player": cmd.player, "name": cmd.name}
    kept = place[1] if place is not None else None
    if s.status == "lobby":
        free = [i for i, x in enumerate(seats) if not x.get("player") and not x.get("for")]
        i = kept if kept is not None else (free[0] if free else None)
        if i is not None:
            seats[i] = {**me, "bot": None}
            return replace(s, seats=tuple(seats)), Seated(i, "seat")
    else:  # a match in play: a bot finishes this hand; the seat is theirs from the next one
        free = [i for i, x in enumerate(seats) if not x.get("player") and not x.get("next") and not x.get("for")]
        i = kept if kept is not None else (free[0] if free else None)
        if i is not None:
            seats[i] = {**seats[i], "next": me}
            return replace(s, seats=tuple(seats)), Seated(i, "next_hand")
    if s.rule is not None and s.bench is None:
        return replace(s, bench=me), Seated(len(seats), "bench")
    raise Refusal("seat.table_full" if s.status == "lobby" else "seat.none_left", status=409)


def _deal(s: Seating, cmd: Deal) -> tuple[Seating, Lineup]:
    if s.status == "finished":
        raise Refusal("match.over", status=409)
    seats, bench = [dict(x) for x in s.seats], s.bench
    if cmd.finished is not None:
        for i, x in enumerate(seats):  # friends who waited for this hand sit down
            if x.get("next"):
                seats[i] = {"player": x["next"]["player"], "name": x["next"]["name"], "bot": None}
        if bench and s.rule is not None and all(x.get("player") for x in seats):
            rests = sitout.rester(s.rule, cmd.finished, cmd.winner, len(seats))
            new, bench = sitout.swap(seats, bench, rests)
            seats = [dict(x) for x in new]
    out = replace(s, status="playing", seats=tuple(seats), bench=bench,
                  hand=0 if cmd.finished is None else cmd.finished + 1)
    return out, Lineup.of(out.seats, bench)


# -- the seat ledger ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lineup:
    """Who sat in each seat of one hand (a person or a bot), and who sat it out."""

    seats: tuple[dict, ...]  # {"player": id|None, "name": str|None, "bot": level|None}
    bench: dict | None = None

    @classmethod
    def of(cls, seats, bench: dict | None = None) -> Lineup:
        return cls(tuple({"player": x.get("player"), "name": x.get("name"),
                          "bot": None if x.get("player") else x.get("bot")} for x in seats),
                   {"player": bench["player"], "name": bench["name"]} if bench else None)

    def keys(self) -> list[str]:
        """Who earns each seat's points: the person, or the seat's bot (``bot:1``)."""
        return [sitout.person(x, i) for i, x in enumerate(self.seats)]

    def everyone(self) -> list[str]:
        """The seats' keys, then who sat the hand out (a four-person room's bench)."""
        return self.keys() + ([self.bench["player"]] if self.bench and self.bench.get("player") else [])

    def to_json(self) -> dict:
        return {"seats": [dict(x) for x in self.seats], "bench": self.bench}

    @classmethod
    def from_json(cls, data: dict) -> Lineup:
        return cls(tuple(dict(x) for x in data["seats"]), data.get("bench"))

    @classmethod
    def legacy(cls, keys: list | None, seats: list[dict], bench: dict | None) -> Lineup:
        """A hand stored before the seat ledger: a four-person room's list of keys (its settings'
        ``lineups``), else the room's seats as they are now (all that is known)."""
        if not keys:
            return cls.of(seats, None)
        names = {sitout.person(x, i): x for i, x in enumerate(seats)}
        if bench:
            names[bench["player"]] = {"player": bench["player"], "name": bench["name"]}
        table = [names.get(k) or {"player": k, "name": None} for k in keys[:len(seats)]]
        rest = keys[len(seats)] if len(keys) > len(seats) else None
        return cls.of(table, {"player": rest, "name": (names.get(rest) or {}).get("name")} if rest else None)


def hand_lineups(games: list[dict], room: dict) -> dict[int, Lineup]:
    """Each stored hand's lineup by hand index (``games``: ``Store.games_of``'s rows)."""
    four = (room.get("settings") or {}).get("four") or {}
    old = four.get("lineups") or []
    out = {}
    for g in games:
        h = g["hand_index"]
        if g.get("lineup"):
            out[h] = Lineup.from_json(g["lineup"])
        else:
            out[h] = Lineup.legacy(old[h] if h < len(old) else None, room["seats"], four.get("bench"))
    return out


def person_totals(hands: list[tuple[Lineup, list[int]]]) -> dict[str, int]:
    """Each person's (and each bot's) points over the hands they played.

    >>> a = Lineup.of([{"player": "a", "name": "A"}, {"bot": "greedy"}, {"bot": "greedy"}])
    >>> b = Lineup.of([{"player": "a", "name": "A"}, {"player": "b", "name": "B"}, {"bot": "greedy"}])
    >>> person_totals([(a, [4, -2, -2]), (b, [1, 2, -3])])
    {'a': 5, 'bot:1': -2, 'bot:2': -5, 'b': 2}
    """
    out: dict[str, int] = {}
    for lineup, totals in hands:
        for key in lineup.keys():
            out.setdefault(key, 0)
        for key, v in zip(lineup.keys(), totals or []):
            out[key] += v
    return out


def people(lineups: list[Lineup]) -> list[tuple[str, str | None, str | None]]:
    """Everyone who played or sat out a hand, in order of first appearance: (key, name, bot level)."""
    seen: dict[str, tuple[str, str | None, str | None]] = {}
    for lineup in lineups:
        for key, x in zip(lineup.keys(), lineup.seats):
            seen.setdefault(key, (key, x.get("name"), x.get("bot")))
        if lineup.bench and lineup.bench.get("player"):
            seen.setdefault(lineup.bench["player"], (lineup.bench["player"], lineup.bench.get("name"), None))
    return list(seen.values())


def match_record(room: dict, finished: list[dict], player: str | None = None, seat: int | None = None) -> dict:
    """A match as 战绩 lists it: everyone who played (people and seats' bots, in order of first
    appearance, then anyone seated who has not played yet), each one's total over the hands they
    played, and where ``player`` is in that list (``finished``: the finished hands, each with its
    ``hand_index``, ``totals`` and stored ``lineup``)."""
    lineups = hand_lineups(finished, room)
    ordered = [lineups[g["hand_index"]] for g in finished]
    four = (room.get("settings") or {}).get("four") or {}
    now = Lineup.of(room["seats"], four.get("bench"))
    everyone = people(ordered + [now])
    totals = person_totals([(lineups[g["hand_index"]], g["totals"]) for g in finished])
    keys = [k for k, _, _ in everyone]
    return {"names": [name for _, name, _ in everyone], "bots": [bot for _, _, bot in everyone],
            "totals": [totals.get(k, 0) for k in keys],
            "seat": keys.index(player) if player in keys else seat}
