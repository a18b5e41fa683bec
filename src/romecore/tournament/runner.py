"""``run()``: a tournament from its description to its results table."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from romecore.core.seeds import seed64
from romecore.errors import InvalidArgumentError
from romecore.tournament.local import InlineBackend, LocalBackend
from romecore.tournament.progress import progress_bar
from romecore.tournament.resultsfile import ResultsFile, make_header
from romecore.tournament.schedule import GameTask, make_task
from romecore.tournament.stats import Failure, Forfeit, GameSummary, TournamentResult, agent_labels, summarise
from romecore.tournament.worker import load_plugins

__all__ = ["run", "BACKENDS", "make_backend"]

BACKENDS = ("local", "ray", "inline")


class _Enough(Exception):
    """Raised through the backend when ``run``'s ``until`` is satisfied: stop playing."""


class _Collector:
    """The sink the backends report to: file, progress bar, summaries, forfeits, failures."""

    def __init__(self, results: ResultsFile | None, progress: Any, task_id: Any,
                 on_event: Callable[[str], None] | None, labels: Sequence[str],
                 until: Callable[[Mapping[int, GameSummary]], bool] | None = None,
                 resumed: Mapping[int, GameSummary] | None = None) -> None:
        self.labels = list(labels)
        self.results = results
        self.progress = progress
        self.task_id = task_id
        self.on_event = on_event
        self.games: dict[int, GameSummary] = {}
        self.failures: list[Failure] = []
        self.forfeits: list[Forfeit] = []
        self.events: list[str] = []
        self.until = until
        self.finished: dict[int, GameSummary] = dict(resumed or {})

    def done(self, task: GameTask, result: dict, attempts: int) -> None:
        if task.index in self.games:
            return  # never counted twice
        summary = GameSummary.from_summary(result["summary"])
        self.games[task.index] = summary
        if summary.forfeit is not None:
            self.forfeits.append(Forfeit(task.index, summary.forfeit,
                                         self.labels[summary.lineup[summary.forfeit]],
                                         str(result["summary"].get("forfeit_reason"))))
        if self.results is not None:
            self.results.add_line(result["line"])
        if self.progress is not None:
            self.progress.advance(self.task_id)
        if self.until is not None:
            self.finished[task.index] = summary
            if self.until(self.finished):
                raise _Enough

    def failed(self, task: GameTask, reason: str, attempts: int) -> None:
        self.failures.append(Failure(task.index, reason, attempts))
        if self.results is not None:
            self.results.add_failure(task.index, reason, attempts)
        self.event(f"game {task.index} failed: {reason}")
        if self.progress is not None:
            self.progress.advance(self.task_id)

    def event(self, message: str) -> None:
        self.events.append(message)
        if self.on_event is not None:
            self.on_event(message)
        elif self.progress is not None:
            self.progress.console.print(f"[yellow]{message}[/yellow]")


def make_backend(backend: str, workers: int | None, plugins: Sequence[str], time_limit: float, retries: int,
                 move_time_limit: float | None, address: str | None = None,
                 ray_init: dict[str, Any] | None = None) -> Any:
    """The backend named ``backend`` (one of :data:`BACKENDS`) that plays :func:`run`'s and
    the ladder's games, with their ``workers``, ``plugins``, limits and Ray ``address``."""
    if backend == "local":
        return LocalBackend(workers, plugins, time_limit, retries, move_time_limit=move_time_limit)
    if backend == "ray":
        from romecore.tournament.ray_backend import RayBackend

        return RayBackend(address, workers, plugins, time_limit, retries, ray_init)
    if backend == "inline":
        return InlineBackend(plugins)
    raise InvalidArgumentError(f"backend {backend!r}: choose one of {', '.join(BACKENDS)}")


def _resolve_game(game: Any, players: int | None, options: dict | None) -> Any:
    import romecore

    if isinstance(game, romecore.Game):
        if players is not None or options:
            raise InvalidArgumentError("give players and options with a game id, not with a Game")
        return game
    opts = dict(options or {})
    if players is not None:
        opts["players"] = players
    return romecore.load_game(game, **opts)


