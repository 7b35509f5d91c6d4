"""The rules schema for the room form: each variant's presets and options, with types and choices.

Built from ``majiang.games`` (each game's options dataclass and presets), so the form offers exactly what
``rules_for`` accepts. Options the room sets by other fields (``base``: the stake; ``rounds``: the
number of hands) are left out.

>>> s = rules_schema()
>>> s["sichuan"]["presets"]["modern"]["cap_fan"]
3
>>> [o for o in s["kawuxing"]["options"] if o["name"] == "cap"][0]["choices"]
[None, 8, 16, 32, 64]
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from majiang.core.variants import get_variant
from majiang.games import GAMES

SKIP = {"preset", "base", "rounds"}
# The values offered for options that are not true/false (each one accepted by rules_for).
CHOICES: dict[str, list[Any]] = {
    "suits": ["ps", "mp", "ms"],
    "liangdao_draw_penalty": ["count", "first", "first_pays"],
    "first_dealer": ["dice", "east"],
    "direct_kong_pay": [2, 1],
    "sigui": ["half", "full", "winning"],
    "cap": [None, 8, 16, 32, 64],
    "min_ron_multiplier": [1, 2],
    "shouzhuayi": [4, 2],
    "haidi": None,  # per variant below
    "piao": [0, 1, 2, 3, 5],
    "cap_fan": [None, 3, 4, 5, 6],
    "gangshanghua_fan": [2, 1],
    "robbed_kong_fan": [0, 1],
    "self_draw_bonus": ["none", "base", "fan"],
    "flower_pig_penalty": [16, 8],
}


def rules_schema() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for variant, game in GAMES.items():
        cls = game.options
        options = []
        for f in fields(cls):
            if f.name in SKIP:
                continue
            default = f.default if f.default is not MISSING else None
            if "bool" in str(f.type):
                options.append({"name": f.name, "type": "bool", "default": default})
                continue
            choices = CHOICES.get(f.name)
            if f.name == "haidi":
                choices = ["self_draw", "both", "none"]
            if choices is None:
                continue  # no sensible list to offer: left at the preset's value
            for values in game.presets.values():  # every preset's own value is offered too
                v = values.get(f.name, default)
                if v not in choices:
                    choices = choices + [v]
            options.append({"name": f.name, "type": "choice", "default": default, "choices": choices})
        out[variant] = {"players": get_variant(variant).players, "default_preset": game.default_preset,
                        "presets": {name: dict(values) for name, values in game.presets.items()},
                        "options": options}
    return out
