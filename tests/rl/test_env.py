"""The RL environments: standard API checks, masks, and no hidden information."""

import copy
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from majiang.bots import make_agent  # noqa: E402
from majiang.engine import Game  # noqa: E402
from majiang.games.rules import rules_for  # noqa: E402
from majiang.native import available as native_available  # noqa: E402
from majiang.rl import N_ACTIONS, OBS_SIZE, BatchEnv, action_index, encode, make, mask_of, single_agent  # noqa: E402

# every env test that steps games runs on both engines when the native one is built
BACKENDS = ["python", "native"] if native_available() else ["python"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_pettingzoo_api_and_seed(variant, backend):
    from pettingzoo.test import api_test, seed_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make(variant, backend=backend), num_cycles=200)
        seed_test(lambda: make(variant, backend=backend), num_cycles=200)


@pytest.mark.parametrize("variant, preset, opponents", [("kawuxing", None, "greedy"), ("sichuan", "modern", "greedy"),
                                                        ("kawuxing", None, "random"), ("sichuan", "modern", "random")])
def test_gymnasium_checker(variant, preset, opponents):
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(single_agent(variant, opponents, preset=preset), skip_render_check=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_compact_observation_envs_pass_the_api_checks(backend):
    """obs_dtype="uint8": the AEC env passes api_test, the single-agent env check_env (native: as
    test_gymnasium_checker, whose default backend is native here), and the observations are the
    float32 ones after expand."""
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from majiang.rl.encoder import OBS_COMPACT_SIZE, expand
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make("sichuan", backend=backend, obs_dtype="uint8"), num_cycles=100)
        check_env(single_agent("kawuxing", "random", backend=backend, obs_dtype="uint8"), skip_render_check=True)
    small, full = single_agent("sichuan", "greedy", backend=backend, obs_dtype="uint8"), \
        single_agent("sichuan", "greedy", backend=backend)
    a, _ = small.reset(seed=2)
    b, _ = full.reset(seed=2)
    for _ in range(40):
        assert a["observation"].shape == (OBS_COMPACT_SIZE,) and np.array_equal(expand(a["observation"]),
                                                                                b["observation"])
        action = int(np.flatnonzero(b["action_mask"])[0])
        a, _, done, _, _ = small.step(action)
        b, _, _, _, _ = full.step(action)
        if done:
            break
    with pytest.raises(ValueError):
        make("sichuan", backend=backend, obs_dtype="float16")


@pytest.mark.parametrize("backend", BACKENDS)
def test_aec_plays_whole_hands_and_rewards_are_the_settlement(backend):
    """The rewards of whole hands add up to the settlement; the env's own last (its shortcuts while
    no points moved) says at every turn what PettingZoo's reads from the dicts."""
    from pettingzoo import AECEnv

    env = make("sichuan", preset="modern", backend=backend)
    rng = random.Random(1)
    for hand in range(5):
        env.reset(seed=hand)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = last = env.last()
            theirs = AECEnv.last(env)
            assert [(type(x), x) for x in last[1:]] == [(type(x), x) for x in theirs[1:]]
            assert obs.keys() == theirs[0].keys() and all(np.array_equal(obs[k], theirs[0][k]) for k in obs)
            assert env.last(observe=False)[0] is None
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(list(legal))))
        totals = env.unwrapped.game.totals()
        assert [total[a] for a in env.possible_agents] == totals and sum(totals) == 0


def test_every_legal_action_has_its_own_index():
    g = Game(rules_for("sichuan", "modern"), seed=5)
    for _ in range(200):
        if g.over:
            break
        seat = g.pending_seats()[0]
        mask, mapping = mask_of(g, seat)
        legal = g.legal_actions(seat)
        non_exchange = [a for a in legal if a.type != "exchange"]
        assert len({action_index(a) for a in non_exchange}) == len(non_exchange)
        assert all(mask[i] == 1 for i in mapping) and mask.sum() == len(mapping)
        g.apply(seat, mapping[random.Random(len(g.actions)).choice(sorted(mapping))])


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_encoding_holds_no_hidden_information(variant):
    rng = random.Random(0)
    n = 3 if variant == "kawuxing" else 4
    for hand in range(6):
        g = Game(rules_for(variant), seed="hidden", hand_index=hand)
        agents = [make_agent("greedy", s) for s in range(n)]
        for _ in range(rng.randrange(5, 60)):
            if g.over:
                break
            s = g.pending_seats()[0]
            g.apply(s, agents[s].act(g.observation(s), g.legal_actions(s)))
        if g.over:
            continue
        for seat in range(n):
            before = encode(g, seat)
            other = copy.deepcopy(g)
            # deal every tile this seat cannot see again: other hands and the live wall
            pool = list(other.wall[other.front:other.back])
            for s in range(n):
                if s != seat:
                    pool += [k for k in range(30) for _ in range(other.seats[s].counts[k])]
            rng.shuffle(pool)
            for s in range(n):
                if s != seat:
                    size = sum(other.seats[s].counts)
                    other.seats[s].counts = [0] * 30
                    for t in pool[:size]:
                        other.seats[s].counts[t] += 1
                    pool = pool[size:]
            other.wall[other.front:other.back] = pool
            assert np.array_equal(encode(other, seat), before)
            assert before.shape == (OBS_SIZE,)


