/* cli/cmd_solve.c - `ttt solve`: the game-theoretic value of a position and of every move. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "dist/dist.h"
#include "util/file_out.h"

#define SOLVE_DEFAULT_TT_MIB 256
#define SOLVE_MAX_TT_MIB     65536 /* --tt at most: 64 GiB */
/* The live line on a terminal is redrawn at most this often. */
#define SOLVE_REDRAW_MS 100.0
/* Boards that may take long to solve exactly, so a warning comes first (k=4 or 5 past 25 empty cells, every
 * move: 5x5k4 takes 0.5 s, 6x6k4 more than 4 minutes, 8x8k5 hours, though an 8x8k5 position with 8 stones
 * may take a millisecond: the count of empty cells is only a hint, and the warning says "may"); with --value,
 * k=4 up to 36 cells: 6x6k4 0.3 s; misere past 20 empty cells: 5x5 misere takes 33 s).
 * Longer lines (pairing draws) and k=3 (quick wins) solve at once. Measured on a release build.
 */
#define SOLVE_HARD_EMPTIES        25
#define SOLVE_HARD_EMPTIES_VALUE  36
#define SOLVE_HARD_EMPTIES_MISERE 20
#define SOLVE_HARD_K_MIN          4
#define SOLVE_HARD_K_MAX          5
/* But k=5 boards of at most SOLVE_QUICK_K5_CELLS cells are settled at once: below 36 cells by the search (5x6k5
 * 32 nodes, 5x7k5 81, every move after a stone 0.4 s), from 36 by the draw prover (ttt_solver_proves_draws):
 * the value (6x6k5 7 nodes, 6x8k5 0.55 s, 7x7k5 0.7 s; past 49 cells 5x10k5 1.5 s, 6x9k5 more than a minute)
 * and every first move from the empty board, whose proof answers each of them (7x7k5 0.8 s), but not every
 * move after a stone, a proof per move (6x8k5 after d4: 17 s). */
#define SOLVE_QUICK_K5_CELLS 49
/* The live line's width when the terminal does not say, and the longest best line it or a report shows. */
#define SOLVE_DEFAULT_WIDTH 80
#define SOLVE_LINE_MAX      2048
/* The live line shows where the search is by the ranks of this many first moves of the line searched. */
#define SOLVE_ODOMETER_PLIES 6
/* Room for the draw prover's threads' first moves on the live line ("|d4" each). */
#define SOLVE_PHASE_SIZE (16 + 8 * TTT_SOLVER_MAX_THREADS)
/* The fewest columns worth giving a line of moves on the live line ("c3 b2 ..."). */
#define SOLVE_LINE_MIN 9
/* The exit status after Ctrl-C, as shells report a process killed by SIGINT (128 + 2); after SIGTERM, 128 + 15. */
#define SOLVE_EXIT_INTERRUPTED 130
#define SOLVE_EXIT_SIGNAL_BASE 128
/* Without --mpi, --checkpoint and --resume save the solver's state this often by default (s): a write of a
 * large table takes seconds, and a restart loses at most this much. */
#define SOLVE_CHECKPOINT_EVERY_S 300
#define SOLVE_PATH_MAX           4096

static const char help[] =
    "usage: ttt solve [--rules R] [--moves \"a1 b2 ...\"] [--value] [--time MS] [--nodes N] [--tt MIB] "
    "[--threads N]\n"
    "                 [--certificate FILE] [--checkpoint FILE] [--resume FILE] [--json] [POSITION]\n"
    "\n"
    "Prints the value of the position for the side to move (win, draw or loss, and in how many more moves\n"
    "the game ends with best play), the value of every legal move, the nodes searched and the time.\n"
    "Without --time or --nodes the search runs until the values are proven; with a budget that runs out,\n"
    "the value is 'unknown' and the moves carry the search's heuristic scores. On a terminal a line on "
    "stderr\n"
    "shows the progress and the best line so far; Ctrl-C prints what is known so far (exit 130).\n"
    "\n"
    "  -r, --rules R     MxN[kK][-misere] (default 3x3, or the shape of POSITION)\n"
    "  -m, --moves LIST  solve the position these moves reach from the empty board\n"
    "      --value       only the value of the position, not of every move (much faster; no budget)\n"
    "  -t, --time MS     stop after this many milliseconds\n"
    "      --nodes N     stop after this many nodes\n"
    "      --tt MIB      transposition table size (default 256; each thread has its own)\n"
    "      --threads N   search on N threads, 1 to 64 (default 1), each with its own tables: they\n"
    "                    value the moves at once (not with --value), and on boards of 36 to 128 cells\n"
    "                    with k >= 5, from the empty board or one stone, prove the draw prover's first\n"
    "                    moves at once (with --value too). The values are the same, the node count\n"
    "                    varies from run to run. Refused with --time or --nodes (but not with\n"
    "                    --checkpoint, where they bound the run from outside the search), on misere\n"
    "                    rules, and with --value on boards the draw prover does not take\n"
    "      --certificate FILE  write the proof of the value, which 'ttt verify FILE' checks (no --time\n"
    "                    or --nodes; quickest with --value). A file is replaced only once the proof is\n"
    "                    whole (written beside it as FILE.tmp.PID, then renamed), a device or pipe\n"
    "                    (/dev/stdout) written straight into. Not the file of --checkpoint or --resume\n"
    "      --json        {\"value\": \"draw\", \"plies\": 9, \"moves\": [...], \"nodes\": N, \"ms\": T}\n"
    "      --mpi         under mpirun -np N: rank 0 hands positions out as jobs to ranks 1..N-1, which\n"
    "                    solve them within --job-nodes N (default 10000000); the values of one process\n"
    "      --job-timeout MS   with --mpi: a worker silent this long on a job is given up and its job\n"
    "                    handed out again (default 600000)\n"
    "      --checkpoint FILE  save what the search has settled to FILE (each first move's value, the draw\n"
    "                    prover's answers and table, the solver's costliest table entries) every\n"
    "                    --checkpoint-every seconds, on Ctrl-C or SIGTERM and at the end; then --time and\n"
    "                    --nodes bound this run of the exact search. With --mpi: the master writes its\n"
    "                    job tree every second\n"
    "      --resume FILE      go on from the checkpoint in FILE (same rules and position), and keep\n"
    "                    writing it there, or to the file of --checkpoint when given (FILE is then left\n"
    "                    as it was); with --mpi, from the job tree in FILE, written there\n"
    "      --checkpoint-every S  seconds between checkpoints (default 300; 0: at every progress report)\n"
    "\n"
    "examples: ttt solve\n"
    "          ttt solve --rules 4x4 --json\n"
    "          ttt solve x.o/.x./...\n";

static const char *value_name(int score, bool proven)
{
    if (!proven)
        return "unknown";
    return ttt_result_name(ttt_score_result(score));
}

/* True when an exact solve of b by solver may take long (see SOLVE_HARD_EMPTIES): a hint, not a promise. A board
 * on which each side has a pairing strategy (ttt_solver_pairing) is a draw the search sees at once. */
static bool may_take_long(ttt_solver *solver, const ttt_board *b, bool value_only)
{
    int empties = b->cells - b->ply, k = b->rules.k;
    if (!ttt_rules_line_wins(&b->rules))
        return empties > SOLVE_HARD_EMPTIES_MISERE;
    int most = value_only && k == SOLVE_HARD_K_MIN ? SOLVE_HARD_EMPTIES_VALUE : SOLVE_HARD_EMPTIES;
    if (empties <= most || k < SOLVE_HARD_K_MIN || k > SOLVE_HARD_K_MAX)
        return false;
    if (k == SOLVE_HARD_K_MAX && b->cells <= SOLVE_QUICK_K5_CELLS &&
        (value_only || b->ply == 0 || !ttt_solver_proves_draws(&b->rules)))
        return false;
    int partner[TTT_MAX_CELLS];
    return !ttt_solver_pairing(solver, b, TTT_X, partner) || !ttt_solver_pairing(solver, b, TTT_O, partner);
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) { interrupted = sig; }

