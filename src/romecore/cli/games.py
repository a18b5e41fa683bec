"""``romecore games``: what is installed."""

from __future__ import annotations

import click

from romecore.plugins import registry


@click.command("games")
@click.option("--params", "-v", "params", is_flag=True,
              help="also list each game's levels and its own agent defaults, and each agent's "
                   "parameters with their defaults")
def command(params: bool) -> None:
    """List the installed games (and agents and evaluators)."""
    for game_id, spec in registry.games().items():
        opts = ", ".join(f"{o.name}={o.default!r}" for o in spec.options)
        _echo_wrapped(f"{game_id:22} {spec.name} ({spec.min_players}-{spec.max_players} players"
                      + (f"; options {opts}" if opts else "") + ")", "", " " * 23)
        if params:
            for level, agent_spec in spec.levels.items():
                click.echo(f"  level {level:9} {agent_spec}")
            for agent_name, players, defaults in spec.agent_default_groups():
                shown = ", ".join(f"{k}={v!r}" for k, v in defaults.items())
                where = "here" if players is None else f"at {players} players"
                _echo_wrapped(f"{agent_name} defaults {where}: {shown}", "  ", "      ")
    _echo_wrapped("agents: " + ", ".join(registry.agents()), "", "  ")
    if params:
        for name, agent in registry.agents().items():
            _echo_wrapped(f"{name}: {agent.description}", "  ", "      ")
            for key, (typ, default, text) in agent.params.items():
                _echo_wrapped(f"{key}={default!r} ({typ.__name__}): {text}", "    ", "        ")
    evaluators = [f"{e.game_id}:{e.name}" for e in registry.evaluators()]
    if evaluators:
        _echo_wrapped("evaluators: " + ", ".join(evaluators), "", "  ")
    for name, error in registry.errors.items():
        click.echo(f"plugin {name!r} failed to load: {error}", err=True)


def _echo_wrapped(text: str, indent: str, hanging: str) -> None:
    """One entry, wrapped to 80 columns (the terminal's, if narrower), later lines indented."""
    import shutil

    width = min(80, shutil.get_terminal_size((80, 24)).columns)
    click.echo(click.wrap_text(text, width, initial_indent=indent, subsequent_indent=hanging))
