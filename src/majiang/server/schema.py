"""The rules schema for the room form: each game's presets and options, with types, choices,
labels (Chinese and English), help and constraints.

Read from each game's declaration (``majiang.games.declare``: the options dataclass and its
presets), so the form offers exactly what ``rules_for`` accepts and says it in the declaration's
words. Options the room sets by other fields (``base``: the stake; ``rounds``: the number of hands)
are left out.

>>> s = rules_schema()
>>> s["sichuan"]["presets"]["modern"]["cap_fan"]
3
>>> [o for o in s["kawuxing"]["options"] if o["name"] == "cap"][0]["choices"]
[None, 8, 16, 32, 64]
>>> [o for o in s["sichuan"]["options"] if o["name"] == "blood_river"][0]["needs"]
'blood_battle'
>>> s["kawuxing"]["tiles"], s["sichuan"]["tiles"]
(84, 108)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from majiang.games import GAMES
from majiang.games.declare import declared_options
from majiang.server.sitout import people_for


def _labels(zh: str, en: str) -> dict[str, str]:
    return {"zh": zh, "en": en}


def game_schema(game) -> dict[str, Any]:
    """One game's part of the schema."""
    options = []
    constraints = []
    for o in declared_options(game.options):
        if not o.form:
            continue
        entry: dict[str, Any] = {"name": o.name, "type": "bool" if o.kind == "bool" else "choice",
                                 "default": o.default, "label": _labels(o.zh, o.en),
                                 "help": _labels(o.help_zh, o.help_en)}
        if o.kind != "bool":
            choices = list(o.values())
            for p in game.presets.values():  # every preset's own value is offered too
                v = p.values.get(o.name, o.default)
                if v not in choices:
                    choices.append(v)
            entry["choices"] = choices
            entry["choice_labels"] = [_labels(*o.label(v)) for v in choices]
        if o.needs:
            entry["needs"] = o.needs
            constraints.append({"option": o.name, "needs": o.needs})
        options.append(entry)
    return {"players": game.variant.players, "people": list(people_for(game.variant.players)),
            "tiles": game.variant.num_tiles,  # the wall before the deal: the table draws its size from it
            "label": _labels(game.name_zh, game.name_en or game.name),
            "fans_multiply": game.fans_multiply,  # fans shown as ×2 … (else 番 that add up)
            # what the game has, by name (定缺, 换三张, 亮倒, blood battle, the two-suit limit, its seats
            # and honours): the page asks for a feature, never which game it is
            "capabilities": {**dataclasses.asdict(game.variant.capabilities), "seats": game.variant.players,
                             "honours": game.variant.dragons},
            "declarations": {action: _labels(*names) for action, names in game.declarations.items()},
            "fan_labels": {name: _labels(name, english) for name, (english, _) in game.fan_names.items()},
            "fan_help": {name: _labels(*game.fan_help[name]) for name in game.fan_names if name in game.fan_help},
            "default_preset": game.default_preset,
            "presets": {name: dict(p.values) for name, p in game.presets.items()},
            "preset_labels": {name: _labels(p.zh, p.en) for name, p in game.presets.items()},
            "options": options, "constraints": constraints}


def rules_schema() -> dict[str, Any]:
    return {name: game_schema(game) for name, game in GAMES.items()}
