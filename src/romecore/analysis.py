"""Position analysis and game review: what the AI thinks of a decision, and of every decision
of a recorded game.

:func:`analyse` answers "what do you think of this position, and why?" for the player to
move: the value of every legal move (the mover's expected share of the win, ties shared,
in [0, 1]), the visits or nodes behind it and its standard error, the best move and the
rest of the mover's turn after it.  It is judged from the mover's information set only:
it searches ``worlds`` worlds resampled from the mover's view (``state.resample(player,
seed)``), never the state handed in, each as the judging agent searches to choose a
move (or with an even share of a budget given for the decision), and pools the searches:
a move's value is the mean over the worlds and its standard error comes from how much the
worlds disagree, so the error shows both search noise and what the mover cannot know.
:func:`from_stats` turns one search's ``agent.stats`` into the same typed object.

:func:`review` judges every decision with a choice in a game record: the move played
against the best move, a label on the loss in the mover's value (:data:`THRESHOLDS`;
mistake and blunder only when the two values' confidence intervals do not overlap), and
per player an accuracy and the count of each label.  Decisions are analysed in parallel on
the tournament's local process pool or Ray, and the review can be resumed from its
partial results file.  :func:`plot_svg` draws each player's value over the game with the
flagged moves marked.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from romecore.errors import AgentSpecError, InvalidArgumentError, RomecoreError

__all__ = [
    "ACCURACY_SCALE",
    "DEFAULT_LEVEL",
    "DEFAULT_WORLDS",
    "LABELS",
    "THRESHOLDS",
    "Z",
    "Analysis",
    "Decision",
    "MoveValue",
    "PlayerSummary",
    "Review",
    "agent_for",
    "analyse",
    "decision_tasks",
    "judge_decision",
    "from_stats",
    "label_for",
    "move_accuracy",
    "plot_svg",
    "pool",
    "review",
    "review_schema",
    "search_worlds",
    "summarise",
]

#: The level whose agent judges when none is named and the game names no judge of its own
#: (``GameSpec.review``, the usual default).
DEFAULT_LEVEL = "Strong"
#: Resampled worlds searched per analysis (each with the judge's own budget, or an even
#: share of one given for the whole decision).
DEFAULT_WORLDS = 4
#: Confidence intervals are value +- Z standard errors (95%).
Z = 1.96
#: The review's labels, best first.
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
#: The least loss in the mover's value (value of the best move minus value of the move
#: played, both in [0, 1]) that earns each label; below the first a move is ``good`` (or
#: ``best`` when it is the AI's move).  The scale is chess review's (lichess: a drop of
#: 10, 20 and 30 points of winning chances on a -100..100 scale).
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.15}
#: A move's accuracy is 100 * exp(-loss / ACCURACY_SCALE): 100 for no loss, 61 for a loss
#: of 0.05, 37 for 0.10, 22 for 0.15.
ACCURACY_SCALE = 0.10
#: The longest line (the best move and the rest of the mover's turn) an analysis returns.
MAX_LINE = 8
_BUDGET_PARAMS = ("simulations", "nodes")  # the iteration budget's name, by agent
REVIEW_KIND = "romecore.review"
PARTIAL_KIND = "romecore.review.partial"
REVIEW_FORMAT = 1
SCHEMA_RESOURCE = "review-v1.schema.json"


# -- the result objects ------------------------------------------------------------------
@dataclass(frozen=True)
class MoveValue:
    """One legal move as the search judged it.

    ``value`` is the mover's expected share of the win after it, in [0, 1] (None when no
    search tried it); ``visits`` the iterations that went through it (None for agents
    that value moves without visits: greedy, alpha-beta); ``stderr`` its standard error
    (None when it cannot be told: one world of a visit-less agent)."""

    action: int
    text: str
    value: float | None
    visits: int | None = None
    stderr: float | None = None

    def interval(self, z: float = Z) -> tuple[float, float] | None:
        """``value`` +- ``z`` standard errors (None without both)."""
        if self.value is None or self.stderr is None:
            return None
        return (self.value - z * self.stderr, self.value + z * self.stderr)


@dataclass(frozen=True)
class Analysis:
    """What the search thinks of ``player``'s decision.

    ``moves``: every legal move, best first (by visits for visit-counting searches, as the
    agents choose, else by value); ``best`` its first; ``value`` and ``stderr`` the best
    move's, i.e. the position's value for the mover.  ``line``: the best move and the rest
    of the mover's turn as the agent would play it (decisions the same player takes next
    with nothing drawn or seen in between), with ``line_text``.  ``iterations`` and
    ``seconds``: the searches' totals over ``worlds`` worlds; ``agent`` the spec searched
    with (per world)."""

    player: int
    agent: str
    moves: tuple[MoveValue, ...]
    best: int
    best_text: str
    value: float | None
    stderr: float | None
    line: tuple[int, ...] = ()
    line_text: tuple[str, ...] = ()
    iterations: int = 0
    seconds: float = 0.0
    worlds: int = 1

    def move(self, action: int) -> MoveValue:
        """The :class:`MoveValue` of a legal ``action``."""
        for m in self.moves:
            if m.action == action:
                return m
        raise InvalidArgumentError(f"action {action} is not one of the analysed moves")

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready); :meth:`from_dict` reads it back."""
        d = asdict(self)
        d["moves"] = [asdict(m) for m in self.moves]
        d["line"], d["line_text"] = list(self.line), list(self.line_text)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Analysis:
        return cls(**{**d, "moves": tuple(MoveValue(**m) for m in d["moves"]),
                      "line": tuple(d.get("line", ())), "line_text": tuple(d.get("line_text", ()))})


