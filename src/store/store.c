/*
 * store/store.c - the SQLite database behind ttt/store.h: opening with checks, migrations, games, the
 * learner's sequences, memory imports.
 *
 * The file is only ever opened by SQLite: a second descriptor of it in this process, closed, would drop every
 * POSIX lock SQLite holds on it for the other connections of the process (SQLite's "How To Corrupt Your
 * Database", 2.2), and two processes writing at once would then lose games.
 *
 * Opening goes: (1) SQLite opens the file (a reader's open does not create it), and a file this process may
 * not write is refused before anything is read, since reading a WAL database makes -wal and -shm files;
 * (2) read application_id, user_version and the table names, without writing: SQLite answers SQLITE_NOTADB
 * for a file that is not a database; (3) a database with our application_id is ours; an empty one (no
 * tables, id 0) becomes ours; anything else is refused; (4) only then switch to WAL and run the migrations
 * that are missing. A lazy open of a file that does not exist yet does all of that on an empty database in
 * memory, and again on the file at the first write: nobody gets a database for a session that saved nothing.
 *
 * Reading trusts nothing in the file: every value of every row is checked (its type, its range, the moves
 * a legal finished game of the row's rules ending in the row's result) before a caller sees it, and a bad
 * one is an error naming the file and the row.
 */
#define _GNU_SOURCE /* strdup */
#include "ttt/store.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ttt/notation.h"
#include "ttt/symmetry.h"
#include "util/error.h"

/* How much of a bad text value an error message shows before "...". */
#define STORE_SHOWN_CHARS 40
/* Room for a value described in an error message: quotes, escapes (4 bytes a character), "...". */
#define STORE_SHOWN_SIZE (STORE_SHOWN_CHARS * 4 + 8)
/* Room for a short reason such as "the game ends 'draw'". */
#define STORE_REASON_SIZE 48

/* How long to wait between attempts to switch a new database to WAL mode (milliseconds). */
#define STORE_WAL_RETRY_MS 10

struct ttt_store {
    sqlite3 *db;
    char *path;
    int version;
    bool in_transaction; /* the caller began one: writes join it */
    bool pending;        /* opened lazily and the file does not exist yet: db is an empty one in memory */
    bool make_dirs;      /* the default path: its directories are made with the file */
    bool has_file;       /* path named a file when opened (not ":memory:"): its device and inode */
    bool read_only;      /* a reader's file this process may not write, read as it is: every write fails */
    dev_t dev;
    ino_t ino;
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
    return ttt_fail(err, TTT_EIO, "database '%s': %s: %s", s->path, what, sqlite3_errmsg(s->db));
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
        return ttt_fail(err, TTT_EIO, "database: no data directory (neither XDG_DATA_HOME nor HOME is set)");
    if (n < 0 || (size_t)n >= size)
        return ttt_fail(err, TTT_ELIMIT, "database: the default path is too long");
    return TTT_OK;
}

/* The directory of path: made with its parents when make is set (the default path: mkdir -p); else it must
 * exist, since a path a caller named that is mistyped should make no directory tree (TTT_EINVAL). */
static ttt_status prepare_directory(const char *path, bool make, ttt_error *err)
{
    char dir[TTT_STORE_PATH_SIZE];
    size_t len = strlen(path);
    if (len >= sizeof dir)
        return ttt_fail(err, TTT_ELIMIT, "database '%s': path too long", path);
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return TTT_OK;          /* the current directory */
    slash[slash == dir] = '\0'; /* "/x.db" is in "/" */
    struct stat st;
    if (!make) {
        if (stat(dir, &st) != 0)
            return ttt_fail(err, TTT_EINVAL, "database '%s': directory '%s' does not exist (make it first)",
                            path, dir);
        return S_ISDIR(st.st_mode)
                   ? TTT_OK
                   : ttt_fail(err, TTT_EINVAL, "database '%s': '%s' is not a directory", path, dir);
    }
    for (char *p = dir + 1;; p++) { /* each prefix ending at a slash, then dir itself */
        if (*p && *p != '/')
            continue;
        char end = *p;
        *p = '\0';
        if (mkdir(dir, S_IRWXU | S_IRGRP | S_IXGRP | S_IROTH | S_IXOTH) && errno != EEXIST)
            return ttt_fail(err, TTT_EIO, "database '%s': cannot make directory '%s': %s", path, dir,
                            strerror(errno));
        if (!end)
            return TTT_OK;
        *p = '/';
    }
}

/* One integer from a one-row query into *v; false when the query fails (sqlite3_errcode says why). */
static bool query_value(sqlite3 *db, const char *sql, int64_t *v)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW;
}

/* Steps 2 and 3: is it ours, empty, or foreign? Sets *fresh for an empty database. The marker and the tables
 * are read in one read transaction: another process creating the same database at this moment is seen either
 * before its migration (empty) or after it (ours), never halfway (tables without the marker). */
static ttt_status check_owner(ttt_store *s, bool *fresh, ttt_error *err)
{
    bool snapshot = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    int64_t app, tables, version;
    if (!query_value(s->db, "PRAGMA application_id", &app) ||
        !query_value(s->db, "SELECT count(*) FROM sqlite_master", &tables) ||
        !query_value(s->db, "PRAGMA user_version", &version)) { /* the error before COMMIT replaces it */
        ttt_status st =
            sqlite3_errcode(s->db) == SQLITE_NOTADB
                ? ttt_fail(err, TTT_EINVAL, "database '%s': not an SQLite database: not touching it", s->path)
                : ttt_fail(err, TTT_EIO, "database '%s': unreadable or corrupt: %s", s->path,
                           sqlite3_errmsg(s->db));
        if (snapshot)
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return st;
    }
    if (snapshot && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        ttt_status st = db_fail(s, err, "cannot end the read transaction");
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return st;
    }
    *fresh = app == 0 && tables == 0;
    if (app != TTT_STORE_APPLICATION_ID && !*fresh)
        return ttt_fail(err, TTT_EINVAL,
                        "database '%s': an SQLite database of another program: not touching it", s->path);
    if (version > TTT_STORE_SCHEMA_VERSION)
        return ttt_fail(
            err, TTT_EINVAL,
            "database '%s': made by a newer ttt (schema %lld, this one reads up to %d): not touching it",
            s->path, (long long)version, TTT_STORE_SCHEMA_VERSION);
    /* the marker is written with the version, in the migration's one transaction: a marked file without one
     * was changed by something else */
    if (version < 0 || (version == 0 && !*fresh))
        return ttt_fail(err, TTT_EINVAL,
                        "database '%s': marked as ttt but its schema version is %lld: not touching it",
                        s->path, (long long)version);
    s->version = (int)version;
    return TTT_OK;
}

