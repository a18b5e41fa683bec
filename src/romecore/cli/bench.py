"""``romecore bench``: engine speed on this machine, one core."""

from __future__ import annotations

import time

import click

from romecore.cli.common import (
    OPTION_WAS_O_ALWAYS,
    Command,
    game_argument,
    game_option,
    load_game_or_exit,
    players_option,
)


def _rate(fn, seconds: float) -> tuple[float, int]:
    """Calls fn() repeatedly for about `seconds` of this process's CPU time; returns
    (calls per CPU second, calls).  CPU time, not wall time, so other work on a shared
    machine does not skew the numbers."""
    n, t0 = 0, time.process_time()
    deadline = t0 + seconds
    batch = 1
    while True:
        for _ in range(batch):
            fn()
        n += batch
        now = time.process_time()
        if now >= deadline:
            return n / (now - t0), n
        batch = min(batch * 2, 1 << 16)


@click.command("bench", cls=Command, renamed=[OPTION_WAS_O_ALWAYS])
@game_argument()
@players_option()
@click.option("--seconds", type=float, default=2.0, show_default=True, help="time per measurement")
@game_option()
def command(game_id: str, players: int | None, seconds: float, options: tuple[str, ...]) -> None:
    """Measure playouts/s and steps/s (C-level random playouts), the Python step loop,
    clone and snapshot round trip, on one core (rates per CPU second)."""
    game = load_game_or_exit(game_id, players, options)
    root = game.new_initial_state(seed=1)

    # C-level playouts
    steps = 0
    seed = [0]

    def playout() -> None:
        nonlocal steps
        s = root.clone()
        seed[0] += 1
        s.playout(seed[0])
        steps += s.move_number()

    games_per_s, games = _rate(playout, seconds)
    click.echo(f"{game!r}")
    click.echo(f"playouts/s        {games_per_s:12,.0f}   ({games} games, {steps / games:.0f} actions each)")
    click.echo(f"steps/s           {games_per_s * steps / games:12,.0f}")

    # Python loop: legal_actions() + apply_action()
    stepped = [0]
    state = [root.clone()]

    def python_step() -> None:
        s = state[0]
        if s.is_terminal():
            s = state[0] = root.clone()
        legal = s.legal_actions()
        s.apply_action(legal[stepped[0] % len(legal)])
        stepped[0] += 1

    rate, _ = _rate(python_step, seconds)
    click.echo(f"python step       {1e6 / rate:12.3f} us   (legal_actions + apply_action)")

    mid = root.clone()
    mid.playout(12345)
    hist = mid.history()
    mid = root.clone()
    for a in hist[: len(hist) // 2]:
        mid.apply_action(a)
    rate, _ = _rate(mid.clone, seconds / 2)
    click.echo(f"clone             {1e6 / rate:12.3f} us")
    blob = mid.serialize()
    rate, _ = _rate(lambda: game.deserialize(mid.serialize()), seconds / 2)
    click.echo(f"snapshot trip     {1e6 / rate:12.3f} us   ({len(blob)} bytes)")
