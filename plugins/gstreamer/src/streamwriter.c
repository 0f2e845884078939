/* ccnsink's model (streamwriter.h). The writer mirrors how the data
 * seqwriter numbers its segments (full blocks since the last flush, and
 * one short segment at each flush) so that meta segment n can be written,
 * through a second seqwriter, exactly when data segment n is complete. */
#include "streamwriter.h"

#include <ccnx/error.h>

#include <stdlib.h>
#include <string.h>

struct ccngst_writer {
    struct ccnx_seqwriter *data, *meta;
    struct ccnx_name meta_name;
    struct ccngst_writer_opts o;
    char *caps;      /* caps in force (NULL: none seen) */
    int caps_new;    /* the next buffer starts a segment with the caps line */
    uint64_t total;  /* stream bytes written */
    uint64_t seg;    /* data segment being filled */
    uint64_t seg_at; /* its first byte's stream offset */
    int seg_key;     /* it starts at a keyframe or caps change: carries the caps */
    uint64_t key_seg;
    int64_t key_pts;
    struct ccnx_buf recs; /* B lines of buffers starting in seg */
    size_t nrecs;
    uint64_t buffers;
};

static void writer_free(struct ccngst_writer *w)
{
    ccnx_seqwriter_destroy(w->data);
    ccnx_seqwriter_destroy(w->meta);
    ccnx_name_free(&w->meta_name);
    ccnx_buf_free(&w->recs);
    free(w->caps);
    free(w);
}

