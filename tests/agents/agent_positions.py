"""Great City of Rome positions with a known best move, and positions in the middle of a
turn in every game, for the search-agent tests (imported by ``tests/agents/test_agents_*.py``)."""

from __future__ import annotations

import random

import romecore

GAME = "great_city_of_rome"
#: The four built-in games (for tests that hold in every game).
GAMES = ("great_city_of_rome", "city_of_marble", "glory_to_rome", "rise_to_power")
#: Actions by name (``state.string_to_action``), so the tests do not depend on the encoding.
BUILD_MARKET = "build Market"
END_TURN = "end turn"
#: The Market on a cell next to the starting Residential 2 at (3, 3): (2, 3), (4, 3), (3, 4).
MARKET_NEXT_TO_HOUSE = ("build Market at (2,3)", "build Market at (4,3)", "build Market at (3,4)")


def action(state: romecore.State, name: str) -> int:
    """The legal action named ``name`` in ``state`` (IllegalActionError if none is)."""
    return state.string_to_action(name)


def action_if_legal(state: romecore.State, name: str) -> int | None:
    """The legal action named ``name``, or None when no legal action has that name."""
    try:
        return state.string_to_action(name)
    except romecore.IllegalActionError:
        return None


def build_market(state: romecore.State) -> int:
    """Choosing the Market in :func:`last_turn`'s position (the winning choice)."""
    return action(state, BUILD_MARKET)


def next_to_house(state: romecore.State) -> set[int]:
    """In :func:`last_turn_place`'s position, the three winning cells for the Market."""
    return {action(state, name) for name in MARKET_NEXT_TO_HOUSE}


def last_turn(players: int = 2, hand: tuple[str, ...] = ("Market", "Residential 2")) -> romecore.State:
    """Player 0's last turn of the game, a Market and a Residential 2 in hand, 3 bricks
    and no cogs from the strip.  Player 0 has 12 points, every opponent 15, and player 0
    has the most influence (the first tie-breaker).  ``hand`` replaces the hand.

    Only a Market next to the house wins: +2 for the house's area, which then touches a
    public building, and +1 coin for the Market's neighbour reach 15 (a tie that influence
    breaks).  Producing nets -1 (2 cogs bought, 1 coin made), so it never helps; a Market
    elsewhere gives +1; the house +0.
    """
    game = romecore.load_game(GAME, players=players)
    others = [{"coins": 14, "influence": 2} for _ in range(players - 1)]
    if players == 2:
        emissaries, space = [1, 0, 1, 0, None], 3
    else:
        emissaries, space = [q for q in range(1, players)] + [0] + [None] * (5 - players), players - 1
    return game.state_from_dict({
        "round": 7 if players == 2 else 14,
        "phase": "main", "first_player": 0 if players == 2 else 1 % players, "actor": 0,
        "emissaries": emissaries,
        "turn": {"space": space, "bricks": 3, "cogs": 0, "took": True},
        "players": [{"coins": 10, "influence": 4, "hand": list(hand)}, *others],
    })


def last_turn_place(players: int = 2) -> romecore.State:
    """As :func:`last_turn`, the Market chosen: only the three cells next to the house win."""
    state = last_turn(players)
    state.apply_action(build_market(state))
    return state


def mid_turn(gid: str, seed: int) -> tuple[romecore.State, int]:
    """A position where the mover has a real choice and every choice leaves them to decide
    again (the middle of a turn), reached by random play; the mover too."""
    rng = random.Random(seed)
    game = romecore.load_game(gid, players=2)
    state = game.new_initial_state(seed=seed)
    for _ in range(2000):
        state.resolve_chance()
        legal = state.legal_actions()
        p = state.current_player()
        if len(legal) > 2:
            nxt = [state.clone() for _ in legal]
            for s, a in zip(nxt, legal):
                s.apply_action(a)
            if all(s.current_player() == p for s in nxt):
                return state, p
        state.apply_action(rng.choice(legal))
    raise AssertionError("no such position")


def __getattr__(name: str):
    """Old numeric names, still read by tests/agents/test_heuristics_gcor.py; derived from
    the action names, never hard-coded.  New tests use the functions above."""
    if name == "NEXT_TO_HOUSE":
        return next_to_house(last_turn_place(2))
    if name == "A_BUILD":  # the first building choice ("build <building>", no cell)
        state = last_turn(2)
        return next(a for a in range(state.game.num_distinct_actions())
                    if state.action_to_string(a).startswith("build ") and " at (" not in state.action_to_string(a))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
