"""Agents see only their observation; external bots; the duplicate arena."""

import json
import os
import sys

import pytest

from majiang.bots import GreedyAgent, StrongAgent, make_agent
from majiang.bots.external import SubprocessAgent
from majiang.cli.main import main
from majiang.engine import Game
from majiang.games.rules import rules_for
from majiang.play.arena import run_arena
from majiang.play.runner import play_hand

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, "..", "..")
PROGRAMS = os.path.join(HERE, "..", "bot_programs")  # the external bots the tests run
EXAMPLE = os.path.join(ROOT, "examples", "bots", "random_bot.py")


def test_observation_hides_other_hands_and_the_wall():
    g = Game(rules_for("sichuan"), seed=4)
    obs = g.observation(1)
    text = json.dumps(obs)
    assert "wall" not in obs and "hand" in obs["players"][1]
    assert all("hand" not in p for i, p in enumerate(obs["players"]) if i != 1)
    assert "drawn" not in obs  # seat 1 is not the one who drew
    spectator = g.observation(None)
    assert all("hand" not in p for p in spectator["players"]) and "legal" not in spectator
    assert len(text) < 20000


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_strong_and_greedy_only_use_observations(variant):
    n = 3 if variant == "kawuxing" else 4
    for i in range(6):
        g = Game(rules_for(variant), seed="obs", hand_index=i)
        agents = [StrongAgent(s, work=500) if s % 2 else GreedyAgent(s) for s in range(n)]
        play_hand(g, agents)
        assert g.over and sum(g.totals()) == 0


def test_sichuan_strong_pongs_for_a_kong_to_come_where_greedy_passes():
    from scenario import act, game_with

    g = game_with("sichuan", ["111m222m333m444m58p", "123m456m789m88p13p", "111s222s333s444s5s",
                              "555s666s777s888s9s"])
    for seat, suit in enumerate("ssmm"):
        if g.phase == "void" and g.legal_actions(seat):  # a hand missing a suit has its void already
            act(g, seat, "void", suit=suit)
    act(g, 0, "discard", "8p")
    # seat 1 is ready either way (waiting on 2p, or on 1p/3p alone after the pong); the fourth 8p
    # is still live, so the pong costs nothing and may become a kong (money now, a 根 later)
    legal = g.legal_actions(1)
    assert {a.type for a in legal} == {"pong", "pass"}
    assert StrongAgent(0).act(g.observation(1), legal).type == "pong"
    assert GreedyAgent(0).act(g.observation(1), legal).type == "pass"


def test_kawuxing_strong_declares_a_ready_hand_with_live_waits():
    from scenario import game_with

    # discarding 5z leaves 123p456p789p11s23s waiting on 1s/4s, all live: 亮倒 doubles the win
    g = game_with("kawuxing", ["123p456p789p11s23s5z", "147p258p369p147s5z", "1234p5p6p7p8p9p1s2s3s6z"])
    legal = g.legal_actions(0)
    choice = StrongAgent(0).act(g.observation(0), legal)
    assert (choice.type, str(choice.tile)) == ("declare", "5z")


def test_kawuxing_strong_kongs_for_the_money_even_at_a_step_of_shanten():
    from scenario import game_with

    # 1111p23p: the kong breaks 11p+123p (two steps from ready become three), but a concealed kong
    # is paid 2 by each other player at once, more than one step is worth this early
    g = game_with("kawuxing", ["1111p23p5z6z7z1s5s7s8s9s", "258p369p258s369s5z", "5p6p7p8p9p2s3s4s6s6z6z7z7z"])
    legal = g.legal_actions(0)
    assert StrongAgent(0).act(g.observation(0), legal).type == "concealed_kong"
    assert GreedyAgent(0).act(g.observation(0), legal).type == "discard"


def test_sichuan_strong_never_sings():
    from scenario import act, game_with

    # 唱歌 adds no 番 and freezes the hand: never worth more than staying hidden
    g = game_with("sichuan", ["123m456m789m11p23p9s", "147m258m369m147p5s", "2m3m4m5m6m7m8m9m4p5p6p7p8p",
                              "123s456s789s1s2s3s4s"], sing_dance=True)
    for seat, suit in enumerate("sssm"):
        if g.phase == "void" and g.legal_actions(seat):
            act(g, seat, "void", suit=suit)
    legal = g.legal_actions(0)
    assert {a.type for a in legal} == {"sing", "declare", "discard"}
    assert StrongAgent(0).act(g.observation(0), legal).type != "sing"


