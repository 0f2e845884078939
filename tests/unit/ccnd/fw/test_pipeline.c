/* The forwarding pipelines and strategies against fake faces that record
 * what is sent to them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/interest.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include "fw/fw.h"
#include "table/cs.h"
#include "table/fib.h"
#include "table/pit.h"

#define MAXFACE 16
#define MAXLOG  256
#define SEC     1000000ull

struct sent {
    int node;
    unsigned face;
    uint8_t *msg;
    size_t len;
};

/* One forwarder and its fake faces; a net of several for the triangle. */
struct node {
    struct net *net;
    int idx;
    struct fw *fw;
    int exists[MAXFACE];
    int local[MAXFACE];
    int peer[MAXFACE]; /* triangle: node index + 1 at the other end, 0 none */
    unsigned peer_face[MAXFACE];
};

struct net {
    struct node nodes[3];
    struct sent log[MAXLOG];
    size_t nlog;
    /* messages in flight between nodes (delivered by net_run) */
    struct sent queue[MAXLOG];
    size_t qhead, qtail;
};

static struct ccnx_key *key;

static int fake_send(void *arg, unsigned faceid, const uint8_t *msg, size_t len)
{
    struct node *n = arg;
    struct net *net = n->net;
    assert_true(faceid < MAXFACE && n->exists[faceid]);
    assert_true(net->nlog < MAXLOG);
    struct sent *s = &net->log[net->nlog++];
    s->node = n->idx;
    s->face = faceid;
    s->msg = malloc(len);
    memcpy(s->msg, msg, len);
    s->len = len;
    if (n->peer[faceid]) {
        assert_true(net->qtail < MAXLOG);
        struct sent *q = &net->queue[net->qtail++];
        q->node = n->peer[faceid] - 1;
        q->face = n->peer_face[faceid];
        q->msg = s->msg;
        q->len = len;
    }
    return 0;
}

static int fake_props(void *arg, unsigned faceid, struct fw_face_props *out)
{
    struct node *n = arg;
    if (faceid >= MAXFACE || !n->exists[faceid])
        return -1;
    memset(out, 0, sizeof(*out));
    out->local = n->local[faceid];
    return 0;
}

static const struct fw_ops fake_ops = {fake_send, fake_props};

static struct net *net_new(int nnodes)
{
    struct net *net = calloc(1, sizeof(*net));
    for (int i = 0; i < nnodes; i++) {
        struct fw_config c;
        fw_config_default(&c);
        c.seed = 12345 + (uint64_t)i;
        net->nodes[i].net = net;
        net->nodes[i].idx = i;
        net->nodes[i].fw = fw_create(&c, &fake_ops, &net->nodes[i]);
        assert_non_null(net->nodes[i].fw);
    }
    return net;
}

static void net_clear_log(struct net *net)
{
    for (size_t i = 0; i < net->nlog; i++)
        free(net->log[i].msg);
    net->nlog = 0;
    net->qhead = net->qtail = 0;
}

static void net_free(struct net *net)
{
    net_clear_log(net);
    for (int i = 0; i < 3; i++)
        fw_destroy(net->nodes[i].fw);
    free(net);
}

static void face(struct node *n, unsigned f, int local)
{
    n->exists[f] = 1;
    n->local[f] = local;
}

static size_t sends_to(const struct net *net, int node, unsigned f, int64_t dtag)
{
    size_t k = 0;
    for (size_t i = 0; i < net->nlog; i++) {
        struct ccnx_ccnb_reader r;
        ccnx_ccnb_reader_init(&r, net->log[i].msg, net->log[i].len, 0);
        if (net->log[i].node == node && net->log[i].face == f &&
            (dtag < 0 || ccnx_ccnb_peek_dtag(&r) == dtag))
            k++;
    }
    return k;
}

static const struct sent *last_to(const struct net *net, int node, unsigned f)
{
    for (size_t i = net->nlog; i-- > 0;)
        if (net->log[i].node == node && net->log[i].face == f)
            return &net->log[i];
    return NULL;
}

