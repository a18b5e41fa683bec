# cython: language_level=3
"""The Great City of Rome kernel: the state struct and the C functions the Python state
class reads it through.  See kernel.pyx for the rules and the action encoding."""
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, uint64_t
from romecore.core.kernel cimport rc_set128, rc_s128_where

# ---- bounds (from data.py; kernel.pyx checks them against it at import)
cdef enum:
    GC_NCARDS = 80        # 72 deck cards, then 8 starting buildings
    GC_NDECKCARDS = 72
    GC_NTYPES = 30
    GC_MAXP = 4
    GC_NDECKS = 4
    GC_NSPACES = 5        # emissary spaces on a strip
    GC_NSTRIPS = 6
    GC_NFACES = 12        # strip k's front is face k, its back face 6 + k
    GC_NCELLS = 64        # the 8x8 board a city lies on (cell = row * 8 + col)
    GC_CITY_SPAN = 4      # a city is at most 4x4 ...
    GC_MAXBUILDINGS = GC_CITY_SPAN * GC_CITY_SPAN    # ... so it holds at most 16 buildings
    GC_BOTTOM = 14        # cards a School can return under one deck, at most
    GC_MAXDRAWN = 5       # School (4 neighbours) + University's extra draw
    GC_MAXOFFER = 4       # offer cards at most (one per offer draw of an upkeep)
    GC_MAXCOUNT = 32767   # coins and influence saturate here (int16)
    GC_NINFL = 6          # influence cards 3, 4, 6, 8, 10, 14
    GC_NTOK = 8           # cards that can carry tokens: 4 brick holders, 4 baths
    GC_NBRICKTOK = 4      # token slots 0..3 hold brick tokens, the rest bath tokens
    GC_MAXLEGAL = GC_NCELLS          # the largest block: a placement's cells
    GC_MAX_GAME_LENGTH = 1400
    # forced steps in one gc_forced call: per turn (5 spaces) at most take, main, four
    # School phases and the end, plus a round's end, strip, offer draws and emissaries
    GC_MAX_FORCED = GC_NSPACES * 8 + GC_NSTRIPS + GC_MAXOFFER + 16

# ---- the sentinel: every byte field that may be empty
cdef enum:
    GC_NONE = 0xFF
    INFL_NONE = GC_NONE   # influence card not (yet) in play
    INFL_IN_PLAY = 0xFE

# ---- zones (GCState.loc)
cdef enum:
    Z_POOL = 0            # + deck: unordered, face down
    Z_BOTTOM = Z_POOL + GC_NDECKS     # + deck: returned under the deck by a School, in bot[] order
    Z_OFFER = Z_BOTTOM + GC_NDECKS
    Z_HAND = Z_OFFER + 1              # + player
    Z_CITY = Z_HAND + GC_MAXP         # + player
    Z_BOX = Z_CITY + GC_MAXP
    Z_DRAWN = Z_BOX + 1               # drawn for the set-up draft or a School, not yet placed
    Z_N = Z_DRAWN + 1

# ---- phases
cdef enum:
    PH_DRAFT_DEAL = 0
    PH_DRAFT_PICK = 1
    PH_STRIP = 2
    PH_OFFER = 3
    PH_EMISSARY = 4
    PH_TAKE = 5
    PH_MAIN = 6
    PH_PLACE = 7
    PH_SCHOOL_DECK = 8
    PH_SCHOOL_DRAW = 9
    PH_SCHOOL_KEEP = 10
    PH_SCHOOL_BOTTOM = 11
    PH_OVER = 12

# ---- action ids: consecutive blocks (documented in the package docstring)
cdef enum:
    A_PLACE = 0                           # + cell: place the selected building
    A_BUILD = A_PLACE + GC_NCELLS         # + type: choose the building to build
    A_PRODUCE = A_BUILD + GC_NTYPES
    A_END = A_PRODUCE + 1                 # end the turn
    A_TAKE = A_END + 1                    # + offer slot (offer cards by card id)
    A_EMISSARY = A_TAKE + GC_MAXOFFER     # + strip space 0..4 (0 is next to the emperor)
    A_DRAFT = A_EMISSARY + GC_NSPACES     # + drawn slot: keep this card in the set-up draft
    A_SCHOOL_DECK = A_DRAFT + GC_MAXP     # + deck - 1: draw from deck II, III or IV
    A_KEEP = A_SCHOOL_DECK + GC_NDECKS - 1    # + drawn slot: keep this School draw
    A_BOTTOM = A_KEEP + GC_MAXDRAWN       # + drawn slot: put this card under the deck next
    CH_CARD = A_BOTTOM + GC_MAXDRAWN      # + type: chance, a card of this type is drawn
    CH_STRIP = CH_CARD + GC_NTYPES        # + strip: chance, this strip is revealed next
    GC_NUM_ACTIONS = CH_STRIP + GC_NSTRIPS

