/* Naming conventions: timestamps, versions, segments, commands, key ids,
 * checked against the conventions' own examples and the reference vectors. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- timestamps ---- */

static uint64_t ticks_of(long long sec, long nsec)
{
    struct timespec ts = {.tv_sec = (time_t)sec, .tv_nsec = nsec};
    uint64_t t = 0;
    assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, &t), 0);
    return t;
}

/* The clock the library reads. time() may read a coarser clock that is a
 * few milliseconds behind it, so "before <= now <= after" fails just after
 * a second starts. */
static time_t realtime_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec;
}

static void test_timestamp_from_timespec_rounds(void **state)
{
    (void)state;
    assert_int_equal(ticks_of(0, 0), 0);
    assert_int_equal(ticks_of(1, 0), 4096);
    assert_int_equal(ticks_of(1234567890, 0), 0x499602D2000ull);
    assert_int_equal(ticks_of(10, 500000000), 10 * 4096 + 2048);
    /* One tick is 244140.625 ns; half a tick rounds as the reference does. */
    assert_int_equal(ticks_of(0, 244140), 1);
    assert_int_equal(ticks_of(0, 122070), 0);
    assert_int_equal(ticks_of(0, 122074), 0);
    assert_int_equal(ticks_of(0, 122075), 1);
    /* Rounding up from the last tick carries into the next second. */
    assert_int_equal(ticks_of(5, 999999999), 6 * 4096);
    assert_int_equal(ticks_of(5, 999877929), 5 * 4096 + 4095);
}

static void test_timestamp_errors(void **state)
{
    (void)state;
    uint64_t t;
    struct timespec ts = {.tv_sec = -1, .tv_nsec = 0};
    assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, &t), CCNX_E_VALUE);
    ts.tv_sec = 1;
    ts.tv_nsec = -1;
    assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, &t), CCNX_E_VALUE);
    ts.tv_nsec = 1000000000L;
    assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, &t), CCNX_E_VALUE);
    ts.tv_nsec = 0;
    assert_int_equal(ccnx_naming_timestamp_from_timespec(NULL, &t), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, NULL), CCNX_E_VALUE);
    if (sizeof(time_t) >= 8) {
        ts.tv_sec = (time_t)(INT64_MAX >> 11);
        assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, &t), CCNX_E_VALUE);
    }
}

static void test_timestamp_round_trips_every_fraction(void **state)
{
    (void)state;
    const uint64_t base = (uint64_t)1760000000 << 12;
    for (uint64_t frac = 0; frac < 4096; frac++) {
        struct timespec ts;
        ccnx_naming_timestamp_to_timespec(base + frac, &ts);
        assert_int_equal(ts.tv_sec, 1760000000);
        assert_true(ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000L);
        /* Within half a nanosecond of the exact value. */
        double diff = (double)ts.tv_nsec - (double)frac * 1e9 / 4096.0;
        assert_true(diff <= 0.5 && diff >= -0.5);
        uint64_t back;
        assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, &back), 0);
        assert_int_equal(back, base + frac);
    }
}

static void test_timestamp_seconds_and_now(void **state)
{
    (void)state;
    uint64_t t;
    assert_true(ccnx_naming_timestamp_to_seconds(6144) == 1.5);
    assert_int_equal(ccnx_naming_timestamp_from_seconds(1.5, &t), 0);
    assert_int_equal(t, 6144);
    assert_int_equal(ccnx_naming_timestamp_from_seconds(0.0001, &t), 0);
    assert_int_equal(t, 0);
    assert_int_equal(ccnx_naming_timestamp_from_seconds(0.0002, &t), 0);
    assert_int_equal(t, 1);
    assert_int_equal(ccnx_naming_timestamp_from_seconds(-1.0, &t), CCNX_E_VALUE);
    volatile double zero = 0.0;
    assert_int_equal(ccnx_naming_timestamp_from_seconds(zero / zero, &t), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_timestamp_from_seconds(1e300, &t), CCNX_E_VALUE);

    time_t before = realtime_s();
    assert_int_equal(ccnx_naming_timestamp_now(&t), 0);
    time_t after = realtime_s();
    assert_true(t >> 12 >= (uint64_t)before && t >> 12 <= (uint64_t)after);
}

