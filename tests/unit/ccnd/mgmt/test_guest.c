/* Guest prefixes: a request /%C1.M.S.neighborhood/guest/<id> registers
 * <stem>/<id> on the asking face and is answered with a signed one-segment
 * object naming that prefix; other names are left alone. */
#include "testutil.h"

#include "mgmt/guest.h"
#include "table/fib.h"

#include <ccnx/content.h>
#include <ccnx/name.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <string.h>

static int ask(struct fib *fib, const struct ccnx_key *key, const char *uri, struct ccnx_buf *out)
{
    struct ccnx_name stem, n;
    ccnx_name_init(&stem);
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&stem, "ccnx:/guests"), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    struct ccnx_buf ib = CCNX_BUF_INIT;
    assert_int_equal(ccnx_interest_build(&ib, &p), 0);
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(ib.data, ib.len, &pi), 0);
    int res = guest_handle(fib, key, stem.enc.data, stem.enc.len, 7, ib.data, &pi, out);
    ccnx_buf_free(&ib);
    ccnx_name_free(&stem);
    ccnx_name_free(&n);
    return res;
}

static void test_guest(void **state)
{
    (void)state;
    struct fib *fib = fib_create();
    struct ccnx_key *key;
    assert_int_equal(ccnx_key_generate(1024, &key), 0);
    struct ccnx_buf out = CCNX_BUF_INIT;
    assert_int_equal(ask(fib, key, "ccnx:/%C1.M.S.neighborhood/guest", &out), 0);
    assert_int_equal(ask(fib, key, "ccnx:/%C1.M.S.neighborhood/guest/a/b", &out), 0);
    assert_int_equal(ask(fib, key, "ccnx:/%C1.M.S.neighborhood/visitor/a", &out), 0);
    assert_int_equal(out.len, 0);
    assert_int_equal(fib_prefix_count(fib), 0);
    assert_int_equal(ask(fib, key, "ccnx:/%C1.M.S.neighborhood/guest/peer%00", &out), 1);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(out.data, out.len, &pc), 0);
    assert_int_equal(ccnx_content_verify(out.data, out.len, &pc, key), 0);
    assert_int_equal(pc.name_count, 5);
    assert_int_equal(pc.freshness, GUEST_FRESHNESS);
    static const char want[] = "ccnx:/guests/peer%00";
    assert_int_equal(pc.content_value.len, sizeof want - 1);
    assert_memory_equal(out.data + pc.content_value.off, want, sizeof want - 1);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/guests/peer%00/x"), 0);
    struct fib_result fr;
    assert_int_equal(fib_lookup(fib, n.enc.data, n.enc.len, 1, &fr), 0);
    assert_int_equal(fr.nfaces, 1);
    assert_int_equal(fr.faces[0], 7);
    ccnx_name_free(&n);
    ccnx_buf_free(&out);
    ccnx_key_destroy(key);
    fib_destroy(fib);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
