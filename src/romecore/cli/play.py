"""``romecore play``: a human plays in the terminal against agents."""

from __future__ import annotations

import random

import click

import romecore
from romecore.cli.common import agents_option, game_option, load_game_or_exit, make_agents_or_exit
from romecore.match import view_seed


def _ask(state: romecore.State, legal: list[int]) -> int | None:
    """Reads a move by number (its index in the list) or by name; re-prompts on bad input.
    Returns None when the player quits."""
    while True:
        try:
            text = click.prompt("your move (number, name, '?' to list, 'q' to quit)",
                                default="", show_default=False)
        except (click.Abort, EOFError):
            return None
        text = text.strip()
        if text in ("q", "quit", "exit"):
            return None
        if text in ("", "?", "help"):
            _list(state, legal)
            continue
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        try:
            return state.string_to_action(text)
        except romecore.IllegalActionError as e:
            click.echo(f"  {e}")


def _list(state: romecore.State, legal: list[int]) -> None:
    for i, a in enumerate(legal):
        click.echo(f"  {i:>3}. {state.action_to_string(a)}")


@click.command("play")
@click.argument("game_id", metavar="GAME", default="great_city_of_rome")
@click.option("--players", "-p", type=int, default=None, help="number of players (game default)")
@click.option("--seat", type=int, default=0, show_default=True, help="your seat")
@click.option("--seed", "-s", type=int, default=None, help="game seed (random if omitted)")
@agents_option()
@game_option()
def command(game_id: str, players: int | None, seat: int, seed: int | None,
            agents: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Play GAME in the terminal against agents (default: random)."""
    game = load_game_or_exit(game_id, players, options)
    n = game.num_players()
    if not 0 <= seat < n:
        raise click.BadParameter(f"seat must be 0..{n - 1}", param_hint="--seat")
    seed = random.randrange(2**32) if seed is None else seed
    bots = make_agents_or_exit(agents, game, seed, n)
    state = game.new_initial_state(seed=seed)
    click.echo(f"{game!r}, seed {seed}; you are player {seat}")
    while not state.is_terminal():
        player = state.current_player()
        if player == romecore.CHANCE:
            state.apply_random_chance()
            continue
        if player != seat:
            action = bots[player].step(state.resample(player, view_seed(seed, state.move_number())))
            click.echo(f"player {player}: {state.action_to_string(action)}")
            state.apply_action(action)
            continue
        click.echo("")
        click.echo(str(state))
        obs = state.observation(seat)
        if "hand" in obs:
            click.echo(f"your hand: {obs['hand']}")
        legal = state.legal_actions()
        _list(state, legal)
        action = _ask(state, legal)
        if action is None:
            click.echo("bye")
            return
        state.apply_action(action)
    click.echo("")
    click.echo(str(state))
    click.echo(f"scores {state.scores()}, returns {state.returns()}")
