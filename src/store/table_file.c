/*
 * store/table_file.c - the move table learned from random games (ttt/table.h): its entries, lookup, the JSON
 * file and its default place. The builder (analysis/table_build.c) fills tables through table_internal.h.
 *
 * The table is one open-addressing hash table (linear probing, power-of-two capacity) of entries keyed by
 * (canonical X stones, canonical O stones, canonical move); a board of up to 64 cells keeps each side in one
 * word:
 *
 *     entry:  x (u64) | o (u64) | sum (i64) | meta (u64) = count << 8 | (move + 1);  meta == 0: empty slot
 *
 * Positions are mapped to their canonical form with the board's symmetry maps (rules/lines.h). Scoring a
 * game's moves (ttt_table_add_moves) keeps the images of the position under every symmetry up to date, one
 * OR per symmetry and move, so the canonical form before each move is a minimum over 8 (or 4) word pairs
 * instead of a canonicalisation from scratch.
 */
#define _GNU_SOURCE /* mkstemp, fsync, fchmod */
#include "ttt/table.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttt/notation.h"
#include "ttt/symmetry.h"
#include "rules/lines.h"
#include "store/table_internal.h"
#include "util/error.h"

#define TABLE_FORMAT_NAME    "ttt-table"
#define TABLE_FORMAT_VERSION 1
/* What every JSON file this code writes starts with (ttt_table_file_looks_like_table). */
#define TABLE_FILE_PREFIX "{\"format\":\"" TABLE_FORMAT_NAME "\""
/* The binary format (see ttt/table.h): its magic, version, header and the checksum's constants (FNV-1a). */
#define BINARY_MAGIC        "TTTTABLE"
#define BINARY_MAGIC_SIZE   8
#define BINARY_VERSION      2
#define BINARY_RULES_SIZE   32
#define BINARY_HEADER_SIZE  80
#define BINARY_SUM_SIZE     8
#define BINARY_POSITION_MIN 17 /* x, o, and the number of moves */
#define BINARY_VARINT_MAX   10 /* bytes of a 64-bit LEB128 number */
#define FNV_OFFSET          UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME           UINT64_C(0x100000001b3)

#define TABLE_INITIAL_CAPACITY 1024
/* Grow when more than this fraction of the slots is used: short probes matter more than memory here. */
#define TABLE_LOAD_NUM 3
#define TABLE_LOAD_DEN 4
/* The written average: enough digits for people; the loader allows the rounding. */
#define AVERAGE_DECIMALS  6
#define AVERAGE_SCALE     1000000 /* 10^AVERAGE_DECIMALS */
#define AVERAGE_TOLERANCE 1e-6
/* Bits of the meta word below the count. */
#define META_MOVE_BITS 8
#define META_MOVE_MASK ((UINT64_C(1) << META_MOVE_BITS) - 1)

typedef struct table_entry {
    uint64_t x, o;
    int64_t sum;
    uint64_t meta;
} table_entry;

struct ttt_table {
    ttt_rules rules;
    uint64_t games, seed;
    table_entry *slots;
    size_t capacity, used;  /* capacity is a power of two */
    const ttt_lines *lines; /* the board's geometry: its symmetry maps */
};

/* --- The hash table ------------------------------------------------------------------------------------ */

static inline size_t slot_of(uint64_t x, uint64_t o, int move, size_t mask)
{
    uint64_t h = x * UINT64_C(0x9e3779b97f4a7c15) ^ (o + (uint64_t)move) * UINT64_C(0xc2b2ae3d27d4eb4f);
    h ^= h >> 31;
    h *= UINT64_C(0x94d049bb133111eb);
    h ^= h >> 29;
    return (size_t)h & mask;
}

static inline int entry_move(const table_entry *e) { return (int)(e->meta & META_MOVE_MASK) - 1; }
static inline uint64_t entry_count(const table_entry *e) { return e->meta >> META_MOVE_BITS; }

static table_entry *find_slot(table_entry *slots, size_t capacity, uint64_t x, uint64_t o, int move)
{
    size_t mask = capacity - 1;
    uint64_t want = (uint64_t)(move + 1);
    for (size_t i = slot_of(x, o, move, mask);; i = (i + 1) & mask) {
        table_entry *e = &slots[i];
        if (e->meta == 0 || (e->x == x && e->o == o && (e->meta & META_MOVE_MASK) == want))
            return e;
    }
}

static ttt_status grow(ttt_table *t)
{
    size_t capacity = t->capacity * 2;
    table_entry *slots = calloc(capacity, sizeof *slots);
    if (!slots)
        return TTT_ENOMEM;
    for (size_t i = 0; i < t->capacity; i++) {
        const table_entry *e = &t->slots[i];
        if (e->meta)
            *find_slot(slots, capacity, e->x, e->o, entry_move(e)) = *e;
    }
    free(t->slots);
    t->slots = slots;
    t->capacity = capacity;
    return TTT_OK;
}

/* Adds (sum, count) to the entry of (x, o, move), making it when new. */
static ttt_status table_add(ttt_table *t, uint64_t x, uint64_t o, int move, int64_t sum, uint64_t count)
{
    table_entry *e = find_slot(t->slots, t->capacity, x, o, move);
    if (e->meta == 0) {
        if ((t->used + 1) * TABLE_LOAD_DEN > t->capacity * TABLE_LOAD_NUM) {
            if (grow(t))
                return TTT_ENOMEM;
            e = find_slot(t->slots, t->capacity, x, o, move);
        }
        e->x = x;
        e->o = o;
        e->meta = (uint64_t)(move + 1);
        t->used++;
    }
    e->sum += sum;
    e->meta += count << META_MOVE_BITS;
    return TTT_OK;
}

