"""The web app's games: one :class:`Session` per game, holding the true state on the server.

A session plays one human seat against agents.  Like the shared game loop
(:func:`romecore.match.play_game`), every agent is handed only
``state.resample(player, view_seed(seed, move))``, chance is drawn by the state's seeded
dealer, and agent seeds follow ``romecore play``'s (``seed * 1000 + seat``), so a game is
reproducible from its record.  What leaves a session for the page is
:func:`human_view`: the seat's picture, its legal moves with their texts and board keys,
and the log as that seat perceived it -- nothing drawn from what the seat cannot know,
until the game is over.

A finished game stays finished: move, hint and undo are refused, and its record never
changes.  Agents and the hint think in worker threads (the searches run in C without the
GIL), each bounded by the server's :class:`~romecore.web.limits.Limits`; a search still
running when its game ends, is resigned, undone past or left by its last page is stopped
(:meth:`SearchAgent.stop`), so no page can keep the server thinking.

Concurrency: all sessions live in one asyncio event loop.  Each has an ``asyncio.Lock``
held only while the state is read or changed.  An undo (or a pause) bumps the session's
generation, so a move an agent was still thinking about is dropped rather than applied to
a position that is gone.
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
from romecore.core.state import HIDDEN
from romecore.errors import AgentSpecError, IllegalActionError, InvalidArgumentError
from romecore.match import new_record, view_seed
from romecore.picture import action_targets, to_svg
from romecore.plugins import registry
from romecore.web.limits import Limits, bound_spec, levels_of, resolve_opponent

__all__ = ["Session", "Sessions", "SessionError", "human_view", "render_svg", "HUMAN",
           "DEFAULT_OPPONENT", "DEFAULT_HINT", "DEFAULT_DELAY"]

#: The spec a record gives the human's seat (as ``romecore play`` does).
HUMAN = "human"
#: The opponent when a page names none: the game's middle level, else this spec.
DEFAULT_OPPONENT = "ismcts:time=0.5"
#: The agent that answers the hint button, unless the server names another.
DEFAULT_HINT = "ismcts:time=0.5"

#: Seconds an agent's move is shown at the least, so a person can follow the AI's moves.
DEFAULT_DELAY = 0.4
MAX_DELAY = 10.0
MAX_SEED = 2**63 - 1
_GAME_ID = re.compile(r"[0-9a-f]{32}\Z")
#: How often a search that must end is asked to stop (seconds).
_STOP_POLL = 0.01


class SessionError(InvalidArgumentError):
    """A request the server refuses (stale game id, out of turn, malformed field); ``code``
    names the kind for the page: ``bad_request``, ``unknown_game``, ``not_your_turn``,
    ``stale``, ``game_over``, ``full``, ``busy``."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


Listener = Callable[[dict[str, Any]], Awaitable[None]]


# -- what the human may see ------------------------------------------------------------------
def render_svg(state: romecore.State, seat: int | None) -> str:
    """The seat's picture (None: the whole truth, for a finished game); if the game's
    renderer fails, a plain SVG of the text drawing (equally limited), so a renderer bug
    never ends a game."""
    try:
        return to_svg(state, seat)
    except Exception as e:  # a renderer bug: show the text view instead
        text = state.render(seat) if seat is not None else str(state)
        return _text_svg([f"(picture unavailable: {type(e).__name__}: {e})", *text.splitlines()])


def _text_svg(lines: list[str]) -> str:
    from xml.sax.saxutils import escape

    h = 16 * len(lines) + 20
    body = "".join(f'<text x="10" y="{20 + 16 * i}">{escape(line)}</text>' for i, line in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{h}" viewBox="0 0 900 {h}" '
            f'font-family="monospace" font-size="12" xml:space="preserve">'
            f'<rect width="900" height="{h}" fill="#fbf8f1"/>{body}</svg>')


def _targets(state: romecore.State, action: int) -> list[str]:
    try:
        return list(action_targets(state, action))
    except Exception:  # a game without board keys (or a bug in them): the move list still works
        return []


def human_view(state: romecore.State, seat: int) -> dict[str, Any]:
    """The state-dependent part of a state update: the seat's picture and, when the seat is
    to move, its legal moves with their texts and board keys.  Depends only on what the
    seat knows (the web tests check it across resampled worlds)."""
    moves = []
    if state.current_player() == seat:
        moves = [{"id": a, "text": state.action_to_string(a), "targets": _targets(state, a)}
                 for a in state.legal_actions()]
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


