/* XML -> ccnb (the tools' expat encoder): the reference's .xml files give
 * the .ccnb beside them, our XML in every mode converts back, and each
 * mapping rule and error is checked on small inputs. */
#include "testutil.h"
#include "xmlenc.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/xml.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void encode_ok(const char *xml, const struct xmlenc_opts *o, struct ccnx_buf *out)
{
    struct xmlenc_error err;
    ccnx_buf_reset(out);
    int res = xmlenc_convert(out, xml, strlen(xml), o, &err);
    if (res != 0) {
        fail_msg("%lu:%lu: %s (%s)", err.line, err.column, err.message, ccnx_strerror(res));
    }
}

/* Encodes and compares with the ccnb written in hex. */
static void expect_ccnb(const char *xml, const struct xmlenc_opts *o, const char *hex)
{
    struct ccnx_buf out = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    encode_ok(xml, o, &out);
    tu_hex(hex, &want);
    if (out.len != want.len || memcmp(out.data, want.data, out.len) != 0) {
        struct ccnx_buf got = CCNX_BUF_INIT;
        for (size_t i = 0; i < out.len; i++) {
            ccnx_buf_printf(&got, "%02X", out.data[i]);
        }
        fail_msg("%s\n got %s\nwant %s", xml, ccnx_buf_cstr(&got), hex);
    }
    ccnx_buf_free(&out);
    ccnx_buf_free(&want);
}

static void expect_failure(const char *xml, unsigned long line, unsigned long column,
                           const char *message_part)
{
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct xmlenc_error err;
    assert_int_equal(xmlenc_convert(&out, xml, strlen(xml), NULL, &err), CCNX_E_XML);
    if (err.line != line || err.column != column || strstr(err.message, message_part) == NULL) {
        fail_msg("%s: got %lu:%lu %s", xml, err.line, err.column, err.message);
    }
    ccnx_buf_free(&out);
}

/* ---- vectors ---- */

static void test_reference_xml_gives_vector_bytes(void **state)
{
    (void)state;
    size_t count;
    char **list = tu_list_vectors(".xml", &count);
    assert_true(count >= 80);
    struct ccnx_buf xml = CCNX_BUF_INIT, want = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        char name[512];
        snprintf(name, sizeof name, "%.*s.ccnb", (int)(strlen(list[i]) - 4), list[i]);
        tu_read_vector(list[i], &xml);
        tu_read_vector(name, &want);
        encode_ok(ccnx_buf_cstr(&xml), NULL, &out);
        if (out.len != want.len || memcmp(out.data, want.data, out.len) != 0) {
            fail_msg("%s does not encode to %s", list[i], name);
        }
    }
    ccnx_buf_free(&xml);
    ccnx_buf_free(&want);
    ccnx_buf_free(&out);
    tu_free_list(list, count);
}

static void test_round_trip_in_every_mode(void **state)
{
    (void)state;
    static const unsigned modes[] = {
        0,
        CCNX_XML_PREFER_HEX,
        CCNX_XML_FORCE_BINARY,
        CCNX_XML_FORCE_BINARY | CCNX_XML_PREFER_HEX,
        CCNX_XML_VERBOSE,
        CCNX_XML_INDENT,
        CCNX_XML_INDENT | CCNX_XML_PREFER_HEX | CCNX_XML_VERBOSE,
    };
    size_t count;
    char **list = tu_list_vectors(".ccnb", &count);
    struct ccnx_buf in = CCNX_BUF_INIT, xml = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        tu_read_vector(list[i], &in);
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            struct ccnx_xml_opts xo = {modes[m], NULL, NULL, NULL};
            ccnx_buf_reset(&xml);
            assert_int_equal(ccnx_xml_from_ccnb(&xml, in.data, in.len, &xo, NULL), 0);
            /* The readable layout adds whitespace that -w takes away again. */
            struct xmlenc_opts eo = {(modes[m] & CCNX_XML_INDENT) != 0, NULL, NULL, NULL};
            encode_ok(ccnx_buf_cstr(&xml), &eo, &out);
            if (out.len != in.len || memcmp(out.data, in.data, in.len) != 0) {
                fail_msg("%s does not survive mode %#x", list[i], modes[m]);
            }
        }
    }
    ccnx_buf_free(&in);
    ccnx_buf_free(&xml);
    ccnx_buf_free(&out);
    tu_free_list(list, count);
}

/* ---- mapping rules ---- */

