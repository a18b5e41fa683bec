"""Helpers for building Great City of Rome positions through state_from_dict (imported
by the tests in this folder; pytest puts the folder on sys.path)."""

from __future__ import annotations

import romecore


def gcr(players: int = 4) -> romecore.Game:
    return romecore.load_game("great_city_of_rome", players=players)


def city(*cells: tuple[str, int, int] | tuple[str, int, int, int]) -> list[dict]:
    """[(building, row, col[, tokens]), ...] -> the dict form of a city."""
    out = []
    for cell in cells:
        entry = {"building": cell[0], "row": cell[1], "col": cell[2]}
        if len(cell) == 4:
            entry["tokens"] = cell[3]
        out.append(entry)
    return out


START = [("Vegetable Farm", 3, 2), ("Residential 2", 3, 3)]


def main_phase(players: int = 4, actor: int = 0, space: int = 4, hand=(), coins=5, influence=0,
               city_cells=None, bricks=None, cogs=None, built=False, produced=False,
               face="CBBBC", round_=1, others=None, **extra) -> romecore.State:
    """A state in the action phase: `actor`'s emissary on `space` (0-based), the strip
    face given (strip 0's front unless another of the six fronts is named), offer
    already taken."""
    from romecore.games.great_city_of_rome import data

    n = players
    strip = data.STRIP_FRONTS.index(face)
    order = [strip] + [k for k in range(6) if k != strip]
    em = [None] * 5
    em[space] = actor
    others = others if others is not None else [p for p in range(n) if p != actor]
    free = [k for k in range(5) if k != space]
    per = 2 if n == 2 else 1
    seats = ([actor] * (per - 1)) + list(others) * per
    for k, p in zip(free, seats[: (4 if n == 2 else n) - 1]):
        em[k] = p
    sym = face[: space + 1]
    players_d = []
    for p in range(n):
        pd = {"coins": coins if p == actor else 5, "influence": influence if p == actor else 0}
        if p == actor:
            pd["hand"] = [{"building": h} if isinstance(h, str) else h for h in hand]
            if city_cells is not None:
                pd["city"] = city(*city_cells)
        players_d.append(pd)
    d = {
        "round": round_,
        "phase": "main",
        "actor": actor,
        "strip_order": order[: min(round_, 6)] if round_ <= 6 else order,
        "emissaries": em,
        "turn": {"space": space, "took": True, "built": built, "produced": produced,
                 "bricks": sym.count("B") if bricks is None else bricks,
                 "cogs": sym.count("C") if cogs is None else cogs},
        "players": players_d,
    }
    d.update(extra)
    return gcr(n).state_from_dict(d)
