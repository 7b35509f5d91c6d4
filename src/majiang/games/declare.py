"""How a game declares its rules options, once: each option is a field of the game's frozen options
dataclass whose metadata holds everything else said about it (type, values, labels in Chinese and
English, a one-line help, what it needs, the text it comes from). Validation, the room form's schema,
the options table of ``docs/RULES.md`` and the native engine's encoding are all read from here.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class ToyRules:
...     variant = "toy"
...     preset: str = "plain"
...     base: int = option(1, "底分", "Base", "每次付几分", "the unit every payment is counted in", minimum=1)
...     loud: bool = option(False, "大声", "Loud", "喊出来", "say it out loud")
...     def __post_init__(self):
...         check_options(self)
>>> [o.name for o in declared_options(ToyRules)]
['base', 'loud']
>>> ToyRules(base=0)
Traceback (most recent call last):
...
majiang.RulesError: option base: at least 1, got 0
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from majiang.core.errors import RulesError

OPTION = "majiang.option"  # the dataclass field metadata key


@dataclass(frozen=True)
class Choice:
    """One value of a ``choice`` option, with its labels."""

    value: str
    zh: str
    en: str


@dataclass(frozen=True)
class Option:
    """What is declared about one option (the field's name and default come from the dataclass).

    ``kind``: ``bool``; ``int`` (``allowed``: the only values accepted, else ``minimum``;
    ``nullable``: ``None`` means none, e.g. no cap); ``choice`` (one of ``choices``); ``suits``
    (``count`` distinct letters of m, p, s). ``offered``: the values the room form offers (every
    preset's own value is added); ``form=False``: set by the room's other fields, not offered."""

    kind: str
    zh: str
    en: str
    help_zh: str
    help_en: str
    default: Any = None
    name: str = ""
    choices: tuple[Choice, ...] = ()
    allowed: tuple[int, ...] = ()
    minimum: int | None = None
    nullable: bool = False
    offered: tuple[Any, ...] = ()
    needs: str | None = None  # when this is on, the named option must be on too
    source: str = ""  # the regional text it comes from, or why it exists
    form: bool = True
    count: int = 0  # ``suits``: how many

    def values(self) -> tuple[Any, ...]:
        """The values offered, in order (``None`` first when it is the default)."""
        if self.kind == "bool":
            return (True, False)
        if self.kind == "choice":
            return tuple(c.value for c in self.choices)
        if self.offered:
            return self.offered
        return self.allowed

    def label(self, value: Any) -> tuple[str, str]:
        """(zh, en) of one value of this option."""
        if value is None:
            return ("无", "none")
        for c in self.choices:
            if c.value == value:
                return (c.zh, c.en)
        if isinstance(value, bool):
            return ("开", "on") if value else ("关", "off")
        return (str(value), str(value))

    def check(self, value: Any) -> None:
        """RulesError naming the option unless ``value`` is one it accepts."""
        name = self.name
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(f"option {name}: true or false", option=name, got=value)
        elif self.kind == "choice":
            if value not in self.values():
                raise RulesError(f"option {name}: one of {', '.join(self.values())}", option=name, got=value)
        elif self.kind == "suits":
            if (not isinstance(value, str) or len(value) != self.count or len(set(value)) != self.count
                    or any(s not in "mps" for s in value)):
                raise RulesError(f"option {name}: {self.count} of m, p, s", option=name, got=value)
        elif self.kind == "int":
            if value is None and self.nullable:
                return
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"option {name}: a whole number", option=name, got=value)
            if self.allowed and value not in self.allowed:
                raise RulesError(f"option {name}: {' or '.join(map(str, self.allowed))}", option=name, got=value)
            if self.minimum is not None and value < self.minimum:
                raise RulesError(f"option {name}: at least {self.minimum}", option=name, got=value)
        else:  # pragma: no cover - a declaration mistake, caught by the games' own tests
            raise RulesError(f"option {name}: unknown kind {self.kind!r}", option=name)


def option(default: Any, zh: str, en: str, help_zh: str, help_en: str, *, kind: str | None = None,
           **more: Any) -> Any:
    """A declared options field: ``name: type = option(default, labels…, kind=…, …)``. The kind
    follows from the default (``bool``, ``int``, ``None``: a nullable ``int``, ``choices``: ``choice``)."""
    if "choices" in more:
        more["choices"] = tuple(Choice(*c) for c in more["choices"])
        kind = kind or "choice"
    if default is None:
        more.setdefault("nullable", True)
    kind = kind or ("bool" if isinstance(default, bool) else "int" if default is None or isinstance(default, int)
                    else "choice")
    return field(default=default, metadata={OPTION: Option(kind, zh, en, help_zh, help_en, default=default, **more)})


_DECLARED: dict[type, tuple[Option, ...]] = {}


def declared_options(cls: type) -> tuple[Option, ...]:
    """Every declared option of a game's options class, in declaration order, named."""
    known = _DECLARED.get(cls)
    if known is not None:
        return known
    out = []
    for f in fields(cls):
        decl = f.metadata.get(OPTION)
        if decl is not None:
            out.append(replace(decl, name=f.name))
    known = _DECLARED[cls] = tuple(out)
    return known


def check_options(obj) -> None:
    """Every declared option of ``obj`` holds a value it accepts, and what each needs is on."""
    options = declared_options(type(obj))
    for o in options:
        o.check(getattr(obj, o.name))
    for o in options:
        if o.needs and getattr(obj, o.name) and not getattr(obj, o.needs):
            raise RulesError(f"option {o.name} needs {o.needs}", option=o.name)


@dataclass(frozen=True)
class Preset:
    """A named set of option values, with its labels and the text it follows."""

    name: str
    zh: str
    en: str
    values: dict[str, Any]
    source: str = ""


def presets(*items: Preset) -> dict[str, Preset]:
    return {p.name: p for p in items}


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def options_table(game) -> str:
    """The options table of ``docs/RULES.md`` for one game (a ``GameSpec``), generated: every
    declared option, its values, its default, what each other preset sets, and its source."""
    others = [p for name, p in game.presets.items() if name != game.default_preset]
    head = (["option", "name", "values", f"`{game.default_preset}`"] + [f"`{p.name}`" for p in others]
            + ["what it does (where it comes from)"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for o in declared_options(game.options):
        if o.kind == "bool":
            values = "on / off"
        elif o.kind == "suits":
            values = f"{o.count} of m, p, s"
        elif o.kind == "int" and not o.allowed:
            values = ("none, " if o.nullable else "") + f"{o.minimum} or more"
        else:
            values = " / ".join(_shown(v) for v in (o.values() if o.kind == "choice" else o.allowed))
        cells = [f"`{o.name}`", f"{o.zh} ({o.en})", values, _shown(o.default)]
        cells += [_shown(p.values[o.name]) if o.name in p.values else "" for p in others]
        help_en = o.help_en + (f"; needs `{o.needs}`" if o.needs else "")
        cells.append(f"{help_en}" + (f" ({o.source})" if o.source else ""))
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


TABLE_START = "<!-- options table of {name}: generated by `python -m majiang.games.docs`, do not edit -->"
TABLE_END = "<!-- end of the options table of {name} -->"


def with_options_tables(text: str, games) -> str:
    """``text`` (docs/RULES.md) with each game's options table rewritten between its markers."""
    for game in games:
        start, end = TABLE_START.format(name=game.name), TABLE_END.format(name=game.name)
        if start not in text or end not in text:
            continue
        before, rest = text.split(start, 1)
        _, after = rest.split(end, 1)
        text = before + start + "\n" + options_table(game) + end + after
    return text
