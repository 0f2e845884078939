/* The repository policy: the reference's example (RepoPolicies.txt)
 * encoded from its XML parses and re-encodes byte for byte; the default
 * policy; malformed policies are refused with a reason; coverage of names;
 * the signed object and finding the newest usable version in a store. */
#include "testutil.h"

#include "policy.h"
#include "store.h"
#include "xmlenc.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>
#include <ccnx/key.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char example[] = "<Policy>"
                              "<PolicyVersion>1.5</PolicyVersion>"
                              "<LocalName>Repository</LocalName>"
                              "<GlobalPrefix>ccnx:/parc.com/csl/ccn/Repos/42</GlobalPrefix>"
                              "<Namespace>/some/prefix</Namespace>"
                              "<Namespace>/some/other/prefix</Namespace>"
                              "</Policy>";

static void encode(struct ccnx_buf *out, const char *xml)
{
    ccnx_buf_reset(out);
    assert_int_equal(xmlenc_convert(out, xml, strlen(xml), NULL, NULL), 0);
}

static void name_of(struct ccnx_name *n, const char *uri)
{
    assert_int_equal(ccnx_name_init(n), 0);
    assert_int_equal(ccnx_uri_parse_str(n, uri), 0);
}

static int covers_uri(const struct ccnr_policy *p, const char *uri)
{
    struct ccnx_name n;
    name_of(&n, uri);
    int yes = ccnr_policy_covers(p, n.enc.data, n.enc.len);
    ccnx_name_free(&n);
    return yes;
}

static void test_reference_example(void **state)
{
    (void)state;
    struct ccnx_buf enc = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    encode(&enc, example);
    struct ccnr_policy p;
    char why[256];
    assert_int_equal(ccnr_policy_parse(&p, enc.data, enc.len, why, sizeof why), 0);
    assert_string_equal(p.version, "1.5");
    assert_string_equal(p.local_name, "Repository");
    assert_string_equal(p.global_text, "ccnx:/parc.com/csl/ccn/Repos/42");
    assert_int_equal(p.global_prefix.count, 5);
    assert_int_equal(p.count, 2);
    assert_string_equal(p.space_text[1], "/some/other/prefix");
    assert_int_equal(p.spaces[1].count, 3);
    assert_int_equal(ccnr_policy_build(&again, &p), 0);
    assert_int_equal(again.len, enc.len);
    assert_memory_equal(again.data, enc.data, enc.len);
    assert_true(covers_uri(&p, "ccnx:/some/prefix"));
    assert_true(covers_uri(&p, "ccnx:/some/other/prefix/file/%FD%01"));
    assert_true(covers_uri(&p, "ccnx:/parc.com/csl/ccn/Repos/42/data/policy.xml"));
    assert_false(covers_uri(&p, "ccnx:/some"));
    assert_false(covers_uri(&p, "ccnx:/some/prefixes"));
    assert_false(covers_uri(&p, "ccnx:/"));
    ccnr_policy_free(&p);
    ccnx_buf_free(&enc);
    ccnx_buf_free(&again);
}

static void test_default(void **state)
{
    (void)state;
    struct ccnx_name gp;
    name_of(&gp, "ccnx:/parc.com/csl/ccn/Repos");
    struct ccnr_policy p, q;
    assert_int_equal(ccnr_policy_default(&p, &gp), 0);
    struct ccnx_buf enc = CCNX_BUF_INIT, xml = CCNX_BUF_INIT;
    assert_int_equal(ccnr_policy_build(&enc, &p), 0);
    encode(&xml, "<Policy><PolicyVersion>1.5</PolicyVersion><LocalName>Repository</LocalName>"
                 "<GlobalPrefix>ccnx:/parc.com/csl/ccn/Repos</GlobalPrefix>"
                 "<Namespace>/</Namespace></Policy>");
    assert_int_equal(enc.len, xml.len);
    assert_memory_equal(enc.data, xml.data, xml.len);
    assert_true(covers_uri(&p, "ccnx:/anything/at/all"));
    assert_int_equal(ccnr_policy_parse(&q, enc.data, enc.len, NULL, 0), 0);
    assert_int_equal(ccnx_name_compare(&q.global_prefix, &gp), 0);
    ccnr_policy_free(&q);
    ccnr_policy_free(&p);
    ccnx_name_free(&gp);
    ccnx_buf_free(&enc);
    ccnx_buf_free(&xml);
}

