"""An engine of a few lines that plays the first legal move, in plain Python (no romecore):
what any program needs to sit at a romecore table (docs/engine-protocol.md)."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        reply = {"type": "hello", "protocol": 1, "name": "first-move.py", "version": "1"}
    elif msg["type"] == "position":
        reply = {"type": "move", "id": msg["id"], "move": msg["legal"][0]["id"]}
    elif msg["type"] == "quit":
        break
    else:
        continue
    print(json.dumps(reply), flush=True)
