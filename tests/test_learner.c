/* Unit tests for the learner engine (seed 001): canonical storage, matching under symmetry, the order of the
 * lazy progression on constructed memories, determinism, and learning against real engines. */
#define _GNU_SOURCE /* mkdtemp */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "ttt/ttt.h"
#include "support.h"

static char tmpdir[256];
static int db_counter;

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/ttt-test-learner-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A fresh database path for each test. */
static const char *new_db(char *buf, size_t size)
{
    snprintf(buf, size, "%s/m%d.db", tmpdir, db_counter++);
    return buf;
}

/* Records count plays of a game (any symmetric image) in the memory at path, through the store. */
static void remember(const char *path, const char *moves_text, int64_t count)
{
    ttt_rules r = rules_of("3x3");
    ttt_move moves[TTT_MAX_CELLS], canon[TTT_MAX_CELLS];
    int n;
    ttt_board b;
    ttt_error err = {{0}};
    assert_int_equal(ttt_moves_parse(moves_text, &r, moves, TTT_MAX_CELLS, &n, &err), TTT_OK);
    assert_int_equal(ttt_moves_replay(&r, moves, n, &b, &err), TTT_OK);
    ttt_outcome oc = ttt_board_outcome(&b);
    assert_int_not_equal(oc, TTT_ONGOING);
    ttt_sym_sequence_canonical(&r, moves, n, canon);
    char text[TTT_MOVES_TEXT_SIZE];
    ttt_moves_format(&r, canon, n, text, sizeof text);
    ttt_store *s;
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "3x3", text,
                                     oc == TTT_X_WINS   ? "x"
                                     : oc == TTT_O_WINS ? "o"
                                                        : "draw",
                                     count, &err),
                     TTT_OK);
    ttt_store_close(s);
}

static ttt_engine *learner(const char *path, const char *options)
{
    char spec[1024];
    snprintf(spec, sizeof spec, "learner:memory=%s%s%s", path, options[0] ? "," : "", options);
    ttt_rules r = rules_of("3x3");
    ttt_engine *e = NULL;
    ttt_error err = {{0}};
    if (ttt_engine_new(spec, &r, &e, &err)) {
        print_error("%s: %s\n", spec, err.msg);
        fail();
    }
    return e;
}

/* The engine's move after the given moves, as text. */
static const char *move_after(ttt_engine *e, const char *moves_text, char *buf)
{
    ttt_rules r = rules_of("3x3");
    ttt_move moves[TTT_MAX_CELLS], m;
    int n = 0;
    ttt_board b;
    ttt_error err = {{0}};
    assert_int_equal(ttt_moves_parse(moves_text, &r, moves, TTT_MAX_CELLS, &n, &err), TTT_OK);
    assert_int_equal(ttt_moves_replay(&r, moves, n, &b, &err), TTT_OK);
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
    return ttt_move_format(&r, m, buf, TTT_MOVE_TEXT_SIZE);
}

/* The doc's progression with none of the improvements, so each step shows. */
#define FAITHFUL "threats=0,safe=0,backup=0"
/* The doc's progression with values backed up over the memory tree. */
#define BACKUP "threats=0,safe=0,backup=1"

/* A win for X down column a; a win for X on the diagonal; a draw from the centre; a win for O from a1. */
#define X_WINS_COLUMN "a1 b1 a2 b2 a3"
#define X_WINS_DIAG   "a1 b1 b2 c1 c3"
#define DRAW_CENTRE   "b2 a1 c3 a3 a2 c2 b1 b3 c1"
#define O_WINS        "a1 b2 b1 c1 a3 a2 c3 c2"

static int count_rows(const ttt_store_sequence *seq, void *user)
{
    *(int64_t *)user += seq->count * 1000 + 1; /* thousands: games; units: rows */
    return 0;
}

