/* cli/cmd_arena.c - `ttt arena`: tournaments between engines (ttt/arena.h), reported like cutechess-cli. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "dist/dist.h"

/* Elo differences beyond this are shown as ">+800" / "<-800" (an infinite estimate included). */
#define ARENA_ELO_SHOWN 800.0
/* With this many engines or more, a ranking of all of them follows the pairs. */
#define ARENA_RANKING_MIN_ENGINES 3
/* Room per engine for its name's "#N" and a terminator, in ttt_arena_names's buffer. */
#define ARENA_NAME_EXTRA 8
/* An openings file larger than this is refused (a million openings of a few moves fit well below it). */
#define ARENA_OPENINGS_MAX_BYTES (64L << 20)

static const char help[] =
    "usage: ttt arena [--rules R] --games N [--jobs J] [--seed S] [--gauntlet]\n"
    "                 [--openings FILE | --opening-plies P [--balanced]] [--json|--csv] SPEC SPEC [SPEC...]\n"
    "\n"
    "Plays engines against each other: every pair (a round robin), or the first engine against each of the\n"
    "others (--gauntlet). Each pair plays N games; colours alternate in pairs of games that share a seed.\n"
    "Every game's seed comes from --seed and the game's number, and each game gets new engines seeded with\n"
    "it (unless a spec sets seed= itself), so the results are the same at any --jobs. For each pair: wins,\n"
    "losses and draws of the first engine, its score, the Elo difference with its 95% interval, the\n"
    "likelihood of superiority, the draw ratio, and the split by colour. Ctrl-C stops the match: the games\n"
    "in flight are abandoned and the results of the games played are printed (exit 130). An engine is named\n"
    "in the results by its spec, or by name=NAME among its options (mcts:iterations=300,name=Fast); a name\n"
    "given twice is numbered: random, random#2. With openings, games 2i-1 and 2i of every pair start from\n"
    "opening i (the openings taken again from the first when the games outnumber them), so each opening is\n"
    "played once with each colour.\n"
    "\n"
    "  -r, --rules R   MxN[kK][-misere] (default 3x3)\n"
    "  -g, --games N   games per pair (required), 1 to 100000000\n"
    "  -j, --jobs J    threads (default: the number of processors)\n"
    "  -s, --seed S    the tournament seed, 0 to 9223372036854775807 (default 0)\n"
    "      --gauntlet  the first engine against each other one\n"
    "      --openings FILE      openings from FILE, one a line in move notation (d4 c3); blank lines and\n"
    "                  # comments skipped; every line checked first (on the board, empty cells, game on)\n"
    "      --opening-plies P    random openings of P moves, drawn from --seed (the same seed, the same "
    "ones)\n"
    "      --balanced  only openings the exact solver values a draw (boards of up to 49 cells, e.g. 7x7k5;\n"
    "                  refused on larger ones)\n"
    "      --json      the results as JSON: the pairs, then the ranking of every engine\n"
    "      --csv       the results as CSV, one line per pair; with three engines or more an empty line and\n"
    "                  the ranking follow, one line per engine\n"
    "      --mpi       under mpirun -np N: rank r plays the games whose number is r modulo N, rank 0 prints\n"
    "                  the results (the same as one process gives; --jobs is ignored)\n"
    "\n"
    "examples: ttt arena --games 1000 minimax mcts random\n"
    "          ttt arena --rules 7x7k5 --games 200 mcts:iterations=3000 montecarlo:trials=3000\n"
    "          ttt arena --games 100 mcts:iterations=300,name=Fast mcts:iterations=3000,name=Slow\n"
    "          ttt arena --rules 7x7k5 --games 40 --opening-plies 2 --balanced mcts:time=200 "
    "montecarlo:time=200\n";

/* The openings of a tournament, for its output. */
typedef struct arena_openings {
    const ttt_rules *rules;
    const ttt_arena_book *book; /* NULL: every game from the empty board */
    const char *file;           /* the --openings file, or NULL for random ones */
    int plies;                  /* of random ones */
    bool balanced;
    uint64_t games;      /* per pair */
    uint64_t game_pairs; /* games / 2, rounded up: the openings used */
} arena_openings;

