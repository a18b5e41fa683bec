"""Glory to Rome: the rulebook's turn walk-through and scoring example, set-up, the
game ends, thinking, petitions, Legionary details, the Training Game and bad input."""

import pytest
from gtr_helpers import BID, do, draw, game, make, names, player, resolve

from romecore import IllegalActionError, SerializationError
from romecore.games.glory_to_rome import data

CARDS = data.card_table()


def building_names(ids):
    return sorted(data.BUILDINGS[CARDS[c]].name for c in ids)


def built(building, owner, **kw):
    m = data.MATERIALS[data.BUILDINGS[BID[building]].material]
    return {"owner": owner, "building": building, "complete": True, "materials": [m.name] * m.value, **kw}


# --- the turn walk-through (STEP 1 to STEP 5) ---------------------------------------------

def test_turn_walkthrough():
    # Player 1..4 of the rulebook are seats 0..3
    st = make({
        "pool": ["Dock", "Villa", "Academy", "Tower"],
        "players": [{"hand": ["Latrine"], "clientele": ["Laborer"]},
                    {"jacks": 1},
                    {"hand": ["Market", "Temple"], "clientele": ["Laborer"]},
                    {"hand": ["Forum", "Statue", "Palace", "Garden", "Basilica"]}],
    }, n=4)
    do(st, "lead Laborer with Latrine")                  # STEP 1
    do(st, "follow Laborer with Jack")                 # STEP 2: player 2 follows with a Jack
    do(st, "draw 3 cards")                               # player 3 thinks up to 5
    resolve(st, 1)
    assert len(player(st, 2)["hand"]) == 5
    do(st, "think", "draw 1 card")                       # player 4 has 5 already: one more
    resolve(st, 2)
    assert len(player(st, 3)["hand"]) == 6
    assert st.current_player() == 0 and st.actions_left() == 2   # STEP 3: lead + client
    do(st, "Laborer: take Wood from the pool", "Laborer: take Stone from the pool")
    assert st.current_player() == 1 and st.actions_left() == 1   # STEP 4: following
    do(st, "Laborer: take Brick from the pool")
    assert st.current_player() == 2 and st.actions_left() == 1   # thought, but a client
    do(st, "Laborer: take Concrete from the pool")
    d = st.to_dict()                                     # player 4: no client, no action
    assert building_names(d["pool"]) == ["Latrine"]      # STEP 5
    assert d["jack_pile"] == 6 and d["players"][1]["jacks"] == 0
    assert d["leader"] == 1                              # player 2 leads next
    assert [len(d["players"][p]["stockpile"]) for p in range(4)] == [2, 1, 1, 0]


def test_clients_act_in_rounds_of_their_role_even_when_thinking():
    st = make({"leader": 1, "pool": ["Bar", "Road"],
               "players": [{"clientele": ["Laborer", "Laborer"]}, {"hand": ["Insula"]}]})
    do(st, "lead Laborer with Insula", "take a Jack", "decline the Laborer action")
    assert st.current_player() == 0 and st.actions_left() == 2


# --- scoring -----------------------------------------------------------------------------

def test_scoring_example():
    # 8 Influence + 7 Vault + 3 Bonus = 18
    st = make({
        "players": [{"vault": ["Stone", "Brick", "Brick"]}, {"vault": ["Brick", "Brick"]}],
        "structures": [built("Villa", 0), built("Garden", 0)],
    })
    b = st.score_breakdown(0)
    assert (b["influence"], b["vault"], b["merchant_bonus"], b["total"]) == (8, 7, 3, 18)
    assert st.score_breakdown(1)["merchant_bonus"] == 0   # Brick is tied: no bonus card


def test_merchant_bonus_needs_strictly_most():
    st = make({"players": [{"vault": ["Stone", "Stone"]}, {"vault": ["Stone", "Stone"]}, {"vault": ["Stone"]}]},
              n=3)
    assert [st.score_breakdown(p)["merchant_bonus"] for p in range(3)] == [0, 0, 0]


