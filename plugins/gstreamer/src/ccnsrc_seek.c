/* ccnsrc's seeks, on the client thread (ccnsrc_fetch.h). A byte position
 * in a plain stream is a segment and an offset in it (all segments but the
 * last are full). A time in a stream with metadata is found by bisecting
 * on the metadata headers: header i gives the newest keyframe segment at or
 * before segment i and that keyframe's PTS, which never decrease with i, so
 * the largest i whose keyframe PTS is at or before the time names the
 * keyframe to start from: at most log2(segments) round trips. */
#include "ccnsrc_fetch.h"

#include "streammeta.h"

#include <ccnx/error.h>
#include <ccnx/fetch.h>

#define SEEK_PROBE_MS 2000

GST_DEBUG_CATEGORY_EXTERN(ccnsrc_debug);
#define GST_CAT_DEFAULT ccnsrc_debug

static void seek_done(struct ccnsrc_seek *k, int ok)
{
    struct ccnsrc_net *n = k->net;
    n->seek = NULL;
    g_mutex_lock(&n->lock);
    k->ok = ok;
    k->done = 1;
    g_cond_broadcast(&n->cond);
    g_mutex_unlock(&n->lock);
}

static void bisect_step(struct ccnsrc_seek *k);

static void header_arrived(void *arg, int result, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    struct ccnsrc_seek *k = arg;
    struct ccnsrc_net *n = k->net;
    struct ccngst_meta *m = g_new(struct ccngst_meta, 1);
    if (result != 0 ||
        ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) != 0) {
        GST_WARNING_OBJECT(n->element, "seek: metadata segment unavailable: %s",
                           result != 0 ? error : "does not parse");
        g_free(m);
        seek_done(k, 0);
        return;
    }
    guint64 mid = m->h.segment;
    if (k->lo == k->hi) { /* the answer: start at its keyframe */
        n->found.start_segment = m->h.key_segment;
        g_free(m);
        GST_DEBUG_OBJECT(n->element,
                         "seek to %" GST_TIME_FORMAT ": from segment %" G_GUINT64_FORMAT,
                         GST_TIME_ARGS(k->position), n->found.start_segment);
        ccnsrc_net_restart(n);
        seek_done(k, 1);
        return;
    }
    if (m->h.key_pts >= 0 && (guint64)m->h.key_pts <= k->position) {
        k->lo = mid;
    } else {
        k->hi = mid - 1;
    }
    g_free(m);
    bisect_step(k);
}

/* Asks for the header of the next segment to look at. */
static void bisect_step(struct ccnsrc_seek *k)
{
    struct ccnsrc_net *n = k->net;
    guint64 at = k->lo == k->hi ? k->lo : k->lo + (k->hi - k->lo + 1) / 2;
    struct ccnx_buf interest = CCNX_BUF_INIT;
    int rc = ccnx_fetch_segment_interest(&interest, &n->meta_name, at, 0, -1, 0);
    rc = rc == 0 ? ccnx_fetch_object_start(ccngst_loop_client(n->loop), n->verifier, interest.data,
                                           interest.len, SEEK_PROBE_MS, header_arrived, k)
                 : rc;
    ccnx_buf_free(&interest);
    if (rc != 0) {
        seek_done(k, 0);
    }
}

void ccnsrc_net_seek(void *arg)
{
    struct ccnsrc_seek *k = arg;
    struct ccnsrc_net *n = k->net;
    n->seek = k;
    if (k->format == GST_FORMAT_BYTES && !n->found.with_meta && n->block > 0) {
        n->found.start_segment = k->position / n->block;
        n->skip = k->position % n->block;
        n->byte_offset = k->position;
        ccnsrc_net_restart(n);
        seek_done(k, 1);
        return;
    }
    if (k->format != GST_FORMAT_TIME || !n->found.with_meta) {
        seek_done(k, 0);
        return;
    }
    k->lo = 0;
    k->hi = n->found.last_segment;
    bisect_step(k);
}
