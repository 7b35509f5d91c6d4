"""The web game's websocket protocol: every message in both directions as a pydantic model, the
client's parsed in one place (``parse_client``), the whole published as a JSON Schema
(``src/majiang/data/protocol.schema.json``, ``python -m majiang.server.protocol`` writes it).

Client -> server (JSON text, at most ``MAX_MESSAGE`` characters): ``action`` (the decision ``seq``
answers, and the action), ``ready`` (准备; ``next`` is its old name), ``auto`` (托管 on or off),
``chat`` (a quick phrase's id), ``dissolve`` (解散: start or answer the vote), ``hints``, ``ping``.
Server -> client: ``snapshot`` (what the seat sees, whole), ``patch`` (what changed since the
last one, applied as ``views.patch`` does), ``chat``, ``pong`` and ``error`` (a refusal's code,
parameters and English text, from ``errors.CATALOGUE``).

>>> parse_client('{"type": "auto", "on": true}')
Auto(type='auto', on=True)
>>> parse_client('{"type": "shout"}').code
'message.unknown_type'
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter, ValidationError

from majiang.engine import ACTION_TYPES
from majiang.server.commands import CHAT_PHRASES
from majiang.server.errors import CATALOGUE, Refusal, RefusalCode

VERSION = 1  # raise it when a message changes in a way an older page would misread
MAX_MESSAGE = 2048  # characters of one client message: an action needs about a hundred
SCHEMA_FILE = "data/protocol.schema.json"

Phrase = Literal[CHAT_PHRASES]  # type: ignore[valid-type]
ErrorCode = RefusalCode  # the schema's enum of error codes: the catalogue's, in its order
Tile = Annotated[str, Field(max_length=8)]


class _Client(BaseModel):
    model_config = ConfigDict(extra="ignore")  # a field this server does not know is not an error


class ActionBody(BaseModel):
    """An action as the snapshot's ``view.legal`` lists it (the engine checks it is legal)."""

    model_config = ConfigDict(extra="ignore")
    type: Literal[ACTION_TYPES]  # type: ignore[valid-type]
    tile: Tile | None = None
    tiles: Annotated[list[Tile], Field(max_length=4)] = []
    suit: Annotated[str, Field(max_length=1)] | None = None

    def as_dict(self) -> dict:
        """The action as ``Action.from_json`` reads it: ``model_dump`` without its machinery, which
        costs more than the rest of handling a message (this is on every action's path).

        >>> ActionBody(type="discard", tile="5p").as_dict()
        {'type': 'discard', 'tile': '5p', 'tiles': [], 'suit': None}
        """
        return {"type": self.type, "tile": self.tile, "tiles": self.tiles, "suit": self.suit}


class Act(_Client):
    """Answer the decision numbered ``seq`` (the snapshot's ``seq``) with ``action``."""

    type: Literal["action"]
    seq: StrictInt
    action: ActionBody


class Ready(_Client):
    """准备: for the next hand, or in the lobby for the first."""

    type: Literal["ready", "next"]


class Auto(_Client):
    """托管 on, or off (any tap on the page while it plays for you)."""

    type: Literal["auto"]
    on: StrictBool = False


class Chat(_Client):
    """A quick phrase or emoji, by id (the page words it); at most one per 2 s per seat."""

    type: Literal["chat"]
    phrase: Phrase


class Dissolve(_Client):
    """解散: start a vote or answer it (the match ends when every seated human agrees)."""

    type: Literal["dissolve"]
    agree: StrictBool = False


class Hints(_Client):
    """Whether this seat shows hints (they are computed only while shown)."""

    type: Literal["hints"]
    on: StrictBool = False


class Ping(_Client):
    type: Literal["ping"]


ClientMessage = Annotated[Union[Act, Ready, Auto, Chat, Dissolve, Hints, Ping], Field(discriminator="type")]
CLIENT_TYPES = ("action", "ready", "auto", "chat", "dissolve", "hints", "ping")
_client = TypeAdapter(ClientMessage)
Parsed = Union[Act, Ready, Auto, Chat, Dissolve, Hints, Ping, Refusal]  # a message, or why it is refused


def parse_client(raw: str | None, size: int | None = None) -> Parsed:
    """One client message as its model, or the ``Refusal`` to answer it with (never quoting it).
    ``size`` (characters, or bytes for a binary frame) is bounded before anything is parsed."""
    size = len(raw) if size is None and raw is not None else size
    if raw is None:
        return Refusal("message.binary")
    if size > MAX_MESSAGE:
        return Refusal("message.too_large", max=MAX_MESSAGE)
    try:  # one pass from the text: about half the work of loads-then-validate, on every action
        return _client.validate_json(raw)
    except ValidationError:
        return _in_two_steps(raw)  # refused (or JSON only Python reads, e.g. NaN): say exactly why


