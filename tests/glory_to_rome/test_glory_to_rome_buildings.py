"""Every worked example of the rulebook's building appendix, set up through
``state_from_dict`` and checked against the printed outcome.

Seats: "you" are player 0 unless the example needs another seat; "the player to your
right" leads before you, "the player to your left" after you (seat order is clockwise).
"""

import pytest
from gtr_helpers import BID, do, draw, make, names, player, resolve

from romecore.games.glory_to_rome import data


def materials(st, p, zone):
    """Materials (by name) of the cards in a player's zone, sorted."""
    return sorted(data.MATERIALS[c // 24].name for c in player(st, p)[zone])


def roles(st, p):
    return sorted(data.MATERIALS[c // 24].role for c in player(st, p)["clientele"])


def structure(st, owner, building):
    for sd in st.to_dict()["structures"]:
        if sd["owner"] == owner and sd["building"] == building:
            return sd
    raise KeyError(building)


def built(building, owner, mats=None, **kw):
    """A completed structure dict with its materials."""
    m = data.BUILDINGS[BID[building]].material
    return {"owner": owner, "building": building, "complete": True,
            "materials": mats if mats is not None else [data.MATERIALS[m].name] * data.MATERIALS[m].value, **kw}


# --- Tower -------------------------------------------------------------------------------

def test_tower():
    st = make({
        "players": [{"hand": ["Wall", "Sewer"], "stockpile": ["Concrete", "Rubble"],
                     "clientele": ["Architect", "Architect"]}, {}],
        "structures": [{"owner": 0, "building": "Tower", "materials": ["Concrete"]},
                       {"owner": 1, "building": "Garden"}, {"owner": 1, "building": "Villa"}],
    })
    assert st.to_dict()["sites"]["in_town"]["Stone"] == 0
    do(st, "lead Architect with Wall", "take a Jack")
    assert st.actions_left() == 3
    do(st, "Architect: use Concrete from the stockpile")      # completes the Tower
    assert structure(st, 0, "Tower")["complete"] and "Tower" in st.functions(0)
    do(st, "Architect: lay Sewer from hand")                   # out of town, one action
    sewer = structure(st, 0, "Sewer")
    assert sewer["out_of_town"] and sewer["site"] == "Stone"
    assert st.actions_left() == 1
    do(st, "Architect: use Rubble from the stockpile")        # Rubble into the Sewer
    sewer = structure(st, 0, "Sewer")
    assert len(sewer["materials"]) == 1 and not sewer["complete"]
    assert player(st, 0)["stockpile"] == []


def test_out_of_town_needs_two_actions_without_tower():
    st = make({
        "players": [{"hand": ["Wall", "Sewer"], "clientele": ["Architect"]}, {}],
        "structures": [{"owner": 1, "building": "Garden"}, {"owner": 1, "building": "Villa"}],
    })
    do(st, "lead Architect with Wall", "take a Jack")
    assert st.actions_left() == 2
    do(st, "Architect: lay Sewer from hand")
    assert structure(st, 0, "Sewer")["out_of_town"]
    assert st.current_player() != 0 or st.actions_left() == 0   # both actions spent
    st = make({
        "players": [{"hand": ["Wall", "Sewer"]}, {}],
        "structures": [{"owner": 1, "building": "Garden"}, {"owner": 1, "building": "Villa"}],
    })
    do(st, "lead Architect with Wall", "take a Jack")
    assert "Architect: lay Sewer from hand" not in names(st)


# --- Villa -------------------------------------------------------------------------------

def test_villa():
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Stone"]}, {"hand": ["Tower"]}],
        "structures": [{"owner": 0, "building": "Villa"}],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower",
       "Architect: use Stone from the stockpile")
    assert structure(st, 0, "Villa")["complete"]
    assert st.influence(0) == 5 and st.scores()[0] == 5
    assert st.limits(0) == {"hand": 5, "clientele": 5, "vault": 5}


def test_villa_needs_three_with_a_craftsman():
    st = make({
        "players": [{"hand": ["Dock", "Garden"]}, {"hand": ["Market"]}],
        "structures": [{"owner": 0, "building": "Villa"}],
    })
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market",
       "Craftsman: use Garden from hand", "add Stone from hand to Villa")
    assert not structure(st, 0, "Villa")["complete"]


# --- Vomitorium ----------------------------------------------------------------------------

def test_vomitorium():
    st = make({
        "leader": 1,
        "players": [{"hand": ["Temple", "Forum", "Statue"], "jacks": 1}, {"hand": ["Wall"]}],
        "structures": [built("Vomitorium", 0)],
    })
    pile = st.to_dict()["jack_pile"]
    do(st, "lead Architect with Wall", "think", "Vomitorium: discard the whole hand")
    d = st.to_dict()
    assert sorted(data.BUILDINGS[data.card_table()[c]].name for c in d["pool"]) == ["Forum", "Statue", "Temple"]
    assert d["jack_pile"] == pile + 1
    do(st, "draw 5 cards")
    resolve(st)
    d = st.to_dict()
    assert len(d["players"][0]["hand"]) == 5 and d["players"][0]["jacks"] == 0


# --- Wall --------------------------------------------------------------------------------

def test_wall_scoring():
    st = make({
        "players": [{"stockpile": ["Rubble"] * 5}, {}],
        "structures": [built("Wall", 0), built("Insula", 0)],
    })
    b = st.score_breakdown(0)
    assert b["influence"] == 5 and b["wall"] == 2 and b["vault"] == 0 and b["total"] == 7


def test_wall_stops_a_bridge():
    st = make({
        "leader": 1,
        "players": [{"hand": ["Villa", "Garden", "Academy"], "stockpile": ["Stone"]},
                    {"hand": ["Archway", "Sewer"]}],
        "structures": [built("Wall", 0), built("Bridge", 1)],
    })
    do(st, "lead Legionary with Archway", "follow Legionary with Academy",
       "Legionary: demand Stone (reveal Sewer)")                # Glory to Rome!
    assert materials(st, 0, "stockpile") == ["Stone"] and materials(st, 1, "stockpile") == []
    do(st, "Legionary: demand Stone (reveal Villa)")
    assert materials(st, 0, "stockpile") == ["Stone", "Stone"]
    assert player(st, 1)["hand"] == []


# --- Sewer -------------------------------------------------------------------------------

def test_sewer():
    st = make({
        "leader": 1,
        "players": [{"hand": ["Villa"]}, {"hand": ["Garden"]}],
        "structures": [built("Sewer", 0)],
    })
    do(st, "lead Merchant with Garden", "follow Merchant with Villa",
       "Sewer: put the played Stone into the stockpile")
    d = st.to_dict()
    card = data.card_table()
    assert [data.BUILDINGS[card[c]].name for c in d["pool"]] == ["Garden"]
    assert [data.BUILDINGS[card[c]].name for c in d["players"][0]["stockpile"]] == ["Villa"]
    assert d["leader"] == 0


# --- Shrine, Temple, Market, Insula, Aqueduct: limits -----------------------------------

@pytest.mark.parametrize("building,limits", [
    ("Shrine", {"hand": 7, "clientele": 4, "vault": 4}),
    ("Temple", {"hand": 9, "clientele": 5, "vault": 5}),
    ("Market", {"hand": 5, "clientele": 3, "vault": 5}),
    ("Insula", {"hand": 5, "clientele": 5, "vault": 3}),
])
def test_first_structure_limits(building, limits):
    m = data.MATERIALS[data.BUILDINGS[BID[building]].material]
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": [m.name]}, {"hand": ["Tower"]}],
        "structures": [{"owner": 0, "building": building, "materials": [m.name] * (m.value - 1)}],
    })
    assert st.limits(0) == {"hand": 5, "clientele": 2, "vault": 2}
    do(st, "lead Architect with Wall", "follow Architect with Tower",
       f"Architect: use {m.name} from the stockpile")
    assert structure(st, 0, building)["complete"]
    assert st.limits(0) == limits
    assert st.influence(0) == 2 + m.value


