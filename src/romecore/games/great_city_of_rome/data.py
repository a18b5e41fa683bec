"""The Great City of Rome as data: building types, the four decks, strips, score tables.

Everything printed on the components lives here and only here; the kernel copies these
tables into C arrays when it is imported.  Correct a printed value here and rebuild
nothing.  Sources: the rulebook (prints A and B) and ``great-city-of-rome.md`` (the
rulings fill in deck contents, costs and strips that the text extraction lost).
"""

from __future__ import annotations

from typing import NamedTuple

# Building kinds (what a type is for the rules).
FARM_VEG, FARM_GRAIN, FARM_SHEEP, VINEYARD = "veg", "grain", "sheep", "vineyard"
RESIDENTIAL, PUBLIC, AQUEDUCT, TEMPLE = "residential", "public", "aqueduct", "temple"

# Public building colours; only "different colour" matters in scoring.
YELLOW, RED, GREEN, BLUE = "yellow", "red", "green", "blue"
COLOURS = (YELLOW, RED, GREEN, BLUE)


class BuildingType(NamedTuple):
    """One kind of card.  ``value`` is a residential value; ``bonus`` is the deck I
    improvement of a public building (+1 coin, influence, draw or point token)."""

    name: str
    kind: str
    cost: int
    stars: int = 0
    value: int = 0
    colour: str | None = None
    bonus: int = 0
    short: str = ""


# Type ids are positions in this tuple (the kernel's chance outcomes and build actions
# use them), so append new types at the end.
TYPES: tuple[BuildingType, ...] = (
    BuildingType("Vegetable Farm", FARM_VEG, 2, short="Veg"),
    BuildingType("Grain Farm", FARM_GRAIN, 2, short="Grn"),
    BuildingType("Sheep Farm", FARM_SHEEP, 2, short="Shp"),
    BuildingType("Vineyard", VINEYARD, 2, short="Vin"),
    BuildingType("Residential 2", RESIDENTIAL, 1, value=2, short="R2"),
    BuildingType("Residential 3", RESIDENTIAL, 2, value=3, short="R3"),
    BuildingType("Residential 4", RESIDENTIAL, 3, value=4, short="R4"),
    BuildingType("Luxury Residential 2", RESIDENTIAL, 1, stars=1, value=2, short="L2"),
    BuildingType("Luxury Residential 3", RESIDENTIAL, 2, stars=1, value=3, short="L3"),
    BuildingType("Luxury Residential 4", RESIDENTIAL, 3, stars=1, value=4, short="L4"),
    BuildingType("Market", PUBLIC, 3, colour=YELLOW, short="Mkt"),
    BuildingType("Arena", PUBLIC, 3, colour=RED, short="Are"),
    BuildingType("School", PUBLIC, 3, colour=GREEN, short="Sch"),
    BuildingType("Thermal Baths", PUBLIC, 3, colour=BLUE, short="Bth"),
    BuildingType("Forum Romanum", PUBLIC, 3, colour=YELLOW, bonus=1, short="For"),
    BuildingType("Colosseum", PUBLIC, 3, colour=RED, bonus=1, short="Col"),
    BuildingType("University", PUBLIC, 3, colour=GREEN, bonus=1, short="Uni"),
    BuildingType("Imperial Thermal Baths", PUBLIC, 3, colour=BLUE, bonus=1, short="ITB"),
    BuildingType("Aqueduct", AQUEDUCT, 1, short="Aq"),
    BuildingType("Grand Aqueduct", AQUEDUCT, 1, stars=1, short="GAq"),
    BuildingType("Temple of Minerva", TEMPLE, 3, short="Min"),
    BuildingType("Temple of Fortuna", TEMPLE, 3, short="Frt"),
    BuildingType("Temple of Cupid", TEMPLE, 3, short="Cup"),
    BuildingType("Temple of Juno", TEMPLE, 3, short="Jun"),
    BuildingType("Temple of Saturn", TEMPLE, 3, short="Sat"),
    BuildingType("Temple of Luna", TEMPLE, 2, stars=1, short="Lun"),
    BuildingType("Temple of Mars", TEMPLE, 2, stars=3, short="Mar"),
    BuildingType("Temple of Venus", TEMPLE, 2, stars=1, short="Ven"),
    BuildingType("Temple of Jupiter", TEMPLE, 2, stars=2, short="Jup"),
    BuildingType("Temple of Mercury", TEMPLE, 2, stars=2, short="Mer"),
)

