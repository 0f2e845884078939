/* ccnb encoder, header decoder, element validation, reader and skeleton decoder. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void test_header_roundtrip(void **state)
{
    (void)state;
    const uint64_t values[] = {0,
                               1,
                               15,
                               16,
                               127,
                               128,
                               2047,
                               2048,
                               65535,
                               17702112,
                               (uint64_t)1 << 40,
                               CCNX_CCNB_MAX_NUMVAL};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        for (int tt = CCNX_TT_EXT; tt <= CCNX_TT_UDATA; tt++) {
            struct ccnx_buf b = CCNX_BUF_INIT;
            assert_int_equal(ccnx_ccnb_append_header(&b, values[i], (enum ccnx_tt)tt), 0);
            struct ccnx_ccnb_header h;
            assert_int_equal(ccnx_ccnb_header_decode(b.data, b.len, &h), 0);
            assert_true(h.numval == values[i]);
            assert_int_equal(h.tt, tt);
            assert_int_equal(h.size, b.len);
            /* Every shorter prefix is truncated, never misread. */
            for (size_t cut = 1; cut < b.len; cut++) {
                assert_int_equal(ccnx_ccnb_header_decode(b.data, cut, &h), CCNX_E_TRUNCATED);
            }
            ccnx_buf_free(&b);
        }
    }
}

static void test_known_encodings(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    /* Name = DTAG 14 (one byte F2), Component = DTAG 15 (FA), a 3-byte BLOB (9D). */
    ccnx_ccnb_open(&b, CCNX_DTAG_Name);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_Component, "abc", 3);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_Component, "", 0);
    ccnx_ccnb_append_closer(&b);
    tu_hex("F2 FA 9D 616263 00 FA 00 00", &want);
    assert_int_equal(b.len, want.len);
    assert_memory_equal(b.data, want.data, b.len);
    /* SequenceNumber is DTAG 256: two header bytes. CCNProtocolDataUnit needs four. */
    ccnx_buf_reset(&b);
    ccnx_ccnb_open(&b, CCNX_DTAG_SequenceNumber);
    tu_hex("10 82", &want);
    assert_memory_equal(b.data, want.data, 2);
    ccnx_buf_reset(&b);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_Scope, 2);
    tu_hex("02 D2 8E 32 00", &want);
    assert_int_equal(b.len, want.len);
    assert_memory_equal(b.data, want.data, b.len);
    ccnx_buf_reset(&b);
    ccnx_ccnb_append_binary_uint_element(&b, CCNX_DTAG_InterestLifetime, 0x2000);
    tu_hex("03 82 95 20 00 00", &want);
    assert_int_equal(b.len, want.len);
    assert_memory_equal(b.data, want.data, b.len);
    ccnx_buf_free(&b);
    ccnx_buf_free(&want);
}

static void test_header_errors(void **state)
{
    (void)state;
    struct ccnx_ccnb_header h;
    const uint8_t closer[] = {0x00};
    const uint8_t tt7[] = {0x87};
    uint8_t huge[12];
    memset(huge, 0x7F, sizeof huge);
    huge[11] = 0x85;
    assert_int_equal(ccnx_ccnb_header_decode(closer, 1, &h), CCNX_E_BADTT);
    assert_int_equal(ccnx_ccnb_header_decode(tt7, 1, &h), CCNX_E_BADTT);
    assert_int_equal(ccnx_ccnb_header_decode(huge, sizeof huge, &h), CCNX_E_NUMVAL);
    assert_int_equal(ccnx_ccnb_header_decode(huge, 0, &h), CCNX_E_TRUNCATED);
}

static void nest(struct ccnx_buf *b, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++) {
        ccnx_ccnb_open(b, CCNX_DTAG_Name);
    }
    for (unsigned i = 0; i < depth; i++) {
        ccnx_ccnb_append_closer(b);
    }
}

