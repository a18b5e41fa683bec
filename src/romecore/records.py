"""Game records: what one game was, enough to replay it exactly and to read it without
romecore, on disk and between processes.

A record (format 2, published as a JSON Schema: :func:`record_schema`) is one map per game:

- ``tags``: the game id and options, the romecore version, the UTC date the game began,
  the seed, the agents per seat (spec string and label), the time control where known,
  the result (returns and scores per seat) and how the game ended (``termination``:
  ``normal``, ``forfeit`` or ``time`` with the seat and why, ``resigned`` with the seat,
  or ``unfinished``);
- ``moves``: every action in order, with the player who took it (``"chance"`` for
  chance) and its readable text (``action_to_string`` where it was taken);
- ``think_seconds`` and ``move_counts`` per seat, a ``start`` snapshot when the game did
  not begin at the seed's initial state, and ``meta`` (a tournament's index and seating).

A game an agent forfeited (it raised, returned an illegal move or overran its time) or a
player resigned (:meth:`GameRecord.resign`) has the returns of :func:`forfeit_returns`.
Because a game is deterministic given (game, options, seed, actions), :func:`replay`
rebuilds the final state from a record and checks every move's player and text and the
result against what the record says.

Format 1 records (``"version": 1``: ids only, no texts or date) are still read; written
again they become format 2, their texts recomputed by replaying them.

Two file formats, both a sequence of records, told apart by their first byte:

- JSON lines (``.jsonl``): one JSON object per line.  Lines of other kinds (a tournament's
  header, a failure notice) are skipped by the readers, so a tournament's results file is
  a record file.
- msgpack (``.msgpack``): the same maps, packed back to back (the start snapshot as bytes).

Everything read from outside is checked field by field; anything malformed raises
:class:`RecordError` (a :class:`romecore.SerializationError`), never anything worse.
"""

from __future__ import annotations

import base64
import datetime
import io
import json
import math
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import msgpack

from romecore.errors import IllegalActionError, InvalidArgumentError, RomecoreError, SerializationError

__all__ = [
    "RECORD_KIND",
    "RESIGNED",
    "RECORD_FORMAT",
    "RECORD_FORMATS",
    "GameRecord",
    "RecordError",
    "ReplayError",
    "MoveTexts",
    "dumps_json",
    "loads_json",
    "read",
    "iter_records",
    "write",
    "append_jsonl",
    "replay",
    "Replayer",
    "forfeit_returns",
    "record_schema",
    "move_line",
    "tag_lines",
    "export_text",
]

RECORD_KIND = "romecore.record"
#: The format this build writes (the ``format`` field).
RECORD_FORMAT = 2
#: The formats it reads: 1 is the older ``"version": 1`` map of ids only.
RECORD_FORMATS = (1, 2)
CHANCE_PLAYER = -1
#: How a move by chance names its player in format 2.
CHANCE_NAME = "chance"
TERMINATIONS = ("normal", "forfeit", "time", "resigned", "unfinished")
SCHEMA_RESOURCE = "record-v2.schema.json"

_MAX_LIST = 1 << 20  # longer than any game; a bound for hostile input
_MAX_ACTION = 1 << 31  # action ids are small non-negative ints
_MSGPACK_LIMITS = dict(max_bin_len=1 << 24, max_str_len=1 << 20, max_array_len=_MAX_LIST,
                       max_map_len=1 << 12)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?\Z")
#: A forfeit whose reason says this is a loss on time (the game loop's and the pool's wording).
_TIME_REASON = "move time limit"
#: The reason a resignation carries in ``GameRecord.forfeit``.
RESIGNED = "resigned"
#: How records made before the ``resigned`` termination said that a person resigned: the
#: terminal's quit (an exception quoted) and the web app's button.
_OLD_RESIGNATION = re.compile(r"player \d+ \(human\) (resigned|raised Resigned\b.*)", re.DOTALL)


class RecordError(SerializationError):
    """A record (or record file) that is malformed: a field missing, of the wrong type or
    out of range."""