/* ---- message builders ---- */

static void name_of(const char *uri, struct ccnx_name *n)
{
    assert_int_equal(ccnx_name_init(n), 0);
    assert_int_equal(ccnx_uri_parse_str(n, uri), 0);
}

static void interest(struct ccnx_buf *out, const char *uri, int scope, int aok,
                     const uint8_t *nonce, size_t nlen)
{
    struct ccnx_name n;
    struct ccnx_interest_params p;
    name_of(uri, &n);
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.scope = scope;
    p.answer_origin_kind = aok;
    p.nonce = nonce;
    p.nonce_len = nlen;
    ccnx_buf_init(out);
    assert_int_equal(ccnx_interest_build(out, &p), 0);
    ccnx_name_free(&n);
}

static void content(struct ccnx_buf *out, const char *uri, const char *body)
{
    struct ccnx_name n;
    struct ccnx_content_params p;
    name_of(uri, &n);
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.content = (const uint8_t *)body;
    p.content_len = strlen(body);
    ccnx_buf_init(out);
    assert_int_equal(ccnx_content_sign(out, &p, key), 0);
    ccnx_name_free(&n);
}

static void route(struct node *n, const char *uri, unsigned f, unsigned flags)
{
    struct ccnx_name nm;
    name_of(uri, &nm);
    assert_int_equal(
        fib_add(fw_fib(n->fw), nm.enc.data, nm.enc.len, f, flags, FIB_NEVER, FIB_OWNER_NONE), 0);
    ccnx_name_free(&nm);
}

static void set_strategy(struct node *n, const char *uri, const char *s)
{
    struct ccnx_name nm;
    name_of(uri, &nm);
    assert_int_equal(
        fib_set_strategy(fw_fib(n->fw), nm.enc.data, nm.enc.len, s, "", FIB_OWNER_NONE), 0);
    ccnx_name_free(&nm);
}

static void deliver(struct node *n, unsigned f, const struct ccnx_buf *b, uint64_t now)
{
    fw_on_message(n->fw, f, b->data, b->len, now);
}

static void express(struct node *n, unsigned f, const char *uri, uint64_t now)
{
    struct ccnx_buf b;
    interest(&b, uri, -1, -1, NULL, 0);
    deliver(n, f, &b, now);
    ccnx_buf_free(&b);
}

static void produce(struct node *n, unsigned f, const char *uri, uint64_t now)
{
    struct ccnx_buf b;
    content(&b, uri, "data");
    deliver(n, f, &b, now);
    ccnx_buf_free(&b);
}

#define FWD (CCNX_FORW_ACTIVE | CCNX_FORW_CHILD_INHERIT)

static int setup(void **state)
{
    (void)state;
    return ccnx_key_generate(1024, &key) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(key);
    return 0;
}

/* ---- pipelines ---- */

static void test_cs_hit_on_arrival_face(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 2, 1);
    face(n, 3, 0);
    route(n, "ccnx:/a", 3, FWD);
    express(n, 1, "ccnx:/a/b", 0);
    produce(n, 3, "ccnx:/a/b", 10);
    assert_int_equal(sends_to(net, 0, 1, CCNX_DTAG_ContentObject), 1);
    net_clear_log(net);
    express(n, 2, "ccnx:/a/b", 20); /* now from the store, no upstream send */
    assert_int_equal(sends_to(net, 0, 2, CCNX_DTAG_ContentObject), 1);
    assert_int_equal(net->nlog, 1);
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_cs_answered, 1);
    net_free(net);
}

static void test_aggregation(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 2, 1);
    face(n, 3, 0);
    route(n, "ccnx:/a", 3, FWD);
    set_strategy(n, "ccnx:/a", "parallel");
    express(n, 1, "ccnx:/a/x", 0);
    express(n, 2, "ccnx:/a/x", 1);
    assert_int_equal(sends_to(net, 0, 3, CCNX_DTAG_Interest), 1); /* not forwarded again */
    produce(n, 3, "ccnx:/a/x", 10);
    assert_int_equal(sends_to(net, 0, 1, CCNX_DTAG_ContentObject), 1);
    assert_int_equal(sends_to(net, 0, 2, CCNX_DTAG_ContentObject), 1);
    assert_int_equal(pit_count(fw_pit(n->fw)), 0);
    net_free(net);
}