def test_aqueduct_doubles_clientele():
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Concrete"]}, {"hand": ["Tower"]}],
        "structures": [built("Insula", 0), {"owner": 0, "building": "Aqueduct", "materials": ["Concrete"]}],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower",
       "Architect: use Concrete from the stockpile")
    assert st.influence(0) == 5 and st.limits(0)["clientele"] == 14


def test_aqueduct_hires_from_hand():
    st = make({
        "pool": ["Villa"],
        "players": [{"hand": ["Temple", "Academy", "Archway"], "clientele": ["Patron"]}, {}],
        "structures": [built("Aqueduct", 0)],
    })
    do(st, "lead Patron with Temple", "take a Jack")
    assert st.actions_left() == 2
    do(st, "Patron: hire a Merchant from the pool", "Aqueduct: also hire Academy (Legionary) from hand",
       "Aqueduct: hire Archway (Legionary) from hand")
    assert roles(st, 0) == ["Legionary", "Legionary", "Merchant", "Patron"]
    assert player(st, 0)["hand"] == []


# --- Stairway ----------------------------------------------------------------------------

def test_stairway():
    st = make({
        "pool": ["Academy"],
        "players": [{"hand": ["Wall"], "stockpile": ["Marble", "Brick"], "clientele": ["Architect"]},
                    {"hand": ["Tower"]}],
        "structures": [{"owner": 0, "building": "Stairway", "materials": ["Marble", "Marble"]},
                       built("Archway", 1), built("Shrine", 1)],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower",
       "Architect: use Marble from the stockpile")              # completes the Stairway
    assert structure(st, 0, "Stairway")["complete"]
    do(st, "Stairway: use Brick from the stockpile", "Stairway: add Brick to player 1's Archway")
    assert structure(st, 1, "Archway")["public"] and "Archway" in st.functions(0)
    # the second Architect action has no use, so it is declined by itself (a single
    # legal action is applied automatically); the Stairway action still follows
    do(st, "Stairway: use Brick from the pool")                 # Archway's function, now public
    assert structure(st, 1, "Shrine")["public"]
    assert st.limits(0)["hand"] == 7
    assert len(structure(st, 1, "Archway")["materials"]) == 3


# --- Statue ------------------------------------------------------------------------------

def test_statue():
    st = make({
        "players": [{"hand": ["Dock", "Statue", "Academy", "Basilica"],
                     "clientele": ["Craftsman", "Craftsman"]}, {}],
    })
    do(st, "lead Craftsman with Dock", "take a Jack", "Craftsman: use Statue from hand")
    assert "lay Statue on a Brick site in town" in names(st)
    assert "lay Statue on a Rubble site in town" in names(st)
    do(st, "lay Statue on a Brick site in town",
       "Craftsman: use Academy from hand", "add Brick from hand to Statue",
       "Craftsman: use Basilica from hand", "add Marble from hand to Statue")
    statue = structure(st, 0, "Statue")
    assert statue["complete"] and statue["site"] == "Brick"
    b = st.score_breakdown(0)
    assert b["influence"] == 4 and b["statue"] == 3 and b["total"] == 7


# --- Storeroom ---------------------------------------------------------------------------

def test_storeroom():
    st = make({
        "pool": ["Stone", "Brick", "Brick", "Brick", "Brick"],
        "players": [{"hand": ["Road"], "clientele": ["Laborer", "Craftsman", "Patron"]}, {}],
        "structures": [built("Storeroom", 0)],
    })
    do(st, "lead Laborer with Road", "take a Jack")
    assert st.actions_left() == 4
    do(st, "Laborer: take Stone from the pool", *["Laborer: take Brick from the pool"] * 3)
    assert materials(st, 0, "stockpile") == ["Brick", "Brick", "Brick", "Stone"]
    assert sorted(c // 24 for c in st.to_dict()["pool"]) == [0, 3]   # a Brick left, and the Road led


# --- Prison ------------------------------------------------------------------------------

def test_prison():
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Stone", "Rubble"], "clientele": ["Architect"]},
                    {"stockpile": ["Rubble", "Marble"]}],
        "structures": [{"owner": 0, "building": "Prison", "materials": ["Stone", "Stone"]},
                       {"owner": 0, "building": "Garden"},
                       built("Tower", 1),
                       {"owner": 1, "building": "Temple", "materials": ["Marble", "Rubble"]}],
    })
    assert st.influence(1) == 4
    do(st, "lead Architect with Wall", "take a Jack",
       "Architect: use Stone from the stockpile", "add Stone from stockpile to Prison")
    assert st.influence(0) == 5
    do(st, "Prison: steal player 1's Tower")
    assert structure(st, 0, "Tower")["complete"]
    assert "Tower" in st.functions(0) and "Tower" not in st.functions(1)
    assert st.influence(0) == 2 and st.influence(1) == 7     # the Prison's site to the victim
    do(st, "Architect: use Rubble from the stockpile")       # Rubble into any structure now
    assert len(structure(st, 0, "Garden")["materials"]) == 1
    # next turn: the opponent's Temple takes only Marble now, and one completes it
    assert st.to_dict()["leader"] == 1
    do(st, "lead Architect with Jack")
    if "take a Jack" in names(st):
        do(st, "take a Jack")
    assert "Architect: use Rubble from the stockpile" not in names(st)
    do(st, "Architect: use Marble from the stockpile")
    assert structure(st, 1, "Temple")["complete"]


