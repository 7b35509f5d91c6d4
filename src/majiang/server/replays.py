"""Finished hands as a service: a room's hand logs (who played each hand, in a four-person room)
and a hand replayed step by step, built once and kept in a small cache."""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from dataclasses import dataclass

from majiang.server import seating
from majiang.server.errors import Refusal
from majiang.server.rooms import room_or_404
from majiang.server.security import RateLimit
from majiang.server.store import Store

REPLAYS_KEPT = 64  # finished hands' replays kept built (a hand never changes once finished)


def room_games(store: Store, code: str, room: dict) -> list[dict]:
    """GET /api/rooms/{code}/games: the finished hands' logs, and who played each hand (the seat
    ledger): ``people`` names everyone who played a hand of the match (a friend who sat down
    mid-match and the bot they relieved are two), ``lineup`` says which of them sat in each seat."""
    games = store.games_of(code, finished_only=True)
    lineups = seating.hand_lineups(games, room)
    everyone = seating.people([lineups[g["hand_index"]] for g in games])
    order = [key for key, _, _ in everyone]
    names = [name or f"bot {key.split(':')[-1]}" if key.startswith("bot:") else name or "?"
             for key, name, _ in everyone]
    return [{"hand_index": g["hand_index"], "records": g["records"], "totals": g["totals"], "people": names,
             "lineup": [order.index(k) for k in lineups[g["hand_index"]].keys()]} for g in games]


@dataclass(frozen=True)
class Encoded:
    """A replay as sent: its JSON, that gzip-compressed, and its ETag (encoded once: a request for
    a kept replay costs a dictionary lookup and a write, nothing on the event loop)."""

    data: bytes
    gzipped: bytes
    etag: str


def encode(replay: dict) -> Encoded:
    import orjson

    data = orjson.dumps(replay, option=orjson.OPT_NON_STR_KEYS)
    return Encoded(data, gzip.compress(data, compresslevel=6, mtime=0),
                   '"' + hashlib.sha256(data).hexdigest()[:20] + '"')


class Replays:
    """Replays built, kept encoded (a small LRU: a finished hand never changes) and budgeted: an
    address may have ``builds`` of them built (an observation per step costs a fifth of a second);
    one is built at a time, the others wait on the lock, not on the CPU."""

    def __init__(self, builds: RateLimit, kept: int = REPLAYS_KEPT) -> None:
        self.builds, self.kept = builds, kept
        self.cache: dict = {}  # (code, hand) -> Encoded, oldest first
        self.building = threading.Lock()

    def kept_one(self, code: str, hand: int) -> Encoded | None:
        """A replay already built (no lock, no thread: safe on the event loop)."""
        return self.cache.get((code, hand))

    def encoded(self, store: Store, code: str, hand: int, address: str) -> Encoded:
        key = (code, hand)
        with self.building:
            if key in self.cache:
                self.cache[key] = self.cache.pop(key)  # the most recently used stays longest
                return self.cache[key]
            room = room_or_404(store, code)
            if not self.builds.allow(address):
                raise Refusal("rate.replays", status=429)
            built = self.cache[key] = encode(build_replay(store, code, hand, room))
            while len(self.cache) > self.kept:
                self.cache.pop(next(iter(self.cache)))
            return built

    def get(self, store: Store, code: str, hand: int, address: str) -> dict:
        """The replay as data."""
        return json.loads(self.encoded(store, code, hand, address).data)


def build_replay(store: Store, code: str, hand: int, room: dict) -> dict:
    """A finished hand, step by step: the table after each action, every hand shown."""
    from majiang.engine import Action
    from majiang.engine.log import game_from_start
    stored = [g for g in store.games_of(code, finished_only=True) if g["hand_index"] == hand]
    if not stored:
        raise Refusal("replay.not_found", status=404)
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
    lineup = seating.hand_lineups(stored, room)[hand]  # who played this hand, not who sits there now
    return {"code": code, "hand": hand, "names": [s["name"] or f"bot {i}" for i, s in enumerate(lineup.seats)],
            "frames": frames, "settlement": game.settlement()}
