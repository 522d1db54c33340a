/*
 * search/pairing_kernel.h - the word kernel of pairing.c (internal to it): the units of a position and their
 * matching over sets of cells held in one machine word, written once and compiled for each width. pairing.c
 * includes it with PAIRING_KERNEL_BITS defined as 64 (uint64_t: boards of at most 64 cells) or 128
 * (pairing_set128: at most 128 cells); each inclusion defines pairing_lines<BITS>_init and
 * pairing_find<BITS> (pairing.h) and undefines its own macros.
 */
#if PAIRING_KERNEL_BITS == 64
#define KSET   uint64_t
#define KCOUNT pairing_count64
#define KFIRST pairing_first64
#define KOF    pairing_of_bits64
#elif PAIRING_KERNEL_BITS == 128
#define KSET   pairing_set128
#define KCOUNT pairing_count128
#define KFIRST pairing_first128
#define KOF    pairing_of_bits128
#else
#error "PAIRING_KERNEL_BITS must be 64 or 128"
#endif
#define KCAT_(a, b, c) a##b##c
#define KCAT(a, b, c)  KCAT_(a, b, c)
#define KN(name, tail) KCAT(name, PAIRING_KERNEL_BITS, tail)
#define KWINDOWS       (4 * PAIRING_KERNEL_BITS)
#define KBIT(cell)     ((KSET)1 << (cell))
#define KMATCHING      KN(matching, )
#define KLINES         KN(pairing_lines, )

typedef struct KMATCHING {
    KSET unit[KWINDOWS];         /* the units' cells */
    int16_t unit_line[KWINDOWS]; /* the line each unit lies on */
    int n;
    int16_t cell_slot[PAIRING_KERNEL_BITS]; /* the slot holding the cell, or -1 */
    KSET seen;
    int fresh; /* the cell an augmenting path matched last that no slot held before */
    KSET hint; /* after a failure: the cells where a defender stone could make a pairing exist */
} KMATCHING;

static bool KN(match, _augment)(KMATCHING *m, KSET empty, int slot)
{
    for (KSET c = m->unit[slot / 2] & empty & ~m->seen; c; c &= c - 1) {
        int cell = KFIRST(c);
        if (m->seen >> cell & 1)
            continue;
        m->seen |= KBIT(cell);
        if (m->cell_slot[cell] < 0) {
            m->cell_slot[cell] = (int16_t)slot;
            m->fresh = cell;
            return true;
        }
        if (KN(match, _augment)(m, empty, m->cell_slot[cell])) {
            m->cell_slot[cell] = (int16_t)slot;
            return true;
        }
    }
    return false;
}

/* The units of line l (see pairing.h) after those in m, each with its line. False when a window of it free of
 * the defender has fewer than two empty cells (m->hint: that window's empty cells, where a defender stone
 * takes it away). */
static inline __attribute__((always_inline)) bool KN(line_units, )(const KLINES *pl, int l, KSET def,
                                                                   KSET empty, KMATCHING *m)
{
    const ttt_lines *lines = pl->lines;
    KSET group = 0; /* the empty cells the open group's windows share (0: none open) */
    for (int i = lines->line_start[l]; i < lines->line_start[l + 1]; i++) {
        KSET w = pl->win[i];
        if (w & def)
            continue;
        if (KCOUNT(w & empty) < 2) {
            m->hint = w & empty;
            return false;
        }
        if (group && KCOUNT(group & w) >= 2) {
            group &= w;
            continue;
        }
        if (group) {
            m->unit_line[m->n] = (int16_t)l;
            m->unit[m->n++] = group;
        }
        group = w & empty;
    }
    if (group) {
        m->unit_line[m->n] = (int16_t)l;
        m->unit[m->n++] = group;
    }
    return true;
}

/* Whether the units in m may have two cells each: no more than half the empty cells, and no more than half
 * the cells of all units between them (Hall's condition for the whole set), failures the matching would find
 * only after trying every augmenting path. */
static bool KN(units_fit, )(const KMATCHING *m, int empties)
{
    if (2 * m->n > empties)
        return false;
    KSET cover = 0;
    for (int u = 0; u < m->n; u++)
        cover |= m->unit[u];
    return KCOUNT(cover) >= 2 * m->n;
}

/* The units (see pairing.h), into m. False when some window free of the defender has fewer than two empty
 * cells, or the units cannot fit (units_fit). */
static bool KN(units, )(const KLINES *pl, KSET def, KSET empty, KMATCHING *m)
{
    const ttt_lines *lines = pl->lines;
    const int empties = KCOUNT(empty);
    m->n = 0;
    for (int l = 0; l < lines->nlines; l++) {
        if (!KN(line_units, )(pl, l, def, empty, m))
            return false;
        if (2 * m->n > empties)
            break;
    }
    m->hint = ~(KSET)0; /* the counts fail on the whole board: any stone may change them */
    return KN(units_fit, )(m, empties);
}

/* Two empty cells of its own for every unit; *paired receives the cells used. On a failure, with want_hint,
 * m->hint: the cells of the lines of the slots the last search reached (m->unit_line is read only then).
 * Those slots (the one that found no cell, and the holders of every cell it reached) are one more than the
 * cells their units hold between them, every one reached (Hall's condition fails for them); a defender stone
 * on no line of theirs leaves their units as they are (the units of a line depend on its cells alone), so
 * the condition still fails. */
