"""Test support for the web app's websocket (Starlette's test client): waiting for a message,
with the log put back together as the page does (the server sends it as a delta)."""

from __future__ import annotations

import weakref
from typing import Any

_LOGS: weakref.WeakKeyDictionary[Any, list[dict]] = weakref.WeakKeyDictionary()


def whole_log(sock: Any, m: dict) -> dict:
    """``m`` with its whole log: the entries after ``log_from`` joined to the ones this
    socket received before (the test fails if the server counted on entries it never sent)."""
    if m.get("type") != "state":
        return m
    start = m.get("log_from", 0)
    have = _LOGS.get(sock, [])
    assert len(have) >= start, f"log_from {start}, but this socket holds {len(have)} entries"
    m = {**m, "log": have[:start] + m["log"]}
    _LOGS[sock] = m["log"]
    return m


def until(sock: Any, pred: Any, limit: int = 100000) -> dict:
    """The next message that satisfies ``pred`` (errors fail the test unless asked for)."""
    for _ in range(limit):
        m = whole_log(sock, sock.receive_json())
        if pred(m):
            return m
        assert m["type"] != "error", m
    raise AssertionError("no such message")


def my_turn(m: dict) -> bool:
    """A state message that asks the seat to move, or says the game is over."""
    return m["type"] == "state" and (m["over"] or bool(m["moves"]))
