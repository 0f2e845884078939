/* Link and Collection bodies against the reference vectors. */
#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/link.h>
#include <ccnx/name.h>

#include <string.h>

static void expect_name(const struct ccnx_link *l, const char *const *comps, size_t n)
{
    struct ccnx_name want;
    assert_int_equal(ccnx_name_init(&want), 0);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ccnx_name_append(&want, comps[i], strlen(comps[i])), 0);
    }
    assert_int_equal(l->name_len, want.enc.len);
    assert_memory_equal(l->name, want.enc.data, want.enc.len);
    ccnx_name_free(&want);
}

static void test_link_body_vector(void **state)
{
    (void)state;
    struct ccnx_buf v = CCNX_BUF_INIT, out = CCNX_BUF_INIT, user = CCNX_BUF_INIT;
    tu_read_vector("link_body.ccnb", &v);
    struct ccnx_link l;
    assert_int_equal(ccnx_link_parse(v.data, v.len, &l), 0);
    const char *comps[] = {"example", "vec", "data", "hello"};
    expect_name(&l, comps, 4);
    assert_int_equal(l.label_len, 10);
    assert_memory_equal(l.label, "alias-open", 10);
    assert_true(l.has_authenticator);
    assert_int_equal(l.auth.publisher_dtag, CCNX_DTAG_PublisherPublicKeyDigest);
    tu_hex("5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc", &user);
    assert_int_equal(l.auth.publisher_len, 32);
    assert_memory_equal(l.auth.publisher, user.data, 32);
    assert_int_equal(l.auth.name_component_count, -1);
    assert_null(l.auth.timestamp);
    assert_false(l.auth.has_type);
    assert_null(l.auth.content_digest);
    assert_int_equal(ccnx_link_build(&out, &l), 0);
    assert_int_equal(out.len, v.len);
    assert_memory_equal(out.data, v.data, v.len);

    /* The same Link is the Content of co_link. */
    struct ccnx_buf co = CCNX_BUF_INIT;
    tu_read_vector("co_link.ccnb", &co);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(co.data, co.len, &pc), 0);
    assert_int_equal(pc.type, CCNX_TYPE_LINK);
    assert_int_equal(pc.content_value.len, v.len);
    assert_memory_equal(co.data + pc.content_value.off, v.data, v.len);
    ccnx_buf_free(&co);
    ccnx_buf_free(&user);
    ccnx_buf_free(&out);
    ccnx_buf_free(&v);
}

static void test_name_enumeration_collection(void **state)
{
    (void)state;
    struct ccnx_buf co = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    tu_read_vector("co_name_enumeration_reply.ccnb", &co);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(co.data, co.len, &pc), 0);
    const uint8_t *body = co.data + pc.content_value.off;
    size_t len = pc.content_value.len;
    struct ccnx_collection_iter it;
    assert_int_equal(ccnx_collection_iter_init(&it, body, len), 0);
    struct ccnx_link links[4];
    size_t n = 0;
    int res;
    while ((res = ccnx_collection_iter_next(&it, &links[n])) == 1) {
        assert_true(++n < 4);
    }
    assert_int_equal(res, 0);
    assert_int_equal(ccnx_collection_iter_next(&it, &links[n]), 0);
    assert_int_equal(n, 2);
    const char *doc1[] = {"doc1"}, *doc2[] = {"doc2"};
    expect_name(&links[0], doc1, 1);
    expect_name(&links[1], doc2, 1);
    assert_null(links[0].label);
    assert_false(links[0].has_authenticator);
    assert_int_equal(ccnx_collection_build(&out, links, n), 0);
    assert_int_equal(out.len, len);
    assert_memory_equal(out.data, body, len);
    ccnx_buf_free(&out);
    ccnx_buf_free(&co);
}

