/*
 * cli/tui.c - the full-screen terminal UI of `ttt play` (ncursesw).
 *
 * One loop on the main thread draws the screen and reads keys with a short timeout; engine moves and hints
 * are searched on one worker thread, so keys answer while an engine thinks. The worker gets a copy of the
 * board and a stamp of the position; a result whose stamp is stale (the player undid, or started a new game)
 * is dropped. Whatever else touches an engine (a new game, telling the engines a game is over) waits until
 * the worker is idle. Quitting while the worker searches restores the terminal and ends the process with
 * _exit: searches cannot be interrupted, and the process has nothing else to save (an unfinished game is not
 * recorded).
 *
 * The terminal is in raw mode, so Ctrl-C arrives as a key and quits like q; SIGTERM, SIGHUP and a SIGINT sent
 * from elsewhere set a flag that the loop polls within one tick, and it restores the terminal on the way out.
 *
 * Layout (80x24 holds a 16x16 board): a title, a blank line, the board with column letters and row numbers
 * (cells 4 characters wide; grid lines on boards of up to TUI_GRID_MAX_ROWS rows), then the status, score,
 * message and keys. A terminal too small for that gets the compact layout (80x24 holds 20x20): the board,
 * then the status, message and keys, with 3-character cells when 4 do not fit across. Every line of text
 * wraps at the terminal's width (40x20 holds 3x3 whole), between the groups that two spaces part first.
 *
 * Marks on the board, each its own: the cursor's cell between brackets (characters, so that it shows in
 * every colour mode and on any cell), the last move underlined, the best hint reversed, a completed line in
 * green (bold, underlined and reversed without colours).
 */
#include "cli/tui.h"

#include <assert.h>
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

/* How long getch waits for a key before the loop looks at the worker again. */
#define TUI_TICK_MS 50
/* When two engines play each other, the pause after each move so that people can follow the game. */
#define TUI_ENGINE_PAUSE_MS 400.0
/* A cell is this many columns wide: three for the stone or a hint ("W12", "+43"), one for the grid line. */
#define TUI_CELL_W 4
/* Cells this wide when four do not fit across the terminal (20 columns at 80: 4 + 20 * 3 = 64): the stone
 * between the cursor's brackets still fits, and hints have one digit (TUI_DIGITS_NARROW) so that a space
 * keeps them apart. */
#define TUI_CELL_W_NARROW 3
#define TUI_DIGITS_NARROW 1
/* Width of the row numbers left of the board. */
#define TUI_LABEL_W 4
/* Boards of up to this many rows are drawn with grid lines between rows (2 * rows - 1 lines). */
#define TUI_GRID_MAX_ROWS 7
/* Narrower than this, text would wrap a word or two a line: the terminal is too small. */
#define TUI_MIN_COLS  32
#define TUI_TEXT_SIZE 256
/* The help's key column: wide terminals, and narrow ones (40 columns leave 24 for the explanations). */
#define TUI_HELP_KEYS_W        22
#define TUI_HELP_KEYS_W_NARROW 16
#define TUI_HELP_WIDE_COLS     60
/* Lines of the help at most (its text wrapped at the narrowest width). */
#define TUI_HELP_MAX_LINES 64
#define KEY_CTRL_C         3
#define KEY_ESC            27
/* How long a lone Esc waits for the rest of a key sequence (curses' default is a second). */
#define TUI_ESCDELAY_MS 25

/* Colour pairs. */
enum { PAIR_X = 1, PAIR_O, PAIR_LINE, PAIR_WIN, PAIR_DRAW, PAIR_LOSS, PAIR_TITLE };

/* The one static of the UI: a signal arrived (SIGINT, SIGTERM, SIGHUP). A signal handler can reach nothing
 * else; the loop polls it every tick. */
static volatile sig_atomic_t tui_signalled;

static void on_signal(int sig) { tui_signalled = sig; }

typedef enum job_kind { JOB_MOVE, JOB_HINT } job_kind;
typedef enum worker_state { WORKER_IDLE, WORKER_RUNNING, WORKER_DONE } worker_state;

/* The search thread: one job at a time. Inputs are written before the thread starts and outputs read after
 * it says DONE (the atomic state orders them). */
typedef struct worker {
    pthread_t thread;
    atomic_int state; /* worker_state */
    job_kind kind;
    unsigned stamp; /* the position stamp the job was started for */
    ttt_board board;
    ttt_engine *engine; /* JOB_MOVE: the engine to move; JOB_HINT: the fallback analyser */
    ttt_solver *solver; /* JOB_HINT */
    ttt_move move;
    ttt_analysis analysis;
    ttt_status status;
    ttt_error err;
} worker;

/* Where the screen's parts go: chosen at each redraw from the terminal's size. */
typedef struct tui_layout {
    int cell_w; /* TUI_CELL_W, or TUI_CELL_W_NARROW when that does not fit across */
    bool grid;  /* grid lines between cells (small boards in wide cells) */
    bool full;  /* title, blank lines and score line; else the compact layout */
    int top;    /* the board's first line (its column letters) */
} tui_layout;