static void test_timestamp_encode_decode(void **state)
{
    (void)state;
    uint8_t out[CCNX_TIMESTAMP_MAX_LEN];
    uint64_t t;
    assert_int_equal(ccnx_naming_timestamp_encode(0, out), 2);
    assert_memory_equal(out, "\x00\x00", 2);
    assert_int_equal(ccnx_naming_timestamp_encode(0x1234, out), 2);
    assert_memory_equal(out, "\x12\x34", 2);
    assert_int_equal(ccnx_naming_timestamp_encode(0x123456, out), 3);
    assert_memory_equal(out, "\x12\x34\x56", 3);
    assert_int_equal(ccnx_naming_timestamp_encode(0x499602D2000ull, out), 6);
    assert_memory_equal(out, "\x04\x99\x60\x2D\x20\x00", 6);
    assert_int_equal(ccnx_naming_timestamp_encode((1ull << 56) - 1, out), 7);
    assert_memory_equal(out, "\xff\xff\xff\xff\xff\xff\xff", 7);
    assert_int_equal(ccnx_naming_timestamp_encode(1ull << 56, out), CCNX_E_VALUE);

    assert_int_equal(
        ccnx_naming_timestamp_decode((const uint8_t *)"\x04\x99\x60\x2D\x20\x00", 6, &t), 0);
    assert_int_equal(t, 0x499602D2000ull);
    assert_int_equal(ccnx_naming_timestamp_decode((const uint8_t *)"\x07", 1, &t), 0);
    assert_int_equal(t, 7);
    assert_int_equal(
        ccnx_naming_timestamp_decode((const uint8_t *)"\x01\x02\x03\x04\x05\x06\x07\x08", 8, &t),
        0);
    assert_int_equal(t, 0x0102030405060708ull);
    assert_int_equal(ccnx_naming_timestamp_decode((const uint8_t *)"", 0, &t), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_timestamp_decode((const uint8_t *)"123456789", 9, &t),
                     CCNX_E_VALUE);
}

/* ---- versions ---- */

static void test_version_build_and_recognise(void **state)
{
    (void)state;
    uint8_t v[CCNX_VERSION_MAX_LEN];
    uint64_t t;
    /* The example of NameConventions.txt: 1234567890.000 s, base64 /QSZYC0gAA== */
    assert_int_equal(ccnx_naming_version_build(0x499602D2000ull, v), 7);
    assert_memory_equal(v, "\xFD\x04\x99\x60\x2D\x20\x00", 7);
    assert_true(ccnx_naming_is_version(v, 7));
    assert_int_equal(ccnx_naming_version_decode(v, 7, &t), 0);
    assert_int_equal(t, 0x499602D2000ull);
    /* The reference refuses times of zero seconds or less. */
    assert_int_equal(ccnx_naming_version_build(4095, v), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_version_build(4096, v), 3);
    assert_memory_equal(v, "\xFD\x10\x00", 3);
    assert_int_equal(ccnx_naming_version_build(1ull << 56, v), CCNX_E_VALUE);

    const uint8_t fd8[] = {0xFD, 1, 2, 3, 4, 5, 6, 7, 8};
    assert_false(ccnx_naming_is_version(fd8, 1));
    assert_false(ccnx_naming_is_version(fd8, 2));
    for (size_t n = 3; n <= 8; n++) {
        assert_true(ccnx_naming_is_version(fd8, n));
    }
    assert_false(ccnx_naming_is_version(fd8, 9));
    assert_false(ccnx_naming_is_version((const uint8_t *)"\xFC\x01\x02\x03", 4));
    assert_false(ccnx_naming_is_version(NULL, 0));
    assert_int_equal(ccnx_naming_version_decode(fd8, 2, &t), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_version_decode((const uint8_t *)"\x00\x01\x02", 3, &t),
                     CCNX_E_VALUE);
}

