/* Discovery of children, from repositories, the cache and the network, and
 * probes of one object (see explore_disco.h). */
#include "explore_disco_internal.h"

#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/verifier.h>
#include <ccnx/fetch.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ex_disco_opts_init(struct ex_disco_opts *o)
{
    o->wait_ms = EX_WAIT_MS_DEFAULT;
    o->walk_rounds = EX_WALK_ROUNDS_DEFAULT;
    o->verify = 1;
}

void disco_changed(struct ex_disco *d)
{
    if (d->ev.changed != NULL)
        d->ev.changed(d->ev.arg);
}

void disco_say(struct ex_disco *d, const struct ex_node *node, const char *fmt, ...)
{
    struct ccnx_buf text = CCNX_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    ccnx_buf_vprintf(&text, fmt, ap);
    va_end(ap);
    ccnx_buf_append_str(&text, " under ");
    ex_node_uri(d->t, node, &text);
    if (d->ev.message != NULL && ccnx_buf_status(&text) == 0)
        d->ev.message(d->ev.arg, ccnx_buf_cstr(&text));
    ccnx_buf_free(&text);
}

/* ---- Per-node state ---- */

static struct dnode *dnode_of(struct ex_disco *d, struct ex_node *node)
{
    if (node->disco != NULL)
        return node->disco;
    if (d->nall == d->capall) {
        size_t cap = d->capall ? 2 * d->capall : 64;
        struct dnode **all = realloc(d->all, cap * sizeof *all);
        if (all == NULL)
            return NULL;
        d->all = all;
        d->capall = cap;
    }
    struct dnode *dn = calloc(1, sizeof *dn);
    if (dn == NULL)
        return NULL;
    dn->d = d;
    dn->node = node;
    dn->cache = (struct walk){.scope = 0, .source = EX_SRC_CACHE};
    dn->net = (struct walk){.scope = -1, .source = EX_SRC_PRODUCER};
    ccnx_buf_init(&dn->object);
    d->all[d->nall++] = dn;
    node->disco = dn;
    return dn;
}

static void dnode_free(struct dnode *dn)
{
    for (size_t i = 0; i < dn->nresp; i++) {
        if (dn->resp[i]->reap != 0)
            ccnx_client_unschedule(dn->d->c, dn->resp[i]->reap);
        ccnx_fetch_destroy(dn->resp[i]->fetch);
        ccnx_buf_free(&dn->resp[i]->body);
        free(dn->resp[i]);
    }
    free(dn->resp);
    free(dn->cache.last);
    free(dn->net.last);
    ccnx_buf_free(&dn->object);
    free(dn->verify_error);
    dn->node->disco = NULL;
    free(dn);
}

int ex_disco_create(struct ccnx_client *c, struct ex_tree *t, const struct ex_disco_opts *o,
                    const struct ex_disco_events *ev, struct ex_disco **out)
{
    struct ex_disco *d = calloc(1, sizeof *d);
    *out = d;
    if (d == NULL)
        return CCNX_E_NOMEM;
    d->c = c;
    d->t = t;
    d->o = *o;
    d->ev = *ev;
    d->head.next = d->head.prev = &d->head;
    if (ccnx_verifier_create(c, &d->v) != 0) {
        free(d);
        *out = NULL;
        return CCNX_E_NOMEM;
    }
    ccnx_verifier_set_enabled(d->v, o->verify);
    return 0;
}

void ex_disco_destroy(struct ex_disco *d)
{
    if (d == NULL)
        return;
    while (d->head.next != &d->head) {
        struct req *q = d->head.next;
        ccnx_client_cancel(d->c, q->id);
        q->next->prev = q->prev;
        q->prev->next = q->next;
        free(q);
    }
    ccnx_verifier_destroy(d->v);
    for (size_t i = 0; i < d->nall; i++)
        dnode_free(d->all[i]);
    free(d->all);
    free(d);
}