/* --checkpoint and --resume without --mpi: where and how often the solver's state is saved, and this run's
 * budget, which the progress function enforces so that the search stays the exact one. */
typedef struct solve_saving {
    const char *path; /* NULL: no checkpoints */
    ttt_solver *solver;
    double every_ms, last_ms; /* the interval; when the last save was (the search's clock) */
    uint64_t nodes;           /* --nodes, 0: none */
    double ms;                /* --time, 0: none */
    bool spent;               /* the budget stopped the search */
} solve_saving;

/* The live line and what Ctrl-C reports: the last progress the search gave. */
typedef struct solve_watch {
    const ttt_board *board;
    bool draw;       /* stderr is a terminal */
    bool value_only; /* the value search (--value): no root moves, no line */
    int width;       /* of the terminal: the live line is cut to fit */
    double drawn_ms; /* when the line was last drawn */
    bool full_said;  /* the notice that the draw prover's table is full is out */
    ttt_search_progress last;
    solve_saving save;
} solve_watch;

/* The size of a temporary file's name beside a path of SOLVE_PATH_MAX bytes. */
#define SOLVE_TMP_SIZE TTT_FILE_TMP_SIZE

/* The checkpoint's writer for ttt_file_replace: ctx is a checkpoint_job. */
typedef struct checkpoint_job {
    ttt_solver *solver;
    ttt_checkpoint_info *info;
} checkpoint_job;

static ttt_status checkpoint_save(FILE *f, void *ctx, ttt_error *err)
{
    checkpoint_job *job = ctx;
    return ttt_solver_save(job->solver, f, job->info, err);
}

/* Writes the solver's checkpoint to path through path.tmp (ttt_file_replace). Fills msg with a one-line reason on
 * failure. */
static bool checkpoint_write(ttt_solver *solver, const char *path, ttt_checkpoint_info *info, char *msg,
                             size_t size)
{
    char tmp[SOLVE_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    checkpoint_job job = {solver, info};
    return ttt_file_replace(path, tmp, path, "checkpoint", checkpoint_save, &job, msg, size);
}

/* The periodic checkpoint and this run's budget, from the progress function: true when the budget is spent.
 * live: a live line is on stderr, to be cleared before a warning. */
static bool checkpoint_tick(solve_saving *sv, const ttt_search_progress *p, bool live)
{
    if (sv->path && p->ms - sv->last_ms >= sv->every_ms) {
        char msg[SOLVE_PATH_MAX + 320];
        sv->last_ms = p->ms;
        if (!checkpoint_write(sv->solver, sv->path, NULL, msg, sizeof msg))
            fprintf(stderr, "%sttt solve: %s; going on\n", live ? "\r\033[K" : "",
                    msg); /* the next may work */
    }
    sv->spent |= (sv->nodes && p->nodes >= sv->nodes) || (sv->ms > 0 && p->ms >= sv->ms);
    return sv->spent;
}

/* What a checkpoint holds: "20 of 48 first moves settled, 1,234 table entries, 567 prover entries", and while the
 * draw prover proves first moves one by one (none valued yet), "0 of 64 first moves settled, 3 first moves
 * refuted by the draw prover, ...". */
#define CHECKPOINT_TEXT_SIZE (2 * CLI_COUNTED_SIZE + 120)
static const char *checkpoint_text(const ttt_checkpoint_info *info, const ttt_board *b, char *buf)
{
    char entries[CLI_COUNTED_SIZE], proven[CLI_COUNTED_SIZE], refuted[64] = "";
    if (info->refuted > 0)
        snprintf(refuted, sizeof refuted, ", %d first move%s refuted by the draw prover", info->refuted,
                 info->refuted == 1 ? "" : "s");
    snprintf(buf, CHECKPOINT_TEXT_SIZE, "%d of %d first moves settled%s, %s, %s", info->settled,
             b->cells - b->ply, refuted,
             cli_counted(info->entries, "table entry", "table entries", entries, sizeof entries),
             cli_counted(info->proven, "prover entry", "prover entries", proven, sizeof proven));
    return buf;
}

/* The last checkpoint, after the search (the end, a signal, the budget): its figures on stderr. */
static int checkpoint_final(const solve_saving *sv, const ttt_board *b)
{
    char msg[SOLVE_PATH_MAX + 320], what[CHECKPOINT_TEXT_SIZE];
    ttt_checkpoint_info info;
    double start = ttt_clock_ms();
    if (!checkpoint_write(sv->solver, sv->path, &info, msg, sizeof msg))
        return cli_runtime("solve", "%s", msg);
    char bytes[CLI_COUNTED_SIZE];
    fprintf(stderr, "ttt solve: checkpoint %s: %s, %s in %.0f ms\n", sv->path,
            checkpoint_text(&info, b, what), cli_counted(info.bytes, "byte", "bytes", bytes, sizeof bytes),
            ttt_clock_ms() - start);
    return CLI_OK;
}

/* A lower bound on a score, in words: "a draw or better", "a win in 5 or sooner". */
static const char *bound_text(const ttt_board *b, int score, char *buf, size_t size)
{
    if (score > TTT_SCORE_PROVEN)
        snprintf(buf, size, "a win in %d or sooner", ttt_score_plies(b, score));
    else if (score < -TTT_SCORE_PROVEN)
        snprintf(buf, size, "a loss in %d or better", ttt_score_plies(b, score));
    else if (score == 0)
        snprintf(buf, size, "a draw or better");
    else
        snprintf(buf, size, "heuristic score %d or better", score);
    return buf;
}

/* Moves as "b2 a1 c3", at most `size` - 1 characters: moves that do not fit end it as "...". TTT_NO_MOVE (the
 * draw prover's null move: the other side moves twice) is "--". */
static const char *moves_text(const ttt_board *b, const ttt_move *moves, int count, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count; i++) {
        char m[TTT_MOVE_TEXT_SIZE];
        if (moves[i] == TTT_NO_MOVE)
            snprintf(m, sizeof m, "--");
        else
            ttt_move_format(&b->rules, moves[i], m, sizeof m);
        size_t need = strlen(m) + (i > 0) + (i + 1 < count ? 4 : 0); /* room for " ..." after */
        if (used + need >= size) {
            snprintf(buf + used, size - used, "%s...", i > 0 ? " " : "");
            break;
        }
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 0 ? " " : "", m);
    }
    return buf;
}

/* The best line so far (see moves_text). */
static const char *line_text(const ttt_board *b, const ttt_search_progress *p, char *buf, size_t size)
{
    return moves_text(b, p->line, p->line_length, buf, size);
}

/* Where the search is: the rank of each of the line's first moves among its siblings ("at move 1.3.2": the
 * first move's third reply's second answer), an odometer whose last figures move while the first stand
 * still. Not for the prover, whose line has no ranks. */
static void where_text(const ttt_search_progress *p, char *buf, size_t size)
{
    int n = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->current_length && i < SOLVE_ODOMETER_PLIES && n < (int)size; i++)
        n += snprintf(buf + n, size - (size_t)n, "%s%d", i == 0 ? ", at move " : ".", p->current_index[i]);
}

