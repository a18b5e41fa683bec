"""Screens an evaluator's weights: two agents, each optionally on a heuristic with
overridden weights, play seat-rotated games, each handed only its player's resampled
view (as in a tournament, whose spec strings cannot carry weights).  Prints the first
agent's win rate (a shared win counts as its share) with a Wilson 95% interval.

    python bench/weights_screen.py great_city_of_rome 2 400 4 \\
        "greedy" "greedy|pending_take=0,pending_brick=0,pending_produce=0"

An agent is ``SPEC`` or ``SPEC|weight=value,...`` (the game's ``heuristic`` with those
weights).  Games are seeded from the seed: the same command gives the same result.
"""

from __future__ import annotations

import argparse
import math
import time

import romecore
from romecore.plugins import registry
from romecore.spec import parse_agent_spec


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def build(desc: str, game: romecore.Game, seed: int):
    """The agent ``SPEC|weights`` describes (the game's agent defaults apply, as in a
    tournament)."""
    spec, _, weights = desc.partition("|")
    name, given = parse_agent_spec(spec)
    agent = registry.agent(name)
    params = {**(game.spec.agent_defaults or {}).get(name, {}), **given}
    params = {k: _number(str(v)) for k, v in params.items()}
    if weights:
        overrides = {k: float(v) for k, v in (kv.split("=") for kv in weights.split(","))}
        params["evaluator"] = romecore.make_evaluator(game, "heuristic", **overrides)
    return agent.factory(game=game, seed=seed, **params)


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return c - h, c + h


def parser(doc: str) -> argparse.ArgumentParser:
    """The arguments of a match between two agents: game, players, games, seed, the two
    agents (``SPEC`` or ``SPEC|weights``)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("agent")
    ap.add_argument("opponent")
    return ap


def play(game: romecore.Game, agent: str, opponent: str, seed: int, g: int) -> romecore.State:
    """Game ``g`` of the match seeded ``seed``: ``agent`` in seat ``g % players``, the
    opponent in the others, each handed its player's resampled view; the final state."""
    n = game.num_players()
    seat = g % n
    agents = [build(agent if p == seat else opponent, game, seed * 1000 + g * 10 + p)
              for p in range(n)]
    state = game.new_initial_state(seed=seed * 100003 + g)
    move = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        p = state.current_player()
        move += 1
        view = state.resample(p, seed=seed * 7 + g * 100000 + move)
        state.apply_action(agents[p].step(view))
    return state


def main() -> None:
    a = parser(__doc__).parse_args()
    game = romecore.load_game(a.game, players=a.players)
    n, wins, t0 = a.players, 0.0, time.time()
    for g in range(a.games):
        wins += play(game, a.agent, a.opponent, a.seed, g).returns()[g % n]
    rate = wins / a.games
    lo, hi = wilson(rate, a.games)
    print(f"{a.agent} vs {a.opponent}, {a.game} {n}p: {wins:g}/{a.games} = {rate:.3f} "
          f"[{lo:.3f}-{hi:.3f}] ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
