"""The strength ladder: every agent against every other at one budget per move, rated by
one maximum-likelihood fit over all the games.

Schedule.  At 2 players every pairing of agents is a match; at P players every set of P
distinct agents is (with no more agents than seats, one match of them all).  A match is a
tournament in the sense of :mod:`romecore.tournament`: its games are the tasks
:func:`~romecore.tournament.schedule.make_task` makes for its roster (seats rotate inside
it, deal seeds come from the ladder's seed, so every match meets the same deals) and it has
its own results file, which ``resume`` continues as ``romecore tournament`` would.  The
games of all matches are played by one backend (the local pool, Ray, or inline), so no
worker waits for a match to end.

Ratings.  A game ranks its agents (:func:`~romecore.tournament.stats.agent_ranks`: by
return, then score), and one fit of all the rankings rates them, the tournament's
(:mod:`romecore.tournament.rating`): Plackett-Luce (at 2 players, Bradley-Terry) maximum
likelihood on the Elo scale, ``random`` at 0 (else the first agent), with 95% intervals
from the observed Fisher information, or from a seeded bootstrap over games resampled
within each match (``interval="bootstrap"``; it shows no spread for a match whose games
all ended alike, such as one agent winning every game).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from romecore.errors import InvalidArgumentError
from romecore.records import dumps_json
from romecore.tournament.progress import progress_bar
from romecore.tournament.rating import check_interval, elo_ratings, rating_anchor
from romecore.tournament.resultsfile import ResultsFile, make_header
from romecore.tournament.runner import make_backend
from romecore.tournament.schedule import GameTask, make_task
from romecore.tournament.stats import GameSummary, agent_labels, agent_ranks
from romecore.tournament.worker import load_plugins

__all__ = ["BUILTIN_AGENTS", "LadderRow", "LadderResult", "match_games", "matches", "run_ladder", "to_markdown",
           "with_budget"]

#: The ladder's agents when none are given, weakest first.
BUILTIN_AGENTS = ("random", "greedy", "mcts", "ismcts", "alphabeta")
#: Parameters that set a budget: a spec naming one keeps its own.
BUDGET_PARAMS = ("time", "simulations", "nodes", "depth")


# -- the schedule ------------------------------------------------------------------------
def with_budget(spec: str, time: float | None = None, simulations: int | None = None,
                clock: str | None = None) -> str:
    """``spec`` with the ladder's budget per move: ``time`` seconds (on ``clock``, wall or
    cpu, where given), or ``simulations`` (an agent without that parameter gets as many
    ``nodes``).  A spec that sets a budget of its own, or an agent that takes none
    (``random``), is left as it is."""
    from romecore.plugins import registry
    from romecore.spec import parse_agent_spec

    if time is None and simulations is None:
        return spec
    name, params = parse_agent_spec(spec)
    agent = registry.agents().get(name)
    if agent is None or any(k in params for k in BUDGET_PARAMS):
        return spec  # an unknown agent is reported when the ladder builds it
    if time is not None:
        key, value = "time", f"{time:g}"
    else:
        key = next((k for k in ("simulations", "nodes") if k in agent.params), "")
        value = str(simulations)
    if key not in agent.params:
        return spec
    extra = {key: value}
    if key == "time" and clock is not None and "clock" in agent.params and "clock" not in params:
        extra["clock"] = clock
    return name + ":" + ",".join(f"{k}={v}" for k, v in {**params, **extra}.items())


def matches(num_agents: int, players: int) -> list[tuple[int, ...]]:
    """The rosters (agent indices) of the ladder's matches: every ``players`` distinct
    agents, or all of them when there are no more agents than seats."""
    if num_agents <= players:
        return [tuple(range(num_agents))]
    return list(itertools.combinations(range(num_agents), players))


def match_games(requested: int, num_agents: int, players: int) -> int:
    """Games per match: ``requested`` rounded up to a whole number of seat rotations (the
    tournament rotates a roster of k agents through the seats every k games)."""
    k = len(matches(num_agents, players)[0])
    return -(-requested // k) * k


# -- the ladder --------------------------------------------------------------------------
@dataclass
class LadderRow:
    """One agent's line of the ladder."""

    agent: str
    games: int  # seats played
    wins: float  # sum of returns: a shared win counts its share
    forfeits: int
    win_rate: float
    rating: float  # Elo scale, the anchor at 0
    rating_low: float  # 95% interval
    rating_high: float
    ms_per_move: float


