/*
 * ttt/table.h - a move table learned from uniformly random games (the method of seed 003).
 *
 * N games are played with uniformly random legal moves from the empty board. Every move of every game is
 * scored from the mover's side, by the first rule that applies:
 *
 *     +10  the move ends the game and the rules say the mover won
 *     -10  the opponent's very next move ends the game and the rules say the opponent won
 *      +1  the mover is the side that went on to win the game
 *      -1  otherwise (the loser's moves, and every move of a drawn game)
 *
 * Under misère rules a completed line loses for the side that made it, so a game never ends on the winner's
 * own move: there the +10 and -10 rules never apply and the table holds +1/-1 alone.
 *
 * Scores are accumulated per (position before the move, move), as a sum and a count; the value of a move is
 * the average, sum / count. Positions are stored in canonical form (ttt_board_canonical) and moves in the
 * canonical frame; where the canonical position is itself symmetric, the symmetries that fix it would take a
 * move to several equivalent cells, and the smallest of them is stored. Looking a move up
 * (ttt_table_get) maps it the same way, so images of a game share the same entries.
 *
 * Tables are for boards of up to 64 cells (each side's stones in one 64-bit word); bigger rules give
 * TTT_ELIMIT. Building uses 1 or more threads; games are cut into chunks of TTT_TABLE_CHUNK_GAMES, chunk i
 * having its own generator seeded from (seed, i), so the table depends on the seed and the number of games
 * only, never on the number of threads.
 *
 * Two file formats: a compact binary one (what the engine reads: 11 MB for the default 4x4 table, read in a
 * fraction of a second) and JSON (an export for people and scripts: 65 MB for the same table, 9 s to read).
 * ttt_table_save picks JSON for a path that ends in ".json", else binary; ttt_table_load reads both, telling
 * them apart by their first bytes.
 *
 * The binary format, version 2; integers little-endian, a varint is LEB128 (7 bits a byte, low first):
 *
 *     offset  size  field
 *          0     8  magic "TTTTABLE"
 *          8     4  version: 2 (1 is the JSON format)
 *         12     4  header size: 80
 *         16    32  rules text (ttt_rules_format), NUL-padded
 *         48     8  games            56  8  seed
 *         64     8  positions        72  8  entries (moves)
 *         80        the positions, in the JSON file's order (stones played, then X's bits, then O's):
 *                     X stones (8, bit = cell) | O stones (8) | moves (1) | per move, in increasing cell
 *                     order: cell (1) | count (varint) | sum (varint, zigzag: 2s for s >= 0, -2s-1 below)
 *     size-8     8  checksum: FNV-1a (64 bits) of every byte before it
 *
 * Loading checks the same things in both formats and refuses the whole file with one line.
 *
 * The JSON format: one object, versioned.
 *
 *     {"format": "ttt-table", "version": 1, "rules": "3x3", "games": 1000000, "seed": 0,
 *      "positions": [
 *        {"position": ".../.../...", "moves": [{"move": "a1", "sum": 1234, "count": 5678, "average": 0.217},
 *                                              ...]},
 *        ...]}
 *
 *   format    always "ttt-table"; version: always 1 (a reader refuses other versions)
 *   rules     the rules text (ttt_rules_format): the table is only valid for exactly these rules
 *   games     how many games were played (0 to 2^63-1); seed: the build seed (0 to 2^63-1)
 *   positions every position seen with a move to score (never a finished one), in canonical form, as
 *             position text (ttt/notation.h), ordered by stones played then by bit pattern
 *   moves     the moves seen there, in the canonical frame, as move text ("b2"), in increasing cell order;
 *             sum and count are integers (count >= 1, |sum| <= 10 * count); average is sum / count,
 *             written for people and scripts and recomputed on load
 *
 * Loading checks all of it (types, format, version, rules, position and move text, positions valid,
 * canonical, unfinished and listed once, moves legal and canonical, sum and count in range) and refuses the
 * whole file with one line that says where the problem is.
 *
 * Engines share tables through ttt_table_acquire: one load per file and process, however many engines (an
 * arena's games, a server's sessions) use it.
 */
#ifndef TTT_TABLE_H
#define TTT_TABLE_H

#include "ttt/board.h"

/* The largest board a table holds: each side's stones in one 64-bit word. */
#define TTT_TABLE_MAX_CELLS 64
/* Games and seeds are stored as JSON integers, which are signed 64-bit in the reader. */
#define TTT_TABLE_MAX_GAMES INT64_MAX
#define TTT_TABLE_MAX_SEED  INT64_MAX
/* Threads a build may use. */
#define TTT_TABLE_MAX_JOBS 64
/* Games per chunk: the unit of work a thread takes, and of seeding (so results do not depend on threads). */
#define TTT_TABLE_CHUNK_GAMES 65536

