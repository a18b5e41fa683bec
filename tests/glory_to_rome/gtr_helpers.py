"""Helpers shared by the Glory to Rome tests: positions from dicts, actions by name,
chance draws as named cards."""

import random

import romecore
from romecore.games.glory_to_rome import data

BID = data.BUILDING_ID
CH_CARD = 165  # chance ids: CH_CARD + building id


def game(n=2, training=False):
    return romecore.load_game("glory_to_rome", players=n, training=training)


def make(d, n=2, training=False):
    return game(n, training).state_from_dict(d)


def do(st, *names):
    """Applies actions by their readable names (a unique prefix is enough)."""
    for name in names:
        st.apply_action(st.string_to_action(name))


def draw(st, *buildings):
    """Resolves chance draws as the named cards."""
    for b in buildings:
        assert st.is_chance_node()
        st.apply_action(CH_CARD + BID[b])


def resolve(st, seed=0):
    """Resolves pending chance draws at random (cards that do not matter)."""
    rng = random.Random(seed)
    while st.is_chance_node():
        outs = st.chance_outcomes()
        st.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])


def names(st):
    return [st.action_to_string(a) for a in st.legal_actions()]


def player(st, p):
    return st.to_dict()["players"][p]
