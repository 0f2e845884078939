/* ccnb encoder, header decoder, whole-element validation and the reader. */
#include <ccnx/ccnb.h>
#include <ccnx/error.h>

#include "ccnb_internal.h"

#include <string.h>

/* ---- Encoder ---- */

size_t ccnx_ccnb_put_header(uint8_t *dst, uint64_t numval, enum ccnx_tt tt)
{
    uint8_t tmp[CCNX_CCNB_MAX_HEADER];
    size_t i = sizeof tmp;
    tmp[--i] = (uint8_t)(0x80 | ((numval & 0x0F) << 3) | ((unsigned)tt & 0x07));
    numval >>= 4;
    while (numval != 0) {
        tmp[--i] = (uint8_t)(numval & 0x7F);
        numval >>= 7;
    }
    memcpy(dst, tmp + i, sizeof tmp - i);
    return sizeof tmp - i;
}

int ccnx_ccnb_append_header(struct ccnx_buf *b, uint64_t numval, enum ccnx_tt tt)
{
    uint8_t *dst = ccnx_buf_reserve(b, CCNX_CCNB_MAX_HEADER);
    if (dst == NULL) {
        return CCNX_E_NOMEM;
    }
    b->len += ccnx_ccnb_put_header(dst, numval, tt);
    return 0;
}

int ccnx_ccnb_append_closer(struct ccnx_buf *b)
{
    return ccnx_buf_append_byte(b, CCNX_CCNB_CLOSE);
}

int ccnx_ccnb_open(struct ccnx_buf *b, uint64_t dtag)
{
    return ccnx_ccnb_append_header(b, dtag, CCNX_TT_DTAG);
}

static int append_data_element(struct ccnx_buf *b, uint64_t dtag, enum ccnx_tt tt, const void *p,
                               size_t n)
{
    ccnx_ccnb_open(b, dtag);
    if (n > 0) {
        ccnx_ccnb_append_header(b, n, tt);
        ccnx_buf_append(b, p, n);
    }
    ccnx_ccnb_append_closer(b);
    return ccnx_buf_status(b);
}

int ccnx_ccnb_append_blob_element(struct ccnx_buf *b, uint64_t dtag, const void *p, size_t n)
{
    return append_data_element(b, dtag, CCNX_TT_BLOB, p, n);
}

int ccnx_ccnb_append_udata_element(struct ccnx_buf *b, uint64_t dtag, const char *s, size_t n)
{
    return append_data_element(b, dtag, CCNX_TT_UDATA, s, n);
}

int ccnx_ccnb_append_uint_element(struct ccnx_buf *b, uint64_t dtag, uint64_t value)
{
    char digits[24];
    size_t i = sizeof digits;
    do {
        digits[--i] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    return append_data_element(b, dtag, CCNX_TT_UDATA, digits + i, sizeof digits - i);
}

int ccnx_ccnb_append_binary_uint_element(struct ccnx_buf *b, uint64_t dtag, uint64_t value)
{
    uint8_t bytes[8];
    size_t i = sizeof bytes;
    do {
        bytes[--i] = (uint8_t)(value & 0xFF);
        value >>= 8;
    } while (value != 0);
    return append_data_element(b, dtag, CCNX_TT_BLOB, bytes + i, sizeof bytes - i);
}

/* ---- Header decoding ---- */

int ccnx_ccnb_header_decode(const uint8_t *p, size_t n, struct ccnx_ccnb_header *h)
{
    if (n == 0) {
        return CCNX_E_TRUNCATED;
    }
    if (p[0] == CCNX_CCNB_CLOSE) {
        return CCNX_E_BADTT;
    }
    uint64_t numval = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if ((c & 0x80) == 0) {
            if (numval > (CCNX_CCNB_MAX_NUMVAL >> 7)) {
                return CCNX_E_NUMVAL;
            }
            numval = (numval << 7) | c;
            continue;
        }
        if (numval > (CCNX_CCNB_MAX_NUMVAL >> 4)) {
            return CCNX_E_NUMVAL;
        }
        unsigned tt = c & 0x07;
        if (tt > CCNX_TT_UDATA) {
            return CCNX_E_BADTT;
        }
        h->numval = (numval << 4) | ((c >> 3) & 0x0F);
        h->tt = (enum ccnx_tt)tt;
        h->size = i + 1;
        return 0;
    }
    return CCNX_E_TRUNCATED;
}

