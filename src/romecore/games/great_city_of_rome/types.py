"""The dicts of a Great City of Rome state, as typed dicts: :class:`GreatCityDict` is what
``state.to_dict()`` returns and :class:`GreatCityObservation` what
``state.observation(player)`` returns (the stub ``state.pyi`` declares both).

Maps keyed by names from the game's data (the decks I to IV) are ``dict[str, ...]``: their
keys are the data's names, not a fixed schema.
"""

from typing import Literal, NotRequired, TypedDict

from romecore.core.types import ObservationHead, StateDictHead

__all__ = ["GreatCityDict", "GreatCityObservation", "GreatCityOptions", "Phase"]


#: The game's phases: the state module's ``PHASES``, in order (a test holds the two equal).
Phase = Literal["draft_deal", "draft_pick", "strip", "offer", "emissary", "take", "main", "place",
                "school_deck", "school_draw", "school_keep", "school_bottom", "over"]


class GreatCityOptions(TypedDict):
    players: int


class Card(TypedDict):
    """A building card: its id, its building and its deck (``"start"`` or I to IV)."""

    id: int
    building: str
    deck: str


class CityCard(TypedDict):
    """A building in a city, at its (row, column); ``tokens`` only where it holds some."""

    id: int
    building: str
    row: int
    col: int
    tokens: NotRequired[int]


class Player(TypedDict):
    coins: int
    influence: int
    city: list[CityCard]
    hand: list[Card]
    draft_card: int | None


class Turn(TypedDict):
    """The turn of the player on the chosen space; ``selected``, the building type being
    placed, only in the place phase."""

    space: int
    bricks: int
    cogs: int
    took: bool
    built: bool
    produced: bool
    selected: str | None


class Deck(TypedDict):
    pool: list[int]
    bottom: list[int]


class School(TypedDict):
    deck: int
    draws_left: int


class InfluenceCard(TypedDict):
    """An influence card of this game: its value and its holder (a seat, "unused" or
    "in play")."""

    value: int
    holder: int | str


class _Position(TypedDict):
    """The keys that ``to_dict`` and ``observation`` share with the same types."""

    round: int
    phase: Phase
    first_player: int
    emissaries: list[int | None]  # the owner of each emissary space
    influence_cards: list[InfluenceCard]


class GreatCityDict(StateDictHead, _Position):
    """``state.to_dict()``: the whole game (``game.state_from_dict`` reads it back)."""

    options: GreatCityOptions
    actor: int
    strip_order: list[int]
    emissaries_placed: int
    turn: Turn
    draw_index: int
    offer: list[Card]
    decks: list[Deck]
    box: list[int]
    drawn: list[int]
    school: School
    players: list[Player]
    known: dict[int, list[int]]  # who knows each face-down card, by card id


class Opponent(TypedDict):
    """Another player's hand as the viewer knows it."""

    size: int
    known: list[str]
    hidden_by_deck: dict[str, int]
    draft_cards_hidden: int


class GreatCityObservation(ObservationHead, _Position):
    """``state.observation(player)``: everything ``player`` knows."""

    rounds: int
    strips: list[str]
    face: str | None
    turn: Turn | None
    coins: list[int]
    influence: list[int]
    cities: list[list[tuple[str, int, int, int]]]  # per seat: (building, row, col, tokens)
    offer: list[str]
    hand: list[str]
    opponents: dict[str, Opponent]  # by seat number as text
    draft_group: list[str]
    deck_sizes: dict[str, int]
    deck_bottoms: dict[str, list[str | None]]  # None: a card the player has not seen
    drawn: list[str | None]
    school: School | None
    scores: list[int]
