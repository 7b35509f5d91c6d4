"""A room's life as one pure transition: ``step(state, command, now) -> (state, effects)``.

Every change to a room — a join, the host's start, 准备, 托管 on and off, a missed timer, a lost
connection's 托管, a 解散 vote, the first deal and the next, a hand's end, the rematch offer — is a
command applied here. ``step`` does no I/O (no asyncio, store, socket or view): it answers the new
state and the effects the driver must carry out (``Save``: store the match state; ``TakeSeat``: store
a join; ``StartHand``: store a deal with the room's change in one transaction; ``EndMatch``: store
the room finished). The driver (``live_table``) keeps the state it had until the effects are
stored, so a refusal (``Refusal``) or a failed store changes nothing. What is not a command is a
query (``waiting_for``, ``is_ready``, ``all_away``, ``vote_view``): pure functions of the state.

``tests/server/test_server_room_machine.py`` drives ``step`` with hypothesis's stateful testing over random
interleavings of every command from several people and bots, and checks after every step that a seat
holds at most one person per hand, a person at most one place, every hand exactly one lineup, each
person's totals the sum over the hands they played, a finished or dissolved match accepts nothing but
a rematch offer (and the news that a player is back from 托管, which changes nothing of the match),
and a kept rematch seat is its owner's.

The stored match state (``rooms.match_state``) is ``to_json``'s text, as before this module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from majiang.server.clock import MISSES_BEFORE_AUTO
from majiang.server.errors import Refusal
from majiang.server.match import ALLOWED, IllegalTransition, MatchState, initial_state
from majiang.server.seating import Deal, Join, Lineup, Seated, Seating
from majiang.server.seating import step as seat_step

DISSOLVE_SECONDS = 60.0  # a 解散 vote lapses after this
DISSOLVE_GAP = 30.0  # one seat starts at most one vote in this many seconds



@dataclass(frozen=True)
class Vote:
    """An open 解散 vote: who asked, who agreed so far, when it lapses (wall-clock seconds)."""

    by: int
    votes: frozenset[int]
    until: float


@dataclass(frozen=True)
class RoomState:
    """Everything a room's rules decide on: its seats (``Seating``: status, seats, bench, the hand in
    play), the match's state, the host, and the stored match state (准备, the pending start, 托管 and
    missed timers, the 解散 vote, the rematch offer)."""

    seating: Seating
    match: MatchState
    host: str | None
    ready: tuple[bool, ...]
    auto: tuple[bool, ...]
    missed: tuple[int, ...]
    start_asked: float | None = None
    vote: Vote | None = None
    vote_started: tuple[float, ...] = ()  # when each seat last started a vote (wall-clock)
    rematch: dict | None = None  # {"code", "by"}: the room a player opened to play again
    ending: frozenset[int] = field(default=frozenset(), compare=False)  # 托管 asked off in a held window

    @property
    def n(self) -> int:
        return len(self.seating.seats)

    @property
    def hand(self) -> int:
        return max(self.seating.hand, 0)

    def human(self, seat: int) -> bool:
        return bool(self.seating.seats[seat].get("player"))

    def humans(self) -> list[int]:
        return [s for s in range(self.n) if self.human(s)]

    @property
    def host_seat(self) -> int | None:
        ids = [s.get("player") for s in self.seating.seats]
        return ids.index(self.host) if self.host in ids else None

    @property
    def dissolved(self) -> bool:
        return self.match is MatchState.DISSOLVED

    # -- stored form ------------------------------------------------------------------------------

    def fields(self) -> dict:
        """The match state as stored (``rooms.match_state``)."""
        v = self.vote
        return {"hand": self.hand, "auto": list(self.auto), "missed": list(self.missed), "ready": list(self.ready),
                "start_asked": self.start_asked,
                "dissolve": None if v is None else {"by": v.by, "votes": sorted(v.votes), "until": v.until},
                "rematch": dict(self.rematch) if self.rematch is not None else None, "dissolved": self.dissolved}

    def to_json(self) -> str:
        return json.dumps(self.fields(), sort_keys=True)

    @classmethod
    def of_room(cls, room: dict, hand: int = -1, hand_over: bool = False, now: float = 0.0) -> RoomState:
        """A stored room and its stored match state (``room["match_state"]``), the hand in play given."""
        seating = Seating.of_room(room, hand)
        n = len(seating.seats)
        try:
            data = json.loads(room.get("match_state") or "{}")
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}

        def flags(key: str, kind) -> tuple:
            values = data.get(key)
            return tuple(kind(v) for v in values) if isinstance(values, list) and len(values) == n else (kind(0),) * n
        ready = flags("ready", bool) if data.get("hand") == max(hand, 0) else (False,) * n  # said for this hand only
        asked = data.get("start_asked")
        start_asked = float(asked) if isinstance(asked, (int, float)) else None
        vote = None
        d = data.get("dissolve")
        if isinstance(d, dict):
            vote = Vote(int(d["by"]), frozenset(int(s) for s in d.get("votes", [])), float(d["until"]))
            if now and now >= vote.until:
                vote = None  # lapsed while the server was away
        r = data.get("rematch")
        rematch = {"code": r["code"], "by": r["by"]} if (
            isinstance(r, dict) and isinstance(r.get("code"), str) and isinstance(r.get("by"), int)) else None
        match = initial_state(room["status"], start_asked is not None, hand_over, bool(data.get("dissolved")))
        return cls(seating, match, room.get("host"), ready, flags("auto", bool), flags("missed", int),
                   start_asked, vote, (-DISSOLVE_GAP,) * n, rematch)

    def room_seats(self) -> list[dict]:
        return [dict(s) for s in self.seating.seats]


# -- commands ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AskStart:
    """The host asks to deal the first hand (dealt at once when every seated human is ready)."""


@dataclass(frozen=True)
class StartDue:
    """The first hand is dealt: everyone is ready, or the ready timer ran out."""


@dataclass(frozen=True)
class Ready:
    seat: int


@dataclass(frozen=True)
class SetAuto:
    """托管 asked for (``on``) or ended (any tap while it plays); ``holding``: a claim window nobody
    was shown is open (托管 answers it before it ends)."""

    seat: int
    on: bool
    holding: bool = False


@dataclass(frozen=True)
class Back:
    """The player is back (an action, or a reconnect): 托管 and missed timers end."""

    seat: int
    holding: bool = False


@dataclass(frozen=True)
class WindowClosed:
    """The held claim window closed: 托管 asked off meanwhile ends now."""


@dataclass(frozen=True)
class TimedOut:
    """A seat's decision timer ran out (``away``: its connection is lost, 托管 at once)."""

    seat: int
    away: bool = False