static ttt_status exec(ttt_store *s, const char *sql, ttt_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return TTT_OK;
    ttt_status st = ttt_fail(err, TTT_EIO, "database '%s': %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    return st;
}

/* WAL mode is kept in the file, so only a new database switches to it. The switch takes the file exclusively,
 * and SQLite answers "locked" at once, without waiting, while another process opens the same new file, so
 * the switch is retried for up to TTT_STORE_BUSY_MS. */
static ttt_status use_wal(ttt_store *s, ttt_error *err)
{
    const char *file = sqlite3_db_filename(s->db, "main");
    if (!file || !file[0]) /* ":memory:" (tests, fuzzing): no file, no WAL */
        return TTT_OK;
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
    int64_t version;
    if (!query_value(s->db, "PRAGMA user_version", &version))
        st = db_fail(s, err, "cannot read the schema version");
    else if (version < 0 || version > TTT_STORE_SCHEMA_VERSION)
        st = ttt_fail(err, TTT_EINVAL,
                      "database '%s': schema %lld changed under us (this ttt reads 0 to %d): not touching it",
                      s->path, (long long)version, TTT_STORE_SCHEMA_VERSION);
    if (st) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return st;
    }
    s->version = (int)version;
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

/* A file URI of path for SQLite ("file:" and the path, its bytes other than unreserved ones and '/'
 * percent-encoded), with query (e.g. "immutable=1"). NULL when it does not fit in size. */
static const char *file_uri(const char *path, const char *query, char *buf, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = (size_t)snprintf(buf, size, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p && n + 3 < size; p++) {
        if (isalnum(*p) || strchr("/-._~", *p))
            buf[n++] = (char)*p;
        else {
            buf[n++] = '%';
            buf[n++] = hex[*p >> 4];
            buf[n++] = hex[*p & 15];
        }
    }
    if (n + 1 + strlen(query) + 1 > size)
        return NULL;
    snprintf(buf + n, size - n, "?%s", query);
    return buf;
}

/* A reader's database at s->path that this process may not write: opened as an immutable snapshot, which
 * reads without locks and makes no -wal or -shm file. A -wal file with changes beside it would be ignored,
 * so such a file is refused. Checks the owner and the schema as open_db does, and writes nothing. */
static ttt_status open_snapshot(ttt_store *s, ttt_error *err)
{
    char wal[TTT_STORE_PATH_SIZE + 8], uri[3 * TTT_STORE_PATH_SIZE + 32];
    struct stat w;
    snprintf(wal, sizeof wal, "%s-wal", s->path);
    if (stat(wal, &w) == 0 && w.st_size > 0)
        return ttt_fail(err, TTT_EIO,
                        "database '%s': the file is read-only and its -wal file holds changes it cannot see "
                        "(copy both, or make it writable)",
                        s->path);
    if (!file_uri(s->path, "immutable=1", uri, sizeof uri))
        return ttt_fail(err, TTT_EINVAL, "database '%s': the path is too long", s->path);
    if (sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
        ttt_status st = db_fail(s, err, "cannot open");
        sqlite3_close(s->db);
        s->db = NULL;
        return st;
    }
    bool fresh = false;
    ttt_status st = check_owner(s, &fresh, err);
    if (!st && s->version != TTT_STORE_SCHEMA_VERSION)
        st = ttt_fail(err, TTT_EIO, "database '%s': the file is read-only and %s", s->path,
                      fresh ? "empty" : "of an older schema (open it writable once to upgrade it)");
    if (st) {
        sqlite3_close(s->db);
        s->db = NULL;
        return st;
    }
    s->read_only = true;
    return TTT_OK;
}

/* Steps 1 to 4 on file, the database s stands for (s->path in messages; ":memory:" while a lazy store's file
 * does not exist yet): creating it when create is set, else TTT_ESTATE when it does not exist. A file this
 * process may not write is refused, unless reader is set: then it is read as it is (open_snapshot). On
 * failure s->db is closed and NULL. */
static ttt_status open_db(ttt_store *s, const char *file, bool create, bool reader, ttt_error *err)
{
    const char *path = s->path;
    ttt_status st;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(file, &s->db, flags, NULL) != SQLITE_OK) {
        if (!create && sqlite3_system_errno(s->db) == ENOENT)
            st = ttt_fail(err, TTT_ESTATE, "no database at '%s' yet", path);
        else
            st = db_fail(s, err, "cannot open");
        sqlite3_close(s->db);
        s->db = NULL;
        return st;
    }
    /* SQLite opens a file it may not write read-only; any read of a WAL database would then leave -wal and
     * -shm files that this process can never remove: a reader takes an immutable snapshot instead. */
    if (sqlite3_db_readonly(s->db, "main") == 1 && reader && file == path) {
        sqlite3_close(s->db);
        s->db = NULL;
        return open_snapshot(s, err);
    }
    if (sqlite3_db_readonly(s->db, "main") == 1) {
        st = ttt_fail(err, TTT_EIO, "database '%s': the file is read-only: cannot write to it", path);
        sqlite3_close(s->db);
        s->db = NULL;
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
    int64_t format_rows = 0;
    if (!st && !fresh &&
        !query_value(s->db, "SELECT count(*) FROM ttt_meta WHERE key = 'format' AND value = 'ttt'",
                     &format_rows))
        st = db_fail(s, err, "cannot read the format row");
    if (!st && !fresh && format_rows != 1)
        st = ttt_fail(err, TTT_EINVAL,
                      "database '%s': marked as ttt but has no ttt_meta format row: not touching it", path);
    if (st) {
        sqlite3_close(s->db);
        s->db = NULL;
        return st;
    }
    struct stat where;
    if (file == path && stat(path, &where) == 0) {
        s->has_file = true;
        s->dev = where.st_dev;
        s->ino = where.st_ino;
    }
    return TTT_OK;
}

typedef enum open_mode { OPEN_CREATE, OPEN_EXISTING, OPEN_LAZY, OPEN_READER } open_mode;

/* Opens path: OPEN_CREATE creates it (and the default path's directories; a named path's directory must
 * exist), OPEN_EXISTING answers TTT_ESTATE when it does not exist, OPEN_LAZY leaves a missing file to the
 * first write (ensure_file), reading an empty database in memory until then. OPEN_READER is OPEN_LAZY for a
 * store that is only read: a read-only file is read as it is. OPEN_EXISTING reads read-only files too. */
static ttt_status store_open(const char *path, open_mode mode, ttt_store **out, ttt_error *err)
{
    *out = NULL;
    char default_path[TTT_STORE_PATH_SIZE];
    bool named = path && path[0];
    ttt_status st = resolve_path(&path, default_path, err);
    if (!st && mode == OPEN_CREATE)
        st = prepare_directory(path, !named, err);
    else if (!st && (mode == OPEN_LAZY || mode == OPEN_READER) && named && strcmp(path, ":memory:") != 0)
        st = prepare_directory(path, false, err); /* a mistyped directory is said now, not after a game */
    if (st)
        return st;
    struct stat where; /* SQLite's own word for a directory is "unable to open database file" */
    bool exists = stat(path, &where) == 0, absent = !exists && errno == ENOENT;
    if (exists && S_ISDIR(where.st_mode))
        return ttt_fail(err, TTT_EINVAL, "database '%s': a directory, not a database file", path);
    ttt_store *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return ttt_fail(err, TTT_ENOMEM, "database: out of memory");
    }
    s->pending = (mode == OPEN_LAZY || mode == OPEN_READER) && absent && strcmp(path, ":memory:") != 0;
    s->make_dirs = !named;
    bool reader = mode == OPEN_EXISTING || mode == OPEN_READER;
    st = s->pending ? open_db(s, ":memory:", true, false, err)
                    : open_db(s, s->path, mode != OPEN_EXISTING, reader, err);
    if (st) {
        ttt_store_close(s);
        return st;
    }
    *out = s;
    return TTT_OK;
}

