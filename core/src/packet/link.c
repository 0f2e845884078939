/* Link and Collection bodies. */
#include <ccnx/link.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/name.h>

#include <string.h>

void ccnx_link_init(struct ccnx_link *l)
{
    memset(l, 0, sizeof *l);
    l->auth.name_component_count = -1;
}

static int is_publisher_dtag(int64_t d)
{
    return d == CCNX_DTAG_PublisherPublicKeyDigest || d == CCNX_DTAG_PublisherCertificateDigest ||
           d == CCNX_DTAG_PublisherIssuerKeyDigest ||
           d == CCNX_DTAG_PublisherIssuerCertificateDigest;
}

/* <dtag> BLOB </dtag> with the header kept for empty values, as in SignedInfo. */
static void append_blob_always(struct ccnx_buf *out, uint64_t dtag, const void *p, size_t n)
{
    ccnx_ccnb_open(out, dtag);
    ccnx_ccnb_append_header(out, n, CCNX_TT_BLOB);
    ccnx_buf_append(out, p, n);
    ccnx_ccnb_append_closer(out);
}

static int build_authenticator(struct ccnx_buf *out, const struct ccnx_link_authenticator *a)
{
    if ((a->publisher != NULL && !is_publisher_dtag(a->publisher_dtag)) ||
        (a->has_type && a->type > 0xFFFFFF)) {
        return CCNX_E_INVAL;
    }
    ccnx_ccnb_open(out, CCNX_DTAG_LinkAuthenticator);
    if (a->publisher != NULL) {
        ccnx_ccnb_append_blob_element(out, a->publisher_dtag, a->publisher, a->publisher_len);
    }
    if (a->name_component_count >= 0) {
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_NameComponentCount,
                                      (uint64_t)a->name_component_count);
    }
    if (a->timestamp != NULL) {
        append_blob_always(out, CCNX_DTAG_Timestamp, a->timestamp, a->timestamp_len);
    }
    if (a->has_type) {
        uint8_t t[3] = {(uint8_t)(a->type >> 16), (uint8_t)(a->type >> 8), (uint8_t)a->type};
        append_blob_always(out, CCNX_DTAG_Type, t, sizeof t);
    }
    if (a->content_digest != NULL) {
        ccnx_ccnb_append_blob_element(out, CCNX_DTAG_ContentDigest, a->content_digest,
                                      a->content_digest_len);
    }
    return ccnx_ccnb_append_closer(out);
}

int ccnx_link_build(struct ccnx_buf *out, const struct ccnx_link *l)
{
    if (out == NULL || l == NULL || ccnx_name_check_ccnb(l->name, l->name_len) != 0 ||
        (l->label == NULL && l->label_len != 0)) {
        return CCNX_E_INVAL;
    }
    size_t start = out->len;
    ccnx_ccnb_open(out, CCNX_DTAG_Link);
    ccnx_buf_append(out, l->name, l->name_len);
    if (l->label != NULL) {
        ccnx_ccnb_append_udata_element(out, CCNX_DTAG_Label, l->label, l->label_len);
    }
    if (l->has_authenticator) {
        int rc = build_authenticator(out, &l->auth);
        if (rc != 0) {
            out->len = start;
            return rc;
        }
    }
    ccnx_ccnb_append_closer(out);
    return ccnx_buf_status(out);
}

int ccnx_collection_build(struct ccnx_buf *out, const struct ccnx_link *links, size_t n)
{
    if (out == NULL || (links == NULL && n != 0)) {
        return CCNX_E_INVAL;
    }
    size_t start = out->len;
    ccnx_ccnb_open(out, CCNX_DTAG_Collection);
    for (size_t i = 0; i < n; i++) {
        int rc = ccnx_link_build(out, &links[i]);
        if (rc != 0) {
            out->len = start;
            return rc;
        }
    }
    ccnx_ccnb_append_closer(out);
    return ccnx_buf_status(out);
}

/* Reads an optional <dtag>value</dtag>; 1 when present, 0 when absent. */
static int optional_value(struct ccnx_ccnb_reader *r, uint64_t dtag, const uint8_t **p, size_t *n)
{
    if (ccnx_ccnb_peek_dtag(r) != (int64_t)dtag) {
        return 0;
    }
    size_t off = 0;
    if (ccnx_ccnb_read_blob(r, dtag, &off, n) != 0) {
        return r->err;
    }
    *p = r->buf + off;
    return 1;
}