/* The opening of games 2i+1 and 2i+2 (counted from 1) of every pair, as "d4 c3", into buf. */
static const char *opening_text(const arena_openings *o, uint64_t i, char *buf, size_t size)
{
    int count;
    const ttt_move *moves = ttt_arena_book_opening(o->book, ttt_arena_book_index(o->book, 2 * i), &count);
    return ttt_moves_format(o->rules, moves, count, buf, size);
}

/* "Openings: 20 random of 2 plies, balanced" or "Openings: 12 from FILE", before the scores. */
static void print_openings_line(const arena_openings *o)
{
    if (!o->book)
        return;
    uint64_t n = ttt_arena_book_size(o->book);
    if (o->file)
        printf("Openings: %" PRIu64 " from %s, each with both colours\n", n, o->file);
    else
        printf("Openings: %" PRIu64 " random of %d %s%s, each with both colours\n", n, o->plies,
               cli_plural((uint64_t)o->plies, "ply", "plies"),
               o->balanced ? ", balanced (solved draws)" : "");
}

/* "+147.2", or ">+800" / "<-800" beyond ARENA_ELO_SHOWN (infinite included). */
static const char *elo_text(double elo, char *buf, size_t size)
{
    if (elo > ARENA_ELO_SHOWN)
        snprintf(buf, size, ">+%.0f", ARENA_ELO_SHOWN);
    else if (elo < -ARENA_ELO_SHOWN)
        snprintf(buf, size, "<-%.0f", ARENA_ELO_SHOWN);
    else
        snprintf(buf, size, "%+.1f", elo);
    return buf;
}

/* "all draws", "all wins", "all losses" when every game had one result, else NULL. */
static const char *verdict(const ttt_arena_record *r)
{
    uint64_t n = r->wins + r->losses + r->draws;
    return r->draws == n ? "all draws" : r->wins == n ? "all wins" : r->losses == n ? "all losses" : NULL;
}

static void print_split(const char *name, const char *colour, const ttt_arena_record *r)
{
    uint64_t n = r->wins + r->losses + r->draws;
    printf("...      %s playing %s: %" PRIu64 " - %" PRIu64 " - %" PRIu64 "  [%.3f] %" PRIu64 "\n", name,
           colour, r->wins, r->losses, r->draws, n ? (r->wins + r->draws / 2.0) / (double)n : 0.5, n);
}

/* The games of a record. */
static uint64_t games_of(const ttt_arena_record *r) { return r->wins + r->losses + r->draws; }

/* Pairs of a stopped match may have played no game: they are left out. */
static void print_text(const char *const *specs, const ttt_arena_pair *pairs, int npairs,
                       const arena_openings *openings)
{
    print_openings_line(openings);
    bool first = true;
    for (int p = 0; p < npairs; p++) {
        const ttt_arena_pair *pr = &pairs[p];
        const ttt_arena_record *r = &pr->total;
        if (games_of(r) == 0)
            continue;
        if (!first)
            putchar('\n');
        first = false;
        ttt_arena_stats st;
        ttt_arena_stats_of(r, &st);
        const char *a = specs[pr->a];
        char e[32], lo[32], hi[32];
        printf("Score of %s vs %s: %" PRIu64 " - %" PRIu64 " - %" PRIu64 "  [%.3f] %" PRIu64 "\n", a,
               specs[pr->b], r->wins, r->losses, r->draws, st.score, st.games);
        print_split(a, "X", &pr->a_as_x);
        print_split(a, "O", &pr->a_as_o);
        if (pr->a_forfeits || pr->b_forfeits)
            printf("...      forfeits (counted as losses): %s %" PRIu64 ", %s %" PRIu64 "\n", a,
                   pr->a_forfeits, specs[pr->b], pr->b_forfeits);
        const char *v = verdict(r);
        if (v)
            printf("...      Elo difference: %s (%s), LOS: %.1f %%, DrawRatio: %.1f %%\n",
                   elo_text(st.elo, e, sizeof e), v, st.los * 100, st.draw_ratio * 100);
        else
            printf("...      Elo difference: %s [%s, %s] (95%%), LOS: %.1f %%, DrawRatio: %.1f %%\n",
                   elo_text(st.elo, e, sizeof e), elo_text(st.elo_low, lo, sizeof lo),
                   elo_text(st.elo_high, hi, sizeof hi), st.los * 100, st.draw_ratio * 100);
    }
}

