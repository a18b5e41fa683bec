"""Glory to Rome as data: materials, roles, the 40 buildings, sites and limits.

Everything printed on the components lives here and only here; the kernel copies these
tables into C arrays when it is imported.  Source: the rulebook (I.V edition, 2007) and
``glory-to-rome.md`` (the rulings restore the card table the text extraction lost).
"""

from __future__ import annotations

from typing import NamedTuple


class Material(NamedTuple):
    """A material, the role of the same colour, and its value (materials needed to
    complete a building of it, and the Influence its site gives)."""

    name: str
    role: str
    colour: str
    value: int
    copies: int  # Orders cards of each building of this material


# Material ids are positions here; they double as role ids (Laborer = 0, ...).
MATERIALS: tuple[Material, ...] = (
    Material("Rubble", "Laborer", "yellow", 1, 6),
    Material("Wood", "Craftsman", "green", 1, 6),
    Material("Concrete", "Architect", "grey", 2, 3),
    Material("Brick", "Legionary", "red", 2, 3),
    Material("Stone", "Merchant", "blue", 3, 3),
    Material("Marble", "Patron", "purple", 3, 3),
)
MATERIAL_ID = {m.name: i for i, m in enumerate(MATERIALS)}
ROLE_ID = {m.role: i for i, m in enumerate(MATERIALS)}

# The 40 buildings by material (the rulings' card table).  Building ids are positions in
# BUILDINGS below: material by material in this order, so that every material's cards
# form one contiguous block of card ids.
_BY_MATERIAL = (
    ("Bar", "Insula", "Latrine", "Road"),
    ("Circus", "Dock", "Market", "Palisade"),
    ("Amphitheatre", "Aqueduct", "Bridge", "Senate", "Storeroom", "Tower", "Vomitorium", "Wall"),
    ("Academy", "Archway", "Atrium", "Bath", "Foundry", "Gate", "School", "Shrine"),
    ("Catacomb", "Circus Maximus", "Coliseum", "Garden", "Prison", "Scriptorium", "Sewer", "Villa"),
    ("Basilica", "Forum", "Fountain", "Ludus Magna", "Palace", "Stairway", "Statue", "Temple"),
)


class Building(NamedTuple):
    name: str
    material: int
    copies: int


BUILDINGS: tuple[Building, ...] = tuple(
    Building(name, m, MATERIALS[m].copies) for m, names in enumerate(_BY_MATERIAL) for name in names
)
BUILDING_ID = {b.name: i for i, b in enumerate(BUILDINGS)}

SITES_PER_MATERIAL = 6
JACKS = 6
MERCHANT_BONUS = 3          # points per Merchant Bonus card (strictly most of a material)
START_HAND = 4              # Orders cards dealt to each player (plus one Jack)
START_INFLUENCE = 2
HAND_LIMIT = 5
PETITION_CARDS = 3          # cards of one role that stand in for a Jack
CIRCUS_PETITION_CARDS = 2
SHRINE_HAND = 2
TEMPLE_HAND = 4
INSULA_CLIENTS = 2
MARKET_VAULT = 2
STATUE_POINTS = 3
WALL_MATERIALS_PER_POINT = 2

# Engine limit (not a rule): Jacks can cycle between the pile and the camps forever
# without a card being drawn, so a game that reaches this many actions (chance
# included) ends and is scored as a normal end.  Random games end far sooner.
MAX_ACTIONS = 6000


def card_table() -> list[int]:
    """Building id of every Orders card id (0..143): each building's copies in a row."""
    cards: list[int] = []
    for b, building in enumerate(BUILDINGS):
        cards.extend([b] * building.copies)
    return cards


def alphabet_rank() -> list[int]:
    """Rank of each building's name in alphabetical order (0 comes first): the first
    leader is the player whose pool card ranks lowest."""
    names = sorted(b.name for b in BUILDINGS)
    return [names.index(b.name) for b in BUILDINGS]


def _check() -> None:
    assert len(BUILDINGS) == 40
    cards = card_table()
    assert len(cards) == 144, len(cards)
    for m in range(len(MATERIALS)):
        assert sum(1 for b in cards if BUILDINGS[b].material == m) == 24
    assert len(set(b.name for b in BUILDINGS)) == 40


_check()