@pytest.mark.parametrize("hands,expected", [((["Bar", "Road"], ["Bar"]), [1.0, 0.0]),
                                             ((["Bar"], ["Road"]), [0.5, 0.5])])
def test_ties_go_to_most_cards_in_hand(hands, expected):
    st = make({"phase": "over", "players": [{"hand": hands[0]}, {"hand": hands[1]}]})
    assert st.is_terminal() and st.scores() == [2, 2]
    assert st.returns() == expected


def test_jacks_count_in_the_hand_tie_break():
    st = make({"phase": "over", "players": [{"hand": ["Bar"], "jacks": 1}, {"hand": ["Road", "Insula"]}]})
    assert st.returns() == [0.5, 0.5]


# --- set-up ------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup(n):
    st = game(n).new_initial_state(seed=n)
    assert st.is_chance_node()
    st.resolve_chance()
    d = st.to_dict()
    assert all(len(pd["hand"]) == 4 and pd["jacks"] == 1 for pd in d["players"])
    assert d["jack_pile"] == 6 - n
    assert d["sites"]["in_town"] == {m.name: n for m in data.MATERIALS}
    assert d["sites"]["out_of_town"] == {m.name: 6 - n for m in data.MATERIALS}
    assert len(d["pool"]) >= n and len(d["deck"]) == 144 - 5 * n - (len(d["pool"]) - n)
    assert d["phase"] == "lead" and st.current_player() == d["leader"]
    if len(d["pool"]) == n:      # no tie: the leader's pool card comes first in the alphabet
        ranks = [pd["setup_rank"] for pd in d["players"]]
        assert ranks.count(min(ranks)) == 1 and ranks[d["leader"]] == min(ranks)


def test_first_leader_tie_break():
    st = game(2).new_initial_state(seed=1)
    draw(st, *["Bar", "Road"] * 4)                        # the hands, dealt round the table
    draw(st, "Academy", "Academy")                        # pool: a tie for first
    assert st.is_chance_node()
    draw(st, "Wall", "Bar")                               # tie-break: Bar comes before Wall
    d = st.to_dict()
    assert d["leader"] == 1 and len(d["pool"]) == 4
    assert building_names(d["players"][0]["hand"]) == ["Bar"] * 4


def test_setup_hands_are_hidden():
    st = game(3).new_initial_state(seed=3)
    st.resolve_chance()
    obs = st.observation(0)
    assert len(obs["hand"]) == 4 and obs["known_in_hands"] == {"1": [], "2": []}
    assert obs["hand_sizes"] == [4, 4, 4] and obs["jacks"] == [1, 1, 1]


# --- thinking ----------------------------------------------------------------------------

def test_think_options():
    st = make({"players": [{"hand": ["Bar", "Road"]}, {}]})
    do(st, "think")
    assert names(st) == ["take a Jack", "draw 3 cards"]
    st = make({"players": [{"hand": ["Bar"] * 5}, {"jacks": 6}], "jack_pile": 0})
    do(st, "think")
    assert names(st) == ["draw 1 card"] or st.is_chance_node()   # a single choice is taken at once


def test_leader_who_thinks_ends_the_turn():
    st = make({"players": [{"hand": ["Bar"]}, {"hand": ["Road"]}]})
    do(st, "think", "take a Jack")
    d = st.to_dict()
    assert d["leader"] == 1 and d["phase"] == "lead" and d["players"][0]["jacks"] == 1


def test_jacks_and_petitions_to_follow():
    st = make({"players": [{"hand": ["Wall"]}, {"hand": ["Bar", "Road", "Insula"], "jacks": 1}]})
    do(st, "lead Architect with Wall")
    assert names(st) == ["follow Architect with Jack",
                         "follow Architect with a petition of 3 Rubble", "think"]
    do(st, "follow Architect with a petition of 3 Rubble")   # the only 3 cards: taken at once
    d = st.to_dict()                                          # (nothing to build: the turn ends)
    assert building_names(d["pool"]) == ["Bar", "Insula", "Road", "Wall"]


