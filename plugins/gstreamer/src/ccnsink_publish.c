/* ccnsink's work on its client thread (ccnsink_publish.h): the stream's
 * writer, opened at the first buffer, each buffer written, the stream
 * closed at the end; the start-writes that ask a repository to store it
 * and the confirmation that it did; statistics. */
#include "ccnsink_publish.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/repo.h>
#include <ccnx/seqwriter.h>
#include <ccnx/uri.h>

GST_DEBUG_CATEGORY_EXTERN(ccnsink_debug);
#define GST_CAT_DEFAULT ccnsink_debug

#define STATS_INTERVAL_MS 1000

static void post_stats(struct ccnsink_pub *s, const char *name);

static void fail(struct ccnsink_pub *s, int rc, const char *what)
{
    if (s->failed) {
        return;
    }
    s->failed = 1;
    struct ccnx_client *c = ccngst_loop_client(s->loop);
    const char *why = rc == CCNX_E_NOKEY ? ccnx_client_error(c) : ccnx_strerror(rc);
    GST_ELEMENT_ERROR(s->element, RESOURCE, WRITE, ("Cannot publish the stream: %s", why),
                      ("%s failed: %s", what, ccnx_strerror(rc)));
}

static void stats_due(void *arg)
{
    struct ccnsink_pub *s = arg;
    post_stats(s, "ccnsink-stats");
    struct ccnx_client *c = ccngst_loop_client(s->loop);
    ccnx_client_schedule(c, STATS_INTERVAL_MS, stats_due, s, &s->stats_timer);
}

static int open_writer(struct ccnsink_pub *s, gboolean live)
{
    struct ccngst_writer_opts o = s->opts;
    o.live = live;
    o.key = s->ks != NULL ? ccnx_keystore_key(s->ks) : NULL;
    struct ccnx_client *c = ccngst_loop_client(s->loop);
    int rc = ccngst_writer_create(c, &s->name, &o, &s->writer);
    if (rc != 0) {
        fail(s, rc, "creating the stream");
        return rc;
    }
    struct ccnx_buf u = CCNX_BUF_INIT;
    ccnx_uri_append_name(&u, ccngst_writer_name(s->writer));
    GST_INFO_OBJECT(s->element, "publishing %s (%s)", ccnx_buf_cstr(&u),
                    live ? "live" : "on demand");
    ccnx_buf_free(&u);
    ccnx_client_schedule(c, STATS_INTERVAL_MS, stats_due, s, &s->stats_timer);
    return 0;
}

static int buffer_keyframe(GstBuffer *b)
{
    return !GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_DELTA_UNIT);
}

/* ---- Repository ---- */

#define REPO_TIMEOUT_MS 60000 /* the reference's wait for a repository */

struct repo_ask {
    struct ccnsink_pub *sink;
    int which;
    uint64_t id;
    gchar *uri;
};

static void repo_ask_free(struct repo_ask *a)
{
    a->sink->asks[a->which] = NULL;
    g_free(a->uri);
    g_free(a);
}

static void repo_answered(void *arg, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc)
{
    (void)obj;
    (void)len;
    (void)pc;
    struct repo_ask *a = arg;
    GST_INFO_OBJECT(a->sink->element, "a repository stores %s", a->uri);
    gst_element_post_message(
        a->sink->element, gst_message_new_element(GST_OBJECT(a->sink->element),
                                                  gst_structure_new("ccnsink-repo", "stored",
                                                                    G_TYPE_STRING, a->uri, NULL)));
    repo_ask_free(a);
}

static void repo_silent(void *arg)
{
    struct repo_ask *a = arg;
    GST_ELEMENT_WARNING(a->sink->element, RESOURCE, WRITE,
                        ("No repository answered for %s: the stream is served from this "
                         "element only",
                         a->uri),
                        ("is ccnr running, with a policy that takes this name?"));
    repo_ask_free(a);
}

/* The checked start-write ccnputfile sends, once segment 0 of the stream
 * is signed (its digest is part of the request). */