# -- one search's stats ------------------------------------------------------------------
def from_stats(agent: Any, state: Any) -> Analysis:
    """The :class:`Analysis` of the search ``agent`` just ran on ``state`` (what it was
    stepped with), from its ``stats``: tree searches' root ``(action, visits, summed
    reward)``, PIMC's summed root scores, greedy's and alpha-beta's ``values``.  A move the
    search never tried has value None.  Raises :class:`AgentSpecError` for an agent that
    keeps no statistics (random)."""
    stats = getattr(agent, "stats", None)
    if not isinstance(stats, dict) or not ("root" in stats or "values" in stats):
        raise AgentSpecError(f"{getattr(agent, 'spec', type(agent).__name__)} keeps no search statistics "
                             f"to analyse with: use a search agent (ismcts, mcts, alphabeta, greedy)")
    player = state.current_player()
    legal = state.legal_actions()
    found = _values_of(stats)
    moves = []
    for a in legal:
        value, visits = found.get(a, (None, 0 if _counts_visits(stats) else None))
        stderr = _binomial_stderr(value, visits) if visits else None
        moves.append(MoveValue(a, state.action_to_string(a), value, visits, stderr))
    ordered = _best_first(moves)
    best = ordered[0]
    return Analysis(player=player, agent=str(getattr(agent, "spec", "")), moves=tuple(ordered),
                    best=best.action, best_text=best.text, value=best.value, stderr=best.stderr,
                    line=(best.action,), line_text=(best.text,),
                    iterations=int(stats.get("iterations", 0)), seconds=float(stats.get("seconds", 0.0)))


def _counts_visits(stats: dict) -> bool:
    root = stats.get("root")
    return bool(root) and len(root[0]) == 3  # type: ignore[index]


def _values_of(stats: dict) -> dict[int, tuple[float | None, int | None]]:
    """``{action: (value, visits)}`` from an agent's stats (see :func:`from_stats`)."""
    root = stats.get("root")
    if root and len(root[0]) == 3:  # tree search (summed over PIMC worlds too)
        return {int(a): ((s / n) if n else None, int(n)) for a, n, s in root}
    if root and len(root[0]) == 2 and stats.get("votes"):  # alpha-beta PIMC: summed values
        worlds = sum(stats["votes"].values())
        return {int(a): (s / worlds, None) for a, s in root}
    return {int(a): (float(v), None) for a, v in stats.get("values", [])}


def _binomial_stderr(value: float | None, n: int) -> float | None:
    """The standard error of a mean of ``n`` rewards in [0, 1] whose mean is ``value``
    (their variance is at most value * (1 - value))."""
    if value is None or n <= 0:
        return None
    v = min(1.0, max(0.0, value))
    return math.sqrt(max(v * (1.0 - v), 1e-4) / n)


def _best_first(moves: Sequence[MoveValue]) -> list[MoveValue]:
    """Most visits first where the search counts visits (the agents' own choice), else the
    highest value; then the higher value, then the lower action."""
    def key(m: MoveValue) -> tuple:
        value = -1.0 if m.value is None else m.value
        return (-(m.visits or 0), -value, m.action)
    return sorted(moves, key=key)


# -- pooling searches over worlds ----------------------------------------------------------
def pool(analyses: Sequence[Analysis]) -> Analysis:
    """One :class:`Analysis` from several of the same decision (one per resampled world):
    a move's value is the mean of the worlds' values (visit-weighted where the search
    counts visits), its standard error the larger of the spread between the worlds over
    the square root of their number and, with visits, the binomial bound of the pooled
    visits; the line and spec are the first analysis's whose best move is the pooled one."""
    if not analyses:
        raise InvalidArgumentError("pool needs at least one analysis")
    first = analyses[0]
    moves = [_pool_move([a.move(m.action) for a in analyses]) for m in first.moves]
    ordered = _best_first(moves)
    best = ordered[0]
    return Analysis(player=first.player, agent=first.agent, moves=tuple(ordered), best=best.action,
                    best_text=best.text, value=best.value, stderr=best.stderr,
                    line=(best.action,), line_text=(best.text,), iterations=sum(a.iterations for a in analyses),
                    seconds=sum(a.seconds for a in analyses), worlds=sum(a.worlds for a in analyses))


