"""The native engine plays exactly the Python engine's hands: every mask, observation and
payment compared side by side, over every preset and the options that change play."""

import os
import random
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from majiang import native  # noqa: E402
from majiang.core.errors import IllegalActionError  # noqa: E402
from majiang.engine import Game  # noqa: E402
from majiang.games.rules import rules_for  # noqa: E402
from majiang.rl import BatchEnv, encode, make, mask_of, single_agent  # noqa: E402
from majiang.rl.encoder import OBS_COMPACT_SIZE, compact, expand  # noqa: E402

pytestmark = pytest.mark.skipif(not native.available(), reason=str(native.unavailable_reason()))

CONFIGS = [
    ("kawuxing", None, {}), ("kawuxing", "xiangyang", {}), ("kawuxing", "suizhou", {}),
    ("kawuxing", None, {"sigui": "full", "piao": 1, "maima": True, "shukan": True, "louhu_unless_more": True,
                        "suits": "ms", "min_ron_multiplier": 2, "base": 2, "gangshangpao_chain": True}),
    ("kawuxing", None, {"sigui": "winning", "direct_kong_pay": 1, "liangdao_draw_penalty": "first", "cap": 8}),
    ("sichuan", None, {}), ("sichuan", "modern", {}), ("sichuan", None, {"sing_dance": True}),
    ("sichuan", None, {"blood_river": True, "late_added_kong": "collect"}),
    ("sichuan", None, {"blood_battle": False, "kong_money": False, "self_draw_bonus": "fan", "cap_fan": 2,
                       "call_transfer": True, "flower_pig_penalty": 8, "heavenly_earthly": False}),
    ("sichuan", None, {"pass_win_unless_more": False, "last_four_must_win": False, "haidi": True,
                       "gangshanghua_fan": 1, "direct_kong_pay": 1, "exchange_three": True,
                       "late_added_kong": "forbid"}),
]


def _side_by_side(rules, seed: int, bold: float) -> int:
    """Play one hand in both engines with the same random choices; return the steps played.
    ``bold`` is how often a claim, kong, declaration or win is preferred to a plain move."""
    n = 3 if rules.variant == "kawuxing" else 4
    rng = random.Random(seed)
    g = Game(rules, seed=seed, hand_index=seed % 5, dealer=seed % n)
    ng = native.NativeGame(rules, seed=seed, hand_index=seed % 5, dealer=seed % n)
    paid = [0] * n
    steps = 0
    while not g.over:
        seat = g.pending_seats()[0]
        where = (rules, seed, len(g.actions))
        assert ng.to_act() == seat, where
        mask, mapping = mask_of(g, seat)
        assert np.array_equal(ng.mask(seat), mask), where
        for s in range(n):
            assert np.array_equal(ng.encode(s), encode(g, s)), (where, s)
        small = ng.encode(seat, np.empty(OBS_COMPACT_SIZE, dtype=np.uint8))  # the compact encoding too
        assert np.array_equal(small, compact(encode(g, seat))) and np.array_equal(expand(small), ng.encode(seat))
        keys = sorted(mapping)
        special = [k for k in keys if k >= 30 and k != 153]
        a = rng.choice(special) if special and rng.random() < bold else rng.choice(keys)
        g.apply(seat, mapping[a])
        ng.apply(seat, a)
        steps += 1
        totals = g.totals()
        assert list(ng.rewards()) == [t - p for t, p in zip(totals, paid)], where
        paid = totals
    assert ng.to_act() == -1 and ng.over
    for s in range(n):
        assert np.array_equal(ng.encode(s), encode(g, s))
    summary = ng.settlement()
    assert summary["totals"] == g.totals() and summary["result"] == g.result
    assert summary["next_dealer"] == g.next_dealer()
    assert [(w["seat"], w["multiplier"]) for w in summary["wins"]] == \
        [(w.seat, w.score.multiplier) for w in g.wins]
    assert ng.to_python().events == g.events  # the native log replays in Python
    return steps


@pytest.mark.parametrize("variant, preset, options", CONFIGS)
def test_native_engine_plays_the_python_engines_hands(variant, preset, options):
    rules = rules_for(variant, preset, **options)
    steps = sum(_side_by_side(rules, seed, bold=0.6 if seed % 2 else 0.1) for seed in range(24))
    assert steps > 1000


