/* The metadata stream's text records (streammeta.h). */
#include "streammeta.h"

#include <ccnx/error.h>
#include <ccnx/naming.h>

#include <inttypes.h>
#include <string.h>

int ccngst_meta_put_header(struct ccnx_buf *out, const struct ccngst_seg_info *h)
{
    ccnx_buf_printf(out, "ccngst %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %d\n",
                    CCNGST_META_VERSION, h->segment, h->offset, h->key_segment,
                    h->key_pts < 0 ? -1 : h->key_pts, h->live ? 1 : 0);
    return ccnx_buf_status(out);
}

int ccngst_meta_put_caps(struct ccnx_buf *out, const char *caps)
{
    size_t n = strlen(caps);
    if (n == 0 || n > CCNGST_META_MAX_CAPS || strpbrk(caps, "\r\n") != NULL) {
        return CCNX_E_VALUE;
    }
    ccnx_buf_printf(out, "C %s\n", caps);
    return ccnx_buf_status(out);
}

static int64_t time_or_none(int64_t t)
{
    return t < 0 ? -1 : t;
}

int ccngst_meta_put_buffer(struct ccnx_buf *out, const struct ccngst_buf_rec *b)
{
    ccnx_buf_printf(out,
                    "B %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRIx32 "\n",
                    b->offset, b->size, time_or_none(b->pts), time_or_none(b->dts),
                    time_or_none(b->duration), b->flags);
    return ccnx_buf_status(out);
}

/* ---- Parsing ---- */

struct cursor {
    const char *p, *end;
};

/* The next line without its '\n' (a last line without one counts), or 0 at
 * the end. */
static int next_line(struct cursor *c, struct cursor *line)
{
    if (c->p >= c->end) {
        return 0;
    }
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    line->p = c->p;
    line->end = nl != NULL ? nl : c->end;
    c->p = nl != NULL ? nl + 1 : c->end;
    return 1;
}

/* A space, then digits in `base` (at most 19 decimal or 8 hex) into *v. */
static int field_u(struct cursor *l, int base, uint64_t *v)
{
    if (l->p >= l->end || *l->p != ' ') {
        return CCNX_E_VALUE;
    }
    l->p++;
    int digits = 0, max = base == 10 ? 19 : 8;
    uint64_t x = 0;
    while (l->p < l->end && *l->p != ' ') {
        char ch = *l->p;
        int d = ch >= '0' && ch <= '9'                 ? ch - '0'
                : base == 16 && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                                       : -1;
        if (d < 0 || ++digits > max) {
            return CCNX_E_VALUE;
        }
        x = x * (uint64_t)base + (uint64_t)d;
        l->p++;
    }
    *v = x;
    return digits > 0 ? 0 : CCNX_E_VALUE;
}

/* A time: decimal nanoseconds, or -1. */
static int field_time(struct cursor *l, int64_t *t)
{
    if (l->end - l->p >= 3 && l->p[0] == ' ' && l->p[1] == '-' && l->p[2] == '1' &&
        (l->end - l->p == 3 || l->p[3] == ' ')) {
        l->p += 3;
        *t = -1;
        return 0;
    }
    uint64_t v = 0;
    int rc = field_u(l, 10, &v);
    if (rc == 0 && v > INT64_MAX) {
        rc = CCNX_E_VALUE;
    }
    *t = (int64_t)v;
    return rc;
}

static int starts(const struct cursor *l, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(l->end - l->p) >= n && memcmp(l->p, word, n) == 0;
}

static int parse_header(struct cursor *l, struct ccngst_seg_info *h)
{
    uint64_t version, live;
    if (!starts(l, "ccngst")) {
        return CCNX_E_VALUE;
    }
    l->p += 6;
    int rc = field_u(l, 10, &version);
    rc = rc == 0 && version == CCNGST_META_VERSION ? field_u(l, 10, &h->segment) : CCNX_E_VALUE;
    rc = rc == 0 ? field_u(l, 10, &h->offset) : rc;
    rc = rc == 0 ? field_u(l, 10, &h->key_segment) : rc;
    rc = rc == 0 ? field_time(l, &h->key_pts) : rc;
    rc = rc == 0 ? field_u(l, 10, &live) : rc;
    if (rc != 0 || l->p != l->end || live > 1 || h->key_segment > h->segment) {
        return CCNX_E_VALUE;
    }
    h->live = (int)live;
    return 0;
}

static int parse_buffer(struct cursor *l, struct ccngst_buf_rec *b)
{
    uint64_t flags;
    l->p += 1;
    int rc = field_u(l, 10, &b->offset);
    rc = rc == 0 ? field_u(l, 10, &b->size) : rc;
    rc = rc == 0 ? field_time(l, &b->pts) : rc;
    rc = rc == 0 ? field_time(l, &b->dts) : rc;
    rc = rc == 0 ? field_time(l, &b->duration) : rc;
    rc = rc == 0 ? field_u(l, 16, &flags) : rc;
    if (rc != 0 || l->p != l->end || b->size > UINT64_MAX - b->offset) {
        return CCNX_E_VALUE;
    }
    b->flags = (uint32_t)flags;
    return 0;
}

/* A record after the header: caps (once, before any buffer) or a buffer
 * starting at or after the previous one and at or after the segment. */
static int parse_record(struct cursor *l, struct ccngst_meta *m)
{
    if (starts(l, "C ") && m->caps == NULL && m->count == 0) {
        size_t n = (size_t)(l->end - l->p) - 2;
        if (n == 0 || n > CCNGST_META_MAX_CAPS || memchr(l->p + 2, '\r', n) != NULL) {
            return CCNX_E_VALUE;
        }
        m->caps = l->p + 2;
        m->caps_len = n;
        return 0;
    }
    if (!starts(l, "B") || m->count == CCNGST_META_MAX_BUFFERS) {
        return CCNX_E_VALUE;
    }
    struct ccngst_buf_rec *b = &m->bufs[m->count];
    if (parse_buffer(l, b) != 0 || b->offset < m->h.offset ||
        (m->count > 0 && b->offset < m->bufs[m->count - 1].offset)) {
        return CCNX_E_VALUE;
    }
    m->count++;
    return 0;
}

int ccngst_meta_parse(const uint8_t *p, size_t n, struct ccngst_meta *m)
{
    memset(&m->h, 0, sizeof m->h);
    m->caps = NULL;
    m->caps_len = 0;
    m->count = 0;
    struct cursor c = {(const char *)p, (const char *)p + n}, line;
    if (!next_line(&c, &line) || parse_header(&line, &m->h) != 0) {
        return CCNX_E_VALUE;
    }
    while (next_line(&c, &line)) {
        if (parse_record(&line, m) != 0) {
            return CCNX_E_VALUE;
        }
    }
    return 0;
}

int ccngst_meta_name(const struct ccnx_name *versioned, struct ccnx_name *out)
{
    struct ccnx_comp v;
    if (versioned->count == 0 || ccnx_name_comp(versioned, versioned->count - 1, &v) != 0 ||
        !ccnx_naming_is_version(v.p, v.n)) {
        return CCNX_E_INVAL;
    }
    int rc = ccnx_name_copy(out, versioned);
    rc = rc == 0 ? ccnx_name_append(out, CCNGST_META_MARKER, strlen(CCNGST_META_MARKER)) : rc;
    rc = rc == 0 ? ccnx_name_append_str(out, CCNGST_META_NAME) : rc;
    rc = rc == 0 ? ccnx_name_append(out, v.p, v.n) : rc;
    return rc;
}
