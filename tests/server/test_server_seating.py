"""Who sits where, in which hand: ``server/seating.py``'s one transition driven by hypothesis's
stateful testing over random interleavings of joins, deals and the match's end, by several people,
with the invariants checked after every step; and the seat ledger's sums."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule  # noqa: E402

from majiang.server.errors import Refusal  # noqa: E402
from majiang.server.seating import Deal, Finish, Join, Lineup, Seating, person_totals, step  # noqa: E402

PEOPLE = ["host", "ana", "bo", "cy", "di", "ed"]


class RoomSeating(RuleBasedStateMachine):
    """A room from its creation (the host in seat 0, bots elsewhere, some seats kept for a
    rematch's players) through joins, deals and its end; a ledger of every hand's lineup and
    points beside it, as the server keeps them."""

    @initialize(n=st.sampled_from([3, 4]), four=st.booleans(), kept=st.sets(st.sampled_from(PEOPLE[1:4]), max_size=2),
                rule=st.sampled_from(["winner", "rotate"]))
    def create(self, n, four, kept, rule):
        seats = [{"player": "host", "name": "host", "bot": None}]
        for i, k in enumerate(sorted(kept)[: n - 1]):
            seats.append({"player": None, "name": None, "bot": "greedy", "for": k})
        while len(seats) < n:
            seats.append({"player": None, "name": None, "bot": "greedy"})
        self.four = four and n == 3
        self.kept = {s["for"]: i for i, s in enumerate(seats) if s.get("for")}
        self.s = Seating("lobby", tuple(seats), rule if self.four else None, None)
        self.hands: list[tuple[Lineup, list[int]]] = []
        self.points: dict[str, int] = {}

    @rule(who=st.sampled_from(PEOPLE))
    def join(self, who):
        before = self.s
        try:
            self.s, seated = step(self.s, Join(who, who))
        except Refusal as refusal:
            assert refusal.code in ("match.over", "seat.table_full", "seat.none_left")
            assert self.s == before  # a refusal changes nothing
            return
        assert self.s.place_of(who) is not None
        if who in self.kept and before.place_of(who) == ("kept", self.kept[who]):
            assert seated.seat == self.kept[who]  # a kept seat is its owner's
        again, twice = step(self.s, Join(who, who))
        assert again == self.s and twice.seat == seated.seat and not twice.changed  # asking twice: one place

    @precondition(lambda self: self.s.status != "finished")
    @rule(dealer=st.integers(0, 3), points=st.lists(st.integers(-8, 8), min_size=4, max_size=4))
    def deal(self, dealer, points):
        finished = None if self.s.status == "lobby" else self.s.hand
        before = self.s
        self.s, lineup = step(self.s, Deal(finished, winner=dealer % len(self.s.seats)))
        assert self.s.hand == (0 if finished is None else finished + 1)
        # everyone waiting for this hand sits down; nobody else moves but a four-person room's swap
        for i, (old, new) in enumerate(zip(before.seats, self.s.seats)):
            if old.get("next"):  # (or, in a four-person room, sits out this hand: the swap came after)
                assert old["next"]["player"] in (new["player"], (self.s.bench or {}).get("player"))
        for who, i in list(self.kept.items()):
            if self.s.place_of(who) in (("seat", i), ("bench", len(self.s.seats))):
                del self.kept[who]  # taken: an ordinary seat from now on
        totals = points[: len(self.s.seats)]
        totals[-1] -= sum(totals)  # a hand's points sum to zero
        self.hands.append((lineup, totals))
        for key, v in zip(lineup.keys(), totals):
            self.points[key] = self.points.get(key, 0) + v

    @rule()
    def finish(self):
        self.s, _ = step(self.s, Finish())

    @invariant()
    def a_person_holds_at_most_one_place(self):
        places = []
        for s in self.s.seats:  # a seat kept for someone who is to take it from the next hand: one place
            held = {s.get("player"), (s.get("next") or {}).get("player"), None if s.get("player") else s.get("for")}
            places += [p for p in held if p]
        if self.s.bench:
            places.append(self.s.bench["player"])
        assert len(places) == len(set(places)), self.s

    @invariant()
    def a_seat_holds_one_person_a_hand(self):
        for lineup, _ in self.hands:
            people = [k for k in lineup.keys() if not k.startswith("bot:")]
            assert len(people) == len(set(people))
            assert lineup.bench is None or lineup.bench["player"] not in people

    @invariant()
    def every_hand_has_one_lineup_and_totals_are_sums_over_the_hands_played(self):
        assert self.s.hand == len(self.hands) - 1
        assert person_totals(self.hands) == {k: v for k, v in self.points.items()} | {
            k: self.points.get(k, 0) for lineup, _ in self.hands for k in lineup.keys()}

    @invariant()
    def a_kept_seat_goes_to_nobody_else(self):
        for who, i in self.kept.items():
            seat = self.s.seats[i]
            holder = seat.get("player") or (seat.get("next") or {}).get("player")
            assert holder in (None, who), (who, seat)
            if holder is None:
                assert seat.get("for") == who

    @invariant()
    def a_finished_match_seats_nobody(self):
        if self.s.status == "finished":
            with pytest.raises(Refusal):
                newcomer = "zz"
                step(self.s, Join(newcomer, newcomer))


TestRoomSeating = RoomSeating.TestCase
TestRoomSeating.settings = __import__("hypothesis").settings(max_examples=300, stateful_step_count=30)


def test_a_late_joiner_and_the_bot_they_relieve_each_keep_their_own_points():
    bot = Lineup.of([{"player": "a", "name": "A"}, {"bot": "greedy"}, {"bot": "greedy"}])
    friend = Lineup.of([{"player": "a", "name": "A"}, {"player": "b", "name": "B"}, {"bot": "greedy"}])
    totals = person_totals([(bot, [4, -2, -2]), (bot, [-1, 2, -1]), (friend, [0, 3, -3])])
    assert totals == {"a": 3, "bot:1": 0, "bot:2": -6, "b": 3}
