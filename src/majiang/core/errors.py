"""Typed errors. Every one is a ``ValueError`` so callers can catch bad input in one place.

>>> issubclass(TileError, ValueError), issubclass(IllegalActionError, ValueError)
(True, True)
"""


class MajiangError(ValueError):
    """Base class of every error this package raises on bad input.

    >>> from majiang import parse_tiles
    >>> try:
    ...     parse_tiles("9x")
    ... except MajiangError as exc:
    ...     print(type(exc).__name__, exc)
    TileError unknown character 'x' at position 2 in '9x'
    """


class TileError(MajiangError):
    """A tile string, tile name or tile count is malformed or impossible.

    >>> from majiang import Hand
    >>> Hand.parse("11111m")
    Traceback (most recent call last):
    majiang.TileError: a fifth copy of 1m: 5 in hand and melds
    """


class HandError(MajiangError):
    """A hand cannot be analysed: wrong tile count, too many melds, tiles outside the variant.

    >>> from majiang import Hand, shanten
    >>> shanten(Hand.parse("1m"), "kawuxing")
    Traceback (most recent call last):
    majiang.HandError: 1m is not a tile of kawuxing (卡五星)
    """


_NOTHING_SENT = object()


class RulesError(MajiangError):
    """An unknown preset or option, or an impossible combination of options. ``option``: the name of
    the option at fault, when one is (``None``: an unknown game or preset). ``reason``: what the
    rules accept; ``values``: what was given, kept apart (``{"got": value}``, or empty). The text
    ends ", got <value>" for the command line; the server answers with ``reason`` alone, so it
    never echoes what a client sent.

    >>> from majiang import rules_for
    >>> try:
    ...     rules_for("kawuxing", cap="<img>")
    ... except RulesError as exc:
    ...     error = exc
    >>> error.option, error.reason, error.values
    ('cap', 'option cap: expected a whole number or none', {'got': '<img>'})
    >>> str(error)
    "option cap: expected a whole number or none, got '<img>'"
    """

    def __init__(self, message: str = "", option: str | None = None, got: object = _NOTHING_SENT) -> None:
        super().__init__(message if got is _NOTHING_SENT else f"{message}, got {got!r}")
        self.option, self.reason = option, message
        self.values: dict[str, object] = {} if got is _NOTHING_SENT else {"got": got}


class IllegalActionError(MajiangError):
    """An action that the rules do not allow at this point of the game (state is unchanged).

    >>> from majiang import Action, Game
    >>> game = Game("kawuxing", seed=1)
    >>> try:
    ...     game.apply(0, Action("pong"))
    ... except IllegalActionError as exc:
    ...     print(str(exc).split(";")[0])
    'pong' is not legal for seat 0 now
    """


# Raised and caught as ``majiang.RulesError`` and so on, wherever they are defined.
for _cls in (MajiangError, TileError, HandError, RulesError, IllegalActionError):
    _cls.__module__ = "majiang"
del _cls
