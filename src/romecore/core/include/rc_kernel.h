/* rc_kernel.h - the C-level game interface that every romecore game kernel honours.
 *
 * A game state is a plain, fixed-size C struct with no pointers: cloning is memcpy, a
 * snapshot is its bytes.  A kernel is a constant table of function pointers over that
 * struct (an explicit vtable, in the manner of OpenSpiel's Game/State interface, but
 * with no allocation and no Python).  Search plugins drive any game through this table
 * alone, so one search implementation serves all games at C speed.
 *
 * How a kernel fills this table (names, sections, bounds, the step-then-forced pattern) is
 * written once in KERNELS.md beside this file.
 *
 * Conventions
 *   - Players are 0..n-1.  current_player() returns RC_CHANCE at a chance node and
 *     RC_TERMINAL when the game is over.
 *   - legal_actions() writes the legal action ids in ascending order and returns their
 *     number; at a chance node it writes the chance outcomes.  It returns 0 only at a
 *     terminal state.  No list is ever longer than max_legal.
 *   - apply() assumes its action is legal (callers check against legal_actions()); it
 *     never allocates.  apply_legal() (optional) is apply() that may also hand back the
 *     next state's legal_actions(), exactly as legal_actions() would write them.
 *   - returns() is meaningful at a terminal state: winners share 1.0, others get 0.0.
 *   - scores() writes each player's points as final scoring would count them now.
 *   - resample(s, p, rng) rewrites everything p cannot see with a world drawn uniformly
 *     from those consistent with p's knowledge (as the game keeps it in the struct).
 *   - observe_action(s, p, a) says what player p perceives when action a is applied at s:
 *     a itself when p sees it, otherwise RC_HIDDEN | (whatever part is public).
 *   - validate(s) checks every field of a struct that came from outside (a snapshot) and
 *     returns NULL when it is sound, else a static message naming the first fault.  Its
 *     padding checks go through rc_check_padding().  What holds for every game is checked
 *     once by the caller after validate() passes (State._check_struct): the player count
 *     against the options, and that a live state has a legal action or chance outcome.
 *   - The tensor slots are optional (NULL: the game has no tensor, and the Python calls
 *     raise PluginError); every built-in game fills them.
 *   - tensor_size(params) is the number of floats observation_tensor() writes for a game
 *     made with these params (params[0] = players); never above max_tensor_size.
 *   - observation_tensor(s, p, out) writes what player p knows at s as tensor_size floats,
 *     seat-relative (p's own slices first, then the other seats p+1, p+2, ... mod n), each in
 *     [0, 1]; it reads only what p may know, so it is equal across every world resample(s, p)
 *     can produce.  The layout of each game is documented in its package docstring.
 */
#ifndef RC_KERNEL_H
#define RC_KERNEL_H

#include <stdint.h>
#include <string.h>
#include "rc_rng.h"
#include "rc_bits.h"

#define RC_ABI_VERSION 4
#define RC_CHANCE (-1)
#define RC_TERMINAL (-4)
#define RC_MAX_PLAYERS 5
#define RC_MAX_PARAMS 8
#define RC_HIDDEN 0x80000000u

typedef struct rc_kernel {
    uint32_t abi_version;       /* RC_ABI_VERSION at the kernel's build */
    uint32_t state_size;        /* bytes of the state struct */
    uint32_t state_version;     /* layout version of the struct, recorded in snapshots */
    int32_t num_actions;        /* action ids are 0..num_actions-1 (player and chance actions) */
    int32_t max_legal;          /* bound on legal_actions() and chance_outcomes() counts */
    int32_t max_game_length;    /* bound on the number of actions in one game */

    void (*init)(void *s, const int32_t *params);            /* params[0] = players */
    int (*num_players)(const void *s);
    int (*current_player)(const void *s);
    int (*legal_actions)(const void *s, int32_t *out);
    int (*chance_outcomes)(const void *s, int32_t *actions, double *probs);
    /* Optional (may be NULL): draw one chance outcome directly, with the probabilities
     * chance_outcomes() states; faster than listing them. */
    int32_t (*sample_chance)(const void *s, rc_rng *rng);
    void (*apply)(void *s, int32_t action);
    void (*returns)(const void *s, double *out);
    void (*scores)(const void *s, int32_t *out);               /* one per player */
    void (*resample)(void *s, int player, rc_rng *rng);
    uint32_t (*observe_action)(const void *s, int observer, int32_t action);
    const char *(*validate)(const void *s);

    int32_t max_tensor_size;    /* bound on tensor_size() over every option set */
    int32_t (*tensor_size)(const int32_t *params);
    void (*observation_tensor)(const void *s, int player, float *out);

    /* Optional (may be NULL; ABI 4): apply(s, action), then the legal_actions() of the
     * state it reaches written to out (max_legal entries), returning their number; or -1
     * where the kernel did not list them on the way (the caller lists them when it needs
     * them).  A kernel whose forced steps list the legal actions of the state they stop
     * at fills it, so that a step loop does not list them twice a step. */
    int (*apply_legal)(void *s, int32_t action, int32_t *out);
} rc_kernel;