typedef struct tui {
    ttt_game *g;
    const play_config *cfg;
    worker w;
    play_hinter hinter;
    unsigned stamp;   /* changes whenever the position does (a move, an undo, a new game) */
    int cursor;       /* the cell under the cursor */
    bool color;       /* colours on (a colour terminal and NO_COLOR unset or empty) */
    bool unicode;     /* the locale is UTF-8: "…" and box lines */
    bool hint_shown;  /* the overlay is on for the position with hint_stamp */
    bool hint_wanted; /* hints are on (h toggles): searched and shown before each of a person's moves */
    unsigned hint_stamp;
    ttt_analysis hint;
    bool help;         /* the help screen is up */
    int help_page;     /* its page, when it does not fit the terminal */
    bool paused;       /* two engines: no move starts until p again, or . for one */
    bool step;         /* paused: one move may start */
    tui_layout layout; /* the board's place as last drawn (mouse clicks), when board_shown */
    bool board_shown;
    bool reported;    /* the finished current game went through play_finished */
    bool new_pending; /* n was pressed while the worker was busy */
    double engine_at; /* the clock time before which an engine may not start its move (engine vs engine) */
    char msg[TUI_TEXT_SIZE];
    bool failed; /* an engine failed: msg says how; the UI ends with status 1 */
    int unsaved; /* finished games play_finished could not save: the UI ends with status 1 */
} tui;

static void *worker_main(void *arg)
{
    worker *w = arg;
    if (w->kind == JOB_MOVE)
        w->status = ttt_engine_choose(w->engine, &w->board, &w->move, NULL, &w->err);
    else
        w->status = ttt_hint(w->solver, &w->board, w->engine, PLAY_HINT_MS, 1.0, &w->analysis, &w->err);
    atomic_store(&w->state, WORKER_DONE);
    return NULL;
}

static bool worker_idle(tui *t) { return atomic_load(&t->w.state) == WORKER_IDLE; }

static void worker_start(tui *t, job_kind kind, ttt_engine *engine, ttt_solver *solver)
{
    worker *w = &t->w;
    assert(worker_idle(t));
    w->kind = kind;
    w->stamp = t->stamp;
    w->board = t->g->board;
    w->engine = engine;
    w->solver = solver;
    atomic_store(&w->state, WORKER_RUNNING);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        atomic_store(&w->state, WORKER_IDLE);
        snprintf(t->msg, sizeof t->msg, "could not start a thread for the search");
        t->failed = true;
    }
}

static const char *ellipsis(const tui *t) { return t->unicode ? "\xe2\x80\xa6" : "..."; }

static const char *side_name(ttt_player p) { return p == TTT_X ? "X" : "O"; }

/* The player's name for the status line: "you", "player 1", or the engine as given. */
static const char *side_player(tui *t, ttt_player side, char *buf, size_t size)
{
    ttt_game_player *p = ttt_game_side(t->g, side);
    return play_player_name(t->g, (int)(p - t->g->players), buf, size);
}

static bool human_to_move(tui *t)
{
    return !ttt_board_terminal(&t->g->board) && !ttt_game_engine_to_move(t->g);
}

static bool match_over(tui *t)
{
    return t->cfg->games && t->g->number >= t->cfg->games && ttt_board_terminal(&t->g->board);
}

/* --- Drawing
 * ---------------------------------------------------------------------------------------------- */

static int board_height(const tui *t, bool grid)
{
    int rows = t->g->rules.rows;
    return 1 + (grid ? 2 * rows - 1 : rows);
}

/* The board's width, one more column for the cursor's closing bracket beside the last column. */
static int cols_needed(const tui *t, int cell_w)
{
    int board = TUI_LABEL_W + cell_w * t->g->rules.cols + 1;
    return board > TUI_MIN_COLS ? board : TUI_MIN_COLS;
}

/* The first line of text at width columns: its length, and in *next where the next line starts. It breaks
 * at the last gap of two or more spaces that fits (between the groups of a keys or status line), else at the
 * last space, else (a word wider than the line) at width. */
static int wrap_line(const char *text, int width, const char **next)
{
    int len = (int)strlen(text);
    if (len <= width) {
        *next = text + len;
        return len;
    }
    int space = 0, gap = 0; /* a break before text[i] */
    for (int i = 1; i <= width; i++)
        if (text[i] == ' ' && text[i - 1] != ' ') {
            space = i;
            if (text[i + 1] == ' ')
                gap = i;
        }
    int end = gap ? gap : space ? space : width;
    const char *p = text + end;
    while (*p == ' ')
        p++;
    *next = p;
    return end;
}

/* Draws text from line y on, wrapped at the terminal's width, each line from column x (when draw is set);
 * returns the lines it takes. */