def _pool_move(per_world: Sequence[MoveValue]) -> MoveValue:
    m0 = per_world[0]
    known = [m for m in per_world if m.value is not None]
    if m0.visits is None:  # values without visits: the plain mean and spread
        if not known:
            return MoveValue(m0.action, m0.text, None, None, None)
        xs = [float(m.value) for m in known if m.value is not None]
        mean = sum(xs) / len(xs)
        return MoveValue(m0.action, m0.text, mean, None, _spread_stderr(xs, mean))
    visits = sum(m.visits or 0 for m in per_world)
    if not known or visits == 0:
        return MoveValue(m0.action, m0.text, None, visits, None)
    mean = sum((m.value or 0.0) * (m.visits or 0) for m in known) / visits
    spread = _spread_stderr([m.value for m in known], mean)  # type: ignore[misc]
    binomial = _binomial_stderr(mean, visits)
    stderr = max(x for x in (spread, binomial) if x is not None) if (spread, binomial) != (None, None) else None
    return MoveValue(m0.action, m0.text, mean, visits, stderr)


def _spread_stderr(xs: Sequence[float], mean: float) -> float | None:
    """The standard error of a mean of ``xs`` from their spread (None for fewer than 2)."""
    if len(xs) < 2:
        return None
    var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    return math.sqrt(var / len(xs))