def forfeit_returns(players: int, seat: int) -> list[float]:
    """The returns of a game that ``seat`` forfeited: 0 for that seat, and the other seats
    share the win (1/(players-1) each), as in a shared win.  A forfeit is a loss whatever
    the position, so failing when behind never pays; the others are not ranked by their
    scores at that moment because the game did not reach its end."""
    if players < 2:
        return [0.0] * players
    share = 1.0 / (players - 1)
    return [0.0 if p == seat else share for p in range(players)]


class ReplayError(RecordError):
    """A well-formed record that does not replay: an action illegal where it stands, a
    player out of turn, a move text that is not the action's, or a final state that
    differs from what the record says.  ``game`` (the record's place in its file, when
    known) and ``move`` (counted from 1, as listings number them) say where."""

    def __init__(self, message: str, move: int | None = None, game: int | None = None) -> None:
        self.move, self.game = move, game
        super().__init__(_where(game, move) + message)


def _where(game: int | None, move: int | None = None) -> str:
    parts = ([f"game {game}"] if game is not None else []) + ([f"move {move}"] if move is not None else [])
    return ", ".join(parts) + ": " if parts else ""


class RecordExhaustedError(RomecoreError, IndexError):
    """A replay stepped past the record's last action."""


def _utc_date() -> str:
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def _romecore_version() -> str:
    from romecore import __version__

    return __version__


