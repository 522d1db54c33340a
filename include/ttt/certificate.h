/*
 * ttt/certificate.h - proofs that anyone can check: a solved position written as a strategy, for `ttt verify`
 * (ttt/verify.h), whose checker shares nothing with the solver's search.
 *
 * A certificate proves the value of a position by one or two halves. A half is a strategy for one side, the
 * prover, that reaches a target whatever the other side (the opponent) does: "the prover wins" or "the
 * prover does not lose" (a draw or better). A win for X is one half (X wins), a win for O likewise, and a
 * draw two halves: X does not lose, then O does not lose. At the prover's nodes the strategy gives one move;
 * at the opponent's nodes it answers every legal move, up to the symmetries of the board that leave the
 * position as it is (the moves listed are the least cell of each orbit, in increasing order), down to
 * leaves a few lines of code check:
 *
 *     END      the game is over (a completed line or a full board) and its outcome meets the target
 *     WIN      normal rules, the prover to move: an empty cell completes a line of the prover's. Such a leaf
 *              is not written (no bytes, not counted as a node): the checker finds the cell itself. Most of
 *              a win's opponent moves end so, the ones that leave the prover's threat open (6x6k4: 3,278
 *              nodes, 6,279 bytes, where the prover plays its forks; 686,833 nodes in version 1, when each
 *              was a move and a finished game).
 *     PAIRING  normal rules, target "does not lose": disjoint pairs of empty cells, a pair inside every
 *              window that holds no stone of the prover. The prover answers each opponent move in a pair
 *              with its partner, so the opponent never completes a line.
 *     MIRROR   misère rules, target "does not lose", the opponent to move: a symmetry g of the board, its own
 *              inverse, fixed on at most one cell, which the prover holds; the prover's other stones are the
 *              images of the opponent's, and every window through the fixed cell holds two distinct cells c
 *              and g(c). Answering each move m with g(m), the prover never completes a line first.
 *     SEEN     the position, up to a symmetry of the board, was proven earlier in the same half (a
 *              transposition); every node checked before, leaves included, counts
 *     AVOID    misère rules, target "does not lose": the prover never has to complete a line, by counting
 *              (search/avoid.h: what the solver cuts by its counting bounds). L is the prover's moves left if
 *              the board fills; a danger is a window free of opponent stones that lacks at most L prover
 *              stones. Either the sum over the dangers of 2^-(stones lacking) is below 1/2 (Erdos-Selfridge,
 *              the avoider's side), or, with the leaf's pairs (disjoint pairs of empty cells) and F the empty
 *              cells of the dangers that hold no pair, none of them paired: R + P + ceil(N / 2) >= L with the
 *              prover to move (floor(N / 2) with the opponent to move), P the pairs, R the empty cells outside
 *              pairs and F that complete an opponent's line, N the other empty cells outside pairs and F. The
 *              prover answers a move into a pair with its partner, else takes a cell of N, of R, or of a pair.
 *              Misère 5x5k4: 3.9M nodes, 12.5M in version 2 without it. Its position is not among the
 *              positions proven (no SEEN leaf names it).
 *     DOOMED   misère rules, either target: AVOID holds, and fewer empty cells than the opponent's moves left
 *              complete no line of the opponent's; it runs out of them before the board fills, and loses.
 *
 * Layout, version 3 (bytes; a cell is row * cols + col, row 0 at the top; boards of up to TTT_CERT_MAX_CELLS
 * cells; integers are little-endian). S = (cells + 7) / 8, the bytes of a set of cells (bit c % 8 of byte
 * c / 8: cell c). A "cell" below (a cell or a count) is one byte on boards of fewer than TTT_CERT_WIDE_CELLS
 * cells, two bytes (little-endian) on larger ones:
 *
 *     header  0  8  "TTTCERT3"
 *             8  1  rows      9 1 cols      10 1 k      11 1 misère (0 or 1)
 *            12  1  value for the side to move at the start: 0 loss, 1 draw, 2 win
 *            13  1  halves (1 or 2)     14 2 zero
 *            16  S  X stones at the start          16 + S  S  O stones at the start
 *     half       1  prover (0 X, 1 O) + 2 * target (0 does not lose, 1 wins); then its root node
 *     node       1  tag, then:
 *                     0 END                  nothing
 *                     1 PAIRING  n (a cell), then n pairs of two cells
 *                     2 SEEN                 nothing
 *                     3 MOVE     the prover's cell, then the child's node
 *                     4 ALL      n (a cell): the orbits of the opponent's moves; then a child's node for
 *                                each, in increasing order of its least cell (a WIN leaf takes no bytes)
 *                     5 MIRROR   the symmetry (one byte): its number s, the map (r, c) -> (r', c') where
 *                                r' = rows-1-r when s & 2, c' = cols-1-c when s & 1, then (r', c') -> (c', r')
 *                                when s & 4 (square boards: s from 0 to 7; others 0 to 3)
 *                     6 AVOID    as PAIRING: n (a cell), then n pairs of two cells (n may be 0)
 *                     7 DOOMED   likewise
 *     trailer    8  "TTTEND\0\0", then 8: the nodes written (of every half; WIN leaves not counted)
 *
 * Versions 1 ("TTTCERT1": boards of at most 64 cells, the stones as two 8-byte words, no WIN leaves) and 2
 * ("TTTCERT2": no AVOID or DOOMED leaves) are no longer read: write them again with `ttt solve --certificate`.
 *
 * Nodes come in depth-first order, each before its children, so the file is written and read as a stream:
 * neither side holds the proof, only a set of the positions done (for SEEN).
 */
