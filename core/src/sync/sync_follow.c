/* Following a collection (<ccnx/sync_follow.h>): Root Advise with the
 * root of the names seen, then the answering repository's tree walked with
 * the diff against those names, each new one handed over. */
#include <ccnx/sync_follow.h>

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>

#include <stdlib.h>
#include <string.h>

#define BUSY_MAX  4 /* Node Fetch Interests out at once */
#define NF_TRIES  2
#define NF_LIFE_S 4
#define RETRY_MS  1000 /* after a neighbour's root was refused */

struct nf_req {
    struct nf_req *next;
    struct ccnx_sync_follow *f;
    struct ccnx_sync_hash hash;
    int is_root;
    uint64_t id;
};

struct ccnx_sync_follow {
    struct ccnx_client *c;
    struct ccnx_sync_slice slice;
    struct ccnx_name ra_prefix, nf_prefix;
    struct ccnx_sync_tree *seen_names;
    ccnx_sync_name_fn on_name;
    void *arg;
    int scope, lifetime_s;
    uint64_t ra_id;
    struct ccnx_sync_seen seen; /* walked roots, excluded from our Root Advise */
    struct ccnx_sync_diff *diff;
    struct ccnx_sync_hash diff_root;
    int silent;     /* walking the start root: its names are not new */
    int incomplete; /* a node of the walk did not come: its root is walked again */
    struct nf_req *reqs;
    unsigned busy;
    uint64_t retry_timer; /* a Root Advise after a refused answer */
};

static void advise(struct ccnx_sync_follow *f);
static void retry_later(struct ccnx_sync_follow *f);

void ccnx_sync_follow_params_init(struct ccnx_sync_follow_params *p)
{
    memset(p, 0, sizeof *p);
    p->scope = 1;
    p->lifetime_s = CCNX_SYNC_RA_LIFETIME;
}

/* ---- Node Fetch ---- */

static void forget(struct nf_req *q)
{
    struct ccnx_sync_follow *f = q->f;
    for (struct nf_req **pp = &f->reqs; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == q) {
            *pp = q->next;
            break;
        }
    }
    f->busy--;
    free(q);
}

static void pump(struct ccnx_sync_follow *f);

static void end_walk(struct ccnx_sync_follow *f)
{
    ccnx_sync_diff_destroy(f->diff);
    f->diff = NULL;
    f->silent = 0;
    f->incomplete = 0;
}

/* A root is excluded from our Root Advise once all of it was walked, or
 * when it lied; a walk that lost a node (a neighbour busy, or its tree
 * changed meanwhile) leaves its root to be advised again, after a pause
 * (a forwarder's cache may answer with the same root at once). */
static void walk_ended(struct ccnx_sync_follow *f, int lied)
{
    int again = f->incomplete && !lied;
    if (!again) {
        ccnx_sync_seen_add(&f->seen, &f->diff_root);
    }
    end_walk(f);
    if (again || lied) {
        retry_later(f);
    } else {
        advise(f); /* with the new root: what else is there? */
    }
}

static void node_came(void *arg, const uint8_t *obj, size_t len,
                      const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct nf_req *q = arg;
    struct ccnx_sync_follow *f = q->f;
    int is_root = q->is_root;
    struct ccnx_sync_hash h = q->hash;
    forget(q);
    if (is_root) {
        f->diff_root = h;
    }
    if (f->diff != NULL &&
        ccnx_sync_diff_feed(f->diff, obj + pc->content_value.off, pc->content_value.len) != 0) {
        if (is_root) {
            walk_ended(f, 1); /* a root that does not check: nothing to walk */
            return;
        }
        ccnx_sync_diff_give_up(f->diff, &h);
    }
    pump(f);
}

static void node_lost(void *arg)
{
    struct nf_req *q = arg;
    struct ccnx_sync_follow *f = q->f;
    int is_root = q->is_root;
    if (f->diff != NULL && !is_root) {
        ccnx_sync_diff_give_up(f->diff, &q->hash);
    }
    forget(q);
    if (is_root) {
        end_walk(f); /* the start root is gone: follow from what is there */
        advise(f);
        return;
    }
    f->incomplete = 1;
    pump(f);
}