int ccngst_writer_create(struct ccnx_client *c, const struct ccnx_name *location,
                         const struct ccngst_writer_opts *o, struct ccngst_writer **out)
{
    struct ccngst_writer *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return CCNX_E_NOMEM;
    }
    w->o = *o;
    w->key_pts = -1;
    ccnx_buf_init(&w->recs);
    ccnx_name_init(&w->meta_name);
    struct ccnx_seqwriter_opts so;
    ccnx_seqwriter_opts_init(&so);
    so.block_size = o->block_size;
    so.freshness = o->freshness;
    so.key = o->key;
    so.live_window = o->live_window;
    so.keep_all = o->live_window == 0;
    so.put = o->put;
    so.put_arg = o->put_arg;
    /* Viewers of one stream ask for each segment at about the same time;
     * an Interest that left ccnd before the first copy got there is
     * satisfied by that copy, so it needs no second one. */
    so.resend_ms = CCNGST_RESEND_MS;
    int rc = ccnx_seqwriter_create(c, location, &so, &w->data);
    rc = rc == 0 ? ccngst_meta_name(ccnx_seqwriter_name(w->data), &w->meta_name) : rc;
    /* Each meta segment is one record set, ended on purpose and shorter
     * than a block. */
    so.block_size = CCNGST_META_BLOCK;
    /* The data's filter covers the meta name: ccnd needs no second route. */
    so.filter_mode = CCNX_FILTER_LOCAL;
    rc = rc == 0 ? ccnx_seqwriter_create(c, &w->meta_name, &so, &w->meta) : rc;
    if (rc != 0) {
        writer_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

void ccngst_writer_destroy(struct ccngst_writer *w)
{
    if (w != NULL) {
        writer_free(w);
    }
}

const struct ccnx_name *ccngst_writer_name(const struct ccngst_writer *w)
{
    return ccnx_seqwriter_name(w->data);
}

struct ccnx_seqwriter *ccngst_writer_data(struct ccngst_writer *w)
{
    return w->data;
}

struct ccnx_seqwriter *ccngst_writer_meta(struct ccngst_writer *w)
{
    return w->meta;
}

int ccngst_writer_set_caps(struct ccngst_writer *w, const char *caps)
{
    struct ccnx_buf probe = CCNX_BUF_INIT;
    int rc = ccngst_meta_put_caps(&probe, caps);
    ccnx_buf_free(&probe);
    if (rc != 0) {
        return rc;
    }
    if (w->caps != NULL && strcmp(w->caps, caps) == 0) {
        return 0;
    }
    char *copy = strdup(caps);
    if (copy == NULL) {
        return CCNX_E_NOMEM;
    }
    free(w->caps);
    w->caps = copy;
    w->caps_new = 1;
    return 0;
}

/* Meta segment for the data segment being filled, which is complete now;
 * `final` on the stream's last. */
static int emit_meta(struct ccngst_writer *w, int final)
{
    struct ccnx_buf text = CCNX_BUF_INIT;
    struct ccngst_seg_info h = {w->seg, w->seg_at, w->key_seg, w->key_pts, w->o.live};
    int rc = ccngst_meta_put_header(&text, &h);
    if (rc == 0 && w->seg_key && w->caps != NULL) {
        rc = ccngst_meta_put_caps(&text, w->caps);
    }
    rc = rc == 0 ? ccnx_buf_append(&text, w->recs.data, w->recs.len) : rc;
    long put = rc == 0 ? ccnx_seqwriter_write(w->meta, text.data, text.len) : rc;
    if (put >= 0 && (size_t)put != text.len) {
        put = CCNX_E_NOMEM;
    }
    rc = put < 0 ? (int)put
         : final ? ccnx_seqwriter_close(w->meta)
                 : ccnx_seqwriter_end_segment(w->meta);
    ccnx_buf_free(&text);
    ccnx_buf_reset(&w->recs);
    w->nrecs = 0;
    w->seg_key = 0;
    return rc;
}

/* Ends the segment being filled, if it holds anything. */
static int end_segment(struct ccngst_writer *w)
{
    if (w->total == w->seg_at) {
        return 0;
    }
    int rc = ccnx_seqwriter_end_segment(w->data);
    rc = rc == 0 ? emit_meta(w, 0) : rc;
    w->seg++;
    w->seg_at = w->total;
    return rc;
}

/* Segments that the bytes just written completed. */
static int complete_full_segments(struct ccngst_writer *w)
{
    int rc = 0;
    /* The last full block waits for more bytes, as the data's does: it may
     * be the final segment. */
    while (rc == 0 && w->total - w->seg_at > w->o.block_size) {
        rc = emit_meta(w, 0);
        w->seg++;
        w->seg_at += w->o.block_size;
    }
    return rc;
}

static int write_all(struct ccngst_writer *w, const uint8_t *p, size_t n)
{
    while (n > 0) {
        long k = ccnx_seqwriter_write(w->data, p, n);
        if (k <= 0) {
            return k < 0 ? (int)k : CCNX_E_NOMEM;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int ccngst_writer_buffer(struct ccngst_writer *w, const void *p, size_t n,
                         const struct ccngst_buf_rec *rec, int keyframe)
{
    int starts_key = w->caps != NULL && (keyframe || w->caps_new);
    int rc = 0;
    if (starts_key || w->nrecs == CCNGST_META_MAX_BUFFERS) {
        rc = end_segment(w);
    }
    if (rc == 0 && starts_key) {
        w->seg_key = 1;
        w->caps_new = 0;
        if (keyframe) {
            w->key_seg = w->seg;
            w->key_pts = rec->pts;
        }
    }
    struct ccngst_buf_rec r = *rec;
    r.offset = w->total;
    r.size = n;
    rc = rc == 0 ? ccngst_meta_put_buffer(&w->recs, &r) : rc;
    w->nrecs++;
    rc = rc == 0 ? write_all(w, p, n) : rc;
    w->total += n;
    w->buffers++;
    rc = rc == 0 ? complete_full_segments(w) : rc;
    if (rc == 0 && w->o.live) {
        rc = end_segment(w);
    }
    return rc;
}

int ccngst_writer_close(struct ccngst_writer *w)
{
    /* The data's close makes the final segment of what is left (at most a
     * block), or an empty one after a segment just ended: either way
     * segment w->seg. */
    int rc = ccnx_seqwriter_close(w->data);
    return rc == 0 ? emit_meta(w, 1) : rc;
}

void ccngst_writer_get_stats(const struct ccngst_writer *w, struct ccngst_writer_stats *s)
{
    struct ccnx_seqwriter_stats d, m;
    ccnx_seqwriter_get_stats(w->data, &d);
    ccnx_seqwriter_get_stats(w->meta, &m);
    memset(s, 0, sizeof *s);
    s->buffers = w->buffers;
    s->bytes = d.bytes;
    s->segments = d.segments;
    s->interests = d.interests + m.interests;
    s->objects_sent = d.objects_sent;
    s->segments_sent = d.segments_sent;
    s->meta_sent = m.objects_sent;
}
