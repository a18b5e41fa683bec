"""The dicts of a Rise to Power state, as typed dicts: :class:`RiseToPowerDict` is what
``state.to_dict()`` returns and :class:`RiseToPowerObservation` what
``state.observation(player)`` returns (the stub ``state.pyi`` declares both).

Maps keyed by names from the game's data (a forum's resources) are ``dict[str, int]``:
their keys are the data's names, not a fixed schema.
"""

from typing import Literal, TypedDict

from romecore.core.types import ObservationHead, StateDictHead

__all__ = ["RiseToPowerDict", "RiseToPowerObservation", "RiseToPowerOptions", "Phase"]


#: The game's phases: the state module's ``PHASES``, in order (a test holds the two equal).
Phase = Literal["deal", "roll", "tribunus", "order", "place", "after_place", "province", "mark",
                "reroll", "pick_die", "shift", "pick_placed", "target", "discard",
                "target_province", "military", "senate", "market", "draw", "forum", "show", "over"]


class RiseToPowerOptions(TypedDict):
    players: int
    intrigue: str


class Card(TypedDict):
    """A Senate or Arena card: its id and its name."""

    id: int
    card: str


class ArenaCard(Card):
    public: bool  # bought face up (every player knows it)


class TrackGroup(TypedDict):
    """One player's dice on an influence track, in track order."""

    player: int
    dice: list[int]


class Tracks(TypedDict):
    military: list[TrackGroup]
    senate: list[TrackGroup]
    black_market: list[TrackGroup]


class CardRows(TypedDict):
    """The cards of the rows on offer, or of the decks."""

    provinces: list[str]
    senate: list[Card]
    arena: list[Card]


class Exhausted(TypedDict):
    provinces: list[str]
    senate: list[int]


# ``return`` is a keyword, hence the functional form.
Activation = TypedDict("Activation", {
    "card": int,
    "return": Phase,
    "provinces_left": int,
    "first_province": str | None,
    "target": int,
    "marks": int,
    "mark_floor": int,
    "passes": int,
    "optional": bool,
    "die": int,
    "placed_die": list[int] | None,
})
Activation.__doc__ = "A card being carried out (province to target phases), else the dict holds None."


class Resolution(TypedDict):
    section: int
    budget: int
    floor: int
    picks: int


class Scoring(TypedDict):
    forum_track: int
    show_bonus: list[int]


class PublicPlayer(TypedDict):
    """What everyone sees of a player."""

    vp_forum: int
    vp_arena: int
    forum: dict[str, int]
    provinces: list[str]
    senate: list[Card]
    dice: list[int]
    military_bonus: int
    coin_bonus: int
    tribunus: int


class Player(PublicPlayer):
    """A player in the whole truth: the public part and the Arena cards held."""

    hand: list[ArenaCard]
    show: list[ArenaCard]


class _Position(TypedDict):
    """The keys that ``to_dict`` and ``observation`` share with the same types."""

    round: int
    phase: Phase
    actor: int
    order: list[int]
    new_order: list[int]
    turn: int
    step: int
    consul: bool
    tracks: Tracks
    exhausted: Exhausted
    activation: Activation | None
    resolution: Resolution
    scoring: Scoring


class RiseToPowerDict(StateDictHead, _Position):
    """``state.to_dict()``: the whole game (``game.state_from_dict`` reads it back)."""

    options: RiseToPowerOptions
    rows: CardRows
    decks: CardRows
    players: list[Player]


class ObservedRows(TypedDict):
    provinces: list[str]
    senate: list[str]
    arena: list[str]


class ObservedDecks(TypedDict):
    """The decks as a player knows them: the Arena deck only by its size."""

    provinces: list[str]
    senate: list[str]
    arena_size: int


class Opponent(TypedDict):
    """Another player's Arena cards as the viewer knows them."""

    known: list[str]
    hidden: int
    show_size: int


class RiseToPowerObservation(ObservationHead, _Position):
    """``state.observation(player)``: everything ``player`` knows."""

    rows: ObservedRows
    decks: ObservedDecks
    arena_removed: list[str]
    players: list[PublicPlayer]
    hand: list[tuple[str, bool]]  # (card, bought face up)
    show: list[tuple[str, bool]]
    opponents: dict[str, Opponent]  # by seat number as text
    scores: list[int]
