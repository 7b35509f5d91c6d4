"""A bot for tests that writes every line it reads to the file named by its argument, and plays."""
import json
import sys

with open(sys.argv[1], "a", encoding="utf-8") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        msg = json.loads(line)
        if msg["type"] == "decide":
            legal = msg["legal"]
            pick = next((a for a in legal if a["type"] == "win"), legal[-1])
            sys.stdout.write(json.dumps({"id": msg["id"], "action": pick}) + "\n")
            sys.stdout.flush()
