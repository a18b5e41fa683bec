"""``romecore games``: what is installed."""

from __future__ import annotations

import click

from romecore.plugins import registry


@click.command("games")
@click.option("--params", "-v", "params", is_flag=True,
              help="also list each game's levels and each agent's parameters with their defaults")
def command(params: bool) -> None:
    """List the installed games (and agents and evaluators)."""
    for game_id, spec in registry.games().items():
        opts = ", ".join(f"{o.name}={o.default!r}" for o in spec.options)
        click.echo(f"{game_id:22} {spec.name} ({spec.min_players}-{spec.max_players} players"
                   + (f"; options {opts}" if opts else "") + ")")
        if params:
            for level, agent_spec in spec.levels.items():
                click.echo(f"  level {level:9} {agent_spec}")
    click.echo("agents: " + ", ".join(registry.agents()))
    if params:
        for name, agent in registry.agents().items():
            click.echo(f"  {name}: {agent.description}")
            for key, (typ, default, text) in agent.params.items():
                click.echo(f"    {key}={default!r} ({typ.__name__}): {text}")
    evaluators = [f"{e.game_id}:{e.name}" for e in registry.evaluators()]
    if evaluators:
        click.echo("evaluators: " + ", ".join(evaluators))
    for name, error in registry.errors.items():
        click.echo(f"plugin {name!r} failed to load: {error}", err=True)