static void test_append_version(void **state)
{
    (void)state;
    struct ccnx_name n;
    struct ccnx_comp c;
    uint64_t t;
    assert_int_equal(ccnx_name_init(&n), 0);
    struct timespec when = {.tv_sec = 1234567890, .tv_nsec = 0};
    assert_int_equal(ccnx_naming_append_version(&n, &when), 0);
    assert_int_equal(ccnx_name_comp(&n, 0, &c), 0);
    assert_int_equal(c.n, 7);
    assert_memory_equal(c.p, "\xFD\x04\x99\x60\x2D\x20\x00", 7);

    time_t before = realtime_s();
    assert_int_equal(ccnx_naming_append_version(&n, NULL), 0);
    time_t after = realtime_s();
    assert_int_equal(ccnx_name_comp(&n, 1, &c), 0);
    assert_int_equal(ccnx_naming_version_decode(c.p, c.n, &t), 0);
    assert_true(t >> 12 >= (uint64_t)before && t >> 12 <= (uint64_t)after);

    when.tv_sec = 0;
    assert_int_equal(ccnx_naming_append_version(&n, &when), CCNX_E_VALUE);
    when.tv_nsec = -5;
    assert_int_equal(ccnx_naming_append_version(&n, &when), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_append_version(NULL, NULL), CCNX_E_INVAL);
    assert_int_equal(n.count, 2);
    ccnx_name_free(&n);
}

static void test_find_version(void **state)
{
    (void)state;
    struct ccnx_name n;
    struct ccnx_comp c = {NULL, 0};
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_naming_find_version_ccnb(n.enc.data, n.enc.len, &c), CCNX_E_NOTFOUND);
    ccnx_name_append_str(&n, "a");
    ccnx_name_append(&n, "\xFD\x01\x02\x03", 4);
    ccnx_name_append_str(&n, "b");
    assert_int_equal(ccnx_naming_find_version_ccnb(n.enc.data, n.enc.len, &c), 1);
    assert_int_equal(c.n, 4);
    ccnx_name_append(&n, "\xFD\x05\x06\x07\x08", 5);
    ccnx_naming_append_segment(&n, 0);
    /* The rightmost version wins. */
    assert_int_equal(ccnx_naming_find_version_ccnb(n.enc.data, n.enc.len, &c), 3);
    assert_int_equal(c.n, 5);
    assert_memory_equal(c.p, "\xFD\x05\x06\x07\x08", 5);
    assert_int_equal(ccnx_naming_find_version_ccnb(n.enc.data, n.enc.len, NULL), 3);
    /* Components that only look a little like versions do not count. */
    struct ccnx_name m;
    assert_int_equal(ccnx_name_init(&m), 0);
    ccnx_name_append(&m, "\xFD", 1);
    ccnx_name_append(&m, "\xFD\x01", 2);
    ccnx_name_append(&m, "\xFD\x01\x02\x03\x04\x05\x06\x07\x08", 9);
    assert_int_equal(ccnx_naming_find_version_ccnb(m.enc.data, m.enc.len, NULL), CCNX_E_NOTFOUND);
    /* A malformed Name is an error of its own, not "no version". */
    int res = ccnx_naming_find_version_ccnb(n.enc.data, n.enc.len - 1, NULL);
    assert_true(res < 0 && res != CCNX_E_NOTFOUND);
    res = ccnx_naming_find_version_ccnb((const uint8_t *)"\x01\x02", 2, NULL);
    assert_true(res < 0 && res != CCNX_E_NOTFOUND);
    ccnx_name_free(&m);
    ccnx_name_free(&n);
}

/* ---- segments and numbers ---- */

static void test_segment_build(void **state)
{
    (void)state;
    uint8_t s[CCNX_NUMERIC_MAX_LEN];
    assert_int_equal(ccnx_naming_segment_build(0, s), 1);
    assert_memory_equal(s, "\x00", 1);
    assert_int_equal(ccnx_naming_segment_build(1, s), 2);
    assert_memory_equal(s, "\x00\x01", 2);
    assert_int_equal(ccnx_naming_segment_build(255, s), 2);
    assert_memory_equal(s, "\x00\xff", 2);
    assert_int_equal(ccnx_naming_segment_build(256, s), 3);
    assert_memory_equal(s, "\x00\x01\x00", 3);
    /* The example of NameConventions.txt: sequence 257 is 000101. */
    assert_int_equal(ccnx_naming_segment_build(257, s), 3);
    assert_memory_equal(s, "\x00\x01\x01", 3);
    assert_int_equal(ccnx_naming_segment_build(UINT64_MAX, s), 9);
    assert_memory_equal(s, "\x00\xff\xff\xff\xff\xff\xff\xff\xff", 9);
    assert_int_equal(ccnx_naming_numeric_build(CCNX_MARKER_BLKID, 0x10000, s), 4);
    assert_memory_equal(s, "\xFB\x01\x00\x00", 4);
}