/* A count in three figures or so: "812", "410k", "1.2M". */
static const char *count_text(double x, char *buf, size_t size)
{
    if (x < 1e3)
        snprintf(buf, size, "%.0f", x);
    else if (x < 1e6)
        snprintf(buf, size, "%.0fk", x / 1e3);
    else
        snprintf(buf, size, "%.1fM", x / 1e6);
    return buf;
}

/* The first moves the draw prover's threads are on, thread 1 (the main one) first: ", on d4" (one thread),
 * ", on d4|-" (the second between two moves). Empty when it proves no first moves one by one. */
static void threads_text(const ttt_board *b, const ttt_search_progress *p, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!p->prove_first || p->prove_threads == 0)
        return;
    int n = snprintf(buf, size, ", on ");
    for (int t = 0; t < p->prove_threads && n < (int)size; t++) {
        char m[TTT_MOVE_TEXT_SIZE];
        n += snprintf(buf + n, size - (size_t)n, "%s%s", t > 0 ? "|" : "",
                      ttt_move_format(&b->rules, p->prove_on[t], m, sizeof m));
    }
}

/* The phase under way and its counts, in words (see solve_progress). */
static void phase_text(const ttt_search_progress *p, char *buf, size_t size)
{
    int n = 0;
    const char *side = p->prove_side == TTT_X ? "X" : "O";
    switch (p->phase) {
    case TTT_PHASE_PROVE:
        if (p->root_total > 0)
            n = snprintf(buf, size, "draw proofs: %d/%d first moves, %d drawn; %s cannot win", p->root_done,
                         p->root_total, p->drawn, side);
        else
            n = snprintf(buf, size, "proving %s cannot win", side);
        if (p->prove_first && n < (int)size)
            snprintf(buf + n, size - (size_t)n, ": %d/%d first moves refuted", p->prove_done, p->prove_total);
        else if (p->prove_total > 0 && n < (int)size)
            snprintf(buf + n, size - (size_t)n, ": %d/%d %s moves refuted", p->prove_done, p->prove_total,
                     side);
        return;
    case TTT_PHASE_VALUE: n = snprintf(buf, size, "value search (%d empty cells)", p->depth); break;
    case TTT_PHASE_SEARCH:
    default:
        if (p->root_total == 0)
            n = snprintf(buf, size, "starting");
        else if (p->exact)
            n = snprintf(buf, size, "solving: %d/%d solved", p->root_done, p->root_total);
        else
            n = snprintf(buf, size, "depth %d: %d/%d moves", p->depth, p->root_done, p->root_total);
        break;
    }
}

/* The prover's phase in short, for a narrow terminal: "X cannot win: 2/10 refuted" (with the draw proofs of
 * the first moves before it: "draw proofs 3/48, 1 drawn; O cannot win: 0/9 refuted"). */
static void phase_short(const ttt_search_progress *p, char *buf, size_t size)
{
    int n = 0;
    if (p->root_total > 0)
        n = snprintf(buf, size, "draw proofs %d/%d, %d drawn; ", p->root_done, p->root_total, p->drawn);
    if (n < (int)size)
        n += snprintf(buf + n, size - (size_t)n, "%s cannot win", p->prove_side == TTT_X ? "X" : "O");
    if (p->prove_total > 0 && n < (int)size)
        snprintf(buf + n, size - (size_t)n, ": %d/%d refuted", p->prove_done, p->prove_total);
}

/* The live line: the phase and its counts, nodes, nodes/s, time, then the best line so far (or the line being
 * searched, before a best one), cut to the terminal's width: "solving: 18/25 solved, 1.9M nodes, 719k nodes/s,
 * 2.6 s, at move 19.3.1, draw or better: c3 b2 c2 c4 ..."; the draw prover's, with the first move each of its
 * threads is on and the main thread's line: "proving X cannot win: 0/10 first moves refuted, 12.3M nodes, 270k
 * nodes/s, 45.4 s, on a1|d4, thread 1: a1 c3 -- b2 -- d4 ...". */
static bool solve_progress(const ttt_search_progress *p, void *user)
{
    solve_watch *w = user;
    w->last = *p;
    if (p->prove_table_full && !w->full_said) {
        /* once: from here on the prover searches again what its table drops, which a larger --tt keeps */
        w->full_said = true;
        fprintf(stderr,
                "%sttt solve: the draw prover's table is full: what it cannot keep is searched again; "
                "a larger --tt keeps more\n",
                w->draw && w->drawn_ms > 0 ? "\r\033[K" : "");
    }
    bool spent = checkpoint_tick(&w->save, p, w->draw);
    if (w->draw && p->ms - w->drawn_ms >= SOLVE_REDRAW_MS) {
        w->drawn_ms = p->ms;
        char head[2 * SOLVE_PHASE_SIZE + 160], phase[160], bound[64], line[SOLVE_LINE_MAX];
        phase_text(p, phase, sizeof phase);
        char nodes[32], rate[32], where[SOLVE_PHASE_SIZE];
        if (p->phase == TTT_PHASE_PROVE)
            threads_text(w->board, p, where, sizeof where);
        else
            where_text(p, where, sizeof where);
        int n = snprintf(head, sizeof head, "%s, %s nodes, %s nodes/s, %.1f s%s", phase,
                         count_text((double)p->nodes, nodes, sizeof nodes),
                         count_text(p->ms > 0 ? (double)p->nodes / p->ms * 1000.0 : 0.0, rate, sizeof rate),
                         p->ms / 1000.0, where);
        bool best = p->phase == TTT_PHASE_SEARCH && p->best_move != TTT_NO_MOVE;
        bool current = !best && (p->phase == TTT_PHASE_PROVE ? p->current_length > 0 : where[0] != '\0');
        char label[96] = "";
        if (best) /* the bound without its article: "a draw or better" */
            snprintf(label, sizeof label, ", %s: ",
                     p->exact ? bound_text(w->board, p->best_score, bound, sizeof bound) + 2 : "heuristic");
        else if (current && p->phase == TTT_PHASE_PROVE && p->prove_threads > 1) /* the main thread's line */
            snprintf(label, sizeof label, ", thread 1: ");
        else if (current)
            snprintf(label, sizeof label, ", line ");
        int room = w->width - 1 - n - (int)strlen(label);
        if (room < SOLVE_LINE_MIN && current && p->phase == TTT_PHASE_PROVE) {
            /* A narrow terminal (80 columns): the prover's head in short, so that its line shows. */
            phase_short(p, phase, sizeof phase);
            n = snprintf(head, sizeof head, "%s, %s nodes, %.1f s%s", phase,
                         count_text((double)p->nodes, nodes, sizeof nodes), p->ms / 1000.0, where);
            room = w->width - 1 - n - (int)strlen(label);
        }
        if (room < SOLVE_LINE_MIN) /* no room for a line worth reading: the head alone, cut to fit */
            best = current = false;
        else
            strcat(head, label);
        if (w->width > 1 && strlen(head) >= (size_t)w->width)
            head[w->width - 1] = '\0';
        if (room > (int)sizeof line)
            room = (int)sizeof line;
        fprintf(stderr, "\r\033[K%s%s", head,
                best      ? line_text(w->board, p, line, (size_t)room)
                : current ? moves_text(w->board, p->current, p->current_length, line, (size_t)room)
                          : "");
        fflush(stderr);
    }
    return interrupted != 0 || spent;
}

/* Prints o (taken) compactly on a line of its own. */
static int print_json(json_t *o)
{
    int bad = !o || json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6)) != 0;
    json_decref(o);
    if (bad)
        return cli_runtime("solve", "could not write JSON");
    putchar('\n');
    return CLI_OK;
}