static void test_unsolicited(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 3, 0);
    produce(n, 3, "ccnx:/u/1", 0); /* from a neighbour: dropped */
    assert_int_equal(cs_count(fw_cs(n->fw)), 0);
    produce(n, 1, "ccnx:/u/2", 0); /* from a local application: kept */
    assert_int_equal(cs_count(fw_cs(n->fw)), 1);
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.content_unsolicited, 1);
    assert_int_equal(st.content_unsolicited_kept, 1);
    assert_int_equal(net->nlog, 0);
    net_free(net);
}

static void test_nonce(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 0);
    face(n, 2, 0);
    face(n, 3, 0);
    route(n, "ccnx:/a", 3, FWD);
    set_strategy(n, "ccnx:/a", "parallel");
    /* absent: one is added to what goes upstream */
    express(n, 1, "ccnx:/a/n1", 0);
    const struct sent *s = last_to(net, 0, 3);
    assert_non_null(s);
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(s->msg, s->len, &pi), 0);
    assert_int_equal(pi.nonce.len, 12);
    /* the same nonce from another face: a duplicate */
    struct ccnx_buf b;
    static const uint8_t nonce[] = {1, 2, 3, 4, 5, 6};
    interest(&b, "ccnx:/a/n2", -1, -1, nonce, sizeof(nonce));
    deliver(n, 1, &b, 1);
    deliver(n, 2, &b, 2);
    ccnx_buf_free(&b);
    interest(&b, "ccnx:/a/other", -1, -1, nonce, sizeof(nonce));
    deliver(n, 2, &b, 3); /* same nonce, other name, other face: still a loop */
    ccnx_buf_free(&b);
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_duplicate, 2);
    assert_int_equal(st.interests_nonce_added, 1);
    assert_int_equal(sends_to(net, 0, 3, CCNX_DTAG_Interest), 2);
    net_free(net);
}

static void test_scope(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1); /* local app */
    face(n, 2, 1); /* local producer */
    face(n, 3, 0); /* neighbour */
    face(n, 4, 0);
    route(n, "ccnx:/s", 2, FWD);
    route(n, "ccnx:/s", 3, FWD);
    set_strategy(n, "ccnx:/s", "parallel");
    struct ccnx_buf b;
    interest(&b, "ccnx:/s/0", 0, -1, NULL, 0);
    deliver(n, 1, &b, 0);
    ccnx_buf_free(&b);
    assert_int_equal(net->nlog, 0); /* Scope 0 never leaves */
    interest(&b, "ccnx:/s/1", 1, -1, NULL, 0);
    deliver(n, 1, &b, 0);
    deliver(n, 4, &b, 0); /* Scope 1 from a neighbour: out of scope */
    ccnx_buf_free(&b);
    assert_int_equal(sends_to(net, 0, 2, -1), 1);
    assert_int_equal(sends_to(net, 0, 3, -1), 0);
    interest(&b, "ccnx:/s/2", 2, -1, NULL, 0);
    deliver(n, 4, &b, 0); /* Scope 2 from a neighbour: local faces only */
    ccnx_buf_free(&b);
    assert_int_equal(sends_to(net, 0, 2, -1), 2);
    assert_int_equal(sends_to(net, 0, 3, -1), 0);
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_out_of_scope, 1);
    net_free(net);
}

/* %C1.M.S.localhost is this host's: a neighbour asking for it gets
 * nothing, not even from the content store, and the drop is counted. */