# -- the agent that judges ------------------------------------------------------------------
def agent_for(game: Any, agent: str | None = None, time: float | None = None,
              simulations: int | None = None, worlds: int = DEFAULT_WORLDS) -> str:
    """The agent spec each of ``worlds`` searches runs: ``agent`` (a spec, a level's name
    or ``level:NAME``; default the game's ``GameSpec.review``, else
    :data:`DEFAULT_LEVEL`), searching each world as it would
    choose a move, with its own budget; or, given ``time`` (CPU seconds) or
    ``simulations`` (iterations) for the whole decision, that budget split evenly over
    the worlds in place of its own."""
    from romecore.agents import level_spec, resolve_level
    from romecore.plugins import registry
    from romecore.spec import parse_agent_spec

    if worlds < 1:
        raise InvalidArgumentError(f"worlds={worlds}: analyse at least one world")
    spec = agent or game.spec.review or DEFAULT_LEVEL
    levels = {name.lower() for name in game.spec.levels}
    if spec.strip().lower() in levels:
        spec = level_spec(game, spec)
    spec = resolve_level(spec, game)
    name, params = parse_agent_spec(spec)
    table = registry.agent(name).params
    budget = next((p for p in _BUDGET_PARAMS if p in table), None)
    if time is not None:
        if not time > 0:
            raise InvalidArgumentError(f"time={time}: give a positive number of seconds")
        if "time" not in table:
            raise AgentSpecError(f"agent {name!r} takes no time budget")
        params.pop(budget or "", None)
        params["time"] = f"{time / worlds:.6g}"
        params.setdefault("clock", "cpu")
    elif simulations is not None:
        if simulations < 1 or budget is None:
            raise AgentSpecError(f"simulations={simulations}: agent {name!r} needs a positive "
                                 f"{budget or 'iteration budget'}")
        params.pop("time", None)
        params[budget] = str(max(1, simulations // worlds))
    return name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def _judge(spec: str, game: Any, seed: int) -> Any:
    """The agent of ``spec``, refused unless it keeps search statistics to analyse with."""
    from romecore.api import make_agent

    agent = make_agent(spec, game=game, seed=seed)
    if getattr(agent, "stats", None) is None:
        raise AgentSpecError(f"{spec} keeps no search statistics to analyse with: use a search agent "
                             f"(ismcts, mcts, alphabeta, greedy)")
    return agent


def _ensure_visits(spec: str, legal: int) -> str:
    """``spec`` with an iteration budget of at least twice the legal moves (so a tree
    search tries every move in every world), where it counts iterations."""
    from romecore.spec import parse_agent_spec

    name, params = parse_agent_spec(spec)
    if "simulations" in params and int(params["simulations"]) < 2 * legal:
        params["simulations"] = str(2 * legal)
        return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
    return spec


def _seed(master: int, *keys: int) -> int:
    from romecore.tournament.schedule import derive_seed

    return derive_seed(master, *keys)


# -- analyse -----------------------------------------------------------------------------
def analyse(state: Any, player: int | None = None, agent: str | None = None, *, time: float | None = None,
            simulations: int | None = None, worlds: int = DEFAULT_WORLDS, seed: int = 0,
            line: bool = True) -> Analysis:
    """What the AI thinks of ``player``'s decision in ``state`` (``player``: the one to
    move; the default).

    ``agent``: a search agent's spec or a level's name (default the game's judge,
    ``GameSpec.review``, else :data:`DEFAULT_LEVEL`), which searches each of ``worlds`` worlds resampled from
    ``player``'s view (never ``state``'s hidden cards themselves) as it would search to
    choose a move; ``time`` (CPU seconds) or ``simulations`` instead give the budget of
    the whole decision, split evenly over the worlds.  With an iteration budget the
    analysis is a function of ``seed``.  With ``line``, the rest of the mover's turn after
    the best move is searched too (in world 0, with a world's budget per decision).

    >>> import romecore
    >>> state = romecore.load_game("rise_to_power", players=2).new_initial_state(seed=1)
    >>> while state.is_chance_node():
    ...     _ = state.apply_random_chance()
    >>> a = romecore.analyse(state, agent="ismcts", simulations=400)
    >>> len(a.moves) == len(state.legal_actions()) and a.best == a.moves[0].action
    True
    >>> 0.0 <= a.value <= 1.0 and a.line[0] == a.best
    True
    """
    who = state.current_player()
    if who < 0:
        raise InvalidArgumentError("analyse needs a player to move (this is a chance node or the end)")
    if player is None:
        player = who
    if player != who:
        raise InvalidArgumentError(f"player {player} is not to move here (player {who} is)")
    return search_worlds(state, player, agent_for(state.game, agent, time, simulations, worlds), worlds, seed, line)


def search_worlds(state: Any, player: int, spec: str, worlds: int, seed: int = 0, line: bool = True) -> Analysis:
    """:func:`analyse` with the per-world agent ``spec`` given (:func:`agent_for`): one
    search of ``spec`` in each of ``worlds`` worlds resampled from ``player``'s view,
    pooled (:func:`pool`), then the line."""
    spec = _ensure_visits(spec, len(state.legal_actions()))
    judge = _judge(spec, state.game, _seed(seed, 0, 2))
    per_world = []
    for k in range(worlds):
        world = state.resample(player, _seed(seed, k, 1))
        _fresh(judge, _seed(seed, k, 2))
        judge.step(world)
        per_world.append(from_stats(judge, world))
    pooled = pool(per_world)
    if line:
        pooled = _with_line(pooled, judge, state.resample(player, _seed(seed, 0, 1)), player, seed)
    return pooled


def _fresh(agent: Any, seed: int) -> None:
    """A new seed (where the agent takes one) and nothing kept from the last search, so
    each world's search depends only on its world and seed."""
    try:
        agent.reseed(seed)
    except AttributeError:
        pass
    restart = getattr(agent, "restart", None)
    if restart is not None:
        restart()


def _with_line(a: Analysis, judge: Any, world: Any, player: int, seed: int) -> Analysis:
    """``a`` with the rest of the mover's turn after its best move, as ``judge`` plays it
    in ``world`` (each decision on a fresh resample of the mover's view there)."""
    moves, texts = [a.best], [a.best_text]
    w = world.clone()
    w.apply_action(a.best)
    while len(moves) < MAX_LINE and w.current_player() == player:
        legal = w.legal_actions()
        if len(legal) == 1:
            choice = legal[0]
        else:
            _fresh(judge, _seed(seed, len(moves), 4))
            choice = judge.step(w.resample(player, _seed(seed, len(moves), 3)))
        moves.append(choice)
        texts.append(w.action_to_string(choice))
        w.apply_action(choice)
    return Analysis(**{**a.__dict__, "line": tuple(moves), "line_text": tuple(texts)})


# -- verdicts ----------------------------------------------------------------------------
def label_for(played: MoveValue, best: MoveValue, is_best: bool, z: float = Z) -> str:
    """The label of playing ``played`` where ``best`` was the AI's move (see
    :data:`THRESHOLDS`): ``best`` when it is the AI's move, else by the loss in the
    mover's value; ``mistake`` and ``blunder`` only when the two values' intervals (+-
    ``z`` standard errors) do not overlap, else at most ``inaccuracy``.  A move without
    a value (never tried) is ``good``: nothing says otherwise."""
    if is_best:
        return "best"
    if played.value is None or best.value is None:
        return "good"
    loss = best.value - played.value
    label = "good"
    for name in ("inaccuracy", "mistake", "blunder"):
        if loss >= THRESHOLDS[name] - 1e-9:  # a loss of exactly the threshold, despite rounding
            label = name
    if label in ("mistake", "blunder") and _overlap(played, best, z):
        label = "inaccuracy"
    return label


def _overlap(a: MoveValue, b: MoveValue, z: float) -> bool:
    """Whether the intervals of ``a`` and ``b`` overlap (unknown errors: they may)."""
    ia, ib = a.interval(z), b.interval(z)
    if ia is None or ib is None:
        return True
    return ia[0] <= ib[1] and ib[0] <= ia[1]


def move_accuracy(loss: float | None) -> float:
    """A move's accuracy in percent from its loss (see :data:`ACCURACY_SCALE`)."""
    return 100.0 * math.exp(-max(0.0, loss or 0.0) / ACCURACY_SCALE)


@dataclass(frozen=True)
class Decision:
    """One reviewed decision.  ``ply``: the move's number in the record (from 1, chance
    moves counted, as ``romecore replay`` numbers them); ``move``/``move_text`` what
    ``player`` played, ``best``/``best_text`` the AI's move; ``value_played`` and
    ``value_best`` the mover's expected share of the win after each (in [0, 1]), with
    their standard errors and visits; ``loss`` their difference (the best's minus the
    played's); ``label`` one of :data:`LABELS`; ``legal`` the number of legal moves;
    ``line``/``line_text`` the AI's best move and the rest of the turn it would play;
    ``checked`` whether a second analysis over twice the worlds judged it too (a mistake
    or blunder must be confirmed: see :func:`judge_decision`)."""

    ply: int
    player: int
    move: int
    move_text: str
    best: int
    best_text: str
    value_played: float | None
    value_best: float | None
    stderr_played: float | None
    stderr_best: float | None
    visits_played: int | None
    visits_best: int | None
    loss: float | None
    label: str
    legal: int
    line: list[int] = field(default_factory=list)
    line_text: list[str] = field(default_factory=list)
    checked: bool = False

    @classmethod
    def judge(cls, ply: int, move: int, analysis: Analysis) -> Decision:
        """The verdict on playing ``move`` where ``analysis`` was made."""
        played, best = analysis.move(move), analysis.moves[0]
        loss = None if played.value is None or best.value is None else best.value - played.value
        return cls(ply=ply, player=analysis.player, move=move, move_text=played.text, best=best.action,
                   best_text=best.text, value_played=played.value, value_best=best.value,
                   stderr_played=played.stderr, stderr_best=best.stderr, visits_played=played.visits,
                   visits_best=best.visits, loss=loss, label=label_for(played, best, move == best.action),
                   legal=len(analysis.moves), line=list(analysis.line), line_text=list(analysis.line_text))


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's review: ``accuracy`` (the mean of its moves' :func:`move_accuracy`, in
    percent), the decisions reviewed, how many earned each label, and the mean loss."""

    player: int
    name: str
    decisions: int
    accuracy: float | None
    mean_loss: float | None
    counts: dict[str, int]


@dataclass
class Review:
    """A reviewed game: where it came from, how it was judged, every decision with a
    choice (:class:`Decision`) and each seat's :class:`PlayerSummary`.  :meth:`to_dict`
    is the published format (:func:`review_schema`)."""

    game: str
    options: dict[str, Any]
    seed: int
    players: list[str]
    source: dict[str, Any]
    judge: dict[str, Any]
    decisions: list[Decision]
    summary: list[PlayerSummary]
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        from romecore import __version__

        return {"kind": REVIEW_KIND, "format": REVIEW_FORMAT, "romecore_version": __version__,
                "game": self.game, "options": dict(self.options), "seed": self.seed,
                "players": list(self.players), "source": dict(self.source), "judge": dict(self.judge),
                "thresholds": dict(THRESHOLDS), "z": Z, "accuracy_scale": ACCURACY_SCALE,
                "decisions": [asdict(d) for d in self.decisions],
                "summary": [asdict(s) for s in self.summary], "seconds": round(self.seconds, 3)}

    def flagged(self, worst: str = "inaccuracy") -> list[Decision]:
        """The decisions labelled ``worst`` or worse."""
        cut = LABELS.index(worst)
        return [d for d in self.decisions if LABELS.index(d.label) >= cut]


def summarise(decisions: Sequence[Decision], names: Sequence[str]) -> list[PlayerSummary]:
    """Each seat's :class:`PlayerSummary` of ``decisions``."""
    out = []
    for p, name in enumerate(names):
        mine = [d for d in decisions if d.player == p]
        losses = [max(0.0, d.loss) for d in mine if d.loss is not None]
        counts = {label: sum(1 for d in mine if d.label == label) for label in LABELS}
        accuracy = sum(move_accuracy(x) for x in losses) / len(losses) if losses else None
        out.append(PlayerSummary(p, name, len(mine), None if accuracy is None else round(accuracy, 1),
                                 sum(losses) / len(losses) if losses else None, counts))
    return out


def review_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a review (:meth:`Review.to_dict`), shipped as
    package data (``romecore/schemas/review-v1.schema.json``)."""
    from importlib.resources import files

    return json.loads(files("romecore.schemas").joinpath(SCHEMA_RESOURCE).read_text("utf-8"))


# -- reviewing a record -------------------------------------------------------------------
@dataclass(frozen=True)
class _DecisionTask:
    """One decision to analyse, as plain data for a worker (the tournament pool's task
    protocol: ``index`` and ``payload``)."""

    index: int
    ply: int
    move: int
    blob: bytes
    agent: str
    worlds: int
    seed: int

    def payload(self, attempt: int = 1) -> dict[str, Any]:
        return {"kind": "analysis", "i": self.index, "ply": self.ply, "move": self.move, "blob": self.blob,
                "agent": self.agent, "worlds": self.worlds, "seed": self.seed, "attempt": attempt}


#: The labels a second analysis must confirm before a review gives them.
CONFIRMED = ("mistake", "blunder")


def judge_decision(state: Any, ply: int, move: int, spec: str, worlds: int, seed: int) -> Decision:
    """The review's verdict on playing ``move`` at ``state`` (move ``ply`` of its record):
    :func:`search_worlds` with the per-world ``spec``, judged (:meth:`Decision.judge`).  A
    move that earns a mistake or blunder is analysed again, over twice the worlds with
    other seeds, and keeps the milder of the two labels, with the second analysis's
    values: a search's value for a move it explored little can be low by chance, and a
    review should not call a move a blunder on one unlucky search."""
    player = state.current_player()
    first = Decision.judge(ply, move, search_worlds(state, player, spec, worlds, seed))
    if first.label not in CONFIRMED:
        return first
    again = Decision.judge(ply, move, search_worlds(state, player, spec, 2 * worlds, _seed(seed, 0xC0F1)))
    return replace(again, label=min(first.label, again.label, key=LABELS.index), checked=True)


def analyse_task(task: dict[str, Any]) -> dict[str, Any]:
    """A worker's answer for one :class:`_DecisionTask` payload: ``{"i", "ok": True,
    "decision"}`` (:func:`judge_decision`, as plain data) or ``{"i", "ok": False,
    "error"}``.  The agent spec is per world (see :func:`agent_for`)."""
    import romecore

    try:
        state = romecore.deserialize(task["blob"])
        d = judge_decision(state, task["ply"], task["move"], task["agent"], task["worlds"], task["seed"])
        return {"i": task["i"], "ok": True, "decision": asdict(d)}
    except Exception as e:  # reported, not raised: the review goes on
        return {"i": task["i"], "ok": False, "error": f"{type(e).__name__}: {e}"}


def decision_tasks(record: Any, spec: str, worlds: int, seed: int, game: int | None = None) -> list[_DecisionTask]:
    """Replays ``record`` (every move checked, and the result at the end: a
    :class:`romecore.records.ReplayError` names the move that fails) and returns a task
    for every decision with a choice, its position as a snapshot."""
    from romecore.records import CHANCE_PLAYER, Replayer

    r = Replayer(record, game)
    tasks: list[Any] = []
    while not r.done():
        ply, state = r.index + 1, r.state
        player = record.players[r.index]
        if player != CHANCE_PLAYER and not state.is_chance_node() and len(state.legal_actions()) > 1:
            tasks.append(_DecisionTask(len(tasks), ply, record.actions[r.index], state.serialize(), spec,
                                       worlds, _seed(seed, ply)))
        r.step()
    r.finish()
    return tasks


class _Collector:
    """The backend's sink: keeps each decision, appends it to the partial file, reports
    progress; failures are kept to raise once every other decision is done."""

    def __init__(self, partial: Any, progress: Callable[[int], None] | None) -> None:
        self.partial = partial
        self.progress = progress
        self.decisions: dict[int, dict] = {}
        self.failures: list[str] = []

    def done(self, task: _DecisionTask, result: dict, attempts: int) -> None:
        self.decisions[task.index] = result["decision"]
        if self.partial is not None:
            self.partial.write(json.dumps({"i": task.index, "decision": result["decision"]}) + "\n")
            self.partial.flush()
        if self.progress is not None:
            self.progress(1)

    def failed(self, task: _DecisionTask, reason: str, attempts: int) -> None:
        self.failures.append(f"move {task.ply}: {reason}")
        if self.progress is not None:
            self.progress(1)

    def event(self, message: str) -> None:
        print(f"romecore analyse: {message}", file=sys.stderr)


def _identity(record: Any, spec: str, worlds: int, seed: int) -> dict[str, Any]:
    """What a partial results file must match to be resumed."""
    actions = hashlib.sha256(json.dumps([record.actions, record.players]).encode()).hexdigest()
    return {"kind": PARTIAL_KIND, "version": 2, "game": record.game_id, "options": record.options,
            "record_seed": record.seed, "moves": actions, "agent": spec, "worlds": worlds, "seed": seed}


def _load_partial(path: str, identity: dict[str, Any]) -> dict[int, dict]:
    """The decisions a partial file holds for this review ({} when it is another review's
    or unreadable); a partial last line (an interrupted write) is dropped."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError:
        return {}
    try:
        if json.loads(lines[0]) != identity:
            return {}
    except ValueError:
        return {}
    done = {}
    for line in lines[1:]:
        try:
            d = json.loads(line)
            done[int(d["i"])] = d["decision"]
        except (ValueError, KeyError, TypeError):
            continue
    return done