def test_petition_cards_are_chosen():
    st = make({"players": [{"hand": ["Bar", "Road", "Insula", "Latrine"]}, {}]})
    do(st, "lead Merchant with a petition of 3 Rubble")
    assert names(st) == ["petition with Bar", "petition with Insula"]   # in building order
    do(st, "petition with Insula")                 # then Latrine and Road are the only way on
    assert building_names(player(st, 0)["hand"]) == ["Bar"]


def test_jack_returns_to_the_pile():
    st = make({"players": [{"jacks": 1}, {}]})
    pile = st.to_dict()["jack_pile"]
    do(st, "lead Laborer with Jack", "take a Jack")
    d = st.to_dict()
    assert d["jack_pile"] == pile and d["players"][0]["jacks"] == 0 and d["players"][1]["jacks"] == 1


# --- Legionary ---------------------------------------------------------------------------

def test_legionary_victim_chooses_which_card():
    st = make({"players": [{"hand": ["Academy", "Statue"]}, {"hand": ["Temple", "Forum", "Bar"]}]})
    do(st, "lead Legionary with Academy", "take a Jack", "Legionary: demand Marble (reveal Statue)")
    assert st.current_player() == 1
    assert names(st) == ["give Forum to player 0", "give Temple to player 0"]
    do(st, "give Forum to player 0")
    assert building_names(player(st, 1)["hand"]) == ["Bar", "Temple"]
    assert building_names(player(st, 0)["stockpile"]) == ["Forum"]


def test_legionary_reveal_is_public_and_stays_in_hand():
    st = make({"players": [{"hand": ["Academy", "Statue"]}, {}]})
    do(st, "lead Legionary with Academy", "take a Jack", "Legionary: demand Marble (reveal Statue)")
    assert st.observation(1)["known_in_hands"]["0"] == ["Statue"]
    assert building_names(player(st, 0)["hand"]) == ["Statue"]


def test_legionary_extra_actions_are_lost_without_cards():
    st = make({"pool": ["Forum", "Forum"],
               "players": [{"hand": ["Academy", "Statue"], "clientele": ["Legionary", "Legionary"]}, {}]})
    do(st, "lead Legionary with Academy", "take a Jack")
    assert st.actions_left() == 3
    do(st, "Legionary: demand Marble (reveal Statue)")        # no card left: it resolves
    assert building_names(player(st, 0)["stockpile"]) == ["Forum"]


def test_legionary_may_be_declined():
    st = make({"pool": ["Forum"], "players": [{"hand": ["Academy", "Statue"]}, {}]})
    do(st, "lead Legionary with Academy", "take a Jack", "decline the Legionary action")
    assert player(st, 0)["stockpile"] == []


def test_palisade_does_not_stop_a_bridge():
    st = make({"players": [{"hand": ["Academy", "Statue"]}, {"hand": ["Temple"], "stockpile": ["Marble"]}],
               "structures": [built("Bridge", 0), built("Palisade", 1)]})
    do(st, "lead Legionary with Academy", "take a Jack", "Legionary: demand Marble (reveal Statue)")
    assert len(player(st, 0)["stockpile"]) == 2


# --- game end ----------------------------------------------------------------------------

def test_game_ends_when_the_draw_pile_runs_out():
    keep = {0, 1}
    st = make({"players": [{"hand": [1]}, {}], "pool": [c for c in range(144) if c not in keep], "deck": [0]})
    do(st, "think", "draw 4 cards")           # the single card left is drawn at once
    assert st.is_terminal() and len(player(st, 0)["hand"]) == 2


