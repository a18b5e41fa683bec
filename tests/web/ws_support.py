"""Test support for the web app's websocket (Starlette's test client): waiting for a message."""

from __future__ import annotations

from typing import Any


def until(sock: Any, pred: Any, limit: int = 100000) -> dict:
    """The next message that satisfies ``pred`` (errors fail the test unless asked for)."""
    for _ in range(limit):
        m = sock.receive_json()
        if pred(m):
            return m
        assert m["type"] != "error", m
    raise AssertionError("no such message")


def my_turn(m: dict) -> bool:
    """A state message that asks the seat to move, or says the game is over."""
    return m["type"] == "state" and (m["over"] or bool(m["moves"]))
