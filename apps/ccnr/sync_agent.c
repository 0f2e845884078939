/* The repository's Sync agent (docs/sync.md): the slices stored in the
 * repository by Create Slice requests (/%C1.M.S.localhost/%C1.S.cs/<hash>/
 * <version>, a GONE at a newer version deleting one), so they survive a
 * restart as any content does; for each, the tree of the collection's
 * names, kept as objects are stored; answers to the neighbours' Root
 * Advise and Node Fetch Interests; and a heartbeat that advises our root
 * and drives the fetches of sync_fetch.c. */
#include "sync_agent.h"

#include <ccnx/content.h>
#include <ccnx/content_sign.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/keystore.h>
#include <ccnx/match.h>
#include <ccnx/uri.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sync_log(const struct ccnr_sync *ag, enum ccnr_level level, const char *fmt, ...)
{
    if (level == CCNR_NONE || level > ag->r->set.sync.debug) {
        return;
    }
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    memcpy(line, "sync: ", 6);
    vsnprintf(line + 6, sizeof line - 6, fmt, ap);
    va_end(ap);
    ccnr_log_line(level, line);
}

/* The object's name with its digest as the last component (what a
 * slice's tree holds), from its parse. */
static int full_name_parsed(const uint8_t *obj, size_t len, const struct ccnx_content_parsed *pc,
                            struct ccnx_name *out)
{
    uint8_t digest[32];
    int rc = ccnx_content_digest(obj, len, digest);
    rc = rc == 0 ? ccnx_name_set_ccnb(out, obj + pc->name.off, pc->name.len) : rc;
    return rc == 0 ? ccnx_name_append(out, digest, sizeof digest) : rc;
}

/* The same, parsing the object into pc first. */
static int full_name(const uint8_t *obj, size_t len, struct ccnx_content_parsed *pc,
                     struct ccnx_name *out)
{
    int rc = ccnx_content_parse(obj, len, pc);
    return rc == 0 ? full_name_parsed(obj, len, pc, out) : rc;
}

/* 1 when some slice followed holds names under the object's name: only
 * then is its digest computed (ingest pays nothing more for content
 * outside every slice). */
static int under_some_slice(const struct ccnr_sync *ag, const uint8_t *obj,
                            const struct ccnx_content_parsed *pc)
{
    for (const struct sync_slice *sl = ag->slices; sl != NULL; sl = sl->next) {
        if (!sl->deleted && ccnx_name_is_prefix_ccnb(sl->s.prefix.enc.data, sl->s.prefix.enc.len,
                                                     obj + pc->name.off, pc->name.len) == 1) {
            return 1;
        }
    }
    return 0;
}

/* Adds a stored object's full name to every slice that covers it. */
static void note_content(struct ccnr_sync *ag, const uint8_t *obj, size_t len,
                         const struct ccnx_content_parsed *pc)
{
    if (!under_some_slice(ag, obj, pc)) {
        return;
    }
    struct ccnx_name n;
    ccnx_name_init(&n);
    if (full_name_parsed(obj, len, pc, &n) == 0) {
        for (struct sync_slice *sl = ag->slices; sl != NULL; sl = sl->next) {
            if (!sl->deleted && ccnx_sync_slice_covers(&sl->s, n.enc.data, n.enc.len)) {
                ccnx_sync_tree_add(sl->tree, n.enc.data, n.enc.len);
            }
        }
    }
    ccnx_name_free(&n);
}

static int scan_one(void *arg, const uint8_t *obj, size_t len)
{
    struct sync_slice *sl = arg;
    struct ccnx_content_parsed pc;
    struct ccnx_name n;
    ccnx_name_init(&n);
    if (full_name(obj, len, &pc, &n) == 0 &&
        ccnx_sync_slice_covers(&sl->s, n.enc.data, n.enc.len)) {
        ccnx_sync_tree_add(sl->tree, n.enc.data, n.enc.len);
    }
    ccnx_name_free(&n);
    return 0;
}

/* Puts what the store holds of the slice into its tree. */
static void scan_store(struct sync_slice *sl)
{
    int rc = ccnr_store_walk(sl->ag->r->store, sl->s.prefix.enc.data, sl->s.prefix.enc.len,
                             scan_one, sl);
    if (rc != 0) {
        sync_log(sl->ag, CCNR_ERROR, "cannot read the store: %s", ccnr_store_strerror(rc));
    }
}

/* ---- Answers ---- */

