"""A bot that answers, in turn, with bytes that are not UTF-8, a line of 3 MB, and a legal action."""
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "decide":
        continue
    turn = message["id"] % 3
    if turn == 0:
        sys.stdout.buffer.write(b"\xff\xfe not text\n")
    elif turn == 1:
        sys.stdout.write("x" * 3_000_000 + "\n")
    else:
        sys.stdout.write(json.dumps({"id": message["id"], "action": message["legal"][0]}) + "\n")
    sys.stdout.flush()
