/* The pending-Interest table (see pit.h). */
#include "table/pit.h"

#include "table/facecount.h"
#include "table/nametree.h"

#include <ccnx/hashtab.h>
#include <ccnx/heap.h>

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/match.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct pit_entry {
    struct ccnx_hnode hn;                    /* in the table, by key hash */
    struct pit_entry *name_prev, *name_next; /* entries with the same Name */
    struct nametree_node *node;              /* that Name's node */
    struct ccnx_heap_node exp;               /* when: the earliest downstream expiry */
    void *owner;                             /* the forwarder's record of the entry */
    uint64_t expires;
    struct ccnx_interest_parsed pi;
    struct pit_downstream *down;
    struct pit_upstream *up;
    uint32_t ndown, capdown, nup, capup;
    size_t keylen, len;
    uint8_t msg[]; /* the first Interest */
};

#define ENTRY_OF(node) CCNX_HTAB_ENTRY(node, struct pit_entry, hn)

struct pit {
    struct ccnx_htab entries; /* by key */
    struct nametree *names;
    size_t limit;
    struct ccnx_heap expiry; /* entries by their earliest downstream expiry */
    void (*expire_hook)(void *arg, struct pit_entry *e);
    void *expire_arg;
    struct facecount faces; /* downstream records per face, and each face's list */
    struct pit_stats st;
};

struct pit *pit_create(size_t limit)
{
    struct pit *pit = calloc(1, sizeof *pit);
    if (pit == NULL) {
        return NULL;
    }
    int res = ccnx_htab_init(&pit->entries, 1024);
    pit->names = nametree_create();
    if (res != 0 || pit->names == NULL) {
        ccnx_htab_free(&pit->entries);
        nametree_destroy(pit->names);
        free(pit);
        return NULL;
    }
    pit->limit = limit;
    ccnx_heap_init(&pit->expiry);
    return pit;
}

static void entry_free(struct pit_entry *e)
{
    free(e->down);
    free(e->up);
    free(e);
}

void pit_destroy(struct pit *pit)
{
    if (pit == NULL) {
        return;
    }
    for (size_t i = 0; i <= pit->entries.mask; i++) {
        struct ccnx_hnode *x = pit->entries.buckets[i];
        while (x != NULL) {
            struct ccnx_hnode *next = x->next;
            entry_free(ENTRY_OF(x));
            x = next;
        }
    }
    nametree_destroy(pit->names);
    ccnx_heap_free(&pit->expiry);
    facecount_free(&pit->faces);
    ccnx_htab_free(&pit->entries);
    free(pit);
}

void pit_set_expire_hook(struct pit *pit, void (*fn)(void *arg, struct pit_entry *e), void *arg)
{
    pit->expire_hook = fn;
    pit->expire_arg = arg;
}

void pit_set_limit(struct pit *pit, size_t limit)
{
    pit->limit = limit;
}

int pit_key_length(const uint8_t *msg, size_t len, const struct ccnx_interest_parsed *pi,
                   size_t *keylen)
{
    struct ccnx_ccnb_reader r;
    if (msg == NULL || pi == NULL || pi->interest.off + pi->interest.len > len) {
        return CCNX_E_INVAL;
    }
    ccnx_ccnb_reader_init(&r, msg, pi->interest.off + pi->interest.len, pi->interest.off);
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_Interest) != 0) {
        return CCNX_E_STRUCTURE;
    }
    while (!ccnx_ccnb_at_closer(&r)) {
        int64_t d = ccnx_ccnb_peek_dtag(&r);
        if (d == CCNX_DTAG_InterestLifetime || d == CCNX_DTAG_Nonce || d == CCNX_DTAG_FaceID) {
            break;
        }
        if (ccnx_ccnb_skip_element(&r) != 0) {
            return CCNX_E_STRUCTURE;
        }
    }
    *keylen = r.pos;
    return r.err;
}

static struct pit_entry *find_key(const struct pit *pit, const uint8_t *key, size_t klen,
                                  uint64_t h)
{
    for (struct ccnx_hnode *x = ccnx_htab_chain(&pit->entries, h); x != NULL; x = x->next) {
        struct pit_entry *e = ENTRY_OF(x);
        if (x->hash == h && e->keylen == klen && memcmp(e->msg, key, klen) == 0) {
            return e;
        }
    }
    return NULL;
}

