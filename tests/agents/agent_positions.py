"""Great City of Rome positions with a known best move, for the search-agent tests
(imported by ``tests/agents/test_agents_*.py``)."""

from __future__ import annotations

import romecore

GAME = "great_city_of_rome"
A_PLACE, A_BUILD, A_PRODUCE, A_END = 0, 64, 94, 95
MARKET = 10
RES2 = 4
#: Cells next to the starting Residential 2 at (3, 3): (2, 3), (4, 3), (3, 4).
NEXT_TO_HOUSE = {A_PLACE + 2 * 8 + 3, A_PLACE + 4 * 8 + 3, A_PLACE + 3 * 8 + 4}


def last_turn(players: int = 2) -> romecore.State:
    """Player 0's last turn of the game, a Market and a Residential 2 in hand, 3 bricks
    and no cogs from the strip.  Player 0 has 12 points, every opponent 15, and player 0
    has the most influence (the first tie-breaker).

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
        "players": [{"coins": 10, "influence": 4, "hand": ["Market", "Residential 2"]}, *others],
    })


def last_turn_place(players: int = 2) -> romecore.State:
    """As :func:`last_turn`, the Market chosen: only the three cells next to the house win."""
    state = last_turn(players)
    state.apply_action(A_BUILD + MARKET)
    return state