static void test_full_authenticator_round_trip(void **state)
{
    (void)state;
    struct ccnx_name name;
    assert_int_equal(ccnx_name_init(&name), 0);
    assert_int_equal(ccnx_name_append(&name, "a", 1), 0);
    uint8_t digest[32], cdigest[32];
    for (int i = 0; i < 32; i++) {
        digest[i] = (uint8_t)i;
        cdigest[i] = (uint8_t)(0xF0 ^ i);
    }
    struct ccnx_link l;
    ccnx_link_init(&l);
    l.name = name.enc.data;
    l.name_len = name.enc.len;
    l.label = "";
    l.has_authenticator = 1;
    l.auth.publisher_dtag = CCNX_DTAG_PublisherIssuerKeyDigest;
    l.auth.publisher = digest;
    l.auth.publisher_len = 32;
    l.auth.name_component_count = 3;
    l.auth.timestamp = (const uint8_t *)"\x06\xB1\x12\x1D\x92\x7A";
    l.auth.timestamp_len = 6;
    l.auth.has_type = 1;
    l.auth.type = CCNX_TYPE_KEY;
    l.auth.content_digest = cdigest;
    l.auth.content_digest_len = 32;
    struct ccnx_buf a = CCNX_BUF_INIT, b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_link_build(&a, &l), 0);
    struct ccnx_link back;
    assert_int_equal(ccnx_link_parse(a.data, a.len, &back), 0);
    assert_non_null(back.label);
    assert_int_equal(back.label_len, 0);
    assert_int_equal(back.auth.publisher_dtag, CCNX_DTAG_PublisherIssuerKeyDigest);
    assert_memory_equal(back.auth.publisher, digest, 32);
    assert_int_equal(back.auth.name_component_count, 3);
    assert_int_equal(back.auth.timestamp_len, 6);
    assert_memory_equal(back.auth.timestamp, l.auth.timestamp, 6);
    assert_true(back.auth.has_type);
    assert_int_equal(back.auth.type, CCNX_TYPE_KEY);
    assert_memory_equal(back.auth.content_digest, cdigest, 32);
    assert_int_equal(ccnx_link_build(&b, &back), 0);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);

    /* Every truncation of a valid Link is refused without crashing. */
    for (size_t n = 0; n < a.len; n++) {
        assert_true(ccnx_link_parse(a.data, n, &back) < 0);
    }
    ccnx_buf_free(&a);
    ccnx_buf_free(&b);
    ccnx_name_free(&name);
}

static void test_errors(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT, enc = CCNX_BUF_INIT;
    struct ccnx_link l;
    ccnx_link_init(&l);
    assert_int_equal(ccnx_link_build(&out, &l), CCNX_E_INVAL); /* no name */
    struct ccnx_name name;
    assert_int_equal(ccnx_name_init(&name), 0);
    l.name = name.enc.data;
    l.name_len = name.enc.len;
    l.has_authenticator = 1;
    l.auth.publisher = (const uint8_t *)"d";
    l.auth.publisher_len = 1;
    l.auth.publisher_dtag = CCNX_DTAG_Name; /* not a publisher id */
    assert_int_equal(ccnx_link_build(&out, &l), CCNX_E_INVAL);
    assert_int_equal(out.len, 0);

    /* <Link><Name/><LinkAuthenticator><Type>2 bytes</Type></...> */
    tu_hex("01fa f200 0282 02c2 9514 9400 0000", &enc);
    assert_int_equal(ccnx_link_parse(enc.data, enc.len, &l), CCNX_E_VALUE);
    /* <Link> without a Name. */
    tu_hex("01fa 00", &enc);
    assert_int_equal(ccnx_link_parse(enc.data, enc.len, &l), CCNX_E_STRUCTURE);
    /* A Collection holding something else than Links. */
    tu_hex("018a f200 00", &enc);
    struct ccnx_collection_iter it;
    assert_int_equal(ccnx_collection_iter_init(&it, enc.data, enc.len), 0);
    assert_true(ccnx_collection_iter_next(&it, &l) < 0);
    assert_true(ccnx_collection_iter_next(&it, &l) < 0);
    /* Not a Collection at all. */
    assert_true(ccnx_collection_iter_init(&it, enc.data + 2, 2) < 0);
    assert_true(ccnx_collection_iter_next(&it, &l) < 0);
    /* An empty Collection. */
    ccnx_buf_reset(&out);
    assert_int_equal(ccnx_collection_build(&out, NULL, 0), 0);
    assert_int_equal(out.len, 3);
    assert_memory_equal(out.data, "\x01\x8a\x00", 3);
    assert_int_equal(ccnx_collection_iter_init(&it, out.data, out.len), 0);
    assert_int_equal(ccnx_collection_iter_next(&it, &l), 0);
    ccnx_name_free(&name);
    ccnx_buf_free(&enc);
    ccnx_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_body_vector),
        cmocka_unit_test(test_name_enumeration_collection),
        cmocka_unit_test(test_full_authenticator_round_trip),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