/* ---- Requests ---- */

int disco_cmp_exclude_item(const void *a, const void *b)
{
    const struct ccnx_exclude_item *x = a, *y = b;
    return ccnx_comp_compare(x->p, x->n, y->p, y->n);
}

static void disco_req_done(struct req *q)
{
    q->next->prev = q->prev;
    q->prev->next = q->next;
    q->dn->busy--;
    free(q);
}

static void on_content(void *arg, const uint8_t *obj, size_t len,
                       const struct ccnx_content_parsed *pc);
static void on_timeout(void *arg);

/* Expresses an Interest for `name` with the given selectors; q is filled
 * by the caller and owned by the request from here on. */
int disco_express(struct ex_disco *d, struct req *q, const struct ccnx_name *name,
                  const struct ccnx_exclude_item *ex, size_t nex, int child, int scope)
{
    struct ccnx_interest_params ip;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    ccnx_interest_params_init(&ip);
    ip.name = name->enc.data;
    ip.name_len = name->enc.len;
    ip.exclude = nex ? ex : NULL;
    ip.exclude_count = nex;
    ip.child_selector = child;
    ip.scope = scope;
    /* The last segment is a child of the version, not something deeper
     * (the reference's Java files keep a header under %C1.META.M there):
     * one component and the implicit digest. */
    if (q->kind == REQ_SIZE)
        ip.max_suffix = 2;
    /* ccnd's content store answers at once: the cache walk waits less. */
    int wait = q->kind == REQ_WALK && q->walk->scope == 0 ? d->o.wait_ms / 4 : d->o.wait_ms;
    ip.lifetime_units = (int64_t)wait * 4096 / 1000;
    struct ccnx_express_opts eo = {on_content, on_timeout, q, wait, 0, 0};
    int r = ccnx_interest_build(&msg, &ip);
    r = r == 0 ? ccnx_client_express(d->c, msg.data, msg.len, &eo, &q->id) : r;
    ccnx_buf_free(&msg);
    if (r != 0) {
        free(q);
        return r;
    }
    q->prev = d->head.prev;
    q->next = &d->head;
    q->prev->next = q;
    d->head.prev = q;
    q->dn->busy++;
    return 0;
}

struct req *disco_new_req(struct dnode *dn, enum req_kind kind)
{
    struct req *q = calloc(1, sizeof *q);
    if (q != NULL) {
        q->dn = dn;
        q->kind = kind;
    }
    return q;
}

/* The node's name plus the components given (each a pointer and length). */
int disco_node_name_plus(struct dnode *dn, struct ccnx_name *out, const char *command,
                         const uint8_t *comp, size_t n)
{
    int r = ex_node_name(dn->d->t, dn->node, out);
    r = r == 0 && command != NULL ? ccnx_naming_append_command(out, command, NULL, 0) : r;
    return r == 0 && comp != NULL ? ccnx_name_append(out, comp, n) : r;
}

/* ---- The cache and the network: Exclude walks ---- */

/* The components a walk excludes one by one, sorted: the listing marker
 * (enumeration replies are not children, and the client would hand a
 * cached reply to any walk Interest it matches), and for the network walk
 * the known children past the walk's position. *range_to (NULL if none)
 * is the greatest known child when not all of them fit. */
static const uint8_t marker[] = {CCNX_MARKER_CONTROL, '.', 'E', '.', 'b', 'e'};

