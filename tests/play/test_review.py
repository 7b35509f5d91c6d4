"""复盘 (issue 51): a finished hand's decisions of one seat valued by ``expert``'s search from that
seat's view. The reviewer tells the random seat from the expert seats, marks planted blunders big,
refuses what is no finished hand, and its JSON keeps its fields."""

from __future__ import annotations

import json

import pytest

from majiang import native
from majiang.bots import ExpertAgent, GreedyAgent, make_agent
from majiang.cli.main import main
from majiang.engine import Action, Game
from majiang.engine.log import LogError, game_records, record_line
from majiang.engine.safety import safe_choices, unsafe_tiles
from majiang.play.review import BIG_LOSS, ReviewError, judge, review_hand, severity_of
from majiang.play.runner import play_hand

# the statistical tests play hundreds of thousands of rollouts: the native engine's work (in Python
# the same numbers, 30-60x slower)
needs_native = pytest.mark.skipif(not native.available(), reason=str(native.unavailable_reason()))
BUDGET = 32  # samples a decision: small, so the tests stay fast


def write(tmp_path, records, name="hand.jsonl"):
    path = tmp_path / name
    path.write_text("".join(record_line(r) + "\n" for r in records), encoding="utf-8")
    return path


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def greedy_hand(variant="kawuxing", seed=3) -> list[dict]:
    g = play_hand(Game(variant, seed=seed), [GreedyAgent(s) for s in range(3 if variant == "kawuxing" else 4)])
    return game_records(g)


# ---------------------------------------------------------------- the reviewer tells good play from bad

@needs_native
def test_random_seat_is_charged_far_more_than_expert_seats():
    """Seat 0 plays ``random``, the others ``expert``: the reviewer agrees with the expert seats far
    more often and charges the random seat far more loss a hand."""
    pooled = {"random": [0, 0, 0.0, 0], "expert": [0, 0, 0.0, 0]}  # agreed, decisions, loss, seat-hands
    for variant, seed in (("kawuxing", 1), ("sichuan", 0), ("sichuan", 1)):
        g = Game(variant, seed=seed)
        play_hand(g, [make_agent("random", 0)] + [make_agent("expert", s) for s in range(1, g.n)])
        for seat in range(g.n):
            r = review_hand(game_records(g), seat, budget=BUDGET)
            tally = pooled["random" if seat == 0 else "expert"]
            tally[0] += sum(d.loss == 0 for d in r.decisions)
            tally[1] += len(r.decisions)
            tally[2] += r.total_loss
            tally[3] += 1
    rate = {k: v[0] / v[1] for k, v in pooled.items()}
    loss = {k: v[2] / v[3] for k, v in pooled.items()}
    # most random discards are no worse than the best by more than the noise: the disagreements
    # (a loss counted) are what tell the seats apart
    assert rate["expert"] > 0.9 and 1 - rate["random"] > 3 * (1 - rate["expert"]) + 0.05, rate
    assert loss["random"] > 4 * loss["expert"] and loss["random"] > 3.0, loss


def planted(variant: str, kind: str, seeds=range(40)) -> tuple[list[dict], int]:
    """A greedy hand where seat 0 once plays a planted blunder: ``dealin`` discards a tile a
    revealed hand waits on while a safe discard is legal; ``passwin`` passes a win on a discard.
    The records and the blunder's index among them."""
    for seed in seeds:
        g = Game(variant, seed=seed)
        agents = [GreedyAgent(s) for s in range(g.n)]
        at = None
        while not g.over:
            s = g.pending_seats()[0]
            obs, legal = g.observation(s), g.legal_actions(s)
            action = agents[s].act(obs, legal)
            if s == 0 and at is None:
                unsafe = unsafe_tiles(obs)
                into = [a for a in legal if a.type == "discard" and a.tile in unsafe]
                if kind == "dealin" and obs["phase"] == "turn" and into and safe_choices(legal, unsafe) != legal:
                    action, at = into[0], len(g.events) + 1
                if kind == "passwin" and obs["phase"] == "claim" and any(a.type == "win" for a in legal):
                    action, at = Action("pass"), len(g.events) + 1
            g.apply(s, action)
        if at is not None:
            return game_records(g), at
    raise AssertionError(f"no {kind} planted in seeds {seeds}")


