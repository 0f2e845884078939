/* ccnsrc (gstccnsrc.h): the element side. start() waits for discovery
 * (ccnsrc_fetch.c) on the client thread and configures the element from
 * it; create() takes the items the client thread queues. */
#include "gstccnsrc.h"

#include "ccnsrc_fetch.h"

#include <ccnx/error.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <string.h>

/**
 * SECTION:element-ccnsrc
 * @title: ccnsrc
 * @see_also: ccnsink
 *
 * Plays what is published under a CCNx name: a stream that ccnsink
 * publishes, with its buffers, caps and timestamps as they were sent, or
 * the bytes of anything ccnputfile or ccnseqwriter publish (then like
 * filesrc, with seeking in bytes). A live stream is joined at its newest
 * keyframe; one that has ended plays from the start. Every segment's
 * signature is verified unless #GstCcnSrc:verify is off. The element talks
 * to the local ccnd, found as the CCNx tools find it.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 ccnsrc location=ccnx:/video ! matroskademux ! vp8dec ! autovideosink
 * ]| Plays a live VP8/WebM stream published by ccnsink.
 * |[
 * gst-launch-1.0 playbin uri=ccnx:/movies/clip.webm
 * ]| Plays a file published by ccnputfile (ccnsrc handles the ccnx: scheme).
 */

GST_DEBUG_CATEGORY(ccnsrc_debug);
#define GST_CAT_DEFAULT ccnsrc_debug

#define DEFAULT_VERIFY  TRUE
#define DEFAULT_TIMEOUT 10
#define DEFAULT_MODE    GST_CCNSRC_MODE_AUTO
#define DEFAULT_LATENCY 200 /* ms, live mode */

enum {
    PROP_0,
    PROP_LOCATION,
    PROP_VERIFY,
    PROP_TIMEOUT,
    PROP_MODE,
    PROP_LATENCY,
    PROP_STATS,
};

struct _GstCcnSrc {
    GstPushSrc parent;
    /* properties, under the object lock */
    gchar *location;
    gboolean verify;
    guint timeout;
    GstCcnSrcMode mode;
    guint latency;

    struct ccnsrc_net net;
    gboolean live;
    gboolean pushed_any; /* a buffer went out since start or the last seek */
    gboolean have_first;
    GstClockTime first_pts, base_rt; /* live: sender time -> our running time */
};

static void gst_ccnsrc_uri_handler_init(gpointer g_iface, gpointer iface_data);

G_DEFINE_TYPE_WITH_CODE(GstCcnSrc, gst_ccnsrc, GST_TYPE_PUSH_SRC,
                        G_IMPLEMENT_INTERFACE(GST_TYPE_URI_HANDLER, gst_ccnsrc_uri_handler_init))
GST_ELEMENT_REGISTER_DEFINE(ccnsrc, "ccnsrc", GST_RANK_PRIMARY, GST_TYPE_CCNSRC);

static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

GType gst_ccnsrc_mode_get_type(void)
{
    static GType type = 0;
    static const GEnumValue values[] = {
        {GST_CCNSRC_MODE_AUTO, "Live when the stream says so, else on demand", "auto"},
        {GST_CCNSRC_MODE_LIVE, "Join at the newest keyframe and keep up", "live"},
        {GST_CCNSRC_MODE_ON_DEMAND, "From the start", "on-demand"},
        {0, NULL, NULL},
    };
    if (g_once_init_enter(&type)) {
        GType t = g_enum_register_static("GstCcnSrcMode", values);
        g_once_init_leave(&type, t);
    }
    return type;
}

/* ---- Start and stop ---- */

/* The location, or the element's name when that is a ccnx: URI and no
 * location was set (gst-launch-1.0 ccnsrc name=ccnx:/video). */
static gchar *effective_location(GstCcnSrc *s)
{
    GST_OBJECT_LOCK(s);
    gchar *loc = g_strdup(s->location);
    if (loc == NULL && GST_OBJECT_NAME(s) != NULL &&
        g_str_has_prefix(GST_OBJECT_NAME(s), "ccnx:/")) {
        loc = g_strdup(GST_OBJECT_NAME(s));
    }
    GST_OBJECT_UNLOCK(s);
    return loc;
}