TYPE_ID = {t.name: i for i, t in enumerate(TYPES)}

_STANDARD = (
    [("Vegetable Farm", 1), ("Grain Farm", 1), ("Sheep Farm", 1)],
    [("Market", 1), ("Arena", 1), ("School", 1), ("Thermal Baths", 1)],
)

# The four decks as (type name, copies).  Deck I holds the 14 special buildings.
DECKS: tuple[tuple[tuple[str, int], ...], ...] = (
    (
        ("Vineyard", 1), ("Luxury Residential 2", 1), ("Luxury Residential 3", 1),
        ("Luxury Residential 4", 1), ("Forum Romanum", 1), ("Colosseum", 1),
        ("University", 1), ("Imperial Thermal Baths", 1), ("Grand Aqueduct", 1),
        ("Temple of Luna", 1), ("Temple of Mars", 1), ("Temple of Venus", 1),
        ("Temple of Jupiter", 1), ("Temple of Mercury", 1),
    ),
    (
        *_STANDARD[0], ("Residential 2", 5), ("Residential 3", 3), ("Residential 4", 2),
        *_STANDARD[1], ("Aqueduct", 4), ("Temple of Minerva", 1),
    ),
    (
        *_STANDARD[0], ("Residential 2", 3), ("Residential 3", 3), ("Residential 4", 1),
        *_STANDARD[1], ("Aqueduct", 2), ("Temple of Fortuna", 1), ("Temple of Cupid", 1),
    ),
    (
        *_STANDARD[0], ("Residential 2", 3), ("Residential 3", 3), ("Residential 4", 1),
        *_STANDARD[1], ("Aqueduct", 2), ("Temple of Juno", 1), ("Temple of Saturn", 1),
    ),
)
DECK_NAMES = ("I", "II", "III", "IV")

# Each player's two starting buildings, laid side by side (farm left, house right).
STARTING = ("Vegetable Farm", "Residential 2")
START_COINS = 5

# Influence cards: (value, deck I cards drawn before it surfaces) per player-count group.
INFLUENCE_CARDS = {
    "3-4": ((3, 3), (6, 6), (10, 10), (14, 14)),
    "2": ((4, 4), (8, 8), (14, 14)),
}
INFLUENCE_VALUES = (3, 4, 6, 8, 10, 14)  # every card's value; card ids are positions here

# Action strips: the six fronts, space 1 (next to the emperor) first.  B = brick, C = cog.
# The back of each strip is its front reversed.
STRIP_FRONTS = ("CBBBC", "BCBCB", "CCBBB", "CBCBB", "CBBCB", "BCCBB")

AQUEDUCT_POINTS = (0, 4, 12, 24, 40)
BRICK_PRICE = 2  # coins per extra brick
COG_PRICE = 1  # coins per extra cog
COGS_TO_PRODUCE = 2

# Temple scoring parameters (see the building reference): points and thresholds.
MINERVA_BUILDINGS, MINERVA_POINTS = 16, 10
FORTUNA_POINTS = 15
CUPID_RES2, CUPID_POINTS = 4, 10
JUNO_TEMPLES, JUNO_POINTS = 4, 10
SATURN_FARMS, SATURN_POINTS = 4, 15
MARS_POINTS = 5
VENUS_PER_RES2 = 2
JUPITER_PER_TEMPLE = 2
MERCURY_COINS_PER_POINT = 3

ROUNDS = {2: 7, 3: 14, 4: 14}
# Decks drawn for the offer each round, in order.
OFFER_DECKS = {2: (0, 0, 1, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


def card_table() -> list[tuple[int, int]]:
    """(type id, deck) for every card id: the 72 deck cards by deck, then the eight
    starting buildings (seat s owns ids 72 + 2s and 73 + 2s; deck -1)."""
    cards: list[tuple[int, int]] = []
    for d, deck in enumerate(DECKS):
        for name, copies in deck:
            cards.extend([(TYPE_ID[name], d)] * copies)
    for _seat in range(4):
        cards.extend((TYPE_ID[name], -1) for name in STARTING)
    return cards


def _check() -> None:
    sizes = [sum(c for _, c in deck) for deck in DECKS]
    assert sizes == [14, 22, 18, 18], sizes
    assert len(card_table()) == 80
    for front in STRIP_FRONTS:
        assert sorted(front) == sorted("BBBCC"), front


_check()
