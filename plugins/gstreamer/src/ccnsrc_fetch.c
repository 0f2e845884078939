/* ccnsrc's network side (ccnsrc_fetch.h). Discovery: the newest version
 * under the location, then one Interest for the newest metadata segment
 * (rightmost child). It says whether the stream is live and where the
 * newest keyframe segment is; no answer within PROBE_MS means a plain
 * stream, played as bytes. */
#include "ccnsrc_fetch.h"

#include "ccnsrc_decide.h"
#include "gstccnsrc.h"
#include "streammeta.h"
#include "streamreader.h"

#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>
#include <ccnx/verifier.h>
#include <ccnx/resolve.h>
#include <ccnx/fetch.h>

#include <string.h>

/* The probe's policy and the plan read from metadata: ccnsrc_decide.h. */
_Static_assert((int)CCNSRC_MODE_AUTO == (int)GST_CCNSRC_MODE_AUTO &&
                   (int)CCNSRC_MODE_LIVE == (int)GST_CCNSRC_MODE_LIVE &&
                   (int)CCNSRC_MODE_ON_DEMAND == (int)GST_CCNSRC_MODE_ON_DEMAND,
               "ccnsrc_mode mirrors GstCcnSrcMode");

GST_DEBUG_CATEGORY_EXTERN(ccnsrc_debug);
#define GST_CAT_DEFAULT ccnsrc_debug

void ccnsrc_item_free(struct ccnsrc_item *it)
{
    if (it->buf != NULL) {
        gst_buffer_unref(it->buf);
    }
    if (it->caps != NULL) {
        gst_caps_unref(it->caps);
    }
    g_free(it->error);
    g_free(it);
}

void ccnsrc_net_init(struct ccnsrc_net *n)
{
    g_mutex_init(&n->lock);
    g_cond_init(&n->cond);
    g_queue_init(&n->items);
    ccnx_name_init(&n->location);
    ccnx_name_init(&n->versioned);
    ccnx_name_init(&n->meta_name);
    ccnx_buf_init(&n->early);
}

static void drop_items(struct ccnsrc_net *n)
{
    struct ccnsrc_item *it;
    while ((it = g_queue_pop_head(&n->items)) != NULL) {
        ccnsrc_item_free(it);
    }
    n->queued_bytes = 0;
}

void ccnsrc_net_clear(struct ccnsrc_net *n)
{
    drop_items(n);
    g_free(n->found.message);
    g_free(n->found.uri);
    ccnx_name_free(&n->location);
    ccnx_name_free(&n->versioned);
    ccnx_name_free(&n->meta_name);
    ccnx_buf_free(&n->early);
    g_cond_clear(&n->cond);
    g_mutex_clear(&n->lock);
}

static gchar *name_uri(const struct ccnx_name *name)
{
    struct ccnx_buf u = CCNX_BUF_INIT;
    ccnx_uri_append_name(&u, name);
    gchar *s = g_strdup(ccnx_buf_cstr(&u));
    ccnx_buf_free(&u);
    return s;
}

/* ---- Handing items to the streaming thread ---- */

/* Pauses the fetches while too much waits to be pushed (under lock). */
static void check_high_water(struct ccnsrc_net *n)
{
    if (n->queued_bytes > CCNSRC_QUEUE_HIGH && !n->paused) {
        n->paused = 1;
        if (n->data != NULL) {
            ccnx_fetch_pause(n->data);
        }
        if (n->meta != NULL) {
            ccnx_fetch_pause(n->meta);
        }
    }
}

/* Wakes the streaming thread only when it sleeps: one wake-up per item
 * would cost a context switch per 4 KB segment. */
static void wake_consumer(struct ccnsrc_net *n)
{
    if (n->waiting) {
        g_cond_broadcast(&n->cond);
    }
}

/* On demand, while the queue first fills: the percent to post now (every
 * tenth, and 100 once full or ended), or -1. Under lock. */
static int buffering_step(struct ccnsrc_net *n, int ended)
{
    if (n->buffering >= 100 || n->found.live) {
        return -1;
    }
    int pct = ended ? 100 : (int)MIN(100u, n->queued_bytes * 100 / CCNSRC_BUFFER_TARGET);
    if (pct < 100 && pct / 10 == n->buffering / 10) {
        return -1;
    }
    n->buffering = pct;
    return pct;
}

