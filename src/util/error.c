/* util/error.c - status names and error messages. */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ttt_status_name(ttt_status status)
{
    switch (status) {
    case TTT_OK: return "ok";
    case TTT_EINVAL: return "invalid input";
    case TTT_ENOMEM: return "out of memory";
    case TTT_ELIMIT: return "over a limit";
    case TTT_ESTATE: return "wrong state";
    case TTT_EIO: return "input/output error";
    case TTT_EFORFEIT: return "engine forfeited";
    }
    return "unknown status";
}

ttt_status ttt_fail(ttt_error *err, ttt_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* One line: text the message quotes (a rules string, a move, a spec) may hold line breaks. */
        for (char *p = err->msg; *p; p++)
            if ((unsigned char)*p < ' ' || *p == 0x7f)
                *p = '?';
    }
    return status;
}

void ttt_error_prefix(ttt_error *err, const char *prefix)
{
    if (!err)
        return;
    char tmp[TTT_ERROR_SIZE];
    if (snprintf(tmp, sizeof tmp, "%s: %s", prefix, err->msg) < 0)
        return;
    memcpy(err->msg, tmp, sizeof tmp); /* a message too long for the record is cut, never overrun */
}
