"""The web game's protocol: typed messages parsed in one place, published as a JSON Schema that
every frame of a played match satisfies, and stable error codes on every refusal."""

import asyncio
import json
import re
import subprocess
import sys
import time
import typing
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
jsonschema = pytest.importorskip("jsonschema")
from fastapi.testclient import TestClient  # noqa: E402

from majiang.server import errors, protocol, rooms, seating  # noqa: E402
from majiang.server.app import create_app  # noqa: E402
from majiang.server.match import IllegalTransition  # noqa: E402
from majiang.server.requests import NewRoom, parse  # noqa: E402
from majiang.server.store import LeaseLost, SchemaError, Store, StoreError  # noqa: E402
from majiang.server.tables import Elsewhere, Tables  # noqa: E402
from majiang.server.views import patch  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(resources.files("majiang").joinpath(protocol.SCHEMA_FILE).read_text("utf-8"))


def validator(direction: str):
    return jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{direction}"})


SERVER, CLIENT = validator("ServerMessage"), validator("ClientMessage")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db'}.sqlite3", bot_delay=0.0)) as c:
        yield c


def new_player(c, name="ana"):
    r = c.post("/api/players", json={"name": name})
    c.cookies.clear()
    return r.json()


def test_the_committed_schema_is_the_generated_one():
    """python -m majiang.server.protocol rewrites it; a model changed without it fails here."""
    assert resources.files("majiang").joinpath(protocol.SCHEMA_FILE).read_text("utf-8") == protocol.schema_text()
    assert SCHEMA["version"] == protocol.VERSION and SCHEMA["errors"] == errors.CATALOGUE
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def send(ws, msg: dict) -> None:
    CLIENT.validate(msg)  # what this test sends is the protocol too
    ws.send_json(msg)


def play_match(ws, seat: int, patches: bool, first: dict) -> list[dict]:
    """Every frame until the match is over, answering each decision with its first legal action
    (a win when there is one); patches are applied to the last snapshot as the page does."""
    frames, state, answered, readied, sent = [], None, None, None, None
    for _ in range(20_000):
        msg = ws.receive_json() if state is not None else first  # the first may hold a decision already
        frames.append(msg)
        if msg["type"] == "error" and msg["code"] == "rate.too_many_messages" and sent is not None:
            time.sleep(0.2)  # this test answers faster than a person may: say it again, slower
            send(ws, sent)
        if msg["type"] == "patch":
            state = patch(state, msg["patch"]) | {"now": msg["now"]}
        elif msg["type"] == "snapshot":
            state = msg
        else:
            continue
        assert patches or msg["type"] == "snapshot"
        if state["room"]["match_over"]:
            return frames
        legal = (state["view"] or {}).get("legal") or []
        if legal and state["seq"] != answered:
            wins = [a for a in legal if a["type"] == "win"]
            sent = {"type": "action", "seq": state["seq"], "action": (wins or legal)[-1]}
            send(ws, sent)
            answered = state["seq"]
        elif state["room"]["ready"] and not state["room"]["ready"][seat] and readied != state["room"]["hand_index"]:
            send(ws, {"type": "ready"})
            readied = state["room"]["hand_index"]
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
@pytest.mark.parametrize("patches", [False, True])
def test_every_frame_of_a_played_match_validates(client, variant, patches):
    me = new_player(client)
    h = {"X-Token": me["token"]}
    code = client.post("/api/rooms", json={"variant": variant, "hands": 2, "bots": "greedy"}, headers=h).json()["code"]
    client.post(f"/api/rooms/{code}/start", headers=h)
    with client.websocket_connect(f"/ws/{code}" + ("?patches=1" if patches else ""), headers=h) as ws:
        first = ws.receive_json()
        for msg in ({"type": "ping"}, {"type": "hints", "on": True}, {"type": "chat", "phrase": "hello"},
                    {"type": "auto", "on": False}):
            send(ws, msg)
        ws.send_json({"type": "shout"})  # an error frame among the others
        frames = play_match(ws, 0, patches, first)
    kinds = {f["type"] for f in frames}
    assert {"snapshot", "pong", "chat", "error"} <= kinds and (patches == ("patch" in kinds))
    for frame in frames:
        SERVER.validate(frame)
        protocol.server_messages.validate_python(frame)  # the models agree with their schema


