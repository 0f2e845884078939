/* The name tree and the forwarding table: longest-prefix match, the
 * reference's inheritance and capture rules, expiry, face removal,
 * strategies and iteration. */
#include "testutil.h"

#include "table/fib.h"
#include "table/nametree.h"

#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Encoded names for URIs; a small ring so several can be live at once. */
static const uint8_t *nm(const char *uri, size_t *len)
{
    static struct ccnx_name ring[8];
    static int init, k;
    if (!init) {
        for (int i = 0; i < 8; i++) {
            ccnx_name_init(&ring[i]);
        }
        init = 1;
    }
    struct ccnx_name *n = &ring[k++ & 7];
    ccnx_name_truncate(n, 0);
    assert_int_equal(ccnx_uri_parse_str(n, uri), 0);
    *len = n->enc.len;
    return n->enc.data;
}

static void add(struct fib *f, const char *uri, unsigned face, unsigned flags, uint64_t exp)
{
    size_t len;
    const uint8_t *p = nm(uri, &len);
    assert_int_equal(fib_add(f, p, len, face, flags, exp, FIB_OWNER_NONE), 0);
}

static void look(const struct fib *f, const char *uri, uint64_t now, struct fib_result *r)
{
    size_t len;
    const uint8_t *p = nm(uri, &len);
    assert_int_equal(fib_lookup(f, p, len, now, r), 0);
}

static void expect_faces(const struct fib_result *r, const unsigned *want, size_t n)
{
    if (r->nfaces != n) {
        fail_msg("got %zu faces, want %zu", r->nfaces, n);
    }
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(r->faces[i], want[i]);
    }
}

#define INH (FIB_ACTIVE | FIB_CHILD_INHERIT)

static void test_nametree(void **state)
{
    (void)state;
    struct nametree *nt = nametree_create();
    struct nametree_name a, b;
    size_t len;
    const uint8_t *p = nm("/a/b/c", &len);
    assert_int_equal(nametree_name_init(&a, p, len, NULL, 0, 0), 0);
    assert_int_equal(a.ncomps, 3);
    struct nametree_node *n = nametree_insert(nt, &a, 3);
    assert_non_null(n);
    assert_int_equal(nametree_count(nt), 4); /* with /, /a, /a/b */
    assert_ptr_equal(nametree_find(nt, &a, 3), n);
    assert_int_equal(n->parent->ncomps, 2);
    assert_null(nametree_longest(nt, &a, 3)); /* no data yet */
    n->parent->data = (void *)1;
    assert_ptr_equal(nametree_longest(nt, &a, 3), n->parent);
    /* A longer name finds the same node; a sibling only the root's line. */
    p = nm("/a/b/x/y", &len);
    assert_int_equal(nametree_name_init(&b, p, len, (const uint8_t *)"dig", 3, 1), 0);
    assert_int_equal(b.ncomps, 5);
    assert_ptr_equal(nametree_longest(nt, &b, 5), n->parent);
    nametree_name_free(&b);
    nametree_release(nt, n);
    assert_int_equal(nametree_count(nt), 3);
    n = nametree_find(nt, &a, 2);
    n->data = NULL;
    nametree_release(nt, n);
    assert_int_equal(nametree_count(nt), 0);
    /* Many nodes: the table grows, and long names spill to the heap. */
    char uri[1024];
    for (int i = 0; i < 3000; i++) {
        snprintf(uri, sizeof uri, "/n/%d/%d", i % 37, i);
        p = nm(uri, &len);
        assert_int_equal(nametree_name_init(&b, p, len, NULL, 0, 0), 0);
        assert_non_null(nametree_insert(nt, &b, b.ncomps));
        nametree_name_free(&b);
    }
    assert_int_equal(nametree_count(nt), 3000 + 37 + 2);
    strcpy(uri, "");
    for (int i = 0; i < 40; i++) {
        strcat(uri, "/comp-of-some-length");
    }
    p = nm(uri, &len);
    assert_int_equal(nametree_name_init(&b, p, len, NULL, 0, 0), 0);
    assert_int_equal(b.ncomps, 40);
    assert_non_null(nametree_insert(nt, &b, 40));
    assert_non_null(nametree_find(nt, &b, 17));
    nametree_name_free(&b);
    nametree_name_free(&a);
    nametree_destroy(nt);
}