@dataclass(frozen=True)
class CastVote:
    seat: int
    agree: bool


@dataclass(frozen=True)
class Act:
    """A player's (or a bot's) move in the hand: the room accepts it only while a hand is in play."""

    seat: int


@dataclass(frozen=True)
class HandOver:
    """The hand in play ended (stored with its last move)."""


@dataclass(frozen=True)
class NextHand:
    """Deal the next hand; ``winner``: the seat a four-person room's ``winner`` rule rests."""

    winner: int = 0


@dataclass(frozen=True)
class OfferRematch:
    code: str
    by: int


Command = (Join | AskStart | StartDue | Ready | SetAuto | Back | WindowClosed | TimedOut | CastVote | Act
           | HandOver | NextHand | OfferRematch)


# -- effects ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Save:
    """Store the match state (``RoomState.to_json``)."""


@dataclass(frozen=True)
class TakeSeat:
    """Store a join: the seats (and a four-person room's settings, when its bench changed)."""

    seated: Seated
    seats: list[dict]
    settings: dict | None


@dataclass(frozen=True)
class StartHand:
    """Deal a hand: store its first lines, its lineup, the room's change (``room_values``) and the
    match state, in one transaction. ``reseated``: seats with a new person (托管 was the last one's)."""

    lineup: Lineup
    room_values: dict
    reseated: tuple[int, ...] = ()


@dataclass(frozen=True)
class EndMatch:
    """Store the room finished (a 解散 carried) with its match state."""


Effect = Save | TakeSeat | StartHand | EndMatch | Seated  # (a ``Seated``: a join that changed nothing)


# -- queries ----------------------------------------------------------------------------------------


def waiting_for(state: RoomState) -> list[int]:
    """Seated humans, the host aside (starting is the host's 准备), not yet ready in the lobby."""
    host = state.host_seat
    return [s for s in state.humans() if s != host and not state.ready[s]]


def all_away(state: RoomState, present: set[int] | frozenset[int]) -> bool:
    """Every seated human is in 托管 or gone and none said 准备: bots alone would play the match
    out while nobody watches, so the next hand waits for one of them."""
    humans = state.humans()
    return bool(humans) and all((state.auto[s] or s not in present) and not state.ready[s] for s in humans)


