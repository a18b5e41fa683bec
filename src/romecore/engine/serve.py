"""``romecore engine``: romecore's own agents speaking the engine protocol.

:class:`EngineServer` reads the host's messages one line at a time and answers on its
output.  A search runs in a thread of its own, so ``stop`` and ``quit`` are read while it
thinks.  Any line it cannot act on (not JSON, an unknown type, a missing field, a world that
does not load, a position before ``new_game``) is answered with an ``error`` naming what
was wrong, and the server goes on reading: nothing a host sends ends it but ``quit`` or
the end of its input.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable, Mapping
from typing import IO, Any

import romecore
from romecore.agents import resolve_level
from romecore.engine import protocol
from romecore.engine.protocol import ProtocolError
from romecore.errors import RomecoreError
from romecore.plugins import registry
from romecore.spec import parse_agent_spec

__all__ = ["EngineServer", "budgeted_spec", "DEFAULT_AGENT", "serve"]

#: What ``romecore engine`` plays without ``--agent`` or ``--level``: the default search,
#: with each game's own parameters at its player count (``GameSpec.agent_defaults_for``).
DEFAULT_AGENT = "ismcts"


def budgeted_spec(spec: str, budget: Mapping[str, Any]) -> str:
    """``spec`` (a level already resolved) with the host's budget: ``time`` seconds and
    ``iterations`` (as the agent's ``simulations``, else ``nodes``) replace the spec's own
    where the agent takes them; an agent without them plays as it is.

    >>> budgeted_spec("ismcts:c=0.7", {"time": 0.5, "iterations": None})
    'ismcts:c=0.7,time=0.5'
    >>> budgeted_spec("greedy", {"iterations": 300})
    'greedy:nodes=300'
    """
    name, params = parse_agent_spec(spec)
    table = registry.agent(name).params
    time, iterations = budget.get("time"), budget.get("iterations")
    if isinstance(time, (int, float)) and not isinstance(time, bool) and time > 0 and "time" in table:
        params["time"] = f"{time:g}"
    if isinstance(iterations, int) and not isinstance(iterations, bool) and iterations > 0:
        key = next((k for k in ("simulations", "nodes") if k in table), None)
        if key is not None:
            params[key] = str(iterations)
    return name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


class EngineServer:
    """Answers one host's messages (:meth:`handle`, a line at a time) with ``spec``'s agent,
    writing replies to ``out``.  ``spec`` may be ``level:NAME`` (each game's level)."""

    def __init__(self, spec: str, out: IO[str]) -> None:
        self.spec, self.out = spec, out
        self.game: romecore.Game | None = None
        self.seat = -1
        self.seed = 0
        self._agents: dict[str, Any] = {}
        self._write = threading.Lock()
        self._search: threading.Thread | None = None
        self._thinking: Any = None
        self._busy: int | None = None  # the position being searched, cleared before its answer

    def reply(self, message: Mapping[str, Any]) -> None:
        """Writes one message (whole, even when the search thread writes too)."""
        with self._write:
            self.out.write(protocol.encode(message))
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Acts on one line from the host; False once it said ``quit``."""
        if not line.strip():
            return True
        try:
            message = protocol.decode(line, protocol.HOST_MESSAGES)
        except ProtocolError as e:
            self.reply(protocol.error(str(e)))
            return True
        kind = message["type"]
        if kind == "quit":
            self.stop()
            return False
        try:
            if kind == "hello":
                self._hello(message)
            elif kind == "new_game":
                self._new_game(message)
            elif kind == "position":
                self._position(message)
            elif kind == "stop":
                self.stop()
        except Exception as e:  # bad input (RomecoreError, ValueError) or our own bug: an answer, never an end
            request = message.get("id") if kind == "position" else None
            text = str(e) if isinstance(e, (RomecoreError, ValueError)) else f"{type(e).__name__}: {e}"
            self.reply(protocol.error(f"{kind}: {text}", request))
        return True

    def stop(self) -> None:
        """Ends the search under way (it answers with its best move so far) and waits for it."""
        search, agent = self._search, self._thinking
        if search is None:
            return
        while search.is_alive():
            if agent is not None and hasattr(agent, "stop"):
                agent.stop()
            search.join(0.02)

    # -- the messages -------------------------------------------------------------------------
    def _hello(self, message: Mapping[str, Any]) -> None:
        if message["protocol"] != protocol.PROTOCOL_VERSION:
            self.reply(protocol.error(f"protocol {message['protocol']} is not spoken here; this engine "
                                      f"speaks {protocol.PROTOCOL_VERSION}"))
        self.reply({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "name": f"romecore {self.spec}",
                    "version": romecore.__version__, "games": romecore.list_games()})

    def _new_game(self, message: Mapping[str, Any]) -> None:
        self.stop()
        options = dict(message["options"])
        options.setdefault("players", message["players"])
        if options["players"] != message["players"]:
            raise ValueError(f"players is {message['players']} but options say {options['players']}")
        game = romecore.load_game(message["game"], **options)
        seat = message["seat"]
        if not 0 <= seat < game.num_players():
            raise ValueError(f"seat {seat} is not a seat of a {game.num_players()}-player game")
        seed = message.get("seed") or 0
        agent = romecore.make_agent(resolve_level(self.spec, game), game, seed=seed)  # refused now, if it must be
        self.game, self.seat, self.seed = game, seat, seed
        self._agents = {budgeted_spec(resolve_level(self.spec, game), {}): agent}

    def _position(self, message: Mapping[str, Any]) -> None:
        request = message["id"]
        if self.game is None:
            raise ValueError("no game: send new_game first")
        if self._busy is not None:
            raise ValueError(f"position {self._busy} is being searched: send stop and wait for its move first")
        world = message.get("world")
        if world is None:
            raise ValueError("this engine searches a world: send 'world' (a state's to_dict)")
        state = self.game.state_from_dict(world)
        legal = _legal_ids(message["legal"])
        if state.current_player() != message["seat"]:
            raise ValueError(f"the world has player {state.current_player()} to move, not seat {message['seat']}")
        if sorted(legal) != state.legal_actions():
            raise ValueError("'legal' is not the world's legal moves")
        agent = self._agent(message["budget"])
        self._thinking, self._busy = agent, request
        self._search = threading.Thread(target=self._think, args=(agent, state, request, legal), daemon=True,
                                        name=f"search {request}")
        self._search.start()

    def _agent(self, budget: Mapping[str, Any]) -> Any:
        """This game's agent for ``budget`` (one per budget asked, kept for the game)."""
        assert self.game is not None
        spec = budgeted_spec(resolve_level(self.spec, self.game), budget)
        if spec not in self._agents:
            self._agents[spec] = romecore.make_agent(spec, self.game, seed=self.seed)
        return self._agents[spec]

    def _think(self, agent: Any, state: romecore.State, request: int, legal: list[int]) -> None:
        """The search thread: the agent's move, or an error, for position ``request``."""
        try:
            action = agent.step(state)
            if action not in legal:
                raise ValueError(f"the agent chose {action}, which is not legal")
            answer = protocol.move(request, action, **_info(agent, action))
        except Exception as e:  # any failure of the search is the host's error reply, not our end
            answer = protocol.error(f"position: {type(e).__name__}: {e}", request)
        self._busy = None  # before the answer: the host may send the next position at once
        self.reply(answer)


def _legal_ids(legal: list[Any]) -> list[int]:
    ids = []
    for item in legal:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int) or isinstance(item["id"], bool):
            raise ValueError("'legal' is a list of {\"id\": integer, \"text\": string}")
        ids.append(item["id"])
    return ids


def _info(agent: Any, action: int) -> dict[str, Any]:
    """What the agent's ``stats`` say of its move: the value and visits of the move at the
    root (a tree search) or its value (``greedy``), and else the iterations it spent."""
    stats = getattr(agent, "stats", None) or {}
    info: dict[str, Any] = {}
    for row in stats.get("root") or ():
        if len(row) >= 3 and row[0] == action and row[1] > 0:
            info = {"value": float(row[2]) / row[1], "visits": int(row[1])}
    for row in stats.get("values") or ():
        if len(row) == 2 and row[0] == action:
            info["value"] = float(row[1])
    if "visits" not in info and isinstance(stats.get("iterations"), int):
        info["visits"] = stats["iterations"]
    return info


def serve(lines: Iterable[str], out: IO[str], spec: str) -> int:
    """Serves ``spec``'s agent to the host whose messages are ``lines``, answering on
    ``out``, until ``quit`` or the end of ``lines``; returns the exit status (0)."""
    server = EngineServer(spec, out)
    for line in lines:
        if not server.handle(line):
            break
    server.stop()
    return 0


def main_loop(spec: str) -> int:
    """``romecore engine``: serves on the process's standard input and output.  Anything
    else that prints goes to standard error, so the protocol's stream stays clean."""
    out = sys.stdout
    sys.stdout = sys.stderr
    try:
        return serve(sys.stdin, out, spec)
    finally:
        sys.stdout = out