/* Outside the lock: a bus handler may change the element's state. */
static void post_buffering(struct ccnsrc_net *n, int pct)
{
    if (pct >= 0) {
        gst_element_post_message(n->element,
                                 gst_message_new_buffering(GST_OBJECT(n->element), pct));
    }
}

static void push_item(struct ccnsrc_net *n, struct ccnsrc_item *it)
{
    g_mutex_lock(&n->lock);
    if (it->buf != NULL) {
        n->queued_bytes += gst_buffer_get_size(it->buf);
    }
    g_queue_push_tail(&n->items, it);
    check_high_water(n);
    wake_consumer(n);
    int pct = buffering_step(n, it->kind == ITEM_EOS || it->kind == ITEM_ERROR);
    g_mutex_unlock(&n->lock);
    post_buffering(n, pct);
}

/* Queues the plain bytes gathered so far. */
static void flush_bytes(struct ccnsrc_net *n)
{
    GstBuffer *b = n->filling;
    if (b == NULL) {
        return;
    }
    n->filling = NULL;
    GST_BUFFER_OFFSET_END(b) = n->byte_offset;
    struct ccnsrc_item *it = g_new0(struct ccnsrc_item, 1);
    it->kind = ITEM_BUFFER;
    it->buf = b;
    push_item(n, it);
}

static void flush_due(void *arg)
{
    struct ccnsrc_net *n = arg;
    n->flush_armed = 0;
    flush_bytes(n);
}

/* Plain bytes: gathered into a buffer of CCNSRC_BYTES_CHUNK, queued when
 * full, or by a zero-delay timer once this pass of the loop is over. */
static void push_bytes(struct ccnsrc_net *n, const uint8_t *p, size_t len)
{
    while (len > 0) {
        if (n->filling == NULL) {
            n->filling = gst_buffer_new_allocate(NULL, CCNSRC_BYTES_CHUNK, NULL);
            gst_buffer_set_size(n->filling, 0);
            GST_BUFFER_OFFSET(n->filling) = n->byte_offset;
        }
        gsize size = gst_buffer_get_size(n->filling);
        size_t k = MIN(len, CCNSRC_BYTES_CHUNK - size);
        gst_buffer_set_size(n->filling, (gssize)(size + k));
        gst_buffer_fill(n->filling, size, p, k);
        n->byte_offset += k;
        p += k;
        len -= k;
        if (size + k == CCNSRC_BYTES_CHUNK) {
            flush_bytes(n);
        }
    }
    if (n->filling != NULL && !n->flush_armed &&
        ccnx_client_schedule(ccngst_loop_client(n->loop), 0, flush_due, n, NULL) == 0) {
        n->flush_armed = 1;
    }
}

static void push_error(struct ccnsrc_net *n, int code, gchar *message)
{
    if (n->ended) {
        g_free(message);
        return;
    }
    n->ended = 1;
    flush_bytes(n);
    struct ccnsrc_item *it = g_new0(struct ccnsrc_item, 1);
    it->kind = ITEM_ERROR;
    it->code = code;
    it->error = message;
    push_item(n, it);
}

static void push_eos(struct ccnsrc_net *n)
{
    if (n->ended) {
        return;
    }
    n->ended = 1;
    flush_bytes(n);
    struct ccnsrc_item *it = g_new0(struct ccnsrc_item, 1);
    it->kind = ITEM_EOS;
    push_item(n, it);
}

void ccnsrc_net_resume(void *arg)
{
    struct ccnsrc_net *n = arg;
    g_mutex_lock(&n->lock);
    int resume = n->paused && n->queued_bytes < CCNSRC_QUEUE_LOW;
    n->paused = resume ? 0 : n->paused;
    g_mutex_unlock(&n->lock);
    if (resume && n->data != NULL) {
        ccnx_fetch_resume(n->data);
    }
    if (resume && n->meta != NULL) {
        ccnx_fetch_resume(n->meta);
    }
}

/* ---- Discovery ---- */

static void found(struct ccnsrc_net *n, int error, gchar *message)
{
    g_mutex_lock(&n->lock);
    n->found.done = 1;
    n->found.error = error;
    n->found.message = message;
    n->found.uri = name_uri(&n->versioned);
    g_cond_broadcast(&n->cond);
    g_mutex_unlock(&n->lock);
}