def _in_two_steps(raw: str) -> Parsed:
    """The text read by Python's json, then validated: what ``parse_client`` answers whenever the
    one pass refuses (a test holds the two equal on every message)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return Refusal("message.not_object")
    if not isinstance(data, dict):
        return Refusal("message.not_object")
    try:
        return _client.validate_python(data)
    except ValidationError as exc:
        return _refusal(data, exc.errors())


def _refusal(data: dict, errors: list) -> Refusal:
    """The first error of a message that did not validate, as a refusal."""
    first = errors[0]
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return Refusal("message.unknown_type", types=", ".join(CLIENT_TYPES))
    where = [str(x) for x in first["loc"][1:]]
    kind = data["type"]
    if kind == "action":
        field = where[0] if where else ""
        inner = where[1] if len(where) > 1 else ""
        if field == "seq":
            return Refusal("action.bad_seq")
        if inner in ("tile", "suit"):
            return Refusal("action.bad_tile")
        if inner == "tiles":
            return Refusal("action.bad_tiles")
        return Refusal("action.malformed", types=", ".join(ACTION_TYPES))
    if kind == "chat":
        return Refusal("chat.unknown_phrase")
    fields = sorted({".".join(str(x) for x in e["loc"][1:]) for e in errors})
    return Refusal("message.invalid", fields=", ".join(fields)[:100], type=kind)


# -- server -> client ------------------------------------------------------------------------------

class _Server(BaseModel):
    model_config = ConfigDict(extra="forbid")  # the schema names every field the server sends


class Clock(_Server):
    seat: int | None  # whose turn's timer; None: the 准备 timer (between hands, or before the first)
    deadline: int | None  # ms since the epoch


class You(_Server):
    seat: int
    auto: bool
    missed: int
    deadline: int | None
    ready: bool


class DissolveVote(_Server):
    by: int
    votes: list[bool | None]
    deadline: int


class Rematch(_Server):
    code: str
    by: int


class RoomView(_Server):
    code: str
    variant: str
    preset: str | None
    hands: int
    hand_index: int
    status: Literal["lobby", "playing", "finished"]
    names: list[str]
    humans: list[bool]
    connected: list[bool]
    host_seat: int | None
    stake: int
    match_totals: list[int]
    auto: list[bool]
    ready: list[bool] | None
    timers: dict[str, float | str]  # the timers in seconds, and "pace": the bots' pace (clock.PACES)
    clock: Clock | None
    waiting_next: bool
    match_over: bool
    dissolve: DissolveVote | None
    dissolved: bool
    starting: bool
    rematch: Rematch | None
    joining: list[str | None]
    resting: dict[str, Any] | None
    four: bool


class Received(_Server):
    """换三张: the three tiles this seat was passed, until its first discard (only its own)."""

    tiles: list[Tile]
    from_seat: int
    direction: Literal["clockwise", "counterclockwise", "across"]  # the way the tiles went round


class Snapshot(_Server):
    """What one seat sees, whole (``view`` is the observation: data/observation.schema.json)."""

    type: Literal["snapshot"]
    seq: int | None  # the decision this seat answers next (None: a spectator)
    room: RoomView
    seat: int | None
    you: You | None
    view: dict[str, Any] | None
    hints: dict[str, Any] | None
    declare_waits: dict[str, list[dict[str, Any]]] | None
    received: Received | None
    dice: list[int] | None
    settlement: dict[str, Any] | None
    end_waits: list[list[str] | None] | None  # once the hand is over: each seat's waits (查大叫), None if it won
    now: int  # the server's clock (ms), so deadlines count down right on any device


class Patch(_Server):
    """What changed since the last snapshot or patch this client was sent (``views.patch``)."""

    type: Literal["patch"]
    patch: dict[str, Any]
    now: int


class ChatShown(_Server):
    type: Literal["chat"]
    seat: int
    phrase: Phrase


class Pong(_Server):
    type: Literal["pong"]


class Error(_Server):
    """A refusal: ``code`` and ``params`` (translate these), ``message`` (the English text)."""

    type: Literal["error"]
    message: str
    code: ErrorCode
    params: dict[str, Any]


ServerMessage = Annotated[Union[Snapshot, Patch, ChatShown, Pong, Error], Field(discriminator="type")]
server_messages = TypeAdapter(ServerMessage)


def schema() -> dict:
    """The protocol as one JSON Schema document: ``$defs`` holds every message, ``ClientMessage``
    and ``ServerMessage`` the two directions; ``errors`` is the error catalogue (code -> template)."""
    defs: dict = {}
    for name, adapter in (("ClientMessage", _client), ("ServerMessage", server_messages)):
        part = adapter.json_schema(ref_template="#/$defs/{model}")
        defs.update(part.pop("$defs", {}))
        defs[name] = part
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"urn:majiang:web-protocol:{VERSION}",
            "title": f"majiang web game protocol {VERSION}",
            "description": "The websocket /ws/{code}: ClientMessage is what a page sends, ServerMessage what the "
                           "server sends. errors: every refusal's code and its English template. See "
                           "docs/PROTOCOL.md.",
            "version": VERSION,
            "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
            "$defs": dict(sorted(defs.items())), "errors": dict(CATALOGUE)}


def schema_text() -> str:
    return json.dumps(schema(), indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def write_schema(path: str | None = None) -> str:
    """Writes the schema file (by default the package's own); returns the path written."""
    import os
    path = path or os.path.join(os.path.dirname(os.path.dirname(__file__)), SCHEMA_FILE)
    with open(path, "w", encoding="utf-8") as f:
        f.write(schema_text())
    return path


if __name__ == "__main__":  # python -m majiang.server.protocol: rewrite the schema file
    print(write_schema())
