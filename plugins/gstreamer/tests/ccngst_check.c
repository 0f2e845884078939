/* A test helper for the GStreamer elements: runs pipelines that end in
 * "appsink name=out" and reports or compares what reached the appsink.
 *
 *   ccngst_check compare REF_PIPELINE TEST_PIPELINE
 *       runs both; exit 0 when the test pipeline's buffers equal the
 *       reference's: count, caps, bytes, PTS, DTS, duration, delta flag
 *   ccngst_check count PIPELINE
 *       prints "buffers N errors E warnings W first-ms F" (F: time from
 *       PLAYING to the first buffer) and exits 0 on EOS without error
 *   ccngst_check seek PIPELINE FORMAT POSITION
 *       prerolls, seeks (flushing, to a keyframe) in FORMAT "time" (POSITION
 *       in ns) or "bytes", and prints the first buffer after the seek:
 *       "pts P offset O head H" (H: its first 8 bytes in hex), then the
 *       duration the pipeline reports, "duration D" (-1 when unknown)
 *
 * A pipeline that neither ends nor fails within CCNGST_CHECK_TIMEOUT
 * seconds (default 60) is a failure. */
#include <gst/app/gstappsink.h>
#include <gst/gst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seen {
    GPtrArray *samples; /* GstSample, when kept */
    guint count;
    int errors, warnings, eos;
    gint64 start_us, first_us;
    gchar *error_text;
};

static void seen_free(struct seen *s)
{
    g_ptr_array_free(s->samples, TRUE);
    g_free(s->error_text);
}

static void watch_bus(GstElement *pipe, struct seen *s, GstAppSink *out, int keep)
{
    GstBus *bus = gst_element_get_bus(pipe);
    const char *t = getenv("CCNGST_CHECK_TIMEOUT");
    gint64 deadline = g_get_monotonic_time() + (t != NULL ? atoi(t) : 60) * G_USEC_PER_SEC;
    while (!s->eos && s->errors == 0) {
        GstSample *smp = gst_app_sink_try_pull_sample(out, 10 * GST_MSECOND);
        if (smp != NULL) {
            if (s->first_us == 0) {
                s->first_us = g_get_monotonic_time();
            }
            s->count++;
            if (keep) {
                g_ptr_array_add(s->samples, smp);
            } else {
                gst_sample_unref(smp);
            }
            continue;
        }
        GstMessage *m;
        while ((m = gst_bus_pop(bus)) != NULL) {
            if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
                GError *e = NULL;
                gchar *dbg = NULL;
                gst_message_parse_error(m, &e, &dbg);
                s->errors++;
                g_free(s->error_text);
                s->error_text = g_strdup(e->message);
                fprintf(stderr, "ERROR from %s: %s (%s)\n", GST_OBJECT_NAME(m->src), e->message,
                        dbg != NULL ? dbg : "");
                g_error_free(e);
                g_free(dbg);
            } else if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_WARNING) {
                s->warnings++;
            }
            gst_message_unref(m);
        }
        if (gst_app_sink_is_eos(out)) {
            s->eos = 1;
        }
        if (g_get_monotonic_time() > deadline) {
            fprintf(stderr, "timeout: no end of stream\n");
            s->errors++;
        }
    }
    gst_object_unref(bus);
}

static int run(const char *desc, struct seen *s, int keep)
{
    memset(s, 0, sizeof *s);
    s->samples = g_ptr_array_new_with_free_func((GDestroyNotify)gst_sample_unref);
    GError *e = NULL;
    GstElement *pipe = gst_parse_launch(desc, &e);
    if (pipe == NULL || e != NULL) {
        fprintf(stderr, "cannot build \"%s\": %s\n", desc, e != NULL ? e->message : "?");
        return -1;
    }
    GstElement *out = gst_bin_get_by_name(GST_BIN(pipe), "out");
    if (out == NULL) {
        fprintf(stderr, "no appsink named out in \"%s\"\n", desc);
        return -1;
    }
    s->start_us = g_get_monotonic_time();
    gst_element_set_state(pipe, GST_STATE_PLAYING);
    watch_bus(pipe, s, GST_APP_SINK(out), keep);
    gst_element_set_state(pipe, GST_STATE_NULL);
    gst_object_unref(out);
    gst_object_unref(pipe);
    return 0;
}

static int same_bytes(GstBuffer *a, GstBuffer *b)
{
    GstMapInfo ma, mb;
    if (!gst_buffer_map(a, &ma, GST_MAP_READ)) {
        return 0;
    }
    if (!gst_buffer_map(b, &mb, GST_MAP_READ)) {
        gst_buffer_unmap(a, &ma);
        return 0;
    }
    int same = ma.size == mb.size && memcmp(ma.data, mb.data, ma.size) == 0;
    gst_buffer_unmap(a, &ma);
    gst_buffer_unmap(b, &mb);
    return same;
}