static int put_wrapped(bool draw, int y, int x, const char *text, attr_t attr)
{
    int lines = 0, width = COLS - x;
    if (width < 1)
        return 0;
    attron(attr);
    do {
        const char *next;
        int n = wrap_line(text, width, &next);
        if (draw)
            mvaddnstr(y + lines, x, text, n);
        lines++;
        text = next;
    } while (*text);
    attroff(attr);
    return lines;
}

/* The lines below the board, made once per redraw: their wrapped heights decide the layout. */
typedef struct tui_text {
    char title[TUI_TEXT_SIZE], status[TUI_TEXT_SIZE], score[TUI_TEXT_SIZE], msg[TUI_TEXT_SIZE + 64];
    const char *keys;
} tui_text;

/* Lines below the board in the full layout (blank, status, score, message or its room, keys) or the
 * compact one (status, message, keys). */
static int bottom_height(const tui_text *x, bool full)
{
    int msg = x->msg[0] ? put_wrapped(false, 0, 0, x->msg, A_NORMAL) : 1;
    return (full ? 1 + put_wrapped(false, 0, 0, x->score, A_NORMAL) : 0) +
           put_wrapped(false, 0, 0, x->status, A_NORMAL) + msg + put_wrapped(false, 0, 0, x->keys, A_NORMAL);
}

/* The roomiest layout the terminal holds; false when even the smallest does not fit (then *need says the
 * smallest size that does, columns by lines). */
static bool choose_layout(const tui *t, const tui_text *x, tui_layout *l, int need[2])
{
    l->cell_w = COLS >= cols_needed(t, TUI_CELL_W) ? TUI_CELL_W : TUI_CELL_W_NARROW;
    l->grid = t->g->rules.rows <= TUI_GRID_MAX_ROWS && l->cell_w == TUI_CELL_W;
    int height = board_height(t, l->grid), title = put_wrapped(false, 0, 0, x->title, A_NORMAL);
    l->full = LINES >= title + 1 + height + bottom_height(x, true);
    l->top = l->full ? title + 1 : 0;
    need[0] = cols_needed(t, TUI_CELL_W_NARROW);
    need[1] =
        board_height(t, t->g->rules.rows <= TUI_GRID_MAX_ROWS && need[0] >= cols_needed(t, TUI_CELL_W)) +
        bottom_height(x, false);
    return COLS >= cols_needed(t, l->cell_w) && LINES >= height + (l->full ? 0 : bottom_height(x, false));
}

static attr_t hint_attr(const tui *t, const ttt_move_eval *v)
{
    double s = v->kind == TTT_EVAL_EXACT ? v->result : v->score;
    if (!t->color)
        return s > 0 ? A_BOLD : s < 0 ? A_DIM : A_NORMAL;
    return (attr_t)COLOR_PAIR(s > 0 ? PAIR_WIN : s < 0 ? PAIR_LOSS : PAIR_DRAW) | A_BOLD;
}

static void draw_board(tui *t, const tui_layout *l)
{
    const int top = l->top, cell_w = l->cell_w;
    const ttt_board *b = &t->g->board;
    const ttt_rules *r = &t->g->rules;
    ttt_move line[TTT_MAX_SIDE];
    int nline = ttt_board_line_cells(b, line);
    bool in_line[TTT_MAX_CELLS] = {false};
    for (int i = 0; i < nline; i++)
        in_line[line[i]] = true;
    const ttt_move_eval *hint_at[TTT_MAX_CELLS] = {NULL};
    if (t->hint_shown && t->hint_stamp == t->stamp)
        for (int i = 0; i < t->hint.count; i++)
            hint_at[t->hint.moves[i].move] = &t->hint.moves[i];
    int last = t->g->count ? t->g->moves[t->g->count - 1] : TTT_NO_MOVE;
    bool grid = l->grid;
    int cursor_y = 0, cursor_x = 0, cursor_len = 0;

    for (int c = 0; c < r->cols; c++)
        mvaddch(top, TUI_LABEL_W + c * cell_w + 1, (chtype)('a' + c));
    for (int row = 0; row < r->rows; row++) {
        int y = top + 1 + (grid ? 2 * row : row);
        mvprintw(y, 0, "%3d ", row + 1);
        for (int c = 0; c < r->cols; c++) {
            int cell = row * r->cols + c, x = TUI_LABEL_W + c * cell_w;
            ttt_player p = ttt_board_at(b, cell);
            char text[PLAY_EVAL_TEXT_SIZE];
            attr_t attr = A_NORMAL;
            if (p != TTT_NOBODY) {
                snprintf(text, sizeof text, "%s", side_name(p));
                attr = t->color ? (attr_t)COLOR_PAIR(p == TTT_X ? PAIR_X : PAIR_O) | A_BOLD : A_BOLD;
            } else if (hint_at[cell]) {
                play_eval_text(hint_at[cell], l->cell_w == TUI_CELL_W ? PLAY_DIGITS : TUI_DIGITS_NARROW, text,
                               sizeof text);
                attr = hint_attr(t, hint_at[cell]);
                if (hint_at[cell] == &t->hint.moves[0]) /* the best move */
                    attr |= A_REVERSE;
            } else {
                snprintf(text, sizeof text, "%s", grid ? " " : ".");
                attr = t->color ? A_DIM : A_NORMAL;
            }
            if (in_line[cell])
                attr = t->color ? (attr_t)COLOR_PAIR(PAIR_LINE) | A_BOLD : A_BOLD | A_UNDERLINE | A_REVERSE;
            else if (cell == last)
                attr |= A_UNDERLINE;
            /* A stone or a short text from the cell's second column, three characters from its first. */
            int len = (int)strlen(text), at = x + (len == 3 ? 0 : 1);
            mvaddnstr(y, x, "    ", cell_w);
            attron(attr);
            mvaddstr(y, at, text);
            attroff(attr);
            if (cell == t->cursor) {
                cursor_y = y;
                cursor_x = at;
                cursor_len = len;
            }
            if (grid && c < r->cols - 1)
                mvaddch(y, x + cell_w - 1, ACS_VLINE);
        }
        if (grid && row < r->rows - 1) {
            move(y + 1, TUI_LABEL_W);
            for (int c = 0; c < r->cols; c++) {
                for (int i = 0; i < cell_w - 1; i++)
                    addch(ACS_HLINE);
                if (c < r->cols - 1)
                    addch(ACS_PLUS);
            }
        }
    }
    /* The cursor's brackets, over the grid lines beside a cell whose text fills it: on every cell, in every
     * colour mode, whatever the cell's own marks. */
    if (!ttt_board_terminal(b) && ttt_game_humans(t->g) > 0) {
        attron(A_BOLD);
        mvaddch(cursor_y, cursor_x - 1, '[');
        mvaddch(cursor_y, cursor_x + cursor_len, ']');
        attroff(A_BOLD);
    }
}