static size_t walk_excluded(const struct dnode *dn, const struct walk *w,
                            struct ccnx_exclude_item *items, const struct ex_node **range_to)
{
    const struct ex_node *node = dn->node;
    size_t n = 0;
    *range_to = NULL;
    if (w->last == NULL || ccnx_comp_compare(marker, sizeof marker, w->last, w->last_n) > 0)
        items[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, marker, sizeof marker};
    for (size_t i = 0; w->source == EX_SRC_PRODUCER && i < node->nkids; i++) {
        const struct ex_node *k = node->kids[i];
        if (w->last != NULL && ccnx_comp_compare(k->comp, k->n, w->last, w->last_n) <= 0)
            continue;
        if (n > EX_WALK_EXPLICIT) {
            *range_to = node->kids[node->nkids - 1];
            items[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, (*range_to)->comp,
                                                    (*range_to)->n};
            break;
        }
        items[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, k->comp, k->n};
    }
    qsort(items, n, sizeof *items, disco_cmp_exclude_item);
    return n;
}

static int walk_round(struct dnode *dn, struct walk *w)
{
    struct ccnx_exclude_item *items = calloc(EX_WALK_EXPLICIT + 3, sizeof *items);
    struct ccnx_exclude_item *ex = calloc(EX_WALK_EXPLICIT + 6, sizeof *ex);
    struct req *q = disco_new_req(dn, REQ_WALK);
    struct ccnx_name name;
    int r = items != NULL && ex != NULL && q != NULL ? ccnx_name_init(&name) : CCNX_E_NOMEM;
    size_t n = 0;
    if (r == 0) {
        q->walk = w;
        if (w->last != NULL) {
            ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
            ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, w->last, w->last_n};
        }
        /* Past EX_WALK_EXPLICIT known names, one range up to the greatest. */
        const struct ex_node *range_to;
        size_t k = walk_excluded(dn, w, items, &range_to);
        for (size_t i = 0; i < k; i++) {
            if (range_to != NULL && items[i].p == range_to->comp)
                ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
            ex[n++] = items[i];
        }
        r = disco_node_name_plus(dn, &name, NULL, NULL, 0);
        r = r == 0 ? disco_express(dn->d, q, &name, ex, n, -1, w->scope) : r;
        q = NULL;
        ccnx_name_free(&name);
    }
    free(q);
    free(items);
    free(ex);
    w->running = r == 0;
    w->rounds++;
    return r;
}

static int set_last(struct walk *w, const uint8_t *p, size_t n)
{
    if (w->last != NULL && ccnx_comp_compare(p, n, w->last, w->last_n) <= 0)
        return 0; /* an answer out of order: the range does not move back */
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL)
        return CCNX_E_NOMEM;
    memcpy(copy, p, n);
    free(w->last);
    w->last = copy;
    w->last_n = n;
    return 0;
}

static void walk_content(struct req *q, const uint8_t *obj, size_t len,
                         const struct ccnx_content_parsed *pc)
{
    struct dnode *dn = q->dn;
    struct walk *w = q->walk;
    struct ccnx_name name;
    struct ccnx_comp c;
    uint8_t digest[CCNX_DIGEST_LEN];
    size_t at = dn->d->t->prefix.count + (size_t)ex_node_depth(dn->node);
    int more = 0;
    w->running = 0;
    if (ccnx_name_init(&name) != 0 || ccnx_name_set_ccnb(&name, obj + pc->name.off, pc->name.len))
        goto out;
    if (ccnx_name_comp(&name, at, &c) != 0) {
        /* The object is named by the node itself; its digest comes next. */
        if (ccnx_content_digest(obj, len, digest) != 0)
            goto out;
        dn->node->has_object = 1;
        c = (struct ccnx_comp){digest, sizeof digest};
        more = 1;
    } else if (!ccnx_naming_command_is(c.p, c.n, "E.be")) {
        int created;
        struct ex_node *k = ex_node_child(dn->d->t, dn->node, c.p, c.n, &created);
        if (k != NULL && (created || w->source == EX_SRC_CACHE))
            k->sources |= w->source;
        more = k != NULL && k->kind != EX_SEGMENT;
        disco_changed(dn->d);
    } else {
        more = 1;
    }
    if (more && set_last(w, c.p, c.n) == 0 && w->rounds < dn->d->o.walk_rounds)
        walk_round(dn, w);
out:
    ccnx_name_free(&name);
}