/* ---- Each face's list of its downstream records ----
 *
 * The list links the records themselves, so taking one out touches only its
 * two neighbours' records, not their entries. A record that moves (its
 * entry's array grew, or a record was dropped and another put in its slot)
 * tells its neighbours where it went. */

static void flist_link(struct pit *pit, struct pit_downstream *d)
{
    void **head = facecount_head(&pit->faces, d->faceid);
    d->fprev = NULL;
    d->fnext = head != NULL ? *head : NULL;
    if (d->fnext != NULL) {
        d->fnext->fprev = d;
    }
    if (head != NULL) {
        *head = d;
    }
}

static void flist_unlink(struct pit *pit, const struct pit_downstream *d)
{
    if (d->fprev != NULL) {
        d->fprev->fnext = d->fnext;
    } else {
        void **head = facecount_head(&pit->faces, d->faceid);
        if (head != NULL) {
            *head = d->fnext;
        }
    }
    if (d->fnext != NULL) {
        d->fnext->fprev = d->fprev;
    }
}

/* d was copied to where it is now from elsewhere; its neighbours (never
 * records of the same entry: one record per face) follow. */
static void flist_moved(struct pit *pit, struct pit_downstream *d)
{
    if (d->fprev != NULL) {
        d->fprev->fnext = d;
    } else {
        void **head = facecount_head(&pit->faces, d->faceid);
        if (head != NULL) {
            *head = d;
        }
    }
    if (d->fnext != NULL) {
        d->fnext->fprev = d;
    }
}

/* Drops a downstream record: out of its face's list and count. */
static void down_drop(struct pit *pit, const struct pit_downstream *d)
{
    flist_unlink(pit, d);
    facecount_sub(&pit->faces, d->faceid);
    pit->st.pending--;
}

static uint64_t earliest_expiry(const struct pit_entry *e)
{
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < e->ndown; i++) {
        t = e->down[i].expires < t ? e->down[i].expires : t;
    }
    return t;
}

int pit_key_init(struct pit_key *k, const uint8_t *msg, size_t len,
                 const struct ccnx_interest_parsed *pi)
{
    size_t klen;
    int r = pit_key_length(msg, len, pi, &klen);
    if (r != 0) {
        return r;
    }
    k->p = msg + pi->interest.off;
    k->len = klen - pi->interest.off;
    k->hash = ccnx_hash_mix(ccnx_hash_bytes(CCNX_HASH_INIT, k->p, k->len));
    return 0;
}

struct pit_entry *pit_find_key(const struct pit *pit, const struct pit_key *k)
{
    return find_key(pit, k->p, k->len, k->hash);
}

struct pit_entry *pit_find(const struct pit *pit, const uint8_t *msg, size_t len,
                           const struct ccnx_interest_parsed *pi)
{
    struct pit_key k;
    return pit_key_init(&k, msg, len, pi) == 0 ? pit_find_key(pit, &k) : NULL;
}

/* The parse of the Interest moved to the start of its copy. */
static void rebase_span(struct ccnx_span *s, size_t base)
{
    s->off = s->len > 0 ? s->off - base : 0;
}

static void rebase_parse(struct ccnx_interest_parsed *pi, size_t base)
{
    rebase_span(&pi->interest, base);
    rebase_span(&pi->name, base);
    rebase_span(&pi->publisher, base);
    rebase_span(&pi->exclude, base);
    rebase_span(&pi->lifetime_value, base);
    rebase_span(&pi->nonce, base);
}