static void probe_answered(void *arg, int result, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    struct ccnsrc_net *n = arg;
    if (result != 0) {
        found(n, GST_RESOURCE_ERROR_READ,
              g_strdup_printf("the stream's metadata was refused: %s", error));
        return;
    }
    struct ccngst_meta *m = g_new(struct ccngst_meta, 1);
    if (ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) != 0) {
        GST_ELEMENT_WARNING(n->element, STREAM, DECODE, ("Unreadable stream metadata"),
                            ("played as plain bytes"));
    } else {
        struct ccnsrc_plan plan;
        ccnsrc_plan_from_meta(m, (enum ccnsrc_mode)n->mode, &plan);
        n->found.with_meta = 1;
        n->found.live = plan.live;
        n->found.start_segment = plan.start_segment;
        n->found.last_segment = plan.last_segment;
        n->found.duration = plan.duration;
    }
    g_free(m);
    found(n, 0, NULL);
}

static void probe_unanswered(void *arg)
{
    struct ccnsrc_net *n = arg;
    GST_DEBUG_OBJECT(n->element, "no metadata after %d probes: a plain stream", n->probe.attempts);
    found(n, 0, NULL);
}

static int start_one(struct ccnsrc_net *n, const struct ccnx_name *name, ccnx_fetch_data_fn data,
                     ccnx_fetch_done_fn done, struct ccnx_fetch **out);
static void on_data(void *arg, uint64_t segment, const uint8_t *p, size_t len);
static void on_data_done(void *arg, int result, const char *error);

/* Unless the stream turns out to be live, its data from segment 0 is
 * wanted whatever the probe says: fetch it meanwhile. */
static void start_early_data(struct ccnsrc_net *n)
{
    if (n->mode == GST_CCNSRC_MODE_LIVE) {
        return;
    }
    n->found.start_segment = 0;
    n->deciding = 1;
    if (start_one(n, &n->versioned, on_data, on_data_done, &n->data) != 0) {
        n->deciding = 0;
        n->data = NULL;
    }
}

/* The probe for the newest metadata segment (streamprobe.h). */
static void probe_meta(struct ccnsrc_net *n)
{
    int rc = ccngst_meta_name(&n->versioned, &n->meta_name);
    if (rc != 0) { /* no version: cannot carry metadata */
        found(n, 0, NULL);
        return;
    }
    start_early_data(n);
    n->probe = (struct ccngst_probe){.client = ccngst_loop_client(n->loop),
                                     .verifier = n->verifier,
                                     .meta_name = &n->meta_name,
                                     .data = (const struct ccnx_fetch *const *)&n->data,
                                     .answered = probe_answered,
                                     .unanswered = probe_unanswered,
                                     .arg = n};
    rc = ccngst_probe_start(&n->probe);
    if (rc != 0) {
        found(n, GST_RESOURCE_ERROR_FAILED,
              g_strdup_printf("cannot ask for the stream's metadata: %s", ccnx_strerror(rc)));
    }
}

static void resolved(void *arg, int result, const struct ccnx_name *name, const char *error)
{
    struct ccnsrc_net *n = arg;
    n->resolve = NULL;
    if (result < 0) {
        gchar *uri = name_uri(&n->location);
        found(n, GST_RESOURCE_ERROR_NOT_FOUND,
              g_strdup_printf("nothing under %s: %s", uri, error != NULL ? error : "no answer"));
        g_free(uri);
        return;
    }
    ccnx_name_copy(&n->versioned, name);
    if (result == 0) { /* unversioned segments right under the name */
        found(n, 0, NULL);
        return;
    }
    probe_meta(n);
}

void ccnsrc_net_discover(void *arg)
{
    struct ccnsrc_net *n = arg;
    memset(&n->probe, 0, sizeof n->probe); /* none out from an earlier run */
    struct ccnx_client *c = ccngst_loop_client(n->loop);
    if (ccnx_verifier_create(c, &n->verifier) != 0) {
        found(n, GST_RESOURCE_ERROR_FAILED, g_strdup("out of memory"));
        return;
    }
    ccnx_verifier_set_enabled(n->verifier, n->verify);
    struct ccnx_comp last;
    if (ccnx_name_comp(&n->location, n->location.count - 1, &last) == 0 &&
        ccnx_naming_is_version(last.p, last.n)) {
        ccnx_name_copy(&n->versioned, &n->location);
        probe_meta(n);
        return;
    }
    int rc = ccnx_resolve_start(c, &n->location, 0, n->timeout_ms, resolved, n, &n->resolve);
    if (rc != 0) {
        found(n, GST_RESOURCE_ERROR_FAILED,
              g_strdup_printf("cannot look for the stream: %s", ccnx_strerror(rc)));
    }
}