static void test_a_game_and_its_image_are_stored_once(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    new_db(path, sizeof path);
    ttt_engine *e = learner(path, "");
    ttt_rules r = rules_of("3x3");
    ttt_error err = {{0}};
    /* X_WINS_COLUMN and its transpose a1 a2 b1 b2 c1, and its half turn c3 b3 c2 b2 c1 */
    const char *games[] = {X_WINS_COLUMN, "a1 a2 b1 b2 c1", "c3 b3 c2 b2 c1"};
    for (int g = 0; g < 3; g++) {
        ttt_move moves[TTT_MAX_CELLS];
        int n;
        assert_int_equal(ttt_moves_parse(games[g], &r, moves, TTT_MAX_CELLS, &n, &err), TTT_OK);
        assert_int_equal(ttt_engine_game_over(e, moves, n, TTT_X_WINS, &err), TTT_OK);
    }
    /* a wrong outcome is refused */
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    assert_int_equal(ttt_moves_parse(X_WINS_COLUMN, &r, moves, TTT_MAX_CELLS, &n, &err), TTT_OK);
    assert_int_equal(ttt_engine_game_over(e, moves, n, TTT_DRAW, &err), TTT_EINVAL);
    ttt_engine_free(e);
    ttt_store *s;
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    int64_t tally = 0;
    assert_int_equal(ttt_store_sequences(s, "3x3", count_rows, &tally, &err), TTT_OK);
    assert_int_equal(tally, 3 * 1000 + 1); /* one row, three games */
    ttt_store_close(s);
    /* and a new engine reads it back: as X after a1 b1 it pursues the recorded win */
    e = learner(path, FAITHFUL);
    assert_string_equal(move_after(e, "a1 b1", mt), "a2");
    ttt_engine_free(e);
}

static void test_matching_under_symmetry(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    remember(new_db(path, sizeof path), X_WINS_COLUMN, 1);
    ttt_engine *e = learner(path, FAITHFUL);
    /* a1 a2 is the transpose of a1 b1: the recorded a2 maps back to b1 */
    assert_string_equal(move_after(e, "a1 a2", mt), "b1");
    /* c3 b3 is the half turn of a1 b1: a2 maps to c2 */
    assert_string_equal(move_after(e, "c3 b3", mt), "c2");
    /* c1 b1 is the mirror of a1 b1: a2 maps to c2 */
    assert_string_equal(move_after(e, "c1 b1", mt), "c2");
    ttt_engine_free(e);
}

static void test_win_before_block_before_memory(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    /* memory: after a1 b2 c3 b1, X won five times with a3 (O missed b3) */
    remember(new_db(path, sizeof path), "a1 b2 c3 b1 a3 c1 a2", 5);
    ttt_engine *e = learner(path, FAITHFUL);
    /* X can win at a3 and must block b3: it wins */
    assert_string_equal(move_after(e, "a1 b1 a2 b2", mt), "a3");
    /* O threatens b3 and X has no win: the block, not the recorded win */
    assert_string_equal(move_after(e, "a1 b2 c3 b1", mt), "b3");
    ttt_engine_free(e);
}

static void test_pursue_win_before_draw(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    remember(new_db(path, sizeof path), X_WINS_DIAG, 1);
    remember(path, DRAW_CENTRE, 5);
    ttt_engine *e = learner(path, FAITHFUL);
    for (int i = 0; i < 5; i++) { /* any corner: they are images of a1 */
        const char *m = move_after(e, "", mt);
        assert_true(strcmp(m, "a1") == 0 || strcmp(m, "c1") == 0 || strcmp(m, "a3") == 0 ||
                    strcmp(m, "c3") == 0);
    }
    ttt_engine_free(e);
}

