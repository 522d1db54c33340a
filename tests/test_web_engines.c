/* Unit tests for web/engines.h: the move tables' cache (bounded by bytes, least recently used first, a share
 * per client, tables held by engines never freed under them), the engine-time budget per client and the
 * refusal when every engine slot is busy. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ttt/ttt.h"
#include "web/engines.h"

#define MIB             (UINT64_C(1) << 20)
#define BIG_TABLE_BYTES (16 * MIB) /* 5x5's default table: 206,700 entries in 2^19 slots */
#define SHORT_WAIT_MS   50         /* a slot wait that ends the test soon */
#define TEST_BUDGET_MS  1000
#define A               "192.0.2.1"
#define B               "198.51.100.7"

/* Rules sets whose default table is about BIG_TABLE_BYTES (more than the share of the cache below). */
static const char *const big_rules[] = {"5x5", "5x5-misere", "3x8k8", "3x8k8-misere", "3x8k7", "8x3k8"};
#define BIG_RULES (int)(sizeof big_rules / sizeof big_rules[0])

static web_engines *engines_new(uint64_t table_bytes, int shares, int budget_ms)
{
    web_engines *w = web_engines_new(NULL);
    assert_non_null(w);
    web_engines_limits limits = web_engines_default_limits();
    limits.table_bytes = table_bytes;
    limits.table_shares = shares;
    limits.budget_ms = budget_ms;
    limits.slot_wait_ms = SHORT_WAIT_MS;
    web_engines_limit(w, &limits);
    return w;
}

static ttt_rules rules_of(const char *text)
{
    ttt_rules r;
    assert_int_equal(ttt_rules_parse(text, &r, NULL), TTT_OK);
    return r;
}

/* The table engine made for client in a slot, as the API makes it (the slot given back): the engine holds
 * its table until dropped. NULL when the slot was refused; *slot then says why. */
static ttt_engine *table_engine(web_engines *w, const char *client, const char *rules_text, web_slot *slot)
{
    ttt_rules r = rules_of(rules_text);
    char bounded[TTT_SPEC_TEXT_SIZE];
    ttt_error err;
    assert_int_equal(
        web_engines_bound(w, "table", &r, WEB_MAX_ENGINE_MS, false, bounded, sizeof bounded, &err), TTT_OK);
    if (!web_engines_acquire(w, client, bounded, &r, slot))
        return NULL;
    ttt_engine *e = NULL;
    assert_int_equal(web_engines_make(w, bounded, &r, &e, &err), TTT_OK);
    web_engines_release(w, slot);
    return e;
}

/* A move from e on the empty board of its rules: the engine reads its table. */
static void engine_plays(ttt_engine *e)
{
    ttt_board b;
    ttt_board_init(&b, ttt_engine_rules(e));
    ttt_move m;
    ttt_error err;
    assert_int_equal(ttt_engine_choose(e, &b, &m, NULL, &err), TTT_OK);
    assert_int_equal(ttt_board_at(&b, m), TTT_NOBODY);
}

/* One client building table after table keeps the cache under its bytes and itself under its share (one
 * table at a time here), evicting its own tables and not another client's. */
static void test_flood_stays_in_its_share(void **state)
{
    (void)state;
    web_engines *w = engines_new(2 * BIG_TABLE_BYTES + 8 * MIB, 2, 0); /* share: one big table and 4 MiB */
    web_slot slot;
    web_engines_drop(w, table_engine(w, B, "3x3", &slot));
    web_tables_stats st;
    web_engines_tables(w, B, &st);
    assert_int_equal(st.count, 1);
    uint64_t b_bytes = st.client_bytes;
    assert_true(b_bytes > 0 && b_bytes < MIB);
    for (int i = 0; i < BIG_RULES; i++) {
        ttt_engine *e = table_engine(w, A, big_rules[i], &slot);
        assert_non_null(e);
        engine_plays(e);
        web_engines_drop(w, e);
        web_engines_tables(w, A, &st);
        assert_true(st.bytes <= 2 * BIG_TABLE_BYTES + 8 * MIB);
        assert_true(st.client_bytes <= BIG_TABLE_BYTES + 4 * MIB);
        assert_int_equal(st.in_use, 0);
    }
    assert_int_equal(st.built, 1 + BIG_RULES);
    assert_int_equal(st.evicted, BIG_RULES - 1); /* A's own, one after the other */
    web_engines_tables(w, B, &st);
    assert_int_equal(st.client_bytes, b_bytes); /* B's table is still there */
    web_engines_free(w);
}

/* A table an engine holds is never freed: its client is refused (429) past its share, the server (503) when
 * held tables fill it all, and the engine goes on playing from its table. A table larger than the whole cache
 * is refused for good (422). */