static void test_localhost_not_for_neighbours(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1); /* local app */
    face(n, 2, 1); /* local producer */
    face(n, 3, 0); /* neighbour */
    route(n, "ccnx:/%C1.M.S.localhost/secret", 2, FWD);
    express(n, 1, "ccnx:/%C1.M.S.localhost/secret", 0);
    produce(n, 2, "ccnx:/%C1.M.S.localhost/secret", 10); /* now in the store */
    assert_int_equal(sends_to(net, 0, 1, CCNX_DTAG_ContentObject), 1);
    net_clear_log(net);
    express(n, 3, "ccnx:/%C1.M.S.localhost/secret", 20);
    assert_int_equal(net->nlog, 0);
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_nonlocal, 1);
    express(n, 1, "ccnx:/%C1.M.S.localhost/secret", 30); /* a local app still gets it */
    assert_int_equal(sends_to(net, 0, 1, CCNX_DTAG_ContentObject), 1);
    net_free(net);
}

/* Nor does this host send it out: a route to a neighbour under
 * %C1.M.S.localhost (or a default route) is not taken, a local producer's
 * still is, and the withheld send is counted. */
static void test_localhost_never_leaves(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1); /* local app */
    face(n, 2, 1); /* local producer */
    face(n, 3, 0); /* neighbour */
    route(n, "ccnx:/", 3, FWD);
    route(n, "ccnx:/%C1.M.S.localhost/svc", 3, FWD);
    route(n, "ccnx:/%C1.M.S.localhost/svc", 2, FWD);
    set_strategy(n, "ccnx:/", "parallel"); /* sends at once */
    express(n, 1, "ccnx:/%C1.M.S.localhost/svc/a", 0);
    express(n, 1, "ccnx:/%C1.M.S.localhost/other", 0);
    express(n, 1, "ccnx:/elsewhere", 0);
    assert_int_equal(sends_to(net, 0, 2, CCNX_DTAG_Interest), 1);
    assert_int_equal(sends_to(net, 0, 3, CCNX_DTAG_Interest), 1); /* ccnx:/elsewhere only */
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_kept_local, 2);
    net_free(net);
}

static void test_aok_skips_cs(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 3, 0);
    route(n, "ccnx:/a", 3, FWD);
    set_strategy(n, "ccnx:/a", "parallel");
    produce(n, 1, "ccnx:/a/c", 0); /* kept: local */
    struct ccnx_buf b;
    interest(&b, "ccnx:/a/c", -1, CCNX_AOK_NEW, NULL, 0);
    deliver(n, 1, &b, 1);
    ccnx_buf_free(&b);
    assert_int_equal(sends_to(net, 0, 1, -1), 0);
    assert_int_equal(sends_to(net, 0, 3, CCNX_DTAG_Interest), 1);
    net_free(net);
}

static void test_longest_prefix_and_flags(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    for (unsigned f = 1; f <= 5; f++)
        face(n, f, 0);
    route(n, "ccnx:/", 2, FWD | CCNX_FORW_CAPTURE_OK);
    route(n, "ccnx:/a", 3, CCNX_FORW_ACTIVE); /* no CHILD_INHERIT */
    route(n, "ccnx:/a/b", 4, FWD | CCNX_FORW_CAPTURE);
    route(n, "ccnx:/a/b/c", 5, FWD);
    set_strategy(n, "ccnx:/", "parallel");
    express(n, 1, "ccnx:/a/b/c/d", 0);
    /* /a/b/c and /a/b; the capture hides / ; /a does not inherit */
    assert_int_equal(sends_to(net, 0, 5, -1), 1);
    assert_int_equal(sends_to(net, 0, 4, -1), 1);
    assert_int_equal(sends_to(net, 0, 3, -1), 0);
    assert_int_equal(sends_to(net, 0, 2, -1), 0);
    express(n, 1, "ccnx:/a/z", 0);
    assert_int_equal(sends_to(net, 0, 3, -1), 1);
    assert_int_equal(sends_to(net, 0, 2, -1), 1);
    /* never back to the arrival face */
    express(n, 2, "ccnx:/q", 0);
    assert_int_equal(sends_to(net, 0, 2, -1), 1);
    net_free(net);
}