#ifndef TTT_CERTIFICATE_H
#define TTT_CERTIFICATE_H

#include <stdint.h>
#include <stdio.h>

#include "ttt/board.h"
#include "ttt/solve.h"

#define TTT_CERT_MAGIC      "TTTCERT3"
#define TTT_CERT_MAGIC_V2   "TTTCERT2"
#define TTT_CERT_MAGIC_V1   "TTTCERT1"
#define TTT_CERT_END_MAGIC  "TTTEND\0\0"
#define TTT_CERT_MAX_CELLS  TTT_MAX_CELLS
#define TTT_CERT_WIDE_CELLS 256 /* from this many cells on, a cell or a count takes two bytes */
#define TTT_CERT_MAX_HALVES 2
/* The header's size for a board of `cells` cells: 16 bytes, then each side's start stones. */
#define TTT_CERT_HEADER_FIXED  16
#define TTT_CERT_HEADER(cells) (TTT_CERT_HEADER_FIXED + 2 * (((cells) + 7) / 8))

enum {
    TTT_CERT_END = 0,
    TTT_CERT_PAIRING = 1,
    TTT_CERT_SEEN = 2,
    TTT_CERT_MOVE = 3,
    TTT_CERT_ALL = 4,
    TTT_CERT_MIRROR = 5,
    TTT_CERT_AVOID = 6,
    TTT_CERT_DOOMED = 7
};
enum { TTT_CERT_NOT_LOSE = 0, TTT_CERT_WIN = 1 };

/* What writing a certificate took. */
typedef struct ttt_certificate_stats {
    uint64_t nodes;    /* nodes written, every half */
    uint64_t wins;     /* WIN leaves (not written: the checker finds them) */
    uint64_t bytes;    /* the file's size */
    uint64_t pairings; /* PAIRING leaves */
    uint64_t mirrors;  /* MIRROR leaves */
    uint64_t avoids;   /* AVOID and DOOMED leaves */
    uint64_t seen;     /* SEEN leaves */
    uint64_t oracle;   /* nodes the solver and prover searched to choose the prover's moves */
    double ms;         /* wall-clock milliseconds of the writing */
    double cpu_ms;     /* CPU milliseconds of the writing (the process's, as clock() counts them) */
} ttt_certificate_stats;

/* Writes to `out` a certificate that b (ongoing, the solver's rules) has the value `value` for the side to
 * move, which the solver proved. The solver chooses the prover's moves (its table and draw prover warm from
 * that proof make it quick); the file is written as it goes. stats may be NULL. TTT_EIO when writing fails,
 * TTT_ENOMEM when memory runs out, TTT_ESTATE when the solver cannot back the value (in each case the file is
 * incomplete). */
ttt_status ttt_certificate_write(ttt_solver *solver, const ttt_board *b, ttt_result value, FILE *out,
                                 ttt_certificate_stats *stats, ttt_error *err);

/* One node of a certificate and its subtree, without header, half byte or trailer: the proof that `prover`
 * (TTT_X or TTT_O) reaches `target` (TTT_CERT_NOT_LOSE or TTT_CERT_WIN) from b (ongoing, the solver's rules,
 * at most TTT_CERT_MAX_CELLS cells), chosen as ttt_certificate_write chooses it. Its SEEN leaves point only
 * inside the piece, so a piece spliced whole into a half of that prover and target, where that half has the
 * position, stays valid (for certificates assembled from pieces written apart). stats may be NULL; errors as
 * ttt_certificate_write's (TTT_ESTATE too for a finished game or a bad prover or target). */
ttt_status ttt_certificate_write_node(ttt_solver *solver, const ttt_board *b, int prover, int target,
                                      FILE *out, ttt_certificate_stats *stats, ttt_error *err);

#endif
