/*
 * store/store.c - the SQLite database behind ttt/store.h: opening with checks, migrations, games, the
 * learner's sequences.
 *
 * Opening goes: (1) a file that exists and is not empty must start with the SQLite header, else it is
 * refused before SQLite sees it; (2) read application_id, user_version and the table names, without writing;
 * (3) a database with our application_id is ours; an empty one (no tables, id 0) becomes ours; anything else
 * is refused; (4) only then switch to WAL and run the migrations that are missing.
 */
#define _GNU_SOURCE /* strdup */
#include "ttt/store.h"

#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ttt/notation.h"
#include "util/error.h"

#define SQLITE_HEADER     "SQLite format 3"
#define SQLITE_HEADER_LEN 16 /* including the terminating NUL */

/* How long to wait between attempts to switch a new database to WAL mode (milliseconds). */
#define STORE_WAL_RETRY_MS 10

struct ttt_store {
    sqlite3 *db;
    char *path;
    int version;
    bool in_transaction; /* the caller began one: writes join it */
};

/* The migrations: migrations[i] takes a database from version i to version i + 1. */
static const char *const migrations[] = {
    /* 0 -> 1 */
    "CREATE TABLE ttt_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO ttt_meta VALUES('format', 'ttt');"
    "CREATE TABLE games(id INTEGER PRIMARY KEY, started INTEGER NOT NULL, ended INTEGER NOT NULL,"
    " rules TEXT NOT NULL, x TEXT NOT NULL, o TEXT NOT NULL, moves TEXT NOT NULL, result TEXT NOT NULL);"
    "CREATE TABLE learner_sequences(rules TEXT NOT NULL, moves TEXT NOT NULL, result TEXT NOT NULL,"
    " count INTEGER NOT NULL, PRIMARY KEY (rules, moves)) WITHOUT ROWID;",
};
#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))
_Static_assert(NMIGRATIONS == TTT_STORE_SCHEMA_VERSION, "one migration per schema version");

static ttt_status db_fail(ttt_store *s, ttt_error *err, const char *what)
{
    return ttt_fail(err, TTT_EIO, "memory '%s': %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

ttt_status ttt_store_default_path(char *buf, size_t size, ttt_error *err)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/ttt/ttt.db", xdg);
    else if (home && home[0] == '/')
        n = snprintf(buf, size, "%s/.local/share/ttt/ttt.db", home);
    else
        return ttt_fail(err, TTT_EIO, "memory: no data directory (neither XDG_DATA_HOME nor HOME is set)");
    if (n < 0 || (size_t)n >= size)
        return ttt_fail(err, TTT_ELIMIT, "memory: the default path is too long");
    return TTT_OK;
}

/* mkdir -p for the directory part of path. */
static ttt_status make_parents(const char *path, ttt_error *err)
{
    char dir[TTT_STORE_PATH_SIZE];
    size_t len = strlen(path);
    if (len >= sizeof dir)
        return ttt_fail(err, TTT_ELIMIT, "memory '%s': path too long", path);
    memcpy(dir, path, len + 1);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, S_IRWXU | S_IRGRP | S_IXGRP | S_IROTH | S_IXOTH) && errno != EEXIST)
            return ttt_fail(err, TTT_EIO, "memory '%s': cannot make directory '%s': %s", path, dir,
                            strerror(errno));
        *p = '/';
    }
    return TTT_OK;
}

/* Step 1: a non-empty file must carry the SQLite header. */
static ttt_status check_header(const char *path, ttt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? TTT_OK : ttt_fail(err, TTT_EIO, "memory '%s': %s", path, strerror(errno));
    char head[SQLITE_HEADER_LEN];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n == 0)
        return TTT_OK;
    if (n < sizeof head || memcmp(head, SQLITE_HEADER, SQLITE_HEADER_LEN) != 0)
        return ttt_fail(err, TTT_EINVAL, "memory '%s': not an SQLite database: not touching it", path);
    return TTT_OK;
}

/* One integer from a one-row query; -1 when it fails. */
static int64_t query_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

/* Steps 2 and 3: is it ours, empty, or foreign? Sets *fresh for an empty database. The marker and the tables
 * are read in one read transaction: another process creating the same database at this moment is seen either
 * before its migration (empty) or after it (ours), never halfway (tables without the marker). */
