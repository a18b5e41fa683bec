"""Rome: Rise to Power as data: provinces, Senate cards, Arena cards, the show table and
every printed number the rules use.

Everything printed on the components lives here and only here; the kernel copies these
tables into C arrays when it is imported.  Sources: the rulebook (``rise-to-power.txt``)
and the rulings (``rise-to-power.md``), whose card lists reconstruct the lists the text
extraction lost.  Correct a printed value here, rebuild nothing.
"""

from __future__ import annotations

from typing import NamedTuple

# Province types (the symbol bottom left) and resources (bottom right).
VILLA, ARENA, ARMY_CAMP = "Villa", "Arena", "Army Camp"
PROVINCE_TYPES = (VILLA, ARENA, ARMY_CAMP)
OLIVES, WINE, JEWELRY = "Olives", "Wine", "Jewelry"
RESOURCES = (OLIVES, WINE, JEWELRY)  # also the forum tracks, scored in this order
REGIONS = ("Italia", "Gallia", "Hispania", "Greko", "Africa", "Asia", "Aegyptus")
ERAS = ("I", "II", "III")


class Province(NamedTuple):
    name: str
    region: str
    era: int  # 1, 2 or 3
    power: int
    type: str
    resource: str


# Province ids are positions in this tuple.
PROVINCES: tuple[Province, ...] = (
    Province("Etruria", "Italia", 1, 4, VILLA, WINE),
    Province("Gallia Narbonensis", "Gallia", 1, 5, ARMY_CAMP, WINE),
    Province("Baetica", "Hispania", 1, 6, VILLA, OLIVES),
    Province("Epirus", "Greko", 1, 5, ARENA, OLIVES),
    Province("Achaea", "Greko", 1, 7, VILLA, WINE),
    Province("Africa Proconsularis", "Africa", 1, 3, VILLA, OLIVES),
    Province("Bithynia", "Asia", 1, 4, ARENA, JEWELRY),
    Province("Cyrenaica", "Aegyptus", 1, 6, ARMY_CAMP, JEWELRY),
    Province("Campania", "Italia", 2, 8, ARENA, OLIVES),
    Province("Gallia Lugdunensis", "Gallia", 2, 7, VILLA, JEWELRY),
    Province("Tarraconensis", "Hispania", 2, 8, ARMY_CAMP, JEWELRY),
    Province("Macedonia", "Greko", 2, 7, ARMY_CAMP, JEWELRY),
    Province("Thracia", "Greko", 2, 9, ARENA, WINE),
    Province("Numidia", "Africa", 2, 6, ARMY_CAMP, WINE),
    Province("Cappadocia", "Asia", 2, 10, VILLA, OLIVES),
    Province("Aegyptus", "Aegyptus", 2, 9, ARENA, WINE),
    Province("Gallia Belgica", "Gallia", 3, 11, ARMY_CAMP, OLIVES),
    Province("Lusitania", "Hispania", 3, 12, ARENA, WINE),
    Province("Mauretania", "Africa", 3, 10, VILLA, JEWELRY),
    Province("Arabia", "Aegyptus", 3, 13, ARMY_CAMP, JEWELRY),
)

# The 2-player game removes every province of these regions.
TWO_PLAYER_REMOVED_REGIONS = ("Hispania", "Asia")

# Senate card abilities (what the kernel does when a card is activated or scored).
MILITARY_BONUS = "military_bonus"      # + amount power when the Military track resolves
COIN_BONUS = "coin_bonus"              # + amount coins when the Black Market resolves
REROLL_PLACED_MILITARY = "reroll_placed_military"  # re-roll one placed Military die
REROLL_UNPLACED = "reroll_unplaced"    # re-roll any unplaced dice, `amount` times
INVERT = "invert"                      # one unplaced die v becomes 7 - v
SHIFT = "shift"                        # one unplaced die +/- 1, wrapping 1 <-> 6
CONSUL = "consul"                      # the die placed may exceed its group's rightmost
TURN_ORDER_SELF = "turn_order_self"    # phase 1: own sum - amount
TURN_ORDER_OTHER = "turn_order_other"  # phase 1: another player's sum + amount
LOWER_PLACED = "lower_placed"          # one placed die - 1; a 1 becomes 0 and leads
FORUM_MOVE = "forum_move"              # scoring: + 1 on the `resource` track
ENDGAME_REGIONS = "endgame_regions"    # end: amount VP per region with an Arch
ENDGAME_TYPE = "endgame_type"          # end: amount VP per province of `province_type`
ENDGAME_PAIRS = "endgame_pairs"        # end: amount VP per Senate card/province pair
REROLL_ANY = "reroll_any"              # re-roll one unplaced die of any player
DISCARD_PROVINCE = "discard_province"  # discard a Senate card: an Era I province goes
STEAL = "steal"                        # move up `resource`, another player moves down
SHOW_BONUS = "show_bonus"              # scoring: show + amount VP and + amount rank