static void put_signed(struct sync_slice *sl, const uint8_t *name, size_t name_len,
                       const struct ccnx_sync_hash *fbi, const uint8_t *node, size_t node_len)
{
    struct ccnx_content_params p;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    ccnx_content_params_init(&p);
    p.name = name;
    p.name_len = name_len;
    p.freshness = CCNX_SYNC_FRESHNESS_S;
    p.final_block_id = fbi->b;
    p.final_block_id_len = fbi->len;
    p.content = node;
    p.content_len = node_len;
    struct ccnr *r = sl->ag->r;
    int rc = ccnx_content_sign(&obj, &p, ccnx_keystore_key(r->ks));
    rc = rc == 0 ? ccnx_client_put(r->c, obj.data, obj.len) : rc;
    if (rc != 0) {
        sync_log(sl->ag, CCNR_ERROR, "cannot answer: %s", ccnx_strerror(rc));
    }
    ccnx_buf_free(&obj);
}

/* The component after `prefix` in the Interest's name: 1 and *out, or 0. */
static int comp_after(const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                      const struct ccnx_name *prefix, struct ccnx_comp *out)
{
    struct ccnx_name_iter it;
    if (ccnx_name_iter_init(&it, ibuf + pi->name.off, pi->name.len) != 0) {
        return 0;
    }
    for (size_t i = 0; i <= prefix->count; i++) {
        if (ccnx_name_iter_next(&it, out) != 1) {
            return 0;
        }
    }
    return 1;
}

/* A neighbour's Root Advise: our root node when our root differs from its
 * and it has not excluded ours. 1 when answered. */
static int answer_advise(struct sync_slice *sl, const uint8_t *ibuf,
                         const struct ccnx_interest_parsed *pi)
{
    struct ccnx_comp theirs;
    const struct ccnx_sync_hash *ours = ccnx_sync_tree_hash(sl->tree);
    const uint8_t *node;
    size_t node_len;
    if (!comp_after(ibuf, pi, &sl->ra_prefix, &theirs) || theirs.n > CCNX_SYNC_HASH_MAX ||
        ccnx_sync_tree_root(sl->tree, &node, &node_len) != 0) {
        return 0;
    }
    struct ccnx_sync_hash h;
    ccnx_sync_hash_set(&h, theirs.p, theirs.n);
    if (ccnx_sync_hash_equal(&h, ours)) {
        return 0; /* nothing to tell */
    }
    if (ccnx_match_excluded(ibuf, pi->exclude, ours->b, ours->len)) {
        sync_log(sl->ag, CCNR_FINER, "a neighbour's Root Advise excludes our root");
        return 0; /* heard already */
    }
    struct ccnx_name answer;
    ccnx_name_init(&answer);
    int ok = ccnx_name_set_ccnb(&answer, ibuf + pi->name.off, pi->name.len) == 0 &&
             ccnx_name_truncate(&answer, sl->ra_prefix.count + 1) == 0 &&
             ccnx_name_append(&answer, ours->b, ours->len) == 0;
    if (ok) {
        put_signed(sl, answer.enc.data, answer.enc.len, ours, node, node_len);
        sl->ag->advises_answered++;
    }
    ccnx_name_free(&answer);
    return ok;
}

/* Keeps a copy of an Interest we could not answer, for sync_answer_held. */
static void hold(struct sync_slice *sl, const uint8_t *ibuf, size_t len,
                 const struct ccnx_interest_parsed *pi)
{
    int64_t now = ccnx_client_now_ms();
    struct sync_held *slot = &sl->held[0];
    for (size_t i = 0; i < SYNC_HELD_MAX; i++) {
        if (sl->held[i].expires_ms < slot->expires_ms) {
            slot = &sl->held[i]; /* an empty one, or the one that ends first */
        }
    }
    ccnx_buf_reset(&slot->interest);
    if (ccnx_buf_append(&slot->interest, ibuf, len) == 0) {
        slot->expires_ms = now + (int64_t)(pi->lifetime * 1000 / 4096);
    }
}

static int on_root_advise(void *arg, const uint8_t *ibuf, size_t len,
                          const struct ccnx_interest_parsed *pi)
{
    struct sync_slice *sl = arg;
    if (sl->deleted) {
        return 1;
    }
    int answered = answer_advise(sl, ibuf, pi);
    if (!answered) {
        hold(sl, ibuf, len, pi);
    }
    sync_log(sl->ag, CCNR_FINER, "a neighbour's Root Advise: %s", answered ? "answered" : "held");
    struct ccnx_comp theirs;
    struct ccnx_sync_hash h;
    if (comp_after(ibuf, pi, &sl->ra_prefix, &theirs) &&
        ccnx_sync_hash_set(&h, theirs.p, theirs.n) == 0 &&
        !ccnx_sync_hash_equal(&h, ccnx_sync_tree_hash(sl->tree))) {
        sync_fetch_root(sl, &h); /* it may hold what we lack */
    }
    return 1;
}