static const table_entry *table_find(const ttt_table *t, uint64_t x, uint64_t o, int move)
{
    const table_entry *e = find_slot(t->slots, t->capacity, x, o, move);
    return e->meta ? e : NULL;
}

/* --- Making and reading tables ------------------------------------------------------------------------- */

ttt_status ttt_table_new(const ttt_rules *rules, ttt_table **out, ttt_error *err)
{
    *out = NULL;
    ttt_error sub;
    if (ttt_rules_check(rules, &sub))
        return ttt_fail(err, TTT_EINVAL, "table: %s", sub.msg);
    if (ttt_rules_cells(rules) > TTT_TABLE_MAX_CELLS)
        return ttt_fail(err, TTT_ELIMIT, "table: boards over %d cells are not supported (%dx%d has %d)",
                        TTT_TABLE_MAX_CELLS, rules->rows, rules->cols, ttt_rules_cells(rules));
    ttt_table *t = calloc(1, sizeof *t);
    if (!t)
        return ttt_fail(err, TTT_ENOMEM, "table: out of memory");
    t->rules = *rules;
    t->capacity = TABLE_INITIAL_CAPACITY;
    t->slots = calloc(t->capacity, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return ttt_fail(err, TTT_ENOMEM, "table: out of memory");
    }
    ttt_status st = ttt_lines_new(rules, &t->lines, err);
    if (st) {
        ttt_table_free(t);
        return st;
    }
    *out = t;
    return TTT_OK;
}

void ttt_table_free(ttt_table *t)
{
    if (!t)
        return;
    ttt_lines_unref(t->lines);
    free(t->slots);
    free(t);
}

const ttt_rules *ttt_table_rules(const ttt_table *t) { return &t->rules; }
uint64_t ttt_table_games(const ttt_table *t) { return t->games; }
uint64_t ttt_table_seed(const ttt_table *t) { return t->seed; }
size_t ttt_table_entries(const ttt_table *t) { return t->used; }

uint64_t ttt_table_samples(const ttt_table *t)
{
    uint64_t n = 0;
    for (size_t i = 0; i < t->capacity; i++)
        n += entry_count(&t->slots[i]);
    return n;
}

/* The occupied entries, sorted by stones played, then X stones, O stones and move: the file's order. */
static int compare_entries(const void *pa, const void *pb)
{
    const table_entry *a = pa, *b = pb;
    int na = __builtin_popcountll(a->x | a->o), nb = __builtin_popcountll(b->x | b->o);
    if (na != nb)
        return na < nb ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->o != b->o)
        return a->o < b->o ? -1 : 1;
    return entry_move(a) < entry_move(b) ? -1 : entry_move(a) > entry_move(b);
}

static table_entry *sorted_entries(const ttt_table *t)
{
    table_entry *list = malloc((t->used ? t->used : 1) * sizeof *list);
    if (!list)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < t->capacity; i++)
        if (t->slots[i].meta)
            list[n++] = t->slots[i];
    qsort(list, n, sizeof *list, compare_entries);
    return list;
}

size_t ttt_table_positions(const ttt_table *t)
{
    /* Distinct (x, o) pairs: a count, not a hot path, so sort a copy rather than keep a second index. */
    table_entry *list = sorted_entries(t);
    if (!list)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < t->used; i++)
        if (i == 0 || list[i].x != list[i - 1].x || list[i].o != list[i - 1].o)
            n++;
    free(list);
    return n;
}

/* The canonical images of (x, o) under g: the smallest image, and the set of symmetries reaching it. */
static inline void canonical_words(const uint64_t img[2][TTT_SYM_ALL], int nsym, uint64_t *cx, uint64_t *co,
                                   unsigned *syms)
{
    uint64_t bx = img[0][0], bo = img[1][0];
    unsigned set = 1;
    for (int s = 1; s < nsym; s++) {
        uint64_t x = img[0][s], o = img[1][s];
        if (x < bx || (x == bx && o < bo)) {
            bx = x;
            bo = o;
            set = 1u << s;
        } else if (x == bx && o == bo) {
            set |= 1u << s;
        }
    }
    *cx = bx;
    *co = bo;
    *syms = set;
}

/* The move's representative in the canonical frame: the smallest of its images under the symmetries that take
 * the position to its canonical form (more than one when the canonical position is symmetric). */
static inline int canonical_move(const ttt_lines *l, unsigned syms, int move)
{
    int best = TTT_TABLE_MAX_CELLS;
    for (int s = 0; syms; s++, syms >>= 1)
        if ((syms & 1) && l->sym[s][move] < best)
            best = l->sym[s][move];
    return best;
}

/* The images of a position's words under every symmetry. */
static void images_of(const ttt_lines *l, uint64_t x, uint64_t o, uint64_t img[2][TTT_SYM_ALL])
{
    for (int s = 0; s < l->nsym; s++) {
        img[0][s] = img[1][s] = 0;
        for (int c = 0; c < l->cells; c++) {
            if ((x >> c) & 1)
                img[0][s] |= UINT64_C(1) << l->sym[s][c];
            if ((o >> c) & 1)
                img[1][s] |= UINT64_C(1) << l->sym[s][c];
        }
    }
}

