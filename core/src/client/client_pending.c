/* Expressed Interests: their timers and retransmissions, and matching the
 * content that arrives against them.
 *
 * Arriving content is matched without scanning every pending Interest: each
 * Interest is indexed by a hash of its name, and an object's name has only
 * count + 1 prefixes (plus the one ending in its implicit digest), so the
 * object hashes each prefix once and looks in that bucket. ccnx_match then
 * decides, selectors included. */
#include "client_internal.h"

#include <ccnx/error.h>
#include <ccnx/match.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MIN_BUCKETS    64
#define STACK_PREFIXES 64

static uint64_t hash_component(uint64_t h, const uint8_t *p, size_t n)
{
    /* The length goes in first so that component boundaries count. */
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    return ccnx_hash_bytes(ccnx_hash_bytes(h, len, sizeof len), p, n);
}

/* Fills hashes[k] with the hash of the first k components (k = 0..count) of
 * the Name at buf+span; returns the component count or a negative code. */
static int prefix_hashes(const uint8_t *buf, struct ccnx_span name, uint64_t *hashes, size_t room,
                         struct ccnx_comp *last)
{
    struct ccnx_name_iter it;
    int res = ccnx_name_iter_init(&it, buf + name.off, name.len);
    uint64_t h = CCNX_HASH_INIT;
    size_t k = 0;
    if (room > 0) {
        hashes[0] = h;
    }
    struct ccnx_comp comp = {NULL, 0};
    while (res == 0 && (res = ccnx_name_iter_next(&it, &comp)) == 1) {
        h = hash_component(h, comp.p, comp.n);
        if (++k < room) {
            hashes[k] = h;
        }
        *last = comp;
        res = 0;
    }
    if (res < 0) {
        return res;
    }
    if (k >= room) {
        hashes[room - 1] = h; /* callers size room for the whole name */
    }
    return (int)k;
}

/* ---- The two indexes ---- */

#define BY_NAME(x) CCNX_HTAB_ENTRY(x, struct pending, by_name)
#define BY_ID(x)   CCNX_HTAB_ENTRY(x, struct pending, by_id)

static uint64_t mixed(uint64_t key)
{
    return key ^ (key >> 29);
}

static int table_insert(struct pending_table *t, struct pending *p)
{
    if (!t->ready) {
        if (ccnx_htab_init(&t->by_name, MIN_BUCKETS) != 0 ||
            ccnx_htab_init(&t->by_id, MIN_BUCKETS) != 0) {
            ccnx_htab_free(&t->by_name);
            return CCNX_E_NOMEM;
        }
        t->ready = 1;
    }
    ccnx_htab_insert(&t->by_name, &p->by_name, mixed(p->name_hash));
    ccnx_htab_insert(&t->by_id, &p->by_id, mixed(p->id));
    p->named = 1;
    t->digest_candidates += p->digest_last;
    return 0;
}

static void unlink_name(struct pending_table *t, struct pending *p)
{
    if (p->named) {
        ccnx_htab_remove(&t->by_name, &p->by_name);
        p->named = 0;
        t->digest_candidates -= p->digest_last;
    }
}

static void unlink_id(struct pending_table *t, struct pending *p)
{
    ccnx_htab_remove(&t->by_id, &p->by_id);
}

static struct pending *find_id(const struct pending_table *t, uint64_t id)
{
    if (!t->ready) {
        return NULL;
    }
    uint64_t h = mixed(id);
    for (struct ccnx_hnode *x = ccnx_htab_chain(&t->by_id, h); x != NULL; x = x->next) {
        if (x->hash == h && BY_ID(x)->id == id) {
            return BY_ID(x);
        }
    }
    return NULL;
}

static void pending_free(struct pending *p)
{
    free(p->msg);
    free(p);
}

void pending_table_free(struct pending_table *t)
{
    for (size_t b = 0; t->ready && b <= t->by_id.mask; b++) {
        for (struct ccnx_hnode *x = t->by_id.buckets[b], *next; x != NULL; x = next) {
            next = x->next;
            pending_free(BY_ID(x));
        }
    }
    ccnx_htab_free(&t->by_name);
    ccnx_htab_free(&t->by_id);
    memset(t, 0, sizeof *t);
}

/* ---- Expressing ---- */

static int attempt_ms(const struct pending *p)
{
    if (p->opts.timeout_ms > 0) {
        return p->opts.timeout_ms;
    }
    uint64_t ms = p->pi.lifetime * 1000 / 4096;
    return ms == 0 ? 1 : ms > 3600000 ? 3600000 : (int)ms;
}

static void pending_expired(void *arg);

/* Starts an attempt: its end, and the timer at the end or at the first
 * re-expression, whichever comes first. */
static int attempt_start(struct ccnx_client *c, struct pending *p)
{
    int64_t now = ccnx_client_now_ms();
    p->attempt_end_ms = now + attempt_ms(p);
    p->next_send_ms = p->opts.reexpress_ms > 0 && p->pi.nonce.len == 0 ? p->opts.reexpress_ms : 0;
    int64_t at = p->next_send_ms > 0 && now + p->next_send_ms < p->attempt_end_ms
                     ? now + p->next_send_ms
                     : p->attempt_end_ms;
    return client_timer_arm(c, &p->timer, at);
}

