/* What the Sync agent asks of its neighbours (docs/sync.md): our Root
 * Advise, which a neighbour with another root answers with its root node;
 * then, one neighbour's tree at a time, the nodes our diff asks for (Node
 * Fetch) and the content we lack by full name, at most CCNS_MAX_FETCH_BUSY
 * at once per slice, verified before it is stored. */
#include "sync_agent.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/verifier.h>

#include <stdlib.h>
#include <string.h>

/* A Node Fetch or content Interest in flight. */
struct sync_req {
    struct sync_req *next;
    struct sync_slice *sl;
    struct ccnx_sync_hash hash; /* the node asked for (len 0: content) */
    int is_root;                /* a neighbour's root, its diff's first node */
    uint64_t id;
};

static void forget(struct sync_req *q)
{
    for (struct sync_req **pp = &q->sl->ag->inflight; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == q) {
            *pp = q->next;
            break;
        }
    }
    q->sl->busy--;
    free(q);
}

#define ROOT_ASK_S 1 /* seconds */

static int lifetime_units(long seconds)
{
    return (int)(seconds * 4096);
}

/* ---- Root Advise ---- */

static void advise_answered(void *arg, const uint8_t *obj, size_t len,
                            const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct sync_slice *sl = arg;
    sl->ra_id = 0;
    sync_log(sl->ag, CCNR_FINER, "our Root Advise was answered");
    struct ccnx_name n;
    struct ccnx_comp root;
    ccnx_name_init(&n);
    int ok = ccnx_name_set_ccnb(&n, obj + pc->name.off, pc->name.len) == 0 &&
             ccnx_name_comp(&n, sl->ra_prefix.count + 1, &root) == 0 &&
             root.n <= CCNX_SYNC_HASH_MAX;
    if (ok && sl->diff != NULL) {
        /* one comparison at a time: this root is walked when it ends, and
         * no Root Advise goes out meanwhile (an answer at once to each
         * would be a storm while a neighbour's root keeps changing) */
        ccnx_sync_hash_set(&sl->later, root.p, root.n);
        ccnx_name_free(&n);
        return;
    }
    if (ok && ccnx_sync_diff_create(sl->tree, &sl->diff) == 0) {
        struct ccnx_sync_hash h;
        ccnx_sync_hash_set(&h, root.p, root.n);
        sl->walking = h;
        sl->walk_incomplete = 0;
        if (ccnx_sync_diff_feed(sl->diff, obj + pc->content_value.off, pc->content_value.len) !=
            0) {
            ccnx_sync_seen_add(&sl->seen, &h); /* a lie: excluded from now on */
            sl->ag->refused++;
            sync_log(sl->ag, CCNR_WARNING, "a neighbour's root node was refused");
            ccnx_sync_diff_destroy(sl->diff);
            sl->diff = NULL;
            ccnx_name_free(&n);
            return; /* advised again on the heartbeat, not at once */
        }
    }
    ccnx_name_free(&n);
    /* advised again on the next heartbeat (ra_id is 0), once no comparison
     * runs: at most one Root Advise a tick, whatever answers it (a
     * forwarder's cache may hold more answers than our Exclude lists) */
    sync_pump(sl);
}

static void advise_expired(void *arg)
{
    struct sync_slice *sl = arg;
    sl->ra_id = 0; /* the heartbeat advises again */
    /* No neighbour answered for a whole lifetime: the next Root Advise
     * excludes nothing, so that a root we took as walked when some of it
     * did not come is offered again (a walk of what we hold costs one
     * node). */
    ccnx_sync_seen_clear(&sl->seen);
}

void sync_advise(struct sync_slice *sl)
{
    struct ccnr *r = sl->ag->r;
    if (sl->ra_id != 0) {
        ccnx_client_cancel(r->c, sl->ra_id);
        sl->ra_id = 0;
    }
    const struct ccnx_sync_hash *root = ccnx_sync_tree_hash(sl->tree);
    const uint8_t *node;
    size_t node_len;
    /* the nodes of the root we advise are built now, while it is ours: a
     * neighbour asks for them a moment later, when names may have come */
    (void)ccnx_sync_tree_root(sl->tree, &node, &node_len);
    struct ccnx_buf ib = CCNX_BUF_INIT;
    int rc =
        ccnx_sync_root_advise_interest(&ib, &sl->ra_prefix, root, &sl->seen, (int)r->set.sync.scope,
                                       (unsigned)r->set.sync.ra_lifetime_s);
    struct ccnx_express_opts o = {advise_answered, advise_expired, sl, 0, 0, 0};
    rc = rc == 0 ? ccnx_client_express(r->c, ib.data, ib.len, &o, &sl->ra_id) : rc;
    if (rc != 0) {
        sl->ra_id = 0;
        sync_log(sl->ag, CCNR_ERROR, "cannot send a Root Advise: %s", ccnx_strerror(rc));
    }
    if (!ccnx_sync_hash_equal(&sl->advised, root)) {
        sync_answer_held(sl); /* they wait for a root other than theirs */
        struct ccnx_buf hex = CCNX_BUF_INIT;
        ccnx_sync_hash_hex(root, &hex);
        sync_log(sl->ag, CCNR_FINE, "root %s, %zu names", ccnx_buf_cstr(&hex),
                 ccnx_sync_tree_count(sl->tree));
        ccnx_buf_free(&hex);
    }
    sl->advised = *root;
    ccnx_buf_free(&ib);
}

