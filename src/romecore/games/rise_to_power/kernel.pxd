# cython: language_level=3
"""Rome: Rise to Power kernel: the state struct, the action ids and the C functions the
Python state class and the heuristic read it through.  See kernel.pyx for the rules."""
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, uint64_t

cdef enum:
    # bounds (kernel.pyx asserts them against data.py at import)
    RP_MINP = 2
    RP_MAXP = 4
    RP_NPROV = 20
    RP_NSENATE = 25
    RP_NARENA = 31         # Arena cards
    RP_NATYPES = 17        # Arena card types
    RP_NREGIONS = 7
    RP_NRANKS = 5          # show ranks
    RP_NERAS = 3
    RP_NINTRIGUE = 5       # Intrigue titles (data.INTRIGUE_TITLES)
    RP_INTRIGUE_ALL = (1 << RP_NINTRIGUE) - 1
    RP_ROUNDS = 5
    RP_NTRACKS = 3         # Military, Senate, Black Market
    RP_NRES = 3            # Olives, Wine, Jewelry
    RP_NPTYPES = 3         # Villa, Arena, Army Camp
    RP_DICE = 4            # Power Dice per player, and dice (sections) per track
    RP_FACES = 6
    RP_DIE_SLOTS = 8       # unplaced dice counted per face 0..6, one spare slot (zero)
    # the longest legal list: every die placement, done and every Senate card (chance
    # lists are at most one Senate card each)
    RP_MAXLEGAL = RP_NTRACKS * RP_FACES + 1 + RP_NSENATE
    # A true bound on the actions of one game (forced steps included), per round with 4
    # players: deal 13, roll 16, Tribunus phase 4 + 3 (one Tribunus card at most),
    # turn-order ties 3, placement 16 turns x 2, phase-2 activations at most 20 cards x
    # (1 activation + 2 provinces + 18 parameters and re-rolls, Proconsul's worst),
    # Military 4 + 4, Senate 4, Black Market 5 purchases + 4 x (5 face-down draws x 2 +
    # done), forum 12 + 2 x 2, shows 31 cards + 4 + 2: 605 a round, 3025 a game.
    RP_MAX_GAME_LENGTH = 3200

    # sentinel: an empty byte field
    RP_NONE = 0xFF

    # phases
    PH_DEAL = 0            # chance: the round's province, Senate and Arena rows
    PH_ROLL = 1            # chance: one Power Die
    PH_TRIBUNUS = 2        # phase 1: `actor` may activate a Tribunus
    PH_ORDER = 3           # chance: round 1 tie for turn order
    PH_PLACE = 4           # phase 2: place a die, activate a card, or pass
    PH_AFTER = 5           # phase 2, die placed: activate a card or end the turn
    PH_PROVINCE = 6        # activation: the province(s) the card is placed on
    PH_MARK = 7            # Censor / Proconsul: mark unplaced dice to re-roll
    PH_REROLL = 8          # chance: a re-rolled die
    PH_PICK_DIE = 9        # Quaestor / Vicarius: an unplaced die by face
    PH_SHIFT = 10          # Vicarius: +1 or -1
    PH_PICK_PLACED = 11    # Senator / Military Tribune: a placed die
    PH_TARGET = 12         # Intrigue cards, Tribunus: a player
    PH_DISCARD = 13        # Intrigue Hispania Maximus: own Senate card to discard
    PH_TARGET_PROV = 14    # Intrigue Hispania Maximus: the Era I province to discard
    PH_MILITARY = 15       # resolution: take provinces one at a time, then done
    PH_SENATE = 16         # resolution: take Senate cards, one per die
    PH_MARKET = 17         # resolution: buy Arena cards, then done
    PH_DRAW = 18           # chance: a face-down Arena card
    PH_FORUM = 19          # scoring: forum scoring cards for track `ftrack`
    PH_SHOW = 20           # scoring: `actor` chooses a secret show
    PH_OVER = 21

    # action ids: consecutive blocks (the package docstring's table; a test checks it)
    A_PLACE = 0                                 # + track * 6 + face - 1: place an unplaced die
    A_DONE = A_PLACE + RP_NTRACKS * RP_FACES    # pass / end turn / done / decline / no show
    A_ACTIVATE = A_DONE + 1                     # + Senate card id
    A_PROVINCE = A_ACTIVATE + RP_NSENATE        # + province id: place a card on it / conquer / discard
    A_SENATE = A_PROVINCE + RP_NPROV            # + Senate card id: take it from the row / discard it
    A_BUY = A_SENATE + RP_NSENATE               # + Arena type: buy a face-up card
    A_DRAW = A_BUY + RP_NATYPES                 # buy a face-down card (5 coins)
    A_SHOW = A_DRAW + 1                         # + Arena type: add a card of the type to the show
    A_DIE = A_SHOW + RP_NATYPES                 # + face 0..6: an unplaced die of that face
    A_PLACED = A_DIE + RP_FACES + 1             # + track * 4 + position: a placed die
    A_PLUS = A_PLACED + RP_NTRACKS * RP_DICE    # Vicarius: +1
    A_MINUS = A_PLUS + 1                        # Vicarius: -1
    A_PLAYER = A_MINUS + 1                      # + player
    CH_DIE = A_PLAYER + RP_MAXP                 # + face - 1
    CH_PROVINCE = CH_DIE + RP_FACES             # + province id
    CH_SENATE = CH_PROVINCE + RP_NPROV          # + Senate card id (the lowest id of identical cards)
    CH_ARENA = CH_SENATE + RP_NSENATE           # + Arena type
    CH_SEAT = CH_ARENA + RP_NATYPES             # + player: round 1 tie, this player goes next
    RP_NUM_ACTIONS = CH_SEAT + RP_MAXP

    # score categories (rp_score out[])
    SC_FORUM = 0
    SC_ARENA = 1
    SC_SENATE = 2
    SC_REGIONS = 3
    SC_TOTAL = 4
    SC_N = 5

    # Senate card abilities (data.py names them)
    AB_MILITARY_BONUS = 0
    AB_COIN_BONUS = 1
    AB_REROLL_PLACED_MILITARY = 2
    AB_REROLL_UNPLACED = 3
    AB_INVERT = 4
    AB_SHIFT = 5
    AB_CONSUL = 6
    AB_TURN_ORDER_SELF = 7
    AB_TURN_ORDER_OTHER = 8
    AB_LOWER_PLACED = 9
    AB_FORUM_MOVE = 10
    AB_ENDGAME_REGIONS = 11
    AB_ENDGAME_TYPE = 12
    AB_ENDGAME_PAIRS = 13
    AB_REROLL_ANY = 14
    AB_DISCARD_PROVINCE = 15
    AB_STEAL = 16
    AB_SHOW_BONUS = 17
    AB_N = 18

