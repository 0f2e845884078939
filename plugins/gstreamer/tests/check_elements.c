/* The elements in GStreamer's check harness (gst-check): factories,
 * property defaults, the ccnx: URI handler, a missing ccnd, and ten
 * buffers pushed into ccnsink through a GstHarness coming out of ccnsrc in
 * another harness with their timing. Run by test_check.sh, which provides
 * a private ccnd (CCN_LOCAL_SOCKNAME / CCN_LOCAL_PORT); the missing-ccnd
 * case points the client at a socket that does not exist. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

GST_START_TEST(test_factories_and_defaults)
{
    GstElement *sink = gst_element_factory_make("ccnsink", NULL);
    GstElement *src = gst_element_factory_make("ccnsrc", NULL);
    fail_unless(sink != NULL && src != NULL);
    guint block, linger, timeout;
    gint freshness;
    gboolean verify;
    g_object_get(sink, "block-size", &block, "linger", &linger, "freshness", &freshness, NULL);
    fail_unless_equals_int(block, 4096);
    fail_unless_equals_int(linger, 30);
    fail_unless_equals_int(freshness, -1);
    g_object_get(src, "verify", &verify, "timeout", &timeout, NULL);
    fail_unless(verify);
    fail_unless_equals_int(timeout, 10);
    GstStructure *st = NULL;
    g_object_get(src, "stats", &st, NULL);
    fail_unless(st != NULL && gst_structure_has_field(st, "retransmissions"));
    gst_structure_free(st);
    gst_object_unref(sink);
    gst_object_unref(src);
}
GST_END_TEST;

GST_START_TEST(test_uri_handler)
{
    GError *e = NULL;
    GstElement *src = gst_element_make_from_uri(GST_URI_SRC, "ccnx:/a/b", NULL, &e);
    fail_unless(src != NULL, "no element for ccnx:/a/b");
    gchar *loc = NULL;
    g_object_get(src, "location", &loc, NULL);
    fail_unless_equals_string(loc, "ccnx:/a/b");
    g_free(loc);
    fail_if(gst_uri_handler_set_uri(GST_URI_HANDLER(src), "ccnx:/a/%Z", &e));
    fail_unless(e != NULL && e->domain == GST_URI_ERROR);
    g_clear_error(&e);
    gst_object_unref(src);
}
GST_END_TEST;

GST_START_TEST(test_no_ccnd)
{
    const char *saved = g_getenv("CCN_LOCAL_SOCKNAME");
    gchar *keep = g_strdup(saved);
    g_setenv("CCN_LOCAL_SOCKNAME", "/nonexistent/ccnd.sock", TRUE);
    GstElement *src = gst_element_factory_make("ccnsrc", NULL);
    g_object_set(src, "location", "ccnx:/x", NULL);
    GstBus *bus = gst_bus_new();
    gst_element_set_bus(src, bus);
    fail_unless_equals_int(gst_element_set_state(src, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
    GstMessage *m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    fail_unless(m != NULL);
    GError *e = NULL;
    gst_message_parse_error(m, &e, NULL);
    fail_unless(strstr(e->message, "no ccnd at /nonexistent/ccnd.sock") != NULL, "%s", e->message);
    g_error_free(e);
    gst_message_unref(m);
    gst_element_set_state(src, GST_STATE_NULL);
    gst_object_unref(bus);
    gst_object_unref(src);
    g_setenv("CCN_LOCAL_SOCKNAME", keep, TRUE);
    g_free(keep);
}
GST_END_TEST;

static gpointer push_eos(gpointer h)
{
    gst_harness_push_event(h, gst_event_new_eos());
    return NULL;
}

GST_START_TEST(test_harness_round_trip)
{
    gchar *name = g_strdup_printf("ccnx:/check/%d", (int)getpid());
    gchar *desc = g_strdup_printf("ccnsink name=sink location=%s linger=60", name);
    GstHarness *tx = gst_harness_new_parse(desc);
    gst_harness_play(tx);
    gst_harness_set_src_caps_str(tx, "application/x-check, n=(int)1");
    for (int i = 0; i < 10; i++) {
        GstBuffer *b = gst_buffer_new_allocate(NULL, 1000 + (gsize)i * 500, NULL);
        gst_buffer_memset(b, 0, (guint8)i, gst_buffer_get_size(b));
        GST_BUFFER_PTS(b) = (GstClockTime)i * 40 * GST_MSECOND;
        GST_BUFFER_DURATION(b) = 40 * GST_MSECOND;
        if (i % 3 != 0) {
            GST_BUFFER_FLAG_SET(b, GST_BUFFER_FLAG_DELTA_UNIT);
        }
        fail_unless_equals_int(gst_harness_push(tx, b), GST_FLOW_OK);
    }
    /* EOS closes the stream, then the sink serves it for `linger` seconds:
     * the push returns only then, so it goes on a thread of its own */
    GThread *eos = g_thread_new("eos", push_eos, tx);
    /* the sink writes on its own thread: go on once the stream exists (a
     * viewer asking earlier waits for its version discovery to ask again) */
    guint64 made = 0;
    GstElement *sink = gst_bin_get_by_name(GST_BIN(tx->element), "sink");
    for (int k = 0; k < 3000 && made < 10; k++) {
        GstStructure *st = NULL;
        g_object_get(sink, "stats", &st, NULL);
        gst_structure_get_uint64(st, "segments", &made);
        gst_structure_free(st);
        g_usleep(G_USEC_PER_SEC / 100);
    }
    gst_object_unref(sink);
    fail_unless(made >= 10, "the sink made %" G_GUINT64_FORMAT " segments", made);
    GstHarness *rx = gst_harness_new("ccnsrc");
    /* the harness says its source is live: ask for the whole stream */
    g_object_set(rx->element, "location", name, "mode", 2 /* on-demand */, NULL);
    gst_harness_play(rx);
    GstCaps *caps = NULL;
    for (int i = 0; i < 10; i++) {
        GstBuffer *b = gst_harness_pull(rx);
        fail_unless(b != NULL);
        fail_unless_equals_int(gst_buffer_get_size(b), 1000 + i * 500);
        fail_unless_equals_uint64(GST_BUFFER_PTS(b), (guint64)i * 40 * GST_MSECOND);
        fail_unless_equals_uint64(GST_BUFFER_DURATION(b), 40 * GST_MSECOND);
        fail_unless_equals_int(GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_DELTA_UNIT), i % 3 != 0);
        guint8 head = 0xff; /* not "first": gst-check's macros declare that name */
        gst_buffer_extract(b, 0, &head, 1);
        fail_unless_equals_int(head, i);
        gst_buffer_unref(b);
    }
    caps = gst_pad_get_current_caps(rx->sinkpad);
    fail_unless(caps != NULL);
    fail_unless(gst_structure_has_name(gst_caps_get_structure(caps, 0), "application/x-check"));
    gst_caps_unref(caps);
    gst_harness_teardown(rx);
    gst_element_set_state(tx->element, GST_STATE_NULL); /* ends the linger */
    g_thread_join(eos);
    gst_harness_teardown(tx);
    g_free(desc);
    g_free(name);
}
GST_END_TEST;

static Suite *elements_suite(void)
{
    Suite *s = suite_create("ccnx elements");
    TCase *tc = tcase_create("general");
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tcase_add_test(tc, test_factories_and_defaults);
    tcase_add_test(tc, test_uri_handler);
    tcase_add_test(tc, test_no_ccnd);
    tcase_add_test(tc, test_harness_round_trip);
    return s;
}

GST_CHECK_MAIN(elements);
