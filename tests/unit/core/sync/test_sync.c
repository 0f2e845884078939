/* Sync's pure parts against what the reference's repositories sent
 * (tests/vectors/sync082): slices encode byte for byte and hash to the
 * names the reference used, nodes parse and check, our leaf over the
 * reference's names is the reference's leaf byte for byte, our trees'
 * nodes all parse, and the diff finds exactly the names one side lacks and
 * refuses nodes that lie, loop or were not asked for. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/content_sign.h>
#include <ccnx/dtag_values.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/key.h>
#include <ccnx/name.h>
#include <ccnx/sync.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_sync_vector(const char *name, struct ccnx_buf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CCNX_SYNC_VECTORS_DIR, name);
    ccnx_buf_init(b);
    if (ccnx_buf_read_file(b, path) != 0) {
        fail_msg("cannot read %s", path);
    }
}

static void uri_name(struct ccnx_name *n, const char *uri)
{
    assert_int_equal(ccnx_name_init(n), 0);
    assert_int_equal(ccnx_uri_parse_str(n, uri), 0);
}

/* ---- The combined hash ---- */

static void test_hash_sums_with_carries(void **state)
{
    (void)state;
    struct ccnx_sync_hash acc, v;
    ccnx_sync_hash_clear(&acc);
    uint8_t ff[32], one[1] = {1};
    memset(ff, 0xFF, sizeof ff);
    ccnx_sync_hash_set(&v, ff, sizeof ff);
    ccnx_sync_hash_add(&acc, &v);
    assert_int_equal(acc.len, 32);
    ccnx_sync_hash_set(&v, one, 1);
    ccnx_sync_hash_add(&acc, &v); /* 2^256: a carry out into a 33rd byte */
    assert_int_equal(acc.len, 33);
    assert_int_equal(acc.b[0], 1);
    for (size_t i = 1; i < 33; i++) {
        assert_int_equal(acc.b[i], 0);
    }
    struct ccnx_sync_hash padded;
    uint8_t lead[34] = {0, 1};
    ccnx_sync_hash_set(&padded, lead, sizeof lead);
    assert_true(ccnx_sync_hash_equal(&acc, &padded));
    struct ccnx_buf hex = CCNX_BUF_INIT;
    ccnx_sync_hash_hex(&acc, &hex);
    struct ccnx_sync_hash back;
    assert_int_equal(ccnx_sync_hash_from_hex(&back, ccnx_buf_cstr(&hex)), 0);
    assert_int_equal(back.len, 33);
    assert_memory_equal(back.b, acc.b, 33);
    assert_int_not_equal(ccnx_sync_hash_from_hex(&back, "abc"), 0);
    assert_int_not_equal(ccnx_sync_hash_from_hex(&back, "zz"), 0);
    ccnx_buf_free(&hex);
}

/* ---- Slices ---- */

static void check_slice_vector(const char *file, const char *topo, const char *prefix,
                               size_t nclauses, const char *hash_hex)
{
    struct ccnx_buf enc, again = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    read_sync_vector(file, &enc);
    struct ccnx_sync_slice s;
    assert_int_equal(ccnx_sync_slice_init(&s), 0);
    assert_int_equal(ccnx_sync_slice_decode(&s, enc.data, enc.len), 0);
    struct ccnx_name t, p;
    uri_name(&t, topo);
    uri_name(&p, prefix);
    assert_int_equal(ccnx_name_compare(&s.topo, &t), 0);
    assert_int_equal(ccnx_name_compare(&s.prefix, &p), 0);
    assert_int_equal(s.nclauses, nclauses);
    assert_int_equal(ccnx_sync_slice_encode(&s, &again), 0);
    assert_int_equal(again.len, enc.len);
    assert_memory_equal(again.data, enc.data, enc.len);
    uint8_t h[32];
    assert_int_equal(ccnx_sync_slice_hash(&s, h), 0);
    tu_hex(hash_hex, &want);
    assert_memory_equal(h, want.data, 32);
    ccnx_name_free(&t);
    ccnx_name_free(&p);
    ccnx_sync_slice_free(&s);
    ccnx_buf_free(&enc);
    ccnx_buf_free(&again);
    ccnx_buf_free(&want);
}