static gboolean wait_found(GstCcnSrc *s)
{
    struct ccnsrc_net *n = &s->net;
    g_mutex_lock(&n->lock);
    while (!n->found.done && !n->flushing) {
        g_cond_wait(&n->cond, &n->lock);
    }
    gboolean ok = n->found.done;
    g_mutex_unlock(&n->lock);
    return ok;
}

static gboolean configure(GstCcnSrc *s)
{
    struct ccnsrc_found *f = &s->net.found;
    if (f->error != 0) {
        GST_ELEMENT_ERROR(s, RESOURCE, NOT_FOUND, ("%s", f->message),
                          ("is a producer running, and is its prefix routed to this ccnd?"));
        return FALSE;
    }
    s->live = f->with_meta && f->live;
    gst_base_src_set_live(GST_BASE_SRC(s), s->live);
    gst_base_src_set_format(GST_BASE_SRC(s), f->with_meta ? GST_FORMAT_TIME : GST_FORMAT_BYTES);
    GST_INFO_OBJECT(s, "playing %s: %s, %s, from segment %" G_GUINT64_FORMAT, f->uri,
                    f->with_meta ? "buffers and timing restored" : "plain bytes",
                    s->live ? "live" : "on demand", f->start_segment);
    ccngst_loop_call(s->net.loop, ccnsrc_net_start_fetch, &s->net);
    return TRUE;
}

static gboolean gst_ccnsrc_start(GstBaseSrc *bs)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    struct ccnsrc_net *n = &s->net;
    gchar *loc = effective_location(s);
    ccnx_name_free(&n->location);
    ccnx_name_init(&n->location);
    if (loc == NULL || ccnx_uri_parse_str(&n->location, loc) != 0 || n->location.count == 0) {
        GST_ELEMENT_ERROR(s, RESOURCE, SETTINGS,
                          ("location \"%s\" is not a ccnx: URI with at least one component",
                           loc != NULL ? loc : ""),
                          ("for example location=ccnx:/video"));
        g_free(loc);
        return FALSE;
    }
    g_free(loc);
    char *err = NULL;
    n->loop = ccngst_loop_start("ccnsrc", &err);
    if (n->loop == NULL) {
        GST_ELEMENT_ERROR(s, RESOURCE, OPEN_READ, ("Cannot reach ccnd: %s", err),
                          ("set CCN_LOCAL_SOCKNAME / CCN_LOCAL_PORT if ccnd runs elsewhere"));
        g_free(err);
        return FALSE;
    }
    GST_OBJECT_LOCK(s);
    n->verify = s->verify;
    n->timeout_ms = (int)MIN(s->timeout, 3600u) * 1000;
    n->mode = s->mode;
    GST_OBJECT_UNLOCK(s);
    n->element = GST_ELEMENT(s);
    memset(&n->found, 0, sizeof n->found);
    n->data_done = n->meta_done = n->ended = n->paused = n->headers_sent = 0;
    n->byte_offset = n->skip = n->total_size = 0;
    n->buffering = -1;
    n->filling = NULL;
    n->flush_armed = 0;
    n->block = 0;
    n->flushing = 0;
    s->have_first = FALSE;
    s->pushed_any = FALSE;
    ccngst_loop_call(n->loop, ccnsrc_net_discover, n);
    return wait_found(s) && configure(s);
}

static gboolean gst_ccnsrc_stop(GstBaseSrc *bs)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    struct ccnsrc_net *n = &s->net;
    if (n->loop != NULL) {
        ccngst_loop_stop(n->loop, ccnsrc_net_stop, n);
        n->loop = NULL;
    }
    ccnsrc_net_drop_items(n);
    g_mutex_lock(&n->lock);
    g_free(n->found.message);
    g_free(n->found.uri);
    memset(&n->found, 0, sizeof n->found);
    g_mutex_unlock(&n->lock);
    return TRUE;
}

