"""The dicts of a City of Marble state, as typed dicts: :class:`CityOfMarbleDict` is what
``state.to_dict()`` returns and :class:`CityOfMarbleObservation` what
``state.observation(player)`` returns (the stub ``state.pyi`` declares both).

Board places are coordinates: a vertex is ``[q, r]``, a triangle its three vertices, a
site the ``[q, r]`` of its centre.  Maps keyed by the tile colours (red, yellow, green,
blue in the game's data) are ``dict[str, int]``: their keys are the data's names, not a
fixed schema.
"""

from typing import Literal, NotRequired, TypedDict

from romecore.core.types import ObservationHead, StateDictHead

__all__ = ["CityOfMarbleDict", "CityOfMarbleObservation", "CityOfMarbleOptions", "Phase"]

Vertex = list[int]
Triangle = list[Vertex]
Site = list[int]


#: The game's phases: the state module's ``PHASES``, in order (a test holds the two equal).
Phase = Literal["hills", "action", "site", "tile", "bridge", "aqueduct_start", "order", "send",
                "expand", "extra", "over"]


class CityOfMarbleOptions(TypedDict):
    players: int


class Tile(TypedDict):
    """A placed tile: its colour, its two triangles and the seat whose magistrate is on it."""

    colour: str
    triangles: list[Triangle]
    magistrate: int | None


class SiteStatus(TypedDict):
    """A site no longer open: a fountain, an empty site, or a building and its owner."""

    site: Site
    fountain: NotRequired[bool]
    empty: NotRequired[bool]
    building: NotRequired[str]
    owner: NotRequired[int]


class Aqueduct(TypedDict):
    colour: str
    started: bool
    path: list[Vertex]


class TilePlay(TypedDict):
    """The tile being played (site and tile phases)."""

    colour: str
    magistrate: bool
    site: Site | None


class Resolution(TypedDict):
    """What is left to resolve after a tile (bridge to send phases)."""

    bridges_to_take: int
    aqueducts_to_start: list[str]
    aqueduct: str | None
    pieces_left: int
    sites: list[Site]
    site: Site | None
    seat: int


class Magistrates(TypedDict):
    """Where a player's magistrates stand off the board (the rest are on tiles)."""

    centre: int
    treasury: int
    imperium: dict[str, int]


class PublicPlayer(TypedDict):
    points: int
    coins: int
    tiles: dict[str, int]
    imperium: dict[str, int]
    magistrates: Magistrates


class Player(PublicPlayer):
    bridges: list[int]  # the values of the bridge tiles held


class ObservedPlayer(PublicPlayer):
    """A player as the viewer knows them: bridge values only for the viewer's own
    (and everyone's once the game is over)."""

    bridge_count: int
    bridges: list[int] | None


class _Position(TypedDict):
    """The keys that ``to_dict`` and ``observation`` share with the same types."""

    phase: Phase
    turn_player: int
    actor: int
    actions_left: int
    final_turns_left: int
    hills: list[Site]
    stacks: dict[str, int]
    tiles: list[Tile]
    sites: list[SiteStatus]
    aqueducts: list[Aqueduct]
    drawn: dict[str, int]
    tile_play: TilePlay | None
    resolution: Resolution | None


class CityOfMarbleDict(StateDictHead, _Position):
    """``state.to_dict()``: the whole game (``game.state_from_dict`` reads it back)."""

    options: CityOfMarbleOptions
    players: list[Player]


class CityOfMarbleObservation(ObservationHead, _Position):
    """``state.observation(player)``: everything ``player`` knows."""

    players: list[ObservedPlayer]
    bridge_spaces_open: list[Triangle]
    scores: list[int] | None  # once the game is over