static void test_slice_vectors(void **state)
{
    (void)state;
    check_slice_vector("sync_slice_plain.ccnb", "ccnx:/rs/topo", "ccnx:/rs/data", 0,
                       "67a2684bcdd8f9220331257b2a49edc038e29fcf7f58f919bcc11e3bcc4e7ca2");
    check_slice_vector("sync_slice_clauses.ccnb", "ccnx:/rs/t2", "ccnx:/rs/d2", 2,
                       "83f53da7f13ca32eec7cc079aef5b294edf3f2290e52942512eed292dca506a9");
}

/* The reference stored the clauses slice under the name we compute. */
static void test_slice_config_name(void **state)
{
    (void)state;
    struct ccnx_buf enc, obj;
    read_sync_vector("sync_slice_clauses.ccnb", &enc);
    read_sync_vector("sync_slice_create.ccnb", &obj);
    struct ccnx_sync_slice s;
    ccnx_sync_slice_init(&s);
    assert_int_equal(ccnx_sync_slice_decode(&s, enc.data, enc.len), 0);
    struct ccnx_name n, stored;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_sync_slice_config_name(&s, &n), 0);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    ccnx_name_init(&stored);
    ccnx_name_set_ccnb(&stored, obj.data + pc.name.off, pc.name.len);
    assert_int_equal(ccnx_name_is_prefix(&n, &stored), 1);
    assert_int_equal(stored.count, n.count + 2); /* then version and segment */
    /* and its content is the slice */
    assert_int_equal(pc.content_value.len, enc.len);
    assert_memory_equal(obj.data + pc.content_value.off, enc.data, enc.len);
    ccnx_name_free(&n);
    ccnx_name_free(&stored);
    ccnx_sync_slice_free(&s);
    ccnx_buf_free(&enc);
    ccnx_buf_free(&obj);
}

static int covers(const struct ccnx_sync_slice *s, const char *uri)
{
    struct ccnx_name n;
    uri_name(&n, uri);
    int r = ccnx_sync_slice_covers(s, n.enc.data, n.enc.len);
    ccnx_name_free(&n);
    return r;
}

static void test_slice_covers(void **state)
{
    (void)state;
    struct ccnx_sync_slice s;
    ccnx_sync_slice_init(&s);
    ccnx_uri_parse_str(&s.topo, "ccnx:/t");
    ccnx_uri_parse_str(&s.prefix, "ccnx:/d");
    assert_true(covers(&s, "ccnx:/d/x/y"));
    assert_false(covers(&s, "ccnx:/e/x"));
    struct ccnx_name c1, c2;
    uri_name(&c1, "ccnx:/d/a");
    uri_name(&c2, "ccnx:/d/%FF/b");
    ccnx_sync_slice_add_clause(&s, &c1);
    ccnx_sync_slice_add_clause(&s, &c2);
    assert_true(covers(&s, "ccnx:/d/a/1"));
    assert_true(covers(&s, "ccnx:/d/zz/b/1"));
    assert_false(covers(&s, "ccnx:/d/zz/c/1"));
    assert_false(covers(&s, "ccnx:/d"));
    ccnx_name_free(&c1);
    ccnx_name_free(&c2);
    ccnx_sync_slice_free(&s);
}

/* ---- Nodes ---- */

/* The node a Root Advise or Node Fetch answer carries, after checking
 * the answer's signature with the key it carries. */
static void node_of_answer(const char *file, struct ccnx_buf *obj, struct ccnx_content_parsed *pc,
                           struct ccnx_sync_node *nd)
{
    read_sync_vector(file, obj);
    assert_int_equal(ccnx_content_parse(obj->data, obj->len, pc), 0);
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_content_locator_key(obj->data, pc, &k), 0);
    assert_int_equal(ccnx_content_verify(obj->data, obj->len, pc, k), 0);
    ccnx_key_destroy(k);
    const uint8_t *node = obj->data + pc->content_value.off;
    assert_int_equal(ccnx_sync_node_parse(node, pc->content_value.len, nd), 0);
    /* the node's hash is the answer's FinalBlockID */
    assert_int_equal(pc->final_block_id.len, nd->hash_len);
    assert_memory_equal(obj->data + pc->final_block_id.off, node + nd->hash_off, nd->hash_len);
}