# --- Road --------------------------------------------------------------------------------

def test_road():
    st = make({
        "leader": 1,
        "players": [{"hand": ["Tower"], "stockpile": ["Rubble", "Wood", "Wood"], "clientele": ["Architect"]},
                    {"hand": ["Wall"]}],
        "structures": [{"owner": 0, "building": "Road"},
                       {"owner": 0, "building": "Catacomb", "materials": ["Stone"]}],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower")
    assert st.current_player() == 0 and st.actions_left() == 2
    assert "Architect: use Wood from the stockpile" not in names(st)   # not before the Road
    do(st, "Architect: use Rubble from the stockpile")
    assert structure(st, 0, "Road")["complete"]
    do(st, "Architect: use Wood from the stockpile")
    cat = structure(st, 0, "Catacomb")
    assert len(cat["materials"]) == 2 and not cat["complete"]


# --- School ------------------------------------------------------------------------------

def test_school():
    st = make({
        "players": [{"hand": ["Wall", "Bar", "Dock"], "stockpile": ["Brick"]}, {"hand": ["Tower"]}],
        "structures": [{"owner": 0, "building": "School", "materials": ["Brick"]}],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower",
       "Architect: use Brick from the stockpile")
    assert st.influence(0) == 4
    do(st, "draw 3 cards")
    resolve(st)
    do(st, "take a Jack", "take a Jack", "draw 1 card")
    resolve(st)
    p0 = player(st, 0)
    assert len(p0["hand"]) + p0["jacks"] == 8 and p0["jacks"] == 2


# --- Scriptorium -------------------------------------------------------------------------

def test_scriptorium():
    st = make({
        "players": [{"hand": ["Dock", "Villa", "Forum", "Statue"], "clientele": ["Craftsman", "Craftsman"]},
                    {"hand": ["Market"]}],
        "structures": [{"owner": 0, "building": "Scriptorium", "materials": ["Stone", "Stone"]},
                       {"owner": 0, "building": "Wall"},
                       {"owner": 0, "building": "Temple", "materials": ["Marble"]}],
    })
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market",
       "Craftsman: use Villa from hand", "add Stone from hand to Scriptorium",
       "Craftsman: use Forum from hand", "add Marble from hand to Wall",
       "Craftsman: use Statue from hand", "add Marble from hand to Temple")
    for b in ("Scriptorium", "Wall", "Temple"):
        assert structure(st, 0, b)["complete"], b
    assert st.influence(0) == 2 + 3 + 2 + 3


# --- Senate ------------------------------------------------------------------------------

def test_senate():
    st = make({
        "players": [{"jacks": 1}, {"jacks": 1}, {"jacks": 1}],
        "structures": [built("Senate", 0), built("Senate", 1)],
    }, n=3)
    do(st, "lead Patron with Jack", "follow Patron with Jack", "follow Patron with Jack",
       "Senate: take the Jack player 1 played", "Senate: take the Jack player 2 played",
       "Senate: take the Jack player 0 played")
    d = st.to_dict()
    assert [pd["jacks"] for pd in d["players"]] == [2, 1, 0] and d["jack_pile"] == 3
    assert d["leader"] == 1


# --- Latrine -----------------------------------------------------------------------------

def test_latrine():
    st = make({
        "leader": 1,
        "players": [{"hand": ["Academy", "Archway", "Atrium", "Bath"]}, {"hand": ["Wall"]}],
        "structures": [built("Latrine", 0)],
    })
    do(st, "lead Architect with Wall", "think", "Latrine: discard Academy", "draw 2 cards")
    resolve(st)
    d = st.to_dict()
    assert len(d["players"][0]["hand"]) == 5
    assert sorted(data.card_table()[c] for c in d["pool"]) == sorted([BID["Academy"], BID["Wall"]])


# --- Ludus Magna -------------------------------------------------------------------------

def test_ludus_magna():
    st = make({
        "players": [{"hand": ["Dock", "Forum", "Insula", "Bar"], "clientele": ["Craftsman", "Merchant"]},
                    {"hand": ["Market"]}],
        "structures": [{"owner": 0, "building": "Ludus Magna", "materials": ["Marble", "Marble"]}],
    })
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market")
    assert st.actions_left() == 2
    do(st, "Craftsman: use Forum from hand", "add Marble from hand to Ludus Magna")
    assert structure(st, 0, "Ludus Magna")["complete"]
    assert st.actions_left() == 2            # the Merchant client now acts as a Craftsman
    do(st, "Craftsman: use Insula from hand", "lay Insula on a Rubble site in town",
       "Craftsman: use Bar from hand", "add Rubble from hand to Insula")
    assert structure(st, 0, "Insula")["complete"]


# --- Palace ------------------------------------------------------------------------------

def test_palace():
    st = make({
        "players": [{"hand": ["Catacomb", "Coliseum", "Garden", "Road"], "jacks": 1,
                     "clientele": ["Merchant"], "stockpile": ["Rubble"] * 5},
                    {"hand": ["Villa"]}],
        "structures": [built("Palace", 0)],
    })
    do(st, "lead Merchant with Catacomb", "also play for Merchant with Coliseum",
       "also play for Merchant with Garden", "also play for Merchant with Jack",
       "follow Merchant with Villa")   # nothing more to play: the Palace step ends by itself
    assert st.actions_left() == 5
    do(st, *["Merchant: sell Rubble from the stockpile into the vault"] * 5)
    assert len(player(st, 0)["vault"]) == 5 and player(st, 0)["stockpile"] == []
    assert [data.card_table()[c] for c in player(st, 0)["hand"]] == [BID["Road"]]


# --- Palisade ----------------------------------------------------------------------------

def test_palisade():
    # seats: 0 leads (to your right), 1 is you, 2 is to your left
    st = make({
        "pool": ["Basilica", "Basilica"],
        "players": [{"hand": ["Academy", "Forum"]}, {"hand": ["Archway", "Statue"]},
                    {"hand": ["Temple", "Temple"]}],
        "structures": [built("Palisade", 1)],
    }, n=3)
    do(st, "lead Legionary with Academy", "follow Legionary with Archway", "take a Jack",
       "Legionary: demand Marble (reveal Forum)")
    assert materials(st, 0, "stockpile") == ["Marble", "Marble"]   # pool + player 2, not you
    assert [data.card_table()[c] for c in player(st, 1)["hand"]] == [BID["Statue"]]
    do(st, "Legionary: demand Marble (reveal Statue)")
    assert materials(st, 1, "stockpile") == ["Marble"] * 3         # pool, leader, player 2
    assert player(st, 2)["hand"] == []


# --- Foundry -----------------------------------------------------------------------------

def test_foundry():
    st = make({
        "pool": ["Dock", "Academy", "Academy", "Forum", "Forum"],
        "players": [{"hand": ["Market", "Archway"]}, {"hand": ["Dock"]}],
        "structures": [{"owner": 0, "building": "Foundry", "materials": ["Brick"]}],
    })
    do(st, "lead Craftsman with Market", "follow Craftsman with Dock",
       "Craftsman: use Archway from hand", "add Brick from hand to Foundry")
    assert st.influence(0) == 4 and st.actions_left() == 4
    do(st, "Laborer: take Brick from the pool", "Laborer: take Brick from the pool",
       "Laborer: take Marble from the pool", "Laborer: take Marble from the pool")
    assert materials(st, 0, "stockpile") == ["Brick", "Brick", "Marble", "Marble"]
    # left in the pool: the Wood; then the played Market and Dock join it at the end of the turn
    assert sorted(data.card_table()[c] for c in st.to_dict()["pool"]) == [BID["Dock"], BID["Dock"], BID["Market"]]


# --- Fountain ----------------------------------------------------------------------------

def test_fountain():
    st = make({
        "players": [{"hand": ["Market"], "clientele": ["Craftsman", "Craftsman"]}, {"hand": ["Dock"]}],
        "structures": [built("Fountain", 0)],
    })
    do(st, "lead Craftsman with Market", "follow Craftsman with Dock", "Fountain: draw a card")
    draw(st, "Palisade")
    obs1 = st.observation(1)
    assert obs1["drawn"] == [None] and st.observation(0)["drawn"] == ["Palisade"]
    do(st, "lay Palisade on a Wood site in town", "Fountain: draw a card")
    draw(st, "Palisade")
    do(st, "add Wood from Fountain draw to Palisade")
    assert structure(st, 0, "Palisade")["complete"]
    do(st, "Fountain: draw a card")
    draw(st, "Palisade")                       # only the hand is left for it: kept at once
    assert st.observation(0)["hand"] == ["Palisade"]
    assert st.observation(1)["known_in_hands"]["0"] == []


# --- Garden ------------------------------------------------------------------------------

def test_garden():
    st = make({
        "pool": ["Academy", "Archway", "Dock", "Forum", "Statue"],
        "players": [{"hand": ["Market", "Villa"]}, {"hand": ["Dock"]}],
        "structures": [{"owner": 0, "building": "Garden", "materials": ["Stone", "Stone"]}],
    })
    do(st, "lead Craftsman with Market", "follow Craftsman with Dock",
       "Craftsman: use Villa from hand", "add Stone from hand to Garden")
    assert st.influence(0) == 5 and st.limits(0)["clientele"] == 5 and st.actions_left() == 5
    do(st, "Patron: hire a Patron from the pool", "Patron: hire a Craftsman from the pool",
       "Patron: hire a Legionary from the pool", "Patron: hire a Legionary from the pool",
       "decline the Patron action")
    assert roles(st, 0) == ["Craftsman", "Legionary", "Legionary", "Patron"]
    assert st.current_player() == 1          # the new Craftsman client does not act this turn


def test_bath_with_garden():
    st = make({
        "pool": ["Road", "Villa"],
        "players": [{"hand": ["Market", "Catacomb"]}, {"hand": ["Dock"]}],
        "structures": [{"owner": 0, "building": "Garden", "materials": ["Stone", "Stone"]}, built("Bath", 0)],
    })
    do(st, "lead Craftsman with Market", "follow Craftsman with Dock",
       "Craftsman: use Catacomb from hand", "add Stone from hand to Garden",
       "Patron: hire a Laborer from the pool")
    assert "Laborer: take Stone from the pool" in names(st)     # the new client acts at once
    do(st, "Laborer: take Stone from the pool")
    assert materials(st, 0, "stockpile") == ["Stone"]


# --- Gate --------------------------------------------------------------------------------

def test_gate():
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Brick"]}, {"hand": ["Tower"]}],
        "structures": [{"owner": 0, "building": "Temple"},
                       {"owner": 0, "building": "Gate", "materials": ["Brick"]}],
    })
    assert "Temple" not in st.functions(0)
    do(st, "lead Architect with Wall", "follow Architect with Tower", "Architect: use Brick from the stockpile")
    assert "Temple" in st.functions(0) and st.limits(0)["hand"] == 9
    assert st.influence(0) == 4                # no Influence from the Temple foundation


