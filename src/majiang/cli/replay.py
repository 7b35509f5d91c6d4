"""``majiang replay``: rebuild a logged game from its actions and check every event."""

from __future__ import annotations

import json

from majiang.cli.common import MAX_LOG_BYTES, MAX_LOG_LINE, bounded_lines, open_input
from majiang.engine import Action, Game


def read_log(path: str) -> list[dict]:
    """The records of the log at ``path``, read a line at a time within bounds (``MAX_LOG_BYTES``,
    ``MAX_LOG_LINE``): a file that never ends (``/dev/zero``) or a huge one is refused by a line."""
    from majiang.engine.log import records_of

    with open_input(path, MAX_LOG_BYTES) as f:
        return records_of(bounded_lines(f, path, MAX_LOG_LINE, MAX_LOG_BYTES), path)


def cmd_replay(args) -> int:
    from majiang.engine.log import LogError, rebuild, split_hands

    results = [rebuild(records) for records in split_hands(read_log(args.log))]
    if not results:
        raise LogError(f"{args.log}: no hands in this log (it holds no 'start' record)")
    if args.json:
        print(json.dumps([{"hand_index": g.hand_index, "actions": len(g.actions), **g.settlement()}
                          for g in results], ensure_ascii=False))
        return 0
    for g in results:
        print(render_replay(g))
    print(f"ok: {len(results)} hand(s) replayed, every event matches the log")
    return 0


def render_replay(game: Game) -> str:
    lines = [f"hand {game.hand_index} of {game.play.name}/{game.rules.preset}: dealer seat {game.dealer}, "
             f"dice {game.dice[0]}+{game.dice[1]}"]
    for e in game.events:
        t = e["type"]
        if t == "deal":
            for s, h in enumerate(e["hands"]):
                lines.append(f"  seat {s} dealt {h}")
        elif t == "action":
            a = Action.from_json(e["action"])
            if a.type not in ("pass",):
                lines.append(f"  seat {e['seat']}: {a}")
        elif t in ("win", "payment", "kong", "declare", "voids", "exchanged", "robbed"):
            lines.append("  " + t + " " + json.dumps({k: v for k, v in e.items() if k != "type"}, ensure_ascii=False))
    lines.append(f"  result {game.result}; totals {game.totals()}")
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("replay", help="check a JSON-lines game log and print it",
                       description="Rebuild every hand in LOG from its start record and actions, check "
                       "that every logged event comes out the same, and print the hand.")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)
