"""Game steps per second of romecore.batch at N = 1, 64 and 1024 for every game, with legal
masks and observation tensors read every step, beside the per-state Python loop doing the
same and the C playout rate; one core.

    python bench/batch_rates.py [seconds per measurement]

A step is one player's action (chance is resolved inside and not counted); actions are
uniformly random legal ones (``Batch.random_actions``, in C).  The issue's targets at
N = 1024 with masks and tensors: 1 M steps/s for Rise to Power and City of Marble, 0.5 M
for the other two.  ``bench/test_bench_batch.py`` times the same runners under
pytest-benchmark.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import numpy as np

import romecore
from romecore.batch import Batch

SIZES = (1, 64, 1024)
PLAYERS = 4  # the issues' reference player count
TARGETS = {"rise_to_power": 1_000_000, "city_of_marble": 1_000_000,
           "great_city_of_rome": 500_000, "glory_to_rome": 500_000}

Runner = tuple[Callable[[], None], int]  # (one call, player steps it makes)


def has_tensor(game: romecore.Game) -> bool:
    try:
        game.observation_tensor_shape()
    except romecore.PluginError:
        return False
    return True


def batch_runner(game: romecore.Game, n: int, tensors: bool = True, calls: int = 0) -> Runner:
    """``calls`` batch steps (enough for ~4096 game steps when 0), each reading the legal
    mask and, with ``tensors``, every game's observation tensor into preallocated arrays."""
    calls = calls or max(1, 4096 // n)
    batch = Batch(game, n, seed=1)
    actions = np.zeros(n, np.int32)
    mask = np.zeros((n, game.num_distinct_actions()), np.bool_)
    rewards = np.zeros((n, game.num_players()), np.float32)
    done = np.zeros(n, np.bool_)
    obs = np.zeros((n, game.observation_tensor_size()), np.float32) if tensors else None

    def run() -> None:
        for _ in range(calls):
            batch.legal_mask(out=mask)
            if obs is not None:
                batch.observation_tensor(out=obs)
            batch.random_actions(out=actions)
            batch.step(actions, rewards=rewards, done=done)

    return run, calls * n


def python_runner(game: romecore.Game, tensors: bool = True, steps: int = 2000) -> Runner:
    """The same work through one State in Python: mask, tensor, a random legal action,
    apply, resolve chance, deal again at the end."""
    seeds = iter(range(1, 10**9))
    state = game.new_initial_state(seed=next(seeds))
    state.resolve_chance()
    pick = random.Random(1)
    obs = np.zeros(game.observation_tensor_size(), np.float32) if tensors else None

    def run() -> None:
        nonlocal state
        for _ in range(steps):
            state.legal_actions_mask()
            if obs is not None:
                state.observation_tensor(state.current_player(), out=obs)
            state.apply_action(pick.choice(state.legal_actions()))
            state.resolve_chance()
            if state.is_terminal():
                state = game.new_initial_state(seed=next(seeds))
                state.resolve_chance()

    return run, steps


def playout_runner(game: romecore.Game, games: int = 20) -> Runner:
    """``games`` whole random games in C (``State.playout``); counts their player steps."""
    root = game.new_initial_state(seed=1)
    seeds = list(range(1, games + 1))
    steps = 0
    for s in seeds:  # player actions per game (chance excluded), counted once, untimed
        replay, played = root.clone(), root.clone()
        played.playout(s)
        for a in played.history():
            steps += replay.current_player() >= 0
            replay.apply_action(a)

    def run() -> None:
        for s in seeds:
            root.clone().playout(s)

    return run, steps


def rate(runner: Runner, seconds: float = 0.4) -> float:
    """Best steps/s over repeated calls within about ``seconds``, timed by this thread's CPU
    time (the runners work in the calling thread), so other processes on a shared machine do
    not count against them."""
    run, steps = runner
    run()  # warm
    best, t_end = 0.0, time.perf_counter() + seconds
    while True:
        t0 = time.thread_time()
        run()
        dt = max(time.thread_time() - t0, 1e-9)
        best = max(best, steps / dt)
        if time.perf_counter() > t_end:
            return best


def rows(seconds: float = 0.4) -> list[dict[str, object]]:
    out = []
    for gid in romecore.list_games():
        game = romecore.load_game(gid, players=PLAYERS)
        tensors = has_tensor(game)
        row: dict[str, object] = {"game": gid, "tensors": tensors}
        for n in SIZES:
            row[f"N={n}"] = rate(batch_runner(game, n, tensors), seconds)
        row["N=1024 mask only"] = rate(batch_runner(game, 1024, False), seconds)
        row["Python loop"] = rate(python_runner(game, tensors), seconds)
        row["C playout"] = rate(playout_runner(game), seconds)
        row["target"] = TARGETS.get(gid)
        out.append(row)
    return out


def table(rs: list[dict[str, object]]) -> str:
    cols = [c for c in rs[0] if c not in ("game", "tensors")]
    lines = [f"{PLAYERS}-player games, game steps/s on one core, masks and tensors read every step "
             "('*': the game has no tensor yet, masks only)",
             "| game | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for r in rs:
        mark = "" if r["tensors"] else " *"
        cells = [f"{r[c] / 1e6:.2f} M" if isinstance(r[c], float) else
                 (f"{r[c] / 1e6:.1f} M" if r[c] else "") for c in cols]
        lines.append(f"| {r['game']}{mark} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(rows(float(sys.argv[1]) if len(sys.argv) > 1 else 0.4)))
