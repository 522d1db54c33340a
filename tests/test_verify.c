/* tests/test_verify.c - certificates: written for every small rules set and checked; the checker against a
 * brute force of its own; tampered certificates (bit flips, dropped moves, broken pairs, swapped leaves,
 * false values) rejected. */
#define _GNU_SOURCE /* open_memstream, fmemopen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt/ttt.h"

#define TT_MIB         16
#define BRUTE_CELLS    12 /* the brute force's largest board: 3^12 positions */
#define MAX_NODES      (1 << 20)
#define FLIP_MAX_SIZE  1024        /* every bit of certificates up to this size is flipped */
#define START_OFFSET   16          /* the header's start position */
#define K_OFFSET       10          /* the header's k */
#define TAMPER_NODES   300         /* nodes of a certificate damaged, spread over it */
#define TAMPER_SIZE    (32 * 1024) /* certificates up to this size are damaged node by node */
#define COUNTING_NODES 100 /* nodes of a misère certificate damaged as counting leaves, spread over it */

typedef struct cert {
    unsigned char *data;
    size_t size;
    ttt_result value;
} cert;

/* The certificate of the empty board of `rules_text`, with the solver's value. */
static cert make_cert(const char *rules_text)
{
    ttt_rules rules;
    ttt_error err;
    assert_int_equal(ttt_rules_parse(rules_text, &rules, &err), TTT_OK);
    ttt_board b;
    ttt_board_init(&b, &rules);
    ttt_solver *s;
    assert_int_equal(ttt_solver_new(&rules, TT_MIB, &s, &err), TTT_OK);
    cert c = {0};
    assert_int_equal(ttt_solver_value(s, &b, &c.value, NULL, NULL, &err), TTT_OK);
    char *data = NULL;
    FILE *f = open_memstream(&data, &c.size);
    assert_non_null(f);
    ttt_certificate_stats st;
    assert_int_equal(ttt_certificate_write(s, &b, c.value, f, &st, &err), TTT_OK);
    fclose(f);
    assert_int_equal(st.bytes, c.size);
    c.data = (unsigned char *)data;
    ttt_solver_free(s);
    return c;
}

static ttt_status check(const unsigned char *data, size_t size, ttt_verify_report *r, ttt_error *err)
{
    FILE *f = fmemopen(NULL, size ? size : 1, "w+b");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    rewind(f);
    assert_non_null(f);
    ttt_status st = ttt_verify_certificate(f, r, err);
    fclose(f);
    return st;
}

/* --- The brute force: its own lines, every position once ------------------------------------------------ */

typedef struct brute {
    int rows, cols, k, cells;
    bool misere;
    int8_t *memo; /* base-3 index of the position -> value + 2 (0: not known) */
} brute;

static bool brute_line(const brute *g, const int *cell, int side, int at)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int r = at / g->cols, c = at % g->cols;
    for (int d = 0; d < 4; d++) {
        int run = 1;
        for (int sign = -1; sign <= 1; sign += 2)
            for (int i = 1;; i++) {
                int rr = r + sign * i * dirs[d][0], cc = c + sign * i * dirs[d][1];
                if (rr < 0 || rr >= g->rows || cc < 0 || cc >= g->cols || cell[rr * g->cols + cc] != side)
                    break;
                run++;
            }
        if (run >= g->k)
            return true;
    }
    return false;
}

/* The value for the side to move (+1, 0, -1). */
static int brute_value(brute *g, int *cell, int ply, int index)
{
    if (ply == g->cells)
        return 0;
    if (g->memo[index])
        return g->memo[index] - 2;
    int side = ply & 1, best = -2, power = 1;
    for (int at = 0; at < g->cells; at++, power *= 3) {
        if (cell[at])
            continue;
        cell[at] = side + 1;
        int v = brute_line(g, cell, side + 1, at)
                    ? (g->misere ? -1 : 1)
                    : -brute_value(g, cell, ply + 1, index + power * (side + 1));
        cell[at] = 0;
        if (v > best)
            best = v;
    }
    g->memo[index] = (int8_t)(best + 2);
    return best;
}

static ttt_result brute_result(const ttt_rules *rules)
{
    brute g = {rules->rows, rules->cols, rules->k, rules->rows * rules->cols, rules->misere, NULL};
    size_t n = 1;
    for (int i = 0; i < g.cells; i++)
        n *= 3;
    g.memo = calloc(n, 1);
    assert_non_null(g.memo);
    int cell[BRUTE_CELLS] = {0};
    int v = brute_value(&g, cell, 0, 0);
    free(g.memo);
    return (ttt_result)v;
}

