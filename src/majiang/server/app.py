"""The ASGI app: HTTP API for players and rooms, a websocket per seat, and the browser client.

HTTP (JSON):
  POST /api/players {"name"}                          -> {"id", "token"}       (token: keep it secret)
  POST /api/rooms {"variant", "preset", "options", "stake", "hands", "bots"} + header X-Token
                                                      -> {"code"}
  POST /api/rooms/{code}/join   (X-Token)             -> {"seat"}
  POST /api/rooms/{code}/start  (X-Token, host only)  -> {"status": "playing"}
  GET  /api/rooms/{code}                              -> room, seats, status
  GET  /api/history             (X-Token)             -> the player's matches (战绩)
  GET  /api/rooms/{code}/games                        -> finished hands' logs (replays)
  GET  /api/analyze?hand=…&variant=…                  -> the analysis core's answer
Websocket /ws/{code}?token=…  (no token: a spectator). Server -> client: {"type": "snapshot", …}
after every change, {"type": "error", "message"} for a refused message. Client -> server:
{"type": "action", "seq": n, "action": {...}}, {"type": "next"} (start the next hand), {"type": "ping"}.
"""

from __future__ import annotations

import contextlib
import json
import os
from importlib import resources

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..errors import MajiangError
from ..rules import PRESETS, rules_for, rules_to_json
from .live import ABSENT_AFTER, BOT_DELAY, Connection, Tables
from .store import Store

BOT_LEVELS = ("random", "greedy", "strong")


def default_db_url() -> str:
    path = os.path.join(os.path.expanduser("~"), ".majiang", "majiang.sqlite3")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return f"sqlite:///{path}"


