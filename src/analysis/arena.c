/*
 * analysis/arena.c - tournaments between engines (ttt/arena.h).
 *
 * The games of a tournament are numbered pair by pair: game g is game g % games of pair g / games. Worker
 * threads take games from one atomic counter and write each result (one byte: the outcome, from the pair's
 * first engine's side) into its slot, so the records, tallied after the last game, do not depend on which
 * thread played what.
 */
#include "ttt/arena.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/notation.h"
#include "ttt/rng.h"
#include "ttt/solve.h"
#include "util/error.h"

/* z for a two-sided 95% interval. */
#define ARENA_Z95 1.959963984540054
/* The progress callback is called about this many times in a tournament. */
#define ARENA_PROGRESS_STEPS 1000

/* What a game's byte holds: the result for the pair's first engine (the low bits), and who forfeited. */
enum {
    GAME_WIN = 1,
    GAME_LOSS = 2,
    GAME_DRAW = 3,
    GAME_RESULT = 3,
    GAME_A_FORFEITS = 4,
    GAME_B_FORFEITS = 8
};

int ttt_arena_pair_count(int nspecs, bool gauntlet)
{
    return nspecs < 2 ? 0 : gauntlet ? nspecs - 1 : nspecs * (nspecs - 1) / 2;
}

void ttt_arena_pair_at(int nspecs, bool gauntlet, int p, int *a, int *b)
{
    assert(p >= 0 && p < ttt_arena_pair_count(nspecs, gauntlet));
    if (gauntlet) {
        *a = 0;
        *b = p + 1;
        return;
    }
    int i = 0;
    while (p >= nspecs - 1 - i) {
        p -= nspecs - 1 - i;
        i++;
    }
    *a = i;
    *b = i + 1 + p;
}

uint64_t ttt_arena_game_seed(uint64_t seed, int pair, uint64_t game)
{
    uint64_t state = seed;
    uint64_t key = ttt_splitmix64(&state);
    state = key ^ ((uint64_t)pair << 40) ^ (game / 2);
    return ttt_splitmix64(&state);
}

/* --- Openings ------------------------------------------------------------------------------------------ */

/* The solver's table for --balanced: 7x7k5 openings of 2 plies need a few MiB. */
#define ARENA_BALANCED_TT_MIB 64
/* Mixed into the tournament seed for the random openings' generator, so that it draws apart from the games. */
#define ARENA_OPENING_SEED_SALT UINT64_C(0x6f70656e696e6773)

/* Opening i is moves[start[i] .. start[i + 1] - 1]. */
struct ttt_arena_book {
    uint64_t count, cap;
    size_t *start; /* count + 1 entries (room for cap + 1) */
    ttt_move *moves;
    size_t moves_cap;
};

/* *out is NULL after a failure, so that the caller may free it on every path. */
static ttt_status book_new(ttt_arena_book **out, ttt_error *err)
{
    *out = NULL;
    ttt_arena_book *book = calloc(1, sizeof *book);
    if (book)
        book->start = calloc(1, sizeof *book->start);
    if (!book || !book->start) {
        free(book);
        return ttt_fail(err, TTT_ENOMEM, "arena: out of memory for the openings");
    }
    *out = book;
    return TTT_OK;
}

void ttt_arena_book_free(ttt_arena_book *book)
{
    if (!book)
        return;
    free(book->start);
    free(book->moves);
    free(book);
}

/* Appends an opening, growing the arrays by doubling. */
static ttt_status book_add(ttt_arena_book *book, const ttt_move *moves, int count, ttt_error *err)
{
    if (book->count == book->cap) {
        uint64_t cap = book->cap ? 2 * book->cap : 16;
        size_t *start = realloc(book->start, (size_t)(cap + 1) * sizeof *start);
        if (!start)
            return ttt_fail(err, TTT_ENOMEM, "arena: out of memory for the openings");
        book->start = start;
        book->cap = cap;
    }
    size_t used = book->start[book->count];
    if (used + (size_t)count > book->moves_cap) {
        size_t cap = book->moves_cap ? 2 * book->moves_cap : 64;
        while (cap < used + (size_t)count)
            cap *= 2;
        ttt_move *m = realloc(book->moves, cap * sizeof *m);
        if (!m)
            return ttt_fail(err, TTT_ENOMEM, "arena: out of memory for the openings");
        book->moves = m;
        book->moves_cap = cap;
    }
    memcpy(book->moves + used, moves, (size_t)count * sizeof *moves);
    book->start[++book->count] = used + (size_t)count;
    return TTT_OK;
}