/* ---- Whole-element validation ---- */

/* Length of the bytes that follow a header of this type (names and data). */
static uint64_t payload_len(const struct ccnx_ccnb_header *h)
{
    switch (h->tt) {
    case CCNX_TT_TAG:
    case CCNX_TT_ATTR:
        return h->numval + 1; /* names are encoded as length - 1 */
    case CCNX_TT_BLOB:
    case CCNX_TT_UDATA:
        return h->numval;
    default:
        return 0;
    }
}

/* Checks one item inside an element: attributes must be followed by UDATA,
 * data may not appear at top level. Returns the new depth or an error. */
static int item_depth_change(const struct ccnx_ccnb_header *h, unsigned depth, int *expect_udata)
{
    if (*expect_udata && h->tt != CCNX_TT_UDATA) {
        return CCNX_E_STRUCTURE;
    }
    *expect_udata = 0;
    switch (h->tt) {
    case CCNX_TT_TAG:
    case CCNX_TT_DTAG:
    case CCNX_TT_EXT:
        return depth >= CCNX_CCNB_MAX_DEPTH ? CCNX_E_TOODEEP : (int)depth + 1;
    case CCNX_TT_ATTR:
    case CCNX_TT_DATTR:
        *expect_udata = 1;
        return depth == 0 ? CCNX_E_STRUCTURE : (int)depth;
    case CCNX_TT_BLOB:
    case CCNX_TT_UDATA:
        return depth == 0 ? CCNX_E_STRUCTURE : (int)depth;
    }
    return CCNX_E_BADTT;
}

int ccnx_ccnb_element_end(const uint8_t *buf, size_t len, size_t start, size_t *end)
{
    size_t pos = start;
    unsigned depth = 0;
    int expect_udata = 0;
    if (start > len) {
        return CCNX_E_INVAL;
    }
    do {
        if (pos >= len) {
            return CCNX_E_TRUNCATED;
        }
        if (buf[pos] == CCNX_CCNB_CLOSE) {
            if (depth == 0 || expect_udata) {
                return CCNX_E_STRUCTURE;
            }
            depth--;
            pos++;
            continue;
        }
        struct ccnx_ccnb_header h;
        int res = ccnx_ccnb_header_decode(buf + pos, len - pos, &h);
        if (res != 0) {
            return res;
        }
        pos += h.size;
        res = item_depth_change(&h, depth, &expect_udata);
        if (res < 0) {
            return res;
        }
        depth = (unsigned)res;
        uint64_t skip = payload_len(&h);
        if (skip > len - pos) {
            return CCNX_E_TRUNCATED;
        }
        pos += (size_t)skip;
    } while (depth > 0);
    *end = pos;
    return 0;
}

/* ---- Reader ---- */

void ccnx_ccnb_reader_init(struct ccnx_ccnb_reader *r, const uint8_t *buf, size_t len, size_t pos)
{
    r->buf = buf;
    r->len = len;
    r->pos = pos;
    r->err = pos > len ? CCNX_E_INVAL : 0;
}

static int fail(struct ccnx_ccnb_reader *r, int code)
{
    if (r->err == 0) {
        r->err = code;
    }
    return r->err;
}

int64_t ccnx_ccnb_peek_dtag(const struct ccnx_ccnb_reader *r)
{
    if (r->err != 0 || r->pos >= r->len) {
        return -1;
    }
    /* One-byte DTAG headers cover every element of Interests and most of ContentObjects. */
    uint8_t c = r->buf[r->pos];
    if ((c & 0x87) == 0x82) {
        return (c >> 3) & 0x0F;
    }
    struct ccnx_ccnb_header h;
    if (ccnx_ccnb_header_decode(r->buf + r->pos, r->len - r->pos, &h) != 0 ||
        h.tt != CCNX_TT_DTAG) {
        return -1;
    }
    return (int64_t)h.numval;
}