/* The status line: whose turn, who thinks, or how the game ended. */
static void status_text(tui *t, char *buf, size_t size)
{
    const ttt_board *b = &t->g->board;
    char who[TTT_SPEC_TEXT_SIZE + 16], last[TTT_MOVE_TEXT_SIZE] = "";
    if (t->g->count)
        ttt_move_format(&t->g->rules, t->g->moves[t->g->count - 1], last, sizeof last);
    ttt_outcome o = ttt_board_outcome(b);
    if (o == TTT_ONGOING) {
        ttt_player side = ttt_board_to_move(b);
        side_player(t, side, who, sizeof who);
        int n = snprintf(buf, size, "%s to move (%s)", side_name(side), who);
        if (ttt_game_engine_to_move(t->g) && t->paused && worker_idle(t))
            n += snprintf(buf + n, size - (size_t)n, ": paused");
        else if (ttt_game_engine_to_move(t->g))
            n += snprintf(buf + n, size - (size_t)n, ": thinking%s", ellipsis(t));
        else if (t->hint_wanted && !t->hint_shown)
            n += snprintf(buf + n, size - (size_t)n, ": hint, thinking%s", ellipsis(t));
        if (*last)
            snprintf(buf + n, size - (size_t)n, "   last: %s %s", side_name(1 - side), last);
        return;
    }
    char line[TUI_TEXT_SIZE];
    cli_status_line(b, line, sizeof line);
    if (o == TTT_DRAW) {
        snprintf(buf, size, "%s", line);
    } else {
        side_player(t, o == TTT_X_WINS ? TTT_X : TTT_O, who, sizeof who);
        snprintf(buf, size, "%.120s (%.100s%s)", line, who, strcmp(who, "you") == 0 ? " won" : "");
    }
    snprintf(buf + strlen(buf), size - strlen(buf), "   last: %s %s",
             side_name((ttt_player)((b->ply - 1) & 1)), last);
}

static const char keys_line[] =
    "arrows/wasd/jkl move  Enter play  u undo  h hints  n new game  ? help  q quit";
/* Two engines play: nothing to move or play; they can be paused and stepped. */
static const char keys_line_engines[] = "p pause  . step  n new game  ? help  q quit";
static const char keys_line_paused[] = "p go on  . one move  n new game  ? help  q quit";

/* The help: keys and what they do, in two columns (the second wrapped), then notes. */
static const struct help_key {
    const char *keys, *what;
} help_keys[] = {
    {"arrows, wasd", "move the cursor (also H j k l: h is for hints)"},
    {"Enter, Space", "play the cell under the cursor"},
    {"mouse click", "play the cell clicked"},
    {"1-9", "on 3x3, play that cell (1 2 3 / 4 5 6 / 7 8 9)"},
    {"u", "take back your last move (and the engine's reply); after the end, it reopens the game"},
    {"h", "hints on or off: every empty cell's value before each of your moves; the line below the board "
          "explains the values shown"},
    {"n", "new game, sides swapped"},
    {"p", "two engines: pause, or go on"},
    {".", "two engines: one move, then pause"},
    {"?", "this help"},
    {"q or Ctrl-C", "quit (at once, even while an engine thinks)"},
};
static const char *const help_notes[] = {
    "The cursor's cell is in brackets, the last move underlined, the best hint reversed, a completed line "
    "highlighted.",
    "Any key (Esc too) returns to the game.",
};