/* --- The rules sets ------------------------------------------------------------------------------------- */

/* Every 3x3, 4x4 and 4x5 rules set (normal and misère, k from 3 to the side), and 3x4 for the brute force
 * (4x5k4-misere and 4x5k5-misere took 1.5M and 8.4M nodes before the counting leaves, 67,231 and 2 now). */
static const char *const every_rules[] = {
    "3x3",   "3x3-misere",   "3x4k3", "3x4k3-misere", "4x4k3", "4x4k3-misere", "4x4",          "4x4-misere",
    "4x5k3", "4x5k3-misere", "4x5k4", "4x5k5",        "5x4k3", "5x4k4",        "4x5k4-misere", "4x5k5-misere",
};
#define NRULES ((int)(sizeof every_rules / sizeof every_rules[0]))

static void test_every_small_rules_set_verifies(void **state)
{
    (void)state;
    for (int i = 0; i < NRULES; i++) {
        cert c = make_cert(every_rules[i]);
        ttt_verify_report r;
        ttt_error err;
        ttt_status st = check(c.data, c.size, &r, &err);
        if (st)
            fail_msg("%s: %s", every_rules[i], err.msg);
        assert_int_equal(r.value, c.value);
        assert_int_equal(r.bytes, c.size);
        assert_true(r.nodes > 0);
        if (r.rules.rows * r.rules.cols <= BRUTE_CELLS)
            assert_int_equal(r.value, brute_result(&r.rules));
        free(c.data);
    }
}

/* --- Tampering ------------------------------------------------------------------------------------------ */

typedef struct node_at {
    size_t at; /* offset of the tag */
    int tag;
    size_t end; /* offset after the subtree */
} node_at;

/* The header's size: the start's stones take (cells + 7) / 8 bytes each. */
static size_t header_size(const cert *c) { return TTT_CERT_HEADER(c->data[8] * c->data[9]); }

typedef struct walk {
    const unsigned char *d;
    size_t at;
    node_at *nodes;
    int n;
    int prover; /* of the half under way */
} walk;

/* The opponent's moves up to the position's own symmetries: the least cell of each orbit, increasing (the
 * library's symmetries, not the checker's). */
static int orbits(const ttt_board *b, int *out)
{
    int n = 0, stab[8], nstab = 0;
    for (int s = 1; s < ttt_sym_count(&b->rules); s++) {
        ttt_bits x = ttt_sym_bits(&b->rules, (ttt_sym)s, &b->stones[TTT_X]);
        ttt_bits o = ttt_sym_bits(&b->rules, (ttt_sym)s, &b->stones[TTT_O]);
        if (ttt_bits_equal(&x, &b->stones[TTT_X]) && ttt_bits_equal(&o, &b->stones[TTT_O]))
            stab[nstab++] = s;
    }
    for (int cell = 0; cell < b->cells; cell++) {
        bool least = ttt_board_at(b, cell) == TTT_NOBODY;
        for (int i = 0; i < nstab && least; i++)
            least = ttt_sym_move(&b->rules, (ttt_sym)stab[i], cell) >= cell;
        if (least)
            out[n++] = cell;
    }
    return n;
}

/* A WIN leaf (no bytes): normal rules, the prover to move, a cell that completes its line. */
static bool win_leaf(const walk *w, const ttt_board *b)
{
    if (b->rules.misere || (int)ttt_board_to_move(b) != w->prover)
        return false;
    for (int cell = 0; cell < b->cells; cell++)
        if (ttt_board_at(b, cell) == TTT_NOBODY && ttt_board_makes_line(b, ttt_board_to_move(b), cell))
            return true;
    return false;
}

/* Records the nodes of the stream (their tags and subtrees), trusting it (the certificates are good); boards
 * of fewer than TTT_CERT_WIDE_CELLS cells. */
