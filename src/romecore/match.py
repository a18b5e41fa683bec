"""Playing one game between agents: the loop every front end shares (simulate, play,
tournaments).

Chance is resolved by the state's seeded dealer RNG, so a game is reproducible from
(game, options, seed, agents).  Each agent sees only ``state.resample(player)``: a world
consistent with what its player knows.

With ``forfeits=True`` an agent that raises, returns an illegal action or overruns the
per-move time limit forfeits the game instead of breaking it: the game stops there and
the record names the seat and why, with :func:`romecore.records.forfeit_returns`.
"""

from __future__ import annotations

import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import romecore
from romecore.core.seeds import seed64
from romecore.core.state import Game, State
from romecore.errors import InvalidArgumentError
from romecore.records import CHANCE_PLAYER, GameRecord, forfeit_returns

__all__ = ["GameResult", "play_game", "view_seed", "new_record"]

#: What :func:`play_game` returns: a :class:`romecore.records.GameRecord`.
GameResult = GameRecord


def view_seed(seed: int, move: int) -> int:
    """The resample seed of the view handed to an agent at a given move."""
    return (seed * 0x9E3779B1 + move * 0x85EBCA77 + 1) & 0xFFFFFFFFFFFFFFFF


class _MoveTimeout(BaseException):
    """Raised inside an agent's step by the move alarm (a BaseException, so an agent's own
    ``except Exception`` cannot swallow it)."""


class _MoveAlarm:
    """Interrupts an agent's step that overruns ``seconds``: a SIGALRM ticks every quarter
    of the limit while the game runs and raises in the step when the move has overrun
    (one timer per game: arming one per move would cost more than a random move).  Only in
    the main thread of a process with ``setitimer``; elsewhere, and for native code that
    never returns to Python, the limit is checked when the step returns, and a pool
    worker's parent kills what never returns."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds or 0.0
        self.on = bool(seconds) and hasattr(signal, "setitimer") and \
            threading.current_thread() is threading.main_thread()
        self.armed = False
        self.t0 = 0.0
        self._old: Any = None

    def _tick(self, signum: int, frame: Any) -> None:
        if self.armed and time.perf_counter() - self.t0 > self.seconds:
            self.armed = False
            raise _MoveTimeout()

    def __enter__(self) -> _MoveAlarm:
        if self.on:
            self._old = signal.signal(signal.SIGALRM, self._tick)
            period = max(0.005, self.seconds / 4)
            signal.setitimer(signal.ITIMER_REAL, period, period)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.on:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old if self._old is not None else signal.SIG_DFL)


def new_record(game: Game, specs: Sequence[str], seed: int, state: State | None) -> GameRecord:
    """The empty record of a game of ``game`` between agents ``specs`` from ``seed``,
    starting at ``state`` (its snapshot is kept unless it is the seed's initial state)."""
    n = game.num_players()
    start = None
    if state is not None:
        if state.game != game:
            raise InvalidArgumentError(f"start state is of {state.game!r}, not {game!r}")
        start = state.serialize(history=True)
        if start == game.new_initial_state(seed=seed).serialize():
            start = None  # the seed's own initial state: the seed says it all
    return GameRecord(game.game_id, game.options, seed, list(specs),
                      think_seconds=[0.0] * n, moves=[0] * n, start=start)


def _illegal(state: State, action: Any) -> str | None:
    """Why ``action`` cannot be applied to ``state``, or None when it can."""
    try:
        if state.is_legal(action):
            return None
        state.clone().apply_action(action)  # raises, explaining why
        return f"returned {action!r}, which is not legal"
    except Exception as e:
        return f"returned {repr(action)[:40]}: {e}"


def play_game(
    game: Game,
    agents: Sequence[Any],
    seed: int,
    on_step: Callable[[State, int, int], None] | None = None,
    state: State | None = None,
    *,
    forfeits: bool = False,
    move_time_limit: float | None = None,
    watch: Callable[[int], None] | None = None,
) -> GameRecord:
    """Plays one game; ``agents[p]`` moves for seat p.  ``on_step(state, player, action)``
    is called before each action is applied (player -1 for chance).

    The game starts at ``game.new_initial_state(seed)``, or at ``state`` when given (it is
    played on, so pass a clone to keep it; unless it is the seed's initial state, the
    record carries its snapshot).

    With ``forfeits`` an agent that raises, returns an illegal action, or thinks longer
    than ``move_time_limit`` seconds on one move forfeits (see the module text); without
    it such faults raise.  ``watch(seat)`` is called as a seat starts thinking and
    ``watch(-1)`` when it stops (a pool worker tells its parent who is thinking).
    """
    n = game.num_players()
    if len(agents) != n:
        raise InvalidArgumentError(f"{len(agents)} agents for a {n}-player game")
    if move_time_limit is not None and not forfeits:
        raise InvalidArgumentError("move_time_limit needs forfeits=True: an overrun forfeits the game")
    for agent in agents:
        restart = getattr(agent, "restart", None)
        if restart is not None:
            restart()
    seed = seed64(seed)  # the record keeps the 64-bit seed (None: a fresh one, kept there)
    result = new_record(game, [getattr(a, "spec", type(a).__name__) for a in agents], seed, state)
    if state is None:
        state = game.new_initial_state(seed=seed)
    actions, players = result.actions, result.players
    think, moves = result.think_seconds, result.moves
    clock = time.perf_counter
    limit = move_time_limit
    with _MoveAlarm(limit if forfeits else None) as alarm:
        while not state.is_terminal():
            player = state.current_player()
            if player == romecore.CHANCE:
                player = CHANCE_PLAYER
                action = state.sample_chance()
            else:
                view = state.resample(player, view_seed(seed, state.move_number()))
                if watch is not None:
                    watch(player)
                t0 = clock()
                if forfeits:
                    fault = None
                    try:
                        alarm.t0, alarm.armed = t0, True
                        action = agents[player].step(view)
                        alarm.armed = False
                    except _MoveTimeout:
                        fault = f"took more than the {limit:g} s move time limit"
                    except Exception as e:
                        alarm.armed = False
                        fault = "raised " + traceback.format_exception_only(type(e), e)[-1].strip()
                    spent = clock() - t0
                    if fault is None and limit is not None and spent > limit:
                        fault = f"took {spent:.3g} s, over the {limit:g} s move time limit"
                    if fault is None:
                        fault = _illegal(state, action)
                else:
                    action = agents[player].step(view)
                    spent = clock() - t0
                think[player] += spent
                moves[player] += 1
                if watch is not None:
                    watch(-1)
                if forfeits and fault is not None:
                    result.forfeit = {"seat": player, "reason": f"player {player} ({result.agents[player]}) {fault}"}
                    break
            if on_step:
                on_step(state, player, action)
            state.apply_action(action)
            actions.append(action)
            players.append(player)
    result.returns = state.returns() if result.forfeit is None else forfeit_returns(n, result.forfeit["seat"])
    result.scores = state.scores()
    return result