static void test_win_passed_over_when_losses_outnumber(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    remember(new_db(path, sizeof path), X_WINS_DIAG, 1);
    remember(path, O_WINS, 2); /* a1 won once and lost twice: 1 > 2 is false */
    remember(path, DRAW_CENTRE, 1);
    ttt_engine *e = learner(path, FAITHFUL);
    assert_string_equal(move_after(e, "", mt), "b2"); /* the draw */
    ttt_engine_free(e);
    /* with as many wins as losses the win is still passed over; with more it is pursued */
    remember(path, X_WINS_DIAG, 1);
    e = learner(path, FAITHFUL);
    assert_string_equal(move_after(e, "", mt), "b2");
    ttt_engine_free(e);
    remember(path, X_WINS_DIAG, 1);
    e = learner(path, FAITHFUL);
    assert_string_not_equal(move_after(e, "", mt), "b2");
    ttt_engine_free(e);
}

static void test_pursue_draw_then_avoid_loss(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    remember(new_db(path, sizeof path), O_WINS, 1);
    ttt_engine *e = learner(path, FAITHFUL);
    /* only a loss from the corners: every corner is avoided, the move is random among the rest */
    for (int i = 0; i < 20; i++) {
        const char *m = move_after(e, "", mt);
        assert_false(strcmp(m, "a1") == 0 || strcmp(m, "c1") == 0 || strcmp(m, "a3") == 0 ||
                     strcmp(m, "c3") == 0);
    }
    ttt_engine_free(e);
    remember(path, "c2 a1 b2 a2 a3 c1 b1 b3 c3", 1); /* a draw from an edge (all edges are images) */
    e = learner(path, FAITHFUL);
    for (int i = 0; i < 5; i++) {
        const char *m = move_after(e, "", mt);
        assert_true(strcmp(m, "b1") == 0 || strcmp(m, "a2") == 0 || strcmp(m, "c2") == 0 ||
                    strcmp(m, "b3") == 0);
    }
    ttt_engine_free(e);
}

static bool is_move(const char *m, const char *a, const char *b) { return !strcmp(m, a) || !strcmp(m, b); }

/* The game that teaches the fork: after X a1, O b2, X c3, O's corner c1 lets X block at a3 with a double
 * threat (a2 and b3). Before it, O won twice with c1 when X did not block. */
#define O_WINS_AFTER_C1 "a1 b2 c3 c1 b1 a3"
#define FORK_LOSS       "a1 b2 c3 c1 a3 a2 b3"

static void test_one_fork_loss_is_enough(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    remember(new_db(path, sizeof path), O_WINS_AFTER_C1, 2);
    ttt_engine *e = learner(path, BACKUP);
    /* two wins, no loss: O pursues c1 (or its image a3 under the diagonal mirror) */
    assert_true(is_move(move_after(e, "a1 b2 c3", mt), "c1", "a3"));
    /* the engine learns the fork loss */
    ttt_rules r = rules_of("3x3");
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    ttt_error err = {{0}};
    assert_int_equal(ttt_moves_parse(FORK_LOSS, &r, moves, TTT_MAX_CELLS, &n, &err), TTT_OK);
    assert_int_equal(ttt_engine_game_over(e, moves, n, TTT_X_WINS, &err), TTT_OK);
    /* c1 still won twice as often as it lost, but the loss was forced: c1 is never played again */
    for (int i = 0; i < 20; i++)
        assert_false(is_move(move_after(e, "a1 b2 c3", mt), "c1", "a3"));
    ttt_engine_free(e);
    /* the value is rebuilt from the stored games when the memory is loaded again */
    e = learner(path, BACKUP);
    for (int i = 0; i < 20; i++)
        assert_false(is_move(move_after(e, "a1 b2 c3", mt), "c1", "a3"));
    ttt_engine_free(e);
    /* without backup, the document's counts (2 wins > 1 loss) keep the losing move */
    e = learner(path, FAITHFUL);
    assert_true(is_move(move_after(e, "a1 b2 c3", mt), "c1", "a3"));
    ttt_engine_free(e);
}