void sync_answer_held(struct sync_slice *sl)
{
    int64_t now = ccnx_client_now_ms();
    for (size_t i = 0; i < SYNC_HELD_MAX; i++) {
        struct sync_held *h = &sl->held[i];
        struct ccnx_interest_parsed pi;
        if (h->expires_ms == 0) {
            continue;
        }
        if (h->expires_ms <= now ||
            ccnx_interest_parse(h->interest.data, h->interest.len, &pi) != 0 ||
            answer_advise(sl, h->interest.data, &pi)) {
            h->expires_ms = 0; /* ended, or answered: its PIT entry is used */
        }
    }
}

static int on_node_fetch(void *arg, const uint8_t *ibuf, size_t len,
                         const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct sync_slice *sl = arg;
    struct ccnx_comp c;
    const uint8_t *node;
    size_t node_len;
    struct ccnx_sync_hash h;
    if (sl->deleted || !comp_after(ibuf, pi, &sl->nf_prefix, &c) ||
        ccnx_sync_hash_set(&h, c.p, c.n) != 0 ||
        ccnx_sync_tree_node(sl->tree, &h, &node, &node_len) != 0) {
        return 1;
    }
    struct ccnx_name answer;
    ccnx_name_init(&answer);
    if (ccnx_name_set_ccnb(&answer, ibuf + pi->name.off, pi->name.len) == 0 &&
        ccnx_name_truncate(&answer, sl->nf_prefix.count + 1) == 0) {
        put_signed(sl, answer.enc.data, answer.enc.len, &h, node, node_len);
        sl->ag->nodes_answered++;
    }
    ccnx_name_free(&answer);
    return 1;
}

/* ---- Slices ---- */

static int listen(struct sync_slice *sl)
{
    struct ccnx_client *c = sl->ag->r->c;
    int rc = ccnx_sync_slice_prefix(&sl->s, CCNX_SYNC_RA_MARKER, &sl->ra_prefix);
    rc = rc == 0 ? ccnx_sync_slice_prefix(&sl->s, CCNX_SYNC_NF_MARKER, &sl->nf_prefix) : rc;
    rc = rc == 0 ? ccnx_client_set_filter(c, &sl->ra_prefix, CCNX_FILTER_REGISTER, 0,
                                          on_root_advise, sl, &sl->ra_filter)
                 : rc;
    return rc == 0 ? ccnx_client_set_filter(c, &sl->nf_prefix, CCNX_FILTER_REGISTER, 0,
                                            on_node_fetch, sl, &sl->nf_filter)
                   : rc;
}

static void silence(struct sync_slice *sl)
{
    struct ccnx_client *c = sl->ag->r->c;
    sync_fetch_stop(sl);
    if (sl->ra_filter != 0) {
        ccnx_client_clear_filter(c, sl->ra_filter);
    }
    if (sl->nf_filter != 0) {
        ccnx_client_clear_filter(c, sl->nf_filter);
    }
    sl->ra_filter = sl->nf_filter = 0;
    ccnx_sync_tree_destroy(sl->tree);
    sl->tree = NULL;
}

static const char *slice_uri(struct ccnx_buf *b, const struct sync_slice *sl)
{
    ccnx_buf_reset(b);
    ccnx_uri_append_name(b, &sl->s.topo);
    ccnx_buf_append_str(b, " ");
    ccnx_uri_append_name(b, &sl->s.prefix);
    return ccnx_buf_cstr(b);
}

/* Starts following a slice: its tree from the store, its filters. */
static void begin(struct sync_slice *sl)
{
    struct ccnx_buf u = CCNX_BUF_INIT;
    sl->deleted = 0;
    int rc = ccnx_sync_tree_create(&sl->tree);
    if (rc == 0) {
        scan_store(sl);
        rc = listen(sl);
    }
    if (rc != 0) {
        sync_log(sl->ag, CCNR_ERROR, "cannot follow slice %s: %s", slice_uri(&u, sl),
                 ccnx_strerror(rc));
        silence(sl);
        sl->deleted = 1;
    } else {
        sync_log(sl->ag, CCNR_INFO, "following slice %s: %zu names", slice_uri(&u, sl),
                 ccnx_sync_tree_count(sl->tree));
    }
    ccnx_buf_free(&u);
}

static struct sync_slice *find_slice(struct ccnr_sync *ag, const uint8_t hash[32])
{
    for (struct sync_slice *sl = ag->slices; sl != NULL; sl = sl->next) {
        if (memcmp(sl->hash, hash, 32) == 0) {
            return sl;
        }
    }
    return NULL;
}

