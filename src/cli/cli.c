/* cli/cli.c - helpers shared by the subcommands: errors, positions from options, drawing a board. */
#include "cli/cli.h"

#include <assert.h>
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/suggest.h"

enum {
    CLI_SHORTOPTS_SIZE = 64,  /* a command's getopt letters */
    CLI_AMBIGUOUS_SIZE = 256, /* "--nodes, --no-record, ..." */
};

static int report(int code, const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "ttt %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    return code;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int code = report(CLI_USAGE, cmd, fmt, ap);
    va_end(ap);
    return code;
}

int cli_runtime(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int code = report(CLI_RUNTIME, cmd, fmt, ap);
    va_end(ap);
    return code;
}

int cli_status_exit(ttt_status status)
{
    return status == TTT_OK ? CLI_OK : status == TTT_EINVAL ? CLI_USAGE : CLI_RUNTIME;
}

int cli_store_error(const char *cmd, ttt_status status, const ttt_error *err, bool given, const char *without)
{
    int code = status == TTT_EIO || status == TTT_ENOMEM ? CLI_RUNTIME : CLI_USAGE;
    if (given && !without)
        fprintf(stderr, "ttt %s: %s\n", cmd, err->msg);
    else if (given)
        fprintf(stderr, "ttt %s: %s (%s)\n", cmd, err->msg, without);
    else
        fprintf(stderr, "ttt %s: %s (--db PATH for another file%s%s)\n", cmd, err->msg, without ? ", " : "",
                without ? without : "");
    return code;
}

int cli_check_db(const char *cmd, const char *path)
{
    return path && !*path ? cli_usage(cmd, "--db '': expected the path of a database file") : CLI_OK;
}

int cli_parse_uint(const char *cmd, const char *option, const char *text, uint64_t min, uint64_t max,
                   const char *what, uint64_t *out)
{
    assert(min <= max);
    const char *p = text;
    uint64_t v = 0;
    bool overflow = false;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10)
            overflow = true;
        else
            v = v * 10 + digit;
    }
    if (p == text || *p)
        return cli_usage(cmd, "%s '%s': expected %s from %" PRIu64 " to %" PRIu64, option, text, what, min,
                         max);
    if (overflow || v < min || v > max)
        return cli_usage(cmd, "%s '%s': out of range, expected %s from %" PRIu64 " to %" PRIu64, option, text,
                         what, min, max);
    *out = v;
    return CLI_OK;
}

const char *cli_count(uint64_t n, char *buf, size_t size)
{
    char digits[CLI_COUNT_SIZE];
    int len = snprintf(digits, sizeof digits, "%" PRIu64, n);
    char grouped[CLI_COUNT_SIZE];
    int out = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            grouped[out++] = ',';
        grouped[out++] = digits[i];
    }
    grouped[out] = '\0';
    snprintf(buf, size, "%s", grouped);
    return buf;
}

const char *cli_duration(double ms, char *buf, size_t size)
{
    enum { MS_PER_S = 1000, S_PER_MIN = 60, S_PER_H = 3600 };
    if (ms < 0)
        ms = 0;
    if (ms < 10)
        snprintf(buf, size, "%.2f ms", ms);
    else if (ms < MS_PER_S - 0.5)
        snprintf(buf, size, "%.0f ms", ms);
    else if (ms < S_PER_MIN * MS_PER_S - 50)
        snprintf(buf, size, "%.1f s", ms / MS_PER_S);
    else {
        long s = (long)(ms / MS_PER_S + 0.5);
        if (s < S_PER_H)
            snprintf(buf, size, "%ld min %02ld s", s / S_PER_MIN, s % S_PER_MIN);
        else
            snprintf(buf, size, "%ld h %02ld min", s / S_PER_H, s % S_PER_H / S_PER_MIN);
    }
    return buf;
}

const char *cli_plural(uint64_t n, const char *one, const char *many) { return n == 1 ? one : many; }

const char *cli_counted(uint64_t n, const char *one, const char *many, char *buf, size_t size)
{
    char digits[CLI_COUNT_SIZE];
    snprintf(buf, size, "%s %s", cli_count(n, digits, sizeof digits), cli_plural(n, one, many));
    return buf;
}

/* When the current bar started (cli_progress_begin), in ttt_clock_ms time. */
static double progress_start;

