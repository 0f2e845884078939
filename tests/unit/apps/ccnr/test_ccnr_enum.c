/* Name enumeration replies kept in the repository's store: recognising the
 * request, the children listed (not our own replies, not the digest of an
 * object named by the prefix), a new version only when the set changes,
 * versions that only grow, silence for an unknown prefix, segmenting of a
 * large reply, signatures, and the reference's reply body byte for byte. */
#include "testutil.h"

#include "enumerate.h"
#include "store.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/link.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>
#include <ccnx/key.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ccnx_key *key;
static char dir[64];
static struct ccnr_store *store;

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/ccnr-enum-XXXXXX");
    char err[256];
    if (mkdtemp(dir) == NULL || (key == NULL && ccnx_key_generate(1024, &key) != 0)) {
        return -1;
    }
    store = ccnr_store_open(dir, (uint64_t)64 << 20, err, sizeof err);
    return store != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ccnr_store_close(store);
    static const char *const files[] = {"store/data.mdb", "store/lock.mdb", "store"};
    return tu_remove_files(dir, files, 3);
}

static void put_uri(const char *uri, const char *content)
{
    struct ccnx_name n;
    struct ccnx_content_params p;
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.content = (const uint8_t *)content;
    p.content_len = strlen(content);
    assert_int_equal(ccnx_content_sign(&b, &p, key), 0);
    assert_int_equal(ccnr_store_begin(store), 0);
    assert_true(ccnr_store_add(store, b.data, b.len) >= 0);
    assert_int_equal(ccnr_store_commit(store), 0);
    ccnx_buf_free(&b);
    ccnx_name_free(&n);
}

static int update(const char *uri, time_t sec)
{
    struct ccnx_name n;
    struct timespec now = {sec, 0};
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    int r = ccnr_enum_update(store, key, &n, &now);
    ccnx_name_free(&n);
    return r;
}

/* The object answering a plain Interest for `n` into out, as the
 * enumeration answers it when `enumerate`, else as the store does: 1 or 0. */
static int lookup_name(const struct ccnx_name *n, int enumerate, struct ccnx_buf *out)
{
    struct ccnx_interest_params p;
    struct ccnx_interest_parsed pi;
    struct ccnx_buf ib = CCNX_BUF_INIT;
    struct ccnx_name prefix;
    assert_int_equal(ccnx_name_init(&prefix), 0);
    ccnx_interest_params_init(&p);
    p.name = n->enc.data;
    p.name_len = n->enc.len;
    assert_int_equal(ccnx_interest_build(&ib, &p), 0);
    assert_int_equal(ccnx_interest_parse(ib.data, ib.len, &pi), 0);
    int r = enumerate && ccnr_enum_request(n->enc.data, n->enc.len, &prefix) == 1
                ? ccnr_enum_answer(store, key, ib.data, &pi, &prefix, out)
                : ccnr_store_lookup(store, ib.data, &pi, out);
    assert_true(r >= 0);
    ccnx_buf_free(&ib);
    ccnx_name_free(&prefix);
    return r;
}

static int lookup(const char *uri, int enumerate, struct ccnx_buf *out)
{
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    int r = lookup_name(&n, enumerate, out);
    ccnx_name_free(&n);
    return r;
}