static bool KN(match, )(const KLINES *pl, KSET empty, KMATCHING *m, KSET *paired, bool want_hint)
{
    memset(m->cell_slot, -1, sizeof m->cell_slot);
    KSET used = 0;
    for (int slot = 0; slot < 2 * m->n; slot++) {
        KSET free_cells = m->unit[slot / 2] & empty & ~used;
        if (free_cells) {
            int cell = KFIRST(free_cells);
            m->cell_slot[cell] = (int16_t)slot;
            used |= KBIT(cell);
            continue;
        }
        m->seen = 0;
        if (!KN(match, _augment)(m, empty, slot)) {
            if (!want_hint)
                return false;
            m->hint = pl->line_cells[m->unit_line[slot / 2]];
            for (KSET c = m->seen; c; c &= c - 1)
                m->hint |= pl->line_cells[m->unit_line[m->cell_slot[KFIRST(c)] / 2]];
            return false;
        }
        used |= KBIT(m->fresh); /* a path moves held cells between slots and takes one free cell */
    }
    *paired = used;
    return true;
}

void KN(pairing_lines, _init)(KLINES *pl, const ttt_lines *lines)
{
    assert(lines->cells <= PAIRING_KERNEL_BITS);
    pl->lines = lines;
    for (int i = 0; i < lines->nwin; i++)
        pl->win[i] = KOF(&lines->win_bits[lines->line_win[i]]);
    memset(pl->cell_nlines, 0, sizeof pl->cell_nlines);
    for (int l = 0; l < lines->nlines; l++) {
        pl->line_cells[l] = 0;
        for (int i = lines->line_start[l]; i < lines->line_start[l + 1]; i++)
            pl->line_cells[l] |= pl->win[i];
        for (KSET c = pl->line_cells[l]; c; c &= c - 1) {
            const int cell = KFIRST(c);
            assert(pl->cell_nlines[cell] < PAIRING_CELL_LINES);
            pl->cell_line[cell][pl->cell_nlines[cell]++] = (int16_t)l;
        }
    }
}

bool KN(pairing_find, )(const KLINES *pl, KSET att, KSET def, KSET *paired, int *partner)
{
    const ttt_lines *lines = pl->lines;
    const KSET empty = KOF(&lines->all) & ~(att | def);
    KMATCHING m;
    KSET used;
    if (!KN(units, )(pl, def, empty, &m) || !KN(match, )(pl, empty, &m, &used, false))
        return false;
    if (paired)
        *paired = used;
    if (partner)
        slots_partners(m.cell_slot, lines->cells, m.n, partner);
    return true;
}

/* Appends the units of `from` from its unit `first` to before `end` to m (their cells: not their lines, which
 * only match's hint reads) and returns their cells. A loop rather than memcpy: a few units at a time. */
static KSET KN(units_copy, )(KMATCHING *m, const KMATCHING *from, int first, int end)
{
    KSET cover = 0;
    int n = m->n;
    for (int u = first; u < end; u++) {
        m->unit[n++] = from->unit[u];
        cover |= from->unit[u];
    }
    m->n = n;
    return cover;
}

int KN(pairing_find, _after)(const KLINES *pl, KSET att, KSET def, bool self, pairing_next_fn next,
                             void *user, KSET *paired)
{
    const ttt_lines *lines = pl->lines;
    const KSET empty = KOF(&lines->all) & ~(att | def);
    const int empties = KCOUNT(empty);
    /* The position's units line by line (those of line l from first[l]); a line with a window that cannot
     * be paired is cut short, and only a stone in that window (on that line: rebuilt) can help. */
    KMATCHING base, m;
    int16_t first[KWINDOWS + 1]; /* first[l]: base's first unit of line l */
    KSET hint = empty;
    bool whole = true;
    base.n = 0;
    for (int l = 0; l < lines->nlines; l++) {
        first[l] = (int16_t)base.n;
        if (!KN(line_units, )(pl, l, def, empty, &base)) {
            hint &= base.hint;
            whole = false;
        }
    }
    first[lines->nlines] = (int16_t)base.n;
    KSET used;
    if (whole && KN(units_fit, )(&base, empties)) {
        /* the matching leaves the units as they are: the cells below take them from base */
        if (KN(match, )(pl, empty, &base, &used, true)) {
            if (self) {
                if (paired)
                    *paired = used;
                return PAIRING_SELF;
            }
        } else {
            hint &= base.hint;
        }
    }
    for (int c; (c = next(user)) >= 0;) {
        assert(empty >> c & 1);
        if (!(hint >> c & 1))
            continue;
        /* The units of the lines through c anew, the others as they are; cover: the cells of them all (as
         * units_fit counts them). */
        m.n = 0;
        int from = 0;
        bool ok = true;
        KSET cover = 0;
        for (int j = 0; j < pl->cell_nlines[c] && ok; j++) {
            const int l = pl->cell_line[c][j];
            cover |= KN(units_copy, )(&m, &base, from, first[l]);
            const int made = m.n;
            ok = KN(line_units, )(pl, l, def | KBIT(c), empty & ~KBIT(c), &m);
            for (int u = made; u < m.n; u++)
                cover |= m.unit[u];
            from = first[l + 1];
        }
        if (!ok)
            continue;
        cover |= KN(units_copy, )(&m, &base, from, base.n);
        if (2 * m.n <= empties - 1 && KCOUNT(cover) >= 2 * m.n &&
            KN(match, )(pl, empty & ~KBIT(c), &m, &used, false)) {
            if (paired)
                *paired = used;
            return c;
        }
    }
    return -1;
}

#undef KSET
#undef KCOUNT
#undef KFIRST
#undef KOF
#undef KCAT_
#undef KCAT
#undef KN
#undef KWINDOWS
#undef KBIT
#undef KMATCHING
#undef KLINES
#undef PAIRING_KERNEL_BITS
