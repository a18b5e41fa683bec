"""Helpers for building Rise to Power positions through state_from_dict and for playing
actions by name."""

from __future__ import annotations

import romecore

GAME_ID = "rise_to_power"
# Seats in the rulebook's examples.
RED, BLUE, YELLOW, PURPLE = 0, 1, 2, 3
TRACKS = ("military", "senate", "black_market")


def rtp(players: int = 4, intrigue: str = "none") -> romecore.Game:
    return romecore.load_game(GAME_ID, players=players, intrigue=intrigue)


def act(state, name: str) -> int:
    """Applies the legal action named `name` (a unique prefix will do); returns its id."""
    a = state.string_to_action(name)
    state.apply_action(a)
    return a


def names(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def placed(tracks: dict, seat: int) -> int:
    return sum(len(g["dice"]) for groups in tracks.values() for g in groups if g["player"] == seat)


def position(players: int = 4, *, phase: str = "place", actor: int = 0, order=None,
             round_: int = 2, dice=None, tracks=None, provinces=None, senate=None, forum=None,
             hands=None, turn=None, intrigue: str = "none", exhausted=None, **extra):
    """A position of phase 2 (or any phase given), the rest filled in sensibly.

    dice: {seat: [unplaced faces]}; a seat not named gets 6s up to four dice in all.
    tracks: {"military": [(seat, [faces]), ...], ...}, left to right.
    provinces / senate / forum / hands: {seat: [...]} / {seat: {resource: n}}.
    """
    n = players
    order = list(order) if order is not None else list(range(n))
    tracks = {key: [{"player": q, "dice": list(f)} for q, f in (tracks or {}).get(key, [])]
              for key in TRACKS}
    dice = dict(dice or {})
    in_dice_phase = phase in ("tribunus", "order", "place", "after_place", "province", "mark",
                              "reroll", "pick_die", "shift", "pick_placed", "target", "discard",
                              "target_province", "military", "senate", "market", "draw")
    players_d = []
    for q in range(n):
        pd = {}
        if in_dice_phase:
            pd["dice"] = dice.get(q, [6] * (4 - placed(tracks, q)))
        if provinces and q in provinces:
            pd["provinces"] = provinces[q]
        if senate and q in senate:
            pd["senate"] = senate[q]
        if forum and q in forum:
            pd["forum"] = forum[q]
        if hands and q in hands:
            pd["hand"] = hands[q]
        players_d.append(pd)
    for q, extra_pd in (extra.pop("player_fields", None) or {}).items():
        players_d[q].update(extra_pd)
    if turn is None and phase in ("place", "after_place"):
        k = placed(tracks, actor) - (1 if phase == "after_place" else 0)
        turn = order.index(actor) + n * max(k, 0)
    d = {
        "round": round_,
        "phase": phase,
        "actor": actor,
        "order": order,
        "turn": turn or 0,
        "tracks": tracks,
        "players": players_d,
    }
    if exhausted:
        d["exhausted"] = exhausted
    d.update(extra)
    return rtp(n, intrigue).state_from_dict(d)


def group(state, track: str) -> list[tuple[int, list[int]]]:
    """A track as [(seat, dice), ...] left to right."""
    return [(g["player"], g["dice"]) for g in state.to_dict()["tracks"][track]]


def end_turn(state) -> None:
    """Ends the placement turn if the player still has a choice (with no card left to
    activate the engine ends it by itself)."""
    if state.to_dict()["phase"] == "after_place":
        act(state, "end turn")


def add_show(state, cards) -> None:
    """Adds these cards to the actor's show (a forced last card is added by the engine)."""
    for card in cards:
        name = f"add {card} to the show"
        if name in names(state):
            act(state, name)


def act_if(state, name: str) -> bool:
    """Applies the action `name` if it is legal (the engine takes forced steps itself)."""
    if any(n.startswith(name) for n in names(state)):
        act(state, name)
        return True
    return False
