/* Sync's combined hash and its slices (docs/sync.md). */
#include <ccnx/sync.h>

#include <ccnx/ccnb.h>
#include <ccnx/dtag_values.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/key.h>

#include <stdlib.h>
#include <string.h>

/* ---- The combined hash ---- */

void ccnx_sync_hash_clear(struct ccnx_sync_hash *h)
{
    h->len = 0;
}

int ccnx_sync_hash_set(struct ccnx_sync_hash *h, const uint8_t *p, size_t n)
{
    if (n > CCNX_SYNC_HASH_MAX) {
        return CCNX_E_TOOBIG;
    }
    memcpy(h->b, p, n);
    h->len = n;
    return 0;
}

/* Both numbers right-aligned: byte i from the end, 0 beyond the start. */
static unsigned byte_from_end(const struct ccnx_sync_hash *h, size_t i)
{
    return i < h->len ? h->b[h->len - 1 - i] : 0;
}

void ccnx_sync_hash_add(struct ccnx_sync_hash *acc, const struct ccnx_sync_hash *v)
{
    size_t width = acc->len > v->len ? acc->len : v->len;
    uint8_t sum[CCNX_SYNC_HASH_MAX + 1];
    unsigned carry = 0;
    for (size_t i = 0; i < width; i++) {
        unsigned s = byte_from_end(acc, i) + byte_from_end(v, i) + carry;
        sum[CCNX_SYNC_HASH_MAX - i] = (uint8_t)s;
        carry = s >> 8;
    }
    if (carry != 0 && width < CCNX_SYNC_HASH_MAX) {
        width++;
        sum[CCNX_SYNC_HASH_MAX + 1 - width] = (uint8_t)carry;
    }
    memcpy(acc->b, sum + CCNX_SYNC_HASH_MAX + 1 - width, width);
    acc->len = width;
}

static const uint8_t *significant(const struct ccnx_sync_hash *h, size_t *n)
{
    size_t i = 0;
    while (i < h->len && h->b[i] == 0) {
        i++;
    }
    *n = h->len - i;
    return h->b + i;
}

int ccnx_sync_hash_equal(const struct ccnx_sync_hash *a, const struct ccnx_sync_hash *b)
{
    size_t an, bn;
    const uint8_t *ap = significant(a, &an);
    const uint8_t *bp = significant(b, &bn);
    return an == bn && memcmp(ap, bp, an) == 0;
}

int ccnx_sync_hash_compare(const struct ccnx_sync_hash *a, const struct ccnx_sync_hash *b)
{
    return ccnx_comp_compare(a->b, a->len, b->b, b->len);
}

int ccnx_sync_name_hash(const uint8_t *name, size_t len, struct ccnx_sync_hash *out)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c = {NULL, 0}, last = {NULL, 0};
    if (ccnx_name_iter_init(&it, name, len) != 0) {
        return CCNX_E_VALUE;
    }
    int rc;
    while ((rc = ccnx_name_iter_next(&it, &c)) == 1) {
        last = c;
    }
    if (rc < 0 || last.n != CCNX_DIGEST_LEN) {
        return CCNX_E_VALUE;
    }
    return ccnx_sync_hash_set(out, last.p, last.n);
}

int ccnx_sync_hash_hex(const struct ccnx_sync_hash *h, struct ccnx_buf *out)
{
    for (size_t i = 0; i < h->len; i++) {
        ccnx_buf_printf(out, "%02x", h->b[i]);
    }
    return ccnx_buf_status(out);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

int ccnx_sync_hash_from_hex(struct ccnx_sync_hash *h, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2 != 0 || n / 2 > CCNX_SYNC_HASH_MAX) {
        return CCNX_E_VALUE;
    }
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return CCNX_E_VALUE;
        }
        h->b[i] = (uint8_t)(hi << 4 | lo);
    }
    h->len = n / 2;
    return 0;
}

/* ---- Slices ---- */

int ccnx_sync_slice_init(struct ccnx_sync_slice *s)
{
    memset(s, 0, sizeof *s);
    int rc = ccnx_name_init(&s->topo);
    return rc == 0 ? ccnx_name_init(&s->prefix) : rc;
}

static void free_clauses(struct ccnx_sync_slice *s)
{
    for (size_t i = 0; i < s->nclauses; i++) {
        ccnx_name_free(&s->clauses[i]);
    }
    free(s->clauses);
    s->clauses = NULL;
    s->nclauses = 0;
}

void ccnx_sync_slice_free(struct ccnx_sync_slice *s)
{
    ccnx_name_free(&s->topo);
    ccnx_name_free(&s->prefix);
    free_clauses(s);
}

static int add_clause_ccnb(struct ccnx_sync_slice *s, const uint8_t *p, size_t n)
{
    struct ccnx_name *grown = realloc(s->clauses, (s->nclauses + 1) * sizeof *grown);
    if (grown == NULL) {
        return CCNX_E_NOMEM;
    }
    s->clauses = grown;
    struct ccnx_name *c = &s->clauses[s->nclauses];
    int rc = ccnx_name_init(c);
    rc = rc == 0 ? ccnx_name_set_ccnb(c, p, n) : rc;
    if (rc != 0) {
        ccnx_name_free(c);
        return rc;
    }
    s->nclauses++;
    return 0;
}