/* A lazy store's file, made before its first write: the empty database in memory gives way to the file.
 * On failure the store stays as it was, and a later write tries again. */
static ttt_status ensure_file(ttt_store *s, ttt_error *err)
{
    if (s->read_only)
        return ttt_fail(err, TTT_EIO, "database '%s': the file is read-only: cannot write to it", s->path);
    if (!s->pending)
        return TTT_OK;
    ttt_status st = prepare_directory(s->path, s->make_dirs, err);
    if (st)
        return st;
    sqlite3 *memory = s->db;
    if ((st = open_db(s, s->path, true, false, err)) != TTT_OK) {
        s->db = memory;
        return st;
    }
    sqlite3_close(memory);
    s->pending = false;
    return TTT_OK;
}

/* TTT_EIO when the file opened is no longer at its path (deleted, or its directory removed, while open):
 * SQLite would go on writing to the unlinked file, and a game recorded there would be lost with no error. */
static ttt_status check_still_there(const ttt_store *s, ttt_error *err)
{
    struct stat file;
    if (!s->has_file || (stat(s->path, &file) == 0 && file.st_dev == s->dev && file.st_ino == s->ino))
        return TTT_OK;
    return ttt_fail(err, TTT_EIO,
                    "database '%s': the file was removed or replaced while in use: not recorded", s->path);
}

ttt_status ttt_store_open(const char *path, ttt_store **out, ttt_error *err)
{
    return store_open(path, OPEN_CREATE, out, err);
}

ttt_status ttt_store_open_existing(const char *path, ttt_store **out, ttt_error *err)
{
    return store_open(path, OPEN_EXISTING, out, err);
}

ttt_status ttt_store_open_lazy(const char *path, ttt_store **out, ttt_error *err)
{
    return store_open(path, OPEN_LAZY, out, err);
}

ttt_status ttt_store_open_reader(const char *path, ttt_store **out, ttt_error *err)
{
    return store_open(path, OPEN_READER, out, err);
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
    else if (strcmp((const char *)sqlite3_column_text(q, 0), "ok") != 0) {
        /* SQLite's complaint spans lines: one line of it here */
        char first[TTT_ERROR_SIZE];
        snprintf(first, sizeof first, "%s", (const char *)sqlite3_column_text(q, 0));
        for (char *p = first; *p; p++)
            if (*p == '\n')
                *p = ' ';
        st = ttt_fail(err, TTT_EIO, "database '%s': integrity check failed: %s", s->path, first);
    }
    sqlite3_finalize(q);
    return st;
}

/* --- Transactions ------------------------------------------------------------------------------------- */