@dataclass
class GameRecord:
    """One game, enough to replay it: ``(game_id, options, seed, actions)`` determine it.

    ``players[i]`` took ``actions[i]`` (``-1``: chance) and ``texts[i]`` is its text (empty
    until known: :meth:`move_texts` fills it).  ``returns`` and ``scores`` are the final
    ones (empty for an unfinished game).  ``think_seconds`` and ``moves`` (move counts) are
    per seat; ``labels`` name the seats' agents where they differ from their specs.
    ``start`` is a snapshot (``State.serialize``) when the game did not begin at
    ``new_initial_state(seed)``.  ``meta`` carries anything else (a tournament puts the
    game's index and seating there).  ``forfeit`` is ``{"seat": int, "reason": str}`` when
    that seat forfeited the game (returns then :func:`forfeit_returns`; actions are those
    applied before it, possibly none when the worker was killed; scores are those at that
    moment, or empty when unknown; a ``kind``, ``"forfeit"`` or ``"time"``, only where the
    reason does not say which; ``"resigned"`` for a resignation, see :meth:`resign`).
    ``time_control`` (e.g. ``{"move_time_limit": 60.0}``) is what was known of it; ``date``
    (UTC, ISO-8601) and ``romecore_version`` are stamped when the record is made (None for
    a format 1 record).
    """

    game_id: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    actions: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    scores: Sequence[float] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    start: bytes | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    forfeit: dict[str, Any] | None = None
    texts: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    time_control: dict[str, Any] | None = None
    date: str | None = field(default_factory=_utc_date)
    romecore_version: str | None = field(default_factory=_romecore_version)

    # -- derived ------------------------------------------------------------------------
    def finished(self) -> bool:
        """True when the record holds a decided game (its final returns): played to the
        end, or forfeited."""
        return bool(self.returns)

    @property
    def resigned(self) -> int | None:
        """The seat that resigned the game, or None."""
        if self.forfeit is not None and self.forfeit.get("kind") == RESIGNED:
            return int(self.forfeit["seat"])
        return None

    def resign(self, seat: int) -> None:
        """Ends the record as ``seat``'s resignation: a loss, the other seats share the win
        (:func:`forfeit_returns`), recorded as the termination ``{"kind": "resigned",
        "seat": seat}``.  The actions and scores are those when it resigned."""
        if not 0 <= seat < len(self.agents):
            raise InvalidArgumentError(f"seat {seat!r} is not a seat of 0..{len(self.agents) - 1}")
        self.forfeit = {"seat": seat, "reason": RESIGNED, "kind": RESIGNED}
        self.returns = forfeit_returns(len(self.agents), seat)

    def termination(self) -> dict[str, Any]:
        """How the game ended: ``{"kind": "normal"}``, ``{"kind": "forfeit" | "time",
        "seat", "reason"}`` (``time``: the seat overran the move time limit),
        ``{"kind": "resigned", "seat"}`` or ``{"kind": "unfinished"}``."""
        if self.resigned is not None:
            return {"kind": RESIGNED, "seat": self.resigned}
        if self.forfeit is not None:
            reason = self.forfeit["reason"]
            kind = self.forfeit.get("kind") or ("time" if _TIME_REASON in reason else "forfeit")
            return {"kind": kind, "seat": self.forfeit["seat"], "reason": reason}
        return {"kind": "normal" if self.finished() else "unfinished"}

    def seat_labels(self) -> list[str]:
        """Each seat's label: the given one, else the agent's spec."""
        return list(self.labels) if len(self.labels) == len(self.agents) else list(self.agents)

    def move_texts(self) -> list[str]:
        """The text of every action; when the record has none (a format 1 record, a game
        played without :class:`MoveTexts`) they are computed by replaying it and kept.
        Raises :class:`ReplayError` if the record does not replay."""
        if len(self.texts) != len(self.actions):
            if self.texts:
                raise RecordError(f"record has {len(self.actions)} actions but {len(self.texts)} move texts")
            r = Replayer(self)
            texts = [r.step()[2] for _ in range(len(self.actions))]
            self.texts = texts
        return self.texts

    # -- conversion ---------------------------------------------------------------------
    def to_dict(self, binary: bool = True) -> dict[str, Any]:
        """The record as plain data, in format 2 (see :func:`record_schema`); missing move
        texts are computed first (:meth:`move_texts`).  With ``binary=False`` the start
        snapshot is base64 text (for JSON)."""
        start: Any = self.start
        if start is not None and not binary:
            start = base64.b64encode(start).decode("ascii")
        tags: dict[str, Any] = {"game": self.game_id, "options": dict(self.options)}
        if self.romecore_version is not None:
            tags["romecore"] = self.romecore_version
        if self.date is not None:
            tags["date"] = self.date
        tags["seed"] = self.seed
        tags["agents"] = [{"seat": i, "spec": spec, "label": label}
                          for i, (spec, label) in enumerate(zip(self.agents, self.seat_labels()))]
        if self.time_control is not None:
            tags["time_control"] = dict(self.time_control)
        tags["result"] = {"returns": list(self.returns), "scores": list(self.scores)}
        tags["termination"] = self.termination()
        moves = [{"id": a, "player": CHANCE_NAME if p == CHANCE_PLAYER else p, "text": t}
                 for a, p, t in zip(self.actions, self.players, self.move_texts())]
        return {
            "kind": RECORD_KIND,
            "format": RECORD_FORMAT,
            "tags": tags,
            "moves": moves,
            "think_seconds": list(self.think_seconds),
            "move_counts": list(self.moves),
            "start": start,
            "meta": dict(self.meta),
        }

    @classmethod
    def from_dict(cls, d: Any) -> GameRecord:
        """Checks every field of ``d`` (format 2 as :meth:`to_dict` makes it, or format 1;
        from JSON or msgpack) and builds the record; raises :class:`RecordError` naming
        the first bad field."""
        if not isinstance(d, dict):
            raise RecordError(f"a record is a map, got {type(d).__name__}")
        if d.get("kind") != RECORD_KIND:
            raise RecordError(f"not a romecore record (kind {d.get('kind')!r})")
        fmt = d["format"] if "format" in d else d.get("version")
        if type(fmt) is not int or fmt not in RECORD_FORMATS or ("format" in d) != (fmt >= 2):
            raise RecordError(f"record format {fmt!r} is not supported (this build reads formats "
                              f"{', '.join(map(str, RECORD_FORMATS))})")
        return _from_v2(cls, d) if fmt == 2 else _from_v1(cls, d)


class MoveTexts:
    """An ``on_step`` hook for :func:`romecore.match.play_game` that keeps each move's text,
    taken from the state the game loop already holds (one ``action_to_string`` a move, no
    replay): ``record.texts = hook.texts`` after the game."""

    def __init__(self, then: Any = None) -> None:
        self.texts: list[str] = []
        self.then = then  # another on_step hook, called after

    def __call__(self, state: Any, player: int, action: int) -> None:
        self.texts.append(state.action_to_string(action))
        if self.then is not None:
            self.then(state, player, action)