# ---- turn flags (GCState.flags)
cdef enum:
    F_TOOK = 1
    F_BUILT = 2
    F_PRODUCED = 4
    N_TURN_FLAGS = 3

# score categories (gc_score out[]): the score pad's rows
cdef enum:
    SC_RES2 = 0
    SC_RES3 = 1
    SC_RES4 = 2
    SC_AQUEDUCTS = 3
    SC_TEMPLES = 4
    SC_COINS = 5
    SC_INFLUENCE_TOKENS = 6
    SC_INFLUENCE_CARDS = 7
    SC_TOTAL = 8
    SC_N = 9

# city mask indices (gc_city_masks m[])
cdef enum:
    M_OCC = 0
    M_RES2 = 1
    M_RES3 = 2
    M_RES4 = 3
    M_YELLOW = 4
    M_RED = 5
    M_GREEN = 6
    M_BLUE = 7
    M_AQUEDUCT = 8
    M_VEG = 9       # vegetable farms and the vineyard
    M_GRAIN = 10    # grain farms and the vineyard
    M_SHEEP = 11
    M_TEMPLE = 12
    M_PRODUCTION = 13
    M_TEMPLE_TYPES = 14   # bit t set for each temple type t in the city
    M_STARS = 15          # stars on the city's buildings (a count, not a mask)
    M_N = 16

# ---- observation tensor layout (the package docstring's table; kernel.TENSOR_BLOCKS):
# a common block, then one per-player block for each seat, the observer's first
cdef enum:
    GC_NPHASES = PH_OVER + 1
    GC_MAXROUNDS = 14        # rounds with three or four players (data.ROUNDS)
    GC_CITY_ROWS = 7         # the rows and columns a city can reach (rows 0-6, columns 0-5)
    GC_CITY_COLS = 6
    GC_CITY_CELLS = GC_CITY_ROWS * GC_CITY_COLS
    GC_SCHOOL_DECKS = GC_NDECKS - 1      # decks II-IV: the only ones with bottom cards
    # city planes: the masks M_OCC..M_TEMPLE, then the tokens
    PL_BRICK_TOKEN = M_TEMPLE + 1
    PL_BATH_TOKENS = PL_BRICK_TOKEN + 1
    GC_NPLANES = PL_BATH_TOKENS + 1
    # the bounds counts are divided by (kernel.pyx checks them against data.py at import)
    O_TYPE_BOUND = 16        # buildings of one type in a hand or a city
    O_DRAFT_BOUND = GC_MAXP - 1          # cards in the draft group
    O_COUNT_SCALE = 64       # coins and influence on a learner's scale (capped at 1)
    O_SCORE_SCALE = 256      # points on a learner's scale (capped at 1)
    # common block
    O_PHASE = 0                                   # phase one-hot
    O_ROUND = O_PHASE + GC_NPHASES                # round - 1 one-hot
    O_PROGRESS = O_ROUND + GC_MAXROUNDS           # round / rounds
    O_STRIPS = O_PROGRESS + 1                     # strip revealed i-th, one-hot per slot
    O_FACE = O_STRIPS + GC_NSTRIPS * GC_NSTRIPS   # this round's face: space k gives a brick
    O_FACE_SHOWN = O_FACE + GC_NSPACES
    O_TURN_SPACE = O_FACE_SHOWN + 1               # acting strip space one-hot
    O_TURN_BRICKS = O_TURN_SPACE + GC_NSPACES
    O_TURN_COGS = O_TURN_BRICKS + 1
    O_TURN_FLAGS = O_TURN_COGS + 1                # took, built, produced
    O_SELECTED = O_TURN_FLAGS + N_TURN_FLAGS      # building chosen to place, one-hot type
    O_OFFER = O_SELECTED + GC_NTYPES              # offer slot (card-id order) x type
    O_DRAWN = O_OFFER + GC_MAXOFFER * GC_NTYPES   # drawn cards p knows, by type
    O_DRAWN_HIDDEN = O_DRAWN + GC_NTYPES
    O_DRAFT_GROUP = O_DRAWN_HIDDEN + 1            # cards p passed on, still hidden, by type
    O_BOTTOM = O_DRAFT_GROUP + GC_NTYPES          # per deck II-IV: known by type, then hidden
    O_DECK_SIZES = O_BOTTOM + GC_SCHOOL_DECKS * (GC_NTYPES + 1)
    O_INFL_IN_PLAY = O_DECK_SIZES + GC_NDECKS
    O_SCHOOL_DECK = O_INFL_IN_PLAY + GC_NINFL     # deck II-IV one-hot
    O_SCHOOL_LEFT = O_SCHOOL_DECK + GC_SCHOOL_DECKS
    GC_TENSOR_COMMON = O_SCHOOL_LEFT + 1
    # per-player block
    P_ACTOR = 0
    P_FIRST = P_ACTOR + 1
    P_EMISSARY = P_FIRST + 1                      # strip spaces holding its emissary
    P_COINS = P_EMISSARY + GC_NSPACES             # scaled, then exact
    P_INFLUENCE = P_COINS + 2
    P_SCORE = P_INFLUENCE + 2
    P_INFL_CARDS = P_SCORE + 1
    P_HAND = P_INFL_CARDS + GC_NINFL              # hand cards p knows, by type
    P_HAND_HIDDEN = P_HAND + GC_NTYPES            # the others, by deck
    P_DRAFT_HIDDEN = P_HAND_HIDDEN + GC_NDECKS    # its draft card is in p's draft group
    P_CITY_TYPES = P_DRAFT_HIDDEN + 1
    P_PLANES = P_CITY_TYPES + GC_NTYPES           # plane x cell (row * 6 + col)
    GC_TENSOR_PER_PLAYER = P_PLANES + GC_NPLANES * GC_CITY_CELLS
    GC_MAX_TENSOR = GC_TENSOR_COMMON + GC_MAXP * GC_TENSOR_PER_PLAYER

