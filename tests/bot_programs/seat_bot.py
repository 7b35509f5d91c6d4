"""A bot for tests that says on stderr which process plays which seat of each hand."""
import json
import os
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(f"hello protocol {msg['protocol']} pid {os.getpid()}", file=sys.stderr, flush=True)
    elif msg["type"] == "hand":
        print(f"hand pid {os.getpid()} seat {msg['seat']}", file=sys.stderr, flush=True)
    elif msg["type"] == "decide":
        legal = msg["legal"]
        pick = next((a for a in legal if a["type"] == "win"), legal[0])
        sys.stdout.write(json.dumps({"id": msg["id"], "action": pick}) + "\n")
        sys.stdout.flush()