/* ---- Fetching ---- */

static GstBuffer *copy_buffer(const uint8_t *p, size_t size)
{
    GstBuffer *b = gst_buffer_new_allocate(NULL, size, NULL);
    if (b != NULL && size > 0) {
        gst_buffer_fill(b, 0, p, size);
    }
    return b;
}

static void push_buffer(struct ccnsrc_net *n, GstBuffer *b)
{
    struct ccnsrc_item *it = g_new0(struct ccnsrc_item, 1);
    it->kind = ITEM_BUFFER;
    it->buf = b;
    push_item(n, it);
}

static void set_timing(GstBuffer *b, const struct ccngst_buf_rec *r)
{
    GST_BUFFER_PTS(b) = r->pts >= 0 ? (GstClockTime)r->pts : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DTS(b) = r->dts >= 0 ? (GstClockTime)r->dts : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION(b) = r->duration >= 0 ? (GstClockTime)r->duration : GST_CLOCK_TIME_NONE;
    GST_BUFFER_OFFSET(b) = r->offset;
    GST_BUFFER_OFFSET_END(b) = r->offset + r->size;
    const guint keep = GST_BUFFER_FLAG_DELTA_UNIT | GST_BUFFER_FLAG_HEADER | GST_BUFFER_FLAG_GAP |
                       GST_BUFFER_FLAG_DROPPABLE | GST_BUFFER_FLAG_MARKER |
                       GST_BUFFER_FLAG_NON_DROPPABLE;
    GST_BUFFER_FLAGS(b) = r->flags & keep;
}

/* A viewer that joins mid-stream has missed the container's headers at
 * the start; caps carry them as "streamheader" (matroskamux, oggmux,
 * flvmux), so they go first, as multifdsink gives them to a new client. */
static void push_stream_headers(struct ccnsrc_net *n, GstCaps *caps)
{
    const GstStructure *st = gst_caps_get_size(caps) > 0 ? gst_caps_get_structure(caps, 0) : NULL;
    const GValue *sh = st != NULL ? gst_structure_get_value(st, "streamheader") : NULL;
    if (sh == NULL || !GST_VALUE_HOLDS_ARRAY(sh)) {
        return;
    }
    for (guint i = 0; i < gst_value_array_get_size(sh); i++) {
        const GValue *v = gst_value_array_get_value(sh, i);
        GstBuffer *hb = G_VALUE_HOLDS(v, GST_TYPE_BUFFER) ? gst_value_get_buffer(v) : NULL;
        if (hb != NULL) {
            GstBuffer *copy = gst_buffer_copy(hb);
            GST_BUFFER_FLAG_SET(copy, GST_BUFFER_FLAG_HEADER);
            GST_BUFFER_PTS(copy) = GST_BUFFER_DTS(copy) = GST_CLOCK_TIME_NONE;
            push_buffer(n, copy);
        }
    }
}

/* Whole buffers the reader can give now. */
static void drain_reader(struct ccnsrc_net *n)
{
    struct ccngst_out o;
    while (ccngst_reader_next(n->reader, &o)) {
        if (o.caps != NULL) {
            GstCaps *caps = gst_caps_from_string(o.caps);
            if (caps == NULL) {
                push_error(n, GST_RESOURCE_ERROR_READ,
                           g_strdup_printf("the stream's caps do not parse: %s", o.caps));
                return;
            }
            struct ccnsrc_item *it = g_new0(struct ccnsrc_item, 1);
            it->kind = ITEM_CAPS;
            it->caps = gst_caps_ref(caps);
            push_item(n, it);
            if (!n->headers_sent && n->found.start_segment > 0) {
                push_stream_headers(n, caps);
            }
            n->headers_sent = 1;
            gst_caps_unref(caps);
        }
        GstBuffer *b = copy_buffer(o.data, o.size);
        set_timing(b, &o.rec);
        push_buffer(n, b);
    }
}

static void maybe_end(struct ccnsrc_net *n)
{
    if (n->deciding) {
        return;
    }
    if (n->data_done && (n->meta == NULL || n->meta_done)) {
        push_eos(n);
    }
}