def is_ready(state: RoomState, seat: int, present: set[int] | frozenset[int]) -> bool:
    """A bot's seat; a player who said 准备; a seat in 托管 with its page open (unless all are away)."""
    return (state.ready[seat] or not state.human(seat)
            or (state.auto[seat] and seat in present and not all_away(state, present)))


def everyone_ready(state: RoomState, present: set[int] | frozenset[int]) -> bool:
    return all(is_ready(state, s, present) for s in range(state.n))


def current_vote(state: RoomState, now: float) -> Vote | None:
    v = state.vote
    return None if v is None or now >= v.until else v


def vote_view(state: RoomState, now: float) -> dict | None:
    """The open 解散 vote as everyone sees it (None when there is none or it lapsed)."""
    v = current_vote(state, now)
    if v is None:
        return None
    return {"by": v.by, "votes": [True if s in v.votes else None for s in range(state.n)],
            "deadline": int(v.until * 1000)}


# -- the transition ---------------------------------------------------------------------------------


def advance(state: RoomState, new: MatchState) -> RoomState:
    """The match moved to ``new`` (only where ``match.ALLOWED`` lets it go), the room's status with it."""
    if new is state.match:
        return state
    if new not in ALLOWED[state.match]:
        raise IllegalTransition(f"the match cannot go from {state.match.value} to {new.value}")
    status = {MatchState.WAITING: "lobby", MatchState.READY_CHECK: "lobby"}.get(
        new, "playing" if new.in_play else "finished")
    return replace(state, match=new, seating=replace(state.seating, status=status))


def _set(values: tuple, i: int, v: Any) -> tuple:
    return values[:i] + (v,) + values[i + 1:]


def _seat(state: RoomState, seat: int) -> None:
    if not (isinstance(seat, int) and 0 <= seat < state.n):
        raise Refusal("seat.spectator")


