/* Unit tests for ttt_store_import_seen (ttt/store.h): an export applied once is known to the store by its
 * contents, whatever its spacing; other contents and other stores are not. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ttt/ttt.h"

static const char export_text[] =
    "{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"rules\":\"3x3\",\"sequences\":["
    "{\"moves\":\"c3 b3 b2 c2 a1\",\"result\":\"x\",\"count\":2},"
    "{\"moves\":\"a1 b1 a2 b2 a3\",\"result\":\"x\",\"count\":3}]}]}";

/* The same contents, spaced and with the keys in another order. */
static const char export_spaced[] =
    "{ \"version\": 1, \"format\": \"ttt-memory\",\n \"memories\": [ { \"sequences\": [\n"
    "  { \"result\": \"x\", \"moves\": \"c3 b3 b2 c2 a1\", \"count\": 2 },\n"
    "  { \"count\": 3, \"moves\": \"a1 b1 a2 b2 a3\", \"result\": \"x\" } ], \"rules\": \"3x3\" } ] }\n";

/* One count changed. */
static const char export_other[] =
    "{\"format\":\"ttt-memory\",\"version\":1,\"memories\":[{\"rules\":\"3x3\",\"sequences\":["
    "{\"moves\":\"c3 b3 b2 c2 a1\",\"result\":\"x\",\"count\":2},"
    "{\"moves\":\"a1 b1 a2 b2 a3\",\"result\":\"x\",\"count\":4}]}]}";

static ttt_store_import *parse(const char *text)
{
    ttt_store_import *imp = NULL;
    ttt_error err;
    assert_int_equal(ttt_store_import_parse(text, strlen(text), &imp, &err), TTT_OK);
    return imp;
}

static void test_seen_after_apply(void **state)
{
    (void)state;
    ttt_error err;
    ttt_store *s, *other;
    assert_int_equal(ttt_store_open(":memory:", &s, &err), TTT_OK);
    assert_int_equal(ttt_store_open(":memory:", &other, &err), TTT_OK);
    ttt_store_import *imp = parse(export_text), *spaced = parse(export_spaced),
                     *changed = parse(export_other);
    int64_t when = -1;
    assert_int_equal(ttt_store_import_seen(s, imp, &when, &err), TTT_OK);
    assert_int_equal(when, 0);
    /* rolled back: not seen */
    assert_int_equal(ttt_store_begin(s, &err), TTT_OK);
    assert_int_equal(ttt_store_import_apply(s, imp, &err), TTT_OK);
    ttt_store_rollback(s);
    assert_int_equal(ttt_store_import_seen(s, imp, &when, &err), TTT_OK);
    assert_int_equal(when, 0);
    /* applied: seen, by its contents */
    assert_int_equal(ttt_store_import_apply(s, imp, &err), TTT_OK);
    assert_int_equal(ttt_store_import_seen(s, imp, &when, &err), TTT_OK);
    assert_true(when > 0);
    assert_int_equal(ttt_store_import_seen(s, spaced, &when, &err), TTT_OK);
    assert_true(when > 0);
    assert_int_equal(ttt_store_import_seen(s, changed, &when, &err), TTT_OK);
    assert_int_equal(when, 0);
    assert_int_equal(ttt_store_import_seen(other, imp, &when, &err), TTT_OK);
    assert_int_equal(when, 0);
    /* applying the same contents again is allowed: the caller decides (ttt memory import --force) */
    assert_int_equal(ttt_store_import_apply(s, spaced, &err), TTT_OK);
    ttt_store_import_free(imp);
    ttt_store_import_free(spaced);
    ttt_store_import_free(changed);
    ttt_store_close(s);
    ttt_store_close(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seen_after_apply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
