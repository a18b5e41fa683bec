"""The one rule by which romecore turns a user's seed into the 64 bits its RNGs take.

Every entry point that takes a seed follows it: ``Game.new_initial_state``,
``State.resample`` and ``playout``, ``Batch``, the agents (``make_agent``, ``reseed``), the
searches, ``play_game`` and the tournament's master seed.

- None draws a fresh seed from the operating system;
- an int (or anything with ``__index__``, such as a numpy integer) counts modulo 2**64, so
  negative and huge ints are seeds too: -1 is the seed 2**64 - 1;
- a bool is refused: ``True`` where a seed is expected is a slip, not a seed;
- anything else raises :class:`romecore.ArgumentTypeError` (a ``TypeError``).

>>> seed64(7), seed64(-1) == 2**64 - 1, seed64(2**64 + 7)
(7, True, 7)
>>> seed64(True)
Traceback (most recent call last):
...
romecore.errors.ArgumentTypeError: seed must be an integer, got bool
"""

from __future__ import annotations

import operator
import os
from typing import SupportsIndex

from romecore.errors import ArgumentTypeError

__all__ = ["seed64"]

MASK64 = 0xFFFFFFFFFFFFFFFF


def seed64(seed: SupportsIndex | None = None) -> int:
    """``seed`` as a seed in 0..2**64-1, by the rule above."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, bool):
        raise ArgumentTypeError("seed must be an integer, got bool")
    try:
        return operator.index(seed) & MASK64  # numpy's bool has no __index__: refused here
    except TypeError:
        raise ArgumentTypeError(f"seed must be an integer, got {type(seed).__name__}") from None