static void on_data(void *arg, uint64_t segment, const uint8_t *p, size_t len)
{
    struct ccnsrc_net *n = arg;
    GST_LOG_OBJECT(n->element, "data segment %" G_GUINT64_FORMAT ": %zu bytes", (guint64)segment,
                   len);
    if (n->ended) {
        return;
    }
    if (segment == 0 && n->block == 0) {
        n->block = len;
    }
    if (n->deciding) {
        if (ccnx_buf_append(&n->early, p, len) != 0) {
            push_error(n, GST_RESOURCE_ERROR_FAILED, g_strdup("out of memory"));
        } else if (n->early.len > CCNSRC_EARLY_MAX && !n->early_paused) {
            n->early_paused = 1;
            ccnx_fetch_pause(n->data);
        }
        ccngst_probe_progress(&n->probe);
        return;
    }
    if (n->reader == NULL) {
        size_t drop = (size_t)MIN((guint64)len, n->skip);
        n->skip = 0;
        push_bytes(n, p + drop, len - drop);
        return;
    }
    if (ccngst_reader_data(n->reader, p, len) != 0) {
        push_error(n, GST_RESOURCE_ERROR_FAILED, g_strdup("out of memory"));
        return;
    }
    drain_reader(n);
}

static void on_meta(void *arg, uint64_t segment, const uint8_t *p, size_t len)
{
    struct ccnsrc_net *n = arg;
    char err[200];
    GST_LOG_OBJECT(n->element, "metadata segment %" G_GUINT64_FORMAT ": %zu bytes",
                   (guint64)segment, len);
    if (n->ended) {
        return;
    }
    if (ccngst_reader_meta(n->reader, p, len, err, sizeof err) != 0) {
        push_error(n, GST_RESOURCE_ERROR_READ,
                   g_strdup_printf("bad metadata in segment %" G_GUINT64_FORMAT ": %s",
                                   (guint64)segment, err));
        return;
    }
    drain_reader(n);
}

static void log_fetch(struct ccnsrc_net *n, const char *which, struct ccnx_fetch *f)
{
    if (f == NULL) {
        return;
    }
    const struct ccnx_fetch_stats *st = ccnx_fetch_stats(f);
    GST_WARNING_OBJECT(
        n->element,
        "%s: %" G_GUINT64_FORMAT " segments, %" G_GUINT64_FORMAT " interests, %" G_GUINT64_FORMAT
        " retransmissions, final %" G_GINT64_FORMAT ", window %.1f, rto %.0f ms",
        which, (guint64)st->segments, (guint64)st->interests, (guint64)st->retransmissions,
        (gint64)st->final_segment, st->cwnd, st->rto_ms);
}

static void fetch_failed(struct ccnsrc_net *n, const char *what, const char *error)
{
    log_fetch(n, "data", n->data);
    log_fetch(n, "metadata", n->meta);
    push_error(n, GST_RESOURCE_ERROR_READ, g_strdup_printf("%s: %s", what, error));
}

static void on_data_done(void *arg, int result, const char *error)
{
    struct ccnsrc_net *n = arg;
    if (result != 0) {
        fetch_failed(n, "the stream stopped", error);
        return;
    }
    n->data_done = 1;
    if (n->total_size == 0 && n->data != NULL) {
        n->total_size = n->byte_offset + n->early.len;
    }
    ccngst_probe_data_ended(&n->probe);
    maybe_end(n);
}

static void on_meta_done(void *arg, int result, const char *error)
{
    struct ccnsrc_net *n = arg;
    if (result != 0) {
        fetch_failed(n, "the stream stopped (its metadata)", error);
        return;
    }
    n->meta_done = 1;
    maybe_end(n);
}

static int start_one(struct ccnsrc_net *n, const struct ccnx_name *name, ccnx_fetch_data_fn data,
                     ccnx_fetch_done_fn done, struct ccnx_fetch **out)
{
    struct ccnx_fetch_params p;
    ccnx_fetch_params_init(&p);
    p.name = name;
    p.resolve = 0;
    p.timeout_ms = n->timeout_ms;
    p.start_segment = n->found.start_segment;
    p.follows_live_edge = n->found.live; /* few Interests ahead of the newest frame */
    p.verifier = n->verifier;
    p.on_data = data;
    p.on_done = done;
    p.arg = n;
    return ccnx_fetch_start(ccngst_loop_client(n->loop), &p, out);
}

/* The probe has decided: what the early data fetch brought goes where it
 * belongs, and the fetch goes on (or starts again at a live join point). */