/* ---- Probes ---- */

static void verified(void *arg, int result, const char *error, const uint8_t *obj, size_t len,
                     const struct ccnx_content_parsed *pc)
{
    (void)obj, (void)len, (void)pc;
    struct dnode *dn = arg;
    dn->verify = result == 0 ? EX_VERIFY_OK : EX_VERIFY_FAILED;
    free(dn->verify_error);
    dn->verify_error = result == 0 || error == NULL ? NULL : strdup(error);
    disco_changed(dn->d);
}

/* The node holding the probed object's segments: the node itself or one of
 * its version children; NULL when the object lies deeper. */
static struct ex_node *segment_holder(struct dnode *dn, const struct ccnx_name *name)
{
    size_t at = dn->d->t->prefix.count + (size_t)ex_node_depth(dn->node);
    struct ccnx_comp v;
    if (name->count == at + 1)
        return dn->node;
    if (name->count != at + 2 || ccnx_name_comp(name, at, &v) != 0 ||
        !ccnx_naming_is_version(v.p, v.n))
        return NULL;
    return ex_node_child(dn->d->t, dn->node, v.p, v.n, NULL);
}

/* From the first segment of the probed content: its segment count and size
 * when it is the only one, else asks for the last segment (the rightmost
 * child of the version, which carries the FinalBlockID when the stream is
 * complete; a segmenter that streams knows it only at the end). */
static void measure(struct dnode *dn, const uint8_t *obj, const struct ccnx_content_parsed *pc)
{
    struct ccnx_name name;
    uint64_t seg, final;
    size_t at = dn->d->t->prefix.count + (size_t)ex_node_depth(dn->node);
    if (ccnx_name_init(&name) != 0)
        return;
    struct ex_node *holder = NULL;
    if (ccnx_name_set_ccnb(&name, obj + pc->name.off, pc->name.len) == 0 &&
        ccnx_naming_last_is_segment_ccnb(name.enc.data, name.enc.len, &seg) == 1 && seg == 0)
        holder = segment_holder(dn, &name);
    int has_final =
        pc->has_final_block_id && ccnx_naming_segment_decode(obj + pc->final_block_id.off,
                                                             pc->final_block_id.len, &final) == 0;
    struct req *q =
        holder != NULL && !(has_final && final == 0) ? disco_new_req(dn, REQ_SIZE) : NULL;
    dn->first_len = pc->content_value.len;
    if (holder == NULL && name.count == at) {
        dn->node->size = (int64_t)pc->content_value.len; /* a single object */
    } else if (holder != NULL && has_final && final == 0) {
        holder->segments = 1;
        holder->size = (int64_t)pc->content_value.len;
    } else if (q != NULL && ccnx_name_truncate(&name, name.count - 1) == 0) {
        q->holder = holder;
        q->seg_count = name.count + 1;
        disco_express(dn->d, q, &name, NULL, 0, 1, -1);
        q = NULL;
    }
    free(q);
    ccnx_name_free(&name);
}

#define SIZE_TRIES 16 /* later segments asked for, at most, after a non-final answer */

/* Asks again for the rightmost segment, now excluding every segment up to
 * the one that answered (a cache that holds only the first segments, or a
 * producer that answers with the next one it writes, gave it). */