/* Copies the Interest, links the entry under its key and its Name. */
static struct pit_entry *entry_new(struct pit *pit, const uint8_t *msg,
                                   const struct ccnx_interest_parsed *pi, size_t klen, uint64_t h)
{
    const uint8_t *im = msg + pi->interest.off;
    size_t ilen = pi->interest.len;
    struct pit_entry *e = calloc(1, sizeof *e + ilen);
    if (e == NULL) {
        return NULL;
    }
    memcpy(e->msg, im, ilen);
    e->len = ilen;
    e->keylen = klen;
    ccnx_heap_node_init(&e->exp);
    e->pi = *pi;
    rebase_parse(&e->pi, pi->interest.off);
    struct nametree_name nn;
    if (nametree_name_init(&nn, e->msg + e->pi.name.off, e->pi.name.len, NULL, 0, 0) != 0) {
        free(e);
        return NULL;
    }
    e->node = nametree_insert(pit->names, &nn, nn.ncomps);
    nametree_name_free(&nn);
    if (e->node == NULL) {
        free(e);
        return NULL;
    }
    e->name_next = e->node->data;
    if (e->name_next != NULL) {
        e->name_next->name_prev = e;
    }
    e->node->data = e;
    ccnx_htab_insert(&pit->entries, &e->hn, h);
    pit->st.entries++;
    pit->st.created++;
    return e;
}

static int set_downstream(struct pit *pit, struct pit_entry *e,
                          const struct ccnx_interest_parsed *pi, const uint8_t *msg,
                          unsigned faceid, uint64_t now)
{
    struct pit_downstream *d = NULL;
    for (uint32_t i = 0; i < e->ndown; i++) {
        if (e->down[i].faceid == faceid) {
            d = &e->down[i];
        }
    }
    if (d == NULL) {
        if (e->ndown == e->capdown) {
            uint32_t nc = e->capdown ? 2 * e->capdown : 2;
            struct pit_downstream *v = realloc(e->down, nc * sizeof *v);
            if (v == NULL) {
                return CCNX_E_NOMEM;
            }
            int moved = v != e->down;
            e->down = v;
            e->capdown = nc;
            for (uint32_t i = 0; moved && i < e->ndown; i++) {
                flist_moved(pit, &v[i]);
            }
        }
        if (facecount_add(&pit->faces, faceid) != 0) {
            return CCNX_E_NOMEM;
        }
        pit->st.pending++;
        d = &e->down[e->ndown++];
        d->faceid = faceid;
        d->entry = e;
        flist_link(pit, d);
    }
    /* InterestLifetime is in 1/4096 s. */
    d->expires = now + pi->lifetime * 1000000u / 4096u;
    d->nonce_len = (uint8_t)(pi->nonce.len < PIT_NONCE_MAX ? pi->nonce.len : PIT_NONCE_MAX);
    memcpy(d->nonce, msg + pi->nonce.off, d->nonce_len);
    if (d->expires > e->expires) {
        e->expires = d->expires;
    }
    return 0;
}

/* The fairness rule of pit.h: once the table is half full, a face may add
 * an entry only while it holds fewer than limit / (faces holding + 1). A
 * face holding nothing is never refused by it, so one share stays open. */
static int over_share(const struct pit *pit, unsigned faceid)
{
    if (pit->st.entries * 2 < pit->limit) {
        return 0;
    }
    size_t held = facecount_get(&pit->faces, faceid);
    size_t share = pit->limit / (facecount_faces(&pit->faces) + 1);
    return held > 0 && held >= share;
}

int pit_insert(struct pit *pit, const uint8_t *msg, size_t len,
               const struct ccnx_interest_parsed *pi, unsigned faceid, uint64_t now,
               struct pit_entry **out)
{
    struct pit_key k;
    *out = NULL;
    int r = pit_key_init(&k, msg, len, pi);
    return r != 0 ? r : pit_insert_key(pit, &k, msg, pi, faceid, now, out);
}

int pit_insert_key(struct pit *pit, const struct pit_key *k, const uint8_t *msg,
                   const struct ccnx_interest_parsed *pi, unsigned faceid, uint64_t now,
                   struct pit_entry **out)
{
    *out = NULL;
    struct pit_entry *e = find_key(pit, k->p, k->len, k->hash);
    int res = PIT_AGGREGATED;
    if (e == NULL) {
        int over = over_share(pit, faceid);
        if (pit->st.entries >= pit->limit || over) {
            pit->st.refused++;
            pit->st.refused_share += over;
            return CCNX_E_TOOBIG;
        }
        if ((e = entry_new(pit, msg, pi, k->len, k->hash)) == NULL) {
            return CCNX_E_NOMEM;
        }
        res = PIT_NEW;
    } else {
        pit->st.aggregated++;
    }
    if (set_downstream(pit, e, pi, msg, faceid, now) != 0 ||
        ccnx_heap_set(&pit->expiry, &e->exp, earliest_expiry(e)) != 0) {
        if (res == PIT_NEW) {
            pit_remove(pit, e);
        }
        return CCNX_E_NOMEM;
    }
    *out = e;
    return res;
}

