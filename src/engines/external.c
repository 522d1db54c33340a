/*
 * engines/external.c - the `cmd` engine: an outside Gomocup brain (any program that speaks the protocol of
 * ttt/gomocup.h, `ttt brain` among them), started as a child process and played through its standard input
 * and output, so that `ttt arena` can measure engines that are not built in.
 *
 * Why an engine in the library: the arena plays engines made from specs, in worker threads, with per-game
 * seeds and the same reports; an outside brain behind the same interface gets all of that unchanged. The
 * library still prints nothing and never exits: spawning, talking to and reaping the child is this module's
 * alone, and every failure of the brain comes back as TTT_EFORFEIT with the reason, which the arena scores
 * as a loss.
 *
 * The child's standard input and output are one end of a socket pair (writes use MSG_NOSIGNAL, so a brain
 * that dies cannot kill the caller with SIGPIPE); its standard error is the caller's. The conversation:
 *
 *   start      START n (RECTSTART w,h on rectangles) -> OK; INFO timeout_turn, timeout_match 0, rule 0,
 *              game_type 1, and the extension keys ttt_k (when k is not 5), ttt_misere 1, ttt_seed
 *   choose     BEGIN on the empty board; TURN x,y when the position is the brain's last one plus one
 *              opponent stone; else BOARD with every stone (X and O alternating, as a game would have
 *              placed them) and DONE. The answer x,y must come within turn= + tolerance= milliseconds;
 *              MESSAGE, DEBUG and other lines on the way are skipped; lines written unasked before the
 * request are dropped. new_game   RESTART -> OK stop       END, then the child has END_GRACE_MS to exit
 * before it is killed; it is always reaped.
 *
 * A brain that times out, exits, answers ERROR or UNKNOWN, or plays a move that is off the board or on a
 * taken cell forfeits: it is killed and reaped at once, and every later request forfeits too.
 */
#define _GNU_SOURCE /* strsignal */
#include "engines/engine_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttt/gomocup.h"
#include "util/error.h"

extern char **environ;

/* Per-move limit by default (INFO timeout_turn), and the extra wait before a move counts as late. */
#define EXTERNAL_DEFAULT_TURN_MS      1000
#define EXTERNAL_MAX_TURN_MS          86400000
#define EXTERNAL_DEFAULT_TOLERANCE_MS 1000
/* How long the brain has to answer START and RESTART (loading weights or tables may take a while). */
#define EXTERNAL_START_MS 10000
/* After END and the end of its input, the brain has this long to exit before it is killed. */
#define EXTERNAL_END_GRACE_MS 1000
#define EXTERNAL_REAP_POLL_MS 5
/* The protocol's own game; other k go as INFO ttt_k. */
#define EXTERNAL_PROTOCOL_K 5
/* Before each request, at most this much that the brain wrote unasked is dropped (a flood is not waited out).
 */
#define EXTERNAL_MAX_UNASKED (64 * 1024)
/* Words of args= at most (the program's name and the NULL end the argument vector). */
#define EXTERNAL_MAX_ARGS 32

typedef struct external_config {
    char path[TTT_OPT_PATH_SIZE];
    char args[TTT_OPT_PATH_SIZE];
    uint64_t turn_ms;
    uint64_t tolerance_ms;
} external_config;

static const external_config external_defaults = {.path = "",
                                                  .args = "",
                                                  .turn_ms = EXTERNAL_DEFAULT_TURN_MS,
                                                  .tolerance_ms = EXTERNAL_DEFAULT_TOLERANCE_MS};

static const ttt_option_def external_options[] = {
    {"path", TTT_OPT_PATH, offsetof(external_config, path), 0, 0, 0, 0, .arg = "PROGRAM",
     .help = "the brain's program (required; a name without '/' is looked up on PATH)"},
    {"args", TTT_OPT_PATH, offsetof(external_config, args), 0, 0, 0, 0, .arg = "WORDS",
     .help = "its arguments, separated by spaces (no commas; use a script for more)"},
    {"turn", TTT_OPT_UINT, offsetof(external_config, turn_ms), 1, EXTERNAL_MAX_TURN_MS, 0, 0,
     .role = TTT_ROLE_TIME, .arg = "MS", .help = "time per move, sent as INFO timeout_turn"},
    {"tolerance", TTT_OPT_UINT, offsetof(external_config, tolerance_ms), 0, EXTERNAL_MAX_TURN_MS, 0, 0,
     .arg = "MS", .help = "extra wait before a late move forfeits the game"},
    {"seed", TTT_OPT_SEED, 0, 0, 0, 0, 0, .arg = "N", .help = "sent as INFO ttt_seed"},
    {.key = NULL},
};

