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
    KSET unit[KWINDOWS]; /* the units' cells */
    int n;
    int16_t cell_slot[PAIRING_KERNEL_BITS]; /* the slot holding the cell, or -1 */
    KSET seen;
} KMATCHING;

static bool KN(match, _augment)(KMATCHING *m, KSET empty, int slot)
{
    for (KSET c = m->unit[slot / 2] & empty & ~m->seen; c; c &= c - 1) {
        int cell = KFIRST(c);
        if (m->seen >> cell & 1)
            continue;
        m->seen |= KBIT(cell);
        if (m->cell_slot[cell] < 0 || KN(match, _augment)(m, empty, m->cell_slot[cell])) {
            m->cell_slot[cell] = (int16_t)slot;
            return true;
        }
    }
    return false;
}

/* The units (see pairing.h), into m. False when some window free of the defender has fewer than two empty
 * cells, or the units need more cells than they hold between them (two per unit: Hall's condition for the
 * whole set), a failure the matching would find only after trying every augmenting path. */
static bool KN(units, )(const KLINES *pl, KSET def, KSET empty, KMATCHING *m)
{
    const ttt_lines *lines = pl->lines;
    const int empties = KCOUNT(empty);
    KSET cover = 0; /* the cells of all units */
    m->n = 0;
    for (int l = 0; l < lines->nlines; l++) {
        KSET group = 0; /* the empty cells the open group's windows share (0: none open) */
        for (int i = lines->line_start[l]; i < lines->line_start[l + 1]; i++) {
            KSET w = pl->win[i];
            if (w & def)
                continue;
            if (KCOUNT(w & empty) < 2)
                return false;
            if (group && KCOUNT(group & w) >= 2) {
                group &= w;
                continue;
            }
            if (group) {
                if (2 * (m->n + 1) > empties)
                    return false;
                m->unit[m->n++] = group;
                cover |= group;
            }
            group = w & empty;
        }
        if (group) {
            if (2 * (m->n + 1) > empties)
                return false;
            m->unit[m->n++] = group;
            cover |= group;
        }
    }
    return KCOUNT(cover) >= 2 * m->n;
}

/* Two empty cells of its own for every unit; *paired receives the cells used. */
static bool KN(match, )(const ttt_lines *lines, KSET empty, KMATCHING *m, KSET *paired)
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
        if (!KN(match, _augment)(m, empty, slot))
            return false;
        used = 0;
        for (int cell = 0; cell < lines->cells; cell++)
            if (m->cell_slot[cell] >= 0)
                used |= KBIT(cell);
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
}

bool KN(pairing_find, )(const KLINES *pl, KSET att, KSET def, KSET *paired, int *partner)
{
    const ttt_lines *lines = pl->lines;
    const KSET empty = KOF(&lines->all) & ~(att | def);
    KMATCHING m;
    KSET used;
    if (!KN(units, )(pl, def, empty, &m) || !KN(match, )(lines, empty, &m, &used))
        return false;
    if (paired)
        *paired = used;
    if (partner)
        slots_partners(m.cell_slot, lines->cells, m.n, partner);
    return true;
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