def test_gate_with_road():
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Marble"]}, {"hand": ["Tower"]}],
        "structures": [built("Gate", 0), built("Road", 0), {"owner": 0, "building": "Sewer"}],
    })
    assert "Sewer" not in st.functions(0)
    do(st, "lead Architect with Wall", "follow Architect with Tower", "Architect: use Marble from the stockpile")
    sewer = structure(st, 0, "Sewer")
    assert not sewer["complete"] and "Sewer" in st.functions(0)


# --- Coliseum ----------------------------------------------------------------------------

def test_coliseum():
    # seats: 0 leads (to your right), 1 is you, 2 is to your left
    st = make({
        "pool": ["Basilica", "Basilica"],
        "players": [
            {"hand": ["Academy", "Forum", "Forum"], "clientele": ["Legionary", "Merchant"]},
            {"hand": ["Archway", "Archway", "Villa", "Statue"],
             "clientele": ["Legionary", "Architect", "Architect", "Architect"]},
            {"hand": ["Garden"], "clientele": ["Legionary", "Architect"]},
        ],
        "structures": [built("Coliseum", 1)],
    }, n=3)
    do(st, "lead Legionary with Academy", "follow Legionary with Archway", "take a Jack")
    do(st, "Legionary: demand Marble (reveal Forum)", "Legionary: demand Marble (reveal Forum)")
    assert materials(st, 0, "stockpile") == ["Marble"] * 3     # your Marble and two from the pool
    do(st, "Legionary: demand Brick (reveal Archway)", "Legionary: demand Stone (reveal Villa)")
    assert materials(st, 1, "stockpile") == ["Stone"]         # the player to your left's Stone
    do(st, "Coliseum: slay player 2's Legionary client",
       "Coliseum: slay player 0's Legionary client", "Coliseum: slay player 0's Merchant client")
    assert materials(st, 1, "vault") == ["Brick", "Brick", "Stone"]
    assert roles(st, 0) == [] and roles(st, 2) == ["Architect"]
    assert st.to_dict()["phase"] == "lead"     # player 2 had no Legionary action left
    assert st.to_dict()["leader"] == 1