def test_game_ends_when_the_last_site_in_town_is_taken():
    taken = ["Circus", "Dock", "Amphitheatre", "Aqueduct", "Academy", "Archway", "Catacomb", "Coliseum",
             "Basilica", "Forum", "Insula"]
    st = make({"players": [{"hand": ["Market", "Road"]}, {}],
               "structures": [{"owner": 1, "building": b} for b in taken]})
    assert sum(st.to_dict()["sites"]["in_town"].values()) == 1
    do(st, "lead Craftsman with Market", "take a Jack", "Craftsman: use Road from hand")
    assert st.is_terminal()


def test_scores_are_counted_at_the_end():
    st = make({"players": [{"hand": ["Dock", "Villa"]}, {"hand": ["Market"]}],
               "structures": [{"owner": 0, "building": "Catacomb", "materials": ["Stone", "Stone"]}]})
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market", "Craftsman: use Villa from hand",
       "add Stone from hand to Catacomb")
    assert st.is_terminal() and st.returns() == [1.0, 0.0] and st.scores() == [5, 2]


# --- Training Game ------------------------------------------------------------------------

def test_training_game_has_no_functions():
    d = {"players": [{"hand": ["Wall", "Statue"], "stockpile": ["Concrete", "Rubble"],
                      "clientele": ["Architect"]}, {}],
         "structures": [{"owner": 0, "building": "Tower", "materials": ["Concrete"]},
                        {"owner": 0, "building": "Catacomb", "materials": ["Stone", "Stone"]}]}
    st = make(d, training=True)
    do(st, "lead Architect with Wall", "take a Jack", "Architect: use Concrete from the stockpile")
    assert st.functions(0) == [] and st.influence(0) == 4      # Influence still counts
    assert "Architect: use Rubble from the stockpile" not in names(st)
    do(st, "Architect: lay Statue from hand")                  # Statue only on a Marble site
    assert st.to_dict()["structures"][-1]["site"] == "Marble"


def test_training_game_catacomb_does_not_end_it():
    st = make({"players": [{"hand": ["Dock", "Villa"]}, {"hand": ["Market"]}],
               "structures": [{"owner": 0, "building": "Catacomb", "materials": ["Stone", "Stone"]}]},
              training=True)
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market", "Craftsman: use Villa from hand",
       "add Stone from hand to Catacomb")
    assert not st.is_terminal()


# --- bad input ---------------------------------------------------------------------------

def fresh(n=3, seed=5):
    st = game(n).new_initial_state(seed=seed)
    st.resolve_chance()
    return st


@pytest.mark.parametrize("action", [-1, 205, 10 ** 12, "lead", 3.5, None, 164])
def test_illegal_actions_raise_and_change_nothing(action):
    st = fresh()
    before = st.state_bytes()
    with pytest.raises(IllegalActionError):
        st.apply_action(action)
    assert st.state_bytes() == before


def test_why_illegal_names_the_reason():
    st = make({"players": [{"hand": ["Bar"]}, {}]})
    with pytest.raises(IllegalActionError, match="holds no Wall"):
        st.apply_action(BID["Wall"])
    with pytest.raises(IllegalActionError, match="chance"):
        game(2).new_initial_state(seed=1).apply_action(0)


def test_string_to_action_errors():
    st = fresh()
    with pytest.raises(IllegalActionError):
        st.string_to_action("build a pyramid")
    with pytest.raises(IllegalActionError):
        st.string_to_action("")


@pytest.mark.parametrize("d", [
    {"players": [{"hand": ["Pyramid"]}, {}]},
    {"players": [{"hand": [200]}, {}]},
    {"players": [{"hand": [3, 3]}, {}]},
    {"phase": "nap"},
    {"players": [{}, {}, {}]},
    {"players": [{"hand": ["Bar"] * 7}, {}]},
    {"structures": [{"owner": 0, "building": "Tower"}, {"owner": 0, "building": "Tower"}]},
    {"structures": [{"owner": 0, "building": "Villa", "materials": ["Stone"] * 3}]},
    {"players": [{"jacks": 7}, {}]},
    {"leader": 5},
    {"deck": [0, 1]},
    "not a dict",
])
def test_bad_dicts_raise_serialization_error(d):
    with pytest.raises(SerializationError):
        game(2).state_from_dict(d)