typedef struct external_state {
    pid_t pid;                         /* the child, or 0 once reaped */
    int fd;                            /* our end of the socket pair, or -1 */
    char in[TTT_GOMOCUP_LINE_MAX + 2]; /* what the brain wrote that is not yet a whole line */
    size_t len;
    ttt_board known; /* the position after the brain's last move */
    bool have_known;
    bool dirty; /* the brain has played since START or RESTART */
} external_state;

/* --- The child ----------------------------------------------------------------------------------------- */

/* Reaps the child, which has exited or been killed, after killing what is left of its process group (the
 * brain's own children, which would otherwise outlive the game). The unreaped child keeps its pid from being
 * reused, so the group is still the brain's. */
static void reap(external_state *s, int *status)
{
    kill(-s->pid, SIGKILL);
    while (waitpid(s->pid, status, 0) < 0 && errno == EINTR)
        ;
    s->pid = 0;
}

/* Waits up to ms for the child to exit (0: just looks); true when it did and was reaped, with its status. */
static bool reap_within(external_state *s, double ms, int *status)
{
    double until = ttt_clock_ms() + ms;
    for (;;) {
        siginfo_t info = {0};
        int r = waitid(P_PID, (id_t)s->pid, &info, WEXITED | WNOHANG | WNOWAIT);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) { /* not our child any more: nothing to kill or reap */
            s->pid = 0;
            return true;
        }
        if (info.si_pid == s->pid) {
            reap(s, status);
            return true;
        }
        if (ttt_clock_ms() >= until)
            return false;
        poll(NULL, 0, EXTERNAL_REAP_POLL_MS);
    }
}

/* Kills the child and its process group, if any, and reaps it; closes our end. */
static void kill_child(external_state *s)
{
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        reap(s, NULL);
    }
}

/* How the child ended, after EOF on its output: "exited with status 3", "was killed by signal 11 (...)". */
static void describe_exit(external_state *s, char *buf, size_t size)
{
    int status = 0;
    if (!reap_within(s, EXTERNAL_END_GRACE_MS, &status)) {
        snprintf(buf, size, "closed its output");
        return;
    }
    if (WIFEXITED(status))
        snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, size, "ended");
}

/* A forfeit: the brain is killed and reaped, err says why. */
static ttt_status forfeit(ttt_engine *e, ttt_error *err, const char *what)
{
    external_config *c = e->config;
    external_state *s = e->state;
    kill_child(s);
    return ttt_fail(err, TTT_EFORFEIT, "engine 'cmd' (%.100s): %s", c->path, what);
}

static ttt_status send_line(ttt_engine *e, const char *line, ttt_error *err)
{
    external_state *s = e->state;
    if (s->fd < 0)
        return forfeit(e, err, "the brain is gone (it failed before)");
    size_t n = strlen(line);
    char buf[TTT_GOMOCUP_TEXT_SIZE + 2];
    if (n + 1 >= sizeof buf)
        return forfeit(e, err, "a command too long to send");
    memcpy(buf, line, n);
    buf[n++] = '\n';
    for (size_t done = 0; done < n;) {
        ssize_t w = send(s->fd, buf + done, n - done, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            char why[TTT_ERROR_SIZE / 2], what[TTT_ERROR_SIZE];
            describe_exit(s, why, sizeof why);
            snprintf(what, sizeof what, "could not be written to: it %s", why);
            return forfeit(e, err, what);
        }
        done += (size_t)w;
    }
    return TTT_OK;
}

/* The first line break (CR or LF) among the n bytes at p, or NULL. */
static char *line_break(char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] == '\n' || p[i] == '\r')
            return p + i;
    return NULL;
}

/* The brain's next line that is not empty (without its line break) into out, waiting until the deadline
 * (ttt_clock_ms). The protocol lets a brain end its lines with CR LF, LF or CR alone; the empty line between
 * CR and LF is skipped. */
