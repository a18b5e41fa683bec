"""Game records: what one game was, enough to replay it exactly, on disk and between
processes.

A record holds the game id, its options, the seed, every action with the player who took
it (``-1`` for chance), the agents per seat, the final returns and scores, and what the
agents spent thinking.  A game an agent forfeited (it raised, returned an illegal move or
overran its time) also names the seat and why; its returns are :func:`forfeit_returns`.
Because a game is deterministic given (game, options, seed, actions), :func:`replay`
rebuilds the final state from a record and checks it against what the record says.

Two file formats, both a sequence of records, told apart by their first byte:

- JSON lines (``.jsonl``): one JSON object per line.  Lines of other kinds (a tournament's
  header, a failure notice) are skipped by the readers, so a tournament's results file is
  a record file.
- msgpack (``.msgpack``): the same maps, packed back to back.

Everything read from outside is checked field by field; anything malformed raises
:class:`RecordError` (a :class:`romecore.SerializationError`), never anything worse.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import msgpack

from romecore.errors import IllegalActionError, InvalidArgumentError, RomecoreError, SerializationError

__all__ = [
    "RECORD_KIND",
    "RECORD_VERSION",
    "GameRecord",
    "RecordError",
    "ReplayError",
    "dumps_json",
    "loads_json",
    "read",
    "iter_records",
    "write",
    "append_jsonl",
    "replay",
    "Replayer",
    "forfeit_returns",
]

RECORD_KIND = "romecore.record"
RECORD_VERSION = 1
CHANCE_PLAYER = -1

_MAX_LIST = 1 << 20  # longer than any game; a bound for hostile input
_MSGPACK_LIMITS = dict(max_bin_len=1 << 24, max_str_len=1 << 20, max_array_len=_MAX_LIST,
                       max_map_len=1 << 12)


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
    player out of turn, or a final state that differs from what the record says."""


class RecordExhaustedError(RomecoreError, IndexError):
    """A replay stepped past the record's last action."""