def _open_partial(path: str, identity: dict[str, Any], done: dict[int, dict]) -> Any:
    """The partial file, rewritten with its header and what is ``done`` (a clean copy,
    whatever an interruption left), open to append."""
    f = open(path, "w", encoding="utf-8")
    f.write(json.dumps(identity) + "\n")
    for i in sorted(done):
        f.write(json.dumps({"i": i, "decision": done[i]}) + "\n")
    f.flush()
    return f


def _run(tasks: Sequence[_DecisionTask], sink: _Collector, backend: str, workers: int | None,
         address: str | None, plugins: Sequence[str]) -> None:
    """Runs the tasks on the tournament's backends: ``local`` (its process pool; one
    worker runs in this process), ``ray`` or ``inline`` (this process)."""
    from romecore.tournament.worker import pack, unpack

    if backend == "inline" or (backend == "local" and (workers == 1 or len(tasks) <= 1)):
        for task in tasks:
            out = unpack(pack(analyse_task(task.payload())))
            if out["ok"]:
                sink.done(task, out, 1)
            else:
                sink.failed(task, out["error"], 1)
    elif backend == "local":
        from romecore.tournament.local import LocalBackend

        LocalBackend(workers, plugins).run(tasks, sink)  # type: ignore[arg-type]
    elif backend == "ray":
        from romecore.tournament.ray_backend import RayBackend

        RayBackend(address, workers, plugins).run(tasks, sink)  # type: ignore[arg-type]
    else:
        raise InvalidArgumentError(f"backend {backend!r}: choose local, ray or inline")