def test_an_illegal_action_changes_nothing():
    ng = native.NativeGame(rules_for("sichuan"), seed=3)
    seat = ng.to_act()
    before = (ng.mask(seat), ng.encode(seat), ng.actions)
    illegal = int(np.flatnonzero(before[0] == 0)[0])
    for bad_seat, bad_action in [(seat, illegal), (seat, 160), (seat, -1), ((seat + 1) % 4, 0), (9, 0), (-1, 0)]:
        with pytest.raises(IllegalActionError):
            ng.apply(bad_seat, bad_action)
    assert ng.to_act() == seat and ng.actions == before[2]
    assert np.array_equal(ng.mask(seat), before[0]) and np.array_equal(ng.encode(seat), before[1])


def test_both_backends_give_the_same_aec_trajectories():
    def run(backend):
        env = make("kawuxing", backend=backend)
        rng = random.Random(5)
        out = []
        for hand in range(4):
            env.reset(seed=11 if hand == 0 else None)
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term))
                if term or trunc:
                    out.append(info["settlement"]["totals"])
                    env.step(None)
                    continue
                env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return out

    assert run("native") == run("python")


def test_both_backends_give_the_same_self_play_batches():
    def run(backend):
        env = BatchEnv("sichuan", 6, opponents=None, seed=9, preset="modern", backend=backend)
        obs, masks = env.reset()
        rng = np.random.default_rng(3)
        out = [obs.tobytes(), masks.tobytes()]
        for _ in range(400):
            actions = np.argmax(np.where(masks > 0, rng.random(masks.shape), -1.0), axis=1)
            obs, masks, rewards, dones = env.step(actions)
            out.append((obs.tobytes(), masks.tobytes(), rewards.tobytes(), dones.tobytes(), env.seats.tobytes()))
        # the hands the native library dealt itself replay in Python as the Python batch's hands
        out.append([(g.hand_index, g.dealer, g.wall, list(g.actions)) for g in env.games])
        return out

    assert run("native") == run("python")


@pytest.mark.parametrize("opponents", [None, "random"])
def test_compact_batches_are_the_float32_batches(opponents):
    """obs_dtype="uint8" plays the same games, and its observations expand to the float32 ones:
    on both engines (each against its own float32 run: their random bots draw differently), every
    step; with reuse_arrays the same arrays come back, written in place."""
    def run(backend, obs_dtype, reuse=False):
        env = BatchEnv("sichuan", 5, opponents=opponents, seed=4, backend=backend, obs_dtype=obs_dtype,
                       reuse_arrays=reuse)
        obs, masks = env.reset()
        rng = np.random.default_rng(2)
        out = [(obs.copy(), masks.copy())]
        first = obs
        for _ in range(250):
            actions = np.argmax(np.where(masks > 0, rng.random(masks.shape), -1.0), axis=1)
            obs, masks, rewards, dones = env.step(actions)
            assert obs.dtype == np.dtype(obs_dtype) and (obs is first) == reuse
            out.append((obs.copy(), masks.copy(), rewards.copy(), dones.copy()))
        return out

    floats = {backend: run(backend, "float32") for backend in ("native", "python")}  # random bots differ
    for backend, reuse in (("native", False), ("native", True), ("python", False)):
        smalls = run(backend, "uint8", reuse)
        floats_here = floats[backend]
        assert len(smalls) == len(floats_here)
        for f, c in zip(floats_here, smalls):
            assert c[0].shape[1] == OBS_COMPACT_SIZE and np.array_equal(expand(c[0]), f[0])
            assert all(np.array_equal(a, b) for a, b in zip(f[1:], c[1:]))


