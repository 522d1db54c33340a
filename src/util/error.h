/* util/error.h - filling a ttt_error (internal). */
#ifndef TTT_UTIL_ERROR_H
#define TTT_UTIL_ERROR_H

#include "ttt/common.h"

/* Writes the formatted message into err (when err is not NULL) and returns status, so that a failure path
 * reads `return ttt_fail(err, TTT_EINVAL, "...", ...);`. Control characters (a line break in quoted input)
 * become '?', so that the message is one line. */
ttt_status ttt_fail(ttt_error *err, ttt_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefixes the message already in err with "prefix: " (used to add context on the way up). */
void ttt_error_prefix(ttt_error *err, const char *prefix);

#endif