/* "+/-" of the ranking: the half-width of the 95% interval, or "inf". */
static const char *margin_text(const ttt_arena_stats *st, char *buf, size_t size)
{
    double half = (st->elo_high - st->elo_low) / 2;
    if (isfinite(half))
        snprintf(buf, size, "%.0f", half);
    else
        snprintf(buf, size, "inf");
    return buf;
}

/* The final ranking, as cutechess-cli prints it: every engine's record over all its games, best score first,
 * with the Elo of that score against the field and the half-width of its 95% interval. */
static void print_ranking(const char *const *specs, int nspecs, const ttt_arena_pair *pairs, int npairs)
{
    ttt_arena_rank ranks[TTT_ARENA_MAX_ENGINES];
    int ranked = ttt_arena_ranking(nspecs, pairs, npairs, ranks);
    if (ranked == 0)
        return;
    int width = (int)strlen("Name");
    for (int i = 0; i < ranked; i++) {
        int len = (int)strlen(specs[ranks[i].engine]);
        width = len > width ? len : width;
    }
    printf("\n%4s %-*s %7s %7s %7s %7s %7s\n", "Rank", width, "Name", "Elo", "+/-", "Games", "Score", "Draw");
    for (int i = 0; i < ranked; i++) {
        const ttt_arena_stats *st = &ranks[i].stats;
        char elo[32], pm[32];
        margin_text(st, pm, sizeof pm);
        if (isfinite(st->elo) && fabs(st->elo) <= ARENA_ELO_SHOWN)
            snprintf(elo, sizeof elo, "%.0f", st->elo);
        else
            elo_text(st->elo, elo, sizeof elo);
        printf("%4d %-*s %7s %7s %7" PRIu64 " %6.1f%% %6.1f%%\n", i + 1, width, specs[ranks[i].engine], elo,
               pm, st->games, st->score * 100, st->draw_ratio * 100);
    }
}

/* A finite number as JSON, an infinite one (or NaN: no games) as null. */
static json_t *json_finite(double x) { return isfinite(x) ? json_real(x) : json_null(); }

static json_t *json_record(const ttt_arena_record *r)
{
    return json_pack("{s:I, s:I, s:I}", "wins", (json_int_t)r->wins, "losses", (json_int_t)r->losses, "draws",
                     (json_int_t)r->draws);
}

/* The statistics of a pair, NaN where a pair that played no game has none (a stopped match). */
static void pair_stats(const ttt_arena_pair *pr, ttt_arena_stats *st)
{
    if (games_of(&pr->total) > 0)
        ttt_arena_stats_of(&pr->total, st);
    else
        *st = (ttt_arena_stats){
            .score = NAN, .elo = NAN, .elo_low = NAN, .elo_high = NAN, .los = NAN, .draw_ratio = NAN};
}

/* The ranking as JSON: [{"rank": 1, "engine": SPEC, "games", "wins", "losses", "draws", "score", "elo",
 * "elo_low", "elo_high", "draw_ratio"}, ...], best first. */
static json_t *json_ranking(const char *const *specs, int nspecs, const ttt_arena_pair *pairs, int npairs)
{
    ttt_arena_rank ranks[TTT_ARENA_MAX_ENGINES];
    int ranked = ttt_arena_ranking(nspecs, pairs, npairs, ranks);
    json_t *list = json_array();
    for (int i = 0; i < ranked; i++) {
        const ttt_arena_rank *r = &ranks[i];
        json_array_append_new(
            list, json_pack("{s:i, s:s, s:I, s:I, s:I, s:I, s:f, s:o, s:o, s:o, s:f}", "rank", i + 1,
                            "engine", specs[r->engine], "games", (json_int_t)r->stats.games, "wins",
                            (json_int_t)r->total.wins, "losses", (json_int_t)r->total.losses, "draws",
                            (json_int_t)r->total.draws, "score", r->stats.score, "elo",
                            json_finite(r->stats.elo), "elo_low", json_finite(r->stats.elo_low), "elo_high",
                            json_finite(r->stats.elo_high), "draw_ratio", r->stats.draw_ratio));
    }
    return list;
}

/* The openings as JSON: one string per pair of games. */
static json_t *json_openings(const arena_openings *o)
{
    json_t *list = json_array();
    char text[TTT_MOVES_TEXT_SIZE];
    for (uint64_t i = 0; list && i < o->game_pairs; i++)
        json_array_append_new(list, json_string(opening_text(o, i, text, sizeof text)));
    return list;
}

