"""A room's life as one pure transition (``server/room.py``), driven by hypothesis's stateful testing
over random interleavings of every command — joins, the start, 准备, 托管 on and off, missed timers,
lost connections, 解散 votes, moves, hands ending, next deals, sit-out swaps, rematch offers — from
several people and bots, with the room's invariants checked after every step."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("fastapi")

from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule  # noqa: E402

from majiang.server import room as r  # noqa: E402
from majiang.server.errors import Refusal  # noqa: E402
from majiang.server.match import MatchState  # noqa: E402
from majiang.server.seating import Join, Lineup, person_totals  # noqa: E402

PEOPLE = ["host", "ana", "bo", "cy", "di", "ed"]
SEAT = st.integers(0, 3)


class RoomMachine(RuleBasedStateMachine):
    """A room from its creation through everything its people and its driver do; beside it, a ledger
    of every dealt hand's lineup and points, and the seats as they were when each hand ended."""

    @initialize(n=st.sampled_from([3, 4]), four=st.booleans(), hands=st.integers(1, 4),
                kept=st.sets(st.sampled_from(PEOPLE[1:4]), max_size=2), rule=st.sampled_from(["winner", "rotate"]))
    def create(self, n, four, hands, kept, rule):
        seats = [{"player": "host", "name": "host", "bot": None}]
        for k in sorted(kept)[: n - 1]:
            seats.append({"player": None, "name": None, "bot": "greedy", "for": k})
        while len(seats) < n:
            seats.append({"player": None, "name": None, "bot": "greedy"})
        settings_ = {"four": {"rule": rule, "bench": None}} if four and n == 3 else {}
        room = {"code": "ABCD", "status": "lobby", "host": "host", "hands": hands, "seats": seats,
                "settings": settings_, "match_state": None}
        self.state = r.RoomState.of_room(room)
        self.kept = {s["for"]: i for i, s in enumerate(seats) if s.get("for")}
        self.now = 1000.0
        self.present: set[int] = {0}
        self.lineups: list[Lineup] = []  # each dealt hand's, in order
        self.hands: list[tuple[Lineup, list[int]]] = []  # the finished ones, with their points
        self.points: dict[str, int] = {}  # by whoever sat in each seat when the hand ended
        self.in_hand: Lineup | None = None

    def apply(self, command, allowed=()):
        """Step; on a refusal the state must be exactly as before (nothing half-changed)."""
        before = self.state
        snapshot = copy.deepcopy(before.fields()), copy.deepcopy(before.seating)
        try:
            self.state, effects = r.step(self.state, command, self.now)
        except Refusal as refusal:
            assert refusal.code in allowed + ("match.over",), (command, refusal.code)
            assert self.state is before and (before.fields(), before.seating) == snapshot
            if before.match.over:
                assert not isinstance(command, r.OfferRematch)
            return None
        back = isinstance(command, (r.Back, r.WindowClosed)) or (isinstance(command, r.SetAuto) and not command.on)
        assert not before.match.over or back or isinstance(command, (r.OfferRematch, Join)), command  # a rematch
        if before.match.over:  # (news that a player is back from 托管 changes nothing of the match)
            assert self.state.seating.seats == before.seating.seats or isinstance(command, (r.OfferRematch, Join))
            assert self.state.match is before.match
        for e in effects:
            if isinstance(e, r.StartHand):
                self.lineups.append(e.lineup)
                self.in_hand = e.lineup
                assert self.state.seating.hand == len(self.lineups) - 1  # one lineup per dealt hand
                assert Lineup.of(self.state.seating.seats, self.state.seating.bench) == e.lineup
        return effects

    @rule(who=st.sampled_from(PEOPLE))
    def join(self, who):
        effects = self.apply(Join(who, who), ("seat.table_full", "seat.none_left"))
        if effects is None:
            return
        if who in self.kept:
            assert self.state.seating.place_of(who)[1] == self.kept[who]  # a kept seat is its owner's

    @rule()
    def ask_start(self):
        self.apply(r.AskStart())

    @rule()
    def start_due(self):
        self.apply(r.StartDue())

    @rule(seat=SEAT)
    def ready(self, seat):
        if seat < self.state.n:
            self.apply(r.Ready(seat), ("ready.no_next_hand",))

    @rule(seat=SEAT, on=st.booleans(), holding=st.booleans())
    def auto(self, seat, on, holding):
        if seat < self.state.n:
            self.apply(r.SetAuto(seat, on, holding))

    @rule(seat=SEAT, holding=st.booleans())
    def back(self, seat, holding):
        if seat < self.state.n:
            self.apply(r.Back(seat, holding))
            self.present.add(seat)

    @rule(seat=SEAT)
    def leave(self, seat):
        self.present.discard(seat)

    @rule()
    def window_closed(self):
        if self.apply(r.WindowClosed()) is not None:
            assert not self.state.ending

    @rule(seat=SEAT, away=st.booleans())
    def timed_out(self, seat, away):
        if seat < self.state.n:
            self.apply(r.TimedOut(seat, away))

    @rule(seat=SEAT, agree=st.booleans())
    def vote(self, seat, agree):
        if seat < self.state.n:
            self.apply(r.CastVote(seat, agree), ("dissolve.not_playing", "dissolve.no_vote", "dissolve.too_soon"))

    @rule(seat=SEAT)
    def act(self, seat):
        before = self.state
        if self.apply(r.Act(seat % self.state.n), ("hand.over", "match.not_started")) is not None:
            assert before.match is MatchState.PLAYING

    @rule(points=st.lists(st.integers(-8, 8), min_size=4, max_size=4))
    def hand_over(self, points):
        playing = self.state.match is MatchState.PLAYING
        self.apply(r.HandOver())
        if playing:
            lineup = self.in_hand
            assert lineup is not None
            # the seats at the hand's end are the lineup it was dealt with (joins wait for the next hand)
            assert [s.get("player") for s in self.state.seating.seats] == [x["player"] for x in lineup.seats]
            totals = points[: self.state.n]
            self.hands.append((lineup, totals))
            for i, x in enumerate(self.state.seating.seats):
                key = x.get("player") or f"bot:{i}"
                self.points[key] = self.points.get(key, 0) + totals[i]
            if self.state.hand + 1 >= self.state.seating.hands:
                assert self.state.match is MatchState.FINISHED

    @rule(winner=SEAT)
    def next_hand(self, winner):
        self.apply(r.NextHand(winner % self.state.n))

    @rule(by=SEAT)
    def rematch(self, by):
        before = self.state.rematch
        self.apply(r.OfferRematch("WXYZ", by % self.state.n), ("match.not_over",))
        if before is not None:
            assert self.state.rematch == before  # one rematch per match

    @rule(seconds=st.sampled_from([1.0, 10.0, 31.0, 61.0]))
    def wait(self, seconds):
        self.now += seconds

    @invariant()
    def one_place_each(self):
        s = self.state.seating
        places = [x.get("player") for x in s.seats if x.get("player")]
        places += [x["next"]["player"] for x in s.seats if x.get("next")]
        places += [x["for"] for x in s.seats if x.get("for") and not x.get("player") and not x.get("next")]
        if s.bench:
            places.append(s.bench["player"])
        assert len(places) == len(set(places)), places  # a person holds at most one place

    @invariant()
    def lineups_have_distinct_people(self):
        for lineup in self.lineups:
            people = [x["player"] for x in lineup.seats if x.get("player")]
            if lineup.bench:
                people.append(lineup.bench["player"])
            assert len(people) == len(set(people))  # a seat one person, a person one seat, per hand

    @invariant()
    def totals_are_sums_over_hands_played(self):
        assert person_totals(self.hands) == self.points

    @invariant()
    def kept_seats(self):
        for who, i in self.kept.items():
            x = self.state.seating.seats[i]
            assert x.get("player") in (None, who) or self.state.seating.place_of(who) is not None
            if x.get("player") not in (None, who):
                assert x.get("for") is None  # a kept seat goes to nobody else
            if x.get("next"):
                assert x["next"]["player"] == who or not x.get("for")

    @invariant()
    def stored_state_reads_back(self):
        if self.state.match.over or self.state.seating.status == "lobby":
            return
        room = {"status": self.state.seating.status, "host": "host", "hands": self.state.seating.hands,
                "seats": self.state.room_seats(), "settings": self.state.seating.settings(None),
                "match_state": self.state.to_json()}
        back = r.RoomState.of_room(room, self.state.seating.hand, self.state.match is MatchState.BETWEEN_HANDS)
        assert back.fields() == self.state.fields()  # what is stored is what a restart resumes

    @invariant()
    def statuses_agree(self):
        assert self.state.seating.status == self.state.match.status


