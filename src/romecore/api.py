"""The entry points of the Python API: find games, build games, agents and evaluators,
and load snapshots of any game."""

from __future__ import annotations

from typing import Any

from romecore.agents import Agent, fresh_seed, resolve_level
from romecore.core.evaluator import Evaluator
from romecore.core.seeds import seed64
from romecore.core.state import Game, State, peek_snapshot
from romecore.errors import PluginError, SerializationError, UnknownGameError
from romecore.plugins import registry
from romecore.spec import parse_agent_spec

__all__ = ["list_games", "load_game", "make_agent", "list_agents", "make_evaluator", "deserialize"]

_games: dict[tuple, Game] = {}


def list_games() -> list[str]:
    """Ids of every installed game, sorted."""
    return list(registry.games())


def load_game(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with the given options (``players=`` and the game's own).

    >>> import romecore
    >>> romecore.load_game("great_city_of_rome", players=3).num_players()
    3
    """
    if not isinstance(game_id, str):
        raise UnknownGameError(f"a game id is a str, got {type(game_id).__name__}")
    spec = registry.game(game_id)
    opts = spec.normalise_options(options)
    key = (game_id, tuple(opts.items()))
    game = _games.get(key)
    if game is None:
        game = Game(spec, opts, list(spec.encode_options(opts)))
        _games[key] = game
    return game


def list_agents() -> list[str]:
    """Names of every installed agent, sorted."""
    return list(registry.agents())


def make_agent(spec: str, game: Game, seed: int | None = None) -> Agent:
    """An agent from a spec string such as ``"mcts:simulations=2000,c=0.7"``.

    The agent's ``step(state)`` returns an action for the player to move in ``state``;
    hand it only what that player may know (``state.resample(player)``), or call
    ``choose(state)``, which resamples for you.  ``"level:NAME"`` is the game's level of that
    name (``romecore.level_spec``).  Without a seed one is drawn (``agent.seed``), so the
    agent can still be pickled and rebuilt.
    """
    seed = fresh_seed() if seed is None else seed64(seed)
    name, params = parse_agent_spec(resolve_level(spec, game))
    impl = registry.agent(name).build(game, seed, params)
    try:
        impl.spec = spec
    except AttributeError:
        pass
    return Agent(impl, spec, game, seed)


def make_evaluator(game: Game, name: str | None = None, **params: Any) -> Evaluator:
    """The evaluator ``name`` registered for ``game`` (its default when ``None``)."""
    evaluator = registry.evaluator(game.game_id, name).factory(game=game, **params)
    if not isinstance(evaluator, Evaluator):
        raise PluginError(f"evaluator {name or 'default'!r} of {game.game_id} is a "
                          f"{type(evaluator).__name__}, not a romecore Evaluator")
    return evaluator


def deserialize(blob: bytes) -> State:
    """Loads a snapshot of any installed game (the game and options come from the blob)."""
    game_id, options = peek_snapshot(blob)
    try:
        game = load_game(game_id, **options)
    except UnknownGameError:
        raise SerializationError(f"snapshot is of game {game_id!r}, which is not installed") from None
    except Exception as e:
        raise SerializationError(f"snapshot options are invalid: {e}") from None
    return game.deserialize(blob)