static void test_node_vectors(void **state)
{
    (void)state;
    struct ccnx_buf obj;
    struct ccnx_content_parsed pc;
    struct ccnx_sync_node nd;
    node_of_answer("sync_ra_reply_leaf.ccnb", &obj, &pc, &nd);
    assert_int_equal(nd.nhashes, 0);
    assert_int_equal(nd.leaf_count, nd.nnames);
    assert_int_equal(nd.depth, 1);
    ccnx_buf_free(&obj);
    node_of_answer("sync_nf_reply_leaf.ccnb", &obj, &pc, &nd);
    assert_int_equal(nd.nhashes, 0);
    ccnx_buf_free(&obj);
    node_of_answer("sync_ra_reply_composite.ccnb", &obj, &pc, &nd);
    assert_int_equal(nd.nnames, 0);
    assert_true(nd.nhashes > 1);
    assert_int_equal(nd.depth, 2);
    assert_int_equal(nd.leaf_count, 303); /* three files, then 300 */
    ccnx_buf_free(&obj);
}

/* Our Root Advise for the reference's prefix, root and seen roots (given
 * out of order, one twice, its own root among them) is its Interest: the
 * same Name, Exclude, Scope and lifetime bytes (the Nonce aside). */
static void test_root_advise_same_as_reference(void **state)
{
    (void)state;
    struct ccnx_buf ref, ours = CCNX_BUF_INIT;
    read_sync_vector("sync_ra_interest.ccnb", &ref);
    struct ccnx_interest_parsed rp, op;
    assert_int_equal(ccnx_interest_parse(ref.data, ref.len, &rp), 0);
    struct ccnx_name name, prefix;
    ccnx_name_init(&name);
    ccnx_name_init(&prefix);
    assert_int_equal(ccnx_name_set_ccnb(&name, ref.data + rp.name.off, rp.name.len), 0);
    struct ccnx_comp root_comp;
    assert_int_equal(ccnx_name_comp(&name, name.count - 1, &root_comp), 0);
    assert_int_equal(ccnx_name_copy(&prefix, &name), 0);
    assert_int_equal(ccnx_name_truncate(&prefix, name.count - 1), 0);
    struct ccnx_sync_hash root;
    assert_int_equal(ccnx_sync_hash_set(&root, root_comp.p, root_comp.n), 0);
    struct ccnx_sync_seen seen;
    memset(&seen, 0, sizeof seen);
    struct ccnx_sync_hash excluded[8];
    size_t n = 0;
    struct ccnx_exclude_iter it;
    struct ccnx_exclude_item item;
    assert_int_equal(ccnx_exclude_iter_init(&it, ref.data, rp.exclude), 0);
    while (ccnx_exclude_iter_next(&it, &item) == 1 && n < 8) {
        assert_int_equal(ccnx_sync_hash_set(&excluded[n++], item.p, item.n), 0);
    }
    assert_true(n >= 3);
    for (size_t i = n; i-- > 0;) {
        ccnx_sync_seen_add(&seen, &excluded[i]);
    }
    ccnx_sync_seen_add(&seen, &excluded[0]);
    assert_int_equal(seen.n, n); /* each once */
    assert_int_equal(ccnx_sync_root_advise_interest(&ours, &prefix, &root, &seen, rp.scope,
                                                    (unsigned)(rp.lifetime / 4096)),
                     0);
    assert_int_equal(ccnx_interest_parse(ours.data, ours.len, &op), 0);
    assert_int_equal(op.name.len, rp.name.len);
    assert_memory_equal(ours.data + op.name.off, ref.data + rp.name.off, rp.name.len);
    assert_int_equal(op.exclude.len, rp.exclude.len);
    assert_memory_equal(ours.data + op.exclude.off, ref.data + rp.exclude.off, rp.exclude.len);
    assert_int_equal(op.scope, 2);
    assert_int_equal(op.lifetime_value.len, rp.lifetime_value.len);
    assert_memory_equal(ours.data + op.lifetime_value.off, ref.data + rp.lifetime_value.off,
                        rp.lifetime_value.len);
    ccnx_sync_seen_clear(&seen);
    assert_false(ccnx_sync_seen_has(&seen, &excluded[0]));
    ccnx_name_free(&name);
    ccnx_name_free(&prefix);
    ccnx_buf_free(&ours);
    ccnx_buf_free(&ref);
}

/* Our Node Fetch for the reference's prefix and hash is its Interest: the
 * same Name, ChildSelector, Scope (the Nonce and the lifetime aside: the
 * reference sends none). */