def _round(state: romecore.State, seat: int) -> int | None:
    """The round the seat's observation names, for grouping the log (None: the game
    counts none)."""
    r = state.observation(seat).get("round")
    return r if isinstance(r, int) and not isinstance(r, bool) else None


def score_line(scores: list[int], seat: int) -> str:
    """Scores as players say them, the seat's first: ``87–96`` (``87–96–70``).

    >>> score_line([96, 87], 1)
    '87–96'
    """
    return "–".join(str(s) for s in [scores[seat], *scores[:seat], *scores[seat + 1:]])


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
    """One game: the true state, the agents at the other seats, the human at ``seat``.
    ``labels`` name the seats as the page shows them (a level, or the spec)."""

    def __init__(self, game: romecore.Game, seat: int, specs: list[str], seed: int,
                 delay: float = DEFAULT_DELAY, hint: str = DEFAULT_HINT,
                 records_dir: str | None = None, labels: list[str] | None = None) -> None:
        n = game.num_players()
        self.id = uuid.uuid4().hex
        self.game, self.seat, self.seed, self.delay = game, seat, seed, delay
        self.specs = list(specs)
        self.specs[seat] = HUMAN
        self.labels = list(labels) if labels is not None else list(self.specs)
        self.labels[seat] = HUMAN
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
        self.gen = 0  # bumped by undo and pause: agent moves thought before it are dropped
        self.forfeit: dict[str, Any] | None = None
        self.record: records.GameRecord | None = None
        self.record_path: str | None = None
        self.listeners: list[Listener] = []
        self.task: asyncio.Task | None = None
        self.thinking: dict[Any, asyncio.Future] = {}  # agent -> its step under way
        self.touched = time.monotonic()
        self._turn_t0 = time.perf_counter()
        self._sent: tuple = ()  # what the pages were last sent (see broadcast)

    # -- reading -------------------------------------------------------------------------------
    def over(self) -> bool:
        return self.record is not None

    def ply(self) -> int:
        """How many actions were applied (chance included), the number of the last move in
        the log, the header and the record alike: a move names the ply it answers, so one
        sent before an undo or an agent's move is refused as stale."""
        return len(self.actions)

    def update(self) -> dict[str, Any]:
        """The ``state`` message: the human's view only, until the game is over."""
        to_move = self.state.current_player()
        msg: dict[str, Any] = {
            "type": "state", "game": self.id, "game_id": self.game.game_id,
            "name": registry.game(self.game.game_id).name, "players": self.game.num_players(),
            "seat": self.seat, "agents": list(self.labels), "ply": self.ply(),
            "to_move": ("over" if self.over() else "chance" if to_move == romecore.CHANCE else to_move),
            "can_undo": bool(self._points) and not self.over(), "log": list(self.log),
            "over": self.over(), "result": None,
        }
        msg.update(human_view(self.state, self.seat))
        if self.over():
            msg["moves"] = []
            msg["svg"] = render_svg(self.state, None)  # every hidden card, now the game is over
            msg["seed"] = self.seed  # only now: the seed deals every card still hidden
            msg["result"] = self._result()
        return msg

    def _result(self) -> dict[str, Any]:
        """The end explained: scores and their breakdown, why the game ended, the winners
        and whether a tie on points was broken."""
        rec = self.record
        assert rec is not None
        n = self.game.num_players()
        scores = list(rec.scores)
        winners = [p for p in range(n) if rec.returns[p] == max(rec.returns) and rec.returns[p] > 0]
        top = [p for p in range(n) if scores[p] == max(scores)]
        term = rec.termination()
        spec = registry.game(self.game.game_id)
        tie_break = None
        if term["kind"] == "normal" and len(top) > 1 and len(winners) < len(top):
            tie_break = f"tied on {scores[top[0]]} points; broken by {spec.tie_break or 'the rules'}"
        try:
            breakdown = [dict(self.state.score_breakdown(p)) for p in range(n)]
        except Exception:  # a breakdown bug must not hide the result
            breakdown = [{"total": s} for s in scores]
        return {"returns": list(rec.returns), "scores": scores, "termination": term,
                "record": f"/api/record/{self.id}", "winners": winners, "tie_break": tie_break,
                "breakdown": breakdown, "score_line": score_line(scores, self.seat),
                "ends_when": spec.ends_when if term["kind"] == "normal" else ""}

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

    async def _think(self, agent: Any, view: romecore.State) -> int:
        """``agent.step(view)`` in a worker thread, registered so :meth:`stop_thinking`
        can end it."""
        fut = asyncio.get_running_loop().run_in_executor(None, agent.step, view)
        self.thinking[agent] = fut
        try:
            return await fut
        finally:
            if self.thinking.get(agent) is fut:
                del self.thinking[agent]

    async def stop_thinking(self) -> None:
        """Stops every search of this game under way, and waits until they have ended (a
        search ends at its next look at its budget; an agent without ``stop`` is bounded
        by the server's think limit)."""
        while self.thinking:
            for agent, fut in list(self.thinking.items()):
                if fut.done():
                    self.thinking.pop(agent, None)
                elif hasattr(agent, "stop"):
                    agent.stop()
            await asyncio.sleep(_STOP_POLL)

    async def pause(self) -> None:
        """The last page left: no agent thinks for nobody (a join resumes the game)."""
        async with self.lock:
            self.gen += 1
        await self.stop_thinking()

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
                if not self.listeners:
                    return  # paused: nobody watches; a join kicks the game again
                gen, agent = self.gen, self.agents[player]
                view = state.resample(player, view_seed(self.seed, state.move_number()))
            t0 = time.perf_counter()
            fault = None
            try:
                action = await self._think(agent, view)
            except Exception as e:
                action = None
                fault = "raised " + traceback.format_exception_only(type(e), e)[-1].strip()
            spent = time.perf_counter() - t0
            if gen == self.gen and self.delay > spent:
                await asyncio.sleep(self.delay - spent)
            async with self.lock:
                if gen != self.gen or self.over():
                    continue  # undone, paused or ended meanwhile: this move answers a position gone
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
        keys = _targets(state, action) if seen is not None and player >= 0 and seen == text else []
        state.apply_action(action)
        self.actions.append(action)
        self.players.append(player)
        self.texts.append(text)
        if seen is not None:
            who = "chance" if player == records.CHANCE_PLAYER else player
            entry: dict[str, Any] = {"ply": len(self.actions), "player": who, "text": seen}
            if keys:
                entry["keys"] = keys
            rnd = _round(state, self.seat)
            if rnd is not None:
                entry["round"] = rnd
            self.log.append(entry)
        if state.is_terminal():
            self._finish()

    def _finish(self) -> None:
        """The game is over (played out, resigned or forfeited): its record, written to the
        records folder when there is one.  Nothing changes it after this."""
        rec = new_record(self.game, self.specs, self.seed, None)
        rec.labels = list(self.labels)
        rec.actions, rec.players, rec.texts = list(self.actions), list(self.players), list(self.texts)
        rec.think_seconds, rec.moves = list(self.think), list(self.moves)
        n = self.game.num_players()
        if self.forfeit is not None and self.forfeit.get("kind") == records.RESIGNED:
            rec.resign(self.forfeit["seat"])
        elif self.forfeit is not None:
            rec.forfeit = dict(self.forfeit)
            rec.returns = records.forfeit_returns(n, self.forfeit["seat"])
        else:
            rec.returns = self.state.returns()
        rec.scores = self.state.scores()
        self.record = rec
        self._points.clear()
        if self.records_dir is not None:
            path = os.path.join(self.records_dir, f"{self.game.game_id}-{self.id}.jsonl")
            try:
                os.makedirs(self.records_dir, exist_ok=True)
                records.write(path, [rec])
                self.record_path = path
            except OSError as e:
                self.log.append({"ply": self.ply(), "player": "server", "text": f"record not saved: {e}"})

    # -- what the human asks -------------------------------------------------------------------
    def _not_over(self) -> None:
        if self.over():
            raise SessionError("game_over", "the game is over: start a new one")

    def _human_turn(self, ply: Any) -> None:
        self._not_over()
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
        state unchanged when over, out of turn, stale or illegal."""
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
        the agents restarted; an agent still thinking is stopped and its move dropped.
        Refused once the game is over."""
        async with self.lock:
            self._not_over()
            if not self._points:
                raise SessionError("bad_request", "nothing to undo: you have not moved yet")
            state, n_actions, n_log, think, moves = self._points.pop()
            self.gen += 1
            self.state = state
            del self.actions[n_actions:], self.players[n_actions:], self.texts[n_actions:]
            del self.log[n_log:]
            self.think, self.moves = think, moves
        await self.stop_thinking()
        async with self.lock:
            for agent in self.agents:
                restart = getattr(agent, "restart", None)
                if restart is not None:
                    restart()
            self._turn_t0 = time.perf_counter()
            self.touched = time.monotonic()
            await self.broadcast()
        self.kick()

    async def resign(self) -> None:
        """The human gives up: the game ends as their loss, and every search stops."""
        async with self.lock:
            self._not_over()
            self.forfeit = {"seat": self.seat, "kind": records.RESIGNED}
            self.gen += 1
            self._finish()
            await self.broadcast()
        await self.stop_thinking()

    async def hint(self, ply: Any = None) -> dict[str, Any]:
        """What the hint agent would play, judged from a world resampled from the human's
        knowledge only (as any agent is); one hint at a time."""
        async with self.lock:
            self._human_turn(ply)
            if self._hinter is not None and self._hinter in self.thinking:
                raise SessionError("busy", "a hint is being thought already")
            view = self.state.resample(self.seat, view_seed(self.seed ^ 0x5EED, self.ply()))
            at = self.ply()
            if self._hinter is None:
                self._hinter = romecore.make_agent(self.hint_spec, game=self.game, seed=self.seat + 1)
        action = await self._think(self._hinter, view)
        if self.over() or self.ply() != at:
            raise SessionError("stale", "the position changed while the hint was thought")
        return {"type": "hint", "game": self.id, "ply": at, "action": action,
                "text": view.action_to_string(action), "agent": self.hint_spec,
                "targets": _targets(view, action)}