static void test_longest_prefix_and_inherit(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    struct fib_result r;
    add(f, "/", 1, INH, FIB_NEVER);
    add(f, "/a", 2, INH, FIB_NEVER);
    add(f, "/a/b", 3, FIB_ACTIVE, FIB_NEVER); /* does not pass to children */
    add(f, "/a/b/c", 4, FIB_ACTIVE, FIB_NEVER);
    look(f, "/a/b/c/d", 0, &r);
    expect_faces(&r, (const unsigned[]){4, 2, 1}, 3); /* 3 lacks CHILD_INHERIT */
    assert_int_equal(r.prefix_comps, 3);
    look(f, "/a/b", 0, &r);
    expect_faces(&r, (const unsigned[]){3, 2, 1}, 3);
    look(f, "/z", 0, &r);
    expect_faces(&r, (const unsigned[]){1}, 1);
    assert_int_equal(r.prefix_comps, 0);
    /* Not ACTIVE: never taken, but its flags count for the namespace. */
    add(f, "/a/b/c", 5, FIB_LOCAL, FIB_NEVER);
    look(f, "/a/b/c", 0, &r);
    expect_faces(&r, (const unsigned[]){4, 2, 1}, 3);
    assert_true(r.namespace_flags & FIB_LOCAL);
    /* The same face on two prefixes is reported once. */
    add(f, "/a/b/c", 1, FIB_ACTIVE, FIB_NEVER);
    look(f, "/a/b/c", 0, &r);
    expect_faces(&r, (const unsigned[]){4, 1, 2}, 3);
    fib_destroy(f);
    /* An empty table gives nothing. */
    f = fib_create();
    look(f, "/a", 0, &r);
    assert_int_equal(r.nfaces, 0);
    assert_int_equal(r.prefix_comps, (uint32_t)-1);
    fib_destroy(f);
}

static void test_capture(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    struct fib_result r;
    add(f, "/", 1, INH, FIB_NEVER);
    add(f, "/a", 2, INH | FIB_CAPTURE_OK, FIB_NEVER);
    add(f, "/a/b", 3, FIB_ACTIVE | FIB_CAPTURE, FIB_NEVER);
    /* CAPTURE overrides the inheritance of shorter prefixes' entries that
     * consent to it with CAPTURE_OK; others still inherit. */
    look(f, "/a/b/x", 0, &r);
    expect_faces(&r, (const unsigned[]){3, 1}, 2);
    /* Without CAPTURE everything inherits. */
    add(f, "/a/c", 4, FIB_ACTIVE, FIB_NEVER);
    look(f, "/a/c", 0, &r);
    expect_faces(&r, (const unsigned[]){4, 2, 1}, 3);
    /* A CAPTURE that is not ACTIVE still captures (flags act regardless). */
    add(f, "/q", 6, FIB_CAPTURE, FIB_NEVER);
    add(f, "/", 7, INH | FIB_CAPTURE_OK, FIB_NEVER);
    look(f, "/q", 0, &r);
    expect_faces(&r, (const unsigned[]){1}, 1);
    look(f, "/r", 0, &r);
    expect_faces(&r, (const unsigned[]){1, 7}, 2);
    fib_destroy(f);
}

static void test_last_and_tap(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    struct fib_result r;
    add(f, "/t", 7, FIB_ACTIVE | FIB_LAST, FIB_NEVER);
    add(f, "/t", 8, FIB_ACTIVE | FIB_TAP, FIB_NEVER);
    add(f, "/t", 9, FIB_ACTIVE, FIB_NEVER);
    look(f, "/t/x", 0, &r);
    expect_faces(&r, (const unsigned[]){8, 9, 7}, 3);
    assert_int_equal(r.ntap, 1);
    assert_int_equal(r.tap[0], 8);
    /* Re-registering updates the flags in place. */
    add(f, "/t", 7, FIB_ACTIVE, FIB_NEVER);
    look(f, "/t", 0, &r);
    expect_faces(&r, (const unsigned[]){7, 8, 9}, 3);
    fib_destroy(f);
}