/* Each malformed policy is refused, with a reason containing `says`. */
static void refused(const char *xml, const char *says)
{
    struct ccnx_buf enc = CCNX_BUF_INIT;
    encode(&enc, xml);
    struct ccnr_policy p;
    char why[256] = "";
    assert_true(ccnr_policy_parse(&p, enc.data, enc.len, why, sizeof why) < 0);
    if (strstr(why, says) == NULL) {
        fail_msg("'%s' does not say '%s'", why, says);
    }
    ccnx_buf_free(&enc);
}

static void test_malformed(void **state)
{
    (void)state;
    refused("<Link><Name/></Link>", "not a Policy");
    refused("<Policy><LocalName>R</LocalName></Policy>", "no PolicyVersion");
    refused("<Policy><PolicyVersion>1.5</PolicyVersion><LocalName>R</LocalName></Policy>",
            "no GlobalPrefix");
    refused("<Policy><PolicyVersion>1.5</PolicyVersion><LocalName>R</LocalName>"
            "<GlobalPrefix>http://x/</GlobalPrefix></Policy>",
            "GlobalPrefix 'http://x/' is not");
    refused("<Policy><PolicyVersion>1.5</PolicyVersion><LocalName>R</LocalName>"
            "<GlobalPrefix>/r</GlobalPrefix><Namespace>/a?b</Namespace></Policy>",
            "Namespace '/a?b' is not");
    refused("<Policy><PolicyVersion>1.5</PolicyVersion><LocalName>R</LocalName>"
            "<GlobalPrefix>/r</GlobalPrefix><Namespace>/a</Namespace><Name/></Policy>",
            "other than Namespace");
    refused("<Policy><PolicyVersion><Name/></PolicyVersion></Policy>", "PolicyVersion is not");

    /* bytes that are not one element: truncated, trailing, empty */
    struct ccnx_buf enc = CCNX_BUF_INIT;
    encode(&enc, example);
    struct ccnr_policy p;
    char why[256];
    assert_true(ccnr_policy_parse(&p, enc.data, enc.len - 1, why, sizeof why) < 0);
    assert_non_null(strstr(why, "well-formed"));
    ccnx_buf_append_byte(&enc, 0);
    assert_true(ccnr_policy_parse(&p, enc.data, enc.len, why, sizeof why) < 0);
    assert_true(ccnr_policy_parse(&p, enc.data, 0, why, sizeof why) < 0);
    ccnx_buf_free(&enc);
}

static void test_nul_in_text(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_ccnb_open(&b, CCNX_DTAG_Policy);
    ccnx_ccnb_append_udata_element(&b, CCNX_DTAG_PolicyVersion,
                                   "1\0"
                                   "5",
                                   3);
    ccnx_ccnb_append_closer(&b);
    struct ccnr_policy p;
    char why[256];
    assert_int_equal(ccnr_policy_parse(&p, b.data, b.len, why, sizeof why), CCNX_E_VALUE);
    assert_non_null(strstr(why, "NUL"));
    ccnx_buf_free(&b);
}

static void test_version_name(void **state)
{
    (void)state;
    struct ccnx_name gp, n;
    name_of(&gp, "ccnx:/r");
    name_of(&n, "ccnx:/r/data/policy.xml/%FD%05%00%00%00%00");
    assert_true(ccnr_policy_is_version_name(&gp, n.enc.data, n.enc.len));
    ccnx_name_free(&n);
    name_of(&n, "ccnx:/r/data/policy.xml/plain");
    assert_false(ccnr_policy_is_version_name(&gp, n.enc.data, n.enc.len));
    ccnx_name_free(&n);
    name_of(&n, "ccnx:/s/data/policy.xml/%FD%05%00%00%00%00");
    assert_false(ccnr_policy_is_version_name(&gp, n.enc.data, n.enc.len));
    ccnx_name_free(&n);
    ccnx_name_free(&gp);
}

static struct ccnx_key *key;
static char dir[64];
static struct ccnr_store *store;

static int store_setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/ccnr-policy-XXXXXX");
    char err[256];
    if (mkdtemp(dir) == NULL || (key == NULL && ccnx_key_generate(1024, &key) != 0)) {
        return -1;
    }
    store = ccnr_store_open(dir, (uint64_t)16 << 20, err, sizeof err);
    return store != NULL ? 0 : -1;
}