/* The children a reply lists, as "b,c,". Checks the object's form and signature. */
static void listed(const struct ccnx_buf *obj, char *out, size_t cap, struct ccnx_comp *version)
{
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj->data, obj->len, &pc), 0);
    assert_int_equal(ccnx_content_verify(obj->data, obj->len, &pc, key), 0);
    assert_int_equal(pc.freshness, CCNR_ENUM_FRESHNESS);
    assert_true(pc.final_block_id.len > 0);
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_name_set_ccnb(&n, obj->data + pc.name.off, pc.name.len), 0);
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&n, n.count - 3, &c), 0);
    assert_true(ccnx_naming_is_keyid(c.p, c.n));
    assert_int_equal(ccnx_name_comp(&n, n.count - 2, version), 0);
    assert_true(ccnx_naming_is_version(version->p, version->n));
    version->p = obj->data + pc.name.off + (size_t)(version->p - n.enc.data);
    ccnx_name_free(&n);
    struct ccnx_collection_iter it;
    struct ccnx_link l;
    out[0] = 0;
    assert_int_equal(
        ccnx_collection_iter_init(&it, obj->data + pc.content_value.off, pc.content_value.len), 0);
    while (ccnx_collection_iter_next(&it, &l) == 1) {
        struct ccnx_name_iter ni;
        struct ccnx_comp lc;
        assert_int_equal(ccnx_name_count_ccnb(l.name, l.name_len), 1); /* one component */
        assert_int_equal(ccnx_name_iter_init(&ni, l.name, l.name_len), 0);
        assert_int_equal(ccnx_name_iter_next(&ni, &lc), 1);
        size_t used = strlen(out);
        assert_true(used + lc.n + 2 < cap);
        memcpy(out + used, lc.p, lc.n);
        strcpy(out + used + lc.n, ",");
    }
}

static void test_request(void **state)
{
    (void)state;
    struct ccnx_name n, prefix;
    ccnx_name_init(&n);
    ccnx_name_init(&prefix);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/a/b/%C1.E.be/%C1.M.K%00x"), 0);
    assert_int_equal(ccnr_enum_request(n.enc.data, n.enc.len, &prefix), 1);
    assert_int_equal(prefix.count, 2);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/a/b/E.be"), 0);
    assert_int_equal(ccnr_enum_request(n.enc.data, n.enc.len, &prefix), 0);
    /* Cut short inside a component: malformed. */
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/a/b"), 0);
    assert_true(ccnr_enum_request(n.enc.data, n.enc.len - 2, &prefix) < 0);
    ccnx_name_free(&n);
    ccnx_name_free(&prefix);
}

static void test_versions(void **state)
{
    (void)state;
    struct ccnx_buf obj = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    char names[256];
    struct ccnx_comp v1, v2;
    put_uri("ccnx:/a", "the prefix itself");
    put_uri("ccnx:/a/b/x", "1");
    put_uri("ccnx:/a/b/y", "2");
    put_uri("ccnx:/a/c", "3");
    assert_int_equal(update("ccnx:/nothing/here", 1000), 0);
    assert_int_equal(lookup("ccnx:/nothing/here/%C1.E.be", 1, &obj), 0);
    assert_int_equal(update("ccnx:/a", 1000), 1);
    assert_int_equal(lookup("ccnx:/a/%C1.E.be", 1, &obj), 1);
    listed(&obj, names, sizeof names, &v1);
    assert_string_equal(names, "b,c,"); /* not /a's digest, not %C1.E.be */
    /* Unchanged: the same reply. */
    assert_int_equal(update("ccnx:/a", 2000), 0);
    assert_int_equal(lookup("ccnx:/a/%C1.E.be", 1, &again), 1);
    assert_int_equal(again.len, obj.len);
    assert_memory_equal(again.data, obj.data, obj.len);
    /* A new child: a new version, newer even with a clock that went back. */
    put_uri("ccnx:/a/d", "4");
    assert_int_equal(update("ccnx:/a", 10), 1);
    assert_int_equal(lookup("ccnx:/a/%C1.E.be", 1, &again), 1);
    listed(&again, names, sizeof names, &v2);
    assert_string_equal(names, "b,c,d,");
    assert_true(ccnx_comp_compare(v2.p, v2.n, v1.p, v1.n) > 0);
    /* Deeper prefixes have replies of their own. */
    assert_int_equal(update("ccnx:/a/b", 3000), 1);
    assert_int_equal(lookup("ccnx:/a/b/%C1.E.be", 1, &obj), 1);
    listed(&obj, names, sizeof names, &v1);
    assert_string_equal(names, "x,y,");
    ccnx_buf_free(&obj);
    ccnx_buf_free(&again);
}

