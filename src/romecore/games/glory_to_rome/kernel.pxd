# cython: language_level=3
"""The Glory to Rome kernel: the state struct, its constants and the C functions the
Python state class reads it through.  See kernel.pyx for the rules and
``romecore.games.glory_to_rome`` for the action encoding."""
from libc.stdint cimport int8_t, uint8_t, uint16_t, int32_t, uint32_t, uint64_t

# Bounds (named here, checked against data.py when the kernel is imported)
cdef enum:
    GR_NCARDS = 144       # Orders cards; ids grouped by material, then by building
    GR_NBUILD = 40
    GR_NMAT = 6           # materials = roles: Rubble/Laborer .. Marble/Patron
    GR_PER_MAT = 24       # cards of one material: ids m * GR_PER_MAT on
    GR_MINP = 2
    GR_MAXP = 5
    GR_SEATS = (1 << GR_MAXP) - 1       # every seat's bit (known[], player masks)
    GR_NSLOTS = 36        # structures in play, at most one per site
    GR_MAXF = 32          # nested action frames (role turn, bursts, Bath, Prison)
    GR_NJACKS = 6
    GR_U8_MAX = 255       # byte counters (fr_n, setup_i) saturate here
    GR_STEPS_MAX = 65535  # the steps counter saturates here
    # the longest list: leading with every building, a Jack and every petition, or think
    GR_MAXLEGAL = GR_NBUILD + GR_NMAT + GR_NMAT * GR_NMAT + 1
    GR_MAX_GAME_LENGTH = 6000           # the engine limit, data.MAX_ACTIONS
    # forced steps between two decisions: far above a turn's worth of spent actions
    # (five players, GR_MAXF frames of at most GR_U8_MAX actions) and the whole deck
    GR_FORCED_MAX = GR_MAXP * GR_MAXF * (GR_U8_MAX + 1) + GR_NCARDS

    # the sentinel of every byte field that may be empty (role before the lead)
    GR_NONE = 0xFF

    # phases
    PH_SETUP = 0          # chance: deal hands, the pool, tie-break cards
    PH_LEAD = 1
    PH_FOLLOW = 2
    PH_PETITION = 3       # choosing the cards of a petition
    PH_PALACE = 4         # Palace: more cards for the same role, or done
    PH_THINK = 5
    PH_DRAW = 6           # chance: a Thinker draws
    PH_ACT = 7            # the top action frame decides
    PH_ACT_DRAW = 8       # chance: Fountain, Atrium or Bar draw
    PH_LEGION = 9         # internal: a Legionary demand resolving
    PH_GIVE = 10          # a victim chooses which card to give
    PH_COLISEUM = 11      # the demander chooses clients to slay
    PH_SENATE = 12
    PH_SEWER = 13
    PH_EOT = 14           # internal: end of turn steps
    PH_OVER = 15

    # actions: consecutive blocks, each from the one before (documented in the package)
    A_CARD = 0                            # + building: a hand card of that building
    A_JACK = A_CARD + GR_NBUILD           # + role: lead / follow with a Jack
    A_PETITION = A_JACK + GR_NMAT         # + role * 6 + material: petition
    A_THINK = A_PETITION + GR_NMAT * GR_NMAT
    A_THINK_JACK = A_THINK + 1
    A_THINK_DRAW = A_THINK_JACK + 1
    A_VOMIT = A_THINK_DRAW + 1
    A_POOL = A_VOMIT + 1                  # + material: a card of that material from the pool
    A_STOCK = A_POOL + GR_NMAT            # + material: from the stockpile
    A_DECK = A_STOCK + GR_NMAT            # Fountain / Atrium / Bar: from the draw pile
    A_FOUND_IN = A_DECK + 1               # + site material: lay the selected card in town
    A_FOUND_OUT = A_FOUND_IN + GR_NMAT    # + site material: lay it out of town
    A_STRUCT = A_FOUND_OUT + GR_NMAT      # + slot: into this structure / steal it (Prison)
    A_TO_HAND = A_STRUCT + GR_NSLOTS      # Fountain: keep the drawn card
    A_SENATE = A_TO_HAND + 1              # + (k - 1): the Jack of the player k seats left
    A_COLISEUM = A_SENATE + GR_MAXP - 1   # + role: slay a client of the current victim
    A_SEWER = A_COLISEUM + GR_NMAT        # + material: a played card to the stockpile
    A_DONE = A_SEWER + GR_NMAT            # decline / finish (the highest player action)
    # chance
    CH_CARD = A_DONE + 1                  # + building: a card of this building is drawn
    GR_NUM_ACTIONS = CH_CARD + GR_NBUILD

    # score categories (gr_score out[])
    SC_INFLUENCE = 0
    SC_VAULT = 1
    SC_BONUS = 2
    SC_STATUE = 3
    SC_WALL = 4
    SC_TOTAL = 5
    SC_N = 6

    # materials / roles
    M_RUBBLE = 0
    M_WOOD = 1
    M_CONCRETE = 2
    M_BRICK = 3
    M_STONE = 4
    M_MARBLE = 5
    R_LABORER = 0
    R_CRAFTSMAN = 1
    R_ARCHITECT = 2
    R_LEGIONARY = 3
    R_MERCHANT = 4
    R_PATRON = 5
    R_THINKER = 6         # frame role: School's burst of Thinker actions
    R_PRISON = 7          # frame role: Prison's steal

    # buildings (ids checked against data.py at import)
    B_BAR = 0
    B_INSULA = 1
    B_LATRINE = 2
    B_ROAD = 3
    B_CIRCUS = 4
    B_DOCK = 5
    B_MARKET = 6
    B_PALISADE = 7
    B_AMPHITHEATRE = 8
    B_AQUEDUCT = 9
    B_BRIDGE = 10
    B_SENATE = 11
    B_STOREROOM = 12
    B_TOWER = 13
    B_VOMITORIUM = 14
    B_WALL = 15
    B_ACADEMY = 16
    B_ARCHWAY = 17
    B_ATRIUM = 18
    B_BATH = 19
    B_FOUNDRY = 20
    B_GATE = 21
    B_SCHOOL = 22
    B_SHRINE = 23
    B_CATACOMB = 24
    B_CIRCUS_MAXIMUS = 25
    B_COLISEUM = 26
    B_GARDEN = 27
    B_PRISON = 28
    B_SCRIPTORIUM = 29
    B_SEWER = 30
    B_VILLA = 31
    B_BASILICA = 32
    B_FORUM = 33
    B_FOUNTAIN = 34
    B_LUDUS_MAGNA = 35
    B_PALACE = 36
    B_STAIRWAY = 37
    B_STATUE = 38
    B_TEMPLE = 39

    # zones (GRState.loc); zones below Z_NCOUNTED keep material counts in cnt[]
    Z_POOL = 0
    Z_HAND = 1            # + player
    Z_STOCK = 6           # + player
    Z_VAULT = 11          # + player
    Z_CLIENT = 16         # + player
    Z_NCOUNTED = 21
    Z_CAMP = 21           # + player: played to lead or follow this turn
    Z_DECK = 26
    Z_DRAWN = 27          # a Fountain draw awaiting its use
    Z_FOUND = 32          # + slot: the structure's own card (foundation or building)
    Z_MAT = 72            # + slot: a material in the structure
    Z_END = 108

    # frame stages (GRState.fr_stage)
    ST_MAIN = 0
    ST_TARGET = 1         # a card is selected (sel_card); choose where it goes
    ST_DOCK = 2
    ST_BASILICA = 3
    ST_BAR = 4
    ST_AQ = 5
    ST_STAIR = 6
    ST_STAIR_TARGET = 7
    FR_BASE = 8           # fr_role flag: the player's role turn (fr_n counts actions used)
    FR_ROLE = FR_BASE - 1 # fr_role bits of the role

    # where the selected card comes from (GRState.sel_src)
    SRC_HAND = 0
    SRC_STOCK = 1
    SRC_POOL = 2
    SRC_DRAWN = 3

    # in-action draws (GRState.xdraw)
    X_FOUNTAIN = 0
    X_ATRIUM = 1
    X_BAR = 2

    # where a Thinker action returns (GRState.think_ret)
    RET_LEAD = 0
    RET_FOLLOW = 1
    RET_ACADEMY = 2
    RET_FRAME = 3

    # structure flags
    SF_DONE = 1
    SF_PUBLIC = 2
    SF_MARBLE = 4         # holds a Marble material (Gate with Road)
    SF_OUT = 8            # built on an out-of-town site
    SF_ALL = SF_DONE | SF_PUBLIC | SF_MARBLE | SF_OUT

    KN_REVEALED = 0x80    # known[] flag: revealed for the demand being made

    # end-of-turn steps (GRState.eot_step)
    EOT_SENATE = 0
    EOT_SEWER = 1
    EOT_POOL = 2          # played cards to the pool, Jacks to the pile
    EOT_ACADEMY = 3

    # Legionary resolution stages (GRState.leg_stage)
    LEG_POOL = 0
    LEG_HANDS = 1         # each victim's hand (then a Bridge's stockpile)
    LEG_COLISEUM = 2
    LEG_DONE = 3

    # observation tensor (gr_observation_tensor): a common block (with one sub-block per
    # structure slot and per action frame), then one block per seat from the observer on;
    # each slice after the one before (the package docstring's table says what each means
    # and the bound it is divided by)
    TS_BUILDING = 0                             # structure slot: + building
    TS_OWNER = TS_BUILDING + GR_NBUILD          # + seat (from the observer)
    TS_HOLDER = TS_OWNER + GR_MAXP              # + seat holding the site
    TS_SITE = TS_HOLDER + GR_MAXP               # + site material
    TS_OUT = TS_SITE + GR_NMAT
    TS_DONE = TS_OUT + 1
    TS_PUBLIC = TS_DONE + 1
    TS_MATERIALS = TS_PUBLIC + 1                # + material
    GR_TENSOR_SLOT = TS_MATERIALS + GR_NMAT
    TF_ROLE = 0                                 # action frame: + role (R_THINKER, R_PRISON too)
    TF_BASE = TF_ROLE + R_PRISON + 1
    TF_STAGE = TF_BASE + 1                      # + stage
    TF_N = TF_STAGE + ST_STAIR_TARGET + 1
    GR_TENSOR_FRAME = TF_N + 1
    TC_PHASE = 0                                # + phase
    TC_ROLE = TC_PHASE + PH_OVER + 1            # + led role
    TC_STEPS = TC_ROLE + GR_NMAT
    TC_DECK = TC_STEPS + 1
    TC_JACK_PILE = TC_DECK + 1
    TC_POOL = TC_JACK_PILE + 1                  # + building
    TC_IN_TOWN = TC_POOL + GR_NBUILD            # + material
    TC_OUT_TOWN = TC_IN_TOWN + GR_NMAT          # + material
    TC_REVEALED = TC_OUT_TOWN + GR_NMAT         # + building
    TC_DRAWN = TC_REVEALED + GR_NBUILD          # + building
    TC_DRAWN_HIDDEN = TC_DRAWN + GR_NBUILD
    TC_SELECTED = TC_DRAWN_HIDDEN + 1           # + building
    TC_SEL_SRC = TC_SELECTED + GR_NBUILD        # + source
    TC_STRUCT_MATS = TC_SEL_SRC + SRC_DRAWN + 1 # + building
    TC_STRUCTS = TC_STRUCT_MATS + GR_NBUILD     # + GR_TENSOR_SLOT * slot + TS_*
    TC_FRAMES = TC_STRUCTS + GR_NSLOTS * GR_TENSOR_SLOT    # + GR_TENSOR_FRAME * frame + TF_*
    TC_FOLLOW_I = TC_FRAMES + GR_MAXF * GR_TENSOR_FRAME    # + seats after the leader
    TC_ACT_I = TC_FOLLOW_I + GR_MAXP            # + seats after the leader
    TC_EOT_STEP = TC_ACT_I + GR_MAXP            # + step
    TC_EOT_I = TC_EOT_STEP + EOT_ACADEMY + 1    # + index (0..players)
    TC_THINK_RET = TC_EOT_I + GR_MAXP + 1       # + return
    TC_THINK_USED = TC_THINK_RET + RET_FRAME + 1
    TC_DRAW_LEFT = TC_THINK_USED + 1
    TC_PET_MAT = TC_DRAW_LEFT + 1               # + material
    TC_PET_LEFT = TC_PET_MAT + GR_NMAT
    TC_XDRAW = TC_PET_LEFT + 1                  # + draw kind
    TC_DEMANDS = TC_XDRAW + X_BAR + 1           # + material
    TC_LEG_STAGE = TC_DEMANDS + GR_NMAT         # + stage
    TC_LEG_V = TC_LEG_STAGE + LEG_DONE + 1      # + victim offset
    TC_LEG_M = TC_LEG_V + GR_MAXP               # + material (GR_NMAT: none)
    TC_GIVE_LEFT = TC_LEG_M + GR_NMAT + 1
    TC_COL_TAKEN = TC_GIVE_LEFT + 1             # + role
    TC_SETUP_DEALT = TC_COL_TAKEN + GR_NMAT
    GR_TENSOR_COMMON = TC_SETUP_DEALT + 1
    TP_HAND = 0                                 # + building: hand cards the observer knows
    TP_HAND_SIZE = TP_HAND + GR_NBUILD
    TP_JACKS = TP_HAND_SIZE + 1
    TP_JACKS_PLAYED = TP_JACKS + 1
    TP_STOCK = TP_JACKS_PLAYED + 1              # + building
    TP_CLIENTS = TP_STOCK + GR_NBUILD           # + building
    TP_CAMP = TP_CLIENTS + GR_NBUILD            # + building
    TP_VAULT = TP_CAMP + GR_NBUILD              # + building: vault cards the observer knows
    TP_VAULT_HIDDEN = TP_VAULT + GR_NBUILD
    TP_INFLUENCE = TP_VAULT_HIDDEN + 1
    TP_UNITS = TP_INFLUENCE + 1
    TP_NEW_CLIENTS = TP_UNITS + 1               # + role
    TP_LEADER = TP_NEW_CLIENTS + GR_NMAT
    TP_ACTOR = TP_LEADER + 1
    TP_DID_CRAFT = TP_ACTOR + 1
    TP_TIE = TP_DID_CRAFT + 1
    TP_TIE_DEALT = TP_TIE + 1
    TP_FORUM_WIN = TP_TIE_DEALT + 1
    GR_TENSOR_PLAYER = TP_FORUM_WIN + 1
    GR_MAX_TENSOR = GR_TENSOR_COMMON + GR_MAXP * GR_TENSOR_PLAYER

