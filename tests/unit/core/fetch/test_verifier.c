/* The verifier on its own (no ccnd, no client): an object verifies with
 * the key its KeyLocator carries; a changed byte, a locator key that is not
 * the publisher's, or a publisher not pinned is refused; a key named by
 * KeyName verifies once that key is at hand and is refused (not fetched)
 * otherwise; a Merkle batch costs one RSA operation; a disabled verifier
 * takes anything. */
#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/content_sign.h>
#include <ccnx/error.h>
#include <ccnx/key.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>
#include <ccnx/verifier.h>

#include <stdio.h>
#include <string.h>

static struct ccnx_key *key_a, *key_b;

/* Where the content "payload" is in an encoded object. */
static uint8_t *payload_of(struct ccnx_buf *obj)
{
    for (size_t i = 0; i + 7 <= obj->len; i++) {
        if (memcmp(obj->data + i, "payload", 7) == 0) {
            return obj->data + i;
        }
    }
    fail_msg("no payload in the object");
    return NULL;
}

static int setup(void **state)
{
    (void)state;
    return ccnx_key_generate(0, &key_a) != 0 || ccnx_key_generate(0, &key_b) != 0;
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(key_a);
    ccnx_key_destroy(key_b);
    return 0;
}

/* One object named `uri`, signed with `key`; the locator as p says. */
static void sign(struct ccnx_buf *out, const char *uri, const struct ccnx_key *key,
                 struct ccnx_content_params *p)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    p->name = n.enc.data;
    p->name_len = n.enc.len;
    p->content = (const uint8_t *)"payload";
    p->content_len = 7;
    assert_int_equal(ccnx_content_sign(out, p, key), 0);
    ccnx_name_free(&n);
}

static int check(struct ccnx_verifier *v, const struct ccnx_buf *obj)
{
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj->data, obj->len, &pc), 0);
    struct ccnx_buf err = CCNX_BUF_INIT;
    int rc = ccnx_verifier_check_sync(v, obj->data, obj->len, &pc, &err);
    if (rc != 0) {
        assert_true(err.len > 0); /* every refusal says why */
    }
    ccnx_buf_free(&err);
    return rc;
}

static void test_key_in_the_locator(void **state)
{
    (void)state;
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(NULL, &v), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    struct ccnx_buf obj = CCNX_BUF_INIT;
    sign(&obj, "ccnx:/v/one", key_a, &p);
    assert_int_equal(check(v, &obj), 0);
    assert_int_equal(ccnx_verifier_stats(v)->verified, 1);
    /* one byte of the content changed */
    uint8_t *at = payload_of(&obj);
    assert_non_null(at);
    at[0] ^= 1;
    int rc = check(v, &obj);
    assert_int_not_equal(rc, 0);
    assert_true(ccnx_verify_refused(rc));
    ccnx_buf_free(&obj);
    ccnx_verifier_destroy(v);
}

static void test_locator_key_not_the_publisher(void **state)
{
    (void)state;
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(NULL, &v), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    size_t der_len;
    const uint8_t *der = ccnx_key_der(key_b, &der_len);
    p.key_locator = CCNX_KEYLOC_KEY;
    p.key_locator_value = der; /* signed by A, claims B's key */
    p.key_locator_value_len = der_len;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    sign(&obj, "ccnx:/v/liar", key_a, &p);
    assert_true(ccnx_verify_refused(check(v, &obj)));
    ccnx_buf_free(&obj);
    ccnx_verifier_destroy(v);
}

static void test_pinned_publishers(void **state)
{
    (void)state;
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(NULL, &v), 0);
    assert_int_equal(ccnx_verifier_pin(v, ccnx_key_digest(key_b)), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    struct ccnx_buf obj = CCNX_BUF_INIT;
    sign(&obj, "ccnx:/v/from-a", key_a, &p);
    assert_true(ccnx_verify_refused(check(v, &obj))); /* A is not pinned */
    assert_int_equal(ccnx_verifier_pin(v, ccnx_key_digest(key_a)), 0);
    assert_int_equal(check(v, &obj), 0);
    assert_int_not_equal(ccnx_verifier_pin_hex(v, "not hex"), 0);
    ccnx_buf_free(&obj);
    ccnx_verifier_destroy(v);
}

static void test_key_named_by_keyname(void **state)
{
    (void)state;
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(NULL, &v), 0); /* no client: nothing fetched */
    struct ccnx_name kn;
    ccnx_name_init(&kn);
    assert_int_equal(ccnx_uri_parse_str(&kn, "ccnx:/keys/a"), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.key_locator = CCNX_KEYLOC_KEYNAME;
    p.key_locator_value = kn.enc.data;
    p.key_locator_value_len = kn.enc.len;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    sign(&obj, "ccnx:/v/named", key_a, &p);
    assert_int_not_equal(check(v, &obj), 0);
    assert_int_equal(ccnx_verifier_add_key(v, key_a), 0); /* the key at hand */
    assert_int_equal(check(v, &obj), 0);
    assert_int_equal(ccnx_verifier_stats(v)->keys_fetched, 0);
    ccnx_buf_free(&obj);
    ccnx_name_free(&kn);
    ccnx_verifier_destroy(v);
}

static void test_merkle_batch_costs_one_rsa_operation(void **state)
{
    (void)state;
    enum { N = 8 };
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(NULL, &v), 0);
    struct ccnx_name names[N];
    struct ccnx_content_params p[N];
    char uri[64];
    for (int i = 0; i < N; i++) {
        ccnx_name_init(&names[i]);
        snprintf(uri, sizeof uri, "ccnx:/v/batch/%d", i);
        assert_int_equal(ccnx_uri_parse_str(&names[i], uri), 0);
        ccnx_content_params_init(&p[i]);
        p[i].name = names[i].enc.data;
        p[i].name_len = names[i].enc.len;
        p[i].content = (const uint8_t *)uri;
        p[i].content_len = strlen(uri);
    }
    struct ccnx_buf out = CCNX_BUF_INIT;
    size_t off[N + 1];
    assert_int_equal(ccnx_content_sign_batch(&out, p, N, key_a, off), 0);
    for (int i = 0; i < N; i++) {
        struct ccnx_buf one = CCNX_BUF_INIT;
        ccnx_buf_append(&one, out.data + off[i], off[i + 1] - off[i]);
        assert_int_equal(check(v, &one), 0);
        ccnx_buf_free(&one);
        ccnx_name_free(&names[i]);
    }
    assert_int_equal(ccnx_verifier_stats(v)->verified, N);
    assert_int_equal(ccnx_verifier_stats(v)->rsa_ops, 1);
    ccnx_buf_free(&out);
    ccnx_verifier_destroy(v);
}

static void test_disabled_takes_anything(void **state)
{
    (void)state;
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(NULL, &v), 0);
    ccnx_verifier_set_enabled(v, 0);
    assert_false(ccnx_verifier_enabled(v));
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    struct ccnx_buf obj = CCNX_BUF_INIT;
    sign(&obj, "ccnx:/v/any", key_a, &p);
    uint8_t *at = payload_of(&obj);
    at[0] ^= 1;
    assert_int_equal(check(v, &obj), 0);
    ccnx_buf_free(&obj);
    ccnx_verifier_destroy(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_in_the_locator),
        cmocka_unit_test(test_locator_key_not_the_publisher),
        cmocka_unit_test(test_pinned_publishers),
        cmocka_unit_test(test_key_named_by_keyname),
        cmocka_unit_test(test_merkle_batch_costs_one_rsa_operation),
        cmocka_unit_test(test_disabled_takes_anything),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