ttt_status ttt_store_begin(ttt_store *s, ttt_error *err)
{
    ttt_status st = ensure_file(s, err);
    if (!st)
        st = exec(s, "BEGIN IMMEDIATE", err);
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

/* What a write is checked by before it is kept (run_write): TTT_OK keeps it, another status undoes it and is
 * returned with its message in err. row is the rowid the statement inserted. */
typedef ttt_status (*write_check)(ttt_store *s, int64_t row, const void *arg, ttt_error *err);

/* The savepoint of a checked write inside the caller's transaction. */
#define WRITE_SAVEPOINT "ttt_write"

/* Runs one prepared write, the one path of every write: in its own transaction (BEGIN IMMEDIATE, COMMIT)
 * unless the caller holds one. check (NULL for none) runs with arg after the statement, before COMMIT; when
 * it fails the write is undone, inside the caller's transaction by a savepoint, so that the caller's earlier
 * writes stay. An unchecked write needs no savepoint there: SQLite undoes a statement that fails. The
 * inserted rowid goes into *rowid (may be NULL) on success. q is finalized. */
static ttt_status run_write(ttt_store *s, sqlite3_stmt *q, write_check check, const void *arg, int64_t *rowid,
                            ttt_error *err)
{
    bool own = !s->in_transaction, savepoint = !own && check;
    ttt_status st = own         ? exec(s, "BEGIN IMMEDIATE", err)
                    : savepoint ? exec(s, "SAVEPOINT " WRITE_SAVEPOINT, err)
                                : TTT_OK;
    if (!st && sqlite3_step(q) != SQLITE_DONE)
        st = db_fail(s, err, "write failed");
    sqlite3_finalize(q);
    int64_t row = sqlite3_last_insert_rowid(s->db);
    if (!st && check)
        st = check(s, row, arg, err);
    if (!st && own)
        st = exec(s, "COMMIT", err);
    else if (!st && savepoint)
        st = exec(s, "RELEASE " WRITE_SAVEPOINT, err);
    if (st && own)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    else if (st && savepoint)
        sqlite3_exec(s->db, "ROLLBACK TO " WRITE_SAVEPOINT "; RELEASE " WRITE_SAVEPOINT, NULL, NULL, NULL);
    if (!st && rowid)
        *rowid = row;
    return st;
}

/* text (len bytes) quoted for an error message: control and non-ASCII bytes as \xHH, cut after
 * STORE_SHOWN_CHARS characters with "...". buf holds STORE_SHOWN_SIZE bytes. Returns buf. */
static const char *quote(const char *text, size_t len, char *buf)
{
    size_t n = 0;
    buf[n++] = '\'';
    for (size_t i = 0; i < len && i < STORE_SHOWN_CHARS; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            buf[n++] = (char)c;
        else
            n += (size_t)snprintf(buf + n, STORE_SHOWN_SIZE - n, "\\x%02x", c);
    }
    buf[n++] = '\'';
    buf[n] = '\0';
    if (len > STORE_SHOWN_CHARS)
        strcat(buf, "...");
    return buf;
}

/* Column col of the current row described for an error message: NULL, a number, a blob or quoted text. buf
 * holds STORE_SHOWN_SIZE bytes. Returns buf. */
static const char *describe(sqlite3_stmt *q, int col, char *buf)
{
    switch (sqlite3_column_type(q, col)) {
    case SQLITE_NULL: return strcpy(buf, "NULL");
    case SQLITE_INTEGER:
        snprintf(buf, STORE_SHOWN_SIZE, "%" PRId64, (int64_t)sqlite3_column_int64(q, col));
        return buf;
    case SQLITE_FLOAT:
        snprintf(buf, STORE_SHOWN_SIZE, "%g (a real)", sqlite3_column_double(q, col));
        return buf;
    case SQLITE_BLOB:
        snprintf(buf, STORE_SHOWN_SIZE, "a blob of %d bytes", sqlite3_column_bytes(q, col));
        return buf;
    default: {
        const char *t = (const char *)sqlite3_column_text(q, col);
        return quote(t ? t : "", t ? (size_t)sqlite3_column_bytes(q, col) : 0, buf);
    }
    }
}

/* Column col as text shorter than size bytes without NUL bytes, else NULL with the reason in why (the
 * caller adds the value). */
static const char *column_text(sqlite3_stmt *q, int col, size_t size, char *why, size_t why_size)
{
    if (sqlite3_column_type(q, col) != SQLITE_TEXT) {
        snprintf(why, why_size, "not text");
        return NULL;
    }
    const char *t = (const char *)sqlite3_column_text(q, col);
    size_t len = (size_t)sqlite3_column_bytes(q, col);
    if (!t)
        snprintf(why, why_size, "out of memory reading it");
    else if (len >= size)
        snprintf(why, why_size, "%zu bytes, at most %zu expected", len, size - 1);
    else if (strlen(t) != len)
        snprintf(why, why_size, "holds a NUL byte");
    else
        return t;
    return NULL;
}

/* Whether text is a rules text in the form ttt_rules_format writes; parsed into *rules. */
static bool check_rules(const char *text, ttt_rules *rules, char *why, size_t size)
{
    ttt_error e;
    char again[TTT_RULES_TEXT_SIZE];
    if (ttt_rules_parse(text, rules, &e)) {
        snprintf(why, size, "%s", e.msg);
        return false;
    }
    if (strcmp(ttt_rules_format(rules, again, sizeof again), text) != 0) {
        snprintf(why, size, "not written as '%s'", again);
        return false;
    }
    return true;
}

/* Whether text is a legal finished game of rules: its moves into moves (TTT_MAX_CELLS), *n and *outcome. */
static bool check_game(const ttt_rules *rules, const char *text, ttt_move *moves, int *n,
                       ttt_outcome *outcome, char *why, size_t size)
{
    ttt_error e;
    ttt_board b;
    if (ttt_moves_parse(text, rules, moves, TTT_MAX_CELLS, n, &e) ||
        ttt_moves_replay(rules, moves, *n, &b, &e)) {
        snprintf(why, size, "%s", e.msg);
        return false;
    }
    *outcome = ttt_board_outcome(&b);
    if (*outcome == TTT_ONGOING) {
        snprintf(why, size, "the game is not finished");
        return false;
    }
    return true;
}

/* Whether result is the name of outcome ("x", "o" or "draw"). */
static bool check_result(const char *result, ttt_outcome outcome, char *why, size_t size)
{
    if (strcmp(result, "x") != 0 && strcmp(result, "o") != 0 && strcmp(result, "draw") != 0) {
        snprintf(why, size, "expected x, o or draw");
        return false;
    }
    if (strcmp(result, ttt_outcome_name(outcome)) != 0) {
        snprintf(why, size, "the game ends '%s'", ttt_outcome_name(outcome));
        return false;
    }
    return true;
}

/* What checking one sequence needs: the rules of the last one (sequences come sorted by rules) and room for
 * its moves. */
typedef struct seq_check {
    char rules_text[TTT_RULES_TEXT_SIZE];
    ttt_rules rules;
    ttt_move moves[TTT_MAX_CELLS], canon[TTT_MAX_CELLS];
    char canon_text[TTT_MOVES_TEXT_SIZE];
    ttt_store_sequence seq;
} seq_check;

enum { SEQ_RULES, SEQ_MOVES, SEQ_RESULT, SEQ_COUNT, SEQ_OK };

/* Whether (rules, moves, result, count) is a sequence the memory may hold: rules as ttt_rules_format writes
 * them, moves a legal finished game of them in canonical form ending in result, count from 1 to
 * TTT_STORE_MAX_COUNT. SEQ_OK and c->seq filled (pointing into c and at the texts given), or the bad one of
 * SEQ_RULES ... SEQ_COUNT with the reason in why. */
static int check_sequence(seq_check *c, const char *rules, const char *moves, const char *result,
                          int64_t count, char *why, size_t size)
{
    if (strcmp(rules, c->rules_text) != 0) {
        c->rules_text[0] = '\0';
        if (!check_rules(rules, &c->rules, why, size))
            return SEQ_RULES;
        snprintf(c->rules_text, sizeof c->rules_text, "%s", rules);
    }
    if (count < 1 || count > TTT_STORE_MAX_COUNT) {
        snprintf(why, size, "out of range (1 to %" PRId64 ")", TTT_STORE_MAX_COUNT);
        return SEQ_COUNT;
    }
    int n;
    ttt_outcome oc;
    if (!check_game(&c->rules, moves, c->moves, &n, &oc, why, size))
        return SEQ_MOVES;
    if (!check_result(result, oc, why, size))
        return SEQ_RESULT;
    ttt_sym_sequence_canonical(&c->rules, c->moves, n, c->canon);
    if (strcmp(ttt_moves_format(&c->rules, c->canon, n, c->canon_text, sizeof c->canon_text), moves) != 0) {
        snprintf(why, size, "not in canonical form");
        return SEQ_MOVES;
    }
    c->seq = (ttt_store_sequence){rules, &c->rules, moves, c->canon, n, result, oc, count};
    return SEQ_OK;
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
    const char *players[] = {x ? x : "human", o ? o : "human"};
    for (int side = 0; side < 2; side++)
        if (strlen(players[side]) >= sizeof out->x)
            return ttt_fail(err, TTT_ELIMIT,
                            "game record: %c's player '%.40s...' is longer than %zu characters",
                            side ? 'O' : 'X', players[side], sizeof out->x - 1);
    ttt_rules_format(rules, out->rules, sizeof out->rules);
    ttt_moves_format(rules, moves, count, out->moves, sizeof out->moves);
    copy_text(out->x, sizeof out->x, x ? x : "human");
    copy_text(out->o, sizeof out->o, o ? o : "human");
    copy_text(out->result, sizeof out->result, ttt_outcome_name(oc));
    out->started = started;
    out->ended = ended;
    return TTT_OK;
}

#define GAME_COLUMNS "id, started, ended, rules, x, o, moves, result"
enum { GAME_ID, GAME_STARTED, GAME_ENDED, GAME_RULES, GAME_X, GAME_O, GAME_MOVES, GAME_RESULT, GAME_OK };

/* Whether a player text is one a record holds: printable, no control characters. */
static bool printable(const char *text)
{
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || *text == 0x7f)
            return false;
    return true;
}