/* The work a search did, for people: "3,096,576 nodes in 2.5 s" (cli_counted, cli_duration). */
#define SOLVE_WORK_SIZE (CLI_COUNTED_SIZE + CLI_DURATION_SIZE + 8)
static const char *work_text(uint64_t nodes, double ms, char *buf, size_t size)
{
    char counted[CLI_COUNTED_SIZE], took[CLI_DURATION_SIZE];
    snprintf(buf, size, "%s in %s", cli_counted(nodes, "node", "nodes", counted, sizeof counted),
             cli_duration(ms, took, sizeof took));
    return buf;
}

/* The draw prover's first moves as its proof of them stopped or ended (ttt_solver_proof_report), for --json:
 * {"side": "X", "first_moves": [{"move": "d4", "state": "refuted", "nodes": N, "orbit": 4}, ...], "proven": N}
 * (orbit: the first moves it stands for by symmetry; proven: the positions the tables held proven while a move
 * is open, else 0). NULL when no such proof ran. */
static json_t *proof_json(const ttt_board *b, const ttt_proof_report *r)
{
    if (r->count == 0)
        return NULL;
    json_t *moves = json_array();
    for (int i = 0; i < r->count; i++) {
        char m[TTT_MOVE_TEXT_SIZE];
        const ttt_first_move *f = &r->moves[i];
        json_array_append_new(moves, json_pack("{s:s, s:s, s:I, s:i}", "move",
                                               ttt_move_format(&b->rules, f->move, m, sizeof m), "state",
                                               ttt_first_state_name(f->state), "nodes", (json_int_t)f->nodes,
                                               "orbit", f->orbit));
    }
    return json_pack("{s:s, s:o, s:I}", "side", r->side == TTT_X ? "X" : "O", "first_moves", moves, "proven",
                     (json_int_t)r->proven);
}

/* The same for people, on stdout: a line of totals (the proof's size while a move is open), then a line per
 * first move:
 *   the draw prover's first moves of X, up to symmetry: 2 refuted, 8 open; 1,234 positions proven so far
 *     d4    refuted     1,234,567 nodes (4 first moves by symmetry) */
static void proof_print(const ttt_board *b, const ttt_proof_report *r)
{
    if (r->count == 0)
        return;
    int count[3] = {0};
    for (int i = 0; i < r->count; i++)
        count[r->moves[i].state]++;
    char proven[CLI_COUNTED_SIZE + 16] = "", wins[64] = "";
    if (count[TTT_FIRST_WINS] > 0)
        snprintf(wins, sizeof wins, ", %d winning", count[TTT_FIRST_WINS]);
    if (count[TTT_FIRST_REFUTED] < r->count) { /* the proof's size so far (complete, it is not counted) */
        strcpy(proven, "; ");
        cli_counted(r->proven, "position proven", "positions proven", proven + 2, sizeof proven - 2);
        strcat(proven, " so far");
    }
    printf("the draw prover's first moves of %s, up to symmetry: %d refuted, %d open%s%s\n",
           r->side == TTT_X ? "X" : "O", count[TTT_FIRST_REFUTED], count[TTT_FIRST_OPEN], wins, proven);
    for (int i = 0; i < r->count; i++) {
        const ttt_first_move *f = &r->moves[i];
        char m[TTT_MOVE_TEXT_SIZE], nodes[CLI_COUNT_SIZE], orbit[48] = "";
        if (f->orbit > 1)
            snprintf(orbit, sizeof orbit, " (%d first moves by symmetry)", f->orbit);
        printf("  %-5s %-8s %13s nodes%s\n", ttt_move_format(&b->rules, f->move, m, sizeof m),
               ttt_first_state_name(f->state), cli_count(f->nodes, nodes, sizeof nodes), orbit);
    }
}

/* After Ctrl-C (or this run's budget with --checkpoint: signalled false): what the search knew, marked as not
 * proven. JSON: value "unknown", plies null, interrupted (signalled), at_least the proven lower bound ("win", "draw", "loss" or null when none), best (a move or null),
 * line (the best line so far), the moves searched to the end of the total, depth, exact, nodes, ms, and proof
 * (proof_json) when the draw prover proved first moves. */
static int report_interrupted(const solve_watch *w, const ttt_search_result *r, const ttt_proof_report *proof,
                              bool json, bool signalled)
{
    const ttt_board *b = w->board;
    const ttt_search_progress *p = &w->last;
    char m[TTT_MOVE_TEXT_SIZE], bound[64], line[SOLVE_LINE_MAX];
    /* The best move known: in the exact iteration, the best of the moves searched to the end (a proven
     * bound); else the last complete iteration's best (heuristic); else the best so far of the one under way
     */
    bool proven_bound = p->best_move != TTT_NO_MOVE && p->exact;
    ttt_move best = proven_bound ? p->best_move : r->depth > 0 ? r->moves[0].move : p->best_move;
    bool has_line = best != TTT_NO_MOVE && p->line_length > 0 && p->line[0] == best;
    /* Root moves searched to the end: none while the draw prover ran (its counts are of other things). */
    bool searching = p->phase == TTT_PHASE_SEARCH && p->root_total > 0;
    if (json) {
        json_t *moves = json_array();
        for (int i = 0; has_line && i < p->line_length; i++)
            json_array_append_new(moves, json_string(ttt_move_format(&b->rules, p->line[i], m, sizeof m)));
        json_t *o = json_pack(
            "{s:s, s:n, s:b, s:o, s:o, s:o, s:i, s:i, s:i, s:b, s:I, s:f}", "value", "unknown", "plies",
            "interrupted", signalled, "at_least",
            proven_bound ? json_string(ttt_result_name(ttt_score_result(p->best_score))) : json_null(),
            "best",
            best != TTT_NO_MOVE ? json_string(ttt_move_format(&b->rules, best, m, sizeof m)) : json_null(),
            "line", moves, "searched", searching ? p->root_done : 0, "of",
            searching ? p->root_total : b->cells - b->ply, "depth", proven_bound ? p->depth : r->depth,
            "exact", proven_bound, "nodes", (json_int_t)r->nodes, "ms", r->ms);
        json_t *pj = proof_json(b, proof);
        if (pj)
            json_object_set_new(o, "proof", pj);
        return print_json(o);
    }
    char work[SOLVE_WORK_SIZE];
    printf("%s after %s: not proven\n", signalled ? "interrupted" : "stopped",
           work_text(r->nodes, r->ms, work, sizeof work));
    if (proven_bound)
        printf("best move so far: %s, worth %s (%d of %d moves searched to the end; not proven best)\n",
               ttt_move_format(&b->rules, p->best_move, m, sizeof m),
               bound_text(b, p->best_score, bound, sizeof bound), p->root_done, p->root_total);
    else if (r->depth > 0)
        printf("best move so far: %s, heuristic score %d at depth %d (not proven)\n",
               ttt_move_format(&b->rules, r->moves[0].move, m, sizeof m), r->moves[0].score, r->depth);
    else if (p->best_move != TTT_NO_MOVE)
        printf("best move so far: %s, heuristic score %d at depth %d, %d of %d moves searched (not proven)\n",
               ttt_move_format(&b->rules, p->best_move, m, sizeof m), p->best_score, p->depth, p->root_done,
               p->root_total);
    else
        printf("no move searched to the end yet: nothing is known; --time MS gives a heuristic best move\n");
    if (p->phase == TTT_PHASE_PROVE) { /* where the draw prover, which runs first, had got to */
        char phase[160];
        phase_text(p, phase, sizeof phase);
        printf("stopped in the draw proofs: %s\n", phase);
    }
    if (has_line)
        printf("best line so far: %s\n", line_text(b, p, line, sizeof line));
    proof_print(b, proof);
    return CLI_OK;
}

