"""The engine protocol: romecore's agents and any other program, in any language, speaking
one versioned protocol of JSON lines over standard input and output (as chess engines speak
UCI and Go engines GTP).

* :mod:`romecore.engine.protocol`: the messages, how they are written, read and checked.
* :mod:`romecore.engine.client`: the host's side, one engine program (:class:`EngineProcess`).
* :mod:`romecore.engine.agent`: the ``engine`` agent, which seats such a program at a table.
* :mod:`romecore.engine.serve`: ``romecore engine``, romecore's agents speaking it.

docs/engine-protocol.md describes the protocol for engine writers.
"""

from __future__ import annotations

from romecore.engine.protocol import PROTOCOL_VERSION, EngineError, ProtocolError

__all__ = ["PROTOCOL_VERSION", "EngineError", "ProtocolError"]