@pytest.mark.parametrize("backend", BACKENDS)
def test_batch_env(backend):
    env = BatchEnv("kawuxing", 4, opponents="random", seed=3, backend=backend)
    obs, masks = env.reset()
    assert obs.shape == (4, OBS_SIZE) and masks.shape == (4, N_ACTIONS)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        actions = [rng.choice(np.flatnonzero(m)) for m in masks]
        obs, masks, rewards, dones = env.step(actions)
        finished += int(dones.sum())
        assert masks.sum(axis=1).min() >= 1
    assert finished > 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_self_play_batch_env_steps_every_seat_and_settles_to_zero(backend):
    env = BatchEnv("sichuan", 3, opponents=None, seed=5, backend=backend)
    obs, masks = env.reset()
    assert obs.shape == (3, OBS_SIZE) and masks.shape == (3, N_ACTIONS)
    rng = np.random.default_rng(1)
    hand_money = np.zeros((3, 4))
    finished = 0
    seen_seats = set()
    for _ in range(600):
        seen_seats.update(env.seats.tolist())
        actions = [rng.choice(np.flatnonzero(m)) for m in masks]
        obs, masks, rewards, dones = env.step(actions)
        assert rewards.shape == (3, 4)
        hand_money += rewards
        for i in np.flatnonzero(dones):
            assert abs(hand_money[i].sum()) < 1e-6  # every hand's payments sum to zero
            hand_money[i] = 0
            finished += 1
        # the observation of each game is that of the seat that acts next
        for i, g in enumerate(env.games):
            assert np.array_equal(obs[i], encode(g, int(env.seats[i])))
    assert finished > 0 and seen_seats == {0, 1, 2, 3}


@pytest.mark.parametrize("backend", BACKENDS)
def test_self_play_batch_env_rejects_an_illegal_action_and_changes_nothing(backend):
    env = BatchEnv("kawuxing", 2, opponents=None, seed=2, backend=backend)
    _, masks = env.reset()
    before = [list(g.events) for g in env.games]
    bad = [int(np.flatnonzero(masks[0])[0]), int(np.flatnonzero(masks[1] == 0)[0])]
    with pytest.raises(ValueError, match="game 1"):
        env.step(bad)
    assert [list(g.events) for g in env.games] == before


def _trajectory(env: BatchEnv, steps: int, bad_at: int | None = None) -> list:
    obs, masks = env.reset()
    rng = np.random.default_rng(7)
    out = []
    for k in range(steps):
        noise = rng.random(masks.shape)
        actions = np.argmax(np.where(masks > 0, noise, -1.0), axis=1)
        if k == bad_at:
            bad = actions.copy()
            bad[-1] = int(np.flatnonzero(masks[-1] == 0)[0])
            with pytest.raises(ValueError, match=f"game {env.num_envs - 1}"):
                env.step(bad)
        obs, masks, rewards, dones = env.step(actions)
        out.append((obs.tobytes(), masks.tobytes(), rewards.tobytes(), dones.tobytes()))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("opponents", [None, "random"])
def test_batch_workers_play_the_same_games_as_one_process(opponents, backend):
    one = BatchEnv("sichuan", 5, opponents=opponents, seed=4, backend=backend)
    with BatchEnv("sichuan", 5, opponents=opponents, seed=4, workers=2, backend=backend) as two:
        bad_at = 50 if opponents is None else None  # a rejected batch changes no game in any process
        assert _trajectory(two, 150, bad_at) == _trajectory(one, 150)
    assert not two._procs and not two._buffers