static void test_segment_decode(void **state)
{
    (void)state;
    uint64_t v = 99;
    assert_int_equal(ccnx_naming_segment_decode((const uint8_t *)"\x00", 1, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(ccnx_naming_segment_decode((const uint8_t *)"\x00\x01\x01", 3, &v), 0);
    assert_int_equal(v, 257);
    assert_int_equal(
        ccnx_naming_segment_decode((const uint8_t *)"\x00\xff\xff\xff\xff\xff\xff\xff\xff", 9, &v),
        0);
    assert_int_equal(v, UINT64_MAX);
    assert_true(ccnx_naming_is_segment((const uint8_t *)"\x00\x07", 2));
    /* Not minimal, too long, other marker, empty. */
    assert_int_equal(ccnx_naming_segment_decode((const uint8_t *)"\x00\x00", 2, &v), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_segment_decode((const uint8_t *)"\x00\x00\x01", 3, &v),
                     CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_segment_decode(
                         (const uint8_t *)"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09", 10, &v),
                     CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_segment_decode((const uint8_t *)"\x01", 1, &v), CCNX_E_VALUE);
    assert_int_equal(ccnx_naming_segment_decode((const uint8_t *)"", 0, &v), CCNX_E_VALUE);
    assert_false(ccnx_naming_is_segment((const uint8_t *)"a", 1));
    assert_false(ccnx_naming_is_segment(NULL, 0));
    assert_int_equal(
        ccnx_naming_numeric_decode(CCNX_MARKER_BLKID, (const uint8_t *)"\xFB\x02", 2, &v), 0);
    assert_int_equal(v, 2);
    assert_int_equal(
        ccnx_naming_numeric_decode(CCNX_MARKER_BLKID, (const uint8_t *)"\x00\x02", 2, &v),
        CCNX_E_VALUE);
    /* Every built number decodes to itself. */
    uint8_t s[CCNX_NUMERIC_MAX_LEN];
    for (int shift = 0; shift < 64; shift++) {
        uint64_t want = ((uint64_t)1 << shift) + (uint64_t)shift;
        int n = ccnx_naming_segment_build(want, s);
        assert_int_equal(ccnx_naming_segment_decode(s, (size_t)n, &v), 0);
        assert_int_equal(v, want);
    }
}

static void test_append_segment_and_last(void **state)
{
    (void)state;
    struct ccnx_name n;
    uint64_t seg = 0;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(n.enc.data, n.enc.len, &seg), 0);
    ccnx_name_append_str(&n, "a");
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(n.enc.data, n.enc.len, &seg), 0);
    assert_int_equal(ccnx_naming_append_segment(&n, 5), 0);
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(n.enc.data, n.enc.len, &seg), 1);
    assert_int_equal(seg, 5);
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(n.enc.data, n.enc.len, NULL), 1);
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&n, 1, &c), 0);
    assert_int_equal(c.n, 2);
    assert_memory_equal(c.p, "\x00\x05", 2);
    ccnx_name_append_str(&n, "b");
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(n.enc.data, n.enc.len, &seg), 0);
    assert_true(ccnx_naming_last_is_segment_ccnb(n.enc.data, n.enc.len - 1, &seg) < 0);
    assert_int_equal(ccnx_naming_append_segment(NULL, 1), CCNX_E_INVAL);
    ccnx_name_free(&n);
}