void cli_progress_begin(void) { progress_start = ttt_clock_ms(); }

/* "1:05" or "1:02:05". */
static const char *clock_text(double ms, char *buf, size_t size)
{
    long s = ms > 0 ? (long)(ms / 1000.0 + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

void cli_progress(uint64_t done, uint64_t total, const char *extra)
{
    cli_progress_unit(done, total, "games", extra);
}

void cli_progress_unit(uint64_t done, uint64_t total, const char *unit, const char *extra)
{
    static const char full[CLI_PROGRESS_WIDTH + 1] = "##############################";
    double frac = total ? (double)done / (double)total : 1.0;
    int filled = (int)(frac * CLI_PROGRESS_WIDTH);
    char times[128] = "", e[32], l[32];
    if (progress_start > 0) {
        double elapsed = ttt_clock_ms() - progress_start;
        if (done > 0 && done < total)
            snprintf(times, sizeof times, "  %s elapsed, ~%s left", clock_text(elapsed, e, sizeof e),
                     clock_text(elapsed * (double)(total - done) / (double)done, l, sizeof l));
        else
            snprintf(times, sizeof times, "  %s elapsed", clock_text(elapsed, e, sizeof e));
    }
    char d[CLI_COUNT_SIZE], t[CLI_COUNT_SIZE];
    fprintf(stderr, "\r\033[K[%.*s%*s] %3d%%  %s/%s %s%s%s", filled, full, CLI_PROGRESS_WIDTH - filled, "",
            (int)(frac * 100), cli_count(done, d, sizeof d), cli_count(total, t, sizeof t), unit, times,
            extra);
    fflush(stderr);
}

void cli_progress_end(uint64_t total)
{
    cli_progress(total, total, "");
    fputs("\r\033[K", stderr);
    fflush(stderr);
}

void cli_progress_games(uint64_t done, uint64_t total, void *user)
{
    (void)user;
    cli_progress(done, total, "");
}

const char *cli_closest(const char *word, const char *const *names, int n)
{
    return ttt_suggest(word, strlen(word), names, n);
}

const char *cli_did_you_mean(const char *word, const char *const *names, int n, char *buf, size_t size)
{
    const char *close = cli_closest(word, names, n);
    if (close)
        snprintf(buf, size, "; did you mean '%s'?", close);
    else if (size)
        buf[0] = '\0';
    return buf;
}

/* Explains the option getopt_long rejected. arg is the argument that held it; optopt is getopt's. */
static void explain_bad_option(const char *cmd, const char *arg, int code, int opt,
                               const struct option *longopts)
{
    enum { MAX_OPTIONS = 64, NAME_SIZE = 64 };
    const char *names[MAX_OPTIONS];
    int n = 0;
    for (const struct option *o = longopts; o->name && n < MAX_OPTIONS; o++)
        names[n++] = o->name;
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    /* A long option: "--name" or "--name=value" whose name (or a prefix of it) matches opt, or opt is 0. */
    bool is_long = strncmp(arg, "--", 2) == 0 && len > 2;
    const struct option *match = NULL;
    int matches = 0;
    if (is_long) {
        for (const struct option *o = longopts; o->name; o++)
            if (strncmp(o->name, arg + 2, len - 2) == 0) {
                if (strlen(o->name) == len - 2) { /* exact */
                    match = o;
                    matches = 1;
                    break;
                }
                match = o;
                matches++;
            }
        if (opt && (!match || matches > 1 || match->val != opt))
            is_long = false; /* the bad option is a letter in a later "-abc" */
    }
    if (is_long && code == ':')
        cli_usage(cmd, "--%s needs a value", match->name);
    else if (is_long && matches == 1 && eq)
        cli_usage(cmd, "--%s takes no value", match->name);
    else if (is_long && matches > 1) {
        char list[CLI_AMBIGUOUS_SIZE] = "";
        size_t used = 0;
        for (const struct option *o = longopts; o->name; o++)
            if (strncmp(o->name, arg + 2, len - 2) == 0 && used < sizeof list)
                used +=
                    (size_t)snprintf(list + used, sizeof list - used, "%s--%s", used ? ", " : "", o->name);
        cli_usage(cmd, "'%.*s' is short for more than one option: %s", (int)len, arg, list);
    } else if (is_long || !opt) {
        char word[NAME_SIZE], hint[NAME_SIZE * 2] = "";
        snprintf(word, sizeof word, "%.*s", (int)(len > 2 ? len - 2 : 0), arg + 2);
        const char *close = cli_closest(word, names, n);
        if (close)
            snprintf(hint, sizeof hint, "; did you mean '--%s'?", close);
        if (close)
            cli_usage(cmd, "unknown option '%.*s'%s", (int)len, arg, hint);
        else
            cli_usage(cmd, "unknown option '%.*s' (see 'ttt %s --help')", (int)len, arg, cmd);
    } else if (code == ':') {
        const char *name = NULL;
        for (const struct option *o = longopts; o->name && !name; o++)
            if (o->val == opt && !o->flag)
                name = o->name; /* the first: --db before its synonym --memory */
        if (name)
            cli_usage(cmd, "-%c (--%s) needs a value", opt, name);
        else
            cli_usage(cmd, "-%c needs a value", opt);
    } else if (opt > ' ' && opt < 127)
        cli_usage(cmd, "unknown option '-%c' (see 'ttt %s --help')", opt, cmd);
    else
        cli_usage(cmd, "bad option '%s' (see 'ttt %s --help')", arg, cmd);
}

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char spec[CLI_SHORTOPTS_SIZE];
    assert(shortopts[0] != '+' && shortopts[0] != '-' && shortopts[0] != ':');
    int written = snprintf(spec, sizeof spec, ":%s", shortopts);
    assert(written > 0 && (size_t)written < sizeof spec);
    (void)written;
    opterr = 0;
    optopt = 0;
    int c = getopt_long(argc, argv, spec, longopts, NULL);
    if (c != '?' && c != ':')
        return c;
    const char *arg = optind - 1 < argc && optind > 0 ? argv[optind - 1] : "?";
    explain_bad_option(cmd, arg, c, optopt, longopts);
    return '?';
}

int cli_position(const char *cmd, const char *rules_text, const char *position_text, const char *moves_text,
                 ttt_board *out)
{
    ttt_error err;
    ttt_rules rules = ttt_rules_default();
    if (rules_text && ttt_rules_parse(rules_text, &rules, &err))
        return cli_usage(cmd, "%s", err.msg);
    if (position_text && moves_text)
        return cli_usage(cmd, "give a position or --moves, not both");
    if (position_text) {
        if (ttt_position_parse(position_text, rules_text ? &rules : NULL, out, &err))
            return cli_usage(cmd, "%s", err.msg);
        return CLI_OK;
    }
    if (moves_text) {
        ttt_move moves[TTT_MAX_CELLS + 1];
        int n;
        if (ttt_moves_parse(moves_text, &rules, moves, TTT_MAX_CELLS + 1, &n, &err) ||
            ttt_moves_replay(&rules, moves, n, out, &err))
            return cli_usage(cmd, "%s", err.msg);
        return CLI_OK;
    }
    ttt_board_init(out, &rules);
    return CLI_OK;
}

const char *cli_status_line(const ttt_board *b, char *buf, size_t size)
{
    ttt_outcome o = ttt_board_outcome(b);
    const char *line_by = b->line_owner == TTT_X ? "X" : "O";
    switch (o) {
    case TTT_ONGOING: snprintf(buf, size, "%s to move", ttt_board_to_move(b) == TTT_X ? "X" : "O"); break;
    case TTT_X_WINS:
    case TTT_O_WINS:
        if (!ttt_rules_line_wins(&b->rules))
            snprintf(buf, size, "%s wins: %s completed a line, and in misere that loses",
                     o == TTT_X_WINS ? "X" : "O", line_by);
        else
            snprintf(buf, size, "%s wins", o == TTT_X_WINS ? "X" : "O");
        break;
    case TTT_DRAW: snprintf(buf, size, "draw: the board is full"); break;
    }
    return buf;
}

void cli_draw_board(FILE *f, const ttt_board *b)
{
    const ttt_rules *r = &b->rules;
    ttt_move line[TTT_MAX_SIDE];
    int nline = ttt_board_line_cells(b, line);
    fprintf(f, "    ");
    for (int c = 0; c < r->cols; c++)
        fprintf(f, " %c", 'a' + c);
    fputc('\n', f);
    for (int row = 0; row < r->rows; row++) {
        fprintf(f, " %2d ", row + 1);
        for (int c = 0; c < r->cols; c++) {
            ttt_player p = ttt_board_at(b, row * r->cols + c);
            fprintf(f, " %c", p == TTT_X ? 'X' : p == TTT_O ? 'O' : '.');
        }
        fputc('\n', f);
    }
    char status[128], rules_text[TTT_RULES_TEXT_SIZE];
    fprintf(f, "%s (%s, %d in a row%s, %d stone%s played)\n", cli_status_line(b, status, sizeof status),
            ttt_rules_format(r, rules_text, sizeof rules_text), r->k, !ttt_rules_line_wins(r) ? " loses" : "",
            b->ply, b->ply == 1 ? "" : "s");
    if (nline) {
        fprintf(f, "line:");
        for (int i = 0; i < nline; i++) {
            char m[TTT_MOVE_TEXT_SIZE];
            fprintf(f, " %s", ttt_move_format(r, line[i], m, sizeof m));
        }
        fputc('\n', f);
    }
}

/* What the SIGINT handlers reach (a handler can reach nothing else): the flag, and the line to write before
 * exiting. A lock-free atomic is safe both in a handler and across threads. */
static atomic_bool interrupt_seen;
static char interrupt_line[TTT_ERROR_SIZE];
static size_t interrupt_length;

static void on_interrupt(int sig)
{
    (void)sig;
    atomic_store(&interrupt_seen, true);
}

static void on_interrupt_exit(int sig)
{
    (void)sig;
    ssize_t ignored = write(STDERR_FILENO, interrupt_line, interrupt_length);
    (void)ignored;
    _exit(CLI_INTERRUPTED);
}

static void interrupt_handle(void (*handler)(int), int flags)
{
    struct sigaction sa = {.sa_handler = handler, .sa_flags = flags};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

/* SA_RESTART: a read or write in flight (the database, an outside engine's pipe) goes on rather than failing
 * with EINTR; the job sees the flag at its next check. */
void cli_interrupt_catch(void)
{
    atomic_store(&interrupt_seen, false);
    interrupt_handle(on_interrupt, SA_RESETHAND | SA_RESTART);
}

bool cli_interrupted(void) { return atomic_load(&interrupt_seen); }

void cli_interrupt_release(void) { signal(SIGINT, SIG_DFL); }

void cli_interrupt_exit(const char *cmd, const char *message, bool clear)
{
    int n = snprintf(interrupt_line, sizeof interrupt_line, "%sttt %s: interrupted: %s\n",
                     clear ? "\r\033[K" : "", cmd, message);
    interrupt_length = n < 0 ? 0 : (size_t)n < sizeof interrupt_line ? (size_t)n : sizeof interrupt_line - 1;
    interrupt_handle(on_interrupt_exit, 0);
}

static void ticker_draw(cli_ticker *t) { cli_progress_unit(t->done, t->total, t->unit, t->extra); }

static void *ticker_run(void *arg)
{
    cli_ticker *t = arg;
    pthread_mutex_lock(&t->lock);
    while (t->running) {
        ticker_draw(t);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long ns = until.tv_nsec + CLI_TICK_MS * 1000000L;
        until.tv_sec += ns / 1000000000L;
        until.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&t->wake, &t->lock, &until);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

void cli_ticker_start(cli_ticker *t, uint64_t total, const char *unit)
{
    *t = (cli_ticker){.total = total, .unit = unit, .running = true};
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    cli_progress_begin();
    ticker_draw(t);
    t->threaded = pthread_create(&t->thread, NULL, ticker_run, t) == 0;
}

void cli_ticker_update(cli_ticker *t, uint64_t done, const char *extra)
{
    pthread_mutex_lock(&t->lock);
    t->done = done;
    snprintf(t->extra, sizeof t->extra, "%s", extra);
    if (!t->threaded)
        ticker_draw(t);
    pthread_mutex_unlock(&t->lock);
}

void cli_ticker_note(cli_ticker *t, const char *line)
{
    pthread_mutex_lock(&t->lock);
    fprintf(stderr, "\r\033[K%s\n", line);
    ticker_draw(t);
    pthread_mutex_unlock(&t->lock);
}

void cli_ticker_stop(cli_ticker *t)
{
    pthread_mutex_lock(&t->lock);
    t->running = false;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    if (t->threaded)
        pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
}