@dataclass
class LadderResult:
    """What :func:`run_ladder` returns."""

    game_id: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    anchor: str
    budget: str
    games_per_match: int
    matches: list[list[str]]
    rows: list[LadderRow]  # best first
    head_to_head: list[list[float | None]]  # [i][j]: i's share of the games with j where it ranked above j
    games_played: int
    games_this_run: int
    interval: str
    failures: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    backend: str = "local"
    games_dir: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Sink:
    """Where the backend reports: each game goes to its match's results file and table
    under its index in the match (a task's index is its place in this run's list)."""

    def __init__(self, on_event: Callable[[str], None] | None) -> None:
        self.on_event = on_event
        self.files: list[ResultsFile] = []
        self.games: list[dict[int, GameSummary]] = []  # per match: index -> game
        self.where: list[tuple[int, int]] = []  # per task: (match, index in the match)
        self.failures: list[str] = []
        self.this_run = 0
        self.budget = ""  # the ladder's budget a move, for the records' time control
        self.bar: Any = None
        self.bar_task: Any = None

    def done(self, task: GameTask, result: dict, attempts: int) -> None:
        m, k = self.where[task.index]
        if k in self.games[m]:
            return  # never counted twice
        self.games[m][k] = GameSummary.from_summary({**result["summary"], "index": k})
        record = json.loads(result["line"])
        record["meta"]["index"] = k
        record["tags"].setdefault("time_control", {})["budget"] = self.budget
        self.files[m].add_line(dumps_json(record).encode("utf-8"))
        self.this_run += 1
        if self.bar is not None:
            self.bar.advance(self.bar_task)

    def failed(self, task: GameTask, reason: str, attempts: int) -> None:
        m, k = self.where[task.index]
        self.failures.append(f"{self.files[m].path} game {k}: {reason}")
        self.files[m].add_failure(k, reason, attempts)
        self.event(f"{self.files[m].path} game {k} failed: {reason}")
        if self.bar is not None:
            self.bar.advance(self.bar_task)

    def event(self, message: str) -> None:
        if self.on_event is not None:
            self.on_event(message)
        elif self.bar is not None:
            self.bar.console.print(f"[yellow]{message}[/yellow]")


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", spec)


def run_ladder(
    game: Any,
    agents: Sequence[str] | None = None,
    *,
    time: float | None = None,
    simulations: int | None = None,
    clock: str | None = None,
    games_per_match: int = 20,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    games_dir: str,
    resume: bool = False,
    overwrite: bool = False,
    move_time_limit: float | None = 60.0,
    progress: bool = False,
    interval: str = "fisher",
    bootstrap: int = 200,
    prior: float = 1.0,
    plugins: Sequence[str] = (),
    time_limit: float = 600.0,
    retries: int = 2,
    on_event: Callable[[str], None] | None = None,
) -> LadderResult:
    """Plays the ladder of ``agents`` (default :data:`BUILTIN_AGENTS`, each given the
    budget ``time`` seconds on ``clock`` or ``simulations`` per move, see :func:`with_budget`) at the
    :class:`romecore.Game` ``game`` and rates them.  Each match's games go to its own
    results file in ``games_dir``; ``resume`` continues them, ``overwrite`` replaces them.
    ``games_per_match`` is rounded up by :func:`match_games` so that seats balance.
    ``plugins`` are modules registering more agents, loaded here and in every worker;
    ``time_limit``, ``retries`` and ``move_time_limit`` are as in :func:`romecore.tournament.run`
    (failed games are listed and left out; forfeits count as the faulty agent's losses)."""
    import romecore

    if time is not None and simulations is not None:
        raise InvalidArgumentError("give a time or a simulations budget, not both")
    if time is not None and not (time > 0 and math.isfinite(time)):
        raise InvalidArgumentError(f"time must be > 0 seconds, got {time!r}")
    if simulations is not None and not (isinstance(simulations, int) and simulations > 0):
        raise InvalidArgumentError(f"simulations must be a positive int, got {simulations!r}")
    check_interval(interval, bootstrap)
    if not isinstance(games_per_match, int) or games_per_match < 1:
        raise InvalidArgumentError(f"games_per_match must be >= 1, got {games_per_match!r}")
    if time is None and simulations is None and not agents:
        time = 0.1
    load_plugins(plugins)
    if clock not in (None, "wall", "cpu"):
        raise InvalidArgumentError(f"clock {clock!r}: choose wall or cpu")
    specs = [with_budget(s, time, simulations, clock) for s in (agents or BUILTIN_AGENTS)]
    if len(specs) < 2:
        raise InvalidArgumentError("a ladder needs at least two agents")
    labels = agent_labels(specs)
    n = len(specs)
    players = game.num_players()
    count = match_games(games_per_match, n, players)
    plan = matches(n, players)
    anchor = rating_anchor(specs)
    budget = (f"{time:g} s a move" if time is not None else
              f"{simulations} simulations (or nodes) a move" if simulations is not None else "as given")

    for spec in specs:  # refuse a bad spec here, not in every worker
        romecore.make_agent(spec, game=game, seed=0)
    runner = make_backend(backend, workers, plugins, time_limit, retries, move_time_limit, address)
    os.makedirs(games_dir, exist_ok=True)
    sink = _Sink(on_event)
    sink.budget = budget
    todo: list[GameTask] = []
    t0 = _now()
    try:
        for m, roster in enumerate(plan):
            roster_specs = [specs[a] for a in roster]
            path = os.path.join(games_dir, f"{m:02d}_{'_vs_'.join(_slug(s) for s in roster_specs)}.jsonl")
            header = make_header(game.game_id, game.options, roster_specs, seed, count, True, None,
                                 move_time_limit)
            sink.files.append(ResultsFile(path, header, resume, overwrite))
            sink.games.append({k: g for k, g in sink.files[m].done.items() if k < count})
        for k in range(count):  # game k of every match before game k + 1 of any
            for m, roster in enumerate(plan):
                if k not in sink.games[m]:
                    task = make_task(game, [specs[a] for a in roster], seed, k, True, None, move_time_limit)
                    sink.where.append((m, k))
                    todo.append(dataclasses.replace(task, index=len(todo),
                                                    labels=tuple(labels[roster[a]] for a in task.lineup)))
        if progress:
            sink.bar = progress_bar()
            sink.bar_task = sink.bar.add_task(game.game_id, total=len(plan) * count,
                                              completed=len(plan) * count - len(todo), failed=0)
            sink.bar.start()
        try:
            runner.run(todo, sink)
        finally:
            if sink.bar is not None:
                sink.bar.stop()
    finally:
        for f in sink.files:
            f.close()
    games = [(m, played_games[k]) for m, played_games in enumerate(sink.games) for k in sorted(played_games)]

    played = [0] * n
    wins = [0.0] * n
    forfeits = [0] * n
    think = [0.0] * n
    moves = [0] * n
    above = [[0.0] * n for _ in range(n)]
    met = [[0] * n for _ in range(n)]
    ranked: list[dict[int, int]] = []
    for m, g in games:
        roster = plan[m]
        for seat, a in enumerate(g.lineup):
            i = roster[a]
            played[i] += 1
            wins[i] += g.returns[seat]
            think[i] += g.think_seconds[seat]
            moves[i] += g.moves[seat]
            forfeits[i] += int(g.forfeit == seat)
        ranks = {roster[a]: r for a, r in agent_ranks(g).items()}
        for i, j in itertools.permutations(ranks, 2):
            met[i][j] += 1
            above[i][j] += 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
        ranked.append(ranks)
    ratings = elo_ratings(ranked, n, anchor, prior=prior, interval=interval, samples=bootstrap, seed=seed,
                          strata=[m for m, _ in games])
    rows = [LadderRow(labels[i], played[i], wins[i], forfeits[i],
                      wins[i] / played[i] if played[i] else 0.0, *ratings[i],
                      1000 * think[i] / moves[i] if moves[i] else 0.0) for i in range(n)]
    order = sorted(range(n), key=lambda i: -rows[i].rating)
    return LadderResult(
        game_id=game.game_id, options=dict(game.options), seed=seed, agents=labels,
        anchor=labels[anchor], budget=budget, games_per_match=count,
        matches=[[labels[a] for a in roster] for roster in plan], rows=[rows[i] for i in order],
        head_to_head=[[above[i][j] / met[i][j] if met[i][j] else None for j in order] for i in order],
        games_played=len(games), games_this_run=sink.this_run, interval=interval, failures=sink.failures,
        elapsed=_now() - t0, backend=backend, games_dir=games_dir)


