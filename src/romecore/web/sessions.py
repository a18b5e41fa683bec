"""The web app's games: one :class:`Session` per game, holding the true state on the server.

A session plays one human seat against agents.  Like the shared game loop
(:func:`romecore.match.play_game`), every agent is handed only
``state.resample(player, view_seed(seed, move))``, chance is drawn by the state's seeded
dealer, and agent seeds follow ``romecore play``'s (``seed * 1000 + seat``), so a game is
reproducible from its record.  What leaves a session for the page is
:func:`human_view`: the seat's picture, its legal moves with their texts, and the log as
that seat perceived it -- nothing drawn from what the seat cannot know.

Concurrency: all sessions live in one asyncio event loop.  Each has an ``asyncio.Lock``
held only while the state is read or changed (microseconds to a render); agents and the
hint agent think in worker threads (the searches run in C without the GIL), so the server
answers other games and other messages meanwhile.  An undo bumps the session's
generation, so a move an agent was still thinking about when the human took back their
own is dropped rather than applied to the restored position.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import romecore
from romecore import records
from romecore.cli.play import DEFAULT_HINT, DEFAULT_OPPONENT  # the opponents and hint agent by default
from romecore.core.state import HIDDEN
from romecore.errors import IllegalActionError, InvalidArgumentError
from romecore.match import new_record, view_seed
from romecore.picture import to_svg
from romecore.plugins import registry

__all__ = ["Session", "Sessions", "SessionError", "human_view", "render_svg", "HUMAN",
           "DEFAULT_OPPONENT", "DEFAULT_HINT", "DEFAULT_DELAY"]

#: The spec a record gives the human's seat (as ``romecore play`` does).
HUMAN = "human"

#: Seconds an agent's move is shown at the least, so a person can follow the AI's moves.
DEFAULT_DELAY = 0.4
MAX_DELAY = 10.0
MAX_SEED = 2**63 - 1
_GAME_ID = re.compile(r"[0-9a-f]{32}\Z")


class SessionError(InvalidArgumentError):
    """A request the server refuses (stale game id, out of turn, malformed field); ``code``
    names the kind for the page: ``bad_request``, ``unknown_game``, ``not_your_turn``,
    ``stale``, ``game_over``, ``full``."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


Listener = Callable[[dict[str, Any]], Awaitable[None]]


# -- what the human may see ------------------------------------------------------------------
def render_svg(state: romecore.State, seat: int) -> str:
    """The seat's picture; if the game's renderer fails, a plain SVG of the seat's text
    drawing (``state.render(seat)``, equally limited to the seat's knowledge), so a
    renderer bug never ends a game."""
    try:
        return to_svg(state, seat)
    except Exception as e:  # a renderer bug: show the text view instead
        lines = [f"(picture unavailable: {type(e).__name__}: {e})", *state.render(seat).splitlines()]
        return _text_svg(lines)


def _text_svg(lines: list[str]) -> str:
    from xml.sax.saxutils import escape

    h = 16 * len(lines) + 20
    body = "".join(f'<text x="10" y="{20 + 16 * i}">{escape(line)}</text>' for i, line in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{h}" viewBox="0 0 900 {h}" '
            f'font-family="monospace" font-size="12" xml:space="preserve">'
            f'<rect width="900" height="{h}" fill="#fbf8f1"/>{body}</svg>')


def human_view(state: romecore.State, seat: int) -> dict[str, Any]:
    """The state-dependent part of a state update: the seat's picture and, when the seat is
    to move, its legal moves with their texts.  Depends only on what the seat knows (the
    web tests check it across resampled worlds)."""
    to_move = state.current_player()
    moves = []
    if to_move == seat:
        moves = [{"id": a, "text": state.action_to_string(a)} for a in state.legal_actions()]
    return {"svg": render_svg(state, seat), "moves": moves}


def _seen(state: romecore.State, seat: int, player: int, action: int) -> str | None:
    """The log line ``seat`` sees for ``action`` about to be applied to ``state``: the
    move's text when the seat sees it, a placeholder for an opponent's hidden move, None
    for a hidden chance outcome (a deal to someone else says nothing)."""
    if player == seat:
        return state.action_to_string(action)
    if state.observe_action(seat, action) & HIDDEN:
        return None if player == records.CHANCE_PLAYER else "a move you cannot see"
    return state.action_to_string(action)


