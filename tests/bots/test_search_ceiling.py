"""scripts/search_ceiling.py: with nothing peeked it is the arena's table, deal for deal; peeking
agents see the real deal where they should and nowhere else."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from majiang.games.rules import rules_for, rules_to_json
from majiang.play.arena import play_deal as arena_deal

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("search_ceiling", ROOT / "scripts" / "search_ceiling.py")
ceiling = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ceiling)

OPTIONS = "value=strong,search=discard,samples=12,first=6,work=48"


@pytest.mark.parametrize("variant,deal", [("kawuxing", 3), ("sichuan", 1)])
def test_no_peek_is_the_arena(variant, deal):
    rules = rules_for(variant)
    n = 3 if variant == "kawuxing" else 4
    _, options = ceiling.parse_spec("expert:" + OPTIONS)
    ours = ceiling.play_deal(rules, options, "none", "11", deal)
    task = {"rules": rules_to_json(rules), "bots": ["expert:" + OPTIONS] + ["strong"] * (n - 1), "seed": "11",
            "deal": deal, "timeout": 1.0}
    assert ours == arena_deal(task)


def test_peeks_see_the_real_position():
    from majiang.engine import Game
    from majiang.engine.position import position_of

    rules = rules_for("kawuxing")
    game = Game(rules, seed=5, hand_index=0, dealer=0)
    agent = ceiling.PeekingExpert(1, "hands")
    agent.game = game
    truth = position_of(game)
    import random
    pos = agent.sample(None, random.Random(0))
    assert [s.counts for s in pos.seats] == [s.counts for s in truth.seats]
    assert sorted(pos.wall) == sorted(truth.wall) and pos.wall != truth.wall
    agent.peek, agent.seat = "wall", 0  # the others' tiles as one pool, dealt anew; the wall's own tiles
    pos = agent.sample(None, random.Random(1))
    assert pos.seats[0].counts == truth.seats[0].counts and sorted(pos.wall) == sorted(truth.wall)
    assert [a + b for a, b in zip(pos.seats[1].counts, pos.seats[2].counts)] == \
        [a + b for a, b in zip(truth.seats[1].counts, truth.seats[2].counts)]
    assert pos.seats[1].counts != truth.seats[1].counts
    agent.peek = "all"
    assert agent.sample(None, random.Random(0)).wall == truth.wall
    with pytest.raises(ValueError):
        ceiling.PeekingExpert(1, "everything")


def test_command_writes_an_arena_result(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "search_ceiling.py"), "--variant", "kawuxing",
                          "--peek", "wall", "--options", OPTIONS, "--games", "1", "--seed", "3",
                          "--out", str(tmp_path), "--json"], capture_output=True, text=True, check=True, timeout=240)
    summary = json.loads(out.stdout)
    assert summary["agents"][0]["agent"] == f"expert:{OPTIONS} [peek=wall]" and summary["deals"] == 1
    merged = subprocess.run([sys.executable, "-m", "majiang", "arena-merge", str(tmp_path), "--json"],
                            capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(merged.stdout)["agents"][0]["mean_points"] == summary["agents"][0]["mean_points"]