def test_batch_steps_never_overwrite_arrays_the_caller_holds():
    """Without reuse_arrays a step writes into arrays the caller has let go of, never into ones it
    still holds (by name, or through a view)."""
    env = BatchEnv("kawuxing", 3, opponents=None, seed=1, backend="native", obs_dtype="uint8")
    obs, masks = env.reset()
    rng = np.random.default_rng(0)
    kept = []
    for step in range(40):
        actions = np.argmax(np.where(masks > 0, rng.random(masks.shape), -1.0), axis=1)
        obs, masks, rewards, dones = env.step(actions)
        if step % 7 == 0:
            kept.append((obs, obs.copy(), masks[1:], masks[1:].copy()))
    for held, copy, view, view_copy in kept:
        assert np.array_equal(held, copy) and np.array_equal(view, view_copy)


@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
def test_aec_observe_returns_views_that_the_next_step_rewrites(obs_dtype):
    """observe gives the env's own arrays (no copy); the fused native step rewrites them with the
    next agent's observation, which is what encoding that agent afresh gives (another agent's too)."""
    from pettingzoo.test import api_test
    env = make("sichuan", backend="native", obs_dtype=obs_dtype)
    env.reset(seed=3)
    first = env.observe(env.agent_selection)
    again = env.observe(env.agent_selection)
    assert first["observation"] is again["observation"] and first["action_mask"] is again["action_mask"]
    assert first["observation"].dtype == np.dtype(obs_dtype)
    rng = random.Random(1)
    for _ in range(60):
        obs = env.observe(env.agent_selection)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        seat = int(env.agent_selection[7:])
        fresh = env.unwrapped._hand.encode(seat, np.empty_like(first["observation"]))
        assert np.array_equal(first["observation"], fresh)
        other = (seat + 1) % 4  # another seat's observation: the library's encoder, bound to the env's other array
        assert np.array_equal(env.observe(f"player_{other}")["observation"],
                              env.unwrapped._hand.encode(other, np.empty_like(fresh)))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict spaces
        api_test(make("kawuxing", backend="native", obs_dtype=obs_dtype), num_cycles=100)


def _resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the resident size from /proc")
def test_compact_batches_fit_in_8_kib_a_game():
    """The compact observation with reused arrays: the batch's arrays and the engine's state
    (resident memory, as the process grows by it) come to at most 8 KiB a game."""
    def play(n):
        env = BatchEnv("sichuan", n, opponents=None, seed=0, backend="native", obs_dtype="uint8", reuse_arrays=True)
        _, masks = env.reset()
        for _ in range(30):
            _, masks, _, _ = env.step(np.argmax(masks, axis=1))
        return env

    warm = play(8)  # imports, tables and the allocator's first arenas, before measuring
    n = 4096
    before = _resident_bytes()
    env = play(n)
    per_game = (_resident_bytes() - before) / n
    arrays = sum(a.nbytes for a in env._arr.values()) / n
    assert arrays < 5 * 1024 and per_game <= 8 * 1024, (arrays, per_game)
    del warm


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_native_random_opponents_settle_as_the_python_replay(variant):
    env = single_agent(variant, "random", seat=1, backend="native")
    rng = np.random.default_rng(0)
    for hand in range(6):
        obs, _ = env.reset(seed=40 if hand == 0 else None)
        total = 0.0
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(obs["action_mask"]))
            if hand == 2:
                action = 999  # replaced by a safe default
            obs, reward, done, _, info = env.step(action)
            total += reward
            assert info.get("illegal", False) == (hand == 2)
        game = env.unwrapped.game  # replayed in the Python engine
        assert game.over and total == game.totals()[1] == info["settlement"]["totals"][1]
    with pytest.raises(ValueError, match="not 'strong'"):
        single_agent(variant, "strong", backend="native")


@pytest.mark.parametrize("variant, options", [("sichuan", {}), ("kawuxing", {}), ("kawuxing", {"suits": "mp"})])
def test_the_library_shuffles_as_pythons_random(variant, options):
    from majiang.engine import play_for, shuffled_wall
    rules = rules_for(variant, **options)
    kinds = play_for(rules).variant.kinds
    for seed in [0, 1, -5, 2 ** 70, 3.5, None, "hidden", "长" * 40, (1, 2)] + list(range(1000, 1100)):
        for hand_index in (0, 13):
            assert native.NativeGame(rules, seed, hand_index).wall() == shuffled_wall(kinds, seed, hand_index)


