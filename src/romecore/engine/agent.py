"""The ``engine`` agent: any program that speaks the engine protocol, seated at a table.

``engine:cmd=python3 my_bot.py,time=0.5`` runs ``python3 my_bot.py`` (split as a shell
would, so quotes keep spaces: ``cmd=node "my bot.js"``) and asks it for each move with a
budget of 0.5 s.  A spec's values cannot hold commas; a command that needs them (or a working
folder, or environment variables) is written in a JSON file named by ``file=``::

    {"command": ["romecore", "engine", "--agent", "ismcts:time=0.1,clock=cpu"],
     "cwd": "..", "env": {"OMP_NUM_THREADS": "1"}}

(``command`` a list of words or one string split as ``cmd`` is; ``cwd`` relative to the
file's folder).  Without ``cmd`` or ``file`` the program is romecore's own engine
(``python -m romecore engine``).

The program starts when the agent's first game does, and is kept from game to game (each
begins with ``new_game``); after any fault it is killed, and the next game starts a fresh
one.  A fault (see :mod:`romecore.engine.client`) raises
:class:`~romecore.engine.protocol.EngineError` from ``step``, so a tournament forfeits the
game with the engine's name and what it did.  Pickled, the agent is its spec (tournament
workers rebuild it); garbage collected or closed, its program is killed.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

import romecore
from romecore.engine import protocol
from romecore.engine.client import EngineProcess
from romecore.engine.protocol import EngineError
from romecore.errors import AgentSpecError
from romecore.spec import AgentSpec

__all__ = ["EngineAgent", "engine_command", "PARAMS"]

#: The engine agent's parameters: name -> (type, default, help).
PARAMS: dict[str, tuple[type, Any, str]] = {
    "cmd": (str, "", "the engine's command line, split as a shell would (quotes keep spaces; no commas: "
                     "use file); empty: romecore's own engine"),
    "file": (str, "", "a JSON file with the engine's command (a list of words), and optionally cwd and env"),
    "time": (float, 0.0, "seconds per move, sent as the budget (0: none)"),
    "simulations": (int, 0, "iterations per move, sent as the budget (0: none)"),
    "timeout": (float, 0.0, "seconds the engine may take to answer a move before it forfeits "
                            "(0: twice time plus 1, or 60 without a time budget)"),
    "start_timeout": (float, 30.0, "seconds the engine may take to start and answer hello"),
    "world": (bool, True, "send a world consistent with the seat's view (for engines that search)"),
}
#: How long an engine without a time budget may think about a move, by default.
UNTIMED_TIMEOUT = 60.0


def engine_command(cmd: str = "", file: str = "") -> tuple[list[str], str | None, dict[str, str]]:
    """The engine's ``(argv, cwd, env)`` from an agent spec's ``cmd`` or ``file`` (romecore's
    own engine when both are empty); :class:`AgentSpecError` for a command that cannot be
    read or a program that is not there."""
    if cmd and file:
        raise AgentSpecError("agent 'engine': give cmd or file, not both")
    cwd: str | None = None
    env: dict[str, str] = {}
    if file:
        argv, cwd, env = _read_file(file)
    elif cmd:
        argv = _split(cmd, "cmd")
    else:
        return [sys.executable, "-m", "romecore", "engine"], None, {}
    program = argv[0]
    where = os.path.join(cwd, program) if cwd and os.sep in program else program
    if shutil.which(where) is None:
        raise AgentSpecError(f"agent 'engine': no program {program!r} (not found, or not executable)")
    return argv, cwd, env


def _split(cmd: str, what: str) -> list[str]:
    try:
        argv = shlex.split(cmd)
    except ValueError as e:
        raise AgentSpecError(f"agent 'engine': {what}={cmd!r} cannot be split into words: {e}") from None
    if not argv:
        raise AgentSpecError(f"agent 'engine': {what} is empty")
    return argv


def _read_file(path: str) -> tuple[list[str], str | None, dict[str, str]]:
    """``(argv, cwd, env)`` from an engine file (see the module)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise AgentSpecError(f"agent 'engine': cannot read file {path!r}: {e.strerror or e}") from None
    except ValueError as e:
        raise AgentSpecError(f"agent 'engine': file {path!r} is not JSON: {e}") from None
    if not isinstance(data, dict) or "command" not in data:
        raise AgentSpecError(f"agent 'engine': file {path!r} must be an object with a 'command'")
    command = data["command"]
    if isinstance(command, str):
        argv = _split(command, f"{path}: command")
    elif isinstance(command, list) and command and all(isinstance(w, str) for w in command):
        argv = list(command)
    else:
        raise AgentSpecError(f"agent 'engine': {path}: 'command' is a non-empty list of strings or a string")
    cwd = data.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise AgentSpecError(f"agent 'engine': {path}: 'cwd' is a string")
    here = os.path.dirname(os.path.abspath(path))
    cwd = os.path.normpath(os.path.join(here, cwd)) if cwd is not None else None
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        raise AgentSpecError(f"agent 'engine': {path}: 'env' maps names to strings")
    return argv, cwd, env


