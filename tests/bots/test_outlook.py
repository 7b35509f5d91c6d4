"""``majiang.bots.outlook``: a hand's value over its own future draws. Worked values that can be
written down, a brute-force reference over every order of draws, the model read off observations,
and the native library equal to the Python reference, sample for sample."""

from __future__ import annotations

import itertools
import random

import pytest

from majiang import native
from majiang.bots import GreedyAgent
from majiang.bots.base import SeatView
from majiang.bots.outlook import (
    ALL_PLANS,
    Model,
    Outlook,
    draws_left,
    evaluate,
    evaluate_waiting,
    model_for,
    pairs_shanten,
)
from majiang.core.hand import Meld
from majiang.core.tiles import parse_tiles, to_counts
from majiang.engine import Game
from majiang.games.rules import rules_for

needs_native = pytest.mark.skipif(not native.available(), reason=str(native.unavailable_reason()))
KAWUXING = rules_for("kawuxing")
SICHUAN = rules_for("sichuan")


def unseen_for(rules, counts, seen: str = ""):
    """Four of every kind of the game, less the hand and ``seen``."""
    from majiang.games import play_for

    u = [0] * 30
    for k in play_for(rules).variant.kinds:
        u[int(k)] = 4 - counts[int(k)]
    for t in parse_tiles(seen):
        u[t] -= 1
    return u


def test_a_ready_hand_with_one_wait_is_worth_its_chance_of_drawing_it():
    # 1234567p 999s 55z wait: 8p? No: a single wait on 5z (shanpon would be two); use a tanki wait.
    hand = to_counts(parse_tiles("123456789p111s5z"))  # waits on 5z alone (tanki)
    unseen = unseen_for(KAWUXING, hand)
    model = Model.plain(rounds=5, payers=2, feed=0.0, declare=False)
    out = Outlook(KAWUXING, [], None, unseen, model)
    values, declares = out.ready(list(hand), 0)
    p = unseen[27] / sum(unseen)
    mult = out.win_value(list(hand), 27, True, False)
    assert mult == 1.0  # 屁胡
    # each of 5 draws: win with chance p, paid by both others
    for t in range(6):
        assert values[t] == pytest.approx(mult * 2 * (1 - (1 - p) ** (5 - t)))
    assert not any(declares)


def test_declaring_doubles_a_self_draw_and_is_chosen_when_nothing_comes_from_discards():
    hand = to_counts(parse_tiles("123456789p111s5z"))
    unseen = unseen_for(KAWUXING, hand)
    out = Outlook(KAWUXING, [], None, unseen, Model.plain(rounds=5, payers=2, feed=0.0))
    values, declares = out.ready(list(hand), 0)
    assert declares[0] and out.win_value(list(hand), 27, True, True) == 2.0  # 亮倒 ×2
    p = unseen[27] / sum(unseen)
    assert values[0] == pytest.approx(2.0 * 2 * (1 - (1 - p) ** 5))


def brute_force_one_away(out: Outlook, counts, plan: int, rounds: int) -> float:
    """The model's value of a hand one step from ready, by enumerating every sequence of draws
    (each kind with its chance), with the best discard after each draw and the best of hidden and
    declared once ready, under no hazard and no cost."""

    def ready_value(c, t):
        return out.ready(c, plan)[0][t]

    def go(c, t):
        if t == rounds:
            return out.model.end_unready
        total = 0.0
        stay = 1.0
        for x in out.kinds:
            px = out.prob[x]
            if not px or not out.holdable(c, x):
                continue
            c[x] += 1
            if out.shanten(c, plan) == 0:
                best = None
                for d in out.kinds:
                    if c[d] and d != x:
                        c[d] -= 1
                        if out.shanten(c, plan) == 0:
                            v = ready_value(c, t + 1)
                            best = v if best is None else max(best, v)
                        c[d] += 1
                if best is not None:
                    total += px * best
                    stay -= px
            c[x] -= 1
        return total + stay * go(c, t + 1)

    return go(list(counts), 0)


@pytest.mark.parametrize("text", ["12345678p11s55z7z", "1234p456789s55z6z"])
def test_one_step_from_ready_matches_enumerating_every_draw(text):
    hand = to_counts(parse_tiles(text))
    assert sum(hand) == 13
    unseen = unseen_for(KAWUXING, hand)
    model = Model.plain(rounds=3, payers=2, feed=0.5)
    out = Outlook(KAWUXING, [], None, unseen, model)
    assert out.shanten(list(hand), 0) == 1
    assert out.one_away(list(hand), 0)[0] == pytest.approx(brute_force_one_away(out, hand, 0, 3))


def test_plans_are_offered_by_what_the_hand_holds():
    out = Outlook(KAWUXING, [], None, [4] * 30, Model.plain(rounds=4, payers=2))
    assert out.plans(to_counts(parse_tiles("1234567899p12s5z"))[:]) == [0, 2]  # ten 筒: 清一色 in 筒
    assert out.plans(to_counts(parse_tiles("11223p4466s5577z"))) == [0, 4]  # six pairs: 七对
    assert out.plans(to_counts(parse_tiles("123p456s789s5z67z"))) == [0]
    with_pong = Outlook(KAWUXING, [Meld.pong("9s")], None, [4] * 30, Model.plain(rounds=4, payers=2))
    assert with_pong.plans(to_counts(parse_tiles("1234567p12s"))) == [0]  # a 条 pong: no 筒 flush
    only_all = Outlook(KAWUXING, [], None, [4] * 30, Model.plain(rounds=4, payers=2), plans=1)
    assert only_all.plans(to_counts(parse_tiles("1234567899p12s5z"))) == [0]
    assert pairs_shanten(to_counts(parse_tiles("1111p2233s55667z"))) == 0  # a four is two pairs