static void ask_repository(struct ccnsink_pub *s, int which, struct ccnx_seqwriter *w)
{
    size_t len;
    const uint8_t *seg0 = ccnx_seqwriter_segment(w, 0, &len);
    if (s->repo_asked[which] || seg0 == NULL) {
        return;
    }
    s->repo_asked[which] = 1;
    struct ccnx_repo_write_opts o;
    ccnx_repo_write_opts_init(&o);
    o.checked = 1;
    o.segment = 0;
    struct ccnx_buf interest = CCNX_BUF_INIT, u = CCNX_BUF_INIT;
    int rc = ccnx_content_digest(seg0, len, o.digest);
    rc = rc == 0 ? ccnx_repo_start_write_interest(&interest, ccnx_seqwriter_name(w), &o) : rc;
    ccnx_uri_append_name(&u, ccnx_seqwriter_name(w));
    struct repo_ask *a = g_new0(struct repo_ask, 1);
    a->sink = s;
    a->which = which;
    a->uri = g_strdup(ccnx_buf_cstr(&u));
    s->asks[which] = a;
    struct ccnx_express_opts eo = {repo_answered, repo_silent, a, REPO_TIMEOUT_MS, 0, 0};
    rc = rc == 0 ? ccnx_client_express(ccngst_loop_client(s->loop), interest.data, interest.len,
                                       &eo, &a->id)
                 : rc;
    if (rc != 0) {
        fail(s, rc, "asking a repository to store the stream");
        repo_ask_free(a);
    }
    ccnx_buf_free(&interest);
    ccnx_buf_free(&u);
}

static void maybe_ask_repository(struct ccnsink_pub *s)
{
    if (s->repo && !s->failed && s->writer != NULL) {
        ask_repository(s, 0, ccngst_writer_data(s->writer));
        ask_repository(s, 1, ccngst_writer_meta(s->writer));
    }
}

void ccnsink_write_job(void *arg)
{
    struct ccnsink_job *j = arg;
    struct ccnsink_pub *s = j->pub;
    gsize size = gst_buffer_get_size(j->buf);
    if (!s->failed && s->writer == NULL) {
        open_writer(s, j->live);
    }
    if (!s->failed && j->caps != NULL) {
        int rc = ccngst_writer_set_caps(s->writer, j->caps);
        if (rc != 0) {
            fail(s, rc, "caps too large or with a line break for the stream's metadata");
        }
    }
    GstMapInfo map;
    if (!s->failed && gst_buffer_map(j->buf, &map, GST_MAP_READ)) {
        struct ccngst_buf_rec rec = {
            0,
            0,
            GST_BUFFER_PTS_IS_VALID(j->buf) ? (int64_t)GST_BUFFER_PTS(j->buf) : -1,
            GST_BUFFER_DTS_IS_VALID(j->buf) ? (int64_t)GST_BUFFER_DTS(j->buf) : -1,
            GST_BUFFER_DURATION_IS_VALID(j->buf) ? (int64_t)GST_BUFFER_DURATION(j->buf) : -1,
            (uint32_t)GST_BUFFER_FLAGS(j->buf)};
        int rc = ccngst_writer_buffer(s->writer, map.data, map.size, &rec, buffer_keyframe(j->buf));
        gst_buffer_unmap(j->buf, &map);
        if (rc != 0) {
            fail(s, rc, "writing a buffer");
        }
        maybe_ask_repository(s);
    }
    gst_buffer_unref(j->buf);
    g_free(j->caps);
    g_free(j);
    g_mutex_lock(&s->lock);
    s->queued -= size;
    g_cond_broadcast(&s->cond);
    g_mutex_unlock(&s->lock);
}

void ccnsink_close_job(void *arg)
{
    struct ccnsink_pub *s = arg;
    if (!s->failed && s->writer == NULL) {
        open_writer(s, FALSE);
    }
    if (!s->failed) {
        int rc = ccngst_writer_close(s->writer);
        if (rc != 0) {
            fail(s, rc, "closing the stream");
        }
        maybe_ask_repository(s);
    }
    post_stats(s, "ccnsink-stats");
}

/* After the end, with repo=true: the repository itself is asked for each
 * stream's final segment, as ccnputfile does, so the pipeline ends only
 * once the repository holds the whole stream (or says why not). */
#define CONFIRM_MS     20000
#define CONFIRM_TRY_MS 500

