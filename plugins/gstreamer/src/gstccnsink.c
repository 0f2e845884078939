/* ccnsink (gstccnsink.h). The streaming thread hands each buffer to the
 * element's client thread (ccnloop.h), which writes it into the stream
 * and answers Interests; render() waits only when the client thread falls
 * more than QUEUE_LIMIT bytes behind, never for a viewer. */
#include "gstccnsink.h"

#include "ccnsink_publish.h"

#include <ccnx/error.h>
#include <ccnx/keystore.h>
#include <ccnx/uri.h>

#include <string.h>

GST_DEBUG_CATEGORY(ccnsink_debug);
#define GST_CAT_DEFAULT ccnsink_debug

#define DEFAULT_BLOCK_SIZE  4096
#define DEFAULT_FRESHNESS   -1
#define DEFAULT_LIVE_WINDOW 0
#define DEFAULT_LINGER      30
#define QUEUE_LIMIT         (32u << 20)

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

    /* the client thread's work (set up in start()), and what the threads share */
    struct ccnsink_pub pub;

    /* streaming thread */
    gchar *caps; /* caps to hand over with the next buffer, under pub.lock */
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

/* ---- GstBaseSink ---- */

static gboolean open_keystore(GstCcnSink *s)
{
    GST_OBJECT_LOCK(s);
    gchar *path = g_strdup(s->keystore);
    GST_OBJECT_UNLOCK(s);
    if (path == NULL) {
        return TRUE;
    }
    int rc = ccnx_keystore_open(path, NULL, &s->pub.ks);
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
    ccnx_name_init(&s->pub.name);
    if (loc == NULL || ccnx_uri_parse_str(&s->pub.name, loc) != 0 || s->pub.name.count == 0) {
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
    s->pub.loop = ccngst_loop_start("ccnsink", &err);
    if (s->pub.loop == NULL) {
        GST_ELEMENT_ERROR(s, RESOURCE, OPEN_WRITE, ("Cannot reach ccnd: %s", err),
                          ("set CCN_LOCAL_SOCKNAME / CCN_LOCAL_PORT if ccnd runs elsewhere"));
        g_free(err);
        return FALSE;
    }
    /* the properties may change only in READY: read once for this run */
    GST_OBJECT_LOCK(s);
    s->pub.opts = (struct ccngst_writer_opts){0};
    s->pub.opts.block_size = s->block_size;
    s->pub.opts.freshness = s->freshness;
    s->pub.opts.live_window = s->live_window;
    s->pub.repo = s->repo;
    GST_OBJECT_UNLOCK(s);
    s->pub.element = GST_ELEMENT(s);
    s->pub.failed = 0;
    s->pub.repo_asked[0] = s->pub.repo_asked[1] = 0;
    s->started_writer = FALSE;
    s->pub.flushing = FALSE;
    s->pub.queued = 0;
    return TRUE;
}

static gboolean gst_ccnsink_stop(GstBaseSink *bs)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    if (s->pub.loop != NULL) {
        ccngst_loop_stop(s->pub.loop, ccnsink_stop_job, &s->pub);
        s->pub.loop = NULL;
    }
    ccnx_keystore_destroy(s->pub.ks);
    s->pub.ks = NULL;
    ccnx_name_free(&s->pub.name);
    g_free(s->caps);
    s->caps = NULL;
    return TRUE;
}

static gboolean gst_ccnsink_set_caps(GstBaseSink *bs, GstCaps *caps)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    gchar *text = gst_caps_to_string(caps);
    g_mutex_lock(&s->pub.lock);
    g_free(s->caps);
    s->caps = text;
    g_mutex_unlock(&s->pub.lock);
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
    struct ccnsink_job *j = g_new0(struct ccnsink_job, 1);
    j->pub = &s->pub;
    j->buf = gst_buffer_ref(buf);
    j->live = s->live;
    gsize size = gst_buffer_get_size(buf);
    g_mutex_lock(&s->pub.lock);
    while (s->pub.queued > QUEUE_LIMIT && !s->pub.flushing) {
        g_cond_wait(&s->pub.cond, &s->pub.lock);
    }
    if (s->pub.flushing) {
        g_mutex_unlock(&s->pub.lock);
        gst_buffer_unref(j->buf);
        g_free(j);
        return GST_FLOW_FLUSHING;
    }
    j->caps = s->caps;
    s->caps = NULL;
    s->pub.queued += size;
    g_mutex_unlock(&s->pub.lock);
    ccngst_loop_call(s->pub.loop, ccnsink_write_job, j);
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
    ccngst_loop_call_sync(s->pub.loop, ccnsink_close_job, &s->pub);
    ccngst_loop_call_sync(s->pub.loop, ccnsink_confirm_job, &s->pub);
    if (linger == 0) {
        return;
    }
    GST_INFO_OBJECT(s, "stream closed; answering for %u s more", linger);
    gint64 until = g_get_monotonic_time() + (gint64)linger * G_USEC_PER_SEC;
    g_mutex_lock(&s->pub.lock);
    while (!s->pub.flushing && g_cond_wait_until(&s->pub.cond, &s->pub.lock, until)) {
    }
    g_mutex_unlock(&s->pub.lock);
}

static gboolean gst_ccnsink_event(GstBaseSink *bs, GstEvent *ev)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    if (GST_EVENT_TYPE(ev) == GST_EVENT_EOS && s->pub.loop != NULL) {
        linger_after_eos(s);
    }
    return GST_BASE_SINK_CLASS(gst_ccnsink_parent_class)->event(bs, ev);
}

static gboolean gst_ccnsink_unlock(GstBaseSink *bs)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    g_mutex_lock(&s->pub.lock);
    s->pub.flushing = TRUE;
    g_cond_broadcast(&s->pub.cond);
    g_mutex_unlock(&s->pub.lock);
    return TRUE;
}

static gboolean gst_ccnsink_unlock_stop(GstBaseSink *bs)
{
    GstCcnSink *s = GST_CCNSINK(bs);
    g_mutex_lock(&s->pub.lock);
    s->pub.flushing = FALSE;
    g_mutex_unlock(&s->pub.lock);
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
        g_value_take_boxed(v, ccnsink_pub_stats(&s->pub));
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
    g_mutex_clear(&s->pub.lock);
    g_cond_clear(&s->pub.cond);
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
    g_mutex_init(&s->pub.lock);
    g_cond_init(&s->pub.cond);
    gst_base_sink_set_sync(GST_BASE_SINK(s), FALSE);
}