ctypedef struct GCState:
    uint64_t occ[GC_MAXP]          # occupied cells per city (8x8 board, bit = row*8+col)
    int16_t coins[GC_MAXP]
    int16_t influence[GC_MAXP]
    uint8_t nplayers
    uint8_t nrounds
    uint8_t round                  # 1-based
    uint8_t phase
    uint8_t first_player
    uint8_t actor                  # player to decide (decision phases)
    uint8_t turn_space             # strip space whose emissary is acting
    uint8_t place_idx              # emissaries placed this round
    uint8_t sel_type               # type chosen by A_BUILD, placed by A_PLACE
    uint8_t draw_idx               # offer draws done this upkeep
    uint8_t school_deck
    uint8_t school_left            # School draws still to make
    uint8_t bricks                 # this turn's strip bricks / cogs not yet used
    uint8_t cogs
    uint8_t flags                  # F_TOOK | F_BUILT | F_PRODUCED
    uint8_t drawn_n
    uint8_t strips_revealed
    uint8_t strip_order[GC_NSTRIPS]
    uint8_t space_owner[GC_NSPACES] # player per strip space, GC_NONE empty
    uint8_t infl[GC_NINFL]         # INFL_NONE, INFL_IN_PLAY or the owner
    uint8_t drawn[GC_MAXDRAWN]
    uint8_t draft_card[GC_MAXP]    # the card each seat kept in the set-up draft
    uint8_t pool_n[GC_NDECKS]
    uint8_t bot_n[GC_NDECKS]
    uint8_t aq_rows[GC_MAXP]       # rows / columns of each city that hold an aqueduct
    uint8_t aq_cols[GC_MAXP]
    uint8_t bot[GC_NDECKS][GC_BOTTOM]   # bot[d][0] is drawn first once the pool is empty
    uint8_t tok[GC_NTOK]           # brick token (0/1) or bath point tokens, per token card
    uint8_t loc[GC_NCARDS]         # zone of every card
    uint8_t cell[GC_NCARDS]        # board cell of a card in a city, else GC_NONE
    uint8_t known[GC_NCARDS]       # players who know this card's identity where it is

# Board geometry (8x8 bitboard, bit = row * 8 + col; the city lies in rows 0-6, columns 0-5)
cdef extern from *:
    """
    #define GC_BOARD  0x003F3F3F3F3F3F3FULL  /* the cells a city can reach: rows 0-6, columns 0-5 */
    #define GC_FILE_A 0x0101010101010101ULL  /* column 0 of every row */
    """
    const uint64_t GC_BOARD
    const uint64_t GC_FILE_A


