"""The match as a state machine, and its score ledger.

    waiting ──▶ ready check ──▶ playing ◀──▶ between hands
       └────────────────────────▲  │                │
                                   ├──▶ finished     │
                                   └──▶ dissolved ◀──┘

A room is stored with one of three status strings (``lobby``, ``playing``, ``finished``); each state
says which it is stored as, so stored rooms and the page read as before. The finer states come from
the stored match state (the pending start, the dissolve) and the hand in play.
"""

from __future__ import annotations

import enum

from majiang.server.errors import InfrastructureError


class MatchState(enum.Enum):
    WAITING = "waiting"  # for players (the lobby)
    READY_CHECK = "ready_check"  # the host asked to start: 准备 of every seated human, or its timer
    PLAYING = "playing"  # a hand in play
    BETWEEN_HANDS = "between_hands"  # a hand is over, the next one waits for 准备
    FINISHED = "finished"
    DISSOLVED = "dissolved"  # ended by a 解散 vote

    @property
    def status(self) -> str:
        """The room's stored status string."""
        return STATUS[self]

    @property
    def in_play(self) -> bool:
        return self in (MatchState.PLAYING, MatchState.BETWEEN_HANDS)

    @property
    def over(self) -> bool:
        return self in (MatchState.FINISHED, MatchState.DISSOLVED)


STATUS = {MatchState.WAITING: "lobby", MatchState.READY_CHECK: "lobby", MatchState.PLAYING: "playing",
          MatchState.BETWEEN_HANDS: "playing", MatchState.FINISHED: "finished", MatchState.DISSOLVED: "finished"}
ALLOWED = {
    MatchState.WAITING: {MatchState.READY_CHECK, MatchState.PLAYING},
    MatchState.READY_CHECK: {MatchState.PLAYING},
    MatchState.PLAYING: {MatchState.BETWEEN_HANDS, MatchState.FINISHED, MatchState.DISSOLVED},
    MatchState.BETWEEN_HANDS: {MatchState.PLAYING, MatchState.FINISHED, MatchState.DISSOLVED},
    MatchState.FINISHED: set(),
    MatchState.DISSOLVED: set(),
}


class IllegalTransition(InfrastructureError):
    """The match cannot go from its state to the one asked (a bug or a stale request): the server's
    own state machine, not the client's input, so no ``ValueError``."""

    code = "request.refused"


def initial_state(status: str, start_asked: bool = False, hand_over: bool = False,
                  dissolved: bool = False) -> MatchState:
    """The state a stored room (and its stored match state) resumes in.

    >>> initial_state("lobby", start_asked=True), initial_state("playing", hand_over=True)
    (<MatchState.READY_CHECK: 'ready_check'>, <MatchState.BETWEEN_HANDS: 'between_hands'>)
    """
    if status == "finished":
        return MatchState.DISSOLVED if dissolved else MatchState.FINISHED
    if status == "playing":
        return MatchState.BETWEEN_HANDS if hand_over else MatchState.PLAYING
    if status == "lobby":
        return MatchState.READY_CHECK if start_asked else MatchState.WAITING
    raise IllegalTransition(f"unknown room status {status!r}")


class Ledger:
    """Match points so far, by whoever earned them (the seat ledger's keys, ``seating.Lineup.keys``):
    a person, who may arrive mid-match or move between seats in a four-person room, or a seat's bot
    (``bot:1``), which keeps its own results when a friend takes its seat."""

    def __init__(self) -> None:
        self.points: dict[str, int] = {}

    def add(self, keys: list[str], totals: list[int]) -> None:
        for key in keys:
            self.points.setdefault(key, 0)
        for key, v in zip(keys, totals):
            self.points[key] += v

    def of(self, key: str) -> int:
        return self.points.get(key, 0)

    @property
    def by_person(self) -> dict[str, int]:
        return dict(self.points)

    def seat_totals(self, keys: list[str], current: list[int]) -> list[int]:
        """Each seat's match total including the hand in play: the points of whoever sits there now."""
        return [self.of(k) + c for k, c in zip(keys, current)]