def test_strong_plays_the_same_on_a_slow_machine(monkeypatch):
    # the look-ahead is bounded by work, not time: a clock that races ahead changes nothing
    from majiang.bots.strong import lookahead as agents_module
    from majiang.games.rules import rules_for, rules_to_json
    from majiang.play.arena import play_deal

    task = {"rules": rules_to_json(rules_for("sichuan")), "bots": ["strong", "greedy", "greedy", "greedy"],
            "seed": 11, "deal": 0}
    normal = play_deal(dict(task))
    ticks = iter(range(10 ** 9))
    monkeypatch.setattr(agents_module.time, "perf_counter", lambda: float(next(ticks)))
    assert play_deal(dict(task)) == normal


def test_external_bot_plays_a_whole_hand():
    bot = SubprocessAgent(f"{sys.executable} {EXAMPLE}", timeout=5)
    g = Game(rules_for("kawuxing"), seed=2)
    play_hand(g, [bot, make_agent("greedy", 1), make_agent("greedy", 2)])
    bot.close()
    assert g.over and bot.stats["decisions"] > 0
    assert bot.stats["timeouts"] == bot.stats["illegal"] == bot.stats["malformed"] == 0


def test_misbehaving_bot_gets_safe_defaults_and_is_counted():
    bot = SubprocessAgent(f"{sys.executable} {os.path.join(PROGRAMS, 'bad_bot.py')}", timeout=0.2)
    g = Game(rules_for("sichuan"), seed=3)
    play_hand(g, [bot] + [make_agent("greedy", s) for s in range(1, 4)])
    bot.close()
    assert g.over
    assert bot.stats["timeouts"] >= 1 and bot.stats["malformed"] + bot.stats["illegal"] >= 1


def test_arena_local_and_workers_agree():
    rules = rules_for("kawuxing")
    one = run_arena(rules, ["greedy", "random", "random"], 6, seed=7).summary()
    two = run_arena(rules, ["greedy", "random", "random"], 6, seed=7, workers=2).summary()
    assert one == two
    assert one["deals"] == 6 and one["hands_per_deal"] == 3
    greedy = one["agents"][0]
    assert greedy["hands"] == 18 and greedy["ci95"][0] <= greedy["mean_points"] <= greedy["ci95"][1]
    assert abs(sum(e["mean_points"] for e in one["agents"])) < 1e-9  # duplicate deals sum to zero


def test_arena_ray_backend_matches_local():
    pytest.importorskip("ray")
    rules = rules_for("kawuxing")
    local = run_arena(rules, ["greedy", "random", "random"], 3, seed=1).summary()
    ray = run_arena(rules, ["greedy", "random", "random"], 3, seed=1, backend="ray", workers=2).summary()
    assert local == ray


def test_arena_cli_json_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "arena.png"
    code = main(["arena", "--variant", "sichuan", "--bots", "greedy,random,random,random", "--games", "4",
                 "--seed", "1", "--json", "--plot", str(png)])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and png.stat().st_size > 1000
    keys = {"agent", "mean_points", "ci95", "win_rate", "self_draw_rate", "deal_in_rate", "mean_win_value",
            "draw_rate", "timeouts", "illegal_replies"}
    assert all(keys <= set(e) for e in out["agents"])


def test_arena_rejects_wrong_table(capsys):
    code = main(["arena", "--variant", "sichuan", "--bots", "greedy,greedy", "--games", "2"])
    assert code == 2 and "needs 4 bots" in capsys.readouterr().err
    code = main(["arena", "--variant", "sichuan", "--bots", "greedy,greedy,greedy,wizard", "--games", "2"])
    assert code == 2 and "unknown agent" in capsys.readouterr().err


SEAT_BOT = f"cmd:{sys.executable} {os.path.join(PROGRAMS, 'seat_bot.py')}"