static gboolean gst_ccnsrc_unlock(GstBaseSrc *bs)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    g_mutex_lock(&s->net.lock);
    s->net.flushing = 1;
    g_cond_broadcast(&s->net.cond);
    g_mutex_unlock(&s->net.lock);
    return TRUE;
}

static gboolean gst_ccnsrc_unlock_stop(GstBaseSrc *bs)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    g_mutex_lock(&s->net.lock);
    s->net.flushing = 0;
    g_mutex_unlock(&s->net.lock);
    return TRUE;
}

/* On demand: TIME with metadata, BYTES without. A live stream is not. */
static gboolean gst_ccnsrc_is_seekable(GstBaseSrc *bs)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    return s->net.loop != NULL && s->net.found.done && !s->live;
}

static gboolean gst_ccnsrc_do_seek(GstBaseSrc *bs, GstSegment *segment)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    struct ccnsrc_net *n = &s->net;
    if (n->loop == NULL || !n->found.done) {
        return TRUE; /* the first segment, before start: nothing to move */
    }
    guint64 pos = segment->start;
    if (pos == 0 && !s->pushed_any) {
        return TRUE; /* the fetches already start there */
    }
    struct ccnsrc_seek k = {n, segment->format, pos, 0, 0, 0, 0};
    ccngst_loop_call(n->loop, ccnsrc_net_seek, &k);
    gint64 until = g_get_monotonic_time() + (gint64)(n->timeout_ms + 1000) * 1000;
    g_mutex_lock(&n->lock);
    while (!k.done && g_cond_wait_until(&n->cond, &n->lock, until)) {
    }
    gboolean done = k.done;
    g_mutex_unlock(&n->lock);
    if (!done) { /* the client thread still holds k: wait for it to let go */
        g_mutex_lock(&n->lock);
        while (!k.done) {
            g_cond_wait(&n->cond, &n->lock);
        }
        g_mutex_unlock(&n->lock);
    }
    s->have_first = FALSE;
    s->pushed_any = FALSE;
    GST_DEBUG_OBJECT(s, "seek to %" G_GUINT64_FORMAT " (%s): %s", pos,
                     gst_format_get_name(segment->format), k.ok ? "done" : "refused");
    return k.ok;
}

/* A plain stream's size, once its last segment was seen. */
static gboolean gst_ccnsrc_get_size(GstBaseSrc *bs, guint64 *size)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    if (s->net.found.with_meta || s->net.total_size == 0) {
        return FALSE;
    }
    *size = s->net.total_size;
    return TRUE;
}

static gboolean gst_ccnsrc_query(GstBaseSrc *bs, GstQuery *q)
{
    GstCcnSrc *s = GST_CCNSRC(bs);
    if (GST_QUERY_TYPE(q) == GST_QUERY_DURATION && s->net.found.with_meta && !s->live) {
        GstFormat f;
        gst_query_parse_duration(q, &f, NULL);
        if (f == GST_FORMAT_TIME && s->net.found.duration > 0) {
            gst_query_set_duration(q, GST_FORMAT_TIME, (gint64)s->net.found.duration);
            return TRUE;
        }
    }
    if (GST_QUERY_TYPE(q) == GST_QUERY_LATENCY && s->live) {
        GST_OBJECT_LOCK(s);
        GstClockTime l = (GstClockTime)s->latency * GST_MSECOND;
        GST_OBJECT_UNLOCK(s);
        gst_query_set_latency(q, TRUE, l, GST_CLOCK_TIME_NONE);
        return TRUE;
    }
    return GST_BASE_SRC_CLASS(gst_ccnsrc_parent_class)->query(bs, q);
}

/* GstBaseSrc decides whether to preroll before start() runs, and start()
 * is where ccnsrc learns whether the stream is live. */
