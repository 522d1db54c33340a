/*
 * ttt/store.h - the product's one database: the learner's memory and the records of finished games.
 *
 * A store is an SQLite file, by default $XDG_DATA_HOME/ttt/ttt.db, else ~/.local/share/ttt/ttt.db
 * (ttt_store_default_path). Opening it checks that it is a ttt database before anything is written: a file
 * that is not SQLite, or an SQLite database of another program (other tables and no ttt marker), is refused
 * with one line and left untouched. A ttt database carries PRAGMA application_id = TTT_STORE_APPLICATION_ID
 * and a row ('format', 'ttt') in its table ttt_meta; PRAGMA user_version is the schema version, and opening
 * an older one runs the migrations up to TTT_STORE_SCHEMA_VERSION in one transaction. A file made by a newer
 * ttt (a higher version) is refused.
 *
 * The file is in WAL mode with synchronous=NORMAL: a process killed at any point leaves a consistent
 * database holding every transaction that committed before the kill. Every write is one BEGIN IMMEDIATE
 * transaction, and a connection waits up to TTT_STORE_BUSY_MS for another process's write to finish, so two
 * processes writing at once both succeed and lose nothing.
 *
 * Schema, version 1:
 *
 *     ttt_meta(key TEXT PRIMARY KEY, value TEXT)                        ('format', 'ttt')
 *     games(id INTEGER PRIMARY KEY, started INTEGER, ended INTEGER,    one finished game; times are Unix
 *           rules TEXT, x TEXT, o TEXT, moves TEXT, result TEXT)       seconds; moves "b2 a1 c3"; result
 *                                                                      "x", "o" or "draw"
 *     learner_sequences(rules TEXT, moves TEXT, result TEXT,           the learner's memory: each finished
 *           count INTEGER, PRIMARY KEY (rules, moves))                 game in canonical form, once, with
 *                                                                      how many times it was played
 *
 * A store handle belongs to one thread at a time.
 */
#ifndef TTT_STORE_H
#define TTT_STORE_H

#include "ttt/notation.h"

typedef struct ttt_store ttt_store;

/* "ttt\0" read as a big-endian number: the PRAGMA application_id of every ttt database. */
#define TTT_STORE_APPLICATION_ID 0x74747400
/* The schema this code writes and reads. */
#define TTT_STORE_SCHEMA_VERSION 1
/* How long a writer waits for another process's transaction before giving up. */
#define TTT_STORE_BUSY_MS 30000
/* Room for a path. */
#define TTT_STORE_PATH_SIZE 1024
/* A sequence's count saturates here (2^53: exact as a double, so in JSON too). */
#define TTT_STORE_MAX_COUNT (INT64_C(1) << 53)

/* The default database path: $XDG_DATA_HOME/ttt/ttt.db when XDG_DATA_HOME is an absolute path, else
 * $HOME/.local/share/ttt/ttt.db. TTT_EIO when neither is set, TTT_ELIMIT when buf is too small. */
ttt_status ttt_store_default_path(char *buf, size_t size, ttt_error *err);

/* Opens (creating it and its parent directories when missing) the database at path, or at the default path
 * when path is NULL or empty. On success *out owns a new handle. Errors: "memory 'F': not an SQLite
 * database: not touching it", "... is an SQLite database of another program: not touching it", "... was
 * made by a newer ttt (schema 7, this one reads up to 1)", "... is corrupt: ...". */
ttt_status ttt_store_open(const char *path, ttt_store **out, ttt_error *err);

/* As ttt_store_open, for readers (history, stats, export): a file that does not exist yet is TTT_ESTATE
 * ("no database at 'F' yet") and nothing is created. */
ttt_status ttt_store_open_existing(const char *path, ttt_store **out, ttt_error *err);

/* Closes the handle. NULL is allowed. */
void ttt_store_close(ttt_store *store);

/* The path the store was opened from. */
const char *ttt_store_path(const ttt_store *store);

/* The file's schema version (PRAGMA user_version) after opening: TTT_STORE_SCHEMA_VERSION. */
int ttt_store_schema_version(const ttt_store *store);

/* Runs PRAGMA integrity_check: TTT_OK when it answers "ok", TTT_EIO with its first complaint otherwise. */
ttt_status ttt_store_check(ttt_store *store, ttt_error *err);