@pytest.mark.parametrize("opponents", [None, "random"])
def test_native_threads_play_the_same_games_as_one_thread(opponents):
    def run(workers):
        env = BatchEnv("kawuxing", 300, opponents=opponents, seed=2, workers=workers, backend="native")
        obs, masks = env.reset()
        rng = np.random.default_rng(5)
        out = []
        for _ in range(120):  # long enough for many hands to end and restart
            actions = np.argmax(np.where(masks > 0, rng.random(masks.shape), -1.0), axis=1)
            obs, masks, rewards, dones = env.step(actions)
            out.append((obs.tobytes(), masks.tobytes(), rewards.tobytes(), dones.tobytes()))
        return out

    assert run(2) == run(1)



@pytest.mark.parametrize("variant, preset, options, seat", [
    ("kawuxing", None, {}, 0), ("kawuxing", "xiangyang", {}, 2), ("sichuan", None, {}, 1),
    ("sichuan", "modern", {}, 2), ("sichuan", None, {"sing_dance": True}, 0),
    ("sichuan", None, {"blood_river": True}, 3)])
def test_native_greedy_bots_play_as_the_python_ones(variant, preset, options, seat):
    # GreedyAgent in the library: its shanten, tie-breaks and random draws, so the learner meets
    # exactly the same opponents (the same observations, masks and rewards) on either engine
    def run(backend):
        env = single_agent(variant, "greedy", seat=seat, preset=preset, backend=backend, **options)
        rng = np.random.default_rng(1)
        obs, _ = env.reset(seed=5)
        out, hands = [], 0
        while hands < 12:
            obs, reward, done, _, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, done))
            if done:
                hands += 1
                out.append(info["settlement"]["totals"])
                obs, _ = env.reset()
        return out

    assert run("native") == run("python")