# -- reading -------------------------------------------------------------------------------
def _from_v1(cls: type[GameRecord], d: dict) -> GameRecord:
    """A format 1 record: flat fields, ids only."""
    agents = _list(d, "agents", str)
    actions = _list(d, "actions", int)
    players = _list(d, "players", int)
    if len(players) != len(actions):
        raise RecordError(f"record has {len(actions)} actions but {len(players)} players")
    returns = _list(d, "returns", float)
    forfeit = _old_resignation(_forfeit(d.get("forfeit"), len(agents), returns))
    return cls(_field(d, "game", str), _options(d), _seed(d.get("seed")), agents, actions, players,
               returns, _list(d, "scores", float), _list(d, "think_seconds", float, True),
               _list(d, "moves", int, True), _start(d), _meta(d), forfeit,
               date=None, romecore_version=None)


def _from_v2(cls: type[GameRecord], d: dict) -> GameRecord:
    """A format 2 record: tags, moves with their texts."""
    tags = _field(d, "tags", dict)
    agents, labels = _agents(_list(tags, "agents", dict))
    result = _field(tags, "result", dict, "tags.")
    returns = _list(result, "returns", float)
    actions, players, texts = _moves(d.get("moves"), len(agents))
    forfeit = _termination(tags.get("termination"), len(agents), returns)
    date = tags.get("date")
    if date is not None and not (isinstance(date, str) and _DATE.match(date)):
        raise RecordError(f"record tag 'date' holds {repr(date)[:40]}, not an ISO-8601 UTC date")
    version = tags.get("romecore")
    if version is not None and not isinstance(version, str):
        raise RecordError("record tag 'romecore' (the version) is not a string")
    time_control = _time_control(tags.get("time_control"))
    return cls(_field(tags, "game", str, "tags."), _options(tags), _seed(tags.get("seed")), agents,
               actions, players, returns, _list(result, "scores", float),
               _list(d, "think_seconds", float, True), _list(d, "move_counts", int, True),
               _start(d), _meta(d), forfeit, texts, labels, time_control, date, version)


def _time_control(v: Any) -> dict[str, Any] | None:
    """The ``time_control`` tag: absent, or a map of scalars with a positive (or null)
    ``move_time_limit`` and a string ``budget``."""
    if v is None:
        return None
    if not isinstance(v, dict) or not all(isinstance(k, str) and (x is None or _scalar(x)) for k, x in v.items()):
        raise RecordError("record tag 'time_control' is not a map of scalars")
    limit = v.get("move_time_limit")
    if limit is not None and (isinstance(limit, (bool, str)) or not limit > 0):
        raise RecordError(f"record move time limit {limit!r} is not a positive number of seconds")
    if not isinstance(v.get("budget", ""), str):
        raise RecordError("record budget is not a string")
    return v


def _agents(items: list) -> tuple[list[str], list[str]]:
    """Specs and labels from the ``agents`` tag: one map per seat, in seat order (a
    missing label is the spec)."""
    specs, labels = [], []
    for i, a in enumerate(items):
        seat, spec, label = a.get("seat"), a.get("spec"), a.get("label", a.get("spec"))
        if type(seat) is not int or seat != i:
            raise RecordError(f"record agent {i} names seat {seat!r}: agents are listed in seat order")
        if not isinstance(spec, str) or not isinstance(label, str):
            raise RecordError(f"record agent {i} has no spec and label strings")
        specs.append(spec)
        labels.append(label)
    return specs, labels if labels != specs else []  # as made: no labels beyond the specs


def _moves(v: Any, seats: int) -> tuple[list[int], list[int], list[str]]:
    """Actions, players (-1: chance) and texts from the ``moves`` list, checked in one pass."""
    if type(v) is not list:
        raise RecordError("record field 'moves' is missing or not a list")
    if len(v) > _MAX_LIST:
        raise RecordError("record field 'moves' is too long")
    actions, players, texts = [], [], []
    for n, m in enumerate(v, 1):
        if type(m) is not dict:
            raise RecordError(f"record move {n} is not a map")
        a, p, t = m.get("id"), m.get("player"), m.get("text")
        if type(a) is not int or not 0 <= a < _MAX_ACTION:
            raise RecordError(f"record move {n}: id {repr(a)[:40]} is not an action id")
        if p == CHANCE_NAME:
            p = CHANCE_PLAYER
        elif type(p) is not int or not 0 <= p < seats:
            raise RecordError(f"record move {n}: player {repr(p)[:40]} is not a seat or 'chance'")
        if type(t) is not str:
            raise RecordError(f"record move {n}: text {repr(t)[:40]} is not a string")
        actions.append(a)
        players.append(p)
        texts.append(t)
    return actions, players, texts