/* The reference's ccnsendchunks naming: decimal text, no leading zero. */
static void test_chunks(void **state)
{
    (void)state;
    uint64_t v = 99;
    assert_int_equal(ccnx_naming_chunk_decode((const uint8_t *)"0", 1, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(ccnx_naming_chunk_decode((const uint8_t *)"4096", 4, &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(ccnx_naming_chunk_decode((const uint8_t *)"18446744073709551615", 20, &v), 0);
    assert_true(v == UINT64_MAX);
    static const struct {
        const char *p;
        size_t n;
    } bad[] = {{"", 0},        {"01", 2}, {"1a", 2},
               {"-1", 2},      {" 1", 2}, {"18446744073709551616", 20},
               {"\x00\x01", 2}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ccnx_naming_chunk_decode((const uint8_t *)bad[i].p, bad[i].n, &v),
                         CCNX_E_VALUE);
    }
    assert_int_equal(ccnx_naming_chunk_decode(NULL, 1, &v), CCNX_E_VALUE);
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    ccnx_name_append_str(&n, "a");
    assert_int_equal(ccnx_naming_append_chunk(&n, 123), 0);
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&n, 1, &c), 0);
    assert_int_equal(c.n, 3);
    assert_memory_equal(c.p, "123", 3);
    assert_int_equal(ccnx_naming_last_is_chunk_ccnb(n.enc.data, n.enc.len, &v), 1);
    assert_int_equal(v, 123);
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(n.enc.data, n.enc.len, &v), 0);
    assert_true(ccnx_naming_last_is_chunk_ccnb(n.enc.data, n.enc.len - 1, &v) < 0);
    ccnx_name_append_str(&n, "b");
    assert_int_equal(ccnx_naming_last_is_chunk_ccnb(n.enc.data, n.enc.len, &v), 0);
    assert_int_equal(ccnx_naming_append_chunk(NULL, 1), CCNX_E_INVAL);
    ccnx_name_free(&n);
}

/* ---- commands, key ids, nonces ---- */

static void test_commands(void **state)
{
    (void)state;
    const uint8_t be[] = "\xC1.E.be";
    assert_true(ccnx_naming_is_command(be, 6));
    assert_true(ccnx_naming_command_is(be, 6, "E.be"));
    assert_false(ccnx_naming_command_is(be, 6, "E.b"));
    assert_false(ccnx_naming_command_is(be, 6, "E.bee"));
    assert_false(ccnx_naming_command_is(be, 6, NULL));
    assert_false(ccnx_naming_is_command(be, 1));
    assert_false(ccnx_naming_is_command((const uint8_t *)"\xC1x", 2));
    assert_false(ccnx_naming_is_command((const uint8_t *)".E.be", 5));

    struct ccnx_naming_command cmd;
    assert_int_equal(ccnx_naming_command_parse(be, 6, &cmd), 0);
    assert_int_equal(cmd.text.n, 4);
    assert_memory_equal(cmd.text.p, "E.be", 4);
    assert_int_equal(cmd.arg_kind, CCNX_COMMAND_ARG_NONE);
    assert_int_equal(cmd.arg.n, 0);

    const uint8_t frob[] = "\xC1.org.ccnx.frobnicate~1~37\x00\x01\x02";
    assert_int_equal(ccnx_naming_command_parse(frob, sizeof frob - 1, &cmd), 0);
    assert_int_equal(cmd.text.n, 24);
    assert_memory_equal(cmd.text.p, "org.ccnx.frobnicate~1~37", 24);
    assert_int_equal(cmd.arg_kind, CCNX_COMMAND_ARG_BINARY);
    assert_int_equal(cmd.arg.n, 2);
    assert_memory_equal(cmd.arg.p, "\x01\x02", 2);

    const uint8_t ccnb_arg[] = "\xC1.X.op\xC1\xF2\x00";
    assert_int_equal(ccnx_naming_command_parse(ccnb_arg, sizeof ccnb_arg - 1, &cmd), 0);
    assert_int_equal(cmd.arg_kind, CCNX_COMMAND_ARG_CCNB);
    assert_int_equal(cmd.arg.n, 2);
    assert_int_equal(ccnx_naming_command_parse((const uint8_t *)"R.sw", 4, &cmd), CCNX_E_VALUE);

    struct ccnx_name n;
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_naming_append_command(&n, "M.S.localhost", NULL, 0), 0);
    assert_int_equal(ccnx_naming_append_command(&n, "N", "\xAA\xBB", 2), 0);
    assert_int_equal(ccnx_naming_append_command(&n, "G", "", 0), 0);
    assert_int_equal(ccnx_name_comp(&n, 0, &c), 0);
    assert_int_equal(c.n, 15);
    assert_memory_equal(c.p, "\xC1.M.S.localhost", 15);
    assert_int_equal(ccnx_name_comp(&n, 1, &c), 0);
    assert_int_equal(c.n, 6);
    assert_memory_equal(c.p, "\xC1.N\x00\xAA\xBB", 6);
    assert_int_equal(ccnx_name_comp(&n, 2, &c), 0);
    assert_int_equal(c.n, 4);
    assert_memory_equal(c.p, "\xC1.G\x00", 4);
    /* Long enough to need more than the builder's stack space. */
    uint8_t big[300];
    memset(big, 0x5A, sizeof big);
    assert_int_equal(ccnx_naming_append_command(&n, "M.G", big, sizeof big), 0);
    assert_int_equal(ccnx_name_comp(&n, 3, &c), 0);
    assert_int_equal(c.n, 5 + 1 + sizeof big);
    assert_memory_equal(c.p + 6, big, sizeof big);
    assert_int_equal(ccnx_naming_append_command(&n, "X", NULL, 3), CCNX_E_INVAL);
    assert_int_equal(ccnx_naming_append_command(&n, NULL, NULL, 0), CCNX_E_INVAL);
    assert_int_equal(n.count, 4);
    ccnx_name_free(&n);
}