static ttt_status check_owner(ttt_store *s, bool *fresh, ttt_error *err)
{
    bool snapshot = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    int64_t app = query_int(s->db, "PRAGMA application_id");
    int64_t tables = query_int(s->db, "SELECT count(*) FROM sqlite_master");
    int64_t version = query_int(s->db, "PRAGMA user_version");
    if (snapshot)
        sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (app < 0 || tables < 0) {
        int code = sqlite3_errcode(s->db);
        if (code == SQLITE_NOTADB)
            return ttt_fail(err, TTT_EINVAL, "memory '%s': not an SQLite database: not touching it", s->path);
        return ttt_fail(err, TTT_EIO, "memory '%s': unreadable or corrupt: %s", s->path,
                        sqlite3_errmsg(s->db));
    }
    *fresh = app == 0 && tables == 0;
    if (app != TTT_STORE_APPLICATION_ID && !*fresh)
        return ttt_fail(err, TTT_EINVAL,
                        "memory '%s': an SQLite database of another program: not touching it", s->path);
    s->version = (int)version;
    if (s->version > TTT_STORE_SCHEMA_VERSION)
        return ttt_fail(
            err, TTT_EINVAL,
            "memory '%s': made by a newer ttt (schema %d, this one reads up to %d): not touching it", s->path,
            s->version, TTT_STORE_SCHEMA_VERSION);
    return TTT_OK;
}

static ttt_status exec(ttt_store *s, const char *sql, ttt_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return TTT_OK;
    ttt_status st = ttt_fail(err, TTT_EIO, "memory '%s': %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    return st;
}

/* WAL mode is kept in the file, so only a new database switches to it. The switch takes the file exclusively,
 * and SQLite answers "locked" at once, without waiting, while another process opens the same new file, so
 * the switch is retried for up to TTT_STORE_BUSY_MS. */
static ttt_status use_wal(ttt_store *s, ttt_error *err)
{
    for (int waited = 0;; waited += STORE_WAL_RETRY_MS) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &q, NULL) != SQLITE_OK)
            return db_fail(s, err, "cannot switch to WAL");
        int rc = sqlite3_step(q);
        bool wal = rc == SQLITE_ROW && sqlite3_stricmp((const char *)sqlite3_column_text(q, 0), "wal") == 0;
        sqlite3_finalize(q);
        if (wal)
            return TTT_OK;
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED && rc != SQLITE_ROW) || waited >= TTT_STORE_BUSY_MS)
            return db_fail(s, err, "cannot switch to WAL");
        sqlite3_sleep(STORE_WAL_RETRY_MS);
    }
}

/* Step 4: the migrations that are missing, in one transaction with the version and the marker. */
static ttt_status migrate(ttt_store *s, ttt_error *err)
{
    if (s->version == TTT_STORE_SCHEMA_VERSION)
        return TTT_OK;
    ttt_status st = exec(s, "BEGIN IMMEDIATE", err);
    if (st)
        return st;
    /* Another process may have migrated while we waited for the lock. */
    s->version = (int)query_int(s->db, "PRAGMA user_version");
    for (int v = s->version; v < TTT_STORE_SCHEMA_VERSION && !st; v++)
        st = exec(s, migrations[v], err);
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
             TTT_STORE_APPLICATION_ID, TTT_STORE_SCHEMA_VERSION);
    if (!st)
        st = exec(s, sql, err);
    if (!st)
        st = exec(s, "COMMIT", err);
    if (st) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return st;
    }
    s->version = TTT_STORE_SCHEMA_VERSION;
    return TTT_OK;
}

/* NULL or "" stands for the default path, written into buf (TTT_STORE_PATH_SIZE bytes). */
static ttt_status resolve_path(const char **path, char *buf, ttt_error *err)
{
    if (*path && (*path)[0])
        return TTT_OK;
    *path = buf;
    return ttt_store_default_path(buf, TTT_STORE_PATH_SIZE, err);
}