def step(state: RoomState, command: Command, now: float) -> tuple[RoomState, tuple[Effect, ...]]:
    """Apply one command: the new state and what the driver must store (in order), or a
    ``Refusal`` and nothing changed."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"not a room command: {command!r}")
    if state.match.over and not (isinstance(command, (OfferRematch, Join, Back, WindowClosed))
                                 or (isinstance(command, SetAuto) and not command.on)):
        # a finished or dissolved match accepts only a rematch (and the news that a player is back
        # from 托管: a tap on the settlement, which changes nothing of the match)
        raise Refusal("match.over", status=409)
    return handler(state, command, now)


def _join(state: RoomState, cmd: Join, now: float):
    seating, seated = seat_step(state.seating, cmd)
    if not seated.changed:
        return state, (seated,)  # there already: where (nothing to store)
    settings = seating.settings(None) if seating.bench != state.seating.bench else None
    return replace(state, seating=seating), (TakeSeat(seated, [dict(s) for s in seating.seats], settings),)


def _ask_start(state: RoomState, cmd: AskStart, now: float):
    if state.match not in (MatchState.WAITING, MatchState.READY_CHECK):
        return state, ()
    if not waiting_for(state):
        return _start(state, StartDue(), now)
    if state.start_asked is not None:
        return state, ()
    return advance(replace(state, start_asked=now), MatchState.READY_CHECK), (Save(),)


def _start(state: RoomState, cmd: StartDue, now: float):
    if state.match not in (MatchState.WAITING, MatchState.READY_CHECK):
        return state, ()
    seating, lineup = seat_step(state.seating, Deal())
    n = state.n
    new = replace(state, seating=seating, start_asked=None, ready=(False,) * n)
    new = replace(new, match=MatchState.PLAYING)
    return new, (StartHand(lineup, {"status": "playing"}),)


def _ready(state: RoomState, cmd: Ready, now: float):
    _seat(state, cmd.seat)
    if state.match not in (MatchState.WAITING, MatchState.READY_CHECK, MatchState.BETWEEN_HANDS):
        raise Refusal("ready.no_next_hand")
    if state.ready[cmd.seat]:
        return state, ()
    return replace(state, ready=_set(state.ready, cmd.seat, True)), (Save(),)


def _set_auto(state: RoomState, cmd: SetAuto, now: float):
    _seat(state, cmd.seat)
    if not cmd.on and cmd.holding and state.auto[cmd.seat]:
        return replace(state, ending=state.ending | {cmd.seat}), ()  # the unseen window is still 托管's
    new = replace(state, auto=_set(state.auto, cmd.seat, bool(cmd.on)), missed=_set(state.missed, cmd.seat, 0))
    return new, ((Save(),) if new != state else ())


def _back(state: RoomState, cmd: Back, now: float):
    _seat(state, cmd.seat)
    if cmd.holding and state.auto[cmd.seat]:
        return replace(state, ending=state.ending | {cmd.seat}), ()
    new = replace(state, auto=_set(state.auto, cmd.seat, False), missed=_set(state.missed, cmd.seat, 0))
    return new, ((Save(),) if new != state else ())


def _window_closed(state: RoomState, cmd: WindowClosed, now: float):
    if not state.ending:
        return state, ()
    auto, missed = list(state.auto), list(state.missed)
    for s in state.ending:
        auto[s], missed[s] = False, 0
    new = replace(state, auto=tuple(auto), missed=tuple(missed), ending=frozenset())
    return new, ((Save(),) if new != state else ())


def _timed_out(state: RoomState, cmd: TimedOut, now: float):
    _seat(state, cmd.seat)
    if cmd.away:
        new = replace(state, auto=_set(state.auto, cmd.seat, True))
    else:
        missed = state.missed[cmd.seat] + 1
        new = replace(state, missed=_set(state.missed, cmd.seat, missed))
        if missed >= MISSES_BEFORE_AUTO:
            new = replace(new, auto=_set(new.auto, cmd.seat, True))
    return new, ((Save(),) if new != state else ())


def _cast_vote(state: RoomState, cmd: CastVote, now: float):
    _seat(state, cmd.seat)
    if not state.match.in_play:
        raise Refusal("dissolve.not_playing")
    vote = current_vote(state, now)
    started = state.vote_started or (-DISSOLVE_GAP,) * state.n
    if vote is None:
        if not cmd.agree:
            raise Refusal("dissolve.no_vote")
        if now - started[cmd.seat] < DISSOLVE_GAP:
            raise Refusal("dissolve.too_soon")
        started = _set(started, cmd.seat, now)
        vote = Vote(cmd.seat, frozenset(), now + DISSOLVE_SECONDS)
    if not cmd.agree:
        return replace(state, vote=None, vote_started=started), (Save(),)
    vote = replace(vote, votes=vote.votes | {cmd.seat})
    new = replace(state, vote=vote, vote_started=started)
    if all(s in vote.votes for s in state.humans()):
        return advance(replace(new, vote=None), MatchState.DISSOLVED), (EndMatch(),)
    return new, (Save(),)


def _act(state: RoomState, cmd: Act, now: float):
    if state.match is MatchState.PLAYING:
        return state, ()
    if state.match is MatchState.BETWEEN_HANDS:
        raise Refusal("hand.over")
    raise Refusal("match.not_started")


def _hand_over(state: RoomState, cmd: HandOver, now: float):
    if state.match is not MatchState.PLAYING:
        return state, ()
    last = state.hand + 1 >= _hands(state)
    return advance(state, MatchState.FINISHED if last else MatchState.BETWEEN_HANDS), ()


def _hands(state: RoomState) -> int:
    return state.seating.hands


def _next_hand(state: RoomState, cmd: NextHand, now: float):
    if state.match is not MatchState.BETWEEN_HANDS:
        return state, ()
    before = state.seating
    seating, lineup = seat_step(before, Deal(finished=before.hand, winner=cmd.winner))
    changed: dict[str, Any] = {}
    if seating.seats != before.seats:
        changed["seats"] = [dict(s) for s in seating.seats]
    if seating.bench != before.bench:
        changed["settings"] = seating.settings(None)
    reseated = tuple(i for i in range(state.n)
                     if seating.seats[i].get("player") != before.seats[i].get("player"))
    auto, missed = list(state.auto), list(state.missed)
    for i in reseated:  # 托管 and missed timers were the last person's
        auto[i], missed[i] = False, 0
    new = replace(state, seating=seating, match=MatchState.PLAYING, ready=(False,) * state.n,
                  auto=tuple(auto), missed=tuple(missed))
    return new, (StartHand(lineup, changed, reseated),)


def _offer_rematch(state: RoomState, cmd: OfferRematch, now: float):
    if not state.match.over:
        raise Refusal("match.not_over", status=409)
    if state.rematch is not None:
        return state, ()
    return replace(state, rematch={"code": cmd.code, "by": cmd.by}), (Save(),)


_HANDLERS: dict[type, Any] = {
    Join: _join, AskStart: _ask_start, StartDue: _start, Ready: _ready, SetAuto: _set_auto, Back: _back,
    WindowClosed: _window_closed, TimedOut: _timed_out, CastVote: _cast_vote, Act: _act, HandOver: _hand_over,
    NextHand: _next_hand, OfferRematch: _offer_rematch,
}