static void test_names_attributes_and_text(void **state)
{
    (void)state;
    /* Name is DTAG 14 (F2); "foo" is no DTAG: TAG with length-1 (91);
     * attributes are ATTR (length-1) + UDATA, character data UDATA. */
    expect_ccnb("<Name><foo a=\"x&amp;y\">hi &lt;</foo></Name>", NULL,
                "F2 91 666F6F 83 61 9E 782679 A6 6869203C 00 00");
    /* Nothing for an empty element, and a comment disappears. */
    expect_ccnb("<Name><!-- note --></Name>", NULL, "F2 00");
    /* CDATA is character data too. */
    expect_ccnb("<Name><![CDATA[<x>]]></Name>", NULL, "F2 9E 3C783E 00");
}

static void test_blob_encodings(void **state)
{
    (void)state;
    /* Component = DTAG 15 (FA). Hex digits in either case, layout skipped. */
    expect_ccnb("<Component ccnbencoding=\"hexBinary\"> 0a Ff\n01 </Component>", NULL,
                "FA 9D 0AFF01 00");
    expect_ccnb("<Component ccnbencoding=\"base64Binary\">//4A\n AA==</Component>", NULL,
                "FA A5 FFFE0000 00");
    expect_ccnb("<Component ccnbencoding=\"text\"> a b </Component>", NULL, "FA AD 2061206220 00");
    /* An encoding with no characters is a zero-length BLOB. */
    expect_ccnb("<Component ccnbencoding=\"base64Binary\"/>", NULL, "FA 85 00");
    expect_ccnb("<Component ccnbencoding=\"hexBinary\"></Component>", NULL, "FA 85 00");
    /* The declared encoding covers only the characters before the first child. */
    expect_ccnb("<Name ccnbencoding=\"hexBinary\">01<Any/>02</Name>", NULL,
                "F2 8D 01 EA 00 96 3032 00");
}

static void test_toss_white(void **state)
{
    (void)state;
    const char *xml =
        "<Name>\n  <Component ccnbencoding=\"text\"> </Component>\n\t<Any/> x\n</Name>";
    struct xmlenc_opts keep = {0, NULL, NULL, NULL};
    struct xmlenc_opts toss = {1, NULL, NULL, NULL};
    expect_ccnb(xml, &keep, "F2 9E 0A2020 FA 8D 20 00 96 0A09 EA 00 9E 20780A 00");
    /* -w drops whitespace-only UDATA, never BLOB text or UDATA with content. */
    expect_ccnb(xml, &toss, "F2 FA 8D 20 00 EA 00 9E 20780A 00");
}

static void test_processing_instructions(void **state)
{
    (void)state;
    /* EXT 16 = 01 80, then target and data as UDATA, then a closer. */
    expect_ccnb("<?tgt some data?><Name/>", NULL, "01 80 9E 746774 CE 736F6D652064617461 00 F2 00");
    expect_ccnb("<Name/><?t?>", NULL, "F2 00 01 80 8E 74 86 00");
}

static void test_extra_dictionary(void **state)
{
    (void)state;
    struct ccnx_dtag_dict *d = ccnx_dtag_dict_create();
    assert_non_null(d);
    char path[4096];
    snprintf(path, sizeof path, "%s/xml_extra.csvdict", CCNX_TEST_DATA_DIR);
    assert_int_equal(ccnx_dtag_dict_load(d, path, NULL), 0);
    struct xmlenc_opts o = {0, d, NULL, NULL};
    struct ccnx_buf want = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    ccnx_ccnb_append_header(&want, 1000, CCNX_TT_DTAG);
    ccnx_ccnb_append_header(&want, 1001, CCNX_TT_DTAG);
    ccnx_ccnb_append_closer(&want);
    ccnx_ccnb_append_closer(&want);
    encode_ok("<ExtraThing><OtherThing/></ExtraThing>", &o, &out);
    assert_int_equal(out.len, want.len);
    assert_memory_equal(out.data, want.data, want.len);
    /* Without the dictionary the names are TAGs. */
    encode_ok("<ExtraThing/>", NULL, &out);
    assert_int_equal(out.data[0], 0x80 | ((9 & 15) << 3) | CCNX_TT_TAG);
    ccnx_dtag_dict_destroy(d);
    ccnx_buf_free(&want);
    ccnx_buf_free(&out);
}

struct warnings {
    int count;
    unsigned long line, column;
};