static int settle_early(struct ccnsrc_net *n)
{
    n->deciding = 0;
    int rc = 0;
    if (n->found.with_meta && n->found.live) {
        ccnx_fetch_destroy(n->data);
        n->data = NULL;
        n->data_done = 0;
    } else if (n->found.with_meta) {
        n->reader = ccngst_reader_new();
        rc = n->reader == NULL ? CCNX_E_NOMEM
                               : ccngst_reader_data(n->reader, n->early.data, n->early.len);
        rc = rc == 0 ? start_one(n, &n->meta_name, on_meta, on_meta_done, &n->meta) : rc;
    } else {
        for (size_t off = 0; off < n->early.len; off += CCNSRC_BYTES_CHUNK) {
            push_bytes(n, n->early.data + off, MIN(CCNSRC_BYTES_CHUNK, n->early.len - off));
        }
    }
    ccnx_buf_free(&n->early);
    ccnx_buf_init(&n->early);
    if (n->early_paused && n->data != NULL) {
        n->early_paused = 0;
        ccnx_fetch_resume(n->data);
    }
    return rc;
}

void ccnsrc_net_start_fetch(void *arg)
{
    struct ccnsrc_net *n = arg;
    int rc = 0;
    if (n->deciding) {
        rc = settle_early(n);
        if (rc == 0 && n->data != NULL) {
            maybe_end(n);
            return;
        }
    }
    if (rc != 0) {
        push_error(n, GST_RESOURCE_ERROR_FAILED,
                   g_strdup_printf("cannot start fetching: %s", ccnx_strerror(rc)));
        return;
    }
    if (n->found.with_meta) {
        n->reader = ccngst_reader_new();
        rc = n->reader == NULL ? CCNX_E_NOMEM
                               : start_one(n, &n->meta_name, on_meta, on_meta_done, &n->meta);
    }
    rc = rc == 0 ? start_one(n, &n->versioned, on_data, on_data_done, &n->data) : rc;
    if (rc != 0) {
        push_error(n, GST_RESOURCE_ERROR_FAILED,
                   g_strdup_printf("cannot start fetching: %s", ccnx_strerror(rc)));
    }
}

static void drop_filling(struct ccnsrc_net *n)
{
    if (n->filling != NULL) {
        gst_buffer_unref(n->filling);
        n->filling = NULL;
    }
}

/* Stops the fetches and forgets what they brought and did not push. */
static void stop_fetches(struct ccnsrc_net *n)
{
    ccnx_fetch_destroy(n->data);
    ccnx_fetch_destroy(n->meta);
    n->data = n->meta = NULL;
    drop_filling(n);
    ccngst_reader_free(n->reader);
    n->reader = NULL;
}

void ccnsrc_net_restart(struct ccnsrc_net *n)
{
    stop_fetches(n);
    n->data_done = n->meta_done = n->ended = 0;
    g_mutex_lock(&n->lock);
    drop_items(n);
    n->paused = 0;
    g_mutex_unlock(&n->lock);
    ccnsrc_net_start_fetch(n);
}

void ccnsrc_net_stop(void *arg)
{
    struct ccnsrc_net *n = arg;
    if (n->resolve != NULL) {
        ccnx_resolve_cancel(n->resolve);
        n->resolve = NULL;
    }
    stop_fetches(n);
    n->deciding = n->early_paused = 0;
    ccnx_buf_free(&n->early);
    ccnx_buf_init(&n->early);
    ccnx_verifier_destroy(n->verifier);
    n->verifier = NULL;
}

void ccnsrc_net_drop_items(struct ccnsrc_net *n)
{
    g_mutex_lock(&n->lock);
    drop_items(n);
    g_mutex_unlock(&n->lock);
}

void ccnsrc_net_stats(void *arg)
{
    struct ccnsrc_stats_req *r = arg;
    struct ccnx_fetch_stats z = {0};
    const struct ccnx_fetch_stats *st = r->net->data != NULL ? ccnx_fetch_stats(r->net->data) : &z;
    r->out = gst_structure_new(
        "ccnsrc-stats", "segments", G_TYPE_UINT64, st->segments, "bytes", G_TYPE_UINT64, st->bytes,
        "interests", G_TYPE_UINT64, st->interests, "retransmissions", G_TYPE_UINT64,
        st->retransmissions, "timeouts", G_TYPE_UINT64, st->timeouts, "rtt-ms", G_TYPE_DOUBLE,
        st->srtt_ms, "rto-ms", G_TYPE_DOUBLE, st->rto_ms, "window", G_TYPE_DOUBLE, st->cwnd, NULL);
}
