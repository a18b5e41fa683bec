# cython: language_level=3
"""Rome: City of Marble kernel: the bounds, the action ids, the struct and the C functions the
Python state class and the heuristic read it through (in the order of KERNELS.md).  See
kernel.pyx for the rules and ``romecore.games.city_of_marble`` for the encoding."""
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t

cdef enum:
    # bounds (data.py's values; kernel.pyx asserts them against the data at import)
    CM_MINP = 2
    CM_MAXP = 4
    CM_NCOL = 4
    CM_NPAIRS = 6         # colour pairs of a two-stack draw
    CM_MAXSITES = 40      # bitset capacity (the board file has 37 sites)
    CM_SITE_TRIS = 6      # triangles of a site
    CM_SITE_PLS = 9       # placements of a site: 6 spokes, 3 across rim edges
    CM_TRI_SITES = 10     # sites per 64-bit word of a triangle set
    CM_PL_SITES = 7       # sites per 64-bit word of a placement set
    CM_TRIW = 4           # 64-bit words of a triangle set
    CM_PLW = 6            # 64-bit words of a placement set
    CM_VERTW = 3          # 64-bit words of a vertex set
    CM_NTRI = 64 * CM_TRIW     # triangle positions
    CM_NPL = 64 * CM_PLW       # placement positions
    CM_NVERT = 64 * CM_VERTW   # vertex ids
    CM_NDIR = 6           # lattice directions at a vertex
    CM_NAQ = 3
    CM_AQMAX = 13         # pieces per aqueduct
    CM_NHILLS = 7
    CM_NBRIDGES = 7       # bridge spaces
    CM_NBTILES = 8        # bridge tiles (one stays boxed)
    CM_NBVAL = 4          # bridge values 1..CM_NBVAL
    CM_NMAG = 3           # magistrates per player
    CM_TILE_TRIS = 2      # triangles of a tile: the sites one tile completes, the bridges it takes
    CM_MAXLEGAL = CM_MAXSITES  # the site step lists every site; every other list is shorter
    CM_MAX_GAME_LENGTH = 1000  # actions in one game, forced steps included (kernel.pyx)

    # the sentinel of every byte table entry that may be empty
    CM_NONE = 0xFF
    CM_NO_PL = CM_NPL     # the same for a placement (uint16) entry: one past the last

    # phases
    PH_HILLS = 0          # chance: reveal a hill
    PH_ACTION = 1         # choose an action (or the first aqueduct piece of an Expand)
    PH_SITE = 2           # choose the site of the tile being played
    PH_TILE = 3           # choose the tile's place in (or across the rim of) that site
    PH_BRIDGE = 4         # chance: the value of a bridge tile just taken
    PH_AQSTART = 5        # place a piece of an aqueduct that the tile started
    PH_ORDER = 6          # choose which of two completed sites resolves first
    PH_SEND = 7           # a player may send a magistrate from the site to Imperium / Treasury
    PH_EXPAND2 = 8        # the second aqueduct piece of an Expand
    PH_EXTRA = 9          # two actions done: spend an Imperium tile or end the turn
    PH_OVER = 10

    # action ids, each block after the one before
    A_SITE = 0                          # + site: the tile goes there / resolve it first
    A_TILE = A_SITE + CM_MAXSITES       # + local placement 0..8 in the chosen site
    A_PLAY = A_TILE + CM_SITE_PLS       # + 2 * colour + with_magistrate
    A_DRAW = A_PLAY + 2 * CM_NCOL       # + colour pair (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    A_DRAW1 = A_DRAW + CM_NPAIRS        # + colour: draw up to two of it (one stack left)
    A_RECALL = A_DRAW1 + CM_NCOL        # + magistrate slot (ascending locations)
    A_PIPE = A_RECALL + CM_NMAG         # + 6 * aqueduct + direction: one aqueduct piece
    A_SEND = A_PIPE + CM_NDIR * CM_NAQ  # + magistrate slot: to the Imperium space / Treasury
    A_KEEP = A_SEND + CM_NMAG           # send nobody
    A_SPEND = A_KEEP + 1                # + colour: spend an Imperium tile for one more action
    A_END = A_SPEND + CM_NCOL           # end the turn
    CH_HILL = A_END + 1                 # + hill: chance, this hill is revealed
    CH_BRIDGE = CH_HILL + CM_NHILLS     # + value - 1: chance, the bridge tile is worth value
    CM_NUM_ACTIONS = CH_BRIDGE + CM_NBVAL

    # score categories (cm_score out[])
    SC_TRACK = 0          # civic buildings, scored during play
    SC_BRIDGES = 1
    SC_AQUEDUCTS = 2
    SC_FOUNTAINS = 3
    SC_COINS = 4
    SC_MOST_COINS = 5
    SC_IMPERIUM = 6
    SC_TOTAL = 7
    SC_N = 8

    # observation tensor (cm_observation_tensor): a common block, then one block per seat
    # from the observer on; offsets of each slice, each block after the one before (the
    # package docstring's table says what each slice means and the bound it is divided by)
    TC_TILES = 0                                # + CM_NPL * colour + placement
    TC_HILLS = TC_TILES + CM_NCOL * CM_NPL      # + hill
    TC_BUILDING = TC_HILLS + CM_NHILLS          # + CM_MAXSITES * colour + site
    TC_FOUNTAIN = TC_BUILDING + CM_NCOL * CM_MAXSITES   # + site
    TC_EMPTY = TC_FOUNTAIN + CM_MAXSITES        # + site
    TC_AQ_STARTED = TC_EMPTY + CM_MAXSITES      # + aqueduct
    TC_AQ_LEN = TC_AQ_STARTED + CM_NAQ          # + aqueduct
    TC_AQ_STEPS = TC_AQ_LEN + CM_NAQ            # + CM_AQMAX * CM_NDIR * aqueduct + CM_NDIR * piece + dir
    TC_AQ_END = TC_AQ_STEPS + CM_NAQ * CM_AQMAX * CM_NDIR   # + CM_NVERT * aqueduct + vertex
    TC_AQ_SITES = TC_AQ_END + CM_NAQ * CM_NVERT # + site
    TC_STACKS = TC_AQ_SITES + CM_MAXSITES       # + colour
    TC_DRAWN = TC_STACKS + CM_NCOL              # + colour
    TC_PHASE = TC_DRAWN + CM_NCOL               # + phase
    TC_ACTIONS_LEFT = TC_PHASE + PH_OVER + 1
    TC_FINAL_LEFT = TC_ACTIONS_LEFT + 1
    TC_SEL_COLOUR = TC_FINAL_LEFT + 1           # + colour
    TC_SEL_MAG = TC_SEL_COLOUR + CM_NCOL
    TC_SEL_SITE = TC_SEL_MAG + 1                # + site
    TC_PEND_BRIDGES = TC_SEL_SITE + CM_MAXSITES
    TC_AQ_TODO = TC_PEND_BRIDGES + 1            # + aqueduct
    TC_AQ_CUR = TC_AQ_TODO + CM_NAQ             # + aqueduct
    TC_AQ_LEFT = TC_AQ_CUR + CM_NAQ
    TC_PEND_SITES = TC_AQ_LEFT + 1              # + site
    TC_RES_SITE = TC_PEND_SITES + CM_MAXSITES   # + site
    TC_RES_SEAT = TC_RES_SITE + CM_MAXSITES
    CM_TENSOR_COMMON = TC_RES_SEAT + 1
    TP_POINTS = 0
    TP_COINS = TP_POINTS + 1
    TP_TILES = TP_COINS + 1                     # + colour
    TP_IMPERIUM = TP_TILES + CM_NCOL            # + colour
    TP_MAG_CENTRE = TP_IMPERIUM + CM_NCOL
    TP_MAG_TREASURY = TP_MAG_CENTRE + 1
    TP_MAG_IMPERIUM = TP_MAG_TREASURY + 1       # + colour
    TP_MAG_TILES = TP_MAG_IMPERIUM + CM_NCOL    # + placement
    TP_BUILDINGS = TP_MAG_TILES + CM_NPL        # + site
    TP_BRIDGE_COUNT = TP_BUILDINGS + CM_MAXSITES
    TP_BRIDGE_VALUES = TP_BRIDGE_COUNT + 1      # + value - 1
    TP_TURN = TP_BRIDGE_VALUES + CM_NBVAL
    TP_ACTOR = TP_TURN + 1
    CM_TENSOR_PLAYER = TP_ACTOR + 1
    CM_MAX_TENSOR = CM_TENSOR_COMMON + CM_MAXP * CM_TENSOR_PLAYER

    # magistrate locations (mag[][]): a placement position 0..383 means "on that tile"
    LOC_IMPERIUM = 400    # + colour
    LOC_TREASURY = LOC_IMPERIUM + CM_NCOL
    LOC_CENTRE = 0xFFFF   # sorts last

    # site status (site[])
    SITE_OPEN = 0
    SITE_BUILDING = 1     # + 4 * owner + colour
    SITE_FOUNTAIN = SITE_BUILDING + CM_MAXP * CM_NCOL
    SITE_EMPTY = SITE_FOUNTAIN + 1   # completed when no fountain was left