bool ttt_table_get(const ttt_table *t, const ttt_board *b, ttt_move move, ttt_table_value *out)
{
    assert(ttt_rules_equal(&t->rules, &b->rules));
    assert(move >= 0 && move < b->cells && ttt_board_at(b, move) == TTT_NOBODY);
    uint64_t img[2][TTT_SYM_ALL], cx, co;
    unsigned syms;
    images_of(t->lines, b->stones[TTT_X].w[0], b->stones[TTT_O].w[0], img);
    canonical_words(img, t->lines->nsym, &cx, &co, &syms);
    const table_entry *e = table_find(t, cx, co, canonical_move(t->lines, syms, move));
    if (!e)
        return false;
    out->sum = e->sum;
    out->count = entry_count(e);
    out->average = (double)out->sum / (double)out->count;
    return true;
}

/* --- Filling tables (table_internal.h) ---------------------------------------------------------------- */

ttt_status ttt_table_add_moves(ttt_table *t, const uint8_t *moves, const int64_t *scores, int len)
{
    const ttt_lines *l = t->lines;
    uint64_t img[2][TTT_SYM_ALL] = {{0}};
    for (int i = 0; i < len; i++) {
        uint64_t cx, co;
        unsigned syms;
        canonical_words(img, l->nsym, &cx, &co, &syms);
        if (table_add(t, cx, co, canonical_move(l, syms, moves[i]), scores[i], 1))
            return TTT_ENOMEM;
        for (int s = 0; s < l->nsym; s++)
            img[i & 1][s] |= UINT64_C(1) << l->sym[s][moves[i]];
    }
    return TTT_OK;
}

ttt_status ttt_table_add_moves_raw(ttt_table *t, const uint8_t *moves, const int64_t *scores, int len)
{
    uint64_t stones[2] = {0, 0};
    for (int i = 0; i < len; i++) {
        if (table_add(t, stones[TTT_X], stones[TTT_O], moves[i], scores[i], 1))
            return TTT_ENOMEM;
        stones[i & 1] |= UINT64_C(1) << moves[i];
    }
    return TTT_OK;
}

ttt_status ttt_table_merge(ttt_table *dst, const ttt_table *src, bool canonicalise)
{
    const ttt_lines *l = dst->lines;
    for (size_t i = 0; i < src->capacity; i++) {
        const table_entry *e = &src->slots[i];
        if (!e->meta)
            continue;
        uint64_t x = e->x, o = e->o;
        int move = entry_move(e);
        if (canonicalise) {
            uint64_t img[2][TTT_SYM_ALL];
            unsigned syms;
            images_of(l, e->x, e->o, img);
            canonical_words(img, l->nsym, &x, &o, &syms);
            move = canonical_move(l, syms, move);
        }
        if (table_add(dst, x, o, move, e->sum, entry_count(e)))
            return TTT_ENOMEM;
    }
    return TTT_OK;
}

size_t ttt_table_memory(const ttt_table *t) { return sizeof *t + t->capacity * sizeof *t->slots; }

void ttt_table_clear(ttt_table *t)
{
    memset(t->slots, 0, t->capacity * sizeof *t->slots);
    t->used = 0;
}

void ttt_table_set_origin(ttt_table *t, uint64_t games, uint64_t seed)
{
    t->games = games;
    t->seed = seed;
}

/* --- Saving -------------------------------------------------------------------------------------------- */

static void position_text(const ttt_table *t, uint64_t x, uint64_t o, char *buf, size_t size)
{
    ttt_bits bx = {{0}}, bo = {{0}};
    bx.w[0] = x;
    bo.w[0] = o;
    ttt_board b;
    ttt_board_from_bits(&b, &t->rules, &bx, &bo);
    ttt_position_format(&b, buf, size);
}

static void write_table_list(const ttt_table *t, const table_entry *list, FILE *f,
                             ttt_table_progress_fn progress, void *user)
{
    char rules[TTT_RULES_TEXT_SIZE], pos[TTT_POSITION_TEXT_SIZE], mv[TTT_MOVE_TEXT_SIZE];
    fprintf(f,
            TABLE_FILE_PREFIX ",\"version\":%d,\"rules\":\"%s\",\"games\":%" PRIu64 ",\"seed\":%" PRIu64
                              ",\"positions\":[",
            TABLE_FORMAT_VERSION, ttt_rules_format(&t->rules, rules, sizeof rules), t->games, t->seed);
    for (size_t i = 0; i < t->used; i++) {
        if (progress && i % TTT_TABLE_SAVE_PROGRESS_ENTRIES == 0)
            progress(i, t->used, user);
        const table_entry *e = &list[i];
        bool first_move = i == 0 || e->x != list[i - 1].x || e->o != list[i - 1].o;
        if (first_move) {
            position_text(t, e->x, e->o, pos, sizeof pos);
            fprintf(f, "%s\n{\"position\":\"%s\",\"moves\":[", i ? "]}," : "", pos);
        } else {
            fputc(',', f);
        }
        uint64_t count = entry_count(e);
        /* The average in fixed point with integer conversions: printf's %f would write the locale's decimal
         * point, and a program that calls setlocale (the terminal UI does) must still write valid JSON. */
        int64_t scaled = llround((double)e->sum * AVERAGE_SCALE / (double)count); /* |average| <= 10 */
        uint64_t magnitude = (uint64_t)(scaled < 0 ? -scaled : scaled);
        fprintf(f,
                "{\"move\":\"%s\",\"sum\":%" PRId64 ",\"count\":%" PRIu64 ",\"average\":%s%" PRIu64
                ".%0*" PRIu64 "}",
                ttt_move_format(&t->rules, entry_move(e), mv, sizeof mv), e->sum, count,
                scaled < 0 ? "-" : "", magnitude / AVERAGE_SCALE, AVERAGE_DECIMALS,
                magnitude % AVERAGE_SCALE);
    }
    fputs(t->used ? "]}\n]}\n" : "]}\n", f);
    if (progress)
        progress(t->used, t->used, user);
}