static ttt_status read_line(ttt_engine *e, double deadline, const char *waiting_for, const char *limit,
                            char *out, size_t size, ttt_error *err)
{
    external_state *s = e->state;
    for (;;) {
        char *nl = line_break(s->in, s->len);
        if (nl) {
            size_t n = (size_t)(nl - s->in);
            size_t keep = n < size - 1 ? n : size - 1;
            memcpy(out, s->in, keep);
            out[keep] = '\0';
            memmove(s->in, nl + 1, s->len - n - 1);
            s->len -= n + 1;
            if (n > 0)
                return TTT_OK;
            continue;
        }
        if (s->len >= sizeof s->in - 1)
            return forfeit(e, err, "wrote a line longer than the protocol allows");
        double left = deadline - ttt_clock_ms();
        char what[TTT_ERROR_SIZE];
        if (left <= 0) {
            snprintf(what, sizeof what, "timed out waiting for %s (limit %s)", waiting_for, limit);
            return forfeit(e, err, what);
        }
        struct pollfd p = {.fd = s->fd, .events = POLLIN};
        int r = poll(&p, 1, (int)left + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue; /* the deadline is checked above */
        ssize_t got = r > 0 ? read(s->fd, s->in + s->len, sizeof s->in - 1 - s->len) : -1;
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            char why[TTT_ERROR_SIZE / 2];
            describe_exit(s, why, sizeof why);
            snprintf(what, sizeof what, "%s while we waited for %s", why, waiting_for);
            return forfeit(e, err, what);
        }
        s->len += (size_t)got;
    }
}

/* Drops what the brain wrote unasked since its last answer (read, or still in the socket), so that a line
 * written out of turn, a second move after the first, is not taken as the answer to the next request. */
static void drop_unasked(external_state *s)
{
    s->len = 0;
    char junk[4096];
    ssize_t got;
    for (size_t total = 0; total < EXTERNAL_MAX_UNASKED && s->fd >= 0 &&
                           (got = recv(s->fd, junk, sizeof junk, MSG_DONTWAIT)) > 0;
         total += (size_t)got)
        ;
}

/* Waits for OK (START, RESTART); MESSAGE and DEBUG lines are skipped, ERROR is a forfeit. */
static ttt_status expect_ok(ttt_engine *e, const char *command, ttt_error *err)
{
    double deadline = ttt_clock_ms() + EXTERNAL_START_MS;
    char line[TTT_GOMOCUP_LINE_MAX + 1], limit[32];
    snprintf(limit, sizeof limit, "%d ms", EXTERNAL_START_MS);
    for (;;) {
        char waiting[64];
        snprintf(waiting, sizeof waiting, "OK after %s", command);
        ttt_status st = read_line(e, deadline, waiting, limit, line, sizeof line, err);
        if (st)
            return st;
        ttt_gomocup_reply r;
        ttt_gomocup_parse_reply(line, strlen(line), &r);
        if (r.kind == TTT_GOMOCUP_REPLY_OK)
            return TTT_OK;
        if (r.kind != TTT_GOMOCUP_REPLY_MESSAGE && r.kind != TTT_GOMOCUP_REPLY_DEBUG) {
            char what[TTT_ERROR_SIZE];
            snprintf(what, sizeof what, "answered '%.80s' to %s", line, command);
            return forfeit(e, err, what);
        }
    }
}

/* Splits args= at spaces into argv[1..]; argv[0] is the path. */
static ttt_status make_argv(external_config *c, char *words, char **argv, ttt_error *err)
{
    int n = 0;
    argv[n++] = c->path;
    memcpy(words, c->args, sizeof c->args);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (n >= EXTERNAL_MAX_ARGS)
            return ttt_fail(err, TTT_EINVAL, "engine 'cmd': args= has more than %d words",
                            EXTERNAL_MAX_ARGS - 1);
        argv[n++] = w;
    }
    argv[n] = NULL;
    return TTT_OK;
}