# When a card's ability is used.
PHASE_2, PHASE_1, SCORING, END = "phase 2", "phase 1", "scoring", "end"
ABILITY_TIMING = {
    MILITARY_BONUS: PHASE_2, COIN_BONUS: PHASE_2, REROLL_PLACED_MILITARY: PHASE_2,
    REROLL_UNPLACED: PHASE_2, INVERT: PHASE_2, SHIFT: PHASE_2, CONSUL: PHASE_2,
    LOWER_PLACED: PHASE_2, REROLL_ANY: PHASE_2, DISCARD_PROVINCE: PHASE_2, STEAL: PHASE_2,
    TURN_ORDER_SELF: PHASE_1, TURN_ORDER_OTHER: PHASE_1,
    FORUM_MOVE: SCORING, SHOW_BONUS: SCORING,
    ENDGAME_REGIONS: END, ENDGAME_TYPE: END, ENDGAME_PAIRS: END,
}


class SenateCard(NamedTuple):
    """One Senate card.  ``symbol`` is the province type it is placed on (``symbols``
    provinces of it for the two-symbol cards); forum scoring cards are placed on a
    province of ``resource`` instead.  ``two_player`` is False for the cards the
    2-player game removes; an Intrigue card takes the place of the base card of the same
    title, 2-player status included."""

    title: str
    era: int
    symbol: str
    ability: str
    amount: int = 0
    symbols: int = 1
    two_player: bool = True
    intrigue: bool = False
    resource: str | None = None
    province_type: str | None = None


# Senate card ids are positions in this tuple; the 20 base cards come first.
SENATE: tuple[SenateCard, ...] = (
    SenateCard("Legatus", 1, ARMY_CAMP, MILITARY_BONUS, 1),
    SenateCard("Legatus", 1, ARMY_CAMP, MILITARY_BONUS, 1, two_player=False),
    SenateCard("Magistrate", 1, VILLA, COIN_BONUS, 1),
    SenateCard("Censor", 1, VILLA, REROLL_UNPLACED, 1),
    SenateCard("Quaestor", 1, ARENA, INVERT),
    SenateCard("Vicarius", 1, VILLA, SHIFT, 1),
    SenateCard("Military Tribune", 1, ARMY_CAMP, REROLL_PLACED_MILITARY, two_player=False),
    SenateCard("Hispania Maximus", 1, VILLA, FORUM_MOVE, 1, resource=OLIVES),
    SenateCard("Consul", 2, ARENA, CONSUL),
    SenateCard("Tribunus", 2, ARENA, TURN_ORDER_SELF, 3, two_player=False),
    SenateCard("Senator", 2, VILLA, LOWER_PLACED, 1, two_player=False),
    SenateCard("Aedile", 2, ARENA, COIN_BONUS, 3, symbols=2),
    SenateCard("Magister Equitum", 2, ARMY_CAMP, MILITARY_BONUS, 3, symbols=2),
    SenateCard("Proconsul", 2, VILLA, REROLL_UNPLACED, 2, symbols=2),
    SenateCard("Africanus Maximus", 2, ARMY_CAMP, FORUM_MOVE, 1, resource=WINE),
    SenateCard("Greko Maximus", 2, ARENA, ENDGAME_PAIRS, 1),
    SenateCard("Asianus", 3, VILLA, ENDGAME_REGIONS, 1),
    SenateCard("Ludi Maximus", 3, ARENA, ENDGAME_TYPE, 2, province_type=ARENA),
    SenateCard("Imperator", 3, ARMY_CAMP, ENDGAME_TYPE, 2, province_type=ARMY_CAMP),
    SenateCard("Praetor", 3, VILLA, ENDGAME_TYPE, 2, two_player=False, province_type=VILLA),
    # Intrigue cards (the dagger icon); each replaces the base card of its title.
    SenateCard("Vicarius", 1, VILLA, REROLL_ANY, intrigue=True),
    SenateCard("Hispania Maximus", 1, ARMY_CAMP, DISCARD_PROVINCE, 1, intrigue=True),
    SenateCard("Tribunus", 2, ARENA, TURN_ORDER_OTHER, 3, two_player=False, intrigue=True),
    SenateCard("Greko Maximus", 2, ARENA, SHOW_BONUS, 1, intrigue=True),
    SenateCard("Africanus Maximus", 2, VILLA, STEAL, 1, intrigue=True, resource=JEWELRY),
)

# The titles the `intrigue` option may name, in the order of its bit mask.
INTRIGUE_TITLES = ("Vicarius", "Hispania Maximus", "Tribunus", "Greko Maximus", "Africanus Maximus")
# Era I provinces are the ones the Intrigue Hispania Maximus may discard.
DISCARD_PROVINCE_ERA = 1

# Arena cards.
ROMAN, BEAST, BARBARIAN = "Roman", "Beast", "Barbarian"
CATEGORIES = (ROMAN, BEAST, BARBARIAN)


class ArenaType(NamedTuple):
    name: str
    category: str
    cost: int
    copies: int