static int confirm_one(struct ccnsink_pub *s, struct ccnx_seqwriter *w)
{
    struct ccnx_repo_write_opts o;
    ccnx_repo_write_opts_init(&o);
    gint64 end = g_get_monotonic_time() + CONFIRM_MS * 1000;
    int rc = CCNX_E_NOTFOUND;
    while (rc == CCNX_E_NOTFOUND && g_get_monotonic_time() < end) {
        g_mutex_lock(&s->lock);
        gboolean stop = s->flushing;
        g_mutex_unlock(&s->lock);
        if (stop) {
            break;
        }
        rc = ccnx_seqwriter_confirm_stored(w, &o, CONFIRM_TRY_MS);
    }
    return rc;
}

void ccnsink_confirm_job(void *arg)
{
    struct ccnsink_pub *s = arg;
    if (s->failed || s->writer == NULL || !s->repo_asked[0]) {
        return;
    }
    struct ccnx_seqwriter *w = ccngst_writer_data(s->writer);
    int rc = confirm_one(s, w);
    rc = rc == 0 ? confirm_one(s, ccngst_writer_meta(s->writer)) : rc;
    struct ccnx_buf u = CCNX_BUF_INIT;
    ccnx_uri_append_name(&u, ccnx_seqwriter_name(w));
    if (rc == 0) {
        GST_INFO_OBJECT(s->element, "the repository holds all of %s", ccnx_buf_cstr(&u));
        gst_element_post_message(
            s->element,
            gst_message_new_element(GST_OBJECT(s->element),
                                    gst_structure_new("ccnsink-repo", "complete", G_TYPE_STRING,
                                                      ccnx_buf_cstr(&u), NULL)));
    } else {
        GST_ELEMENT_WARNING(
            s->element, RESOURCE, WRITE,
            ("The repository did not confirm that it holds all of %s", ccnx_buf_cstr(&u)),
            ("asking for the final segment: %s", ccnx_strerror(rc)));
    }
    ccnx_buf_free(&u);
}

void ccnsink_stop_job(void *arg)
{
    struct ccnsink_pub *s = arg;
    for (int i = 0; i < 2; i++) {
        if (s->asks[i] != NULL) {
            ccnx_client_cancel(ccngst_loop_client(s->loop), s->asks[i]->id);
            repo_ask_free(s->asks[i]);
        }
    }
    if (s->stats_timer != 0) {
        ccnx_client_unschedule(ccngst_loop_client(s->loop), s->stats_timer);
        s->stats_timer = 0;
    }
    ccngst_writer_destroy(s->writer);
    s->writer = NULL;
}

/* ---- Statistics ---- */

struct stats_read {
    struct ccnsink_pub *sink;
    struct ccngst_writer_stats st;
    int have;
};

static void read_stats(void *arg)
{
    struct stats_read *r = arg;
    if (r->sink->writer != NULL) {
        ccngst_writer_get_stats(r->sink->writer, &r->st);
        r->have = 1;
    }
}

static GstStructure *stats_structure(const char *name, const struct ccngst_writer_stats *st)
{
    return gst_structure_new(name, "buffers", G_TYPE_UINT64, st->buffers, "bytes", G_TYPE_UINT64,
                             st->bytes, "segments", G_TYPE_UINT64, st->segments, "interests",
                             G_TYPE_UINT64, st->interests, "objects-sent", G_TYPE_UINT64,
                             st->objects_sent, "segments-sent", G_TYPE_UINT64, st->segments_sent,
                             "metadata-sent", G_TYPE_UINT64, st->meta_sent, NULL);
}

/* On the client thread. */
static void post_stats(struct ccnsink_pub *s, const char *name)
{
    struct stats_read r = {s, {0}, 0};
    read_stats(&r);
    gst_element_post_message(
        s->element, gst_message_new_element(GST_OBJECT(s->element), stats_structure(name, &r.st)));
}

GstStructure *ccnsink_pub_stats(struct ccnsink_pub *s)
{
    struct stats_read r = {s, {0}, 0};
    if (s->loop != NULL) {
        ccngst_loop_call_sync(s->loop, read_stats, &r);
    }
    return stats_structure("ccnsink-stats", &r.st);
}
