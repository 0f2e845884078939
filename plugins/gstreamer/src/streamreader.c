/* ccnsrc's model (streamreader.h): a byte queue that starts at the stream
 * offset the first meta segment gives, and a queue of buffer records. */
#include "streamreader.h"

#include <ccnx/buf.h>
#include <ccnx/error.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
    struct ccngst_buf_rec b;
    char *caps; /* caps in force from this buffer on, when they changed */
};

struct ccngst_reader {
    struct ccnx_buf bytes; /* from head: stream offset base */
    size_t head;
    uint64_t base;
    int have_first;
    struct ccngst_seg_info first, last;
    struct rec *recs; /* queue [rhead, rcount) */
    size_t rhead, rcount, rcap;
    char *caps;                /* the caps last returned (or queued) */
    char *out_caps;            /* caps handed out with the last buffer */
    struct ccngst_meta parsed; /* scratch: large */
};

struct ccngst_reader *ccngst_reader_new(void)
{
    struct ccngst_reader *r = calloc(1, sizeof *r);
    if (r != NULL) {
        ccnx_buf_init(&r->bytes);
    }
    return r;
}

void ccngst_reader_free(struct ccngst_reader *r)
{
    if (r == NULL) {
        return;
    }
    for (size_t i = r->rhead; i < r->rcount; i++) {
        free(r->recs[i].caps);
    }
    free(r->recs);
    free(r->caps);
    free(r->out_caps);
    ccnx_buf_free(&r->bytes);
    free(r);
}

int ccngst_reader_data(struct ccngst_reader *r, const uint8_t *p, size_t n)
{
    if (r->head > 0 && r->head >= r->bytes.len / 2) {
        size_t rest = r->bytes.len - r->head;
        memmove(r->bytes.data, r->bytes.data + r->head, rest);
        r->bytes.len = rest;
        r->head = 0;
    }
    return ccnx_buf_append(&r->bytes, p, n);
}

static int push_rec(struct ccngst_reader *r, const struct ccngst_buf_rec *b, char *caps)
{
    if (r->rcount == r->rcap) {
        if (r->rhead > 0) {
            memmove(r->recs, r->recs + r->rhead, (r->rcount - r->rhead) * sizeof *r->recs);
            r->rcount -= r->rhead;
            r->rhead = 0;
        } else {
            size_t cap = r->rcap ? r->rcap * 2 : 64;
            struct rec *nr = realloc(r->recs, cap * sizeof *nr);
            if (nr == NULL) {
                return CCNX_E_NOMEM;
            }
            r->recs = nr;
            r->rcap = cap;
        }
    }
    r->recs[r->rcount++] = (struct rec){*b, caps};
    return 0;
}

/* The caps of this segment when they differ from those in force (a copy
 * to queue with its first buffer), or NULL. */
static int changed_caps(struct ccngst_reader *r, const struct ccngst_meta *m, char **out)
{
    *out = NULL;
    if (m->caps == NULL || (r->caps != NULL && strlen(r->caps) == m->caps_len &&
                            memcmp(r->caps, m->caps, m->caps_len) == 0)) {
        return 0;
    }
    char *c = malloc(m->caps_len + 1), *keep = malloc(m->caps_len + 1);
    if (c == NULL || keep == NULL) {
        free(c);
        free(keep);
        return CCNX_E_NOMEM;
    }
    memcpy(c, m->caps, m->caps_len);
    c[m->caps_len] = '\0';
    memcpy(keep, c, m->caps_len + 1);
    free(r->caps);
    r->caps = keep;
    *out = c;
    return 0;
}

static int follows(const struct ccngst_reader *r, const struct ccngst_meta *m)
{
    if (!r->have_first) {
        return 1;
    }
    return m->h.segment == r->last.segment + 1 && m->h.offset >= r->last.offset;
}

int ccngst_reader_meta(struct ccngst_reader *r, const uint8_t *p, size_t n, char *err, size_t room)
{
    struct ccngst_meta *m = &r->parsed;
    if (ccngst_meta_parse(p, n, m) != 0) {
        snprintf(err, room, "metadata that does not parse");
        return CCNX_E_VALUE;
    }
    if (!follows(r, m)) {
        snprintf(err, room, "metadata for segment %" PRIu64 " where %" PRIu64 " was expected",
                 m->h.segment, r->last.segment + 1);
        return CCNX_E_VALUE;
    }
    if (!r->have_first) {
        r->first = m->h;
        r->base = m->h.offset;
        r->have_first = 1;
    }
    r->last = m->h;
    char *caps = NULL;
    int rc = changed_caps(r, m, &caps);
    for (size_t i = 0; rc == 0 && i < m->count; i++) {
        rc = push_rec(r, &m->bufs[i], i == 0 ? caps : NULL);
        caps = i == 0 ? NULL : caps;
    }
    free(caps);
    return rc;
}

/* A record for bytes already passed (only a broken sender makes one). */
static void drop_stale(struct ccngst_reader *r)
{
    while (r->rhead < r->rcount && r->recs[r->rhead].b.offset < r->base) {
        free(r->recs[r->rhead].caps);
        r->rhead++;
    }
}

int ccngst_reader_next(struct ccngst_reader *r, struct ccngst_out *out)
{
    drop_stale(r);
    if (!r->have_first || r->rhead == r->rcount) {
        return 0;
    }
    struct rec *q = &r->recs[r->rhead];
    uint64_t held_end = r->base + (r->bytes.len - r->head);
    if (q->b.offset + q->b.size > held_end) {
        return 0;
    }
    size_t skip = (size_t)(q->b.offset - r->base);
    out->data = r->bytes.data + r->head + skip;
    out->size = (size_t)q->b.size;
    out->rec = q->b;
    free(r->out_caps);
    r->out_caps = q->caps;
    out->caps = q->caps;
    r->head += skip + out->size;
    r->base = q->b.offset + q->b.size;
    r->rhead++;
    if (r->rhead == r->rcount) {
        r->rhead = r->rcount = 0;
    }
    return 1;
}

const struct ccngst_seg_info *ccngst_reader_first(const struct ccngst_reader *r)
{
    return r->have_first ? &r->first : NULL;
}

size_t ccngst_reader_buffered(const struct ccngst_reader *r)
{
    return r->bytes.len - r->head;
}
