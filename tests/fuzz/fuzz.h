/*
 * tests/fuzz/fuzz.h - what the libFuzzer harnesses share (tests/fuzz/fuzz_<name>.c, run by `make fuzz`).
 *
 * A harness is LLVMFuzzerTestOneInput over one part of the library. It must be deterministic, free everything
 * it makes, and stay fast on any input (bound every search by work, never by time); it checks invariants with
 * FUZZ_CHECK, which aborts, so that libFuzzer keeps the input as a crash.
 */
#ifndef TTT_FUZZ_H
#define TTT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt/ttt.h"

/* The line that separates the parts of an input that has several (rules, then the text to parse). */
#define FUZZ_PART_SEPARATOR '\n'

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with the failed condition when an invariant does not hold. */
#define FUZZ_CHECK(cond)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);                     \
            abort();                                                                                         \
        }                                                                                                    \
    } while (0)

/* A NUL-terminated, malloc'd copy of len bytes (the text ends at the first NUL of the input, if any). */
static inline char *fuzz_strndup(const void *data, size_t len)
{
    char *s = malloc(len + 1);
    FUZZ_CHECK(s != NULL);
    if (len)
        memcpy(s, data, len);
    s[len] = '\0';
    return s;
}

/* Splits text at its first FUZZ_PART_SEPARATOR: returns what follows it (the separator becomes a NUL), or
 * NULL when there is none (text is left whole). */
static inline char *fuzz_split(char *text)
{
    char *sep = strchr(text, FUZZ_PART_SEPARATOR);
    if (!sep)
        return NULL;
    *sep = '\0';
    return sep + 1;
}

/* Reads an input of the form "RULES\nTEXT", or TEXT alone: *rules are the first line's rules when there is
 * a second line and they parse, else 3x3; *text is the rest. Returns the buffer to free. */
static inline char *fuzz_rules_and_text(const uint8_t *data, size_t size, ttt_rules *rules, char **text)
{
    char *buf = fuzz_strndup(data, size);
    *text = fuzz_split(buf);
    if (!*text || ttt_rules_parse(buf, rules, NULL) != TTT_OK)
        *rules = ttt_rules_default();
    if (!*text)
        *text = buf;
    return buf;
}

/* A malloc'd copy of the size bytes of a file that ends with the FNV-1a (64 bits, little-endian) of the bytes
 * before it, that sum set right (when size is at least 8), so that mutations reach the parser behind the
 * check: the move tables' binary files, the solver's checkpoints. */
#define FUZZ_SUM_BYTES 8
static inline uint8_t *fuzz_copy_with_sum(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    FUZZ_CHECK(copy != NULL);
    if (size)
        memcpy(copy, data, size);
    if (size >= FUZZ_SUM_BYTES) {
        uint64_t sum = UINT64_C(0xcbf29ce484222325);
        for (size_t i = 0; i < size - FUZZ_SUM_BYTES; i++)
            sum = (sum ^ copy[i]) * UINT64_C(0x100000001b3);
        for (int i = 0; i < FUZZ_SUM_BYTES; i++)
            copy[size - FUZZ_SUM_BYTES + (size_t)i] = (uint8_t)(sum >> (8 * i));
    }
    return copy;
}

/* An error message was written: non-empty, and one line. */
static inline void fuzz_check_message(const ttt_error *err)
{
    FUZZ_CHECK(err->msg[0] != '\0');
    FUZZ_CHECK(strlen(err->msg) < sizeof err->msg);
    FUZZ_CHECK(strchr(err->msg, '\n') == NULL);
}

#endif