static void test_forced_loss_goes_back_through_forced_moves(void **state)
{
    (void)state;
    char path[300], mt[TTT_MOVE_TEXT_SIZE];
    /* X a1, O b1 (an edge next to X's corner), X a3 threatens a2, O's block is forced, X b2 makes two
     * threats: the loss goes back through the forced block to O's b1, and (the images of) b1 are avoided */
    remember(new_db(path, sizeof path), "a1 b1 a3 a2 b2 c1 c3", 1);
    remember(path, "a1 b1 a2 b2 c3 a3 c1 c2 b3", 3); /* b1 also drew three times */
    ttt_engine *e = learner(path, BACKUP);
    for (int i = 0; i < 20; i++)
        assert_false(is_move(move_after(e, "a1", mt), "b1", "a2"));
    ttt_engine_free(e);
    e = learner(path, FAITHFUL); /* the document pursues the draws (3 > 1) */
    assert_true(is_move(move_after(e, "a1", mt), "b1", "a2"));
    ttt_engine_free(e);
}

/* Plays games of the learner against a real engine; returns the learner's losses. */
static int play(ttt_engine *l, const char *opponent_spec, ttt_player side, int games)
{
    ttt_rules r = rules_of("3x3");
    ttt_engine *o;
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_new(opponent_spec, &r, &o, &err), TTT_OK);
    int losses = 0;
    for (int g = 0; g < games; g++) {
        ttt_board b;
        ttt_board_init(&b, &r);
        ttt_move moves[TTT_MAX_CELLS];
        int n = 0;
        ttt_engine_new_game(l);
        while (!ttt_board_terminal(&b)) {
            ttt_engine *e = ttt_board_to_move(&b) == side ? l : o;
            assert_int_equal(ttt_engine_choose(e, &b, &moves[n], NULL, &err), TTT_OK);
            ttt_board_play(&b, moves[n++]);
        }
        assert_int_equal(ttt_engine_game_over(l, moves, n, ttt_board_outcome(&b), &err), TTT_OK);
        losses += ttt_board_winner(&b) == (ttt_player)(1 - side);
    }
    ttt_engine_free(o);
    return losses;
}

static void test_learns_not_to_lose_to_minimax(void **state)
{
    (void)state;
    for (ttt_player side = TTT_X; side <= TTT_O; side++) {
        char path[300];
        new_db(path, sizeof path);
        ttt_engine *l = learner(path, "seed=1");
        play(l, "minimax:seed=2", side, 20);
        ttt_engine_free(l);
        l = learner(path, "seed=3,learn=0");
        assert_int_equal(play(l, "minimax:seed=4", side, 200), 0);
        ttt_engine_free(l);
    }
}

/* Learning alone (threats=0) as O: it loses in its first `early` games, then not in `check` games without
 * learning after `total` games of training. The opponent specs take seeds 1 to 3. */
static void learns_alone(const char *opponent, int early, int total, int check)
{
    char path[300], spec[3][100];
    for (int i = 0; i < 3; i++)
        snprintf(spec[i], sizeof spec[i], "%s:seed=%d", opponent, i + 1);
    new_db(path, sizeof path);
    ttt_engine *l = learner(path, "threats=0,seed=1");
    assert_true(play(l, spec[0], TTT_O, early) > 0);
    play(l, spec[1], TTT_O, total - early);
    ttt_engine_free(l);
    l = learner(path, "threats=0,seed=2,learn=0");
    assert_int_equal(play(l, spec[2], TTT_O, check), 0);
    ttt_engine_free(l);
}

static void test_learning_alone_stops_losing(void **state)
{
    (void)state;
    learns_alone("minimax", 20, 300, 300);
    learns_alone("random", 200, 2000, 2000);
}

