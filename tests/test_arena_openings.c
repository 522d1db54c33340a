/*
 * test_arena_openings.c - tournaments from openings: books read from text (every bad line named), random
 * books drawn from a seed, balanced ones checked against the exact solver, and each opening played once with
 * each colour.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt/ttt.h"
#include "support.h"

/* The book of text, which must parse. */
static ttt_arena_book *parsed(const ttt_rules *r, const char *text, bool balanced)
{
    ttt_arena_book *book = NULL;
    ttt_error err;
    ttt_status st = ttt_arena_book_parse(r, text, "book.txt", balanced, &book, &err);
    if (st)
        fail_msg("%s", err.msg);
    return book;
}

/* Opening i of the book as text. */
static const char *opening_of(const ttt_rules *r, const ttt_arena_book *book, uint64_t i, char *buf,
                              size_t size)
{
    int count;
    const ttt_move *m = ttt_arena_book_opening(book, i, &count);
    return ttt_moves_format(r, m, count, buf, size);
}

/* Blank lines and comments skipped, blanks around the moves ignored, openings in file order. */
static void test_parse(void **state)
{
    (void)state;
    ttt_rules r = rules_of("7x7k5");
    ttt_arena_book *book = parsed(&r, "# two openings\n\n  d4 c3 \r\n\t# indented comment\na1,g7\n", false);
    char text[TTT_MOVES_TEXT_SIZE];
    assert_int_equal(ttt_arena_book_size(book), 2);
    assert_string_equal(opening_of(&r, book, 0, text, sizeof text), "d4 c3");
    assert_string_equal(opening_of(&r, book, 1, text, sizeof text), "a1 g7");
    /* games 2i and 2i+1 share opening i, cycling through the book */
    assert_int_equal(ttt_arena_book_index(book, 0), 0);
    assert_int_equal(ttt_arena_book_index(book, 1), 0);
    assert_int_equal(ttt_arena_book_index(book, 2), 1);
    assert_int_equal(ttt_arena_book_index(book, 3), 1);
    assert_int_equal(ttt_arena_book_index(book, 4), 0);
    ttt_arena_book_free(book);
}

/* Every bad line is refused, naming the file, the line and the reason. */
static void test_parse_errors(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"b2\nd1\n", "book.txt:2: moves: move 1 'd1': column d is off the 3x3 board"},
        {"# x\nb2 a1\nb2 b2\n", "book.txt:3: moves: move 2 'b2': cell b2 is taken"},
        {"b2 a1 a2 c1 c2\n", "book.txt:1: opening 'b2 a1 a2 c1 c2' is over: X won"},
        {"\n# only comments\n", "book.txt: no openings"},
        {"b2 b1\n", "book.txt:1: opening 'b2 b1' is not balanced: a win for X"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ttt_arena_book *book = NULL;
        ttt_error err;
        bool balanced = i == 4;
        assert_int_equal(ttt_arena_book_parse(&r, cases[i].text, "book.txt", balanced, &book, &err),
                         TTT_EINVAL);
        assert_null(book);
        if (strncmp(err.msg, cases[i].message, strlen(cases[i].message)) != 0)
            fail_msg("case %zu: '%s', expected '%s...'", i, err.msg, cases[i].message);
    }
    /* the same line is fine without --balanced */
    ttt_arena_book_free(parsed(&r, "b2 b1\n", false));
}

/* A random book: the same seed gives the same openings, another seed others; each opening has its plies, all
 * legal, the game still on after them. */
static void test_random(void **state)
{
    (void)state;
    ttt_rules r = rules_of("5x5k4");
    ttt_arena_book *a, *b, *c;
    ttt_error err;
    assert_int_equal(ttt_arena_book_random(&r, 7, 50, 6, false, &a, &err), TTT_OK);
    assert_int_equal(ttt_arena_book_random(&r, 7, 50, 6, false, &b, &err), TTT_OK);
    assert_int_equal(ttt_arena_book_random(&r, 8, 50, 6, false, &c, &err), TTT_OK);
    assert_int_equal(ttt_arena_book_size(a), 50);
    int differ = 0;
    for (uint64_t i = 0; i < 50; i++) {
        int na, nb, nc;
        const ttt_move *ma = ttt_arena_book_opening(a, i, &na), *mb = ttt_arena_book_opening(b, i, &nb),
                       *mc = ttt_arena_book_opening(c, i, &nc);
        assert_int_equal(na, 6);
        assert_int_equal(nb, 6);
        assert_int_equal(nc, 6);
        assert_memory_equal(ma, mb, 6 * sizeof *ma);
        differ += memcmp(ma, mc, 6 * sizeof *ma) != 0;
        ttt_board board;
        assert_int_equal(ttt_moves_replay(&r, ma, na, &board, &err), TTT_OK);
        assert_false(ttt_board_terminal(&board));
    }
    assert_true(differ > 40);
    ttt_arena_book_free(a);
    ttt_arena_book_free(b);
    ttt_arena_book_free(c);
    assert_int_equal(ttt_arena_book_random(&r, 7, 5, 0, false, &a, &err), TTT_EINVAL);
    assert_int_equal(ttt_arena_book_random(&r, 7, 5, 25, false, &a, &err), TTT_EINVAL);
    assert_int_equal(ttt_arena_book_random(&r, 7, 0, 2, false, &a, &err), TTT_EINVAL);
}