# -- checking what the page sends ------------------------------------------------------------
def _int(d: Mapping[str, Any], key: str, default: Any = None, lo: int = 0, hi: int = MAX_SEED) -> Any:
    v = d.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise SessionError("bad_request", f"{key!r} must be an integer in {lo}..{hi}, got {repr(v)[:40]}")
    return v


def check_game_id(v: Any) -> str:
    if not isinstance(v, str) or not _GAME_ID.match(v):
        raise SessionError("bad_request", f"'game' must be a game id (32 hex digits), got {repr(v)[:40]}")
    return v


# -- one game ----------------------------------------------------------------------------------
class Session:
    """One game: the true state, the agents at the other seats, the human at ``seat``."""

    def __init__(self, game: romecore.Game, seat: int, specs: list[str], seed: int,
                 delay: float = DEFAULT_DELAY, hint: str = DEFAULT_HINT,
                 records_dir: str | None = None) -> None:
        n = game.num_players()
        self.id = uuid.uuid4().hex
        self.game, self.seat, self.seed, self.delay = game, seat, seed, delay
        self.specs = list(specs)
        self.specs[seat] = HUMAN
        self.agents: list[Any] = [None if p == seat else romecore.make_agent(self.specs[p], game=game,
                                                                            seed=seed * 1000 + p)
                                  for p in range(n)]
        self.hint_spec = hint
        self._hinter: Any = None
        self.records_dir = records_dir
        self.state = game.new_initial_state(seed=seed)
        self.actions: list[int] = []
        self.players: list[int] = []
        self.texts: list[str] = []
        self.think = [0.0] * n
        self.moves = [0] * n
        self.log: list[dict[str, Any]] = []
        self._points: list[tuple] = []  # undo points: what was, just before each human move
        self.lock = asyncio.Lock()
        self.gen = 0  # bumped by undo: agent moves thought before it are dropped
        self.forfeit: dict[str, Any] | None = None
        self.record: records.GameRecord | None = None
        self.record_path: str | None = None
        self.listeners: list[Listener] = []
        self.task: asyncio.Task | None = None
        self.touched = time.monotonic()
        self._turn_t0 = time.perf_counter()
        self._sent: tuple = ()  # what the pages were last sent (see broadcast)

    # -- reading -------------------------------------------------------------------------------
    def over(self) -> bool:
        return self.record is not None

    def ply(self) -> int:
        """How many actions were applied: a move names the ply it answers, so one sent
        before an undo or an agent's move is refused as stale."""
        return len(self.actions)

    def update(self) -> dict[str, Any]:
        """The ``state`` message: the human's view only."""
        to_move = self.state.current_player()
        msg: dict[str, Any] = {
            "type": "state", "game": self.id, "game_id": self.game.game_id,
            "name": registry.game(self.game.game_id).name, "players": self.game.num_players(),
            "seat": self.seat, "agents": list(self.specs), "ply": self.ply(),
            "to_move": ("over" if self.over() else "chance" if to_move == romecore.CHANCE else to_move),
            "can_undo": bool(self._points), "log": list(self.log),
            "over": self.over(), "result": None,
        }
        msg.update(human_view(self.state, self.seat))
        if self.over():
            msg["moves"] = []
            rec = self.record
            assert rec is not None
            msg["seed"] = self.seed  # only now: the seed deals every card still hidden
            msg["result"] = {"returns": list(rec.returns), "scores": list(rec.scores),
                             "termination": rec.termination(), "record": f"/api/record/{self.id}"}
        return msg

    # -- talking to the pages ------------------------------------------------------------------
    async def broadcast(self) -> None:
        """Sends the state to every page on this game, unless they have it already."""
        key = (self.ply(), self.gen, self.over())
        if key == self._sent:
            return
        self._sent = key
        msg = self.update()
        for send in list(self.listeners):
            try:
                await send(msg)
            except Exception:  # a closed page: forget it
                if send in self.listeners:
                    self.listeners.remove(send)

    def kick(self) -> None:
        """Lets the agents (and chance) move until it is the human's turn or the game ends."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            async with self.lock:
                if self.over():  # perhaps ended by chance: the pages learn it (once)
                    await self.broadcast()
                    return
                state = self.state
                player = state.current_player()
                if player == romecore.TERMINAL:
                    self._finish()
                    await self.broadcast()
                    return
                if player == romecore.CHANCE:
                    self._apply(records.CHANCE_PLAYER, state.sample_chance())
                    continue
                if player == self.seat:
                    self._turn_t0 = time.perf_counter()
                    await self.broadcast()
                    return
                gen, agent = self.gen, self.agents[player]
                view = state.resample(player, view_seed(self.seed, state.move_number()))
            t0 = time.perf_counter()
            fault = None
            try:
                action = await asyncio.to_thread(agent.step, view)
            except Exception as e:
                action = None
                fault = "raised " + traceback.format_exception_only(type(e), e)[-1].strip()
            spent = time.perf_counter() - t0
            if self.delay > spent:
                await asyncio.sleep(self.delay - spent)
            async with self.lock:
                if gen != self.gen or self.over():
                    continue  # the human undid meanwhile: this move answers a position gone
                self.think[player] += spent
                self.moves[player] += 1
                if fault is None and not self.state.is_legal(action):
                    fault = f"returned {repr(action)[:40]}, which is not legal"
                if fault is not None:
                    self.forfeit = {"seat": player, "reason": f"player {player} ({self.specs[player]}) {fault}"}
                    self._finish()
                else:
                    self._apply(player, action)
                await self.broadcast()

    def _apply(self, player: int, action: int) -> None:
        state = self.state
        text = state.action_to_string(action)
        seen = _seen(state, self.seat, player, action)
        state.apply_action(action)
        self.actions.append(action)
        self.players.append(player)
        self.texts.append(text)
        if seen is not None:
            who = "chance" if player == records.CHANCE_PLAYER else player
            self.log.append({"ply": len(self.actions), "player": who, "text": seen})
        if state.is_terminal():
            self._finish()

    def _finish(self) -> None:
        """The game is over (played out, or forfeited): its record, written to the records
        folder when there is one."""
        rec = new_record(self.game, self.specs, self.seed, None)
        rec.actions, rec.players, rec.texts = list(self.actions), list(self.players), list(self.texts)
        rec.think_seconds, rec.moves = list(self.think), list(self.moves)
        n = self.game.num_players()
        if self.forfeit is not None:
            rec.forfeit = dict(self.forfeit)
            rec.returns = records.forfeit_returns(n, self.forfeit["seat"])
        else:
            rec.returns = self.state.returns()
        rec.scores = self.state.scores()
        self.record = rec
        if self.records_dir is not None:
            path = os.path.join(self.records_dir, f"{self.game.game_id}-{self.id}.jsonl")
            try:
                os.makedirs(self.records_dir, exist_ok=True)
                records.write(path, [rec])
                self.record_path = path
            except OSError as e:
                self.log.append({"ply": self.ply(), "player": "server", "text": f"record not saved: {e}"})

    # -- what the human asks -------------------------------------------------------------------
    def _human_turn(self, ply: Any) -> None:
        if self.over():
            raise SessionError("game_over", "the game is over")
        if ply is not None and ply != self.ply():
            raise SessionError("stale", f"stale message: it answers move {ply!r}, the game is at move "
                                        f"{self.ply()} (reload the position)")
        to_move = self.state.current_player()
        if to_move != self.seat:
            who = "the AI is" if to_move >= 0 else "chance is"
            raise SessionError("not_your_turn", f"it is not your turn: {who} to move"
                                                + (f" (player {to_move})" if to_move >= 0 else ""))

    async def move(self, action: Any, ply: Any = None) -> None:
        """The human plays ``action`` (an action id from the list sent); refused with the
        state unchanged when out of turn, stale or illegal."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise SessionError("bad_request", f"'action' must be an action id (an integer), got {repr(action)[:40]}")
        async with self.lock:
            self._human_turn(ply)
            if not self.state.is_legal(action):
                raise IllegalActionError(f"action {action} is not a legal move here")
            self._points.append((self.state.clone(), len(self.actions), len(self.log),
                                 list(self.think), list(self.moves)))
            self.think[self.seat] += time.perf_counter() - self._turn_t0
            self.moves[self.seat] += 1
            self._apply(self.seat, action)
            self.touched = time.monotonic()
            await self.broadcast()
        self.kick()

    async def undo(self) -> None:
        """Back to the human's previous decision: the position as it was (the same deals),
        the agents restarted; an agent still thinking has its move dropped."""
        async with self.lock:
            if not self._points:
                raise SessionError("bad_request", "nothing to undo: you have not moved yet")
            state, n_actions, n_log, think, moves = self._points.pop()
            self.gen += 1
            self.state = state
            del self.actions[n_actions:], self.players[n_actions:], self.texts[n_actions:]
            del self.log[n_log:]
            self.think, self.moves = think, moves
            self.record, self.record_path, self.forfeit = None, None, None
            for agent in self.agents:
                restart = getattr(agent, "restart", None)
                if restart is not None:
                    restart()
            self._turn_t0 = time.perf_counter()
            self.touched = time.monotonic()
            await self.broadcast()

    async def resign(self) -> None:
        async with self.lock:
            if self.over():
                raise SessionError("game_over", "the game is over")
            self.forfeit = {"seat": self.seat, "reason": f"player {self.seat} ({HUMAN}) resigned"}
            self.gen += 1
            self._finish()
            await self.broadcast()

    async def hint(self, ply: Any = None) -> dict[str, Any]:
        """What the hint agent would play, judged from a world resampled from the human's
        knowledge only (as any agent is)."""
        async with self.lock:
            self._human_turn(ply)
            view = self.state.resample(self.seat, view_seed(self.seed ^ 0x5EED, self.ply()))
            at = self.ply()
            if self._hinter is None:
                self._hinter = romecore.make_agent(self.hint_spec, game=self.game, seed=self.seat + 1)
        action = await asyncio.to_thread(self._hinter.step, view)
        return {"type": "hint", "game": self.id, "ply": at, "action": action,
                "text": view.action_to_string(action), "agent": self.hint_spec}