ctypedef struct GRState:
    uint8_t loc[GR_NCARDS]          # zone of every Orders card
    uint8_t known[GR_NCARDS]        # players who know the card where it is (+ KN_REVEALED)
    uint8_t cnt[Z_NCOUNTED][GR_NMAT]   # derived: cards per counted zone and material
    uint8_t deck_n[GR_NBUILD]       # derived: draw pile cards per building
    uint8_t st_card[GR_NSLOTS]      # structure slots 0..nstruct-1
    uint8_t st_owner[GR_NSLOTS]
    uint8_t st_site[GR_NSLOTS]      # site material
    uint8_t st_flags[GR_NSLOTS]
    uint8_t st_holder[GR_NSLOTS]    # who has the site in camp once complete (Prison moves it)
    uint8_t st_nmat[GR_NSLOTS]      # derived: materials in the structure
    uint64_t owned[GR_MAXP]         # derived: buildings each player has in play
    uint64_t func[GR_MAXP]          # derived: building functions each player has
    uint8_t infl[GR_MAXP]           # derived: Influence
    uint8_t jacks[GR_MAXP]          # Jacks in hand
    uint8_t jplayed[GR_MAXP]        # Jacks on camp this turn
    uint8_t units[GR_MAXP]          # cards, Jacks and petitions played this turn
    uint8_t fresh[GR_MAXP][GR_NMAT] # clients hired this turn (no actions until next turn)
    uint8_t setup_rank[GR_MAXP]     # alphabet rank of each seat's latest pool card
    uint8_t in_town[GR_NMAT]
    uint8_t out_town[GR_NMAT]
    uint8_t dem[GR_NMAT]            # materials demanded by the Legionary resolving
    uint8_t col_taken[GR_NMAT]      # clients slain from the current victim, by role
    uint8_t fr_role[GR_MAXF]        # role | FR_BASE
    uint8_t fr_stage[GR_MAXF]
    uint8_t fr_n[GR_MAXF]           # actions used (base frame) or left (others)
    uint16_t steps                  # actions applied (chance included)
    uint16_t deck_total             # derived
    uint8_t nplayers
    uint8_t training
    uint8_t nstruct
    uint8_t jpile
    uint8_t phase
    uint8_t actor
    uint8_t leader
    uint8_t role                    # led role, GR_NONE before the lead
    uint8_t follow_i                # seats after the leader: the follower deciding
    uint8_t act_i                   # seats after the leader: the player acting
    uint8_t eot_step
    uint8_t eot_i
    uint8_t did_craft               # players who executed a Craftsman action this turn
    uint8_t think_ret
    uint8_t think_used              # a Latrine or Vomitorium discard was made
    uint8_t draw_left
    uint8_t pet_mat
    uint8_t pet_left
    uint8_t pet_last                # petition cards are chosen in building order
    uint8_t last_unit               # Palace: units are played in action-id order
    uint8_t sel_card
    uint8_t sel_src
    uint8_t xdraw
    uint8_t leg_v                   # Legionary: victim offset (1..n-1) being resolved
    uint8_t leg_m                   # material being given
    uint8_t leg_stage               # 0 pool, 1 hands, 2 Coliseum, 3 done
    uint8_t give_left
    uint8_t leg_last                # order of reveals, gives and slayings (no transpositions)
    uint8_t eot_last                # order of Senate takes and Sewer cards
    uint8_t nframes
    uint8_t setup_i
    uint8_t tie_mask
    uint8_t tie_dealt
    uint8_t forum_win               # players who won by the Forum (0: scored normally)

