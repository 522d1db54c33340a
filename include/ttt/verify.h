/*
 * ttt/verify.h - the checker of certificates (ttt/certificate.h: the format). Its board, windows, symmetries
 * and pairing check are its own (src/verify/verify.c): it shares nothing with the solver's search, only the
 * rules' check, so that a bug in the search cannot hide in both.
 */
#ifndef TTT_VERIFY_H
#define TTT_VERIFY_H

#include <stdint.h>
#include <stdio.h>

#include "ttt/board.h"
#include "ttt/common.h"
#include "ttt/rules.h"
#include "ttt/solve.h"

typedef struct ttt_verify_report {
    ttt_rules rules;
    ttt_bits x, o;    /* the start position's stones */
    ttt_result value; /* proven, for the side to move at the start */
    int halves;
    uint64_t nodes;    /* nodes checked */
    uint64_t wins;     /* WIN leaves found (not written: see ttt/certificate.h) */
    uint64_t pairings; /* PAIRING leaves checked */
    uint64_t mirrors;  /* MIRROR leaves checked */
    uint64_t avoids;   /* AVOID and DOOMED leaves checked */
    uint64_t seen;     /* SEEN leaves found among the positions proven */
    uint64_t bytes;    /* read */
    double ms;
} ttt_verify_report;

/* Checks the certificate read from `in` to its end. TTT_OK: it proves out->value (and every field of out is
 * set). TTT_EINVAL: it proves nothing; err names the first bad node ("node 1234 after a1 b2 c3: ...") or the
 * bad header. TTT_EIO when reading fails, TTT_ENOMEM when memory runs out. */
ttt_status ttt_verify_certificate(FILE *in, ttt_verify_report *out, ttt_error *err);

#endif