def _termination(v: Any, seats: int, returns: list) -> dict[str, Any] | None:
    """The forfeit (or None) that the ``termination`` tag says, checked against the returns."""
    if not isinstance(v, dict) or v.get("kind") not in TERMINATIONS:
        raise RecordError(f"record tag 'termination' is not one of {', '.join(TERMINATIONS)}")
    kind = v["kind"]
    fields = {"kind", "seat", "reason"} if kind in ("forfeit", "time") else {"kind", "seat"} if kind == RESIGNED \
        else {"kind"}
    if set(v) != fields:
        raise RecordError(f"record termination {kind!r} has fields {sorted(map(str, v))}")
    if kind == RESIGNED:
        forfeit = _forfeit({"seat": v["seat"], "reason": RESIGNED}, seats, returns)
        return {**forfeit, "kind": RESIGNED} if forfeit is not None else None
    if kind in ("forfeit", "time"):
        forfeit = _old_resignation(_forfeit({k: v.get(k) for k in ("seat", "reason")}, seats, returns))
        if forfeit is not None and "kind" not in forfeit and (_TIME_REASON in forfeit["reason"]) != (kind == "time"):
            forfeit["kind"] = kind  # said outright only where the reason does not tell
        return forfeit
    if (kind == "normal") != bool(returns):
        raise RecordError(f"record termination {kind!r} does not fit returns {returns}")
    return None


# -- field checks ----------------------------------------------------------------------
def _field(d: dict, key: str, typ: type, where: str = "") -> Any:
    v = d.get(key)
    if not isinstance(v, typ):
        raise RecordError(f"record field {where}{key!r} is missing or not a {typ.__name__}")
    return v


def _int(v: Any, key: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"record field {key!r} holds {v!r}, not an integer")
    return v


def _scalar(v: Any) -> bool:
    return isinstance(v, (bool, int, str)) or (isinstance(v, float) and math.isfinite(v))


def _options(d: dict) -> dict[str, Any]:
    options = _field(d, "options", dict)
    for k, v in options.items():
        if not isinstance(k, str) or not _scalar(v):
            raise RecordError(f"record option {k!r}={v!r} is not a scalar")
    return options


def _seed(v: Any) -> int:
    seed = _int(v, "seed")
    if not 0 <= seed < 1 << 64:
        raise RecordError(f"record seed {seed} is outside 0..2**64-1")
    return seed