static GstStateChangeReturn gst_ccnsrc_change_state(GstElement *e, GstStateChange t)
{
    GstCcnSrc *s = GST_CCNSRC(e);
    GstStateChangeReturn r = GST_ELEMENT_CLASS(gst_ccnsrc_parent_class)->change_state(e, t);
    if (r == GST_STATE_CHANGE_SUCCESS && s->live &&
        (t == GST_STATE_CHANGE_READY_TO_PAUSED || t == GST_STATE_CHANGE_PLAYING_TO_PAUSED)) {
        r = GST_STATE_CHANGE_NO_PREROLL;
    }
    return r;
}

/* ---- Streaming ---- */

/* Live: the sender's times shifted so that the first buffer plays at the
 * running time it arrived plus the latency we report. */
static void retime_live(GstCcnSrc *s, GstBuffer *b)
{
    if (!GST_BUFFER_PTS_IS_VALID(b)) {
        return;
    }
    if (!s->have_first) {
        GstClock *clock = gst_element_get_clock(GST_ELEMENT(s));
        GstClockTime now = clock != NULL ? gst_clock_get_time(clock) : 0;
        GstClockTime base = gst_element_get_base_time(GST_ELEMENT(s));
        s->base_rt = clock != NULL && now > base ? now - base : 0;
        if (clock != NULL) {
            gst_object_unref(clock);
        }
        s->first_pts = GST_BUFFER_PTS(b);
        s->have_first = TRUE;
    }
    GstClockTime shift_to = s->base_rt, shift_from = s->first_pts;
    GST_BUFFER_PTS(b) =
        GST_BUFFER_PTS(b) + shift_to > shift_from ? GST_BUFFER_PTS(b) + shift_to - shift_from : 0;
    if (GST_BUFFER_DTS_IS_VALID(b)) {
        GST_BUFFER_DTS(b) = GST_BUFFER_DTS(b) + shift_to > shift_from
                                ? GST_BUFFER_DTS(b) + shift_to - shift_from
                                : 0;
    }
}

static struct ccnsrc_item *next_item(GstCcnSrc *s)
{
    struct ccnsrc_net *n = &s->net;
    g_mutex_lock(&n->lock);
    while (g_queue_is_empty(&n->items) && !n->flushing) {
        n->waiting = 1;
        g_cond_wait(&n->cond, &n->lock);
        n->waiting = 0;
    }
    struct ccnsrc_item *it = n->flushing ? NULL : g_queue_pop_head(&n->items);
    if (it != NULL && it->buf != NULL) {
        n->queued_bytes -= gst_buffer_get_size(it->buf);
    }
    int resume = n->paused && n->queued_bytes < CCNSRC_QUEUE_LOW;
    g_mutex_unlock(&n->lock);
    if (resume) {
        ccngst_loop_call(n->loop, ccnsrc_net_resume, n);
    }
    return it;
}

static GstFlowReturn gst_ccnsrc_create(GstPushSrc *ps, GstBuffer **out)
{
    GstCcnSrc *s = GST_CCNSRC(ps);
    for (;;) {
        struct ccnsrc_item *it = next_item(s);
        if (it == NULL) {
            return GST_FLOW_FLUSHING;
        }
        switch (it->kind) {
        case ITEM_CAPS:
            gst_base_src_set_caps(GST_BASE_SRC(s), it->caps);
            ccnsrc_item_free(it);
            continue;
        case ITEM_BUFFER:
            *out = it->buf;
            it->buf = NULL;
            ccnsrc_item_free(it);
            s->pushed_any = TRUE;
            if (s->live) {
                retime_live(s, *out);
            }
            return GST_FLOW_OK;
        case ITEM_EOS:
            ccnsrc_item_free(it);
            return GST_FLOW_EOS;
        case ITEM_ERROR:
        default:
            GST_ELEMENT_ERROR(s, RESOURCE, READ, ("%s", it->error), (NULL));
            ccnsrc_item_free(it);
            return GST_FLOW_ERROR;
        }
    }
}

/* ---- URI handler ---- */

static GstURIType gst_ccnsrc_uri_get_type(GType type)
{
    (void)type;
    return GST_URI_SRC;
}

static const gchar *const *gst_ccnsrc_uri_get_protocols(GType type)
{
    (void)type;
    static const gchar *protocols[] = {"ccnx", NULL};
    return protocols;
}