static void walk_node(walk *w, const ttt_board *b)
{
    if (!ttt_board_terminal(b) && win_leaf(w, b))
        return;
    int me = w->n++;
    assert_true(me < MAX_NODES);
    w->nodes[me] = (node_at){w->at, w->d[w->at], 0};
    int tag = w->d[w->at++];
    if (tag == TTT_CERT_PAIRING || tag == TTT_CERT_AVOID || tag == TTT_CERT_DOOMED)
        w->at += 1 + 2 * (size_t)w->d[w->at];
    else if (tag == TTT_CERT_MIRROR)
        w->at++;
    else if (tag == TTT_CERT_MOVE) {
        ttt_board child = *b;
        ttt_board_play(&child, w->d[w->at++]);
        walk_node(w, &child);
    } else if (tag == TTT_CERT_ALL) {
        int n = w->d[w->at++], cells[TTT_MAX_CELLS];
        assert_int_equal(orbits(b, cells), n);
        for (int i = 0; i < n; i++) {
            ttt_board child = *b;
            ttt_board_play(&child, cells[i]);
            walk_node(w, &child);
        }
    }
    w->nodes[me].end = w->at;
}

static int walk_cert(const cert *c, node_at *nodes)
{
    walk w = {c->data, header_size(c), nodes, 0, 0};
    ttt_rules rules = {.rows = c->data[8], .cols = c->data[9], .k = c->data[10], .misere = c->data[11]};
    ttt_board b;
    ttt_board_init(&b, &rules);
    int halves = c->data[13];
    for (int i = 0; i < halves; i++) {
        w.prover = c->data[w.at++] & 1;
        walk_node(&w, &b);
    }
    assert_int_equal(w.at + 16, c->size);
    return w.n;
}

static bool rejected(const unsigned char *d, size_t size)
{
    ttt_verify_report r;
    ttt_error err;
    return check(d, size, &r, &err) == TTT_EINVAL && strlen(err.msg) > 0;
}

/* Every kind of damage the structure allows, at every node that has it: each must be rejected. */
static void tamper_nodes(const cert *c)
{
    node_at *nodes = malloc(sizeof *nodes * MAX_NODES);
    unsigned char *t = malloc(c->size);
    assert_non_null(nodes);
    assert_non_null(t);
    int n = walk_cert(c, nodes), tried = 0, step = n / TAMPER_NODES + 1;
    for (int i = 0; i < n; i++) {
        const node_at *nd = &nodes[i];
        if (i % step && nd->tag != TTT_CERT_MIRROR) /* a sample, and every mirror leaf (they are few) */
            continue;
        memcpy(t, c->data, c->size);
        if (nd->tag == TTT_CERT_ALL && c->data[nd->at + 1] > 0 && i + 1 < n && nodes[i + 1].at < nd->end) {
            /* An opponent move dropped: the count one less, the last child written (WIN leaves are not) cut
             * out. */
            const node_at *last = &nodes[i + 1];
            for (int j = i + 1; j < n && nodes[j].at < nd->end; j++)
                if (nodes[j].end == nd->end && nodes[j].at > last->at)
                    last = &nodes[j];
            size_t cut = last->end - last->at;
            t[nd->at + 1]--;
            memmove(t + last->at, t + last->end, c->size - last->end);
            assert_true(rejected(t, c->size - cut));
            memcpy(t, c->data, c->size);
            t[nd->at + 1]--; /* the count alone */
            assert_true(rejected(t, c->size));
            tried++;
        } else if (nd->tag == TTT_CERT_PAIRING && c->data[nd->at + 1] > 0) {
            t[nd->at + 3] = t[nd->at + 2]; /* a pair broken: one cell twice */
            assert_true(rejected(t, c->size));
            memcpy(t, c->data, c->size);
            t[nd->at] = TTT_CERT_END; /* the leaf claims the game is over */
            assert_true(rejected(t, c->size));
            tried++;
        } else if (nd->tag == TTT_CERT_MIRROR) {
            t[nd->at + 1] ^= 1; /* another symmetry: a reflection, which fixes a whole line of cells */
            assert_true(rejected(t, c->size));
            memcpy(t, c->data, c->size);
            t[nd->at] = TTT_CERT_PAIRING; /* a misère leaf claimed as a pairing */
            assert_true(rejected(t, c->size));
            tried++;
        } else if (nd->tag == TTT_CERT_AVOID || nd->tag == TTT_CERT_DOOMED) {
            t[nd->at] = TTT_CERT_END; /* a counting leaf claimed as the game's end (tamper_counting: more) */
            assert_true(rejected(t, c->size));
            tried++;
        } else if (nd->tag == TTT_CERT_END) {
            t[nd->at] = TTT_CERT_SEEN; /* a finished game claimed as a transposition */
            assert_true(rejected(t, c->size));
            tried++;
        } else if (nd->tag == TTT_CERT_MOVE) {
            t[nd->at] = TTT_CERT_ALL; /* the prover's node claimed as the opponent's */
            assert_true(rejected(t, c->size));
            tried++;
        }
    }
    assert_true(tried > 0);
    free(nodes);
    free(t);
}