def test_a_flush_plan_gives_up_the_other_tiles_when_nothing_hurries_the_hand():
    hand = to_counts(parse_tiles("1123456789p159s7z"))  # ten 筒, four others
    unseen = unseen_for(KAWUXING, hand)
    model = Model.plain(rounds=12, payers=2)
    values = {str(v.tile): v for v in evaluate(KAWUXING, hand, [], None, unseen, model, samples=48, key=3)}
    assert values["7z"].plan == "flush_p" and values["7z"].value > values["1p"].value
    assert values["1s"].value == values["5s"].value == values["7z"].value  # the plan's junk, alike
    only_all = {str(v.tile): v for v in evaluate(KAWUXING, hand, [], None, unseen, model, samples=48, key=3, plans=1)}
    assert only_all["7z"].plan == "all" and only_all["7z"].value < values["7z"].value


def test_a_hand_of_the_wrong_size_is_refused():
    hand = to_counts(parse_tiles("123456789p111s5z"))  # 13 tiles: no discard to value
    with pytest.raises(ValueError, match="14"):
        evaluate(KAWUXING, hand, [], None, unseen_for(KAWUXING, hand), Model.plain(rounds=3, payers=2))


def test_draws_left_counts_a_seats_turns():
    assert draws_left(44, 3, 3) == 14  # after its own discard, it draws every third tile
    assert draws_left(2, 3, 3) == 0
    assert draws_left(3, 3, 3) == 1
    assert draws_left(10, 4, 1) == 3  # first of the next four draws: tiles 1, 5, 9


def observations(rules, hands: int, seed: str):
    """Every turn of a few greedy deals where the seat holds a choice of discards."""
    for h in range(hands):
        g = Game(rules, seed=f"{seed}{h}")
        agents = [GreedyAgent(s) for s in range(g.n)]
        while not g.over:
            s = g.pending_seats()[0]
            obs = g.observation(s)
            legal = g.legal_actions(s)
            if obs["phase"] == "turn" and sum(a.type == "discard" for a in legal) > 1 \
                    and not obs["players"][s]["declared"]:
                yield obs
            g.apply(s, agents[s].act(obs, legal))


@pytest.mark.parametrize("variant, preset", [("kawuxing", "standard"), ("sichuan", "chengdu")])
def test_the_model_reads_the_table(variant, preset):
    for obs in observations(rules_for(variant, preset), 2, "model"):
        view = SeatView(obs)
        m = model_for(view)
        opps = view.opponents()
        assert m.rounds == draws_left(obs["tiles_left"], len(opps) + 1, len(opps) + 1)
        assert m.payers == len(opps) and m.declare == (variant == "kawuxing")
        assert all(0.0 <= h <= 0.6 for h in m.hazard)
        if variant == "sichuan":
            assert not any(m.hazard)  # blood battle goes on after the others' wins
        # the others are likelier to have declared later on: feeds and hazards never fall
        assert all(a <= b + 1e-12 for a, b in zip(m.hazard[1:], m.hazard[2:]))


@needs_native
@pytest.mark.parametrize("variant, preset", [("kawuxing", "standard"), ("kawuxing", "suizhou"),
                                             ("sichuan", "chengdu"), ("sichuan", "modern")])
def test_native_values_every_discard_exactly_as_python(variant, preset):
    rules = rules_for(variant, preset)
    rng = random.Random(variant + preset)
    checked = 0
    for obs in observations(rules, 3, "eq"):
        view = SeatView(obs)
        m = model_for(view)
        key = rng.getrandbits(32)
        plans = rng.choice([ALL_PLANS, 1, 0b10001])
        py = evaluate(view.rules, view.counts, view.melds, view.void, view.unseen(), m, samples=12, key=key,
                      plans=plans)
        nat = native.outlook(view.rules, view.counts, view.melds, view.void, view.unseen(), m, 12, key, plans=plans)
        assert [(int(v.tile), v.value, v.plan, v.declare) for v in py] == nat, obs["players"][obs["seat"]]["hand"]
        waiting = list(view.counts)
        waiting[next(k for k in range(30) if waiting[k])] -= 1  # as if a claim were passed
        assert evaluate_waiting(view.rules, waiting, view.melds, view.void, view.unseen(), m, samples=12, key=key,
                                plans=plans) == native.outlook_waiting(view.rules, waiting, view.melds, view.void,
                                                                       view.unseen(), m, 12, key, plans=plans)
        checked += 1
    assert checked > 20


@needs_native
def test_native_refuses_a_bad_hand():
    hand = [0] * 30
    hand[9] = 5
    with pytest.raises(ValueError, match="0 to 4"):
        native.outlook(KAWUXING, hand, [], None, [4] * 30, Model.plain(rounds=3, payers=2), 4, 1)


def test_sampled_orders_are_python_shuffles():
    hand = to_counts(parse_tiles("123456789p111s5z"))
    out = Outlook(KAWUXING, [], None, unseen_for(KAWUXING, hand), Model.plain(rounds=4, payers=2))
    rng = random.Random(9)
    expected = []
    for _ in range(3):
        pool = list(out.pool)
        rng.shuffle(pool)
        expected.append(pool[:4])
    assert out.orders(3, 9) == expected
    assert len(set(map(tuple, itertools.chain(out.orders(5, 1))))) > 1