ctypedef struct CMState:
    uint64_t tri[CM_NCOL][CM_TRIW]   # triangles covered by tiles of each colour
    uint64_t blocked[CM_TRIW]        # triangles under a tile or a chosen hill (cache)
    uint64_t placed[CM_PLW]          # placements that hold a tile
    uint64_t legal_pl[CM_PLW]        # placements a tile may take now (cache)
    uint64_t aq_verts[CM_VERTW]      # vertices on an aqueduct (cache)
    uint64_t aq_sites                # sites whose hexagon holds an aqueduct piece (cache)
    uint16_t mag[CM_MAXP][CM_NMAG]   # magistrate locations, ascending (LOC_CENTRE last)
    int16_t points[CM_MAXP]          # score track (civic buildings)
    uint8_t nplayers
    uint8_t phase
    uint8_t actor                    # player to decide
    uint8_t turn_player
    uint8_t actions_left             # actions still to take this turn (the current one included)
    uint8_t final_left               # turns left in the final round; 0 outside it
    uint8_t hills                    # chosen hills, bit per hill of the board file
    uint8_t hills_drawn
    uint8_t sel_colour               # tile being played (PH_SITE, PH_TILE)
    uint8_t sel_mag                  # 1: a magistrate goes on it
    uint8_t sel_site                 # its site (PH_TILE)
    uint8_t pend_bridges             # bridge tiles the tile took, values not yet drawn
    uint8_t aq_todo                  # aqueducts the tile starts, not begun yet
    uint8_t aq_cur                   # aqueduct being started (while aq_left > 0)
    uint8_t aq_left                  # its start pieces still to place
    uint8_t aq_started               # bit per aqueduct
    uint8_t pend_n                   # completed sites not yet resolved
    uint8_t pend_sites[CM_TILE_TRIS]
    uint8_t res_site                 # site whose magistrates may leave (PH_SEND)
    uint8_t res_seat                 # offset from the turn player of the next to decide
    uint8_t stack[CM_NCOL]           # Neighborhood tile stacks
    uint8_t pending[CM_NCOL]         # tiles the turn player drew this turn
    uint8_t centre[CM_MAXP][CM_NCOL] # tiles in each player's centre box
    uint8_t imp[CM_MAXP][CM_NCOL]    # Imperium tiles held
    uint8_t coins[CM_MAXP]
    uint8_t bridges[CM_MAXP][CM_NBVAL]   # bridge tiles held, by value 1..4
    uint8_t aq_len[CM_NAQ]           # pieces placed
    uint8_t aq_path[CM_NAQ][CM_AQMAX + 1]   # vertex ids from the water source
    uint8_t site[CM_MAXSITES]        # SITE_* status