static int store_teardown(void **state)
{
    (void)state;
    ccnr_store_close(store);
    static const char *const files[] = {"store/data.mdb", "store/lock.mdb", "store"};
    return tu_remove_files(dir, files, 3);
}

static void add(const struct ccnx_buf *obj)
{
    assert_int_equal(ccnr_store_begin(store), 0);
    assert_int_equal(ccnr_store_add(store, obj->data, obj->len), CCNR_STORE_ADDED);
    assert_int_equal(ccnr_store_commit(store), 0);
}

/* Stores `p` signed as of second `sec`. */
static void store_policy(const struct ccnr_policy *p, time_t sec)
{
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct timespec when = {sec, 0};
    uint64_t v;
    assert_int_equal(ccnr_policy_sign(&obj, p, key, &when, &v), 0);
    uint64_t expect;
    assert_int_equal(ccnx_naming_timestamp_from_timespec(&when, &expect), 0);
    assert_true(v == expect);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    assert_true(pc.has_final_block_id);
    assert_int_equal(pc.final_block_id.len, 1);
    assert_int_equal(obj.data[pc.final_block_id.off], 0);
    assert_int_equal(ccnx_content_verify(obj.data, obj.len, &pc, key), 0);
    add(&obj);
    ccnx_buf_free(&obj);
}

/* Stores `content` as a one-segment version at second `sec` of the policy name. */
static void store_raw(const struct ccnx_name *gp, time_t sec, const struct ccnx_buf *content)
{
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnr_policy_name(&n, gp), 0);
    struct timespec when = {sec, 0};
    assert_int_equal(ccnx_naming_append_version(&n, &when), 0);
    assert_int_equal(ccnx_naming_append_segment(&n, 0), 0);
    struct ccnx_content_params cp;
    ccnx_content_params_init(&cp);
    cp.name = n.enc.data;
    cp.name_len = n.enc.len;
    cp.final_block_id = (const uint8_t *)"";
    cp.final_block_id_len = 1;
    cp.content = content->data;
    cp.content_len = content->len;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    assert_int_equal(ccnx_content_sign(&obj, &cp, key), 0);
    add(&obj);
    ccnx_buf_free(&obj);
    ccnx_name_free(&n);
}

static void note(void *arg, const char *why)
{
    (*(int *)arg)++;
    assert_non_null(strstr(why, "stored policy version"));
}

static void test_load_newest_usable(void **state)
{
    (void)state;
    struct ccnx_name gp;
    name_of(&gp, "ccnx:/r");
    struct ccnr_policy p, got;
    uint64_t v = 0;
    int notes = 0;
    assert_int_equal(ccnr_policy_load(store, &gp, &got, &v, note, &notes), 0);

    assert_int_equal(ccnr_policy_default(&p, &gp), 0);
    store_policy(&p, 1000);
    assert_int_equal(ccnr_policy_add_namespace(&p, "/allowed"), 0);
    store_policy(&p, 2000);
    /* newer, but one malformed and one for another repository */
    struct ccnx_buf junk = CCNX_BUF_INIT;
    encode(&junk, "<Link><Name/></Link>");
    store_raw(&gp, 3000, &junk);
    encode(&junk, "<Policy><PolicyVersion>1.5</PolicyVersion><LocalName>R</LocalName>"
                  "<GlobalPrefix>/other</GlobalPrefix></Policy>");
    store_raw(&gp, 4000, &junk);

    assert_int_equal(ccnr_policy_load(store, &gp, &got, &v, note, &notes), 1);
    assert_int_equal(notes, 2);
    assert_int_equal(got.count, 2);
    assert_string_equal(got.space_text[1], "/allowed");
    struct timespec when = {2000, 0};
    uint64_t expect;
    ccnx_naming_timestamp_from_timespec(&when, &expect);
    assert_true(v == expect);
    ccnr_policy_free(&got);

    /* another global prefix has no policy here */
    struct ccnx_name other;
    name_of(&other, "ccnx:/other");
    assert_int_equal(ccnr_policy_load(store, &other, &got, &v, NULL, NULL), 0);
    ccnx_name_free(&other);
    ccnx_buf_free(&junk);
    ccnr_policy_free(&p);
    ccnx_name_free(&gp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_example),
        cmocka_unit_test(test_default),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_nul_in_text),
        cmocka_unit_test(test_version_name),
        cmocka_unit_test_setup_teardown(test_load_newest_usable, store_setup, store_teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ccnx_key_destroy(key);
    return rc;
}
