/* Names held as ccnb <Name> elements, and canonical-order operations on
 * encoded names. */
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/match.h>
#include <ccnx/name.h>

#include "encoding/ccnb_internal.h"

#include <string.h>

static const uint8_t empty_name[] = {CCNX_DTAG_BYTE(CCNX_DTAG_Name), CCNX_CCNB_CLOSE};

int ccnx_name_init(struct ccnx_name *n)
{
    ccnx_buf_init(&n->enc);
    n->count = 0;
    return ccnx_buf_append(&n->enc, empty_name, sizeof empty_name);
}

void ccnx_name_free(struct ccnx_name *n)
{
    ccnx_buf_free(&n->enc);
    n->count = 0;
}

/* Writes the component and the Name's closer in one step, over the old
 * closer: names are built on the hot path of every tool and of URI parsing. */
int ccnx_name_append(struct ccnx_name *n, const void *comp, size_t len)
{
    if (n->enc.len < 2 || n->enc.failed) {
        return CCNX_E_INVAL;
    }
    if (n->count >= CCNX_NAME_MAX_COMPONENTS) {
        return CCNX_E_TOOBIG;
    }
    if (len > SIZE_MAX / 2) {
        return CCNX_E_NOMEM;
    }
    uint8_t *dst = ccnx_buf_reserve(&n->enc, len + CCNX_CCNB_MAX_HEADER + 2);
    if (dst == NULL) {
        return CCNX_E_NOMEM;
    }
    dst--; /* the Name's closer is rewritten at the end */
    size_t k = 0;
    dst[k++] = CCNX_DTAG_BYTE(CCNX_DTAG_Component);
    if (len != 0) {
        k += ccnx_ccnb_put_header(dst + k, len, CCNX_TT_BLOB);
        memcpy(dst + k, comp, len);
        k += len;
    }
    dst[k++] = CCNX_CCNB_CLOSE;
    dst[k++] = CCNX_CCNB_CLOSE;
    n->enc.len += k - 1;
    n->count++;
    return 0;
}

int ccnx_name_append_str(struct ccnx_name *n, const char *text)
{
    return ccnx_name_append(n, text, strlen(text));
}

int ccnx_name_append_ccnb(struct ccnx_name *n, const uint8_t *enc, size_t len)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    int res = ccnx_name_iter_init(&it, enc, len);
    while (res == 0 && (res = ccnx_name_iter_next(&it, &c)) == 1) {
        res = ccnx_name_append(n, c.p, c.n);
    }
    return res < 0 ? res : 0;
}

int ccnx_name_set_ccnb(struct ccnx_name *n, const uint8_t *enc, size_t len)
{
    int count = ccnx_name_count_ccnb(enc, len);
    if (count < 0) {
        return count;
    }
    if (count > CCNX_NAME_MAX_COMPONENTS) {
        return CCNX_E_TOOBIG;
    }
    n->count = 0;
    ccnx_buf_reset(&n->enc);
    if (ccnx_buf_append(&n->enc, empty_name, sizeof empty_name) != 0) {
        return CCNX_E_NOMEM;
    }
    /* Re-encoding normalises the components (e.g. UDATA becomes BLOB). */
    return ccnx_name_append_ccnb(n, enc, len);
}

int ccnx_name_copy(struct ccnx_name *dst, const struct ccnx_name *src)
{
    ccnx_buf_reset(&dst->enc);
    dst->count = src->count;
    return ccnx_buf_append(&dst->enc, src->enc.data, src->enc.len);
}

int ccnx_name_truncate(struct ccnx_name *n, size_t count)
{
    if (count >= n->count) {
        return 0;
    }
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    if (ccnx_name_iter_init(&it, n->enc.data, n->enc.len) != 0) {
        return CCNX_E_INVAL;
    }
    for (size_t i = 0; i < count; i++) {
        if (ccnx_name_iter_next(&it, &c) != 1) {
            return CCNX_E_INVAL;
        }
    }
    n->enc.len = it.pos;
    n->count = count;
    return ccnx_ccnb_append_closer(&n->enc);
}

int ccnx_name_comp(const struct ccnx_name *n, size_t i, struct ccnx_comp *out)
{
    struct ccnx_name_iter it;
    int res = ccnx_name_iter_init(&it, n->enc.data, n->enc.len);
    for (size_t k = 0; res == 0 && k <= i; k++) {
        res = ccnx_name_iter_next(&it, out);
        if (res == 1) {
            res = k == i ? 1 : 0;
        } else if (res == 0) {
            return CCNX_E_NOTFOUND;
        }
    }
    return res == 1 ? 0 : res;
}