/* ---- Nodes and content ---- */

static int ask_node(struct sync_slice *sl, const struct ccnx_sync_hash *h, int is_root);

void sync_fetch_root(struct sync_slice *sl, const struct ccnx_sync_hash *h)
{
    if (ccnx_sync_seen_has(&sl->seen, h)) {
        return; /* walked already */
    }
    if (sl->diff != NULL) {
        sl->later = *h; /* walked once this comparison ends */
        return;
    }
    if (h->len == 0 || ccnx_sync_diff_create(sl->tree, &sl->diff) != 0) {
        return;
    }
    sl->walking = *h;
    sl->walk_incomplete = 0;
    if (ask_node(sl, h, 1) != 0) {
        ccnx_sync_diff_destroy(sl->diff);
        sl->diff = NULL;
    }
}

/* The walk is over (done, or its root lost or refused): a root advised
 * meanwhile is walked now. */
static void walk_later(struct sync_slice *sl)
{
    struct ccnx_sync_hash later = sl->later;
    ccnx_sync_hash_clear(&sl->later);
    if (later.len > 0 && !ccnx_sync_hash_equal(&later, ccnx_sync_tree_hash(sl->tree))) {
        sync_fetch_root(sl, &later);
    }
}

static void node_came(void *arg, const uint8_t *obj, size_t len,
                      const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct sync_req *q = arg;
    struct sync_slice *sl = q->sl;
    struct ccnx_sync_hash h = q->hash;
    int is_root = q->is_root;
    forget(q);
    sl->ag->nodes_fetched++;
    if (sl->diff != NULL &&
        ccnx_sync_diff_feed(sl->diff, obj + pc->content_value.off, pc->content_value.len) != 0) {
        sl->ag->refused++;
        sync_log(sl->ag, CCNR_WARNING, "a neighbour's node was refused");
        if (is_root) {
            ccnx_sync_seen_add(&sl->seen, &h); /* a lie: excluded from now on */
            ccnx_sync_diff_destroy(sl->diff);  /* nothing to walk */
            sl->diff = NULL;
            walk_later(sl);
        } else {
            sl->walk_incomplete = 1;
            ccnx_sync_diff_give_up(sl->diff, &h);
        }
    }
    sync_pump(sl);
}

static void node_lost(void *arg)
{
    struct sync_req *q = arg;
    struct sync_slice *sl = q->sl;
    int is_root = q->is_root;
    if (is_root) {
        /* gone from its tree (names came since), or the neighbour went
         * away: nothing to walk */
        ccnx_sync_diff_destroy(sl->diff);
        sl->diff = NULL;
    } else if (sl->diff != NULL) {
        sl->walk_incomplete = 1;
        ccnx_sync_diff_give_up(sl->diff, &q->hash);
    }
    forget(q);
    if (is_root) {
        walk_later(sl);
        return;
    }
    sync_pump(sl);
}

static void content_checked(void *arg, int result, const char *error, const uint8_t *obj,
                            size_t len, const struct ccnx_content_parsed *pc)
{
    struct sync_slice *sl = arg;
    if (!sl->in_check && sl->verifying > 0) {
        sl->verifying--; /* its key came (or did not): the check is over */
    }
    struct ccnx_name n;
    ccnx_name_init(&n);
    int covered = ccnx_name_set_ccnb(&n, obj + pc->name.off, pc->name.len) == 0 &&
                  ccnx_sync_slice_covers(&sl->s, n.enc.data, n.enc.len);
    ccnx_name_free(&n);
    if (result != 0 || !covered) {
        sl->walk_incomplete |= result != 0; /* maybe its key did not come */
        sl->ag->refused++;
        sync_log(sl->ag, CCNR_WARNING, "refused content from a neighbour: %s",
                 result != 0 ? error : "outside the slice");
        return;
    }
    if (ccnr_write_store(sl->ag->r, obj, len) >= 0) {
        sl->ag->names_fetched++;
    } else {
        sl->walk_incomplete = 1; /* not stored: asked again when that root is walked again */
    }
}

static void content_came(void *arg, const uint8_t *obj, size_t len,
                         const struct ccnx_content_parsed *pc)
{
    struct sync_req *q = arg;
    struct sync_slice *sl = q->sl;
    struct ccnr *r = sl->ag->r;
    forget(q);
    if (r->set.verify) {
        sl->in_check = 1;
        int rc = ccnx_verifier_check(r->verifier, obj, len, pc, content_checked, sl);
        sl->in_check = 0;
        sl->verifying += rc == 1; /* its key is being fetched */
    } else {
        content_checked(sl, 0, NULL, obj, len, pc);
    }
    sync_pump(sl);
}

static void content_lost(void *arg)
{
    struct sync_req *q = arg;
    struct sync_slice *sl = q->sl;
    forget(q);
    sl->walk_incomplete = 1; /* asked again when that root is walked again */
    sync_pump(sl);
}