def until(ws, frames: list, done) -> dict:
    for _ in range(2000):
        msg = ws.receive_json()
        frames.append(msg)
        if done(msg):
            return msg
    raise AssertionError("never came")


def test_the_dissolve_vote_and_the_rematch_offer_validate(client):
    """What the played matches do not show: an open 解散 vote, a dissolved match, 再来一局 offered."""
    a, b = new_player(client, "a"), new_player(client, "b")
    ha, hb = {"X-Token": a["token"]}, {"X-Token": b["token"]}
    timers = {"turn_seconds": 300, "claim_seconds": 120}
    room = {"variant": "sichuan", "hands": 2, "timers": timers}
    code = client.post("/api/rooms", json=room, headers=ha).json()["code"]
    client.post(f"/api/rooms/{code}/join", headers=hb)
    client.post(f"/api/rooms/{code}/ready", headers=hb)
    client.post(f"/api/rooms/{code}/start", headers=ha)
    frames: list = []
    with client.websocket_connect(f"/ws/{code}?patches=1", headers=ha) as wa, \
            client.websocket_connect(f"/ws/{code}", headers=hb) as wb:
        send(wa, {"type": "dissolve", "agree": True})
        until(wb, frames, lambda m: m["type"] == "snapshot" and m["room"]["dissolve"])
        send(wb, {"type": "dissolve", "agree": True})
        until(wb, frames, lambda m: m["type"] == "snapshot" and m["room"]["dissolved"])
        assert client.post(f"/api/rooms/{code}/rematch", headers=ha).status_code == 200
        until(wb, frames, lambda m: m["type"] == "snapshot" and m["room"]["rematch"])
        send(wa, {"type": "ping"})
        until(wa, frames, lambda m: m["type"] == "pong")
    for frame in frames:
        SERVER.validate(frame)


def test_a_spectator_and_the_refusals_validate(client):
    me = new_player(client)
    h = {"X-Token": me["token"]}
    code = client.post("/api/rooms", json={"variant": "sichuan", "hands": 1}, headers=h).json()["code"]
    with client.websocket_connect(f"/ws/{code}") as watcher:
        lobby = watcher.receive_json()
        send(watcher, {"type": "ready"})
        refused = watcher.receive_json()
    with client.websocket_connect("/ws/999999") as nowhere:
        missing = nowhere.receive_json()
    for frame in (lobby, refused, missing):
        SERVER.validate(frame)
    assert refused["code"] == "seat.spectator" and missing["code"] == "room.not_found"
    assert refused["message"] == "spectators watch: they cannot act" and refused["params"] == {}


@pytest.mark.parametrize("raw, code", [
    (None, "message.binary"),
    ("x" * (protocol.MAX_MESSAGE + 1), "message.too_large"),
    ("not json", "message.not_object"),
    ("[1, 2]", "message.not_object"),
    ("[" * 1020 + "]" * 1020, "message.not_object"),
    ('{"type": "shout"}', "message.unknown_type"),
    ("{}", "message.unknown_type"),
    ('{"type": "action", "seq": "x", "action": {}}', "action.bad_seq"),
    ('{"type": "action", "seq": true, "action": {"type": "pass"}}', "action.bad_seq"),
    ('{"type": "action", "seq": 1, "action": {"type": "fly"}}', "action.malformed"),
    ('{"type": "action", "seq": 1, "action": [1]}', "action.malformed"),
    ('{"type": "action", "seq": 1, "action": {"type": "discard", "tile": "<script><script>"}}', "action.bad_tile"),
    ('{"type": "action", "seq": 1, "action": {"type": "discard", "tiles": ["1p", "1p", "1p", "1p", "1p"]}}',
     "action.bad_tiles"),
    ('{"type": "chat", "phrase": "<b>hi</b>"}', "chat.unknown_phrase"),
    ('{"type": "auto", "on": "yes"}', "message.invalid"),
])
def test_a_bad_message_is_one_coded_refusal_that_never_echoes(raw, code):
    refusal = protocol.parse_client(raw)
    assert isinstance(refusal, errors.Refusal) and refusal.code == code, refusal
    frame = errors.ws_error(refusal)
    SERVER.validate(frame)
    assert "<" not in json.dumps(frame) and len(json.dumps(frame)) < 400