def _stderr_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def test_identical_cmd_entries_get_one_process_each(tmp_path, capsys):
    # issue 19.1: --bots X,X,X must not drive three seats through one process
    out = tmp_path / "run"
    code = main(["arena", "--variant", "kawuxing", "--bots", ",".join([SEAT_BOT] * 3), "--games", "2",
                 "--timeout", "5", "--out", str(out), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and all(e["timeouts"] == e["illegal_replies"] == e["crashes"] == 0 for e in summary["agents"])
    files = sorted(p.name for p in out.iterdir() if p.suffix == ".stderr")
    assert files == ["bot0.stderr", "bot1.stderr", "bot2.stderr"]
    pids = set()
    for name in files:
        lines = _stderr_lines(out / name)
        assert lines[0].startswith("hello protocol 2 pid ")
        mine = {ln.split("pid ")[1].split()[0] for ln in lines}
        assert len(mine) == 1  # one process per entry, reused for all its hands
        pids |= mine
        hands = [ln for ln in lines if ln.startswith("hand ")]
        assert len(hands) == 2 * 3  # 2 deals x 3 rotations, one seat per hand
        assert sorted(int(ln.split()[-1]) for ln in hands) == [0, 0, 1, 1, 2, 2]  # the entry rotates
    assert len(pids) == 3


def test_share_bots_puts_identical_entries_in_one_process(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["arena", "--variant", "kawuxing", "--bots", f"greedy,{SEAT_BOT},{SEAT_BOT}", "--games", "1",
                 "--timeout", "5", "--out", str(out), "--share-bots", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["bot_stderr"] == [str(out / "bot1-shared.stderr")]
    lines = _stderr_lines(out / "bot1-shared.stderr")
    assert len({ln.split("pid ")[1].split()[0] for ln in lines}) == 1
    hands = [ln for ln in lines if ln.startswith("hand ")]
    assert len(hands) == 2 * 3  # two seats of each of the 3 rotations, one process


def test_a_dying_bot_shows_its_traceback(tmp_path, capfd):
    # issue 19.2: the stderr is kept in the run's folder and the traceback is printed
    crash = f"cmd:{sys.executable} {os.path.join(PROGRAMS, 'crash_bot.py')}"
    out = tmp_path / "run"
    code = main(["arena", "--variant", "kawuxing", "--bots", f"{crash},greedy,greedy", "--games", "1",
                 "--timeout", "5", "--out", str(out), "--json"])
    captured = capfd.readouterr()
    summary = json.loads(captured.out)
    assert code == 0 and summary["agents"][0]["crashes"] >= 1
    assert "exited with status 1" in captured.err and "ZeroDivisionError" in captured.err
    assert "Traceback (most recent call last)" in captured.err
    kept = (out / "bot0.stderr").read_text()
    assert "about to fail" in kept and "ZeroDivisionError" in kept


def test_bot_stderr_passes_through(capfd):
    code = main(["arena", "--variant", "kawuxing", "--bots", f"{SEAT_BOT},greedy,greedy", "--games", "1",
                 "--timeout", "5", "--bot-stderr", "--json"])
    err = capfd.readouterr().err
    assert code == 0 and "[entry 0 [" in err and "hello protocol 2" in err


def _summary(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_split_runs_merge_to_the_single_run(tmp_path, capsys):
    # issue 19.5: deals 0-6 in one run == deals 0-2, 3-4 and 5-6 run apart and merged, exactly
    base = ["arena", "--variant", "sichuan", "--bots", "greedy,random,greedy,random", "--seed", "9", "--json"]
    whole = _summary(capsys, base + ["--games", "7"])
    parts = []
    for first, games in ((5, 2), (0, 3), (3, 2)):
        out = tmp_path / f"part{first}"
        part = _summary(capsys, base + ["--games", str(games), "--first-deal", str(first), "--out", str(out)])
        assert part["deal_ranges"] == [[first, first + games - 1]]
        parts.append(str(out))
    merged = _summary(capsys, ["arena-merge", *parts, "--json"])
    assert merged == whole
    assert whole["deal_ranges"] == [[0, 6]] and whole["deals"] == 7
    # a part that overlaps another, or comes from another table, is refused
    assert main(["arena-merge", parts[0], parts[0]]) == 2
    assert "deal 5 is in both" in capsys.readouterr().err
    other = tmp_path / "other"
    _summary(capsys, base[:-3] + ["--seed", "10", "--json", "--games", "1", "--first-deal", "7", "--out", str(other)])
    assert main(["arena-merge", parts[0], str(other)]) == 2
    assert "other seed" in capsys.readouterr().err


def test_an_interrupted_run_is_resumed_and_merged(tmp_path, capsys):
    base = ["arena", "--variant", "kawuxing", "--bots", "greedy,random,random", "--seed", "3", "--json"]
    whole = _summary(capsys, base + ["--games", "4"])
    first = tmp_path / "first"
    _summary(capsys, base + ["--games", "4", "--out", str(first)])
    lines = (first / "deals.jsonl").read_text().splitlines()
    (first / "deals.jsonl").write_text("\n".join(lines[:3]) + "\n" + lines[3][:25])  # killed writing deal 2
    assert main(["arena-merge", str(first), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["deal_ranges"] == [[0, 1]] and "cut short" in captured.err
    rest = tmp_path / "rest"
    _summary(capsys, base + ["--games", "2", "--first-deal", "2", "--out", str(rest)])
    assert _summary(capsys, ["arena-merge", str(first), str(rest / "deals.jsonl"), "--json"]) == whole
    assert main(base + ["--games", "1", "--out", str(rest)]) == 2  # a folder is not overwritten
    assert "already holds a run" in capsys.readouterr().err


TRACKER = os.path.join(ROOT, "examples", "bots", "tracker_bot.py")


@pytest.mark.parametrize("share", [False, True])
def test_example_tracker_bot_plays_itself_at_four_seats(tmp_path, capsys, share):
    # the second example bot keeps per-seat state between prompts: one process per seat by
    # default, and with --share-bots one process keeps the four seats apart by the hand messages
    out = tmp_path / "run"
    bot = f"cmd:{sys.executable} {TRACKER}"
    argv = ["arena", "--variant", "sichuan", "--bots", ",".join([bot] * 4), "--games", "2", "--seed", "5",
            "--timeout", "5", "--out", str(out), "--json"] + (["--share-bots"] if share else [])
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 2 and all(e["hands"] == 8 for e in summary["agents"])
    assert all(e["timeouts"] == e["illegal_replies"] == e["crashes"] == 0 for e in summary["agents"])
    assert abs(sum(e["mean_points"] for e in summary["agents"])) < 1e-9
    files = sorted(p.name for p in out.iterdir() if p.suffix == ".stderr")
    assert files == (["bot0-shared.stderr"] if share else [f"bot{i}.stderr" for i in range(4)])
    assert all((out / f).read_text() == "" for f in files)  # never lost count of a seat's discards


def test_hand_message_without_play_hand(tmp_path):
    # a caller that drives the bot itself (not play_hand) still gets one hand message per hand
    log = tmp_path / "lines.jsonl"
    bot = SubprocessAgent(f"{sys.executable} {os.path.join(PROGRAMS, 'record_bot.py')} {log}", timeout=5)
    for i in range(2):
        g = Game(rules_for("kawuxing"), seed=8, hand_index=i)
        others = [None, make_agent("greedy", 1), make_agent("greedy", 2)]
        while not g.over:
            seat = g.pending_seats()[0]
            agent = bot if seat == 0 else others[seat]
            g.apply(seat, agent.act(g.observation(seat), g.legal_actions(seat)))
    bot.close()
    types = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert types[0] == "hello" and types.count("hello") == 1
    assert types.count("hand") == 2 and types[1] == "hand"
    assert bot.stats["timeouts"] == bot.stats["illegal"] == bot.stats["malformed"] == 0


@pytest.mark.timeout(60)
def test_a_bot_that_never_reads_costs_only_its_timeouts():
    """Issue 29 item 9: prompts go through a writer thread; a full pipe never blocks a decision."""
    bot = SubprocessAgent(f"{sys.executable} {os.path.join(PROGRAMS, 'deaf_bot.py')}", timeout=0.05)
    g = Game(rules_for("kawuxing"), seed=3)
    play_hand(g, [bot, make_agent("greedy", 1), make_agent("greedy", 2)])
    bot.close()
    assert g.over and bot.stats["timeouts"] == bot.stats["decisions"] > 0
    assert bot._proc is None


def test_replies_not_utf8_or_too_long_are_refused_and_shown(tmp_path, capsys):
    """Issue 29 item 9: the reader thread survives bytes that are not UTF-8 and skips a 3 MB line
    without holding it; each rejection is counted, and the first few shown with their reason."""
    bot = f"cmd:{sys.executable} {os.path.join(PROGRAMS, 'noisy_bot.py')}"
    code = main(["arena", "--variant", "kawuxing", "--bots", f"{bot},greedy,greedy", "--games", "1",
                 "--timeout", "5", "--out", str(tmp_path / "run")])
    out = capsys.readouterr().out
    assert code == 0
    assert "a line that is not UTF-8" in out and "a line longer than 1,048,576 bytes" in out
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    entry = summary["agents"][0]
    assert entry["timeouts"] == 0 and entry["illegal_replies"] > 0 and len(entry["rejected"]) == 5
    assert "rejected a reply of seat" in (tmp_path / "run" / "bot0.stderr").read_text()


def test_a_rejected_reply_is_kept_with_its_reason():
    bot = SubprocessAgent(f"{sys.executable} {os.path.join(PROGRAMS, 'bad_bot.py')}", timeout=0.2)
    g = Game(rules_for("sichuan"), seed=3)
    play_hand(g, [bot] + [make_agent("greedy", s) for s in range(1, 4)])
    bot.close()
    reasons = {r["reason"] for r in bot.rejected}
    assert any("no reply within" in r for r in reasons) and len(bot.rejected) <= 20


def _bot_prompts():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bot_prompts", os.path.join(ROOT, "scripts", "bot_prompts.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_prompts_in_the_bot_docs_are_what_bots_receive():
    """docs/BOTS.md's "One prompt of each phase" is what scripts/bot_prompts.py makes from real deals
    today, and every prompt there validates against the schema's decide message."""
    prompts = _bot_prompts()
    with open(os.path.join(ROOT, "docs", "BOTS.md"), encoding="utf-8") as f:
        doc = f.read()
    shown = doc[doc.index(prompts.BEGIN):doc.index(prompts.END) + len(prompts.END)]
    assert shown == prompts.section(), "run python scripts/bot_prompts.py --write"
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    schema = json.loads(resources.files("majiang").joinpath("data/observation.schema.json").read_text("utf-8"))
    decide = jsonschema.Draft202012Validator({"$ref": "#/$defs/decide", "$defs": schema["$defs"]})
    hand = jsonschema.Draft202012Validator({"$ref": "#/$defs/hand", "$defs": schema["$defs"]})
    blocks = [json.loads(b.split("```", 1)[0]) for b in shown.split("```json\n")[1:]]
    assert [b["type"] for b in blocks] == ["hand"] + ["decide"] * 5
    hand.validate(blocks[0])
    for message in blocks[1:]:
        decide.validate(message)
    phases = [m["observation"]["phase"] for m in blocks[1:]]
    assert phases == ["exchange", "void", "claim", "turn", "turn"]
    turn = blocks[4]["observation"]
    from majiang.core.tiles import Tile, parse_tiles

    assert Tile.parse(turn["drawn"]) in parse_tiles(turn["players"][turn["seat"]]["hand"])


def test_drawn_is_there_on_every_turn_and_only_then():
    game = Game(rules_for("kawuxing"), seed=5)
    agents = [GreedyAgent(s) for s in range(3)]
    turns = 0
    while not game.over:
        seat = game.pending_seats()[0]
        obs = game.observation(seat)
        on_turn = obs["phase"] == "turn" and obs["current"] == seat
        assert ("drawn" in obs) == on_turn
        if on_turn:
            turns += 1
            first_dealer_turn = seat == game.dealer and not any(p["discards"] for p in obs["players"])
            assert (obs["drawn"] is None) == (first_dealer_turn or not game.drawn_from_wall)
        game.apply(seat, agents[seat].act(obs, game.legal_actions(seat)))
    assert turns > 10


class _Named:
    name = "mine"

    def __init__(self, seed):
        self.inner = GreedyAgent(seed)
        self.decisions = 0

    def act(self, obs, legal):
        self.decisions += 1
        return self.inner.act(obs, legal)


def test_run_arena_takes_agent_objects_and_names_alike():
    mine = _Named(0)
    summary = run_arena(rules_for("kawuxing"), [mine, "greedy", "random"], 2, seed=3).summary()
    assert [e["agent"] for e in summary["agents"]] == ["mine", "greedy", "random"]
    assert mine.decisions > 0 and summary["agents"][0]["hands"] == 6
    with pytest.raises(ValueError, match="play in this process"):
        run_arena(rules_for("kawuxing"), [_Named(0), "greedy", "random"], 2, seed=3, workers=2)
    with pytest.raises(ValueError, match="no act"):
        run_arena(rules_for("kawuxing"), [object(), "greedy", "random"], 2, seed=3)


def test_the_example_python_agent_plays_in_the_arena():
    import subprocess

    proc = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "arena_agent.py"), "--games", "2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("careful ") and "points/hand" in proc.stdout


def test_expert_says_once_when_it_searches_without_the_native_engine(monkeypatch):
    import warnings

    from majiang.bots import expert

    monkeypatch.setattr(expert, "native_engine", lambda: None)
    monkeypatch.setattr(expert, "_warned", False)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        expert.ExpertAgent(0)
        expert.ExpertAgent(1)
        expert.ExpertAgent(2, engine="python")  # chosen: nothing to say
    assert len(seen) == 1 and "30-60x slower" in str(seen[0].message)


def test_a_run_on_worker_processes_says_once_that_expert_searches_in_python(tmp_path):
    # each spawned worker makes its own ExpertAgent: only the run's own process says it
    import subprocess

    env = dict(os.environ, MAJIANG_NATIVE_LIB=str(tmp_path / "none.so"))
    proc = subprocess.run([sys.executable, "-m", "majiang", "arena", "--variant", "kawuxing", "--bots",
                           "expert:play=strong,greedy,greedy", "--games", "4", "--workers", "2", "--seed", "1"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("majiang: expert: its search runs in Python"), lines
    assert "points/hand" in proc.stdout