# --- Dock --------------------------------------------------------------------------------

def test_dock():
    st = make({
        "leader": 1,
        "pool": ["Dock", "Dock"],
        "players": [{"hand": ["Bar", "Academy", "Academy"], "clientele": ["Laborer"]}, {"hand": ["Road"]}],
        "structures": [built("Dock", 0)],
    })
    do(st, "lead Laborer with Road", "follow Laborer with Bar", "Laborer: take Wood from the pool",
       "Laborer: take Wood from the pool", "Dock: also put Academy from hand into the stockpile",
       "Dock: put Academy from hand into the stockpile")
    assert materials(st, 0, "stockpile") == ["Brick", "Brick", "Wood"]
    assert materials(st, 1, "stockpile") == ["Wood"]


# --- Forum -------------------------------------------------------------------------------

ALL_ROLES = ["Laborer", "Craftsman", "Architect", "Legionary", "Merchant", "Patron"]


def test_forum():
    st = make({
        "players": [{"hand": ["Dock", "Temple"], "clientele": ALL_ROLES},
                    {"hand": ["Market"], "clientele": ALL_ROLES}],
        "structures": [{"owner": 0, "building": "Forum", "materials": ["Marble", "Marble"]},
                       {"owner": 1, "building": "Forum", "materials": ["Marble", "Marble"]},
                       built("Insula", 0), built("Aqueduct", 0), built("Insula", 1), built("Aqueduct", 1)],
    })
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market",
       "Craftsman: use Temple from hand", "add Marble from hand to Forum")
    assert st.is_terminal()
    assert st.to_dict()["forum_winners"] == [0] and st.returns() == [1.0, 0.0]


