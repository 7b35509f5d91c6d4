"""Every refusal the server gives, by a stable code: one table, code -> English template.

A refusal travels as its code, its parameters and the English text made from the template (HTTP:
``{"error", "detail", "code", "params"}``; websocket: ``{"type": "error", "message", "code",
"params"}``). The page translates by code and parameters; the text is for scripts and people
reading logs. Nothing may branch on the text: reword a template freely, never rename a code.
Parameters are the server's own values (limits, choices), never what a client sent.

A failure of the server's own machinery (the database, a table's lease, the match's state machine)
is no refusal of the request: it is an ``InfrastructureError``, not a ``ValueError``, and the app
answers every one in one place, 503 with the code its class names.

>>> str(Refusal("action.stale", decision=7))
'stale action: this is decision 7'
>>> Refusal("room.not_found", status=404).status
404
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from majiang.core.errors import HandError, IllegalActionError, MajiangError, RulesError, TileError

# Every refusal code, one name each: mypy checks each ``Refusal(...)``, ``ws_refusal(...)`` against
# it, and a test holds it equal to CATALOGUE's keys, in order (the schema lists them so).
RefusalCode = Literal[
    # requests as a whole
    "request.other_origin", "request.not_json", "request.bad_json", "request.not_object", "request.too_large",
    "request.bad_host", "request.invalid", "request.refused", "tile.invalid", "hand.invalid",
    "request.no_route", "request.bad_method", "number.out_of_range",
    # players
    "player.unknown", "player.unknown_token", "name.not_text", "name.bad_length", "name.not_printable",
    "name.blank",
    # rooms
    "room.not_found", "room.bad_variant", "room.bad_preset", "rules.bad_options", "rules.bad_option_name",
    "rules.bad_option_value", "rules.invalid_option", "room.bad_bots", "room.bad_people",
    "room.bad_people_four", "room.bad_sit_out", "room.bad_create_key", "timers.not_object", "timers.unknown",
    "timers.out_of_range", "timers.bad_pace",
    # seats and the match
    "seat.none_left", "seat.table_full", "seat.spectator", "match.over", "match.not_over", "match.not_started",
    "start.not_host", "ready.not_seated", "ready.no_next_hand", "rematch.not_player", "hand.over",
    "dissolve.not_playing", "dissolve.no_vote", "dissolve.too_soon", "chat.unknown_phrase",
    # actions
    "action.bad_seq", "action.malformed", "action.bad_tile", "action.bad_tiles", "action.bad_tile_name",
    "action.no_decision", "action.stale", "action.illegal", "action.not_applied",
    # websocket messages
    "message.binary", "message.too_large", "message.not_object", "message.unknown_type", "message.invalid",
    # limits
    "rate.too_many_messages", "rate.new_players", "rate.room_code_misses", "rate.rooms_hosted", "rate.replays",
    "rate.costly", "rate.reviews",
    # history, replays, tools, files
    "history.bad_before", "replay.not_found", "review.hand_not_finished", "review.not_your_seat",
    "review.not_requested", "review.failed", "analyze.bad_request", "file.not_found",
    # the server itself
    "table.moving", "table.moving_reconnect", "store.unavailable", "store.not_stored",
]

# code -> English template ({name} is a parameter). Dot-separated: the thing, then what is wrong.
CATALOGUE: dict[RefusalCode, str] = {
    # requests as a whole
    "request.other_origin": "requests from other sites are refused",
    "request.not_json": "send JSON (Content-Type: application/json)",
    "request.bad_json": "the request body must be JSON",
    "request.not_object": "the request body must be a JSON object",
    "request.too_large": "request body too large",
    "request.bad_host": "this server does not answer to that host name",
    "request.invalid": "bad {fields}",
    "request.refused": "that was refused",
    "tile.invalid": "a tile is written like 5p or 7z",
    "hand.invalid": "that hand cannot be analysed",
    "request.no_route": "Not Found",
    "request.bad_method": "Method Not Allowed",
    "number.out_of_range": "{field} must be a whole number from {lo} to {hi}",
    # players
    "player.unknown": "no player: make one first (or send your X-Token)",
    "player.unknown_token": "unknown token",
    "name.not_text": "a name is text of 1 to {max} characters",
    "name.bad_length": "a name has 1 to {max} characters",
    "name.not_printable": "a name is printable text (no control or direction characters)",
    "name.blank": "a name needs letters or signs that show (not only blanks or accents)",
    # rooms
    "room.not_found": "no such room",
    "room.bad_variant": "variant must be {choices}",
    "room.bad_preset": "preset must be one of {choices}",
    "rules.bad_options": "options must be an object of option: value",
    "rules.bad_option_name": "options are named in lower case (see docs/RULES.md); "
                            "variant and preset are fields of their own",
    "rules.bad_option_value": "option {option} must be a number, true/false or a short word",
    "rules.invalid_option": "{reason}",
    "room.bad_bots": "bots must be one of {choices}",
    "room.bad_people": "people is {plays}",
    "room.bad_people_four": "people is {plays} or 4 (three play each hand, one sits out)",
    "room.bad_sit_out": "sit_out is one of {choices}",
    "room.bad_create_key": "create_key is 8 to 40 letters, digits, - or _",
    "timers.not_object": "timers must be an object of name: seconds",
    "timers.unknown": "unknown timer (one of {choices})",
    "timers.out_of_range": "{timer} must be a number from {lo} to {hi}",
    "timers.bad_pace": "pace is one of {choices}",
    # seats and the match
    "seat.none_left": "every seat has a player: watch the match as a spectator",
    "seat.table_full": "the table is full",
    "seat.spectator": "spectators watch: they cannot act",
    "match.over": "the match is over",
    "match.not_over": "the match is not over yet",
    "match.not_started": "the match has not started",
    "start.not_host": "only the host starts the match",
    "ready.not_seated": "only a seated player gets ready",
    "ready.no_next_hand": "there is no next hand to get ready for",
    "rematch.not_player": "only the players of this match can ask for a rematch",
    "hand.over": "the hand is over",
    "dissolve.not_playing": "only a match in play can be dissolved",
    "dissolve.no_vote": "there is no vote to answer",
    "dissolve.too_soon": "you asked a moment ago: wait before asking again",
    "chat.unknown_phrase": "unknown phrase",
    # actions
    "action.bad_seq": "seq must be a whole number: the decision you answer (the snapshot's seq)",
    "action.malformed": "an action is an object with a 'type' ({types})",
    "action.bad_tile": "bad tile in action (tiles are written like 5p or 7z)",
    "action.bad_tiles": "bad tile in action: 'tiles' is a list of up to three tiles like 5p",
    "action.bad_tile_name": "bad tile in action (tiles are written like 5p or 7z; suits m, p or s)",
    "action.no_decision": "you have no decision to make now",
    "action.stale": "stale action: this is decision {decision}",
    "action.illegal": "that action is not legal now",
    "action.not_applied": "the server could not apply that: nothing changed",
    # websocket messages
    "message.binary": "messages are JSON text, not binary",
    "message.too_large": "message too large (at most {max} characters)",
    "message.not_object": "messages are JSON objects",
    "message.unknown_type": "unknown message type ({types})",
    "message.invalid": "bad {fields} in the {type} message",
    # limits
    "rate.too_many_messages": "too many messages: slow down",
    "rate.new_players": "too many new players from this address: try again later",
    "rate.room_code_misses": "too many unknown room codes from this address: try again later",
    "rate.rooms_hosted": "you host {unfinished} unfinished rooms (at most {max_open}, {max_per_hour} new an hour): "
                         "finish one first",
    "rate.replays": "too many replays from this address: try again in a minute",
    "rate.costly": "too many replays or analyses from this address: try again in a minute",
    "rate.reviews": "you may ask for {per_minute} new reviews a minute: try again in a minute",
    # history, replays, tools, files
    "history.bad_before": "before is the created time of the last row you have",
    "replay.not_found": "no such finished hand in this room",
    "review.hand_not_finished": "this hand has not ended: only a finished hand is reviewed",
    "review.not_your_seat": "a review is only for a player of that hand, of their own seat",
    "review.not_requested": "nobody has asked for this review yet (POST to ask for it)",
    "review.failed": "the review could not be made: ask again",
    "analyze.bad_request": "hand is up to 64 characters, variant {choices}, void m, p or s",
    "file.not_found": "no such file",
    # the server itself
    "table.moving": "this room's table is moving between servers: try again in a moment",
    "table.moving_reconnect": "this table is moving between servers: reconnecting",
    "store.unavailable": "the database is unavailable: nothing was changed, try again",
    "store.not_stored": "the server could not store that: nothing changed, try again",
}


class Refusal(MajiangError):
    """A refusal with its code and parameters (its text is the code's English template filled in).
    ``status`` is the HTTP status it answers with (a websocket ignores it); ``params`` the values
    the template names, kept as a dict (the page translates with them)."""

    def __init__(self, code: RefusalCode, status: int = 400, **params: Any) -> None:
        if code not in CATALOGUE:  # mypy refuses it where it can see the call; this where it cannot
            raise KeyError(f"no error code {code!r} in majiang.server.errors.CATALOGUE")
        self.code: RefusalCode = code
        self.status, self.params = status, params
        super().__init__(render(code, params))


Refusal.__module__ = "majiang"  # shown as majiang.Refusal, beside majiang.MajiangError


class InfrastructureError(Exception):
    """The server's own machinery failed, not the request: the database, a table's lease, the
    match's state machine. Not a ``ValueError`` (nothing the client sent was wrong): the app answers
    every one in one place, 503 with the refusal ``code`` (the request may succeed if tried again);
    the websocket says its own codes (``sockets.handle``).

    >>> class Outage(InfrastructureError):
    ...     code = "store.unavailable"
    >>> body = unavailable(Outage("disk full on db-2"))
    >>> issubclass(Outage, ValueError), body["code"], body["error"]
    (False, 'store.unavailable', 'the database is unavailable: nothing was changed, try again')
    """

    code: ClassVar[RefusalCode] = "request.refused"


def unavailable(exc: InfrastructureError) -> dict:
    """The HTTP body (status 503) an infrastructure failure answers with: its code's text, never the
    failure's own message (which may name tables, workers or the database)."""
    return http_body(Refusal(exc.code, status=503))


def render(code: RefusalCode, params: dict[str, Any]) -> str:
    """The English text of a code with its parameters.

    >>> render("timers.out_of_range", {"timer": "turn_seconds", "lo": 5, "hi": 300})
    'turn_seconds must be a number from 5 to 300'
    """
    return CATALOGUE[code].format(**params)


# What a refusal by the engine or the rules is, by its type (their messages stay the text: they
# name the rule, and nothing reads them but people)
_BY_TYPE: tuple[tuple[type[MajiangError], RefusalCode], ...] = (
    (IllegalActionError, "action.illegal"), (TileError, "tile.invalid"),
    (RulesError, "rules.invalid_option"), (HandError, "hand.invalid"))


def rules_params(exc: BaseException) -> dict[str, Any]:
    """A rules refusal's parameters: the option at fault (its declared name, when one is; the page
    says it in its language) and the rules' reason, without the values a client sent (a
    ``RulesError`` carries them apart, in ``values``).

    >>> from majiang.core.errors import RulesError
    >>> rules_params(RulesError("option cap: expected a whole number", option="cap", got="<img>"))
    {'reason': 'option cap: expected a whole number', 'option': 'cap'}
    """
    if isinstance(exc, RulesError):
        reason = exc.reason
    else:
        reason = str(exc) if isinstance(exc, MajiangError) else "bad options"
    params: dict[str, Any] = {"reason": reason[:600]}
    option = getattr(exc, "option", None)
    if isinstance(option, str):
        params["option"] = option
    return params


def code_of(exc: BaseException) -> tuple[RefusalCode, dict[str, Any]]:
    """A refusal's code and parameters: its own if it is a ``Refusal``, else by its type."""
    if isinstance(exc, Refusal):
        return exc.code, exc.params
    for kind, code in _BY_TYPE:
        if isinstance(exc, kind):
            return code, (rules_params(exc) if code == "rules.invalid_option" else {})
    return "request.refused", {}


def http_body(exc: BaseException, text: str | None = None) -> dict:
    """An HTTP refusal's body: the English text under ``error`` and ``detail`` (the names it has
    always had), beside its code and parameters."""
    code, params = code_of(exc)
    text = str(exc) if text is None else text
    return {"error": text, "detail": text, "code": code, "params": params}


def ws_error(exc: BaseException) -> dict:
    """A websocket refusal: ``{"type": "error", "message", "code", "params"}``."""
    code, params = code_of(exc)
    return {"type": "error", "message": str(exc), "code": code, "params": params}


def ws_refusal(code: RefusalCode, **params: Any) -> dict:
    """A websocket refusal by code (its text from the template)."""
    return {"type": "error", "message": render(code, params), "code": code, "params": params}


def catalogue_markdown() -> str:
    """The catalogue as a Markdown table (docs/PROTOCOL.md lists it)."""
    rows = ["| `%s` | %s |" % (code, template.replace("|", "\\|")) for code, template in CATALOGUE.items()]
    return "\n".join(["| code | English template |", "|---|---|", *rows])