static int print_json(const ttt_rules *rules, const ttt_arena_options *opt, const char *const *names,
                      const ttt_arena_pair *pairs, int npairs, bool interrupted,
                      const arena_openings *openings)
{
    json_t *list = json_array();
    for (int p = 0; p < npairs; p++) {
        const ttt_arena_pair *pr = &pairs[p];
        ttt_arena_stats st;
        pair_stats(pr, &st);
        const char *v = st.games ? verdict(&pr->total) : NULL;
        json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                              "a", names[pr->a], "b", names[pr->b], "games", (json_int_t)st.games, "wins",
                              (json_int_t)pr->total.wins, "losses", (json_int_t)pr->total.losses, "draws",
                              (json_int_t)pr->total.draws, "score", json_finite(st.score), "elo",
                              json_finite(st.elo), "elo_low", json_finite(st.elo_low), "elo_high",
                              json_finite(st.elo_high), "los", json_finite(st.los), "draw_ratio",
                              json_finite(st.draw_ratio), "verdict", v ? json_string(v) : json_null(),
                              "a_as_x", json_record(&pr->a_as_x), "a_as_o", json_record(&pr->a_as_o));
        json_object_set_new(o, "a_forfeits", json_integer((json_int_t)pr->a_forfeits));
        json_object_set_new(o, "b_forfeits", json_integer((json_int_t)pr->b_forfeits));
        json_array_append_new(list, o);
    }
    char rt[TTT_RULES_TEXT_SIZE];
    json_t *o = json_pack("{s:s, s:I, s:I, s:b, s:b, s:o}", "rules", ttt_rules_format(rules, rt, sizeof rt),
                          "games_per_pair", (json_int_t)opt->games, "seed", (json_int_t)opt->seed, "gauntlet",
                          opt->gauntlet, "interrupted", interrupted, "pairs", list);
    json_object_set_new(o, "ranking", json_ranking(names, opt->nspecs, pairs, npairs));
    /* openings[i]: the opening of games 2i+1 and 2i+2 of every pair (absent without openings) */
    if (openings->book)
        json_object_set_new(o, "openings", json_openings(openings));
    bool bad = !o || json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6)) != 0;
    json_decref(o);
    if (bad)
        return cli_runtime("arena", "could not write JSON");
    putchar('\n');
    return CLI_OK;
}

/* A CSV field: the number, or empty when it is infinite (or NaN: no games). */
static void csv_number(double x)
{
    if (isfinite(x))
        printf(",%.6g", x);
    else
        printf(",");
}

/* A quoted CSV field, its '"' doubled (specs hold no newline). */
static void csv_text(const char *text)
{
    putchar('"');
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            putchar('"');
        putchar(*p);
    }
    putchar('"');
}

/* The ranking as a second CSV table after an empty line, as the text output has it (three engines or more). */
static void print_csv_ranking(const ttt_arena_options *opt, const char *const *names,
                              const ttt_arena_pair *pairs, int npairs)
{
    ttt_arena_rank ranks[TTT_ARENA_MAX_ENGINES];
    int ranked = ttt_arena_ranking(opt->nspecs, pairs, npairs, ranks);
    puts("\nrank,engine,games,wins,losses,draws,score,elo,elo_low,elo_high,draw_ratio");
    for (int i = 0; i < ranked; i++) {
        const ttt_arena_rank *r = &ranks[i];
        printf("%d,", i + 1);
        csv_text(names[r->engine]);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, r->stats.games, r->total.wins,
               r->total.losses, r->total.draws);
        csv_number(r->stats.score);
        csv_number(r->stats.elo);
        csv_number(r->stats.elo_low);
        csv_number(r->stats.elo_high);
        csv_number(r->stats.draw_ratio);
        putchar('\n');
    }
}

/* The openings as a CSV table after an empty line: "games,opening", one line per pair of games. */
static void print_csv_openings(const arena_openings *o)
{
    if (!o->book)
        return;
    puts("\ngames,opening");
    char text[TTT_MOVES_TEXT_SIZE];
    for (uint64_t i = 0; i < o->game_pairs; i++) {
        if (2 * i + 2 <= o->games)
            printf("%" PRIu64 "-%" PRIu64 ",", 2 * i + 1, 2 * i + 2);
        else
            printf("%" PRIu64 ",", 2 * i + 1);
        csv_text(opening_text(o, i, text, sizeof text));
        putchar('\n');
    }
}

