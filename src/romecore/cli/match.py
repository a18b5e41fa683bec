"""``romecore match``: agent A against agent B in paired deals until a sequential
probability ratio test (SPRT) decides, fishtest-style."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from romecore.cli.common import STDOUT, Command, game_argument, game_option, load_game_or_exit, pool_options
from romecore.errors import RomecoreError

if TYPE_CHECKING:
    from romecore.tournament.sprt import MatchStatus, PairTally


def _even(games: int) -> int:
    """Games come in pairs: an odd count is rounded up."""
    return games + games % 2


class _Running:
    """``until`` for :func:`romecore.tournament.run`: counts the finished pairs in order,
    prints a running line (at most once every ``every`` seconds, and when it decides) and
    says when the test has decided."""

    def __init__(self, tally: PairTally, every: float, quiet: bool) -> None:
        self.tally = tally
        self.every = every
        self.quiet = quiet
        self.shown = 0
        self.last = 0.0

    def __call__(self, games: Mapping[int, Any]) -> bool:
        decided = self.tally.update(games)
        now = time.monotonic()
        if not self.quiet and self.tally.pairs != self.shown and (decided or now - self.last >= self.every):
            self.show()
            self.last = now
        return decided

    def show(self) -> None:
        self.shown = self.tally.pairs
        click.echo(self.tally.status().line(), err=True)


def report(status: MatchStatus, game: str, a: str, b: str, games_run: int, games_total: int, elapsed: float,
           out: str | None) -> str:
    """The final report, lines of at most 80 columns (agent specs aside)."""
    from romecore.tournament.sprt import PENTANOMIAL, pentanomial

    lines = [f"{game}: A = {a}", f"{' ' * len(game)}  B = {b}"]
    penta = pentanomial(status.counts)
    if penta is not None:
        cells = "  ".join(f"{x:g}: {c}" for x, c in zip(PENTANOMIAL, penta))
    else:  # shares of a win at 3 or more players
        cells = "  ".join(f"{x:.3g}: {c}" for x, c in status.counts.items())
    lines.append(f"pairs by A's score  {cells}")
    lines.append(f"{status.pairs} pairs ({2 * status.pairs} games): A scores {status.score:.3f}, "
                 f"Elo {status.elo:+.1f} [{status.elo_low:+.1f}, {status.elo_high:+.1f}] (95%)")
    lines.append(f"LOS {100 * status.los:.1f}% (the chance that A is the stronger)")
    if status.llr is not None and status.sprt is not None:
        t = status.sprt
        verdict = {"H1": f"H1 accepted: A is {t['elo1']:g} Elo stronger rather than {t['elo0']:g}",
                   "H0": f"H0 accepted: A is {t['elo0']:g} Elo stronger rather than {t['elo1']:g}",
                   None: "not decided yet"}[status.decision]
        lines.append(f"SPRT [{t['elo0']:g}, {t['elo1']:g}] logistic Elo, alpha {t['alpha']:g}, "
                     f"beta {t['beta']:g}: LLR {status.llr:.2f} [{status.lower:.2f}, {status.upper:.2f}]")
        lines.append(verdict)
    where = f", results in {out}" if out else ""
    extra = games_total - 2 * status.pairs
    beyond = f"; {extra} more not counted (past the last pair)" if extra else ""
    lines.append(f"{games_run} games this run in {elapsed:.1f} s{where}{beyond}")
    return "\n".join(lines)


@click.command("match", cls=Command)
@click.argument("agent_a", metavar="A")
@click.argument("agent_b", metavar="B")
@game_argument()
@click.option("--sprt", "bounds", default=None, metavar="ELO0,ELO1",
              help="test H0: A is ELO0 Elo stronger against H1: ELO1 (logistic Elo); "
                   "stop when it decides (default: no test, play --max-games)")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="chance of accepting H1 when H0 holds")
@click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="chance of accepting H0 when H1 holds")
@click.option("--max-games", type=click.IntRange(2), default=2000, show_default=True,
              help="stop here if the test has not decided (rounded up to pairs)")
@click.option("--players", "-p", type=int, default=2, show_default=True,
              help="players per game (A and B alternate in the seats)")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="master seed of the deals")
@pool_options()
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="results file, JSON lines (default: a new GAME-match-DATE-TIME.jsonl here; '-' for none)")
@click.option("--resume", is_flag=True, help="continue the match in --out (needs --out)")
@click.option("--overwrite", is_flag=True, help="replace an existing --out")
@click.option("--every", type=click.FloatRange(min=0.0), default=2.0, show_default=True,
              help="seconds between running lines on standard error")
@click.option("--quiet", "-q", is_flag=True, help="no running lines")
@click.option("--json", "as_json", is_flag=True, help="print the final state as JSON, not text")
@game_option()
def command(agent_a: str, agent_b: str, game_id: str, bounds: str | None, alpha: float, beta: float,
            max_games: int, players: int, workers: int | None, seed: int, backend: str, address: str | None,
            out: str | None, resume: bool, overwrite: bool, move_time_limit: float, time_limit: float,
            plugins: tuple[str, ...], every: float, quiet: bool, as_json: bool, options: tuple[str, ...]) -> None:
    """Play agent A against agent B at GAME in pairs of games, one deal with the seats
    swapped, until an SPRT decides whether A is ELO0 or ELO1 Elo stronger (or --max-games).

    Pairs count in order (pentanomial model, one pair one trial); a running line on
    standard error shows the pairs so far, A's Elo over B with a 95% interval, the
    likelihood of superiority (LOS) and the log-likelihood ratio (LLR) between its
    bounds.  Elo is logistic (400 log10 of A's odds).  Each game is appended to --out as
    it ends (a tournament results file), so an interrupted match continues with --resume
    and counts no game twice.

    \b
    romecore match ismcts:simulations=200 random rise_to_power --sprt 0,200
    romecore match ismcts:time=0.1,clock=cpu \\
        "$(python bench/baseline.py 0.1 --time 0.1)" rise_to_power --sprt 0,25
    """
    from romecore import tournament
    from romecore.cli.tournament import stdout_to_stderr
    from romecore.tournament.sprt import PairTally, Sprt, parse_bounds

    game = load_game_or_exit(game_id, players, options)
    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite exclude each other")
    if out is None:
        if resume:
            raise click.UsageError("--resume needs --out FILE: the match's results file")
        out = f"{game_id}-match-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
    try:
        test = None if bounds is None else Sprt(*parse_bounds(bounds), alpha=alpha, beta=beta)
    except RomecoreError as e:
        raise click.BadParameter(str(e), param_hint="--sprt") from None
    tally = PairTally(test, limit=_even(max_games) // 2)
    running = _Running(tally, every, quiet or as_json)
    path = None if out == STDOUT else out
    try:
        with stdout_to_stderr():
            result = tournament.run(
                game, [agent_a, agent_b], games=_even(max_games), seed=seed, workers=workers,
                backend=backend, address=address, out=path, resume=resume, overwrite=overwrite,
                time_limit=time_limit, move_time_limit=move_time_limit or None, plugins=plugins,
                paired_seeds=True, until=running)
    except (RomecoreError, tournament.TournamentError, ImportError) as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        hint = f"; continue with --resume --out {out}" if path else ""
        raise click.ClickException(f"interrupted{hint}") from None
    if not quiet and not as_json and running.shown != tally.pairs:
        running.show()
    status = tally.status()
    if as_json:
        click.echo(json.dumps({"game": game.game_id, "options": game.options, "a": agent_a, "b": agent_b,
                               **status.to_dict(), "games_this_run": result.games_this_run,
                               "failures": [f.index for f in result.failures], "out": path}, indent=1))
        return
    click.echo(report(status, game.game_id, agent_a, agent_b, result.games_this_run, result.games_played,
                      result.elapsed, path))
    if result.forfeits:
        click.echo(f"{len(result.forfeits)} games forfeited this run (counted as the faulty agent's losses), "
                   f"e.g. game {result.forfeits[0].index}: {result.forfeits[0].reason}", err=True)
    if result.failures:
        click.echo(f"{len(result.failures)} games failed (their pairs and the ones after them do not "
                   f"count; --resume plays them again)", err=True)