static ttt_status spawn(ttt_engine *e, ttt_error *err)
{
    external_config *c = e->config;
    external_state *s = e->state;
    char words[TTT_OPT_PATH_SIZE];
    char *argv[EXTERNAL_MAX_ARGS + 1];
    ttt_status st = make_argv(c, words, argv, err);
    if (st)
        return st;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return ttt_fail(err, TTT_EIO, "engine 'cmd': socketpair: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&fa, sv[1], STDIN_FILENO);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&fa, sv[1], STDOUT_FILENO);
    /* The brain leads a process group of its own, so that a forfeit or the end kills its children too. */
    posix_spawnattr_t attr;
    bool have_attr = false;
    if (rc == 0)
        rc = posix_spawnattr_init(&attr);
    if (rc == 0) {
        have_attr = true;
        rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    }
    if (rc == 0)
        rc = posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = 0;
    if (rc == 0)
        rc = posix_spawnp(&pid, c->path, &fa, &attr, argv, environ); /* a bare name is looked up on PATH */
    if (have_attr)
        posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        return ttt_fail(err, TTT_EINVAL, "engine 'cmd': could not start '%.100s': %s", c->path, strerror(rc));
    }
    s->pid = pid;
    s->fd = sv[0];
    return TTT_OK;
}

/* --- The engine ---------------------------------------------------------------------------------------- */

static ttt_status external_start(ttt_engine *e, ttt_error *err)
{
    external_config *c = e->config;
    if (!c->path[0])
        return ttt_fail(err, TTT_EINVAL, "engine 'cmd': path= is required (the brain's program)");
    external_state *s = calloc(1, sizeof *s);
    if (!s)
        return ttt_fail(err, TTT_ENOMEM, "engine 'cmd': out of memory");
    s->fd = -1;
    e->state = s;
    ttt_status st = spawn(e, err);
    char line[TTT_GOMOCUP_TEXT_SIZE];
    const ttt_rules *r = &e->rules;
    if (st == TTT_OK) {
        if (r->rows == r->cols)
            snprintf(line, sizeof line, "START %d", r->cols);
        else
            snprintf(line, sizeof line, "RECTSTART %d,%d", r->cols, r->rows);
        st = send_line(e, line, err);
    }
    if (st == TTT_OK)
        st = expect_ok(e, line, err);
    char infos[8][TTT_GOMOCUP_TEXT_SIZE];
    int n = 0;
    snprintf(infos[n++], sizeof infos[0], "INFO timeout_turn %" PRIu64, c->turn_ms);
    snprintf(infos[n++], sizeof infos[0], "INFO timeout_match 0");
    snprintf(infos[n++], sizeof infos[0], "INFO rule 0");
    snprintf(infos[n++], sizeof infos[0], "INFO game_type 1");
    if (r->k != EXTERNAL_PROTOCOL_K)
        snprintf(infos[n++], sizeof infos[0], "INFO ttt_k %d", r->k);
    if (!ttt_rules_line_wins(r))
        snprintf(infos[n++], sizeof infos[0], "INFO ttt_misere 1");
    snprintf(infos[n++], sizeof infos[0], "INFO ttt_seed %" PRIu64, e->seed);
    for (int i = 0; i < n && st == TTT_OK; i++)
        st = send_line(e, infos[i], err);
    if (st) {
        kill_child(s);
        free(s);
        e->state = NULL;
    }
    return st;
}

/* The command that brings the brain from its last position to b: BEGIN, TURN x,y or a whole BOARD. */
static ttt_status send_position(ttt_engine *e, const ttt_board *b, ttt_error *err)
{
    external_state *s = e->state;
    int cols = b->rules.cols;
    char line[TTT_GOMOCUP_TEXT_SIZE];
    if (b->ply == 0 && !s->dirty)
        return send_line(e, "BEGIN", err);
    if (s->have_known && b->ply == s->known.ply + 1) {
        ttt_player opp = (ttt_player)(ttt_board_to_move(b) ^ 1);
        int added = -1, extra = 0;
        for (int cell = 0; cell < b->cells; cell++) {
            ttt_player now = ttt_board_at(b, cell), then = ttt_board_at(&s->known, cell);
            if (now == then)
                continue;
            if (then == TTT_NOBODY && now == opp && added < 0)
                added = cell;
            else
                extra++;
        }
        if (added >= 0 && !extra) {
            snprintf(line, sizeof line, "TURN %d,%d", added % cols, added / cols);
            return send_line(e, line, err);
        }
    }
    ttt_status st = send_line(e, "BOARD", err);
    ttt_player me = ttt_board_to_move(b);
    ttt_move cells[2][TTT_MAX_CELLS];
    int count[2] = {0, 0};
    for (int cell = 0; cell < b->cells; cell++) {
        ttt_player who = ttt_board_at(b, cell);
        if (who != TTT_NOBODY)
            cells[who][count[who]++] = cell;
    }
    for (int i = 0; st == TTT_OK && i < count[TTT_X] + count[TTT_O]; i++) {
        ttt_player who = (ttt_player)(i & 1);
        int cell = cells[who][i / 2];
        snprintf(line, sizeof line, "%d,%d,%d", cell % cols, cell / cols, who == me ? 1 : 2);
        st = send_line(e, line, err);
    }
    return st ? st : send_line(e, "DONE", err);
}

