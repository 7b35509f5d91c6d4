"""Event logs as JSON lines, and rebuilding games from them.

A log holds one or more hands. Each hand is a ``start`` record (rules, seed, hand index, dealer,
dice and the whole wall) followed by the events the engine emitted, among them one ``action``
record per decision. Rebuilding replays the actions on a fresh ``Game`` from the start record and
checks that every event comes out the same, so a log is both a record and a proof.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from majiang.core.errors import MajiangError
from majiang.core.tiles import Tile
from majiang.engine.game import Action, Game
from majiang.games.rules import rules_from_json


class LogError(MajiangError):
    """A log that is malformed or does not replay to the events it records."""


def game_records(game: Game) -> list[dict]:
    return [game.start_record()] + game.events


def record_line(record: dict) -> str:
    """One record as a line of a JSON-lines log (compact, Chinese kept as it is)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_jsonl(records: Iterable[dict], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(record_line(r) + "\n")


def read_jsonl(path: str) -> list[dict]:
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise LogError(f"{path}:{n}: not JSON ({exc.msg})") from None
            if not isinstance(rec, dict) or "type" not in rec:
                raise LogError(f"{path}:{n}: a record must be an object with a 'type'")
            out.append(rec)
    return out


def split_hands(records: list[dict]) -> Iterator[list[dict]]:
    current: list[dict] | None = None
    for r in records:
        if r["type"] == "start":
            if current:
                yield current
            current = [r]
        elif current is None:
            raise LogError("a log must begin with a 'start' record")
        else:
            current.append(r)
    if current:
        yield current


def game_from_start(start: dict) -> Game:
    try:
        rules = rules_from_json(start["rules"])
        wall = [int(Tile.parse(t)) for t in start["wall"]]
        return Game(rules, seed=start.get("seed"), hand_index=int(start.get("hand_index", 0)),
                    dealer=int(start["dealer"]), wall=wall, dice=tuple(start.get("dice", (1, 1))),
                    dealer_dice=tuple(start["dealer_dice"]) if start.get("dealer_dice") else None)
    except (KeyError, TypeError, ValueError) as exc:
        raise LogError(f"bad start record: {exc}") from None


def rebuild(records: list[dict], check: bool = True) -> Game:
    """Rebuild one hand from its records; with ``check``, every logged event must match."""
    game = game_from_start(records[0])
    logged = records[1:]
    for r in logged:
        if r["type"] == "action":
            try:
                game.apply(int(r["seat"]), Action.from_json(r["action"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise LogError(f"action {r!r} does not replay: {exc}") from None
    if check:
        for i, (a, b) in enumerate(zip(game.events, logged)):
            if a != b:
                raise LogError(f"event {i + 1} differs on replay: logged {b!r}, rebuilt {a!r}")
        if len(game.events) != len(logged):
            raise LogError(f"the log has {len(logged)} events, the replay {len(game.events)}")
    return game
