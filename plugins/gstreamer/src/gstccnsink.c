/* ccnsink (gstccnsink.h). The streaming thread hands each buffer to the
 * element's client thread (ccnloop.h), which writes it into the stream
 * and answers Interests; render() waits only when the client thread falls
 * more than QUEUE_LIMIT bytes behind, never for a viewer. */
#include "gstccnsink.h"

#include "ccnloop.h"
#include "streamwriter.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/seqwriter.h>
#include <ccnx/repo.h>
#include <ccnx/keystore.h>
#include <ccnx/uri.h>

#include <string.h>

GST_DEBUG_CATEGORY_STATIC(ccnsink_debug);
#define GST_CAT_DEFAULT ccnsink_debug

#define DEFAULT_BLOCK_SIZE  4096
#define DEFAULT_FRESHNESS   -1
#define DEFAULT_LIVE_WINDOW 0
#define DEFAULT_LINGER      30
#define QUEUE_LIMIT         (32u << 20)
#define STATS_INTERVAL_MS   1000

enum {
    PROP_0,
    PROP_LOCATION,
    PROP_BLOCK_SIZE,
    PROP_FRESHNESS,
    PROP_LIVE_WINDOW,
    PROP_REPO,
    PROP_KEYSTORE,
    PROP_LINGER,
    PROP_STATS,
};

struct _GstCcnSink {
    GstBaseSink parent;
    /* properties, under the object lock */
    gchar *location;
    guint block_size;
    gint freshness;
    guint live_window;
    gboolean repo;
    gchar *keystore;
    guint linger;

    /* set in start(), used by the client thread */
    struct ccngst_loop *loop;
    struct ccnx_name name;
    struct ccnx_keystore *ks;
    struct ccngst_writer *writer; /* client thread only */
    int failed;                   /* client thread: a write error was posted */
    uint64_t stats_timer;
    int repo_asked[2];        /* client thread: start-write sent for data, metadata */
    struct repo_ask *asks[2]; /* client thread: those still waiting for an answer */

    /* between the threads */
    GMutex lock;
    GCond cond;
    guint64 queued;    /* bytes handed over, not yet written */
    gboolean flushing; /* unlock(): stop waiting */
    gchar *caps;       /* caps to hand over with the next buffer */
    gboolean live;
    gboolean started_writer;
};

/**
 * SECTION:element-ccnsink
 * @title: ccnsink
 * @see_also: ccnsrc
 *
 * Publishes what reaches it under a CCNx name, for any number of viewers
 * (ccnsrc) on any hosts joined by ccnd: the bytes in signed segments, and
 * beside them each buffer's timestamps, flags and the caps, so a viewer
 * gets the buffers back as they were sent. A live stream keeps its newest
 * #GstCcnSink:live-window milliseconds; anything else is kept whole and,
 * after the end, served for #GstCcnSink:linger seconds, or stored in a
 * repository with #GstCcnSink:repo. Viewers after the first are served
 * from ccnd's content stores.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! vp8enc deadline=1 ! webmmux streamable=true ! ccnsink
 * location=ccnx:/video live-window=3000
 * ]| A live VP8/WebM stream under ccnx:/video.
 * |[
 * gst-launch-1.0 filesrc location=clip.webm ! ccnsink location=ccnx:/movies/clip.webm repo=true
 * ]| A file, stored in the local repository.
 */

G_DEFINE_TYPE(GstCcnSink, gst_ccnsink, GST_TYPE_BASE_SINK)
GST_ELEMENT_REGISTER_DEFINE(ccnsink, "ccnsink", GST_RANK_NONE, GST_TYPE_CCNSINK);

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

/* ---- Work on the client thread ---- */

struct job {
    GstCcnSink *sink;
    GstBuffer *buf;
    gchar *caps;
    gboolean live;
};

static void post_stats(GstCcnSink *s, const char *name);

static void fail(GstCcnSink *s, int rc, const char *what)
{
    if (s->failed) {
        return;
    }
    s->failed = 1;
    struct ccnx_client *c = ccngst_loop_client(s->loop);
    const char *why = rc == CCNX_E_NOKEY ? ccnx_client_error(c) : ccnx_strerror(rc);
    GST_ELEMENT_ERROR(s, RESOURCE, WRITE, ("Cannot publish the stream: %s", why),
                      ("%s failed: %s", what, ccnx_strerror(rc)));
}

