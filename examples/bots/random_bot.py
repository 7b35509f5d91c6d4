#!/usr/bin/env python3
"""A complete majiang bot: reads one JSON prompt per line on stdin, answers one line on stdout.

Run it in the arena:
  majiang arena --variant sichuan --bots "cmd:python examples/bots/random_bot.py",greedy,greedy,greedy --games 10
It wins when it can, otherwise picks a random legal action. Uses only the standard library.
Protocol 2 (docs/BOTS.md): it answers `decide` messages and ignores the others (`hello`, `hand`).
"""

import json
import random
import sys

rng = random.Random(0)
for line in sys.stdin:
    prompt = json.loads(line)
    if prompt.get("type") != "decide":
        continue
    legal = prompt["legal"]
    wins = [a for a in legal if a["type"] == "win"]
    action = wins[0] if wins else rng.choice(legal)
    sys.stdout.write(json.dumps({"id": prompt["id"], "action": action}) + "\n")
    sys.stdout.flush()
