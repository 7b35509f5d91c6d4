"""The table's clock: decision timers, their deadlines, and the fairness rules of who moves when.

Every rule that decides *when* a seat's decision is taken for it lives here as a named function of
plain values, so each is tested without a table or a socket (tests/server/test_server_match.py). The
table's driver asks ``seat_due`` for each seat that has a decision and acts on the earliest.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from majiang.server.errors import Refusal

BOT_DELAY = 0.4  # seconds a bot "thinks" on its turn, so people can follow
ABSENT_AFTER = 5.0  # seconds after a disconnect before 托管 plays a seat that has to decide
WINDOWS = ("claim", "rob")
FROZEN_DELAY = 2.5  # seconds before a declared (frozen) hand plays its turn by itself
MISSES_BEFORE_AUTO = 2  # missed decisions in a row before 托管 takes the seat
AUTO_DELAY = 1.5  # seconds a seat in 托管 waits on its turn: a table of absent players goes at a person's pace


# The bots' pace, a room option (``timers.pace``): how long a bot waits before each move, as a
# multiple of the server's bot delay (0.4 s). 快 is the old pace, a bot's discard every 0.3-1.3 s and a
# 血战 hand in half a minute, too fast for a new player to follow; 标准, the default, about a second.
PACES = {"fast": 1.0, "normal": 2.5, "slow": 4.0}
DEFAULT_PACE = "normal"


@dataclass(frozen=True)
class TableSettings:
    """Per-room decision timers (seconds) and the bots' pace, chosen when the room is made."""

    turn_seconds: float = 15.0  # discard, kong, win on one's own turn; 换三张 and 定缺
    claim_seconds: float = 8.0  # 胡 / 碰 / 杠 / 过 on another's discard, and robbing a kong
    ready_seconds: float = 30.0  # reading the settlement before 准备 is pressed for you
    pace: str = DEFAULT_PACE  # the bots' pace: a key of PACES

    LIMITS = {"turn_seconds": (5, 300), "claim_seconds": (3, 120), "ready_seconds": (5, 600)}
    ROOM_STATE = ("four",)  # kept beside the timers in the room's settings: a four-person room's bench (sitout)

    @classmethod
    def from_json(cls, data: Any) -> "TableSettings":
        """Validated settings; raises ``MajiangError`` naming the bad field.

        >>> TableSettings.from_json({"turn_seconds": 20}).turn_seconds
        20.0
        >>> TableSettings.from_json({"turn_seconds": 1})
        Traceback (most recent call last):
        majiang.Refusal: turn_seconds must be a number from 5 to 300
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise Refusal("timers.not_object")
        values = {}
        for key, value in data.items():
            if key in cls.ROOM_STATE:
                continue
            if key == "pace":
                if not isinstance(value, str) or value not in PACES:
                    raise Refusal("timers.bad_pace", choices=", ".join(PACES))
                values[key] = value
                continue
            if key not in cls.LIMITS:
                raise Refusal("timers.unknown", choices=", ".join([*cls.LIMITS, "pace"]))
            lo, hi = cls.LIMITS[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
                raise Refusal("timers.out_of_range", timer=key, lo=lo, hi=hi)
            values[key] = float(value)
        return cls(**values)

    def to_json(self) -> dict:
        return {"turn_seconds": self.turn_seconds, "claim_seconds": self.claim_seconds,
                "ready_seconds": self.ready_seconds, "pace": self.pace}

    def bot_delay(self, server_delay: float) -> float:
        """A bot's wait before each move at this room's pace (the server's delay scaled)."""
        return server_delay * PACES[self.pace]

    def time_limit(self, phase: str | None) -> float:
        """A decision's timer: a claim window's is the claim timer, any other the turn timer."""
        return self.claim_seconds if phase in WINDOWS else self.turn_seconds


class DecisionClock:
    """When each seat's current decision began, and its number (answers to an older one are stale)."""

    def __init__(self, n: int, bot_delay: float) -> None:
        self.bot_delay = bot_delay
        self.decision_no = [0] * n  # bumps at each new decision of a seat: stale answers are refused
        self.decision_at = [0.0] * n  # wall-clock second that decision began
        self.bot_wait = [bot_delay] * n  # this decision's pause for a bot, jittered
        self.pending_ref: list[Any] = [None] * n

    def track(self, pending: list[Any]) -> None:
        """A seat's decision is new when the engine made a new list of options for it."""
        now = time.time()
        for s, ref in enumerate(pending):
            if ref is not None and ref is not self.pending_ref[s]:
                self.decision_no[s] += 1
                self.decision_at[s] = now
                self.bot_wait[s] = bot_pause_jitter(self.bot_delay)
            self.pending_ref[s] = ref

    def keep(self, pending: list[Any]) -> None:
        """The game was rebuilt (a refused store): the same decisions, not new ones."""
        self.pending_ref = list(pending)

    def restart(self) -> None:
        """Back from a pause: the clocks start again, they did not run meanwhile."""
        self.decision_at = [time.time()] * len(self.decision_at)


def bot_pause_jitter(bot_delay: float) -> float:
    """±25%: a bot's few milliseconds of thinking in a claim window stay lost in the noise."""
    return bot_delay * random.uniform(0.75, 1.25)


class Due(NamedTuple):
    """A seat's decision taken at ``when`` for the reason ``why`` (see ``seat_due``)."""

    when: float
    seat: int
    why: str  # "bot", "auto" (托管), "pass", "frozen", "timeout" (a missed timer), "away"


class SeatFacts(NamedTuple):
    """What the clock reads of one seat with a decision (plain values: tests build them by hand; a
    tuple, since the driver builds one per waiting seat on every look at the table)."""

    seat: int
    phase: str
    bot_plays: bool  # a bot's seat, or a human's in 托管
    auto: bool
    present: bool
    declared: bool  # a frozen hand (亮倒 / 唱歌 / 跳舞)
    decision_at: float
    time_limit: float
    bot_wait: float
    auto_delay: float
    absent_since: float
    absent_after: float


def windows_have_no_pause(phase: str) -> bool:
    """A bot (or 托管) answers a claim window at once: a pause there would tell everyone that
    somebody could claim the discard."""
    return phase in WINDOWS


def absent_claimer_passes_at_once(facts: SeatFacts) -> bool:
    """A human who is not there when a window opens passes at once: nobody waits for a claim that
    cannot come, and the wait would say there was one."""
    return facts.phase in WINDOWS and not facts.present


def frozen_turn_pause() -> float:
    """A frozen hand plays its drawn tile after the same pause whether or not it could also kong,
    so the pause tells nobody about a hidden triplet."""
    return FROZEN_DELAY


def away_deadline(facts: SeatFacts) -> float:
    """A seat never connected, or gone, is played by 托管 after the grace, counted from the later of
    its disconnect and the decision's start (a reconnect between decisions gives a whole grace)."""
    return max(facts.absent_since, facts.decision_at) + facts.absent_after


def missed_timer_counts(phase: str) -> bool:
    """A missed turn counts towards 托管; a claim left unanswered is passed and not counted: 托管
    switched on then would show everyone that this seat had a claim to make."""
    return phase not in WINDOWS


def seat_due(facts: SeatFacts, now: float) -> Due:
    """When and why this seat's decision is taken if the seat's player does not decide first."""
    s = facts.seat
    if facts.bot_plays:
        wait = 0.0 if windows_have_no_pause(facts.phase) else facts.auto_delay if facts.auto else facts.bot_wait
        return Due(facts.decision_at + wait, s, "auto" if facts.auto else "bot")
    if absent_claimer_passes_at_once(facts):
        return Due(now, s, "pass")
    if facts.declared and facts.phase == "turn":
        return Due(facts.decision_at + frozen_turn_pause(), s, "frozen")
    when, why = facts.decision_at + facts.time_limit, "timeout" if missed_timer_counts(facts.phase) else "pass"
    if not facts.present and away_deadline(facts) < when:
        when, why = away_deadline(facts), "away"
    return Due(when, s, why)


def earliest(dues: list[Due]) -> Due | None:
    """The decision due first (ties: the lower seat, so the order never depends on timing)."""
    return min(dues, key=lambda d: (d.when, d.seat)) if dues else None