def test_forum_with_ludus_magna():
    clients = ["Laborer", "Craftsman", "Architect", "Legionary", "Merchant", "Merchant"]
    st = make({
        "players": [{"hand": ["Dock", "Temple"], "clientele": clients}, {"hand": ["Market"]}],
        "structures": [built("Forum", 0), {"owner": 0, "building": "Ludus Magna", "materials": ["Marble"] * 2},
                       built("Aqueduct", 0)],
    })
    assert not st.is_terminal()
    do(st, "lead Craftsman with Dock", "follow Craftsman with Market",
       "Craftsman: use Temple from hand", "add Marble from hand to Ludus Magna")
    assert st.is_terminal() and st.to_dict()["forum_winners"] == [0]


def test_forum_with_storeroom():
    clients = ["Craftsman", "Craftsman", "Architect", "Legionary", "Merchant", "Patron"]
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Concrete"], "clientele": clients}, {"hand": ["Tower"]}],
        "structures": [built("Forum", 0), {"owner": 0, "building": "Storeroom", "materials": ["Concrete"]},
                       built("Aqueduct", 0)],
    })
    assert not st.is_terminal()
    do(st, "lead Architect with Wall", "follow Architect with Tower", "Architect: use Concrete from the stockpile")
    assert st.is_terminal() and st.to_dict()["forum_winners"] == [0]


def test_forum_with_storeroom_counts_each_client_once():
    clients = ["Craftsman", "Architect", "Legionary", "Merchant", "Patron"]
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Concrete"], "clientele": clients}, {"hand": ["Tower"]}],
        "structures": [built("Forum", 0), {"owner": 0, "building": "Storeroom", "materials": ["Concrete"]},
                       built("Aqueduct", 0)],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower", "Architect: use Concrete from the stockpile")
    assert not st.is_terminal()


def test_forum_with_stairway_two_winners_score_decides():
    st = make({
        "players": [{"hand": ["Wall"], "stockpile": ["Marble"], "clientele": ALL_ROLES},
                    {"hand": ["Tower"]},
                    {"clientele": ALL_ROLES, "vault": ["Stone"]}],
        "structures": [built("Stairway", 0), built("Forum", 1), built("Aqueduct", 0), built("Aqueduct", 2)],
    }, n=3)
    do(st, "lead Architect with Wall", "follow Architect with Tower", "take a Jack",
       "Stairway: use Marble from the stockpile")   # the Architect action itself has no use
    assert st.is_terminal()
    assert st.to_dict()["forum_winners"] == [0, 2]
    assert st.returns() == [0.0, 0.0, 1.0]      # player 2 scores more (Merchant Bonus, vault)


# --- Bridge ------------------------------------------------------------------------------

def test_bridge():
    # seats: 0 is you, 1 to your left (Palisade), 2 across, 3 to your right (Wall)
    st = make({
        "pool": ["Basilica"],
        "players": [{"hand": ["Academy", "Forum"]},
                    {"hand": ["Temple"], "stockpile": ["Marble"]},
                    {"hand": ["Temple"], "stockpile": ["Marble"]},
                    {"hand": ["Temple"], "stockpile": ["Marble"]}],
        "structures": [built("Bridge", 0), built("Palisade", 1), built("Wall", 3)],
    }, n=4)
    do(st, "lead Legionary with Academy", "take a Jack", "take a Jack", "take a Jack",
       "Legionary: demand Marble (reveal Forum)")
    assert materials(st, 0, "stockpile") == ["Marble"] * 5
    assert [data.card_table()[c] for c in player(st, 0)["hand"]] == [BID["Forum"]]
    assert materials(st, 3, "stockpile") == ["Marble"] and len(player(st, 3)["hand"]) == 1


def test_four_players_demand_only_neighbours():
    st = make({
        "players": [{"hand": ["Academy", "Forum"]},
                    {"hand": ["Temple"]}, {"hand": ["Temple"]}, {"hand": ["Temple"]}],
    }, n=4)
    do(st, "lead Legionary with Academy", "take a Jack", "take a Jack", "take a Jack",
       "Legionary: demand Marble (reveal Forum)")
    assert materials(st, 0, "stockpile") == ["Marble"] * 2
    assert len(player(st, 2)["hand"]) == 1      # across the table: not a neighbour


