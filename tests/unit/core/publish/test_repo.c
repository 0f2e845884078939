/* The repository write protocol without a network: RepositoryInfo bodies
 * in the reference repository's form, the schema's form and ours, and the
 * start-write Interest checked against the reference's vector. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/repo.h>
#include <ccnx/uri.h>

#include <string.h>

static void assert_text(const uint8_t *buf, struct ccnx_span s, const char *text)
{
    assert_int_equal(s.len, strlen(text));
    assert_memory_equal(buf + s.off, text, s.len);
}

static void assert_global_prefix(const uint8_t *buf, const struct ccnx_repo_info *ri,
                                 const char *uri)
{
    struct ccnx_name n, want;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_name_init(&want), 0);
    assert_int_equal(ccnx_repo_info_global_prefix(buf, ri, &n), 0);
    assert_int_equal(ccnx_uri_parse_str(&want, uri), 0);
    assert_int_equal(ccnx_name_compare(&n, &want), 0);
    ccnx_name_free(&n);
    ccnx_name_free(&want);
}

/* What the reference repository writes: GlobalPrefixName empty, its
 * components after it, every field as text. */
static void reference_form(struct ccnx_buf *b, const char *type, const char *info)
{
    ccnx_ccnb_open(b, CCNX_DTAG_RepositoryInfo);
    ccnx_ccnb_append_udata_element(b, CCNX_DTAG_Version, "1.1", 3);
    ccnx_ccnb_append_udata_element(b, CCNX_DTAG_Type, type, strlen(type));
    ccnx_ccnb_append_udata_element(b, CCNX_DTAG_RepositoryVersion, "2.0", 3);
    ccnx_ccnb_open(b, CCNX_DTAG_GlobalPrefixName);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Component, "parc.com", 8);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Component, "Repos", 5);
    ccnx_ccnb_append_udata_element(b, CCNX_DTAG_LocalName, "Repository", 10);
    if (info != NULL) {
        ccnx_ccnb_append_udata_element(b, CCNX_DTAG_InfoString, info, strlen(info));
    }
    ccnx_ccnb_append_closer(b);
    assert_int_equal(ccnx_buf_status(b), 0);
}

static void test_parse_reference_form(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    reference_form(&b, "INFO", NULL);
    struct ccnx_repo_info ri;
    assert_int_equal(ccnx_repo_info_parse(b.data, b.len, &ri), 0);
    assert_int_equal(ri.type, CCNX_REPO_INFO_INFO);
    assert_text(b.data, ri.version, "1.1");
    assert_text(b.data, ri.repo_version, "2.0");
    assert_text(b.data, ri.local_name, "Repository");
    assert_int_equal(ri.global_prefix_count, 2);
    assert_global_prefix(b.data, &ri, "ccnx:/parc.com/Repos");
    assert_int_equal(ri.name_count, 0);
    assert_false(ri.has_info_string);

    ccnx_buf_reset(&b);
    reference_form(&b, "INFO", "OK");
    assert_int_equal(ccnx_repo_info_parse(b.data, b.len, &ri), 0);
    assert_true(ri.has_info_string);
    assert_text(b.data, ri.info_string, "OK");

    ccnx_buf_reset(&b);
    reference_form(&b, "BOGUS", NULL);
    assert_int_equal(ccnx_repo_info_parse(b.data, b.len, &ri), CCNX_E_VALUE);
    ccnx_buf_free(&b);
}

static void test_build_round_trip(void **state)
{
    (void)state;
    struct ccnx_name gp, target;
    assert_int_equal(ccnx_name_init(&gp), 0);
    assert_int_equal(ccnx_name_init(&target), 0);
    assert_int_equal(ccnx_uri_parse_str(&gp, "ccnx:/parc.com/csl/ccn/Repos"), 0);
    assert_int_equal(ccnx_uri_parse_str(&target, "ccnx:/a/b/%00"), 0);

    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_repo_info_build(&b, &gp, NULL, 0, NULL), 0);
    struct ccnx_repo_info ri;
    assert_int_equal(ccnx_repo_info_parse(b.data, b.len, &ri), 0);
    assert_int_equal(ri.type, CCNX_REPO_INFO_INFO);
    assert_int_equal(ri.global_prefix_count, 4);
    assert_global_prefix(b.data, &ri, "ccnx:/parc.com/csl/ccn/Repos");

    ccnx_buf_reset(&b);
    assert_int_equal(ccnx_repo_info_build(&b, &gp, &target, 1, "done"), 0);
    assert_int_equal(ccnx_repo_info_parse(b.data, b.len, &ri), 0);
    assert_int_equal(ri.type, CCNX_REPO_INFO_DATA);
    assert_int_equal(ri.name_count, 1);
    assert_int_equal(ri.names[0].len, target.enc.len);
    assert_memory_equal(b.data + ri.names[0].off, target.enc.data, target.enc.len);
    assert_text(b.data, ri.info_string, "done");

    /* Truncations and trailing bytes are refused, never read past. */
    for (size_t n = 0; n < b.len; n++) {
        assert_int_not_equal(ccnx_repo_info_parse(b.data, n, &ri), 0);
    }
    ccnx_buf_append_byte(&b, 0);
    assert_int_not_equal(ccnx_repo_info_parse(b.data, b.len, &ri), 0);
    ccnx_buf_free(&b);
    ccnx_name_free(&gp);
    ccnx_name_free(&target);
}