static void test_node_fetch_same_as_reference(void **state)
{
    (void)state;
    struct ccnx_buf ref, ours = CCNX_BUF_INIT;
    read_sync_vector("sync_nf_interest.ccnb", &ref);
    struct ccnx_interest_parsed rp, op;
    assert_int_equal(ccnx_interest_parse(ref.data, ref.len, &rp), 0);
    struct ccnx_name name, prefix;
    ccnx_name_init(&name);
    ccnx_name_init(&prefix);
    assert_int_equal(ccnx_name_set_ccnb(&name, ref.data + rp.name.off, rp.name.len), 0);
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&name, name.count - 1, &c), 0);
    struct ccnx_sync_hash h;
    assert_int_equal(ccnx_sync_hash_set(&h, c.p, c.n), 0);
    assert_int_equal(ccnx_name_copy(&prefix, &name), 0);
    assert_int_equal(ccnx_name_truncate(&prefix, name.count - 1), 0);
    assert_int_equal(ccnx_sync_node_fetch_interest(&ours, &prefix, &h, rp.scope, 4), 0);
    assert_int_equal(ccnx_interest_parse(ours.data, ours.len, &op), 0);
    assert_int_equal(op.name.len, rp.name.len);
    assert_memory_equal(ours.data + op.name.off, ref.data + rp.name.off, rp.name.len);
    assert_int_equal(op.child_selector, rp.child_selector);
    assert_int_equal(op.child_selector, 1);
    assert_int_equal(op.scope, 2);
    assert_int_equal(op.lifetime, 4 * 4096);
    ccnx_name_free(&name);
    ccnx_name_free(&prefix);
    ccnx_buf_free(&ours);
    ccnx_buf_free(&ref);
}

/* Our leaf over the names of the reference's leaf is the same bytes. */
static void test_leaf_same_as_reference(void **state)
{
    (void)state;
    struct ccnx_buf obj;
    struct ccnx_content_parsed pc;
    struct ccnx_sync_node nd;
    node_of_answer("sync_nf_reply_leaf.ccnb", &obj, &pc, &nd);
    const uint8_t *node = obj.data + pc.content_value.off;
    struct ccnx_sync_tree *t;
    assert_int_equal(ccnx_sync_tree_create(&t), 0);
    size_t cursor = 0;
    struct ccnx_sync_elem e;
    while (ccnx_sync_node_elem(node, &nd, &cursor, &e) == 1) {
        assert_int_equal(ccnx_sync_tree_add(t, node + e.off, e.len), 1);
    }
    assert_int_equal(ccnx_sync_tree_count(t), nd.nnames);
    struct ccnx_sync_hash theirs;
    ccnx_sync_hash_set(&theirs, node + nd.hash_off, nd.hash_len);
    assert_true(ccnx_sync_hash_equal(ccnx_sync_tree_hash(t), &theirs));
    const uint8_t *ours;
    size_t n;
    assert_int_equal(ccnx_sync_tree_root(t, &ours, &n), 0);
    /* none of these names ends a leaf of ours early: one leaf, as theirs */
    assert_int_equal(ccnx_sync_tree_node_count(t), 1);
    assert_int_equal(n, pc.content_value.len);
    assert_memory_equal(ours, node, n);
    ccnx_sync_tree_destroy(t);
    ccnx_buf_free(&obj);
}

static void test_node_refused(void **state)
{
    (void)state;
    struct ccnx_buf obj;
    struct ccnx_content_parsed pc;
    struct ccnx_sync_node nd;
    node_of_answer("sync_ra_reply_leaf.ccnb", &obj, &pc, &nd);
    uint8_t *node = obj.data + pc.content_value.off;
    size_t len = pc.content_value.len;
    node[nd.hash_off + 5] ^= 1; /* a hash that is not the names' sum */
    assert_int_equal(ccnx_sync_node_parse(node, len, &nd), CCNX_E_VALUE);
    node[nd.hash_off + 5] ^= 1;
    assert_int_equal(ccnx_sync_node_parse(node, len, &nd), 0);
    for (size_t cut = 0; cut < len; cut++) {
        assert_int_not_equal(ccnx_sync_node_parse(node, cut, &nd), 0);
    }
    ccnx_buf_free(&obj);
}

/* ---- Our trees ---- */

/* A full name /sync/test/<i>/<digest of i, seeded>. */
static void make_name(struct ccnx_buf *out, unsigned i, unsigned seed)
{
    struct ccnx_name n;
    char comp[32];
    uint8_t d[32];
    ccnx_name_init(&n);
    ccnx_name_append_str(&n, "sync");
    ccnx_name_append_str(&n, "test");
    snprintf(comp, sizeof comp, "item%u", i);
    ccnx_name_append_str(&n, comp);
    snprintf(comp, sizeof comp, "%u/%u", i, seed);
    ccnx_sha256(comp, strlen(comp), d);
    ccnx_name_append(&n, d, sizeof d);
    ccnx_buf_reset(out);
    ccnx_buf_append(out, n.enc.data, n.enc.len);
    ccnx_name_free(&n);
}