/* Within an attempt: sends the Interest again and doubles the wait. 0 when
 * the attempt's time is up. */
static int reexpress(struct ccnx_client *c, struct pending *p)
{
    int64_t now = ccnx_client_now_ms();
    if (p->next_send_ms <= 0 || now >= p->attempt_end_ms) {
        return 0;
    }
    p->next_send_ms = p->next_send_ms > INT_MAX / 2 ? INT_MAX : p->next_send_ms * 2;
    int64_t at = now + p->next_send_ms;
    client_timer_arm(c, &p->timer, at < p->attempt_end_ms ? at : p->attempt_end_ms);
    client_send(c, p->msg, p->len);
    return 1;
}

static struct pending *pending_new(struct ccnx_client *c, const uint8_t *interest, size_t len,
                                   const struct ccnx_express_opts *opts)
{
    struct pending *p = calloc(1, sizeof *p);
    uint8_t *msg = malloc(len ? len : 1);
    if (p == NULL || msg == NULL) {
        free(p);
        free(msg);
        return NULL;
    }
    memcpy(msg, interest, len);
    p->msg = msg;
    p->len = len;
    p->owner = c;
    p->opts = *opts;
    p->tries_left = opts->retries;
    client_timer_init(&p->timer, pending_expired, p);
    return p;
}

int ccnx_client_express(struct ccnx_client *c, const uint8_t *interest, size_t len,
                        const struct ccnx_express_opts *opts, uint64_t *id)
{
    struct pending *p = pending_new(c, interest, len, opts);
    if (p == NULL) {
        return CCNX_E_NOMEM;
    }
    uint64_t hashes[2] = {0, 0};
    struct ccnx_comp last = {NULL, 0};
    int count = -1;
    if (ccnx_interest_parse(p->msg, len, &p->pi) == 0) {
        /* Only the whole name's hash is kept: room 2 keeps it in hashes[1]
         * (or hashes[0] for the empty name). */
        count = prefix_hashes(p->msg, p->pi.name, hashes, 2, &last);
    }
    if (count < 0) {
        pending_free(p);
        client_set_error(c, "cannot express a malformed Interest");
        return CCNX_E_VALUE;
    }
    p->id = ++c->next_id;
    p->name_count = (uint32_t)count;
    p->name_hash = hashes[count == 0 ? 0 : 1];
    p->digest_last = count > 0 && last.n == 32;
    int res = table_insert(&c->pending, p);
    if (res != 0) {
        pending_free(p);
        return res;
    }
    if (attempt_start(c, p) != 0) {
        unlink_name(&c->pending, p);
        unlink_id(&c->pending, p);
        pending_free(p);
        return CCNX_E_NOMEM;
    }
    if (id != NULL) {
        *id = p->id;
    }
    return client_send(c, p->msg, p->len);
}

static void pending_expired(void *arg)
{
    struct pending *p = arg;
    struct ccnx_client *c = p->owner;
    if (reexpress(c, p)) {
        return;
    }
    if (p->tries_left > 0) {
        p->tries_left--;
        attempt_start(c, p); /* the timer just left the heap: there is room for it */
        client_send(c, p->msg, p->len);
        return;
    }
    unlink_name(&c->pending, p);
    unlink_id(&c->pending, p);
    ccnx_timeout_fn fn = p->opts.on_timeout;
    void *fn_arg = p->opts.arg;
    pending_free(p);
    if (fn != NULL) {
        fn(fn_arg);
    }
}

int ccnx_client_cancel(struct ccnx_client *c, uint64_t id)
{
    struct pending *p = find_id(&c->pending, id);
    if (p == NULL || p->cancelled) {
        return CCNX_E_NOTFOUND;
    }
    if (p->delivering) {
        p->cancelled = 1; /* freed by the delivery loop that holds it */
        return 0;
    }
    client_timer_disarm(c, &p->timer);
    unlink_name(&c->pending, p);
    unlink_id(&c->pending, p);
    pending_free(p);
    return 0;
}

size_t ccnx_client_pending_count(const struct ccnx_client *c)
{
    return c->pending.by_id.count;
}

void pending_resend_all(struct ccnx_client *c)
{
    struct pending_table *t = &c->pending;
    for (size_t b = 0; t->ready && b <= t->by_id.mask; b++) {
        for (struct ccnx_hnode *x = t->by_id.buckets[b]; x != NULL; x = x->next) {
            struct pending *p = BY_ID(x);
            if (!p->delivering) {
                client_send(c, p->msg, p->len);
            }
        }
    }
}

/* Takes every pending Interest out of the name index (they stay findable by
 * id, marked delivering) into a list linked through list_next. */