ttt_status ttt_store_open(const char *path, ttt_store **out, ttt_error *err)
{
    *out = NULL;
    char default_path[TTT_STORE_PATH_SIZE];
    ttt_status pst = resolve_path(&path, default_path, err);
    if (pst)
        return pst;
    ttt_status st = check_header(path, err);
    if (!st)
        st = make_parents(path, err);
    if (st)
        return st;
    ttt_store *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return ttt_fail(err, TTT_ENOMEM, "memory: out of memory");
    }
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        st = db_fail(s, err, "cannot open");
        ttt_store_close(s);
        return st;
    }
    sqlite3_busy_timeout(s->db, TTT_STORE_BUSY_MS);
    bool fresh = false;
    st = check_owner(s, &fresh, err);
    if (!st)
        st = use_wal(s, err);
    if (!st)
        st = exec(s, "PRAGMA synchronous = NORMAL", err);
    if (!st)
        st = migrate(s, err);
    if (!st && !fresh &&
        query_int(s->db, "SELECT count(*) FROM ttt_meta WHERE key = 'format' AND value = 'ttt'") != 1)
        st = ttt_fail(err, TTT_EINVAL,
                      "memory '%s': marked as ttt but has no ttt_meta format row: not touching it", path);
    if (st) {
        ttt_store_close(s);
        return st;
    }
    *out = s;
    return TTT_OK;
}

ttt_status ttt_store_open_existing(const char *path, ttt_store **out, ttt_error *err)
{
    *out = NULL;
    char default_path[TTT_STORE_PATH_SIZE];
    ttt_status pst = resolve_path(&path, default_path, err);
    if (pst)
        return pst;
    struct stat sb;
    if (stat(path, &sb) != 0 && errno == ENOENT)
        return ttt_fail(err, TTT_ESTATE, "no database at '%s' yet", path);
    return ttt_store_open(path, out, err);
}

void ttt_store_close(ttt_store *s)
{
    if (!s)
        return;
    sqlite3_close(s->db);
    free(s->path);
    free(s);
}

const char *ttt_store_path(const ttt_store *s) { return s->path; }

int ttt_store_schema_version(const ttt_store *s) { return s->version; }

ttt_status ttt_store_check(ttt_store *s, ttt_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK)
        return db_fail(s, err, "integrity check");
    ttt_status st = TTT_OK;
    if (sqlite3_step(q) != SQLITE_ROW)
        st = db_fail(s, err, "integrity check");
    else if (strcmp((const char *)sqlite3_column_text(q, 0), "ok") != 0)
        st = ttt_fail(err, TTT_EIO, "memory '%s': integrity check failed: %s", s->path,
                      (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    return st;
}

/* --- Transactions ------------------------------------------------------------------------------------- */

ttt_status ttt_store_begin(ttt_store *s, ttt_error *err)
{
    ttt_status st = exec(s, "BEGIN IMMEDIATE", err);
    s->in_transaction = st == TTT_OK;
    return st;
}

ttt_status ttt_store_commit(ttt_store *s, ttt_error *err)
{
    ttt_status st = exec(s, "COMMIT", err);
    if (st)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    s->in_transaction = false;
    return st;
}

void ttt_store_rollback(ttt_store *s)
{
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    s->in_transaction = false;
}

/* Runs one prepared write with its own transaction unless the caller holds one. The statement is
 * finalized. */
static ttt_status run_write(ttt_store *s, sqlite3_stmt *q, int64_t *rowid, ttt_error *err)
{
    bool own = !s->in_transaction;
    ttt_status st = own ? exec(s, "BEGIN IMMEDIATE", err) : TTT_OK;
    if (!st && sqlite3_step(q) != SQLITE_DONE)
        st = db_fail(s, err, "write failed");
    if (!st && rowid)
        *rowid = sqlite3_last_insert_rowid(s->db);
    sqlite3_finalize(q);
    if (own && !st)
        st = exec(s, "COMMIT", err);
    if (own && st)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return st;
}

/* --- Games -------------------------------------------------------------------------------------------- */

static void copy_text(char *dst, size_t size, const char *src) { snprintf(dst, size, "%s", src ? src : ""); }

ttt_status ttt_game_record_make(const ttt_rules *rules, const ttt_move *moves, int count, const char *x,
                                const char *o, int64_t started, int64_t ended, ttt_game_record *out,
                                ttt_error *err)
{
    memset(out, 0, sizeof *out);
    ttt_board b;
    ttt_status st = ttt_moves_replay(rules, moves, count, &b, err);
    if (st)
        return st;
    ttt_outcome oc = ttt_board_outcome(&b);
    if (oc == TTT_ONGOING)
        return ttt_fail(err, TTT_EINVAL, "game record: the game is not finished");
    ttt_rules_format(rules, out->rules, sizeof out->rules);
    ttt_moves_format(rules, moves, count, out->moves, sizeof out->moves);
    copy_text(out->x, sizeof out->x, x ? x : "human");
    copy_text(out->o, sizeof out->o, o ? o : "human");
    copy_text(out->result, sizeof out->result, oc == TTT_X_WINS ? "x" : oc == TTT_O_WINS ? "o" : "draw");
    out->started = started;
    out->ended = ended;
    return TTT_OK;
}

ttt_status ttt_store_add_game(ttt_store *s, const ttt_game_record *g, int64_t *id, ttt_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO games(started, ended, rules, x, o, moves, result) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           -1, &q, NULL) != SQLITE_OK)
        return db_fail(s, err, "add game");
    sqlite3_bind_int64(q, 1, g->started);
    sqlite3_bind_int64(q, 2, g->ended);
    sqlite3_bind_text(q, 3, g->rules, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, g->x, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 5, g->o, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, g->moves, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 7, g->result, -1, SQLITE_STATIC);
    return run_write(s, q, id, err);
}