static struct ccnx_sync_tree *tree_of(unsigned from, unsigned to)
{
    struct ccnx_sync_tree *t;
    assert_int_equal(ccnx_sync_tree_create(&t), 0);
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (unsigned i = from; i < to; i++) {
        make_name(&b, (i * 7919u) % 100000u, 1); /* out of order */
        assert_int_equal(ccnx_sync_tree_add(t, b.data, b.len), 1);
    }
    ccnx_buf_free(&b);
    return t;
}

static void test_tree_nodes(void **state)
{
    (void)state;
    struct ccnx_sync_tree *t = tree_of(0, 5000);
    struct ccnx_buf b = CCNX_BUF_INIT;
    make_name(&b, 0, 1);
    assert_int_equal(ccnx_sync_tree_add(t, b.data, b.len), 0); /* held already */
    assert_true(ccnx_sync_tree_has(t, b.data, b.len));
    const uint8_t *root;
    size_t n;
    assert_int_equal(ccnx_sync_tree_root(t, &root, &n), 0);
    struct ccnx_sync_node nd;
    assert_int_equal(ccnx_sync_node_parse(root, n, &nd), 0);
    assert_int_equal(nd.leaf_count, 5000);
    assert_true(nd.depth >= 2);
    struct ccnx_sync_hash h;
    ccnx_sync_hash_set(&h, root + nd.hash_off, nd.hash_len);
    assert_true(ccnx_sync_hash_equal(&h, ccnx_sync_tree_hash(t)));
    /* every child is there by its hash and parses */
    size_t cursor = 0, kids = 0;
    struct ccnx_sync_elem e;
    while (ccnx_sync_node_elem(root, &nd, &cursor, &e) == 1) {
        const uint8_t *kid;
        size_t kn;
        struct ccnx_sync_node knd;
        ccnx_sync_hash_set(&h, root + e.off, e.len);
        assert_int_equal(ccnx_sync_tree_node(t, &h, &kid, &kn), 0);
        assert_int_equal(ccnx_sync_node_parse(kid, kn, &knd), 0);
        assert_true(kn <= 4096);
        kids++;
    }
    assert_int_equal(kids, nd.nhashes);
    ccnx_buf_free(&b);
    ccnx_sync_tree_destroy(t);
}

/* Checks every node under the node p[0..n) of t: a composite has two
 * children at least, and no two nodes share a hash. Returns the nodes. */
static size_t check_subtree(struct ccnx_sync_tree *t, const uint8_t *p, size_t n)
{
    struct ccnx_sync_node nd;
    assert_int_equal(ccnx_sync_node_parse(p, n, &nd), 0);
    if (nd.nhashes == 0) {
        return 1;
    }
    assert_true(nd.nhashes >= 2);
    assert_true(nd.nhashes <= 65);
    struct ccnx_sync_hash self, h;
    ccnx_sync_hash_set(&self, p + nd.hash_off, nd.hash_len);
    size_t cursor = 0, nodes = 1;
    struct ccnx_sync_elem e;
    while (ccnx_sync_node_elem(p, &nd, &cursor, &e) == 1) {
        const uint8_t *kid;
        size_t kn;
        ccnx_sync_hash_set(&h, p + e.off, e.len);
        assert_false(ccnx_sync_hash_equal(&h, &self));
        assert_int_equal(ccnx_sync_tree_node(t, &h, &kid, &kn), 0);
        nodes += check_subtree(t, kid, kn);
    }
    return nodes;
}

static struct ccnx_sync_tree *tree_in_order(unsigned from, unsigned to);
static struct ccnx_sync_diff *diff_against(struct ccnx_sync_tree *local,
                                           struct ccnx_sync_tree *remote);

/* Whatever a level's last node is, it never becomes a composite's only
 * child (which would share its hash): a walk from an empty tree reaches
 * every name, as a file's names, in order, end the tree. */
static void test_tree_no_single_child(void **state)
{
    (void)state;
    struct ccnx_sync_tree *empty;
    assert_int_equal(ccnx_sync_tree_create(&empty), 0);
    for (unsigned count = 1; count <= 1500; count += count < 300 ? 1 : 37) {
        struct ccnx_sync_tree *t = tree_in_order(0, count);
        const uint8_t *root;
        size_t n;
        assert_int_equal(ccnx_sync_tree_root(t, &root, &n), 0);
        assert_int_equal(check_subtree(t, root, n), ccnx_sync_tree_node_count(t));
        struct ccnx_sync_diff *d = diff_against(empty, t);
        assert_int_equal(ccnx_sync_diff_stats(d)->names_missing, count);
        ccnx_sync_diff_destroy(d);
        ccnx_sync_tree_destroy(t);
    }
    ccnx_sync_tree_destroy(empty);
}