uint64_t ttt_arena_book_size(const ttt_arena_book *book) { return book->count; }

const ttt_move *ttt_arena_book_opening(const ttt_arena_book *book, uint64_t i, int *count)
{
    assert(i < book->count);
    *count = (int)(book->start[i + 1] - book->start[i]);
    return book->moves + book->start[i];
}

uint64_t ttt_arena_book_index(const ttt_arena_book *book, uint64_t game) { return game / 2 % book->count; }

/* The solver's value for X of the opening moves[0..count-1] (count >= 1), b the position after it:
 * TTT_WIN when X wins, TTT_LOSS when O does; *settled false when the solver could not tell within
 * TTT_ARENA_BALANCED_NODES. Only draw or not matters, so the last move is searched with the window (-1, 1)
 * around a draw. */
static ttt_status balanced_value(ttt_solver *solver, const ttt_board *b, const ttt_move *moves, int count,
                                 ttt_result *x_value, bool *settled, ttt_error *err)
{
    ttt_board before;
    ttt_status st = ttt_moves_replay(&b->rules, moves, count - 1, &before, err);
    ttt_limits limits = {.nodes = TTT_ARENA_BALANCED_NODES};
    int score;
    uint64_t nodes;
    if (!st)
        st = ttt_solver_move_score(solver, &before, moves[count - 1], -1, 1, &limits, &score, settled, &nodes,
                                   err);
    if (st || !*settled)
        return st;
    /* score is for the side that made the last move */
    ttt_result mover = score >= 1 ? TTT_WIN : score <= -1 ? TTT_LOSS : TTT_DRAW_VALUE;
    *x_value = ttt_board_to_move(&before) == TTT_X ? mover : (ttt_result)-mover;
    return TTT_OK;
}

/* A solver for --balanced, or TTT_EINVAL for a board too large to settle openings on quickly. */
static ttt_status balanced_solver(const ttt_rules *rules, ttt_solver **out, ttt_error *err)
{
    ttt_board b;
    ttt_board_init(&b, rules);
    if (b.cells > TTT_ARENA_BALANCED_MAX_CELLS) {
        char rt[TTT_RULES_TEXT_SIZE];
        return ttt_fail(
            err, TTT_EINVAL,
            "--balanced: the exact solver cannot settle openings of %s quickly (%d cells; it can on "
            "boards of up to %d, such as 7x7k5)",
            ttt_rules_format(rules, rt, sizeof rt), b.cells, TTT_ARENA_BALANCED_MAX_CELLS);
    }
    return ttt_solver_new(rules, ARENA_BALANCED_TT_MIB, out, err);
}