static void test_keyid(void **state)
{
    (void)state;
    uint8_t digest[CCNX_DIGEST_LEN];
    for (int i = 0; i < CCNX_DIGEST_LEN; i++) {
        digest[i] = (uint8_t)(i * 13 + 1);
    }
    uint8_t k[CCNX_KEYID_LEN];
    ccnx_naming_keyid_build(digest, k);
    assert_memory_equal(k, "\xC1.M.K\x00", 6);
    assert_memory_equal(k + 6, digest, CCNX_DIGEST_LEN);
    assert_true(ccnx_naming_is_keyid(k, sizeof k));
    assert_false(ccnx_naming_is_keyid(k, sizeof k - 1));
    const uint8_t *d = NULL;
    assert_int_equal(ccnx_naming_keyid_digest(k, sizeof k, &d), 0);
    assert_ptr_equal(d, k + 6);
    k[4] = 'G';
    assert_false(ccnx_naming_is_keyid(k, sizeof k));
    assert_int_equal(ccnx_naming_keyid_digest(k, sizeof k, &d), CCNX_E_VALUE);
    /* The command parser sees a key id as M.K with a binary argument. */
    k[4] = 'K';
    struct ccnx_naming_command cmd;
    assert_int_equal(ccnx_naming_command_parse(k, sizeof k, &cmd), 0);
    assert_int_equal(cmd.text.n, 3);
    assert_int_equal(cmd.arg_kind, CCNX_COMMAND_ARG_BINARY);
    assert_int_equal(cmd.arg.n, CCNX_DIGEST_LEN);

    struct ccnx_name n;
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_naming_append_keyid(&n, digest), 0);
    assert_int_equal(ccnx_name_comp(&n, 0, &c), 0);
    assert_int_equal(c.n, CCNX_KEYID_LEN);
    assert_memory_equal(c.p, k, CCNX_KEYID_LEN);
    assert_int_equal(ccnx_naming_append_keyid(&n, NULL), CCNX_E_INVAL);
    ccnx_name_free(&n);
}

static void test_nonce(void **state)
{
    (void)state;
    struct ccnx_name n;
    struct ccnx_comp a, b;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_naming_append_nonce(&n), 0);
    assert_int_equal(ccnx_naming_append_nonce(&n), 0);
    assert_int_equal(ccnx_name_comp(&n, 0, &a), 0);
    assert_int_equal(ccnx_name_comp(&n, 1, &b), 0);
    assert_int_equal(a.n, 15);
    assert_int_equal(b.n, 15);
    assert_memory_equal(a.p, "\xC1.N\x00", 4);
    assert_memory_equal(b.p, "\xC1.N\x00", 4);
    assert_memory_not_equal(a.p + 4, b.p + 4, 11);
    assert_int_equal(ccnx_naming_append_nonce(NULL), CCNX_E_INVAL);
    ccnx_name_free(&n);
}

/* ---- the reference vectors ---- */

struct vec_name {
    struct ccnx_buf file;
    const uint8_t *enc;
    size_t len;
};

static void load_name(const char *file, struct vec_name *v)
{
    ccnx_buf_init(&v->file);
    tu_read_vector(file, &v->file);
    if (strncmp(file, "int_", 4) == 0) {
        struct ccnx_interest_parsed pi;
        assert_int_equal(ccnx_interest_parse(v->file.data, v->file.len, &pi), 0);
        v->enc = v->file.data + pi.name.off;
        v->len = pi.name.len;
    } else {
        struct ccnx_content_parsed pc;
        assert_int_equal(ccnx_content_parse(v->file.data, v->file.len, &pc), 0);
        v->enc = v->file.data + pc.name.off;
        v->len = pc.name.len;
    }
}