# slots within the tensor's multi-float slices below
cdef enum:
    ACT_MARKS = 0            # O_ACT_COUNTERS + slot
    ACT_MARK_FLOOR = 1
    ACT_PASSES = 2
    ACT_OPTIONAL = 3
    ACT_DIE = 4
    N_ACT_COUNTERS = 5
    RES_SECTION = 0          # O_RESOLUTION + slot
    RES_BUDGET = 1
    RES_FLOOR = 2
    RES_PICKS = 3
    N_RESOLUTION = 4
    OWN_HAND_PUBLIC = 0      # O_OWN_ARENA + RP_NATYPES * slot
    OWN_HAND_HIDDEN = 1
    OWN_SHOW_PUBLIC = 2
    OWN_SHOW_HIDDEN = 3
    N_OWN_ARENA = 4
    VP_FORUM = 0             # PP_VP + slot
    VP_ARENA = 1
    N_VP = 2
    BONUS_MILITARY = 0       # PP_BONUS + slot
    BONUS_COIN = 1
    N_BONUS = 2

# observation tensor layout (the package docstring's table; kernel.TENSOR_BLOCKS): a
# common block, then one per-player block for each seat, the observer's first
cdef enum:
    RP_NPHASES = PH_OVER + 1
    RP_FACE_SLOTS = RP_FACES + 1          # die faces 0..6 (Senator makes a 0)
    RP_TRACK_SLICE = RP_DICE + RP_DICE * RP_FACE_SLOTS   # section one-hot, then each die
    O_SENATE_COPIES = 2                   # identical Senate cards, at most
    O_ARENA_COPIES = 3                    # Arena cards of one type, at most
    O_SCORE_SCALE = 128                   # points on a learner's scale (capped at 1)
    # common block
    O_PHASE = 0
    O_ROUND = O_PHASE + RP_NPHASES
    O_TURN = O_ROUND + RP_ROUNDS
    O_STEP = O_TURN + 1
    O_CONSUL = O_STEP + 1
    O_INTRIGUE = O_CONSUL + 1
    O_ROW_PROV = O_INTRIGUE + RP_NINTRIGUE
    O_ROW_SENATE = O_ROW_PROV + RP_NPROV        # by the lowest id of identical cards
    O_ROW_ARENA = O_ROW_SENATE + RP_NSENATE     # by type
    O_DECK_PROV = O_ROW_ARENA + RP_NATYPES
    O_DECK_SENATE = O_DECK_PROV + RP_NPROV
    O_DECK_ARENA = O_DECK_SENATE + RP_NSENATE
    O_REMOVED = O_DECK_ARENA + 1
    O_EXH_PROV = O_REMOVED + RP_NATYPES
    O_EXH_SENATE = O_EXH_PROV + RP_NPROV
    O_OWN_ARENA = O_EXH_SENATE + RP_NSENATE     # p's hand public / face down, show public / face down
    O_ACT = O_OWN_ARENA + N_OWN_ARENA * RP_NATYPES   # an activation is in progress
    O_ACT_CARD = O_ACT + 1
    O_ACT_RETURN = O_ACT_CARD + RP_NSENATE
    O_ACT_PROV_LEFT = O_ACT_RETURN + RP_NPHASES
    O_ACT_FIRST = O_ACT_PROV_LEFT + 1
    O_ACT_COUNTERS = O_ACT_FIRST + RP_NPROV     # marks, mark floor, passes, optional, die
    O_ACT_PLACED = O_ACT_COUNTERS + N_ACT_COUNTERS   # track one-hot, then position one-hot
    O_RESOLUTION = O_ACT_PLACED + RP_NTRACKS + RP_DICE   # section, budget, floor, picks
    O_FORUM_TRACK = O_RESOLUTION + N_RESOLUTION
    RP_TENSOR_COMMON = O_FORUM_TRACK + RP_NRES
    # per-player block
    PP_ACTOR = 0
    PP_CURRENT = PP_ACTOR + 1
    PP_TARGET = PP_CURRENT + 1
    PP_SHOW_BONUS = PP_TARGET + 1
    PP_ORDER = PP_SHOW_BONUS + 1
    PP_NEW_ORDER = PP_ORDER + RP_MAXP
    PP_VP = PP_NEW_ORDER + RP_MAXP
    PP_FORUM = PP_VP + N_VP
    PP_BONUS = PP_FORUM + RP_NRES
    PP_TRIBUNUS = PP_BONUS + N_BONUS
    PP_DICE = PP_TRIBUNUS + 1
    PP_PROVINCES = PP_DICE + RP_FACE_SLOTS
    PP_SENATE = PP_PROVINCES + RP_NPROV
    PP_ARENA_PUBLIC = PP_SENATE + RP_NSENATE
    PP_ARENA_HIDDEN = PP_ARENA_PUBLIC + RP_NATYPES
    PP_SHOW_SIZE = PP_ARENA_HIDDEN + 1
    PP_TRACKS = PP_SHOW_SIZE + 1
    PP_SCORE = PP_TRACKS + RP_NTRACKS * RP_TRACK_SLICE
    RP_TENSOR_PER_PLAYER = PP_SCORE + 1
    RP_MAX_TENSOR = RP_TENSOR_COMMON + RP_MAXP * RP_TENSOR_PER_PLAYER