def run(
    game: Any,
    agents: Sequence[str] | None = None,
    *,
    games: int | None = None,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    out: str | None = None,
    resume: bool = False,
    overwrite: bool = False,
    time_limit: float = 600.0,
    move_time_limit: float | None = 60.0,
    retries: int = 2,
    progress: bool = False,
    plugins: Sequence[str] = (),
    paired_seeds: bool = True,
    start: Any = None,
    on_event: Callable[[str], None] | None = None,
    ray_init: dict[str, Any] | None = None,
    until: Callable[[Mapping[int, GameSummary]], bool] | None = None,
) -> TournamentResult:
    """Plays a tournament and returns its results table as data.

    ``game`` is a game id (with ``players`` and ``options``) or a :class:`romecore.Game`;
    ``agents`` are spec strings (default: the installed default line-up, see
    :mod:`romecore.tournament.defaults`), seated in rotation so each sits in each seat
    equally often over every ``len(agents)`` games; ``games`` defaults with them.  Seeds
    come from ``seed``, so the same arguments give the same games on any backend.

    ``backend`` is ``"local"`` (a pool of ``workers`` processes, default one per CPU),
    ``"ray"`` (Ray tasks on the cluster at ``address``, or a private local instance when
    it is None) or ``"inline"`` (this process, no isolation).  A game whose worker crashes
    or overruns ``time_limit`` seconds is played again from its seed up to ``retries``
    times, then reported in ``failures`` (and left out of the table).

    An agent that raises, returns an illegal move or thinks longer than
    ``move_time_limit`` seconds on a move (None: no limit) forfeits the game: it is in the
    table as that agent's loss (the other seats share the win), counted in its
    ``forfeits``, listed in ``forfeits`` and written to ``out`` with the reason.  It is
    never retried.

    With ``out`` each game's record is appended to that JSON-lines file as it ends (``"-"``,
    like None, keeps no file: standard output is the table's);
    ``resume=True`` continues such a file (games already there are kept and not
    replayed), ``overwrite=True`` replaces it.  ``plugins`` are modules registered in
    every worker (agents not installed as entry points).  ``start`` is a state to start
    every game from instead of each seed's initial state.

    ``until`` stops a tournament early (a sequential test, :mod:`romecore.tournament.sprt`):
    it is called with every finished game so far (index to summary, resumed ones included)
    before the first game and after each; once it returns True no game is started and the
    games in flight are abandoned (not written, not counted).
    """
    import romecore

    if out == "-":
        out = None
    seed = seed64(seed)  # romecore's one seed rule; the header keeps the 64-bit value
    if backend not in BACKENDS:
        raise InvalidArgumentError(f"backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    load_plugins(plugins)
    g = _resolve_game(game, players, options)
    if agents:
        specs = list(agents)
        count = games
    else:
        from romecore.tournament.defaults import default_lineup

        specs, default_games = default_lineup(g)
        count = games if games is not None else default_games
    if count is None:
        count = 100
    if count < 0:
        raise InvalidArgumentError("games must be >= 0")
    if move_time_limit is not None and not move_time_limit > 0:
        raise InvalidArgumentError("move_time_limit must be > 0 seconds (or None for no limit)")
    for spec in specs:  # refuse a bad spec here, not in every worker
        romecore.make_agent(spec, game=g, seed=0)
    if start is not None and start.game != g:
        raise InvalidArgumentError(f"start state is of {start.game!r}, not {g!r}")
    labels = agent_labels(specs)
    start_blob = start.serialize(history=True) if start is not None else None
    header = make_header(g.game_id, g.options, specs, seed, count, paired_seeds,
                         start_blob.hex() if start_blob is not None else None, move_time_limit)

    results = ResultsFile(out, header, resume, overwrite) if out else None
    try:
        done = dict(results.done) if results is not None else {}
        todo = [make_task(g, specs, seed, i, paired_seeds, start, move_time_limit)
                for i in range(count) if i not in done]
        if until is not None and until(done):
            todo = []
        runner = make_backend(backend, workers, plugins, time_limit, retries, move_time_limit, address, ray_init)
        if backend == "local":
            width = min(runner.workers, max(1, len(todo)))
        else:
            width = (workers or 0) if backend == "ray" else 1
        bar = progress_bar() if progress else None
        task_id = None
        if bar is not None:
            task_id = bar.add_task(g.game_id, total=count, completed=len(done), failed=0)
            bar.start()
        sink = _Collector(results, bar, task_id, on_event, labels, until, done)
        t0 = time.perf_counter()
        try:
            runner.run(todo, sink)
        except _Enough:
            pass
        finally:
            elapsed = time.perf_counter() - t0
            if bar is not None:
                bar.stop()
    finally:
        if results is not None:
            results.close()
    games_done = {**done, **sink.games}
    rows = summarise(specs, labels, [games_done[i] for i in sorted(games_done) if i < count])
    return TournamentResult(
        game_id=g.game_id, options=g.options, seed=seed, agents=labels, rows=rows,
        games_planned=count, games_played=sum(1 for i in games_done if i < count),
        games_this_run=len(sink.games), failures=sink.failures, forfeits=sink.forfeits,
        events=sink.events,
        elapsed=elapsed, backend=backend, workers=width, out=out)

