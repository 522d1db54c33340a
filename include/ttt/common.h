/*
 * ttt/common.h - status codes and the error record shared by the whole library.
 *
 * Every fallible library call returns a ttt_status and, on failure, writes one human-readable line into the
 * caller's ttt_error (which may be NULL when the caller does not want the text). The library never prints,
 * reads stdin or exits: the message is for the caller to show.
 */
#ifndef TTT_COMMON_H
#define TTT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TTT_VERSION "0.1.0"

/* Status codes. TTT_OK is zero so that `if (status)` reads as "if it failed". */
typedef enum ttt_status {
    TTT_OK = 0,
    TTT_EINVAL,   /* bad input from outside: a string that does not parse, an illegal move, a bad option */
    TTT_ENOMEM,   /* an allocation failed */
    TTT_ELIMIT,   /* a request exceeds a documented limit (a board too big to count, say) */
    TTT_ESTATE,   /* the call does not fit the object's state (asking a finished game for a move, say) */
    TTT_EIO,      /* a file could not be read or written */
    TTT_EFORFEIT, /* an engine forfeits the game: an outside brain timed out, crashed, broke the protocol or
                     played an illegal move (the `cmd` engine); the game counts as lost for it */
} ttt_status;

/* Room for one line of explanation. */
#define TTT_ERROR_SIZE 256

typedef struct ttt_error {
    char msg[TTT_ERROR_SIZE];
} ttt_error;

/* Milliseconds on a monotonic clock: for time budgets and timings. */
double ttt_clock_ms(void);

/* Returns a short constant name for a status ("invalid input", ...). Never NULL. */
const char *ttt_status_name(ttt_status status);

#endif
