"""A bot for tests that answers three decisions and then dies with a traceback."""
import json
import sys

n = 0
for line in sys.stdin:
    prompt = json.loads(line)
    if prompt.get("type") != "decide":
        continue
    n += 1
    if n == 4:
        print("about to fail", file=sys.stderr, flush=True)
        1 / 0  # ZeroDivisionError: the traceback must reach the arena's user
    sys.stdout.write(json.dumps({"id": prompt["id"], "action": prompt["legal"][0]}) + "\n")
    sys.stdout.flush()
