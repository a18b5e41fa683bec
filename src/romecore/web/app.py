"""The web app: a Starlette application serving one page and a websocket per tab.

Routes:

- ``GET /``: the page (``static/index.html``); ``/static/...`` its script and style, all
  served from the package (no CDN, no build step).
- ``GET /api/games``: the installed games (id, name, description, player counts, options,
  levels, default opponent, rules page), the agents, the hint agent, delay and think limit,
  for the start page.
- ``GET /rules/{game_id}``: the game's rules primer (:mod:`romecore.primers`).
- ``GET /api/record/{game}``: a finished game's record (JSON lines, format 2), the same
  record the server saved in its records folder, which ``romecore replay`` reads.
- ``GET /review``: the review page (``static/review.html``): the finished games, a saved
  record's upload, and a game's review (``/review#GAME/SEAT``).
- ``GET /api/finished?offset=&limit=``: a page of the finished games the server keeps, most
  recent first (:func:`romecore.web.reviews.finished_games`).
- ``POST /api/review/{game}``: starts the AI's review of a finished game (refused with 409
  ``not_over`` while it is played: its record would show hidden cards), or answers the one
  held; ``POST /api/upload-review?name=&index=`` does the same for an uploaded record file
  (format 1 or 2, JSON lines or msgpack; a bad one is refused with 400 ``bad_record`` naming
  the file and the move, and nothing is kept).  Both answer the review's progress.
- ``GET /api/review/{key}?seat=``: its progress and, once done, the review, the value graph
  and the moves as that seat saw them; ``GET /api/review/{key}/board?seat=&ply=&line=``: the
  board after ``ply`` moves as that seat saw it (``line``: after that many moves of the AI's
  line instead), as SVG (:mod:`romecore.web.reviews`).
- ``WS /ws``: the game protocol below.

Protocol version 2, in outline; docs/web-protocol.md has the whole of it, every field, error
code and limit, and a test keeps it equal to this code.  JSON text frames, one object each;
``game`` is a 32-hex-digit game id; ``ply`` is how many actions the game has had, chance
included, which is also the number of the last move in the log and the record, taken from
the last ``state`` message.

page -> server

- ``{"type": "new", "game_id": str, "players": int, "seat": int, "agents": [level or spec, ...],
  "seed": int?, "delay": seconds?, "options": {name: value}?}``: starts a game and
  subscribes this socket to it.  ``agents`` names one opponent per other seat in seat order
  (cycled), or one per seat (the human's ignored): a level of the game (``/api/games``
  lists them) or, unless the server runs ``--levels-only``, an agent spec, whose thinking
  the server bounds (:mod:`romecore.web.limits`).
- ``{"type": "join", "game": id}``: subscribes to an existing game (a reloaded tab).
- ``{"type": "move", "game": id, "action": int, "ply": int?}``: the human's move, an action
  id from the last ``moves`` list.
- ``{"type": "hint", "game": id, "ply": int?}``: asks what the hint agent would play.
- ``{"type": "undo", "game": id}``: back to the human's previous decision.
- ``{"type": "resign", "game": id}``: ends the game as the human's loss.

server -> page

- ``{"type": "hello", "protocol": 2}`` on connecting.
- ``{"type": "state", "game", "game_id", "name", "players", "seat", "agents": a label per
  seat (a level, a spec, or "human"), "ply", "to_move": seat (an agent's seat: it is
  thinking) | "chance" | "over", "can_undo": bool, "svg": the human's view as SVG (the
  whole truth once the game is over), "moves": [{"id": int, "text": str, "targets":
  [board key, ...]}] (only on the human's turn; the keys are the ``data-target``
  attributes of the picture that pick the move, see :func:`romecore.picture.action_targets`),
  "log": [{"ply", "player": seat | "chance" | "server", "text", "keys"?: board keys of a
  move the seat saw, "round"?: the round, where the game counts them}] (the moves as the
  human perceived them; a delta: the entries after the first ``log_from``, which the page
  holds from this socket's earlier state messages; a message without ``log_from`` carries
  the whole log, and a page short of entries sends ``join`` again), "over": bool, "result": null | {"returns", "scores",
  "score_line": "96–87" (the seat's first), "winners": [seat], "tie_break": str | null,
  "ends_when": the game's end condition (a normal end),
  "breakdown": [score_breakdown per seat], "termination": {"kind": normal | resigned |
  forfeit | time, ...}, "record": url}, "seed": only once the game is over (it deals every
  hidden card)}`` after every change, to every tab on the game.
- ``{"type": "hint", "game", "ply", "action", "text", "targets", "agent"}``.
- ``{"type": "error", "code", "message", "request": the request's type or null}``: a
  refused request; nothing changed.  Codes: ``malformed`` (not a JSON object, too long or
  nested too deeply), ``bad_request``, ``unknown_game``, ``not_your_turn``, ``stale``,
  ``illegal``, ``game_over`` (a finished game stays finished: move, hint, undo and resign
  are refused), ``busy`` (a hint is being thought), ``full``, ``error`` (any other romecore
  error), ``internal``.  Every frame is answered, or the socket is closed with a reason.

The server holds the true state (:mod:`romecore.web.sessions`); nothing but the human's
view is ever sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import romecore
from romecore import records
from romecore.errors import IllegalActionError, RomecoreError
from romecore.plugins import registry
from romecore.primers import primer_html
from romecore.web.limits import Limits, levels_of
from romecore.web.reviews import MAX_UPLOAD, ReviewBudget, Reviews, check_key, finished_games, read_upload, upload_key
from romecore.web.sessions import DEFAULT_DELAY, DEFAULT_HINT, Session, SessionError, Sessions
from romecore.web.storage import Storage, UnknownTable

__all__ = ["create_app", "STATIC", "MAX_MESSAGE", "PROTOCOL"]

PROTOCOL = 2
#: The longest message a page may send by default (a move is a few dozen bytes).
MAX_MESSAGE = Limits().max_message
STATIC = str(resources.files("romecore.web") / "static")

log = logging.getLogger("romecore.web")


def _error(code: str, message: str, request: Any = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message,
            "request": request if isinstance(request, str) else None}


class _Tab:
    """One websocket: the table it watches (as a seat, or as a spectator), the requests it
    makes, and its share of the server's limits (message rate, tables made)."""

    def __init__(self, ws: WebSocket, sessions: Sessions, address: str) -> None:
        self.ws = ws
        self.sessions = sessions
        self.address = address
        self.session: Session | None = None
        self.tasks: set[asyncio.Task] = set()
        limits = sessions.limits
        self.allowance, self.last = float(limits.burst), time.monotonic()  # a token bucket
        self.made = 0
        self.svg_delta = False  # the page takes pictures as deltas (it said so in a new or join)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send_text(json.dumps(msg))

    def watch(self, session: Session, viewer: int | None, token: str | None = None) -> None:
        if self.session is not session:
            self.unwatch()
        self.session = session
        session.listeners[self.send] = (viewer, token if viewer is not None else None)
        if self.svg_delta:
            session.deltas.add(self.send)

    def unwatch(self) -> None:
        """Leaves the table watched; the last page to leave pauses it (no search runs for
        nobody)."""
        session, self.session = self.session, None
        if session is not None and session.listeners.pop(self.send, "gone") != "gone":
            if not session.listeners and not session.over():
                task = asyncio.get_running_loop().create_task(session.pause())
                self.sessions.background.add(task)
                task.add_done_callback(self.sessions.background.discard)

    def _within_rate(self) -> bool:
        limits = self.sessions.limits
        now = time.monotonic()
        self.allowance = min(float(limits.burst), self.allowance + (now - self.last) * limits.rate)
        self.last = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    async def handle(self, text: str | None) -> None:
        """One message from the page; any refusal goes back as an ``error`` message."""
        if not self._within_rate():
            await self.send(_error("rate_limited", f"more than {self.sessions.limits.rate:g} messages a second: "
                                                   "slow down"))
            return
        msg: Any = None
        limit = self.sessions.limits.max_message
        if text is not None and len(text) <= limit:
            try:
                msg = json.loads(text)
            except ValueError as e:
                await self.send(_error("malformed", f"not JSON: {str(e)[:80]}"))
                return
            except RecursionError:  # thousands of nested brackets
                await self.send(_error("malformed", "nested too deeply"))
                return
        if not isinstance(msg, dict):
            await self.send(_error("malformed", "a message is one JSON object in a text frame of at most "
                                                f"{limit} characters"))
            return
        await self.guarded(msg.get("type"), self.dispatch(msg.get("type"), msg))

    async def guarded(self, kind: Any, request: Awaitable[None]) -> None:
        """Runs a request; a refusal (or a bug of ours) is answered, never raised."""
        try:
            await request
        except SessionError as e:
            await self.send(_error(e.code, str(e), kind))
        except IllegalActionError as e:
            await self.send(_error("illegal", str(e), kind))
        except RomecoreError as e:
            await self.send(_error("error", str(e), kind))
        except Exception as e:  # a bug of ours: say so, keep serving
            log.exception("request failed")
            await self.send(_error("internal", f"internal error: {type(e).__name__}: {e}", kind))

    async def _hint(self, session: Session, seat: int, ply: Any) -> None:
        await self.send(await session.hint(seat, ply))

    async def _new(self, msg: dict[str, Any]) -> None:
        limits = self.sessions.limits
        if self.made >= limits.tables_per_connection:
            raise SessionError("full", f"one page may start {limits.tables_per_connection} tables at most")
        if not self.sessions.may_create(self.address):
            raise SessionError("full", f"{limits.tables_per_address} tables an hour from one address at most")
        self._delta(msg)
        session, seat, token, invites = await self.sessions.create(msg)
        self.made += 1
        self.sessions.created(self.address)
        self.watch(session, seat, token)
        update = session.update(seat, token)
        update["invites"] = {str(p): code for p, code in invites.items()}
        session.sent_whole(self.send, update)
        await self.send(update)
        session.kick()

    def _delta(self, msg: dict[str, Any]) -> None:
        """Whether this page takes pictures as deltas: a ``new`` or ``join`` says."""
        wants = msg.get("svg_delta", False)
        if not isinstance(wants, bool):
            raise SessionError("bad_request", f"'svg_delta' must be true or false, got {repr(wants)[:40]}")
        self.svg_delta = wants
        if not wants and self.session is not None:
            self.session.deltas.discard(self.send)

    async def dispatch(self, kind: Any, msg: dict[str, Any]) -> None:
        if kind == "new":
            await self._new(msg)
            return
        if kind not in ("join", "move", "hint", "undo", "resign"):
            raise SessionError("bad_request", f"unknown message type {repr(kind)[:40]} "
                                              "(new, join, move, hint, undo, resign)")
        session = await self.sessions.get(msg.get("game"))
        if kind == "join":  # with a token: that seat; with an invitation: a seat taken; else a spectator
            token, viewer = msg.get("token"), None
            if msg.get("invite") is not None:
                viewer, token = await session.claim(msg.get("invite"))
            elif token is not None:
                viewer = session.seat_of(token)
            self._delta(msg)
            self.watch(session, viewer, token)
            update = session.update(viewer, token if viewer is not None else None)
            session.sent_whole(self.send, update)
            await self.send(update)
            if not session.over():
                session.kick()
            return
        seat = session.seat_of(msg.get("token"))
        self.watch(session, seat, msg.get("token"))
        if kind == "move":
            await session.move(seat, msg.get("action"), msg.get("ply"))
        elif kind == "hint":  # thought in the background: this tab may move meanwhile
            self.tasks.add(task := asyncio.get_running_loop().create_task(
                self.guarded("hint", self._hint(session, seat, msg.get("ply")))))
            task.add_done_callback(self.tasks.discard)
        elif kind == "undo":
            await session.undo(seat)
        else:
            await session.resign(seat)