/* ---- Encoded names ---- */

int ccnx_name_iter_init(struct ccnx_name_iter *it, const uint8_t *enc, size_t len)
{
    it->buf = enc;
    it->len = len;
    it->pos = 0;
    if (len >= 1 && enc[0] == CCNX_DTAG_BYTE(CCNX_DTAG_Name)) {
        it->pos = 1;
        return 0;
    }
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, enc, len, 0);
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_Name) != 0) {
        it->len = 0;
        return r.err;
    }
    it->pos = r.pos;
    return 0;
}

int ccnx_name_iter_next(struct ccnx_name_iter *it, struct ccnx_comp *out)
{
    const uint8_t *p = it->buf;
    size_t pos = it->pos;
    if (pos >= it->len) {
        return CCNX_E_TRUNCATED;
    }
    if (p[pos] == CCNX_CCNB_CLOSE) {
        return 0;
    }
    /* Fast path: one-byte Component header, then one-byte BLOB header (< 16 bytes) or closer. */
    if (p[pos] == CCNX_DTAG_BYTE(CCNX_DTAG_Component) && pos + 1 < it->len) {
        uint8_t h = p[pos + 1];
        if (h == CCNX_CCNB_CLOSE) {
            out->p = p + pos + 1;
            out->n = 0;
            it->pos = pos + 2;
            return 1;
        }
        size_t n = (h >> 3) & 0x0F;
        if ((h & 0x87) == (0x80 | CCNX_TT_BLOB) && pos + 2 + n < it->len &&
            p[pos + 2 + n] == CCNX_CCNB_CLOSE) {
            out->p = p + pos + 2;
            out->n = n;
            it->pos = pos + 3 + n;
            return 1;
        }
    }
    struct ccnx_ccnb_reader r;
    size_t off, n;
    ccnx_ccnb_reader_init(&r, p, it->len, pos);
    if (ccnx_ccnb_read_blob(&r, CCNX_DTAG_Component, &off, &n) != 0) {
        return r.err;
    }
    out->p = p + off;
    out->n = n;
    it->pos = r.pos;
    return 1;
}

int ccnx_name_check_ccnb(const uint8_t *p, size_t n)
{
    size_t end;
    if (p == NULL || n == 0 || p[0] != CCNX_DTAG_BYTE(CCNX_DTAG_Name) ||
        ccnx_ccnb_element_end(p, n, 0, &end) != 0 || end != n) {
        return CCNX_E_INVAL;
    }
    return 0;
}

int ccnx_name_count_ccnb(const uint8_t *enc, size_t len)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    int res = ccnx_name_iter_init(&it, enc, len);
    int count = 0;
    while (res == 0 && (res = ccnx_name_iter_next(&it, &c)) == 1) {
        if (++count > CCNX_NAME_MAX_COMPONENTS) {
            return CCNX_E_TOOBIG;
        }
        res = 0;
    }
    return res < 0 ? res : count;
}

int ccnx_comp_compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    if (an != bn) {
        return an < bn ? -1 : 1;
    }
    return an == 0 ? 0 : memcmp(a, b, an);
}

/* Canonical order is computed in one place, for names with or without an
 * implicit digest (match.c). */
int ccnx_name_compare_ccnb(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    return ccnx_match_full_name_compare(a, alen, NULL, b, blen, NULL);
}

int ccnx_name_compare(const struct ccnx_name *a, const struct ccnx_name *b)
{
    return ccnx_name_compare_ccnb(a->enc.data, a->enc.len, b->enc.data, b->enc.len);
}

int ccnx_name_is_prefix_ccnb(const uint8_t *prefix, size_t plen, const uint8_t *name, size_t nlen)
{
    struct ccnx_name_iter ip, in;
    struct ccnx_comp cp, cn;
    if (ccnx_name_iter_init(&ip, prefix, plen) != 0 || ccnx_name_iter_init(&in, name, nlen) != 0) {
        return 0;
    }
    for (;;) {
        int rp = ccnx_name_iter_next(&ip, &cp);
        if (rp == 0) {
            return 1;
        }
        if (rp < 0 || ccnx_name_iter_next(&in, &cn) != 1) {
            return 0;
        }
        if (ccnx_comp_compare(cp.p, cp.n, cn.p, cn.n) != 0) {
            return 0;
        }
    }
}

int ccnx_name_is_prefix(const struct ccnx_name *prefix, const struct ccnx_name *name)
{
    return ccnx_name_is_prefix_ccnb(prefix->enc.data, prefix->enc.len, name->enc.data,
                                    name->enc.len);
}