static const char *const game_columns[] = {"id", "started", "ended", "rules", "x", "o", "moves", "result"};

/* Whether g is a record the store may hold: times from 0, rules as ttt_rules_format writes them, printable
 * players, the moves a legal finished game of the rules that ends in the result. GAME_OK, or the bad column
 * with the reason in why. */
static int check_record(const ttt_game_record *g, char *why, size_t size)
{
    ttt_rules rules;
    ttt_move moves[TTT_MAX_CELLS];
    int n;
    ttt_outcome oc;
    if (g->started < 0 || g->ended < 0) {
        snprintf(why, size, "expected a whole number from 0");
        return g->started < 0 ? GAME_STARTED : GAME_ENDED;
    }
    if (!check_rules(g->rules, &rules, why, size))
        return GAME_RULES;
    if (!printable(g->x) || !printable(g->o)) {
        snprintf(why, size, "holds a control character");
        return !printable(g->x) ? GAME_X : GAME_O;
    }
    if (!check_game(&rules, g->moves, moves, &n, &oc, why, size))
        return GAME_MOVES;
    if (!check_result(g->result, oc, why, size))
        return GAME_RESULT;
    return GAME_OK;
}

/* The game just written as row, read back and compared with g: a damaged file (a broken b-tree that
 * `PRAGMA integrity_check` would report) can store one row and answer another, and a game that cannot be
 * read back as played is not recorded. */
static ttt_status check_written(ttt_store *s, int64_t row, const void *game, ttt_error *err)
{
    const ttt_game_record *g = game;
    ttt_game_record *back = malloc(sizeof *back);
    if (!back)
        return ttt_fail(err, TTT_ENOMEM, "database: out of memory");
    ttt_error read_err;
    ttt_status read = ttt_store_get_game(s, row, back, &read_err);
    if (read == TTT_ENOMEM) {
        free(back);
        if (err)
            *err = read_err;
        return read;
    }
    bool same = read == TTT_OK && back->started == g->started && back->ended == g->ended &&
                strcmp(back->rules, g->rules) == 0 && strcmp(back->x, g->x) == 0 &&
                strcmp(back->o, g->o) == 0 && strcmp(back->moves, g->moves) == 0 &&
                strcmp(back->result, g->result) == 0;
    free(back);
    return same ? TTT_OK
                : ttt_fail(err, TTT_EIO,
                           "database '%s': the game written reads back otherwise: the file is damaged "
                           "(`ttt memory` checks its integrity): not recorded",
                           s->path);
}

ttt_status ttt_store_add_game(ttt_store *s, const ttt_game_record *g, int64_t *id, ttt_error *err)
{
    char why[TTT_ERROR_SIZE];
    int bad = check_record(g, why, sizeof why);
    if (bad != GAME_OK)
        return ttt_fail(err, TTT_EINVAL, "database '%s': cannot record the game: bad %s: %s", s->path,
                        game_columns[bad], why);
    ttt_status st = ensure_file(s, err);
    if (!st)
        st = check_still_there(s, err);
    if (st)
        return st;
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
    return run_write(s, q, check_written, g, id, err);
}