static struct pending *take_all(struct ccnx_client *c)
{
    struct pending *list = NULL;
    struct pending_table *t = &c->pending;
    for (size_t b = 0; t->ready && b <= t->by_name.mask; b++) {
        while (t->by_name.buckets[b] != NULL) {
            struct pending *p = BY_NAME(t->by_name.buckets[b]);
            unlink_name(t, p);
            client_timer_disarm(c, &p->timer);
            p->delivering = 1;
            p->list_next = list;
            list = p;
        }
    }
    return list;
}

void pending_fail_all(struct ccnx_client *c)
{
    struct pending *list = take_all(c);
    while (list != NULL) {
        struct pending *p = list;
        list = p->list_next;
        unlink_id(&c->pending, p);
        if (!p->cancelled && p->opts.on_timeout != NULL) {
            p->opts.on_timeout(p->opts.arg);
        }
        pending_free(p);
    }
}

/* ---- Content ---- */

struct arrival {
    const uint8_t *obj;
    size_t len;
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
    int have_digest;
};

/* Moves the Interests in the bucket of (hash, count) that the object
 * satisfies onto *list. */
static void collect(struct ccnx_client *c, struct arrival *a, uint64_t hash, uint32_t count,
                    struct pending **list)
{
    struct pending_table *t = &c->pending;
    uint64_t h = mixed(hash);
    struct ccnx_hnode *x = ccnx_htab_chain(&t->by_name, h);
    while (x != NULL) {
        struct ccnx_hnode *next = x->next;
        struct pending *p = BY_NAME(x);
        if (x->hash == h && p->name_hash == hash && p->name_count == count &&
            ccnx_match(p->msg, &p->pi, a->obj, a->len, &a->pc, a->have_digest ? a->digest : NULL)) {
            unlink_name(t, p);
            client_timer_disarm(c, &p->timer);
            p->delivering = 1;
            p->list_next = *list;
            *list = p;
        }
        x = next;
    }
}

static struct pending *collect_matches(struct ccnx_client *c, struct arrival *a)
{
    uint64_t stack_hashes[STACK_PREFIXES + 2];
    uint64_t *hashes = stack_hashes;
    size_t room = a->pc.name_count + 2;
    if (room > STACK_PREFIXES + 2 && (hashes = malloc(room * sizeof *hashes)) == NULL) {
        return NULL;
    }
    struct ccnx_comp last;
    int count = prefix_hashes(a->obj, a->pc.name, hashes, room, &last);
    struct pending *list = NULL;
    for (int k = 0; k <= count; k++) {
        collect(c, a, hashes[k], (uint32_t)k, &list);
    }
    /* An Interest may name the object's implicit digest as a last component. */
    if (count >= 0 && c->pending.digest_candidates > 0 &&
        ccnx_content_digest(a->obj, a->len, a->digest) == 0) {
        a->have_digest = 1;
        uint64_t h = hash_component(hashes[count], a->digest, sizeof a->digest);
        collect(c, a, h, (uint32_t)count + 1, &list);
    }
    if (hashes != stack_hashes) {
        free(hashes);
    }
    return list;
}

void pending_dispatch_content(struct ccnx_client *c, const uint8_t *obj, size_t len)
{
    struct arrival a = {.obj = obj, .len = len};
    if (c->pending.by_id.count == 0 || ccnx_content_parse(obj, len, &a.pc) != 0) {
        return; /* unsolicited or malformed: nothing waits for it */
    }
    struct pending *list = collect_matches(c, &a);
    while (list != NULL) {
        struct pending *p = list;
        list = p->list_next;
        unlink_id(&c->pending, p);
        if (!p->cancelled && p->opts.on_content != NULL) {
            p->opts.on_content(p->opts.arg, obj, len, &a.pc);
        }
        pending_free(p);
    }
}

/* ---- Waiting for one answer ---- */

struct get_wait {
    struct ccnx_client *c;
    struct ccnx_buf *obj;
    int done;
    int res;
};

static void get_content(void *arg, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc)
{
    (void)pc;
    struct get_wait *w = arg;
    ccnx_buf_reset(w->obj);
    w->res = ccnx_buf_append(w->obj, obj, len);
    w->done = 1;
    ccnx_client_stop(w->c);
}

static void get_timeout(void *arg)
{
    struct get_wait *w = arg;
    w->res = ccnx_client_connected(w->c) ? CCNX_E_NOTFOUND : CCNX_E_IO;
    w->done = 1;
    ccnx_client_stop(w->c);
}

int ccnx_client_get(struct ccnx_client *c, const uint8_t *interest, size_t len, int timeout_ms,
                    struct ccnx_buf *obj)
{
    struct get_wait w = {c, obj, 0, 0};
    struct ccnx_express_opts o = {get_content, get_timeout, &w, timeout_ms, 0, 0};
    uint64_t id;
    int res = ccnx_client_express(c, interest, len, &o, &id);
    while (res == 0 && !w.done) {
        res = ccnx_client_run(c, -1);
    }
    if (!w.done) {
        ccnx_client_cancel(c, id);
        return res;
    }
    if (w.res == CCNX_E_NOTFOUND) {
        client_set_error(c, "no content answered the Interest in time");
    }
    return w.res;
}