static void ask_after(struct req *q, const uint8_t *obj, const struct ccnx_content_parsed *pc)
{
    struct req *next = q->tries < SIZE_TRIES ? disco_new_req(q->dn, REQ_SIZE) : NULL;
    struct ccnx_name name;
    struct ccnx_comp last;
    if (next == NULL || ccnx_name_init(&name) != 0) {
        free(next);
        return;
    }
    if (ccnx_name_set_ccnb(&name, obj + pc->name.off, pc->name.len) == 0 &&
        ccnx_name_comp(&name, name.count - 1, &last) == 0) {
        uint8_t comp[CCNX_NUMERIC_MAX_LEN];
        size_t n = last.n <= sizeof comp ? last.n : 0;
        memcpy(comp, last.p, n);
        const struct ccnx_exclude_item ex[2] = {{CCNX_EXCLUDE_ANY, NULL, 0},
                                                {CCNX_EXCLUDE_COMPONENT, comp, n}};
        *next = *q;
        next->next = next->prev = NULL;
        next->tries++;
        if (n > 0 && ccnx_name_truncate(&name, name.count - 1) == 0) {
            disco_express(q->dn->d, next, &name, ex, 2, 1, -1);
            next = NULL;
        }
    }
    free(next);
    ccnx_name_free(&name);
}

/* The last segment: the count and the size, when it is the final one. A
 * segment that is not yet the final one leads to asking for later ones;
 * anything else (an object deeper under the version, a component that is
 * not a segment) gives neither: no figure rather than a wrong one. */
static void size_content(struct req *q, const uint8_t *obj, const struct ccnx_content_parsed *pc)
{
    uint64_t seg, final;
    if (pc->name_count != q->seg_count ||
        ccnx_naming_last_is_segment_ccnb(obj + pc->name.off, pc->name.len, &seg) != 1)
        return;
    if (!pc->has_final_block_id ||
        ccnx_naming_segment_decode(obj + pc->final_block_id.off, pc->final_block_id.len, &final) !=
            0 ||
        final != seg) {
        ask_after(q, obj, pc);
        return;
    }
    q->holder->segments = (int64_t)seg + 1;
    q->holder->size = (int64_t)(seg * q->dn->first_len + pc->content_value.len);
}

static void probe_content(struct req *q, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc)
{
    struct dnode *dn = q->dn;
    ccnx_buf_reset(&dn->object);
    if (ccnx_buf_append(&dn->object, obj, len) != 0)
        return;
    dn->probe_state = 2;
    struct ccnx_content_parsed own;
    if (ccnx_content_parse(dn->object.data, dn->object.len, &own) != 0)
        return;
    ccnx_verifier_cancel(dn->d->v, dn);
    if (!ccnx_verifier_enabled(dn->d->v)) {
        dn->verify = EX_VERIFY_NONE;
    } else {
        dn->verify = EX_VERIFY_PENDING;
        ccnx_verifier_check(dn->d->v, dn->object.data, dn->object.len, &own, verified, dn);
    }
    measure(dn, dn->object.data, &own);
}

/* ---- Dispatch ---- */

static void on_content(void *arg, const uint8_t *obj, size_t len,
                       const struct ccnx_content_parsed *pc)
{
    struct req *q = arg;
    struct dnode *dn = q->dn;
    switch (q->kind) {
    case REQ_ENUM:
        disco_enum_content(q, obj, pc);
        break;
    case REQ_REPLY:
        disco_reply_content(q, obj, pc);
        break;
    case REQ_WALK:
        walk_content(q, obj, len, pc);
        break;
    case REQ_PROBE:
        probe_content(q, obj, len, pc);
        break;
    case REQ_SIZE:
        size_content(q, obj, pc);
        break;
    }
    dn->replies -= q->kind == REQ_REPLY;
    disco_req_done(q);
    disco_finish_if_idle(dn);
    disco_changed(dn->d);
}

static void on_timeout(void *arg)
{
    struct req *q = arg;
    struct dnode *dn = q->dn;
    if (q->kind == REQ_ENUM)
        dn->enum_running = 0;
    else if (q->kind == REQ_WALK)
        q->walk->running = 0;
    else if (q->kind == REQ_PROBE)
        dn->probe_state = dn->object.len > 0 ? 2 : 3;
    dn->replies -= q->kind == REQ_REPLY;
    disco_req_done(q);
    disco_finish_if_idle(dn);
    disco_changed(dn->d);
}

