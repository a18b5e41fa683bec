"""Rome: Rise to Power (Elad Goldsteen), 2 to 4 players, on the romecore kernel interface.

Options: ``players`` (2-4, default 4) and ``intrigue``: ``"none"`` (default), ``"all"``
or a comma-separated list of the titles whose Intrigue Senate card replaces the base card
(Vicarius, Hispania Maximus, Tribunus, Greko Maximus, Africanus Maximus).  The card
lists, the show table and every printed number are in :mod:`.data`.

Rules
-----
The rulebook (``rise-to-power.txt``) and the rulings (``rise-to-power.md``) are
implemented as written.  Where both are silent, the engine rules:

- Taking a Senate card on the Senate track is compulsory while cards last (one more
  card is never worse), so the engine only asks which.
- A player holds at most 8 provinces: each carries one of the player's 8 Arches.
- An Intrigue card keeps the 2-player status of the card it replaces (the 2-player deck
  stays at 15 cards).
- Consul is activated as the die is placed: once activated, the player's next die must
  go onto one of their groups and exceed its rightmost die.
- Senator on a placed 1 makes it a 0 that becomes the leftmost die of its group, and the
  group moves to the leftmost section; other lowered dice keep their section.
- Military Tribune re-rolls a placed die where it stands; sections keep their order, and
  later dice are placed against the group's new leftmost/rightmost dice.
- "An activation with no possible effect is not legal": Legatus and Magister Equitum need
  a Military group or an unplaced die (Magistrate and Aedile: Black Market), re-rolls and
  changes need a die to act on, Tribunus (either) must change the turn order the current
  sums give, Africanus (Intrigue) a player with Jewelry, Hispania (Intrigue) an Era I
  province in play, forum cards a track below 7, Greko (Intrigue) a show of 3+ cards.
- The forum scoring cards are offered when their track is scored, in turn order; shows
  are prepared in turn order, each hidden from the others until all are revealed.
- Hispania Maximus (Intrigue) may discard any player's Era I province (its own player's
  included); its owner loses one on that province's resource track.

Actions (ids are fixed; ``kernel.pxd`` defines each block from the one before)
-------------------------------------------------------------------------------
==========  ===========  ========================================================
ids         block        meaning
==========  ===========  ========================================================
0-17        A_PLACE      place an unplaced die: ``track * 6 + face - 1`` (tracks 0
                         Military, 1 Senate, 2 Black Market)
18          A_DONE       done: pass (no die placeable), end turn, decline, no show /
                         show ready, stop re-rolling, done conquering / buying
19-43       A_ACTIVATE   activate Senate card ``a - 19``
44-63       A_PROVINCE   province ``a - 44``: place the activated card on it, conquer
                         it, or discard it (Intrigue Hispania Maximus)
64-88       A_SENATE     Senate card ``a - 64``: take it from the row, or discard it
89-105      A_BUY        buy a face-up Arena card of type ``a - 89``
106         A_DRAW       buy a face-down Arena card (5 coins)
107-123     A_SHOW       add a card of Arena type ``a - 107`` to the show (secret)
124-130     A_DIE        an unplaced die of face ``a - 124`` (mark to re-roll, invert,
                         change, re-roll another player's)
131-142     A_PLACED     a placed die: ``track * 4 + position`` (Senator, Military
                         Tribune)
143         A_PLUS       Vicarius: +1 (6 wraps to 1)
144         A_MINUS      Vicarius: -1 (1 wraps to 6)
145-148     A_PLAYER     target player ``a - 145``
149-154     CH_DIE       chance: a die shows ``a - 148``
155-174     CH_PROVINCE  chance: province ``a - 155`` is dealt
175-199     CH_SENATE    chance: Senate card ``a - 175`` is dealt (lowest id of
                         identical cards)
200-216     CH_ARENA     chance: an Arena card of type ``a - 200`` is dealt or drawn
                         face down
217-220     CH_SEAT      chance: round-1 turn-order tie, player ``a - 217`` goes next
==========  ===========  ========================================================

Sets are chosen one element at a time and closed with 18: conquests in ascending
province id, purchases in ascending Arena type, re-roll marks in ascending face.  Steps
with a single legal action are taken automatically and are not in the history.

Hidden information: an Arena card drawn face down is known to its owner only, one bought
face up to all; a show being prepared is hidden (its size is public).  ``observe_action``
hides show additions and face-down draws from the other players; ``resample`` redraws the
deck and the other players' face-down cards as one class and re-splits their prepared
shows.

Observation tensor
------------------
``state.observation_tensor(p)`` (float32, written in C) is what seat p knows, every value
in [0, 1]: a common block of 361 floats, then one block of 188 floats per seat, p's first,
then seats p + 1, p + 2, ... (mod players; actions name seats by number, and the turn order
is in ``PP_ORDER``), so 361 + 188 x players floats (737, 925, 1113).
``kernel.TENSOR_BLOCKS`` names each slice (offset, length; offsets within their block) and
a test checks this table against it.  Counts are divided by the bound in "by" (``-``: a
flag or one-hot; several numbers: one per value, in order).  The others' face-down Arena
cards and the contents of their shows appear only as counts.  Senate cards in the row and
the deck are counted at the lowest id of identical cards, as the observation names them.

======  ======  ===================  ==========  ==================================================
offset  length  block                by          meaning
======  ======  ===================  ==========  ==================================================
0       22      ``O_PHASE``          -           phase one-hot, in the ``phase`` order of the dict
                                                 form
22      5       ``O_ROUND``          -           ``round - 1`` one-hot
27      1       ``O_TURN``           16          phase 2 placement turns done
28      1       ``O_STEP``           16          die being rolled / seat in order (phases 1 and 4)
29      1       ``O_CONSUL``         -           Consul active for the next die
30      5       ``O_INTRIGUE``       -           Intrigue card in use, per ``data.INTRIGUE_TITLES``
35      20      ``O_ROW_PROV``       -           provinces in the row, by id
55      25      ``O_ROW_SENATE``     2           Senate cards in the row, at the lowest id of
                                                 identical cards
80      17      ``O_ROW_ARENA``      3           face-up Arena cards in the row, by type
97      20      ``O_DECK_PROV``      -           provinces still to be dealt, by id
117     25      ``O_DECK_SENATE``    2           Senate cards still to be dealt (as the row)
142     1       ``O_DECK_ARENA``     31          Arena deck size
143     17      ``O_REMOVED``        3           Arena cards out of the game, by type
160     20      ``O_EXH_PROV``       -           exhausted provinces, by id
180     25      ``O_EXH_SENATE``     -           exhausted Senate cards, by id
205     68      ``O_OWN_ARENA``      3           p's Arena cards by type (17 each): hand bought
                                                 face up, hand face down, show face up, show face
                                                 down
273     1       ``O_ACT``            -           an activation is in progress (the slices down to
                                                 ``O_ACT_PLACED`` are set)
274     25      ``O_ACT_CARD``       -           the Senate card activated, by id
299     22      ``O_ACT_RETURN``     -           the phase the activation returns to, one-hot
321     1       ``O_ACT_PROV_LEFT``  2           provinces the card still needs
322     20      ``O_ACT_FIRST``      -           the province picked first, by id
342     5       ``O_ACT_COUNTERS``   4,6,1,1,6   marks, mark floor, passes, optional, Vicarius die
347     7       ``O_ACT_PLACED``     -           placed die to re-roll: track one-hot, then
                                                 position one-hot
354     4       ``O_RESOLUTION``     4,40,20,4   section, budget, floor, picks
358     3       ``O_FORUM_TRACK``    -           forum track being scored, one-hot
0       1       ``PP_ACTOR``         -           the seat is ``actor``
1       1       ``PP_CURRENT``       -           the seat decides now
2       1       ``PP_TARGET``        -           the activation's target
3       1       ``PP_SHOW_BONUS``    -           its show bonus (Intrigue Greko Maximus) is active
4       4       ``PP_ORDER``         -           its position in the turn order, one-hot
8       4       ``PP_NEW_ORDER``     -           its position in the order being formed, one-hot
12      2       ``PP_VP``            60          forum VP, arena VP
14      3       ``PP_FORUM``         7           Olives, Wine, Jewelry tracks
17      2       ``PP_BONUS``         8           military bonus, coin bonus
19      1       ``PP_TRIBUNUS``      28          Tribunus change to its dice sum, plus 8
20      7       ``PP_DICE``          4           unplaced dice by face 0-6
27      20      ``PP_PROVINCES``     -           provinces held, by id
47      25      ``PP_SENATE``        -           Senate cards held, by id
72      17      ``PP_ARENA_PUBLIC``  3           Arena cards held (hand and show) bought face up,
                                                 by type
89      1       ``PP_ARENA_HIDDEN``  31          Arena cards held face down
90      1       ``PP_SHOW_SIZE``     31          cards in its show
91      96      ``PP_TRACKS``        -           per track (32 floats): its section one-hot, then
                                                 dice 1-4 of its group (leftmost first), each a
                                                 one-hot face 0-6
187     1       ``PP_SCORE``         128         points as final scoring counts them now, capped at
                                                 1
======  ======  ===================  ==========  ==================================================

Dict form (``State.to_dict`` / ``Game.state_from_dict``)
--------------------------------------------------------
::

    {"game", "options",
     "round": 1..5,
     "phase": "deal" | "roll" | "tribunus" | "order" | "place" | "after_place" | "province"
              | "mark" | "reroll" | "pick_die" | "shift" | "pick_placed" | "target"
              | "discard" | "target_province" | "military" | "senate" | "market" | "draw"
              | "forum" | "show" | "over",
     "actor": seat deciding (or the buyer at "draw"),
     "order": [seats]          turn order (the previous round's during phase 1),
     "new_order": [seats]      the order being formed (phase 1 only),
     "turn": placement turns done (phase 2),  "step": die rolled / seat in order,
     "consul": bool            Consul active for the next die,
     "tracks": {"military" | "senate" | "black_market":
                [{"player": seat, "dice": [faces, leftmost first]}, ...] left to right},
     "rows":  {"provinces": [names], "senate": [{"id", "card"}], "arena": [{"id", "card"}]},
     "decks": {"provinces": [names], "senate": [{"id", "card"}], "arena": [{"id", "card"}]},
     "exhausted": {"provinces": [names], "senate": [ids]},
     "players": [{"vp_forum", "vp_arena",
                  "forum": {"Olives", "Wine", "Jewelry"},
                  "provinces": [names], "senate": [{"id", "card"}],
                  "hand": [{"id", "card", "public"}], "show": [{"id", "card", "public"}],
                  "dice": [unplaced faces], "military_bonus", "coin_bonus",
                  "tribunus": change to the dice sum this phase 1}],
     "activation": null | {"card": id, "return": phase, "provinces_left",
                           "first_province", "target", "marks", "mark_floor", "passes",
                           "optional", "die", "placed_die": [track, position] | null},
     "resolution": {"section", "budget", "floor", "picks"},
     "scoring": {"forum_track": 0..2, "show_bonus": [seats]}}

``state_from_dict`` starts from a fresh game (every card in its deck) and accepts cards
by id or name ("Vicarius (Intrigue)" names an Intrigue card; an Arena card is public
unless ``"public": false``).  Omitted decks are filled with what the round has not dealt
(lowest ids first; the rest have left the game) and the Arena deck with every card not
placed elsewhere or listed in ``"arena_removed"``.
"""