# Arena type ids are positions in this tuple; card ids run through the copies in order.
ARENA_TYPES: tuple[ArenaType, ...] = (
    ArenaType("Murmillo", ROMAN, 2, 3),
    ArenaType("Retiarius", ROMAN, 2, 3),
    ArenaType("Secutor", ROMAN, 3, 3),
    ArenaType("Thraex", ROMAN, 3, 2),
    ArenaType("Hoplomachus", ROMAN, 4, 2),
    ArenaType("Lion", BEAST, 3, 2),
    ArenaType("Bear", BEAST, 3, 2),
    ArenaType("Tiger", BEAST, 4, 2),
    ArenaType("Crocodile", BEAST, 5, 1),
    ArenaType("Elephant", BEAST, 6, 1),
    ArenaType("Rhinoceros", BEAST, 6, 1),
    ArenaType("Gaul", BARBARIAN, 3, 2),
    ArenaType("Germanus", BARBARIAN, 3, 2),
    ArenaType("Dacian", BARBARIAN, 4, 2),
    ArenaType("Briton", BARBARIAN, 5, 1),
    ArenaType("Numidian", BARBARIAN, 5, 1),
    ArenaType("Parthian", BARBARIAN, 6, 1),
)
FACE_DOWN_COST = 5  # coins for one card from the top of the Arena deck
ARENA_ROW = 5       # face-up Arena cards dealt each round
SHOW_MIN = 3        # cards in a show, at least

# Show ranks, lowest first: (name, VP).  What each rank needs is the rulebook's table:
#   Any 3 cards; Any 3 different cards; One of a kind: 1 Roman + 1 Beast + 1 Barbarian;
#   3 Diverse: 3 different Beasts or 3 different Barbarians;
#   Battle Royal: 2 different Barbarians + any 3 Romans.
SHOW_RANKS = (
    ("Any 3 cards", 1),
    ("Any 3 different cards", 2),
    ("One of a kind", 3),
    ("3 Diverse", 5),
    ("Battle Royal", 8),
)
BEST_SHOW_BONUS = 1

# Board and rounds.
TRACKS = ("Military", "Senate", "Black Market")  # resolved in this order
SECTIONS = 4
DICE = 4            # Power Dice per player
FACES = 6
ROUNDS = 5
SCORING_ROUNDS = (3, 5)
ROW_SIZE = {2: 3, 3: 4, 4: 4}  # province and Senate cards dealt a round
ERA_OF_ROUND = (1, 1, 2, 2, 3)  # rows of rounds 1-5 come from these eras
FORUM_MAX = 7
ARCHES = 8          # per player: each province held carries one
REGION_MAJORITY_VP = 2
REGION_ALL_VP = 3
REGION_TIE_VP = 1


def provinces_in_game(players: int) -> list[int]:
    """Province ids used with this many players."""
    return [i for i, p in enumerate(PROVINCES)
            if players > 2 or p.region not in TWO_PLAYER_REMOVED_REGIONS]


def intrigue_mask(titles) -> int:
    """Bit mask (INTRIGUE_TITLES order) of the titles whose Intrigue card is used."""
    mask = 0
    for t in titles:
        mask |= 1 << INTRIGUE_TITLES.index(t)
    return mask


def senate_in_game(players: int, mask: int) -> list[int]:
    """Senate card ids in the deck for this player count and intrigue mask."""
    out = []
    for i, card in enumerate(SENATE):
        swapped = card.title in INTRIGUE_TITLES and (mask >> INTRIGUE_TITLES.index(card.title)) & 1
        if card.intrigue != bool(swapped):
            continue
        if players == 2 and not card.two_player:
            continue
        out.append(i)
    return out


def arena_card_types() -> list[int]:
    """Arena type id of every card id (31 cards)."""
    return [t for t, at in enumerate(ARENA_TYPES) for _ in range(at.copies)]


def _check() -> None:
    assert len(PROVINCES) == 20 and len(SENATE) == 25
    assert len(arena_card_types()) == 31
    for n in (2, 3, 4):
        k = ROW_SIZE[n]
        provs = provinces_in_game(n)
        assert len(provs) == 5 * k, (n, len(provs))
        for mask in range(1 << len(INTRIGUE_TITLES)):
            cards = senate_in_game(n, mask)
            assert len(cards) == 5 * k, (n, mask, len(cards))
            for era in (1, 2, 3):  # each era fills the rows of its rounds exactly
                assert sum(SENATE[c].era == era for c in cards) == k * ERA_OF_ROUND.count(era)
        for era in (1, 2, 3):
            assert sum(PROVINCES[i].era == era for i in provs) == k * ERA_OF_ROUND.count(era)
    for card in SENATE:
        assert card.ability in ABILITY_TIMING and card.symbol in PROVINCE_TYPES
        if card.intrigue:  # an Intrigue card shares the 2-player status of the card it replaces
            base = [c for c in SENATE if c.title == card.title and not c.intrigue]
            assert len(base) == 1 and base[0].two_player == card.two_player, card
    regions = {p.region for p in PROVINCES}
    assert regions == set(REGIONS)


_check()