static struct sync_slice *new_slice(struct ccnr_sync *ag, const uint8_t hash[32])
{
    struct sync_slice *sl = calloc(1, sizeof *sl);
    if (sl == NULL || ccnx_sync_slice_init(&sl->s) != 0) {
        free(sl);
        return NULL;
    }
    sl->ag = ag;
    sl->deleted = 1; /* until begun */
    memcpy(sl->hash, hash, 32);
    ccnx_name_init(&sl->ra_prefix);
    ccnx_name_init(&sl->nf_prefix);
    sl->next = ag->slices;
    ag->slices = sl;
    return sl;
}

/* A Create Slice object: /%C1.M.S.localhost/%C1.S.cs/<hash>/<version>/...
 * Applied when its version is newer than the newest seen for that hash. */
static void apply_config(struct ccnr_sync *ag, const uint8_t *obj, size_t len)
{
    struct ccnx_content_parsed pc;
    struct ccnx_name n;
    struct ccnx_comp hash, version;
    ccnx_name_init(&n);
    int ok = ccnx_content_parse(obj, len, &pc) == 0 &&
             ccnx_name_set_ccnb(&n, obj + pc.name.off, pc.name.len) == 0 &&
             ccnx_name_comp(&n, ag->cs_prefix.count, &hash) == 0 && hash.n == 32 &&
             ccnx_name_comp(&n, ag->cs_prefix.count + 1, &version) == 0;
    struct sync_slice *sl = ok ? find_slice(ag, hash.p) : NULL;
    if (!ok || (sl != NULL &&
                ccnx_comp_compare(version.p, version.n, sl->version.data, sl->version.len) <= 0)) {
        ccnx_name_free(&n);
        return;
    }
    sl = sl != NULL ? sl : new_slice(ag, hash.p);
    if (sl != NULL) {
        ccnx_buf_reset(&sl->version);
        ccnx_buf_append(&sl->version, version.p, version.n);
        if (!sl->deleted) {
            silence(sl);
            sl->deleted = 1;
        }
        uint8_t h[32];
        const uint8_t *body = obj + pc.content_value.off;
        if (pc.type != CCNX_TYPE_GONE &&
            ccnx_sync_slice_decode(&sl->s, body, pc.content_value.len) == 0 &&
            ccnx_sync_slice_hash(&sl->s, h) == 0 && memcmp(h, sl->hash, 32) == 0) {
            begin(sl);
        } else if (pc.type == CCNX_TYPE_GONE) {
            sync_log(ag, CCNR_INFO, "a slice was deleted");
        } else {
            sync_log(ag, CCNR_WARNING, "a Create Slice request that is no slice of its hash");
        }
    }
    ccnx_name_free(&n);
}

static int load_one(void *arg, const uint8_t *obj, size_t len)
{
    apply_config(arg, obj, len);
    return 0;
}

void ccnr_sync_stored(struct ccnr *r, const uint8_t *obj, size_t len)
{
    struct ccnr_sync *ag = r->sync;
    if (ag == NULL) {
        return;
    }
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(obj, len, &pc) != 0) {
        return;
    }
    if (ccnx_name_is_prefix_ccnb(ag->cs_prefix.enc.data, ag->cs_prefix.enc.len, obj + pc.name.off,
                                 pc.name.len) == 1) {
        apply_config(ag, obj, len);
    } else {
        note_content(ag, obj, len, &pc);
    }
}

void ccnr_sync_rescan(struct ccnr *r)
{
    if (r->sync == NULL) {
        return;
    }
    ccnr_store_walk(r->store, r->sync->cs_prefix.enc.data, r->sync->cs_prefix.enc.len, load_one,
                    r->sync);
    for (struct sync_slice *sl = r->sync->slices; sl != NULL; sl = sl->next) {
        if (!sl->deleted) {
            scan_store(sl);
        }
    }
}

/* ---- The heartbeat ---- */

static void heartbeat(void *arg)
{
    struct ccnr_sync *ag = arg;
    ag->timer = 0;
    for (struct sync_slice *sl = ag->slices; sl != NULL; sl = sl->next) {
        if (sl->deleted) {
            continue;
        }
        int changed = !ccnx_sync_hash_equal(&sl->advised, ccnx_sync_tree_hash(sl->tree));
        if (sl->diff == NULL && (sl->ra_id == 0 || changed)) {
            sync_advise(sl); /* also answers the Root Advise Interests held */
        } else if (changed) {
            sync_answer_held(sl); /* advised once the comparison ends */
        }
        sync_pump(sl);
    }
    int ms = (int)(ag->r->set.sync.heartbeat_us / 1000);
    if (ccnx_client_schedule(ag->r->c, ms, heartbeat, ag, &ag->timer) != 0) {
        ag->timer = 0;
        sync_log(ag, CCNR_SEVERE, "cannot schedule the heartbeat: Sync stops");
    }
}