/* --- Transactions: for callers that make several writes one unit (an import). ------------------------- */

/* BEGIN IMMEDIATE (waits for other writers up to TTT_STORE_BUSY_MS), COMMIT, ROLLBACK. The write calls
 * below each run in their own transaction unless the caller has begun one. */
ttt_status ttt_store_begin(ttt_store *store, ttt_error *err);
ttt_status ttt_store_commit(ttt_store *store, ttt_error *err);
void ttt_store_rollback(ttt_store *store);

/* --- Finished games ---------------------------------------------------------------------------------- */

/* Room for a player spec in a game record. */
#define TTT_STORE_SPEC_SIZE 256

/* One finished game. Text fields are NUL-terminated; result is "x", "o" or "draw" (cli_outcome_name). */
typedef struct ttt_game_record {
    int64_t id;      /* set by the store */
    int64_t started; /* Unix seconds */
    int64_t ended;
    char rules[TTT_RULES_TEXT_SIZE]; /* "3x3" */
    char x[TTT_STORE_SPEC_SIZE];     /* X's player: an engine spec or "human" */
    char o[TTT_STORE_SPEC_SIZE];
    char moves[TTT_MOVES_TEXT_SIZE]; /* "b2 a1 c3 ..." from the empty board */
    char result[8];                  /* "x", "o", "draw" */
} ttt_game_record;

/* Makes a record of a finished game from its moves: rules, moves text and result are filled from the
 * replay; x and o are copied (NULL gives "human"); started/ended as given. TTT_EINVAL when the moves are not
 * a legal finished game. */
ttt_status ttt_game_record_make(const ttt_rules *rules, const ttt_move *moves, int count, const char *x,
                                const char *o, int64_t started, int64_t ended, ttt_game_record *out,
                                ttt_error *err);

/* Adds a finished game; *id (may be NULL) receives its id. One transaction. */
ttt_status ttt_store_add_game(ttt_store *store, const ttt_game_record *game, int64_t *id, ttt_error *err);

/* Calls each(game, user) for the most recent games, newest first, at most limit of them (limit <= 0: all).
 * A non-zero return from each stops the listing. */
ttt_status ttt_store_list_games(ttt_store *store, int limit, int (*each)(const ttt_game_record *, void *),
                                void *user, ttt_error *err);

/* Reads game id into *out. TTT_EINVAL "no game N" when there is none. */
ttt_status ttt_store_get_game(ttt_store *store, int64_t id, ttt_game_record *out, ttt_error *err);

/* The number of game records. */
ttt_status ttt_store_count_games(ttt_store *store, int64_t *count, ttt_error *err);

/* --- The learner's memory ---------------------------------------------------------------------------- */

/* Adds count plays of a finished game, already in canonical form (ttt_sym_sequence_canonical), to the
 * memory of the rules: an upsert `count = count + N`, so concurrent writers never lose an increment. The
 * moves text is the a1-style sequence; result "x", "o" or "draw". One transaction unless one is open. */
ttt_status ttt_store_learn(ttt_store *store, const char *rules, const char *moves, const char *result,
                           int64_t count, ttt_error *err);

/* Calls each(moves, result, count, user) for every sequence stored for the rules (rules NULL: all rules,
 * with the rules text in the call), in order of (rules, moves). A non-zero return stops the walk. */
typedef int (*ttt_store_sequence_fn)(const char *rules, const char *moves, const char *result, int64_t count,
                                     void *user);
ttt_status ttt_store_sequences(ttt_store *store, const char *rules, ttt_store_sequence_fn each, void *user,
                               ttt_error *err);

/* What the memory holds for one rules. */
typedef struct ttt_store_memory_stats {
    char rules[TTT_RULES_TEXT_SIZE];
    int64_t games;     /* games learned (the sum of the counts) */
    int64_t sequences; /* distinct canonical games */
    int64_t prefixes;  /* distinct canonical prefixes (non-empty), the nodes of the learner's tree */
    int64_t x_wins, o_wins, draws; /* games learned by result */
} ttt_store_memory_stats;

/* Calls each(stats, user) once per rules that has a memory, in rules order. */
ttt_status ttt_store_memory_stats_each(ttt_store *store, int (*each)(const ttt_store_memory_stats *, void *),
                                       void *user, ttt_error *err);

#endif