#define GAME_COLUMNS "id, started, ended, rules, x, o, moves, result"

static void read_game(sqlite3_stmt *q, ttt_game_record *g)
{
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(q, 0);
    g->started = sqlite3_column_int64(q, 1);
    g->ended = sqlite3_column_int64(q, 2);
    copy_text(g->rules, sizeof g->rules, (const char *)sqlite3_column_text(q, 3));
    copy_text(g->x, sizeof g->x, (const char *)sqlite3_column_text(q, 4));
    copy_text(g->o, sizeof g->o, (const char *)sqlite3_column_text(q, 5));
    copy_text(g->moves, sizeof g->moves, (const char *)sqlite3_column_text(q, 6));
    copy_text(g->result, sizeof g->result, (const char *)sqlite3_column_text(q, 7));
}

ttt_status ttt_store_list_games(ttt_store *s, int limit, int (*each)(const ttt_game_record *, void *),
                                void *user, ttt_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS " FROM games ORDER BY id DESC LIMIT ?", -1, &q,
                           NULL) != SQLITE_OK)
        return db_fail(s, err, "list games");
    sqlite3_bind_int64(q, 1, limit > 0 ? limit : -1);
    ttt_game_record g;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        read_game(q, &g);
        if (each(&g, user))
            break;
    }
    ttt_status st = rc == SQLITE_ROW || rc == SQLITE_DONE ? TTT_OK : db_fail(s, err, "list games");
    sqlite3_finalize(q);
    return st;
}

ttt_status ttt_store_get_game(ttt_store *s, int64_t id, ttt_game_record *out, ttt_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS " FROM games WHERE id = ?", -1, &q, NULL) !=
        SQLITE_OK)
        return db_fail(s, err, "get game");
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    ttt_status st = TTT_OK;
    if (rc == SQLITE_ROW)
        read_game(q, out);
    else if (rc == SQLITE_DONE)
        st = ttt_fail(err, TTT_EINVAL, "no game %lld in '%s'", (long long)id, s->path);
    else
        st = db_fail(s, err, "get game");
    sqlite3_finalize(q);
    return st;
}

ttt_status ttt_store_count_games(ttt_store *s, int64_t *count, ttt_error *err)
{
    *count = query_int(s->db, "SELECT count(*) FROM games");
    return *count < 0 ? db_fail(s, err, "count games") : TTT_OK;
}

/* --- The learner's memory ----------------------------------------------------------------------------- */

