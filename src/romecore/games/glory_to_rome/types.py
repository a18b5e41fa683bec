"""The dicts of a Glory to Rome state, as typed dicts: :class:`GloryToRomeDict` is what
``state.to_dict()`` returns and :class:`GloryToRomeObservation` what
``state.observation(player)`` returns (the stub ``state.pyi`` declares both).

Cards are ids in the whole truth and names in an observation.  Maps keyed by names from
the game's data (materials, roles) are ``dict[str, int]``: their keys are the data's
names, not a fixed schema.  A few turn fields hold a name where the value has one, else
the raw number (``str | int``).
"""

from typing import Literal, TypedDict

from romecore.core.types import ObservationHead, StateDictHead

__all__ = ["GloryToRomeDict", "GloryToRomeObservation", "GloryToRomeOptions", "Phase"]


#: The game's phases: the state module's ``PHASES``, in order (a test holds the two equal).
Phase = Literal["setup", "lead", "follow", "petition", "palace", "think", "draw", "act",
                "act_draw", "legion", "give", "coliseum", "senate", "sewer", "eot", "over"]


class GloryToRomeOptions(TypedDict):
    players: int
    training: bool


class Player(TypedDict):
    hand: list[int]
    jacks: int
    stockpile: list[int]
    vault: list[int]
    clientele: list[int]
    camp: list[int]
    jacks_played: int
    units: int
    new_clients: dict[str, int]  # by role, only the roles with some
    setup_rank: int
    influence: int


class _StructureBase(TypedDict):
    owner: int
    building: str
    site: str
    out_of_town: bool
    complete: bool
    public: bool
    site_holder: int


class Structure(_StructureBase):
    card: int
    materials: list[int]


class ObservedStructure(_StructureBase):
    materials: list[str]


class Frame(TypedDict):
    """A role being carried out, innermost last."""

    role: str
    base: bool
    stage: str
    n: int


class Sites(TypedDict):
    in_town: dict[str, int]  # by material
    out_of_town: dict[str, int]


class Petition(TypedDict):
    material: str | int
    left: int
    last: int


# ``from`` is a keyword, hence the functional form.
Selected = TypedDict("Selected", {"card": int, "from": str | int})
ObservedSelected = TypedDict("ObservedSelected", {"card": str, "from": str | int})


class _TurnBase(TypedDict):
    follow_index: int
    act_index: int
    eot_step: int
    eot_index: int
    did_craft: list[int]
    think_return: str | int
    think_used: bool
    draw_left: int
    petition: Petition
    last_unit: int
    draw: str | int
    eot_last: int


class Turn(_TurnBase):
    selected: Selected


class ObservedTurn(_TurnBase):
    """The turn as a player knows it: the card selected only when the player knows it."""

    selected: ObservedSelected | None


class Legionary(TypedDict):
    demands: dict[str, int]  # by material, only the materials demanded
    stage: int
    victim_offset: int
    material: int
    give_left: int
    coliseum_taken: dict[str, int]
    last: int


class Setup(TypedDict):
    dealt: int
    tie: list[int]
    tie_dealt: list[int]


class _Position(TypedDict):
    """The keys that ``to_dict`` and ``observation`` share with the same types."""

    phase: Phase
    steps: int
    leader: int
    role: str | None
    jack_pile: int
    sites: Sites
    frames: list[Frame]
    legionary: Legionary
    setup: Setup
    forum_winners: list[int]


class GloryToRomeDict(StateDictHead, _Position):
    """``state.to_dict()``: the whole game (``game.state_from_dict`` reads it back)."""

    options: GloryToRomeOptions
    actor: int
    deck: list[int]
    pool: list[int]
    drawn: list[int]
    players: list[Player]
    structures: list[Structure]
    turn: Turn
    known: dict[str, list[int]]  # who knows each card, by card id as text, where not the default
    revealed: list[int]


class Vault(TypedDict):
    known: list[str]
    hidden: int


class GloryToRomeObservation(ObservationHead, _Position):
    """``state.observation(player)``: everything ``player`` knows."""

    deck_size: int
    pool: list[str]
    hand: list[str]
    hand_sizes: list[int]
    jacks: list[int]
    known_in_hands: dict[str, list[str]]  # by seat number as text
    revealed: list[str]
    stockpiles: list[list[str]]
    clienteles: list[list[str]]
    camps: list[list[str]]
    jacks_played: list[int]
    vaults: list[Vault]
    influence: list[int]
    structures: list[ObservedStructure]
    units: list[int]
    new_clients: list[dict[str, int]]
    turn: ObservedTurn
    drawn: list[str | None]  # None: a card the player has not seen