static void stats_due(void *arg)
{
    GstCcnSink *s = arg;
    post_stats(s, "ccnsink-stats");
    struct ccnx_client *c = ccngst_loop_client(s->loop);
    ccnx_client_schedule(c, STATS_INTERVAL_MS, stats_due, s, &s->stats_timer);
}

static int open_writer(GstCcnSink *s, gboolean live)
{
    struct ccngst_writer_opts o = {0};
    GST_OBJECT_LOCK(s);
    o.block_size = s->block_size;
    o.freshness = s->freshness;
    o.live_window = s->live_window;
    GST_OBJECT_UNLOCK(s);
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
    GST_INFO_OBJECT(s, "publishing %s (%s)", ccnx_buf_cstr(&u), live ? "live" : "on demand");
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
    GstCcnSink *sink;
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
    GST_INFO_OBJECT(a->sink, "a repository stores %s", a->uri);
    gst_element_post_message(
        GST_ELEMENT(a->sink),
        gst_message_new_element(
            GST_OBJECT(a->sink),
            gst_structure_new("ccnsink-repo", "stored", G_TYPE_STRING, a->uri, NULL)));
    repo_ask_free(a);
}

static void repo_silent(void *arg)
{
    struct repo_ask *a = arg;
    GST_ELEMENT_WARNING(a->sink, RESOURCE, WRITE,
                        ("No repository answered for %s: the stream is served from this "
                         "element only",
                         a->uri),
                        ("is ccnr running, with a policy that takes this name?"));
    repo_ask_free(a);
}

/* The checked start-write ccnputfile sends, once segment 0 of the stream
 * is signed (its digest is part of the request). */
static void ask_repository(GstCcnSink *s, int which, struct ccnx_seqwriter *w)
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

static void maybe_ask_repository(GstCcnSink *s)
{
    GST_OBJECT_LOCK(s);
    gboolean repo = s->repo;
    GST_OBJECT_UNLOCK(s);
    if (repo && !s->failed && s->writer != NULL) {
        ask_repository(s, 0, ccngst_writer_data(s->writer));
        ask_repository(s, 1, ccngst_writer_meta(s->writer));
    }
}