int ccnx_ccnb_at_closer(const struct ccnx_ccnb_reader *r)
{
    return r->err == 0 && r->pos < r->len && r->buf[r->pos] == CCNX_CCNB_CLOSE;
}

int ccnx_ccnb_enter(struct ccnx_ccnb_reader *r, uint64_t dtag)
{
    if (r->err != 0) {
        return r->err;
    }
    struct ccnx_ccnb_header h;
    int res = ccnx_ccnb_header_decode(r->buf + r->pos, r->len - r->pos, &h);
    if (res != 0) {
        return fail(r, res);
    }
    if (h.tt != CCNX_TT_DTAG || h.numval != dtag) {
        return fail(r, CCNX_E_STRUCTURE);
    }
    r->pos += h.size;
    return 0;
}

int ccnx_ccnb_leave(struct ccnx_ccnb_reader *r)
{
    if (r->err != 0) {
        return r->err;
    }
    if (!ccnx_ccnb_at_closer(r)) {
        return fail(r, r->pos >= r->len ? CCNX_E_TRUNCATED : CCNX_E_STRUCTURE);
    }
    r->pos++;
    return 0;
}

/* Reads an optional BLOB/UDATA item at the cursor (inside an element). */
static int read_data(struct ccnx_ccnb_reader *r, size_t *off, size_t *n, int want_udata)
{
    *off = r->pos;
    *n = 0;
    if (ccnx_ccnb_at_closer(r)) {
        return 0;
    }
    struct ccnx_ccnb_header h;
    int res = ccnx_ccnb_header_decode(r->buf + r->pos, r->len - r->pos, &h);
    if (res != 0) {
        return fail(r, res);
    }
    if (h.tt != CCNX_TT_UDATA && (want_udata || h.tt != CCNX_TT_BLOB)) {
        return fail(r, CCNX_E_BADTT);
    }
    if (h.numval > r->len - r->pos - h.size) {
        return fail(r, CCNX_E_TRUNCATED);
    }
    *off = r->pos + h.size;
    *n = (size_t)h.numval;
    r->pos = *off + *n;
    return 0;
}

int ccnx_ccnb_read_blob(struct ccnx_ccnb_reader *r, uint64_t dtag, size_t *off, size_t *n)
{
    if (ccnx_ccnb_enter(r, dtag) != 0 || read_data(r, off, n, 0) != 0) {
        return r->err;
    }
    return ccnx_ccnb_leave(r);
}

int ccnx_ccnb_read_uint(struct ccnx_ccnb_reader *r, uint64_t dtag, uint64_t *value)
{
    size_t off, n;
    if (ccnx_ccnb_enter(r, dtag) != 0 || read_data(r, &off, &n, 1) != 0) {
        return r->err;
    }
    if (n == 0 || n > 19) {
        return fail(r, CCNX_E_VALUE);
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = r->buf[off + i];
        if (c < '0' || c > '9') {
            return fail(r, CCNX_E_VALUE);
        }
        v = v * 10 + (uint64_t)(c - '0');
    }
    *value = v;
    return ccnx_ccnb_leave(r);
}

int ccnx_ccnb_skip_element(struct ccnx_ccnb_reader *r)
{
    if (r->err != 0) {
        return r->err;
    }
    size_t end;
    int res = ccnx_ccnb_element_end(r->buf, r->len, r->pos, &end);
    if (res != 0) {
        return fail(r, res);
    }
    r->pos = end;
    return 0;
}

int ccnx_ccnb_skip_optional(struct ccnx_ccnb_reader *r, uint64_t dtag, size_t *start, size_t *end)
{
    if (ccnx_ccnb_peek_dtag(r) != (int64_t)dtag) {
        return 0;
    }
    *start = r->pos;
    if (ccnx_ccnb_skip_element(r) != 0) {
        return r->err;
    }
    *end = r->pos;
    return 1;
}

int ccnx_ccnb_binary_uint(const uint8_t *p, size_t n, uint64_t *value)
{
    if (n > 8) {
        return CCNX_E_VALUE;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        v = (v << 8) | p[i];
    }
    *value = v;
    return 0;
}