int ccnx_sync_slice_add_clause(struct ccnx_sync_slice *s, const struct ccnx_name *filter)
{
    return add_clause_ccnb(s, filter->enc.data, filter->enc.len);
}

/* SyncConfigSliceOp 0: the clause that follows includes what it matches
 * (the only operation the reference defines). */
#define SLICE_OP_INCLUDE 0

int ccnx_sync_slice_encode(const struct ccnx_sync_slice *s, struct ccnx_buf *out)
{
    ccnx_ccnb_open(out, CCNX_DTAG_SyncConfigSlice);
    ccnx_ccnb_append_uint_element(out, CCNX_DTAG_SyncVersion, CCNX_SYNC_VERSION);
    ccnx_buf_append(out, s->topo.enc.data, s->topo.enc.len);
    ccnx_buf_append(out, s->prefix.enc.data, s->prefix.enc.len);
    ccnx_ccnb_open(out, CCNX_DTAG_SyncConfigSliceList);
    for (size_t i = 0; i < s->nclauses; i++) {
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_SyncConfigSliceOp, SLICE_OP_INCLUDE);
        ccnx_buf_append(out, s->clauses[i].enc.data, s->clauses[i].enc.len);
    }
    ccnx_ccnb_append_closer(out);
    ccnx_ccnb_append_closer(out);
    return ccnx_buf_status(out);
}

static int read_name(struct ccnx_ccnb_reader *r, struct ccnx_name *n)
{
    size_t start = r->pos;
    if (ccnx_ccnb_peek_dtag(r) != CCNX_DTAG_Name || ccnx_ccnb_skip_element(r) != 0) {
        return CCNX_E_STRUCTURE;
    }
    return ccnx_name_set_ccnb(n, r->buf + start, r->pos - start);
}

static int read_clauses(struct ccnx_ccnb_reader *r, struct ccnx_sync_slice *s)
{
    if (ccnx_ccnb_enter(r, CCNX_DTAG_SyncConfigSliceList) != 0) {
        return CCNX_E_STRUCTURE;
    }
    while (r->err == 0 && !ccnx_ccnb_at_closer(r)) {
        uint64_t op = 0;
        if (ccnx_ccnb_read_uint(r, CCNX_DTAG_SyncConfigSliceOp, &op) != 0) {
            return CCNX_E_STRUCTURE;
        }
        if (op != SLICE_OP_INCLUDE) {
            return CCNX_E_UNSUPPORTED;
        }
        size_t start = r->pos;
        if (ccnx_ccnb_peek_dtag(r) != CCNX_DTAG_Name || ccnx_ccnb_skip_element(r) != 0) {
            return CCNX_E_STRUCTURE;
        }
        int rc = add_clause_ccnb(s, r->buf + start, r->pos - start);
        if (rc != 0) {
            return rc;
        }
    }
    return ccnx_ccnb_leave(r);
}

int ccnx_sync_slice_decode(struct ccnx_sync_slice *s, const uint8_t *p, size_t n)
{
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, p, n, 0);
    free_clauses(s);
    uint64_t version = 0;
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_SyncConfigSlice) != 0 ||
        ccnx_ccnb_read_uint(&r, CCNX_DTAG_SyncVersion, &version) != 0) {
        return CCNX_E_STRUCTURE;
    }
    if (version != CCNX_SYNC_VERSION) {
        return CCNX_E_UNSUPPORTED;
    }
    int rc = read_name(&r, &s->topo);
    rc = rc == 0 ? read_name(&r, &s->prefix) : rc;
    rc = rc == 0 ? read_clauses(&r, s) : rc;
    rc = rc == 0 ? ccnx_ccnb_leave(&r) : rc;
    if (rc == 0 && r.pos != n) {
        rc = CCNX_E_TRAILING;
    }
    return rc;
}

int ccnx_sync_slice_hash(const struct ccnx_sync_slice *s, uint8_t out[32])
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    int rc = ccnx_sync_slice_encode(s, &b);
    rc = rc == 0 ? ccnx_sha256(b.data, b.len, out) : rc;
    ccnx_buf_free(&b);
    return rc;
}

/* A clause as a pattern: each component equal, or the wildcard 0xFF. */
static int clause_matches(const struct ccnx_name *clause, const uint8_t *name, size_t len)
{
    struct ccnx_name_iter pi, ni;
    if (ccnx_name_iter_init(&pi, clause->enc.data, clause->enc.len) != 0 ||
        ccnx_name_iter_init(&ni, name, len) != 0) {
        return 0;
    }
    struct ccnx_comp pc, nc;
    while (ccnx_name_iter_next(&pi, &pc) == 1) {
        if (ccnx_name_iter_next(&ni, &nc) != 1) {
            return 0;
        }
        int wild = pc.n == 1 && pc.p[0] == 0xFF;
        if (!wild && (pc.n != nc.n || memcmp(pc.p, nc.p, pc.n) != 0)) {
            return 0;
        }
    }
    return 1;
}