/* A reply larger than one segment is split, and read back whole. */
static void test_segments(void **state)
{
    (void)state;
    char uri[96];
    assert_int_equal(ccnr_store_begin(store), 0);
    for (int i = 0; i < 400; i++) {
        struct ccnx_name n;
        struct ccnx_content_params p;
        struct ccnx_buf b = CCNX_BUF_INIT;
        snprintf(uri, sizeof uri, "ccnx:/big/child-with-a-rather-long-name-%04d", i);
        ccnx_name_init(&n);
        assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
        ccnx_content_params_init(&p);
        p.name = n.enc.data;
        p.name_len = n.enc.len;
        assert_int_equal(ccnx_content_sign_batch(&b, &p, 1, key, NULL), 0);
        assert_true(ccnr_store_add(store, b.data, b.len) >= 0);
        ccnx_buf_free(&b);
        ccnx_name_free(&n);
    }
    assert_int_equal(ccnr_store_commit(store), 0);
    assert_int_equal(update("ccnx:/big", 5000), 1);
    struct ccnx_buf obj = CCNX_BUF_INIT, body = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    assert_int_equal(lookup("ccnx:/big/%C1.E.be", 1, &obj), 1);
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    uint64_t last;
    assert_int_equal(
        ccnx_naming_segment_decode(obj.data + pc.final_block_id.off, pc.final_block_id.len, &last),
        0);
    assert_true(last >= 2);
    struct ccnx_name seg;
    ccnx_name_init(&seg);
    assert_int_equal(ccnx_name_set_ccnb(&seg, obj.data + pc.name.off, pc.name.len), 0);
    for (uint64_t i = 0; i <= last; i++) {
        ccnx_name_truncate(&seg, seg.count - 1);
        ccnx_naming_append_segment(&seg, i);
        assert_int_equal(lookup_name(&seg, 0, &obj), 1);
        assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
        ccnx_buf_append(&body, obj.data + pc.content_value.off, pc.content_value.len);
    }
    struct ccnx_collection_iter it;
    struct ccnx_link l;
    int links = 0;
    assert_int_equal(ccnx_collection_iter_init(&it, body.data, body.len), 0);
    while (ccnx_collection_iter_next(&it, &l) == 1) {
        links++;
    }
    assert_int_equal(links, 400);
    assert_int_equal(update("ccnx:/big", 6000), 0);
    ccnx_name_free(&seg);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&body);
}

/* The reference's ccnr listed doc1 and doc2 under /example/vec/repo: our
 * Collection for the same children is the same bytes. */
static void test_reference_body(void **state)
{
    (void)state;
    struct ccnx_buf v = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    struct ccnx_content_parsed pv, po;
    struct ccnx_comp ver;
    char names[64];
    tu_read_vector("co_name_enumeration_reply.ccnb", &v);
    assert_int_equal(ccnx_content_parse(v.data, v.len, &pv), 0);
    put_uri("ccnx:/example/vec/repo/doc1/%FD%01/%00", "one");
    put_uri("ccnx:/example/vec/repo/doc2/%FD%01/%00", "two");
    assert_int_equal(update("ccnx:/example/vec/repo", 7000), 1);
    assert_int_equal(lookup("ccnx:/example/vec/repo/%C1.E.be", 1, &obj), 1);
    listed(&obj, names, sizeof names, &ver);
    assert_string_equal(names, "doc1,doc2,");
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &po), 0);
    assert_int_equal(po.content_value.len, pv.content_value.len);
    assert_memory_equal(obj.data + po.content_value.off, v.data + pv.content_value.off,
                        pv.content_value.len);
    assert_int_equal(po.name_count, pv.name_count);
    ccnx_buf_free(&v);
    ccnx_buf_free(&obj);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request),
        cmocka_unit_test_setup_teardown(test_versions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_segments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reference_body, setup, teardown),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    ccnx_key_destroy(key);
    return r;
}