/* A root advised before names were added stays answerable while a
 * neighbour walks it: its node is found by hash after later rebuilds,
 * and is dropped only after 32 more. */
static void test_tree_keeps_replaced_nodes(void **state)
{
    (void)state;
    struct ccnx_sync_tree *t = tree_of(0, 2000);
    const uint8_t *root, *p;
    size_t n, pn;
    assert_int_equal(ccnx_sync_tree_root(t, &root, &n), 0);
    struct ccnx_buf first = CCNX_BUF_INIT;
    ccnx_buf_append(&first, root, n);
    struct ccnx_sync_hash h = *ccnx_sync_tree_hash(t);
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (unsigned round = 1; round <= 33; round++) {
        make_name(&b, 100000u + round, 1);
        assert_int_equal(ccnx_sync_tree_add(t, b.data, b.len), 1);
        assert_int_equal(ccnx_sync_tree_root(t, &root, &n), 0); /* a rebuild */
        assert_false(ccnx_sync_hash_equal(&h, ccnx_sync_tree_hash(t)));
        int rc = ccnx_sync_tree_node(t, &h, &p, &pn);
        if (round <= 32) {
            assert_int_equal(rc, 0);
            assert_int_equal(pn, first.len);
            assert_memory_equal(p, first.data, pn);
        } else {
            assert_int_equal(rc, CCNX_E_NOTFOUND);
        }
    }
    ccnx_buf_free(&b);
    ccnx_buf_free(&first);
    ccnx_sync_tree_destroy(t);
}

/* Runs a diff of `local` against `remote`'s nodes until it is done. */
static struct ccnx_sync_diff *diff_against(struct ccnx_sync_tree *local,
                                           struct ccnx_sync_tree *remote)
{
    struct ccnx_sync_diff *d;
    assert_int_equal(ccnx_sync_diff_create(local, &d), 0);
    const uint8_t *p;
    size_t n;
    assert_int_equal(ccnx_sync_tree_root(remote, &p, &n), 0);
    assert_int_equal(ccnx_sync_diff_feed(d, p, n), 0);
    struct ccnx_sync_hash want;
    while (ccnx_sync_diff_next_want(d, &want) == 1) {
        assert_int_equal(ccnx_sync_tree_node(remote, &want, &p, &n), 0);
        assert_int_equal(ccnx_sync_diff_feed(d, p, n), 0);
    }
    assert_true(ccnx_sync_diff_done(d));
    return d;
}

static struct ccnx_sync_tree *tree_in_order(unsigned from, unsigned to)
{
    struct ccnx_sync_tree *t;
    assert_int_equal(ccnx_sync_tree_create(&t), 0);
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (unsigned i = from; i < to; i++) {
        make_name(&b, i, 1);
        assert_int_equal(ccnx_sync_tree_add(t, b.data, b.len), 1);
    }
    ccnx_buf_free(&b);
    return t;
}

/* As a repository walks: the names found missing are fetched and added to
 * the local tree while the walk goes on, and the local tree is built (as
 * its root is advised) now and then. */
static void test_diff_while_names_arrive(void **state)
{
    (void)state;
    struct ccnx_sync_tree *a = tree_in_order(0, 1100), *b = tree_in_order(0, 10000);
    struct ccnx_sync_diff *d;
    assert_int_equal(ccnx_sync_diff_create(a, &d), 0);
    const uint8_t *p;
    size_t n;
    assert_int_equal(ccnx_sync_tree_root(b, &p, &n), 0);
    assert_int_equal(ccnx_sync_diff_feed(d, p, n), 0);
    struct ccnx_sync_hash want;
    struct ccnx_buf name = CCNX_BUF_INIT;
    size_t found = 0, rounds = 0;
    for (;;) {
        while (ccnx_sync_diff_next_missing(d, &name) == 1) {
            assert_int_equal(ccnx_sync_tree_add(a, name.data, name.len), 1);
            found++;
        }
        if (++rounds % 7 == 0) {
            assert_int_equal(ccnx_sync_tree_root(a, &p, &n), 0); /* an advise */
        }
        if (ccnx_sync_diff_next_want(d, &want) != 1) {
            break;
        }
        assert_int_equal(ccnx_sync_tree_node(b, &want, &p, &n), 0);
        assert_int_equal(ccnx_sync_diff_feed(d, p, n), 0);
    }
    while (ccnx_sync_diff_next_missing(d, &name) == 1) {
        assert_int_equal(ccnx_sync_tree_add(a, name.data, name.len), 1);
        found++;
    }
    assert_true(ccnx_sync_diff_done(d));
    assert_int_equal(found, 8900);
    ccnx_sync_diff_destroy(d);
    ccnx_buf_free(&name);
    ccnx_sync_tree_destroy(a);
    ccnx_sync_tree_destroy(b);
}