static uint64_t get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void set_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The certificate with the bytes [from, to) replaced by `with` (n bytes): in t, returning its size. */
static size_t splice(const cert *c, unsigned char *t, size_t from, size_t to, const unsigned char *with,
                     size_t n)
{
    memcpy(t, c->data, from);
    memcpy(t + from, with, n);
    memcpy(t + from + n, c->data + to, c->size - to);
    return c->size - (to - from) + n;
}

/* Misère: the counting leaves (AVOID, DOOMED) damaged and claimed where they do not hold: an inner node of the
 * proof claimed as a counting leaf without pairs (its subtree cut out; the writer puts one wherever its
 * counting holds, so none does there), a leaf's pair broken, a leaf claimed as the game's end or a pairing,
 * and a DOOMED leaf of a win claimed as AVOID (which proves only "does not lose"). Each must be rejected; and
 * some of a draw's AVOID leaves claimed as DOOMED. */
static void tamper_counting(const cert *c)
{
    node_at *nodes = malloc(sizeof *nodes * MAX_NODES);
    unsigned char *t = malloc(c->size + 2);
    assert_non_null(nodes);
    assert_non_null(t);
    int n = walk_cert(c, nodes), inner = 0, leaves = 0, avoid = 0, false_doomed = 0,
        step = n / COUNTING_NODES + 1;
    for (int i = 0; i < n; i++) {
        const node_at *nd = &nodes[i];
        int tag = nd->tag;
        bool counting = tag == TTT_CERT_AVOID || tag == TTT_CERT_DOOMED;
        if (i % step && !(counting && leaves < COUNTING_NODES / 10)) /* a sample, and the first leaves */
            continue;
        if (tag == TTT_CERT_MOVE || tag == TTT_CERT_ALL) {
            int cut = 0; /* the subtree's nodes, the trailer's count of them made right */
            for (int j = i; j < n && nodes[j].at < nd->end; j++)
                cut++;
            for (int claim = TTT_CERT_AVOID; claim <= TTT_CERT_DOOMED; claim++) {
                const unsigned char leaf[2] = {(unsigned char)claim, 0};
                size_t size = splice(c, t, nd->at, nd->end, leaf, sizeof leaf);
                set_le64(t + size - 8, get_le64(t + size - 8) - (uint64_t)(cut - 1));
                assert_true(rejected(t, size));
            }
            inner++;
        } else if (counting) {
            const int claims[] = {TTT_CERT_END, TTT_CERT_PAIRING, TTT_CERT_AVOID};
            for (int j = 0; j < 3; j++) {
                if (claims[j] == tag)
                    continue;
                memcpy(t, c->data, c->size);
                t[nd->at] = (unsigned char)claims[j];
                assert_true(rejected(t, c->size));
            }
            if (c->data[nd->at + 1] > 0) {
                memcpy(t, c->data, c->size);
                t[nd->at + 3] = t[nd->at + 2]; /* a pair broken: one cell twice */
                assert_true(rejected(t, c->size));
            }
            if (tag == TTT_CERT_AVOID) {
                /* Claimed as DOOMED: true where the prover wins from there, which a draw's strategy may
                 * reach, so only counted; a draw's every leaf cannot be one. */
                memcpy(t, c->data, c->size);
                t[nd->at] = TTT_CERT_DOOMED;
                false_doomed += rejected(t, c->size);
                avoid++;
            }
            leaves++;
        }
    }
    assert_true(leaves > 0 && (inner > 0 || n < COUNTING_NODES));
    assert_true(avoid == 0 || false_doomed > 0);
    free(nodes);
    free(t);
}

/* Every bit of the first `bytes` flipped: the checker rejects the file, or accepts it with the true value (a
 * flip may turn a move into another good one); the header's rules, value and halves never pass changed. */
