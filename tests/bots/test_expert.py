"""The ``expert`` agent: legal over whole deals, replayable from a seed, budgets from the command
line, the native and Python rollouts the same, and nothing but the observation read."""

from __future__ import annotations

import copy
import json
import random

import pytest

from majiang import native
from majiang.bots import ExpertAgent, GreedyAgent, make_agent, parse_spec, split_bots
from majiang.bots.base import SeatView
from majiang.bots.expert import holds_void, rollout_python
from majiang.bots.greedy import CarefulAgent, revealed_waits
from majiang.core.errors import MajiangError
from majiang.core.tiles import Tile, parse_tiles
from majiang.engine import Game
from majiang.engine.position import Position, SeatPosition, game_at
from majiang.games.rules import rules_for

needs_native = pytest.mark.skipif(not native.available(), reason=str(native.unavailable_reason()))
GAMES = [("kawuxing", "standard"), ("sichuan", "chengdu")]


def small(seed=0, engine="auto", **kw):
    """A cheap expert that searches every kind of decision by whole-deal rollouts (by default only
    Sichuan's discards are: tests of the search ask for all)."""
    kw.setdefault("search", "all")
    return ExpertAgent(seed, samples=6, first=3, batch=3, work=40, engine=engine, orders=8, **kw)


def play(rules, seed, agents, record=None):
    g = Game(rules, seed=seed)
    while not g.over:
        s = g.pending_seats()[0]
        obs = g.observation(s)
        legal = g.legal_actions(s)
        a = agents[s].act(obs, legal)
        assert a in legal
        if record is not None and isinstance(agents[s], ExpertAgent):
            record.append((s, a))
        g.apply(s, a)
    return g


def searched_decisions(rules, seed, limit):
    """Decisions (observation, legal) where the expert searches, from a deal of greedy play."""
    g = Game(rules, seed=seed)
    agents = [GreedyAgent(s) for s in range(g.n)]
    probe = small()
    out = []
    while not g.over and len(out) < limit:
        s = g.pending_seats()[0]
        obs, legal = g.observation(s), g.legal_actions(s)
        types = {a.type for a in legal}
        if obs["phase"] in ("turn", "claim") and len(legal) > 1 and "win" not in types:
            choice = probe.strong.act(obs, legal)
            if len(probe.candidates(SeatView(obs), legal, choice)) > 1:
                out.append((obs, legal))
        g.apply(s, agents[s].act(obs, legal))
    return out


@pytest.mark.parametrize("variant,preset", GAMES)
def test_legal_over_whole_deals(variant, preset):
    rules = rules_for(variant, preset)
    n = 3 if variant == "kawuxing" else 4
    for seed in range(2):
        agents = [small(seed)] + [GreedyAgent(s) for s in range(1, n)]
        agents[seed % n], agents[0] = agents[0], agents[seed % n]
        play(rules, seed, agents)
        expert = next(a for a in agents if isinstance(a, ExpertAgent))
        assert expert.failures == 0


@pytest.mark.parametrize("variant,preset", GAMES)
def test_same_seed_same_decisions(variant, preset):
    rules = rules_for(variant, preset)
    n = 3 if variant == "kawuxing" else 4
    runs = []
    for _ in range(2):
        record = []
        play(rules, 11, [small(5)] + [GreedyAgent(s) for s in range(1, n)], record)
        runs.append(record)
    assert runs[0] == runs[1] and runs[0]


@pytest.mark.parametrize("variant,preset", GAMES)
def test_each_game_plays_its_measured_default(variant, preset):
    """value=auto and search=auto take the game's GAME_DEFAULTS at the first decision; an explicit
    option is kept whatever the game."""
    from majiang.bots.expert import GAME_DEFAULTS, search_kinds

    rules = rules_for(variant, preset)
    n = Game(rules, seed=5).n
    auto = ExpertAgent(1, orders=8, samples=6, work=40)
    fixed = ExpertAgent(2, orders=8, value="strong", search="none", claims="strong")
    play(rules, 5, [auto, fixed] + [GreedyAgent(s) for s in range(2, n)])
    assert auto.value == GAME_DEFAULTS[variant]["value"]
    assert auto.search_kinds == search_kinds(GAME_DEFAULTS[variant]["search"])
    assert auto.claims == GAME_DEFAULTS[variant]["claims"]
    assert (fixed.value, fixed.search_kinds, fixed.claims) == ("strong", set(), "strong")


