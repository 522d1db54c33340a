/*
 * bench/gomoku/tactics_gen.c - makes the tactical positions of tests/test_gomoku_tactics.c from seeded games,
 * with their answers: on small boards every move valued by the exact solver, on 15x15 by the VCF search.
 *
 *   win     the side to move has a forced win, and at most a quarter of its moves keep it: the good moves
 *           (solver), or on 15x15 "vcf" (the test replays the VCF against every block)
 *   block   the side to move does not lose with best play, and at most a third of its moves avoid a forced
 *           loss: the good moves (solver); on 15x15 the opponent has a VCF that some move stops ("vcf")
 *
 * Prints C initializers { rules, position, kind, good moves }. Built and run by tactics.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/threats.h"
#include "ttt/ttt.h"

#define SOLVE_NODES    200000 /* per move; positions with a move left unknown are skipped */
#define VCF_NODES      1000000
#define PER_KIND       8
#define MAX_GAMES      400
#define MIN_STONES     5
#define RANDOM_OPENING 4

static void print_fixture(const ttt_board *b, const char *rules, const char *kind, const char *good)
{
    char pos[TTT_MAX_CELLS * 2];
    ttt_position_format(b, pos, sizeof pos);
    printf("    {\"%s\", \"%s\", \"%s\", \"%s\"},\n", rules, pos, kind, good);
    fflush(stdout);
}

/* Values every move of b exactly; returns false when one is not proven within the budget. */
static bool value_moves(ttt_solver *solver, const ttt_board *b, ttt_result *after)
{
    ttt_error err;
    for (int c = 0; c < b->cells; c++) {
        if (!ttt_board_is_legal(b, c))
            continue;
        ttt_board x = *b;
        ttt_board_play(&x, c);
        if (ttt_board_outcome(&x) != TTT_ONGOING) {
            after[c] = ttt_board_outcome(&x) == TTT_DRAW ? TTT_DRAW_VALUE : TTT_LOSS;
            continue;
        }
        ttt_limits limits = {.nodes = SOLVE_NODES};
        ttt_value_result r;
        if (ttt_solver_value_within(solver, &x, &limits, &r, &err) || !r.proven)
            return false;
        after[c] = r.value; /* for the opponent */
    }
    return true;
}

/* Plays the next move of a seeded game: random ones for the first RANDOM_OPENING plies (anywhere, or with
 * `near` within 2 of the centre), then the engine's. Returns false when the engine fails. */
static bool play_next(ttt_board *b, ttt_rng *rng, ttt_engine *e, bool near)
{
    ttt_move m;
    ttt_error err;
    if (b->ply < RANDOM_OPENING) {
        int centre = (b->rules.rows / 2) * b->rules.cols + b->rules.cols / 2;
        do
            m = near ? centre + (int)ttt_rng_below(rng, 5) - 2 +
                           b->rules.cols * ((int)ttt_rng_below(rng, 5) - 2)
                     : (ttt_move)ttt_rng_below(rng, (uint32_t)b->cells);
        while (!ttt_board_is_legal(b, m));
    } else if (ttt_engine_choose(e, b, &m, NULL, &err)) {
        return false;
    }
    ttt_board_play(b, m);
    return true;
}

