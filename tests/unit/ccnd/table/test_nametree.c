/* The name tree: nodes for every prefix of what is inserted, found by any
 * prefix length, longest match by data, release that drops empty
 * ancestors and keeps the ones still used, component values (not their
 * ccnb spelling) as keys, long names beyond the inline storage, and the
 * extra component (an object's digest). */
#include "testutil.h"

#include "table/nametree.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <string.h>

/* Splits the name of a ccnx: URI (the caller frees nn). */
static void split(struct nametree_name *nn, const char *uri)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    assert_int_equal(nametree_name_init(nn, n.enc.data, n.enc.len, NULL, 0, 0), 0);
    ccnx_name_free(&n);
}

static void test_prefixes_are_nodes(void **state)
{
    (void)state;
    struct nametree *nt = nametree_create();
    assert_non_null(nt);
    struct nametree_name nn;
    split(&nn, "ccnx:/a/b/c");
    assert_int_equal(nn.ncomps, 3);
    assert_null(nametree_find(nt, &nn, 3));
    struct nametree_node *c = nametree_insert(nt, &nn, 3);
    assert_non_null(c);
    assert_int_equal(c->ncomps, 3);
    assert_ptr_equal(nametree_insert(nt, &nn, 3), c); /* the same node again */
    /* every ancestor exists, linked to its parent, down to the root */
    struct nametree_node *b = nametree_find(nt, &nn, 2);
    struct nametree_node *a = nametree_find(nt, &nn, 1);
    struct nametree_node *root = nametree_find(nt, &nn, 0);
    assert_non_null(b);
    assert_non_null(a);
    assert_non_null(root);
    assert_ptr_equal(c->parent, b);
    assert_ptr_equal(b->parent, a);
    assert_ptr_equal(a->parent, root);
    assert_null(root->parent);
    assert_int_equal(b->children, 1);
    assert_int_equal(nametree_count(nt), 4);
    nametree_name_free(&nn);
    nametree_destroy(nt);
}

static void test_longest_prefix_with_data(void **state)
{
    (void)state;
    struct nametree *nt = nametree_create();
    struct nametree_name p1, p2, q;
    int d1, d2;
    split(&p1, "ccnx:/x");
    split(&p2, "ccnx:/x/y/z");
    nametree_insert(nt, &p1, 1)->data = &d1;
    nametree_insert(nt, &p2, 3)->data = &d2;
    split(&q, "ccnx:/x/y/z/w");
    assert_ptr_equal(nametree_longest(nt, &q, q.ncomps)->data, &d2);
    assert_ptr_equal(nametree_longest(nt, &q, 2)->data, &d1); /* limited to /x/y */
    nametree_name_free(&q);
    split(&q, "ccnx:/x/y/other");
    assert_ptr_equal(nametree_longest(nt, &q, q.ncomps)->data, &d1); /* /x/y has no data */
    nametree_name_free(&q);
    split(&q, "ccnx:/elsewhere");
    assert_null(nametree_longest(nt, &q, q.ncomps));
    nametree_name_free(&q);
    nametree_name_free(&p1);
    nametree_name_free(&p2);
    nametree_destroy(nt);
}

static void test_release_drops_empty_ancestors_only(void **state)
{
    (void)state;
    struct nametree *nt = nametree_create();
    struct nametree_name keep, gone;
    int d;
    split(&keep, "ccnx:/m/keep");
    split(&gone, "ccnx:/m/n/o/gone");
    nametree_insert(nt, &keep, 2)->data = &d;
    struct nametree_node *leaf = nametree_insert(nt, &gone, 4);
    assert_int_equal(nametree_count(nt), 6); /* root, m, keep, n, o, gone */
    nametree_release(nt, leaf);
    /* gone, o and n go; m stays for keep, which holds data */
    assert_null(nametree_find(nt, &gone, 2));
    assert_non_null(nametree_find(nt, &gone, 1));
    assert_non_null(nametree_find(nt, &keep, 2));
    assert_int_equal(nametree_count(nt), 3);
    /* a node with data is not dropped */
    nametree_release(nt, nametree_find(nt, &keep, 2));
    assert_non_null(nametree_find(nt, &keep, 2));
    nametree_name_free(&keep);
    nametree_name_free(&gone);
    nametree_destroy(nt);
}