static int fetch_node(struct ccnx_sync_follow *f, const struct ccnx_sync_hash *h, int is_root)
{
    struct nf_req *q = calloc(1, sizeof *q);
    struct ccnx_buf ib = CCNX_BUF_INIT;
    int rc = q == NULL ? CCNX_E_NOMEM
                       : ccnx_sync_node_fetch_interest(&ib, &f->nf_prefix, h, f->scope, NF_LIFE_S);
    if (rc == 0) {
        *q = (struct nf_req){f->reqs, f, *h, is_root, 0};
        struct ccnx_express_opts o = {node_came, node_lost, q, 0, NF_TRIES - 1, 0};
        rc = ccnx_client_express(f->c, ib.data, ib.len, &o, &q->id);
    }
    if (rc == 0) {
        f->reqs = q;
        f->busy++;
    } else {
        free(q);
    }
    ccnx_buf_free(&ib);
    return rc;
}

/* Asks for what the walk wants and hands over the names it finds. */
static void pump(struct ccnx_sync_follow *f)
{
    struct ccnx_sync_hash h;
    struct ccnx_buf name = CCNX_BUF_INIT;
    while (f->diff != NULL && f->busy < BUSY_MAX && ccnx_sync_diff_next_want(f->diff, &h) == 1) {
        if (fetch_node(f, &h, 0) != 0) {
            ccnx_sync_diff_give_up(f->diff, &h);
        }
    }
    while (f->diff != NULL && ccnx_sync_diff_next_missing(f->diff, &name) == 1) {
        if (ccnx_sync_slice_covers(&f->slice, name.data, name.len) &&
            ccnx_sync_tree_add(f->seen_names, name.data, name.len) == 1 && !f->silent &&
            f->on_name != NULL) {
            f->on_name(f->arg, name.data, name.len, &f->diff_root);
        }
    }
    ccnx_buf_free(&name);
    if (f->diff != NULL && f->busy == 0 && ccnx_sync_diff_done(f->diff)) {
        walk_ended(f, 0);
    }
}

/* ---- Root Advise ---- */

static void advised_answered(void *arg, const uint8_t *obj, size_t len,
                             const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct ccnx_sync_follow *f = arg;
    f->ra_id = 0;
    struct ccnx_name n;
    struct ccnx_comp root;
    struct ccnx_sync_hash h;
    ccnx_name_init(&n);
    if (f->diff == NULL && ccnx_name_set_ccnb(&n, obj + pc->name.off, pc->name.len) == 0 &&
        ccnx_name_comp(&n, f->ra_prefix.count + 1, &root) == 0 &&
        ccnx_sync_hash_set(&h, root.p, root.n) == 0 && !ccnx_sync_seen_has(&f->seen, &h) &&
        ccnx_sync_diff_create(f->seen_names, &f->diff) == 0) {
        f->diff_root = h;
        ccnx_name_free(&n);
        if (ccnx_sync_diff_feed(f->diff, obj + pc->content_value.off, pc->content_value.len) != 0) {
            walk_ended(f, 1); /* excluded, advised again after a pause: a liar answers at once */
            return;
        }
        pump(f);
        return;
    }
    ccnx_name_free(&n);
    advise(f);
}

static void retry(void *arg)
{
    struct ccnx_sync_follow *f = arg;
    f->retry_timer = 0;
    advise(f);
}

static void retry_later(struct ccnx_sync_follow *f)
{
    if (f->retry_timer == 0 &&
        ccnx_client_schedule(f->c, RETRY_MS, retry, f, &f->retry_timer) != 0) {
        f->retry_timer = 0;
    }
}

static void advise_expired(void *arg)
{
    struct ccnx_sync_follow *f = arg;
    f->ra_id = 0;
    /* Nobody answered for a whole lifetime: exclude nothing but our root
     * next time, so that a root taken as walked is offered again. */
    ccnx_sync_seen_clear(&f->seen);
    advise(f);
}