/* One line of the help as laid out at the terminal's width: keys (or NULL) in the first column, len
 * characters of text from column x. */
typedef struct help_line {
    const char *keys;
    int x;
    const char *text;
    int len;
} help_line;

/* text wrapped at the terminal's width from column x, appended to lines (n of TUI_HELP_MAX_LINES so far);
 * the first line beside keys when not NULL. Returns the new n. */
static int help_wrap(help_line *lines, int n, const char *keys, int x, const char *text)
{
    do {
        const char *next;
        int len = wrap_line(text, COLS - x, &next);
        if (n < TUI_HELP_MAX_LINES)
            lines[n++] = (help_line){keys, x, text, len};
        keys = NULL;
        text = next;
    } while (*text);
    return n;
}

/* The help's lines at the terminal's width, into lines (TUI_HELP_MAX_LINES); returns how many. */
static int help_layout(help_line *lines)
{
    int keys_w = COLS >= TUI_HELP_WIDE_COLS ? TUI_HELP_KEYS_W : TUI_HELP_KEYS_W_NARROW;
    int n = help_wrap(lines, 0, NULL, 0, "ttt play: keys");
    n = help_wrap(lines, n, NULL, 0, "");
    for (size_t i = 0; i < sizeof help_keys / sizeof help_keys[0]; i++) {
        const char *keys = help_keys[i].keys;
        if (2 + (int)strlen(keys) >= keys_w) { /* too wide for its column: the text goes below it */
            n = help_wrap(lines, n, keys, keys_w, "");
            keys = NULL;
        }
        n = help_wrap(lines, n, keys, keys_w, help_keys[i].what);
    }
    for (size_t i = 0; i < sizeof help_notes / sizeof help_notes[0]; i++) {
        n = help_wrap(lines, n, NULL, 0, "");
        n = help_wrap(lines, n, NULL, 0, help_notes[i]);
    }
    return n;
}

/* Lines of the help on one page: the whole screen, or all but its last line (which says there is more). */
static int help_page_lines(int total) { return total <= LINES ? LINES : LINES > 1 ? LINES - 1 : 1; }

static void draw_help(tui *t)
{
    help_line lines[TUI_HELP_MAX_LINES];
    int n = help_layout(lines), per_page = help_page_lines(n), first = t->help_page * per_page;
    for (int i = first; i < n && i < first + per_page; i++) {
        if (lines[i].keys)
            mvaddnstr(i - first, 2, lines[i].keys, COLS - 2);
        mvaddnstr(i - first, lines[i].x, lines[i].text, lines[i].len);
    }
    if (first + per_page < n)
        put_wrapped(true, LINES - 1, 0, "(more: any key; Esc returns to the game)", A_DIM);
}

/* Whether the help has a page after the one shown. */
static bool help_more(const tui *t)
{
    help_line lines[TUI_HELP_MAX_LINES];
    int n = help_layout(lines);
    return (t->help_page + 1) * help_page_lines(n) < n;
}

