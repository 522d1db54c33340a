/*
 * search/solve_resume.c - the solver's record of its root (solve_resume.h) and checkpoints (ttt/solve.h:
 * ttt_solver_save, ttt_solver_load): the record and the table's costliest exact entries, in a binary file
 * whose layout ttt/solve.h gives.
 */
#include "search/solve_resume.h"

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "search/solve_impl.h"
#include "ttt/notation.h"
#include "ttt/solve.h"
#include "util/error.h"

static const char checkpoint_magic[] = TTT_CHECKPOINT_MAGIC;
/* The checkpoint version whose draw prover skipped the attacker's blocking moves: refused, not read. */
#define TTT_CHECKPOINT_VERSION_UNSOUND 1
#define FNV_OFFSET                     UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME                      UINT64_C(0x100000001b3)
/* The work field of an entry counts up to 64 (log2 of a 64-bit node count): the histogram's room. */
#define WORK_LEVELS 65
/* The largest entry of the prover's table read back (its entries are 32 bytes). */
#define PROVER_ENTRY_MAX 256

/* --- The record ----------------------------------------------------------------------------------------- */

void resume_root(solve_resume *r, const ttt_board *b)
{
    if (r->use && ttt_bits_equal(&r->root[0], &b->stones[TTT_X]) &&
        ttt_bits_equal(&r->root[1], &b->stones[TTT_O]))
        return;
    r->root[0] = b->stones[TTT_X];
    r->root[1] = b->stones[TTT_O];
    r->started = true;
    r->use = false;
    r->nproofs = 0;
    r->prove_used = 0;
    r->norder = 0;
    if (r->nsettled == 0)
        return;
    for (int c = 0; c < TTT_MAX_CELLS; c++)
        atomic_store_explicit(&r->settled[c], false, memory_order_relaxed);
    r->nsettled = 0;
}

void resume_order(solve_resume *r, int *cells, int n)
{
    if (r->use && r->norder == n) {
        for (int i = 0; i < n; i++)
            cells[i] = r->order[i];
        return;
    }
    r->norder = n;
    for (int i = 0; i < n; i++)
        r->order[i] = (int16_t)cells[i];
}

bool resume_proof_known(const solve_resume *r, const ttt_bits *attacker, const ttt_bits *defender,
                        bool attacker_to_move, bool *holds)
{
    for (int i = 0; r->use && i < r->nproofs; i++) {
        const resume_proof *p = &r->proofs[i];
        if (ttt_bits_equal(&p->attacker, attacker) && ttt_bits_equal(&p->defender, defender) &&
            p->attacker_to_move == attacker_to_move) {
            *holds = p->holds;
            return true;
        }
    }
    return false;
}

void resume_proof_add(solve_resume *r, const ttt_bits *attacker, const ttt_bits *defender,
                      bool attacker_to_move, bool holds, uint64_t used)
{
    r->prove_used += used;
    if (r->nproofs < RESUME_MAX_PROOFS)
        r->proofs[r->nproofs++] = (resume_proof){*attacker, *defender, attacker_to_move, holds};
}

bool resume_move_known(const solve_resume *r, int cell, int *score)
{
    if (!r->use || !atomic_load_explicit(&r->settled[cell], memory_order_acquire))
        return false;
    *score = r->score[cell];
    return true;
}

void resume_move_add(solve_resume *r, int cell, int score)
{
    if (atomic_load_explicit(&r->settled[cell], memory_order_relaxed))
        return;
    r->score[cell] = (int16_t)score;
    atomic_store_explicit(&r->settled[cell], true, memory_order_release);
    atomic_fetch_add_explicit(&r->nsettled, 1, memory_order_relaxed);
}

