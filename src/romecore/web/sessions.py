"""The web app's tables: one :class:`Session` per game, holding the true state on the server.

A table has seats: human seats (each taken with its own secret token, the host's at
creation, the others through invitation links) and AI seats (a level or a bounded spec).
Like the shared game loop (:func:`romecore.match.play_game`), every agent is handed only
``state.resample(player, view_seed(seed, move))``; chance is drawn by the state's seeded
dealer; an agent is reseeded before each move from the table's seed and the move number, so
a restarted server plays the same AI moves as one that never stopped.  What leaves a session
for a page is that page's view: a seat's picture, legal moves and log as that seat perceived
it, or, for a spectator, the public view (:data:`romecore.picture.PUBLIC`) -- until the game
is over, when everything is shown.

Every request that acts for a seat carries the seat's token; a token never acts for another
seat.  A finished game stays finished: move, hint, undo and resign are refused, and its
record never changes.  Hints and undo are table settings, off where more than one human
sits, and an undo never crosses another human's move.  An optional turn clock lets an AI at
a chosen level move for a human whose time ran out, and the log says so.

Every accepted move is written to the table's :class:`~romecore.web.storage.Storage` with
the position it produced before the pages learn of it, so a restarted server (even after
``kill -9``) finds every table at its last accepted move (:meth:`Sessions.get` reloads it).
A person's move is settled first: the chance plies it triggers are dealt at once, and the
move and those plies are written in one transaction (one disk sync), then sent in one
``state`` message.

Agents and hints think in worker threads (the searches run in C without the GIL), each
bounded by the server's :class:`~romecore.web.limits.Limits`; a search still running when its
game ends, is resigned, undone past or left by its last page is stopped
(:meth:`SearchAgent.stop`).  Concurrency: all sessions live in one asyncio event loop; each
has an ``asyncio.Lock`` held while its state is read or changed.  An undo (or a pause) bumps
the session's generation, so a move an agent was still thinking about is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import time
import traceback
import uuid
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import romecore
from romecore import records
from romecore.core.state import HIDDEN
from romecore.errors import AgentSpecError, IllegalActionError, InvalidArgumentError
from romecore.match import new_record, view_seed
from romecore.picture import PUBLIC, action_targets, to_svg
from romecore.plugins import registry
from romecore.web.limits import Limits, bound_spec, levels_of, resolve_opponent
from romecore.web.storage import (
    AI,
    MemoryStorage,
    NewMove,
    Seat,
    Storage,
    StorageError,
    TableRow,
    UnknownTable,
    hash_token,
    new_token,
    token_matches,
)
from romecore.web.workers import Workers

__all__ = ["Session", "Sessions", "SessionError", "human_view", "render_svg", "HUMAN",
           "DEFAULT_OPPONENT", "DEFAULT_HINT", "DEFAULT_DELAY", "DEFAULT_PICTURE_WORKERS"]

#: The spec a record gives a human's seat (as ``romecore play`` does), and a human seat's kind.
HUMAN = "human"
#: The opponent when a page names none and the game has no levels.
DEFAULT_OPPONENT = "ismcts:time=0.5"
#: The agent that answers the hint button, unless the server names another.
DEFAULT_HINT = "ismcts:time=0.5"

#: Seconds an agent's move is shown at the least, so a person can follow the AI's moves.
DEFAULT_DELAY = 0.4
MAX_DELAY = 10.0
MAX_CLOCK = 24 * 3600.0
MAX_SEED = 2**63 - 1
_GAME_ID = re.compile(r"[0-9a-f]{32}\Z")
#: ``serve --picture-workers``'s default: one worker from 2 cores on.  A worker costs some CPU
#: (the position sent, the picture sent back) but frees the event loop, the bottleneck of
#: issue 55's 100 tables on 2 cores (bench/results/web-rooms-load.md).
DEFAULT_PICTURE_WORKERS = 1 if (os.cpu_count() or 1) >= 2 else 0
#: Threads that run storage calls: writes waiting at once are committed together, so up to
#: this many tables share a disk sync.
STORAGE_THREADS = 16
#: How often a search that must end is asked to stop (seconds).
_STOP_POLL = 0.01

log = logging.getLogger("romecore.web")


class SessionError(InvalidArgumentError):
    """A request the server refuses (stale game id, out of turn, malformed field); ``code``
    names the kind for the page: ``bad_request``, ``unknown_game``, ``not_your_turn``,
    ``stale``, ``game_over``, ``full``, ``busy``, ``forbidden`` (no or a wrong seat token,
    a spectator acting), ``taken`` (an invitation already used), ``off`` (hints or undo
    are off at this table)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


Listener = Callable[[dict[str, Any]], Awaitable[None]]


# -- what a page may see ---------------------------------------------------------------------
def render_svg(state: romecore.State, seat: int | str | None) -> str:
    """The seat's picture (None: the whole truth, for a finished game; PUBLIC: what every
    player may see); if the game's renderer fails, a plain SVG that shows nothing hidden,
    so a renderer bug never ends a game."""
    try:
        return to_svg(state, seat)
    except Exception as e:  # a renderer bug (or no public view): a text picture instead
        if seat == PUBLIC:
            text = f"{state.game.game_id}: move {state.move_number()}"
        else:
            text = state.render(int(seat)) if seat is not None else str(state)
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
    """The state-dependent part of a seat's update: its picture and, when the seat is to
    move, its legal moves with their texts and board keys.  Depends only on what the seat
    knows (the web tests check it across resampled worlds)."""
    moves = []
    if state.current_player() == seat:
        moves = [{"id": a, "text": state.action_to_string(a), "targets": _targets(state, a)}
                 for a in state.legal_actions()]
    return {"svg": render_svg(state, seat), "moves": moves}