static void test_binary_type(void **state)
{
    (void)state;
    static const uint8_t data_type[3] = {0x0C, 0x04, 0xC0};
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_ccnb_open(&b, CCNX_DTAG_RepositoryInfo);
    ccnx_ccnb_append_udata_element(&b, CCNX_DTAG_Version, "1.1", 3);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_Type, data_type, 3);
    ccnx_ccnb_append_udata_element(&b, CCNX_DTAG_RepositoryVersion, "2.0", 3);
    ccnx_ccnb_open(&b, CCNX_DTAG_GlobalPrefixName);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_Component, "x", 1);
    ccnx_ccnb_append_closer(&b);
    ccnx_ccnb_append_udata_element(&b, CCNX_DTAG_LocalName, "Repository", 10);
    ccnx_ccnb_append_closer(&b);
    struct ccnx_repo_info ri;
    assert_int_equal(ccnx_repo_info_parse(b.data, b.len, &ri), 0);
    assert_int_equal(ri.type, CCNX_REPO_INFO_DATA);
    assert_int_equal(ri.global_prefix_count, 1);
    ccnx_buf_free(&b);
}

/* Our start-write Interest has the vector's form: the same name up to the
 * nonce, a nonce component of the same size, Scope 1 and nothing else. */
static void test_start_write_interest_vector(void **state)
{
    (void)state;
    struct ccnx_buf vec = CCNX_BUF_INIT;
    tu_read_vector("int_repo_start_write.ccnb", &vec);
    struct ccnx_interest_parsed vpi;
    assert_int_equal(ccnx_interest_parse(vec.data, vec.len, &vpi), 0);
    struct ccnx_name versioned;
    assert_int_equal(ccnx_name_init(&versioned), 0);
    assert_int_equal(ccnx_name_set_ccnb(&versioned, vec.data + vpi.name.off, vpi.name.len), 0);
    struct ccnx_comp nonce;
    assert_int_equal(ccnx_name_comp(&versioned, versioned.count - 1, &nonce), 0);
    size_t nonce_len = nonce.n;
    assert_int_equal(ccnx_name_truncate(&versioned, versioned.count - 2), 0);

    struct ccnx_repo_write_opts o;
    ccnx_repo_write_opts_init(&o);
    struct ccnx_buf mine = CCNX_BUF_INIT;
    assert_int_equal(ccnx_repo_start_write_interest(&mine, &versioned, &o), 0);
    assert_int_equal(mine.len, vec.len);
    size_t nonce_at = vpi.name.off + vpi.name.len - 2 - nonce_len; /* two closers */
    assert_memory_equal(mine.data, vec.data, nonce_at);
    assert_memory_equal(mine.data + nonce_at + nonce_len, vec.data + nonce_at + nonce_len,
                        vec.len - nonce_at - nonce_len);
    /* The nonce is %C1.N%00 and random bytes: two Interests differ. */
    assert_memory_equal(mine.data + nonce_at, "\xC1.N\x00", 4);
    struct ccnx_buf again = CCNX_BUF_INIT;
    assert_int_equal(ccnx_repo_start_write_interest(&again, &versioned, &o), 0);
    assert_memory_not_equal(again.data + nonce_at, mine.data + nonce_at, nonce_len);

    /* Scope 3 is no Scope; a scope out of range is refused. */
    ccnx_buf_reset(&mine);
    o.scope = 3;
    assert_int_equal(ccnx_repo_start_write_interest(&mine, &versioned, &o), 0);
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(mine.data, mine.len, &pi), 0);
    assert_int_equal(pi.scope, -1);
    o.scope = 0;
    assert_int_equal(ccnx_repo_start_write_interest(&mine, &versioned, &o), CCNX_E_INVAL);
    ccnx_buf_free(&vec);
    ccnx_buf_free(&mine);
    ccnx_buf_free(&again);
    ccnx_name_free(&versioned);
}

static void test_checked_start_write_interest(void **state)
{
    (void)state;
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/a/%FD%01%02%03%04%05"), 0);
    struct ccnx_repo_write_opts o;
    ccnx_repo_write_opts_init(&o);
    o.checked = 1;
    o.segment = 0;
    memset(o.digest, 0xAB, sizeof o.digest);
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_repo_start_write_interest(&b, &n, &o), 0);
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(b.data, b.len, &pi), 0);
    assert_int_equal(pi.name_count, 6);
    assert_int_equal(pi.scope, 1);
    struct ccnx_name got;
    assert_int_equal(ccnx_name_init(&got), 0);
    assert_int_equal(ccnx_name_set_ccnb(&got, b.data + pi.name.off, pi.name.len), 0);
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&got, 2, &c), 0);
    assert_true(ccnx_naming_command_is(c.p, c.n, "R.sw-c"));
    assert_int_equal(ccnx_name_comp(&got, 4, &c), 0);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.p[0], 0x00);
    assert_int_equal(ccnx_name_comp(&got, 5, &c), 0);
    assert_int_equal(c.n, 32);
    assert_memory_equal(c.p, o.digest, 32);
    ccnx_buf_free(&b);
    ccnx_name_free(&n);
    ccnx_name_free(&got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_reference_form),
        cmocka_unit_test(test_build_round_trip),
        cmocka_unit_test(test_binary_type),
        cmocka_unit_test(test_start_write_interest_vector),
        cmocka_unit_test(test_checked_start_write_interest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