static void draw(tui *t)
{
    erase();
    t->board_shown = false;
    if (t->help) {
        draw_help(t);
        refresh();
        return;
    }
    tui_text x = {.keys = ttt_game_humans(t->g) ? keys_line
                          : t->paused           ? keys_line_paused
                                                : keys_line_engines};
    char rt[TTT_RULES_TEXT_SIZE], xp[TTT_SPEC_TEXT_SIZE + 16], op[TTT_SPEC_TEXT_SIZE + 16];
    ttt_rules_format(&t->g->rules, rt, sizeof rt);
    char games[32] = "";
    if (t->cfg->games)
        snprintf(games, sizeof games, " of %d", t->cfg->games);
    snprintf(x.title, sizeof x.title, "ttt %s, %d in a row%s   game %d%s   X: %s   O: %s", rt, t->g->rules.k,
             t->g->rules.misere ? " loses" : "", t->g->number, games, side_player(t, TTT_X, xp, sizeof xp),
             side_player(t, TTT_O, op, sizeof op));
    status_text(t, x.status, sizeof x.status);
    char score[TUI_TEXT_SIZE];
    snprintf(x.score, sizeof x.score, "score: %s", play_score_text(t->g, score, sizeof score));
    tui_layout l;
    int need[2];
    bool fits = choose_layout(t, &x, &l, need); /* the hint legend's digits depend on the cells' width */
    if (match_over(t))
        snprintf(x.msg, sizeof x.msg, "match over after %d games: q quits", t->g->number);
    else if (t->msg[0])
        snprintf(x.msg, sizeof x.msg, "%s", t->msg);
    else if (t->hint_shown && t->hint_stamp == t->stamp) {
        char legend[TUI_TEXT_SIZE];
        play_hint_legend(&t->g->rules, &t->hint, l.cell_w == TUI_CELL_W ? PLAY_DIGITS : TUI_DIGITS_NARROW,
                         " (reversed)", legend, sizeof legend);
        int n = snprintf(x.msg, sizeof x.msg, "hint (%s): %.200s", t->hint.method, legend);
        if (n > COLS) /* the method gives way to the values' legend */
            snprintf(x.msg, sizeof x.msg, "hint: %.200s", legend);
    } else if (ttt_board_terminal(&t->g->board))
        snprintf(x.msg, sizeof x.msg, "n: new game with the sides swapped, q: quit");
    if (x.msg[0])
        fits = choose_layout(t, &x, &l, need);
    if (!fits) {
        char small[TUI_TEXT_SIZE];
        snprintf(small, sizeof small, "terminal too small: %dx%d, need %dx%d; resize it, or q quits", COLS,
                 LINES, need[0], need[1]);
        put_wrapped(true, 0, 0, small, A_NORMAL);
        refresh();
        return;
    }
    if (l.full)
        put_wrapped(true, 0, 0, x.title, t->color ? (attr_t)COLOR_PAIR(PAIR_TITLE) | A_BOLD : A_BOLD);
    draw_board(t, &l);
    t->layout = l;
    t->board_shown = true;
    int y = l.top + board_height(t, l.grid) + (l.full ? 1 : 0);
    y += put_wrapped(true, y, 0, x.status, A_BOLD);
    if (l.full)
        y += put_wrapped(true, y, 0, x.score, A_NORMAL);
    y += x.msg[0] ? put_wrapped(true, y, 0, x.msg, A_NORMAL) : 1;
    put_wrapped(true, y, 0, x.keys, t->color ? A_DIM : A_NORMAL);
    /* The terminal's own cursor sits on the board's cursor, for screen readers and terminals that show it;
     * hidden when two engines play. */
    if (!ttt_board_terminal(&t->g->board) && ttt_game_humans(t->g)) {
        int row = t->cursor / t->g->rules.cols, col = t->cursor % t->g->rules.cols;
        move(l.top + 1 + (l.grid ? 2 * row : row), TUI_LABEL_W + col * l.cell_w + 1);
    }
    refresh();
}

/* The cell at screen line y, column x of the board as last drawn, or -1 (outside the board, a grid line
 * between rows, the row numbers). */
static int cell_at(const tui *t, int y, int x)
{
    const tui_layout *l = &t->layout;
    const ttt_rules *r = &t->g->rules;
    if (!t->board_shown)
        return -1;
    int dy = y - (l->top + 1), dx = x - TUI_LABEL_W;
    if (dy < 0 || dx < 0 || (l->grid && dy % 2))
        return -1;
    int row = l->grid ? dy / 2 : dy, col = dx / l->cell_w;
    return row < r->rows && col < r->cols ? row * r->cols + col : -1;
}

/* --- Game actions
 * ----------------------------------------------------------------------------------------- */

/* The hint shown is stale; hints stay on (hint_wanted) until h is pressed again. */
static void position_changed(tui *t)
{
    t->stamp++;
    t->hint_shown = false;
}

static void play_cell(tui *t, int cell)
{
    if (ttt_board_terminal(&t->g->board)) {
        snprintf(t->msg, sizeof t->msg, "the game is over: n starts a new one");
        return;
    }
    if (!human_to_move(t)) {
        snprintf(t->msg, sizeof t->msg, "wait: the engine is thinking");
        return;
    }
    ttt_error err;
    if (ttt_game_play(t->g, cell, &err)) {
        snprintf(t->msg, sizeof t->msg, "%s", err.msg);
        return;
    }
    t->msg[0] = '\0';
    t->cursor = cell;
    position_changed(t);
}

static void undo(tui *t)
{
    bool reopened = ttt_board_terminal(&t->g->board);
    int n = ttt_game_undo(t->g);
    if (n == 0) {
        snprintf(t->msg, sizeof t->msg, "nothing to undo");
        return;
    }
    /* A reopened game was recorded as it first ended (as the web server does); it is not recorded again. */
    snprintf(t->msg, sizeof t->msg, "took back %d move%s%s", n, n == 1 ? "" : "s",
             reopened ? ": the game goes on" : "");
    position_changed(t);
}

static void hint(tui *t)
{
    if (t->hint_wanted) { /* h again turns them off */
        t->hint_wanted = t->hint_shown = false;
        snprintf(t->msg, sizeof t->msg, "hints off");
        return;
    }
    if (!ttt_game_humans(t->g)) {
        snprintf(t->msg, sizeof t->msg, "hints are for a person's moves");
        return;
    }
    t->hint_wanted = true;
    if (!human_to_move(t))
        snprintf(t->msg, sizeof t->msg, "hints on: shown before your next move");
}

static void new_game(tui *t)
{
    if (t->cfg->games && t->g->number >= t->cfg->games) {
        snprintf(t->msg, sizeof t->msg, "that was the last of %d games: q quits", t->cfg->games);
        return;
    }
    t->new_pending = true;
    position_changed(t);
}