ttt_status ttt_arena_book_parse(const ttt_rules *rules, const char *text, const char *source, bool balanced,
                                ttt_arena_book **out, ttt_error *err)
{
    ttt_arena_book *book;
    ttt_solver *solver = NULL;
    ttt_status st = book_new(&book, err);
    if (!st && balanced)
        st = balanced_solver(rules, &solver, err);
    ttt_move *moves = st ? NULL : malloc(TTT_MAX_CELLS * sizeof *moves);
    if (!st && !moves)
        st = ttt_fail(err, TTT_ENOMEM, "arena: out of memory for the openings");
    int line = 0;
    for (const char *p = text; !st && *p;) {
        line++;
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *q = p;
        while (q < p + len && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        p += len + (end != NULL);
        if (q == p - (end != NULL) || *q == '#')
            continue;
        char buf[TTT_MOVES_TEXT_SIZE];
        size_t n = (size_t)(p - (end != NULL) - q);
        while (n > 0 && (q[n - 1] == ' ' || q[n - 1] == '\t' || q[n - 1] == '\r'))
            n--;
        if (n >= sizeof buf) {
            st = ttt_fail(err, TTT_EINVAL, "%s:%d: line too long for an opening", source, line);
            break;
        }
        memcpy(buf, q, n);
        buf[n] = '\0';
        int count;
        ttt_board b;
        ttt_error why;
        if (ttt_moves_parse(buf, rules, moves, TTT_MAX_CELLS, &count, &why) ||
            ttt_moves_replay(rules, moves, count, &b, &why)) {
            st = ttt_fail(err, TTT_EINVAL, "%s:%d: %s", source, line, why.msg);
            break;
        }
        if (ttt_board_terminal(&b)) {
            st = ttt_fail(err, TTT_EINVAL, "%s:%d: opening '%s' is over: %s", source, line, buf,
                          ttt_board_outcome(&b) == TTT_DRAW ? "a draw"
                          : ttt_board_winner(&b) == TTT_X   ? "X won"
                                                            : "O won");
            break;
        }
        if (solver) {
            ttt_result v;
            bool settled;
            st = balanced_value(solver, &b, moves, count, &v, &settled, err);
            if (!st && !settled)
                st = ttt_fail(err, TTT_EINVAL,
                              "%s:%d: opening '%s': the exact solver cannot settle it within %" PRIu64
                              " nodes (--balanced)",
                              source, line, buf, TTT_ARENA_BALANCED_NODES);
            else if (!st && v != TTT_DRAW_VALUE)
                st = ttt_fail(err, TTT_EINVAL, "%s:%d: opening '%s' is not balanced: a win for %s", source,
                              line, buf, v == TTT_WIN ? "X" : "O");
            if (st)
                break;
        }
        st = book_add(book, moves, count, err);
    }
    if (!st && book->count == 0)
        st = ttt_fail(err, TTT_EINVAL, "%s: no openings (one a line, e.g. 'd4 c3')", source);
    free(moves);
    ttt_solver_free(solver);
    if (st) {
        ttt_arena_book_free(book);
        return st;
    }
    *out = book;
    return TTT_OK;
}

/* One random opening of plies moves that leaves the game on, into moves. */
static void random_opening(const ttt_rules *rules, ttt_rng *rng, int plies, ttt_move *moves, ttt_board *b)
{
    for (;;) {
        ttt_board_init(b, rules);
        int i = 0;
        for (; i < plies && !ttt_board_terminal(b); i++) {
            ttt_move empty[TTT_MAX_CELLS];
            int n = ttt_board_moves(b, empty);
            moves[i] = empty[ttt_rng_below(rng, (uint32_t)n)];
            ttt_board_play(b, moves[i]);
        }
        if (i == plies && !ttt_board_terminal(b))
            return;
    }
}

ttt_status ttt_arena_book_random(const ttt_rules *rules, uint64_t seed, uint64_t count, int plies,
                                 bool balanced, ttt_arena_book **out, ttt_error *err)
{
    ttt_board b;
    ttt_board_init(&b, rules);
    if (plies < 1 || plies >= b.cells)
        return ttt_fail(err, TTT_EINVAL, "openings of %d plies: expected 1 to %d on this board", plies,
                        b.cells - 1);
    if (count < 1 || count > TTT_ARENA_MAX_OPENINGS)
        return ttt_fail(err, TTT_EINVAL, "%" PRIu64 " openings: expected 1 to %" PRIu64, count,
                        TTT_ARENA_MAX_OPENINGS);
    ttt_arena_book *book;
    ttt_solver *solver = NULL;
    ttt_status st = book_new(&book, err);
    if (!st && balanced)
        st = balanced_solver(rules, &solver, err);
    ttt_rng rng;
    ttt_rng_seed(&rng, seed ^ ARENA_OPENING_SEED_SALT);
    ttt_move moves[TTT_MAX_CELLS];
    for (uint64_t i = 0; !st && i < count; i++) {
        for (int tries = 0;; tries++) {
            if (tries == TTT_ARENA_BALANCED_TRIES) {
                st = ttt_fail(
                    err, TTT_EINVAL,
                    "--balanced: no opening of %d plies the exact solver values a draw within %" PRIu64
                    " nodes in %d random ones",
                    plies, TTT_ARENA_BALANCED_NODES, TTT_ARENA_BALANCED_TRIES);
                break;
            }
            random_opening(rules, &rng, plies, moves, &b);
            ttt_result v;
            bool settled;
            if (!solver || (st = balanced_value(solver, &b, moves, plies, &v, &settled, err)) != TTT_OK ||
                (settled && v == TTT_DRAW_VALUE))
                break;
        }
        if (!st)
            st = book_add(book, moves, plies, err);
    }
    ttt_solver_free(solver);
    if (st) {
        ttt_arena_book_free(book);
        return st;
    }
    *out = book;
    return TTT_OK;
}

/* --- Games ------------------------------------------------------------------------------------------------ */

/* True when the spec sets seed= among its options. */
static bool spec_has_seed(const char *spec)
{
    const char *colon = strchr(spec, ':');
    for (const char *p = colon; p; p = strchr(p + 1, ','))
        if (strncmp(p + 1, "seed=", 5) == 0)
            return true;
    return false;
}

/* A new engine from spec, seeded with seed unless the spec has its own. */
static ttt_status arena_engine(const char *spec, const ttt_rules *rules, uint64_t seed, ttt_engine **out,
                               ttt_error *err)
{
    if (spec_has_seed(spec))
        return ttt_engine_new(spec, rules, out, err);
    char text[TTT_SPEC_TEXT_SIZE + 32];
    int n = snprintf(text, sizeof text, "%s%sseed=%" PRIu64, spec, strchr(spec, ':') ? "," : ":", seed);
    if (n < 0 || (size_t)n >= sizeof text)
        return ttt_fail(err, TTT_EINVAL, "engine '%.40s...': spec too long", spec);
    return ttt_engine_new(text, rules, out, err);
}

typedef struct arena_shared arena_shared;
static bool arena_stopping(arena_shared *sh);

/* ttt_arena_play_game, asking arena_stopping(sh) (sh may be NULL: never) after each move: a game stopped that
 * way returns TTT_OK with *abandoned set, and its engines are not told anything. */
static ttt_status arena_game(const ttt_rules *rules, const char *x_spec, const char *o_spec, uint64_t seed,
                             const ttt_move *opening, int opening_count, arena_shared *sh,
                             ttt_arena_game *out, bool *abandoned, ttt_error *err)
{
    *abandoned = false;
    out->forfeit = TTT_NOBODY;
    out->reason[0] = '\0';
    out->count = 0;
    ttt_engine *e[2] = {NULL, NULL};
    ttt_error why;
    ttt_status st = TTT_OK;
    /* An engine that forfeits while being made loses before the game starts. */
    for (int side = 0; side < 2 && st == TTT_OK && out->forfeit == TTT_NOBODY; side++) {
        st = arena_engine(side == TTT_X ? x_spec : o_spec, rules, seed, &e[side], &why);
        if (st == TTT_EFORFEIT) {
            out->forfeit = (ttt_player)side;
            st = TTT_OK;
        } else if (st && err)
            *err = why;
    }
    ttt_board b;
    ttt_board_init(&b, rules);
    for (int i = 0; i < opening_count; i++) {
        assert(ttt_board_is_legal(&b, opening[i]));
        out->moves[i] = opening[i];
        ttt_board_play(&b, opening[i]);
    }
    assert(!ttt_board_terminal(&b));
    while (st == TTT_OK && out->forfeit == TTT_NOBODY && !ttt_board_terminal(&b)) {
        ttt_move m;
        ttt_player mover = ttt_board_to_move(&b);
        st = ttt_engine_choose(e[mover], &b, &m, NULL, &why);
        /* Asked before the forfeit is counted: Ctrl-C on a terminal also reaches an outside engine, whose
         * death then belongs to the stop, not to the game. */
        if (sh && arena_stopping(sh)) {
            *abandoned = true;
            st = TTT_OK;
            break;
        }
        if (st == TTT_EFORFEIT) {
            out->forfeit = mover;
            st = TTT_OK;
        } else if (st) {
            if (err)
                *err = why;
        } else {
            out->moves[b.ply] = m;
            ttt_board_play(&b, m);
        }
    }
    if (st == TTT_OK && !*abandoned) {
        out->count = b.ply;
        if (out->forfeit != TTT_NOBODY) {
            out->outcome = out->forfeit == TTT_X ? TTT_O_WINS : TTT_X_WINS;
            snprintf(out->reason, sizeof out->reason, "%s", why.msg);
        } else
            out->outcome = ttt_board_outcome(&b);
        st = ttt_engines_game_over(e, 2, out->moves, out->count, out->outcome, err);
    }
    ttt_engine_free(e[0]);
    ttt_engine_free(e[1]);
    return st;
}

ttt_status ttt_arena_play_game(const ttt_rules *rules, const char *x_spec, const char *o_spec, uint64_t seed,
                               ttt_arena_game *out, ttt_error *err)
{
    bool abandoned;
    return arena_game(rules, x_spec, o_spec, seed, NULL, 0, NULL, out, &abandoned, err);
}

ttt_status ttt_arena_play_opening(const ttt_rules *rules, const char *x_spec, const char *o_spec,
                                  uint64_t seed, const ttt_move *opening, int count, ttt_arena_game *out,
                                  ttt_error *err)
{
    bool abandoned;
    return arena_game(rules, x_spec, o_spec, seed, opening, count, NULL, out, &abandoned, err);
}

/* Game g of the tournament (see ttt_arena_play_nth), asking sh (may be NULL) whether to stop. */
static ttt_status arena_nth(const ttt_rules *rules, const ttt_arena_options *opt, uint64_t g,
                            arena_shared *sh, int *pair, bool *a_is_x, ttt_arena_game *out, bool *abandoned,
                            ttt_error *err)
{
    int a, b, count = 0;
    *pair = (int)(g / opt->games);
    uint64_t i = g % opt->games;
    ttt_arena_pair_at(opt->nspecs, opt->gauntlet, *pair, &a, &b);
    *a_is_x = i % 2 == 0;
    const ttt_move *opening =
        opt->book ? ttt_arena_book_opening(opt->book, ttt_arena_book_index(opt->book, i), &count) : NULL;
    return arena_game(rules, opt->specs[*a_is_x ? a : b], opt->specs[*a_is_x ? b : a],
                      ttt_arena_game_seed(opt->seed, *pair, i), opening, count, sh, out, abandoned, err);
}

ttt_status ttt_arena_play_nth(const ttt_rules *rules, const ttt_arena_options *opt, uint64_t g, int *pair,
                              bool *a_is_x, ttt_arena_game *out, ttt_error *err)
{
    bool abandoned;
    return arena_nth(rules, opt, g, NULL, pair, a_is_x, out, &abandoned, err);
}

ttt_status ttt_arena_play(const ttt_rules *rules, const char *x_spec, const char *o_spec, uint64_t seed,
                          ttt_outcome *outcome, ttt_move *moves, int *count, ttt_error *err)
{
    ttt_arena_game *g = malloc(sizeof *g);
    if (!g)
        return ttt_fail(err, TTT_ENOMEM, "arena: out of memory");
    ttt_status st = ttt_arena_play_game(rules, x_spec, o_spec, seed, g, err);
    if (st == TTT_OK) {
        *outcome = g->outcome;
        if (moves)
            memcpy(moves, g->moves, (size_t)g->count * sizeof *moves);
        if (count)
            *count = g->count;
    }
    free(g);
    return st;
}

/* --- The tournament ------------------------------------------------------------------------------------ */

struct arena_shared {
    const ttt_rules *rules;
    const ttt_arena_options *opt;
    int npairs;
    uint64_t total;
    uint8_t *results; /* total bytes: GAME_*, 0 for a game not played */
    atomic_uint_fast64_t next, done;
    atomic_bool failed, stopped;
    pthread_mutex_t progress_lock; /* serialises opt->progress */
    uint64_t reported;             /* the largest done given to opt->progress, under progress_lock */
};

/* Whether the tournament stops: once opt->stop said so, every worker sees it without asking again. */
static bool arena_stopping(arena_shared *sh)
{
    if (atomic_load(&sh->stopped))
        return true;
    if (sh->opt->stop && sh->opt->stop(sh->opt->user)) {
        atomic_store(&sh->stopped, true);
        return true;
    }
    return false;
}

/* Reports done games to opt->progress about ARENA_PROGRESS_STEPS times in all, whichever worker finished them. */
static void arena_report(arena_shared *sh, uint64_t done)
{
    uint64_t step = sh->total / ARENA_PROGRESS_STEPS + 1;
    if (!sh->opt->progress || (done % step != 0 && done != sh->total))
        return;
    pthread_mutex_lock(&sh->progress_lock);
    if (done > sh->reported) {
        sh->reported = done;
        sh->opt->progress(done, sh->total, sh->opt->user);
    }
    pthread_mutex_unlock(&sh->progress_lock);
}

typedef struct arena_worker {
    arena_shared *shared;
    ttt_status status;
    ttt_error err;
    ttt_arena_game game; /* the last game played */
} arena_worker;

static void *arena_run_worker(void *arg)
{
    arena_worker *w = arg;
    arena_shared *sh = w->shared;
    const ttt_arena_options *opt = sh->opt;
    for (;;) {
        if (atomic_load(&sh->failed) || arena_stopping(sh))
            break;
        uint64_t g = atomic_fetch_add(&sh->next, 1);
        if (g >= sh->total)
            break;
        int pair;
        uint64_t i = g % opt->games;
        bool a_is_x, abandoned;
        w->status = arena_nth(sh->rules, opt, g, sh, &pair, &a_is_x, &w->game, &abandoned, &w->err);
        if (w->status) {
            atomic_store(&sh->failed, true);
            break;
        }
        if (abandoned)
            break;
        ttt_outcome o = w->game.outcome;
        uint8_t r = o == TTT_DRAW ? GAME_DRAW : (o == TTT_X_WINS) == a_is_x ? GAME_WIN : GAME_LOSS;
        if (w->game.forfeit != TTT_NOBODY) {
            r |= (w->game.forfeit == TTT_X) == a_is_x ? GAME_A_FORFEITS : GAME_B_FORFEITS;
            if (opt->forfeit)
                opt->forfeit(pair, i, w->game.reason, opt->user);
        }
        sh->results[g] = r;
        arena_report(sh, atomic_fetch_add(&sh->done, 1) + 1);
    }
    return NULL;
}

static void tally(ttt_arena_record *r, uint8_t result)
{
    result &= GAME_RESULT;
    r->wins += result == GAME_WIN;
    r->losses += result == GAME_LOSS;
    r->draws += result == GAME_DRAW;
}

/* Appends text[0..len-1] to buf at *used, leaving room for a terminator; false when it does not fit. */
static bool names_append(char *buf, size_t size, size_t *used, const char *text, size_t len)
{
    if (size - *used < len + 1)
        return false;
    memcpy(buf + *used, text, len);
    *used += len;
    return true;
}

/* Ends the text begun at start (a terminator: names_append left room for it) and returns it. */
static const char *names_end(char *buf, size_t *used, size_t start)
{
    buf[(*used)++] = '\0';
    return buf + start;
}

/* The option name=... of a spec split off: *name (*name_len long, or NULL) and the spec without it, *play. */
static ttt_status split_name(const char *spec, int index, char *buf, size_t size, size_t *used,
                             const char **play, const char **name, size_t *name_len, ttt_error *err)
{
    static const char key[] = "name=";
    const size_t key_len = sizeof key - 1;
    const char *colon = strchr(spec, ':');
    size_t start = *used;
    bool fits = names_append(buf, size, used, spec, colon ? (size_t)(colon - spec) : strlen(spec));
    *name = NULL;
    const char *sep = ":";
    for (const char *p = colon ? colon + 1 : NULL; p && *p && fits;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len >= key_len && strncmp(p, key, key_len) == 0) {
            if (*name || len == key_len)
                return ttt_fail(err, TTT_EINVAL, "engine %d '%s': %s", index + 1, spec,
                                *name ? "name= given twice" : "name= needs a name");
            *name = p + key_len;
            *name_len = len - key_len;
        } else {
            fits = names_append(buf, size, used, sep, 1) && names_append(buf, size, used, p, len);
            sep = ",";
        }
        p = end ? end + 1 : NULL;
    }
    if (!fits)
        return ttt_fail(err, TTT_ELIMIT, "arena: no room for the engines' names");
    *play = names_end(buf, used, start);
    return TTT_OK;
}