static void test_element_end_bounds(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    size_t end;
    nest(&b, CCNX_CCNB_MAX_DEPTH);
    assert_int_equal(ccnx_ccnb_element_end(b.data, b.len, 0, &end), 0);
    assert_int_equal(end, b.len);
    ccnx_buf_reset(&b);
    nest(&b, CCNX_CCNB_MAX_DEPTH + 1);
    assert_int_equal(ccnx_ccnb_element_end(b.data, b.len, 0, &end), CCNX_E_TOODEEP);
    /* A BLOB claiming more bytes than exist. */
    struct ccnx_buf bad = CCNX_BUF_INIT;
    tu_hex("FA 9D 61 00", &bad);
    assert_int_equal(ccnx_ccnb_element_end(bad.data, bad.len, 0, &end), CCNX_E_TRUNCATED);
    /* Data at top level, attribute outside an element, attribute without value. */
    tu_hex("9D 616263", &bad);
    assert_int_equal(ccnx_ccnb_element_end(bad.data, bad.len, 0, &end), CCNX_E_STRUCTURE);
    tu_hex("FA 83 61 00", &bad);
    assert_int_equal(ccnx_ccnb_element_end(bad.data, bad.len, 0, &end), CCNX_E_STRUCTURE);
    tu_hex("00", &bad);
    assert_int_equal(ccnx_ccnb_element_end(bad.data, bad.len, 0, &end), CCNX_E_STRUCTURE);
    /* A TAG element with an attribute and its value is fine. */
    tu_hex("89 6162 83 78 8E 31 00", &bad);
    assert_int_equal(ccnx_ccnb_element_end(bad.data, bad.len, 0, &end), 0);
    assert_int_equal(end, bad.len);
    ccnx_buf_free(&bad);
    ccnx_buf_free(&b);
}

static void test_reader(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_ccnb_open(&b, CCNX_DTAG_Interest);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_Scope, 1);
    ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_Nonce, "\x01\x02", 2);
    ccnx_ccnb_append_closer(&b);
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, b.data, b.len, 0);
    assert_int_equal(ccnx_ccnb_peek_dtag(&r), CCNX_DTAG_Interest);
    assert_int_equal(ccnx_ccnb_enter(&r, CCNX_DTAG_Interest), 0);
    uint64_t v;
    assert_int_equal(ccnx_ccnb_read_uint(&r, CCNX_DTAG_Scope, &v), 0);
    assert_true(v == 1);
    size_t off, n;
    assert_int_equal(ccnx_ccnb_read_blob(&r, CCNX_DTAG_Nonce, &off, &n), 0);
    assert_int_equal(n, 2);
    assert_memory_equal(b.data + off, "\x01\x02", 2);
    assert_true(ccnx_ccnb_at_closer(&r));
    assert_int_equal(ccnx_ccnb_leave(&r), 0);
    assert_int_equal(r.pos, b.len);
    /* Asking for the wrong element is a sticky structure error. */
    ccnx_ccnb_reader_init(&r, b.data, b.len, 0);
    assert_int_equal(ccnx_ccnb_enter(&r, CCNX_DTAG_ContentObject), CCNX_E_STRUCTURE);
    assert_int_equal(ccnx_ccnb_enter(&r, CCNX_DTAG_Interest), CCNX_E_STRUCTURE);
    ccnx_buf_free(&b);
}

/* Splits a stream with the skeleton decoder fed `piece` bytes at a time and
 * checks each element against the whole-buffer validator. */
static size_t split_stream(const uint8_t *p, size_t len, size_t piece)
{
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    size_t pos = 0, start = 0, elements = 0;
    while (pos < len) {
        size_t chunk = len - pos < piece ? len - pos : piece;
        size_t used;
        int res = ccnx_skel_feed(&s, p + pos, chunk, &used);
        assert_true(res >= 0);
        pos += used;
        if (res == 1) {
            size_t end;
            assert_int_equal(ccnx_ccnb_element_end(p, len, start, &end), 0);
            assert_int_equal(end, pos);
            start = pos;
            elements++;
            assert_true(ccnx_skel_idle(&s));
        }
    }
    assert_true(ccnx_skel_idle(&s));
    return elements;
}

static void test_skeleton_on_vectors(void **state)
{
    (void)state;
    size_t count;
    char **files = tu_list_vectors(".ccnb", &count);
    assert_true(count >= 80);
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        tu_read_vector(files[i], &b);
        size_t whole = split_stream(b.data, b.len, b.len);
        assert_true(whole >= 1);
        const size_t pieces[] = {1, 2, 3, 7, 64, 1000};
        for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
            assert_int_equal(split_stream(b.data, b.len, pieces[k]), whole);
        }
        int multi =
            strncmp(files[i], "stream_", 7) == 0 || strncmp(files[i], "udp_dgram_", 10) == 0;
        if (!multi) {
            assert_int_equal(whole, 1);
        } else {
            assert_true(whole >= 1);
        }
    }
    ccnx_buf_free(&b);
    tu_free_list(files, count);
}