/* Expresses the Interest ib: for the node of hash h (is_root: a root), or
 * for content when h is empty. */
static int express(struct sync_slice *sl, const struct ccnx_buf *ib, const struct ccnx_sync_hash *h,
                   int is_root)
{
    struct sync_req *q = calloc(1, sizeof *q);
    if (q == NULL) {
        return CCNX_E_NOMEM;
    }
    q->sl = sl;
    q->hash = *h;
    q->is_root = is_root;
    struct ccnx_express_opts o = {h->len > 0 ? node_came : content_came,
                                  h->len > 0 ? node_lost : content_lost,
                                  q,
                                  0,
                                  is_root ? 0 : 1,
                                  0};
    int rc = ccnx_client_express(sl->ag->r->c, ib->data, ib->len, &o, &q->id);
    if (rc != 0) {
        free(q);
        return rc;
    }
    q->next = sl->ag->inflight;
    sl->ag->inflight = q;
    sl->busy++;
    return 0;
}

/* A root heard in a neighbour's Root Advise Interest is asked for once,
 * for ROOT_ASK_S: one that exists comes back in milliseconds, but the root
 * may be a follower's (ccnsyncwatch holds no nodes to give) or already
 * gone from its tree, and the walk waits for it. */
static int ask_node(struct sync_slice *sl, const struct ccnx_sync_hash *h, int is_root)
{
    const struct ccnr_sync_set *set = &sl->ag->r->set.sync;
    struct ccnx_buf ib = CCNX_BUF_INIT;
    int rc = ccnx_sync_node_fetch_interest(&ib, &sl->nf_prefix, h, (int)set->scope,
                                           is_root ? ROOT_ASK_S : (unsigned)set->nf_lifetime_s);
    rc = rc == 0 ? express(sl, &ib, h, is_root) : rc;
    ccnx_buf_free(&ib);
    return rc;
}

/* Content by its full name, from wherever it is. */
static int ask_content(struct sync_slice *sl, const uint8_t *name, size_t len)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = name;
    ip.name_len = len;
    ip.lifetime_units = lifetime_units(sl->ag->r->set.sync.nf_lifetime_s);
    struct ccnx_buf ib = CCNX_BUF_INIT;
    struct ccnx_sync_hash none;
    ccnx_sync_hash_clear(&none);
    int rc = ccnx_interest_build(&ib, &ip);
    rc = rc == 0 ? express(sl, &ib, &none, 0) : rc;
    ccnx_buf_free(&ib);
    return rc;
}

/* One more Interest for the diff: 1 when one was sent. */
static int ask_next(struct sync_slice *sl)
{
    struct ccnx_sync_hash h;
    if (ccnx_sync_diff_next_want(sl->diff, &h) == 1) {
        if (ask_node(sl, &h, 0) != 0) {
            ccnx_sync_diff_give_up(sl->diff, &h);
        }
        return 1;
    }
    struct ccnx_buf name = CCNX_BUF_INIT;
    int sent = ccnx_sync_diff_next_missing(sl->diff, &name) == 1;
    if (sent && ccnx_sync_slice_covers(&sl->s, name.data, name.len)) {
        ask_content(sl, name.data, name.len);
    } else if (sent) {
        sl->ag->refused++; /* a neighbour lists a name outside the slice */
    }
    ccnx_buf_free(&name);
    return sent;
}

void sync_pump(struct sync_slice *sl)
{
    if (sl->diff == NULL) {
        return;
    }
    while (sl->busy < (unsigned)sl->ag->r->set.sync.fetch_busy && ask_next(sl)) {
    }
    if (sl->busy == 0 && ccnx_sync_diff_done(sl->diff)) {
        const struct ccnx_sync_diff_stats *st = ccnx_sync_diff_stats(sl->diff);
        sync_log(sl->ag, CCNR_FINE, "compared a neighbour's tree: %llu nodes, %llu names missing",
                 (unsigned long long)st->nodes, (unsigned long long)st->names_missing);
        ccnx_sync_diff_destroy(sl->diff);
        sl->diff = NULL;
        if (!sl->walk_incomplete && sl->verifying == 0) {
            ccnx_sync_seen_add(&sl->seen, &sl->walking); /* all of it held: excluded from now on */
        }
        walk_later(sl);
    }
}

void sync_fetch_stop(struct sync_slice *sl)
{
    struct ccnr *r = sl->ag->r;
    for (struct sync_req **pp = &sl->ag->inflight; *pp != NULL;) {
        struct sync_req *q = *pp;
        if (q->sl != sl) {
            pp = &q->next;
            continue;
        }
        *pp = q->next;
        ccnx_client_cancel(r->c, q->id);
        free(q);
    }
    sl->busy = 0;
    if (sl->ra_id != 0) {
        ccnx_client_cancel(r->c, sl->ra_id);
        sl->ra_id = 0;
    }
    ccnx_verifier_cancel(r->verifier, sl);
    sl->verifying = 0;
    ccnx_sync_diff_destroy(sl->diff);
    sl->diff = NULL;
}
