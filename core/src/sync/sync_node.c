/* Sync tree nodes: parsing with every check a neighbour's node needs, and
 * writing ours (docs/sync.md, "Nodes").
 *
 *   SyncNode: SyncVersion, SyncNodeElements (Name | SyncContentHash)*,
 *             SyncContentHash, Name (min), Name (max), SyncNodeKind,
 *             SyncLeafCount, SyncTreeDepth, SyncByteCount
 */
#include "sync/sync_internal.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag_values.h>
#include <ccnx/error.h>

#include <string.h>

/* Reads one element of the list: a Name, or a child's SyncContentHash. */
static int read_elem(struct ccnx_ccnb_reader *r, struct ccnx_sync_elem *e)
{
    int64_t dtag = ccnx_ccnb_peek_dtag(r);
    size_t start = r->pos;
    if (dtag == CCNX_DTAG_Name) {
        if (ccnx_ccnb_skip_element(r) != 0) {
            return CCNX_E_STRUCTURE;
        }
        *e = (struct ccnx_sync_elem){0, start, r->pos - start};
        return 0;
    }
    if (dtag == CCNX_DTAG_SyncContentHash) {
        size_t off, n;
        if (ccnx_ccnb_read_blob(r, CCNX_DTAG_SyncContentHash, &off, &n) != 0 || n == 0 ||
            n > CCNX_SYNC_HASH_MAX) {
            return CCNX_E_STRUCTURE;
        }
        *e = (struct ccnx_sync_elem){1, off, n};
        return 0;
    }
    return CCNX_E_STRUCTURE;
}

int ccnx_sync_node_elem(const uint8_t *p, const struct ccnx_sync_node *nd, size_t *cursor,
                        struct ccnx_sync_elem *e)
{
    size_t pos = nd->elems_off + *cursor;
    if (pos >= nd->elems_end) {
        return 0;
    }
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, p, nd->elems_end, pos);
    if (read_elem(&r, e) != 0) {
        return 0; /* checked by ccnx_sync_node_parse */
    }
    *cursor = r.pos - nd->elems_off;
    return 1;
}

/* The elements: names strictly increasing, each a full name; the sum of
 * their hashes into *sum. */
static int check_elems(const uint8_t *p, struct ccnx_sync_node *nd, struct ccnx_sync_hash *sum)
{
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, p, nd->elems_end, nd->elems_off);
    struct ccnx_sync_elem e, prev = {0, 0, 0};
    ccnx_sync_hash_clear(sum);
    while (r.pos < nd->elems_end) {
        if (read_elem(&r, &e) != 0) {
            return CCNX_E_STRUCTURE;
        }
        struct ccnx_sync_hash h;
        if (e.is_hash) {
            ccnx_sync_hash_set(&h, p + e.off, e.len);
            nd->nhashes++;
        } else {
            if (ccnx_sync_name_hash(p + e.off, e.len, &h) != 0) {
                return CCNX_E_VALUE;
            }
            if (prev.len > 0 &&
                ccnx_name_compare_ccnb(p + prev.off, prev.len, p + e.off, e.len) >= 0) {
                return CCNX_E_STRUCTURE;
            }
            prev = e;
            nd->nnames++;
        }
        ccnx_sync_hash_add(sum, &h);
    }
    return nd->nnames + nd->nhashes > 0 ? 0 : CCNX_E_STRUCTURE;
}

static int read_whole_name(struct ccnx_ccnb_reader *r, size_t *off, size_t *len)
{
    *off = r->pos;
    if (ccnx_ccnb_peek_dtag(r) != CCNX_DTAG_Name || ccnx_ccnb_skip_element(r) != 0) {
        return CCNX_E_STRUCTURE;
    }
    *len = r->pos - *off;
    return 0;
}

/* Everything after the elements. */
static int read_tail(struct ccnx_ccnb_reader *r, struct ccnx_sync_node *nd)
{
    if (ccnx_ccnb_read_blob(r, CCNX_DTAG_SyncContentHash, &nd->hash_off, &nd->hash_len) != 0 ||
        nd->hash_len > CCNX_SYNC_HASH_MAX || read_whole_name(r, &nd->min_off, &nd->min_len) != 0 ||
        read_whole_name(r, &nd->max_off, &nd->max_len) != 0) {
        return CCNX_E_STRUCTURE;
    }
    ccnx_ccnb_read_uint(r, CCNX_DTAG_SyncNodeKind, &nd->kind);
    ccnx_ccnb_read_uint(r, CCNX_DTAG_SyncLeafCount, &nd->leaf_count);
    ccnx_ccnb_read_uint(r, CCNX_DTAG_SyncTreeDepth, &nd->depth);
    ccnx_ccnb_read_uint(r, CCNX_DTAG_SyncByteCount, &nd->byte_count);
    ccnx_ccnb_leave(r);
    return r->err != 0 ? CCNX_E_STRUCTURE : 0;
}