ctypedef struct RPGroup:
    uint8_t n                      # dice in the group
    uint8_t d[RP_DICE]             # leftmost first; middle dice kept in descending order

ctypedef struct RPState:
    # Arena cards (bit = card id)
    uint32_t a_deck
    uint32_t a_row
    uint32_t a_pub                 # hand / show cards every player knows (bought face up)
    uint32_t a_hand[RP_MAXP]
    uint32_t a_show[RP_MAXP]       # the secret show being prepared (scoring only)
    # Senate cards (bit = card id)
    uint32_t s_deck
    uint32_t s_row
    uint32_t s_exh                 # exhausted this round
    uint32_t s_own[RP_MAXP]
    # provinces (bit = province id)
    uint32_t p_deck
    uint32_t p_row
    uint32_t p_exh                 # exhausted this round (a Senate card lies on it)
    uint32_t p_own[RP_MAXP]
    uint8_t vp_forum[RP_MAXP]
    uint8_t vp_arena[RP_MAXP]
    uint8_t nplayers
    uint8_t intrigue               # bit mask over data.INTRIGUE_TITLES
    uint8_t round                  # 1..5
    uint8_t phase
    uint8_t actor
    uint8_t turn                   # phase 2: placement turns done, 0..4n
    uint8_t step                   # die being rolled / seat in order (phases 1 and 4)
    uint8_t ret                    # activation: the phase to return to
    uint8_t order[RP_MAXP]         # turn order (previous round's during phase 1)
    uint8_t nord[RP_MAXP]          # the new order, being formed in phase 1
    uint8_t nord_n
    int8_t adj[RP_MAXP]            # Tribunus changes to each dice sum this round
    uint8_t dice[RP_MAXP][RP_DIE_SLOTS]  # unplaced dice: count per face 0..6
    uint8_t tord[RP_NTRACKS][RP_MAXP]   # players on each track, leftmost section first
    RPGroup grp[RP_NTRACKS][RP_MAXP]    # each player's group on each track
    uint8_t forum[RP_MAXP][RP_NRES]
    uint8_t mil_bonus[RP_MAXP]
    uint8_t coin_bonus[RP_MAXP]
    # activation in progress
    uint8_t card                   # Senate card being activated (RP_NONE: none)
    uint8_t prov_left              # provinces it still needs
    uint8_t prov_first             # the province picked first (two-symbol cards)
    uint8_t target                 # player whose dice / tokens the card acts on
    uint8_t marks                  # dice marked / re-rolls pending
    uint8_t mark_floor             # the next mark's face is at least this
    uint8_t passes                 # Proconsul: re-roll passes after this one
    uint8_t optional               # this re-roll pass may mark nothing
    uint8_t die                    # Vicarius: the face chosen
    uint8_t rr_pos                 # re-roll of a placed die (track * 4 + pos) or RP_NONE
    uint8_t consul                 # Consul active: the next die must exceed its group
    # resolution and scoring
    uint8_t rpos                   # section being resolved
    uint8_t budget                 # strength or coins left
    uint8_t floor                  # next province id / Arena type allowed, at least
    uint8_t picks                  # Senate cards still to take
    uint8_t ftrack                 # forum track being scored
    uint8_t greko                  # players whose show bonus (Intrigue Greko) is active
    uint8_t pad[2]