int pit_entry_has_nonce(const struct pit_entry *e, const uint8_t *nonce, size_t n)
{
    if (n > PIT_NONCE_MAX) {
        n = PIT_NONCE_MAX;
    }
    for (uint32_t i = 0; i < e->ndown; i++) {
        if (e->down[i].nonce_len == n && memcmp(e->down[i].nonce, nonce, n) == 0) {
            return 1;
        }
    }
    return 0;
}

int pit_entry_sent(struct pit *pit, struct pit_entry *e, unsigned faceid, uint64_t now)
{
    for (uint32_t i = 0; i < e->nup; i++) {
        if (e->up[i].faceid == faceid) {
            e->up[i].sent = now;
            e->up[i].attempts++;
            return 0;
        }
    }
    if (e->nup == e->capup) {
        uint32_t nc = e->capup ? 2 * e->capup : 2;
        struct pit_upstream *v = realloc(e->up, nc * sizeof *v);
        if (v == NULL) {
            return CCNX_E_NOMEM;
        }
        e->up = v;
        e->capup = nc;
    }
    e->up[e->nup++] = (struct pit_upstream){faceid, now, 1};
    return 0;
}

/* Appends to out[] the entries of name node n that the object satisfies;
 * returns the count so far (all of them counted, beyond max too). */
static size_t match_at(const struct nametree_node *n, const uint8_t *cbuf, size_t clen,
                       const struct ccnx_content_parsed *pc, const uint8_t *digest,
                       struct pit_entry **out, size_t max, size_t found)
{
    for (struct pit_entry *e = n != NULL ? n->data : NULL; e != NULL; e = e->name_next) {
        if (ccnx_match(e->msg, &e->pi, cbuf, clen, pc, digest)) {
            if (found < max) {
                out[found] = e;
            }
            found++;
        }
    }
    return found;
}

size_t pit_match(const struct pit *pit, const uint8_t *cbuf, size_t clen,
                 const struct ccnx_content_parsed *pc, const uint8_t digest[32],
                 struct pit_entry **out, size_t max)
{
    uint8_t own[32];
    struct nametree_name nn;
    size_t found = 0;
    if (nametree_name_init(&nn, cbuf + pc->name.off, pc->name.len, NULL, 0, 0) != 0) {
        return 0;
    }
    /* Every Interest name that can match is a prefix of the full name; a
     * missing prefix means no longer one exists either. */
    struct nametree_node *last = NULL;
    uint32_t ncomps = nn.ncomps;
    for (uint32_t k = 0; k <= ncomps; k++) {
        if ((last = nametree_find(pit->names, &nn, k)) == NULL) {
            break;
        }
        found = match_at(last, cbuf, clen, pc, digest, out, max, found);
    }
    nametree_name_free(&nn);
    /* Only an Interest naming the digest itself lies one level deeper: the
     * digest is computed for those alone (ccnx_match computes it for
     * Interests that exclude at its level). */
    if (last == NULL || last->ncomps != ncomps || last->children == 0) {
        return found;
    }
    if (digest == NULL) {
        if (ccnx_content_digest(cbuf + pc->object.off, pc->object.len, own) != 0) {
            return found;
        }
        digest = own;
    }
    if (nametree_name_init(&nn, cbuf + pc->name.off, pc->name.len, digest, 32, 1) == 0) {
        found = match_at(nametree_find(pit->names, &nn, ncomps + 1), cbuf, clen, pc, digest, out,
                         max, found);
        nametree_name_free(&nn);
    }
    return found;
}

void pit_remove(struct pit *pit, struct pit_entry *e)
{
    ccnx_htab_remove(&pit->entries, &e->hn);
    if (e->name_prev != NULL) {
        e->name_prev->name_next = e->name_next;
    } else {
        e->node->data = e->name_next;
    }
    if (e->name_next != NULL) {
        e->name_next->name_prev = e->name_prev;
    }
    nametree_release(pit->names, e->node);
    ccnx_heap_remove(&pit->expiry, &e->exp);
    for (uint32_t i = 0; i < e->ndown; i++) {
        down_drop(pit, &e->down[i]);
    }
    pit->st.entries--;
    entry_free(e);
}