/* Whether the answers a and b ask about positions one symmetry of the board maps onto each other. */
static bool proof_same(const ttt_lines *lines, const resume_proof *a, const resume_proof *b)
{
    for (int y = 0; y < lines->nsym; y++) {
        bool same = true;
        for (int cell = 0; cell < lines->cells && same; cell++) {
            const int to = lines->sym[y][cell];
            same = ttt_bits_test(&a->attacker, cell) == ttt_bits_test(&b->attacker, to) &&
                   ttt_bits_test(&a->defender, cell) == ttt_bits_test(&b->defender, to);
        }
        if (same)
            return true;
    }
    return false;
}

/* The first moves the draw prover's answers refute, up to symmetry: the attacker has made one (a stone more
 * than the root), the defender to move, and it holds. A move asked about again, or its image, counts once. */
static int first_refuted(const ttt_solver *s)
{
    const solve_resume *r = s->resume;
    const int root = ttt_bits_count(&r->root[0]) + ttt_bits_count(&r->root[1]);
    int n = 0, first[RESUME_MAX_PROOFS];
    for (int i = 0; i < r->nproofs; i++) {
        const resume_proof *p = &r->proofs[i];
        if (!p->holds || p->attacker_to_move ||
            ttt_bits_count(&p->attacker) + ttt_bits_count(&p->defender) != root + 1)
            continue;
        bool seen = false;
        for (int j = 0; j < n && !seen; j++)
            seen = proof_same(s->g.lines, &r->proofs[first[j]], p);
        if (!seen)
            first[n++] = i;
    }
    return n;
}

/* --- Bytes in and out, hashed (FNV-1a) ------------------------------------------------------------------ */

typedef struct stream {
    FILE *f;
    uint64_t hash, bytes;
    bool bad;  /* a write failed, or a read came short */
    int error; /* errno of a read that failed (not one that met the end) */
} stream;

static void hash_bytes(stream *s, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s->hash = (s->hash ^ p[i]) * FNV_PRIME;
    s->bytes += n;
}

static void put(stream *s, const void *p, size_t n)
{
    if (s->bad)
        return;
    hash_bytes(s, p, n);
    s->bad = fwrite(p, 1, n, s->f) != n;
}