static void test_expiry_and_face_destroyed(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 2, 1);
    face(n, 3, 0);
    route(n, "ccnx:/e", 3, FWD);
    express(n, 1, "ccnx:/e/1", 0); /* default lifetime 4 s */
    express(n, 2, "ccnx:/e/2", 0);
    assert_int_equal(pit_count(fw_pit(n->fw)), 2);
    uint64_t next = fw_tick(n->fw, 1);
    assert_true(next <= 4 * SEC + 1);
    fw_on_face_destroyed(n->fw, 2);
    assert_int_equal(pit_count(fw_pit(n->fw)), 1);
    fw_tick(n->fw, 5 * SEC);
    assert_int_equal(pit_count(fw_pit(n->fw)), 0);
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_expired, 1);
    fw_on_face_destroyed(n->fw, 3);
    assert_int_equal(fib_prefix_count(fw_fib(n->fw)), 0);
    net_free(net);
}

/* The strategy's memory of a prefix hangs on its FIB node: one per prefix
 * Interests went under, kept while a pending Interest uses it, gone with
 * the prefix's last registration. */
static void test_strategy_memory_trimmed(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 2, 0);
    face(n, 3, 0);
    route(n, "ccnx:/m/a", 2, FWD);
    route(n, "ccnx:/m/b", 3, FWD);
    express(n, 1, "ccnx:/m/a/1", 0);
    express(n, 1, "ccnx:/m/a/2", 0);
    express(n, 1, "ccnx:/m/b/1", 0);
    assert_int_equal(fw_strategy_memories(n->fw), 2);
    produce(n, 2, "ccnx:/m/a/1", 10);
    /* /m/a's face goes while /m/a/2 still waits: its memory stays until
     * that Interest is done, then goes with the prefix */
    fw_on_face_destroyed(n->fw, 2);
    assert_int_equal(fib_prefix_count(fw_fib(n->fw)), 1);
    assert_int_equal(fw_strategy_memories(n->fw), 2);
    fw_tick(n->fw, 5 * SEC);
    assert_int_equal(pit_count(fw_pit(n->fw)), 0);
    assert_int_equal(fw_strategy_memories(n->fw), 1);
    fw_on_face_destroyed(n->fw, 3);
    assert_int_equal(fw_strategy_memories(n->fw), 0);
    net_free(net);
}

/* An Interest sent again once its lifetime is over starts a new entry, and
 * so is forwarded by a route added meanwhile, whether or not a tick ran in
 * between to retire the old one. Before that, Interests with new nonces
 * (a downstream's retransmissions, or another downstream joining) go
 * upstream again at most once per gap (10 ms with no history, doubling);
 * within it they are only aggregated. */
static void test_resend_after_lifetime(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 2, 1);
    face(n, 3, 1);
    express(n, 1, "ccnx:/late", 0); /* no route yet: it waits, 4 s */
    route(n, "ccnx:/late", 2, FWD);
    express(n, 1, "ccnx:/late", 2 * SEC); /* joins the pending one... */
    fw_tick(n->fw, 2 * SEC + 200000);
    assert_int_equal(sends_to(net, 0, 2, -1), 1); /* ...and reaches the new upstream */
    express(n, 1, "ccnx:/late", 3 * SEC);         /* a retransmission: sent again */
    assert_int_equal(sends_to(net, 0, 2, -1), 2);
    express(n, 1, "ccnx:/late", 3 * SEC + 10000); /* within the gap, now 20 ms */
    assert_int_equal(sends_to(net, 0, 2, -1), 2);
    express(n, 1, "ccnx:/late", 3 * SEC + 20000); /* past it */
    assert_int_equal(sends_to(net, 0, 2, -1), 3);
    express(n, 3, "ccnx:/late", 3 * SEC + 50000); /* a new downstream joins, within 40 ms */
    assert_int_equal(sends_to(net, 0, 2, -1), 3);
    express(n, 3, "ccnx:/late", 3 * SEC + 70000); /* ... and asks again after them */
    assert_int_equal(sends_to(net, 0, 2, -1), 4);
    struct fw_stats st;
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_retransmitted, 3);
    assert_int_equal(st.interests_suppressed, 2);
    express(n, 1, "ccnx:/late", 8 * SEC); /* every lifetime is over */
    fw_tick(n->fw, 8 * SEC + 200000);     /* the strategy's first send (no history yet) */
    assert_int_equal(sends_to(net, 0, 2, -1), 5);
    fw_get_stats(n->fw, &st);
    assert_int_equal(st.interests_expired, 1);
    assert_int_equal(pit_count(fw_pit(n->fw)), 1);
    net_free(net);
}

