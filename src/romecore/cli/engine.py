"""``romecore engine``: one of romecore's agents speaking the engine protocol on standard
input and output (docs/engine-protocol.md), for other programs to seat."""

from __future__ import annotations

import sys

import click

from romecore.errors import RomecoreError
from romecore.spec import LEVELS, parse_agent_spec

__all__ = ["command"]


@click.command("engine")
@click.option("--agent", "agent", default=None, metavar="SPEC",
              help="the agent that plays (default: ismcts with each game's own parameters)")
@click.option("--level", default=None, type=click.Choice(LEVELS, case_sensitive=False),
              help="play each game at this level of its own instead")
def command(agent: str | None, level: str | None) -> None:
    """Speak romecore's engine protocol (JSON lines) on standard input and output, so any
    program can seat romecore's agents: it answers each position with the agent's move
    under the budget the host sends, and every bad message with an error reply."""
    from romecore.engine.serve import DEFAULT_AGENT, main_loop
    from romecore.plugins import registry

    if agent is not None and level is not None:
        raise click.UsageError("give --agent or --level, not both")
    spec = f"level:{level}" if level is not None else agent or DEFAULT_AGENT
    if level is None:
        try:
            registry.agent(parse_agent_spec(spec)[0])
        except RomecoreError as e:
            raise click.ClickException(str(e)) from None
    sys.exit(main_loop(spec))
