/* Live latency of the GStreamer elements, run by hand (bench/gstreamer.sh
 * runs it): in one process, a live sender (raw GRAY8 frames sized for the
 * asked rate) into ccnsink, and a ccnsrc viewer into an appsink, through the
 * local ccnd. A pad probe stamps each buffer as ccnsink receives it; the
 * viewer looks each buffer up by its stream offset as it comes out of
 * ccnsrc. Prints the median, 90th and 99th percentile and the maximum of
 * that delay, after the viewer's first second.
 *
 *   gst_latency [-t SECONDS] [-r KBIT_PER_S]      (defaults: 20 s, 5000)
 *
 * Needs ccnd (CCN_LOCAL_PORT / CCN_LOCAL_SOCKNAME as the tools) and the
 * plugin (GST_PLUGIN_PATH). */
#include "../bench_help.h"
#include <gst/app/gstappsink.h>
#include <gst/gst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FPS    30
#define WIDTH  160
#define MAXFRM 100000

static gint64 sent_at[MAXFRM]; /* by frame number, µs */
static guint frame_bytes;
static guint64 offset_in; /* stream bytes ccnsink has received */

static GstPadProbeReturn stamp(GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
    (void)pad;
    (void)data;
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER(info);
    guint64 frame = offset_in / frame_bytes;
    if (frame < MAXFRM) {
        sent_at[frame] = g_get_monotonic_time();
    }
    offset_in += gst_buffer_get_size(b);
    return GST_PAD_PROBE_OK;
}

static int cmp_i64(const void *a, const void *b)
{
    gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
    return x < y ? -1 : x > y;
}

static GstElement *launch(const char *desc)
{
    GError *e = NULL;
    GstElement *p = gst_parse_launch(desc, &e);
    if (p == NULL || e != NULL) {
        fprintf(stderr, "gst_latency: cannot build %s: %s\n", desc, e != NULL ? e->message : "?");
        exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv,
               "usage: gst_latency [-t SECONDS] [-r KBIT_PER_S]\n"
               "Live latency from ccnsink to ccnsrc of raw frames at the given rate\n"
               "(defaults: 20 s, 5000 kbit/s).\n");
    int secs = 20, kbps = 5000, ch;
    gst_init(&argc, &argv);
    while ((ch = getopt(argc, argv, "t:r:h")) != -1) {
        if (ch == 't') {
            secs = atoi(optarg);
        } else if (ch == 'r') {
            kbps = atoi(optarg);
        } else {
            printf("usage: gst_latency [-t SECONDS] [-r KBIT_PER_S]\n");
            return ch == 'h' ? 0 : 2;
        }
    }
    /* GRAY8 frames of WIDTH x height at FPS make the asked rate */
    int height = kbps * 1000 / 8 / FPS / WIDTH;
    height += height % 2;
    frame_bytes = (guint)(WIDTH * height);
    char name[64], desc[512];
    snprintf(name, sizeof name, "ccnx:/bench/latency/%d", (int)getpid());
    snprintf(desc, sizeof desc,
             "videotestsrc is-live=true pattern=ball ! video/x-raw,format=GRAY8,width=%d,height=%d,"
             "framerate=%d/1 ! ccnsink name=sink location=%s live-window=3000 linger=0",
             WIDTH, height, FPS, name);
    GstElement *tx = launch(desc);
    GstElement *sink = gst_bin_get_by_name(GST_BIN(tx), "sink");
    GstPad *pad = gst_element_get_static_pad(sink, "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, stamp, NULL, NULL);
    gst_element_set_state(tx, GST_STATE_PLAYING);
    g_usleep(G_USEC_PER_SEC / 2);
    snprintf(desc, sizeof desc, "ccnsrc location=%s ! appsink name=out sync=false", name);
    GstElement *rx = launch(desc);
    GstAppSink *out = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(rx), "out"));
    gst_element_set_state(rx, GST_STATE_PLAYING);
    gint64 start = g_get_monotonic_time(), end = start + (gint64)secs * G_USEC_PER_SEC;
    gint64 *lat = g_new(gint64, MAXFRM);
    size_t n = 0;
    while (g_get_monotonic_time() < end) {
        GstSample *s = gst_app_sink_try_pull_sample(out, 100 * GST_MSECOND);
        if (s == NULL) {
            continue;
        }
        gint64 now = g_get_monotonic_time();
        guint64 frame = GST_BUFFER_OFFSET(gst_sample_get_buffer(s)) / frame_bytes;
        if (now - start > G_USEC_PER_SEC && frame < MAXFRM && sent_at[frame] > 0 && n < MAXFRM) {
            lat[n++] = now - sent_at[frame];
        }
        gst_sample_unref(s);
    }
    gst_element_set_state(rx, GST_STATE_NULL);
    gst_element_set_state(tx, GST_STATE_NULL);
    if (n == 0) {
        fprintf(stderr, "gst_latency: no buffer reached the viewer\n");
        return 1;
    }
    qsort(lat, n, sizeof *lat, cmp_i64);
    printf("live latency at %d kbit/s (%u-byte frames, %d fps), %zu frames: median %.1f ms, "
           "p90 %.1f ms, p99 %.1f ms, max %.1f ms\n",
           kbps, frame_bytes, FPS, n, lat[n / 2] / 1000.0, lat[n * 9 / 10] / 1000.0,
           lat[n * 99 / 100] / 1000.0, lat[n - 1] / 1000.0);
    g_free(lat);
    gst_object_unref(out);
    gst_object_unref(pad);
    gst_object_unref(sink);
    gst_object_unref(rx);
    gst_object_unref(tx);
    return 0;
}
