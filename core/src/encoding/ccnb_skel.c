/* The incremental skeleton decoder: finds where each top-level ccnb element
 * ends in a byte stream that arrives in arbitrary pieces. It validates
 * structure (types, nesting, attribute/data placement, sizes) but does not
 * interpret elements; that is left to the schema parsers. */
#include <ccnx/ccnb.h>
#include <ccnx/error.h>

enum skel_state {
    SKEL_ITEM,   /* expecting a header's first byte or a closer */
    SKEL_HEADER, /* inside a multi-byte header */
    SKEL_SKIP,   /* skipping the bytes of a name or data item */
};

/* Flag kept in the high bits of state: an attribute name was read, so the
 * next item must be its UDATA value. */
#define SKEL_EXPECT_UDATA 0x100

void ccnx_skel_init(struct ccnx_skel *s)
{
    s->max_element = CCNX_CCNB_DEFAULT_MAX_ELEMENT;
    s->err = 0;
    s->state = SKEL_ITEM;
    s->depth = 0;
    s->numval = 0;
    s->numval_bytes = 0;
    s->remaining = 0;
    s->element_bytes = 0;
    s->top_dtag = -1;
}

int ccnx_skel_idle(const struct ccnx_skel *s)
{
    return s->err == 0 && s->state == SKEL_ITEM && s->depth == 0;
}

static int skel_fail(struct ccnx_skel *s, int code)
{
    s->err = code;
    return code;
}

/* A header is complete: apply its type. Returns 0 or an error. */
static int skel_item(struct ccnx_skel *s, enum ccnx_tt tt, uint64_t numval)
{
    int expect_udata = (s->state & SKEL_EXPECT_UDATA) != 0;
    s->state = SKEL_ITEM;
    if (expect_udata && tt != CCNX_TT_UDATA) {
        return CCNX_E_STRUCTURE;
    }
    uint64_t skip = 0;
    switch (tt) {
    case CCNX_TT_TAG:
        skip = numval + 1;
        /* fall through */
    case CCNX_TT_DTAG:
    case CCNX_TT_EXT:
        if (s->depth >= CCNX_CCNB_MAX_DEPTH) {
            return CCNX_E_TOODEEP;
        }
        if (s->depth == 0) {
            s->top_dtag = tt == CCNX_TT_DTAG ? (int64_t)numval : -1;
        }
        s->depth++;
        break;
    case CCNX_TT_ATTR:
        skip = numval + 1;
        /* fall through */
    case CCNX_TT_DATTR:
        if (s->depth == 0) {
            return CCNX_E_STRUCTURE;
        }
        s->state |= SKEL_EXPECT_UDATA;
        break;
    case CCNX_TT_BLOB:
    case CCNX_TT_UDATA:
        if (s->depth == 0) {
            return CCNX_E_STRUCTURE;
        }
        skip = numval;
        break;
    default:
        return CCNX_E_BADTT;
    }
    if (skip > s->max_element - s->element_bytes) {
        return CCNX_E_TOOBIG;
    }
    if (skip > 0) {
        s->remaining = skip;
        s->state = (s->state & SKEL_EXPECT_UDATA) | SKEL_SKIP;
    }
    return 0;
}

/* One byte of a header (first or later). Returns 0 or an error. */
static int skel_header_byte(struct ccnx_skel *s, uint8_t c)
{
    if ((c & 0x80) == 0) {
        if (s->numval > (CCNX_CCNB_MAX_NUMVAL >> 7)) {
            return CCNX_E_NUMVAL;
        }
        s->numval = (s->numval << 7) | c;
        s->state = (s->state & SKEL_EXPECT_UDATA) | SKEL_HEADER;
        return 0;
    }
    if (s->numval > (CCNX_CCNB_MAX_NUMVAL >> 4)) {
        return CCNX_E_NUMVAL;
    }
    unsigned tt = c & 0x07;
    if (tt > CCNX_TT_UDATA) {
        return CCNX_E_BADTT;
    }
    uint64_t numval = (s->numval << 4) | ((c >> 3) & 0x0F);
    s->numval = 0;
    return skel_item(s, (enum ccnx_tt)tt, numval);
}

int ccnx_skel_feed(struct ccnx_skel *s, const uint8_t *p, size_t n, size_t *used)
{
    size_t i = 0;
    *used = 0;
    if (s->err != 0) {
        return s->err;
    }
    while (i < n) {
        int kind = s->state & 0xFF;
        if (kind == SKEL_SKIP) {
            size_t avail = n - i;
            size_t take = s->remaining < avail ? (size_t)s->remaining : avail;
            i += take;
            s->element_bytes += take;
            s->remaining -= take;
            if (s->remaining == 0) {
                s->state &= ~0xFF; /* back to SKEL_ITEM, keeping the attribute flag */
            }
            continue;
        }
        uint8_t c = p[i++];
        if (++s->element_bytes > s->max_element) {
            *used = i;
            return skel_fail(s, CCNX_E_TOOBIG);
        }
        int res;
        if (kind == SKEL_ITEM && c == CCNX_CCNB_CLOSE) {
            if (s->depth == 0 || (s->state & SKEL_EXPECT_UDATA)) {
                *used = i;
                return skel_fail(s, CCNX_E_STRUCTURE);
            }
            if (--s->depth == 0) {
                s->element_bytes = 0;
                *used = i;
                return 1;
            }
            continue;
        }
        res = skel_header_byte(s, c);
        if (res != 0) {
            *used = i;
            return skel_fail(s, res);
        }
    }
    *used = i;
    return 0;
}