static int internal_calls;
static int internal_handler(void *arg, unsigned faceid, const uint8_t *msg, size_t len)
{
    (void)faceid;
    struct node *n = arg;
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(msg, len, &pi), 0);
    internal_calls++;
    /* answer as the internal client does: through face 0 */
    struct ccnx_buf b;
    content(&b, "ccnx:/ccnx/abc/newface", "ok");
    fw_on_message(n->fw, FW_INTERNAL_FACE, b.data, b.len, 1);
    ccnx_buf_free(&b);
    return 1;
}

static void test_internal_hook(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1);
    face(n, 3, 0);
    route(n, "ccnx:/", 3, FWD);
    fw_set_internal(n->fw, internal_handler, n);
    express(n, 1, "ccnx:/ccnx/abc/newface", 0);
    assert_int_equal(internal_calls, 1);
    assert_int_equal(sends_to(net, 0, 3, -1), 0); /* not to the FIB */
    assert_int_equal(sends_to(net, 0, 1, CCNX_DTAG_ContentObject), 1);
    express(n, 1, "ccnx:/other", 0);
    assert_int_equal(internal_calls, 1);
    net_free(net);
}

/* ---- strategies ---- */

static void two_upstreams(struct node *n, const char *strategy)
{
    face(n, 1, 1);
    face(n, 2, 0);
    face(n, 3, 0);
    route(n, "ccnx:/d", 2, FWD);
    route(n, "ccnx:/d", 3, FWD);
    if (strategy != NULL)
        set_strategy(n, "ccnx:/d", strategy);
}

static void test_default_strategy(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    two_upstreams(n, NULL);
    express(n, 1, "ccnx:/d/1", 0);
    assert_int_equal(net->nlog, 0); /* no history: tried a little later */
    uint64_t next = fw_tick(n->fw, 0);
    assert_true(next > 0 && next <= 4000);
    fw_tick(n->fw, 200000);
    assert_int_equal(sends_to(net, 0, 2, -1), 1);
    assert_int_equal(sends_to(net, 0, 3, -1), 1);
    produce(n, 3, "ccnx:/d/1", 200100); /* face 3 answered first */
    net_clear_log(net);
    express(n, 1, "ccnx:/d/2", 300000);
    assert_int_equal(sends_to(net, 0, 3, -1), 1); /* at once to the face that answered */
    assert_int_equal(sends_to(net, 0, 2, -1), 0);
    fw_tick(n->fw, 300010);
    assert_int_equal(sends_to(net, 0, 2, -1), 0);
    fw_tick(n->fw, 360000); /* the prediction (~50 ms) passed: the other face */
    assert_int_equal(sends_to(net, 0, 2, -1), 1);
    produce(n, 3, "ccnx:/d/2", 360100);
    assert_int_equal(sends_to(net, 0, 1, CCNX_DTAG_ContentObject), 1);
    /* One new Interest in 64 also goes at once to the other face. Face 3
     * keeps answering in 3 ms, later than predicted (its prediction grows);
     * face 2 answers the probe in 0.1 ms, so its prediction is lower and it
     * becomes the chosen face. */
    char uri[32];
    uint64_t t = 400000;
    for (int i = 3; i <= 65; i++, t += 10000) { /* /d/2 was the first sent */
        snprintf(uri, sizeof uri, "ccnx:/d/%d", i);
        net_clear_log(net);
        express(n, 1, uri, t);
        assert_int_equal(sends_to(net, 0, 2, -1), i == 65); /* the probe */
        if (i == 65) {
            produce(n, 2, uri, t + 100);
        } else {
            fw_tick(n->fw, t + 3000);
            produce(n, 3, uri, t + 3000);
        }
    }
    net_clear_log(net);
    express(n, 1, "ccnx:/d/66", t);
    assert_int_equal(sends_to(net, 0, 2, -1), 1);
    assert_int_equal(sends_to(net, 0, 3, -1), 0);
    net_free(net);
}