async def _socket(ws: WebSocket) -> None:
    sessions: Sessions = ws.app.state.sessions
    address = ws.client.host if ws.client is not None else "?"
    if not sessions.connect(address):
        await ws.close(code=1008, reason="too many connections from this address")
        return
    tab = _Tab(ws, sessions, address)
    try:
        await ws.accept()
        await tab.send({"type": "hello", "protocol": PROTOCOL})
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await tab.handle(message.get("text"))
    except WebSocketDisconnect:
        pass
    finally:
        sessions.disconnect(address)
        tab.unwatch()
        for task in list(tab.tasks):
            task.cancel()


async def _index(request: Request) -> Response:
    return FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-cache"})


def _option(o: Any) -> dict[str, Any]:
    return {"name": o.name, "type": o.type.__name__, "default": o.default,
            "choices": list(o.choices) if o.choices is not None else None, "doc": o.doc}


async def _games(request: Request) -> Response:
    sessions: Sessions = request.app.state.sessions
    games = [{"id": gid, "name": spec.name, "min_players": spec.min_players,
              "max_players": spec.max_players, "default_players": spec.default_players,
              "description": spec.description, "playing_time": spec.playing_time,
              "options": [_option(o) for o in spec.options], "levels": list(levels_of(gid)),
              "default_opponent": sessions.default_opponent(gid), "rules": f"/rules/{gid}"}
             for gid, spec in registry.games().items()]
    return JSONResponse({"games": games, "agents": romecore.list_agents(), "hint": sessions.hint,
                         "delay": sessions.delay, "max_think": sessions.limits.max_think,
                         "allow_specs": sessions.limits.allow_specs, "protocol": PROTOCOL})


