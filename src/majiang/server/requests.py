"""The HTTP API's request bodies as pydantic models, each field checked in the order the old
hand-written checks went, every refusal a coded ``Refusal`` (never quoting what was sent).

>>> parse(NewRoom, {"variant": "sichuan", "stake": "12"}).stake
12
>>> parse(NewRoom, {"variant": "sichuan", "hands": "①"})
Traceback (most recent call last):
majiang.Refusal: hands must be a whole number from 1 to 64
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, ValidationInfo, field_validator

from majiang.games import GAMES
from majiang.server import sitout
from majiang.server.clock import TableSettings
from majiang.server.errors import Refusal, RefusalCode

BOT_LEVELS = ("random", "greedy", "strong", "expert")
CREATE_KEY = re.compile(r"[A-Za-z0-9_-]{8,40}")
OPTION = re.compile(r"[a-z_][a-z0-9_]{0,31}")
MAX_OPTIONS = 40


def whole(value: Any, name: str, lo: int, hi: int) -> int:
    """A whole number in [lo, hi] from JSON (an int, or a string of ASCII digits); else a clear 400.
    (``str.isdigit`` also accepts "²" or "①", which ``int`` refuses.)"""
    if isinstance(value, str) and len(value) < 12:
        digits = value.strip().removeprefix("-")
        if digits.isascii() and digits.isdigit():
            value = int(value)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise Refusal("number.out_of_range", field=name, lo=lo, hi=hi)
    return value


def _whole(name: str, lo: int, hi: int):
    return BeforeValidator(lambda v: whole(v, name, lo, hi))


def _options(value: Any) -> dict:
    options = value or {}
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise Refusal("rules.bad_options")
    for key, v in options.items():
        if not OPTION.fullmatch(key) or key in ("variant", "preset"):
            raise Refusal("rules.bad_option_name")
        ok = isinstance(v, (str, bool, int)) or (isinstance(v, float) and math.isfinite(v))
        if not ok or (isinstance(v, str) and len(v) > 32):
            raise Refusal("rules.bad_option_value", option=key)
    return options


def _one_of(code: RefusalCode, choices) -> BeforeValidator:
    def check(value: Any) -> Any:
        if not isinstance(value, str) or value not in choices:
            raise Refusal(code, choices=", ".join(choices))
        return value
    return BeforeValidator(check)


def _variant(value: Any) -> str:
    if not isinstance(value, str) or value not in GAMES:
        raise Refusal("room.bad_variant", choices=" or ".join(GAMES))
    return value


def _create_key(value: Any) -> str | None:
    if value is not None and (not isinstance(value, str) or not CREATE_KEY.fullmatch(value)):
        raise Refusal("room.bad_create_key")
    return value


def _timers(value: Any) -> TableSettings:
    return TableSettings.from_json(value)


class NewRoom(BaseModel):
    """POST /api/rooms. ``people``: None is the variant's players (resolved with the variant)."""

    model_config = ConfigDict(extra="ignore", arbitrary_types_allowed=True)

    variant: Annotated[str, BeforeValidator(_variant)]
    preset: Any = None
    options: Annotated[dict, BeforeValidator(_options)] = {}
    stake: Annotated[int, _whole("stake", 1, 1000)] = 1
    hands: Annotated[int, _whole("hands", 1, 64)] = 4
    bots: Annotated[str, _one_of("room.bad_bots", BOT_LEVELS)] = "greedy"
    timers: Annotated[TableSettings, BeforeValidator(_timers)] = TableSettings()
    people: Annotated[int | None, BeforeValidator(lambda v: whole(v, "people", 2, 4))] = None
    sit_out: Annotated[str, _one_of("room.bad_sit_out", sitout.RULES)] = "winner"
    create_key: Annotated[str | None, BeforeValidator(_create_key)] = None

    @field_validator("preset", mode="before")
    @classmethod
    def _preset(cls, value: Any, info: ValidationInfo) -> str | None:
        variant = info.data.get("variant")
        if value is not None and variant is not None and (
                not isinstance(value, str) or value not in GAMES[variant].presets):
            raise Refusal("room.bad_preset", choices=", ".join(GAMES[variant].presets))
        return value


class NewPlayer(BaseModel):
    """POST /api/players and POST /api/me: a name (checked by ``security.clean_name``)."""

    model_config = ConfigDict(extra="ignore")
    name: Any = ""  # anything: clean_name refuses what is not a name, naming why


class SignIn(BaseModel):
    """POST /api/session: a token (anything else is no token)."""

    model_config = ConfigDict(extra="ignore")
    token: Annotated[str | None, BeforeValidator(lambda v: v if isinstance(v, str) else None)] = None


def parse(model: type[BaseModel], data: dict) -> Any:
    """``data`` as ``model``, or the first field's ``Refusal`` (fields are checked in order)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            cause = (error.get("ctx") or {}).get("error")
            if isinstance(cause, Refusal):
                raise cause from None
        fields = sorted({".".join(str(x) for x in e.get("loc", ())) or "request" for e in exc.errors()})
        raise Refusal("request.invalid", fields=", ".join(fields)[:100]) from None