ttt_status ttt_store_learn(ttt_store *s, const char *rules, const char *moves, const char *result,
                           int64_t count, ttt_error *err)
{
    if (count < 1 || count > TTT_STORE_MAX_COUNT)
        return ttt_fail(err, TTT_EINVAL, "memory '%s': count %" PRId64 " out of range (1 to %" PRId64 ")",
                        s->path, count, TTT_STORE_MAX_COUNT);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO learner_sequences(rules, moves, result, count) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT(rules, moves) DO UPDATE SET count = min(count + excluded.count, "
                           "?5)",
                           -1, &q, NULL) != SQLITE_OK)
        return db_fail(s, err, "learn");
    sqlite3_bind_text(q, 1, rules, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, moves, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, result, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 4, count);
    sqlite3_bind_int64(q, 5, TTT_STORE_MAX_COUNT);
    return run_write(s, q, NULL, err);
}

ttt_status ttt_store_sequences(ttt_store *s, const char *rules, ttt_store_sequence_fn each, void *user,
                               ttt_error *err)
{
    sqlite3_stmt *q;
    const char *sql = rules
                          ? "SELECT rules, moves, result, count FROM learner_sequences WHERE rules = ? "
                            "ORDER BY rules, moves"
                          : "SELECT rules, moves, result, count FROM learner_sequences ORDER BY rules, moves";
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return db_fail(s, err, "read memory");
    if (rules)
        sqlite3_bind_text(q, 1, rules, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        if (each((const char *)sqlite3_column_text(q, 0), (const char *)sqlite3_column_text(q, 1),
                 (const char *)sqlite3_column_text(q, 2), sqlite3_column_int64(q, 3), user))
            break;
    ttt_status st = rc == SQLITE_ROW || rc == SQLITE_DONE ? TTT_OK : db_fail(s, err, "read memory");
    sqlite3_finalize(q);
    return st;
}

/* Moves in the common prefix of two sequence texts ("a1 b2 c3" and "a1 b2 a3" share 2). */
static int64_t common_moves(const char *a, const char *b)
{
    int64_t n = 0;
    for (size_t i = 0;; i++) {
        bool end_a = a[i] == ' ' || a[i] == '\0', end_b = b[i] == ' ' || b[i] == '\0';
        if (end_a && end_b && i > 0)
            n++;
        if (end_a != end_b || a[i] != b[i] || a[i] == '\0')
            return n;
    }
}

static int64_t count_moves(const char *a)
{
    int64_t n = a[0] != '\0';
    for (; *a; a++)
        n += *a == ' ';
    return n;
}

typedef struct stats_walk {
    ttt_store_memory_stats cur;
    char prev[TTT_MOVES_TEXT_SIZE];
    int (*each)(const ttt_store_memory_stats *, void *);
    void *user;
    int stopped;
} stats_walk;

/* Sequences come sorted by (rules, moves): the distinct prefixes are the sum of each sequence's moves beyond
 * what it shares with the one before (the sequences through a prefix "P " are contiguous in that order). */
static int stats_step(const char *rules, const char *moves, const char *result, int64_t count, void *user)
{
    stats_walk *w = user;
    if (strcmp(rules, w->cur.rules) != 0) {
        if (w->cur.rules[0] && (w->stopped = w->each(&w->cur, w->user)))
            return 1;
        memset(&w->cur, 0, sizeof w->cur);
        copy_text(w->cur.rules, sizeof w->cur.rules, rules);
        w->prev[0] = '\0';
    }
    w->cur.games += count;
    w->cur.sequences++;
    w->cur.prefixes += count_moves(moves) - common_moves(moves, w->prev);
    if (strcmp(result, "x") == 0)
        w->cur.x_wins += count;
    else if (strcmp(result, "o") == 0)
        w->cur.o_wins += count;
    else
        w->cur.draws += count;
    copy_text(w->prev, sizeof w->prev, moves);
    return 0;
}

ttt_status ttt_store_memory_stats_each(ttt_store *s, int (*each)(const ttt_store_memory_stats *, void *),
                                       void *user, ttt_error *err)
{
    stats_walk *w = calloc(1, sizeof *w);
    if (!w)
        return ttt_fail(err, TTT_ENOMEM, "memory: out of memory");
    w->each = each;
    w->user = user;
    ttt_status st = ttt_store_sequences(s, NULL, stats_step, w, err);
    if (!st && !w->stopped && w->cur.rules[0])
        each(&w->cur, user);
    free(w);
    return st;
}