static struct ccnx_comp comp_at(const struct vec_name *v, size_t index)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c = {NULL, 0};
    assert_int_equal(ccnx_name_iter_init(&it, v->enc, v->len), 0);
    for (size_t i = 0; i <= index; i++) {
        assert_int_equal(ccnx_name_iter_next(&it, &c), 1);
    }
    return c;
}

/* The version of a vector: a 2026 date that re-encodes to the same bytes. */
static void check_vector_version(const struct vec_name *v, int want_index)
{
    struct ccnx_comp c;
    assert_int_equal(ccnx_naming_find_version_ccnb(v->enc, v->len, &c), want_index);
    assert_int_equal(c.n, 7);
    uint64_t ticks;
    assert_int_equal(ccnx_naming_version_decode(c.p, c.n, &ticks), 0);
    struct timespec ts;
    ccnx_naming_timestamp_to_timespec(ticks, &ts);
    struct tm tm;
    time_t secs = ts.tv_sec;
    assert_non_null(gmtime_r(&secs, &tm));
    assert_int_equal(tm.tm_year + 1900, 2026);
    uint64_t again;
    assert_int_equal(ccnx_naming_timestamp_from_timespec(&ts, &again), 0);
    assert_int_equal(again, ticks);
    uint8_t out[CCNX_VERSION_MAX_LEN];
    assert_int_equal(ccnx_naming_version_build(again, out), 7);
    assert_memory_equal(out, c.p, 7);
}

static void check_vector_segment(const struct vec_name *v, uint64_t want)
{
    uint64_t seg = UINT64_MAX;
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(v->enc, v->len, &seg), 1);
    assert_int_equal(seg, want);
}

static void test_vectors_versions_and_segments(void **state)
{
    (void)state;
    static const char *const stream[] = {"co_stream_seg0.ccnb", "co_stream_seg1.ccnb",
                                         "co_stream_seg2.ccnb"};
    for (uint64_t i = 0; i < 3; i++) {
        struct vec_name v;
        load_name(stream[i], &v);
        check_vector_version(&v, 3);
        check_vector_segment(&v, i);
        ccnx_buf_free(&v.file);
    }
    struct vec_name v;
    load_name("co_versioned_segment.ccnb", &v);
    check_vector_version(&v, 3);
    check_vector_segment(&v, 0);
    ccnx_buf_free(&v.file);

    load_name("co_final_block.ccnb", &v);
    check_vector_segment(&v, 3);
    assert_int_equal(ccnx_naming_find_version_ccnb(v.enc, v.len, NULL), CCNX_E_NOTFOUND);
    ccnx_buf_free(&v.file);

    load_name("int_lib_ccncat_segment1.ccnb", &v);
    check_vector_version(&v, 3);
    check_vector_segment(&v, 1);
    ccnx_buf_free(&v.file);
}

static void hex_digest(const char *hex, uint8_t out[CCNX_DIGEST_LEN])
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    tu_hex(hex, &b);
    assert_int_equal(b.len, CCNX_DIGEST_LEN);
    memcpy(out, b.data, CCNX_DIGEST_LEN);
    ccnx_buf_free(&b);
}

static void check_keyid(const struct vec_name *v, size_t index, const char *hex)
{
    uint8_t want[CCNX_DIGEST_LEN], built[CCNX_KEYID_LEN];
    hex_digest(hex, want);
    struct ccnx_comp c = comp_at(v, index);
    const uint8_t *d = NULL;
    assert_true(ccnx_naming_is_keyid(c.p, c.n));
    assert_int_equal(ccnx_naming_keyid_digest(c.p, c.n, &d), 0);
    assert_memory_equal(d, want, CCNX_DIGEST_LEN);
    ccnx_naming_keyid_build(want, built);
    assert_memory_equal(built, c.p, CCNX_KEYID_LEN);
}