static int compare_one(guint i, GstSample *ra, GstSample *rb)
{
    GstBuffer *a = gst_sample_get_buffer(ra), *b = gst_sample_get_buffer(rb);
    GstCaps *ca = gst_sample_get_caps(ra), *cb = gst_sample_get_caps(rb);
    const char *what = NULL;
    if (ca != NULL && (cb == NULL || !gst_caps_is_equal(ca, cb))) {
        what = "caps";
    } else if (!same_bytes(a, b)) {
        what = "bytes";
    } else if (GST_BUFFER_PTS(a) != GST_BUFFER_PTS(b)) {
        what = "PTS";
    } else if (GST_BUFFER_DTS(a) != GST_BUFFER_DTS(b)) {
        what = "DTS";
    } else if (GST_BUFFER_DURATION(a) != GST_BUFFER_DURATION(b)) {
        what = "duration";
    } else if (GST_BUFFER_FLAG_IS_SET(a, GST_BUFFER_FLAG_DELTA_UNIT) !=
               GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_DELTA_UNIT)) {
        what = "delta-unit flag";
    }
    if (what != NULL) {
        fprintf(stderr, "buffer %u: %s differ (pts %" GST_TIME_FORMAT " / %" GST_TIME_FORMAT ")\n",
                i, what, GST_TIME_ARGS(GST_BUFFER_PTS(a)), GST_TIME_ARGS(GST_BUFFER_PTS(b)));
        return 1;
    }
    return 0;
}

static int compare(const char *ref, const char *test)
{
    struct seen a, b;
    if (run(ref, &a, 1) != 0 || run(test, &b, 1) != 0) {
        return 1;
    }
    int bad = a.errors > 0 || b.errors > 0;
    if (a.samples->len != b.samples->len) {
        fprintf(stderr, "%u buffers expected, %u received\n", a.samples->len, b.samples->len);
        bad = 1;
    }
    for (guint i = 0; !bad && i < a.samples->len; i++) {
        bad = compare_one(i, a.samples->pdata[i], b.samples->pdata[i]);
    }
    if (!bad) {
        printf("%u buffers identical\n", a.samples->len);
    }
    seen_free(&a);
    seen_free(&b);
    return bad;
}

static int count(const char *desc)
{
    struct seen s;
    if (run(desc, &s, 0) != 0) {
        return 1;
    }
    printf("buffers %u errors %d warnings %d first-ms %.0f\n", s.count, s.errors, s.warnings,
           s.first_us > 0 ? (double)(s.first_us - s.start_us) / 1000.0 : -1.0);
    int bad = s.errors > 0 || !s.eos;
    seen_free(&s);
    return bad;
}

static int seek(const char *desc, const char *format, const char *position)
{
    GError *e = NULL;
    GstElement *pipe = gst_parse_launch(desc, &e);
    if (pipe == NULL || e != NULL) {
        fprintf(stderr, "cannot build \"%s\"\n", desc);
        return 1;
    }
    GstAppSink *out = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(pipe), "out"));
    gst_element_set_state(pipe, GST_STATE_PAUSED);
    if (gst_element_get_state(pipe, NULL, NULL, 30 * GST_SECOND) != GST_STATE_CHANGE_SUCCESS) {
        fprintf(stderr, "no preroll\n");
        return 1;
    }
    GstFormat f = strcmp(format, "bytes") == 0 ? GST_FORMAT_BYTES : GST_FORMAT_TIME;
    gint64 pos = g_ascii_strtoll(position, NULL, 10);
    if (!gst_element_seek_simple(pipe, f, GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT, pos)) {
        fprintf(stderr, "seek refused\n");
        return 1;
    }
    gst_element_get_state(pipe, NULL, NULL, 30 * GST_SECOND);
    GstSample *smp = gst_app_sink_try_pull_preroll(out, 30 * GST_SECOND);
    if (smp == NULL) {
        fprintf(stderr, "nothing after the seek\n");
        return 1;
    }
    GstBuffer *b = gst_sample_get_buffer(smp);
    guint8 head[8] = {0};
    gsize n = gst_buffer_extract(b, 0, head, sizeof head);
    printf("pts %" G_GINT64_FORMAT " offset %" G_GUINT64_FORMAT " head ",
           GST_BUFFER_PTS_IS_VALID(b) ? (gint64)GST_BUFFER_PTS(b) : -1, GST_BUFFER_OFFSET(b));
    for (gsize i = 0; i < n; i++) {
        printf("%02x", head[i]);
    }
    gint64 dur = -1;
    if (!gst_element_query_duration(pipe, GST_FORMAT_TIME, &dur)) {
        dur = -1;
    }
    printf("\nduration %" G_GINT64_FORMAT "\n", dur);
    gst_sample_unref(smp);
    gst_element_set_state(pipe, GST_STATE_NULL);
    gst_object_unref(out);
    gst_object_unref(pipe);
    return 0;
}

int main(int argc, char **argv)
{
    gst_init(&argc, &argv);
    if (argc == 4 && strcmp(argv[1], "compare") == 0) {
        return compare(argv[2], argv[3]);
    }
    if (argc == 3 && strcmp(argv[1], "count") == 0) {
        return count(argv[2]);
    }
    if (argc == 5 && strcmp(argv[1], "seek") == 0) {
        return seek(argv[2], argv[3], argv[4]);
    }
    fprintf(stderr, "usage: ccngst_check compare REF_PIPELINE TEST_PIPELINE | count PIPELINE | "
                    "seek PIPELINE time|bytes POSITION\n");
    return 2;
}
