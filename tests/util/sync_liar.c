/* A hostile Sync neighbour for the repository's tests: advises a root
 * and answers every Root Advise of a slice (and every Node Fetch) with a
 * node that lies, in one of these ways, until killed:
 *   wronghash  a leaf whose hash is not the sum of its names
 *   outside    a leaf, honest, of names outside the slice's prefix
 *   loop       a composite whose only child is itself
 * (A node too large for the protocol cannot reach a repository: ccnd drops
 * messages over 64 KB, and the parser refuses such a node; see
 * test_sync.c.) Usage: sync_liar MODE TOPO-URI PREFIX-URI. Prints "ready"
 * once its
 * filters are registered. */
#include <ccnx/ccnb.h>
#include <ccnx/client.h>
#include <ccnx/content_sign.h>
#include <ccnx/dtag_values.h>
#include <ccnx/interest.h>
#include <ccnx/key.h>
#include <ccnx/name.h>
#include <ccnx/sync.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct liar {
    struct ccnx_client *c;
    struct ccnx_buf node;
    struct ccnx_sync_hash claimed;
    struct ccnx_name ra, nf;
};

/* A leaf of n names under `under`, each /under/lie<i>/<digest>. */
static void leaf(struct ccnx_sync_tree *t, const struct ccnx_name *under, int n)
{
    for (int i = 0; i < n; i++) {
        struct ccnx_name nm;
        char comp[32];
        uint8_t d[32];
        ccnx_name_init(&nm);
        ccnx_name_copy(&nm, under);
        snprintf(comp, sizeof comp, "lie%d", i);
        ccnx_name_append_str(&nm, comp);
        ccnx_sha256(comp, strlen(comp), d);
        ccnx_name_append(&nm, d, sizeof d);
        ccnx_sync_tree_add(t, nm.enc.data, nm.enc.len);
        ccnx_name_free(&nm);
    }
}

static void honest_leaf(struct liar *l, const struct ccnx_name *under, int n)
{
    struct ccnx_sync_tree *t;
    const uint8_t *p;
    size_t len;
    struct ccnx_sync_node nd;
    ccnx_sync_tree_create(&t);
    leaf(t, under, n);
    ccnx_sync_tree_root(t, &p, &len);
    ccnx_buf_append(&l->node, p, len);
    ccnx_sync_node_parse(l->node.data, l->node.len, &nd);
    ccnx_sync_hash_set(&l->claimed, l->node.data + nd.hash_off, nd.hash_len);
    ccnx_sync_tree_destroy(t);
}

/* A composite whose one child's hash is its own. */
static void loop_node(struct liar *l, const struct ccnx_name *under)
{
    struct ccnx_name nm;
    uint8_t h[32];
    ccnx_sha256("loop", 4, h);
    ccnx_sync_hash_set(&l->claimed, h, sizeof h);
    ccnx_name_init(&nm);
    ccnx_name_copy(&nm, under);
    ccnx_name_append(&nm, h, sizeof h);
    struct ccnx_buf *b = &l->node;
    ccnx_ccnb_open(b, CCNX_DTAG_SyncNode);
    ccnx_ccnb_append_uint_element(b, CCNX_DTAG_SyncVersion, CCNX_SYNC_VERSION);
    ccnx_ccnb_open(b, CCNX_DTAG_SyncNodeElements);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SyncContentHash, h, sizeof h);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SyncContentHash, h, sizeof h);
    ccnx_buf_append(b, nm.enc.data, nm.enc.len);
    ccnx_buf_append(b, nm.enc.data, nm.enc.len);
    ccnx_ccnb_append_uint_element(b, CCNX_DTAG_SyncNodeKind, 0);
    ccnx_ccnb_append_uint_element(b, CCNX_DTAG_SyncLeafCount, 1);
    ccnx_ccnb_append_uint_element(b, CCNX_DTAG_SyncTreeDepth, 2);
    ccnx_ccnb_append_uint_element(b, CCNX_DTAG_SyncByteCount, 0);
    ccnx_ccnb_append_closer(b);
    ccnx_name_free(&nm);
}