/* Reads and checks the current row of a games query into g. */
static ttt_status read_game(ttt_store *s, sqlite3_stmt *q, ttt_game_record *g, ttt_error *err)
{
    static const size_t sizes[] = {0,
                                   0,
                                   0,
                                   TTT_RULES_TEXT_SIZE,
                                   TTT_STORE_SPEC_SIZE,
                                   TTT_STORE_SPEC_SIZE,
                                   TTT_MOVES_TEXT_SIZE,
                                   sizeof g->result};
    char *texts[] = {NULL, NULL, NULL, g->rules, g->x, g->o, g->moves, g->result};
    char why[TTT_ERROR_SIZE] = "";
    int bad = GAME_OK;
    memset(g, 0, sizeof *g);
    for (int col = GAME_ID; col <= GAME_RESULT && bad == GAME_OK; col++) {
        if (col <= GAME_ENDED) {
            if (sqlite3_column_type(q, col) != SQLITE_INTEGER)
                bad = col, snprintf(why, sizeof why, "not a whole number");
            continue;
        }
        const char *t = column_text(q, col, sizes[col], why, sizeof why);
        if (!t)
            bad = col;
        else
            memcpy(texts[col], t, strlen(t) + 1);
    }
    g->id = sqlite3_column_int64(q, GAME_ID);
    g->started = sqlite3_column_int64(q, GAME_STARTED);
    g->ended = sqlite3_column_int64(q, GAME_ENDED);
    if (bad == GAME_OK)
        bad = check_record(g, why, sizeof why);
    if (bad == GAME_OK)
        return TTT_OK;
    char shown[STORE_SHOWN_SIZE], id[STORE_SHOWN_SIZE];
    return ttt_fail(err, TTT_EIO, "database '%s': game id=%s: bad %s %s: %s", s->path,
                    describe(q, GAME_ID, id), game_columns[bad], describe(q, bad, shown), why);
}

/* Calls each for every row of q (a games query) until it returns non-zero. Finalizes q. */
static ttt_status each_game(ttt_store *s, sqlite3_stmt *q, int (*each)(const ttt_game_record *, void *),
                            void *user, bool *found, ttt_error *err)
{
    ttt_game_record *g = malloc(sizeof *g);
    ttt_status st = g ? TTT_OK : ttt_fail(err, TTT_ENOMEM, "database: out of memory");
    int rc = SQLITE_DONE;
    while (!st && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        *found = true;
        if ((st = read_game(s, q, g, err)) == TTT_OK && each(g, user))
            break;
    }
    if (!st && rc != SQLITE_ROW && rc != SQLITE_DONE)
        st = db_fail(s, err, "read games");
    sqlite3_finalize(q);
    free(g);
    return st;
}

ttt_status ttt_store_list_games(ttt_store *s, int limit, int (*each)(const ttt_game_record *, void *),
                                void *user, ttt_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS " FROM games ORDER BY id DESC LIMIT ?", -1, &q,
                           NULL) != SQLITE_OK)
        return db_fail(s, err, "list games");
    sqlite3_bind_int64(q, 1, limit > 0 ? limit : -1);
    bool found = false;
    return each_game(s, q, each, user, &found, err);
}

static int copy_game(const ttt_game_record *g, void *user)
{
    *(ttt_game_record *)user = *g;
    return 1;
}

ttt_status ttt_store_get_game(ttt_store *s, int64_t id, ttt_game_record *out, ttt_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS " FROM games WHERE id = ?", -1, &q, NULL) !=
        SQLITE_OK)
        return db_fail(s, err, "get game");
    sqlite3_bind_int64(q, 1, id);
    bool found = false;
    ttt_status st = each_game(s, q, copy_game, out, &found, err);
    if (!st && !found)
        st = ttt_fail(err, TTT_EINVAL, "no game %lld in '%s'", (long long)id, s->path);
    return st;
}

ttt_status ttt_store_count_games(ttt_store *s, int64_t *count, ttt_error *err)
{
    *count = 0;
    return query_value(s->db, "SELECT count(*) FROM games", count) ? TTT_OK : db_fail(s, err, "count games");
}

/* --- The learner's memory ----------------------------------------------------------------------------- */

int64_t ttt_store_count_add(int64_t a, int64_t b)
{
    assert(a >= 0 && a <= TTT_STORE_MAX_COUNT && b >= 0 && b <= TTT_STORE_MAX_COUNT);
    return a > TTT_STORE_MAX_COUNT - b ? TTT_STORE_MAX_COUNT : a + b;
}

ttt_status ttt_store_learn(ttt_store *s, const char *rules, const char *moves, const char *result,
                           int64_t count, ttt_error *err)
{
    seq_check *c = calloc(1, sizeof *c);
    if (!c)
        return ttt_fail(err, TTT_ENOMEM, "database: out of memory");
    static const char *const names[] = {"rules", "moves", "result", "count"};
    char why[TTT_ERROR_SIZE], shown[STORE_SHOWN_SIZE];
    int bad = check_sequence(c, rules, moves, result, count, why, sizeof why);
    free(c);
    if (bad != SEQ_OK)
        return ttt_fail(err, TTT_EINVAL, "database '%s': cannot learn rules=%s moves=%s: bad %s: %s", s->path,
                        rules, quote(moves, strlen(moves), shown), names[bad], why);
    ttt_status st = ensure_file(s, err);
    if (st)
        return st;
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
    return run_write(s, q, NULL, NULL, NULL, err);
}