def review(record: Any, agent: str | None = None, *, time: float | None = None, simulations: int | None = None,
           worlds: int = DEFAULT_WORLDS, seed: int = 0, workers: int | None = None, backend: str = "local",
           address: str | None = None, plugins: Sequence[str] = (), partial: str | None = None, resume: bool = True,
           source: dict[str, Any] | None = None, progress: Callable[[int, int], Any] | None = None) -> Review:
    """Reviews every decision with a choice in ``record`` (a
    :class:`romecore.records.GameRecord`, format 1 or 2): each is analysed as
    :func:`analyse` does (``agent``, ``time``, ``simulations``, ``worlds``; the seed of
    move ``ply`` derived from ``seed``), in parallel on ``backend`` (``local``: the
    tournament's process pool of ``workers`` processes; ``ray`` at ``address``;
    ``inline``), and judged (:func:`judge_decision`).

    The record is replayed and checked first: one that does not replay raises
    :class:`romecore.records.ReplayError` naming the move, before anything is analysed or
    written.  With ``partial`` (a path) each decision is appended there as it ends, and
    (with ``resume``) a review of the same record with the same judge resumes from what
    the file holds; the file is removed when the review is done.  ``progress(done, total)`` is called as
    decisions end (and once at the start).  ``source`` is noted in the review (the
    record's file and index)."""
    from romecore.api import load_game
    from romecore.records import RecordError

    t0 = _time.perf_counter()
    try:
        game = load_game(record.game_id, **record.options)
    except RomecoreError as e:
        raise RecordError(f"the record's game cannot be loaded: {e}") from None
    spec = agent_for(game, agent, time, simulations, worlds)
    _judge(spec, game, 0)  # a bad spec fails here, not in every worker
    tasks = decision_tasks(record, spec, worlds, seed, (source or {}).get("index"))
    identity = _identity(record, spec, worlds, seed)
    done = _load_partial(partial, identity) if partial and resume else {}
    done = {i: a for i, a in done.items() if i < len(tasks)}
    todo = [t for t in tasks if t.index not in done]
    count = [len(done)]

    def advance(n: int) -> None:
        count[0] += n
        if progress is not None:
            progress(count[0], len(tasks))

    if progress is not None:
        progress(len(done), len(tasks))
    f = _open_partial(partial, identity, done) if partial else None
    sink = _Collector(f, advance)
    sink.decisions.update(done)
    try:
        _run(todo, sink, backend, workers, address, plugins)
    finally:
        if f is not None:
            f.close()
    if sink.failures:
        raise RomecoreError(f"{len(sink.failures)} decisions could not be analysed (run again to resume): "
                            + "; ".join(sink.failures[:3]))
    decisions = [Decision(**sink.decisions[t.index]) for t in tasks]
    if partial:
        os.remove(partial)
    names = record.seat_labels()
    return Review(game=record.game_id, options=dict(record.options), seed=record.seed, players=names,
                  source=dict(source or {}),
                  judge={"asked": agent or game.spec.review or DEFAULT_LEVEL, "agent": spec, "worlds": worlds,
                         "seed": seed,
                         "time": time, "simulations": simulations},
                  decisions=decisions, summary=summarise(decisions, names),
                  seconds=_time.perf_counter() - t0)


