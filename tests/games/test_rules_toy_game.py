"""A third game plugs in through the registry alone (``tests/games/toy_game.py``): it registers by the
``majiang.games`` entry point group, plays through the engine with greedy bots, validates its
options from its declaration, and appears in the rules schema — no other file knows it."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

import toy_game
from majiang.bots import GreedyAgent
from majiang.core.errors import RulesError
from majiang.engine import Game
from majiang.games import GAMES, load_entry_points, registry, unregister
from majiang.games.rules import rules_for
from majiang.play.runner import play_hand


@pytest.fixture
def toy(monkeypatch):
    """The toy game, registered as an installed package's would be (an entry point), then removed."""
    found = [EntryPoint(name="toy", value="toy_game:spec", group=registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr("importlib.metadata.entry_points",
                        lambda group=None: found if group == registry.ENTRY_POINT_GROUP else [])
    assert load_entry_points() == ["toy"]
    yield GAMES["toy"]
    unregister("toy")
    assert "toy" not in GAMES


def test_a_broken_entry_point_is_skipped_with_a_warning(monkeypatch):
    found = [EntryPoint(name="nope", value="no_such_module_here:spec", group=registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group=None: found)
    with pytest.warns(UserWarning, match="nope"):
        assert load_entry_points() == []


def test_the_toy_game_plays_through_the_engine_with_greedy_bots(toy):
    rules = rules_for("toy")
    settled = 0
    for seed in range(6):
        g = Game(rules, seed=seed)
        assert len(g.seats) == 3 and len(g.wall) == 72
        play_hand(g, [GreedyAgent(s) for s in range(3)])
        assert g.over and sum(g.totals()) == 0
        assert {p.reason for p in g.payments} <= {"自摸", "点炮"}
        settled += bool(g.wins)
    assert settled  # greedy play wins some of the hands
    generous = Game("toy", preset="generous", seed=1)
    assert generous.rules.self_draw_pays == 2


def test_the_toy_game_validates_its_options_from_its_declaration(toy):
    assert rules_for("toy", "generous").self_draw_pays == 2
    with pytest.raises(RulesError) as err:
        rules_for("toy", None, self_draw_pays=3)
    assert err.value.option == "self_draw_pays"
    with pytest.raises(RulesError, match="option loud needs kind"):
        rules_for("toy", None, loud=True, kind=False)
    with pytest.raises(RulesError, match="unknown option 'cap'"):
        rules_for("toy", None, cap=8)


def test_the_toy_game_appears_in_the_rules_schema(toy):
    from majiang.server.schema import rules_schema

    schema = rules_schema()["toy"]
    assert schema["players"] == 3 and schema["label"] == {"zh": "玩具", "en": "Toy"}
    assert [o["name"] for o in schema["options"]] == ["self_draw_pays", "loud", "kind"]
    assert schema["options"][0]["choices"] == [1, 2]
    assert schema["constraints"] == [{"option": "loud", "needs": "kind"}]
    assert schema["preset_labels"]["generous"] == {"zh": "大方", "en": "generous"}
    assert schema["capabilities"] == {"void_suit": False, "two_suits": False, "exchange": False, "open_hand": False,
                                      "blood_battle": False, "seats": 3, "honours": False}  # the defaults: a plain game


def test_the_native_engine_refuses_a_game_it_does_not_play(toy):
    from majiang.native import spec

    with pytest.raises(RulesError, match="does not play toy"):
        spec.encode_rules(rules_for("toy"))
    assert "toy" not in {g.name for g in spec.native_games()}


def test_the_toy_module_is_only_in_the_tests():
    assert toy_game.__file__.endswith("tests/games/toy_game.py")


# flags that said which game it is ("two_suit_rule" was Sichuan's): code asks for a named
# capability (``Variant.capabilities``: void_suit, two_suits, open_hand, blood_battle …) instead
WHICH_GAME = {"two_suit_rule", "is_sichuan", "is_kawuxing"}


def test_no_code_outside_a_games_folder_names_a_game_or_a_preset():
    """Strings and attributes in code (docstrings aside) that name a built-in game or preset, or a
    flag that says which game it is, live only in that game's folder; the rest asks the registry
    (the core too: its tile sets by name are the games' own, found through the games' registry)
    and the game's named capabilities."""
    import ast
    from pathlib import Path

    import majiang

    names = set(GAMES) | {p for g in GAMES.values() for p in g.presets}
    root = Path(majiang.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).parts
        if rel[:2] in (("games", "kawuxing"), ("games", "sichuan")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if node.value in names:
                    found.append(f"{'/'.join(rel)}:{node.lineno}: {node.value!r}")
            elif isinstance(node, ast.Attribute) and (node.attr in names or node.attr in WHICH_GAME):
                found.append(f"{'/'.join(rel)}:{node.lineno}: .{node.attr}")
            elif isinstance(node, ast.Name) and node.id in WHICH_GAME:
                found.append(f"{'/'.join(rel)}:{node.lineno}: {node.id}")
    assert not found, "game names outside the games' folders:\n" + "\n".join(found)


def test_the_core_finds_a_games_tiles_by_name_without_loading_the_games_first():
    """``core.variants`` names no game and imports none: a name asked of the hand analysis goes to
    the games' registry (wired in by the package root), which loads the games and every installed
    game's entry point, then answers."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from majiang.core.hand import Hand\n"
        "from majiang.core.analysis import shanten\n"
        "assert not any(m.startswith('majiang.games') for m in sys.modules)\n"
        "print(shanten(Hand.parse('123m456p789s11m23p'), 'Sichuan'))\n"
        "assert 'majiang.games.sichuan' in sys.modules\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "3"  # three suits: 789s must go
    no_entry_points = (
        "import importlib.metadata as md\n"
        "md.entry_points = lambda **kw: []\n" + probe
    )
    out = subprocess.run([sys.executable, "-c", no_entry_points], capture_output=True, text=True, check=True,
                         timeout=120)
    assert out.stdout.strip() == "3"  # three suits: 789s must go
