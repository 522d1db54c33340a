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
 * processes writing at once both succeed and lose nothing. The file is only ever opened through SQLite (a
 * second descriptor of it, closed, would drop SQLite's locks for the whole process).
 *
 * Nothing read from the file is trusted: every value of every row is checked before a caller sees it (types,
 * ranges, moves a legal finished game of the row's rules that ends in the row's result), and a bad one is
 * TTT_EIO with one line naming the file and the row: "database 'F': row rules='3x3' moves='a1 b1 a2 b2 a3':
 * bad result NULL: not text".
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

/* Opens (creating it when missing) the database at path, or at the default path when path is NULL or empty,
 * whose directories are made too; a named path's directory must exist (TTT_EINVAL "database 'F': directory 'D'
 * does not exist (make it first)"): a mistyped path makes no directory tree. ":memory:" is a private database
 * in memory (tests). On success *out owns a new handle. Errors: "database 'F': not an SQLite database: not
 * touching it", "... is an SQLite database of another program: not touching it", "... was made by a newer ttt
 * (schema 7, this one reads up to 1)",
 * "... is corrupt: ...", and TTT_EIO "... the file is read-only: cannot write to it" for a file this process
 * may not write (refused before anything is read, so no -wal or -shm file is made next to it). */
ttt_status ttt_store_open(const char *path, ttt_store **out, ttt_error *err);

/* As ttt_store_open, for readers (history, stats, export): a file that does not exist yet is TTT_ESTATE
 * ("no database at 'F' yet") and nothing is created. A file this process may not write is read as it is, an
 * immutable snapshot that makes no -wal or -shm file beside it; it is refused (TTT_EIO) when a -wal file
 * beside it holds changes the snapshot would not see, or when its schema is older than this ttt's. */
ttt_status ttt_store_open_existing(const char *path, ttt_store **out, ttt_error *err);

/* As ttt_store_open, but a file that does not exist yet is made at the first write (a game, a learned
 * sequence, ttt_store_begin), with the default path's directories; until then the store reads as empty. An
 * existing file is checked at once, and so is a named path's directory. */
ttt_status ttt_store_open_lazy(const char *path, ttt_store **out, ttt_error *err);

/* As ttt_store_open_lazy, for a store that is only read (a learner that does not learn): a missing file
 * reads as empty, and a file this process may not write is read as ttt_store_open_existing reads it; every
 * write to such a store fails (TTT_EIO "database 'F': the file is read-only: cannot write to it"). */
ttt_status ttt_store_open_reader(const char *path, ttt_store **out, ttt_error *err);

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
 * a legal finished game, TTT_ELIMIT when a player text is TTT_STORE_SPEC_SIZE characters or longer (never
 * cut short). */
ttt_status ttt_game_record_make(const ttt_rules *rules, const ttt_move *moves, int count, const char *x,
                                const char *o, int64_t started, int64_t ended, ttt_game_record *out,
                                ttt_error *err);

/* Adds a finished game; *id (may be NULL) receives its id. One transaction. TTT_EINVAL, and nothing written,
 * for a record the store would refuse to read back: times below 0, rules not as ttt_rules_format writes them,
 * a player with a control character, moves that are not a legal finished game ending in the result. TTT_EIO
 * when the file opened is no longer at its path (deleted or its directory removed since): the game would go
 * to an unlinked file; TTT_EIO, and nothing written, when the game does not read back as written (a damaged
 * file). In the caller's transaction (ttt_store_begin) only this game is undone. */
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

/* a + b for counts (both 0 to TTT_STORE_MAX_COUNT), saturating at TTT_STORE_MAX_COUNT. */
int64_t ttt_store_count_add(int64_t a, int64_t b);

/* Adds count plays of a finished game, already in canonical form (ttt_sym_sequence_canonical), to the
 * memory of the rules: an upsert `count = count + N` (saturating), so concurrent writers never lose an
 * increment. rules as ttt_rules_format writes them; moves the a1-style text ttt_moves_format writes of the
 * canonical sequence; result "x", "o" or "draw", the game's result; count 1 to TTT_STORE_MAX_COUNT. Anything
 * else is TTT_EINVAL and nothing is written. One transaction unless one is open. */
ttt_status ttt_store_learn(ttt_store *store, const char *rules, const char *moves, const char *result,
                           int64_t count, ttt_error *err);

/* One stored sequence, checked: the pointers are valid during the call only. */
typedef struct ttt_store_sequence {
    const char *rules_text; /* "3x3", as ttt_rules_format writes it */
    const ttt_rules *rules;
    const char *moves_text; /* the canonical sequence, as ttt_moves_format writes it */
    const ttt_move *moves;  /* the same, parsed: a legal finished game of the rules */
    int nmoves;
    const char *result;  /* "x", "o" or "draw" */
    ttt_outcome outcome; /* how the moves end: matches result */
    int64_t count;       /* 1 to TTT_STORE_MAX_COUNT */
} ttt_store_sequence;

/* Calls each(sequence, user) for every sequence stored for the rules text (NULL: all rules), in order of
 * (rules, moves text). A non-zero return stops the walk. A row that fails the checks stops it with
 * TTT_EIO, after each has seen the rows before it. */
typedef int (*ttt_store_sequence_fn)(const ttt_store_sequence *sequence, void *user);
ttt_status ttt_store_sequences(ttt_store *store, const char *rules, ttt_store_sequence_fn each, void *user,
                               ttt_error *err);

/* --- Memory exports: JSON {"format": "ttt-memory", "version": 1, "memories": [{"rules": "3x3",
 *     "sequences": [{"moves": "a1 b1 a2 b2 a3", "result": "x", "count": 2}, ...]}, ...]} -------------------
 */

#define TTT_STORE_EXPORT_FORMAT  "ttt-memory"
#define TTT_STORE_EXPORT_VERSION 1

/* A memory export, read and checked: ready to add to a store. */
typedef struct ttt_store_import ttt_store_import;

/* Reads an export from text (len bytes; no terminator needed) and checks all of it: the format and version,
 * every rules text, every sequence a legal finished game of its rules (in any of its symmetric images; it is
 * stored in canonical form) that ends in its result, every count 1 to TTT_STORE_MAX_COUNT. On success *out
 * owns the import (ttt_store_import_free). Errors (TTT_EINVAL) name the place: "not valid JSON: ... (line
 * 3)", "memories[0].sequences[4]: moves: move 2 'a1': cell a1 is taken". Writes nothing anywhere. */
ttt_status ttt_store_import_parse(const char *text, size_t len, ttt_store_import **out, ttt_error *err);

/* The number of sequences and of games (the sum of the counts, saturating at TTT_STORE_MAX_COUNT) in it. */
int64_t ttt_store_import_sequences(const ttt_store_import *import);
int64_t ttt_store_import_games(const ttt_store_import *import);

/* Adds every sequence's count to the store's memory, in one transaction (the caller's, when one is open): on
 * an error nothing of the import is written. The store also keeps a fingerprint of the import's contents and
 * the time, for ttt_store_import_seen; applying the same contents again adds the counts again. */
ttt_status ttt_store_import_apply(ttt_store *store, const ttt_store_import *import, ttt_error *err);

/* Whether contents equal to the import's (the same sequences, results and counts, in the same order, however the
 * file was spaced) were applied to this store before: *when is then the time of the latest such import (Unix
 * seconds, at least 1), else 0. Errors: TTT_EIO from the database. */
ttt_status ttt_store_import_seen(ttt_store *store, const ttt_store_import *import, int64_t *when,
                                 ttt_error *err);

/* Frees an import. NULL is allowed. */
void ttt_store_import_free(ttt_store_import *import);

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
