"""The Great City of Rome's C evaluator: registered, sound values, sensible order."""

from __future__ import annotations

import agent_positions as ap
import pytest

import romecore


@pytest.fixture
def game():
    return romecore.load_game("great_city_of_rome", players=3)


def test_registered_as_the_default(game):
    ev = romecore.make_evaluator(game)
    assert ev.name == "heuristic" and ev.is_native
    assert romecore.make_evaluator(game, "heuristic").is_native


def test_values_are_shares(game):
    ev = romecore.make_evaluator(game)
    state = game.new_initial_state(seed=1)
    for seed in range(5):
        s = state.clone()
        for _ in range(60 * (seed + 1)):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_random_chance()
            else:
                s.apply_action(s.legal_actions()[seed % len(s.legal_actions())])
        v = ev(s)
        assert len(v) == 3 and all(0.0 <= x <= 1.0 for x in v)
        assert abs(sum(v) - 1.0) < 1e-9


def test_exact_at_the_end(game):
    ev = romecore.make_evaluator(game)
    for seed in range(3):
        s = game.new_initial_state(seed=seed)
        s.playout(seed)
        assert ev(s) == s.returns()


def test_more_points_more_value():
    state = ap.last_turn(2)  # player 0: 12 points, player 1: 15
    # Points alone: player 0's unspent bricks (the pending-emissary term) are tested apart.
    ev = romecore.make_evaluator(state.game, pending_take=0.0, pending_brick=0.0, pending_produce=0.0)
    est = ev.estimates(state)
    v = ev(state)
    assert est[1] > est[0] and v[1] > v[0]
    rich = state.game.state_from_dict({**state.to_dict(), "players": [
        {"coins": 40, "influence": 4, "hand": ["Market", "Residential 2"]}, {"coins": 14, "influence": 2}]})
    assert ev(rich)[0] > 0.9


def test_weights_can_be_overridden(game):
    hot = romecore.make_evaluator(game, "heuristic", temperature=1000.0, temperature_per_round=0.0)
    state = game.new_initial_state(seed=3)
    state.resolve_chance()
    assert all(abs(x - 1 / 3) < 0.01 for x in hot(state))
    with pytest.raises(ValueError):
        romecore.make_evaluator(game, "heuristic", no_such_weight=1.0)
    with pytest.raises(ValueError):
        romecore.make_evaluator(game, "heuristic", temperature=0.0)


def test_ranks_the_market_next_to_the_house_first():
    # ap.last_turn: a Market next to the Residential 2 scores the house's area (+2) and a
    # coin; elsewhere only the coin; the same ranking must come out of the estimates
    ev = romecore.make_evaluator(ap.last_turn(2).game)
    cells = [a for a in ap.last_turn_place(2).legal_actions() if a < ap.A_BUILD]
    est = {}
    for cell in cells:
        s = ap.last_turn_place(2)
        s.apply_action(cell)
        est[cell] = ev.estimates(s)[0]
    near = [est[c] for c in cells if c in ap.NEXT_TO_HOUSE]
    far = [est[c] for c in cells if c not in ap.NEXT_TO_HOUSE]
    assert len(near) == 3 and far and min(near) > max(far)


@pytest.mark.parametrize("field,more,less", [("coins", 14, 10), ("influence", 6, 4)])
def test_more_coins_or_influence_is_better(field, more, less):
    base = ap.last_turn(2).to_dict()
    ev = romecore.make_evaluator(ap.last_turn(2).game)

    def with_(v):
        d = {**base, "players": [{**base["players"][0], field: v}, base["players"][1]]}
        return ap.last_turn(2).game.state_from_dict(d)
    assert ev.estimates(with_(more))[0] > ev.estimates(with_(less))[0]
    assert ev(with_(more))[0] > ev(with_(less))[0]


PENDING = ("pending_take", "pending_brick", "pending_produce")


def face_bricks(d: dict, space: int) -> int:
    """Bricks of strip spaces 1..space+1 this round, from the rulings: the game walks
    through the six fronts in the shuffled order, then the six backs (fronts reversed)."""
    from romecore.games.great_city_of_rome import data
    idx = (d["round"] - 1) % 12
    front = data.STRIP_FRONTS[d["strip_order"][idx % 6]]
    face = front if idx < 6 else front[::-1]
    return face[:space + 1].count("B")