def create_app(db_url: str | None = None, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER) -> FastAPI:
    store = Store(db_url or default_db_url())
    tables = Tables(store, bot_delay, absent_after)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for code in tables.resume_all():  # unfinished games continue from their stored logs
            tables.get(code).kick()
        yield

    app = FastAPI(title="majiang", docs_url="/api/docs", lifespan=lifespan)
    app.state.store = store
    app.state.tables = tables

    @app.exception_handler(MajiangError)
    async def _bad_input(request: Request, exc: MajiangError):
        return JSONResponse({"error": str(exc)}, status_code=400)

    def player_of(token: str | None) -> dict:
        p = store.player_by_token(token)
        if p is None:
            raise HTTPException(401, "unknown or missing player token (X-Token)")
        return p

    async def body(request: Request) -> dict:
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise HTTPException(400, "the request body must be JSON") from None
        if not isinstance(data, dict):
            raise HTTPException(400, "the request body must be a JSON object")
        return data

    @app.post("/api/players")
    async def new_player(request: Request):
        data = await body(request)
        name = str(data.get("name", "")).strip()
        if not 1 <= len(name) <= 24:
            raise HTTPException(400, "a name has 1 to 24 characters")
        pid, token = store.create_player(name)
        return {"id": pid, "name": name, "token": token}

    @app.post("/api/rooms")
    async def new_room(request: Request, x_token: str | None = Header(None)):
        host = player_of(x_token)
        data = await body(request)
        variant = data.get("variant")
        if variant not in PRESETS:
            raise HTTPException(400, "variant must be kawuxing or sichuan")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise HTTPException(400, "options must be an object of option: value")
        rules = rules_for(variant, data.get("preset"), **options)
        try:
            stake = int(data.get("stake", 1))
            hands = int(data.get("hands", 4))
        except (TypeError, ValueError):
            raise HTTPException(400, "stake and hands must be whole numbers") from None
        if not 1 <= stake <= 1000 or not 1 <= hands <= 64:
            raise HTTPException(400, "stake must be 1-1000 and hands 1-64")
        bots = data.get("bots", "greedy")
        if bots not in BOT_LEVELS:
            raise HTTPException(400, f"bots must be one of {', '.join(BOT_LEVELS)}")
        n = 3 if variant == "kawuxing" else 4
        seats = [{"player": host["id"], "name": host["name"], "bot": None}] + \
            [{"player": None, "name": None, "bot": bots} for _ in range(n - 1)]
        code = store.create_room(variant, rules_to_json(rules), stake, hands, host, seats)
        return {"code": code}

    def room_or_404(code: str) -> dict:
        room = store.room(code)
        if room is None:
            raise HTTPException(404, f"no room {code!r}")
        return room

    @app.get("/api/rooms/{code}")
    async def get_room(code: str):
        room = room_or_404(code)
        return {"code": code, "variant": room["variant"], "status": room["status"], "hands": room["hands"],
                "stake": room["stake"], "preset": room["rules"].get("preset"),
                "seats": [{"name": s["name"], "bot": s["bot"], "taken": bool(s["player"])} for s in room["seats"]]}

    @app.post("/api/rooms/{code}/join")
    async def join(code: str, x_token: str | None = Header(None)):
        player = player_of(x_token)
        room = room_or_404(code)
        seats = room["seats"]
        for i, s in enumerate(seats):
            if s["player"] == player["id"]:
                return {"seat": i}
        if room["status"] != "lobby":
            raise HTTPException(409, "the match has started; watch it as a spectator")
        for i, s in enumerate(seats):
            if not s["player"]:
                seats[i] = {"player": player["id"], "name": player["name"], "bot": None}
                store.update_room(code, seats=seats)
                live = tables.live.get(code)
                if live is not None:
                    live.room["seats"] = seats
                    await live.broadcast()
                return {"seat": i}
        raise HTTPException(409, "the table is full")

    @app.post("/api/rooms/{code}/start")
    async def start(code: str, x_token: str | None = Header(None)):
        player = player_of(x_token)
        room = room_or_404(code)
        if room["host"] != player["id"]:
            raise HTTPException(403, "only the host starts the match")
        if room["status"] != "lobby":
            return {"status": room["status"]}
        store.update_room(code, status="playing")
        table = tables.get(code)
        table.start(store.room(code))
        await table.broadcast()
        table.kick()
        return {"status": "playing"}

    @app.get("/api/rooms/{code}/games")
    async def room_games(code: str):
        room_or_404(code)
        return [{"hand_index": g["hand_index"], "records": g["records"], "totals": g["totals"]}
                for g in store.games_of(code) if g["finished"]]

    @app.get("/api/rooms/{code}/games/{hand}/frames")
    async def replay_frames(code: str, hand: int):
        """A finished hand, step by step: the table after each action, every hand shown."""
        from ..engine import Action
        from ..log import game_from_start
        room_or_404(code)
        stored = [g for g in store.games_of(code) if g["hand_index"] == hand and g["finished"]]
        if not stored:
            raise HTTPException(404, f"no finished hand {hand} in room {code}")
        records = stored[0]["records"]
        game = game_from_start(records[0])

        def frame(label):
            view = game.observation(None)
            for s, p in enumerate(view["players"]):
                p["hand"] = "".join(str(t) for t in game.hand(s).tiles)
            return {"label": label, "view": view}

        frames = [frame("deal")]
        for r in records[1:]:
            if r["type"] == "action":
                action = Action.from_json(r["action"])
                game.apply(int(r["seat"]), action)
                frames.append(frame(f"seat {r['seat']}: {action}"))
        return {"code": code, "hand": hand, "names": [s["name"] or f"bot {i}" for i, s in
                                                      enumerate(store.room(code)["seats"])],
                "frames": frames, "settlement": game.settlement()}

    @app.get("/api/history")
    async def history(x_token: str | None = Header(None)):
        return store.history(player_of(x_token)["id"])

    @app.get("/api/analyze")
    async def analyze(hand: str, variant: str, void: str | None = None):
        from ..cli import analyze_hand
        return analyze_hand(hand, variant, [], void, [0] * 30)

    @app.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str, token: str | None = None):
        await websocket.accept()
        table = tables.get(code)
        if table is None:
            await websocket.send_json({"type": "error", "message": f"no room {code!r}"})
            await websocket.close()
            return
        player = store.player_by_token(token)
        seat = None
        if player is not None:
            ids = [s.get("player") for s in table.room["seats"]]
            if player["id"] in ids:
                seat = ids.index(player["id"])
        conn = Connection(websocket.send_json, seat, player["id"] if player else None)
        table.connections.append(conn)
        try:
            await websocket.send_json(table.view(seat))
            table.kick()
            while True:
                raw = await websocket.receive_text()
                if not conn.allow():
                    await websocket.send_json({"type": "error", "message": "too many messages: slow down"})
                    continue
                try:
                    msg = json.loads(raw)
                    if not isinstance(msg, dict):
                        raise ValueError
                except ValueError:
                    await websocket.send_json({"type": "error", "message": "messages are JSON objects"})
                    continue
                kind = msg.get("type")
                try:
                    if kind == "ping":
                        await websocket.send_json({"type": "pong"})
                    elif kind == "action":
                        if seat is None:
                            raise MajiangError("spectators cannot act")
                        seq = msg.get("seq")
                        if seq is not None and not isinstance(seq, int):
                            raise MajiangError("seq must be a whole number")
                        await table.act(seat, msg.get("action"), seq)
                    elif kind == "next":
                        if seat is None:
                            raise MajiangError("spectators cannot start hands")
                        await table.next_hand()
                    else:
                        raise MajiangError(f"unknown message type {kind!r} (action, next, ping)")
                except MajiangError as exc:
                    await websocket.send_json({"type": "error", "message": str(exc)})
        except WebSocketDisconnect:
            pass
        finally:
            if conn in table.connections:
                table.connections.remove(conn)

    static = resources.files("majiang").joinpath("server/static")

    @app.get("/", response_class=HTMLResponse)
    async def index():
        return static.joinpath("index.html").read_text(encoding="utf-8")

    @app.get("/static/{name}")
    async def static_file(name: str):
        types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
        ext = os.path.splitext(name)[1]
        if ext not in types or "/" in name or ".." in name:
            raise HTTPException(404)
        f = static.joinpath(name)
        if not f.is_file():
            raise HTTPException(404)
        return Response(f.read_text(encoding="utf-8"), media_type=types[ext])

    return app