@pytest.mark.parametrize("backend", BACKENDS)
def test_batch_env_rejects_malformed_batches(backend):
    env = BatchEnv("kawuxing", 3, opponents=None, backend=backend)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0, 0])
    env.reset()
    with pytest.raises(ValueError, match="expected 3 actions"):
        env.step([0, 0])
    with pytest.raises(ValueError, match="game 0: action 999"):
        env.step([999, 0, 0])
    with pytest.raises(ValueError, match="integers"):
        env.step(["pass", "x", "y"])
    with pytest.raises(ValueError, match="game 1: action -1"):
        env.step([int(np.flatnonzero(env._arr["masks"][0])[0]), -1, 0])
    with pytest.raises(ValueError, match="num_envs"):
        BatchEnv("kawuxing", 0)
    with pytest.raises(ValueError, match="seat must be 0-2"):
        BatchEnv("kawuxing", 2, opponents="random", seat=3, backend=backend)
    with pytest.raises(ValueError, match="backend"):
        BatchEnv("kawuxing", 2, backend="gpu")


@pytest.mark.parametrize("variant, preset, options", [
    ("kawuxing", None, {}), ("kawuxing", "xiangyang", {}), ("sichuan", "modern", {}),
    ("sichuan", None, {"sing_dance": True}), ("sichuan", None, {"blood_river": True})])