# Queries
cdef int rp_row_size(int n) noexcept nogil
cdef uint32_t rp_province_mask(int n) noexcept nogil
cdef uint32_t rp_senate_mask(int n, int intrigue) noexcept nogil
cdef int rp_arena_type(int card) noexcept nogil
cdef int rp_ability(int card) noexcept nogil
cdef int rp_dice_sum(const RPState *s, int p) noexcept nogil
cdef int rp_ngroups(const RPState *s, int t) noexcept nogil
cdef int rp_group_index(const RPState *s, int t, int p) noexcept nogil
cdef int rp_group_sum(const RPState *s, int t, int p) noexcept nogil
cdef enum:   # rp_chance_kind: what PH_DEAL deals next (DEAL_ARENA also in PH_DRAW)
    DEAL_DONE = -1       # the rows are complete
    DEAL_PROVINCE = 0
    DEAL_SENATE = 1
    DEAL_ARENA = 2
cdef int rp_chance_kind(const RPState *s) noexcept nogil
# Scoring
cdef int rp_forum_points(const RPState *s, int p, int track) noexcept nogil
cdef int rp_show_rank(const uint8_t *counts) noexcept nogil
cdef int rp_show_vp(const RPState *s, int p, int *rank, int *cost) noexcept nogil
cdef int rp_region_points(const RPState *s, int p, int region) noexcept nogil
cdef int rp_senate_endgame(const RPState *s, int p, int card) noexcept nogil
cdef int rp_hand_cost(const RPState *s, int p) noexcept nogil
cdef void rp_score(const RPState *s, int p, int32_t *out) noexcept nogil
cdef void rp_scores(const void *vs, int32_t *out) noexcept nogil  # SC_TOTAL per player
# Interface
cdef int rp_current_player(const void *vs) noexcept nogil
cdef int rp_legal(const void *vs, int32_t *out) noexcept nogil
cdef int32_t rp_tensor_size(const int32_t *params) noexcept nogil
cdef void rp_observation_tensor(const void *vs, int p, float *out) noexcept nogil
cdef void rp_returns(const void *vs, double *out) noexcept nogil  # winners share 1.0
# Validation
cdef const char *rp_validate(const void *vs) noexcept nogil
