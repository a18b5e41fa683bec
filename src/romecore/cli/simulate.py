"""``romecore simulate``: play games between agents in this process and tabulate."""

from __future__ import annotations

import time

import click

from romecore.cli.common import agents_option, game_argument, game_option, load_game_or_exit, make_agents_or_exit
from romecore.match import play_game


@click.command("simulate")
@game_argument()
@click.option("--players", "-p", type=int, default=None, help="number of players (game default)")
@click.option("--games", "-g", "num_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="master seed")
@agents_option()
@game_option()
def command(game_id: str, players: int | None, num_games: int, seed: int,
            agents: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Play GAME between agents (default: random) and print a results table.

    Seats rotate from game to game so every agent sits in every seat.
    """
    game = load_game_or_exit(game_id, players, options)
    n = game.num_players()
    specs = list(agents) or ["random"]
    roster = [specs[i % len(specs)] for i in range(n)]
    wins = [0.0] * n
    scores = [0.0] * n
    moves = [0] * n
    think = [0.0] * n
    t0 = time.perf_counter()
    for g in range(num_games):
        rot = g % n  # seat s is played by roster[(s + rot) % n]
        seated = [roster[(s + rot) % n] for s in range(n)]
        bots = make_agents_or_exit(seated, game, seed + g)
        result = play_game(game, bots, seed + g)
        for s in range(n):
            i = (s + rot) % n
            wins[i] += result.returns[s]
            scores[i] += result.scores[s]
            moves[i] += result.moves[s]
            think[i] += result.think_seconds[s]
    elapsed = time.perf_counter() - t0
    click.echo(f"{game!r}: {num_games} games in {elapsed:.2f} s ({num_games / elapsed:.1f} games/s), seed {seed}")
    click.echo(f"{'slot':>4}  {'agent':30} {'wins':>8} {'win rate':>8} {'mean score':>10} {'ms/move':>8}")
    for i in range(n):
        rate = wins[i] / num_games
        ms = 1000 * think[i] / moves[i] if moves[i] else 0.0
        click.echo(f"{i:>4}  {roster[i]:30} {wins[i]:>8.2f} {rate:>8.1%} {scores[i] / num_games:>10.2f} {ms:>8.3f}")