/* How many of the book's openings the exact solver values a draw. */
static uint64_t drawn(const ttt_rules *r, const ttt_arena_book *book)
{
    ttt_solver *s;
    ttt_error err;
    assert_int_equal(ttt_solver_new(r, 4, &s, &err), TTT_OK);
    uint64_t draws = 0;
    for (uint64_t i = 0; i < ttt_arena_book_size(book); i++) {
        int n;
        const ttt_move *m = ttt_arena_book_opening(book, i, &n);
        ttt_board b;
        ttt_result v;
        assert_int_equal(ttt_moves_replay(r, m, n, &b, &err), TTT_OK);
        assert_int_equal(ttt_solver_value(s, &b, &v, NULL, NULL, &err), TTT_OK);
        draws += v == TTT_DRAW_VALUE;
    }
    ttt_solver_free(s);
    return draws;
}

/* Balanced random openings are all draws, where plain ones of 3x3 with 2 plies often are not (O on an edge
 * next to X's centre loses); a board too large for the solver is refused. */
static void test_balanced(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_arena_book *plain, *balanced;
    ttt_error err;
    assert_int_equal(ttt_arena_book_random(&r, 3, 100, 2, false, &plain, &err), TTT_OK);
    assert_int_equal(ttt_arena_book_random(&r, 3, 100, 2, true, &balanced, &err), TTT_OK);
    assert_true(drawn(&r, plain) < 90);
    assert_int_equal(drawn(&r, balanced), 100);
    ttt_arena_book_free(plain);
    ttt_arena_book_free(balanced);
    ttt_rules big = rules_of("9x9k5");
    assert_int_equal(ttt_arena_book_random(&big, 3, 10, 2, true, &balanced, &err), TTT_EINVAL);
    assert_non_null(strstr(err.msg, "--balanced"));
    assert_non_null(strstr(err.msg, "9x9k5"));
}

/* Games 2i and 2i+1 start from the same opening with the colours swapped, and the opening is the start of the
 * moves each game reports. */
static void test_both_colours(void **state)
{
    (void)state;
    ttt_rules r = rules_of("5x5k4");
    ttt_arena_book *book;
    ttt_error err;
    assert_int_equal(ttt_arena_book_random(&r, 11, 3, 4, false, &book, &err), TTT_OK);
    const char *specs[] = {"random", "heuristic"};
    ttt_arena_options opt = {.specs = specs, .nspecs = 2, .games = 8, .jobs = 1, .seed = 5, .book = book};
    ttt_arena_game *g = malloc(sizeof *g);
    assert_non_null(g);
    for (uint64_t n = 0; n < opt.games; n++) {
        int pair, count;
        bool a_is_x;
        assert_int_equal(ttt_arena_play_nth(&r, &opt, n, &pair, &a_is_x, g, &err), TTT_OK);
        assert_int_equal(pair, 0);
        assert_int_equal(a_is_x, n % 2 == 0);
        const ttt_move *opening = ttt_arena_book_opening(book, n / 2 % 3, &count);
        assert_int_equal(count, 4);
        assert_true(g->count > count);
        assert_memory_equal(g->moves, opening, (size_t)count * sizeof *opening);
    }
    free(g);
    ttt_arena_book_free(book);
}

/* Perfect players draw 3x3 from the empty board, but from 'b2 b1' (lost for O) each wins its game as X: the
 * pair's record is one win as X and one loss as O, the same at any number of threads. */
static void test_openings_decide(void **state)
{
    (void)state;
    ttt_rules r = rules_of("3x3");
    ttt_arena_book *book = parsed(&r, "b2 b1\n", false);
    const char *specs[] = {"minimax", "minimax"};
    for (int jobs = 1; jobs <= 2; jobs++) {
        ttt_arena_options opt = {.specs = specs, .nspecs = 2, .games = 10, .jobs = jobs, .book = book};
        ttt_arena_pair p;
        ttt_error err;
        assert_int_equal(ttt_arena_run(&r, &opt, &p, &err), TTT_OK);
        assert_int_equal(p.a_as_x.wins, 5);
        assert_int_equal(p.a_as_o.losses, 5);
        assert_int_equal(p.total.draws, 0);
        opt.book = NULL;
        assert_int_equal(ttt_arena_run(&r, &opt, &p, &err), TTT_OK);
        assert_int_equal(p.total.draws, 10);
    }
    ttt_arena_book_free(book);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_random),       cmocka_unit_test(test_balanced),
        cmocka_unit_test(test_both_colours), cmocka_unit_test(test_openings_decide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