def _start(d: dict) -> bytes | None:
    start = d.get("start")
    if isinstance(start, str):
        try:
            return base64.b64decode(start.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            raise RecordError("record start snapshot is not base64") from None
    if start is not None and not isinstance(start, bytes):
        raise RecordError("record start snapshot is not bytes")
    return start


def _meta(d: dict) -> dict[str, Any]:
    meta = d.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError("record meta is not a map")
    return meta


def _forfeit(v: Any, players: int, returns: list) -> dict[str, Any] | None:
    """The checked forfeit: absent, or a seat and a reason with the forfeit's returns."""
    if v is None:
        return None
    if not isinstance(v, dict) or set(v) != {"seat", "reason"}:
        raise RecordError("record field 'forfeit' is not a map of seat and reason")
    seat = _int(v["seat"], "forfeit.seat")
    if not 0 <= seat < players:
        raise RecordError(f"record forfeit seat {seat} is outside 0..{players - 1}")
    if not isinstance(v["reason"], str):
        raise RecordError("record forfeit reason is not a string")
    if [float(x) for x in returns] != forfeit_returns(players, seat):
        raise RecordError(f"record returns {returns} are not those of a forfeit by seat {seat}")
    return {"seat": seat, "reason": v["reason"]}


def _old_resignation(forfeit: dict[str, Any] | None) -> dict[str, Any] | None:
    """A forfeit read from an older record, as the resignation it was where its reason is
    how ``romecore play`` or the web app said that a person resigned."""
    if forfeit is not None and _OLD_RESIGNATION.fullmatch(forfeit["reason"]):
        return {"seat": forfeit["seat"], "reason": RESIGNED, "kind": RESIGNED}
    return forfeit


_NUMBER = frozenset((int, float))


def _list(d: dict, key: str, typ: type, optional: bool = False) -> list:
    """The list under ``key``, every item of type ``typ`` exactly (``float`` admits ints
    and requires finite values; bools are never numbers).  One pass: records are long."""
    v = d.get(key, [] if optional else None)
    if type(v) is not list:
        raise RecordError(f"record field {key!r} is missing or not a list")
    if len(v) > _MAX_LIST:
        raise RecordError(f"record field {key!r} is too long")
    if typ is float:
        ok = all(type(x) in _NUMBER for x in v) and all(map(_finite, v))
    else:
        ok = all(type(x) is typ for x in v)
    if not ok:
        what = "finite number" if typ is float else typ.__name__
        bad = next(x for x in v if not (type(x) in _NUMBER and _finite(x) if typ is float
                                        else type(x) is typ))
        raise RecordError(f"record field {key!r} holds {repr(bad)[:40]}, not a {what}")
    return v


def _finite(x: float) -> bool:
    try:
        return math.isfinite(x)
    except OverflowError:  # an int too large for a float
        return False


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a format 2 record as a JSON line, shipped as
    package data (``romecore/schemas/record-v2.schema.json``) for other programs."""
    from importlib.resources import files

    return json.loads(files("romecore.schemas").joinpath(SCHEMA_RESOURCE).read_text("utf-8"))


# -- encoding ----------------------------------------------------------------------------
def dumps_json(record: GameRecord | dict, **extra: Any) -> str:
    """One JSON line (no newline) for a record, a record's dict, or any dict (a header
    line).  A binary start snapshot becomes base64 text."""
    d = record.to_dict(binary=False) if isinstance(record, GameRecord) else record
    if isinstance(d.get("start"), bytes) or extra:
        d = {**d, **extra}
        if isinstance(d.get("start"), bytes):
            d["start"] = base64.b64encode(d["start"]).decode("ascii")
    return json.dumps(d, separators=(",", ":"), allow_nan=False)


def loads_json(line: str | bytes) -> GameRecord:
    """The record on one JSON line; :class:`RecordError` if it is not one."""
    try:
        d = json.loads(line)
    except (ValueError, UnicodeDecodeError) as e:
        raise RecordError(f"not a JSON record: {e}") from None
    return GameRecord.from_dict(d)


def _is_record_map(d: Any) -> bool:
    return isinstance(d, dict) and d.get("kind") == RECORD_KIND


def _iter_maps(data: bytes, source: str) -> Iterator[tuple[int, Any]]:
    """(position, decoded map) for every entry of a record file's bytes."""
    head = data.lstrip()[:1]
    if not head:
        return
    if head == b"{":
        for lineno, line in enumerate(data.splitlines(), 1):
            if not line.strip():
                continue
            try:
                yield lineno, json.loads(line)
            except (ValueError, UnicodeDecodeError) as e:
                raise RecordError(f"{source}:{lineno}: not JSON: {e}") from None
        return
    unpacker = msgpack.Unpacker(io.BytesIO(data), raw=False, strict_map_key=False,
                                **_MSGPACK_LIMITS)
    n, done = 0, 0
    while True:
        n += 1
        try:
            d = unpacker.unpack()
        except msgpack.OutOfData:
            if done != len(data):
                raise RecordError(f"{source}: msgpack record {n} is truncated") from None
            return
        except Exception as e:  # msgpack raises several unrelated types on bad input
            raise RecordError(f"{source}: msgpack record {n} is corrupt: {e}") from None
        done = unpacker.tell()
        yield n, d