def test_good_messages_parse_to_their_types():
    cases = {'{"type": "action", "seq": 3, "action": {"type": "discard", "tile": "5p"}}': protocol.Act,
             '{"type": "ready"}': protocol.Ready, '{"type": "next"}': protocol.Ready,
             '{"type": "auto", "on": true}': protocol.Auto, '{"type": "chat", "phrase": "nice"}': protocol.Chat,
             '{"type": "dissolve", "agree": false}': protocol.Dissolve, '{"type": "hints"}': protocol.Hints,
             '{"type": "ping", "last": true}': protocol.Ping}  # a field this server does not know is ignored
    for raw, kind in cases.items():
        assert type(protocol.parse_client(raw)) is kind, raw
        CLIENT.validate(json.loads(raw))
    act = protocol.parse_client('{"type": "action", "seq": 3, "action": {"type": "discard", "tile": "5p"}}')
    assert act.action.model_dump(exclude_none=True) == {"type": "discard", "tile": "5p", "tiles": []}


_scalar = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                    st.text(max_size=10), st.sampled_from(["5p", "1m", "9s", "m", "pp", "nice", "x" * 9]))
_action = st.fixed_dictionaries({}, optional={
    "type": st.one_of(st.sampled_from(protocol.ACTION_TYPES), _scalar),
    "tile": _scalar, "tiles": st.one_of(st.lists(_scalar, max_size=6), _scalar), "suit": _scalar,
    "extra": _scalar})
_message = st.fixed_dictionaries({}, optional={
    "type": st.one_of(st.sampled_from(protocol.CLIENT_TYPES + ("next", "shout")), _scalar),
    "seq": _scalar, "action": st.one_of(_action, _scalar, st.lists(_scalar, max_size=2)),
    "on": _scalar, "agree": _scalar, "phrase": st.one_of(st.sampled_from(protocol.CHAT_PHRASES), _scalar),
    "last": _scalar})


def _same(a, b) -> bool:
    if isinstance(a, errors.Refusal) or isinstance(b, errors.Refusal):
        return type(a) is type(b) and (a.code, a.params) == (b.code, b.params)
    return type(a) is type(b) and a == b