static void answer(struct liar *l, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                   int append_root)
{
    struct ccnx_name n;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    ccnx_name_init(&n);
    ccnx_name_set_ccnb(&n, ibuf + pi->name.off, pi->name.len);
    if (append_root) {
        ccnx_name_append(&n, l->claimed.b, l->claimed.len);
    }
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.freshness = 1;
    p.content = l->node.data;
    p.content_len = l->node.len;
    if (ccnx_content_sign(&obj, &p, ccnx_client_key(l->c)) == 0) {
        ccnx_client_put(l->c, obj.data, obj.len);
    }
    ccnx_buf_free(&obj);
    ccnx_name_free(&n);
}

static int on_ra(void *arg, const uint8_t *ibuf, size_t len, const struct ccnx_interest_parsed *pi)
{
    (void)len;
    answer(arg, ibuf, pi, 1);
    return 1;
}

static int on_nf(void *arg, const uint8_t *ibuf, size_t len, const struct ccnx_interest_parsed *pi)
{
    (void)len;
    answer(arg, ibuf, pi, 0);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: sync_liar wronghash|outside|loop TOPO PREFIX\n");
        return 2;
    }
    static struct liar l;
    struct ccnx_sync_slice s;
    ccnx_sync_slice_init(&s);
    if (ccnx_uri_parse_str(&s.topo, argv[2]) != 0 || ccnx_uri_parse_str(&s.prefix, argv[3]) != 0 ||
        ccnx_client_open(&l.c) != 0) {
        fprintf(stderr, "sync_liar: bad URI or no ccnd\n");
        return 1;
    }
    struct ccnx_name elsewhere;
    ccnx_name_init(&elsewhere);
    ccnx_uri_parse_str(&elsewhere, "ccnx:/elsewhere");
    if (strcmp(argv[1], "wronghash") == 0) {
        honest_leaf(&l, &s.prefix, 3);
        struct ccnx_sync_node nd;
        ccnx_sync_node_parse(l.node.data, l.node.len, &nd);
        l.node.data[nd.hash_off + nd.hash_len - 1] ^= 1; /* no longer its names' sum */
        l.claimed.b[l.claimed.len - 1] ^= 1;
    } else if (strcmp(argv[1], "outside") == 0) {
        honest_leaf(&l, &elsewhere, 3);
    } else if (strcmp(argv[1], "loop") == 0) {
        loop_node(&l, &s.prefix);
    } else {
        fprintf(stderr, "sync_liar: unknown mode %s\n", argv[1]);
        return 2;
    }
    ccnx_name_init(&l.ra);
    ccnx_name_init(&l.nf);
    ccnx_sync_slice_prefix(&s, CCNX_SYNC_RA_MARKER, &l.ra);
    ccnx_sync_slice_prefix(&s, CCNX_SYNC_NF_MARKER, &l.nf);
    uint64_t a, b;
    if (ccnx_client_set_filter(l.c, &l.ra, CCNX_FILTER_REGISTER, 0, on_ra, &l, &a) != 0 ||
        ccnx_client_set_filter(l.c, &l.nf, CCNX_FILTER_REGISTER, 0, on_nf, &l, &b) != 0 ||
        ccnx_client_wait_registered(l.c, a, 5000) != 0 ||
        ccnx_client_wait_registered(l.c, b, 5000) != 0) {
        fprintf(stderr, "sync_liar: %s\n", ccnx_client_error(l.c));
        return 1;
    }
    /* and advises its (claimed) root, as a neighbour's agent does */
    struct ccnx_name adv;
    struct ccnx_buf ib = CCNX_BUF_INIT;
    ccnx_name_init(&adv);
    ccnx_name_copy(&adv, &l.ra);
    ccnx_name_append(&adv, l.claimed.b, l.claimed.len);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = adv.enc.data;
    ip.name_len = adv.enc.len;
    ip.scope = 2;
    ip.lifetime_units = 20 * 4096;
    struct ccnx_express_opts o = {NULL, NULL, NULL, 0, 1000, 0};
    if (ccnx_interest_build(&ib, &ip) != 0 ||
        ccnx_client_express(l.c, ib.data, ib.len, &o, NULL) != 0) {
        fprintf(stderr, "sync_liar: cannot advise\n");
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    ccnx_client_run(l.c, -1);
    return 0;
}