static void print_csv(const char *const *names, const ttt_arena_pair *pairs, int npairs)
{
    puts("a,b,games,wins,losses,draws,score,elo,elo_low,elo_high,los,draw_ratio,verdict,"
         "a_x_wins,a_x_losses,a_x_draws,a_o_wins,a_o_losses,a_o_draws,a_forfeits,b_forfeits");
    for (int p = 0; p < npairs; p++) {
        const ttt_arena_pair *pr = &pairs[p];
        ttt_arena_stats st;
        pair_stats(pr, &st);
        const char *v = st.games ? verdict(&pr->total) : NULL;
        /* Quoting keeps the specs' commas inside the field (a '"' in a spec, as in args=, is doubled). */
        csv_text(names[pr->a]);
        putchar(',');
        csv_text(names[pr->b]);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, st.games, pr->total.wins, pr->total.losses,
               pr->total.draws);
        csv_number(st.score);
        csv_number(st.elo);
        csv_number(st.elo_low);
        csv_number(st.elo_high);
        csv_number(st.los);
        csv_number(st.draw_ratio);
        printf(",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%" PRIu64 "\n",
               v ? v : "", pr->a_as_x.wins, pr->a_as_x.losses, pr->a_as_x.draws, pr->a_as_o.wins,
               pr->a_as_o.losses, pr->a_as_o.draws, pr->a_forfeits, pr->b_forfeits);
    }
}

/* The library's progress, to the bar (user: the ticker), which draws it on its next tick. */
static void arena_progress(uint64_t done, uint64_t total, void *user)
{
    (void)total;
    cli_ticker_update(user, done, "");
}

