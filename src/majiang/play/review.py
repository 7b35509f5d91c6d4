"""复盘: a finished hand reviewed by the ``expert`` search, one seat's decisions at a time.

``review_hand`` rebuilds a hand from its log (``majiang.engine.log``: checked event by event, so a
tampered log is refused, and an unfinished one too) and replays it. At each decision of the
chosen seat with more than one legal option (a turn's discard, kong, 亮倒/唱歌/跳舞 or win; a claim's
胡, 碰, 杠 or pass; 换三张; 定缺) the reviewer values every option from **that seat's observation**:
the hidden tiles are sampled as that seat could imagine them (``ExpertAgent.prepare``/``sample``:
consistent with what it has seen, never the real wall or the other hands), and every option is
played to the end of the deal from each sample by the rollout players (``greedy`` at every
seat), the same samples and players for every option. An option's value is this seat's mean
points from that decision to the end of the deal.

Every value is an estimate, and the review says how good: each option carries its standard
error, and the loss of the played option (the best option's value less its own, ≥ 0) is counted
only where it exceeds ``NOISE_Z`` standard errors of the paired difference, measured on fresh
samples (the best option is chosen on one set and its margin measured on another: the highest of
many noisy means is biased up, and would charge noise as loss); below that the
decision costs nothing measurable (severity "none"). A counted loss of ``BIG_LOSS`` points or
more is "big", a smaller one "small". The best option is chosen among the noisy means, so a
near tie can name either: ``match_rate`` is the share of decisions where the played option is
as good as the best within the noise (no loss counted), ``top_match_rate`` the share where it is
the best itself; ``total_loss`` is the number to read.

How strong is the reviewer? Its rollout players are ``greedy``: a value says what an option is
worth if everyone plays ``greedy``-like from there, a model of the table, not the truth. The
``expert`` bot that plays with this search is measured in docs/BOTS-LAB.md (the ladder: ahead of
``strong`` by +0.12 [0.02, 0.21] points a hand in Kawuxing, level in Sichuan, far ahead of
``greedy`` and ``random``): a review catches what costs points against such a table (dealing
into a shown wait, passing a win, breaking a ready hand), not the finest reads of a strong player.

Not reviewed (listed in ``HandReview.skipped`` with the reason): 抢杠 (robbing a kong: a position
cannot hold a robbable kong) and a decision whose samples the engine refused.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

from majiang.bots.base import SeatView
from majiang.bots.expert import ExpertAgent, OptionValue, mean_stderr
from majiang.bots.expert_setup import exchange_candidates
from majiang.core.errors import MajiangError
from majiang.engine import Action, Game
from majiang.engine.log import LogError, game_from_start, read_jsonl, rebuild, split_hands

DEFAULT_BUDGET = 400  # samples a decision: a whole hand of one seat in about 2-5 s of one core (docs/BOTS.md)
MAX_BUDGET = 10_000
NOISE_Z = 2.0  # a loss counts only beyond this many standard errors of the paired difference
BIG_LOSS = 1.0  # points a hand: a counted loss this large or larger is a blunder
TOP = 5  # options kept per decision (the played one is always kept)
STRENGTH = "docs/BOTS-LAB.md#the-ladder-random--greedy--strong--expert"  # where the reviewer's bot is measured
SETUP_SHARE = 4  # 换三张/定缺 are played out from the deal in Python: a quarter of the samples


class ReviewError(MajiangError):
    """A review that cannot be made: a seat not at the table, a budget out of range, a log of
    several hands with none chosen."""


@dataclass(frozen=True)
class OptionReview:
    """One option of a decision: the reviewer's value (this seat's mean points from the decision
    to the end of the deal) and its standard error."""

    action: Action
    value: float
    stderr: float

    def to_json(self) -> dict:
        return {"action": str(self.action), "value": round(self.value, 3), "stderr": round(self.stderr, 3)}


@dataclass(frozen=True)
class DecisionReview:
    """One decision of the reviewed seat. ``index``: the action record's place among the hand's
    records (0 is the ``start`` record; in a log of one hand, the line is ``index + 1``);
    ``phase``: "turn", "claim", "exchange" or "void"; ``hand``: the seat's concealed tiles then;
    ``tile``: the tile it just drew (a turn after a draw) or may claim (a claim), else None;
    ``loss``: points a hand the played option cost against ``best`` (0 where the difference is
    within its noise), ``loss_stderr`` its standard error (of the paired difference);
    ``options``: the best ``TOP`` by value, and the played one, best first."""

    index: int
    phase: str
    hand: str
    tile: str | None
    played: Action
    best: Action
    loss: float
    loss_stderr: float
    severity: str
    options: tuple[OptionReview, ...]

    def to_json(self) -> dict:
        return {"index": self.index, "phase": self.phase, "hand": self.hand, "tile": self.tile,
                "played": str(self.played),
                "best": str(self.best), "loss": round(self.loss, 3), "loss_stderr": round(self.loss_stderr, 3),
                "severity": self.severity, "options": [o.to_json() for o in self.options]}


@dataclass(frozen=True)
class HandReview:
    """A seat's decisions in one hand, each beside the reviewer's (``review_hand``)."""

    seat: int
    variant: str
    preset: str
    hand_index: int
    budget: int
    decisions: tuple[DecisionReview, ...]
    skipped: tuple[dict, ...] = field(default=())  # {"index", "played", "reason"}: not valued
    points: int = 0  # what the seat made in the hand

    @property
    def match_rate(self) -> float | None:
        """The share of reviewed decisions where the played option is as good as the reviewer's
        best within the noise (no loss counted: severity "none"); None where none was reviewed."""
        if not self.decisions:
            return None
        return sum(d.loss == 0 for d in self.decisions) / len(self.decisions)

    @property
    def top_match_rate(self) -> float | None:
        """The share of reviewed decisions where the played option is the reviewer's best itself
        (near ties make this one noisy: two discards a hundredth of a point apart)."""
        if not self.decisions:
            return None
        return sum(d.played == d.best for d in self.decisions) / len(self.decisions)

    @property
    def total_loss(self) -> float:
        """The counted losses added up: expected points a hand given away."""
        return sum(d.loss for d in self.decisions)

    @property
    def total_loss_stderr(self) -> float:
        """The standard error of ``total_loss`` (each decision's samples are its own)."""
        return math.sqrt(sum(d.loss_stderr ** 2 for d in self.decisions if d.loss > 0))

    def to_json(self) -> dict:
        rate, top = self.match_rate, self.top_match_rate
        return {"seat": self.seat, "variant": self.variant, "preset": self.preset, "hand_index": self.hand_index,
                "budget": self.budget, "points": self.points,
                "match_rate": None if rate is None else round(rate, 3),
                "top_match_rate": None if top is None else round(top, 3),
                "total_loss": round(self.total_loss, 3), "total_loss_stderr": round(self.total_loss_stderr, 3),
                "severities": {s: sum(d.severity == s for d in self.decisions) for s in ("none", "small", "big")},
                "decisions": [d.to_json() for d in self.decisions], "skipped": list(self.skipped),
                "reviewer": {"bot": "expert", "search": "whole-deal rollouts by greedy from this seat's view",
                             "samples": self.budget, "noise_z": NOISE_Z, "big_loss": BIG_LOSS,
                             "measured": STRENGTH}}


def severity_of(loss: float) -> str:
    """"none" (no loss beyond the noise), "small" or "big" (``BIG_LOSS`` points or more)."""
    return "none" if loss <= 0 else "big" if loss >= BIG_LOSS else "small"


def judge(values: list[OptionValue], played: Action, confirm: list[OptionValue] | None = None
          ) -> tuple[Action, float, float]:
    """The best of ``values`` (the highest mean; the played option among equals), and the played
    option's loss against it with the loss's standard error: the mean paired difference where it
    exceeds ``NOISE_Z`` standard errors, else 0. ``confirm``: the best and the played option valued
    again on fresh samples, the difference then measured there (the highest of many noisy means
    is biased up: choosing and measuring on the same samples would charge noise as loss)."""
    best = max(values, key=lambda v: (v.mean, v.action == played))
    if best.action == played:
        return played, 0.0, 0.0
    pair = confirm if confirm is not None else values
    top = next(v for v in pair if v.action == best.action)
    mine = next(v for v in pair if v.action == played)
    diff, se = mean_stderr([a - b for a, b in zip(top.points, mine.points)])
    return best.action, (diff if diff > NOISE_Z * se and diff > 0 else 0.0), se


def _hand_records(source: Any, hand: int | None) -> list[dict]:
    """The records of the hand to review: ``source`` a log's path or its records (one hand's or a
    whole log's), ``hand`` its place in the log (needed when the log holds several)."""
    if isinstance(source, (str, os.PathLike)):
        records = read_jsonl(os.fspath(source))
    elif isinstance(source, list) and all(isinstance(r, dict) for r in source):
        records = source
    else:
        raise ReviewError("review_hand reads a log's path or its records (a list of dicts)")
    for r in records:
        if not isinstance(r.get("type"), str):
            raise LogError("a record must be an object with a 'type'")
    hands = list(split_hands(records))
    if not hands:
        raise LogError("no hands in this log (it holds no 'start' record)")
    if hand is None:
        if len(hands) > 1:
            raise ReviewError(f"this log holds {len(hands)} hands: choose one (hand=0 to {len(hands) - 1})")
        hand = 0
    if isinstance(hand, bool) or not isinstance(hand, int) or not 0 <= hand < len(hands):
        raise ReviewError(f"hand must be 0 to {len(hands) - 1} (the hands in this log), got {hand!r}")
    return hands[hand]


def _finished(records: list[dict]) -> Game:
    """The hand rebuilt with every event checked (a tampered log is refused by ``rebuild``'s
    line); a log whose events are all right but stop before the settlement is refused as unfinished."""
    unfinished = LogError(f"the hand is unfinished (the log stops after {len(records) - 1} events, before "
                          "its settlement): only a finished hand is reviewed")
    try:
        game = rebuild(records)
    except LogError:
        partial = rebuild(records, check=False)  # raises itself on an action that does not replay
        logged = records[1:]
        if len(logged) < len(partial.events) and all(a == b for a, b in zip(partial.events, logged)):
            raise unfinished from None
        raise
    if not game.over:
        raise unfinished
    return game


def _options(reviewer: ExpertAgent, obs: dict, legal: list[Action], played: Action) -> list[Action]:
    """The options valued: every distinct legal one, but for 换三张 (many threes of a suit) the
    played three, ``strong``'s and the least connected three of each other suit."""
    distinct = list(dict.fromkeys(legal))
    if obs["phase"] != "exchange":
        return distinct
    out = exchange_candidates(SeatView(obs), distinct, reviewer.strong.act(obs, distinct))
    return out + [played] if played not in out else out


def review_hand(source: Any, seat: int, budget: int = DEFAULT_BUDGET, seed: int = 0, hand: int | None = None,
                top: int = TOP, progress=None, pause=None) -> HandReview:
    """Review ``seat``'s decisions in a finished hand (the module's docstring says how).

    ``source``: a JSON-lines log's path (``majiang simulate --log``, the arena, the server's
    export) or its records; ``hand``: which hand of a log of several; ``budget``: samples a
    decision (a turn or a claim; 换三张 and 定缺, played out from the deal, take a quarter); the
    same ``seed`` gives the same review. ``progress(done, total)`` is called after each decision;
    ``pause()`` between pieces of the search of about a millisecond each (a server's reviews wait
    there while its tables work): neither changes the review.
    ``LogError``: a log that is malformed, tampered with (an event that does not replay) or
    unfinished; ``ReviewError``: a seat or budget out of range.

    >>> from majiang import Game
    >>> from majiang.bots import GreedyAgent
    >>> from majiang.engine.log import game_records
    >>> from majiang.play.runner import play_hand
    >>> g = play_hand(Game("kawuxing", seed=4), [GreedyAgent(s) for s in range(3)])
    >>> r = review_hand(game_records(g), seat=0, budget=8)
    >>> r.seat, 0 <= r.match_rate <= 1, r.total_loss >= 0
    (0, True, True)
    >>> sorted(r.to_json()["decisions"][0])
    ['best', 'hand', 'index', 'loss', 'loss_stderr', 'options', 'phase', 'played', 'severity', 'tile']
    """
    if isinstance(budget, bool) or not isinstance(budget, int) or not 2 <= budget <= MAX_BUDGET:
        raise ReviewError(f"budget must be a whole number 2 to {MAX_BUDGET:,} (samples a decision), got {budget!r}")
    records = _hand_records(source, hand)
    final = _finished(records)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < final.n:
        raise ReviewError(f"seat must be 0 to {final.n - 1} (this game seats {final.n}), got {seat!r}")
    reviewer = ExpertAgent(seed, engine="auto")
    reviewer.pause = pause
    game = game_from_start(records[0])
    steps = [(i, r) for i, r in enumerate(records) if r["type"] == "action"]
    mine = sum(1 for _, r in steps if r["seat"] == seat)
    decisions: list[DecisionReview] = []
    skipped: list[dict] = []
    done = 0
    for index, record in steps:
        actor, played = record["seat"], Action.from_json(record["action"])
        if actor == seat:
            legal = game.legal_actions(seat)
            if len(set(legal)) > 1:
                if pause is not None:  # the candidates and the search's setting out are pieces too
                    pause()
                obs = game.observation(seat)
                reviewed = _review_one(reviewer, obs, legal, played, index, budget, top)
                if isinstance(reviewed, str):
                    skipped.append({"index": index, "played": str(played), "reason": reviewed})
                else:
                    decisions.append(reviewed)
            done += 1
            if progress is not None:
                progress(done, mine)
        game.apply(actor, played)
    return HandReview(seat, final.rules.variant, final.rules.preset, final.hand_index, budget, tuple(decisions),
                      tuple(skipped), final.totals()[seat])


def _review_one(reviewer: ExpertAgent, obs: dict, legal: list[Action], played: Action, index: int,
                budget: int, top: int) -> DecisionReview | str:
    """One decision reviewed, or why it is not."""
    phase = obs["phase"]
    if phase == "rob":
        return "抢杠: a position cannot hold a robbable kong"
    options = _options(reviewer, obs, legal, played)
    samples = max(2, budget // SETUP_SHARE) if phase in ("exchange", "void") else budget
    try:
        values = reviewer.option_values(obs, options, samples)
        best = max(values, key=lambda v: (v.mean, v.action == played)).action
        confirm = reviewer.option_values(obs, [best, played], samples) if best != played else None
    except (ValueError, RuntimeError) as exc:  # a sample the engine refused (as in expert's own search)
        return f"the engine refused a sample: {exc}"
    best, loss, se = judge(values, played, confirm)
    ranked = sorted(values, key=lambda v: (-v.mean, v.action != played))  # best first, as ``judge`` breaks ties
    kept = ranked[:max(1, top)]
    if all(v.action != played for v in kept):
        kept.append(next(v for v in values if v.action == played))
    tile = None
    if phase == "claim":
        tile = (obs.get("last_discard") or {}).get("tile")
    elif phase == "turn":
        tile = obs.get("drawn")
    return DecisionReview(index, str(phase), obs["players"][obs["seat"]]["hand"], tile, played, best, loss, se,
                          severity_of(loss), tuple(OptionReview(v.action, v.mean, v.stderr) for v in kept))


__all__ = ["BIG_LOSS", "DEFAULT_BUDGET", "MAX_BUDGET", "NOISE_Z", "DecisionReview", "HandReview", "OptionReview",
           "ReviewError", "judge", "review_hand", "severity_of"]
