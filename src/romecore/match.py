"""Playing one game between agents: the loop every front end shares (simulate, play,
tournaments).

Chance is resolved by the state's seeded dealer RNG, so a game is reproducible from
(game, options, seed, agents).  Each agent sees only ``state.resample(player)``: a world
consistent with what its player knows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import romecore
from romecore.core.state import Game, State

__all__ = ["GameResult", "play_game", "view_seed"]


@dataclass
class GameResult:
    """What one game produced: enough to replay it (game, options, seed, actions)."""

    game_id: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    actions: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)  # who took each action (-1: chance)
    returns: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)  # per seat, total
    moves: list[int] = field(default_factory=list)  # decisions per seat

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def view_seed(seed: int, move: int) -> int:
    """The resample seed of the view handed to an agent at a given move."""
    return (seed * 0x9E3779B1 + move * 0x85EBCA77 + 1) & 0xFFFFFFFFFFFFFFFF


def play_game(
    game: Game,
    agents: Sequence[Any],
    seed: int,
    on_step: Callable[[State, int, int], None] | None = None,
) -> GameResult:
    """Plays one game; ``agents[p]`` moves for seat p.  ``on_step(state, player, action)``
    is called before each action is applied (player -1 for chance)."""
    n = game.num_players()
    if len(agents) != n:
        raise ValueError(f"{len(agents)} agents for a {n}-player game")
    for agent in agents:
        restart = getattr(agent, "restart", None)
        if restart is not None:
            restart()
    state = game.new_initial_state(seed=seed)
    result = GameResult(game.game_id, game.options, seed,
                        [getattr(a, "spec", type(a).__name__) for a in agents],
                        think_seconds=[0.0] * n, moves=[0] * n)
    while not state.is_terminal():
        player = state.current_player()
        if player == romecore.CHANCE:
            action = state.sample_chance()
            if on_step:
                on_step(state, -1, action)
            state.apply_action(action)
        else:
            view = state.resample(player, view_seed(seed, state.move_number()))
            t0 = time.perf_counter()
            action = agents[player].step(view)
            result.think_seconds[player] += time.perf_counter() - t0
            result.moves[player] += 1
            if on_step:
                on_step(state, player, action)
            state.apply_action(action)
        result.actions.append(action)
        result.players.append(player)
    result.returns = state.returns()
    result.scores = state.scores()
    return result
