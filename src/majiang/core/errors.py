"""Typed errors. Every one is a ``ValueError`` so callers can catch bad input in one place.

>>> issubclass(TileError, ValueError), issubclass(IllegalActionError, ValueError)
(True, True)
"""


class MajiangError(ValueError):
    """Base class of every error this package raises on bad input."""


class TileError(MajiangError):
    """A tile string, tile name or tile count is malformed or impossible."""


class HandError(MajiangError):
    """A hand cannot be analysed: wrong tile count, too many melds, tiles outside the variant."""


class RulesError(MajiangError):
    """An unknown preset or option, or an impossible combination of options. ``option``: the name of
    the option at fault, when one is (``None``: an unknown game or preset)."""

    def __init__(self, message: str = "", option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class IllegalActionError(MajiangError):
    """An action that the rules do not allow at this point of the game (state is unchanged)."""


# Raised and caught as ``majiang.RulesError`` and so on, wherever they are defined.
for _cls in (MajiangError, TileError, HandError, RulesError, IllegalActionError):
    _cls.__module__ = "majiang"
del _cls