int ccnr_sync_start(struct ccnr *r)
{
    const struct ccnr_sync_set *set = &r->set.sync;
    if (!set->enable) {
        return 0;
    }
    struct ccnr_sync *ag = calloc(1, sizeof *ag);
    if (ag == NULL) {
        return CCNX_E_NOMEM;
    }
    ag->r = r;
    r->sync = ag;
    ccnx_name_init(&ag->cs_prefix);
    ccnx_name_append(&ag->cs_prefix, CCNX_SYNC_LOCALHOST, strlen(CCNX_SYNC_LOCALHOST));
    ccnx_name_append(&ag->cs_prefix, CCNX_SYNC_CS_MARKER, strlen(CCNX_SYNC_CS_MARKER));
    sync_log(ag, CCNR_INFO,
             "CCNS_ENABLE=1 CCNS_HEARTBEAT_MICROS=%ld CCNS_ROOT_ADVISE_LIFETIME=%ld "
             "CCNS_NODE_FETCH_LIFETIME=%ld CCNS_MAX_FETCH_BUSY=%ld CCNS_SYNC_SCOPE=%ld",
             set->heartbeat_us, set->ra_lifetime_s, set->nf_lifetime_s, set->fetch_busy,
             set->scope);
    int rc = ccnr_store_walk(r->store, ag->cs_prefix.enc.data, ag->cs_prefix.enc.len, load_one, ag);
    if (rc != 0) {
        sync_log(ag, CCNR_ERROR, "cannot read the slices: %s", ccnr_store_strerror(rc));
    }
    heartbeat(ag);
    return 0;
}

void ccnr_sync_stop(struct ccnr *r)
{
    struct ccnr_sync *ag = r->sync;
    if (ag == NULL) {
        return;
    }
    if (ag->timer != 0) {
        ccnx_client_unschedule(r->c, ag->timer);
    }
    while (ag->slices != NULL) {
        struct sync_slice *sl = ag->slices;
        ag->slices = sl->next;
        silence(sl);
        ccnx_sync_slice_free(&sl->s);
        ccnx_name_free(&sl->ra_prefix);
        ccnx_name_free(&sl->nf_prefix);
        ccnx_buf_free(&sl->version);
        for (size_t i = 0; i < SYNC_HELD_MAX; i++) {
            ccnx_buf_free(&sl->held[i].interest);
        }
        free(sl);
    }
    ccnx_name_free(&ag->cs_prefix);
    free(ag);
    r->sync = NULL;
}

/* ---- For the status page ---- */

void ccnr_sync_get_counts(const struct ccnr *r, struct ccnr_sync_counts *out)
{
    memset(out, 0, sizeof *out);
    const struct ccnr_sync *ag = r->sync;
    if (ag != NULL) {
        *out = (struct ccnr_sync_counts){1,           ag->names_fetched,    ag->nodes_fetched,
                                         ag->refused, ag->advises_answered, ag->nodes_answered};
    }
}

void ccnr_sync_foreach(const struct ccnr *r,
                       void (*fn)(void *arg, const char *topo, const char *prefix, size_t names,
                                  const char *root),
                       void *arg)
{
    if (r->sync == NULL) {
        return;
    }
    struct ccnx_buf topo = CCNX_BUF_INIT, prefix = CCNX_BUF_INIT, root = CCNX_BUF_INIT;
    for (const struct sync_slice *sl = r->sync->slices; sl != NULL; sl = sl->next) {
        if (sl->deleted) {
            continue;
        }
        ccnx_buf_reset(&topo);
        ccnx_buf_reset(&prefix);
        ccnx_buf_reset(&root);
        ccnx_uri_append_name(&topo, &sl->s.topo);
        ccnx_uri_append_name(&prefix, &sl->s.prefix);
        ccnx_sync_hash_hex(ccnx_sync_tree_hash(sl->tree), &root);
        fn(arg, ccnx_buf_cstr(&topo), ccnx_buf_cstr(&prefix), ccnx_sync_tree_count(sl->tree),
           ccnx_buf_cstr(&root));
    }
    ccnx_buf_free(&topo);
    ccnx_buf_free(&prefix);
    ccnx_buf_free(&root);
}