/* Takes a finished job's result, if the position is still the one it was for. */
static void collect(tui *t)
{
    worker *w = &t->w;
    if (atomic_load(&w->state) != WORKER_DONE)
        return;
    pthread_join(w->thread, NULL);
    atomic_store(&w->state, WORKER_IDLE);
    if (w->stamp != t->stamp)
        return;
    ttt_error err;
    if (w->status) {
        snprintf(t->msg, sizeof t->msg, "%s", w->err.msg);
        if (w->kind == JOB_MOVE)
            t->failed = true;
        else
            t->hint_wanted = false;
    } else if (w->kind == JOB_MOVE) {
        if (ttt_game_play(t->g, w->move, &err)) {
            snprintf(t->msg, sizeof t->msg, "%s", err.msg);
            t->failed = true;
            return;
        }
        position_changed(t);
        if (ttt_game_humans(t->g) == 0)
            t->engine_at = ttt_clock_ms() + TUI_ENGINE_PAUSE_MS;
    } else {
        t->hint = w->analysis;
        t->hint_stamp = t->stamp;
        t->hint_shown = true;
    }
}

/* Starts what the position asks for when the worker is free: the new game, telling the engines about a
 * finished one, an engine's move, a hint. */
static void advance(tui *t)
{
    if (!worker_idle(t) || t->failed)
        return;
    ttt_game *g = t->g;
    if (ttt_board_terminal(&g->board) && !t->reported) {
        ttt_error err;
        if (play_finished(g, t->cfg, &err)) {
            snprintf(t->msg, sizeof t->msg, "not recorded: %.200s", err.msg);
            t->unsaved++;
        }
        t->reported = true;
    }
    if (t->new_pending) {
        t->new_pending = false;
        ttt_game_next(g, true);
        t->reported = false;
        t->msg[0] = '\0';
        t->engine_at = 0;
        position_changed(t);
    }
    ttt_engine *e = ttt_game_engine_to_move(g);
    bool may_move = t->paused ? t->step : ttt_clock_ms() >= t->engine_at;
    if (e && may_move) {
        t->step = false;
        worker_start(t, JOB_MOVE, e, NULL);
    } else if (t->hint_wanted && !t->hint_shown && human_to_move(t)) {
        ttt_engine *fallback;
        ttt_error err;
        if (play_hint_prepare(&t->hinter, g, t->cfg->seed, &fallback, &err)) {
            snprintf(t->msg, sizeof t->msg, "no hint: %.200s", err.msg);
            t->hint_wanted = false;
            return;
        }
        worker_start(t, JOB_HINT, fallback, t->hinter.solver);
    }
}

/* p: two engines stop after the move they are making, or go on. */
static void pause_engines(tui *t)
{
    if (ttt_game_humans(t->g)) {
        snprintf(t->msg, sizeof t->msg, "p pauses games between two engines");
        return;
    }
    t->paused = !t->paused;
    t->step = false;
    t->engine_at = 0;
    snprintf(t->msg, sizeof t->msg, "%s", t->paused ? "paused: . plays one move, p goes on" : "");
}

/* .: two engines make one move, then wait (paused). */
static void step_engines(tui *t)
{
    if (ttt_game_humans(t->g)) {
        snprintf(t->msg, sizeof t->msg, ". steps games between two engines");
        return;
    }
    if (!t->paused)
        snprintf(t->msg, sizeof t->msg, "paused: . plays one move, p goes on");
    t->paused = t->step = true;
}

/* A mouse event: a click of the first button on a cell moves the cursor there and plays it. The click counts
 * when the button is released: curses reports only the release of a press and release read together. */
static void mouse(tui *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED)))
        return;
    int cell = cell_at(t, ev.y, ev.x);
    if (cell < 0)
        return;
    t->cursor = cell;
    play_cell(t, cell);
}

static void move_cursor(tui *t, int drow, int dcol)
{
    const ttt_rules *r = &t->g->rules;
    int row = t->cursor / r->cols + drow, col = t->cursor % r->cols + dcol;
    row = (row + r->rows) % r->rows;
    col = (col + r->cols) % r->cols;
    t->cursor = row * r->cols + col;
}

