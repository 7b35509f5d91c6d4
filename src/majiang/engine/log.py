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
from majiang.core.jsontext import decode_text, loads
from majiang.core.tiles import Tile
from majiang.engine.game import Action, Game
from majiang.engine.views import LOG_FORMAT
from majiang.games.rules import rules_from_json


class LogError(MajiangError):
    """A log that is malformed or does not replay to the events it records.

    >>> import os, tempfile
    >>> from majiang import replay
    >>> path = os.path.join(tempfile.mkdtemp(), "empty.jsonl")
    >>> open(path, "w").close()
    >>> try:
    ...     replay(path)
    ... except LogError:
    ...     print("refused")
    refused
    """


def game_records(game: Game) -> list[dict]:
    return [game.start_record()] + game.events


def record_line(record: dict) -> str:
    """One record as a line of a JSON-lines log (compact, Chinese kept as it is)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_jsonl(records: Iterable[dict], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(record_line(r) + "\n")


def write_log(game: Game, path: str) -> None:
    """Save a deal as a JSON-lines log: its ``start`` record and every event so far (``replay`` reads it).

    >>> import os, tempfile
    >>> from majiang import Game
    >>> path = os.path.join(tempfile.mkdtemp(), "deal.jsonl")
    >>> write_log(Game("kawuxing", seed=1), path)
    >>> [type(g).__name__ for g in replay(path)]
    ['Game']
    """
    write_jsonl(game_records(game), path)


def read_jsonl(path: str) -> list[dict]:
    """The records of a JSON-lines log; ``LogError`` (one line, naming the line) for anything else."""
    with open(path, "rb") as f:
        return records_of(enumerate(f, 1), path)


def records_of(lines, path: str) -> list[dict]:
    """The records of a log's numbered lines (``(number, bytes)``: however they were read, bounded
    or not); ``LogError`` naming the line for one that is not a record, blank lines skipped."""
    out = []
    for n, raw in lines:
        where = f"{path}:{n}"
        line = decode_text(raw, where, LogError).strip()
        if not line:
            continue
        rec = loads(line, where, LogError)
        if not isinstance(rec, dict) or not isinstance(rec.get("type"), str):
            raise LogError(f"{where}: a record must be an object with a 'type'")
        out.append(rec)
    return out


def split_hands(records: list[dict]) -> Iterator[list[dict]]:
    """The records cut into hands, each beginning with its ``start`` record."""
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


def _whole(record: dict, key: str, low: int, high: int, default: int | None = None) -> int:
    value = record.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise LogError(f"bad start record: {key!r} must be a whole number {low}-{high}, got {_short(value)}")
    return value


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not None else "nothing"
    return text if len(text) <= 40 else text[:37] + "..."


def game_from_start(start: dict) -> Game:
    """A fresh ``Game`` as a ``start`` record describes it (rules, seed, dealer, dice, wall)."""
    if start.get("format") != LOG_FORMAT:
        raise LogError(f"bad start record: log format {_short(start.get('format'))}, "
                       f"this version reads format {LOG_FORMAT}")
    for key in ("rules", "wall", "dealer"):
        if key not in start:
            raise LogError(f"bad start record: it has no {key!r}")
    if not isinstance(start["rules"], dict) or not isinstance(start["rules"].get("variant"), str):
        raise LogError("bad start record: 'rules' must be an object naming its 'variant'")
    if not isinstance(start["wall"], list):
        raise LogError("bad start record: 'wall' must be a list of tiles")
    dice = start.get("dice", [1, 1])
    dealer_dice = start.get("dealer_dice")
    for key, pair in (("dice", dice), ("dealer_dice", dealer_dice or [1, 1])):
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in pair)):
            raise LogError(f"bad start record: {key!r} must be two dice 1-6, got {_short(pair)}")
    hand_index = _whole(start, "hand_index", 0, 1_000_000, 0)
    dealer = _whole(start, "dealer", 0, 3)
    try:
        rules = rules_from_json(start["rules"])
        wall = [int(Tile.parse(t)) for t in start["wall"]]
        return Game(rules, seed=start.get("seed"), hand_index=hand_index, dealer=dealer, wall=wall,
                    dice=tuple(dice), dealer_dice=tuple(dealer_dice) if dealer_dice else None)
    except (KeyError, TypeError, ValueError) as exc:
        raise LogError(f"bad start record: {exc}") from None


def rebuild(records: list[dict], check: bool = True) -> Game:
    """Rebuild one hand from its records; with ``check``, every logged event must match."""
    game = game_from_start(records[0])
    logged = records[1:]
    for n, r in enumerate(logged, 1):
        if r["type"] == "action":
            seat = r.get("seat")
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise LogError(f"event {n}: an action's 'seat' must be a whole number, got {_short(seat)}")
            try:
                game.apply(seat, Action.from_json(r.get("action")))
            except (KeyError, TypeError, ValueError) as exc:
                raise LogError(f"event {n} (seat {seat}'s action) does not replay: {exc}") from None
    if check:
        for i, (a, b) in enumerate(zip(game.events, logged)):
            if a != b:
                raise LogError(f"event {i + 1} differs on replay: {event_difference(b, a)}")
        if len(game.events) != len(logged):
            raise LogError(f"the log has {len(logged)} events, the replay {len(game.events)}")
    return game


def event_difference(logged: dict, rebuilt: dict) -> str:
    """Which keys of an event differ, as JSON values: ``win: seat logged 2, rebuilt 1``."""
    rebuilt = json.loads(json.dumps(rebuilt, default=str))  # enums as their values, as the log holds them
    keys = [k for k in dict.fromkeys([*logged, *rebuilt]) if logged.get(k) != rebuilt.get(k)]
    kind = rebuilt.get("type", logged.get("type"))
    parts = [f"{k} logged {_short(logged.get(k))}, rebuilt {_short(rebuilt.get(k))}" for k in keys[:3]]
    return f"{kind}: " + "; ".join(parts) + ("; ..." if len(keys) > 3 else "")


def replay(path: str, check: bool = True) -> list[Game]:
    """Every hand of the log at ``path`` rebuilt (and, with ``check``, proven against its events).

    ``LogError`` names what is wrong: not a log, an empty one, a record that does not replay.

    >>> import os, tempfile
    >>> from majiang import Game
    >>> game = Game("sichuan", seed=3)
    >>> path = os.path.join(tempfile.mkdtemp(), "deal.jsonl")
    >>> write_log(game, path)
    >>> replay(path)[0].seed == game.seed
    True
    """
    hands = [rebuild(records, check) for records in split_hands(read_jsonl(path))]
    if not hands:
        raise LogError(f"{path}: no hands in this log (it holds no 'start' record)")
    return hands