def test_budget_parsing():
    assert parse_spec("expert:samples=200") == ("expert", {"samples": 200})
    assert parse_spec("expert") == ("expert", {})
    a = make_agent("expert:samples=20,work=100,width=2", seed=3)
    assert (a.samples, a.work, a.width) == (20, 100, 2)
    assert split_bots("expert:samples=200,work=500,strong,strong") == ["expert:samples=200,work=500", "strong",
                                                                        "strong"]
    assert split_bots("cmd:python bot.py --x=1,greedy, greedy") == ["cmd:python bot.py --x=1", "greedy", "greedy"]
    assert split_bots("strong,greedy,greedy") == ["strong", "greedy", "greedy"]
    assert make_agent("expert:rollout=greedy").policy == "greedy"
    assert make_agent("expert:search=claim+kong").search_kinds == {"claim", "kong"}
    for bad in ("expert:samples", "expert:nonsense=1", "nobody", "expert:engine=quantum", "expert:rollout=wild",
                "expert:search=everything", "expert:setup=magic", "expert:play=fast"):
        with pytest.raises(MajiangError):
            make_agent(bad)
    assert make_agent("cmd:python -c pass").name  # external bots still made from cmd:


@pytest.mark.parametrize("variant,preset", GAMES)
def test_samples_are_consistent(variant, preset):
    """Every tile is somewhere exactly once; the seat's own tiles are its own; hidden counts hold."""
    rules = rules_for(variant, preset)
    full = 84 if variant == "kawuxing" else 108
    for obs, _ in searched_decisions(rules, 3, 6):
        for agent in (small(), small(discard_weight=1)):
            check_sample(obs, agent.sample(agent.prepare(obs), random.Random(1)), full)


def check_sample(obs, pos, full):
    me = obs["seat"]
    total = len(pos.wall)  # the position holds every tile but the discards (a claim's tile among them)
    for s, sp in enumerate(pos.seats):
        total += sum(sp.counts) + sum(m.size for m in sp.melds)
    for p in obs["players"]:
        total += sum(1 for c in p["claimed"] if not c) + len(p["won_tiles"])
    assert total == full
    assert len(pos.wall) == obs["tiles_left"]
    assert pos.seats[me].counts == SeatView(obs).counts


def rollouts_agree(rules, seeds, decisions: int, step: int = 1, policy: str = "greedy") -> int:
    """Play every candidate of the searched decisions in both engines from the same samples; returns
    how many rollouts were compared (each must give the same points)."""
    n = 3 if rules.variant == "kawuxing" else 4
    checked = 0
    for seed in seeds:
        for obs, legal in searched_decisions(rules, seed, decisions)[::step]:
            probe = small()
            cands = probe.candidates(SeatView(obs), legal, probe.strong.act(obs, legal))
            rng = random.Random(seed)
            pos = probe.sample(probe.prepare(obs), rng)
            keys = [rng.getrandbits(32) for _ in range(n)]
            row = native.position_array(pos)[None, :]
            for a in cands:
                py = rollout_python(rules, pos, obs["seat"], a, keys, policy)
                nat = native.rollouts(rules, row, obs["seat"], [native.spec.action_index(a)], [keys], policy)
                assert py == nat[0].tolist(), (seed, obs["seat"], a)
                checked += 1
    return checked


@needs_native
@pytest.mark.parametrize("variant,preset", GAMES)
def test_native_and_python_rollouts_agree(variant, preset):
    """From the same samples, both engines play exactly the same rollouts (the same points)."""
    assert rollouts_agree(rules_for(variant, preset), (1, 2), 5) >= 10


@needs_native
@pytest.mark.parametrize("variant,preset,options", [("kawuxing", "standard", {}), ("sichuan", "chengdu", {}),
                                                    ("sichuan", "chengdu", {"sing_dance": True})])
@pytest.mark.parametrize("policy", ["careful", "greedy"])
def test_native_and_python_rollout_policies_agree(variant, preset, options, policy):
    """Each rollout policy plays the same rollouts in both engines, from positions all through a
    deal (declared hands among them: 亮倒, and 唱歌/跳舞 where the rules have them)."""
    assert rollouts_agree(rules_for(variant, preset, **options), (1, 2, 3), 60, step=3, policy=policy) >= 20


