/*
 * search/playout_lines.h - playouts over a geometry the caller already holds (internal: engines that keep a
 * ttt_lines for the game share it with their playouts instead of building a second one).
 */
#ifndef TTT_SEARCH_PLAYOUT_LINES_H
#define TTT_SEARCH_PLAYOUT_LINES_H

#include "rules/lines.h"
#include "ttt/playout.h"

/* ttt_playout_new for the rules of `lines`; the context takes a reference to lines, given back by
 * ttt_playout_free. TTT_ENOMEM when an allocation fails. */
ttt_status ttt_playout_new_over(const ttt_lines *lines, ttt_playout **out, ttt_error *err);

#endif