# -- pictures in other processes --------------------------------------------------------------
#: A game as a picture worker loads it: (game id, players, its other options, sorted).
GameKey = tuple[str, int, tuple[tuple[str, Any], ...]]
_WORKER_GAMES: dict[GameKey, romecore.Game] = {}


def game_key(game: romecore.Game) -> GameKey:
    """What a worker process needs to load ``game`` again."""
    options = tuple(sorted((k, v) for k, v in game.options.items() if k != "players"))
    return game.game_id, game.num_players(), options


def worker_views(key: GameKey, snapshot: bytes, seats: Sequence[int | str]) -> list[tuple[dict[str, Any], Cut]]:
    """In a picture worker: each seat's :func:`human_view` (or, for ``PUBLIC``, a
    spectator's picture) of the position ``snapshot`` (``state.serialize()``) of the game
    ``key``, as its moves (``{"moves": [...]}``) and its picture cut for deltas
    (:func:`svg_pieces`: the picture is the pieces joined by :data:`SVG_CUT`).  The same
    function of the same position as in the server's loop, so the pages get the same bytes;
    only the core that draws them differs.  One task for all the viewers of a move: the
    position crosses to the worker and is loaded once."""
    game = _WORKER_GAMES.get(key)
    if game is None:
        game = _WORKER_GAMES[key] = romecore.load_game(key[0], players=key[1], **dict(key[2]))
    state = game.deserialize(snapshot)
    out = []
    for seat in seats:
        view: dict[str, Any] = ({"svg": render_svg(state, PUBLIC), "moves": []} if seat == PUBLIC
                                else human_view(state, int(seat)))
        out.append(({"moves": view["moves"]}, svg_pieces(view["svg"])))
    return out


def warm_worker() -> int:
    """Loads every installed game in a fresh worker (so no page waits for the imports)."""
    for gid in registry.games():
        romecore.load_game(gid)
    return os.getpid()


#: Where a picture is cut into the pieces an ``svg_parts`` delta reuses: before each group.
SVG_CUT = "<g "


#: A picture cut for deltas: its pieces and each piece's fingerprint (see :func:`svg_pieces`).
Cut = tuple[list[str], list[int]]


def svg_pieces(svg: str) -> Cut:
    """A picture cut where a delta may reuse it: its pieces, and a fingerprint of each (its
    length, CRC-32 and Adler-32 as one int, the same in every process), which is what
    :func:`svg_delta` compares.  Made where the picture is drawn (a picture worker), so the
    server's loop neither cuts nor hashes the text."""
    pieces = svg.split(SVG_CUT)
    prints = []
    for piece in pieces:
        b = piece.encode()
        prints.append(len(b) << 64 | zlib.crc32(b) << 32 | zlib.adler32(b))
    return pieces, prints


def svg_delta(cut: Cut, held: Mapping[int, int]) -> list[Any]:
    """The picture ``cut`` (:func:`svg_pieces`) as a page can rebuild it from the pieces of
    the picture it holds (``held``: a piece's fingerprint -> its index there): a new piece
    as its text, a run of held ones as ``[first index, count]``.

    >>> held = held_pieces(svg_pieces('<svg><g a"/><g b"/></svg>'))
    >>> svg_delta(svg_pieces('<svg><g a"/><g c"/><g b"/></svg>'), held)
    [[0, 2], 'c"/>', [2, 1]]
    """
    out: list[Any] = []
    run: list[int] | None = None
    for piece, mark in zip(*cut):
        i = held.get(mark)
        if i is None:
            out.append(piece)
            run = None
        elif run is not None and i == run[0] + run[1]:
            run[1] += 1
        else:
            run = [i, 1]
            out.append(run)
    return out


def held_pieces(cut: Cut) -> dict[int, int]:
    """What a page that was sent the picture ``cut`` holds, for :func:`svg_delta`."""
    return {mark: i for i, mark in enumerate(cut[1])}


def _seen(state: romecore.State, seat: int, player: int, action: int) -> str | None:
    """The log line ``seat`` sees for ``action`` about to be applied to ``state``: the
    move's text when the seat sees it, a placeholder for another player's hidden move, None
    for a hidden chance outcome (a deal to someone else says nothing)."""
    if player == seat:
        return state.action_to_string(action)
    if state.observe_action(seat, action) & HIDDEN:
        return None if player == records.CHANCE_PLAYER else "a move you cannot see"
    return state.action_to_string(action)


def _round(state: romecore.State) -> int | None:
    """The round the game counts (public: every seat's observation says it), for grouping
    the log; None where the game counts none (its observation has no ``round``, which is
    learnt once per game: a move's log entry then costs no observation)."""
    game_id = state.game.game_id
    if _COUNTS_ROUNDS.get(game_id) is False:
        return None
    r = state.observation(0).get("round")
    counted = isinstance(r, int) and not isinstance(r, bool)
    if game_id not in _COUNTS_ROUNDS:
        _COUNTS_ROUNDS[game_id] = counted
    return r if counted else None


#: Whether a game's observations carry a ``round`` (a fixed part of each game's schema).
_COUNTS_ROUNDS: dict[str, bool] = {}


def score_line(scores: list[Any], seat: int | None) -> str:
    """Scores as players say them, the seat's first: ``87–96`` (``87–96–70``).

    >>> score_line([96, 87], 1)
    '87–96'
    """
    first = seat if seat is not None else 0
    return "–".join(str(s) for s in [scores[first], *scores[:first], *scores[first + 1:]])