def positions(players: int, phases: set[str], count: int):
    game = romecore.load_game("great_city_of_rome", players=players)
    for seed in range(200):
        s = game.new_initial_state(seed=seed)
        rng = __import__("random").Random(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_random_chance()
                continue
            if s.to_dict()["phase"] in phases and rng.random() < 0.1:
                yield s.clone()
                count -= 1
                if count == 0:
                    return
            s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_emissaries_still_to_act_bring_their_bricks(players):
    """In the action phase every player's estimate grows by the bricks its emissaries
    still to act will get (and the acting one's unspent bricks), recomputed here from
    the strips."""
    game = romecore.load_game("great_city_of_rome", players=players)
    off = romecore.make_evaluator(game, **{w: 0.0 for w in PENDING})
    bricks = romecore.make_evaluator(game, pending_take=0.0, pending_brick=1.0, pending_produce=0.0)
    seen = 0
    for s in positions(players, {"take", "main", "place"}, 30):
        d = s.to_dict()
        turn = d["turn"]
        want = [0] * players
        if not turn["built"]:
            want[d["actor"]] += turn["bricks"]
        for k, owner in enumerate(d["emissaries"]):
            if owner is not None and k > turn["space"]:
                want[owner] += face_bricks(d, k)
        got = [a - b for a, b in zip(bricks.estimates(s), off.estimates(s))]
        assert got == pytest.approx(want)
        seen += any(want)
    assert seen > 10


def test_emissary_placements_are_told_apart():
    """Where an emissary goes changes the value: without the pending term every
    placement looked alike (a search then saw only who had acted first)."""
    ev = romecore.make_evaluator(romecore.load_game("great_city_of_rome", players=2))
    told_apart = 0
    for s in positions(2, {"emissary"}, 20):
        me = s.current_player()
        values = set()
        for a in s.legal_actions():
            child = s.clone()
            child.apply_action(a)
            values.add(round(ev.estimates(child)[me], 9))
        told_apart += len(values) > 1
    assert told_apart == 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_player_to_move_has_the_tempo(players):
    """The player about to place an emissary, or to build, gains the tempo weights (and
    no one else does), read from the dict form: the phase, the actor, the turn's build."""
    game = romecore.load_game("great_city_of_rome", players=players)
    off = romecore.make_evaluator(game, tempo_emissary=0.0, tempo_build=0.0)
    on = romecore.make_evaluator(game, tempo_emissary=1.0, tempo_build=10.0)
    seen = {0: 0, 1: 0, 10: 0}
    for s in positions(players, {"emissary", "take", "main", "place"}, 60):
        d = s.to_dict()
        want = [0.0] * players
        if d["phase"] == "emissary":
            want[d["actor"]] = 1.0
        elif not d["turn"]["built"]:
            want[d["actor"]] = 10.0
        got = [a - b for a, b in zip(on.estimates(s), off.estimates(s))]
        assert got == pytest.approx(want)
        seen[int(max(want))] += 1
    assert all(seen.values())


# ---- the hand features: a card's worth read from the city (recomputed here by building
# the card with the kernel's own scoring, through the state's dict form)

HAND = ("temple_points_in_hand", "aqueduct_run_in_hand", "public_fit_in_hand",
        "residential_fit_in_hand")


def free_cells(city: list[dict]):
    """Cells (row, col) where a building may go, from the rulings: empty, orthogonally
    next to the city, and the city with it within a 4x4 square (board rows 0-6, columns
    0-5)."""
    occ = {(e["row"], e["col"]) for e in city}
    for r in range(7):
        for c in range(6):
            if (r, c) in occ or not any((r + dr, c + dc) in occ
                                        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                continue
            rows = [x for x, _ in occ] + [r]
            cols = [y for _, y in occ] + [c]
            if max(rows) - min(rows) < 4 and max(cols) - min(cols) < 4:
                yield r, c


def built(game, d: dict, p: int, card: dict | None, cell) -> dict:
    """p's score breakdown with ``card`` moved from hand to ``cell`` (None: as it is),
    thermal bath tokens removed (the area features leave them aside)."""
    players = [dict(q) for q in d["players"]]
    city = [{k: v for k, v in e.items() if k != "tokens" or "Baths" not in e["building"]}
            for e in players[p]["city"]]
    if card is not None:
        players[p]["hand"] = [h for h in players[p]["hand"] if h["id"] != card["id"]]
        city.append({"id": card["id"], "building": card["building"], "row": cell[0], "col": cell[1]})
    players[p]["city"] = city
    known = dict(d["known"])
    if card is not None:
        known[card["id"]] = list(range(len(players)))  # a card in a city is public
    return game.state_from_dict({**d, "players": players, "known": known}).score_breakdown(p)


@pytest.mark.parametrize("feature", ["public_fit_in_hand", "residential_fit_in_hand",
                                     "temple_points_in_hand"])
def test_hand_cards_are_worth_what_they_would_score_now(feature):
    """Each hand feature equals, per player and times the share of the game left, the sum
    over its cards of the most points the card adds at a free cell: area points for public
    and residential buildings, the temple's own points for a temple."""
    from romecore.games.great_city_of_rome import data
    kinds = {t.name: t.kind for t in data.TYPES}
    kind = {"public_fit_in_hand": data.PUBLIC, "residential_fit_in_hand": data.RESIDENTIAL,
            "temple_points_in_hand": data.TEMPLE}[feature]
    game = romecore.load_game("great_city_of_rome", players=2)
    off = romecore.make_evaluator(game, **{w: 0.0 for w in HAND})
    on = romecore.make_evaluator(game, **{w: (1.0 if w == feature else 0.0) for w in HAND})
    seen = 0
    for s in positions(2, {"take", "main", "emissary"}, 40):
        d = s.to_dict()
        left = (7 - d["round"] + 0.5) / 7
        for p in range(2):
            want = 0
            before = built(game, d, p, None, None)["residential"]
            for card in d["players"][p]["hand"]:
                if kinds[card["building"]] != kind:
                    continue
                gains = [0]
                for cell in free_cells(d["players"][p]["city"]):
                    after = built(game, d, p, card, cell)
                    if kind == data.TEMPLE:
                        gains.append(after["temple_detail"][card["building"]])
                    else:
                        gains.append(after["residential"] - before)
                want += max(gains)
            got = (on.estimates(s)[p] - off.estimates(s)[p]) / left
            assert got == pytest.approx(want), (d["players"][p], feature)
            seen += want > 0
    assert seen > 5


def test_aqueducts_in_hand_count_together():
    """Two aqueducts in hand are worth the points of the two together (4 then 12: 12),
    not twice the next one's."""
    two = ap.last_turn(2, hand=("Aqueduct", "Aqueduct"))  # the last round; no aqueduct built
    off = romecore.make_evaluator(two.game, **{w: 0.0 for w in HAND})
    on = romecore.make_evaluator(two.game, **{w: (1.0 if w == "aqueduct_run_in_hand" else 0.0) for w in HAND})
    left = 0.5 / 7
    assert (on.estimates(two)[0] - off.estimates(two)[0]) / left == pytest.approx(12)