static void test_diff_finds_missing(void **state)
{
    (void)state;
    struct ccnx_sync_tree *a = tree_of(0, 5000), *b = tree_of(0, 5300);
    struct ccnx_sync_diff *d = diff_against(a, b);
    struct ccnx_buf name = CCNX_BUF_INIT;
    size_t found = 0;
    while (ccnx_sync_diff_next_missing(d, &name) == 1) {
        assert_false(ccnx_sync_tree_has(a, name.data, name.len));
        assert_true(ccnx_sync_tree_has(b, name.data, name.len));
        assert_int_equal(ccnx_sync_tree_add(a, name.data, name.len), 1);
        found++;
    }
    assert_int_equal(found, 300);
    assert_true(ccnx_sync_hash_equal(ccnx_sync_tree_hash(a), ccnx_sync_tree_hash(b)));
    /* fewer nodes than b has: most of the tree was the same */
    assert_true(ccnx_sync_diff_stats(d)->nodes < ccnx_sync_tree_node_count(b));
    ccnx_sync_diff_destroy(d);
    /* the same sets: the root alone settles it */
    d = diff_against(a, b);
    assert_int_equal(ccnx_sync_diff_stats(d)->nodes, 1);
    assert_int_equal(ccnx_sync_diff_next_missing(d, &name), 0);
    ccnx_sync_diff_destroy(d);
    ccnx_buf_free(&name);
    ccnx_sync_tree_destroy(a);
    ccnx_sync_tree_destroy(b);
}

static void test_diff_refuses(void **state)
{
    (void)state;
    struct ccnx_sync_tree *a = tree_of(0, 10), *b = tree_of(0, 3000);
    struct ccnx_sync_diff *d;
    assert_int_equal(ccnx_sync_diff_create(a, &d), 0);
    const uint8_t *root, *other;
    size_t n, on;
    assert_int_equal(ccnx_sync_tree_root(b, &root, &n), 0);
    assert_int_equal(ccnx_sync_diff_feed(d, root, n), 0);
    /* the root again, and a leaf nobody asked for */
    assert_int_equal(ccnx_sync_diff_feed(d, root, n), CCNX_E_VALUE);
    struct ccnx_sync_tree *c = tree_of(9000, 9005);
    assert_int_equal(ccnx_sync_tree_root(c, &other, &on), 0);
    assert_int_equal(ccnx_sync_diff_feed(d, other, on), CCNX_E_VALUE);
    assert_int_equal(ccnx_sync_diff_stats(d)->refused, 2);
    /* a wanted node that does not come can be given up */
    struct ccnx_sync_hash want;
    while (ccnx_sync_diff_next_want(d, &want) == 1) {
        ccnx_sync_diff_give_up(d, &want);
    }
    assert_true(ccnx_sync_diff_done(d));
    ccnx_sync_diff_destroy(d);
    ccnx_sync_tree_destroy(a);
    ccnx_sync_tree_destroy(b);
    ccnx_sync_tree_destroy(c);
}

/* A composite over one child has that child's hash: a walk could never
 * ask for what lies under it, so it is refused (a loop is the same). */
