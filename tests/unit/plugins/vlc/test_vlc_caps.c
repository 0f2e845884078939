/* The VLC module's caps reader (plugins/vlc/src/ccnv_caps.h): the media
 * type and the stream headers of caps as GStreamer writes them (one WebM
 * header, several Ogg pages), a field name inside a quoted string that is
 * not the field, and malformed headers refused whole. */
#include "testutil.h"

#include "ccnv_caps.h"

#include <ccnx/error.h>

#include <string.h>

static int headers(const char *caps, struct ccnx_buf *out)
{
    ccnx_buf_reset(out);
    return ccnv_caps_stream_headers(caps, strlen(caps), out);
}

static void test_media_type(void **state)
{
    (void)state;
    char t[32];
    const char *caps = "video/webm, streamheader=(buffer)< 1a45 >";
    assert_int_equal(ccnv_caps_media_type(caps, strlen(caps), t, sizeof t), 0);
    assert_string_equal(t, "video/webm");
    assert_int_equal(ccnv_caps_media_type("application/ogg", 15, t, sizeof t), 0);
    assert_string_equal(t, "application/ogg");
    assert_int_equal(ccnv_caps_media_type("video/x-raw(memory:GLMemory)", 28, t, sizeof t),
                     CCNX_E_VALUE);
    assert_int_equal(ccnv_caps_media_type("webm", 4, t, sizeof t), CCNX_E_VALUE);
    assert_int_equal(ccnv_caps_media_type("/webm", 5, t, sizeof t), CCNX_E_VALUE);
    assert_int_equal(ccnv_caps_media_type("video/webm", 10, t, 10), CCNX_E_VALUE); /* no room */
}

static void test_stream_headers(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT;
    assert_int_equal(headers("video/webm, streamheader=(buffer)< 1a45dfa3 >", &out), 0);
    assert_int_equal(out.len, 4);
    assert_memory_equal(out.data, "\x1a\x45\xdf\xa3", 4);
    /* three Ogg pages, in order, after another field */
    assert_int_equal(headers("application/ogg, rate=(int)8000, "
                             "streamheader=(buffer)< 4f676753, 00ff, AB >",
                             &out),
                     0);
    assert_int_equal(out.len, 7);
    assert_memory_equal(out.data, "OggS\x00\xff\xab", 7);
    /* none: nothing appended */
    assert_int_equal(headers("video/x-raw, format=(string)I420, width=(int)320", &out), 0);
    assert_int_equal(out.len, 0);
    /* the name inside a string is not the field */
    assert_int_equal(headers("video/webm, title=(string)\"a, streamheader=(buffer)< 00 >\"", &out),
                     0);
    assert_int_equal(out.len, 0);
    assert_int_equal(headers("video/webm, title=(string)\"x\\\" streamheader=\", "
                             "streamheader=(buffer)< 01 >",
                             &out),
                     0);
    assert_int_equal(out.len, 1);
    ccnx_buf_free(&out);
}

static void test_malformed_headers_refused_whole(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT;
    static const char *const bad[] = {
        "video/webm, streamheader=(buffer)< 1a4 >",     /* odd digits */
        "video/webm, streamheader=(buffer)< 1a45",      /* no end */
        "video/webm, streamheader=(buffer)< 1a45, >",   /* empty buffer */
        "video/webm, streamheader=(buffer)< 1a45 zz >", /* not hex */
        "video/webm, streamheader=(buffer)1a45",        /* not an array */
        "video/webm, streamheader=(buffer)< 00, 1x >",  /* the second one bad */
        "video/webm, streamheader=",                    /* nothing */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ccnx_buf_append(&out, "kept", 4), 0);
        out.len = 4;
        assert_int_equal(ccnv_caps_stream_headers(bad[i], strlen(bad[i]), &out), CCNX_E_VALUE);
        assert_int_equal(out.len, 4); /* what was there before, only */
    }
    ccnx_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_media_type),
        cmocka_unit_test(test_stream_headers),
        cmocka_unit_test(test_malformed_headers_refused_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