static gchar *gst_ccnsrc_uri_get_uri(GstURIHandler *h)
{
    GstCcnSrc *s = GST_CCNSRC(h);
    GST_OBJECT_LOCK(s);
    gchar *uri = g_strdup(s->location);
    GST_OBJECT_UNLOCK(s);
    return uri;
}

static gboolean gst_ccnsrc_uri_set_uri(GstURIHandler *h, const gchar *uri, GError **error)
{
    GstCcnSrc *s = GST_CCNSRC(h);
    struct ccnx_name n;
    ccnx_name_init(&n);
    int rc = ccnx_uri_parse_str(&n, uri);
    ccnx_name_free(&n);
    if (rc != 0) {
        g_set_error(error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI, "%s is not a ccnx: URI", uri);
        return FALSE;
    }
    GST_OBJECT_LOCK(s);
    g_free(s->location);
    s->location = g_strdup(uri);
    GST_OBJECT_UNLOCK(s);
    return TRUE;
}

static void gst_ccnsrc_uri_handler_init(gpointer g_iface, gpointer iface_data)
{
    (void)iface_data;
    GstURIHandlerInterface *iface = g_iface;
    iface->get_type = gst_ccnsrc_uri_get_type;
    iface->get_protocols = gst_ccnsrc_uri_get_protocols;
    iface->get_uri = gst_ccnsrc_uri_get_uri;
    iface->set_uri = gst_ccnsrc_uri_set_uri;
}

/* ---- Properties ---- */

static GstStructure *get_stats(GstCcnSrc *s)
{
    struct ccnsrc_stats_req r = {&s->net, NULL};
    if (s->net.loop != NULL) {
        ccngst_loop_call_sync(s->net.loop, ccnsrc_net_stats, &r);
    } else {
        struct ccnsrc_net idle = {0};
        r.net = &idle;
        ccnsrc_net_stats(&r);
    }
    return r.out;
}

static void gst_ccnsrc_set_property(GObject *obj, guint id, const GValue *v, GParamSpec *ps)
{
    GstCcnSrc *s = GST_CCNSRC(obj);
    GST_OBJECT_LOCK(s);
    switch (id) {
    case PROP_LOCATION: /* checked by start(), which says what is wrong */
        g_free(s->location);
        s->location = g_value_dup_string(v);
        break;
    case PROP_VERIFY:
        s->verify = g_value_get_boolean(v);
        break;
    case PROP_TIMEOUT:
        s->timeout = g_value_get_uint(v);
        break;
    case PROP_MODE:
        s->mode = g_value_get_enum(v);
        break;
    case PROP_LATENCY:
        s->latency = g_value_get_uint(v);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    }
    GST_OBJECT_UNLOCK(s);
}

static void gst_ccnsrc_get_property(GObject *obj, guint id, GValue *v, GParamSpec *ps)
{
    GstCcnSrc *s = GST_CCNSRC(obj);
    if (id == PROP_STATS) {
        g_value_take_boxed(v, get_stats(s));
        return;
    }
    GST_OBJECT_LOCK(s);
    switch (id) {
    case PROP_LOCATION:
        g_value_set_string(v, s->location);
        break;
    case PROP_VERIFY:
        g_value_set_boolean(v, s->verify);
        break;
    case PROP_TIMEOUT:
        g_value_set_uint(v, s->timeout);
        break;
    case PROP_MODE:
        g_value_set_enum(v, s->mode);
        break;
    case PROP_LATENCY:
        g_value_set_uint(v, s->latency);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(obj, id, ps);
    }
    GST_OBJECT_UNLOCK(s);
}

static void gst_ccnsrc_finalize(GObject *obj)
{
    GstCcnSrc *s = GST_CCNSRC(obj);
    g_free(s->location);
    ccnsrc_net_clear(&s->net);
    G_OBJECT_CLASS(gst_ccnsrc_parent_class)->finalize(obj);
}