ttt_status ttt_arena_names(const char *const *specs, int n, char *buf, size_t size, const char **names,
                           const char **play, ttt_error *err)
{
    enum { SUFFIX_SIZE = 16 };
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        const char *name;
        size_t len;
        ttt_status st = split_name(specs[i], i, buf, size, &used, &play[i], &name, &len, err);
        if (st)
            return st;
        if (!name) {
            name = play[i];
            len = strlen(name);
        }
        /* "#2", "#3", ... until no earlier engine has the name */
        char suffix[SUFFIX_SIZE] = "";
        for (int k = 2;; k++) {
            bool taken = false;
            for (int j = 0; j < i && !taken; j++)
                taken = strlen(names[j]) == len + strlen(suffix) && strncmp(names[j], name, len) == 0 &&
                        strcmp(names[j] + len, suffix) == 0;
            if (!taken)
                break;
            snprintf(suffix, sizeof suffix, "#%d", k);
        }
        size_t start = used;
        if (!names_append(buf, size, &used, name, len) ||
            !names_append(buf, size, &used, suffix, strlen(suffix)))
            return ttt_fail(err, TTT_ELIMIT, "arena: no room for the engines' names");
        names[i] = names_end(buf, &used, start);
    }
    return TTT_OK;
}

ttt_status ttt_arena_run(const ttt_rules *rules, const ttt_arena_options *opt, ttt_arena_pair *pairs,
                         ttt_error *err)
{
    if (opt->nspecs < 2 || opt->nspecs > TTT_ARENA_MAX_ENGINES)
        return ttt_fail(err, TTT_EINVAL, "arena: expected 2 to %d engines, got %d", TTT_ARENA_MAX_ENGINES,
                        opt->nspecs);
    if (opt->games < 1 || opt->games > (uint64_t)TTT_ARENA_MAX_GAMES)
        return ttt_fail(err, TTT_EINVAL, "arena: games must be from 1 to %" PRId64, TTT_ARENA_MAX_GAMES);
    if (opt->seed > (uint64_t)TTT_ARENA_MAX_SEED)
        return ttt_fail(err, TTT_EINVAL, "arena: seed must be from 0 to %" PRId64, TTT_ARENA_MAX_SEED);
    if (opt->jobs < 0 || opt->jobs > TTT_ARENA_MAX_JOBS)
        return ttt_fail(err, TTT_EINVAL, "arena: jobs must be from 1 to %d", TTT_ARENA_MAX_JOBS);
    for (int i = 0; i < opt->nspecs; i++) {
        ttt_engine *e;
        ttt_status st = arena_engine(opt->specs[i], rules, 0, &e, err);
        if (st)
            return st;
        ttt_engine_free(e);
    }
    arena_shared sh = {
        .rules = rules, .opt = opt, .npairs = ttt_arena_pair_count(opt->nspecs, opt->gauntlet)};
    sh.total = (uint64_t)sh.npairs * opt->games;
    sh.results = calloc(sh.total, 1);
    if (!sh.results)
        return ttt_fail(err, TTT_ENOMEM, "arena: out of memory for %" PRIu64 " results", sh.total);
    atomic_init(&sh.next, 0);
    atomic_init(&sh.done, 0);
    atomic_init(&sh.failed, false);
    atomic_init(&sh.stopped, false);
    int jobs = opt->jobs ? opt->jobs : 1;
    if ((uint64_t)jobs > sh.total)
        jobs = (int)sh.total;
    arena_worker *workers = calloc((size_t)jobs, sizeof *workers);
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    bool *started = calloc((size_t)jobs, sizeof *started);
    if (!workers || !threads || !started) {
        free(workers);
        free(threads);
        free(started);
        free(sh.results);
        return ttt_fail(err, TTT_ENOMEM, "arena: out of memory");
    }
    pthread_mutex_init(&sh.progress_lock, NULL);
    for (int i = 0; i < jobs; i++)
        workers[i] = (arena_worker){.shared = &sh};
    /* Worker 0 runs in this thread; a thread that cannot be started leaves its games to the others. */
    for (int i = 1; i < jobs; i++)
        started[i] = pthread_create(&threads[i], NULL, arena_run_worker, &workers[i]) == 0;
    arena_run_worker(&workers[0]);
    for (int i = 1; i < jobs; i++)
        if (started[i])
            pthread_join(threads[i], NULL);
    ttt_status st = TTT_OK;
    for (int i = 0; i < jobs && st == TTT_OK; i++)
        if (workers[i].status) {
            st = workers[i].status;
            if (err)
                *err = workers[i].err;
        }
    if (st == TTT_OK)
        for (int p = 0; p < sh.npairs; p++) {
            ttt_arena_pair *pr = &pairs[p];
            *pr = (ttt_arena_pair){0};
            ttt_arena_pair_at(opt->nspecs, opt->gauntlet, p, &pr->a, &pr->b);
            for (uint64_t i = 0; i < opt->games; i++) {
                uint8_t r = sh.results[(uint64_t)p * opt->games + i];
                tally(&pr->total, r);
                tally(i % 2 == 0 ? &pr->a_as_x : &pr->a_as_o, r);
                pr->a_forfeits += (r & GAME_A_FORFEITS) != 0;
                pr->b_forfeits += (r & GAME_B_FORFEITS) != 0;
            }
        }
    free(workers);
    free(threads);
    free(started);
    free(sh.results);
    pthread_mutex_destroy(&sh.progress_lock);
    return st;
}

