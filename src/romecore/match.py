"""Playing one game between agents: the loop every front end shares (simulate, play,
tournaments).

Chance is resolved by the state's seeded dealer RNG, so a game is reproducible from
(game, options, seed, agents).  Each agent sees only ``state.resample(player)``: a world
consistent with what its player knows.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

import romecore
from romecore.core.state import Game, State
from romecore.records import CHANCE_PLAYER, GameRecord

__all__ = ["GameResult", "play_game", "view_seed"]

#: What :func:`play_game` returns: a :class:`romecore.records.GameRecord`.
GameResult = GameRecord


def view_seed(seed: int, move: int) -> int:
    """The resample seed of the view handed to an agent at a given move."""
    return (seed * 0x9E3779B1 + move * 0x85EBCA77 + 1) & 0xFFFFFFFFFFFFFFFF


def play_game(
    game: Game,
    agents: Sequence[Any],
    seed: int,
    on_step: Callable[[State, int, int], None] | None = None,
    state: State | None = None,
) -> GameRecord:
    """Plays one game; ``agents[p]`` moves for seat p.  ``on_step(state, player, action)``
    is called before each action is applied (player -1 for chance).

    The game starts at ``game.new_initial_state(seed)``, or at ``state`` when given (it is
    played on, so pass a clone to keep it; unless it is the seed's initial state, the
    record carries its snapshot).
    """
    n = game.num_players()
    if len(agents) != n:
        raise ValueError(f"{len(agents)} agents for a {n}-player game")
    for agent in agents:
        restart = getattr(agent, "restart", None)
        if restart is not None:
            restart()
    start = None
    if state is None:
        state = game.new_initial_state(seed=seed)
    else:
        if state.game != game:
            raise ValueError(f"start state is of {state.game!r}, not {game!r}")
        start = state.serialize(history=True)
        if start == game.new_initial_state(seed=seed).serialize():
            start = None  # the seed's own initial state: the seed says it all
    result = GameRecord(game.game_id, game.options, seed,
                        [getattr(a, "spec", type(a).__name__) for a in agents],
                        think_seconds=[0.0] * n, moves=[0] * n, start=start)
    actions, players = result.actions, result.players
    think, moves = result.think_seconds, result.moves
    clock = time.perf_counter
    while not state.is_terminal():
        player = state.current_player()
        if player == romecore.CHANCE:
            player = CHANCE_PLAYER
            action = state.sample_chance()
        else:
            view = state.resample(player, view_seed(seed, state.move_number()))
            t0 = clock()
            action = agents[player].step(view)
            think[player] += clock() - t0
            moves[player] += 1
        if on_step:
            on_step(state, player, action)
        state.apply_action(action)
        actions.append(action)
        players.append(player)
    result.returns = state.returns()
    result.scores = state.scores()
    return result
