"""Each game's options are declared once (``majiang.games.declare``, in the game's own
``options`` module); validation, the rules schema, the docs' options table and the native
encoding are derived from that declaration, and these tests fail when any of them drifts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from majiang.core.errors import RulesError
from majiang.games import GAMES
from majiang.games.declare import declared_options, with_options_tables
from majiang.games.rules import rules_for

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
DECLARED = [(name, o) for name, g in sorted(GAMES.items()) for o in declared_options(g.options)]
IDS = [f"{name}.{o.name}" for name, o in DECLARED]

BAD = {"bool": [3, "maybe"], "int": ["x", 2.5, 10 ** 9], "choice": ["nope"], "suits": ["pp", "mpz", "m"]}


def test_the_options_tables_in_rules_md_are_generated_from_the_declarations():
    text = RULES_MD.read_text(encoding="utf-8")
    assert with_options_tables(text, GAMES.values()) == text, \
        "docs/RULES.md's options tables are stale: run `python -m majiang.games.docs`"
    for name in GAMES:
        assert f"options table of {name}:" in text


@pytest.mark.parametrize(("variant", "option"), DECLARED, ids=IDS)
def test_every_offered_value_is_accepted_and_a_bad_one_is_a_typed_error_naming_the_option(variant, option):
    for value in option.values():
        assert getattr(rules_for(variant, None, **{option.name: value}), option.name) == value
    for value in BAD[option.kind]:
        with pytest.raises(RulesError) as err:
            rules_for(variant, None, **{option.name: value})
        assert err.value.option == option.name and option.name in str(err.value)


@pytest.mark.parametrize(("variant", "option"), DECLARED, ids=IDS)
def test_every_option_is_labelled_in_both_languages_and_its_default_is_the_dataclass_default(variant, option):
    assert option.zh and option.en and option.help_zh and option.help_en
    cls = GAMES[variant].options
    assert getattr(cls(), option.name) == option.default
    for value in option.values():
        assert all(option.label(value))
    if option.needs:
        assert option.needs in {o.name for o in declared_options(cls)}


def test_a_needed_option_is_checked_from_the_declaration():
    with pytest.raises(RulesError, match="option blood_river needs blood_battle") as err:
        rules_for("sichuan", None, blood_river=True, blood_battle=False)
    assert err.value.option == "blood_river"


def test_an_unknown_option_or_preset_is_refused_by_name():
    with pytest.raises(RulesError, match="unknown option 'nope'") as err:
        rules_for("kawuxing", None, nope=1)
    assert err.value.option == "nope"
    with pytest.raises(RulesError, match="unknown preset"):
        rules_for("kawuxing", "nowhere")


def test_every_preset_is_valid_and_labelled():
    for name, game in GAMES.items():
        assert game.default_preset in game.presets
        for preset in game.presets.values():
            assert preset.zh and preset.en
            rules_for(name, preset.name)


def test_the_rules_schema_is_the_declaration():
    from majiang.server.schema import rules_schema

    schema = rules_schema()
    for name, game in GAMES.items():
        offered = {o["name"]: o for o in schema[name]["options"]}
        for o in declared_options(game.options):
            if not o.form:
                assert o.name not in offered
                continue
            entry = offered[o.name]
            assert entry["label"] == {"zh": o.zh, "en": o.en} and entry["default"] == o.default
            if o.kind != "bool":
                assert entry["choices"][:len(o.values())] == list(o.values())
                assert len(entry["choice_labels"]) == len(entry["choices"])
        assert schema[name]["preset_labels"].keys() == game.presets.keys()
        assert schema[name]["tiles"] == game.variant.num_tiles  # the wall the table draws
    assert {"option": "blood_river", "needs": "blood_battle"} in schema["sichuan"]["constraints"]
    # what the page would otherwise know by the game's name
    assert schema["kawuxing"]["people"] == [3, 4] and schema["sichuan"]["people"] == [4]
    assert schema["kawuxing"]["fans_multiply"] and not schema["sichuan"]["fans_multiply"]
    # what each game has, by name: the page and the bots ask for a feature, never for the game
    assert schema["kawuxing"]["capabilities"] == {"void_suit": False, "two_suits": False, "exchange": False,
                                                  "open_hand": True, "blood_battle": False, "seats": 3,
                                                  "honours": True}
    assert schema["sichuan"]["capabilities"] == {"void_suit": True, "two_suits": True, "exchange": True,
                                                 "open_hand": False, "blood_battle": True, "seats": 4,
                                                 "honours": False}
    assert schema["sichuan"]["declarations"]["sing"] == {"zh": "唱歌", "en": "sing"}
    assert schema["kawuxing"]["fan_labels"]["卡五星"]["en"] == "five between four and six"


CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.mark.parametrize("name", ["kawuxing", "sichuan"])
def test_every_fan_says_what_it_is_in_both_languages_and_its_english_holds_no_chinese(name):
    """The settlement's line beside each fan: declared once, in the game's fan table, for every fan
    it can score, in Chinese and in English; the English name and line are English only."""
    game = GAMES[name]
    assert set(game.fan_help) == set(game.fan_names)
    from majiang.server.schema import rules_schema

    help_ = rules_schema()[name]["fan_help"]
    for fan, (english, _) in game.fan_names.items():
        zh, en = game.fan_help[fan]
        assert zh.strip() and en.strip() and CJK.search(zh), fan
        assert not CJK.search(en) and not CJK.search(english), (fan, english, en)
        assert help_[fan] == {"zh": zh, "en": en}


def test_the_native_encoding_has_a_slot_for_every_declared_option_of_every_native_game():
    from majiang.native import spec

    for name, game in GAMES.items():
        if not game.native:
            continue
        slots = {s.option for s in spec.RULES_LAYOUT if name in s.games}
        assert slots == {o.name for o in declared_options(game.options)}
        for s in spec.RULES_LAYOUT:
            if name in s.games and s.kind == "choice":
                for i, value in enumerate(s.values):  # each value its own code, in declaration order
                    assert spec.encode_rules(rules_for(name, None, **{s.option: value}))[s.index] == i
    assert len({s.index for s in spec.RULES_LAYOUT}) == len(spec.RULES_LAYOUT) == spec.CONFIG_LEN - 1


def test_no_english_text_of_the_rules_schema_holds_chinese():
    """The English page says the games' words in English: every ``en`` the schema declares (labels,
    help, choices, presets, fans) is English only; the Chinese is its ``zh``."""
    from majiang.server.schema import rules_schema

    found = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "en" and isinstance(value, str) and CJK.search(value):
                    found.append(f"{path}: {value}")
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]")

    walk(rules_schema(), "")
    assert not found, found