static void count_warning(void *arg, unsigned long line, unsigned long column, const char *msg)
{
    struct warnings *w = arg;
    w->count++;
    w->line = line;
    w->column = column;
    assert_non_null(strstr(msg, "ccnbencoding"));
}

static void test_unknown_encoding_kept_as_attribute(void **state)
{
    (void)state;
    struct warnings w = {0, 0, 0};
    struct xmlenc_opts o = {0, NULL, count_warning, &w};
    /* Nonce = DTAG 41 (02 CA); ATTR "ccnbencoding" has length-1 = 11 (DB). */
    expect_ccnb("<Name>\n <Nonce ccnbencoding=\"zz\">AB</Nonce></Name>", &o,
                "F2 96 0A20 02 CA DB 63636E62656E636F64696E67 96 7A7A 96 4142 00 00");
    assert_int_equal(w.count, 1);
    assert_int_equal(w.line, 2);
    assert_int_equal(w.column, 2);
}

static void test_several_top_level_elements(void **state)
{
    (void)state;
    /* The multi-element output of the decoder, and concatenated documents. */
    expect_ccnb("<?xml version=\"1.0\"?>\n<Name/>\n<Any/>\n", NULL, "F2 00 EA 00");
    expect_ccnb("<?xml version=\"1.0\"?>\n<Name/>\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<Any/>",
                NULL, "F2 00 EA 00");
    /* Comments after the last element are fine. */
    expect_ccnb("<Name/>\n<!-- end -->\n", NULL, "F2 00");
}

/* ---- errors ---- */

static void test_bad_binary_content(void **state)
{
    (void)state;
    expect_failure("<Name>\n  <Nonce ccnbencoding=\"hexBinary\">ABC</Nonce></Name>", 2, 3,
                   "hexBinary");
    expect_failure("<Nonce ccnbencoding=\"hexBinary\">0G</Nonce>", 1, 1, "Nonce");
    /* Missing padding, a character outside the alphabet, data after '=',
     * too much padding, and padding that hides set bits. */
    const char *bad64[] = {"AAE", "AA!=", "AA==AA==", "A===", "AB=="};
    for (size_t i = 0; i < sizeof bad64 / sizeof bad64[0]; i++) {
        char xml[128];
        snprintf(xml, sizeof xml, "<Nonce ccnbencoding=\"base64Binary\">%s</Nonce>", bad64[i]);
        expect_failure(xml, 1, 1, "base64Binary");
    }
}

static void test_malformed_xml(void **state)
{
    (void)state;
    expect_failure("<Name>\n  <Any></Name>", 2, 10, "mismatched tag");
    expect_failure("", 1, 1, "no element found");
    expect_failure("<Name/>\njunk", 2, 1, "syntax error");
    expect_failure("<Name>caf\xc3\xa9 &bogus;</Name>", 1, 12, "undefined entity");
    expect_failure("<Name>\r\n\r\n<</Name>", 3, 2, "not well-formed");
}

static void test_positions(void **state)
{
    (void)state;
    unsigned long line, column;
    const char *t = "ab\r\ncd\ref\n\xc3\xa9x";
    xmlenc_position(t, strlen(t), 0, &line, &column);
    assert_true(line == 1 && column == 1);
    xmlenc_position(t, strlen(t), 5, &line, &column); /* 'd' */
    assert_true(line == 2 && column == 2);
    xmlenc_position(t, strlen(t), 8, &line, &column); /* 'f' after a lone CR */
    assert_true(line == 3 && column == 2);
    xmlenc_position(t, strlen(t), 12, &line, &column); /* 'x' after a 2-byte character */
    assert_true(line == 4 && column == 2);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT;
    assert_int_equal(xmlenc_convert(NULL, "<a/>", 4, NULL, NULL), CCNX_E_INVAL);
    assert_int_equal(xmlenc_convert(&out, NULL, 4, NULL, NULL), CCNX_E_INVAL);
    ccnx_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_xml_gives_vector_bytes),
        cmocka_unit_test(test_round_trip_in_every_mode),
        cmocka_unit_test(test_names_attributes_and_text),
        cmocka_unit_test(test_blob_encodings),
        cmocka_unit_test(test_toss_white),
        cmocka_unit_test(test_processing_instructions),
        cmocka_unit_test(test_extra_dictionary),
        cmocka_unit_test(test_unknown_encoding_kept_as_attribute),
        cmocka_unit_test(test_several_top_level_elements),
        cmocka_unit_test(test_bad_binary_content),
        cmocka_unit_test(test_malformed_xml),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