/* An unsigned integer of `size` bytes, little-endian. */
static void put_uint(stream *s, uint64_t v, int size)
{
    uint8_t b[8];
    for (int i = 0; i < size; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    put(s, b, (size_t)size);
}

static bool get(stream *s, void *p, size_t n)
{
    if (s->bad || fread(p, 1, n, s->f) != n) {
        if (!s->bad && ferror(s->f))
            s->error = errno;
        s->bad = true;
        return false;
    }
    hash_bytes(s, p, n);
    return true;
}

static uint64_t get_uint(stream *s, int size)
{
    uint8_t b[8] = {0};
    uint64_t v = 0;
    get(s, b, (size_t)size);
    for (int i = 0; i < size; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

/* A text of at most `size` - 1 bytes after its u16 length; false when longer (or short). */
static bool get_text(stream *s, char *buf, size_t size)
{
    uint64_t n = get_uint(s, 2);
    if (s->bad || n >= size)
        return false;
    buf[n] = '\0';
    return get(s, buf, (size_t)n);
}

static void put_text(stream *s, const char *text)
{
    size_t n = strlen(text);
    put_uint(s, n, 2);
    put(s, text, n);
}

/* --- The draw prover's table (search/prove.h) ----------------------------------------------------------- */

/* The prover's table: its version, entry size and slots (all 0 without a prover), then the slots worth
 * keeping (ttt_prover_table_worth: the costlier answers; the others a resumed search finds again soon), each
 * its index and its bytes. A 2 GiB table is written in seconds rather than half a minute. */
static void put_prover(stream *w, ttt_prover *prover, uint64_t *count)
{
    size_t slots = 0, size = 0;
    const uint8_t *tt = prover ? ttt_prover_table(prover, &slots, &size) : NULL;
    *count = 0;
    for (size_t i = 0; i < slots; i++)
        *count += ttt_prover_table_worth(prover, i);
    put_uint(w, prover ? TTT_PROVER_TABLE_VERSION : 0, 4);
    put_uint(w, size, 4);
    put_uint(w, slots, 8);
    put_uint(w, *count, 8);
    for (size_t i = 0; i < slots; i++)
        if (ttt_prover_table_worth(prover, i)) {
            put_uint(w, i, 8);
            put(w, &tt[i * size], size);
        }
}

/* Reads the prover's table back into the solver's prover when it is of the same version, entry size and
 * slots; else passes over it (a cache: the search is the same without it, only longer). */
static ttt_status get_prover(stream *in, ttt_prover *prover, uint64_t *loaded, ttt_error *err)
{
    uint64_t version = get_uint(in, 4), size = get_uint(in, 4), slots = get_uint(in, 8), n = get_uint(in, 8);
    size_t have_slots = 0, have_size = 0;
    uint8_t *tt = prover ? ttt_prover_table(prover, &have_slots, &have_size) : NULL;
    const bool fits = tt && version == TTT_PROVER_TABLE_VERSION && size == have_size && slots == have_slots;
    uint8_t entry[PROVER_ENTRY_MAX];
    if (size > sizeof entry || n > slots)
        return ttt_fail(err, TTT_EINVAL, "checkpoint: the prover's table is corrupted");
    *loaded = 0;
    for (uint64_t i = 0; i < n && !in->bad; i++) {
        uint64_t at = get_uint(in, 8);
        if (!get(in, entry, (size_t)size))
            break;
        if (at >= slots)
            return ttt_fail(err, TTT_EINVAL, "checkpoint: prover table entry %llu is corrupted",
                            (unsigned long long)i + 1);
        if (fits) {
            memcpy(&tt[at * size], entry, (size_t)size);
            (*loaded)++;
        }
    }
    return TTT_OK;
}

/* --- Saving --------------------------------------------------------------------------------------------- */

static bool entry_kept(const tt_entry *e) { return e->bound != BOUND_NONE && e->depth == TT_DEPTH_EXACT; }

/* The least work of the entries saved: all exact entries, or the costliest that fit in
 * TTT_CHECKPOINT_MAX_ENTRIES. *count receives how many that keeps. */
static int work_floor(const ttt_solver *s, uint64_t *count)
{
    uint64_t at[WORK_LEVELS] = {0};
    for (size_t i = 0; i <= s->table.mask; i++)
        if (entry_kept(&s->table.tt[i]))
            at[s->table.tt[i].work < WORK_LEVELS ? s->table.tt[i].work : WORK_LEVELS - 1]++;
    int floor = WORK_LEVELS;
    *count = 0;
    while (floor > 0 && *count + at[floor - 1] <= TTT_CHECKPOINT_MAX_ENTRIES)
        *count += at[--floor];
    return floor;
}

ttt_status ttt_solver_save(const ttt_solver *s, FILE *out, ttt_checkpoint_info *info, ttt_error *err)
{
    const solve_resume *r = s->resume;
    if (!r->started)
        return ttt_fail(err, TTT_ESTATE, "checkpoint: nothing searched yet");
    ttt_board root;
    ttt_board_from_bits(&root, &s->cfg.rules, &r->root[0], &r->root[1]);
    char rules[TTT_RULES_TEXT_SIZE], position[TTT_POSITION_TEXT_SIZE];
    stream w = {.f = out, .hash = FNV_OFFSET};
    put(&w, checkpoint_magic, sizeof checkpoint_magic - 1);
    put_uint(&w, TTT_CHECKPOINT_VERSION, 4);
    put_text(&w, ttt_rules_format(&s->cfg.rules, rules, sizeof rules));
    put_text(&w, ttt_position_format(&root, position, sizeof position));
    put_uint(&w, r->prove_used, 8);
    put_uint(&w, (uint64_t)r->nproofs, 4);
    for (int i = 0; i < r->nproofs; i++) {
        for (int k = 0; k < RESUME_PROOF_WORDS; k++)
            put_uint(&w, r->proofs[i].attacker.w[k], 8);
        for (int k = 0; k < RESUME_PROOF_WORDS; k++)
            put_uint(&w, r->proofs[i].defender.w[k], 8);
        put_uint(&w, r->proofs[i].attacker_to_move, 1);
        put_uint(&w, r->proofs[i].holds, 1);
    }
    /* A helper thread may settle a move meanwhile: the count written is of the moves written. */
    int cells = s->g.lines->cells, settled[TTT_MAX_CELLS], nsettled = 0, score;
    for (int c = 0; c < cells; c++)
        if (atomic_load_explicit(&r->settled[c], memory_order_acquire))
            settled[nsettled++] = c;
    put_uint(&w, (uint64_t)nsettled, 4);
    for (int i = 0; i < nsettled; i++) {
        score = r->score[settled[i]];
        put_uint(&w, (uint64_t)settled[i], 2);
        put_uint(&w, (uint16_t)(int16_t)score, 2);
    }
    put_uint(&w, (uint64_t)r->norder, 2);
    for (int i = 0; i < r->norder; i++)
        put_uint(&w, (uint64_t)r->order[i], 2);
    for (int side = 0; side < 2; side++)
        for (int c = 0; c < cells; c++)
            put_uint(&w, s->table.history[side][c], 4);
    uint64_t entries;
    const int floor = work_floor(s, &entries);
    put_uint(&w, entries, 8);
    for (size_t i = 0; i <= s->table.mask; i++) {
        const tt_entry *e = &s->table.tt[i];
        if (!entry_kept(e) || e->work < floor)
            continue;
        put_uint(&w, e->key, 8);
        put_uint(&w, (uint16_t)e->score, 2);
        put_uint(&w, (uint16_t)e->move, 2);
        put_uint(&w, e->depth, 1);
        put_uint(&w, e->bound, 1);
        put_uint(&w, e->work, 1);
        put_uint(&w, e->pairing, 1);
    }
    uint64_t proven;
    put_prover(&w, s->proof.prover, &proven);
    put_uint(&w, w.hash, 8);
    if (w.bad || fflush(out) != 0 || ferror(out))
        return ttt_fail(err, TTT_EIO, "checkpoint: write error");
    if (info)
        *info = (ttt_checkpoint_info){.settled = nsettled,
                                      .proofs = r->nproofs,
                                      .refuted = first_refuted(s),
                                      .entries = entries,
                                      .proven = proven,
                                      .bytes = w.bytes};
    return TTT_OK;
}

/* --- Loading -------------------------------------------------------------------------------------------- */

/* Whether score is an exact value of a move of b (ttt/solve.h): a draw, or a game that ends after one stone
 * more than b has at least and a full board at most; else a first move's value, printed, would be nonsense. */
static bool exact_score(int score, const ttt_board *b)
{
    const int distance = TTT_SCORE_WIN - (score < 0 ? -score : score);
    return score == 0 || (distance > b->ply && distance <= b->cells);
}

/* Reads the file into s for root b; the caller clears s on failure. */
static ttt_status load_checkpoint(ttt_solver *s, const ttt_board *b, stream *in, ttt_checkpoint_info *info,
                                  ttt_error *err)
{
    static const char *const truncated = "checkpoint: the file is cut short";
    char magic[sizeof checkpoint_magic - 1];
    if (!get(in, magic, sizeof magic) || memcmp(magic, checkpoint_magic, sizeof magic) != 0)
        return ttt_fail(err, TTT_EINVAL, "not a checkpoint of ttt solve");
    uint64_t version = get_uint(in, 4);
    if (in->bad)
        return ttt_fail(err, TTT_EINVAL, "%s", truncated);
    /* Version 1 is the same layout, but its draw prover could call a position the attacker wins drawn (it
     * never tried a stone that only blocks the defender), and every answer in the file may lean on one. */
    if (version == TTT_CHECKPOINT_VERSION_UNSOUND)
        return ttt_fail(
            err, TTT_EINVAL,
            "checkpoint version 1: its draw proofs may be wrong (an older ttt); solve again without "
            "--resume");
    if (version != TTT_CHECKPOINT_VERSION)
        return ttt_fail(err, TTT_EINVAL, "checkpoint version %llu: this ttt reads version %d",
                        (unsigned long long)version, TTT_CHECKPOINT_VERSION);
    char rules[TTT_RULES_TEXT_SIZE], want[TTT_RULES_TEXT_SIZE];
    char position[TTT_POSITION_TEXT_SIZE], here[TTT_POSITION_TEXT_SIZE];
    if (!get_text(in, rules, sizeof rules))
        return ttt_fail(err, TTT_EINVAL, "%s", in->bad ? truncated : "checkpoint: bad rules");
    if (strcmp(rules, ttt_rules_format(&s->cfg.rules, want, sizeof want)) != 0)
        return ttt_fail(err, TTT_EINVAL, "a checkpoint of %s, not of %s", rules, want);
    if (!get_text(in, position, sizeof position))
        return ttt_fail(err, TTT_EINVAL, "%s", in->bad ? truncated : "checkpoint: bad position");
    if (strcmp(position, ttt_position_format(b, here, sizeof here)) != 0)
        return ttt_fail(err, TTT_EINVAL, "a checkpoint of the position %s, not of %s", position, here);

    solve_resume *r = s->resume;
    r->use = false;
    resume_root(r, b);
    const int cells = s->g.lines->cells;
    ttt_bits all = {{0}}, taken = {{0}}; /* taken: the root's stones, inner cells */
    for (int c = 0; c < cells && c < RESUME_PROOF_WORDS * 64; c++)
        all.w[c / 64] |= UINT64_C(1) << (c % 64);
    for (int c = 0; c < cells; c++)
        if (ttt_bits_test(&b->stones[TTT_X], c) || ttt_bits_test(&b->stones[TTT_O], c))
            ttt_bits_set(&taken, to_inner(s, c));
    r->prove_used = get_uint(in, 8);
    uint64_t n = get_uint(in, 4);
    if (n > RESUME_MAX_PROOFS)
        return ttt_fail(err, TTT_EINVAL, "checkpoint: %llu prover answers: corrupted", (unsigned long long)n);
    for (uint64_t i = 0; i < n && !in->bad; i++) {
        resume_proof p = {0};
        bool overlap = false;
        for (int k = 0; k < RESUME_PROOF_WORDS; k++)
            p.attacker.w[k] = get_uint(in, 8);
        for (int k = 0; k < RESUME_PROOF_WORDS; k++) {
            p.defender.w[k] = get_uint(in, 8);
            overlap |=
                (p.attacker.w[k] & p.defender.w[k]) || ((p.attacker.w[k] | p.defender.w[k]) & ~all.w[k]);
        }
        uint64_t to_move = get_uint(in, 1), holds = get_uint(in, 1);
        if (overlap || to_move > 1 || holds > 1)
            return ttt_fail(err, TTT_EINVAL, "checkpoint: prover answer %llu is corrupted",
                            (unsigned long long)i + 1);
        p.attacker_to_move = to_move;
        p.holds = holds;
        r->proofs[r->nproofs++] = p;
    }
    n = get_uint(in, 4);
    if (n > (uint64_t)cells)
        return ttt_fail(err, TTT_EINVAL, "checkpoint: %llu first moves: corrupted", (unsigned long long)n);
    for (uint64_t i = 0; i < n && !in->bad; i++) {
        uint64_t cell = get_uint(in, 2);
        int score = (int16_t)get_uint(in, 2);
        if (cell >= (uint64_t)cells || ttt_bits_test(&taken, (int)cell) || !exact_score(score, b) ||
            atomic_load(&r->settled[cell]))
            return ttt_fail(err, TTT_EINVAL, "checkpoint: first move %llu is corrupted",
                            (unsigned long long)i + 1);
        resume_move_add(r, (int)cell, score);
    }
    /* The order is of every move of the root or none (a search that ordered none yet): the search takes it
     * for the root's moves when it has as many, so a cell taken or twice would be played. */
    n = get_uint(in, 2);
    if (n != 0 && n != (uint64_t)(cells - b->ply))
        return ttt_fail(err, TTT_EINVAL, "checkpoint: %llu moves in order: corrupted", (unsigned long long)n);
    for (uint64_t i = 0; i < n && !in->bad; i++) {
        uint64_t cell = get_uint(in, 2);
        if (cell >= (uint64_t)cells || ttt_bits_test(&taken, (int)cell))
            return ttt_fail(err, TTT_EINVAL, "checkpoint: move %llu of the order is corrupted",
                            (unsigned long long)i + 1);
        ttt_bits_set(&taken, (int)cell);
        r->order[r->norder++] = (int16_t)cell;
    }
    for (int side = 0; side < 2; side++)
        for (int c = 0; c < cells; c++)
            s->table.history[side][c] = (uint32_t)get_uint(in, 4);
    uint64_t entries = get_uint(in, 8);
    if (entries > TTT_CHECKPOINT_MAX_ENTRIES)
        return ttt_fail(err, TTT_EINVAL, "checkpoint: %llu table entries: corrupted",
                        (unsigned long long)entries);
    for (uint64_t i = 0; i < entries && !in->bad; i++) {
        tt_entry e = {.key = get_uint(in, 8)};
        e.score = (int16_t)get_uint(in, 2);
        e.move = (int16_t)get_uint(in, 2);
        e.depth = (uint8_t)get_uint(in, 1);
        e.bound = (uint8_t)get_uint(in, 1);
        e.work = (uint8_t)get_uint(in, 1);
        e.pairing = (uint8_t)get_uint(in, 1);
        if (in->bad)
            break;
        if (e.depth != TT_DEPTH_EXACT || e.bound == BOUND_NONE || e.bound > BOUND_EXACT || e.move < -1 ||
            e.move >= cells || e.score > TTT_SCORE_WIN || e.score < -TTT_SCORE_WIN || e.work >= WORK_LEVELS)
            return ttt_fail(err, TTT_EINVAL, "checkpoint: table entry %llu is corrupted",
                            (unsigned long long)i + 1);
        solve_tt_put(s, &e);
    }
    uint64_t proven = 0;
    ttt_status st = in->bad ? TTT_OK : get_prover(in, s->proof.prover, &proven, err);
    if (st)
        return st;
    uint64_t hash = in->hash, stored = get_uint(in, 8);
    if (in->bad)
        return ttt_fail(err, TTT_EINVAL, "%s", truncated);
    if (stored != hash)
        return ttt_fail(err, TTT_EINVAL, "checkpoint: the file is corrupted (its checksum does not match)");
    if (fgetc(in->f) != EOF)
        return ttt_fail(err, TTT_EINVAL, "checkpoint: bytes after its end");
    if (ferror(in->f))
        return ttt_fail(err, TTT_EIO, "checkpoint: read error");
    r->use = true;
    if (info)
        *info = (ttt_checkpoint_info){.settled = atomic_load(&r->nsettled),
                                      .proofs = r->nproofs,
                                      .refuted = first_refuted(s),
                                      .entries = entries,
                                      .proven = proven,
                                      .bytes = in->bytes};
    return TTT_OK;
}

ttt_status ttt_solver_load(ttt_solver *s, const ttt_board *b, FILE *in, ttt_checkpoint_info *info,
                           ttt_error *err)
{
    assert(ttt_rules_equal(&s->cfg.rules, &b->rules));
    stream r = {.f = in, .hash = FNV_OFFSET};
    ttt_status st = load_checkpoint(s, b, &r, info, err);
    if (st) {
        if (ferror(in))
            st = ttt_fail(err, TTT_EIO, "checkpoint: read error: %s", strerror(r.error ? r.error : EIO));
        ttt_solver_clear(s);
        s->resume->use = false;
        resume_root(s->resume, b);
    }
    return st;
}