# --- Catacomb ----------------------------------------------------------------------------

def test_catacomb():
    # seats: 2 leads (to your right), 0 is you, 1 is to your left
    st = make({
        "leader": 2,
        "players": [{"hand": ["Villa"], "clientele": ["Craftsman", "Craftsman"]},
                    {"hand": ["Market", "Insula"]},
                    {"hand": ["Dock", "Palisade"]}],
        "structures": [{"owner": 0, "building": "Catacomb", "materials": ["Stone", "Stone"]}],
    }, n=3)
    do(st, "lead Craftsman with Dock", "draw 4 cards")   # no Craftsman card: thinking is forced
    resolve(st)
    do(st, "follow Craftsman with Market", "Craftsman: use Palisade from hand")  # one action: in town
    assert st.current_player() == 0 and st.actions_left() == 2
    do(st, "Craftsman: use Villa from hand", "add Stone from hand to Catacomb")
    assert st.is_terminal()
    assert st.influence(0) == 5
    assert [data.card_table()[c] for c in player(st, 1)["hand"]] == [BID["Insula"]]


# --- Circus ------------------------------------------------------------------------------

def test_circus():
    st = make({
        "players": [{"hand": ["Villa", "Road", "Bar"]}, {"hand": ["Temple"]}],
        "structures": [built("Circus", 0)],
    })
    assert "lead Patron with a petition of 2 Rubble" in names(st)
    do(st, "lead Patron with a petition of 2 Rubble")
    d = st.to_dict()
    assert d["role"] == "Patron" and len(d["players"][0]["camp"]) == 2
    assert names(st) == ["follow Patron with Temple", "think"]


def test_petition_needs_three_without_circus():
    st = make({"players": [{"hand": ["Road", "Bar", "Insula"]}, {}]})
    assert "lead Patron with a petition of 3 Rubble" in names(st)
    st = make({"players": [{"hand": ["Road", "Bar"]}, {}]})
    assert not any("petition" in x for x in names(st))


# --- Circus Maximus ----------------------------------------------------------------------

def test_circus_maximus():
    # seats: 0 is you, 1 to your left, 2 to your right
    st = make({
        "players": [{"hand": ["Villa"], "clientele": ["Merchant", "Merchant"], "stockpile": ["Rubble"] * 6},
                    {"clientele": ["Merchant", "Merchant"], "stockpile": ["Rubble"] * 3},
                    {}],
        "structures": [built("Circus Maximus", 0), built("Circus Maximus", 1)],
    }, n=3)
    do(st, "lead Merchant with Villa", "take a Jack", "take a Jack")
    assert st.actions_left() == 5
    do(st, *["Merchant: sell Rubble from the stockpile into the vault"] * 5)
    assert st.current_player() == 1 and st.actions_left() == 2
    do(st, *["Merchant: sell Rubble from the stockpile into the vault"] * 2)
    assert len(player(st, 0)["vault"]) == 5 and len(player(st, 1)["vault"]) == 2


# --- Atrium ------------------------------------------------------------------------------

def test_atrium():
    st = make({
        "leader": 1,
        "players": [{"jacks": 1, "stockpile": ["Stone"], "clientele": ["Merchant"]},
                    {"hand": ["Villa"], "stockpile": ["Concrete"]}],
        "structures": [built("Atrium", 0)],
    })
    do(st, "lead Merchant with Villa", "follow Merchant with Jack",
       "Merchant: sell Concrete from the stockpile into the vault",
       "Merchant: sell Stone from the stockpile into the vault",
       "Atrium: put a card from the draw pile into the vault")
    resolve(st)
    assert len(player(st, 0)["vault"]) == 2
    for p in (0, 1):
        assert st.observation(p)["vaults"][0]["hidden"] == 1   # nobody saw the Atrium card
        assert st.observation(p)["vaults"][0]["known"] == ["Catacomb"]


# --- Bar ---------------------------------------------------------------------------------

def test_bar():
    # seats: 2 leads (to your right), 0 is you, 1 is to your left
    st = make({
        "leader": 2,
        "pool": ["Dock", "Dock", "Dock", "Academy"],
        "players": [{"hand": ["Temple"]}, {"hand": ["Statue"], "clientele": ["Patron"]}, {"hand": ["Forum"]}],
        "structures": [built("Bar", 0), built("Bar", 1)],
    }, n=3)
    do(st, "lead Patron with Forum", "follow Patron with Temple", "follow Patron with Statue",
       "Patron: hire a Craftsman from the pool",
       "Patron: hire a Legionary from the pool", "Bar: also hire a client from the draw pile")
    draw(st, "Tower")
    assert roles(st, 0) == ["Architect", "Legionary"]
    assert st.current_player() == 1 and st.actions_left() == 2
    do(st, "Bar: hire a client from the draw pile")
    draw(st, "Academy")
    do(st, "Bar: hire a client from the draw pile")
    draw(st, "Villa")
    assert roles(st, 1) == ["Legionary", "Merchant", "Patron"] and st.limits(1)["clientele"] == 3
    assert st.to_dict()["leader"] == 0


# --- Basilica ----------------------------------------------------------------------------

