"""Rules options: one frozen object per game (its ``options`` module, every option declared there
with ``majiang.games.declare.option``), presets by name, overrides validated up front.

Every point where the source documents disagree is an option here; ``docs/RULES.md`` says what
each one means and which preset sets what.

>>> r = rules_for("kawuxing", "xiangyang")
>>> r.shouzhuayi, r.haidi, r.liangdao_draw_penalty
(2, 'none', 'first')
>>> rules_for("sichuan", "modern", cap_fan=4).cap_fan
4
>>> rules_for("sichuan", "chengdu", cap_fan="x")
Traceback (most recent call last):
...
majiang.RulesError: option cap_fan: expected a whole number or none, got 'x'
"""

from __future__ import annotations

import dataclasses
from dataclasses import fields
from typing import Any, ClassVar, Protocol

from majiang.core.errors import RulesError
from majiang.core.jsontext import decode_text, loads
from majiang.games.registry import get_game


class Rules(Protocol):
    """What every game's options object has (``KawuxingRules``, ``SichuanRules``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]  # every options object is a dataclass
    variant: ClassVar[str]  # the game's name
    preset: str
    base: int
    rounds: int


MAX_NUMBER = 1_000_000  # the largest whole-number option value


def _coerce(cls, name: str, value: Any) -> Any:
    """Turn text (from a CLI flag or file) into the option's type."""
    field = {f.name: f for f in fields(cls)}.get(name)
    if field is None or name == "preset":
        known = ", ".join(f.name for f in fields(cls) if f.name != "preset")
        raise RulesError(f"unknown option {name!r} for {cls.variant} (known: {known})", option=name)
    typ = str(field.type)
    if "bool" in typ:
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("1", "true", "yes", "on"):
            return True
        if str(value).lower() in ("0", "false", "no", "off"):
            return False
        raise RulesError(f"option {name}: expected true or false", option=name, got=value)
    if "int" in typ:
        if (value is None or (isinstance(value, str) and value.lower() in ("none", "null", ""))) and "None" in typ:
            return None
        suffix = " or none" if "None" in typ else ""
        if value is None or isinstance(value, (bool, list, dict)) \
                or (isinstance(value, float) and not value.is_integer()):
            raise RulesError(f"option {name}: expected a whole number{suffix}", option=name, got=value)
        try:
            number = int(value)
        except (TypeError, ValueError, OverflowError):
            raise RulesError(f"option {name}: expected a whole number{suffix}", option=name, got=value) from None
        if not -MAX_NUMBER <= number <= MAX_NUMBER:  # money must stay exact and printable
            raise RulesError(f"option {name}: at most {MAX_NUMBER:,} in size", option=name)
        return number
    return str(value)


def rules_for(variant: str, preset: str | None = None, **overrides: Any) -> Rules:
    """The rules of ``preset`` (default: the variant's first preset) with ``overrides`` applied.

    >>> r = rules_for("kawuxing", "suizhou")
    >>> r.preset, r.cap
    ('suizhou', 8)
    >>> rules_for("kawuxing", "suizhou", cap=16).cap
    16
    """
    game = get_game(variant)
    preset = preset or game.default_preset
    if preset not in game.presets:
        raise RulesError(f"unknown preset {preset!r} for {variant} (known: {', '.join(game.presets)})")
    cls = game.options
    values = dict(game.presets[preset].values)
    for k, v in overrides.items():
        values[k] = _coerce(cls, k, v)
    return cls(preset=preset, **values)


def load_rules_file(path: str) -> dict[str, Any]:
    """Options from a JSON or TOML file: a flat table of option = value (``preset`` allowed)."""
    with open(path, "rb") as f:
        raw = f.read()
    if path.endswith(".toml"):
        import tomllib

        try:
            data = tomllib.loads(decode_text(raw, path, RulesError))
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"{path}: {exc}") from None
        except RecursionError:
            raise RulesError(f"{path}: not valid TOML (nested too deeply)") from None
    else:
        data = loads(raw, path, RulesError)
    if not isinstance(data, dict):
        raise RulesError(f"{path}: expected an object of option: value")
    return data


def rules_to_json(rules: Rules) -> dict[str, Any]:
    return {"variant": rules.variant, **dataclasses.asdict(rules)}


def rules_from_json(d: dict[str, Any]) -> Rules:
    d = dict(d)
    variant = d.pop("variant")
    preset = d.pop("preset", None)
    return rules_for(variant, preset, **d)