static void advise(struct ccnx_sync_follow *f)
{
    if (f->ra_id != 0 || f->diff != NULL) {
        return;
    }
    struct ccnx_buf ib = CCNX_BUF_INIT;
    int rc = ccnx_sync_root_advise_interest(&ib, &f->ra_prefix, ccnx_sync_tree_hash(f->seen_names),
                                            &f->seen, f->scope, (unsigned)f->lifetime_s);
    struct ccnx_express_opts o = {advised_answered, advise_expired, f, 0, 0, 0};
    if (rc != 0 || ccnx_client_express(f->c, ib.data, ib.len, &o, &f->ra_id) != 0) {
        f->ra_id = 0;
    }
    ccnx_buf_free(&ib);
}

/* ---- Life cycle ---- */

static int copy_slice(struct ccnx_sync_slice *dst, const struct ccnx_sync_slice *src)
{
    struct ccnx_buf enc = CCNX_BUF_INIT;
    int rc = ccnx_sync_slice_encode(src, &enc);
    rc = rc == 0 ? ccnx_sync_slice_decode(dst, enc.data, enc.len) : rc;
    ccnx_buf_free(&enc);
    return rc;
}

int ccnx_sync_follow_start(struct ccnx_client *c, const struct ccnx_sync_follow_params *p,
                           struct ccnx_sync_follow **out)
{
    struct ccnx_sync_follow *f = calloc(1, sizeof *f);
    if (f == NULL) {
        return CCNX_E_NOMEM;
    }
    f->c = c;
    f->on_name = p->on_name;
    f->arg = p->arg;
    f->scope = p->scope >= 0 && p->scope <= 3 ? p->scope : 1;
    f->lifetime_s = p->lifetime_s > 0 ? p->lifetime_s : CCNX_SYNC_RA_LIFETIME;
    ccnx_name_init(&f->ra_prefix);
    ccnx_name_init(&f->nf_prefix);
    int rc = ccnx_sync_slice_init(&f->slice);
    rc = rc == 0 ? copy_slice(&f->slice, p->slice) : rc;
    rc = rc == 0 ? ccnx_sync_slice_prefix(&f->slice, CCNX_SYNC_RA_MARKER, &f->ra_prefix) : rc;
    rc = rc == 0 ? ccnx_sync_slice_prefix(&f->slice, CCNX_SYNC_NF_MARKER, &f->nf_prefix) : rc;
    rc = rc == 0 ? ccnx_sync_tree_create(&f->seen_names) : rc;
    if (rc == 0 && p->start != NULL && p->start->len > 0) {
        f->silent = 1; /* the start root's names: walked, not reported */
        rc = ccnx_sync_diff_create(f->seen_names, &f->diff);
        rc = rc == 0 ? fetch_node(f, p->start, 1) : rc;
    } else if (rc == 0) {
        advise(f);
    }
    if (rc != 0) {
        ccnx_sync_follow_destroy(f);
        return rc;
    }
    *out = f;
    return 0;
}

void ccnx_sync_follow_destroy(struct ccnx_sync_follow *f)
{
    if (f == NULL) {
        return;
    }
    while (f->reqs != NULL) {
        struct nf_req *q = f->reqs;
        f->reqs = q->next;
        ccnx_client_cancel(f->c, q->id);
        free(q);
    }
    if (f->ra_id != 0) {
        ccnx_client_cancel(f->c, f->ra_id);
    }
    if (f->retry_timer != 0) {
        ccnx_client_unschedule(f->c, f->retry_timer);
    }
    ccnx_sync_diff_destroy(f->diff);
    ccnx_sync_tree_destroy(f->seen_names);
    ccnx_sync_slice_free(&f->slice);
    ccnx_name_free(&f->ra_prefix);
    ccnx_name_free(&f->nf_prefix);
    free(f);
}

const struct ccnx_sync_hash *ccnx_sync_follow_root(const struct ccnx_sync_follow *f)
{
    return ccnx_sync_tree_hash(f->seen_names);
}

size_t ccnx_sync_follow_count(const struct ccnx_sync_follow *f)
{
    return ccnx_sync_tree_count(f->seen_names);
}