static void flip_bits_of(const cert *c, size_t bytes)
{
    unsigned char *t = malloc(c->size);
    assert_non_null(t);
    int passed = 0;
    for (size_t byte = 0; byte < bytes; byte++)
        for (int b = 0; b < 8; b++) {
            memcpy(t, c->data, c->size);
            t[byte] ^= (unsigned char)(1u << b);
            ttt_verify_report r;
            ttt_error err;
            if (check(t, c->size, &r, &err) == TTT_OK) {
                assert_int_equal(r.value, c->value);
                /* The start's stones may change and the proof still hold (4x5k5: a pairing at the root
                 * proves the draw with one more X stone too), and so may a draw's k grow (12x12k8: pairs in
                 * every window of 8 are in every window of 9: the draw of 12x12k9 is proven too); the board,
                 * the value and the halves never. */
                bool longer_draw = byte == K_OFFSET && t[byte] > c->data[byte] && c->value == TTT_DRAW_VALUE;
                assert_true(byte >= START_OFFSET || longer_draw);
                passed++;
            }
        }
    assert_true(passed * 10 < (int)bytes * 8); /* nearly every flip breaks the proof */
    free(t);
}

static void flip_bits(const cert *c) { flip_bits_of(c, c->size); }

/* The header made to claim each other value (halves and half bytes consistent): never passes. */
static void claim_false_values(const cert *c)
{
    unsigned char *t = malloc(c->size);
    assert_non_null(t);
    for (int v = TTT_LOSS; v <= TTT_WIN; v++) {
        if (v == (int)c->value)
            continue;
        memcpy(t, c->data, c->size);
        t[12] = (unsigned char)(v + 1);
        t[13] = v == TTT_DRAW_VALUE ? 2 : 1;
        int to_move = 0; /* the empty board: X */
        int prover = v == TTT_DRAW_VALUE ? 0 : v == TTT_WIN ? to_move : to_move ^ 1;
        t[header_size(c)] = (unsigned char)(prover + 2 * (v != TTT_DRAW_VALUE));
        assert_true(rejected(t, c->size));
    }
    free(t);
}

static void test_tampered_certificates_are_rejected(void **state)
{
    (void)state;
    for (int i = 0; i < NRULES; i++) {
        cert c = make_cert(every_rules[i]);
        if (c.size <= TAMPER_SIZE)
            tamper_nodes(&c);
        if (c.data[11])
            tamper_counting(&c);
        claim_false_values(&c);
        if (c.size <= FLIP_MAX_SIZE)
            flip_bits(&c);
        free(c.data);
    }
}

/* Boards over 64 cells (the start's stones in more than 8 bytes; from 256 cells on, cells in two bytes):
 * wins, and draws by pairings and by the draw prover (11x6k6: its moves read through the prover's two-word
 * interface), written and checked; their headers and nodes tampered with. */
static const char *const big_rules[] = {"9x9k3", "5x13k3", "12x12k8", "16x16k3", "11x6k6"};

static void test_boards_over_64_cells(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof big_rules / sizeof big_rules[0]; i++) {
        cert c = make_cert(big_rules[i]);
        ttt_verify_report r;
        ttt_error err;
        if (check(c.data, c.size, &r, &err))
            fail_msg("%s: %s", big_rules[i], err.msg);
        assert_int_equal(r.value, c.value);
        assert_int_equal(r.rules.rows * r.rules.cols, c.data[8] * c.data[9]);
        assert_true(r.rules.rows * r.rules.cols > 64);
        claim_false_values(&c);
        flip_bits_of(&c, header_size(&c));
        if (r.rules.rows * r.rules.cols < TTT_CERT_WIDE_CELLS)
            tamper_nodes(&c);
        free(c.data);
    }
}

static void test_bad_files_get_one_line_errors(void **state)
{
    (void)state;
    cert c = make_cert("3x3");
    ttt_verify_report r;
    ttt_error err;
    assert_int_equal(check(c.data, 10, &r, &err), TTT_EINVAL); /* shorter than the header */
    assert_non_null(strstr(err.msg, "header"));
    assert_int_equal(check(c.data, c.size - 20, &r, &err), TTT_EINVAL); /* cut short */
    assert_null(strchr(err.msg, '\n'));
    unsigned char *t = malloc(c.size + 1);
    memcpy(t, c.data, c.size);
    t[c.size] = 0; /* a byte after the trailer */
    assert_int_equal(check(t, c.size + 1, &r, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "trailer"));
    t[0] = 'X';
    assert_int_equal(check(t, c.size, &r, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "not a ttt certificate"));
    free(t);
    free(c.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_small_rules_set_verifies),
        cmocka_unit_test(test_tampered_certificates_are_rejected),
        cmocka_unit_test(test_boards_over_64_cells),
        cmocka_unit_test(test_bad_files_get_one_line_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
