"""Canonical JSON text: one string for one value, whichever encoder writes it.

``State.observation_string`` and ``information_state_string`` are this text of the
observation dict; OpenSpiel's searches key their trees by it, once for every node a
simulation passes, so its speed is theirs.  ``orjson`` (the ``openspiel`` extra) writes
it about ten times faster than the standard library, whose encoder is the fallback; both
write keys sorted, no spaces, and non-ASCII text as itself.  The two write the same text
for every value but floats below 1e-4 in magnitude, which they spell differently
(``1e-07`` against ``1e-7``; both read back as the same float).  Observations hold no
floats, so their strings do not depend on the encoder.

>>> canonical_json({"b": [1, 2.5, None], "a": "Ædile"})
'{"a":"Ædile","b":[1,2.5,null]}'
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["canonical_json"]

try:
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None  # type: ignore[assignment]


def _stdlib(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    """The canonical JSON text of ``value`` (dicts with string keys, lists, strings,
    ints, floats, bools and None)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
        except (TypeError, orjson.JSONEncodeError):
            pass  # outside orjson's types (an int past 64 bits, a non-string key)
    return _stdlib(value)