static void write_job(void *arg)
{
    struct job *j = arg;
    GstCcnSink *s = j->sink;
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

static void close_job(void *arg)
{
    GstCcnSink *s = arg;
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

static int confirm_one(GstCcnSink *s, struct ccnx_seqwriter *w)
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

static void confirm_job(void *arg)
{
    GstCcnSink *s = arg;
    if (s->failed || s->writer == NULL || !s->repo_asked[0]) {
        return;
    }
    struct ccnx_seqwriter *w = ccngst_writer_data(s->writer);
    int rc = confirm_one(s, w);
    rc = rc == 0 ? confirm_one(s, ccngst_writer_meta(s->writer)) : rc;
    struct ccnx_buf u = CCNX_BUF_INIT;
    ccnx_uri_append_name(&u, ccnx_seqwriter_name(w));
    if (rc == 0) {
        GST_INFO_OBJECT(s, "the repository holds all of %s", ccnx_buf_cstr(&u));
        gst_element_post_message(
            GST_ELEMENT(s),
            gst_message_new_element(GST_OBJECT(s),
                                    gst_structure_new("ccnsink-repo", "complete", G_TYPE_STRING,
                                                      ccnx_buf_cstr(&u), NULL)));
    } else {
        GST_ELEMENT_WARNING(
            s, RESOURCE, WRITE,
            ("The repository did not confirm that it holds all of %s", ccnx_buf_cstr(&u)),
            ("asking for the final segment: %s", ccnx_strerror(rc)));
    }
    ccnx_buf_free(&u);
}

static void stop_job(void *arg)
{
    GstCcnSink *s = arg;
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
    GstCcnSink *sink;
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
static void post_stats(GstCcnSink *s, const char *name)
{
    struct stats_read r = {s, {0}, 0};
    read_stats(&r);
    gst_element_post_message(GST_ELEMENT(s),
                             gst_message_new_element(GST_OBJECT(s), stats_structure(name, &r.st)));
}

static GstStructure *get_stats(GstCcnSink *s)
{
    struct stats_read r = {s, {0}, 0};
    if (s->loop != NULL) {
        ccngst_loop_call_sync(s->loop, read_stats, &r);
    }
    return stats_structure("ccnsink-stats", &r.st);
}

/* ---- GstBaseSink ---- */

static gboolean open_keystore(GstCcnSink *s)
{
    GST_OBJECT_LOCK(s);
    gchar *path = g_strdup(s->keystore);
    GST_OBJECT_UNLOCK(s);
    if (path == NULL) {
        return TRUE;
    }
    int rc = ccnx_keystore_open(path, NULL, &s->ks);
    if (rc != 0) {
        GST_ELEMENT_ERROR(s, RESOURCE, OPEN_READ,
                          ("Cannot open the keystore %s: %s", path, ccnx_strerror(rc)),
                          ("make one with ccninitkeystore, or leave keystore unset for the "
                           "user's default keystore"));
    }
    g_free(path);
    return rc == 0;
}

static gboolean gst_ccnsink_start(GstBaseSink *bs)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    GST_OBJECT_LOCK(s);
    gchar *loc = g_strdup(s->location);
    GST_OBJECT_UNLOCK(s);
    ccnx_name_init(&s->name);
    if (loc == NULL || ccnx_uri_parse_str(&s->name, loc) != 0 || s->name.count == 0) {
        GST_ELEMENT_ERROR(s, RESOURCE, SETTINGS,
                          ("location \"%s\" is not a ccnx: URI with at least one component",
                           loc != NULL ? loc : ""),
                          ("for example location=ccnx:/video"));
        g_free(loc);
        return FALSE;
    }
    g_free(loc);
    if (!open_keystore(s)) {
        return FALSE;
    }
    char *err = NULL;
    s->loop = ccngst_loop_start("ccnsink", &err);
    if (s->loop == NULL) {
        GST_ELEMENT_ERROR(s, RESOURCE, OPEN_WRITE, ("Cannot reach ccnd: %s", err),
                          ("set CCN_LOCAL_SOCKNAME / CCN_LOCAL_PORT if ccnd runs elsewhere"));
        g_free(err);
        return FALSE;
    }
    s->failed = 0;
    s->repo_asked[0] = s->repo_asked[1] = 0;
    s->started_writer = FALSE;
    s->flushing = FALSE;
    s->queued = 0;
    return TRUE;
}

static gboolean gst_ccnsink_stop(GstBaseSink *bs)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    if (s->loop != NULL) {
        ccngst_loop_stop(s->loop, stop_job, s);
        s->loop = NULL;
    }
    ccnx_keystore_destroy(s->ks);
    s->ks = NULL;
    ccnx_name_free(&s->name);
    g_free(s->caps);
    s->caps = NULL;
    return TRUE;
}

static gboolean gst_ccnsink_set_caps(GstBaseSink *bs, GstCaps *caps)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    gchar *text = gst_caps_to_string(caps);
    g_mutex_lock(&s->lock);
    g_free(s->caps);
    s->caps = text;
    g_mutex_unlock(&s->lock);
    return TRUE;
}

static gboolean upstream_is_live(GstCcnSink *s)
{
    GstQuery *q = gst_query_new_latency();
    gboolean live = FALSE;
    if (gst_pad_peer_query(GST_BASE_SINK_PAD(s), q)) {
        gst_query_parse_latency(q, &live, NULL, NULL);
    }
    gst_query_unref(q);
    return live;
}

static GstFlowReturn gst_ccnsink_render(GstBaseSink *bs, GstBuffer *buf)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    if (!s->started_writer) {
        s->live = upstream_is_live(s);
        s->started_writer = TRUE;
    }
    struct job *j = g_new0(struct job, 1);
    j->sink = s;
    j->buf = gst_buffer_ref(buf);
    j->live = s->live;
    gsize size = gst_buffer_get_size(buf);
    g_mutex_lock(&s->lock);
    while (s->queued > QUEUE_LIMIT && !s->flushing) {
        g_cond_wait(&s->cond, &s->lock);
    }
    if (s->flushing) {
        g_mutex_unlock(&s->lock);
        gst_buffer_unref(j->buf);
        g_free(j);
        return GST_FLOW_FLUSHING;
    }
    j->caps = s->caps;
    s->caps = NULL;
    s->queued += size;
    g_mutex_unlock(&s->lock);
    ccngst_loop_call(s->loop, write_job, j);
    return GST_FLOW_OK;
}

