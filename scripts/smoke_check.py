"""Check a running web game as a new user meets it: the page, the rules schema, and one hand against
bots played to its settlement over the websocket. ``scripts/smoke_readme.sh`` runs it against the
server that the README's first command started; it needs only what that command installs.

    python scripts/smoke_check.py http://127.0.0.1:8000
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import urllib.request


def call(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict | str:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["X-Token"] = token
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers=headers, method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        text = r.read().decode()
    return json.loads(text) if r.headers.get("content-type", "").startswith("application/json") else text


def choose(legal: list[dict], drawn: str | None) -> dict:
    """A newcomer's play: win when the rules offer it, pass a claim, else let the drawn tile go."""
    for kind in ("win", "pass", "void", "exchange"):
        for a in legal:
            if a["type"] == kind:
                return a
    discards = [a for a in legal if a["type"] == "discard"]
    return next((a for a in discards if a.get("tile") == drawn), discards[-1] if discards else legal[0])


async def play_hand(base: str, code: str, token: str, limit: float) -> dict:
    import websockets  # installed by uvicorn[standard], part of the web extra

    url = base.replace("http", "ws", 1) + f"/ws/{code}"
    deadline = time.monotonic() + limit
    async with websockets.connect(url, additional_headers={"X-Token": token}, max_size=2 ** 22) as ws:
        while time.monotonic() < deadline:
            msg = json.loads(await asyncio.wait_for(ws.recv(), limit))
            if msg.get("type") != "snapshot":
                continue
            if msg.get("settlement") is not None:
                return msg
            view = msg.get("view") or {}
            legal = view.get("legal") or []
            if legal:
                await ws.send(json.dumps({"type": "action", "seq": msg["seq"],
                                          "action": choose(legal, view.get("drawn"))}))
    raise SystemExit("smoke: the hand did not end in time")


def main(base: str) -> int:
    t0 = time.monotonic()
    page = call(base, "/")
    assert isinstance(page, str) and "<title>" in page and "/static/app.js" in page, "the page is not served"
    for name in ("app.js", "style.css", "i18n.js"):
        assert call(base, f"/static/{name}"), f"/static/{name} is empty"
    schema = call(base, "/api/rules-schema")
    assert isinstance(schema, dict) and {"kawuxing", "sichuan"} <= set(schema), "the rules schema lacks a game"
    me = call(base, "/api/players", {"name": "smoke"})
    code = call(base, "/api/rooms", {"variant": "kawuxing", "hands": 1, "bots": "greedy"}, me["token"])["code"]
    assert code.isdigit() and len(code) == 6, f"room code {code!r} is not six digits"
    call(base, f"/api/rooms/{code}/start", {}, me["token"])
    final = asyncio.run(play_hand(base, code, me["token"], limit=240))
    settlement = final["settlement"]
    has_totals = isinstance(settlement, dict) and "totals" in settlement
    totals = settlement["totals"] if has_totals else final["view"]["totals"]
    assert sum(totals) == 0, f"the settlement does not balance: {totals}"
    print(f"smoke: page, schema and a Kawuxing hand against bots settled ({totals}) "
          f"in {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8000"))