static ttt_status external_choose(ttt_engine *e, const ttt_board *b, ttt_move *out, ttt_search_info *info,
                                  ttt_explanation *why, ttt_error *err)
{
    (void)why; /* no explanation of its decisions */
    (void)info;
    external_config *c = e->config;
    external_state *s = e->state;
    drop_unasked(s);
    ttt_status st = send_position(e, b, err);
    double deadline = ttt_clock_ms() + (double)c->turn_ms + (double)c->tolerance_ms;
    char line[TTT_GOMOCUP_LINE_MAX + 1], what[TTT_ERROR_SIZE], limit[64];
    snprintf(limit, sizeof limit, "%" PRIu64 " ms + %" PRIu64 " ms", c->turn_ms, c->tolerance_ms);
    while (st == TTT_OK) {
        st = read_line(e, deadline, "a move", limit, line, sizeof line, err);
        if (st)
            return st;
        ttt_gomocup_reply r;
        ttt_gomocup_parse_reply(line, strlen(line), &r);
        if (r.kind == TTT_GOMOCUP_REPLY_ERROR || r.kind == TTT_GOMOCUP_REPLY_UNKNOWN) {
            snprintf(what, sizeof what, "answered '%.100s' instead of a move", line);
            return forfeit(e, err, what);
        }
        if (r.kind != TTT_GOMOCUP_REPLY_MOVE)
            continue; /* MESSAGE, DEBUG, anything else a brain may say while it thinks */
        int cell = r.y * b->rules.cols + r.x;
        if (r.x >= b->rules.cols || r.y >= b->rules.rows || !ttt_board_is_legal(b, cell)) {
            snprintf(what, sizeof what, "played %d,%d, an illegal move (%s)", r.x, r.y,
                     r.x >= b->rules.cols || r.y >= b->rules.rows ? "off the board" : "the cell is taken");
            return forfeit(e, err, what);
        }
        *out = cell;
        s->known = *b;
        ttt_board_play(&s->known, cell);
        s->have_known = true;
        s->dirty = true;
        e->nodes++; /* one request: the brain's own work is not ours to count */
        return TTT_OK;
    }
    return st;
}

static void external_new_game(ttt_engine *e)
{
    external_state *s = e->state;
    if (!s->dirty || s->fd < 0)
        return;
    s->have_known = false;
    drop_unasked(s);
    /* A brain that fails RESTART is killed here; the next choose forfeits with "the brain is gone". */
    if (send_line(e, "RESTART", NULL) == TTT_OK && expect_ok(e, "RESTART", NULL) == TTT_OK)
        s->dirty = false;
}

static void external_stop(ttt_engine *e)
{
    external_state *s = e->state;
    if (!s)
        return;
    if (s->fd >= 0) {
        send(s->fd, "END\n", 4, MSG_NOSIGNAL);
        shutdown(s->fd, SHUT_WR);
        int status;
        if (s->pid > 0 && !reap_within(s, EXTERNAL_END_GRACE_MS, &status))
            kill_child(s);
    }
    kill_child(s);
    free(s);
}

const ttt_engine_vtable ttt_engine_external = {
    .about = {.name = "cmd",
              .summary = "an outside Gomocup brain (any program that speaks the protocol, ttt brain among "
                         "them), one process per engine"},
    .options = external_options,
    .path_required = true,
    .config_size = sizeof(external_config),
    .config_defaults = &external_defaults,
    .start = external_start,
    .choose = external_choose,
    .new_game = external_new_game,
    .stop = external_stop,
};