/* A component sent as UDATA is the same component as one sent as BLOB. */
static void test_keys_are_component_values(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_ccnb_open(&b, CCNX_DTAG_Name);
    ccnx_ccnb_append_udata_element(&b, CCNX_DTAG_Component, "abc", 3);
    ccnx_ccnb_append_closer(&b);
    struct nametree *nt = nametree_create();
    struct nametree_name udata, blob;
    assert_int_equal(nametree_name_init(&udata, b.data, b.len, NULL, 0, 0), 0);
    split(&blob, "ccnx:/abc");
    struct nametree_node *n = nametree_insert(nt, &udata, 1);
    assert_ptr_equal(nametree_find(nt, &blob, 1), n);
    nametree_name_free(&udata);
    nametree_name_free(&blob);
    nametree_destroy(nt);
    ccnx_buf_free(&b);
}

static void test_long_names_and_the_extra_component(void **state)
{
    (void)state;
    /* more components and key bytes than the inline storage holds */
    char uri[4096] = "ccnx:";
    for (int i = 0; i < 40; i++) {
        strcat(uri, "/component-with-a-rather-long-value");
    }
    struct nametree *nt = nametree_create();
    struct nametree_name nn, again;
    split(&nn, uri);
    assert_int_equal(nn.ncomps, 40);
    struct nametree_node *deep = nametree_insert(nt, &nn, 40);
    assert_non_null(deep);
    split(&again, uri);
    assert_ptr_equal(nametree_find(nt, &again, 40), deep);
    nametree_name_free(&again);
    /* the digest as one more component */
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/obj"), 0);
    uint8_t digest[32];
    memset(digest, 0xAB, sizeof digest);
    struct nametree_name full;
    assert_int_equal(nametree_name_init(&full, n.enc.data, n.enc.len, digest, 32, 1), 0);
    assert_int_equal(full.ncomps, 2);
    struct nametree_node *d = nametree_insert(nt, &full, 2);
    assert_int_equal(d->keylen, 4 + 3 + 4 + 32);
    assert_int_equal(memcmp(d->key + d->keylen - 32, digest, 32), 0);
    nametree_name_free(&full);
    nametree_name_free(&nn);
    ccnx_name_free(&n);
    nametree_destroy(nt);
}

static int count_node(struct nametree_node *n, void *ctx)
{
    (void)n;
    (*(size_t *)ctx)++;
    return 0;
}

static void test_foreach_visits_every_node(void **state)
{
    (void)state;
    struct nametree *nt = nametree_create();
    const char *uris[] = {"ccnx:/a/b", "ccnx:/a/c", "ccnx:/d"};
    for (size_t i = 0; i < 3; i++) {
        struct nametree_name nn;
        split(&nn, uris[i]);
        nametree_insert(nt, &nn, nn.ncomps);
        nametree_name_free(&nn);
    }
    size_t seen = 0;
    assert_int_equal(nametree_foreach(nt, count_node, &seen), 0);
    assert_int_equal(seen, nametree_count(nt));
    assert_int_equal(seen, 5); /* root, a, a/b, a/c, d */
    nametree_destroy(nt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefixes_are_nodes),
        cmocka_unit_test(test_longest_prefix_with_data),
        cmocka_unit_test(test_release_drops_empty_ancestors_only),
        cmocka_unit_test(test_keys_are_component_values),
        cmocka_unit_test(test_long_names_and_the_extra_component),
        cmocka_unit_test(test_foreach_visits_every_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