def test_bad_snapshots_raise_serialization_error():
    st = fresh()
    blob = st.serialize()
    with pytest.raises(SerializationError):
        game(3).deserialize(blob[:-5])
    with pytest.raises(SerializationError):
        game(3).deserialize(b"garbage")
    with pytest.raises(SerializationError):
        game(4).deserialize(blob)                      # other options
    raw = bytearray(st.state_bytes())
    raw[0] = 250                                       # card 0 in no zone
    bad = blob.replace(st.state_bytes(), bytes(raw))
    with pytest.raises(SerializationError):
        game(3).deserialize(bad)


# --- hidden information and limits ---------------------------------------------------------

HIDDEN = 0x80000000


def test_coliseum_is_limited_by_vault_room():
    st = make({
        "players": [{"hand": ["Academy", "Archway", "Bath"], "vault": ["Rubble"] * 4,
                     "clientele": ["Legionary"]},
                    {"clientele": ["Legionary", "Legionary"]}],
        "structures": [built("Coliseum", 0)],
    })
    assert st.limits(0)["vault"] == 5
    do(st, "lead Legionary with Academy", "take a Jack", "Legionary: demand Brick (reveal Archway)",
       "Legionary: demand Brick (reveal Bath)")
    # two demands would take two clients, but the vault has room for one
    assert names(st) == ["Coliseum: slay player 1's Legionary client", "Coliseum: spare player 1's other clients"]
    do(st, "Coliseum: slay player 1's Legionary client")
    assert len(player(st, 0)["vault"]) == 5 and len(player(st, 1)["clientele"]) == 1
    assert st.current_player() == 1 or st.to_dict()["leader"] == 1   # the demand is over


def test_what_each_player_sees_of_hidden_actions():
    st = make({
        "players": [{"hand": ["Tower", "Wall"], "jacks": 1, "stockpile": ["Brick"], "clientele": ["Merchant"]},
                    {"hand": ["Villa"]}],
        "structures": [built("Basilica", 0), built("Atrium", 0), built("Fountain", 1)],
    })
    do(st, "lead Merchant with Jack", "follow Merchant with Villa")
    basilica = st.string_to_action("Basilica: put Tower from hand into the vault")
    assert st.observe_action(0, basilica) == basilica and st.observe_action(1, basilica) & HIDDEN
    do(st, "Atrium: put a card from the draw pile into the vault")
    a = st.chance_outcomes()[0][0]
    assert st.observe_action(0, a) & HIDDEN and st.observe_action(1, a) & HIDDEN
    st.apply_action(a)
    d = st.to_dict()
    atrium_card = [c for c in d["players"][0]["vault"] if str(c) in d["known"]][0]
    assert d["known"][str(atrium_card)] == []


def test_fountain_draw_seen_by_the_drawer_only():
    st = make({"players": [{"hand": ["Dock"]}, {"hand": ["Market"]}], "structures": [built("Fountain", 0)]})
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market", "Fountain: draw a card")
    a = st.chance_outcomes()[0][0]
    assert st.observe_action(0, a) == a and st.observe_action(1, a) & HIDDEN


def test_resample_keeps_seen_cards_and_redraws_the_rest():
    st = game(3).new_initial_state(seed=9)
    st.resolve_chance()
    d = st.to_dict()
    changed = 0
    for seed in range(20):
        w = st.resample(0, seed)
        wd = w.to_dict()
        assert wd["players"][0]["hand"] == d["players"][0]["hand"] and wd["pool"] == d["pool"]
        assert w.observation(0) == st.observation(0)
        changed += wd["players"][1]["hand"] != d["players"][1]["hand"]
    assert changed > 15