def test_basilica():
    st = make({
        "players": [{"hand": ["Tower", "Wall"], "jacks": 1, "stockpile": ["Brick"], "clientele": ["Merchant"]},
                    {"hand": ["Villa"]}],
        "structures": [built("Basilica", 0)],
    })
    do(st, "lead Merchant with Jack", "follow Merchant with Villa",
       "Merchant: sell Brick from the stockpile into the vault",
       "Basilica: also put Tower from hand into the vault", "Basilica: put Wall from hand into the vault")
    assert materials(st, 0, "vault") == ["Brick", "Concrete", "Concrete"]
    assert st.observation(1)["vaults"][0] == {"known": ["Academy"], "hidden": 2}
    assert st.observation(0)["vaults"][0] == {"known": ["Academy", "Tower", "Wall"], "hidden": 0}


# --- Bath --------------------------------------------------------------------------------

def test_bath():
    # seats: 2 leads (to your right), 0 is you, 1 is to your left
    st = make({
        "leader": 2,
        "pool": ["Road", "Tower", "Villa", "Temple"],
        "players": [{"hand": ["Forum"]}, {"hand": ["Statue"]}, {"hand": ["Basilica"]}],
        "structures": [built("Bath", 0)],
    }, n=3)
    do(st, "lead Patron with Basilica", "follow Patron with Forum", "follow Patron with Statue",
       "Patron: hire an Architect from the pool",
       "Patron: hire a Patron from the pool",       # Bath: the new Patron acts at once
       "Patron: hire a Laborer from the pool",      # Bath: the new Laborer acts at once
       "Laborer: take Stone from the pool")
    assert roles(st, 0) == ["Laborer", "Patron"] and materials(st, 0, "stockpile") == ["Stone"]
    assert roles(st, 1) == []                  # the pool was empty for the player to your left
    assert sorted(c // 24 for c in st.to_dict()["pool"]) == [5, 5, 5]   # only the played cards
    assert st.to_dict()["leader"] == 0


# --- Academy -----------------------------------------------------------------------------

def test_academy():
    st = make({
        "leader": 1,
        "players": [{"clientele": ["Craftsman", "Craftsman"]}, {"hand": ["Dock", "Market"]}],
        "structures": [built("Academy", 0)],
    })
    do(st, "lead Craftsman with Dock", "draw 5 cards")
    draw(st, "Insula", "Latrine", "Bar", "Road", "Palisade")
    do(st, "Craftsman: use Market from hand",          # one action: in town is the only site
       "Craftsman: use Insula from hand", "lay Insula on a Rubble site in town",
       "Craftsman: use Latrine from hand", "lay Latrine on a Rubble site in town")
    assert st.current_player() == 0 and "draw 2 cards" in names(st)   # the Academy's think
    do(st, "draw 2 cards")
    resolve(st)
    assert len(player(st, 0)["hand"]) == 5
    assert st.to_dict()["leader"] == 0


def test_academy_needs_a_craftsman_action():
    st = make({
        "leader": 1,
        "players": [{"clientele": ["Craftsman"]}, {"hand": ["Dock"]}],
        "structures": [built("Academy", 0)],
    })
    do(st, "lead Craftsman with Dock", "take a Jack")
    assert st.to_dict()["phase"] == "lead"     # no Craftsman action: no Academy think


# --- Amphitheatre ------------------------------------------------------------------------

def test_amphitheatre():
    st = make({
        "players": [{"hand": ["Wall", "Shrine", "Academy"], "stockpile": ["Concrete"]}, {"hand": ["Tower"]}],
        "structures": [{"owner": 0, "building": "Amphitheatre", "materials": ["Concrete"]}],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower", "Architect: use Concrete from the stockpile")
    assert st.influence(0) == 4 and st.actions_left() == 4
    do(st, "Craftsman: use Shrine from hand", "lay Shrine on a Brick site in town",
       "Craftsman: use Academy from hand", "add Brick from hand to Shrine")
    # the empty hand leaves two actions with no use: they are declined by themselves
    assert len(structure(st, 0, "Shrine")["materials"]) == 1
    assert st.current_player() == 1


# --- Archway -----------------------------------------------------------------------------

def test_archway():
    st = make({
        "pool": ["Academy"],
        "players": [{"hand": ["Wall"], "stockpile": ["Brick"], "clientele": ["Architect"]}, {"hand": ["Tower"]}],
        "structures": [built("Archway", 0), {"owner": 0, "building": "Gate"}],
    })
    do(st, "lead Architect with Wall", "follow Architect with Tower",
       "Archway: use Brick from the pool", "Architect: use Brick from the stockpile")
    assert structure(st, 0, "Gate")["complete"]
    assert st.to_dict()["pool"] == [] or all(c // 24 != 3 for c in st.to_dict()["pool"])


def test_archway_cannot_lay_foundations_from_the_pool():
    st = make({
        "pool": ["Academy"],
        "players": [{"hand": ["Wall"]}, {}],
        "structures": [built("Archway", 0)],
    })
    do(st, "lead Architect with Wall", "take a Jack")
    assert "Archway: use Brick from the pool" not in names(st)


def test_statue_points_need_ones_own_completed_statue():
    st = make({
        "players": [{}, {}],
        "structures": [built("Gate", 0), {"owner": 0, "building": "Statue", "site": "Brick"},
                       built("Stairway", 1), built("Statue", 1, public=True)],
    })
    assert "Statue" in st.functions(0)          # Gate, and the public Statue
    assert st.score_breakdown(0)["statue"] == 0 and st.score_breakdown(1)["statue"] == 3