/* Handles one key. Returns false to quit. */
static bool key(tui *t, int ch)
{
    if (ch == ERR)
        return true;
    if (t->help && ch != KEY_RESIZE) { /* any key, Esc at once (TUI_ESCDELAY_MS) */
        if (ch == KEY_MOUSE) {
            MEVENT ev;
            if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED)))
                return true; /* a press: the click comes with its release */
        }
        if (ch != KEY_ESC && ch != KEY_CTRL_C && ch != 'q' && help_more(t)) {
            t->help_page++;
            return true;
        }
        t->help = false;
        return ch != KEY_CTRL_C && ch != 'q';
    }
    if (ch != KEY_RESIZE)
        t->msg[0] = '\0';
    const ttt_rules *r = &t->g->rules;
    switch (ch) {
    case 'q':
    case 'Q':
    case KEY_CTRL_C: return false;
    case KEY_UP:
    case 'w':
    case 'W':
    case 'k':
    case 'K': move_cursor(t, -1, 0); break;
    case KEY_DOWN:
    case 's':
    case 'S':
    case 'j':
    case 'J': move_cursor(t, 1, 0); break;
    case KEY_LEFT:
    case 'a':
    case 'A':
    case 'H': move_cursor(t, 0, -1); break;
    case KEY_RIGHT:
    case 'd':
    case 'D':
    case 'l':
    case 'L': move_cursor(t, 0, 1); break;
    case '\n':
    case '\r':
    case ' ':
    case KEY_ENTER: play_cell(t, t->cursor); break;
    case 'u':
    case 'U': undo(t); break;
    case 'h': hint(t); break;
    case 'n':
    case 'N': new_game(t); break;
    case 'p':
    case 'P': pause_engines(t); break;
    case '.': step_engines(t); break;
    case KEY_MOUSE: mouse(t); break;
    case '?':
        t->help = true;
        t->help_page = 0;
        break;
    case KEY_RESIZE: clear(); break;
    default:
        if (ch >= '1' && ch <= '9' && r->rows == 3 && r->cols == 3)
            play_cell(t, ch - '1');
        break;
    }
    return true;
}

/* --- Set-up and the loop
 * ---------------------------------------------------------------------------------- */

static void init_colors(tui *t)
{
    const char *no_color = getenv("NO_COLOR");
    t->color = !(no_color && *no_color) && has_colors();
    if (!t->color)
        return;
    start_color();
    use_default_colors();
    init_pair(PAIR_X, COLOR_CYAN, -1);
    init_pair(PAIR_O, COLOR_YELLOW, -1);
    init_pair(PAIR_LINE, COLOR_BLACK, COLOR_GREEN);
    init_pair(PAIR_WIN, COLOR_GREEN, -1);
    init_pair(PAIR_DRAW, COLOR_YELLOW, -1);
    init_pair(PAIR_LOSS, COLOR_RED, -1);
    init_pair(PAIR_TITLE, COLOR_BLUE, -1);
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static bool term_known(void);

int tui_play(ttt_game *g, const play_config *cfg, char *why, size_t size)
{
    tui t = {.g = g, .cfg = cfg};
    atomic_init(&t.w.state, WORKER_IDLE);
    t.cursor = (g->rules.rows / 2) * g->rules.cols + g->rules.cols / 2;
    setlocale(LC_ALL, "");
    const char *codeset = nl_langinfo(CODESET);
    t.unicode = codeset && strcmp(codeset, "UTF-8") == 0;
    /* newterm, not initscr: initscr ends the process on a terminal type it does not know. term_known asks
     * first, as newterm leaks its screen when it fails. */
    SCREEN *screen = term_known() ? newterm(NULL, stdout, stdin) : NULL;
    if (!screen) {
        snprintf(why, size, "unknown terminal type TERM=%.64s", getenv("TERM"));
        return TUI_UNUSABLE;
    }
    raw();
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(TUI_ESCDELAY_MS);
    timeout(TUI_TICK_MS);
    if (ttt_game_humans(g) == 0)
        curs_set(0); /* two engines play: no cursor to follow */
    /* Presses and releases as they come (no wait to tell a click from a double click); mouse() reads them. */
    mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED, NULL);
    mouseinterval(0);
    init_colors(&t);
    install_signals();
    for (;;) {
        if (tui_signalled)
            break;
        collect(&t);
        if (t.failed)
            break;
        advance(&t);
        draw(&t);
        if (!key(&t, getch()))
            break;
    }
    endwin();
    delscreen(screen);
    /* The session's score stays on the terminal after the screen is gone. */
    play_print_session_score(g);
    if (!worker_idle(&t)) {
        /* A search is running and cannot be stopped: the terminal is restored, nothing is left to save. */
        fflush(stdout);
        _exit(t.failed ? CLI_RUNTIME : t.unsaved ? play_unsaved_exit(t.unsaved) : CLI_OK);
    }
    ttt_error err;
    if (!t.reported && ttt_board_terminal(&g->board) && play_finished(g, cfg, &err)) {
        fprintf(stderr, "ttt play: %s\n", err.msg);
        t.unsaved++;
    }
    play_hinter_free(&t.hinter);
    if (t.failed)
        return cli_runtime("play", "%s", t.msg);
    return t.unsaved ? play_unsaved_exit(t.unsaved) : CLI_OK;
}

/* Last in the file: term.h defines a macro for every capability's name (lines, columns, ...). */
#include <term.h>

/* Whether the terminal database describes TERM. */
static bool term_known(void)
{
    int status = 0;
    if (setupterm(NULL, STDOUT_FILENO, &status) != OK)
        return false;
    del_curterm(cur_term);
    return true;
}
