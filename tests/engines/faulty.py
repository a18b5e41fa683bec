"""An engine that misbehaves on purpose (no romecore), for tests/test_engine_faults.py:
``faulty.py MODE [AT]`` plays the first legal move until its AT-th position (default 2),
then, by MODE: ``sleep`` (says nothing for a minute), ``exit`` (dies with code 5, after a
line on standard error), ``garbage`` (prints a line that is not JSON), ``illegal`` (plays
an id no game has), ``wrongid`` (answers another position), ``hello`` (garbage at once,
instead of hello), ``mute`` (never answers hello), ``games`` (says it plays chess only),
``version`` (speaks protocol 2), ``flood`` (writes 2 MiB with no newline).
Words after AT are ignored (a test marks its processes with one)."""

import json
import sys
import time

mode = sys.argv[1]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 2
positions = 0


def say(obj):
    print(json.dumps(obj), flush=True)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        if mode == "hello":
            print("Welcome to my engine!", flush=True)
        elif mode == "mute":
            time.sleep(60)
        elif mode == "version":
            say({"type": "hello", "protocol": 2, "name": "from-the-future"})
        elif mode == "games":
            say({"type": "hello", "protocol": 1, "name": "chess-only", "games": ["chess"]})
        else:
            say({"type": "hello", "protocol": 1, "name": f"faulty-{mode}"})
    elif msg["type"] == "position":
        positions += 1
        if positions >= at:
            if mode == "sleep":
                time.sleep(60)
            elif mode == "exit":
                print("faulty engine: exiting on purpose", file=sys.stderr, flush=True)
                sys.exit(5)
            elif mode == "flood":
                sys.stdout.write("x" * (2 << 20))
                sys.stdout.flush()
                time.sleep(60)
            elif mode == "garbage":
                print("I think e2e4 is best", flush=True)
                continue
            elif mode == "illegal":
                say({"type": "move", "id": msg["id"], "move": 999999})
                continue
            elif mode == "wrongid":
                say({"type": "move", "id": msg["id"] + 7, "move": msg["legal"][0]["id"]})
                continue
        say({"type": "move", "id": msg["id"], "move": msg["legal"][0]["id"]})
    elif msg["type"] == "quit":
        break