# -- every game on the server ------------------------------------------------------------------
class Sessions:
    """The server's games by id, at most ``limits.max_games`` (finished and idle ones make
    room); ``hint`` is the hint agent's spec (bounded like any agent)."""

    def __init__(self, records_dir: str | None = None, hint: str = DEFAULT_HINT,
                 delay: float = DEFAULT_DELAY, limits: Limits | None = None,
                 idle_seconds: float = 3600.0) -> None:
        self.records_dir = records_dir
        self.limits = limits or Limits()
        self.hint = bound_spec(hint, self.limits.max_think)
        self.delay = delay
        self.idle_seconds = idle_seconds
        self.games: dict[str, Session] = {}
        self.background: set[asyncio.Task] = set()  # pauses under way (kept from the collector)

    @property
    def max_games(self) -> int:
        return self.limits.max_games

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
            if now - s.touched > self.idle_seconds and not s.listeners and not s.thinking:
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
        if not isinstance(game_id, str) or len(game_id) > 100:
            raise SessionError("bad_request", "'game_id' must be a game id string")
        options = msg.get("options", {})
        if not isinstance(options, dict) or len(options) > 32 or not all(
                isinstance(k, str) and isinstance(v, (str, int, bool)) for k, v in options.items()):
            raise SessionError("bad_request", "'options' must map option names to strings, numbers or booleans")
        players = _int(msg, "players", None, 1, 64)
        opts = dict(options) | ({"players": players} if players is not None else {})
        game = romecore.load_game(game_id, **opts)  # UnknownGameError, GameOptionError
        n = game.num_players()
        seat = _int(msg, "seat", 0, 0, n - 1)
        seed = _int(msg, "seed", None)
        if seed is None:
            seed = random.randrange(2**32)
        agents = msg.get("agents", [self.default_opponent(game_id)])
        if isinstance(agents, str):
            agents = [agents]
        if not isinstance(agents, list) or not 0 < len(agents) <= n:
            raise SessionError("bad_request", "'agents' must be a non-empty list of levels or agent specs")
        try:
            chosen = [resolve_opponent(game_id, a, self.limits) for a in agents]
        except AgentSpecError as e:
            raise SessionError("bad_request", f"'agents': {e}") from None
        labels, specs = [HUMAN] * n, [HUMAN] * n
        seats = list(range(n)) if len(chosen) == n else [p for p in range(n) if p != seat]
        for i, p in enumerate(seats):  # one per other seat, in seat order, cycled
            labels[p], specs[p] = chosen[i % len(chosen)]
        delay = msg.get("delay", self.delay)
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= MAX_DELAY:
            raise SessionError("bad_request", f"'delay' must be seconds in 0..{MAX_DELAY:g}")
        self._make_room()
        session = Session(game, seat, specs, seed, float(delay), self.hint, self.records_dir, labels)
        self.games[session.id] = session
        return session

    def default_opponent(self, game_id: str) -> str:
        """The level a page gets when it names none: the game's middle level."""
        levels = list(levels_of(game_id))
        return levels[len(levels) // 2] if levels else DEFAULT_OPPONENT