/* The binary format's writer: bytes out through stdio, summed as they go. */
typedef struct binary_writer {
    FILE *f;
    uint64_t sum;
} binary_writer;

static void put_bytes(binary_writer *w, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        w->sum = (w->sum ^ p[i]) * FNV_PRIME;
    fwrite(data, 1, n, w->f);
}

static void put_u64(binary_writer *w, uint64_t v, int bytes)
{
    unsigned char b[8];
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put_bytes(w, b, (size_t)bytes);
}

static void put_varint(binary_writer *w, uint64_t v)
{
    unsigned char b[BINARY_VARINT_MAX];
    size_t n = 0;
    do {
        b[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    put_bytes(w, b, n);
}

/* The binary format (ttt/table.h): the header, the positions in the file's order, the checksum. */
static void write_binary_list(const ttt_table *t, const table_entry *list, FILE *f,
                              ttt_table_progress_fn progress, void *user)
{
    binary_writer w = {f, FNV_OFFSET};
    char rules[BINARY_RULES_SIZE] = {0};
    ttt_rules_format(&t->rules, rules, sizeof rules);
    size_t positions = 0;
    for (size_t i = 0; i < t->used; i++)
        positions += i == 0 || list[i].x != list[i - 1].x || list[i].o != list[i - 1].o;
    put_bytes(&w, BINARY_MAGIC, BINARY_MAGIC_SIZE);
    put_u64(&w, BINARY_VERSION, 4);
    put_u64(&w, BINARY_HEADER_SIZE, 4);
    put_bytes(&w, rules, sizeof rules);
    put_u64(&w, t->games, 8);
    put_u64(&w, t->seed, 8);
    put_u64(&w, positions, 8);
    put_u64(&w, t->used, 8);
    for (size_t i = 0; i < t->used;) {
        if (progress && i % TTT_TABLE_SAVE_PROGRESS_ENTRIES == 0)
            progress(i, t->used, user);
        size_t end = i + 1;
        while (end < t->used && list[end].x == list[i].x && list[end].o == list[i].o)
            end++;
        put_u64(&w, list[i].x, 8);
        put_u64(&w, list[i].o, 8);
        put_u64(&w, end - i, 1);
        for (; i < end; i++) {
            put_u64(&w, (uint64_t)entry_move(&list[i]), 1);
            put_varint(&w, entry_count(&list[i]));
            /* zigzag: small sums of either sign in few bytes */
            put_varint(&w, ((uint64_t)list[i].sum << 1) ^ (uint64_t)(list[i].sum >> 63));
        }
    }
    uint64_t sum = w.sum;
    put_u64(&w, sum, 8);
    if (progress)
        progress(t->used, t->used, user);
}

/* True when path names a JSON file (it ends in ".json"): the export format; any other name is binary. */
static bool json_path(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".json") == 0;
}

ttt_status ttt_table_write(const ttt_table *t, FILE *f, ttt_error *err)
{
    table_entry *list = sorted_entries(t);
    if (!list)
        return ttt_fail(err, TTT_ENOMEM, "table: out of memory");
    write_table_list(t, list, f, NULL, NULL);
    free(list);
    return ferror(f) ? ttt_fail(err, TTT_EIO, "table: cannot write") : TTT_OK;
}

ttt_status ttt_table_write_binary(const ttt_table *t, FILE *f, ttt_error *err)
{
    table_entry *list = sorted_entries(t);
    if (!list)
        return ttt_fail(err, TTT_ENOMEM, "table: out of memory");
    write_binary_list(t, list, f, NULL, NULL);
    free(list);
    return ferror(f) ? ttt_fail(err, TTT_EIO, "table: cannot write") : TTT_OK;
}

ttt_status ttt_table_save(const ttt_table *t, const char *path, ttt_error *err)
{
    return ttt_table_save_progress(t, path, NULL, NULL, err);
}

ttt_status ttt_table_save_progress(const ttt_table *t, const char *path, ttt_table_progress_fn progress,
                                   void *user, ttt_error *err)
{
    table_entry *list = sorted_entries(t);
    if (!list)
        return ttt_fail(err, TTT_ENOMEM, "table '%s': out of memory", path);
    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof ".tmp-XXXXXX");
    if (!tmp) {
        free(list);
        return ttt_fail(err, TTT_ENOMEM, "table '%s': out of memory", path);
    }
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(list);
        free(tmp);
        return ttt_fail(err, TTT_EIO, "table '%s': cannot write: %s", path, strerror(e));
    }
    FILE *f = fdopen(fd, "w");
    const char *failed = NULL;
    int e = 0;
    if (!f) {
        e = errno;
        close(fd);
        failed = "cannot write";
    } else {
        if (json_path(path))
            write_table_list(t, list, f, progress, user);
        else
            write_binary_list(t, list, f, progress, user);
        if (fflush(f) || ferror(f) || fchmod(fd, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH) || fsync(fd)) {
            e = errno;
            failed = "cannot write";
        }
        if (fclose(f) && !failed) {
            e = errno;
            failed = "cannot write";
        }
        if (!failed && rename(tmp, path)) {
            e = errno;
            failed = "cannot replace the file";
        }
    }
    if (failed)
        unlink(tmp);
    free(list);
    free(tmp);
    if (failed)
        return ttt_fail(err, TTT_EIO, "table '%s': %s: %s", path, failed, strerror(e));
    return TTT_OK;
}