async def _rules(request: Request) -> Response:
    """The game's rules primer as a page (the same text the documentation site publishes)."""
    game_id = request.path_params["game"]
    try:
        title, body = registry.game(game_id).name, primer_html(game_id)
    except (RomecoreError, ImportError) as e:
        return JSONResponse(_error("unknown_game", str(e)), status_code=404)
    page = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} rules'
            f' – romecore</title><meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="/static/style.css"></head><body class="rules"><header><h1>'
            f'<a href="/">romecore</a></h1><span>{html.escape(title)}: how to play</span></header>'
            f'<main class="primer">{body}</main></body></html>')
    return HTMLResponse(page)


async def _record(request: Request) -> Response:
    sessions: Sessions = request.app.state.sessions
    try:
        session = await sessions.get(request.path_params["game"])
    except SessionError as e:
        return JSONResponse(_error(e.code, str(e)), status_code=404)
    if session.record is None:
        return JSONResponse(_error("bad_request", "the game is not over yet"), status_code=409)
    name = f"{session.game.game_id}-{session.id}.jsonl"
    return Response(records.dumps_json(session.record) + "\n", media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


#: The HTTP status of each refusal code (any other: 400).
_STATUS = {"unknown_game": 404, "unknown_review": 404, "not_over": 409, "busy": 429, "too_large": 413}


def _refusal(e: SessionError) -> Response:
    return JSONResponse(_error(e.code, str(e)), status_code=_STATUS.get(e.code, 400))


def _query_int(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise SessionError("bad_request", f"{name!r} must be an integer, got {text[:20]!r}") from None


async def _review_page(request: Request) -> Response:
    return FileResponse(os.path.join(STATIC, "review.html"), headers={"Cache-Control": "no-cache"})


async def _finished(request: Request) -> Response:
    sessions: Sessions = request.app.state.sessions
    try:
        offset, limit = _query_int(request, "offset", 0), _query_int(request, "limit", 20)
        page = await asyncio.to_thread(finished_games, sessions.storage, offset, limit)
    except SessionError as e:
        return _refusal(e)
    return JSONResponse(page)


async def _finished_record(sessions: Sessions, key: str) -> records.GameRecord:
    """The record of a finished table, from memory or straight from storage (a review does
    not load a table to play); ``not_over`` while it is played."""
    session = sessions.games.get(key)
    if session is not None:
        record = session.record
    else:
        try:
            stored = await asyncio.to_thread(sessions.storage.load, key)
        except UnknownTable:
            raise SessionError("unknown_game", f"no game {key} on this server") from None
        record = records.loads_json(stored.table.record) if stored.table.record is not None else None
    if record is None:
        raise SessionError("not_over", "the game is not over yet: its review is offered once it ends "
                                       "(a review shows every hidden card)")
    return record


async def _review_start(request: Request) -> Response:
    """Starts (or finds) the review of a finished game of this server."""
    sessions: Sessions = request.app.state.sessions
    reviews: Reviews = request.app.state.reviews
    try:
        key = check_key(request.path_params["key"])
        if key.startswith("up-"):
            held = reviews.get(key)
            if held is None:
                raise SessionError("unknown_review", "that uploaded record is no longer held: upload it again")
            job = reviews.request(key, held.record, held.source)  # a failed one is tried again
        else:
            job = reviews.request(key, await _finished_record(sessions, key), {"game": key})
    except SessionError as e:
        return _refusal(e)
    return JSONResponse(job.progress(), status_code=200 if job.status == "done" else 202)


async def _review_status(request: Request) -> Response:
    """A review's progress; once done, the review as the page shows it to ``seat``."""
    reviews: Reviews = request.app.state.reviews
    try:
        key = check_key(request.path_params["key"])
        job = await asyncio.to_thread(reviews.get, key)
        if job is None:
            raise SessionError("unknown_review", f"no review of {key} here: ask for one (POST) first")
        if job.status != "done":
            return JSONResponse(job.progress())
        seat = job.check_seat(_query_int(request, "seat", 0))
        return JSONResponse(await asyncio.to_thread(job.result, seat))
    except SessionError as e:
        return _refusal(e)


async def _review_board(request: Request) -> Response:
    """The board of a reviewed game after ``ply`` moves (and ``line`` moves of the AI's
    line), as ``seat`` saw it."""
    reviews: Reviews = request.app.state.reviews
    try:
        job = await asyncio.to_thread(reviews.get, check_key(request.path_params["key"]))
        if job is None or job.status != "done":
            raise SessionError("unknown_review", "no finished review of that game here")
        seat = job.check_seat(_query_int(request, "seat", 0))
        svg = await asyncio.to_thread(job.board, seat, _query_int(request, "ply", 0), _query_int(request, "line", 0))
    except SessionError as e:
        return _refusal(e)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})