static void test_same_seed_same_games(void **state)
{
    (void)state;
    char a[300], b[300], mt[TTT_MOVE_TEXT_SIZE], mt2[TTT_MOVE_TEXT_SIZE];
    remember(new_db(a, sizeof a), DRAW_CENTRE, 1);
    remember(new_db(b, sizeof b), DRAW_CENTRE, 1);
    ttt_engine *e1 = learner(a, "seed=5"), *e2 = learner(b, "seed=5");
    play(e1, "random:seed=6", TTT_X, 30);
    play(e2, "random:seed=6", TTT_X, 30);
    const char *moves[] = {"", "b2 a1", "a1", "c2 b2 a1"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(move_after(e1, moves[i], mt), move_after(e2, moves[i], mt2));
    assert_int_equal(ttt_engine_nodes(e1), ttt_engine_nodes(e2));
    ttt_engine_free(e1);
    ttt_engine_free(e2);
}

static void test_bad_memory_is_an_error(void **state)
{
    (void)state;
    char path[300], spec[400];
    snprintf(path, sizeof path, "%s/notes.txt", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("my notes\n", f);
    fclose(f);
    snprintf(spec, sizeof spec, "learner:memory=%s", path);
    ttt_rules r = rules_of("3x3");
    ttt_engine *e = NULL;
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_new(spec, &r, &e, &err), TTT_EINVAL);
    assert_null(e);
    assert_non_null(strstr(err.msg, "engine 'learner': database '"));
    assert_non_null(strstr(err.msg, "not an SQLite database"));
    /* a stored sequence that is not canonical is refused when loading */
    new_db(path, sizeof path);
    ttt_store *s;
    assert_int_equal(ttt_store_open(path, &s, &err), TTT_OK);
    assert_int_equal(ttt_store_learn(s, "3x3", "c3 b3 c2 b2 c1", "x", 1, &err),
                     TTT_EINVAL); /* never written */
    ttt_store_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "INSERT INTO learner_sequences VALUES ('3x3', 'c3 b3 c2 b2 c1', 'x', 1)",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    snprintf(spec, sizeof spec, "learner:memory=%s", path);
    assert_int_equal(ttt_engine_new(spec, &r, &e, &err), TTT_EIO);
    assert_non_null(strstr(err.msg, "row rules='3x3' moves='c3 b3 c2 b2 c1': bad moves"));
    assert_non_null(strstr(err.msg, "not in canonical form"));
}

static void test_bigger_boards(void **state)
{
    (void)state;
    char path[300], spec[400];
    new_db(path, sizeof path);
    snprintf(spec, sizeof spec, "learner:memory=%s,seed=1", path);
    const char *rules[] = {"4x4k3", "5x4k4", "7x7k5-misere"};
    for (int i = 0; i < 3; i++) {
        ttt_rules r = rules_of(rules[i]);
        ttt_engine *l, *o;
        ttt_error err = {{0}};
        assert_int_equal(ttt_engine_new(spec, &r, &l, &err), TTT_OK);
        assert_int_equal(ttt_engine_new("random:seed=2", &r, &o, &err), TTT_OK);
        for (int g = 0; g < 3; g++) {
            ttt_board b;
            ttt_board_init(&b, &r);
            ttt_move moves[TTT_MAX_CELLS];
            int n = 0;
            while (!ttt_board_terminal(&b)) {
                assert_int_equal(ttt_engine_choose(b.ply % 2 == g % 2 ? l : o, &b, &moves[n], NULL, &err),
                                 TTT_OK);
                ttt_board_play(&b, moves[n++]);
            }
            assert_int_equal(ttt_engine_game_over(l, moves, n, ttt_board_outcome(&b), &err), TTT_OK);
        }
        ttt_engine_free(l);
        ttt_engine_free(o);
    }
}

/* A 16x16 k=5 position of 70 stones, no four anywhere, where the threat check looks at thousands of
 * positions (tests/cli: gen2.py seed 3). */
static const char *const threat_heavy =
    "................/................/...xxx...ooxox../......oo.o..o.../..o.xx..oo.xoo../....ooxx......../"
    "...ox...o....x../..x.....xxxo.o../..x.oo.x.oo..o../..x.x.x...xxo.../..o.oo.x..oxxo../...o.x.x......../"
    "..ox.x..o..x..../...x..x.xooo.x../................/................";

/* nodes= bounds the work of a decision, threat check included: the budget's engine stops at it and still
 * plays a legal move, where the unbounded one looks at more. (time= stops the same check by the clock.) */
static void test_budget_bounds_the_threat_check(void **state)
{
    (void)state;
    ttt_rules r = rules_of("16x16k5");
    ttt_board b = board_of(&r, threat_heavy);
    char db[512], spec[700];
    new_db(db, sizeof db);
    enum { BUDGET = 500 };
    uint64_t nodes[2];
    for (int bounded = 0; bounded < 2; bounded++) {
        snprintf(spec, sizeof spec, "learner:memory=%s,learn=0,nodes=%d", db,
                 bounded ? BUDGET : 100 * BUDGET);
        ttt_engine *e = engine_ok(spec, &r);
        ttt_move m;
        ttt_search_info info;
        ttt_error err = {{0}};
        assert_int_equal(ttt_engine_choose(e, &b, &m, &info, &err), TTT_OK);
        assert_true(ttt_board_is_legal(&b, m));
        nodes[bounded] = info.nodes;
        ttt_engine_free(e);
    }
    assert_true(nodes[1] <= BUDGET);
    assert_true(nodes[0] > BUDGET);
}

/* With no nodes= or time= the threat check still stops: the default spec has a nodes= budget that a decision
 * on a big board keeps to (a bigger one looks at more), and nodes=0 with no time= is refused there, where a
 * move might never come; on 3x3 it is allowed. */
static void test_default_budget_bounds_the_threat_check(void **state)
{
    (void)state;
    ttt_rules r = rules_of("16x16k5");
    ttt_board b = board_of(&r, "h8 h9 i9 g7"); /* 63,253 nodes with no limit */
    char db[512], spec[700], full[TTT_SPEC_TEXT_SIZE];
    new_db(db, sizeof db);
    snprintf(spec, sizeof spec, "learner:memory=%s,learn=0", db);
    ttt_engine *e = engine_ok(spec, &r);
    const char *at = strstr(ttt_engine_spec(e, full, sizeof full), ",nodes=");
    assert_non_null(at);
    unsigned long long budget = strtoull(at + strlen(",nodes="), NULL, 10);
    assert_true(budget > 0);
    ttt_move m;
    ttt_search_info info;
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_choose(e, &b, &m, &info, &err), TTT_OK);
    assert_true(ttt_board_is_legal(&b, m));
    assert_true(info.nodes <= budget);
    ttt_engine_free(e);
    snprintf(spec, sizeof spec, "learner:memory=%s,learn=0,nodes=%llu", db, 2 * budget);
    e = engine_ok(spec, &r);
    assert_int_equal(ttt_engine_choose(e, &b, &m, &info, &err), TTT_OK);
    assert_true(info.nodes > budget);
    ttt_engine_free(e);
    snprintf(spec, sizeof spec, "learner:memory=%s,learn=0,nodes=0", db);
    e = NULL;
    assert_int_equal(ttt_engine_new(spec, &r, &e, &err), TTT_EINVAL);
    assert_null(e);
    assert_non_null(strstr(err.msg, "time=0 with no nodes= limit"));
    ttt_rules small = rules_of("3x3");
    ttt_engine_free(engine_ok(spec, &small));
}