static void small_board(const char *text)
{
    ttt_rules r;
    ttt_error err;
    ttt_solver *solver;
    ttt_engine *e;
    if (ttt_rules_parse(text, &r, &err) || ttt_solver_new(&r, 64, &solver, &err) ||
        ttt_engine_new("heuristic:seed=1", &r, &e, &err)) {
        fprintf(stderr, "tactics_gen: %s\n", err.msg);
        exit(2);
    }
    ttt_rng rng;
    ttt_rng_seed(&rng, 31);
    int found[2] = {0, 0};
    for (int game = 0; game < MAX_GAMES && (found[0] < PER_KIND || found[1] < PER_KIND); game++) {
        ttt_board b;
        ttt_board_init(&b, &r);
        bool seen[2] = {false, false}; /* one of each kind per game: later ones are mostly the same fight */
        while (ttt_board_outcome(&b) == TTT_ONGOING) {
            if (b.ply >= MIN_STONES && !(seen[0] && seen[1])) {
                ttt_result after[TTT_MAX_CELLS];
                if (value_moves(solver, &b, after)) {
                    int legal = 0, wins = 0, safe = 0;
                    char wgood[512] = "", sgood[512] = "", name[TTT_MOVE_TEXT_SIZE];
                    for (int c = 0; c < b.cells; c++) {
                        if (!ttt_board_is_legal(&b, c))
                            continue;
                        legal++;
                        ttt_move_format(&r, c, name, sizeof name);
                        if (after[c] == TTT_LOSS) {
                            wins++;
                            strcat(strcat(wgood, *wgood ? " " : ""), name);
                        }
                        if (after[c] != TTT_WIN) {
                            safe++;
                            strcat(strcat(sgood, *sgood ? " " : ""), name);
                        }
                    }
                    if (wins && wins * 4 <= legal && found[0] < PER_KIND && !seen[0]) {
                        print_fixture(&b, text, "win", wgood);
                        found[0]++;
                        seen[0] = true;
                    } else if (!wins && safe && safe * 3 <= legal && found[1] < PER_KIND && !seen[1]) {
                        print_fixture(&b, text, "block", sgood);
                        found[1]++;
                        seen[1] = true;
                    }
                }
            }
            if (!play_next(&b, &rng, e, false))
                break;
        }
    }
    ttt_engine_free(e);
    ttt_solver_free(solver);
}

static bool has_vcf(ttt_threats *t, const ttt_board *b, ttt_player who, bool *unknown)
{
    int line[TTT_MAX_CELLS], length;
    ttt_threats_set(t, b);
    ttt_threats_result res = ttt_threats_vcf(t, who, VCF_NODES, line, &length);
    *unknown |= res == TTT_THREATS_UNKNOWN;
    return res == TTT_THREATS_WIN;
}

static void big_board(void)
{
    ttt_rules r;
    ttt_error err;
    ttt_engine *e;
    const ttt_lines *l;
    if (ttt_rules_parse("15x15k5", &r, &err) || ttt_engine_new("mcts:seed=1,iterations=300", &r, &e, &err) ||
        ttt_lines_new(&r, &l, &err)) {
        fprintf(stderr, "tactics_gen: %s\n", err.msg);
        exit(2);
    }
    ttt_threats *t = malloc(sizeof *t);
    ttt_threats_init(t, l);
    ttt_rng rng;
    ttt_rng_seed(&rng, 31);
    int found[2] = {0, 0};
    for (int game = 0; game < MAX_GAMES && (found[0] < PER_KIND || found[1] < PER_KIND); game++) {
        ttt_board b;
        ttt_board_init(&b, &r);
        int seen_win = 0, seen_block = 0; /* one of each kind per game: later ones are the same attack */
        while (ttt_board_outcome(&b) == TTT_ONGOING) {
            ttt_player me = ttt_board_to_move(&b), opp = (ttt_player)(1 - me);
            bool unknown = false;
            int f[2];
            ttt_threats_set(t, &b);
            bool fives = ttt_threats_fives(t, me, f, 1) || ttt_threats_fives(t, opp, f, 1);
            if (b.ply >= 8 && !fives) {
                if (has_vcf(t, &b, me, &unknown)) {
                    if (!seen_win++ && found[0] < PER_KIND) {
                        print_fixture(&b, "15x15k5", "win", "vcf");
                        found[0]++;
                    }
                } else if (!unknown && has_vcf(t, &b, opp, &unknown) && !unknown && !seen_block) {
                    int stops = 0;
                    for (int c = 0; c < b.cells && !stops; c++) {
                        if (!ttt_board_is_legal(&b, c))
                            continue;
                        ttt_board x = b;
                        ttt_board_play(&x, c);
                        bool u = false;
                        stops += !has_vcf(t, &x, opp, &u) && !u;
                    }
                    if (stops && found[1] < PER_KIND) {
                        print_fixture(&b, "15x15k5", "block", "vcf");
                        found[1]++;
                        seen_block = 1;
                    }
                }
            }
            if (!play_next(&b, &rng, e, true))
                break;
        }
    }
    ttt_threats_done(t);
    free(t);
    ttt_lines_unref(l);
    ttt_engine_free(e);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "15x15k5"))
            big_board();
        else
            small_board(argv[i]);
    }
    return 0;
}