static int check_consistent(const uint8_t *p, const struct ccnx_sync_node *nd,
                            const struct ccnx_sync_hash *sum)
{
    struct ccnx_sync_hash claimed;
    ccnx_sync_hash_set(&claimed, p + nd->hash_off, nd->hash_len);
    if (!ccnx_sync_hash_equal(&claimed, sum)) {
        return CCNX_E_VALUE; /* the node lies about what it holds */
    }
    if (ccnx_name_compare_ccnb(p + nd->min_off, nd->min_len, p + nd->max_off, nd->max_len) > 0 ||
        nd->depth == 0 || nd->depth > CCNX_SYNC_MAX_DEPTH || nd->leaf_count < nd->nnames) {
        return CCNX_E_VALUE;
    }
    if (nd->nhashes == 0 && nd->leaf_count != nd->nnames) {
        return CCNX_E_VALUE;
    }
    return 0;
}

int ccnx_sync_node_parse(const uint8_t *p, size_t n, struct ccnx_sync_node *out)
{
    memset(out, 0, sizeof *out);
    if (n > CCNX_SYNC_NODE_MAX) {
        return CCNX_E_TOOBIG;
    }
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, p, n, 0);
    uint64_t version = 0;
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_SyncNode) != 0 ||
        ccnx_ccnb_read_uint(&r, CCNX_DTAG_SyncVersion, &version) != 0 ||
        ccnx_ccnb_enter(&r, CCNX_DTAG_SyncNodeElements) != 0) {
        return CCNX_E_STRUCTURE;
    }
    if (version != CCNX_SYNC_VERSION) {
        return CCNX_E_UNSUPPORTED;
    }
    out->elems_off = r.pos;
    while (r.err == 0 && r.pos < n && !ccnx_ccnb_at_closer(&r)) {
        ccnx_ccnb_skip_element(&r);
    }
    out->elems_end = r.pos;
    if (r.err != 0 || ccnx_ccnb_leave(&r) != 0) {
        return CCNX_E_STRUCTURE;
    }
    struct ccnx_sync_hash sum;
    int rc = check_elems(p, out, &sum);
    rc = rc == 0 ? read_tail(&r, out) : rc;
    if (rc == 0 && r.pos != n) {
        rc = CCNX_E_TRAILING;
    }
    return rc == 0 ? check_consistent(p, out, &sum) : rc;
}

/* ---- Writing ---- */

void sync_node_open(struct ccnx_buf *out)
{
    ccnx_ccnb_open(out, CCNX_DTAG_SyncNode);
    ccnx_ccnb_append_uint_element(out, CCNX_DTAG_SyncVersion, CCNX_SYNC_VERSION);
    ccnx_ccnb_open(out, CCNX_DTAG_SyncNodeElements);
}

void sync_node_add_hash(struct ccnx_buf *out, const struct ccnx_sync_hash *h)
{
    ccnx_ccnb_append_blob_element(out, CCNX_DTAG_SyncContentHash, h->b, h->len);
}

int sync_node_close(struct ccnx_buf *out, const struct sync_node_tail *t)
{
    ccnx_ccnb_append_closer(out); /* SyncNodeElements */
    ccnx_ccnb_append_blob_element(out, CCNX_DTAG_SyncContentHash, t->hash.b, t->hash.len);
    ccnx_buf_append(out, t->min, t->min_len);
    ccnx_buf_append(out, t->max, t->max_len);
    ccnx_ccnb_append_uint_element(out, CCNX_DTAG_SyncNodeKind, 0);
    ccnx_ccnb_append_uint_element(out, CCNX_DTAG_SyncLeafCount, t->leaf_count);
    ccnx_ccnb_append_uint_element(out, CCNX_DTAG_SyncTreeDepth, t->depth);
    ccnx_ccnb_append_uint_element(out, CCNX_DTAG_SyncByteCount, t->byte_count);
    ccnx_ccnb_append_closer(out); /* SyncNode */
    return ccnx_buf_status(out);
}