@needs_native
def test_discarding_into_a_revealed_wait_is_big():
    records, at = planted("kawuxing", "dealin")
    assert records[at]["type"] == "action" and records[at]["seat"] == 0
    d = next(d for d in review_hand(records, 0, budget=BUDGET).decisions if d.index == at)
    assert d.played.type == "discard" and d.best != d.played
    assert d.severity == "big" and d.loss >= BIG_LOSS and d.loss > 2 * d.loss_stderr, d


@needs_native
def test_passing_a_win_is_big():
    records, at = planted("kawuxing", "passwin")
    d = next(d for d in review_hand(records, 0, budget=BUDGET).decisions if d.index == at)
    assert d.played == Action("pass") and d.best.type == "win"
    assert d.severity == "big", d


def test_a_loss_counts_only_beyond_its_noise():
    from majiang.bots.expert import OptionValue

    a, b = Action("discard", "1m"), Action("discard", "9m")
    noisy = [OptionValue(a, 0.5, 1.0, (3.0, -2.0)), OptionValue(b, 0.0, 1.0, (-3.0, 3.0))]
    assert judge(noisy, b) == (a, 0.0, pytest.approx(5.5))  # 0.5 better, but within the noise: no loss
    clear = [OptionValue(a, 2.0, 0.0, (2.0, 2.0, 2.1)), OptionValue(b, 0.0, 0.0, (0.0, 0.0, 0.1))]
    best, loss, se = judge(clear, b)
    assert best == a and loss == pytest.approx(2.0) and se == 0
    assert judge(clear, a) == (a, 0.0, 0.0)
    assert [severity_of(x) for x in (0.0, 0.3, BIG_LOSS)] == ["none", "small", "big"]


def test_option_values_reads_the_observation_only():
    """Two deals that look the same from seat 0 (the same observation, other hidden tiles) get the
    same values: the reviewer judges with what the player could know."""
    g = Game("kawuxing", seed=5)
    seat = g.pending_seats()[0]
    other = Game("kawuxing", seed=5)
    mover = next(s for s in range(other.n) if s != seat)
    mine = {int(t) for t in other.hand(seat).tiles}
    # swap a hidden tile of another seat with one deep in the wall: this seat's view is unchanged
    counts = other.seats[mover].counts
    k = next(t for t in range(30) if counts[t] and t not in mine)
    w = next(i for i in range(other.back - 1, other.front, -1) if other.wall[i] not in mine | {k})
    counts[k] -= 1
    counts[other.wall[w]] += 1
    other.wall[w] = k
    assert other.observation(seat) == g.observation(seat)
    legal = g.legal_actions(seat)[:3]
    one = ExpertAgent(1).option_values(g.observation(seat), legal, samples=6)
    two = ExpertAgent(1).option_values(other.observation(seat), legal, samples=6)
    assert one == two


# ---------------------------------------------------------------- the command line

def test_json_report_has_its_fields(tmp_path, capsys):
    path = write(tmp_path, greedy_hand())
    code, out, err = run(capsys, "review", path, "--seat", 1, "--json", "--budget", 4, "--top", 3)
    assert code == 0, err
    report = json.loads(out)
    assert report["seat"] == 1 and report["budget"] == 4 and report["variant"] == "kawuxing"
    assert 0 <= report["match_rate"] <= 1 and 0 <= report["top_match_rate"] <= 1
    assert report["total_loss"] >= 0
    assert report["total_loss"] == pytest.approx(sum(d["loss"] for d in report["decisions"]), abs=0.01)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert report["decisions"]
    for d in report["decisions"]:
        assert set(d) >= {"index", "played", "best", "loss", "severity", "options"}
        assert records[d["index"]]["type"] == "action" and records[d["index"]]["seat"] == 1
        played = Action.parse(d["played"])
        assert str(played) == d["played"] and Action.from_json(records[d["index"]]["action"]) == played
        assert str(Action.parse(d["best"])) == d["best"]
        assert d["loss"] >= 0 and d["severity"] in ("none", "small", "big")
        assert (d["loss"] == 0) == (d["severity"] == "none")
        assert 1 <= len(d["options"]) <= 4  # the top 3, and the played one if not among them
        for o in d["options"]:
            assert set(o) == {"action", "value", "stderr"} and o["stderr"] >= 0
            Action.parse(o["action"])
        actions = [o["action"] for o in d["options"]]
        assert d["played"] in actions and d["best"] == actions[0]