/* The scores of the method (see above). */
#define TTT_TABLE_SCORE_WIN        10
#define TTT_TABLE_SCORE_LET_WIN    (-10)
#define TTT_TABLE_SCORE_WINNER     1
#define TTT_TABLE_SCORE_NOT_WINNER (-1)

/* The most samples one entry holds (its count shares a word with the move); a file with more is refused. */
#define TTT_TABLE_MAX_COUNT (UINT64_MAX >> 8)

/* What the default table is: the table engine builds it on first use when it is given no file. Fixed, so
 * that every default table of the same rules is the same. Its size shrinks with the board, so that the file
 * stays quick to load (1M games of 4x4 k=3 make a 121 MB file that takes 11 s to read): 1,000,000 games up to
 * 9 cells, 100,000 up to 16, 10,000 up to TTT_TABLE_DEFAULT_MAX_CELLS. Bigger boards have no default table
 * (random games barely cover them): build one with `ttt table build` and pass file=. */
#define TTT_TABLE_DEFAULT_GAMES     1000000
#define TTT_TABLE_DEFAULT_GAMES_16  100000
#define TTT_TABLE_DEFAULT_GAMES_25  10000
#define TTT_TABLE_DEFAULT_MAX_CELLS 25
#define TTT_TABLE_DEFAULT_SEED      0

typedef struct ttt_table ttt_table;

/* One entry: the scores a move collected in a position. */
typedef struct ttt_table_value {
    int64_t sum;
    uint64_t count; /* >= 1 for a move the table has */
    double average; /* sum / count */
} ttt_table_value;

/* Called during a build with the games played so far and the total; always from the thread that called
 * ttt_table_build, every thousand or so of the games that thread plays (within chunks too), and once more at
 * the end with done == total. ttt_table_save_progress calls it with the entries written. */
typedef void (*ttt_table_progress_fn)(uint64_t done, uint64_t total, void *user);

typedef struct ttt_table_build_options {
    uint64_t games;                 /* 0..TTT_TABLE_MAX_GAMES */
    uint64_t seed;                  /* 0..TTT_TABLE_MAX_SEED */
    int jobs;                       /* threads, 1..TTT_TABLE_MAX_JOBS (0 means 1) */
    ttt_table_progress_fn progress; /* may be NULL */
    void *user;                     /* passed to progress */
} ttt_table_build_options;

/* An empty table for the rules (0 games, seed 0), to fill with ttt_table_add_game. TTT_ELIMIT for boards
 * over TTT_TABLE_MAX_CELLS cells, TTT_EINVAL for invalid rules, TTT_ENOMEM. The caller frees *out. */
ttt_status ttt_table_new(const ttt_rules *rules, ttt_table **out, ttt_error *err);

/* Plays opt->games uniformly random games and scores them into a new table (*out, freed by the caller).
 * Errors: TTT_EINVAL for options out of range or invalid rules, TTT_ELIMIT as ttt_table_new, TTT_ENOMEM.
 * When a thread cannot be started the build goes on with fewer (the table is the same). */
ttt_status ttt_table_build(const ttt_rules *rules, const ttt_table_build_options *opt, ttt_table **out,
                           ttt_error *err);

/* Scores one complete game, given as its moves from the empty board, into the table and counts it as one
 * more game. TTT_EINVAL (table unchanged) when a move is illegal or the game is not over after the last one.
 */
ttt_status ttt_table_add_game(ttt_table *t, const ttt_move *moves, int count, ttt_error *err);

/* Releases the table. NULL is allowed. */
void ttt_table_free(ttt_table *t);

const ttt_rules *ttt_table_rules(const ttt_table *t);
uint64_t ttt_table_games(const ttt_table *t);
uint64_t ttt_table_seed(const ttt_table *t);
/* Distinct canonical positions, and (position, move) entries. */
size_t ttt_table_positions(const ttt_table *t);
size_t ttt_table_entries(const ttt_table *t);
/* The sum of all counts: the number of moves scored (the moves of all games). */
uint64_t ttt_table_samples(const ttt_table *t);

/* The entry of `move` in position b (any image: both are mapped to the canonical frame). b must have the
 * table's rules and `move` must be an empty cell of b (asserted). Returns false, *out untouched, when the
 * table never saw that move there. Reads only: many threads may look up one table at once. */
bool ttt_table_get(const ttt_table *t, const ttt_board *b, ttt_move move, ttt_table_value *out);

/* The number of games of the default table of the rules (TTT_TABLE_DEFAULT_GAMES, _16 or _25 by the number
 * of cells), or 0 when boards that big have no default table. */
uint64_t ttt_table_default_games(const ttt_rules *rules);

/* An upper bound on the entries of a table of these rules built from `games` games: each game adds at most
 * one entry per cell, and a board has at most 3^cells positions with at most cells moves each. */