/* The text of the file at path, NUL-terminated (the caller frees it), or NULL after printing why. */
static char *read_openings(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_usage("arena", "--openings %s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    struct stat info;
    long size = fstat(fileno(f), &info) == 0 && S_ISREG(info.st_mode) ? (long)info.st_size : -1;
    if (size < 0 || size > ARENA_OPENINGS_MAX_BYTES)
        cli_usage("arena", "--openings %s: %s", path, size < 0 ? "not a regular file" : "larger than 64 MiB");
    else if (!(text = malloc((size_t)size + 1)))
        cli_runtime("arena", "out of memory for %s", path);
    else if (fread(text, 1, (size_t)size, f) != (size_t)size || memchr(text, '\0', (size_t)size)) {
        cli_usage("arena", "--openings %s: %s", path, ferror(f) ? strerror(errno) : "not a text file");
        free(text);
        text = NULL;
    } else
        text[size] = '\0';
    fclose(f);
    return text;
}

/* The book of --openings FILE or --opening-plies P (NULL in *book without either), or an exit status. */
static int make_book(const ttt_rules *rules, arena_openings *o, uint64_t seed, ttt_arena_book **book)
{
    *book = NULL;
    ttt_error err;
    ttt_status st = TTT_OK;
    if (o->file) {
        char *text = read_openings(o->file);
        if (!text)
            return CLI_USAGE;
        st = ttt_arena_book_parse(rules, text, o->file, o->balanced, book, &err);
        free(text);
    } else if (o->plies > 0) {
        uint64_t n = o->game_pairs < TTT_ARENA_MAX_OPENINGS ? o->game_pairs : TTT_ARENA_MAX_OPENINGS;
        st = ttt_arena_book_random(rules, seed, n, o->plies, o->balanced, book, &err);
    }
    if (st)
        return st == TTT_EINVAL ? cli_usage("arena", "%s", err.msg) : cli_runtime("arena", "%s", err.msg);
    o->book = *book;
    return CLI_OK;
}

static bool arena_stop(void *user)
{
    (void)user;
    return cli_interrupted();
}

/* "ttt arena: pair 1, game 3: engine 'cmd' (./brain): timed out ... (a loss)", on its own line, above the bar
 * when there is one (user: the ticker, or NULL). One fprintf is one write of the stream's lock. */
static void arena_forfeit(int pair, uint64_t game, const char *reason, void *user)
{
    char line[TTT_ERROR_SIZE + 64];
    snprintf(line, sizeof line, "ttt arena: pair %d, game %" PRIu64 ": %s (scored as a loss)", pair + 1,
             game + 1, reason);
    if (user)
        cli_ticker_note(user, line);
    else
        fprintf(stderr, "%s\n", line);
}

int cmd_arena(int argc, char **argv)
{
    enum { OPT_GAUNTLET = 256, OPT_JSON, OPT_CSV, OPT_MPI, OPT_OPENINGS, OPT_PLIES, OPT_BALANCED };
    static const struct option longopts[] = {{"rules", required_argument, NULL, 'r'},
                                             {"games", required_argument, NULL, 'g'},
                                             {"jobs", required_argument, NULL, 'j'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"gauntlet", no_argument, NULL, OPT_GAUNTLET},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"csv", no_argument, NULL, OPT_CSV},
                                             {"mpi", no_argument, NULL, OPT_MPI},
                                             {"openings", required_argument, NULL, OPT_OPENINGS},
                                             {"opening-plies", required_argument, NULL, OPT_PLIES},
                                             {"balanced", no_argument, NULL, OPT_BALANCED},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *rules_text = NULL;
    uint64_t games = 0, seed = 0, jobs = 0;
    bool have_games = false, gauntlet = false, json = false, csv = false, mpi = false, root = true;
    arena_openings openings = {0};
    uint64_t plies = 0;
    optind = 0;
    for (int c; (c = cli_getopt("arena", argc, argv, "r:g:j:s:h", longopts)) != -1;) {
        switch (c) {
        case 'r': rules_text = optarg; break;
        case 'g':
            if (cli_parse_uint("arena", "--games", optarg, 1, TTT_ARENA_MAX_GAMES, "a whole number", &games))
                return CLI_USAGE;
            have_games = true;
            break;
        case 'j':
            if (cli_parse_uint("arena", "--jobs", optarg, 1, TTT_ARENA_MAX_JOBS, "a number of threads",
                               &jobs))
                return CLI_USAGE;
            break;
        case 's':
            if (cli_parse_uint("arena", "--seed", optarg, 0, TTT_ARENA_MAX_SEED, "a whole number", &seed))
                return CLI_USAGE;
            break;
        case OPT_GAUNTLET: gauntlet = true; break;
        case OPT_JSON: json = true; break;
        case OPT_CSV: csv = true; break;
        case OPT_MPI: mpi = true; break;
        case OPT_OPENINGS: openings.file = optarg; break;
        case OPT_PLIES:
            if (cli_parse_uint("arena", "--opening-plies", optarg, 1, TTT_MAX_CELLS - 1, "a number of moves",
                               &plies))
                return CLI_USAGE;
            break;
        case OPT_BALANCED: openings.balanced = true; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return CLI_USAGE;
        }
    }
    if (json && csv)
        return cli_usage("arena", "--json and --csv: choose one");
    if (openings.file && plies)
        return cli_usage("arena", "--openings and --opening-plies: choose one");
    if (openings.balanced && !openings.file && !plies)
        return cli_usage("arena", "--balanced needs --opening-plies P or --openings FILE");
    int nspecs = argc - optind;
    if (nspecs < 2)
        return cli_usage("arena", "expected at least two engine specs, got %d (see 'ttt arena --help')",
                         nspecs);
    if (nspecs > TTT_ARENA_MAX_ENGINES)
        return cli_usage("arena", "at most %d engines, got %d", TTT_ARENA_MAX_ENGINES, nspecs);
    if (!have_games)
        return cli_usage("arena", "--games is required, e.g. --games 1000 (see 'ttt arena --help')");
    ttt_rules rules = ttt_rules_default();
    ttt_error err;
    if (rules_text && ttt_rules_parse(rules_text, &rules, &err))
        return cli_usage("arena", "%s", err.msg);
    openings.rules = &rules;
    openings.plies = (int)plies;
    openings.games = games;
    openings.game_pairs = games / 2 + games % 2;
    ttt_arena_book *book;
    int made = make_book(&rules, &openings, seed, &book);
    if (made)
        return made;
    if (jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n < 1 ? 1 : n > TTT_ARENA_MAX_JOBS ? TTT_ARENA_MAX_JOBS : (uint64_t)n;
    }
    bool bar = !mpi && isatty(STDERR_FILENO);
    cli_ticker ticker;
    /* The names in the results (name=, numbered duplicates) and the specs played, without name=. */
    const char *names[TTT_ARENA_MAX_ENGINES], *play[TTT_ARENA_MAX_ENGINES];
    size_t names_size = 0;
    for (int i = 0; i < nspecs; i++)
        names_size += 2 * (strlen(argv[optind + i]) + ARENA_NAME_EXTRA);
    char *names_buf = malloc(names_size);
    if (!names_buf) {
        ttt_arena_book_free(book);
        return cli_runtime("arena", "out of memory");
    }
    ttt_status named = ttt_arena_names((const char *const *)(argv + optind), nspecs, names_buf, names_size,
                                       names, play, &err);
    if (named) {
        free(names_buf);
        ttt_arena_book_free(book);
        return cli_status_exit(named) == CLI_USAGE ? cli_usage("arena", "%s", err.msg)
                                                   : cli_runtime("arena", "%s", err.msg);
    }
    ttt_arena_options opt = {.specs = play,
                             .nspecs = nspecs,
                             .games = games,
                             .seed = seed,
                             .jobs = (int)jobs,
                             .gauntlet = gauntlet,
                             .progress = bar ? arena_progress : NULL,
                             .user = bar ? &ticker : NULL,
                             .forfeit = arena_forfeit,
                             .stop = arena_stop,
                             .book = book};
    int npairs = ttt_arena_pair_count(nspecs, gauntlet);
    ttt_arena_pair *pairs = calloc((size_t)npairs, sizeof *pairs);
    if (!pairs) {
        free(names_buf);
        ttt_arena_book_free(book);
        return cli_runtime("arena", "out of memory");
    }
    uint64_t total = (uint64_t)npairs * games, played = 0;
    if (bar)
        cli_ticker_start(&ticker, total, "games");
    cli_interrupt_catch();
    ttt_status st =
        mpi ? dist_arena_run(&rules, &opt, pairs, &root, &err) : ttt_arena_run(&rules, &opt, pairs, &err);
    cli_interrupt_release();
    /* Rank 0 prints the results, and a bad spec's message: every rank finds it. Another rank leaves that error
     * to rank 0's exit status: mpirun ends the whole job when a rank exits non-zero, and rank 0 could be killed
     * before its message is out. */
    if (!root) {
        free(pairs);
        ttt_arena_book_free(book);
        return st == TTT_EINVAL ? CLI_OK : st ? cli_runtime("arena", "%s", err.msg) : CLI_OK;
    }
    if (bar)
        cli_ticker_stop(&ticker);
    bool interrupted = st == TTT_OK && cli_interrupted();
    for (int p = 0; p < npairs; p++)
        played += games_of(&pairs[p].total);
    if (bar && (interrupted || st == TTT_EINVAL))
        fputs("\r\033[K", stderr);
    else if (bar && st == TTT_OK)
        cli_progress_end(total);
    else if (bar && st != TTT_EINVAL)
        fputc('\n', stderr);
    if (interrupted) {
        char done[CLI_COUNT_SIZE], all[CLI_COUNT_SIZE];
        fprintf(stderr, "ttt arena: interrupted: %s of %s games played, the games in flight abandoned\n",
                cli_count(played, done, sizeof done), cli_count(total, all, sizeof all));
    }
    int rc = CLI_OK;
    if (st)
        rc = st == TTT_EINVAL ? cli_usage("arena", "%s", err.msg) : cli_runtime("arena", "%s", err.msg);
    else if (json)
        rc = print_json(&rules, &opt, names, pairs, npairs, interrupted, &openings);
    else if (csv) {
        print_csv(names, pairs, npairs);
        if (nspecs >= ARENA_RANKING_MIN_ENGINES)
            print_csv_ranking(&opt, names, pairs, npairs);
        print_csv_openings(&openings);
    } else {
        print_text(names, pairs, npairs, &openings);
        if (nspecs >= ARENA_RANKING_MIN_ENGINES)
            print_ranking(names, nspecs, pairs, npairs);
    }
    free(pairs);
    free(names_buf);
    ttt_arena_book_free(book);
    return rc == CLI_OK && interrupted ? CLI_INTERRUPTED : rc;
}