/* The certificate's writer for ttt_file_write: ctx is a certificate_job. */
typedef struct certificate_job {
    ttt_solver *solver;
    const ttt_board *b;
    ttt_result value;
    ttt_certificate_stats stats;
} certificate_job;

static ttt_status certificate_save(FILE *f, void *ctx, ttt_error *err)
{
    certificate_job *job = ctx;
    return ttt_certificate_write(job->solver, job->b, job->value, f, &job->stats, err);
}

/* The temporary file of the certificate being written (empty: none), for on_signal_writing. */
static char cert_tmp[SOLVE_TMP_SIZE];

/* SIGINT or SIGTERM while the certificate is written: the temporary file removed (an old certificate stays as
 * it was), one line, and the process ends by the signal. Async-signal-safe calls only. */
static void on_signal_writing(int sig)
{
    static const char line[] = "ttt solve: interrupted: no certificate written\n";
    if (cert_tmp[0])
        unlink(cert_tmp);
    ssize_t n = write(STDERR_FILENO, line, sizeof line - 1);
    (void)n; /* nothing to do about a failed line */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* --certificate: writes the proof of the solved position b (its score for the side to move) with the solver
 * that proved it, and says what it took on stderr. A regular file is replaced whole or left as it was
 * (ttt_file_write); Ctrl-C while it is written ends the run without one. */
static int solve_certificate(ttt_solver *solver, const ttt_board *b, ttt_result value, const char *path)
{
    certificate_job job = {.solver = solver, .b = b, .value = value};
    char msg[SOLVE_TMP_SIZE + 320];
    bool whole;
    struct sigaction sa = {.sa_handler = on_signal_writing}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT); /* one signal's handler runs alone: one line, one unlink */
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    bool ok = ttt_file_write(path, "certificate", certificate_save, &job, cert_tmp, &whole, msg, sizeof msg);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    cert_tmp[0] = '\0';
    if (!ok)
        return cli_runtime("solve", "%s (%s)", msg,
                           whole ? "no certificate written" : "the certificate is incomplete");
    const ttt_certificate_stats cs = job.stats;
    char n[CLI_COUNT_SIZE], pa[CLI_COUNT_SIZE], mi[CLI_COUNT_SIZE], av[CLI_COUNT_SIZE], se[CLI_COUNT_SIZE],
        by[CLI_COUNT_SIZE], or [CLI_COUNT_SIZE];
    fprintf(stderr,
            "ttt solve: certificate %s: %s nodes (%s pairings, %s mirrors, %s counting leaves, %s "
            "transpositions), %s bytes, %.3f ms, %s oracle nodes, %.3f ms CPU\n",
            path, cli_count(cs.nodes, n, sizeof n), cli_count(cs.pairings, pa, sizeof pa),
            cli_count(cs.mirrors, mi, sizeof mi), cli_count(cs.avoids, av, sizeof av),
            cli_count(cs.seen, se, sizeof se), cli_count(cs.bytes, by, sizeof by), cs.ms,
            cli_count(cs.oracle, or, sizeof or), cs.cpu_ms);
    return CLI_OK;
}

/* --certificate when the search stopped before the proof (Ctrl-C, SIGTERM with --checkpoint): one line says
 * so; an old certificate is left as it was. */
static void certificate_skipped(void)
{
    fprintf(stderr, "ttt solve: %s: no certificate written\n", interrupted ? "interrupted" : "not proven");
}

/* A certificate path that cannot be written is said before the search, not after an hour of it: nothing is
 * changed. A regular file (or none) needs its temporary file beside it (made and removed again) and, when it
 * exists, the right to write it; another file (a device, a pipe) is only checked for that right, since
 * opening a pipe would wait for a reader. */
static int certificate_probe(const char *path)
{
    char msg[SOLVE_TMP_SIZE + 320];
    return ttt_file_probe(path, "certificate", msg, sizeof msg) ? CLI_OK : cli_usage("solve", "%s", msg);
}

/* --value: the position's value alone; Ctrl-C prints what is proven so far. Takes ownership of the solver.
 * cert_path (may be NULL): where the proof goes (--certificate). */
static int solve_value(ttt_solver *solver, solve_watch *watch, bool json, const char *cert_path)
{
    const ttt_board *b = watch->board;
    ttt_value_result v;
    ttt_error err;
    ttt_limits limits = {.progress = solve_progress, .user = watch};
    double start = ttt_clock_ms();
    ttt_status st = ttt_solver_value_within(solver, b, &limits, &v, &err);
    double ms = ttt_clock_ms() - start;
    if (watch->draw && watch->drawn_ms > 0)
        fputs("\r\033[K", stderr);
    /* The checkpoint first: Ctrl-C while the certificate is written ends the run. */
    int save_rc = !st && watch->save.path ? checkpoint_final(&watch->save, b) : CLI_OK;
    int cert_rc = !st && cert_path && !v.stopped ? solve_certificate(solver, b, v.value, cert_path) : CLI_OK;
    if (!st && cert_path && v.stopped)
        certificate_skipped();
    ttt_proof_report proof;
    ttt_solver_proof_report(solver, &proof);
    ttt_solver_free(solver);
    if (st)
        return cli_runtime("solve", "%s", err.msg);
    if (save_rc)
        return save_rc;
    const int stopped_rc = interrupted ? SOLVE_EXIT_SIGNAL_BASE + interrupted : CLI_OK;
    char rt[TTT_RULES_TEXT_SIZE], work[SOLVE_WORK_SIZE];
    const char *side = ttt_board_to_move(b) == TTT_X ? "X" : "O";
    if (v.stopped) {
        /* JSON: value (the value when proven, else "unknown"), plies null, interrupted true, at_least (the
         * proven lower bound, null when none), nodes, ms */
        bool bound = !v.proven && v.value > TTT_LOSS;
        if (json) {
            json_t *o = json_pack("{s:s, s:n, s:b, s:o, s:I, s:f}", "value",
                                  v.proven ? ttt_result_name(v.value) : "unknown", "plies", "interrupted",
                                  interrupted != 0, "at_least",
                                  v.proven || bound ? json_string(ttt_result_name(v.value)) : json_null(),
                                  "nodes", (json_int_t)v.nodes, "ms", ms);
            json_t *pj = proof_json(b, &proof);
            if (pj)
                json_object_set_new(o, "proof", pj);
            int rc = print_json(o);
            return rc ? rc : stopped_rc;
        }
        printf("%s after %s: not proven\n", interrupted ? "interrupted" : "stopped",
               work_text(v.nodes, ms, work, sizeof work));
        if (v.proven)
            printf("%s, %s to move: %s; in how many moves with best play is not known yet\n",
                   ttt_rules_format(&b->rules, rt, sizeof rt), side, ttt_result_name(v.value));
        else if (bound)
            printf("%s, %s to move: %s (a move searched to the end proves it; not proven best)\n",
                   ttt_rules_format(&b->rules, rt, sizeof rt), side,
                   v.value == TTT_WIN ? "a win" : "a draw or better");
        else
            printf("%s, %s to move: nothing is proven yet\n", ttt_rules_format(&b->rules, rt, sizeof rt),
                   side);
        proof_print(b, &proof);
        return stopped_rc;
    }
    if (json) {
        json_t *pj = proof_json(b, &proof);
        char *pt = pj ? json_dumps(pj, JSON_COMPACT) : NULL;
        json_decref(pj);
        printf("{\"value\":\"%s\",\"plies\":%d,\"nodes\":%llu,\"ms\":%.3f%s%s}\n", ttt_result_name(v.value),
               v.plies, (unsigned long long)v.nodes, ms, pt ? ",\"proof\":" : "", pt ? pt : "");
        free(pt);
    } else {
        printf("%s, %s to move: %s, the game ends in %d more move%s with best play\n%s\n",
               ttt_rules_format(&b->rules, rt, sizeof rt), side, ttt_result_name(v.value), v.plies,
               v.plies == 1 ? "" : "s", work_text(v.nodes, ms, work, sizeof work));
        proof_print(b, &proof);
    }
    return cert_rc;
}

