"""The web server's in-process greedy bots (``NativeGreedyAgent``): decision for decision what
``GreedyAgent`` / ``CarefulAgent`` seeded with the same key choose from the seat's observation, in
every preset, with the Python agent only where a position cannot hold the moment."""

from __future__ import annotations

import random

import pytest

from majiang import native
from majiang.bots.greedy import CarefulAgent, GreedyAgent
from majiang.bots.native_greedy import NativeGreedyAgent
from majiang.engine import Game
from majiang.engine.position import game_at, position_of
from majiang.games.rules import rules_for

needs_native = pytest.mark.skipif(not native.available(), reason=str(native.unavailable_reason()))
CONFIGS = [("kawuxing", "standard", {}), ("kawuxing", "xiangyang", {}), ("kawuxing", "suizhou", {}),
           ("sichuan", "chengdu", {}), ("sichuan", "modern", {}), ("sichuan", "chengdu", {"sing_dance": True}),
           ("sichuan", "chengdu", {"blood_river": True})]


def next_key(agent: NativeGreedyAgent) -> int:
    """The key the agent draws for its next decision, without drawing it."""
    r = random.Random()
    r.setstate(agent.rng.getstate())
    return r.getrandbits(32)


@needs_native
@pytest.mark.parametrize("policy", ["greedy", "careful"])
@pytest.mark.parametrize("variant, preset, options", CONFIGS)
def test_it_chooses_what_the_python_agent_chooses(variant, preset, options, policy):
    rules = rules_for(variant, preset, **options)
    python_agent = {"greedy": GreedyAgent, "careful": CarefulAgent}[policy]
    decisions = phases = 0
    seen = set()
    for seed in range(8):
        g = Game(rules, seed=seed)
        agents = [NativeGreedyAgent(100 * seed + s, policy) for s in range(g.n)]
        while not g.over:
            s = g.pending_seats()[0]
            legal = g.legal_actions(s)
            expected = python_agent(next_key(agents[s])).act(g.observation(s), legal)
            before = agents[s].fallbacks
            chosen = agents[s].act_in_game(g, s, legal)
            assert chosen == expected, (seed, s, g.phase, legal)
            if position_of(g) is not None and not any(a.type == "win" for a in legal):
                assert agents[s].fallbacks == before  # the native engine decided
                decisions += 1
            seen.add(str(g.phase))
            g.apply(s, chosen)
            phases += 1
    assert decisions > 150 and {"turn", "claim"} <= seen


@pytest.mark.parametrize("variant, preset, options", CONFIGS[::3])
def test_a_position_read_off_a_game_gives_back_the_same_decision(variant, preset, options):
    """``position_of`` and ``game_at`` are inverses where a decision looks: the same hands, melds,
    declarations, wall and legal actions for the seat that decides (before anyone has won: a
    position holds no wins, and 血流成河's winners may not pong)."""
    rules = rules_for(variant, preset, **options)
    checked = 0
    for seed in range(4):
        g = Game(rules, seed=seed)
        agents = [GreedyAgent(s) for s in range(g.n)]
        while not g.over:
            s = g.pending_seats()[0]
            pos = position_of(g)
            if pos is not None and not g.responses and not any(x.won_tiles for x in g.seats):
                # the server's greedy bots read the same integers straight off the game
                assert list(native.game_position_row(g)) == native.position_array(pos).tolist()
                h = game_at(rules, pos)
                assert [x.counts for x in h.seats] == [x.counts for x in g.seats]
                assert [x.melds for x in h.seats] == [x.melds for x in g.seats]
                assert h.tiles_left == g.tiles_left and h.phase == g.phase
                mine = {a for a in g.legal_actions(s) if a.type != "win"}
                assert {a for a in h.legal_actions(s) if a.type != "win"} == mine
                checked += 1
            g.apply(s, agents[s].act(g.observation(s), g.legal_actions(s)))
    assert checked > 50


def test_without_the_native_engine_the_python_agent_decides(monkeypatch):
    rules = rules_for("sichuan", "chengdu")
    g = Game(rules, seed=3)
    agent = NativeGreedyAgent(7)
    agent.native = None
    s = g.pending_seats()[0]
    legal = g.legal_actions(s)
    expected = GreedyAgent(next_key(agent)).act(g.observation(s), legal)
    assert agent.act_in_game(g, s, legal) == expected and agent.fallbacks == 1
    with pytest.raises(ValueError, match="policy"):
        NativeGreedyAgent(0, "clever")
