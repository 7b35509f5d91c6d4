"""One notion of safety (``majiang.engine.safety``): no automatic discard (a bot, a missed timer,
托管, a hint) deals into a hand whose waits are shown while a tile outside every shown wait may be
discarded."""

from __future__ import annotations

import random

import pytest

from majiang.bots import make_agent
from majiang.bots.native_greedy import NativeGreedyAgent
from majiang.bots.native_greedy import available as native_available
from majiang.core.tiles import Tile, parse_tiles, to_counts
from majiang.engine import Action, Game
from majiang.engine.position import Position, SeatPosition, game_at
from majiang.engine.safety import DISCARDING, deals_in, safe_choices, unsafe_tiles
from majiang.games.rules import rules_for


def shown_wait_turns(variant: str, preset: str | None, hands: int, seed: int, chooser):
    """Play ``hands`` deals with ``chooser(game, seat, legal)`` at every seat; yield each turn where
    some legal discard is a shown wait and another is not, with the action chosen there."""
    rng = random.Random(seed)
    for h in range(hands):
        name, _, dance = (preset or "").partition("+")  # "+dance": 跳舞 shows a Sichuan hand's waits
        rules = rules_for(variant, name or None, **({"sing_dance": True} if dance else {}))
        g = Game(rules, seed=f"safety-{seed}-{h}")
        while not g.over:
            seat = g.pending_seats()[0]
            legal = g.legal_actions(seat)
            action = chooser(g, seat, legal, rng)
            if g.phase == "turn":
                unsafe = unsafe_tiles(g, seat)
                if any(a.type in DISCARDING and a.tile in unsafe for a in legal) \
                        and safe_choices(legal, unsafe) != legal:
                    yield g, seat, legal, unsafe, action
            g.apply(seat, action)


def agent_chooser(level: str):
    agents: dict = {}

    def choose(g, seat, legal, rng):
        if seat not in agents:
            agents[seat] = make_agent(level, seed=seat)
        return agents[seat].act(g.observation(seat), legal)

    return choose


CASES = [("kawuxing", None), ("kawuxing", "xiangyang"), ("sichuan", None), ("sichuan", "chengdu+dance")]


@pytest.mark.parametrize("variant,preset", CASES)
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_a_bot_never_discards_into_a_shown_wait_while_a_safe_tile_is_held(level, variant, preset):
    hands = {"greedy": 120, "strong": 30}[level]
    met = 0
    for g, seat, legal, unsafe, action in shown_wait_turns(variant, preset, hands, 1, agent_chooser(level)):
        assert not deals_in(action, legal, unsafe), (str(g), action, sorted(map(str, unsafe)))
        met += 1
    if variant == "kawuxing":  # 亮倒 always shows its waits; Sichuan's 跳舞 is rare among these bots
        assert met >= 20, met


def test_careful_and_expert_never_discard_into_a_shown_wait():
    from majiang.bots.expert import ExpertAgent
    from majiang.bots.greedy import CarefulAgent

    careful = {s: CarefulAgent(s) for s in range(3)}
    met = 0
    for g, seat, legal, unsafe, action in shown_wait_turns(
            "kawuxing", None, 60, 2, lambda g, s, legal, rng: careful[s].act(g.observation(s), legal)):
        assert not deals_in(action, legal, unsafe)
        met += 1
    assert met >= 10
    # expert, with a small search, at the turns the greedy players above meet
    expert = ExpertAgent(0, samples=4, first=2, batch=2, width=2)
    checked = 0
    for g, seat, legal, unsafe, _ in shown_wait_turns(
            "kawuxing", None, 12, 3, lambda g, s, legal, rng: careful[s].act(g.observation(s), legal)):
        action = expert.act(g.observation(seat), legal)
        assert not deals_in(action, legal, unsafe), (action, sorted(map(str, unsafe)))
        checked += 1
        if checked >= 12:
            break
    assert checked >= 3


@pytest.mark.skipif(not native_available(), reason="the native engine is not built")
@pytest.mark.parametrize("variant,preset", CASES)
def test_native_greedy_never_discards_into_a_shown_wait(variant, preset):
    agents = {s: NativeGreedyAgent(s) for s in range(4)}
    met = 0
    for g, seat, legal, unsafe, action in shown_wait_turns(
            variant, preset, 150, 4, lambda g, s, legal, rng: agents[s].act_in_game(g, s, legal)):
        assert not deals_in(action, legal, unsafe), (str(g), action)
        met += 1
    if variant == "kawuxing":
        assert met >= 20, met