async def _upload_review(request: Request) -> Response:
    """Reviews an uploaded record file (the request's body); nothing of it is written."""
    reviews: Reviews = request.app.state.reviews
    name = (request.query_params.get("name") or "the uploaded file")[:120]
    try:
        index = _query_int(request, "index", 0)
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_UPLOAD:
                raise SessionError("too_large", f"{name}: a record uploaded for review has at most {MAX_UPLOAD} bytes")
        try:
            record = await asyncio.to_thread(read_upload, bytes(data), name, index)
        except RomecoreError as e:
            raise SessionError("bad_record", f"{e} (nothing kept)") from None
        job = reviews.request(upload_key(record), record, {"file": name, "index": index})
    except SessionError as e:
        return _refusal(e)
    return JSONResponse(job.progress(), status_code=200 if job.status == "done" else 202)


def create_app(records_dir: str | None = None, hint: str = DEFAULT_HINT, delay: float = DEFAULT_DELAY,
               max_games: int = 200, limits: Limits | None = None, storage: Storage | None = None,
               expire_seconds: float = 7 * 86400.0, review: ReviewBudget | None = None,
               picture_workers: int = 0) -> Starlette:
    """The app: finished games are saved to ``records_dir`` (None: kept in memory only,
    still downloadable), ``hint`` is the hint agent's spec, ``delay`` the least time an
    agent's move stays on screen before the next (seconds; a game may ask for its own),
    ``limits`` what a page may ask (think time, raw specs, tables, message size and rate),
    ``storage`` where tables live (:class:`~romecore.web.storage.SQLiteStorage` for
    ``--db``; by default in memory).  Idle tables: one with no page on it is unloaded from
    memory after an hour (storage keeps it; a join reloads it), and an unfinished table
    nobody touched for ``expire_seconds`` is deleted (checked hourly); finished tables stay.
    ``review`` is the budget of the AI's reviews of finished games (one at a time, each
    decision bounded by ``limits.max_think`` too; :mod:`romecore.web.reviews`).
    ``picture_workers`` processes draw the pages' pictures (0: this process draws them),
    so a busy server spreads over more than one core."""
    limits = limits or Limits(max_games=max_games)
    app = Starlette(routes=[
        Route("/", _index),
        Route("/api/games", _games),
        Route("/api/record/{game}", _record),
        Route("/rules/{game}", _rules),
        Route("/review", _review_page),
        Route("/api/finished", _finished),
        Route("/api/upload-review", _upload_review, methods=["POST"]),
        Route("/api/review/{key}", _review_start, methods=["POST"]),
        Route("/api/review/{key}", _review_status, methods=["GET"]),
        Route("/api/review/{key}/board", _review_board),
        WebSocketRoute("/ws", _socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    sessions = Sessions(records_dir, hint, delay, limits, storage=storage, picture_workers=picture_workers)
    app.state.sessions = sessions
    app.state.reviews = Reviews(records_dir, review or ReviewBudget(), limits.max_think)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.get_running_loop().create_task(_expire_loop(sessions, expire_seconds))
        try:
            await sessions.start()
            yield
        finally:
            task.cancel()
            app.state.reviews.close()
            sessions.close()

    app.router.lifespan_context = lifespan
    return app


async def _expire_loop(sessions: Sessions, expire_seconds: float, every: float = 3600.0) -> None:
    """Hourly: deletes the unfinished tables idle past ``expire_seconds`` (the storage's
    rule), and forgets them in memory."""
    while True:
        await asyncio.sleep(every)
        try:
            for gid in await asyncio.to_thread(sessions.storage.expire, expire_seconds):
                sessions.games.pop(gid, None)
        except RomecoreError:
            log.exception("expiring idle tables failed")