class EngineAgent:
    """An engine program that speaks romecore's engine protocol (docs: *Engine protocol*),
    started when its first game does and kept from game to game.  ``cmd`` is its command
    line, or ``file`` a JSON file with its command; ``time`` and ``simulations`` are the
    budget it is sent for each move; ``timeout`` the seconds it may take to answer one,
    after which it forfeits (the program is killed, the next game starts a fresh one)."""

    def __init__(self, game: romecore.Game, seed: int | None = None, cmd: str = "", file: str = "",
                 time: float = 0.0, simulations: int = 0, timeout: float = 0.0,
                 start_timeout: float = 30.0, world: bool = True) -> None:
        for key, value in (("time", time), ("simulations", simulations), ("timeout", timeout),
                           ("start_timeout", start_timeout)):
            if not value >= 0 or value == float("inf"):
                raise AgentSpecError(f"agent 'engine': {key}={value!r} must be a finite number >= 0")
        self.argv, self.cwd, self.env = engine_command(cmd, file)
        self.game, self.seed = game, seed
        self.params = {"cmd": cmd, "file": file, "time": time, "simulations": simulations, "timeout": timeout,
                       "start_timeout": start_timeout, "world": world}
        self.spec = "engine"
        self.time, self.simulations, self.send_world = time, simulations, world
        self.timeout = timeout or (2 * time + 1 if time else UNTIMED_TIMEOUT)
        self.start_timeout = start_timeout or 30.0
        self.label = _label(cmd or file or "romecore engine")
        self.stats: dict[str, Any] = {}
        self._engine: EngineProcess | None = None
        self._fault: EngineError | None = None
        self._lock = threading.Lock()
        self._new_game = True
        self._seat = -1
        self._last_move = -1
        self._request = 0

    # -- the agent ---------------------------------------------------------------------------
    def restart(self) -> None:
        """A new game: the next move begins it with ``new_game``.  The program is started
        here when it is not running, so its start-up counts in no move's time (a failure to
        start is kept and raised by the first move, which forfeits)."""
        with self._lock:
            self._new_game = True
            if self._engine is None or not self._engine.alive():
                try:
                    self._running()
                except EngineError as e:
                    self._fault = e

    def step(self, state: romecore.State) -> int:
        """The engine's move for the player to move in ``state`` (what that player may know);
        :class:`EngineError` when the engine fails to give a legal one in time."""
        with self._lock:
            fault, self._fault = self._fault, None
            if fault is not None:
                raise fault
            engine = self._running()
            seat = state.current_player()
            if seat < 0:
                raise romecore.IllegalActionError("engine agent: no player is to move here")
            try:
                return self._ask(engine, state, seat)
            except BaseException:
                engine.kill()  # a fault, or the move alarm: what it says next is not to be trusted
                raise

    def stop(self) -> None:
        """Asks a search under way (in another thread) to answer at once."""
        engine = self._engine
        if engine is not None and engine.alive():
            try:
                engine.send(protocol.STOP)
            except EngineError:
                pass

    def close(self) -> None:
        """Ends the program (quit, then kill); a later game starts a new one."""
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_rebuild, (self.game, self.seed, self.params))

    def __repr__(self) -> str:
        return f"<EngineAgent {self.label} for {self.game.game_id}>"

    # -- talking to it -----------------------------------------------------------------------
    def _running(self) -> EngineProcess:
        """The engine, started and greeted when it is not running."""
        if self._engine is not None and self._engine.alive():
            return self._engine
        self._engine = None
        engine = EngineProcess(self.argv, self.label, self.cwd, self.env)
        engine.start(f"romecore {romecore.__version__}", self.start_timeout)
        if engine.games and self.game.game_id not in engine.games:
            engine.close()
            raise EngineError(f"engine {self.label} ({engine.name}) plays {', '.join(engine.games)}, "
                              f"not {self.game.game_id}")
        self._engine, self._new_game = engine, True
        return engine

    def _ask(self, engine: EngineProcess, state: romecore.State, seat: int) -> int:
        """Sends the position (after ``new_game`` when one is due) and reads the move."""
        move_number = state.move_number()
        if self._new_game or seat != self._seat or move_number < self._last_move:
            engine.send(protocol.new_game(self.game.game_id, self.game.options, seat, self.seed))
            self._new_game = False
        self._seat, self._last_move = seat, move_number
        self._request += 1
        legal = state.legal_actions()
        message = protocol.position(
            self._request, seat, move_number, state.observation(seat),
            state.to_dict() if self.send_world else None,
            [(a, state.action_to_string(a)) for a in legal],
            self.time or None, self.simulations or None)
        deadline = time.monotonic() + self.timeout
        engine.send(message)
        reply = engine.receive(deadline, f"position {self._request} within {self.timeout:g} s")
        try:
            action = protocol.check_move(reply, self._request, legal)
        except protocol.ProtocolError as e:
            raise engine.fail(str(e)) from None
        self.stats = dict(reply.get("info") or {})
        return action


def _label(command: str, width: int = 48) -> str:
    """The engine's name in messages: its command, cut to ``width`` characters."""
    text = " ".join(command.split())
    return repr(text if len(text) <= width else text[: width - 3] + "...")


def _rebuild(game: romecore.Game, seed: int | None, params: Mapping[str, Any]) -> EngineAgent:
    return EngineAgent(game, seed, **params)


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    return [AgentSpec("engine", EngineAgent, PARAMS,
                      "any program that speaks romecore's engine protocol (JSON lines on stdin and stdout)")]