int ccnx_sync_slice_covers(const struct ccnx_sync_slice *s, const uint8_t *name, size_t len)
{
    if (ccnx_name_is_prefix_ccnb(s->prefix.enc.data, s->prefix.enc.len, name, len) != 1) {
        return 0;
    }
    if (s->nclauses == 0) {
        return 1;
    }
    for (size_t i = 0; i < s->nclauses; i++) {
        if (clause_matches(&s->clauses[i], name, len)) {
            return 1;
        }
    }
    return 0;
}

int ccnx_sync_slice_config_name(const struct ccnx_sync_slice *s, struct ccnx_name *out)
{
    uint8_t h[32];
    int rc = ccnx_sync_slice_hash(s, h);
    rc = rc == 0 ? ccnx_name_truncate(out, 0) : rc;
    rc = rc == 0 ? ccnx_name_append(out, CCNX_SYNC_LOCALHOST, strlen(CCNX_SYNC_LOCALHOST)) : rc;
    rc = rc == 0 ? ccnx_name_append(out, CCNX_SYNC_CS_MARKER, strlen(CCNX_SYNC_CS_MARKER)) : rc;
    return rc == 0 ? ccnx_name_append(out, h, sizeof h) : rc;
}

int ccnx_sync_slice_prefix(const struct ccnx_sync_slice *s, const char *marker,
                           struct ccnx_name *out)
{
    uint8_t h[32];
    int rc = ccnx_sync_slice_hash(s, h);
    rc = rc == 0 ? ccnx_name_copy(out, &s->topo) : rc;
    rc = rc == 0 ? ccnx_name_append(out, marker, strlen(marker)) : rc;
    return rc == 0 ? ccnx_name_append(out, h, sizeof h) : rc;
}

/* ---- Root Advise ---- */

void ccnx_sync_seen_add(struct ccnx_sync_seen *s, const struct ccnx_sync_hash *h)
{
    if (ccnx_sync_seen_has(s, h)) {
        return;
    }
    s->h[s->next] = *h;
    s->next = (s->next + 1) % CCNX_SYNC_SEEN_MAX;
    s->n += s->n < CCNX_SYNC_SEEN_MAX;
}

int ccnx_sync_seen_has(const struct ccnx_sync_seen *s, const struct ccnx_sync_hash *h)
{
    for (size_t i = 0; i < s->n; i++) {
        if (ccnx_sync_hash_equal(&s->h[i], h)) {
            return 1;
        }
    }
    return 0;
}

void ccnx_sync_seen_clear(struct ccnx_sync_seen *s)
{
    s->n = 0;
    s->next = 0;
}

static int hash_order(const void *a, const void *b)
{
    return ccnx_sync_hash_compare(a, b);
}

int ccnx_sync_root_advise_interest(struct ccnx_buf *out, const struct ccnx_name *ra_prefix,
                                   const struct ccnx_sync_hash *root,
                                   const struct ccnx_sync_seen *seen, int scope,
                                   unsigned lifetime_s)
{
    struct ccnx_sync_hash sorted[CCNX_SYNC_SEEN_MAX + 1];
    struct ccnx_exclude_item items[CCNX_SYNC_SEEN_MAX + 1];
    size_t n = seen->n, k = 0;
    memcpy(sorted, seen->h, n * sizeof *sorted);
    sorted[n++] = *root;
    qsort(sorted, n, sizeof *sorted, hash_order);
    for (size_t i = 0; i < n; i++) {
        if (sorted[i].len > 0 &&
            (k == 0 || ccnx_sync_hash_compare(&sorted[i], &sorted[i - 1]) != 0)) {
            items[k++] =
                (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, sorted[i].b, sorted[i].len};
        }
    }
    struct ccnx_name nm;
    ccnx_name_init(&nm);
    int rc = ccnx_name_copy(&nm, ra_prefix);
    rc = rc == 0 ? ccnx_name_append(&nm, root->b, root->len) : rc;
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = nm.enc.data;
    ip.name_len = nm.enc.len;
    ip.exclude = items;
    ip.exclude_count = k;
    ip.scope = scope;
    ip.lifetime_units = (int64_t)lifetime_s * 4096;
    ccnx_buf_reset(out);
    rc = rc == 0 ? ccnx_interest_build(out, &ip) : rc;
    ccnx_name_free(&nm);
    return rc;
}

int ccnx_sync_node_fetch_interest(struct ccnx_buf *out, const struct ccnx_name *nf_prefix,
                                  const struct ccnx_sync_hash *h, int scope, unsigned lifetime_s)
{
    struct ccnx_name nm;
    ccnx_name_init(&nm);
    int rc = ccnx_name_copy(&nm, nf_prefix);
    rc = rc == 0 ? ccnx_name_append(&nm, h->b, h->len) : rc;
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = nm.enc.data;
    ip.name_len = nm.enc.len;
    ip.scope = scope;
    ip.child_selector = 1;
    ip.lifetime_units = (int64_t)lifetime_s * 4096;
    ccnx_buf_reset(out);
    rc = rc == 0 ? ccnx_interest_build(out, &ip) : rc;
    ccnx_name_free(&nm);
    return rc;
}