/* After EOS the stream is closed and served for `linger` seconds, so that
 * `filesrc ! ccnsink` serves a file as ccnputfile does; stopping the
 * pipeline (unlock) ends the wait. */
static void linger_after_eos(GstCcnSink *s)
{
    GST_OBJECT_LOCK(s);
    guint linger = s->linger;
    GST_OBJECT_UNLOCK(s);
    ccngst_loop_call_sync(s->loop, close_job, s);
    ccngst_loop_call_sync(s->loop, confirm_job, s);
    if (linger == 0) {
        return;
    }
    GST_INFO_OBJECT(s, "stream closed; answering for %u s more", linger);
    gint64 until = g_get_monotonic_time() + (gint64)linger * G_USEC_PER_SEC;
    g_mutex_lock(&s->lock);
    while (!s->flushing && g_cond_wait_until(&s->cond, &s->lock, until)) {
    }
    g_mutex_unlock(&s->lock);
}

static gboolean gst_ccnsink_event(GstBaseSink *bs, GstEvent *ev)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    if (GST_EVENT_TYPE(ev) == GST_EVENT_EOS && s->loop != NULL) {
        linger_after_eos(s);
    }
    return GST_BASE_SINK_CLASS(gst_ccnsink_parent_class)->event(bs, ev);
}

static gboolean gst_ccnsink_unlock(GstBaseSink *bs)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    g_mutex_lock(&s->lock);
    s->flushing = TRUE;
    g_cond_broadcast(&s->cond);
    g_mutex_unlock(&s->lock);
    return TRUE;
}

static gboolean gst_ccnsink_unlock_stop(GstBaseSink *bs)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    g_mutex_lock(&s->lock);
    s->flushing = FALSE;
    g_mutex_unlock(&s->lock);
    return TRUE;
}

/* ---- Properties ---- */

static void gst_ccnsink_set_property(GObject *obj, guint id, const GValue *v, GParamSpec *ps)
{
    GstCcnSink *s = GST_CCNSINK(obj);
    GST_OBJECT_LOCK(s);
    switch (id) {
    case PROP_LOCATION:
        g_free(s->location);
        s->location = g_value_dup_string(v);
        break;
    case PROP_BLOCK_SIZE:
        s->block_size = g_value_get_uint(v);
        break;
    case PROP_FRESHNESS:
        s->freshness = g_value_get_int(v);
        break;
    case PROP_LIVE_WINDOW:
        s->live_window = g_value_get_uint(v);
        break;
    case PROP_REPO:
        s->repo = g_value_get_boolean(v);
        break;
    case PROP_KEYSTORE:
        g_free(s->keystore);
        s->keystore = g_value_dup_string(v);
        break;
    case PROP_LINGER:
        s->linger = g_value_get_uint(v);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    }
    GST_OBJECT_UNLOCK(s);
}

static void gst_ccnsink_get_property(GObject *obj, guint id, GValue *v, GParamSpec *ps)
{
    GstCcnSink *s = GST_CCNSINK(obj);
    if (id == PROP_STATS) {
        g_value_take_boxed(v, get_stats(s));
        return;
    }
    GST_OBJECT_LOCK(s);
    switch (id) {
    case PROP_LOCATION:
        g_value_set_string(v, s->location);
        break;
    case PROP_BLOCK_SIZE:
        g_value_set_uint(v, s->block_size);
        break;
    case PROP_FRESHNESS:
        g_value_set_int(v, s->freshness);
        break;
    case PROP_LIVE_WINDOW:
        g_value_set_uint(v, s->live_window);
        break;
    case PROP_REPO:
        g_value_set_boolean(v, s->repo);
        break;
    case PROP_KEYSTORE:
        g_value_set_string(v, s->keystore);
        break;
    case PROP_LINGER:
        g_value_set_uint(v, s->linger);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    }
    GST_OBJECT_UNLOCK(s);
}

static void gst_ccnsink_finalize(GObject *obj)
{
    GstCcnSink *s = GST_CCNSINK(obj);
    g_free(s->location);
    g_free(s->keystore);
    g_free(s->caps);
    g_mutex_clear(&s->lock);
    g_cond_clear(&s->cond);
    G_OBJECT_CLASS(gst_ccnsink_parent_class)->finalize(obj);
}