/* Two learners with one memory (the same file, spelled two ways) told of a game together record it once
 * there, and each learns it into its own view; a third with another memory records it in its own; an engine
 * listed twice is told once. */
static void test_shared_memory_learns_each_game_once(void **state)
{
    (void)state;
    char path[300], same[320], other[300], mt[TTT_MOVE_TEXT_SIZE];
    new_db(path, sizeof path);
    new_db(other, sizeof other);
    const char *slash = strrchr(path, '/');
    snprintf(same, sizeof same, "%.*s/.%s", (int)(slash - path), path, slash);
    ttt_engine *a = learner(path, FAITHFUL), *b = learner(same, FAITHFUL), *c = learner(other, FAITHFUL);
    ttt_rules r = rules_of("3x3");
    ttt_error err = {{0}};
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    assert_int_equal(ttt_moves_parse(X_WINS_COLUMN, &r, moves, TTT_MAX_CELLS, &n, &err), TTT_OK);
    ttt_engine *players[] = {a, b, NULL, c, a};
    assert_int_equal(ttt_engines_game_over(players, 5, moves, n, TTT_X_WINS, &err), TTT_OK);
    assert_string_equal(move_after(a, "a1 b1", mt), "a2");
    assert_string_equal(move_after(b, "a1 b1", mt), "a2");
    ttt_engine_free(a);
    ttt_engine_free(b);
    ttt_engine_free(c);
    const char *dbs[] = {path, other};
    for (int i = 0; i < 2; i++) {
        ttt_store *s;
        assert_int_equal(ttt_store_open(dbs[i], &s, &err), TTT_OK);
        int64_t tally = 0;
        assert_int_equal(ttt_store_sequences(s, "3x3", count_rows, &tally, &err), TTT_OK);
        assert_int_equal(tally, 1 * 1000 + 1); /* one row, one game */
        ttt_store_close(s);
    }
}

