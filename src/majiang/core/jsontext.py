"""JSON from files and programs that may be hostile: one clear error, never a traceback.

``json.loads`` alone turns ``Infinity`` and ``1e999`` into floats no whole number can hold, lets a
file of 100,000 ``[`` exhaust the stack (``RecursionError``) and meets bytes that are not UTF-8 with
``UnicodeDecodeError``. ``loads`` refuses each of these with the error class the caller names.

>>> loads('{"seat": 1}', "log")
{'seat': 1}
>>> loads('{"seat": Infinity}', "log")
Traceback (most recent call last):
...
majiang.MajiangError: log: not valid JSON (a number must be finite: Infinity)
>>> loads(b"\\xff[]", "log")
Traceback (most recent call last):
...
majiang.MajiangError: log: not UTF-8 text
>>> loads("[" * 100000, "log")
Traceback (most recent call last):
...
majiang.MajiangError: log: not valid JSON (nested too deeply)
"""

from __future__ import annotations

import json
import math
from typing import Any

from majiang.core.errors import MajiangError


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"a number must be finite: {name}")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"a number must be finite: {text[:20]}")
    return value


def decode_text(data: bytes | str, where: str, error: type[MajiangError] = MajiangError) -> str:
    """``data`` as text: UTF-8 or the ``error`` naming ``where``."""
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{where}: not UTF-8 text") from None


def loads(data: bytes | str, where: str, error: type[MajiangError] = MajiangError) -> Any:
    """Parse JSON text (or UTF-8 bytes) strictly; ``where`` names the source in the error."""
    text = decode_text(data, where, error)
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise error(f"{where}: not valid JSON (nested too deeply)") from None
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except ValueError as exc:  # a refused constant, or an integer of more digits than Python converts
        raise error(f"{where}: not valid JSON ({exc})") from None