static void install_properties(GObjectClass *oc)
{
    const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY;
    g_object_class_install_property(
        oc, PROP_LOCATION,
        g_param_spec_string("location", "Location",
                            "ccnx: URI of the stream (unset: the element's name, when that is a "
                            "ccnx: URI); the newest version is found unless one is given",
                            NULL, rw));
    g_object_class_install_property(
        oc, PROP_VERIFY,
        g_param_spec_boolean("verify", "Verify",
                             "Check every segment's signature (false: accept unchecked)",
                             DEFAULT_VERIFY, rw));
    g_object_class_install_property(
        oc, PROP_TIMEOUT,
        g_param_spec_uint("timeout", "Timeout",
                          "Seconds without an answer before \"no content\" becomes an error", 1,
                          3600, DEFAULT_TIMEOUT, rw));
    g_object_class_install_property(
        oc, PROP_MODE,
        g_param_spec_enum("mode", "Mode",
                          "live: join at the newest keyframe; on-demand: from the start; auto: "
                          "as the stream's metadata says",
                          gst_ccnsrc_mode_get_type(), DEFAULT_MODE, rw));
    g_object_class_install_property(
        oc, PROP_LATENCY,
        g_param_spec_uint("latency", "Latency",
                          "Live mode: milliseconds of delay reported to the pipeline, the room "
                          "buffers have to arrive before they are due",
                          0, 60000, DEFAULT_LATENCY, rw));
    g_object_class_install_property(
        oc, PROP_STATS,
        g_param_spec_boxed("stats", "Statistics",
                           "segments, bytes, interests, retransmissions, timeouts, rtt-ms, "
                           "rto-ms, window",
                           GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void gst_ccnsrc_class_init(GstCcnSrcClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GstElementClass *ec = GST_ELEMENT_CLASS(klass);
    GstBaseSrcClass *bc = GST_BASE_SRC_CLASS(klass);
    GstPushSrcClass *pc = GST_PUSH_SRC_CLASS(klass);
    oc->set_property = gst_ccnsrc_set_property;
    oc->get_property = gst_ccnsrc_get_property;
    oc->finalize = gst_ccnsrc_finalize;
    install_properties(oc);
    gst_element_class_add_static_pad_template(ec, &src_template);
    ec->change_state = GST_DEBUG_FUNCPTR(gst_ccnsrc_change_state);
    gst_element_class_set_static_metadata(
        ec, "CCNx source", "Source/Network",
        "Plays a stream published under a CCNx name (by ccnsink, ccnputfile or ccnseqwriter)",
        "CCNx suite developers");
    bc->start = GST_DEBUG_FUNCPTR(gst_ccnsrc_start);
    bc->stop = GST_DEBUG_FUNCPTR(gst_ccnsrc_stop);
    bc->unlock = GST_DEBUG_FUNCPTR(gst_ccnsrc_unlock);
    bc->unlock_stop = GST_DEBUG_FUNCPTR(gst_ccnsrc_unlock_stop);
    bc->is_seekable = GST_DEBUG_FUNCPTR(gst_ccnsrc_is_seekable);
    bc->do_seek = GST_DEBUG_FUNCPTR(gst_ccnsrc_do_seek);
    bc->get_size = GST_DEBUG_FUNCPTR(gst_ccnsrc_get_size);
    bc->query = GST_DEBUG_FUNCPTR(gst_ccnsrc_query);
    pc->create = GST_DEBUG_FUNCPTR(gst_ccnsrc_create);
    GST_DEBUG_CATEGORY_INIT(ccnsrc_debug, "ccnsrc", 0, "CCNx source");
    gst_type_mark_as_plugin_api(gst_ccnsrc_mode_get_type(), 0);
}

static void gst_ccnsrc_init(GstCcnSrc *s)
{
    s->verify = DEFAULT_VERIFY;
    s->timeout = DEFAULT_TIMEOUT;
    s->mode = DEFAULT_MODE;
    s->latency = DEFAULT_LATENCY;
    ccnsrc_net_init(&s->net);
    gst_base_src_set_format(GST_BASE_SRC(s), GST_FORMAT_BYTES);
}