uint64_t ttt_table_max_entries(const ttt_rules *rules, uint64_t games);

/* Builds the default table of the rules (ttt_table_default_games games, seed TTT_TABLE_DEFAULT_SEED) with
 * `jobs` threads into *out, in memory only. TTT_EINVAL, naming `ttt table build`, for boards that have no
 * default table; otherwise as ttt_table_build. */
ttt_status ttt_table_build_default(const ttt_rules *rules, int jobs, ttt_table **out, ttt_error *err);

/* Writes the table to path, as JSON when path ends in ".json" and in the binary format otherwise, atomically: a temporary file in the same directory, then a
 * rename, so that a reader never sees half a table and a failed write leaves the old file as it was.
 * TTT_EIO with the reason. The output is the same for the same table, byte for byte. */
ttt_status ttt_table_save(const ttt_table *t, const char *path, ttt_error *err);

/* ttt_table_save reporting the entries written so far and the total to progress (may be NULL) every
 * TTT_TABLE_SAVE_PROGRESS_ENTRIES entries, and once more at the end with done == total. */
#define TTT_TABLE_SAVE_PROGRESS_ENTRIES 65536
ttt_status ttt_table_save_progress(const ttt_table *t, const char *path, ttt_table_progress_fn progress,
                                   void *user, ttt_error *err);

/* Reads a table in either format. With rules non-NULL the file must be for exactly those rules. Errors, each one line that
 * starts with "table 'PATH': ": TTT_EINVAL for a missing file, text that is not JSON, a wrong format or
 * version, other rules, or any bad field (it names where: "positions[12].moves[3]: ..."); TTT_EIO when the
 * file exists but cannot be read; TTT_ELIMIT for rules over 64 cells; TTT_ENOMEM. *out is NULL on failure. */
ttt_status ttt_table_load(const char *path, const ttt_rules *rules, ttt_table **out, ttt_error *err);

/* True when the file at path starts like a table this library writes: used to refuse overwriting a file
 * that is something else. False for a missing or unreadable file. */
bool ttt_table_file_looks_like_table(const char *path);

/* The default place of the table of some rules: $XDG_DATA_HOME/ttt/tables/RULES.tbl when XDG_DATA_HOME is
 * set to an absolute path, else $HOME/.local/share/ttt/tables/RULES.tbl (binary). With create_dirs the directories
 * are made (mode 0755) when missing. TTT_EIO when neither variable is usable or a directory cannot be made;
 * TTT_ELIMIT when the path does not fit in size bytes. */
ttt_status ttt_table_default_path(const ttt_rules *rules, bool create_dirs, char *buf, size_t size,
                                  ttt_error *err);

/* --- Tables shared within a process ------------------------------------------------------------------- */

/* Room for a table's path (ttt_table_default_path). */
#define TTT_TABLE_PATH_SIZE 4096

/* What ttt_table_acquire did to give a default table: it was missing, so it was built (games games in ms
 * milliseconds) and, when saved, written to path (bytes bytes). */
typedef struct ttt_table_built {
    ttt_rules rules;
    uint64_t games;
    double ms;
    bool saved;
    char path[TTT_TABLE_PATH_SIZE]; /* the default path ("" when there is none) */
    uint64_t bytes;
} ttt_table_built;
typedef void (*ttt_table_built_fn)(const ttt_table_built *built, void *user);

/* The table at path for rules (path NULL: the default table of the rules, read from ttt_table_default_path,
 * or built with ttt_table_build_default and saved there when the file is missing; a file that is there but
 * does not load is an error and is left alone), shared within the process: a file is loaded once while it
 * stays the same (device, inode, size, modification time), and kept until ttt_table_cache_clear, so that
 * engines made one after another do not load it again. Thread safe. Each table acquired is released with
 * ttt_table_release. When built is non-NULL, built->ms is set to -1, or filled in when a default table was
 * built by this call (the library prints nothing: the client may say so). Errors as ttt_table_load and
 * ttt_table_build_default. */
ttt_status ttt_table_acquire(const char *path, const ttt_rules *rules, const ttt_table **out,
                             ttt_table_built *built, ttt_error *err);

/* Gives back a table from ttt_table_acquire; it is freed once nobody uses it and the cache has let it go.
 * NULL is allowed. Thread safe. */
void ttt_table_release(const ttt_table *t);

/* Lets go of every table the cache keeps (those in use stay until released): the next acquire loads again. */
void ttt_table_cache_clear(void);

/* Called (from the acquiring thread, once the table is ready) whenever ttt_table_acquire builds a default
 * table, for every engine of the process: how a client that makes engines through specs hears of it. NULL
 * removes the listener. Thread safe. */
void ttt_table_set_built_listener(ttt_table_built_fn fn, void *user);

#endif