def _counts(text: str) -> list[int]:
    c = [0] * 30
    for t in parse_tiles(text):
        c[int(t)] += 1
    return c


def test_careful_never_discards_a_revealed_wait():
    """Seat 1 has declared 亮倒 waiting on 5z alone; seat 0's loosest tile is 5z, which greedy and
    the careful rollout player both keep (other discards are legal: ``majiang.engine.safety``)."""
    rules = rules_for("kawuxing", "standard")
    mine, theirs = _counts("234p678p9p234s99s1s5z"), _counts("123p456p789p666z5z")
    rest = [k for k in range(30) for _ in range(4 - mine[k] - theirs[k]) if k in (*range(9, 27), 27, 28, 29)]
    random.Random(0).shuffle(rest)
    third = _counts("")
    for t in rest[:13]:
        third[t] += 1
    seats = [SeatPosition(mine), SeatPosition(theirs, declared="liangdao", waits=[int(Tile.parse("5z"))]),
             SeatPosition(third)]
    g = game_at(rules, Position("turn", 0, int(Tile.parse("5z")), 0, rest[13:], seats))
    obs, legal = g.observation(0), g.legal_actions(0)
    assert obs["players"][1]["revealed"]["waits"] == ["5z"]
    five = Tile.parse("5z")
    for seed in range(5):
        assert GreedyAgent(seed).act(obs, legal).tile != five
        assert CarefulAgent(seed).act(obs, legal).tile != five


@pytest.mark.parametrize("variant,preset,options", [("kawuxing", "standard", {}),
                                                    ("sichuan", "chengdu", {"sing_dance": True})])
def test_careful_deals_into_a_revealed_wait_only_when_forced(variant, preset, options):
    """Whole deals of careful play: a revealed wait is discarded only when every discard is one."""
    rules = rules_for(variant, preset, **options)
    seen = 0
    for seed in range(6):
        g = Game(rules, seed=seed)
        agents = [CarefulAgent(s) for s in range(g.n)]
        while not g.over:
            s = g.pending_seats()[0]
            obs, legal = g.observation(s), g.legal_actions(s)
            a = agents[s].act(obs, legal)
            waits = revealed_waits(SeatView(obs))
            if a.type in ("discard", "declare", "sing") and a.tile in waits:
                assert all(b.tile in waits for b in legal if b.type == "discard"), (seed, s, a)
            seen += bool(waits) and g.phase == "turn"
            g.apply(s, a)
    assert seen  # the rule was put to the test


@needs_native
@pytest.mark.parametrize("variant,preset", GAMES)
def test_native_and_python_agents_choose_the_same(variant, preset):
    rules = rules_for(variant, preset)
    for obs, legal in searched_decisions(rules, 4, 4):
        assert small(2, engine="native").act(obs, legal) == small(2, engine="python").act(obs, legal)


@pytest.mark.parametrize("variant,preset", GAMES)
def test_search_kinds_limit_the_candidates(variant, preset):
    """Only the kinds named are searched: without "discard" a turn keeps no other plain discard,
    without "claim" a claim is strong's."""
    rules = rules_for(variant, preset)
    for obs, legal in searched_decisions(rules, 5, 8):
        probe = small(search="declare+kong")
        choice = probe.strong.act(obs, legal)
        cands = probe.candidates(SeatView(obs), legal, choice)
        assert cands[0] == choice
        if obs["phase"] == "claim":
            assert cands == [choice]
        assert all(a.type != "discard" for a in cands[1:])
        assert small(search="all").candidates(SeatView(obs), legal, choice)[0] == choice


@pytest.mark.parametrize("variant,preset", GAMES)
def test_reads_only_the_observation(variant, preset):
    """The decision depends on the observation alone: the same after a JSON round trip (no hidden
    object reachable), and the observation shows no other seat's concealed tiles."""
    rules = rules_for(variant, preset)
    for obs, legal in searched_decisions(rules, 5, 4):
        me = obs["seat"]
        assert all("hand" not in p for p in obs["players"] if p["seat"] != me)
        frozen = copy.deepcopy(obs)
        a = small(9).act(obs, legal)
        b = small(9).act(json.loads(json.dumps(obs)), legal)
        assert a == b
        assert obs == frozen  # and it changes nothing it was given