static void test_parallel_and_null(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    two_upstreams(n, "parallel");
    express(n, 1, "ccnx:/d/p", 0);
    assert_int_equal(sends_to(net, 0, 2, -1), 1);
    assert_int_equal(sends_to(net, 0, 3, -1), 1);
    net_clear_log(net);
    set_strategy(n, "ccnx:/d", "null");
    express(n, 1, "ccnx:/d/n", 0);
    fw_tick(n->fw, 3 * SEC);
    assert_int_equal(net->nlog, 0);
    net_free(net);
}

static void test_loadsharing(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    two_upstreams(n, "loadsharing");
    const char *names[] = {"ccnx:/d/l1", "ccnx:/d/l2", "ccnx:/d/l3", "ccnx:/d/l4"};
    for (int i = 0; i < 4; i++)
        express(n, 1, names[i], 0);
    assert_int_equal(sends_to(net, 0, 2, -1), 2);
    assert_int_equal(sends_to(net, 0, 3, -1), 2);
    fw_tick(n->fw, SEC); /* no answers: each goes to the other face too */
    assert_int_equal(sends_to(net, 0, 2, -1), 4);
    assert_int_equal(sends_to(net, 0, 3, -1), 4);
    net_free(net);
}

/* ---- the reference's own exchange ---- */

static void nth_element(const struct ccnx_buf *b, int k, const uint8_t **p, size_t *len)
{
    size_t pos = 0, end = 0;
    for (int i = 0; i <= k; i++) {
        assert_int_equal(ccnx_ccnb_element_end(b->data, b->len, pos, &end), 0);
        if (i < k)
            pos = end;
    }
    *p = b->data + pos;
    *len = end - pos;
}

static void test_vector_exchange(void **state)
{
    (void)state;
    struct net *net = net_new(1);
    struct node *n = &net->nodes[0];
    face(n, 1, 1); /* consumer */
    face(n, 2, 1); /* producer */
    struct ccnx_buf ci, pr, cp, cc;
    ccnx_buf_init(&ci);
    ccnx_buf_init(&pr);
    ccnx_buf_init(&cp);
    ccnx_buf_init(&cc);
    tu_read_vector("stream_unix_consumer_to_ccnd.ccnb", &ci);
    tu_read_vector("stream_unix_producer_to_ccnd.ccnb", &pr);
    tu_read_vector("stream_unix_ccnd_to_producer.ccnb", &cp);
    tu_read_vector("stream_unix_ccnd_to_consumer.ccnb", &cc);
    route(n, "ccnx:/example/vec/unix", 2, FWD);
    fw_on_message(n->fw, 1, ci.data, ci.len, 0);
    fw_tick(n->fw, 200000);
    const struct sent *s = last_to(net, 0, 2);
    assert_non_null(s);
    const uint8_t *ref;
    size_t reflen;
    nth_element(&cp, 2, &ref, &reflen);
    struct ccnx_interest_parsed ours, theirs;
    assert_int_equal(ccnx_interest_parse(s->msg, s->len, &ours), 0);
    assert_int_equal(ccnx_interest_parse(ref, reflen, &theirs), 0);
    /* the same Interest as the reference forwards, up to the nonce value */
    assert_true(ours.nonce.len > 0 && theirs.nonce.len > 0);
    assert_int_equal(ours.name.len, theirs.name.len);
    assert_memory_equal(s->msg + ours.name.off, ref + theirs.name.off, ours.name.len);
    assert_int_equal(ours.nonce.off, theirs.nonce.off);
    assert_memory_equal(s->msg, ref, ours.nonce.off - 1);
    const uint8_t *obj;
    size_t olen;
    nth_element(&pr, 2, &obj, &olen);
    fw_on_message(n->fw, 2, obj, olen, 300000);
    s = last_to(net, 0, 1);
    assert_non_null(s);
    assert_int_equal(sends_to(net, 0, 1, -1), 1);
    assert_int_equal(s->len, cc.len);
    assert_memory_equal(s->msg, cc.data, cc.len);
    ccnx_buf_free(&ci);
    ccnx_buf_free(&pr);
    ccnx_buf_free(&cp);
    ccnx_buf_free(&cc);
    net_free(net);
}

