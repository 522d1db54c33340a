/*
 * fuzz_moves - ttt_move_parse / ttt_move_format, ttt_moves_parse / ttt_moves_format and ttt_moves_replay
 * (ttt/notation.h), and the canonical form of a move sequence (ttt/symmetry.h).
 *
 * Input: "RULES\nMOVES" (3x3 when the rules do not parse), or moves alone on 3x3. Invariants: a parsed move
 * is a cell of the board, legal on the empty board, whose text parses back to it; a parsed sequence has at
 * most `max` moves, formats to text that parses back to the same moves; a replay that succeeds plays exactly
 * those moves legally, one that fails stops at the first illegal one; the canonical form of a sequence is
 * its image under the returned symmetry and its own canonical form.
 */
#include "fuzz.h"

static void check_move_text(const ttt_rules *rules, ttt_move m)
{
    char text[TTT_MOVE_TEXT_SIZE];
    ttt_move_format(rules, m, text, sizeof text);
    FUZZ_CHECK(strlen(text) + 1 < sizeof text);
    ttt_move back;
    ttt_error err;
    FUZZ_CHECK(ttt_move_parse(text, rules, &back, &err) == TTT_OK && back == m);
}

/* The move parser on the whole text. */
static void check_one_move(const ttt_rules *rules, const char *text)
{
    ttt_move m = TTT_NO_MOVE;
    ttt_error err = {{0}};
    if (ttt_move_parse(text, rules, &m, &err) != TTT_OK) {
        fuzz_check_message(&err);
        return;
    }
    FUZZ_CHECK(m >= 0 && m < ttt_rules_cells(rules));
    ttt_board empty;
    ttt_board_init(&empty, rules);
    FUZZ_CHECK(ttt_board_is_legal(&empty, m));
    check_move_text(rules, m);
}

/* The replay agrees with playing the moves one by one. */
static void check_replay(const ttt_rules *rules, const ttt_move *moves, int count)
{
    ttt_board replayed, played;
    ttt_error err = {{0}};
    ttt_status st = ttt_moves_replay(rules, moves, count, &replayed, &err);
    ttt_board_init(&played, rules);
    int i = 0;
    for (; i < count; i++) {
        ttt_error step;
        if (ttt_board_play_checked(&played, moves[i], &step) != TTT_OK)
            break;
    }
    FUZZ_CHECK((st == TTT_OK) == (i == count));
    if (st != TTT_OK)
        fuzz_check_message(&err);
    FUZZ_CHECK(ttt_board_equal(&replayed, &played) && replayed.hash == played.hash && replayed.ply == i);
    FUZZ_CHECK(ttt_board_validate(&replayed, &err) == TTT_OK);
}

static void check_canonical(const ttt_rules *rules, const ttt_move *moves, int count)
{
    ttt_move canon[TTT_MAX_CELLS], image[TTT_MAX_CELLS], again[TTT_MAX_CELLS];
    ttt_sym s = ttt_sym_sequence_canonical(rules, moves, count, canon);
    FUZZ_CHECK(s >= 0 && s < ttt_sym_count(rules));
    ttt_sym_moves(rules, s, moves, count, image);
    FUZZ_CHECK(count == 0 || memcmp(image, canon, (size_t)count * sizeof *canon) == 0);
    ttt_sym_sequence_canonical(rules, canon, count, again);
    FUZZ_CHECK(count == 0 || memcmp(again, canon, (size_t)count * sizeof *canon) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ttt_rules rules;
    char *moves_text;
    char *text = fuzz_rules_and_text(data, size, &rules, &moves_text);
    check_one_move(&rules, moves_text);

    /* A short limit from the input's length, to reach the "too many moves" error too. */
    int max = size % 3 == 0 ? (int)(size % 7) : TTT_MAX_CELLS;
    ttt_move moves[TTT_MAX_CELLS];
    int count = -1;
    ttt_error err = {{0}};
    if (ttt_moves_parse(moves_text, &rules, moves, max, &count, &err) == TTT_OK) {
        FUZZ_CHECK(count >= 0 && count <= max);
        for (int i = 0; i < count; i++) {
            FUZZ_CHECK(moves[i] >= 0 && moves[i] < ttt_rules_cells(&rules));
            check_move_text(&rules, moves[i]);
        }
        char *formatted = malloc(TTT_MOVES_TEXT_SIZE);
        FUZZ_CHECK(formatted != NULL);
        ttt_moves_format(&rules, moves, count, formatted, TTT_MOVES_TEXT_SIZE);
        ttt_move back[TTT_MAX_CELLS];
        int back_count = -1;
        FUZZ_CHECK(ttt_moves_parse(formatted, &rules, back, TTT_MAX_CELLS, &back_count, &err) == TTT_OK);
        FUZZ_CHECK(back_count == count);
        FUZZ_CHECK(count == 0 || memcmp(back, moves, (size_t)count * sizeof *moves) == 0);
        free(formatted);
        check_replay(&rules, moves, count);
        check_canonical(&rules, moves, count);
    } else {
        fuzz_check_message(&err);
    }
    free(text);
    return 0;
}