cdef inline uint64_t gc_nbrs(uint64_t m) noexcept nogil:
    """Cells of the board orthogonally adjacent to any cell of m (m's own cells only where
    they are adjacent to another)."""
    return (((m << 1) & ~GC_FILE_A) | ((m >> 1) & ~(GC_FILE_A << 7))
            | (m << 8) | (m >> 8)) & GC_BOARD


cdef inline uint64_t gc_flood(uint64_t seed, uint64_t within) noexcept nogil:
    """The cells of ``within`` orthogonally connected to ``seed`` (a cell of it)."""
    cdef uint64_t comp = seed, nxt
    while True:
        nxt = (comp | gc_nbrs(comp)) & within
        if nxt == comp:
            return comp
        comp = nxt


# A city's residential areas: the connected houses of one value, each scoring its value per
# house per colour of public building beside it (gc_city_areas fills it from the masks)
ctypedef struct GCAreas:
    int n
    uint64_t cells[GC_MAXBUILDINGS]     # the houses of each area
    uint64_t around[GC_MAXBUILDINGS]    # the cells beside them
    int value[GC_MAXBUILDINGS]          # the area's residential value, 2 to 4
    int colours[GC_MAXBUILDINGS]        # bit c: a public building of colour c is beside it


cdef inline void gc_zone_cards(const GCState *s, int z, rc_set128 *out) noexcept nogil:
    """The deck cards lying in zone z, as a set of card ids (eight bytes of the
    card-to-zone table compared at once, no branch per card)."""
    rc_s128_where(out, s.loc, GC_NDECKCARDS, <uint8_t>z)


cdef inline int gc_adjacent_colours(const uint64_t *m, uint64_t around) noexcept nogil:
    """Bit c set for each colour c (M_YELLOW + c) of public building on a cell of around."""
    cdef int c, out = 0
    for c in range(4):
        if around & m[M_YELLOW + c]:
            out |= 1 << c
    return out


# Queries
cdef int gc_card_type(int card) noexcept nogil
cdef int gc_tokens(const GCState *s, int card) noexcept nogil
cdef int gc_face(const GCState *s) noexcept nogil
cdef int gc_turn_bricks(const GCState *s) noexcept nogil
cdef int gc_turn_cogs(const GCState *s) noexcept nogil
cdef int gc_space_bricks(const GCState *s, int space) noexcept nogil
cdef int gc_space_cogs(const GCState *s, int space) noexcept nogil
cdef int gc_emissaries(const GCState *s) noexcept nogil
cdef int gc_infl_round(int nplayers, int infl) noexcept nogil
cdef int gc_offer(const GCState *s, uint8_t *out) noexcept nogil  # out holds GC_MAXOFFER
cdef int gc_build_card(const GCState *s, int p, int t) noexcept nogil
cdef uint64_t gc_place_targets(const GCState *s, int p, int t) noexcept nogil
# Scoring
cdef void gc_city_masks(const GCState *s, int p, uint64_t *m) noexcept nogil
cdef void gc_city_areas(const uint64_t *m, GCAreas *a) noexcept nogil
cdef void gc_score_city(const GCState *s, int p, const uint64_t *m, const GCAreas *a,
                        int32_t *out) noexcept nogil   # gc_score from the two above
cdef int gc_temple_points(const GCState *s, int p, int t, const uint64_t *m) noexcept nogil
cdef void gc_score(const GCState *s, int p, int32_t *out) noexcept nogil
# Changes
cdef int gc_set_tokens(GCState *s, int card, int tok) noexcept nogil
# Turn flow
cdef void gc_forced(GCState *s) noexcept nogil
# Interface
cdef int gc_legal(const void *vs, int32_t *out) noexcept nogil
cdef void gc_step(GCState *s, int32_t a) noexcept nogil
cdef void gc_apply(void *vs, int32_t a) noexcept nogil          # gc_step, then gc_forced
cdef void gc_returns(const void *vs, double *out) noexcept nogil  # winners share 1.0
cdef void gc_scores(const void *vs, int32_t *out) noexcept nogil  # SC_TOTAL per player
cdef int32_t gc_tensor_size(const int32_t *params) noexcept nogil
cdef void gc_observation_tensor(const void *vs, int p, float *out) noexcept nogil
# Validation
cdef const char *gc_validate(const void *vs) noexcept nogil