# functions that state.pyx and the evaluators use
cdef int gr_card_building(int c) noexcept nogil
cdef int gr_card_material(int c) noexcept nogil
cdef int gr_hand_limit(const GRState *s, int p) noexcept nogil
cdef int gr_client_cap(const GRState *s, int p) noexcept nogil
cdef int gr_vault_cap(const GRState *s, int p) noexcept nogil
cdef int gr_hand_size(const GRState *s, int p) noexcept nogil
cdef int gr_acts_left(const GRState *s) noexcept nogil
cdef bint gr_forum_ok(const GRState *s, int p) noexcept nogil
cdef void gr_score(const GRState *s, int p, int32_t *out) noexcept nogil
cdef void gr_refresh(GRState *s) noexcept nogil
cdef void gr_step(GRState *s, int a) noexcept nogil
cdef int gr_forced(GRState *s, int32_t *buf) noexcept nogil
cdef int gr_current_player(const void *vs) noexcept nogil
cdef int gr_legal(const void *vs, int32_t *out) noexcept nogil
cdef void gr_returns(const void *vs, double *out) noexcept nogil  # winners share 1.0
cdef void gr_scores(const void *vs, int32_t *out) noexcept nogil
cdef const char *gr_validate(const void *vs) noexcept nogil
cdef int32_t gr_tensor_size(const int32_t *params) noexcept nogil
cdef void gr_observation_tensor(const void *vs, int player, float *out) noexcept nogil