/* Starts the network walk once the repositories and the cache are done,
 * and marks the node explored when everything is. */
void disco_finish_if_idle(struct dnode *dn)
{
    if (!dn->exploring || dn->enum_running || dn->replies > 0 || dn->cache.running ||
        dn->net.running)
        return;
    if (dn->net.rounds == 0 && walk_round(dn, &dn->net) == 0)
        return;
    dn->exploring = 0;
    dn->explored = 1;
    if (dn->node->versions > 0 || dn->node->segment_kids > 0)
        ex_disco_probe(dn->d, dn->node, 1);
    if (dn->again) {
        dn->again = 0;
        ex_disco_explore(dn->d, dn->node);
    }
}

/* ---- Entry points ---- */

int ex_disco_explore(struct ex_disco *d, struct ex_node *node)
{
    struct dnode *dn = dnode_of(d, node);
    if (dn == NULL)
        return CCNX_E_NOMEM;
    if (dn->exploring)
        return 0;
    dn->exploring = 1;
    dn->cache.rounds = dn->net.rounds = 0;
    free(dn->cache.last);
    free(dn->net.last);
    dn->cache.last = dn->net.last = NULL;
    disco_enum_round(dn);
    for (size_t i = 0; i < dn->nresp; i++)
        if (dn->resp[i]->fetch == NULL)
            disco_reply_request(dn->resp[i]); /* known repositories: a newer listing? */
    walk_round(dn, &dn->cache);
    disco_changed(d);
    return 0;
}

int ex_disco_refresh(struct ex_disco *d, struct ex_node *node)
{
    struct dnode *dn = dnode_of(d, node);
    if (dn == NULL)
        return CCNX_E_NOMEM;
    if (dn->exploring) {
        dn->again = 1; /* what is running may have asked before the change */
        return 0;
    }
    return ex_disco_explore(d, node);
}

int ex_disco_probe(struct ex_disco *d, struct ex_node *node, int again)
{
    struct dnode *dn = dnode_of(d, node);
    if (dn == NULL)
        return CCNX_E_NOMEM;
    if (dn->probe_state == 1 || (dn->probe_state != 0 && !again))
        return 0;
    struct ccnx_name name;
    struct req *q = disco_new_req(dn, REQ_PROBE);
    int r = q != NULL ? ccnx_name_init(&name) : CCNX_E_NOMEM;
    if (r != 0) {
        free(q);
        return r;
    }
    /* Not an enumeration reply: they are the listing, not the content. */
    struct ccnx_exclude_item ex = {CCNX_EXCLUDE_COMPONENT, marker, sizeof marker};
    r = disco_node_name_plus(dn, &name, NULL, NULL, 0);
    r = r == 0 ? disco_express(d, q, &name, &ex, 1, node->versions > 0 ? 1 : -1, -1) : r;
    ccnx_name_free(&name);
    dn->probe_state = r == 0 ? 1 : dn->probe_state;
    disco_changed(d);
    return r;
}

int ex_disco_explored(const struct ex_node *node)
{
    const struct dnode *dn = node->disco;
    return dn != NULL && dn->explored && !dn->exploring;
}

int ex_disco_busy(const struct ex_node *node)
{
    const struct dnode *dn = node->disco;
    return dn != NULL && dn->busy > 0;
}

void ex_disco_details(const struct ex_node *node, struct ex_details *out)
{
    const struct dnode *dn = node->disco;
    memset(out, 0, sizeof *out);
    if (dn == NULL)
        return;
    out->state = dn->probe_state;
    out->object = dn->object.len ? dn->object.data : NULL;
    out->len = dn->object.len;
    out->verify = dn->verify;
    out->verify_error = dn->verify_error;
}

size_t ex_disco_in_flight(const struct ex_disco *d)
{
    size_t n = d->fetches;
    for (const struct req *q = d->head.next; q != &d->head; q = q->next)
        n++;
    return n;
}