static void test_expiry_and_faces(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    struct fib_result r;
    size_t len;
    const uint8_t *p;
    add(f, "/", 1, INH, FIB_NEVER);
    add(f, "/e", 2, FIB_ACTIVE, 100);
    add(f, "/e", 3, FIB_ACTIVE, 200);
    look(f, "/e", 50, &r);
    expect_faces(&r, (const unsigned[]){2, 3, 1}, 3);
    look(f, "/e", 150, &r); /* expired entries are ignored before removal */
    expect_faces(&r, (const unsigned[]){3, 1}, 2);
    look(f, "/e", 250, &r); /* all expired: the shorter prefix answers */
    expect_faces(&r, (const unsigned[]){1}, 1);
    assert_int_equal(r.prefix_comps, 0);
    assert_int_equal(fib_expire(f, 150), 1);
    assert_int_equal(fib_prefix_count(f), 2);
    assert_int_equal(fib_expire(f, 250), 1);
    assert_int_equal(fib_prefix_count(f), 1);
    add(f, "/x/y", 4, FIB_ACTIVE, FIB_NEVER);
    add(f, "/x/z", 4, FIB_ACTIVE, FIB_NEVER);
    add(f, "/x/z", 5, FIB_ACTIVE, FIB_NEVER);
    assert_int_equal(fib_remove_face(f, 4), 2);
    assert_int_equal(fib_prefix_count(f), 2);
    look(f, "/x/y", 0, &r);
    expect_faces(&r, (const unsigned[]){1}, 1);
    p = nm("/x/z", &len);
    assert_int_equal(fib_remove(f, p, len, 5), 0);
    assert_int_equal(fib_remove(f, p, len, 5), CCNX_E_NOTFOUND);
    assert_int_equal(fib_prefix_count(f), 1);
    /* Hops gone by expiry, removal or an earlier close leave nothing for a
     * close to find; a face registered again is found again. */
    assert_int_equal(fib_remove_face(f, 2), 0);
    assert_int_equal(fib_remove_face(f, 5), 0);
    assert_int_equal(fib_remove_face(f, 4), 0);
    add(f, "/x/q", 4, FIB_ACTIVE, FIB_NEVER);
    assert_int_equal(fib_remove_face(f, 4), 1);
    assert_int_equal(fib_prefix_count(f), 1);
    /* Malformed names are refused. */
    uint8_t junk[3] = {0xF2, 0x01, 0x02};
    assert_int_equal(fib_add(f, junk, 3, 1, 1, FIB_NEVER, FIB_OWNER_NONE), CCNX_E_INVAL);
    assert_int_equal(fib_lookup(f, junk, 3, 0, &r), CCNX_E_INVAL);
    fib_destroy(f);
}

static void test_strategy(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    struct fib_result r;
    size_t len;
    const uint8_t *p = nm("/s", &len);
    assert_int_equal(fib_set_strategy(f, p, len, "parallel", "a=1", FIB_OWNER_NONE), 0);
    p = nm("/s/t", &len);
    assert_int_equal(fib_set_strategy(f, p, len, "default", NULL, FIB_OWNER_NONE), 0);
    add(f, "/s/t/u", 1, FIB_ACTIVE, FIB_NEVER);
    look(f, "/s/t/u/v", 0, &r);
    assert_string_equal(r.strategy, "default");
    assert_string_equal(r.params, "");
    look(f, "/s/x", 0, &r);
    assert_string_equal(r.strategy, "parallel");
    assert_string_equal(r.params, "a=1");
    assert_int_equal(r.nfaces, 0);
    look(f, "/other", 0, &r);
    assert_null(r.strategy);
    p = nm("/s/t", &len);
    assert_int_equal(fib_set_strategy(f, p, len, NULL, NULL, FIB_OWNER_NONE), 0);
    look(f, "/s/t/u", 0, &r);
    assert_string_equal(r.strategy, "parallel");
    fib_destroy(f);
}

