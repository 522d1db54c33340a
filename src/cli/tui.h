/*
 * cli/tui.h - the full-screen terminal UI of `ttt play` (ncursesw). Part of the command only: the library
 * never links curses.
 */
#ifndef TTT_CLI_TUI_H
#define TTT_CLI_TUI_H

#include "cli/play.h"

/* What tui_play returns when the terminal cannot run it (an unknown TERM): nothing was shown or printed. */
#define TUI_UNUSABLE (-1)
/* Room for the reason it gives then. */
#define TUI_WHY_SIZE 128

/* Plays the session g on the terminal (stdin and stdout must be one) until the player quits, or after
 * cfg->games games when that is not 0. Restores the terminal on every way out, Ctrl-C and SIGTERM included.
 * Quitting while an engine is searching restores the terminal and ends the process at once (_exit) without
 * waiting for the search. Returns the exit status, or TUI_UNUSABLE with the reason in why (size bytes: "TERM=xyz:
 * a terminal type this system does not know") when the terminal cannot run it, so that the caller can play
 * in line mode instead. */
int tui_play(ttt_game *g, const play_config *cfg, char *why, size_t size);

#endif