# -- every game on the server ------------------------------------------------------------------
class Sessions:
    """The server's games by id, at most ``max_games`` (finished and idle ones make room)."""

    def __init__(self, records_dir: str | None = None, hint: str = DEFAULT_HINT,
                 delay: float = DEFAULT_DELAY, max_games: int = 200, idle_seconds: float = 3600.0) -> None:
        self.records_dir = records_dir
        self.hint = hint
        self.delay = delay
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.games: dict[str, Session] = {}

    def get(self, game_id: Any) -> Session:
        s = self.games.get(check_game_id(game_id))
        if s is None:
            raise SessionError("unknown_game", f"no game {game_id} on this server (it may have been "
                                               "closed, or the server restarted): start a new one")
        s.touched = time.monotonic()
        return s

    def _make_room(self) -> None:
        now = time.monotonic()
        for gid, s in list(self.games.items()):
            if now - s.touched > self.idle_seconds and not s.listeners:
                self.games.pop(gid)
        if len(self.games) >= self.max_games:
            done = sorted((s.touched, gid) for gid, s in self.games.items() if s.over() and not s.listeners)
            for _, gid in done[: len(self.games) - self.max_games + 1]:
                self.games.pop(gid)
        if len(self.games) >= self.max_games:
            raise SessionError("full", f"the server holds {self.max_games} games already: finish one first")

    def create(self, msg: Mapping[str, Any]) -> Session:
        """A new game from a ``new`` message (see :mod:`romecore.web.app`)."""
        game_id = msg.get("game_id", "great_city_of_rome")
        if not isinstance(game_id, str):
            raise SessionError("bad_request", "'game_id' must be a game id string")
        options = msg.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, (str, int, bool))
                                                    for k, v in options.items()):
            raise SessionError("bad_request", "'options' must map option names to strings, numbers or booleans")
        players = _int(msg, "players", None, 1, 64)
        opts = dict(options) | ({"players": players} if players is not None else {})
        game = romecore.load_game(game_id, **opts)  # UnknownGameError, GameOptionError
        n = game.num_players()
        seat = _int(msg, "seat", 0, 0, n - 1)
        seed = _int(msg, "seed", None)
        if seed is None:
            seed = random.randrange(2**32)
        agents = msg.get("agents", [DEFAULT_OPPONENT])
        if isinstance(agents, str):
            agents = [agents]
        if not isinstance(agents, list) or not agents or not all(isinstance(a, str) and 0 < len(a) <= 200
                                                                  for a in agents):
            raise SessionError("bad_request", "'agents' must be a non-empty list of agent specs")
        if len(agents) == n:
            specs = list(agents)
        else:  # one spec per other seat, in seat order, cycled
            others = [p for p in range(n) if p != seat]
            specs = [HUMAN] * n
            for i, p in enumerate(others):
                specs[p] = agents[i % len(agents)]
        delay = msg.get("delay", self.delay)
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= MAX_DELAY:
            raise SessionError("bad_request", f"'delay' must be seconds in 0..{MAX_DELAY:g}")
        self._make_room()
        session = Session(game, seat, specs, seed, float(delay), self.hint, self.records_dir)
        self.games[session.id] = session
        return session