/* Owners: who chose a strategy, and whose registrations lie under a prefix
 * (live ones only; a sibling prefix or one above does not count). */
static void test_strategy_owners(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    size_t len;
    int64_t owner = 0;
    const uint8_t *p = nm("/o", &len);
    assert_int_equal(fib_strategy_owner(f, p, len, &owner), 0);
    assert_int_equal(fib_set_strategy(f, p, len, "parallel", "", 1000), 0);
    assert_int_equal(fib_strategy_owner(f, p, len, &owner), 1);
    assert_int_equal(owner, 1000);
    p = nm("/o/x", &len);
    assert_int_equal(fib_strategy_owner(f, p, len, &owner), 0);
    assert_int_equal(fib_add(f, p, len, 1, FIB_ACTIVE, FIB_NEVER, 1000), 0);
    p = nm("/o/x/y", &len);
    assert_int_equal(fib_add(f, p, len, 2, FIB_ACTIVE, 50, 2000), 0);
    add(f, "/", 3, FIB_ACTIVE, FIB_NEVER);
    add(f, "/q", 3, FIB_ACTIVE, FIB_NEVER);
    p = nm("/o", &len);
    assert_int_equal(fib_others_under(f, p, len, 1000, 10), 1); /* 2000's, live */
    assert_int_equal(fib_others_under(f, p, len, 1000, 60), 0); /* 2000's expired */
    assert_int_equal(fib_others_under(f, p, len, 2000, 10), 1);
    p = nm("/o/x/y", &len);
    assert_int_equal(fib_others_under(f, p, len, 2000, 10), 0);
    p = nm("/o/z", &len);
    assert_int_equal(fib_others_under(f, p, len, 1000, 10), 0);
    p = nm("/", &len);
    assert_int_equal(fib_others_under(f, p, len, 1000, 10), 1);
    fib_destroy(f);
}

static int count_visit(const uint8_t *prefix, size_t len, const struct fib_nexthop *hops,
                       size_t nhops, const char *strategy, const char *params, void *ctx)
{
    (void)strategy;
    (void)params;
    struct ccnx_buf *out = ctx;
    ccnx_uri_append(out, prefix, len);
    ccnx_buf_printf(out, "=%zu:%u;", nhops, nhops ? hops[0].faceid : 0);
    return 0;
}

static void test_foreach(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    struct ccnx_buf out = CCNX_BUF_INIT;
    add(f, "/a/b", 3, FIB_ACTIVE, FIB_NEVER);
    assert_int_equal(fib_foreach(f, count_visit, &out), 0);
    assert_string_equal(ccnx_buf_cstr(&out), "ccnx:/a/b=1:3;");
    ccnx_buf_free(&out);
    fib_destroy(f);
}

/* Many prefixes: every one is found by its own name and by extensions. */
static void test_many(void **state)
{
    (void)state;
    struct fib *f = fib_create();
    struct fib_result r;
    char uri[64];
    for (unsigned i = 0; i < 20000; i++) {
        snprintf(uri, sizeof uri, "/p/%u/%u", i % 100, i);
        add(f, uri, i + 1, FIB_ACTIVE, FIB_NEVER);
    }
    assert_int_equal(fib_prefix_count(f), 20000);
    for (unsigned i = 0; i < 20000; i += 101) {
        snprintf(uri, sizeof uri, "/p/%u/%u/seg/0", i % 100, i);
        look(f, uri, 0, &r);
        expect_faces(&r, (const unsigned[]){i + 1}, 1);
    }
    assert_int_equal(fib_remove_face(f, 5), 1);
    assert_int_equal(fib_prefix_count(f), 19999);
    fib_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nametree),
        cmocka_unit_test(test_longest_prefix_and_inherit),
        cmocka_unit_test(test_capture),
        cmocka_unit_test(test_last_and_tap),
        cmocka_unit_test(test_expiry_and_faces),
        cmocka_unit_test(test_strategy),
        cmocka_unit_test(test_strategy_owners),
        cmocka_unit_test(test_foreach),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