/* ---- a loop of three forwarders ---- */

static void link_nodes(struct net *net, int a, unsigned fa, int b, unsigned fb)
{
    face(&net->nodes[a], fa, 0);
    face(&net->nodes[b], fb, 0);
    net->nodes[a].peer[fa] = b + 1;
    net->nodes[a].peer_face[fa] = fb;
    net->nodes[b].peer[fb] = a + 1;
    net->nodes[b].peer_face[fb] = fa;
}

static size_t net_run(struct net *net, uint64_t now)
{
    size_t steps = 0;
    while (net->qhead < net->qtail && steps < 1000) {
        struct sent q = net->queue[net->qhead++];
        fw_on_message(net->nodes[q.node].fw, q.face, q.msg, q.len, now);
        steps++;
    }
    return steps;
}

static void test_triangle(void **state)
{
    (void)state;
    struct net *net = net_new(3);
    /* A.2 -> B.3, B.2 -> C.3, C.2 -> A.3; each routes /t to its next node */
    link_nodes(net, 0, 2, 1, 3);
    link_nodes(net, 1, 2, 2, 3);
    link_nodes(net, 2, 2, 0, 3);
    for (int i = 0; i < 3; i++) {
        face(&net->nodes[i], 1, 1);
        route(&net->nodes[i], "ccnx:/t", 2, FWD);
        set_strategy(&net->nodes[i], "ccnx:/t", "parallel");
    }
    route(&net->nodes[1], "ccnx:/t", 1, FWD); /* the producer sits on B */
    express(&net->nodes[0], 1, "ccnx:/t/x", 0);
    size_t steps = net_run(net, 1);
    assert_true(steps < 10); /* the loop is cut by the nonce */
    assert_int_equal(sends_to(net, 1, 1, CCNX_DTAG_Interest), 1);
    struct fw_stats st;
    fw_get_stats(net->nodes[0].fw, &st);
    assert_int_equal(st.interests_duplicate, 1);
    produce(&net->nodes[1], 1, "ccnx:/t/x", 2);
    net_run(net, 3);
    assert_int_equal(sends_to(net, 0, 1, CCNX_DTAG_ContentObject), 1);
    for (int i = 0; i < 3; i++)
        fw_tick(net->nodes[i].fw, 10 * SEC);
    for (int i = 0; i < 3; i++)
        assert_int_equal(pit_count(fw_pit(net->nodes[i].fw)), 0);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cs_hit_on_arrival_face),
        cmocka_unit_test(test_aggregation),
        cmocka_unit_test(test_unsolicited),
        cmocka_unit_test(test_nonce),
        cmocka_unit_test(test_scope),
        cmocka_unit_test(test_aok_skips_cs),
        cmocka_unit_test(test_longest_prefix_and_flags),
        cmocka_unit_test(test_expiry_and_face_destroyed),
        cmocka_unit_test(test_strategy_memory_trimmed),
        cmocka_unit_test(test_resend_after_lifetime),
        cmocka_unit_test(test_internal_hook),
        cmocka_unit_test(test_localhost_not_for_neighbours),
        cmocka_unit_test(test_localhost_never_leaves),
        cmocka_unit_test(test_default_strategy),
        cmocka_unit_test(test_parallel_and_null),
        cmocka_unit_test(test_loadsharing),
        cmocka_unit_test(test_vector_exchange),
        cmocka_unit_test(test_triangle),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