/* --- Statistics ---------------------------------------------------------------------------------------- */

/* The Elo difference that gives an expected score s: infinite at 0 and 1. */
static double elo_of_score(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0) + 0.0; /* + 0.0: an even score is +0, not -0 */
}

void ttt_arena_stats_of(const ttt_arena_record *r, ttt_arena_stats *out)
{
    uint64_t n = r->wins + r->losses + r->draws;
    assert(n > 0);
    double w = (double)r->wins, l = (double)r->losses, d = (double)r->draws, games = (double)n;
    double s = (w + d / 2.0) / games;
    /* The variance of one game's score (1, 0 or 1/2) around the mean, then of the mean. */
    double var = (w * (1.0 - s) * (1.0 - s) + l * s * s + d * (0.5 - s) * (0.5 - s)) / games;
    double margin = ARENA_Z95 * sqrt(var / games);
    *out = (ttt_arena_stats){
        .games = n,
        .score = s,
        .elo = elo_of_score(s),
        .elo_low = elo_of_score(s - margin),
        .elo_high = elo_of_score(s + margin),
        .los = w + l > 0 ? 0.5 * (1.0 + erf((w - l) / sqrt(2.0 * (w + l)))) : 0.5,
        .draw_ratio = d / games,
    };
}

static int compare_ranks(const void *a, const void *b)
{
    const ttt_arena_rank *x = a, *y = b;
    if (x->stats.score != y->stats.score)
        return x->stats.score > y->stats.score ? -1 : 1;
    return x->engine - y->engine;
}

int ttt_arena_ranking(int nspecs, const ttt_arena_pair *pairs, int npairs, ttt_arena_rank *out)
{
    assert(nspecs >= 0 && nspecs <= TTT_ARENA_MAX_ENGINES);
    for (int i = 0; i < nspecs; i++)
        out[i] = (ttt_arena_rank){.engine = i};
    for (int p = 0; p < npairs; p++) {
        const ttt_arena_record *r = &pairs[p].total;
        assert(pairs[p].a >= 0 && pairs[p].a < nspecs && pairs[p].b >= 0 && pairs[p].b < nspecs);
        ttt_arena_record *a = &out[pairs[p].a].total, *b = &out[pairs[p].b].total;
        a->wins += r->wins, a->losses += r->losses, a->draws += r->draws;
        b->wins += r->losses, b->losses += r->wins, b->draws += r->draws;
    }
    int ranked = 0;
    for (int i = 0; i < nspecs; i++)
        if (out[i].total.wins + out[i].total.losses + out[i].total.draws > 0) {
            ttt_arena_stats_of(&out[i].total, &out[i].stats);
            out[ranked++] = out[i];
        }
    qsort(out, (size_t)ranked, sizeof *out, compare_ranks);
    return ranked;
}