/* Reads and checks the current row of a sequences query into c->seq. */
static ttt_status read_sequence(ttt_store *s, sqlite3_stmt *q, seq_check *c, ttt_error *err)
{
    static const char *const names[] = {"rules", "moves", "result", "count"};
    static const size_t sizes[] = {TTT_RULES_TEXT_SIZE, TTT_MOVES_TEXT_SIZE, sizeof "draw"};
    const char *texts[SEQ_COUNT];
    char why[TTT_ERROR_SIZE] = "";
    int bad = -1;
    for (int col = SEQ_RULES; col < SEQ_COUNT && bad < 0; col++)
        if (!(texts[col] = column_text(q, col, sizes[col], why, sizeof why)))
            bad = col;
    if (bad < 0 && sqlite3_column_type(q, SEQ_COUNT) != SQLITE_INTEGER)
        bad = SEQ_COUNT, snprintf(why, sizeof why, "not a whole number");
    if (bad < 0)
        bad = check_sequence(c, texts[SEQ_RULES], texts[SEQ_MOVES], texts[SEQ_RESULT],
                             sqlite3_column_int64(q, SEQ_COUNT), why, sizeof why);
    if (bad == SEQ_OK)
        return TTT_OK;
    char rules[STORE_SHOWN_SIZE], moves[STORE_SHOWN_SIZE], value[STORE_SHOWN_SIZE];
    return ttt_fail(err, TTT_EIO, "database '%s': row rules=%s moves=%s: bad %s %s: %s", s->path,
                    describe(q, SEQ_RULES, rules), describe(q, SEQ_MOVES, moves), names[bad],
                    describe(q, bad, value), why);
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
    seq_check *c = calloc(1, sizeof *c);
    ttt_status st = c ? TTT_OK : ttt_fail(err, TTT_ENOMEM, "database: out of memory");
    int rc = SQLITE_DONE;
    while (!st && (rc = sqlite3_step(q)) == SQLITE_ROW)
        if ((st = read_sequence(s, q, c, err)) == TTT_OK && each(&c->seq, user))
            break;
    if (!st && rc != SQLITE_ROW && rc != SQLITE_DONE)
        st = db_fail(s, err, "read memory");
    sqlite3_finalize(q);
    free(c);
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
static int stats_step(const ttt_store_sequence *seq, void *user)
{
    stats_walk *w = user;
    if (strcmp(seq->rules_text, w->cur.rules) != 0) {
        if (w->cur.rules[0] && (w->stopped = w->each(&w->cur, w->user)))
            return 1;
        memset(&w->cur, 0, sizeof w->cur);
        copy_text(w->cur.rules, sizeof w->cur.rules, seq->rules_text);
        w->prev[0] = '\0';
    }
    w->cur.games = ttt_store_count_add(w->cur.games, seq->count);
    w->cur.sequences++;
    w->cur.prefixes += count_moves(seq->moves_text) - common_moves(seq->moves_text, w->prev);
    int64_t *by_result = seq->outcome == TTT_X_WINS   ? &w->cur.x_wins
                         : seq->outcome == TTT_O_WINS ? &w->cur.o_wins
                                                      : &w->cur.draws;
    *by_result = ttt_store_count_add(*by_result, seq->count);
    copy_text(w->prev, sizeof w->prev, seq->moves_text);
    return 0;
}

ttt_status ttt_store_memory_stats_each(ttt_store *s, int (*each)(const ttt_store_memory_stats *, void *),
                                       void *user, ttt_error *err)
{
    stats_walk *w = calloc(1, sizeof *w);
    if (!w)
        return ttt_fail(err, TTT_ENOMEM, "database: out of memory");
    w->each = each;
    w->user = user;
    ttt_status st = ttt_store_sequences(s, NULL, stats_step, w, err);
    if (!st && !w->stopped && w->cur.rules[0])
        each(&w->cur, user);
    free(w);
    return st;
}

/* --- Memory exports ----------------------------------------------------------------------------------- */

typedef struct import_entry {
    char rules[TTT_RULES_TEXT_SIZE];
    char *moves; /* canonical */
    const char *result;
    int64_t count;
} import_entry;

struct ttt_store_import {
    import_entry *entries;
    int64_t count, games;
    uint64_t fingerprint; /* of the entries, in order: the same export gives the same one */
};

/* FNV-1a, 64 bits: the fingerprint of an export's checked contents, so that its spacing and key order do
 * not matter. */
#define IMPORT_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define IMPORT_FNV_PRIME  UINT64_C(0x100000001b3)

static uint64_t fnv_add(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * IMPORT_FNV_PRIME;
    return h;
}

static uint64_t import_fingerprint(const ttt_store_import *imp)
{
    uint64_t h = IMPORT_FNV_OFFSET;
    for (int64_t i = 0; i < imp->count; i++) {
        const import_entry *e = &imp->entries[i];
        h = fnv_add(h, e->rules, strlen(e->rules) + 1);
        h = fnv_add(h, e->moves, strlen(e->moves) + 1);
        h = fnv_add(h, e->result, strlen(e->result) + 1);
        h = fnv_add(h, &e->count, sizeof e->count);
    }
    return h;
}

/* The ttt_meta key that records an import of these contents: "import 0123456789abcdef". */
#define IMPORT_KEY_SIZE 32
static const char *import_key(const ttt_store_import *imp, char *buf)
{
    snprintf(buf, IMPORT_KEY_SIZE, "import %016" PRIx64, imp->fingerprint);
    return buf;
}

void ttt_store_import_free(ttt_store_import *imp)
{
    if (!imp)
        return;
    for (int64_t i = 0; i < imp->count; i++)
        free(imp->entries[i].moves);
    free(imp->entries);
    free(imp);
}

int64_t ttt_store_import_sequences(const ttt_store_import *imp) { return imp->count; }

int64_t ttt_store_import_games(const ttt_store_import *imp) { return imp->games; }

/* Checks one sequence of an export: a legal finished game of c->rules in any image, with its result and a
 * count in range; its canonical form goes into e. */
static ttt_status import_sequence(seq_check *c, json_t *seq, import_entry *e, char *why, size_t size)
{
    json_t *jm = json_object_get(seq, "moves"), *jr = json_object_get(seq, "result"),
           *jc = json_object_get(seq, "count");
    if (!json_is_string(jm) || !json_is_string(jr) || !json_is_integer(jc)) {
        snprintf(why, size, "expected {\"moves\": text, \"result\": text, \"count\": number}");
        return TTT_EINVAL;
    }
    int n;
    ttt_outcome oc;
    if (!check_game(&c->rules, json_string_value(jm), c->moves, &n, &oc, why, size))
        return TTT_EINVAL;
    char reason[STORE_REASON_SIZE];
    if (!check_result(json_string_value(jr), oc, reason, sizeof reason)) {
        char shown[STORE_SHOWN_SIZE];
        snprintf(why, size, "result %s: %s",
                 quote(json_string_value(jr), strlen(json_string_value(jr)), shown), reason);
        return TTT_EINVAL;
    }
    e->count = (int64_t)json_integer_value(jc);
    if (e->count < 1 || e->count > TTT_STORE_MAX_COUNT) {
        snprintf(why, size, "count %" PRId64 ": expected 1 to %" PRId64, e->count, TTT_STORE_MAX_COUNT);
        return TTT_EINVAL;
    }
    e->result = ttt_outcome_name(oc);
    ttt_sym_sequence_canonical(&c->rules, c->moves, n, c->canon);
    ttt_moves_format(&c->rules, c->canon, n, c->canon_text, sizeof c->canon_text);
    ttt_rules_format(&c->rules, e->rules, sizeof e->rules);
    if (!(e->moves = strdup(c->canon_text))) {
        snprintf(why, size, "out of memory");
        return TTT_ENOMEM;
    }
    return TTT_OK;
}

/* The memories of an export into imp, which has room for every sequence. */
static ttt_status import_memories(json_t *memories, ttt_store_import *imp, seq_check *c, ttt_error *err)
{
    size_t i, j;
    json_t *m, *seq;
    json_array_foreach(memories, i, m)
    {
        json_t *jr = json_object_get(m, "rules"), *seqs = json_object_get(m, "sequences");
        if (!json_is_string(jr) || !json_is_array(seqs))
            return ttt_fail(err, TTT_EINVAL,
                            "memories[%zu]: expected {\"rules\": text, \"sequences\": [...]}", i);
        ttt_error e;
        if (ttt_rules_parse(json_string_value(jr), &c->rules, &e))
            return ttt_fail(err, TTT_EINVAL, "memories[%zu]: %s", i, e.msg);
        json_array_foreach(seqs, j, seq)
        {
            char why[TTT_ERROR_SIZE];
            import_entry *entry = &imp->entries[imp->count];
            ttt_status st = import_sequence(c, seq, entry, why, sizeof why);
            if (st)
                return ttt_fail(err, st, "memories[%zu].sequences[%zu]: %s", i, j, why);
            imp->count++;
            imp->games = ttt_store_count_add(imp->games, entry->count);
        }
    }
    return TTT_OK;
}

ttt_status ttt_store_import_parse(const char *text, size_t len, ttt_store_import **out, ttt_error *err)
{
    *out = NULL;
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        for (char *p = jerr.text; *p; p++) /* jansson quotes the input near the error: keep it one line */
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        return ttt_fail(err, TTT_EINVAL, "not valid JSON: %s (line %d)", jerr.text, jerr.line);
    }
    json_t *format = json_object_get(root, "format"), *version = json_object_get(root, "version"),
           *memories = json_object_get(root, "memories");
    ttt_status st = TTT_OK;
    if (!json_is_string(format) || strcmp(json_string_value(format), TTT_STORE_EXPORT_FORMAT) != 0)
        st = ttt_fail(err, TTT_EINVAL, "not a ttt memory export (no \"format\": \"%s\")",
                      TTT_STORE_EXPORT_FORMAT);
    else if (!json_is_integer(version) || json_integer_value(version) != TTT_STORE_EXPORT_VERSION)
        st = ttt_fail(err, TTT_EINVAL, "\"version\" must be %d", TTT_STORE_EXPORT_VERSION);
    else if (!json_is_array(memories))
        st = ttt_fail(err, TTT_EINVAL, "\"memories\" must be an array");
    size_t total = 0, i;
    json_t *m;
    json_array_foreach(memories, i, m) total += json_array_size(json_object_get(m, "sequences"));
    ttt_store_import *imp = st ? NULL : calloc(1, sizeof *imp);
    seq_check *c = st ? NULL : malloc(sizeof *c);
    if (!st && (!imp || !c || !(imp->entries = calloc(total ? total : 1, sizeof *imp->entries))))
        st = ttt_fail(err, TTT_ENOMEM, "out of memory");
    if (!st)
        st = import_memories(memories, imp, c, err);
    if (!st)
        imp->fingerprint = import_fingerprint(imp);
    free(c);
    json_decref(root);
    if (st) {
        ttt_store_import_free(imp);
        return st;
    }
    *out = imp;
    return TTT_OK;
}