bool ttt_table_file_looks_like_table(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char head[sizeof TABLE_FILE_PREFIX] = {0};
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    return (n == sizeof head - 1 && memcmp(head, TABLE_FILE_PREFIX, n) == 0) ||
           (n >= BINARY_MAGIC_SIZE && memcmp(head, BINARY_MAGIC, BINARY_MAGIC_SIZE) == 0);
}

/* --- Loading ------------------------------------------------------------------------------------------- */

/* A loader's context: the path for messages, and the error. */
typedef struct loader {
    const char *path;
    ttt_error *err;
} loader;

static ttt_status bad(const loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static ttt_status bad(const loader *ld, const char *fmt, ...)
{
    char msg[TTT_ERROR_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ttt_fail(ld->err, TTT_EINVAL, "table '%s': %s", ld->path, msg);
}

/* A member that must be an integer in [lo, hi]. */
static ttt_status get_integer(const loader *ld, json_t *obj, const char *where, const char *key,
                              json_int_t lo, json_int_t hi, json_int_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return bad(ld, "%s'%s' is missing", where, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return bad(ld, "%s'%s' must be an integer from %lld to %lld", where, key, (long long)lo,
                   (long long)hi);
    *out = json_integer_value(v);
    return TTT_OK;
}

static ttt_status get_string(const loader *ld, json_t *obj, const char *where, const char *key,
                             const char **out)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return bad(ld, "%s'%s' is missing", where, key);
    if (!json_is_string(v))
        return bad(ld, "%s'%s' must be a string", where, key);
    *out = json_string_value(v);
    return TTT_OK;
}

/* The header: format, version, rules (checked against want when not NULL), games, seed. */
static ttt_status load_header(const loader *ld, json_t *root, const ttt_rules *want, ttt_rules *rules,
                              json_int_t *games, json_int_t *seed)
{
    if (!json_is_object(root))
        return bad(ld, "not a ttt table (the top level is not a JSON object)");
    const char *format, *rules_text;
    json_int_t version;
    ttt_status st = get_string(ld, root, "", "format", &format);
    if (st)
        return st;
    if (strcmp(format, TABLE_FORMAT_NAME) != 0)
        return bad(ld, "not a ttt table (format is '%.40s', expected '%s')", format, TABLE_FORMAT_NAME);
    json_t *v = json_object_get(root, "version");
    if (!v || !json_is_integer(v))
        return bad(ld, "'version' must be an integer");
    version = json_integer_value(v);
    if (version != TABLE_FORMAT_VERSION)
        return bad(ld, "version %lld is not supported (this ttt reads version %d)", (long long)version,
                   TABLE_FORMAT_VERSION);
    if ((st = get_string(ld, root, "", "rules", &rules_text)))
        return st;
    ttt_error sub;
    if (ttt_rules_parse(rules_text, rules, &sub))
        return bad(ld, "%s", sub.msg);
    char a[TTT_RULES_TEXT_SIZE], b[TTT_RULES_TEXT_SIZE];
    if (want && !ttt_rules_equal(want, rules))
        return bad(ld, "the table is for %s, not %s", ttt_rules_format(rules, a, sizeof a),
                   ttt_rules_format(want, b, sizeof b));
    if ((st = get_integer(ld, root, "", "games", 0, TTT_TABLE_MAX_GAMES, games)) ||
        (st = get_integer(ld, root, "", "seed", 0, TTT_TABLE_MAX_SEED, seed)))
        return st;
    return TTT_OK;
}

/* One move of a position: text, legality, canonical frame, numbers. */
static ttt_status load_move(const loader *ld, ttt_table *t, const ttt_board *b, unsigned syms, json_t *jm,
                            const char *where)
{
    if (!json_is_object(jm))
        return bad(ld, "%snot an object", where);
    const char *text;
    ttt_status st = get_string(ld, jm, where, "move", &text);
    if (st)
        return st;
    ttt_move m;
    ttt_error sub;
    if (ttt_move_parse(text, &t->rules, &m, &sub))
        return bad(ld, "%s%s", where, sub.msg);
    char name[TTT_MOVE_TEXT_SIZE];
    ttt_move_format(&t->rules, m, name, sizeof name);
    if (ttt_board_at(b, m) != TTT_NOBODY)
        return bad(ld, "%smove %s: the cell is taken", where, name);
    if (canonical_move(t->lines, syms, m) != m) {
        char same[TTT_MOVE_TEXT_SIZE];
        return bad(ld, "%smove %s is not in the canonical frame (it is the same move as %s)", where, name,
                   ttt_move_format(&t->rules, canonical_move(t->lines, syms, m), same, sizeof same));
    }
    json_int_t sum, count;
    if ((st = get_integer(ld, jm, where, "count", 1, (json_int_t)TTT_TABLE_MAX_COUNT, &count)) ||
        (st = get_integer(ld, jm, where, "sum", -TTT_TABLE_SCORE_WIN * count, TTT_TABLE_SCORE_WIN * count,
                          &sum)))
        return st;
    json_t *avg = json_object_get(jm, "average");
    if (!avg || !json_is_number(avg))
        return bad(ld, "%s'average' must be a number", where);
    if (fabs(json_number_value(avg) - (double)sum / (double)count) > AVERAGE_TOLERANCE)
        return bad(ld, "%s'average' is not sum / count", where);
    uint64_t x = b->stones[TTT_X].w[0], o = b->stones[TTT_O].w[0];
    if (table_find(t, x, o, m))
        return bad(ld, "%smove %s is listed twice", where, name);
    if (table_add(t, x, o, m, sum, (uint64_t)count))
        return ttt_fail(ld->err, TTT_ENOMEM, "table '%s': out of memory", ld->path);
    return TTT_OK;
}

/* One position and its moves. */
static ttt_status load_position(const loader *ld, ttt_table *t, json_t *jp, size_t index)
{
    char where[64];
    snprintf(where, sizeof where, "positions[%zu]: ", index);
    if (!json_is_object(jp))
        return bad(ld, "%snot an object", where);
    const char *text;
    ttt_status st = get_string(ld, jp, where, "position", &text);
    if (st)
        return st;
    ttt_board b;
    ttt_error sub;
    if (ttt_position_parse(text, &t->rules, &b, &sub))
        return bad(ld, "%s%s", where, sub.msg);
    if (ttt_board_terminal(&b))
        return bad(ld, "%sthe game is over in '%s': no move to score", where, text);
    ttt_board canon;
    ttt_board_canonical(&b, &canon);
    if (!ttt_board_equal(&b, &canon)) {
        char ctext[TTT_POSITION_TEXT_SIZE];
        return bad(ld, "%s'%s' is not in canonical form ('%s')", where, text,
                   ttt_position_format(&canon, ctext, sizeof ctext));
    }
    uint64_t x = b.stones[TTT_X].w[0], o = b.stones[TTT_O].w[0];
    for (int c = 0; c < b.cells; c++)
        if (table_find(t, x, o, c))
            return bad(ld, "%s'%s' is listed twice", where, text);
    json_t *moves = json_object_get(jp, "moves");
    if (!moves || !json_is_array(moves) || json_array_size(moves) == 0)
        return bad(ld, "%s'moves' must be a non-empty array", where);
    uint64_t img[2][TTT_SYM_ALL], cx, co;
    unsigned syms;
    images_of(t->lines, x, o, img);
    canonical_words(img, t->lines->nsym, &cx, &co, &syms);
    assert(cx == x && co == o);
    for (size_t j = 0; j < json_array_size(moves); j++) {
        char mwhere[80];
        snprintf(mwhere, sizeof mwhere, "positions[%zu].moves[%zu]: ", index, j);
        if ((st = load_move(ld, t, &b, syms, json_array_get(moves, j), mwhere)))
            return st;
    }
    return TTT_OK;
}

/* The table in a parsed file (root, which stays the caller's); *out on success. */
static ttt_status load_root(const loader *ld, json_t *root, const ttt_rules *rules, ttt_table **out)
{
    ttt_rules file_rules;
    json_int_t games = 0, seed = 0;
    ttt_table *t = NULL;
    ttt_status st = load_header(ld, root, rules, &file_rules, &games, &seed);
    ttt_error sub;
    if (st == TTT_OK && (st = ttt_table_new(&file_rules, &t, &sub)) != TTT_OK)
        ttt_fail(ld->err, st, "table '%s': %s", ld->path, sub.msg + (strncmp(sub.msg, "table: ", 7) ? 0 : 7));
    json_t *positions = json_object_get(root, "positions");
    if (st == TTT_OK && (!positions || !json_is_array(positions)))
        st = bad(ld, "'positions' must be an array");
    for (size_t i = 0; st == TTT_OK && i < json_array_size(positions); i++)
        st = load_position(ld, t, json_array_get(positions, i), i);
    if (st) {
        ttt_table_free(t);
        return st;
    }
    t->games = (uint64_t)games;
    t->seed = (uint64_t)seed;
    *out = t;
    return TTT_OK;
}

/* The binary format's reader: bytes in from a buffer, each read checked against its end. */
typedef struct binary_reader {
    const unsigned char *p, *end;
} binary_reader;

static bool get_u64(binary_reader *r, int bytes, uint64_t *v)
{
    if (r->end - r->p < bytes)
        return false;
    *v = 0;
    for (int i = 0; i < bytes; i++)
        *v |= (uint64_t)r->p[i] << (8 * i);
    r->p += bytes;
    return true;
}

static bool get_varint(binary_reader *r, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && r->p < r->end; shift += 7) {
        unsigned char b = *r->p++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* Makes room for `entries` entries at once, so that loading never grows the table step by step. */
static ttt_status reserve(ttt_table *t, uint64_t entries)
{
    size_t capacity = t->capacity;
    while ((entries + 1) * TABLE_LOAD_DEN > (uint64_t)capacity * TABLE_LOAD_NUM)
        capacity *= 2;
    if (capacity == t->capacity)
        return TTT_OK;
    table_entry *slots = calloc(capacity, sizeof *slots);
    if (!slots)
        return TTT_ENOMEM;
    free(t->slots);
    t->slots = slots;
    t->capacity = capacity;
    return TTT_OK;
}

/* One position of a binary file and its moves, checked as the JSON loader checks them. prev holds the
 * position before (X and O stones; ignored for index 0) for the order, which also rules out a position listed
 * twice; it receives this one. */
static ttt_status load_binary_position(const loader *ld, ttt_table *t, binary_reader *r, uint64_t index,
                                       uint64_t prev[2])
{
    uint64_t x, o, n;
    if (!get_u64(r, 8, &x) || !get_u64(r, 8, &o) || !get_u64(r, 1, &n))
        return bad(ld, "position %" PRIu64 ": the file ends early", index);
    const int cells = t->lines->cells;
    const uint64_t board = cells == 64 ? UINT64_MAX : (UINT64_C(1) << cells) - 1;
    if ((x & o) || ((x | o) & ~board))
        return bad(ld, "position %" PRIu64 ": stones off the board or on one cell twice", index);
    int stones = __builtin_popcountll(x | o), before = __builtin_popcountll(prev[0] | prev[1]);
    if (index > 0 &&
        (stones < before || (stones == before && (x < prev[0] || (x == prev[0] && o <= prev[1])))))
        return bad(ld, "position %" PRIu64 ": out of order or listed twice", index);
    ttt_bits bx = {{0}}, bo = {{0}};
    bx.w[0] = x;
    bo.w[0] = o;
    ttt_board b;
    ttt_error sub;
    ttt_board_from_bits(&b, &t->rules, &bx, &bo);
    if (ttt_board_validate(&b, &sub))
        return bad(ld, "position %" PRIu64 ": %s", index, sub.msg);
    if (ttt_board_terminal(&b))
        return bad(ld, "position %" PRIu64 ": the game is over: no move to score", index);
    uint64_t img[2][TTT_SYM_ALL], cx, co;
    unsigned syms;
    images_of(t->lines, x, o, img);
    canonical_words(img, t->lines->nsym, &cx, &co, &syms);
    if (cx != x || co != o)
        return bad(ld, "position %" PRIu64 ": not in canonical form", index);
    if (n == 0 || n > (uint64_t)(cells - stones))
        return bad(ld, "position %" PRIu64 ": %" PRIu64 " moves", index, n);
    int last = -1;
    for (uint64_t j = 0; j < n; j++) {
        uint64_t m, count, zigzag;
        if (!get_u64(r, 1, &m) || !get_varint(r, &count) || !get_varint(r, &zigzag))
            return bad(ld, "position %" PRIu64 ": the file ends early", index);
        int64_t sum = (int64_t)(zigzag >> 1) ^ -(int64_t)(zigzag & 1);
        if ((int)m <= last || (int)m >= cells || ((x | o) >> m & 1))
            return bad(ld, "position %" PRIu64 ", move %" PRIu64 ": cell %" PRIu64 " out of order or taken",
                       index, j, m);
        if (canonical_move(t->lines, syms, (int)m) != (int)m)
            return bad(ld, "position %" PRIu64 ", move %" PRIu64 ": not in the canonical frame", index, j);
        if (count < 1 || count > TTT_TABLE_MAX_COUNT || count > (uint64_t)INT64_MAX / TTT_TABLE_SCORE_WIN ||
            sum < -TTT_TABLE_SCORE_WIN * (int64_t)count || sum > TTT_TABLE_SCORE_WIN * (int64_t)count)
            return bad(ld, "position %" PRIu64 ", move %" PRIu64 ": sum or count out of range", index, j);
        last = (int)m;
        if (table_add(t, x, o, (int)m, sum, count))
            return ttt_fail(ld->err, TTT_ENOMEM, "table '%s': out of memory", ld->path);
    }
    prev[0] = x;
    prev[1] = o;
    return TTT_OK;
}

/* A table in the binary format (data, size bytes, starting with the magic). */
static ttt_status load_binary(const loader *ld, const unsigned char *data, size_t size, const ttt_rules *want,
                              ttt_table **out)
{
    binary_reader r = {data + BINARY_MAGIC_SIZE, data + size};
    uint64_t version, header, games, seed, positions, entries;
    if (!get_u64(&r, 4, &version) || !get_u64(&r, 4, &header))
        return bad(ld, "the file ends early");
    if (version != BINARY_VERSION)
        return bad(ld,
                   "version %" PRIu64 " is not supported (this program reads version %d): rebuild the table "
                   "with 'ttt table build'",
                   version, BINARY_VERSION);
    if (header != BINARY_HEADER_SIZE || size < BINARY_HEADER_SIZE + BINARY_SUM_SIZE)
        return bad(ld, "the file ends early or its header is damaged");
    uint64_t sum = FNV_OFFSET, stored;
    for (size_t i = 0; i < size - BINARY_SUM_SIZE; i++)
        sum = (sum ^ data[i]) * FNV_PRIME;
    binary_reader tail = {data + size - BINARY_SUM_SIZE, data + size};
    get_u64(&tail, 8, &stored);
    if (sum != stored)
        return bad(ld,
                   "the checksum does not match: the file is damaged (rebuild it with 'ttt table build')");
    char text[BINARY_RULES_SIZE + 1] = {0};
    memcpy(text, r.p, BINARY_RULES_SIZE);
    r.p += BINARY_RULES_SIZE;
    get_u64(&r, 8, &games);
    get_u64(&r, 8, &seed);
    get_u64(&r, 8, &positions);
    get_u64(&r, 8, &entries);
    r.end = data + size - BINARY_SUM_SIZE;
    ttt_rules rules;
    ttt_error sub;
    char want_text[TTT_RULES_TEXT_SIZE];
    if (ttt_rules_parse(text, &rules, &sub))
        return bad(ld, "rules: %s", sub.msg);
    if (want && !ttt_rules_equal(want, &rules))
        return bad(ld, "the table is for %s, not %s", text,
                   ttt_rules_format(want, want_text, sizeof want_text));
    if (games > TTT_TABLE_MAX_GAMES || seed > TTT_TABLE_MAX_SEED)
        return bad(ld, "games or seed out of range");
    if (positions > (uint64_t)(r.end - r.p) / BINARY_POSITION_MIN || entries < positions ||
        entries > (uint64_t)(r.end - r.p))
        return bad(ld, "%" PRIu64 " positions and %" PRIu64 " moves do not fit in the file", positions,
                   entries);
    ttt_table *t;
    ttt_status st = ttt_table_new(&rules, &t, &sub);
    if (st)
        return ttt_fail(ld->err, st, "table '%s': %s", ld->path,
                        sub.msg + (strncmp(sub.msg, "table: ", 7) ? 0 : 7));
    if (reserve(t, entries)) {
        ttt_table_free(t);
        return ttt_fail(ld->err, TTT_ENOMEM, "table '%s': out of memory", ld->path);
    }
    uint64_t prev[2] = {0, 0};
    for (uint64_t i = 0; st == TTT_OK && i < positions; i++)
        st = load_binary_position(ld, t, &r, i, prev);
    if (st == TTT_OK && (r.p != r.end || t->used != entries))
        st = bad(ld, "the counts in the header do not match the positions");
    if (st) {
        ttt_table_free(t);
        return st;
    }
    t->games = games;
    t->seed = seed;
    *out = t;
    return TTT_OK;
}

ttt_status ttt_table_load(const char *path, const ttt_rules *rules, ttt_table **out, ttt_error *err)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return ttt_fail(err, e == ENOENT ? TTT_EINVAL : TTT_EIO, "table '%s': %s", path,
                        e == ENOENT ? "no such file" : strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return ttt_fail(err, TTT_EIO, "table '%s': cannot read it: not a regular file", path);
    }
    /* The whole file mapped at once: the binary format is read straight from it, JSON parsed from it. */
    size_t size = (size_t)sb.st_size;
    void *data = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    int e = errno;
    close(fd);
    if (size && data == MAP_FAILED)
        return ttt_fail(err, TTT_EIO, "table '%s': cannot read the file: %s", path, strerror(e));
    ttt_status st = ttt_table_load_bytes(path, data ? data : "", size, rules, out, err);
    if (data)
        munmap(data, size);
    return st;
}

ttt_status ttt_table_load_bytes(const char *name, const void *data, size_t len, const ttt_rules *rules,
                                ttt_table **out, ttt_error *err)
{
    *out = NULL;
    loader ld = {name, err};
    if (len >= BINARY_MAGIC_SIZE && memcmp(data, BINARY_MAGIC, BINARY_MAGIC_SIZE) == 0)
        return load_binary(&ld, data, len, rules, out);
    return ttt_table_load_text(name, data, len, rules, out, err);
}

ttt_status ttt_table_load_text(const char *name, const char *text, size_t len, const ttt_rules *rules,
                               ttt_table **out, ttt_error *err)
{
    *out = NULL;
    loader ld = {name, err};
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    if (!root)
        return bad(&ld, "not valid JSON: %s (line %d)", jerr.text, jerr.line);
    ttt_status st = load_root(&ld, root, rules, out);
    json_decref(root);
    return st;
}

/* --- The default place --------------------------------------------------------------------------------- */

/* mkdir -p for the directory part of path. */
static ttt_status make_parents(const char *path, ttt_error *err)
{
    char dir[TTT_ERROR_SIZE * 4];
    size_t len = strlen(path);
    if (len >= sizeof dir)
        return ttt_fail(err, TTT_ELIMIT, "table: path too long");
    memcpy(dir, path, len + 1);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, S_IRWXU | S_IRGRP | S_IXGRP | S_IROTH | S_IXOTH) && errno != EEXIST)
            return ttt_fail(err, TTT_EIO, "table: cannot make directory '%s': %s", dir, strerror(errno));
        *p = '/';
    }
    return TTT_OK;
}

ttt_status ttt_table_default_path(const ttt_rules *rules, bool create_dirs, char *buf, size_t size,
                                  ttt_error *err)
{
    char rt[TTT_RULES_TEXT_SIZE];
    ttt_rules_format(rules, rt, sizeof rt);
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/ttt/tables/%s.tbl", xdg, rt);
    else if (home && home[0] == '/')
        n = snprintf(buf, size, "%s/.local/share/ttt/tables/%s.tbl", home, rt);
    else
        return ttt_fail(err, TTT_EIO, "table: no data directory (neither XDG_DATA_HOME nor HOME is set)");
    if (n < 0 || (size_t)n >= size)
        return ttt_fail(err, TTT_ELIMIT, "table: the default path is too long");
    return create_dirs ? make_parents(buf, err) : TTT_OK;
}