# -- checking what the page sends ------------------------------------------------------------
def _int(d: Mapping[str, Any], key: str, default: Any = None, lo: int = 0, hi: int = MAX_SEED) -> Any:
    v = d.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise SessionError("bad_request", f"{key!r} must be an integer in {lo}..{hi}, got {repr(v)[:40]}")
    return v


def _bool(d: Mapping[str, Any], key: str, default: bool) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise SessionError("bad_request", f"{key!r} must be true or false, got {repr(v)[:40]}")
    return v


def check_game_id(v: Any) -> str:
    if not isinstance(v, str) or not _GAME_ID.match(v):
        raise SessionError("bad_request", f"'game' must be a game id (32 hex digits), got {repr(v)[:40]}")
    return v


def _log_failure(task: asyncio.Task) -> None:
    """A table's loop that died is a bug of ours: say so in the server's log."""
    if not task.cancelled() and task.exception() is not None:
        log.error("a table's game loop failed", exc_info=task.exception())


# -- one table ---------------------------------------------------------------------------------
class Session:
    """One table: the true state, its seats (``storage.Seat``: human or AI), its settings
    (``hints``, ``undo``, ``clock`` seconds a human move, ``clock_level``), and the storage
    its moves are written to."""

    def __init__(self, game: romecore.Game, seats: list[Seat], seed: int, delay: float = DEFAULT_DELAY,
                 hint: str = DEFAULT_HINT, records_dir: str | None = None,
                 settings: Mapping[str, Any] | None = None, storage: Storage | None = None,
                 table_id: str | None = None, writer: Executor | None = None,
                 pictures: Workers | None = None) -> None:
        n = game.num_players()
        self.id = table_id or uuid.uuid4().hex
        self.game, self.seed, self.delay = game, seed, delay
        self.seats = seats
        self.settings: dict[str, Any] = dict(settings or {})
        self.specs = [s.spec if s.kind == AI else HUMAN for s in seats]
        self.labels = [s.label if s.kind == AI else (s.name or HUMAN) for s in seats]
        self.agents: list[Any] = [romecore.make_agent(s.spec, game=game, seed=seed * 1000 + p) if s.kind == AI
                                  else None for p, s in enumerate(seats)]
        self.hint_spec = hint
        self._hinter: Any = None
        self.records_dir = records_dir
        self.storage: Storage = storage if storage is not None else MemoryStorage()
        self.writer = writer  # the threads storage runs in (None: asyncio's default executor)
        self.pictures = pictures  # the processes that draw the pages' pictures (None: this one)
        self._unsaved: list[NewMove] = []  # applied, not yet written: written before anyone hears of them
        self.state = game.new_initial_state(seed=seed)
        self.actions: list[int] = []
        self.players: list[int] = []
        self.texts: list[str] = []
        self.think = [0.0] * n
        self.moves = [0] * n
        self.events: list[dict[str, Any]] = []  # one per action: who, the true text, what each seat saw
        self._points: list[tuple] = []  # undo points: (seat, state, actions, events, think, moves)
        self.lock = asyncio.Lock()
        self.gen = 0  # bumped by undo and pause: agent moves thought before it are dropped
        self.forfeit: dict[str, Any] | None = None
        self.record: records.GameRecord | None = None
        self.record_path: str | None = None
        self.listeners: dict[Listener, tuple[int | None, str | None]] = {}  # page -> (seat or None, token)
        self.task: asyncio.Task | None = None
        self.clock_task: asyncio.Task | None = None
        self.thinking: dict[Any, asyncio.Future] = {}  # agent -> its step under way
        self.touched = time.monotonic()
        self._turn_t0 = time.perf_counter()
        self._sent: tuple = ()  # what the pages were last sent (see broadcast)
        self.log_epoch = 0  # bumped when the log loses entries (undo): pages then get it whole
        self._log_sent: dict[Listener, tuple[int, int]] = {}  # page -> (epoch, log entries it holds)
        self.deltas: set[Listener] = set()  # pages that take the picture as a delta (svg_parts)
        self._svg_held: dict[Listener, dict[int, int]] = {}  # such a page -> its picture's pieces
        self._log_made: dict[int | None, tuple[int, int, list[dict[str, Any]]]] = {}  # see _log
        self._truth: str | None = None  # the finished game's picture (see _truth_svg)
        # (ply, gen, seat, action -> board keys) of the moves last sent to the seat to move
        self._mover_keys: tuple[int, int, int, dict[int, list[str]]] | None = None

    # -- who is who ----------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s.kind == HUMAN]

    @property
    def seat(self) -> int:
        """The first human seat (the host's, at a table made by one person)."""
        return self.humans[0]

    def seat_of(self, token: Any) -> int:
        """The seat ``token`` acts for; ``forbidden`` for a missing or wrong token."""
        if token is None:
            raise SessionError("forbidden", "this request acts for a seat: it needs the seat's token")
        for p in self.humans:
            if token_matches(self.seats[p].token_hash, token):
                return p
        raise SessionError("forbidden", "no seat of this table has that token")

    async def claim(self, invite: Any) -> tuple[int, str]:
        """Takes the open seat an invitation names; returns (seat, its new token).  The
        write runs in storage's threads, not in the loop (it waits for a disk sync); of two
        people following one invitation at once, storage lets one win."""
        invites = self.settings.get("invites", {})
        for key, digest in invites.items():
            if token_matches(digest, invite):
                p = int(key)
                if self.seats[p].token_hash is not None:
                    raise SessionError("taken", f"seat {p} is taken already: ask its player for the link "
                                                "with their token, or join as a spectator")
                token = new_token()
                try:
                    await self._store(self.storage.take_seat, self.id, p, hash_token(token))
                except StorageError as e:
                    raise SessionError("taken", str(e)) from None
                self.seats[p].token_hash = hash_token(token)
                return p, token
        raise SessionError("forbidden", "that invitation is not for this table")

    # -- reading -------------------------------------------------------------------------------
    def over(self) -> bool:
        return self.record is not None

    def ply(self) -> int:
        """How many actions were applied (chance included), the number of the last move in
        the log, the header and the record alike: a move names the ply it answers, so one
        sent before an undo or an agent's move is refused as stale."""
        return len(self.actions)

    def _log(self, viewer: int | None) -> list[dict[str, Any]]:
        """The log as ``viewer`` perceived it (None: what every seat saw).  Events are only
        appended, or cut by an undo (which bumps ``log_epoch``), so each viewer's entries are
        kept and only the events since the last call are read: a move costs the same early
        and late in a game."""
        epoch, done, made = self._log_made.get(viewer, (-1, 0, []))
        if epoch != self.log_epoch or done > len(self.events):
            done, made = 0, []
        for e in self.events[done:]:
            text = e["seen"][viewer] if viewer is not None else e["public"]
            if text is None:
                continue
            entry: dict[str, Any] = {"ply": e["ply"], "player": e["player"], "text": text}
            if text == e["text"] and e["keys"]:
                entry["keys"] = e["keys"]
            if e["round"] is not None:
                entry["round"] = e["round"]
            made.append(entry)
        self._log_made[viewer] = (self.log_epoch, len(self.events), made)
        return list(made)

    def update(self, viewer: int | None = None, token: str | None = None,
               view: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for a seat (its view only) or a spectator (the public view),
        until the game is over, when every page sees the whole truth.  ``view``: the seat's
        picture and moves drawn already (by :func:`worker_views`)."""
        to_move = self.state.current_player()
        msg: dict[str, Any] = {
            "type": "state", "game": self.id, "game_id": self.game.game_id,
            "name": registry.game(self.game.game_id).name, "players": self.game.num_players(),
            "seat": viewer, "agents": list(self.labels), "humans": self.humans, "ply": self.ply(),
            "to_move": ("over" if self.over() else "chance" if to_move == romecore.CHANCE else to_move),
            "can_undo": viewer is not None and self._undo_point(viewer) is not None,
            "hints": self.settings.get("hints", False), "log": self._log(viewer),
            "over": self.over(), "result": None, "clock": self.settings.get("clock", 0),
            "seats_taken": [s.kind == AI or s.token_hash is not None for s in self.seats],
        }
        if token is not None:
            msg["token"] = token
        if self.over():
            msg["moves"] = []
            msg["svg"] = self._truth_svg()  # every hidden card, now the game is over
            msg["seed"] = self.seed  # only now: the seed deals every card still hidden
            msg["result"] = self._result(viewer)
        elif view is not None:
            msg.update(view)
        elif viewer is not None:
            msg.update(human_view(self.state, viewer))
        else:
            msg.update({"svg": render_svg(self.state, PUBLIC), "moves": []})
        if msg["moves"] and viewer == to_move:
            self._mover_keys = (self.ply(), self.gen, viewer, {m["id"]: m["targets"] for m in msg["moves"]})
        return msg

    def _truth_svg(self) -> str:
        """The finished game's picture, every hidden card shown: the same for every page,
        so drawn once (an undo cannot reopen a finished game)."""
        if self._truth is None:
            self._truth = render_svg(self.state, None)
        return self._truth

    def _result(self, viewer: int | None) -> dict[str, Any]:
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
                "breakdown": breakdown, "score_line": score_line(scores, viewer),
                "ends_when": spec.ends_when if term["kind"] == "normal" else ""}

    # -- talking to the pages ------------------------------------------------------------------
    async def broadcast(self) -> None:
        """Sends each page its view, unless the pages have this position already.  The log
        goes as a delta: ``log`` holds the entries after the first ``log_from``, which the page
        already has from this server's earlier messages (every entry, ``log_from`` 0, the first
        time and after an undo); a page that finds itself short of them asks for the whole
        state again with a ``join``.  So does the picture, for a page that asked for it
        (``svg_delta`` in its ``new`` or ``join``): ``svg_parts`` instead of ``svg``, the
        pieces of the picture that changed and runs of those the page holds (:func:`svg_delta`).
        The pictures are drawn while the moves are written (a disk sync is a wait, not
        work), and nothing is sent before the write is done."""
        key = (self.ply(), self.gen, self.over())
        if key == self._sent:
            await self._save()
            return
        (views, cuts), _ = await asyncio.gather(self._views({viewer for viewer, _ in self.listeners.values()}),
                                                self._save())
        self._sent = key
        sent, held = self._log_sent, self._svg_held
        for page in [p for p in sent if p not in self.listeners]:
            del sent[page]
        for page in [p for p in held if p not in self.listeners]:
            del held[page]
        self.deltas &= set(self.listeners)
        holds: dict[int | None, dict[int, int]] = {}  # what a page holds once sent a viewer's picture
        for send, (viewer, token) in list(self.listeners.items()):
            if viewer not in views:  # a page that came while the pictures were drawn
                views[viewer] = self.update(viewer)
            msg = views[viewer]
            full = msg["log"]
            epoch, have = sent.get(send, (-1, 0))
            start = have if epoch == self.log_epoch and have <= len(full) else 0
            msg = {**msg, "log": full[start:], "log_from": start} if start else dict(msg)
            if token is not None:
                msg["token"] = token
            cut = cuts.get(viewer)
            if send in self.deltas:
                if cut is None:
                    cut = cuts[viewer] = svg_pieces(msg["svg"])
                if send in held:
                    msg["svg_parts"] = svg_delta(cut, held[send])
                    msg.pop("svg", None)
                if viewer not in holds:
                    holds[viewer] = held_pieces(cut)
                held[send] = holds[viewer]  # before the send: a join's answer may go between
            if "svg" not in msg and "svg_parts" not in msg and cut is not None:
                # joined once a viewer: a viewer's other pages (spectators) copy it
                msg["svg"] = views[viewer]["svg"] = SVG_CUT.join(cut[0])
            try:
                await send(msg)
                sent[send] = (self.log_epoch, len(full))
            except Exception:  # a closed page: forget it
                self.listeners.pop(send, None)
                sent.pop(send, None)
                held.pop(send, None)

    def sent_whole(self, send: Listener, msg: Mapping[str, Any]) -> None:
        """``msg``, a whole ``state`` message (the answer to a ``new`` or a ``join``), is
        about to go to the page ``send``: its picture is the one the page's next delta
        builds on."""
        if send in self.deltas:
            self._svg_held[send] = held_pieces(svg_pieces(msg["svg"]))

    async def _views(self, viewers: set[int | None]) -> tuple[dict[int | None, dict[str, Any]],
                                                              dict[int | None, Cut]]:
        """The ``state`` message of each viewer, and the pictures that come cut for deltas
        (:func:`svg_pieces`; such a message has no ``svg`` yet).  With picture workers
        (``self.pictures``), the pictures and moves of a game under way are drawn there, all
        viewers in one task, while this loop serves other tables; if the workers fail (a
        game they cannot load, a pool stopped), this process draws the views."""
        drawn: dict[int | None, Any] = {}
        if self.pictures is not None and not self.over() and viewers:
            order = list(viewers)
            try:
                got = await self.pictures.call(worker_views, game_key(self.game), self.state.serialize(),
                                               [PUBLIC if v is None else v for v in order])
                drawn = dict(zip(order, got))
            except Exception:  # the workers were stopped (or one died, or failed): draw here
                log.warning("picture workers unavailable: drawing in the server's loop", exc_info=True)
        views = {v: self.update(v, view=drawn[v][0] if v in drawn else None) for v in viewers}
        return views, {v: d[1] for v, d in drawn.items()}

    def kick(self) -> None:
        """Lets the agents (and chance) move until a human is to move or the game ends."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
            self.task.add_done_callback(_log_failure)

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
            self._cancel_clock()
        await self.stop_thinking()

    def _reseed(self, agent: Any, player: int) -> None:
        """Seeds the agent from the table and the move, so its move does not depend on
        what it did before (a restarted server plays the same)."""
        try:
            agent.reseed(view_seed(self.seed * 1000 + player, self.ply()))
        except AttributeError:  # an agent with no seed to set (random's own stream goes on)
            pass

    async def _run(self) -> None:
        while True:
            async with self.lock:
                if self.over():  # perhaps ended by chance: the pages learn it (once)
                    await self.broadcast()
                    return
                state = self.state
                player = state.current_player()
                if player == romecore.TERMINAL:
                    await self._finish()
                    await self.broadcast()
                    return
                if player == romecore.CHANCE:
                    await self._apply(records.CHANCE_PLAYER, state.sample_chance())
                    continue
                if self.seats[player].kind == HUMAN:
                    self._turn_t0 = time.perf_counter()
                    self._start_clock(player)
                    await self.broadcast()
                    return
                if not self.listeners:
                    await self._save()
                    return  # paused: nobody watches; a join kicks the game again
                gen, agent = self.gen, self.agents[player]
                view = state.resample(player, view_seed(self.seed, state.move_number()))
                self._reseed(agent, player)
                await self._save()
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
                if fault is None and (action is None or not self.state.is_legal(action)):
                    fault = f"returned {repr(action)[:40]}, which is not legal"
                if fault is not None or action is None:
                    self.forfeit = {"seat": player, "reason": f"player {player} ({self.specs[player]}) {fault}"}
                    await self._finish()
                else:
                    await self._apply(player, action)
                await self.broadcast()

    def _play(self, player: int, action: int) -> str:
        """Applies an action and logs it as each seat (and a spectator) saw it; returns its
        text.  Shared by play and by the replay of a stored table."""
        state = self.state
        text = state.action_to_string(action)
        seen = [_seen(state, q, player, action) for q in range(self.game.num_players())]
        public = text if all(t == text for t in seen) else (None if player < 0 else "a hidden move")
        keys = self._keys_sent(player, action)
        if keys is None:
            keys = _targets(state, action) if player >= 0 else []
        state.apply_action(action)
        self.actions.append(action)
        self.players.append(player)
        self.texts.append(text)
        self.events.append({"ply": len(self.actions), "player": "chance" if player < 0 else player, "text": text,
                            "keys": keys, "seen": seen, "public": public, "round": _round(state)})
        return text

    def _keys_sent(self, player: int, action: int) -> list[str] | None:
        """The board keys of ``action`` as the mover's page was sent them with its moves at
        this position (so the log does not work them out again), or None if not sent."""
        sent = self._mover_keys
        if sent is None or sent[:3] != (self.ply(), self.gen, player):
            return None
        keys = sent[3].get(action)
        return None if keys is None else list(keys)

    def _note(self, text: str, public: bool = True) -> None:
        """A line of the server's in the log (every seat sees it; spectators too if public)."""
        self.events.append({"ply": self.ply(), "player": "server", "text": text, "keys": [],
                            "seen": [text] * self.game.num_players(), "public": text if public else None,
                            "round": None})

    async def _apply(self, player: int, action: int, note: str | None = None) -> None:
        """Applies an action and logs it; it is written with the position it produced
        (:meth:`_save`) before anyone hears of it."""
        text = self._play(player, action)
        if note is not None:
            self._note(note)
        self._unsaved.append((player, action, text, self.state.serialize()))
        if self.state.is_terminal():
            await self._finish()

    async def _deal(self) -> None:
        """Plays the chance plies that follow a person's move, so the move and what it
        triggers are settled (and written) together, and the pages hear of them at once."""
        while not self.over() and self.state.current_player() == romecore.CHANCE:
            await self._apply(records.CHANCE_PLAYER, self.state.sample_chance())

    async def _save(self) -> None:
        """Writes the moves applied since the last write, each with the position it
        produced, in one transaction (one disk sync for a move and the chance plies it
        triggered).  Called with the table's lock held, before any page hears of them."""
        if not self._unsaved:
            return
        batch = self._unsaved
        await self._store(self.storage.add_moves, self.id, len(self.actions) - len(batch) + 1, batch)
        self._unsaved = []

    async def _store(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)``, a storage call, in the storage's threads (off the event loop)."""
        return await asyncio.get_running_loop().run_in_executor(self.writer, fn, *args)

    async def _finish(self) -> None:
        """The game is over (played out, resigned or forfeited): its record, stored and
        written to the records folder when there is one.  Nothing changes it after this."""
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
        self._cancel_clock()
        await self._save()
        try:
            await self._store(self.storage.finish, self.id, records.dumps_json(rec))
        except StorageError as e:
            self._note(f"record not stored: {e}", public=False)
        if self.records_dir is not None:
            path = os.path.join(self.records_dir, f"{self.game.game_id}-{self.id}.jsonl")
            try:
                os.makedirs(self.records_dir, exist_ok=True)
                records.write(path, [rec])
                self.record_path = path
            except OSError as e:
                self._note(f"record not saved: {e}")

    # -- the turn clock --------------------------------------------------------------------------
    def _start_clock(self, seat: int) -> None:
        clock = float(self.settings.get("clock", 0) or 0)
        if clock <= 0 or (self.clock_task is not None and not self.clock_task.done()):
            return
        self.clock_task = asyncio.get_running_loop().create_task(self._time_out(seat, self.ply(), clock))

    def _cancel_clock(self) -> None:
        if self.clock_task is not None and not self.clock_task.done() \
                and self.clock_task is not asyncio.current_task():
            self.clock_task.cancel()
        self.clock_task = None

    async def _time_out(self, seat: int, ply: int, seconds: float) -> None:
        """The seat's time ran out: the table's clock level moves for it."""
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.over() or self.ply() != ply or self.state.current_player() != seat:
                return
            level = self.settings.get("clock_level", "")
            spec = levels_of(self.game.game_id).get(level) or "random"
            agent = romecore.make_agent(bound_spec(spec, 2.0), game=self.game, seed=self.seed)
            view = self.state.resample(seat, view_seed(self.seed, self.ply()))
            self._reseed(agent, seat)
            gen = self.gen
        action = await self._think(agent, view)
        async with self.lock:
            if gen != self.gen or self.over() or self.ply() != ply or not self.state.is_legal(action):
                return
            self.clock_task = None
            self._points.clear()  # a clock move is nobody's to take back
            await self._apply(seat, action, note=f"P{seat}'s time ran out: {level or 'the AI'} played for them")
            await self.broadcast()
        self.kick()

    # -- what a seat asks ----------------------------------------------------------------------
    def _not_over(self) -> None:
        if self.over():
            raise SessionError("game_over", "the game is over: start a new one")

    def _seat_turn(self, seat: int, ply: Any) -> None:
        self._not_over()
        if ply is not None and ply != self.ply():
            raise SessionError("stale", f"stale message: it answers move {ply!r}, the game is at move "
                                        f"{self.ply()} (reload the position)")
        to_move = self.state.current_player()
        if to_move != seat:
            who = ("chance is" if to_move < 0 else
                   "the AI is" if self.seats[to_move].kind == AI else f"P{to_move} is")
            raise SessionError("not_your_turn", f"it is not your turn: {who} to move")

    async def move(self, seat: int, action: Any, ply: Any = None) -> None:
        """``seat`` plays ``action`` (an action id from the list sent); refused with the
        state unchanged when over, out of turn, stale or illegal."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise SessionError("bad_request", f"'action' must be an action id (an integer), got {repr(action)[:40]}")
        async with self.lock:
            self._seat_turn(seat, ply)
            if not self.state.is_legal(action):
                raise IllegalActionError(f"action {action} is not a legal move here")
            self._cancel_clock()
            self._points.append((seat, self.state.clone(), len(self.actions), len(self.events),
                                 list(self.think), list(self.moves)))
            self.think[seat] += time.perf_counter() - self._turn_t0
            self.moves[seat] += 1
            await self._apply(seat, action)
            await self._deal()
            self.touched = time.monotonic()
            await self.broadcast()
        self.kick()

    def _undo_point(self, seat: int) -> int | None:
        """Where ``seat`` may undo to (an index of the undo points), or None: undo must be
        on, and no other human may have moved since."""
        if not self.settings.get("undo", False) or self.over():
            return None
        for i in range(len(self._points) - 1, -1, -1):
            if self._points[i][0] == seat:
                return i
            return None  # another human's move lies in between
        return None

    async def undo(self, seat: int) -> None:
        """Back to the seat's previous decision: the position as it was (the same deals),
        the agents restarted; an agent still thinking is stopped and its move dropped.
        Refused once the game is over, where undo is off, and across another human's move."""
        async with self.lock:
            self._not_over()
            await self._save()  # what the truncation counts from
            if not self.settings.get("undo", False):
                raise SessionError("off", "undo is off at this table")
            i = self._undo_point(seat)
            if i is None:
                raise SessionError("bad_request", "nothing to undo: you have not moved since another player")
            _, state, n_actions, n_events, think, moves = self._points[i]
            del self._points[i:]
            self.gen += 1
            self._cancel_clock()
            self.state = state
            del self.actions[n_actions:], self.players[n_actions:], self.texts[n_actions:]
            del self.events[n_events:]
            self.log_epoch += 1
            self.think, self.moves = think, moves
            await self._store(self.storage.truncate, self.id, n_actions)
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

    async def resign(self, seat: int) -> None:
        """The seat gives up: the game ends as its loss, and every search stops."""
        async with self.lock:
            self._not_over()
            self.forfeit = {"seat": seat, "kind": records.RESIGNED}
            self.gen += 1
            await self._finish()
            await self.broadcast()
        await self.stop_thinking()

    async def hint(self, seat: int, ply: Any = None) -> dict[str, Any]:
        """What the hint agent would play, judged from a world resampled from the seat's
        knowledge only (as any agent is); one hint at a time, where hints are on."""
        async with self.lock:
            if not self.settings.get("hints", False):
                raise SessionError("off", "hints are off at this table")
            self._seat_turn(seat, ply)
            if self._hinter is not None and self._hinter in self.thinking:
                raise SessionError("busy", "a hint is being thought already")
            view = self.state.resample(seat, view_seed(self.seed ^ 0x5EED, self.ply()))
            at = self.ply()
            if self._hinter is None:
                self._hinter = romecore.make_agent(self.hint_spec, game=self.game, seed=seat + 1)
        action = await self._think(self._hinter, view)
        if self.over() or self.ply() != at:
            raise SessionError("stale", "the position changed while the hint was thought")
        return {"type": "hint", "game": self.id, "ply": at, "action": action,
                "text": view.action_to_string(action), "agent": self.hint_spec,
                "targets": _targets(view, action)}

    # -- back from storage -------------------------------------------------------------------------
    async def _restore(self, moves: list[Any], snapshot: bytes | None) -> None:
        """Replays the stored moves (chance drawn by the dealer, checked against what was
        stored), then checks the position against the stored snapshot."""
        for m in moves:
            if m.player == records.CHANCE_PLAYER:
                drawn = self.state.sample_chance()
                if drawn != m.action:
                    raise StorageError(f"table {self.id}: move {m.ply} was chance {m.action}, the dealer gives {drawn}")
            elif not self.state.is_legal(m.action):
                raise StorageError(f"table {self.id}: move {m.ply} ({m.text}) is not legal")
            self._play(m.player, m.action)
            if m.player >= 0:
                self.moves[m.player] += 1
        if snapshot is not None and self.state.serialize() != snapshot:
            raise StorageError(f"table {self.id}: its moves do not replay to its stored position")


