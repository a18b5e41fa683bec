"""``romecore render``: a picture (SVG or PNG) of a recorded game at any step, from one
player's view or the whole truth."""

from __future__ import annotations

import sys

import click

from romecore.cli.common import DEFAULT_GAME, STDOUT, Command, Renamed, index_option, load_game_or_exit, players_option
from romecore.errors import RomecoreError


@click.command("render", cls=Command, no_args_is_help=True,
               renamed=[Renamed("--player", "--seat")])
@click.argument("game_id", metavar="[GAME]", required=False)
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              help="a game record (JSON lines or msgpack); without it, a new game of GAME")
@index_option()
@click.option("--step", type=click.IntRange(0), default=None,
              help="draw the state after this many recorded actions (default: the last)")
@click.option("--seat", "seat", type=int, default=None,
              help="draw only what this seat knows (default: the whole truth)")
@players_option()
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="seed of a new game")
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="write FILE (.svg, or .png through cairosvg); default, or '-': the SVG on standard output")
def command(game_id: str | None, record_path: str | None, number: int, step: int | None, seat: int | None,
            players: int | None, seed: int, out: str | None) -> None:
    """Draw a state of GAME as a picture: a recorded game replayed to --step (every action
    checked on the way), or a new game from --seed; from --seat's view or the whole truth.
    With no arguments, this help.

    PNG needs cairosvg (pip install cairosvg).

    \b
    romecore render great_city_of_rome -p 2 --seed 4 -o start.svg
    romecore render --record games.jsonl -n 3 --step 40 --seat 1 -o view.png
    """
    from romecore import picture, records

    if out == STDOUT:
        out = None
    if out is not None and not out.lower().endswith((".svg", ".png")):
        raise click.BadParameter(f"{out!r}: name a .svg or .png file", param_hint="--out")
    try:
        if record_path is None:
            if step is not None:
                raise click.BadParameter("--step needs --record", param_hint="--step")
            state = load_game_or_exit(game_id or DEFAULT_GAME, players).new_initial_state(seed=seed)
        else:
            state = _recorded_state(records, record_path, number, step, game_id)
        svg = picture.to_svg(state, seat)
        if out is None:
            sys.stdout.write(svg + "\n")
            return
        picture.write(svg, out)
    except OSError as e:
        raise click.ClickException(f"{e.filename or out}: {e.strerror or e}") from None
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None
    who = f"seat {seat}'s view" if seat is not None else "the whole truth"
    click.echo(f"wrote {out}: {who}", err=True)


def _recorded_state(records, path: str, number: int, step: int | None, game_id: str | None):
    recs = records.read(path)
    if number >= len(recs):
        raise click.ClickException(f"{path} holds {len(recs)} records; there is no record {number}")
    rec = recs[number]
    if game_id is not None and game_id != rec.game_id:
        raise click.ClickException(f"record {number} of {path} is a game of {rec.game_id}, not {game_id}")
    total = len(rec.actions)
    if step is not None and step > total:
        raise click.ClickException(f"record {number} has only {total} actions; --step must be 0..{total}")
    r = records.Replayer(rec)
    for _ in range(total if step is None else step):
        r.step()
    return r.state