def test_text_report_names_tiles_in_chinese(tmp_path, capsys):
    path = write(tmp_path, greedy_hand())
    code, out, err = run(capsys, "review", path, "--seat", 0, "--budget", 4)
    assert code == 0, err
    assert "复盘" in out and "decisions:" in out and "match rate" in out
    assert any(name in out for name in ("万", "筒", "条", "白", "发", "中"))


def test_the_same_seed_gives_the_same_review(tmp_path):
    records = greedy_hand("sichuan", 2)
    one = review_hand(records, 2, budget=2, seed=7).to_json()
    assert review_hand(records, 2, budget=2, seed=7).to_json() == one
    assert review_hand(write(tmp_path, records), 2, budget=2, seed=7).to_json() == one  # a path reads the same


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_a_review_paused_between_its_pieces_is_the_same_review(variant):
    """A server's review waits for its tables between pieces of the search (``pause``): about a
    millisecond each, in both engines' searches and in 定缺's; the review is unchanged by it."""
    records = greedy_hand(variant, seed=5)
    calls = []
    plain = review_hand(records, seat=1, budget=BUDGET * 2, seed=9)
    paused = review_hand(records, seat=1, budget=BUDGET * 2, seed=9, pause=lambda: calls.append(1))
    assert paused.to_json() == plain.to_json()
    options = sum(len(d.options) for d in plain.decisions)  # the top ones only: a floor on the pieces
    assert len(calls) >= 2 * options, (len(calls), options)


def refused(capsys, *argv, fragment=""):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert fragment in err, err
    return err


def test_an_unfinished_log_is_refused(tmp_path, capsys):
    records = greedy_hand()
    cut = next(i for i in range(len(records) - 1, 0, -1) if records[i]["type"] == "action")
    path = write(tmp_path, records[:cut - 10])
    refused(capsys, "review", path, "--seat", 0, fragment="unfinished")
    with pytest.raises(LogError):
        review_hand(records[:cut - 10], 0)


def test_a_tampered_log_is_refused(tmp_path, capsys):
    records = greedy_hand()
    i = next(i for i, r in enumerate(records) if r["type"] == "action" and r["action"]["type"] == "discard")
    tile = records[i]["action"]["tile"]
    records[i] = {**records[i], "action": {"type": "discard", "tile": "9p" if tile != "9p" else "1p"}}
    refused(capsys, "review", write(tmp_path, records), "--seat", 0)
    records = greedy_hand()
    end = next(i for i, r in enumerate(records) if r["type"] == "end")
    records[end] = {**records[end], "result": "draw" if records[end]["result"] == "win" else "win"}
    refused(capsys, "review", write(tmp_path, records), "--seat", 0, fragment="differs on replay")


def test_bad_requests_are_one_line(tmp_path, capsys):
    hand = greedy_hand()
    path = write(tmp_path, hand)
    refused(capsys, "review", path, "--seat", 3, fragment="seat must be 0 to 2")
    refused(capsys, "review", path, "--seat", 0, "--budget", 1, fragment="--budget")
    refused(capsys, "review", tmp_path / "missing.jsonl", "--seat", 0)
    two = write(tmp_path, hand + greedy_hand(seed=4), "two.jsonl")
    refused(capsys, "review", two, "--seat", 0, fragment="holds 2 hands")
    refused(capsys, "review", two, "--seat", 0, "--hand", 2, fragment="hand must be 0 to 1")
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"x" * (2 << 20))
    refused(capsys, "review", junk, "--seat", 0, fragment="longer than")
    with pytest.raises(ReviewError):
        review_hand(hand, 0, budget=0)


def test_pass_three_and_the_void_suit_are_reviewed():
    from majiang.games.rules import rules_for

    g = play_hand(Game(rules_for("sichuan", "modern"), seed=1), [GreedyAgent(s) for s in range(4)])
    r = review_hand(game_records(g), 1, budget=4)
    setup = {d.phase: d for d in r.decisions if d.phase in ("exchange", "void")}
    assert set(setup) == {"exchange", "void"}
    assert setup["exchange"].played.type == "exchange" and setup["void"].played.type == "void"
    for d in setup.values():
        assert d.played in [o.action for o in d.options] and d.loss >= 0
    assert [d.index for d in r.decisions] == sorted(d.index for d in r.decisions)