@settings(max_examples=600, deadline=None)
@given(_message, st.booleans(), st.sampled_from(["", "[", "{", "}", " ", "NaN", '{"type": "ping"}']))
def test_the_one_pass_parse_answers_as_loads_then_validate(message, spaced, tail):
    """parse_client validates the text in one pass and falls back to json.loads then validation
    only when that refuses: the answer must be the same on every message, good or bad."""
    raw = json.dumps(message, indent=1 if spaced else None)
    for text in (raw, raw + tail, raw[: len(raw) // 2]):
        assert _same(protocol.parse_client(text), protocol._in_two_steps(text)), text


@pytest.mark.parametrize("raw", [
    '{"type": "action", "seq": 1, "action": {"type": "discard", "tile": "\\ud800"}}',  # a lone surrogate
    '{"type": "action", "seq": 1, "action": {"type": "pass"}, "type": "ping"}',  # a repeated key: the last
    '{"type": "action", "seq": 1.0, "action": {"type": "pass"}}', '{"type": "action", "seq": 1e2}',
    '{"type": "action", "seq": 100000000000000000000000000, "action": {"type": "pass"}}',
    '{"type": "ping", "x": NaN}', '{"type": "ping", "x": Infinity}', '\ufeff{"type": "ping"}',
    ' {"type": "ping"}\n', '{"type": "auto", "on": 1}', '"ping"', "null", "",
])
def test_the_one_pass_parse_answers_as_loads_then_validate_at_the_edges(raw):
    assert _same(protocol.parse_client(raw), protocol._in_two_steps(raw)), raw


# -- error codes --------------------------------------------------------------------------------

def test_codes_are_dotted_snake_case_and_every_one_is_documented():
    doc = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    for code, template in errors.CATALOGUE.items():
        assert re.fullmatch(r"[a-z][a-z_]*(\.[a-z][a-z_]*)+", code), code
        assert f"`{code}`" in doc, f"docs/PROTOCOL.md does not list {code}"
    assert errors.catalogue_markdown() in doc  # the table there is the catalogue, as generated


def test_the_refusal_code_type_is_the_catalogue_s_codes_in_order():
    """``RefusalCode`` (what mypy checks) and ``CATALOGUE`` (the templates) name the same codes, in
    the same order (the schema's enum is the type's)."""
    assert typing.get_args(errors.RefusalCode) == tuple(errors.CATALOGUE)
    with pytest.raises(KeyError):  # where mypy cannot see the call
        errors.Refusal("no.such_code")  # type: ignore[arg-type]


def test_mypy_checks_the_code_of_every_refusal_the_server_raises(tmp_path):
    """A misspelt code is a type error where it is written, not a KeyError when it is met."""
    pytest.importorskip("mypy")
    probe = tmp_path / "refusal_code_probe.py"
    probe.write_text("from majiang.server.errors import Refusal, ws_refusal\n"
                     "Refusal('room.not_found', status=404)\n"
                     "Refusal('room.nope')\n"
                     "ws_refusal('store.gone')\n")
    result = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypyc.ini"),
                             str(ROOT / "src" / "majiang" / "server"), str(probe)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    the_type = f"Literal['{typing.get_args(errors.RefusalCode)[0]}'"  # how mypy names RefusalCode
    flagged = [line for line in result.stdout.splitlines() if the_type in line]
    assert [line.split(":")[1] for line in flagged if probe.name in line] == ["3", "4"], result.stdout[-3000:]
    assert all(probe.name in line for line in flagged), flagged  # the server's own codes all check


@pytest.mark.parametrize("failure, code", [
    (StoreError("the disk of db-2 is full"), "store.unavailable"),
    (LeaseLost("table 123456 is driven by another worker now"), "store.unavailable"),
    (SchemaError("the database is at schema revision 0003"), "store.unavailable"),
    (Elsewhere("table 123456 is driven by web-7"), "table.moving"),
    (IllegalTransition("the match cannot go from finished to playing"), "request.refused"),
])
def test_an_infrastructure_failure_is_a_503_with_its_code_never_its_text(client, monkeypatch, failure, code):
    """The server's own failures are no ``ValueError`` (nothing sent was wrong) and are answered in
    one place: 503, the code its class names, the code's text (never the failure's, which names
    tables, workers or the database)."""
    assert isinstance(failure, errors.InfrastructureError) and not isinstance(failure, ValueError)

    def fail(*args, **kwargs):
        raise failure

    monkeypatch.setattr(client.app.state.store, "room", fail)
    r = client.get("/api/rooms/123456")
    assert (r.status_code, r.json()["code"]) == (503, code), r.text
    assert r.json()["error"] == r.json()["detail"] == errors.render(code, {})
    assert str(failure) not in r.text


@pytest.mark.parametrize("failure, code", [
    (StoreError("the disk of db-2 is full"), "store.not_stored"),
    (Elsewhere("table 123456 is driven by web-7"), "table.moving"),
    (IllegalTransition("the match cannot go from finished to playing"), "request.refused"),
])
def test_an_infrastructure_failure_on_the_socket_is_its_code_never_its_text(failure, code):
    from majiang.server import sockets

    class Failing:
        def working(self):
            pass

        async def set_ready(self, seat):
            raise failure

    reply = asyncio.run(sockets.handle(Failing(), 0, '{"type": "ready"}', 20))
    assert reply == errors.ws_refusal(code)
    SERVER.validate(reply)


def test_http_refusals_carry_a_code_and_params_beside_the_text(client):
    me = new_player(client)
    h = {"X-Token": me["token"]}
    cases = [
        (client.get("/api/rooms/123456"), 404, "room.not_found", {}),
        (client.post("/api/rooms", json={"variant": "sichuan"}), 401, "player.unknown", {}),
        (client.post("/api/rooms", json={"variant": "sichuan", "hands": "①"}, headers=h), 400,
         "number.out_of_range", {"field": "hands", "lo": 1, "hi": 64}),
        (client.post("/api/rooms", json={"variant": "sichuan", "timers": {"turn_seconds": 1}}, headers=h), 400,
         "timers.out_of_range", {"timer": "turn_seconds", "lo": 5, "hi": 300}),
        (client.post("/api/rooms", json={"variant": "sichuan", "options": {"cap_fan": "<b>"}}, headers=h), 400,
         "rules.invalid_option", None),
        (client.post("/api/players", json={"name": ""}), 400, "name.bad_length", {"max": 24}),
        (client.post("/api/players", content=b"{}", headers={"Content-Type": "text/plain"}), 415,
         "request.not_json", {}),
        (client.post("/api/players", content=b"x" * 20_000, headers={"Content-Type": "application/json"}), 413,
         "request.too_large", {}),
        (client.get("/api/rooms/123456/games/x/frames"), 422, "request.invalid", {"fields": "hand"}),
        (client.get("/static/nothing.js"), 404, "file.not_found", {}),
        (client.get("/api/nothing"), 404, "request.no_route", {}),
    ]
    for r, status, code, params in cases:
        body = r.json()
        assert (r.status_code, body["code"]) == (status, code), (r.request.url, r.text)
        assert params is None or body["params"] == params, body
        assert body["error"] == body["detail"] and isinstance(body["error"], str)
        if code not in ("rules.invalid_option", "request.no_route"):
            assert body["error"] == errors.render(code, body["params"])
        assert "<b>" not in r.text


def test_the_page_can_translate_every_code_from_the_schema_file():
    """The page's i18n completeness test reads the catalogue from the schema file."""
    assert set(SCHEMA["errors"]) == set(errors.CATALOGUE)
    assert set(SCHEMA["$defs"]["Error"]["properties"]["code"]["enum"]) == set(errors.CATALOGUE)


# -- the services, without the app ---------------------------------------------------------------

def test_a_join_names_where_it_seated_the_player(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'db'}.sqlite3")
    tables = Tables(store, 0.0)
    host, ana, bo, cy = (dict(zip(("id", "token"), store.create_player(n)), name=n) for n in "hABC")
    code = rooms.new_room(store, host, parse(NewRoom, {"variant": "kawuxing", "people": 4}))

    async def joins():
        out = []
        for p in (ana, bo, ana, cy):
            out.append(await rooms.take_seat(tables.aio, tables, store.room(code), p))
        return out

    try:
        seated = asyncio.run(joins())
    finally:
        tables.close()
    assert seated == [rooms.Seated(1, "seat"), rooms.Seated(2, "seat"), rooms.Seated(1, "seat"),
                      rooms.Seated(3, "bench")]
    assert [s.to_json() for s in seated[-2:]] == [{"seat": 1}, {"seat": 3, "bench": True}]
    with pytest.raises(errors.Refusal) as full:
        seating.step(seating.Seating.of_room(store.room(code)), seating.Join("someone", "d"))
    assert (full.value.code, full.value.status) == ("seat.table_full", 409)


def test_rematch_seats_keep_each_players_seat():
    room = {"seats": [{"player": "a", "name": "A", "bot": None}, {"player": None, "name": None, "bot": "strong"},
                      {"player": "b", "name": "B", "bot": None}]}
    assert rooms.rematch_seats(room, {"id": "b", "name": "B"}) == [
        {"player": None, "name": None, "bot": "strong", "for": "a"},
        {"player": None, "name": None, "bot": "strong"},
        {"player": "b", "name": "B", "bot": None}]


def test_a_drawn_hand_sends_the_waits_that_decided_its_check():
    """查大叫: at a drawn hand's end each seat still playing is sent its waits, so the settlement can
    show why the not-ready paid the ready; every payer of 大叫 has none and every payee has some."""
    from types import SimpleNamespace

    from majiang.engine import Game
    from majiang.games.rules import rules_for
    from majiang.server.views import _end_waits

    g = Game(rules_for("sichuan"), seed=3)
    while not g.over:  # nobody takes a win: the wall runs out
        seat = g.pending_seats()[0]
        g.apply(seat, [a for a in g.legal_actions(seat) if a.type != "win"][-1])
    assert g.result == "draw"
    waits = _end_waits(SimpleNamespace(game=g, fanout=SimpleNamespace(hint_cache={})))
    checked = [p for p in g.settlement()["payments"] if p["reason"] == "大叫"]
    assert checked
    for p in checked:
        assert waits[p["from"]] == [] and waits[p["to"]], (p, waits)
    assert all(re.fullmatch(r"[1-9][mps]", t) for w in waits if w for t in w)