def iter_records(source: str | os.PathLike | bytes | BinaryIO) -> Iterator[GameRecord]:
    """Every record in a file (path, bytes or binary file object), JSON lines or msgpack.
    Entries of other kinds (tournament headers, failure notices) are skipped."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), "<bytes>"
    elif hasattr(source, "read"):
        data, name = source.read(), getattr(source, "name", "<file>")
    else:
        name = os.fspath(source)
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as e:
            raise RecordError(f"cannot read {name}: {e.strerror}") from None
    if not isinstance(data, bytes):
        raise RecordError(f"{name}: record files are read as bytes")
    for pos, d in _iter_maps(data, str(name)):
        if not isinstance(d, dict):
            raise RecordError(f"{name}:{pos}: entry is not a map")
        if "kind" in d and d["kind"] != RECORD_KIND:
            continue  # a header or notice line
        try:
            yield GameRecord.from_dict(d)
        except RecordError as e:
            raise RecordError(f"{name}:{pos}: {e}") from None


def read(source: str | os.PathLike | bytes | BinaryIO) -> list[GameRecord]:
    """All records in a file (see :func:`iter_records`)."""
    return list(iter_records(source))


def write(path: str | os.PathLike, records: Iterable[GameRecord], fmt: str | None = None) -> int:
    """Writes records to ``path`` (replacing it) as ``"jsonl"`` or ``"msgpack"``; the
    format defaults from the extension (``.msgpack``/``.mpk`` for msgpack, else JSON
    lines).  Returns the number written."""
    name = os.fspath(path)
    if fmt is None:
        fmt = "msgpack" if name.endswith((".msgpack", ".mpk")) else "jsonl"
    if fmt not in ("jsonl", "msgpack"):
        raise InvalidArgumentError(f"record format {fmt!r}: use 'jsonl' or 'msgpack'")
    n = 0
    with open(name, "wb") as f:
        for r in records:
            if fmt == "jsonl":
                f.write(dumps_json(r).encode("utf-8") + b"\n")
            else:
                f.write(msgpack.packb(r.to_dict(), use_bin_type=True))
            n += 1
    return n


def append_jsonl(f: Any, entry: GameRecord | dict) -> None:
    """Appends one line (a record or a notice dict) to an open binary file, in one write
    and flushed, so an interrupted writer leaves at most one partial last line."""
    f.write(dumps_json(entry).encode("utf-8") + b"\n")
    f.flush()


# -- replay ------------------------------------------------------------------------------
def _start_state(record: GameRecord) -> Any:
    from romecore.api import deserialize, load_game

    try:
        game = load_game(record.game_id, **record.options)
    except RomecoreError as e:
        raise RecordError(f"record's game cannot be loaded: {e}") from None
    if record.start is None:
        return game.new_initial_state(seed=record.seed)
    try:
        state = deserialize(record.start)
    except SerializationError as e:
        raise RecordError(f"record's start snapshot is corrupt: {e}") from None
    if state.game != game:
        raise RecordError("record's start snapshot is of another game or options")
    return state


class Replayer:
    """Steps through a record one action at a time, checking as it goes.

    ``state`` is the live state; :meth:`step` applies the next recorded action after
    checking that the recorded player is the one to move, the action is legal and its
    recorded text (when the record has texts) is the action's, and returns ``(player,
    action, text)``.  Raises :class:`ReplayError` at the first disagreement, naming the
    move (from 1) and ``game``, the record's place in its file, when given.
    """

    def __init__(self, record: GameRecord, game: int | None = None) -> None:
        self.record = record
        self.game = game
        try:
            self.state = _start_state(record)
        except RecordError as e:
            raise RecordError(_where(game) + str(e)) from None
        self.index = 0

    def done(self) -> bool:
        return self.index >= len(self.record.actions)

    def _refuse(self, message: str) -> ReplayError:
        return ReplayError(message, self.index + 1, self.game)

    def step(self) -> tuple[int, int, str]:
        import romecore

        i, record = self.index, self.record
        if i >= len(record.actions):
            raise RecordExhaustedError("the record has no more actions")
        state, player, action = self.state, record.players[i], record.actions[i]
        to_move = state.current_player()
        if to_move == romecore.TERMINAL:
            raise self._refuse("the game is already over but the record goes on")
        expected = CHANCE_PLAYER if to_move == romecore.CHANCE else to_move
        if player != expected:
            who = "chance" if expected == CHANCE_PLAYER else f"player {expected}"
            raise self._refuse(f"record says player {player} moved, but {who} is to move")
        if not state.is_legal(action):
            try:
                state.apply_action(action)  # raises, explaining why
            except IllegalActionError as e:
                raise self._refuse(str(e)) from None
            raise self._refuse(f"action {action} is not legal")
        text = state.action_to_string(action)
        if record.texts and (i >= len(record.texts) or record.texts[i] != text):
            said = repr(record.texts[i]) if i < len(record.texts) else "no text"
            raise self._refuse(f"record says {said} but action {action} is {text!r} here")
        state.apply_action(action)
        self.index += 1
        return player, action, text

    def finish(self, check: bool = True) -> Any:
        """Applies the remaining actions; with ``check``, a finished record must end in a
        terminal state whose returns and scores are the recorded ones.  Returns the state."""
        while not self.done():
            self.step()
        record, state = self.record, self.state
        if not check:
            return state
        fail = None
        if record.scores and [float(x) for x in state.scores()] != [float(x) for x in record.scores]:
            fail = f"replayed scores {state.scores()} differ from the record's {record.scores}"
        if record.forfeit is not None and state.is_terminal():
            fail = "record says a seat forfeited, but the game ended"
        elif record.forfeit is None and record.finished():
            if not state.is_terminal():
                fail = f"record ends after {len(record.actions)} actions but the game is not over"
            elif [float(x) for x in state.returns()] != [float(x) for x in record.returns]:
                fail = f"replayed returns {state.returns()} differ from the record's {record.returns}"
        if fail is not None:
            raise ReplayError(fail, game=self.game)
        return state


def replay(record: GameRecord, check: bool = True, game: int | None = None) -> Any:
    """The state the record ends in, rebuilt from (game, options, seed, actions), every
    recorded move text checked.

    With ``check`` (the default) a finished record must end in a terminal state whose
    returns and scores equal the recorded ones (a forfeited one in a state not yet over,
    with the recorded scores when it has them); any disagreement raises
    :class:`ReplayError`, naming ``game`` (the record's place in its file) when given.
    """
    return Replayer(record, game).finish(check)


# -- readable text -------------------------------------------------------------------------
def move_line(number: int, player: int, text: str) -> str:
    """One line of a move list: ``12. player 1: build Market at (1,2)``."""
    who = CHANCE_NAME if player == CHANCE_PLAYER else f"player {player}"
    return f"{number}. {who}: {text}"


def _tag(name: str, value: Any) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'[{name} "{text}"]'


def _number(x: float) -> str:
    return f"{x:g}"


def tag_lines(record: GameRecord) -> list[str]:
    """The record's tags as PGN-style ``[Name "value"]`` lines."""
    r, term = record, record.termination()
    lines = [_tag("Game", r.game_id),
             _tag("Options", ", ".join(f"{k}={v}" for k, v in r.options.items()))]
    if r.romecore_version is not None:
        lines.append(_tag("Romecore", r.romecore_version))
    if r.date is not None:
        lines.append(_tag("Date", r.date))
    lines.append(_tag("Seed", r.seed))
    for seat, (spec, label) in enumerate(zip(r.agents, r.seat_labels())):
        lines.append(_tag(f"Seat{seat}", spec if label == spec else f"{label} ({spec})"))
    for key, value in (r.time_control or {}).items():
        shown = "none" if value is None else _number(value) if isinstance(value, float) else value
        lines.append(_tag("".join(w.capitalize() for w in key.split("_")), shown))
    if r.start is not None:
        lines.append(_tag("Start", "from a snapshot (see the record)"))
    lines.append(_tag("Termination", term["kind"]))
    if term["kind"] == RESIGNED:
        lines.append(_tag("ResignedSeat", term["seat"]))
    elif "seat" in term:
        lines += [_tag("ForfeitSeat", term["seat"]), _tag("ForfeitReason", term["reason"])]
    if r.returns:
        lines.append(_tag("Returns", " ".join(map(_number, r.returns))))
    if r.scores:
        lines.append(_tag("Scores", " ".join(map(_number, r.scores))))
    return lines


def export_text(record: GameRecord, game: int | None = None) -> str:
    """The record as plain text: the tag lines, a blank line, then one numbered line per
    move.  The record is replayed (and checked) first, so the list is the game's."""
    r = Replayer(record, game)
    moves = []
    while not r.done():
        player, _action, text = r.step()
        moves.append(move_line(r.index, player, text))
    r.finish()
    return "\n".join(tag_lines(record) + [""] + moves) + "\n"