# -- every table on the server ----------------------------------------------------------------
class Sessions:
    """The server's tables by id: those in memory (at most ``limits.max_games``; finished
    and idle ones make room) and, behind them, ``storage`` (every table, reloaded on
    demand).  ``hint`` is the hint agent's spec (bounded like any agent)."""

    def __init__(self, records_dir: str | None = None, hint: str = DEFAULT_HINT,
                 delay: float = DEFAULT_DELAY, limits: Limits | None = None,
                 idle_seconds: float = 3600.0, storage: Storage | None = None,
                 picture_workers: int = 0) -> None:
        self.records_dir = records_dir
        self.limits = limits or Limits()
        self.hint = bound_spec(hint, self.limits.max_think, self.limits.engines)
        self.delay = delay
        self.idle_seconds = idle_seconds
        self.storage: Storage = storage if storage is not None else MemoryStorage()
        # storage's own threads, apart from the agents' searches: the writes of every table
        # that wait at once share one disk sync (SQLiteStorage's group commit)
        self.writer = ThreadPoolExecutor(STORAGE_THREADS, thread_name_prefix="romecore-storage")
        # processes that draw the pages' pictures, so a busy server uses more than one core
        self.pictures: Workers | None = Workers(picture_workers) if picture_workers > 0 else None
        self.picture_workers = picture_workers
        self.games: dict[str, Session] = {}
        self.background: set[asyncio.Task] = set()  # pauses under way (kept from the collector)
        self.connections: dict[str, int] = {}  # address -> websockets open
        self.made: dict[str, list[float]] = {}  # address -> when it started tables (the last hour)

    async def start(self) -> None:
        """Starts the picture workers (each loads every game), so no page waits for them."""
        if self.pictures is not None:
            await self.pictures.call_each(warm_worker)

    def close(self) -> None:
        """Stops the picture workers (their tables draw here from then on)."""
        if self.pictures is not None:
            self.pictures.close()

    # -- what one address may do ------------------------------------------------------------------
    def connect(self, address: str) -> bool:
        """Counts a websocket from ``address``; False (and not counted) past the limit."""
        if self.connections.get(address, 0) >= self.limits.connections_per_address:
            return False
        self.connections[address] = self.connections.get(address, 0) + 1
        return True

    def disconnect(self, address: str) -> None:
        left = self.connections.get(address, 1) - 1
        if left > 0:
            self.connections[address] = left
        else:
            self.connections.pop(address, None)

    def may_create(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        recent = [t for t in self.made.get(address, []) if now - t < 3600.0]
        self.made[address] = recent
        return len(recent) < self.limits.tables_per_address

    def created(self, address: str) -> None:
        self.made.setdefault(address, []).append(time.monotonic())

    @property
    def max_games(self) -> int:
        return self.limits.max_games

    async def get(self, game_id: Any) -> Session:
        """The table ``game_id``, from memory or reloaded from storage."""
        gid = check_game_id(game_id)
        s = self.games.get(gid)
        if s is None:
            s = await self._load(gid)
        s.touched = time.monotonic()
        return s

    async def _load(self, gid: str) -> Session:
        try:
            stored = await asyncio.get_running_loop().run_in_executor(self.writer, self.storage.load, gid)
        except UnknownTable:
            raise SessionError("unknown_game", f"no game {gid} on this server (it may have expired): "
                                               "start a new one") from None
        t = stored.table
        game = romecore.load_game(t.game_id, **dict(t.options), players=t.players)
        s = Session(game, t.seats, t.seed, float(t.settings.get("delay", self.delay)), self.hint,
                    self.records_dir, t.settings, self.storage, table_id=t.id, writer=self.writer,
                    pictures=self.pictures)
        await s._restore(stored.moves, stored.snapshot)
        if t.record is not None:
            s.record = records.loads_json(t.record)
            s.forfeit = s.record.forfeit
        self._make_room()
        self.games[gid] = s
        return s

    def _make_room(self) -> None:
        now = time.monotonic()
        for gid, s in list(self.games.items()):  # unloaded only: storage keeps them
            if now - s.touched > self.idle_seconds and not s.listeners and not s.thinking:
                self.games.pop(gid)
        if len(self.games) >= self.max_games:
            done = sorted((s.touched, gid) for gid, s in self.games.items() if s.over() and not s.listeners)
            for _, gid in done[: len(self.games) - self.max_games + 1]:
                self.games.pop(gid)
        if len(self.games) >= self.max_games:
            raise SessionError("full", f"the server holds {self.max_games} games already: finish one first")

    async def create(self, msg: Mapping[str, Any]) -> tuple[Session, int, str, dict[int, str]]:
        """A new table from a ``new`` message (see :mod:`romecore.web.app`); returns it, the
        host's seat, the host's token and the invitation code of each open seat."""
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
        seats = self._seats(game_id, n, seat, msg)
        humans = sum(s.kind == HUMAN for s in seats)
        alone = humans == 1
        delay = msg.get("delay", self.delay)
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= MAX_DELAY:
            raise SessionError("bad_request", f"'delay' must be seconds in 0..{MAX_DELAY:g}")
        clock = msg.get("clock", 0)
        if isinstance(clock, bool) or not isinstance(clock, (int, float)) or not 0 <= clock <= MAX_CLOCK:
            raise SessionError("bad_request", f"'clock' must be seconds a move in 0..{MAX_CLOCK:g} (0: off)")
        clock_level = msg.get("clock_level", "")
        levels = levels_of(game_id)
        if clock and clock_level not in levels:
            clock_level = list(levels)[0] if levels else ""
        token, invites = new_token(), {}
        seats[seat].token_hash = hash_token(token)
        for p, s in enumerate(seats):
            if s.kind == HUMAN and p != seat:
                invites[p] = new_token()
        settings = {"hints": alone and _bool(msg, "hints", True), "undo": alone and _bool(msg, "undo", True),
                    "clock": float(clock), "clock_level": clock_level, "delay": float(delay),
                    "invites": {str(p): hash_token(code) for p, code in invites.items()}}
        self._make_room()
        session = Session(game, seats, seed, float(delay), self.hint, self.records_dir, settings, self.storage,
                          writer=self.writer, pictures=self.pictures)
        options_stored = {k: v for k, v in game.options.items() if k != "players"}
        await session._store(self.storage.create_table, TableRow(session.id, game_id, seed, seats,
                                                                 options_stored, settings))
        self.games[session.id] = session
        return session, seat, token, invites

    def _seats(self, game_id: str, n: int, seat: int, msg: Mapping[str, Any]) -> list[Seat]:
        """The seats a ``new`` message asks for: ``seats`` (one entry a seat: "host", "open",
        or a level or spec for an AI), else ``agents`` for every seat but the host's."""
        given = msg.get("seats")
        if given is not None:
            if not isinstance(given, list) or len(given) != n or [g for g in given if g == "host"] != ["host"] \
                    or given.index("host") != seat:
                raise SessionError("bad_request", f"'seats' must list {n} seats: \"host\" once (at 'seat'), "
                                                  "\"open\" for an invited human, a level or spec for an AI")
            asked = [(p, g) for p, g in enumerate(given) if g not in ("host", "open")]
        else:
            agents = msg.get("agents", [self.default_opponent(game_id)])
            if isinstance(agents, str):
                agents = [agents]
            if not isinstance(agents, list) or not 0 < len(agents) <= n:
                raise SessionError("bad_request", "'agents' must be a non-empty list of levels or agent specs")
            others = list(range(n)) if len(agents) == n else [p for p in range(n) if p != seat]
            asked = [(p, agents[i % len(agents)]) for i, p in enumerate(others) if p != seat]
            given = ["host" if p == seat else "ai" for p in range(n)]
        seats = [Seat(HUMAN, HUMAN, HUMAN) for _ in range(n)]
        try:
            for p, a in asked:
                label, spec = resolve_opponent(game_id, a, self.limits)
                seats[p] = Seat(AI, label, spec)
        except AgentSpecError as e:
            raise SessionError("bad_request", f"'agents': {e}") from None
        return seats

    def default_opponent(self, game_id: str) -> str:
        """The level a page gets when it names none: the game's middle level."""
        levels = list(levels_of(game_id))
        return levels[len(levels) // 2] if levels else DEFAULT_OPPONENT