def test_cached_encoding_equals_a_fresh_one(variant, preset, options):
    # the public slots are cached and updated from events; skipping seats and steps, and writing
    # into a dirty buffer, must give exactly what encoding from nothing gives
    rng = random.Random(3)
    for hand in range(4):
        g = Game(rules_for(variant, preset, **options), seed=hand)
        agents = [make_agent("greedy" if (hand + s) % 2 else "random", s) for s in range(g.n)]
        while True:
            for s in range(g.n):
                if rng.random() < 0.4 or g.over:
                    cached = encode(g, s, out=np.full(OBS_SIZE, 7.0, dtype=np.float32))
                    kept = g.caches.pop("env_slots")
                    assert np.array_equal(cached, encode(g, s)), (hand, s, len(g.events))
                    g.caches["env_slots"] = kept
            if g.over:
                break
            s = g.pending_seats()[0]
            g.apply(s, agents[s].act(g.observation(s), g.legal_actions(s)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_aec_refuses_junk_actions_and_changes_nothing(backend):
    env = make("kawuxing", backend=backend)
    env.reset(seed=8)
    agent = env.agent_selection
    before = env.observe(agent)
    legal = int(np.flatnonzero(before["action_mask"])[0])
    for junk in (None, "1p", 3.5, True, -1, N_ACTIONS, [legal, legal], {"type": "discard"},
                 int(np.flatnonzero(before["action_mask"] == 0)[0])):
        with pytest.raises(ValueError, match="not legal"):
            env.step(junk)
        after = env.observe(agent)
        assert env.agent_selection == agent
        assert np.array_equal(after["observation"], before["observation"])
        assert np.array_equal(after["action_mask"], before["action_mask"])
    env.step(np.int64(legal))  # numpy integers are actions too


def test_the_rl_page_snippet_runs_as_a_script(tmp_path):
    """docs/RL.md's first Python block as a file run by python: workers start, and stop, and no shared
    memory leaks (the resource tracker would say so on stderr)."""
    import pathlib
    import re
    import subprocess
    import sys

    section = (pathlib.Path(__file__).parents[2] / "docs" / "RL.md").read_text(encoding="utf-8")
    assert "pip install 'majiang[rl]'" in section.split("```python", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    (tmp_path / "snippet.py").write_text(code, encoding="utf-8")
    proc = subprocess.run([sys.executable, "snippet.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "leaked" not in proc.stderr and "Traceback" not in proc.stderr


def test_auto_says_once_that_it_fell_back_to_python(monkeypatch):
    from majiang import native
    from majiang.rl import backends

    monkeypatch.setattr(native, "available", lambda: False)
    monkeypatch.setattr(backends, "_warned", False)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert backends._backend("auto") == "python"
        assert backends._backend("auto") == "python"
        assert backends._backend("python") == "python"
    assert len(seen) == 1 and issubclass(seen[0].category, RuntimeWarning)
    assert "backend='python'" in str(seen[0].message)


def test_masks_are_int8_zero_or_one_in_every_env():
    """docs/RL.md's promise: one mask type, int8 of 0/1, in the AEC env, the single-agent env and BatchEnv."""
    import numpy as np

    from majiang.rl import BatchEnv, make, single_agent

    env = make("kawuxing")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
    single = single_agent("sichuan")
    obs, _ = single.reset(seed=1)
    assert obs["action_mask"].dtype == np.int8
    with BatchEnv("kawuxing", 4) as batch:
        _, masks = batch.reset()
        assert masks.dtype == np.int8 and set(np.unique(masks)) <= {0, 1}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_seed_replays_the_same_episode_random_opponents_included(backend):
    env = single_agent("kawuxing", "random", backend=backend)
    runs = []
    for _ in range(2):
        obs, _ = env.reset(seed=11)
        trace = [obs["observation"].tobytes()]
        for step in range(60):
            legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
            obs, reward, done, truncated, info = env.step(legal[step % len(legal)])
            trace.append(obs["observation"].tobytes())
            if done or truncated:
                break
        runs.append(trace)
    assert runs[0] == runs[1]


# --- PettingZoo's and Gymnasium's conventions (issue #49) --------------------------------------


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_module_env_and_raw_env_as_pettingzoo_envs_offer_them(variant):
    """``env()`` (wrapped) and ``raw_env()`` pass api_test; a step before reset is refused by the wrapper."""
    from pettingzoo.test import api_test

    from majiang.rl import env, raw_env
    from majiang.rl.pettingzoo import MajiangAEC
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(variant), num_cycles=100)
        api_test(raw_env(variant), num_cycles=100)
    assert isinstance(raw_env(variant), MajiangAEC) and isinstance(env(variant).unwrapped, MajiangAEC)
    with pytest.raises(Exception, match="reset"):
        env(variant).step(0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("render_mode", [None, "ansi"])
@pytest.mark.parametrize("variant, opponents", [("kawuxing", "greedy"), ("sichuan", "random"),
                                                ("sichuan", ["random", "greedy", "strong"])])
def test_check_env_passes_without_a_warning(variant, opponents, render_mode, backend):
    """check_env with its render and close checks (the env has a spec), every warning an error
    (mixed opponents play on the Python engine)."""
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(single_agent(variant, opponents, render_mode=render_mode,
                               backend=backend if isinstance(opponents, str) else "python"))


def test_gymnasium_ids_make_the_single_seat_env():
    import gymnasium

    import majiang.rl.gymnasium  # noqa: F401  (registers the ids)
    env = gymnasium.make("majiang/Sichuan-v0", opponents="random", render_mode="ansi")
    env.reset(seed=1)
    assert "seat" in env.render() or env.render()
    assert env.spec.id == "majiang/Sichuan-v0" and env.unwrapped.rules.variant == "sichuan"
    assert single_agent("kawuxing").spec.id == "majiang/Kawuxing-v0"


def test_render_mode_is_none_or_ansi():
    with pytest.raises(ValueError, match="render_mode must be None or one of 'ansi'"):
        make("kawuxing", render_mode="human")
    with pytest.raises(ValueError, match="render_mode must be None or one of 'ansi'"):
        single_agent("kawuxing", render_mode="human")
    gym_env = single_agent("kawuxing", render_mode="ansi")
    gym_env.reset(seed=0)
    assert isinstance(gym_env.render(), str)
    assert single_agent("kawuxing").render() is None  # no render mode: nothing rendered, as Gymnasium's envs


def test_opponents_as_a_list_one_per_other_seat():
    gym_env = single_agent("kawuxing", opponents=["random", "greedy"], seat=1)
    assert [type(a).__name__ for s, a in enumerate(gym_env.opponents) if s != 1] == ["RandomAgent", "GreedyAgent"]
    obs, _ = gym_env.reset(seed=3)
    done = False
    while not done:
        _, _, done, _, _ = gym_env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    for bad, fragment in ((["random"], "other seats"), ([1, 2], "agent name"), ("nobot", "nobot")):
        with pytest.raises(Exception, match=fragment):
            single_agent("kawuxing", opponents=bad)


def test_a_plain_install_names_the_rl_extra():
    """Without gymnasium docs/RL.md's import says which extra to install, in one line."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['gymnasium'] = None; sys.modules['pettingzoo'] = None\n"
            "from majiang.rl import BatchEnv, make, single_agent")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1].endswith("pip install 'majiang[rl]'")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_parallel_env_passes_parallel_api_test(variant, backend):
    """One agent has moves a step; whole hands play out, the rewards sum to the AEC env's."""
    from pettingzoo.test import parallel_api_test

    from majiang.rl import parallel_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(parallel_env(variant, backend=backend), num_cycles=2000)
    env = parallel_env(variant, backend=backend)
    obs, _ = env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        movers = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(movers) == 1
        obs, rewards, *_ = env.step({movers[0]: int(np.flatnonzero(obs[movers[0]]["action_mask"])[0])})
        for a, r in rewards.items():
            totals[a] += r
    assert abs(sum(totals.values())) < 1e-9  # the points move between seats
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