@dataclass
class GameRecord:
    """One game, enough to replay it: ``(game_id, options, seed, actions)`` determine it.

    ``players[i]`` took ``actions[i]`` (``-1``: chance).  ``returns`` and ``scores`` are
    the final ones (empty for an unfinished game).  ``think_seconds`` and ``moves`` are per
    seat.  ``start`` is a snapshot (``State.serialize``) when the game did not begin at
    ``new_initial_state(seed)``.  ``meta`` carries anything else (a tournament puts the
    game's index and seating there).  ``forfeit`` is ``{"seat": int, "reason": str}`` when
    that seat forfeited the game (returns then :func:`forfeit_returns`; actions are those
    applied before it, possibly none when the worker was killed; scores are those at that
    moment, or empty when unknown).
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

    # -- conversion ---------------------------------------------------------------------
    def to_dict(self, binary: bool = True) -> dict[str, Any]:
        """The record as plain data.  With ``binary=False`` the start snapshot is base64
        text (for JSON)."""
        start: Any = self.start
        if start is not None and not binary:
            start = base64.b64encode(start).decode("ascii")
        d = {
            "kind": RECORD_KIND,
            "version": RECORD_VERSION,
            "game": self.game_id,
            "options": dict(self.options),
            "seed": self.seed,
            "agents": list(self.agents),
            "actions": list(self.actions),
            "players": list(self.players),
            "returns": list(self.returns),
            "scores": list(self.scores),
            "think_seconds": list(self.think_seconds),
            "moves": list(self.moves),
            "start": start,
            "meta": dict(self.meta),
        }
        if self.forfeit is not None:  # absent otherwise: older readers and lines unchanged
            d["forfeit"] = dict(self.forfeit)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> GameRecord:
        """Checks every field of ``d`` (as :meth:`to_dict` makes it, from JSON or msgpack)
        and builds the record; raises :class:`RecordError` naming the first bad field."""
        if not isinstance(d, dict):
            raise RecordError(f"a record is a map, got {type(d).__name__}")
        if d.get("kind") != RECORD_KIND:
            raise RecordError(f"not a romecore record (kind {d.get('kind')!r})")
        if d.get("version") != RECORD_VERSION:
            raise RecordError(f"record version {d.get('version')!r} is not supported "
                              f"(this build reads version {RECORD_VERSION})")
        game_id = _field(d, "game", str)
        options = _field(d, "options", dict)
        for k, v in options.items():
            if not isinstance(k, str) or not isinstance(v, (bool, int, float, str)):
                raise RecordError(f"record option {k!r}={v!r} is not a scalar")
        seed = _int(d.get("seed"), "seed")
        if not 0 <= seed < 1 << 64:
            raise RecordError(f"record seed {seed} is outside 0..2**64-1")
        agents = _list(d, "agents", str)
        actions = _list(d, "actions", int)
        players = _list(d, "players", int)
        if len(players) != len(actions):
            raise RecordError(f"record has {len(actions)} actions but {len(players)} players")
        returns = _list(d, "returns", float)
        scores = _list(d, "scores", float)
        think = _list(d, "think_seconds", float, True)
        moves = _list(d, "moves", int, True)
        start = d.get("start")
        if isinstance(start, str):
            try:
                start = base64.b64decode(start.encode("ascii"), validate=True)
            except (ValueError, UnicodeEncodeError):
                raise RecordError("record start snapshot is not base64") from None
        elif start is not None and not isinstance(start, bytes):
            raise RecordError("record start snapshot is not bytes")
        meta = d.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record meta is not a map")
        forfeit = _forfeit(d.get("forfeit"), len(agents), returns)
        return cls(game_id, options, seed, agents, actions, players, returns, scores,
                   think, moves, start, meta, forfeit)

    def finished(self) -> bool:
        """True when the record holds a decided game (its final returns): played to the
        end, or forfeited."""
        return bool(self.returns)


# -- field checks ----------------------------------------------------------------------
def _field(d: dict, key: str, typ: type) -> Any:
    v = d.get(key)
    if not isinstance(v, typ):
        raise RecordError(f"record field {key!r} is missing or not a {typ.__name__}")
    return v


def _int(v: Any, key: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"record field {key!r} holds {v!r}, not an integer")
    return v


def _forfeit(v: Any, players: int, returns: list) -> dict[str, Any] | None:
    """The checked ``forfeit`` field: absent, or a seat and a reason with the forfeit's
    returns."""
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
    state = deserialize(record.start)
    if state.game != game:
        raise RecordError("record's start snapshot is of another game or options")
    return state


class Replayer:
    """Steps through a record one action at a time, checking as it goes.

    ``state`` is the live state; :meth:`step` applies the next recorded action after
    checking that the recorded player is the one to move and the action is legal, and
    returns ``(player, action, name)``.  Raises :class:`ReplayError` at the first
    disagreement.
    """

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.state = _start_state(record)
        self.index = 0

    def done(self) -> bool:
        return self.index >= len(self.record.actions)

    def step(self) -> tuple[int, int, str]:
        import romecore

        i = self.index
        if i >= len(self.record.actions):
            raise RecordExhaustedError("the record has no more actions")
        state, player, action = self.state, self.record.players[i], self.record.actions[i]
        to_move = state.current_player()
        if to_move == romecore.TERMINAL:
            raise ReplayError(f"move {i}: the game is already over but the record goes on")
        expected = CHANCE_PLAYER if to_move == romecore.CHANCE else to_move
        if player != expected:
            who = "chance" if expected == CHANCE_PLAYER else f"player {expected}"
            raise ReplayError(f"move {i}: record says player {player} moved, but {who} is to move")
        if not state.is_legal(action):
            try:
                state.apply_action(action)  # raises, explaining why
            except IllegalActionError as e:
                raise ReplayError(f"move {i}: {e}") from None
            raise ReplayError(f"move {i}: action {action} is not legal")
        name = state.action_to_string(action)
        state.apply_action(action)
        self.index += 1
        return player, action, name

    def finish(self, check: bool = True) -> Any:
        """Applies the remaining actions; with ``check``, a finished record must end in a
        terminal state whose returns and scores are the recorded ones.  Returns the state."""
        while not self.done():
            self.step()
        record, state = self.record, self.state
        if check and record.forfeit is not None:
            if state.is_terminal():
                raise ReplayError("record says a seat forfeited, but the game ended")
            if record.scores and [float(x) for x in state.scores()] != [float(x) for x in record.scores]:
                raise ReplayError(f"replayed scores {state.scores()} differ from the record's {record.scores}")
        elif check and record.finished():
            if not state.is_terminal():
                raise ReplayError(f"record ends after {len(record.actions)} actions but the game is not over")
            if [float(x) for x in state.returns()] != [float(x) for x in record.returns]:
                raise ReplayError(f"replayed returns {state.returns()} differ from the record's {record.returns}")
            if record.scores and [float(x) for x in state.scores()] != [float(x) for x in record.scores]:
                raise ReplayError(f"replayed scores {state.scores()} differ from the record's {record.scores}")
        return state


def replay(record: GameRecord, check: bool = True) -> Any:
    """The state the record ends in, rebuilt from (game, options, seed, actions).

    With ``check`` (the default) a finished record must end in a terminal state whose
    returns and scores equal the recorded ones (a forfeited one in a state not yet over,
    with the recorded scores when it has them); any disagreement raises
    :class:`ReplayError`.
    """
    return Replayer(record).finish(check)