/* ---- generic helpers written once against the interface ---- */

/* Draws a chance outcome; `actions`/`probs` are scratch of max_legal entries. */
static inline int32_t rc_sample_chance(const rc_kernel *k, const void *s, rc_rng *rng,
                                       int32_t *actions, double *probs) {
    if (k->sample_chance) return k->sample_chance(s, rng);
    int n = k->chance_outcomes(s, actions, probs);
    double u = rc_rng_double(rng), acc = 0.0;
    for (int i = 0; i < n - 1; i++) {
        acc += probs[i];
        if (u < acc) return actions[i];
    }
    return actions[n - 1];
}

/* One uniformly random step (chance by its probabilities) in a loop of them; returns the
 * action applied, or -1 at a terminal state.  *listed is how many of s's legal actions
 * `actions` holds already (-1: none, so they are listed here); on return it is the next
 * state's count where the kernel's apply_legal handed them on, else -1.  The list, and so
 * the draw from rng, is the same either way. */
static inline int32_t rc_random_step_listed(const rc_kernel *k, void *s, rc_rng *rng,
                                            int32_t *actions, double *probs, int *listed) {
    int p = k->current_player(s);
    int32_t a;
    if (p == RC_TERMINAL) return -1;
    if (p == RC_CHANCE) {
        a = rc_sample_chance(k, s, rng, actions, probs);
    } else {
        int n = *listed >= 0 ? *listed : k->legal_actions(s, actions);
        a = actions[n == 1 ? 0 : rc_rng_below(rng, (uint32_t)n)];
    }
    if (k->apply_legal) {
        *listed = k->apply_legal(s, a, actions);
    } else {
        k->apply(s, a);
        *listed = -1;
    }
    return a;
}

/* One uniformly random step (chance by its probabilities); returns the action applied,
 * or -1 at a terminal state. */
static inline int32_t rc_random_step(const rc_kernel *k, void *s, rc_rng *rng,
                                     int32_t *actions, double *probs) {
    int listed = -1;
    return rc_random_step_listed(k, s, rng, actions, probs, &listed);
}

/* Plays uniformly random moves to the end; returns the number of actions applied. */
static inline int rc_playout(const rc_kernel *k, void *s, rc_rng *rng,
                             int32_t *actions, double *probs) {
    int steps = 0, listed = -1;
    while (rc_random_step_listed(k, s, rng, actions, probs, &listed) >= 0) steps++;
    return steps;
}

/* Returns at the end of a game: the players whose tie-break key is highest share 1.0,
 * the others get 0.0 (a kernel packs its score and tie-breaks into one key per player;
 * a key below 0 never wins). */
static inline void rc_share_wins(const int64_t *key, int n, double *out) {
    int64_t best = -1;
    int nwin = 0;
    for (int p = 0; p < n; p++) if (key[p] > best) best = key[p];
    for (int p = 0; p < n; p++) nwin += key[p] == best;
    for (int p = 0; p < n; p++) out[p] = (best >= 0 && key[p] == best) ? 1.0 / nwin : 0.0;
}

/* Padding: a kernel never writes the alignment gaps of its struct, so they stay zero and
 * equal positions have equal bytes (states compare and hash bytewise).  validate() checks
 * each gap, [from, to), with this: NULL when all its bytes are zero, else the message. */
static inline const char *rc_check_padding(const void *from, const void *to) {
    for (const unsigned char *p = (const unsigned char *)from; p < (const unsigned char *)to; p++)
        if (*p) return "padding bytes are not zero";
    return NULL;
}

/* A 64-bit hash of a state's bytes (word-wise multiply-xorshift mixing). */
static inline uint64_t rc_hash_bytes(const void *data, uint32_t size) {
    const unsigned char *p = (const unsigned char *)data;
    uint64_t h = 0x243F6A8885A308D3ULL ^ size;
    uint32_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h ^= w + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    uint64_t tail = 0;
    for (uint32_t j = 0; i < size; i++, j += 8) tail |= (uint64_t)p[i] << j;
    h ^= tail + 0x94D049BB133111EBULL;
    h ^= h >> 31; h *= 0x94D049BB133111EBULL; h ^= h >> 29;
    return h;
}

#endif