/* path as an absolute path when its directory exists ("s.bin" in /tmp: "/tmp/s.bin"), into buf
 * (SOLVE_TMP_SIZE bytes); else path itself. For files that do not exist yet. */
static const char *resolved_path(const char *path, char *buf)
{
    const char *slash = strrchr(path, '/');
    char dir[SOLVE_PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    char *real = realpath(slash == path ? "/" : dir, NULL);
    snprintf(buf, SOLVE_TMP_SIZE, "%s/%s", real ? real : "", slash ? slash + 1 : path);
    bool ok = real != NULL;
    free(real);
    return ok ? buf : path;
}

/* Whether paths a and b name the same file: the same device and inode when one exists, else the same
 * resolved path. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    bool has_a = stat(a, &sa) == 0, has_b = stat(b, &sb) == 0;
    if (has_a || has_b)
        return has_a && has_b && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ra[SOLVE_TMP_SIZE], rb[SOLVE_TMP_SIZE];
    return strcmp(resolved_path(a, ra), resolved_path(b, rb)) == 0;
}

/* --checkpoint FILE and --resume FILE (without --mpi), before the search: resuming reads `resume` (NULL: none)
 * into the solver (exit 2 for a file that is not a checkpoint of this position and rules, leaving it as it
 * was); the checkpoints go to `path` (resume itself, or another file), which must not be a file other than a
 * checkpoint (not overwritten) and whose temporary file must be writable now, not at the first checkpoint
 * minutes later. */
static int checkpoint_open(ttt_solver *solver, const ttt_board *b, const char *path, const char *resume)
{
    /* Written beside path and renamed over it: a directory, a device (/dev/null) or a pipe (whose open would
     * wait for a writer) is no checkpoint, and is not replaced. */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return cli_usage("solve", "%s is not a regular file: not a checkpoint", path);
    if (resume && stat(resume, &sb) == 0 && !S_ISREG(sb.st_mode))
        return cli_usage("solve", "%s is not a regular file: not a checkpoint", resume);
    if (!resume || !same_file(path, resume)) {
        FILE *f = fopen(path, "rb");
        char head[sizeof TTT_CHECKPOINT_MAGIC - 1];
        size_t got = f ? fread(head, 1, sizeof head, f) : 0;
        bool other = got > 0 && (got < sizeof head || memcmp(head, TTT_CHECKPOINT_MAGIC, sizeof head) != 0);
        if (f)
            fclose(f);
        if (other)
            return cli_usage("solve", "%s is not a checkpoint of ttt solve: not overwriting it", path);
        char tmp[SOLVE_PATH_MAX + 8];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *probe = ttt_file_open_new(tmp);
        if (!probe)
            return cli_usage("solve", "cannot write the checkpoint %s: %s", tmp, strerror(errno));
        fclose(probe);
        remove(tmp);
    }
    if (!resume)
        return CLI_OK;
    FILE *f = fopen(resume, "rb");
    if (!f)
        return cli_usage("solve", "cannot read the checkpoint %s: %s", resume, strerror(errno));
    ttt_checkpoint_info info;
    ttt_error err;
    ttt_status st = ttt_solver_load(solver, b, f, &info, &err);
    fclose(f);
    if (st)
        return st == TTT_EINVAL ? cli_usage("solve", "%s: %s", resume, err.msg)
                                : cli_runtime("solve", "%s: %s", resume, err.msg);
    char what[CHECKPOINT_TEXT_SIZE], elsewhere[SOLVE_PATH_MAX + 32] = "";
    if (!same_file(path, resume))
        snprintf(elsewhere, sizeof elsewhere, " (checkpoints to %s)", path);
    fprintf(stderr, "ttt solve: resuming from %s%s: %s\n", resume, elsewhere,
            checkpoint_text(&info, b, what));
    return CLI_OK;
}

/* The files of --certificate (cert), --checkpoint (save) and --resume (resume), each may be NULL: refused in
 * one line (exit 2) when a path is too long, or when the certificate would be the checkpoint's file (the
 * checkpoint, written last, would replace it, or it the checkpoint being resumed). */
static int files_apart(const char *cert, const char *save, const char *resume)
{
    const char *paths[] = {cert, save, resume}, *names[] = {"--certificate", "--checkpoint", "--resume"};
    for (int i = 0; i < 3; i++)
        if (paths[i] && strlen(paths[i]) >= SOLVE_PATH_MAX)
            return cli_usage("solve", "the %s path is longer than %d bytes", names[i], SOLVE_PATH_MAX - 1);
    for (int i = 1; cert && i < 3; i++) {
        if (paths[i] && same_file(cert, paths[i]))
            return cli_usage("solve", "--certificate and %s name the same file (%s): use two files", names[i],
                             cert);
        char tmp[SOLVE_TMP_SIZE]; /* the checkpoint is written there first, then renamed */
        snprintf(tmp, sizeof tmp, "%s.tmp", paths[i] ? paths[i] : "");
        if (paths[i] && same_file(cert, tmp))
            return cli_usage("solve", "--certificate names the file %s writes first (%s): use another file",
                             names[i], cert);
    }
    return CLI_OK;
}

/* --threads N above 1 where the solver would run one thread (ttt_solver_set_threads), refused in one line:
 * with a budget the search itself keeps (budgeted), on misère rules, and for --value on rules without the draw
 * prover (its first-move proofs are the value search's only threads). */
static int threads_usable(int threads, const ttt_rules *rules, bool value_only, bool budgeted)
{
    if (threads <= 1)
        return CLI_OK;
    if (budgeted)
        return cli_usage("solve",
                         "--threads goes without --time or --nodes (a budget keeps the search on one "
                         "thread, the same every run), unless with --checkpoint FILE");
    if (!ttt_rules_line_wins(rules))
        return cli_usage("solve", "--threads: misere rules are solved on one thread");
    if (value_only && !ttt_solver_proves_draws(rules))
        return cli_usage("solve",
                         "--value --threads: only the draw prover's boards (k >= 5, 36 to 128 cells) "
                         "use threads for the value");
    return CLI_OK;
}

int cmd_solve(int argc, char **argv)
{
    enum {
        OPT_TT = 256,
        OPT_THREADS,
        OPT_CERTIFICATE,
        OPT_MPI,
        OPT_JOBN,
        OPT_JOBT,
        OPT_CKPT,
        OPT_RESUME,
        OPT_EVERY
    };
    static const struct option longopts[] = {{"rules", required_argument, NULL, 'r'},
                                             {"moves", required_argument, NULL, 'm'},
                                             {"time", required_argument, NULL, 't'},
                                             {"nodes", required_argument, NULL, 'n'},
                                             {"tt", required_argument, NULL, OPT_TT},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"json", no_argument, NULL, 'j'},
                                             {"value", no_argument, NULL, 'v'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"certificate", required_argument, NULL, OPT_CERTIFICATE},
                                             {"mpi", no_argument, NULL, OPT_MPI},
                                             {"job-nodes", required_argument, NULL, OPT_JOBN},
                                             {"job-timeout", required_argument, NULL, OPT_JOBT},
                                             {"checkpoint", required_argument, NULL, OPT_CKPT},
                                             {"resume", required_argument, NULL, OPT_RESUME},
                                             {"checkpoint-every", required_argument, NULL, OPT_EVERY},
                                             {NULL, 0, NULL, 0}};
    bool mpi = false;
    uint64_t job_ms = 0;
    dist_solve_options dist = {.tt_mib = SOLVE_DEFAULT_TT_MIB};
    const char *rules_text = NULL, *moves_text = NULL, *cert_path = NULL, *save_path = NULL,
               *resume_path = NULL;
    uint64_t time_ms = 0, nodes = 0, tt_mib = SOLVE_DEFAULT_TT_MIB, threads = 1;
    uint64_t every_s = SOLVE_CHECKPOINT_EVERY_S;
    bool every_given = false;
    bool json = false, value_only = false;
    optind = 0;
    for (int c; (c = cli_getopt("solve", argc, argv, "r:m:t:h", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'm': moves_text = optarg; break;
        case 't':
            if (cli_parse_uint("solve", "--time", optarg, 0, UINT64_MAX, "milliseconds", &time_ms))
                return CLI_USAGE;
            break;
        case 'n':
            if (cli_parse_uint("solve", "--nodes", optarg, 0, UINT64_MAX, "a number of nodes", &nodes))
                return CLI_USAGE;
            break;
        case OPT_TT:
            if (cli_parse_uint("solve", "--tt", optarg, 1, SOLVE_MAX_TT_MIB, "MiB", &tt_mib))
                return CLI_USAGE;
            break;
        case OPT_THREADS:
            if (cli_parse_uint("solve", "--threads", optarg, 1, TTT_SOLVER_MAX_THREADS, "a number of threads",
                               &threads))
                return CLI_USAGE;
            break;
        case OPT_CERTIFICATE: cert_path = optarg; break;
        case 'v': value_only = true; break;
        case 'j': json = true; break;
        case OPT_MPI: mpi = true; break;
        case OPT_JOBN:
            if (cli_parse_uint("solve", "--job-nodes", optarg, 1, UINT64_MAX, "a number of nodes",
                               &dist.job_nodes))
                return CLI_USAGE;
            break;
        case OPT_JOBT:
            if (cli_parse_uint("solve", "--job-timeout", optarg, 1, UINT32_MAX, "milliseconds", &job_ms))
                return CLI_USAGE;
            dist.silent_ms = (double)job_ms;
            break;
        case OPT_CKPT: save_path = optarg; break;
        case OPT_RESUME: resume_path = optarg; break;
        case OPT_EVERY:
            if (cli_parse_uint("solve", "--checkpoint-every", optarg, 0, UINT32_MAX, "seconds", &every_s))
                return CLI_USAGE;
            every_given = true;
            break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (argc - optind > 1)
        return cli_usage("solve", "one position expected, got %d arguments", argc - optind);
    int rc;
    if ((rc = files_apart(cert_path, save_path, resume_path)))
        return rc;
    if (mpi && save_path && resume_path && !same_file(save_path, resume_path))
        return cli_usage("solve", "with --mpi, --resume FILE goes on writing FILE: no --checkpoint");
    /* Resumed from resume_path, saved to save_path, or to resume_path without --checkpoint. */
    dist.checkpoint = resume_path ? resume_path : save_path;
    dist.resume = resume_path != NULL;
    const char *ckpt = mpi ? NULL : save_path ? save_path : resume_path; /* this process's checkpoints */
    if (value_only && (nodes || time_ms) && !ckpt)
        return cli_usage("solve", "--value solves exactly and takes no --time or --nodes (but with "
                                  "--checkpoint FILE, where they bound this run)");
    if (cert_path && (nodes || time_ms))
        return cli_usage("solve", "--certificate needs the value proven: no --time or --nodes");
    if (mpi && (value_only || nodes || time_ms || threads > 1))
        return cli_usage("solve",
                         "--mpi values every move exactly: no --value, --time, --nodes or --threads");
    if (!mpi && (dist.job_nodes || job_ms))
        return cli_usage("solve", "--job-nodes and --job-timeout go with --mpi");
    if (every_given && !ckpt)
        return cli_usage("solve",
                         mpi ? "--checkpoint-every goes without --mpi: the job tree is written every "
                               "second"
                             : "--checkpoint-every goes with --checkpoint FILE or --resume FILE");
    ttt_board b;
    rc = cli_position("solve", rules_text, optind < argc ? argv[optind] : NULL, moves_text, &b);
    if (rc)
        return rc;
    if (ttt_board_terminal(&b) && json) {
        /* A finished game has its value at once, as for the side to move: lost to the line just completed, or
         * drawn; the outcome as every text of the project names it. */
        ttt_player winner = ttt_board_winner(&b);
        json_t *o = json_pack("{s:s, s:s, s:i, s:[], s:i, s:f, s:i}", "outcome",
                              ttt_outcome_name(ttt_board_outcome(&b)), "value",
                              ttt_result_name(winner == TTT_NOBODY ? TTT_DRAW_VALUE : TTT_LOSS), "plies", 0,
                              "moves", "nodes", 0, "ms", 0.0, "depth", 0);
        return print_json(o);
    }
    if (ttt_board_terminal(&b)) {
        char status[128];
        return cli_usage("solve", "the game is over (%s): nothing to solve",
                         cli_status_line(&b, status, sizeof status));
    }
    if ((rc = threads_usable((int)threads, &b.rules, value_only, ckpt == NULL && (nodes || time_ms))))
        return rc;
    if (cert_path && b.cells > TTT_CERT_MAX_CELLS)
        return cli_usage("solve", "--certificate: boards of at most %d cells, not %d", TTT_CERT_MAX_CELLS,
                         b.cells);
    ttt_solver *solver;
    ttt_error err;
    if (ttt_solver_new(&b.rules, (int)tt_mib, &solver, &err))
        return cli_runtime("solve", "%s", err.msg);
    if (ttt_solver_set_threads(solver, (int)threads, &err)) {
        ttt_solver_free(solver);
        return cli_runtime("solve", "%s", err.msg);
    }
    if (cert_path && !mpi && (rc = certificate_probe(cert_path))) {
        ttt_solver_free(solver);
        return rc;
    }
    if (ckpt && (rc = checkpoint_open(solver, &b, ckpt, resume_path))) {
        ttt_solver_free(solver);
        return rc;
    }
    /* Ctrl-C is caught before the warning below says what it does, so that one sent on seeing it is not lost. */
    struct sigaction sa = {.sa_handler = on_sigint}, old_sa, old_term;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_sa);
    if (ckpt) /* saved before exit, as on Ctrl-C */
        sigaction(SIGTERM, &sa, &old_term);
    if (!mpi && !nodes && !time_ms && !ckpt && may_take_long(solver, &b, value_only)) {
        char rt[TTT_RULES_TEXT_SIZE];
        fprintf(stderr, "ttt solve: %s with %d empty cells may take long to solve exactly (%s)\n",
                ttt_rules_format(&b.rules, rt, sizeof rt), b.cells - b.ply,
                value_only ? "Ctrl-C prints what is known; without --value, --time MS sets a budget"
                           : "use --time MS or --nodes N for a budget; Ctrl-C prints what is known");
    }
    struct winsize ws;
    bool tty = isatty(STDERR_FILENO);
    solve_watch watch = {.board = &b,
                         .draw = tty,
                         .value_only = value_only,
                         .width = tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0
                                      ? ws.ws_col
                                      : SOLVE_DEFAULT_WIDTH,
                         .last.best_move = TTT_NO_MOVE};
    if (ckpt) /* the budget is this run's: the search stays the exact one, as it will be on resuming */
        watch.save = (solve_saving){.path = ckpt,
                                    .solver = solver,
                                    .every_ms = (double)every_s * 1000.0,
                                    .nodes = nodes,
                                    .ms = (double)time_ms};
    if (value_only) {
        rc = solve_value(solver, &watch, json, cert_path);
        sigaction(SIGINT, &old_sa, NULL);
        if (ckpt)
            sigaction(SIGTERM, &old_term, NULL);
        return rc;
    }
    ttt_limits limits = {.nodes = ckpt ? 0 : nodes,
                         .ms = ckpt ? 0.0 : (double)time_ms,
                         .depth = 0,
                         .progress = solve_progress,
                         .user = &watch};
    ttt_search_result *r = malloc(sizeof *r);
    dist.tt_mib = (int)tt_mib;
    dist.certificate = cert_path;
    dist_solve_stats stats;
    bool root = true;
    ttt_status st = !r    ? TTT_ENOMEM
                    : mpi ? dist_solve(&b, &dist, r, &stats, &root, &err)
                          : ttt_solver_search(solver, &b, &limits, true, r, &err);
    sigaction(SIGINT, &old_sa, NULL);
    if (ckpt)
        sigaction(SIGTERM, &old_term, NULL);
    if (mpi && root && !st) { /* what the job tree did, for the scaling figures */
        char ranks[CLI_COUNTED_SIZE], jobs[CLI_COUNTED_SIZE], proven[CLI_COUNT_SIZE], tree[CLI_COUNTED_SIZE],
            depth[CLI_COUNTED_SIZE], busiest[CLI_COUNT_SIZE], largest[CLI_COUNT_SIZE],
            resumed[CLI_COUNT_SIZE], lost[CLI_COUNTED_SIZE];
        fprintf(stderr,
                "ttt solve: %s, %s (%s proven), %.1f jobs/s, a tree of %s %s deep, busiest worker %s nodes, "
                "largest job %s, %s nodes resumed, %s lost\n",
                cli_counted((uint64_t)stats.ranks, "rank", "ranks", ranks, sizeof ranks),
                cli_counted(stats.jobs, "job", "jobs", jobs, sizeof jobs),
                cli_count(stats.jobs_proven, proven, sizeof proven),
                r->ms > 0 ? (double)stats.jobs * 1000.0 / r->ms : 0.0,
                cli_counted((uint64_t)stats.tree_nodes, "node", "nodes", tree, sizeof tree),
                cli_counted((uint64_t)stats.tree_depth, "ply", "plies", depth, sizeof depth),
                cli_count(stats.busiest, busiest, sizeof busiest),
                cli_count(stats.largest_job, largest, sizeof largest),
                cli_count(stats.resumed, resumed, sizeof resumed),
                cli_counted((uint64_t)stats.lost, "worker", "workers", lost, sizeof lost));
    }
    if (mpi && root && !st && cert_path) { /* written by dist_solve, from the workers' pieces */
        char total[CLI_COUNT_SIZE], top[CLI_COUNT_SIZE], pieces[CLI_COUNTED_SIZE];
        fprintf(stderr, "ttt solve: certificate %s: %s nodes (%s from the job tree, %s)\n", cert_path,
                cli_count(stats.cert_nodes, total, sizeof total), cli_count(stats.cert_top, top, sizeof top),
                cli_counted((uint64_t)stats.cert_pieces, "piece", "pieces", pieces, sizeof pieces));
    }
    if (!root) { /* a worker prints nothing */
        ttt_solver_free(solver);
        free(r);
        return st ? cli_runtime("solve", "%s", err.msg) : CLI_OK;
    }
    if (watch.draw && watch.drawn_ms > 0)
        fputs("\r\033[K", stderr);
    /* The checkpoint first: Ctrl-C while the certificate is written ends the run. */
    int save_rc = !st && ckpt ? checkpoint_final(&watch.save, &b) : CLI_OK;
    int cert_rc = !st && cert_path && r->proven && !mpi
                      ? solve_certificate(solver, &b, ttt_score_result(r->score), cert_path)
                      : CLI_OK;
    if (!st && cert_path && !r->proven && !mpi)
        certificate_skipped();
    ttt_proof_report proof;
    ttt_solver_proof_report(solver, &proof);
    ttt_solver_free(solver);
    if (st) {
        free(r);
        return cli_runtime("solve", "%s", r ? err.msg : "out of memory");
    }
    if (save_rc) {
        free(r);
        return save_rc;
    }
    if ((interrupted || watch.save.spent) && !r->proven) {
        rc = report_interrupted(&watch, r, &proof, json, interrupted != 0);
        free(r);
        return rc ? rc : interrupted ? SOLVE_EXIT_SIGNAL_BASE + interrupted : CLI_OK;
    }
    int plies = ttt_score_plies(&b, r->score);
    if (json) {
        json_t *moves = json_array();
        for (int i = 0; i < r->count; i++) {
            char m[TTT_MOVE_TEXT_SIZE];
            json_t *mv =
                json_pack("{s:s, s:s}", "move", ttt_move_format(&b.rules, r->moves[i].move, m, sizeof m),
                          "value", value_name(r->moves[i].score, r->proven));
            if (r->proven)
                json_object_set_new(mv, "plies", json_integer(ttt_score_plies(&b, r->moves[i].score)));
            else
                json_object_set_new(mv, "score", json_integer(r->moves[i].score));
            json_array_append_new(moves, mv);
        }
        json_t *o = json_pack("{s:s, s:o, s:o, s:I, s:f, s:i}", "value", value_name(r->score, r->proven),
                              "plies", r->proven ? json_integer(plies) : json_null(), "moves", moves, "nodes",
                              (json_int_t)r->nodes, "ms", r->ms, "depth", r->depth);
        json_t *pj = proof_json(&b, &proof);
        if (pj)
            json_object_set_new(o, "proof", pj);
        free(r);
        rc = print_json(o);
        return rc ? rc : cert_rc;
    }
    char rt[TTT_RULES_TEXT_SIZE];
    const char *side = ttt_board_to_move(&b) == TTT_X ? "X" : "O";
    if (r->proven)
        printf("%s, %s to move: %s, the game ends in %d more move%s with best play\n",
               ttt_rules_format(&b.rules, rt, sizeof rt), side, value_name(r->score, true), plies,
               plies == 1 ? "" : "s");
    else
        printf("%s, %s to move: unknown (not solved within the budget; searched %d plies deep)\n",
               ttt_rules_format(&b.rules, rt, sizeof rt), side, r->depth);
    printf("%-5s %-7s %s\n", "move", "value", r->proven ? "moves to the end" : "heuristic score");
    for (int i = 0; i < r->count; i++) {
        char m[TTT_MOVE_TEXT_SIZE];
        ttt_move_format(&b.rules, r->moves[i].move, m, sizeof m);
        if (r->proven)
            printf("%-5s %-7s %d\n", m, value_name(r->moves[i].score, true),
                   ttt_score_plies(&b, r->moves[i].score));
        else
            printf("%-5s %-7s %d\n", m, "?", r->moves[i].score);
    }
    char work[SOLVE_WORK_SIZE];
    printf("%s\n", work_text(r->nodes, r->ms, work, sizeof work));
    proof_print(&b, &proof);
    free(r);
    return cert_rc;
}