static void test_diff_refuses_own_hash(void **state)
{
    (void)state;
    struct ccnx_sync_tree *leaf = tree_of(0, 3), *empty;
    assert_int_equal(ccnx_sync_tree_create(&empty), 0);
    const uint8_t *p;
    size_t n;
    assert_int_equal(ccnx_sync_tree_root(leaf, &p, &n), 0);
    struct ccnx_sync_node nd;
    assert_int_equal(ccnx_sync_node_parse(p, n, &nd), 0);
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_ccnb_open(&b, CCNX_DTAG_SyncNode);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncVersion, CCNX_SYNC_VERSION);
    ccnx_ccnb_open(&b, CCNX_DTAG_SyncNodeElements);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_SyncContentHash, p + nd.hash_off, nd.hash_len);
    ccnx_ccnb_append_closer(&b);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_SyncContentHash, p + nd.hash_off, nd.hash_len);
    ccnx_buf_append(&b, p + nd.min_off, nd.min_len);
    ccnx_buf_append(&b, p + nd.max_off, nd.max_len);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncNodeKind, 0);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncLeafCount, 3);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncTreeDepth, 2);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncByteCount, n);
    ccnx_ccnb_append_closer(&b);
    struct ccnx_sync_diff *d;
    assert_int_equal(ccnx_sync_diff_create(empty, &d), 0);
    assert_int_equal(ccnx_sync_diff_feed(d, b.data, b.len), CCNX_E_VALUE);
    assert_int_equal(ccnx_sync_diff_stats(d)->refused, 1);
    ccnx_sync_diff_destroy(d);
    ccnx_buf_free(&b);
    ccnx_sync_tree_destroy(leaf);
    ccnx_sync_tree_destroy(empty);
}

/* A well-formed leaf of 1600 names (about 100 KB): more than a node may
 * hold, refused before it is read, and by the diff as a root. */
static void test_huge_node_refused(void **state)
{
    (void)state;
    struct ccnx_sync_tree *t = tree_of(0, 1600), *empty;
    assert_int_equal(ccnx_sync_tree_create(&empty), 0);
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_ccnb_open(&b, CCNX_DTAG_SyncNode);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncVersion, CCNX_SYNC_VERSION);
    ccnx_ccnb_open(&b, CCNX_DTAG_SyncNodeElements);
    const uint8_t *name, *first = NULL, *last = NULL;
    size_t len, first_len = 0, last_len = 0;
    for (size_t i = 0; i < 1600; i++) {
        assert_int_equal(ccnx_sync_tree_name(t, i, &name, &len), 0);
        ccnx_buf_append(&b, name, len);
    }
    ccnx_ccnb_append_closer(&b);
    assert_int_equal(ccnx_sync_tree_name(t, 0, &first, &first_len), 0);
    assert_int_equal(ccnx_sync_tree_name(t, 1599, &last, &last_len), 0);
    const struct ccnx_sync_hash *sum = ccnx_sync_tree_hash(t);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_SyncContentHash, sum->b, sum->len);
    ccnx_buf_append(&b, first, first_len);
    ccnx_buf_append(&b, last, last_len);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncNodeKind, 0);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncLeafCount, 1600);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncTreeDepth, 1);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_SyncByteCount, 0);
    ccnx_ccnb_append_closer(&b);
    assert_true(b.len > CCNX_SYNC_NODE_MAX);
    struct ccnx_sync_node nd;
    assert_int_equal(ccnx_sync_node_parse(b.data, b.len, &nd), CCNX_E_TOOBIG);
    struct ccnx_sync_diff *d;
    assert_int_equal(ccnx_sync_diff_create(empty, &d), 0);
    assert_int_equal(ccnx_sync_diff_feed(d, b.data, b.len), CCNX_E_VALUE);
    assert_int_equal(ccnx_sync_diff_stats(d)->refused, 1);
    assert_int_equal(ccnx_sync_diff_next_missing(d, &b), 0);
    ccnx_sync_diff_destroy(d);
    ccnx_buf_free(&b);
    ccnx_sync_tree_destroy(t);
    ccnx_sync_tree_destroy(empty);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_sums_with_carries),
        cmocka_unit_test(test_slice_vectors),
        cmocka_unit_test(test_slice_config_name),
        cmocka_unit_test(test_slice_covers),
        cmocka_unit_test(test_node_vectors),
        cmocka_unit_test(test_leaf_same_as_reference),
        cmocka_unit_test(test_root_advise_same_as_reference),
        cmocka_unit_test(test_node_fetch_same_as_reference),
        cmocka_unit_test(test_node_refused),
        cmocka_unit_test(test_tree_nodes),
        cmocka_unit_test(test_tree_keeps_replaced_nodes),
        cmocka_unit_test(test_tree_no_single_child),
        cmocka_unit_test(test_diff_finds_missing),
        cmocka_unit_test(test_diff_while_names_arrive),
        cmocka_unit_test(test_diff_refuses),
        cmocka_unit_test(test_diff_refuses_own_hash),
        cmocka_unit_test(test_huge_node_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
