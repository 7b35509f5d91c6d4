"""The library's conveniences beside python-chess: actions from text, ``is_legal``, ``push``/``pop``,
``copy``, and a position string (``to_position``/``from_position``) that round-trips exactly."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang import PositionError
from majiang.core.errors import IllegalActionError
from majiang.engine import Action, Game
from majiang.engine.notation import HEADER
from majiang.games.rules import rules_for

GAMES = [("kawuxing", None), ("kawuxing", "xiangyang"), ("sichuan", None), ("sichuan", "modern"),
         ("sichuan", "blood_river")]


def _rules(variant, preset):
    if preset == "blood_river":  # 血流成河: winners play on, their winning tiles set aside
        return rules_for(variant, blood_river=True)
    return rules_for(variant, preset)


def _play(g: Game, rng: random.Random, steps: int) -> list[tuple[int, Action]]:
    """Random legal actions (declarations and claims included) for at most ``steps`` decisions."""
    done = []
    while not g.over and len(done) < steps:
        seat = rng.choice(g.pending_seats())
        action = rng.choice(g.legal_actions(seat))
        g.apply(seat, action)
        done.append((seat, action))
    return done


def _same(a: Game, b: Game) -> None:
    assert a.to_position() == b.to_position()
    for s in range(a.n):
        assert a.legal_actions(s) == b.legal_actions(s)
    assert a.over == b.over and a.totals() == b.totals()


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10 ** 6), cut=st.integers(0, 300))
def test_a_position_restores_the_same_legal_actions_and_the_same_future(game, seed, cut):
    g = Game(_rules(*game), seed=seed)
    rng = random.Random(seed)
    _play(g, rng, cut)
    text = g.to_position()
    assert text.startswith(HEADER + " ") and "\n" not in text
    h = Game.from_position(text)
    _same(g, h)
    start = len(g.events)
    future = random.Random(seed + 1)
    while not g.over:
        seat = future.choice(g.pending_seats())
        action = future.choice(g.legal_actions(seat))
        g.apply(seat, action)
        h.apply(seat, str(action))  # and the action's text reads back as the action
        _same(g, h)
    assert h.events == g.events[start:]
    assert h.settlement() == g.settlement()


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10 ** 6), before=st.integers(0, 120),
       pushed=st.integers(1, 40))
def test_push_then_pop_restores_the_state_exactly(game, seed, before, pushed):
    g = Game(_rules(*game), seed=seed)
    rng = random.Random(seed)
    _play(g, rng, before)
    if g.over:
        return
    text, events, actions = g.to_position(), list(g.events), list(g.actions)
    copy = g.copy()
    undone = []
    while not g.over and len(undone) < pushed:
        seat = rng.choice(g.pending_seats())
        action = rng.choice(g.legal_actions(seat))
        g.push(seat, action)
        undone.append((seat, action))
    assert copy.to_position() == text  # a copy is independent of the game it was made from
    for seat, action in reversed(undone):
        assert g.pop() == (seat, action)
    assert g.to_position() == text and g.events == events and g.actions == actions
    _same(g, copy)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        g.pop()


def test_a_copy_pops_what_its_original_pushed_without_touching_it():
    g = Game("kawuxing", seed=5)
    first = g.to_position()
    g.push(0, g.legal_actions(0)[0])
    h = g.copy()
    h.pop()
    assert h.to_position() == first and g.to_position() != first
    g.pop()
    assert g.to_position() == first


def test_a_refused_push_remembers_nothing():
    g = Game("kawuxing", seed=5)
    with pytest.raises(IllegalActionError):
        g.push(1, "pass")
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        g.pop()


def test_a_tile_given_as_text_is_the_tile():
    """The issue's message: ``'discard 9s' is not legal…; legal: …, discard 9s`` cannot happen."""
    g = Game("kawuxing", seed=7)
    legal = g.legal_actions(0)
    tile = str(legal[-1].tile)
    assert Action("discard", tile) == legal[-1] and Action("discard", tile) in legal
    assert g.is_legal(0, Action("discard", tile))
    g.apply(0, Action("discard", tile))
    assert g.actions[-1][1] == legal[-1]
    with pytest.raises(IllegalActionError, match="bad tile in action"):
        Action("discard", "9x")
    with pytest.raises(IllegalActionError, match="not a tile"):
        Action("discard", 3.5)
    with pytest.raises(IllegalActionError, match="unknown action type"):
        Action("dicsard", "5p")


