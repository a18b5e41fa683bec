"""Readers for values from outside: the dict form of a state, snapshot envelopes, records.

Each reader checks one value's type, and an int's range or a list's length, before the
caller lets it size or index anything, and raises :class:`romecore.SerializationError`
naming the field.  Every game's dict loader reads through these, so one set of checks (and
one way of quoting a bad value) serves all of them.

>>> read_int(3, "coins", 0, 99)
3
>>> read_int(True, "coins", 0, 99)
Traceback (most recent call last):
...
romecore.errors.SerializationError: dict coins must be an int in 0..99, got True
>>> show(10 ** 5000)
'an int of 16610 bits'
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from romecore.errors import SerializationError

__all__ = ["show", "fail", "read_int", "read_bool", "read_list", "read_dict", "read_seats",
           "read_name"]

_REPR = reprlib.Repr()
_REPR.maxstring = 40
_REPR.maxother = 40


def show(x: Any) -> str:
    """A short, safe rendering of a value from outside for an error message: never the
    whole of a huge or deeply nested value, and never an exception of its own."""
    if type(x) is int and x.bit_length() > 64:
        return f"an int of {x.bit_length()} bits"
    try:
        return _REPR.repr(x)
    except Exception:
        return f"a {type(x).__name__}"


def fail(what: str) -> NoReturn:
    """Raises SerializationError for the dict field ``what``."""
    raise SerializationError(f"dict {what}")


def read_int(x: Any, what: str, lo: int, hi: int) -> int:
    """``x`` as an int in lo..hi (a bool is not an int here)."""
    if type(x) is not int or not lo <= x <= hi:
        fail(f"{what} must be an int in {lo}..{hi}, got {show(x)}")
    return x


def read_bool(x: Any, what: str) -> bool:
    if type(x) is not bool:
        fail(f"{what} must be true or false, got {show(x)}")
    return x


def read_list(x: Any, what: str, max_len: int) -> Sequence[Any]:
    """``x`` as a list (or tuple) of at most ``max_len`` entries, not yet read."""
    if type(x) is not list and type(x) is not tuple:
        fail(f"{what} must be a list, got {show(x)}")
    if len(x) > max_len:
        fail(f"{what} has {len(x)} entries, at most {max_len}")
    return x


def read_dict(x: Any, what: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
    """``x`` as a dict; with ``keys``, a field outside them is refused."""
    if type(x) is not dict:
        fail(f"{what} must be a dict, got {show(x)}")
    if keys is not None:
        allowed = set(keys)
        for key in x:
            if key not in allowed:
                fail(f"{what} has an unknown field {show(key)}")
    return x


def read_seats(x: Any, what: str, nplayers: int) -> list[int]:
    """``x`` as a list of distinct seats 0..nplayers-1."""
    seats = [read_int(q, what, 0, nplayers - 1) for q in read_list(x, what, nplayers)]
    if len(set(seats)) != len(seats):
        fail(f"{what} lists a seat twice")
    return seats


def read_name(x: Any, names: Sequence[str], what: str) -> int:
    """The index of ``x`` in ``names`` (exact match)."""
    if type(x) is str:
        for i, name in enumerate(names):
            if x == name:
                return i
    fail(f"{what}: unknown name {show(x)} (names: {', '.join(names)})")