/* Given no memory= and no_files, the learner plays from an empty memory of its own and learns into it only:
 * no database is opened (none appears in the data directory). */
static void test_no_files_opens_no_database(void **state)
{
    (void)state;
    char data[400];
    snprintf(data, sizeof data, "%s/data", tmpdir);
    setenv("XDG_DATA_HOME", data, 1);
    ttt_rules r = rules_of("3x3");
    ttt_engine_env env = {.no_files = true};
    ttt_engine *e;
    ttt_error err = {{0}};
    assert_int_equal(ttt_engine_new_in("learner", &r, &env, &e, &err), TTT_OK);
    ttt_board b = board_of(&r, "a1 b2 a2 a3 c1 b1 b3 c2 c3");
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    assert_int_equal(ttt_moves_parse("a1 b2 a2 a3 c1 b1 b3 c2 c3", &r, moves, TTT_MAX_CELLS, &n, &err),
                     TTT_OK);
    assert_int_equal(ttt_engine_game_over(e, moves, n, ttt_board_outcome(&b), &err), TTT_OK);
    ttt_board start;
    ttt_board_init(&start, &r);
    ttt_move m;
    assert_int_equal(ttt_engine_choose(e, &start, &m, NULL, &err), TTT_OK);
    ttt_engine_free(e);
    struct stat sb;
    assert_int_not_equal(stat(data, &sb), 0);
    unsetenv("XDG_DATA_HOME");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_game_and_its_image_are_stored_once),
        cmocka_unit_test(test_matching_under_symmetry),
        cmocka_unit_test(test_win_before_block_before_memory),
        cmocka_unit_test(test_pursue_win_before_draw),
        cmocka_unit_test(test_win_passed_over_when_losses_outnumber),
        cmocka_unit_test(test_pursue_draw_then_avoid_loss),
        cmocka_unit_test(test_one_fork_loss_is_enough),
        cmocka_unit_test(test_forced_loss_goes_back_through_forced_moves),
        cmocka_unit_test(test_learns_not_to_lose_to_minimax),
        cmocka_unit_test(test_learning_alone_stops_losing),
        cmocka_unit_test(test_same_seed_same_games),
        cmocka_unit_test(test_bad_memory_is_an_error),
        cmocka_unit_test(test_bigger_boards),
        cmocka_unit_test(test_budget_bounds_the_threat_check),
        cmocka_unit_test(test_default_budget_bounds_the_threat_check),
        cmocka_unit_test(test_shared_memory_learns_each_game_once),
        cmocka_unit_test(test_no_files_opens_no_database),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
