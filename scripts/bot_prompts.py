"""The protocol messages docs/BOTS.md shows: one complete ``decide`` prompt of each phase, taken
from real deals, exactly as an external bot receives it.

    python scripts/bot_prompts.py           # print the section
    python scripts/bot_prompts.py --write   # rewrite it in docs/BOTS.md (between its markers)

tests/play/test_arena.py checks that the section in docs/BOTS.md is what this prints.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from majiang.bots import GreedyAgent
from majiang.bots.external import prompt_observation
from majiang.engine import Game
from majiang.games.rules import rules_for

DOC = Path(__file__).resolve().parent.parent / "docs" / "BOTS.md"
BEGIN = "<!-- prompts: written by scripts/bot_prompts.py --write; tests/play/test_arena.py checks them -->"
END = "<!-- end of prompts -->"
# (game, preset, phases shown): Sichuan modern has 换三张 and 定缺; Kawuxing a turn that may declare 亮倒.
# A rob prompt (抢杠) is rare in greedy deals; it has the shape of a claim (legal: win, pass)
TABLES = (("sichuan", "modern", ("exchange", "void", "turn", "claim")), ("kawuxing", "standard", ("turn",)))
SEEDS = range(200)  # the first seed whose deal shows a phase gives its prompt


def _message(obs: dict, legal: list, rid: int) -> dict:
    return {"type": "decide", "id": rid, "seat": obs["seat"], "observation": prompt_observation(obs),
            "legal": [a.to_json() for a in legal]}


def prompts(variant: str, preset: str, phases: tuple[str, ...]) -> dict[str, dict]:
    """The first prompt of each phase in greedy deals (``id`` counts the seat's prompts, as one
    bot process per seat numbers them): a turn after a draw, in Kawuxing one where 亮倒 may be declared."""
    found: dict[str, dict] = {}
    for seed in SEEDS:
        game = Game(rules_for(variant, preset), seed=seed)
        agents = [GreedyAgent(s) for s in range(game.n)]
        ids = [0] * game.n
        while not game.over:
            seat = game.pending_seats()[0]
            legal = game.legal_actions(seat)
            obs = game.observation(seat)
            ids[seat] += 1
            phase = str(obs["phase"].value)
            wanted = phase in phases and phase not in found
            if phase == "turn" and obs["drawn"] is None:  # show a turn that began with a draw
                wanted = False
            if wanted and variant == "kawuxing" and not any(a.type == "declare" for a in legal):
                wanted = False
            if wanted:
                found[phase] = _message(obs, legal, ids[seat])
            game.apply(seat, agents[seat].act(obs, legal))
        if len(found) == len(phases):
            return found
    raise RuntimeError(f"no deal of {variant} in seeds {SEEDS} shows {set(phases) - set(found)}")


def _layout(message: dict) -> str:
    """A prompt as readable JSON: one line per observation key and per player, the rest compact."""
    def dump(v) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    obs = message["observation"]
    rows = []
    for k, v in obs.items():
        if k == "players":
            inner = ",\n".join(f"      {dump(p)}" for p in v)
            rows.append(f'    "players": [\n{inner}\n    ]')
        else:
            rows.append(f"    {dump(k)}: {dump(v)}")
    head = ", ".join(f"{dump(k)}: {dump(message[k])}" for k in ("type", "id", "seat"))
    return "{" + head + ", \"observation\": {\n" + ",\n".join(rows) + "\n  },\n  \"legal\": " + \
        dump(message["legal"]) + "}"


def hand_message(variant: str, preset: str, seat: int = 0) -> dict:
    """The ``hand`` message that announces a deal to a seat (as ``SubprocessAgent`` sends it)."""
    obs = Game(rules_for(variant, preset), seed=SEEDS[0]).observation(seat)
    return {"type": "hand", "seat": seat, "variant": obs["variant"], "dealer": obs["dealer"], "rules": obs["rules"]}


def section() -> str:
    first = TABLES[0]
    parts = [BEGIN, f"**The `hand` message of {first[0]}/{first[1]}:**\n\n```json\n"
             f"{json.dumps(hand_message(first[0], first[1]), ensure_ascii=False)}\n```\n"]
    for variant, preset, phases in TABLES:
        for phase, message in prompts(variant, preset, phases).items():
            parts.append(f"**{variant}/{preset}, phase `{phase}`** (seat {message['seat']}, "
                         f"its prompt number {message['id']}):\n\n```json\n{_layout(message)}\n```\n")
    parts.append(END)
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = section()
    if "--write" not in argv:
        print(text)
        return 0
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN), doc.index(END) + len(END)
    DOC.write_text(doc[:start] + text + doc[end:], encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