static void test_held_tables_are_never_freed(void **state)
{
    (void)state;
    web_engines *w = engines_new(3 * BIG_TABLE_BYTES + MIB, 2, 0); /* share: one and a half big tables */
    web_slot slot;
    ttt_engine *held = table_engine(w, A, "5x5", &slot);
    assert_non_null(held);
    assert_null(table_engine(w, A, "5x5-misere", &slot));
    assert_int_equal(slot.status, WEB_REFUSED_CLIENT);
    assert_int_equal(slot.retry_s, WEB_TABLES_RETRY_S);
    assert_non_null(strstr(slot.why, "share"));
    engine_plays(held);
    ttt_engine *b1 = table_engine(w, B, "3x8k8", &slot);
    assert_non_null(b1);
    ttt_engine *c = table_engine(w, "203.0.113.9", "3x8k8-misere", &slot);
    assert_non_null(c);
    assert_null(table_engine(w, "203.0.113.10", "3x8k7", &slot)); /* 48 of 49 MiB held */
    assert_int_equal(slot.status, WEB_REFUSED_BUSY);
    assert_true(slot.retry_s >= 1);
    web_tables_stats st;
    web_engines_tables(w, A, &st);
    assert_int_equal(st.in_use, 3);
    assert_int_equal(st.evicted, 0);
    /* The same table again is no new memory: it is shared. */
    ttt_engine *again = table_engine(w, B, "5x5", &slot);
    assert_non_null(again);
    engine_plays(again);
    web_engines_drop(w, again);
    web_engines_drop(w, b1);
    web_engines_drop(w, c);
    engine_plays(held);
    ttt_engine *d = table_engine(w, "203.0.113.10", "3x8k7", &slot); /* room: B's or C's, not A's held one */
    assert_non_null(d);
    engine_plays(held);
    web_engines_tables(w, A, &st);
    assert_int_equal(st.evicted, 1);
    assert_true(st.client_bytes >= BIG_TABLE_BYTES && st.client_bytes < BIG_TABLE_BYTES + MIB);
    web_engines_drop(w, d);
    web_engines_drop(w, held);
    web_engines_free(w);

    w = engines_new(BIG_TABLE_BYTES / 2, 1, 0);
    assert_null(table_engine(w, A, "5x5", &slot));
    assert_int_equal(slot.status, WEB_REFUSED_NEVER);
    assert_int_equal(slot.retry_s, 0);
    assert_non_null(strstr(slot.why, "more than the server keeps"));
    web_engines_free(w);
}

/* A client that spent its engine time in the window is refused (429) with when to retry; another client is
 * not; without a budget nothing is counted. */
static void test_budget_counts_engine_time_per_client(void **state)
{
    (void)state;
    web_engines *w = engines_new((uint64_t)WEB_TABLE_MIB_DEFAULT * MIB, WEB_TABLE_SHARES, TEST_BUDGET_MS);
    ttt_rules r = rules_of("3x3");
    web_slot slot;
    web_engines_charge(w, A, TEST_BUDGET_MS - 1);
    assert_true(web_engines_acquire(w, A, NULL, &r, &slot)); /* not spent yet */
    web_engines_release(w, &slot);
    web_engines_charge(w, A, 1);
    assert_true(web_engines_spent_ms(w, A) >= TEST_BUDGET_MS);
    assert_false(web_engines_acquire(w, A, NULL, &r, &slot));
    assert_int_equal(slot.status, WEB_REFUSED_CLIENT);
    assert_true(slot.retry_s >= 1 && slot.retry_s <= WEB_BUDGET_WINDOW_S);
    char retry[32];
    snprintf(retry, sizeof retry, "retry in %d s", slot.retry_s);
    assert_non_null(strstr(slot.why, retry));
    assert_non_null(strstr(slot.why, "engine time used up"));
    assert_true(web_engines_acquire(w, B, NULL, &r, &slot));
    web_engines_release(w, &slot);
    assert_true(web_engines_spent_ms(w, B) < TEST_BUDGET_MS);
    web_engines_free(w);

    w = engines_new((uint64_t)WEB_TABLE_MIB_DEFAULT * MIB, WEB_TABLE_SHARES, 0);
    web_engines_charge(w, A, 10 * TEST_BUDGET_MS);
    assert_true(web_engines_spent_ms(w, A) == 0);
    assert_true(web_engines_acquire(w, A, NULL, &r, &slot));
    web_engines_release(w, &slot);
    web_engines_free(w);
}

/* With every slot taken, a request waits its time and is refused (503) with when to retry. */
static void test_busy_slots_say_when_to_retry(void **state)
{
    (void)state;
    web_engines *w = engines_new((uint64_t)WEB_TABLE_MIB_DEFAULT * MIB, WEB_TABLE_SHARES, 0);
    ttt_rules r = rules_of("3x3");
    web_slot held[WEB_MAX_ENGINE_JOBS], slot;
    for (int i = 0; i < WEB_MAX_ENGINE_JOBS; i++)
        assert_true(web_engines_acquire(w, A, NULL, &r, &held[i]));
    assert_false(web_engines_acquire(w, B, NULL, &r, &slot));
    assert_int_equal(slot.status, WEB_REFUSED_BUSY);
    assert_int_equal(slot.retry_s, WEB_BUSY_RETRY_S);
    assert_non_null(strstr(slot.why, "every engine is busy"));
    web_engines_release(w, &held[0]);
    assert_true(web_engines_acquire(w, B, NULL, &r, &slot));
    web_engines_release(w, &slot);
    for (int i = 1; i < WEB_MAX_ENGINE_JOBS; i++)
        web_engines_release(w, &held[i]);
    web_engines_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flood_stays_in_its_share),
        cmocka_unit_test(test_held_tables_are_never_freed),
        cmocka_unit_test(test_budget_counts_engine_time_per_client),
        cmocka_unit_test(test_busy_slots_say_when_to_retry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