# -- the graph ---------------------------------------------------------------------------
#: The colour of each flagged label's mark on the graph.
LABEL_COLOURS = {"inaccuracy": "#e6b800", "mistake": "#f07f1a", "blunder": "#c0392b"}
_MARK_RADIUS = {"inaccuracy": 3.5, "mistake": 5.0, "blunder": 6.0}  # the worse, the easier to see


def plot_svg(review: Review, width: int = 900) -> str:
    """The review's graph as SVG in the pictures' style (:class:`romecore.picture.Canvas`):
    each player's value after each of their moves over the game (the mover's expected
    share of the win, 0 to 1), the flagged moves marked by label with a stem up to the
    value the AI's move had, each mark's tooltip saying what was played and what the AI
    preferred; the legend gives each player's accuracy."""
    from romecore.api import load_game
    from romecore.picture import INK, MUTED, PLAYER_COLOURS, Canvas, player_name

    c = Canvas(width)
    name = load_game(review.game, **review.options).spec.name
    heading = c.group("title")
    c.text(12, 22, f"{name}: game review", size=17, weight="bold", parent=heading)
    c.text(c.width - 12, 22, "value: each player's expected share of the win", size=12, anchor="end",
           fill=MUTED, parent=heading)
    c.text(12, 41, f"{len(review.decisions)} decisions with a choice, each judged by "
                   f"{review.judge.get('agent')} in {review.judge.get('worlds')} worlds resampled from the "
                   f"mover's view", size=12, parent=heading)
    y = 54.0
    left, right, top, bottom = 56.0, c.width - 20.0, y + 8, y + 268
    last = max([d.ply for d in review.decisions], default=1)

    def px(ply: float) -> float:
        return left + (right - left) * (ply - 1) / max(1, last - 1)

    def py(v: float) -> float:
        return bottom - (bottom - top) * min(1.0, max(0.0, v))

    axes = c.group("axes")
    c.rect(left, top, right - left, bottom - top, fill="#ffffff", stroke=MUTED, parent=axes)
    for v in (0.0, 0.25, 0.5, 0.75, 1.0):
        c.polyline([(left, py(v)), (right, py(v))], stroke="#e4ded2" if v != 0.5 else "#c9c2b4", parent=axes)
        c.text(left - 6, py(v) + 4, f"{v:g}", size=10, anchor="end", fill=MUTED, parent=axes)
    for ply in _ticks(last):
        c.text(px(ply), bottom + 14, ply, size=10, anchor="middle", fill=MUTED, parent=axes)
    c.text((left + right) / 2, bottom + 30, "move (as the record numbers them)", size=11, anchor="middle",
           fill=MUTED, parent=axes)
    for s in review.summary:
        colour = PLAYER_COLOURS[s.player % len(PLAYER_COLOURS)]
        points = [(px(d.ply), py(d.value_played)) for d in review.decisions
                  if d.player == s.player and d.value_played is not None]
        if len(points) > 1:
            c.polyline(points, stroke=colour, width=2, parent=c.group("player", data_player=s.player))
    marks = c.group("flagged")
    for d in review.flagged():
        if d.value_played is None or d.value_best is None:
            continue
        x, colour = px(d.ply), LABEL_COLOURS[d.label]
        tip = (f"move {d.ply}, {player_name(d.player)}: {d.label}. Played {d.move_text} "
               f"({d.value_played:.2f}); the AI's move {d.best_text} ({d.value_best:.2f})")
        g = c.group("mark", parent=marks, data_ply=d.ply, data_label=d.label)
        c.polyline([(x, py(d.value_best)), (x, py(d.value_played))], stroke=colour, width=1.5, parent=g,
                   stroke_dasharray="3 2")
        c.circle(x, py(d.value_played), _MARK_RADIUS[d.label], fill=colour, stroke=INK, parent=g, title=tip)
    items = []
    for s in review.summary:
        acc = "no moves judged" if s.accuracy is None else f"accuracy {s.accuracy:.0f}%"
        flags = ", ".join(_count(s.counts[k], k) for k in ("inaccuracy", "mistake", "blunder"))
        items.append(("line", PLAYER_COLOURS[s.player % len(PLAYER_COLOURS)],
                      f"{player_name(s.player)} {_short(s.name)}: {acc}; {flags}"))
    items += [("dot", colour, label) for label, colour in LABEL_COLOURS.items()]
    c.legend(bottom + 40, items)
    return c.to_string()


def _ticks(last: int) -> list[int]:
    """Move numbers to label on the x axis: about ten round ones."""
    step = max(1, last // 10)
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if nice >= step:
            step = nice
            break
    return [1] + [p for p in range(step, last + 1, step) if p > 1]


def _count(n: int, label: str) -> str:
    plural = label[:-1] + "ies" if label.endswith("y") else label + "s"
    return f"{n} {label if n == 1 else plural}"


def _short(name: str, room: int = 28) -> str:
    return name if len(name) <= room else name[: room - 1] + "."