ttt_status ttt_store_import_seen(ttt_store *s, const ttt_store_import *imp, int64_t *when, ttt_error *err)
{
    *when = 0;
    sqlite3_stmt *q;
    char key[IMPORT_KEY_SIZE];
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM ttt_meta WHERE key = ?", -1, &q, NULL) != SQLITE_OK)
        return db_fail(s, err, "look up earlier imports");
    sqlite3_bind_text(q, 1, import_key(imp, key), -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(q, 0);
        long long t = text ? strtoll((const char *)text, NULL, 10) : 0;
        *when = t > 0 ? t : 1; /* a damaged time still marks the import as done */
    }
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? TTT_OK : db_fail(s, err, "look up earlier imports");
}

ttt_status ttt_store_import_apply(ttt_store *s, const ttt_store_import *imp, ttt_error *err)
{
    bool own = !s->in_transaction;
    ttt_status st = own ? ttt_store_begin(s, err) : TTT_OK;
    for (int64_t i = 0; i < imp->count && !st; i++) {
        const import_entry *e = &imp->entries[i];
        st = ttt_store_learn(s, e->rules, e->moves, e->result, e->count, err);
    }
    sqlite3_stmt *q;
    char key[IMPORT_KEY_SIZE];
    if (!st && sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO ttt_meta(key, value) VALUES (?, ?)", -1, &q,
                                  NULL) != SQLITE_OK)
        st = db_fail(s, err, "record the import");
    else if (!st) {
        char when[IMPORT_KEY_SIZE];
        snprintf(when, sizeof when, "%lld", (long long)time(NULL));
        sqlite3_bind_text(q, 1, import_key(imp, key), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, when, -1, SQLITE_TRANSIENT);
        st = run_write(s, q, NULL, NULL, NULL, err);
    }
    if (own && st)
        ttt_store_rollback(s);
    else if (own)
        st = ttt_store_commit(s, err);
    return st;
}