@pytest.mark.parametrize("variant,preset", CASES)
def test_a_missed_timer_and_tuoguan_never_discard_into_a_shown_wait(variant, preset):
    """``player_default``: the tile just drawn when it is safe, else another safe one; 托管's bot
    chooses among safe discards only."""
    pytest.importorskip("fastapi")
    from majiang.server.actions import player_default

    greedy = {s: make_agent("greedy", seed=s) for s in range(4)}
    met = 0

    def choose(g, seat, legal, rng):
        if rng.random() < 0.3:
            return rng.choice(legal)  # random moves: drawn tiles that are shown waits come up often
        return greedy[seat].act(g.observation(seat), legal)

    for g, seat, legal, unsafe, _ in shown_wait_turns(variant, preset, 80, 5, choose):
        for safe in (True, False):
            action, choices = player_default(legal, g.last_draw, safe, unsafe)
            made = [action] if action is not None else choices
            for a in made:
                assert not deals_in(a, legal, unsafe), (a, sorted(map(str, unsafe)))
        met += 1
    if variant == "kawuxing":
        assert met >= 20, met


def _position(mine: str, drawn: str, theirs: str, waits: str, wall: str = "9p9p8p8p5p5p") -> Game:
    """Kawuxing, seat 0 to play having drawn ``drawn`` (in ``mine``); seat 1 has declared 亮倒
    on ``theirs`` waiting on ``waits``."""
    me = to_counts(parse_tiles(mine))
    other = to_counts(parse_tiles(theirs))
    third = to_counts(parse_tiles("1p1p3p3p4p4p6s6s7s7s8s9s5z"))
    seats = [SeatPosition(me), SeatPosition(other, declared="liangdao", waits=[int(t) for t in parse_tiles(waits)]),
             SeatPosition(third)]
    return game_at(rules_for("kawuxing"), Position("turn", 0, int(Tile.parse(drawn)), 0,
                                                    [int(t) for t in parse_tiles(wall)], seats))


def test_the_reported_moments_a_timed_out_turn_and_tuoguan_keep_off_a_shown_wait():
    """The issue's hands: a drawn 六条 against a shown 听 六九条, and 白板 against a shown 白板."""
    pytest.importorskip("fastapi")
    from majiang.server.actions import player_default

    g = _position("2p3p4p6p7p8p2s3s4s1s1s7z7z6s", "6s", "1p2p3p4p5p6p5z5z5z9p9p7s8s", "6s9s")
    unsafe = unsafe_tiles(g, 0)
    assert {str(t) for t in unsafe} == {"6s", "9s"}
    legal = g.legal_actions(0)
    action, _ = player_default(legal, g.last_draw, True, unsafe)
    assert action.tile != Tile.parse("6s")
    action, choices = player_default(legal, g.last_draw, False, unsafe)
    assert all(a.tile != Tile.parse("6s") for a in choices)
    g2 = _position("2p3p4p6p7p8p2s3s4s6s6s7z7z5z", "5z", "1p2p3p4p5p6p7s8s9s1s1s1s5z", "5z")
    assert {str(t) for t in unsafe_tiles(g2, 0)} == {"5z"}
    for safe in (True, False):
        action, choices = player_default(g2.legal_actions(0), g2.last_draw, safe, unsafe_tiles(g2, 0))
        assert all(a.tile != Tile.parse("5z") for a in ([action] if action else choices))


def test_the_play_hint_suggests_no_shown_wait():
    from majiang.cli.play import hint

    g = _position("2p3p4p6p7p8p2s3s4s1s1s7z7z6s", "6s", "1p2p3p4p5p6p5z5z5z9p9p7s8s", "6s9s")
    text = hint(g, 0)
    advised = text.split("best discards: ")[1].split(";")[0]
    assert "6s" not in advised and "never 6s" in text, text


def test_forced_discards_stay_legal():
    """A hand that holds nothing outside the shown waits discards one of them: safety never
    leaves a seat without a move."""
    legal = [Action("discard", "6s"), Action("pass")]
    assert safe_choices(legal, {Tile.parse("6s")}) == legal
    assert not deals_in(legal[0], legal, {Tile.parse("6s")})
    with pytest.raises(TypeError):
        unsafe_tiles(Game("kawuxing", seed=1))