static void install_properties(GObjectClass *oc)
{
    const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY;
    g_object_class_install_property(
        oc, PROP_LOCATION,
        g_param_spec_string("location", "Location",
                            "ccnx: URI the stream is published under (a version is added)", NULL,
                            rw));
    g_object_class_install_property(oc, PROP_BLOCK_SIZE,
                                    g_param_spec_uint("block-size", "Block size",
                                                      "Bytes per segment at most", 1, 65536,
                                                      DEFAULT_BLOCK_SIZE, rw));
    g_object_class_install_property(
        oc, PROP_FRESHNESS,
        g_param_spec_int("freshness", "Freshness",
                         "FreshnessSeconds of every segment (-1: none, cached until evicted)", -1,
                         G_MAXINT, DEFAULT_FRESHNESS, rw));
    g_object_class_install_property(
        oc, PROP_LIVE_WINDOW,
        g_param_spec_uint("live-window", "Live window",
                          "Segments kept to answer Interests (0: all of them, as for a file; "
                          "else the newest ones, so memory stays bounded)",
                          0, G_MAXUINT, DEFAULT_LIVE_WINDOW, rw));
    g_object_class_install_property(
        oc, PROP_REPO,
        g_param_spec_boolean("repo", "Repository",
                             "Also ask a repository (ccnr) to store the stream", FALSE, rw));
    g_object_class_install_property(
        oc, PROP_KEYSTORE,
        g_param_spec_string("keystore", "Keystore",
                            "PKCS#12 keystore whose key signs the stream (unset: the user's "
                            "default, ~/.ccnx/.ccnx_keystore)",
                            NULL, rw));
    g_object_class_install_property(
        oc, PROP_LINGER,
        g_param_spec_uint(
            "linger", "Linger",
            "Seconds the stream is still served after end of stream (0: stop at once)", 0,
            G_MAXUINT, DEFAULT_LINGER, rw));
    g_object_class_install_property(
        oc, PROP_STATS,
        g_param_spec_boxed("stats", "Statistics",
                           "buffers, bytes, segments, interests, objects-sent, segments-sent, "
                           "metadata-sent",
                           GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void gst_ccnsink_class_init(GstCcnSinkClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GstElementClass *ec = GST_ELEMENT_CLASS(klass);
    GstBaseSinkClass *bc = GST_BASE_SINK_CLASS(klass);
    oc->set_property = gst_ccnsink_set_property;
    oc->get_property = gst_ccnsink_get_property;
    oc->finalize = gst_ccnsink_finalize;
    install_properties(oc);
    gst_element_class_add_static_pad_template(ec, &sink_template);
    gst_element_class_set_static_metadata(
        ec, "CCNx sink", "Sink/Network",
        "Publishes a stream under a CCNx name for any number of viewers, with the buffers' "
        "timing and caps beside it",
        "CCNx suite developers");
    bc->start = GST_DEBUG_FUNCPTR(gst_ccnsink_start);
    bc->stop = GST_DEBUG_FUNCPTR(gst_ccnsink_stop);
    bc->set_caps = GST_DEBUG_FUNCPTR(gst_ccnsink_set_caps);
    bc->render = GST_DEBUG_FUNCPTR(gst_ccnsink_render);
    bc->event = GST_DEBUG_FUNCPTR(gst_ccnsink_event);
    bc->unlock = GST_DEBUG_FUNCPTR(gst_ccnsink_unlock);
    bc->unlock_stop = GST_DEBUG_FUNCPTR(gst_ccnsink_unlock_stop);
    GST_DEBUG_CATEGORY_INIT(ccnsink_debug, "ccnsink", 0, "CCNx sink");
}

static void gst_ccnsink_init(GstCcnSink *s)
{
    s->block_size = DEFAULT_BLOCK_SIZE;
    s->freshness = DEFAULT_FRESHNESS;
    s->live_window = DEFAULT_LIVE_WINDOW;
    s->linger = DEFAULT_LINGER;
    g_mutex_init(&s->lock);
    g_cond_init(&s->cond);
    gst_base_sink_set_sync(GST_BASE_SINK(s), FALSE);
}
