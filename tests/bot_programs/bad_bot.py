"""A misbehaving bot for tests: sleeps, writes junk, answers illegally, then plays properly."""
import json
import sys
import time

n = 0
for line in sys.stdin:
    prompt = json.loads(line)
    if prompt.get("type") != "decide":
        continue  # hello, hand
    n += 1
    if n == 1:
        time.sleep(0.5)  # late
        continue
    if n == 2:
        sys.stdout.write("this is not json\n")
    elif n == 3:
        sys.stdout.write(json.dumps({"id": prompt["id"], "action": {"type": "discard", "tile": "9z"}}) + "\n")
    elif n == 4:
        sys.stdout.write(json.dumps({"id": prompt["id"], "action": {"type": "pong", "tile": "1m"}}) + "\n")
    else:
        legal = prompt["legal"]
        sys.stdout.write(json.dumps({"id": prompt["id"], "action": legal[0]}) + "\n")
    sys.stdout.flush()
