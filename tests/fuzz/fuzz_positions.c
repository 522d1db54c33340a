/*
 * fuzz_positions - ttt_position_parse / ttt_position_format (ttt/notation.h), and what the board says of a
 * valid position (ttt/board.h, ttt/symmetry.h).
 *
 * Input: "RULES\nPOSITION" (the position parsed for those rules when they parse), or a position alone (its
 * shape taken from the text). Invariants: a parsed position is valid, formats to the lower-case input (the
 * documented round trip) and parses back to an equal board with the same hash; its canonical form is valid
 * with the same stones; every legal move played and taken back restores the board; a finished position has no
 * moves; a failed parse says why.
 */
#include <ctype.h>

#include "fuzz.h"

static void check_board(const ttt_board *b, const char *text)
{
    ttt_error err;
    FUZZ_CHECK(ttt_board_validate(b, &err) == TTT_OK);
    FUZZ_CHECK(b->ply == ttt_bits_count(&b->stones[TTT_X]) + ttt_bits_count(&b->stones[TTT_O]));
    FUZZ_CHECK(b->hash == ttt_board_hash_full(b));

    /* The documented round trip: format(parse(s)) == lower(s). */
    char out[TTT_POSITION_TEXT_SIZE];
    ttt_position_format(b, out, sizeof out);
    FUZZ_CHECK(strlen(out) == strlen(text));
    for (size_t i = 0; text[i]; i++)
        FUZZ_CHECK(out[i] == tolower((unsigned char)text[i]));
    ttt_board back;
    FUZZ_CHECK(ttt_position_parse(out, &b->rules, &back, &err) == TTT_OK);
    FUZZ_CHECK(ttt_board_equal(b, &back) && back.hash == b->hash && back.ply == b->ply);

    /* The canonical form: valid, what the returned symmetry makes of b, and the same from every image. */
    ttt_board canon, image;
    ttt_sym s = ttt_board_canonical(b, &canon);
    FUZZ_CHECK(ttt_board_validate(&canon, &err) == TTT_OK);
    FUZZ_CHECK(canon.ply == b->ply && ttt_board_outcome(&canon) == ttt_board_outcome(b));
    ttt_sym_board(b, s, &image);
    FUZZ_CHECK(ttt_board_equal(&image, &canon) && image.hash == canon.hash);
    FUZZ_CHECK(ttt_board_canonical_hash(b) == canon.hash);
    for (ttt_sym t = 0; t < ttt_sym_count(&b->rules); t++) {
        ttt_board other, other_canon;
        ttt_sym_board(b, t, &other);
        FUZZ_CHECK(ttt_board_validate(&other, &err) == TTT_OK);
        ttt_board_canonical(&other, &other_canon);
        FUZZ_CHECK(ttt_board_equal(&other_canon, &canon));
    }

    ttt_move moves[TTT_MAX_CELLS];
    int n = ttt_board_moves(b, moves);
    if (ttt_board_terminal(b)) {
        FUZZ_CHECK(n == 0);
        return;
    }
    FUZZ_CHECK(n == b->cells - b->ply);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(ttt_board_is_legal(b, moves[i]));
        ttt_board next = *b;
        ttt_board_play(&next, moves[i]);
        FUZZ_CHECK(next.ply == b->ply + 1 && next.hash == ttt_board_hash_full(&next));
        FUZZ_CHECK(ttt_board_validate(&next, &err) == TTT_OK);
        ttt_board_undo(&next, moves[i]);
        FUZZ_CHECK(ttt_board_equal(&next, b) && next.hash == b->hash);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_strndup(data, size);
    char *position = fuzz_split(text);
    ttt_rules rules;
    const ttt_rules *shape = NULL;
    if (position && ttt_rules_parse(text, &rules, NULL) == TTT_OK)
        shape = &rules;
    if (!position)
        position = text;
    ttt_board b;
    ttt_error err = {{0}};
    if (ttt_position_parse(position, shape, &b, &err) == TTT_OK) {
        if (shape)
            FUZZ_CHECK(ttt_rules_equal(&b.rules, shape));
        check_board(&b, position);
    } else {
        fuzz_check_message(&err);
    }
    free(text);
    return 0;
}