RoomMachine.TestCase.settings = settings(max_examples=300, stateful_step_count=40, deadline=None)
test_room_machine = RoomMachine.TestCase


def test_a_late_joiner_plays_the_next_hand():
    room = {"code": "ABCD", "status": "lobby", "host": "host", "hands": 2, "match_state": None, "settings": {},
            "seats": [{"player": "host", "name": "host", "bot": None}, {"player": None, "name": None, "bot": "greedy"},
                      {"player": None, "name": None, "bot": "greedy"}]}
    s = r.RoomState.of_room(room)
    s, (deal,) = r.step(s, r.AskStart(), 0.0)
    assert isinstance(deal, r.StartHand) and s.match is MatchState.PLAYING
    s, (seated,) = r.step(s, Join("ana", "Ana"), 1.0)
    assert seated.seated.how == "next_hand" and not s.human(1)
    s, _ = r.step(s, r.HandOver(), 2.0)
    s, (deal,) = r.step(s, r.NextHand(), 3.0)
    assert deal.lineup.keys() == ["host", "ana", "bot:2"] and deal.reseated == (1,)
    assert r.step(s, r.Act(1), 4.0)[1] == ()  # their first move is accepted


def test_a_dissolved_match_accepts_only_a_rematch():
    room = {"code": "ABCD", "status": "lobby", "host": "host", "hands": 4, "match_state": None, "settings": {},
            "seats": [{"player": "host", "name": "host", "bot": None}, {"player": "ana", "name": "Ana", "bot": None},
                      {"player": None, "name": None, "bot": "greedy"}]}
    s = r.RoomState.of_room(room)
    s, _ = r.step(s, r.AskStart(), 0.0)
    s, _ = r.step(s, r.Ready(1), 1.0)
    s, _ = r.step(s, r.StartDue(), 2.0)
    s, _ = r.step(s, r.CastVote(0, True), 3.0)
    s, effects = r.step(s, r.CastVote(1, True), 4.0)
    assert effects == (r.EndMatch(),) and s.match is MatchState.DISSOLVED and s.seating.status == "finished"
    for command in (r.Act(0), r.Ready(0), r.NextHand(), r.TimedOut(0), r.CastVote(0, True), r.AskStart()):
        with pytest.raises(Refusal) as refused:
            r.step(s, command, 5.0)
        assert refused.value.code == "match.over"
    s, effects = r.step(s, r.OfferRematch("WXYZ", 1), 6.0)
    assert s.rematch == {"code": "WXYZ", "by": 1} and effects == (r.Save(),)