def test_samples_keep_void_suits_and_revealed_hands():
    """Sichuan: an opponent that has discarded a tile of another suit than its 定缺 suit holds none
    of it (void tiles go out first), one whose last discard was of that suit may hold more; the
    unweighted draw still deals every tile once."""
    rules = rules_for("sichuan", "chengdu")
    may_hold = held = 0
    for seed in (6, 7, 8):
        for obs, _ in searched_decisions(rules, seed, 8):
            me = obs["seat"]
            for agent in (small(), small(discard_weight=1)):
                for k in range(4):
                    pos = agent.sample(agent.prepare(obs), random.Random(k))
                    for p in obs["players"]:
                        if p["seat"] != me and p["void"] and not p["out"]:
                            at = "mps".index(p["void"]) * 9
                            void_tiles = sum(pos.seats[p["seat"]].counts[at:at + 9])
                            if holds_void(p):
                                may_hold += 1
                                held += void_tiles > 0
                            else:
                                assert void_tiles == 0
                            assert sum(pos.seats[p["seat"]].counts) == p["hidden"] - 4 * sum(
                                1 for m in p["melds"] if m["tile"] is None)
    assert may_hold and held  # early on, opponents still holding their void suit are sampled so


def test_holds_void_reads_the_last_discard():
    assert holds_void({"void": "m", "discards": []})
    assert holds_void({"void": "m", "discards": ["5p", "9m"]})
    assert not holds_void({"void": "m", "discards": ["9m", "5p"]})


@needs_native
@pytest.mark.parametrize("exchange", [False, True])
def test_setup_search_chooses_the_same_on_either_engine(exchange):
    """``setup=search``: 换三张 and 定缺 by playing the close options out; the native and the Python
    rollouts choose the same from the same seed, and with nothing close ``strong``'s choice stands
    without a rollout."""
    rules = rules_for("sichuan", "chengdu", exchange_three=exchange)
    searched = 0
    for seed in range(2):
        g = Game(rules, seed=seed)
        phase = g.phase
        for s in g.pending_seats():
            obs, legal = g.observation(s), g.legal_actions(s)
            fast = small(10 * seed + s, setup="search")
            slow = small(10 * seed + s, setup="search", engine="python")
            choice = fast.act(obs, legal)
            assert choice in legal and choice == slow.act(obs, legal) and choice.type == phase
            assert fast.rollouts == slow.rollouts and fast.failures == slow.failures == 0
            searched += fast.rollouts > 0
    assert searched >= 2
    with pytest.raises(ValueError, match="setup"):
        ExpertAgent(0, setup="guess")


# -- the outlook's discards and pongs (value="outlook", the default) ------------------------------

def quick(seed=0, engine="auto", **kw):
    """The outlook expert (outlook discards, no whole-deal search: Kawuxing's default) with a
    small budget, in either game."""
    kw.setdefault("value", "outlook")
    kw.setdefault("search", "none")
    return ExpertAgent(seed, orders=16, engine=engine, **kw)


def turn_decisions(rules, seed, limit):
    """Turns of a greedy deal with a choice of discards (observation, legal)."""
    g = Game(rules, seed=seed)
    agents = [GreedyAgent(s) for s in range(g.n)]
    out = []
    while not g.over and len(out) < limit:
        s = g.pending_seats()[0]
        obs, legal = g.observation(s), g.legal_actions(s)
        if obs["phase"] in ("turn", "claim") and len(legal) > 1 and not any(a.type == "win" for a in legal):
            out.append((obs, legal))
        g.apply(s, agents[s].act(obs, legal))
    return out


@pytest.mark.parametrize("variant,preset", GAMES)
@pytest.mark.parametrize("claims", ["strong", "outlook"])
def test_outlook_expert_plays_legal_deals_and_replays_them(variant, preset, claims):
    rules = rules_for(variant, preset)
    n = 3 if variant == "kawuxing" else 4
    runs = []
    for _ in range(2):
        record = []
        agents = [quick(7, claims=claims)] + [GreedyAgent(s) for s in range(1, n)]
        play(rules, 21, agents, record)
        runs.append(record)
        assert agents[0].outlooks > 0 and agents[0].failures == 0
    assert runs[0] == runs[1] and runs[0]