@pytest.mark.parametrize("variant,preset", GAMES)
def test_every_legal_actions_text_reads_back_as_it(variant, preset):
    g = Game(_rules(variant, preset), seed=11)
    rng = random.Random(11)
    while not g.over:
        for s in g.pending_seats():
            for a in g.legal_actions(s):
                assert Action.parse(str(a)) == a
                assert Action.from_json(a.to_json()) == a
        seat = rng.choice(g.pending_seats())
        g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("text,message", [
    ("", "an empty action"), ("discard", "needs one tile"), ("discard 5p 6p", "needs one tile"),
    ("discard 5x", "bad tile"), ("fly 5p", "unknown action type"), ("pass 5p", "takes nothing"),
    ("void x", "needs a suit"), ("exchange 1m2m", "three tiles"), ("win 🀄🀄", "needs one tile"),
])
def test_malformed_action_text_is_a_typed_error(text, message):
    with pytest.raises(IllegalActionError, match=message):
        Action.parse(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_text_is_an_action_or_a_typed_error(text):
    try:
        a = Action.parse(text)
    except IllegalActionError:
        return
    assert Action.parse(str(a)) == a


def test_is_legal_answers_for_any_seat_and_refuses_malformed_actions():
    g = Game("sichuan", seed=2)
    assert g.is_legal(0, g.legal_actions(0)[0])
    assert not g.is_legal(9, g.legal_actions(0)[0]) and not g.is_legal(-1, "pass")
    with pytest.raises(IllegalActionError):
        g.is_legal(0, "hu")
    with pytest.raises(IllegalActionError):
        g.is_legal(0, 42)


def test_a_position_from_a_search_position_round_trips():
    """A game set directly to a position (``engine.position``, the expert's rollouts) holds only
    the wall that is left; its position string still restores it."""
    from majiang.engine.position import game_at, position_of

    g = Game("kawuxing", seed=3)
    _play(g, random.Random(3), 20)
    pos = position_of(g)
    assert pos is not None
    s = game_at(g.rules, pos)
    h = Game.from_position(s.to_position())
    _same(s, h)


def _valid_text() -> str:
    g = Game("sichuan", preset="modern", seed=4)
    _play(g, random.Random(4), 60)
    return g.to_position()


@pytest.mark.parametrize("mutate,message", [
    (lambda b: b.pop("wall"), "has no 'wall'"),
    (lambda b: b.update(wall="1m2m"), None),
    (lambda b: b.update(phase="nap"), "unknown phase"),
    (lambda b: b.update(current=7), "the current seat"),
    (lambda b: b.update(front=10 ** 6), "the wall's front"),
    (lambda b: b["seats"][0].update(hand="1m1m1m1m1m"), "copies of 1m"),
    (lambda b: b["seats"][0].update(hand="1z"), "1z"),
    (lambda b: b["seats"][1].update(claimed="2"), "claimed"),
    (lambda b: b["seats"][1].update(melds=[{"kind": "pong"}]), "a meld of seat 1"),
    (lambda b: b.update(pending=[[0, ["discard 9q"]]]), "bad tile"),
    (lambda b: b.update(rules={"variant": "chess"}), None),
    (lambda b: b.update(rules={"variant": "sichuan", "nosuch": 1}), "nosuch"),
    (lambda b: b.update(seats=[]), "the seats"),
    (lambda b: b.update(flags=[1, 2]), "the flags"),
    (lambda b: b.update(wins=[[0, "5p", True, None, False, [True]]]), "a win's score"),
])
def test_a_malformed_position_is_a_typed_error(mutate, message):
    head, body = _valid_text().split(" ", 1)
    data = json.loads(body)
    mutate(data)
    with pytest.raises(PositionError, match=message):
        Game.from_position(f"{head} {json.dumps(data, ensure_ascii=False)}")


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(0, 2000), junk=st.text(max_size=5), kind=st.sampled_from(["cut", "insert", "replace"]))
def test_a_damaged_position_is_a_typed_error_or_a_position(cut, junk, kind):
    text = _TEXT
    i = cut % len(text)
    damaged = {"cut": text[:i], "insert": text[:i] + junk + text[i:],
               "replace": text[:i] + junk + text[i + len(junk):]}[kind]
    try:
        Game.from_position(damaged)
    except PositionError:
        pass


_TEXT = _valid_text()


@pytest.mark.parametrize("bad", [None, 12, b"majiang-position/1 {}", "majiang-position/1", "majiang-position/1 []",
                                 "majiang-position/1 {}", "majiang-position/2 {}"])
def test_position_input_of_the_wrong_kind_is_a_typed_error(bad):
    with pytest.raises(PositionError):
        Game.from_position(bad)
