"""Misspelt keys of the games' typed dicts: ``tests/test_api_types.py`` runs ``mypy --strict``
over this file and expects an error on exactly the lines marked ``# error: <code>``, each
beside the right spelling, which passes (a phase is a Literal of the game's phases, so a
misspelt one compares with no phase).  Type-checked only, never run."""

from __future__ import annotations

from romecore.games.city_of_marble.state import CityOfMarbleState
from romecore.games.glory_to_rome.state import GloryToRomeState
from romecore.games.great_city_of_rome.state import GreatCityState
from romecore.games.rise_to_power.state import RiseToPowerState


def rise_to_power(state: RiseToPowerState) -> list[object]:
    obs, d = state.observation(0), state.to_dict()
    return [
        obs["tracks"]["military"], obs["scores"], d["players"][0]["vp_forum"], d["rows"]["arena"],
        obs["track"],  # error: typeddict-item
        obs["tracks"]["militray"],  # error: typeddict-item
        d["players"][0]["vp_froum"],  # error: typeddict-item
        d["rows"]["arenas"],  # error: typeddict-item
        obs["phase"] == "roll", d["phase"] == "over",
        obs["phase"] == "rol",  # error: comparison-overlap
    ]


def great_city(state: GreatCityState) -> list[object]:
    obs, d = state.observation(0), state.to_dict()
    return [
        obs["deck_sizes"], obs["opponents"]["1"]["hidden_by_deck"], d["players"][0]["city"][0]["building"],
        obs["deck_size"],  # error: typeddict-item
        obs["opponents"]["1"]["hidden"],  # error: typeddict-item
        d["players"][0]["city"][0]["buildings"],  # error: typeddict-item
    ]


def city_of_marble(state: CityOfMarbleState) -> list[object]:
    obs, d = state.observation(0), state.to_dict()
    return [
        obs["bridge_spaces_open"], obs["players"][0]["bridge_count"], d["aqueducts"][0]["path"],
        obs["bridge_space_open"],  # error: typeddict-item
        d["players"][0]["bridge_count"],  # error: typeddict-item
        d["aqueducts"][0]["paths"],  # error: typeddict-item
    ]


def glory_to_rome(state: GloryToRomeState) -> list[object]:
    obs, d = state.observation(0), state.to_dict()
    return [
        obs["known_in_hands"], obs["turn"]["selected"], d["structures"][0]["site_holder"], d["options"]["training"],
        obs["known_in_hand"],  # error: typeddict-item
        d["structures"][0]["site_owner"],  # error: typeddict-item
        d["options"]["trainning"],  # error: typeddict-item
    ]