static void test_vectors_ccnd_key_name(void **state)
{
    (void)state;
    struct vec_name v;
    load_name("co_ccnd_key_reply.ccnb", &v);
    struct ccnx_comp c = comp_at(&v, 0);
    assert_true(ccnx_naming_command_is(c.p, c.n, "M.S.localhost"));
    c = comp_at(&v, 1);
    assert_true(ccnx_naming_command_is(c.p, c.n, "M.SRV"));
    c = comp_at(&v, 2);
    assert_false(ccnx_naming_is_command(c.p, c.n));
    check_keyid(&v, 4, "0b24c197764e1a6465ebaf59756a4b5630eef6d9910a62011226811c82a4896f");
    check_vector_version(&v, 5);
    check_vector_segment(&v, 0);

    /* The same name built from its parts. */
    struct ccnx_name n;
    uint8_t digest[CCNX_DIGEST_LEN];
    hex_digest("0b24c197764e1a6465ebaf59756a4b5630eef6d9910a62011226811c82a4896f", digest);
    c = comp_at(&v, 5);
    uint64_t ticks;
    assert_int_equal(ccnx_naming_version_decode(c.p, c.n, &ticks), 0);
    struct timespec when;
    ccnx_naming_timestamp_to_timespec(ticks, &when);
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_naming_append_command(&n, "M.S.localhost", NULL, 0), 0);
    assert_int_equal(ccnx_naming_append_command(&n, "M.SRV", NULL, 0), 0);
    assert_int_equal(ccnx_name_append_str(&n, "ccnd"), 0);
    assert_int_equal(ccnx_name_append_str(&n, "KEY"), 0);
    assert_int_equal(ccnx_naming_append_keyid(&n, digest), 0);
    assert_int_equal(ccnx_naming_append_version(&n, &when), 0);
    assert_int_equal(ccnx_naming_append_segment(&n, 0), 0);
    assert_int_equal(n.enc.len, v.len);
    assert_memory_equal(n.enc.data, v.enc, v.len);
    ccnx_name_free(&n);
    ccnx_buf_free(&v.file);
}

static void test_vectors_commands(void **state)
{
    (void)state;
    struct vec_name v;
    load_name("co_name_enumeration_reply.ccnb", &v);
    struct ccnx_comp c = comp_at(&v, 3);
    assert_true(ccnx_naming_command_is(c.p, c.n, "E.be"));
    check_keyid(&v, 4, "c9502fe3c0ddc8eb01cfeb83e991c371db484911bad0260a96236f21f3acc332");
    check_vector_version(&v, 5);
    check_vector_segment(&v, 0);
    ccnx_buf_free(&v.file);

    load_name("co_key.ccnb", &v);
    check_keyid(&v, 4, "5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc");
    ccnx_buf_free(&v.file);

    /* A repository start-write: <prefix>/<version>/%C1.R.sw/%C1.N%00<nonce> */
    load_name("int_repo_start_write.ccnb", &v);
    check_vector_version(&v, 4);
    c = comp_at(&v, 5);
    assert_true(ccnx_naming_command_is(c.p, c.n, "R.sw"));
    c = comp_at(&v, 6);
    struct ccnx_naming_command cmd;
    assert_int_equal(ccnx_naming_command_parse(c.p, c.n, &cmd), 0);
    assert_int_equal(cmd.text.n, 1);
    assert_memory_equal(cmd.text.p, "N", 1);
    assert_int_equal(cmd.arg_kind, CCNX_COMMAND_ARG_BINARY);
    assert_int_equal(cmd.arg.n, 11); /* the size ccnx_naming_append_nonce makes */
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(v.enc, v.len, NULL), 0);
    ccnx_buf_free(&v.file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timestamp_from_timespec_rounds),
        cmocka_unit_test(test_timestamp_errors),
        cmocka_unit_test(test_timestamp_round_trips_every_fraction),
        cmocka_unit_test(test_timestamp_seconds_and_now),
        cmocka_unit_test(test_timestamp_encode_decode),
        cmocka_unit_test(test_version_build_and_recognise),
        cmocka_unit_test(test_append_version),
        cmocka_unit_test(test_find_version),
        cmocka_unit_test(test_segment_build),
        cmocka_unit_test(test_segment_decode),
        cmocka_unit_test(test_append_segment_and_last),
        cmocka_unit_test(test_chunks),
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_keyid),
        cmocka_unit_test(test_nonce),
        cmocka_unit_test(test_vectors_versions_and_segments),
        cmocka_unit_test(test_vectors_ccnd_key_name),
        cmocka_unit_test(test_vectors_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