def _now() -> float:
    return time.perf_counter()


def to_markdown(result: LadderResult) -> str:
    """The ladder as a Markdown report: the rating table, then head to head."""
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    how = ("bootstrap over games within each match" if result.interval == "bootstrap"
           else "observed Fisher information")
    lines = [
        f"# Ladder: {result.game_id} ({opts})", "",
        f"Budget {result.budget}; {result.games_played} games, {result.games_per_match} per match "
        f"({len(result.matches)} matches), seed {result.seed}.  Ratings: batch Plackett-Luce "
        f"(Bradley-Terry at 2 players) maximum likelihood, Elo scale, `{result.anchor}` = 0; "
        f"95% intervals from the {how}.", "",
        "| agent | games | wins | win rate | rating | 95% interval | ms/move |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in result.rows:
        ff = f" ({r.forfeits} forfeited)" if r.forfeits else ""
        lines.append(f"| `{r.agent}` | {r.games} | {r.wins:g}{ff} | {r.win_rate:.1%} | {r.rating:.0f} | "
                     f"{r.rating_low:.0f} to {r.rating_high:.0f} | {r.ms_per_move:.3f} |")
    names = [r.agent for r in result.rows]
    lines += ["", "Head to head: the row agent's share of the games with the column agent in "
              "which it ranked above it (ties half).", "",
              "| | " + " | ".join(f"`{a}`" for a in names) + " |",
              "| --- |" + " ---: |" * len(names)]
    for a, row in zip(names, result.head_to_head):
        lines.append(f"| `{a}` | " + " | ".join("" if x is None else f"{x:.0%}" for x in row) + " |")
    if result.failures:
        lines += ["", f"{len(result.failures)} games failed (not counted):", ""]
        lines += [f"- {f}" for f in result.failures]
    return "\n".join(lines) + "\n"