static int read_authenticator(struct ccnx_ccnb_reader *r, struct ccnx_link_authenticator *a)
{
    if (ccnx_ccnb_enter(r, CCNX_DTAG_LinkAuthenticator) != 0) {
        return r->err;
    }
    int64_t d = ccnx_ccnb_peek_dtag(r);
    if (is_publisher_dtag(d)) {
        a->publisher_dtag = (uint32_t)d;
        if (optional_value(r, (uint64_t)d, &a->publisher, &a->publisher_len) < 0) {
            return r->err;
        }
    }
    if (ccnx_ccnb_peek_dtag(r) == CCNX_DTAG_NameComponentCount) {
        uint64_t v;
        if (ccnx_ccnb_read_uint(r, CCNX_DTAG_NameComponentCount, &v) != 0) {
            return r->err;
        }
        if (v > INT32_MAX) {
            return CCNX_E_VALUE;
        }
        a->name_component_count = (int64_t)v;
    }
    const uint8_t *t = NULL;
    size_t tn = 0;
    if (optional_value(r, CCNX_DTAG_Timestamp, &a->timestamp, &a->timestamp_len) < 0 ||
        optional_value(r, CCNX_DTAG_Type, &t, &tn) < 0 ||
        optional_value(r, CCNX_DTAG_ContentDigest, &a->content_digest, &a->content_digest_len) <
            0) {
        return r->err;
    }
    if (t != NULL) {
        if (tn != 3) {
            return CCNX_E_VALUE;
        }
        a->has_type = 1;
        a->type = ((uint32_t)t[0] << 16) | ((uint32_t)t[1] << 8) | t[2];
    }
    return ccnx_ccnb_leave(r) != 0 ? r->err : 0;
}

/* Reads the Link element at r->pos (r spans validated bytes). */
static int read_link(struct ccnx_ccnb_reader *r, struct ccnx_link *l)
{
    ccnx_link_init(l);
    if (ccnx_ccnb_enter(r, CCNX_DTAG_Link) != 0) {
        return r->err;
    }
    size_t start, end;
    int res = ccnx_ccnb_skip_optional(r, CCNX_DTAG_Name, &start, &end);
    if (res <= 0) {
        return res < 0 ? res : CCNX_E_STRUCTURE;
    }
    res = ccnx_name_count_ccnb(r->buf + start, end - start);
    if (res < 0) {
        return res;
    }
    l->name = r->buf + start;
    l->name_len = end - start;
    const uint8_t *label = NULL;
    if (optional_value(r, CCNX_DTAG_Label, &label, &l->label_len) < 0) {
        return r->err;
    }
    l->label = (const char *)label;
    if (ccnx_ccnb_peek_dtag(r) == CCNX_DTAG_LinkAuthenticator) {
        l->has_authenticator = 1;
        res = read_authenticator(r, &l->auth);
        if (res != 0) {
            return res;
        }
    }
    return ccnx_ccnb_leave(r) != 0 ? r->err : 0;
}

/* Validates that buf[0..len) is exactly one element and points r at it. */
static int start_reader(struct ccnx_ccnb_reader *r, const uint8_t *buf, size_t len)
{
    size_t end;
    if (buf == NULL) {
        return CCNX_E_INVAL;
    }
    int res = ccnx_ccnb_element_end(buf, len, 0, &end);
    if (res != 0) {
        return res;
    }
    if (end != len) {
        return CCNX_E_TRAILING;
    }
    ccnx_ccnb_reader_init(r, buf, len, 0);
    return 0;
}

int ccnx_link_parse(const uint8_t *buf, size_t len, struct ccnx_link *l)
{
    struct ccnx_ccnb_reader r;
    if (l == NULL) {
        return CCNX_E_INVAL;
    }
    int res = start_reader(&r, buf, len);
    return res != 0 ? res : read_link(&r, l);
}

int ccnx_collection_iter_init(struct ccnx_collection_iter *it, const uint8_t *buf, size_t len)
{
    if (it == NULL) {
        return CCNX_E_INVAL;
    }
    memset(it, 0, sizeof *it);
    int res = start_reader(&it->r, buf, len);
    if (res == 0 && ccnx_ccnb_enter(&it->r, CCNX_DTAG_Collection) != 0) {
        res = it->r.err;
    }
    if (res != 0) {
        it->done = 1;
        it->r.err = res;
    }
    return res;
}

int ccnx_collection_iter_next(struct ccnx_collection_iter *it, struct ccnx_link *l)
{
    if (it == NULL || l == NULL) {
        return CCNX_E_INVAL;
    }
    if (it->done) {
        return it->r.err;
    }
    if (ccnx_ccnb_at_closer(&it->r)) {
        it->done = 1;
        return ccnx_ccnb_leave(&it->r) != 0 ? it->r.err : 0;
    }
    int res = read_link(&it->r, l);
    if (res != 0) {
        it->done = 1;
        it->r.err = res;
        return res;
    }
    return 1;
}
