/* util/trace.h - what the searchers share to report their steps to a recorder (ttt/trace.h). */
#ifndef TTT_UTIL_TRACE_H
#define TTT_UTIL_TRACE_H

#include <stddef.h>

#include "ttt/trace.h"

/* The step to fill for a step of kind, its lists empty; NULL when there is no recorder or the step is past
 * the recorder's limit (the step is counted all the same). Fill it, then trace_emit. */
static inline ttt_trace_step *trace_begin(ttt_trace *t, ttt_trace_kind kind)
{
    if (!t || t->steps++ >= t->limit)
        return NULL;
    ttt_trace_step *st = &t->step;
    st->kind = kind;
    st->path_length = st->count = st->children = 0;
    st->expanded = TTT_NO_MOVE;
    st->expanded_root = st->proven = st->exact = st->fired = false;
    st->grid = NULL;
    st->rule = NULL;
    return st;
}

static inline void trace_emit(ttt_trace *t) { t->fn(&t->step, t->user); }

#endif