static void test_skeleton_errors(void **state)
{
    (void)state;
    struct ccnx_skel s;
    struct ccnx_buf b = CCNX_BUF_INIT;
    size_t used;
    /* Too deep. */
    nest(&b, CCNX_CCNB_MAX_DEPTH + 1);
    ccnx_skel_init(&s);
    assert_int_equal(ccnx_skel_feed(&s, b.data, b.len, &used), CCNX_E_TOODEEP);
    /* Sticky until reset. */
    assert_int_equal(ccnx_skel_feed(&s, b.data, 1, &used), CCNX_E_TOODEEP);
    /* Too big: a BLOB longer than max_element is refused at its header. */
    ccnx_buf_reset(&b);
    tu_hex("FA 01 00 00 85", &b); /* Component, then BLOB of length 2^18 */
    ccnx_skel_init(&s);
    s.max_element = 1000;
    assert_int_equal(ccnx_skel_feed(&s, b.data, b.len, &used), CCNX_E_TOOBIG);
    /* Stray closer between elements. */
    tu_hex("F2 00 00", &b);
    ccnx_skel_init(&s);
    assert_int_equal(ccnx_skel_feed(&s, b.data, b.len, &used), 1);
    assert_int_equal(used, 2);
    assert_int_equal(ccnx_skel_feed(&s, b.data + 2, 1, &used), CCNX_E_STRUCTURE);
    /* Top-level DTAG is reported for dispatch, including multi-byte ones. */
    tu_hex("10 82 00", &b);
    ccnx_skel_init(&s);
    assert_int_equal(ccnx_skel_feed(&s, b.data, b.len, &used), 1);
    assert_int_equal(s.top_dtag, CCNX_DTAG_SequenceNumber);
    ccnx_buf_free(&b);
}

static void test_binary_uint(void **state)
{
    (void)state;
    uint64_t v;
    const uint8_t p[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    assert_int_equal(ccnx_ccnb_binary_uint(p, 2, &v), 0);
    assert_true(v == 0x0102);
    assert_int_equal(ccnx_ccnb_binary_uint(p, 0, &v), 0);
    assert_true(v == 0);
    assert_int_equal(ccnx_ccnb_binary_uint(p, 9, &v), CCNX_E_VALUE);
}

static void test_dtag_dictionary(void **state)
{
    (void)state;
    assert_string_equal(ccnx_dtag_name(CCNX_DTAG_Interest), "Interest");
    assert_string_equal(ccnx_dtag_name(17702112), "CCNProtocolDataUnit");
    assert_null(ccnx_dtag_name(23));
    assert_int_equal(ccnx_dtag_lookup("ContentObject", 13), 64);
    assert_int_equal(ccnx_dtag_lookup("Nope", 4), -1);
    /* The table must stay sorted: ccnx_dtag_name relies on it. */
    for (uint64_t n = 0; n < 300; n++) {
        const char *name = ccnx_dtag_name(n);
        if (name != NULL) {
            assert_int_equal(ccnx_dtag_lookup(name, strlen(name)), (int64_t)n);
        }
    }
    char path[] = "/tmp/ccnx-dict-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "# extra\n5000,MyElement\n13,AnyOverride,x\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    struct ccnx_dtag_dict *d = ccnx_dtag_dict_create();
    assert_int_equal(ccnx_dtag_dict_load(d, path, NULL), 0);
    assert_string_equal(ccnx_dtag_dict_name(d, 5000), "MyElement");
    assert_string_equal(ccnx_dtag_dict_name(d, 13), "AnyOverride");
    assert_string_equal(ccnx_dtag_dict_name(d, 14), "Name");
    assert_int_equal(ccnx_dtag_dict_lookup(d, "MyElement", 9), 5000);
    ccnx_dtag_dict_destroy(d);
    FILE *f = fopen(path, "w");
    fputs("12,Ok\nnot a number,Bad\n", f);
    fclose(f);
    d = ccnx_dtag_dict_create();
    int line = 0;
    assert_int_equal(ccnx_dtag_dict_load(d, path, &line), CCNX_E_VALUE);
    assert_int_equal(line, 2);
    ccnx_dtag_dict_destroy(d);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_roundtrip), cmocka_unit_test(test_known_encodings),
        cmocka_unit_test(test_header_errors),    cmocka_unit_test(test_element_end_bounds),
        cmocka_unit_test(test_reader),           cmocka_unit_test(test_skeleton_on_vectors),
        cmocka_unit_test(test_skeleton_errors),  cmocka_unit_test(test_binary_uint),
        cmocka_unit_test(test_dtag_dictionary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