@needs_native
@pytest.mark.parametrize("variant,preset", GAMES)
def test_outlook_expert_chooses_the_same_in_both_engines(variant, preset):
    """The same seed and the same observations give the same choices natively and in Python (the
    outlook computes the same numbers in both)."""
    rules = rules_for(variant, preset)
    nat, py = quick(3, engine="native", claims="outlook"), quick(3, engine="python", claims="outlook")
    decisions = [d for seed in (5, 6, 7) for d in turn_decisions(rules, seed, 25)]
    assert len(decisions) > 20
    for obs, legal in decisions:
        assert nat.act(obs, legal) == py.act(obs, legal), obs["players"][obs["seat"]]["hand"]
    assert nat.outlooks == py.outlooks > 10


@pytest.mark.parametrize("variant,preset", GAMES)
def test_a_gain_never_reached_keeps_strongs_choice(variant, preset):
    rules = rules_for(variant, preset)
    never = quick(1, gain=1e9, claims="outlook")
    for obs, legal in [d for seed in (8, 9) for d in turn_decisions(rules, seed, 30)]:
        assert never.act(obs, legal) == never.strong.act(obs, legal)
    assert never.overruled == 0 and never.outlooks > 5


def test_outlook_options():
    a = make_agent("expert:orders=40,gain=0.5,plans=flush,declare=outlook,claims=outlook")
    assert (a.orders, a.gain, a.plans, a.declare, a.claims) == (40, 0.5, 0b01111, "outlook", "outlook")
    assert make_agent("expert:plans=none").plans == 1 and make_agent("expert").plans == 0b11111
    assert make_agent("expert:plans=flush+pairs").plans == 0b11111
    assert make_agent("expert:value=strong").value == "strong"
    for bad in ("expert:value=magic", "expert:plans=big", "expert:declare=always", "expert:claims=all"):
        with pytest.raises(MajiangError):
            make_agent(bad)


def declares_after_another(limit=3):
    """Kawuxing turns of ``strong`` self-play where the seat may declare 亮倒 while another seat's
    declared hand shows live waits."""
    from majiang.bots import StrongAgent

    rules = rules_for("kawuxing")
    out = []
    for seed in range(40):
        g = Game(rules, seed=seed)
        agents = [StrongAgent(s, samples=0) for s in range(g.n)]
        while not g.over and len(out) < limit:
            s = g.pending_seats()[0]
            obs, legal = g.observation(s), g.legal_actions(s)
            view = SeatView(obs)
            if any(a.type == "declare" for a in legal) and any(
                    p["declared"] and any(view.unseen()[int(Tile.parse(w))] for w in p["revealed"]["waits"])
                    for p in view.opponents()):
                out.append((obs, legal))
            g.apply(s, agents[s].act(obs, legal))
        if len(out) >= limit:
            break
    return out


def test_frozen_prices_the_deal_ins_of_a_declared_hand():
    """``frozen=1``: 亮倒 costs the draws of another declared hand's live waits that a frozen hand
    must discard; staying hidden costs nothing more, and nothing changes while nobody has declared."""
    from majiang.bots import StrongAgent

    cases = declares_after_another()
    assert cases
    plain, priced = StrongAgent(0, samples=0), StrongAgent(0, samples=0, frozen=1)
    for obs, legal in cases:
        view = SeatView(obs)
        unseen = view.unseen()
        assert priced._frozen_risk(view, unseen) > 0
        a = next(a for a in legal if a.type == "declare")
        counts = list(view.counts)
        counts[a.tile] -= 1
        hidden = [agent._ready_ev(view, unseen, counts, view.melds) for agent in (plain, priced)]
        shown = [agent._ready_ev(view, unseen, counts, view.melds, "declare") for agent in (plain, priced)]
        assert hidden[0] == hidden[1] and shown[1] < shown[0]
        quiet = copy.deepcopy(obs)
        for p in quiet["players"]:
            if p["seat"] != obs["seat"]:
                p["declared"], p["revealed"] = None, None
        assert priced._frozen_risk(SeatView(quiet), unseen) == 0
    assert not ExpertAgent(0).strong.frozen  # expert plays strong's default: frozen risk unpriced


@pytest.mark.parametrize("switch", ["read=8", "passes=8", "frozen=1", "ready_bias=2", "hazard=1.5", "hands=played",
                                    "safety=0", "draws=8"])
def test_research_switches_measured_as_no_gain_are_gone(switch):
    """The options measured as no gain (docs/BOTS-LAB.md keeps their numbers) are refused, naming the option."""
    with pytest.raises(MajiangError, match=switch.split("=")[0]):
        make_agent("expert:" + switch)
