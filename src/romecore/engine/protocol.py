"""The engine protocol's messages: their shapes, how they are written and read, and the
checks both sides make (docs/engine-protocol.md is the prose; this module is the authority).

A message is one JSON object on one line, with a ``type``.  The host (romecore, seating an
engine) sends ``hello``, ``new_game``, ``position``, ``stop`` and ``quit``; the engine
answers ``hello`` with ``hello``, ``position`` with ``move``, and anything it cannot do with
``error``.  Fields not listed here are ignored, so a later minor addition breaks no one;
``protocol`` in ``hello`` says the version.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from romecore.errors import RomecoreError

__all__ = [
    "PROTOCOL_VERSION", "MAX_LINE", "HOST_MESSAGES", "ENGINE_MESSAGES", "ProtocolError", "EngineError",
    "encode", "decode", "check", "hello", "new_game", "position", "move", "error", "STOP", "QUIT",
    "check_move",
]

#: The version this module speaks; ``hello`` carries it both ways.
PROTOCOL_VERSION = 1
#: The longest line either side need accept, in bytes (a position of any game is ~10 kB).
MAX_LINE = 1 << 20

_NUMBER = (int, float)
#: Per message type: field -> (accepted types, required).  ``None`` is accepted where a
#: field is optional.  A field's value of another type is refused by :func:`check`.
HOST_MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"protocol": ((int,), True), "host": ((str,), False)},
    "new_game": {"game": ((str,), True), "options": ((dict,), True), "players": ((int,), True),
                 "seat": ((int,), True), "seed": ((int,), False)},
    "position": {"id": ((int,), True), "seat": ((int,), True), "move_number": ((int,), False),
                 "observation": ((dict,), True), "world": ((dict,), False), "legal": ((list,), True),
                 "budget": ((dict,), True)},
    "stop": {},
    "quit": {},
}
ENGINE_MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"protocol": ((int,), True), "name": ((str,), True), "version": ((str,), False),
              "games": ((list,), False)},
    "move": {"id": ((int,), True), "move": ((int,), True), "info": ((dict,), False)},
    "error": {"message": ((str,), True), "id": ((int,), False)},
}

#: What a host sends to end a search at once, and to end the engine.
STOP: dict[str, Any] = {"type": "stop"}
QUIT: dict[str, Any] = {"type": "quit"}


class EngineError(RomecoreError, RuntimeError):
    """An engine that cannot be used: it would not start, died, fell silent past its time,
    or broke the protocol.  The message names the engine and says what it did."""


class ProtocolError(RomecoreError, ValueError):
    """A line that is not a message of the protocol: not JSON, not an object, an unknown
    ``type``, a missing field or one of the wrong type."""


def encode(message: Mapping[str, Any]) -> str:
    """``message`` as one line of compact JSON, newline included (no NaN or infinity: JSON
    has none).

    >>> encode({"type": "stop"})
    '{"type":"stop"}\\n'
    """
    try:
        return json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n"
    except (TypeError, ValueError) as e:
        raise ProtocolError(f"a message must be plain JSON: {e}") from None


def decode(line: str | bytes, table: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The message on ``line``, checked against ``table`` (:data:`HOST_MESSAGES` for what a
    host sends, :data:`ENGINE_MESSAGES` for what an engine sends).  Raises
    :class:`ProtocolError` saying what is wrong.

    >>> decode('{"type": "move", "id": 3, "move": 7}', ENGINE_MESSAGES)["move"]
    7
    """
    if isinstance(line, bytes):
        if len(line) > MAX_LINE:
            raise ProtocolError(f"a line of {len(line)} bytes: the protocol's lines are at most {MAX_LINE}")
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(f"{_show(line)} is not UTF-8") from None
    text = line.strip()
    try:
        message = json.loads(text)
    except ValueError:
        raise ProtocolError(f"{_show(text)} is not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"{_show(text)} is not a JSON object")
    check(message, table)
    return message


def check(message: Mapping[str, Any], table: Mapping[str, Mapping[str, Any]]) -> None:
    """Raises :class:`ProtocolError` unless ``message`` has a known ``type`` of ``table``
    and its fields the types that type requires."""
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in table:
        known = ", ".join(table)
        raise ProtocolError(f"message type {kind!r} is not one of {known}")
    for field, (types, required) in table[kind].items():
        value = message.get(field)
        if value is None:
            if required:
                raise ProtocolError(f"{kind!r} needs the field {field!r}")
            continue
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = " or ".join("number" if t is float else _JSON_NAMES[t] for t in types)
            raise ProtocolError(f"{kind!r}: {field} must be {names}, not {_show(json.dumps(value))}")


_JSON_NAMES = {int: "an integer", float: "a number", str: "a string", dict: "an object", list: "a list"}


def _show(text: str | bytes, width: int = 60) -> str:
    """``text`` quoted, cut to ``width`` characters, for an error message."""
    shown = repr(text[:width])
    return shown + ("..." if len(text) > width else "")


# -- what a host sends -------------------------------------------------------------------------
def hello(host: str) -> dict[str, Any]:
    """The host's first message: the version it speaks, and who it is."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "host": host}


def new_game(game: str, options: Mapping[str, Any], seat: int, seed: int | None = None) -> dict[str, Any]:
    """A new game of ``game`` with ``options`` (``players`` included): the engine plays ``seat``."""
    msg = {"type": "new_game", "game": game, "options": dict(options), "players": int(options["players"]),
           "seat": seat}
    if seed is not None:
        msg["seed"] = seed
    return msg


def position(request: int, seat: int, move_number: int, observation: Mapping[str, Any],
             world: Mapping[str, Any] | None, legal: Sequence[tuple[int, str]],
             time: float | None = None, iterations: int | None = None) -> dict[str, Any]:
    """A decision for ``seat``: what the seat knows, one world consistent with it, the legal
    moves as ``(id, text)`` and the budget (None: no limit of that kind)."""
    msg: dict[str, Any] = {
        "type": "position", "id": request, "seat": seat, "move_number": move_number,
        "observation": dict(observation), "legal": [{"id": a, "text": t} for a, t in legal],
        "budget": {"time": time, "iterations": iterations},
    }
    if world is not None:
        msg["world"] = dict(world)
    return msg


# -- what an engine sends ----------------------------------------------------------------------
def move(request: int, action: int, value: float | None = None, visits: int | None = None,
         pv: Sequence[str] | None = None) -> dict[str, Any]:
    """The engine's answer to position ``request``: the move's id, with what it knows of it."""
    info: dict[str, Any] = {}
    if value is not None and math.isfinite(value):
        info["value"] = value
    if visits is not None:
        info["visits"] = visits
    if pv:
        info["pv"] = list(pv)
    msg: dict[str, Any] = {"type": "move", "id": request, "move": action}
    if info:
        msg["info"] = info
    return msg


def error(message: str, request: int | None = None) -> dict[str, Any]:
    """What an engine answers to a message it cannot act on."""
    msg: dict[str, Any] = {"type": "error", "message": message}
    if request is not None:
        msg["id"] = request
    return msg


def check_move(reply: Mapping[str, Any], request: int, legal: Sequence[int]) -> int:
    """The move id of ``reply`` to position ``request`` whose legal ids are ``legal``;
    :class:`ProtocolError` for an ``error`` reply, another request's id or an illegal id."""
    if reply["type"] == "error":
        raise ProtocolError(f"answered with an error: {reply['message'][:300]}")
    if reply["type"] != "move":
        raise ProtocolError(f"answered a position with {reply['type']!r}, not 'move'")
    if reply["id"] != request:
        raise ProtocolError(f"answered position {reply['id']}, but position {request} was asked")
    action = reply["move"]
    if action not in legal:
        shown = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
        raise ProtocolError(f"played move id {action}, which is not legal here (legal ids: {shown})")
    return int(action)