void pit_consume(struct pit *pit, struct pit_entry *e)
{
    pit->st.satisfied++;
    pit_remove(pit, e);
}

/* Drops the downstream records expired by now; 1 when the entry is left
 * without any. */
static int prune(struct pit *pit, struct pit_entry *e, uint64_t now)
{
    uint32_t k = 0;
    e->expires = 0;
    for (uint32_t i = 0; i < e->ndown; i++) {
        const struct pit_downstream *d = &e->down[i];
        if (d->expires <= now) {
            down_drop(pit, d);
            continue;
        }
        if (d->expires > e->expires) {
            e->expires = d->expires;
        }
        if (k != i) {
            e->down[k] = *d;
            flist_moved(pit, &e->down[k]);
        }
        k++;
    }
    e->ndown = k;
    return k == 0;
}

size_t pit_expire(struct pit *pit, uint64_t now)
{
    size_t n = 0;
    struct ccnx_heap_node *x;
    while ((x = ccnx_heap_top(&pit->expiry)) != NULL && x->when <= now) {
        struct pit_entry *e = (struct pit_entry *)((uint8_t *)x - offsetof(struct pit_entry, exp));
        if (prune(pit, e, now)) {
            if (pit->expire_hook != NULL) {
                pit->expire_hook(pit->expire_arg, e);
            }
            pit_remove(pit, e);
            n++;
        } else {
            ccnx_heap_set(&pit->expiry, x, earliest_expiry(e)); /* moving a node never fails */
        }
    }
    pit->st.expired += n;
    return n;
}

uint64_t pit_next_expiry(const struct pit *pit)
{
    return ccnx_heap_next(&pit->expiry);
}

size_t pit_remove_face(struct pit *pit, unsigned faceid,
                       void (*dropping)(void *arg, struct pit_entry *e), void *arg)
{
    size_t removed = 0;
    void **head;
    while ((head = facecount_head(&pit->faces, faceid)) != NULL && *head != NULL) {
        struct pit_downstream *d = *head;
        struct pit_entry *e = d->entry;
        pit->st.face_visits++;
        down_drop(pit, d);
        if (d != &e->down[--e->ndown]) { /* records keep no order */
            *d = e->down[e->ndown];
            flist_moved(pit, d);
        }
        if (e->ndown == 0) {
            if (dropping != NULL) {
                dropping(arg, e);
            }
            pit_remove(pit, e);
            removed++;
        } else {
            e->expires = 0;
            for (uint32_t i = 0; i < e->ndown; i++) {
                e->expires = e->down[i].expires > e->expires ? e->down[i].expires : e->expires;
            }
            ccnx_heap_set(&pit->expiry, &e->exp, earliest_expiry(e)); /* in already */
        }
    }
    return removed;
}

void *pit_entry_owner(const struct pit_entry *e)
{
    return e->owner;
}

void pit_entry_set_owner(struct pit_entry *e, void *owner)
{
    e->owner = owner;
}

const uint8_t *pit_entry_interest(const struct pit_entry *e, size_t *len,
                                  const struct ccnx_interest_parsed **pi)
{
    *len = e->len;
    if (pi != NULL) {
        *pi = &e->pi;
    }
    return e->msg;
}

const struct pit_downstream *pit_entry_downstreams(const struct pit_entry *e, size_t *n)
{
    *n = e->ndown;
    return e->down;
}

const struct pit_upstream *pit_entry_upstreams(const struct pit_entry *e, size_t *n)
{
    *n = e->nup;
    return e->up;
}

uint64_t pit_entry_expires(const struct pit_entry *e)
{
    return e->expires;
}

void pit_get_stats(const struct pit *pit, struct pit_stats *out)
{
    *out = pit->st;
}

size_t pit_face_pending(const struct pit *pit, unsigned faceid)
{
    return facecount_get(&pit->faces, faceid);
}

size_t pit_count(const struct pit *pit)
{
    return (size_t)pit->st.entries;
}
