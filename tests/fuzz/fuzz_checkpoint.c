/*
 * fuzz_checkpoint - the solver's checkpoints (ttt/solve.h: ttt_solver_load), the file `ttt solve --resume FILE`
 * reads, which a user may have been handed.
 *
 * Input: the bytes of a checkpoint. The harness makes the solver for the rules and position the file names (a
 * board of at most FUZZ_CKPT_MAX_CELLS cells, else 3x3 and the empty board), and sets the checksum at the end
 * before loading, so that the mutations reach the parser behind it (tests/cli/solve_resume.sh checks that a
 * changed byte is refused).
 * Invariants: a refused file says why, in one line; a file that loads gives a search that runs (bounded by
 * nodes) and a checkpoint of its own that loads back, with the same first moves settled and prover answers.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */
#include "fuzz.h"

/* The header before the rules: the magic (8 bytes) and the version (4). */
#define HEAD_BYTES 12
/* Boards searched: below the draw prover's 36 cells, whose table of at least 64 MiB would take 0.1 s to make
 * for each input (1.3 s with the search); its part of the file is read all the same, and passed over. */
#define FUZZ_CKPT_MAX_CELLS 35
/* The solver's table (MiB): the least (the seeds were made by `ttt solve --tt 1 --nodes 300`). */
#define FUZZ_CKPT_TT_MIB 1
/* The search after a load: enough nodes to take the root's moves in the order and values loaded. */
#define FUZZ_CKPT_NODES 300

/* The text of `size` bytes after a u16 length at *at, copied into buf (NUL-terminated); false when it is not
 * there whole or does not fit. */
static bool peek_text(const uint8_t *data, size_t size, size_t *at, char *buf, size_t cap)
{
    if (size - *at < 2)
        return false;
    size_t n = data[*at] | (size_t)data[*at + 1] << 8;
    *at += 2;
    if (n >= cap || size - *at < n)
        return false;
    memcpy(buf, data + *at, n);
    buf[n] = '\0';
    *at += n;
    return true;
}

/* The rules and position the file names, when they parse to an ongoing game on a small board; else 3x3 and
 * its empty board. */
static void peek_root(const uint8_t *data, size_t size, ttt_rules *rules, ttt_board *b)
{
    char text[TTT_POSITION_TEXT_SIZE];
    size_t at = HEAD_BYTES;
    *rules = ttt_rules_default();
    ttt_board_init(b, rules);
    ttt_rules r;
    if (size < HEAD_BYTES || !peek_text(data, size, &at, text, sizeof text) ||
        ttt_rules_parse(text, &r, NULL) != TTT_OK || r.rows * r.cols > FUZZ_CKPT_MAX_CELLS)
        return;
    *rules = r;
    ttt_board_init(b, rules);
    ttt_board p;
    if (peek_text(data, size, &at, text, sizeof text) &&
        ttt_position_parse(text, rules, &p, NULL) == TTT_OK && ttt_board_outcome(&p) == TTT_ONGOING)
        *b = p;
}

/* Loads len bytes into s for b; TTT_OK or the refusal, whose message is checked. */
static ttt_status load(ttt_solver *s, const ttt_board *b, void *bytes, size_t len, ttt_checkpoint_info *info)
{
    FILE *in = fmemopen(bytes, len, "rb");
    FUZZ_CHECK(in != NULL);
    ttt_error err = {{0}};
    ttt_status st = ttt_solver_load(s, b, in, info, &err);
    fclose(in);
    if (st != TTT_OK) {
        FUZZ_CHECK(st == TTT_EINVAL);
        fuzz_check_message(&err);
    }
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy_with_sum(data, size);
    ttt_rules rules;
    ttt_board b;
    peek_root(copy, size, &rules, &b);
    ttt_solver *s = NULL;
    FUZZ_CHECK(ttt_solver_new(&rules, FUZZ_CKPT_TT_MIB, &s, NULL) == TTT_OK);
    ttt_checkpoint_info info;
    if (load(s, &b, copy, size, &info) != TTT_OK) {
        free(copy);
        ttt_solver_free(s);
        return 0;
    }
    free(copy);
    FUZZ_CHECK(info.settled >= 0 && info.settled <= rules.rows * rules.cols && info.proofs >= 0);
    /* Saved before any search, it holds what was loaded; it loads back to the same. */
    char *saved = NULL;
    size_t saved_len = 0;
    FILE *out = open_memstream(&saved, &saved_len);
    FUZZ_CHECK(out != NULL);
    ttt_checkpoint_info written;
    FUZZ_CHECK(ttt_solver_save(s, out, &written, NULL) == TTT_OK);
    fclose(out);
    FUZZ_CHECK(written.settled == info.settled && written.proofs == info.proofs);
    ttt_solver *back = NULL;
    FUZZ_CHECK(ttt_solver_new(&rules, FUZZ_CKPT_TT_MIB, &back, NULL) == TTT_OK);
    ttt_checkpoint_info again;
    FUZZ_CHECK(load(back, &b, saved, saved_len, &again) == TTT_OK);
    FUZZ_CHECK(again.settled == info.settled && again.proofs == info.proofs);
    free(saved);
    ttt_solver_free(back);
    /* The search takes what was loaded: the root's order, its settled moves, the prover's answers. */
    ttt_search_result res;
    ttt_limits limits = {.nodes = FUZZ_CKPT_NODES};
    FUZZ_CHECK(ttt_solver_search(s, &b, &limits, true, &res, NULL) == TTT_OK);
    FUZZ_CHECK(res.count == rules.rows * rules.cols - b.ply);
    for (int i = 0; i < res.count; i++)
        FUZZ_CHECK(ttt_board_is_legal(&b, res.moves[i].move));
    ttt_solver_free(s);
    return 0;
}