def test_native_greedy_batch_plays_the_python_batch():
    def run(backend):
        env = BatchEnv("sichuan", 4, opponents="greedy", seed=3, seat=2, backend=backend)
        obs, masks = env.reset()
        rng = np.random.default_rng(2)
        out = []
        for _ in range(150):
            actions = np.argmax(np.where(masks > 0, rng.random(masks.shape), -1.0), axis=1)
            actions[0] = 999  # an illegal action: replaced by the same safe default
            obs, masks, rewards, dones = env.step(actions)
            out.append((obs.tobytes(), masks.tobytes(), rewards.tobytes(), dones.tobytes()))
        return out

    assert run("native") == run("python")


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_native_shanten_is_the_python_shanten(data):
    from majiang.core.analysis import shanten_counts
    from majiang.engine import play_for
    variant, options = data.draw(st.sampled_from([("sichuan", {}), ("kawuxing", {}), ("kawuxing", {"suits": "ms"})]))
    rules = rules_for(variant, **options)
    kinds = [int(k) for k in play_for(rules).variant.kinds]
    melds = data.draw(st.lists(st.tuples(st.sampled_from(kinds), st.sampled_from([3, 4])), max_size=4))
    caps = [4] * 30
    kept = []
    for tile, size in melds:
        if caps[tile] >= size:
            caps[tile] -= size
            kept.append(tile)
    size = data.draw(st.sampled_from([13, 14])) - 3 * len(kept)
    counts = [0] * 30
    for tile in data.draw(st.permutations([k for k in kinds for _ in range(4)])):
        if size == 0:
            break
        if counts[tile] < caps[tile]:
            counts[tile] += 1
            size -= 1
    void = data.draw(st.sampled_from([None, "m", "p", "s"])) if variant == "sichuan" else None
    suits = "".join(sorted({"mps"[t // 9] for t in kept})) if variant == "sichuan" else ""
    caps_or_none = caps if kept else None
    expected = shanten_counts(counts, play_for(rules).variant, 4 - len(kept), void, caps_or_none,
                              seven_pairs=not kept, meld_suits=suits)
    assert native.shanten(rules, counts, 4 - len(kept), void, caps_or_none, not kept, suits) == expected


def _replay_natively(g: Game) -> None:
    """Deal a worked hand's wall to both engines again and play its actions: the same masks and
    the same money after every step."""
    front = getattr(g, "scripted_front", 0)
    py = Game(g.rules, seed=g.seed, dealer=g.dealer, wall=list(g.wall), dice=g.dice)
    if front:
        py.front = front
    ng = native.NativeGame(g.rules, seed=g.seed, dealer=g.dealer, wall=g.wall, dice=g.dice, front=front)
    for seat, action in g.actions:
        mask, mapping = mask_of(py, seat)
        assert np.array_equal(ng.mask(seat), mask), (seat, action)
        index = next(k for k, a in mapping.items() if a == action)
        py.apply(seat, action)
        ng.apply(seat, index)
        assert ng.totals() == py.totals(), (seat, action)
    assert ng.totals() == py.totals() == g.totals() and ng.over == py.over
    if py.over:
        assert ng.settlement()["next_dealer"] == py.next_dealer()
    assert ng.to_python().events == g.events


def _worked_hands():
    import test_engine_kawuxing as k
    import test_engine_sichuan as s
    return [
        (k.test_louhu_after_a_pong_of_a_winnable_discard, {}),
        (k.test_gang_shang_pao_after_a_kong_chain, {"preset": "suizhou", "paid": 4}),
        (k.test_gang_shang_pao_after_a_kong_chain, {"preset": None, "paid": 2}),
        (k.test_man_caps_chained_kong_money, {"preset": "suizhou", "opts": {}, "fourth": 8}),
        (k.test_man_caps_chained_kong_money, {"preset": None, "opts": {}, "fourth": 16}),
        (s.test_pass_win_also_after_a_pong_of_a_winnable_discard, {}),
        (s.test_pass_win_compares_values_before_the_cap, {"cap_fan": 3, "unless_more": True, "paid": 8}),
        (s.test_pass_win_compares_values_before_the_cap, {"cap_fan": 3, "unless_more": False, "paid": None}),
        *[(s.test_added_kong_made_at_once_collects_one_from_each, {"late": late})
          for late in ("none", "collect", "forbid")],
        *[(s.test_added_kong_made_later_by_the_option, {"late": late, "paid": paid}) for late, paid in
          [("none", []), ("collect", [(0, 1, 1, "加杠"), (2, 1, 1, "加杠"), (3, 1, 1, "加杠")]), ("forbid", None)]],
        (s.test_last_four_tiles_must_win, {}),
        *[(s.test_earthly_hand_on_a_discard_in_the_first_go_around, {"options": o, "paid": p})
          for o, p in [({}, 32), ({"earthly": "first_draw"}, 1)]],
        (s.test_no_earthly_hand_once_the_dealer_draws_again, {}),
        *[(s.test_no_haidi_in_chengdu, {"options": o, "each": e}) for o, e in [({}, 1), ({"haidi": True}, 2)]],
        # issue 32's departures
        *[(s.test_robbing_a_kong_adds_no_fan_in_chengdu, {"preset": p, "paid": paid}) for p, paid in
          [("chengdu", 1), ("modern", 2)]],
        *[(s.test_gangshanghua_counts_per_kong_of_the_chain, {"options": o, "bonus": b, "each": e}) for o, b, e in
          [({}, 4, 64), ({"gangshang_chain": False}, 2, 16)]],
        *[(s.test_gangshangpao_counts_per_kong_of_the_chain, {"options": o, "paid": p}) for o, p in
          [({}, 4), ({"gangshang_chain": False}, 2)]],
        *[(k.test_suizhou_first_declarer_pays_both_at_a_drawn_hand, {"preset": p, "expected": e, "dealer_next": d})
          for p, e, d in [("suizhou", [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], 0),
                          ("xiangyang", [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], 1)]],
    ]


def test_the_worked_hands_of_issue_14_settle_the_same_in_both_engines(monkeypatch):
    """The rule changes' worked hands (hand-made walls, scripted play) replayed in the native engine."""
    import scenario

    for test, kwargs in _worked_hands():
        built = []

        def recording(*args, **options):
            g = scenario.game_with(*args, **options)
            built.append(g)
            return g

        monkeypatch.setattr(sys.modules[test.__module__], "game_with", recording)
        test(**kwargs)
        assert built, test.__name__
        for g in built:
            _replay_natively(g)