# queries
cdef int cm_nsites() noexcept nogil
cdef int cm_tile_colour(const CMState *s, int pl) noexcept nogil
cdef int cm_site_size(const CMState *s, int site) noexcept nogil
cdef void cm_site_cover(const CMState *s, int *tiles, int *spokes) noexcept nogil
cdef bint cm_site_full(const CMState *s, int site) noexcept nogil
cdef void cm_influence(const CMState *s, int site, int colour, int *out) noexcept nogil
cdef int cm_pipe_dirs(const CMState *s, int a) noexcept nogil
cdef uint64_t cm_site_owners(const CMState *s, uint64_t *owned) noexcept nogil
cdef int cm_buildings(const CMState *s, int p) noexcept nogil
cdef int cm_fountains(const CMState *s) noexcept nogil
cdef int cm_bridge_pool(const CMState *s, int value) noexcept nogil
cdef int cm_open_bridges(const CMState *s, int *reachable) noexcept nogil
cdef bint cm_order_matters(const CMState *s) noexcept nogil
cdef bint cm_menu_any(const CMState *s) noexcept nogil
# scoring
cdef void cm_score(const CMState *s, int p, int32_t *out) noexcept nogil
# changes
cdef void cm_rebuild_caches(CMState *s) noexcept nogil
cdef void cm_sort_mags(CMState *s, int p) noexcept nogil
# turn flow and the interface
cdef void cm_step(CMState *s, int32_t a) noexcept nogil
cdef void cm_forced(CMState *s) noexcept nogil
cdef int cm_legal(const void *vs, int32_t *out) noexcept nogil
cdef void cm_returns(const void *vs, double *out) noexcept nogil  # winners share 1.0
cdef void cm_scores(const void *vs, int32_t *out) noexcept nogil
cdef void cm_points(const CMState *s, int32_t *points, int *unconnected) noexcept nogil
cdef const char *cm_validate(const void *vs) noexcept nogil
cdef int32_t cm_tensor_size(const int32_t *params) noexcept nogil
cdef void cm_observation_tensor(const void *vs, int player, float *out) noexcept nogil
