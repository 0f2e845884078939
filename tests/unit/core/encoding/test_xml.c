/* ccnb -> XML: the reference's text for every vector, each item type and
 * flag, the readable layout, and errors on malformed input. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/xml.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECL "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

/* ---- building ccnb by hand ---- */

static void put_dtag(struct ccnx_buf *b, uint64_t dtag)
{
    ccnx_ccnb_append_header(b, dtag, CCNX_TT_DTAG);
}

static void put_blob(struct ccnx_buf *b, const void *p, size_t n)
{
    ccnx_ccnb_append_header(b, n, CCNX_TT_BLOB);
    ccnx_buf_append(b, p, n);
}

static void put_udata(struct ccnx_buf *b, const char *s)
{
    ccnx_ccnb_append_header(b, strlen(s), CCNX_TT_UDATA);
    ccnx_buf_append_str(b, s);
}

static void put_tag(struct ccnx_buf *b, const char *name)
{
    ccnx_ccnb_append_header(b, strlen(name) - 1, CCNX_TT_TAG);
    ccnx_buf_append_str(b, name);
}

static void put_attr(struct ccnx_buf *b, const char *name, const char *value)
{
    ccnx_ccnb_append_header(b, strlen(name) - 1, CCNX_TT_ATTR);
    ccnx_buf_append_str(b, name);
    put_udata(b, value);
}

static void put_close(struct ccnx_buf *b)
{
    ccnx_ccnb_append_closer(b);
}

/* <dtag>BLOB</dtag> */
static void put_blob_element(struct ccnx_buf *b, uint64_t dtag, const void *p, size_t n)
{
    put_dtag(b, dtag);
    put_blob(b, p, n);
    put_close(b);
}

/* Converts without the declaration line and compares the whole text. */
static void expect_xml(const struct ccnx_buf *in, unsigned flags, const char *want)
{
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct ccnx_xml_opts o = {flags | CCNX_XML_NO_DECLARATION, NULL, NULL, NULL};
    struct ccnx_xml_report rep;
    int res = ccnx_xml_from_ccnb(&out, in->data, in->len, &o, &rep);
    if (res != 0) {
        fail_msg("conversion failed: %s at %zu", ccnx_strerror(res), rep.err_off);
    }
    assert_string_equal(ccnx_buf_cstr(&out), want);
    ccnx_buf_free(&out);
}

/* Converts expecting failure `code` at offset `off`. */
static void expect_error(const struct ccnx_buf *in, int code, size_t off)
{
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct ccnx_xml_report rep;
    int res = ccnx_xml_from_ccnb(&out, in->data, in->len, NULL, &rep);
    if (res != code || rep.err_off != off) {
        fail_msg("want %s at %zu, got %s at %zu", ccnx_strerror(code), off, ccnx_strerror(res),
                 rep.err_off);
    }
    ccnx_buf_free(&out);
}

/* ---- the reference vectors ---- */

static char *vector_base(const char *ccnb_name)
{
    char *base = strdup(ccnb_name);
    assert_non_null(base);
    base[strlen(base) - strlen(".ccnb")] = '\0';
    return base;
}

static void test_vectors_match_reference_xml(void **state)
{
    (void)state;
    size_t count;
    char **list = tu_list_vectors(".ccnb", &count);
    assert_true(count >= 80);
    struct ccnx_buf in = CCNX_BUF_INIT, want = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        char *base = vector_base(list[i]);
        char xml_name[512];
        snprintf(xml_name, sizeof xml_name, "%s.xml", base);
        tu_read_vector(list[i], &in);
        tu_read_vector(xml_name, &want);
        ccnx_buf_reset(&out);
        struct ccnx_xml_opts o = {CCNX_XML_PREFER_HEX, NULL, NULL, NULL};
        struct ccnx_xml_report rep;
        assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, &o, &rep), 0);
        if (out.len != want.len || memcmp(out.data, want.data, out.len) != 0) {
            fail_msg("%s: output differs from %s", list[i], xml_name);
        }
        /* One line per top-level element after the declaration. */
        size_t lines = 0;
        for (size_t k = 0; k < out.len; k++) {
            lines += out.data[k] == '\n';
        }
        assert_int_equal(lines, rep.elements + 1);
        int multi = strncmp(base, "stream_", 7) == 0 || strncmp(base, "udp_dgram_", 10) == 0;
        if (!multi) {
            assert_int_equal(rep.elements, 1);
        }
        assert_int_equal(rep.unknown_dtags, 0);
        free(base);
    }
    ccnx_buf_free(&in);
    ccnx_buf_free(&want);
    ccnx_buf_free(&out);
    tu_free_list(list, count);
}

/* Every proper prefix of every vector is refused, with an offset inside it. */
static void test_vector_prefixes_are_errors(void **state)
{
    (void)state;
    size_t count;
    char **list = tu_list_vectors(".ccnb", &count);
    struct ccnx_buf in = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        tu_read_vector(list[i], &in);
        size_t first_end;
        assert_int_equal(ccnx_ccnb_element_end(in.data, in.len, 0, &first_end), 0);
        for (size_t cut = 1; cut < first_end; cut += 1 + cut / 16) {
            ccnx_buf_reset(&out);
            struct ccnx_xml_report rep;
            int res = ccnx_xml_from_ccnb(&out, in.data, cut, NULL, &rep);
            if (res >= 0 || rep.err_off > cut) {
                fail_msg("%s cut at %zu: res %d off %zu", list[i], cut, res, rep.err_off);
            }
        }
    }
    ccnx_buf_free(&in);
    ccnx_buf_free(&out);
    tu_free_list(list, count);
}

/* ---- BLOB encodings ---- */

static void test_declaration_line(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    put_dtag(&in, CCNX_DTAG_Name);
    put_close(&in);
    assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, NULL, NULL), 0);
    assert_string_equal(ccnx_buf_cstr(&out), DECL "<Name/>\n");
    /* Empty input is just the declaration. */
    ccnx_buf_reset(&out);
    assert_int_equal(ccnx_xml_from_ccnb(&out, NULL, 0, NULL, NULL), 0);
    assert_string_equal(ccnx_buf_cstr(&out), DECL);
    ccnx_buf_free(&in);
    ccnx_buf_free(&out);
}

static void test_text_or_binary_choice(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    /* The printable range is ' '..'~' minus the three XML specials. */
    put_blob_element(&in, CCNX_DTAG_Component, " \"'~", 4);
    expect_xml(&in, 0, "<Component ccnbencoding=\"text\"> \"'~</Component>\n");
    expect_xml(&in, CCNX_XML_FORCE_BINARY,
               "<Component ccnbencoding=\"base64Binary\">ICInfg==</Component>\n");
    expect_xml(&in, CCNX_XML_FORCE_BINARY | CCNX_XML_PREFER_HEX,
               "<Component ccnbencoding=\"hexBinary\">2022277E</Component>\n");
    const char *binary[] = {"a<", "a>", "a&", "a\x7f", "a\x1f", "\xc3\xa9"};
    for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++) {
        ccnx_buf_reset(&in);
        put_blob_element(&in, CCNX_DTAG_Component, binary[i], strlen(binary[i]));
        char want[128];
        snprintf(want, sizeof want, "<Component ccnbencoding=\"hexBinary\">%02X%02X</Component>\n",
                 (unsigned char)binary[i][0], (unsigned char)binary[i][1]);
        expect_xml(&in, CCNX_XML_PREFER_HEX, want);
    }
    ccnx_buf_free(&in);
}

static void test_zero_length_blob(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    put_blob_element(&in, CCNX_DTAG_Content, "", 0);
    /* A zero-length BLOB is never "text", and keeps the element open. */
    expect_xml(&in, 0, "<Content ccnbencoding=\"base64Binary\"></Content>\n");
    expect_xml(&in, CCNX_XML_PREFER_HEX, "<Content ccnbencoding=\"hexBinary\"></Content>\n");
    ccnx_buf_free(&in);
}

static void test_base64_line_breaks(void **state)
{
    (void)state;
    uint8_t zeros[100];
    memset(zeros, 0, sizeof zeros);
    char a64[65];
    memset(a64, 'A', 64);
    a64[64] = '\0';
    struct ccnx_buf in = CCNX_BUF_INIT;
    char want[512];
    /* 48 bytes fill exactly one 64-character line: the break comes last. */
    put_blob_element(&in, CCNX_DTAG_Content, zeros, 48);
    snprintf(want, sizeof want, "<Content ccnbencoding=\"base64Binary\">%s\n</Content>\n", a64);
    expect_xml(&in, 0, want);
    snprintf(want, sizeof want, "<Content ccnbencoding=\"base64Binary\">%s</Content>\n", a64);
    expect_xml(&in, CCNX_XML_FORCE_BINARY, want);
    /* 49 bytes: a full line, then the last byte padded. */
    ccnx_buf_reset(&in);
    put_blob_element(&in, CCNX_DTAG_Content, zeros, 49);
    snprintf(want, sizeof want, "<Content ccnbencoding=\"base64Binary\">%s\nAA==</Content>\n", a64);
    expect_xml(&in, 0, want);
    /* 100 bytes: two full lines and "AAAA" + "AA==" (4 bytes left). */
    ccnx_buf_reset(&in);
    put_blob_element(&in, CCNX_DTAG_Content, zeros, 100);
    snprintf(want, sizeof want,
             "<Content ccnbencoding=\"base64Binary\">%s\n%s\nAAAAAA==</Content>\n", a64, a64);
    expect_xml(&in, 0, want);
    /* The three padding cases on known data. */
    ccnx_buf_reset(&in);
    put_blob_element(&in, CCNX_DTAG_Component, "\xff", 1);
    put_blob_element(&in, CCNX_DTAG_Component, "\xff\xfe", 2);
    put_blob_element(&in, CCNX_DTAG_Component, "\xff\xfe\x00", 3);
    expect_xml(&in, 0,
               "<Component ccnbencoding=\"base64Binary\">/w==</Component>\n"
               "<Component ccnbencoding=\"base64Binary\">//4=</Component>\n"
               "<Component ccnbencoding=\"base64Binary\">//4A</Component>\n");
    ccnx_buf_free(&in);
}

static void test_second_blob_is_untagged_base64(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    put_dtag(&in, CCNX_DTAG_Content);
    put_blob(&in, "\x01\x02", 2);
    put_blob(&in, "\x03", 1);
    put_close(&in);
    /* Even with hex preferred, only the first BLOB names its encoding. */
    expect_xml(&in, CCNX_XML_PREFER_HEX,
               "<Content ccnbencoding=\"hexBinary\">0102Aw==</Content>\n");
    struct ccnx_xml_report rep;
    assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, NULL, &rep), 0);
    assert_int_equal(rep.untagged_blobs, 1);
    ccnx_buf_free(&in);
    ccnx_buf_free(&out);
}

/* ---- other item types ---- */

static void test_udata_escaping(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    put_dtag(&in, CCNX_DTAG_Label);
    put_udata(&in, "a&b<c>d\"e'f\xc3\xa9\n");
    put_close(&in);
    expect_xml(&in, 0, "<Label>a&amp;b&lt;c&gt;d&quot;e'f\xc3\xa9\n</Label>\n");
    ccnx_buf_free(&in);
}

static void test_tags_and_attributes(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    put_tag(&in, "Foo");
    put_tag(&in, "a");
    put_udata(&in, "X");
    put_close(&in);
    put_tag(&in, "b");
    put_attr(&in, "type", "em&pty");
    put_close(&in);
    put_tag(&in, "bin");
    put_attr(&in, "k", "");
    put_blob(&in, "\x01\x23\x45\x67", 4);
    put_close(&in);
    size_t dattr_at = in.len;
    ccnx_ccnb_append_header(&in, 7, CCNX_TT_DATTR);
    put_udata(&in, "v");
    put_close(&in);
    /* Foo's content has started: too late for an attribute. */
    expect_error(&in, CCNX_E_STRUCTURE, dattr_at);
    in.len = dattr_at;
    put_close(&in);
    expect_xml(&in, CCNX_XML_PREFER_HEX,
               "<Foo><a>X</a><b type=\"em&amp;pty\"/><bin k=\"\" "
               "ccnbencoding=\"hexBinary\">01234567</bin></Foo>\n");
    /* A DATTR inside a start tag. */
    ccnx_buf_reset(&in);
    put_dtag(&in, CCNX_DTAG_Name);
    ccnx_ccnb_append_header(&in, 7, CCNX_TT_DATTR);
    put_udata(&in, "v");
    put_close(&in);
    expect_xml(&in, 0, "<Name UNKNOWN_DATTR_7=\"v\"/>\n");
    ccnx_buf_free(&in);
}

static void test_unknown_dtag_and_extra_dictionary(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    put_dtag(&in, 1000);
    put_dtag(&in, 1001);
    put_close(&in);
    put_dtag(&in, 1002);
    put_close(&in);
    put_close(&in);
    expect_xml(&in, 0,
               "<UNKNOWN_DTAG code=\"1000\"><UNKNOWN_DTAG code=\"1001\"/>"
               "<UNKNOWN_DTAG code=\"1002\"/></UNKNOWN_DTAG>\n");
    struct ccnx_xml_report rep;
    assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, NULL, &rep), 0);
    assert_int_equal(rep.unknown_dtags, 3);
    assert_int_equal(rep.first_unknown_dtag, 1000);

    struct ccnx_dtag_dict *d = ccnx_dtag_dict_create();
    assert_non_null(d);
    char path[4096];
    snprintf(path, sizeof path, "%s/xml_extra.csvdict", CCNX_TEST_DATA_DIR);
    assert_int_equal(ccnx_dtag_dict_load(d, path, NULL), 0);
    struct ccnx_xml_opts o = {CCNX_XML_NO_DECLARATION, d, NULL, NULL};
    ccnx_buf_reset(&out);
    assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, &o, &rep), 0);
    assert_string_equal(ccnx_buf_cstr(&out),
                        "<ExtraThing><OtherThing/><UNKNOWN_DTAG code=\"1002\"/></ExtraThing>\n");
    assert_int_equal(rep.unknown_dtags, 1);
    assert_int_equal(rep.first_unknown_dtag, 1002);
    ccnx_dtag_dict_destroy(d);
    ccnx_buf_free(&in);
    ccnx_buf_free(&out);
}

static void test_processing_instruction(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    ccnx_ccnb_append_header(&in, 16, CCNX_TT_EXT);
    put_udata(&in, "target");
    put_udata(&in, "a<b & c");
    put_close(&in);
    put_dtag(&in, CCNX_DTAG_Name);
    ccnx_ccnb_append_header(&in, 16, CCNX_TT_EXT);
    put_udata(&in, "t");
    put_udata(&in, "");
    put_close(&in);
    put_close(&in);
    /* PI text is copied as it is: it has no entity escapes. */
    expect_xml(&in, 0, "<?target a<b & c?>\n<Name><?t ?></Name>\n");
    ccnx_buf_free(&in);
}

static void test_verbose_component_comments(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    put_dtag(&in, CCNX_DTAG_Name);
    put_blob_element(&in, CCNX_DTAG_Component, "\xc1.M.x-- -", 9);
    put_blob_element(&in, CCNX_DTAG_Component, "plain", 5);
    put_blob_element(&in, CCNX_DTAG_Component, "..\x00", 2); /* only dots: "..." more */
    put_close(&in);
    put_blob_element(&in, CCNX_DTAG_Content, "\x01", 1); /* not a Component: no comment */
    expect_xml(&in, CCNX_XML_VERBOSE | CCNX_XML_PREFER_HEX,
               "<Name><Component ccnbencoding=\"hexBinary\">C12E4D2E782D2D202D</Component>"
               "<!--       %C1.M.x-%2D%20- -->"
               "<Component ccnbencoding=\"text\">plain</Component>"
               "<Component ccnbencoding=\"text\">..</Component></Name>\n"
               "<Content ccnbencoding=\"hexBinary\">01</Content>\n");
    ccnx_buf_reset(&in);
    put_blob_element(&in, CCNX_DTAG_Component, "..\x01", 2);
    put_blob_element(&in, CCNX_DTAG_Component, ".\xff", 2);
    expect_xml(&in, CCNX_XML_VERBOSE | CCNX_XML_FORCE_BINARY,
               "<Component ccnbencoding=\"base64Binary\">Li4=</Component><!--       ..... -->\n"
               "<Component ccnbencoding=\"base64Binary\">Lv8=</Component><!--       .%FF -->\n");
    ccnx_buf_free(&in);
}

static void test_indent_layout(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    put_dtag(&in, CCNX_DTAG_Interest);
    put_dtag(&in, CCNX_DTAG_Name);
    put_blob_element(&in, CCNX_DTAG_Component, "a", 1);
    put_close(&in);
    put_dtag(&in, CCNX_DTAG_Scope);
    put_udata(&in, "1");
    put_close(&in);
    put_dtag(&in, CCNX_DTAG_Exclude);
    put_dtag(&in, CCNX_DTAG_Any);
    put_close(&in);
    put_close(&in);
    put_close(&in);
    expect_xml(&in, CCNX_XML_INDENT,
               "<Interest>\n"
               "  <Name>\n"
               "    <Component ccnbencoding=\"text\">a</Component>\n"
               "  </Name>\n"
               "  <Scope>1</Scope>\n"
               "  <Exclude>\n"
               "    <Any/>\n"
               "  </Exclude>\n"
               "</Interest>\n");
    /* Long binary data wraps below its start tag, indented one more level. */
    uint8_t bytes[40];
    memset(bytes, 0xAB, sizeof bytes);
    ccnx_buf_reset(&in);
    put_dtag(&in, CCNX_DTAG_KeyLocator);
    put_blob_element(&in, CCNX_DTAG_Key, bytes, sizeof bytes);
    put_close(&in);
    char hex64[65];
    for (int i = 0; i < 64; i += 2) {
        memcpy(hex64 + i, "AB", 2);
    }
    hex64[64] = '\0';
    char want[512];
    snprintf(want, sizeof want,
             "<KeyLocator>\n  <Key ccnbencoding=\"hexBinary\">%s\n    ABABABABABABABAB</Key>\n"
             "</KeyLocator>\n",
             hex64);
    expect_xml(&in, CCNX_XML_INDENT | CCNX_XML_PREFER_HEX, want);
    ccnx_buf_free(&in);
}

struct split_state {
    int calls;
    char texts[4][128];
    int fail_at;
};

static int record_element(void *arg, struct ccnx_buf *out)
{
    struct split_state *s = arg;
    if (s->calls == s->fail_at) {
        return CCNX_E_IO;
    }
    snprintf(s->texts[s->calls++ % 4], sizeof s->texts[0], "%s", ccnx_buf_cstr(out));
    ccnx_buf_reset(out);
    return 0;
}

static void test_element_callback(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    put_dtag(&in, CCNX_DTAG_Name);
    put_close(&in);
    put_blob_element(&in, CCNX_DTAG_Nonce, "\x01", 1);
    struct split_state s = {0, {{0}}, -1};
    struct ccnx_xml_opts o = {CCNX_XML_NO_DECLARATION | CCNX_XML_PREFER_HEX, NULL, record_element,
                              &s};
    struct ccnx_xml_report rep;
    assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, &o, &rep), 0);
    assert_int_equal(s.calls, 2);
    assert_string_equal(s.texts[0], "<Name/>\n");
    assert_string_equal(s.texts[1], "<Nonce ccnbencoding=\"hexBinary\">01</Nonce>\n");
    assert_int_equal(out.len, 0);
    /* A failing callback stops the conversion with its code. */
    struct split_state f = {0, {{0}}, 0};
    o.arg = &f;
    assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, &o, &rep), CCNX_E_IO);
    assert_int_equal(rep.elements, 1);
    ccnx_buf_free(&in);
    ccnx_buf_free(&out);
}

/* ---- malformed input ---- */

static void test_structural_errors(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    /* A closer with nothing open. */
    put_close(&in);
    expect_error(&in, CCNX_E_STRUCTURE, 0);
    /* An attribute whose value is a BLOB. */
    ccnx_buf_reset(&in);
    put_dtag(&in, CCNX_DTAG_Name);
    ccnx_ccnb_append_header(&in, 0, CCNX_TT_ATTR);
    ccnx_buf_append_str(&in, "a");
    size_t value_at = in.len;
    put_blob(&in, "x", 1);
    put_close(&in);
    expect_error(&in, CCNX_E_STRUCTURE, value_at);
    /* An attribute after the element's content started. */
    ccnx_buf_reset(&in);
    put_dtag(&in, CCNX_DTAG_Name);
    put_udata(&in, "x");
    size_t attr_at = in.len;
    put_attr(&in, "a", "b");
    put_close(&in);
    expect_error(&in, CCNX_E_STRUCTURE, attr_at);
    /* A processing instruction with one part, and one holding an element. */
    ccnx_buf_reset(&in);
    ccnx_ccnb_append_header(&in, 16, CCNX_TT_EXT);
    put_udata(&in, "t");
    put_close(&in);
    expect_error(&in, CCNX_E_STRUCTURE, in.len - 1);
    ccnx_buf_reset(&in);
    ccnx_ccnb_append_header(&in, 16, CCNX_TT_EXT);
    put_dtag(&in, CCNX_DTAG_Name);
    expect_error(&in, CCNX_E_STRUCTURE, in.len - 1);
    /* EXT items other than processing instructions. */
    ccnx_buf_reset(&in);
    ccnx_ccnb_append_header(&in, 17, CCNX_TT_EXT);
    expect_error(&in, CCNX_E_UNSUPPORTED, 0);
    ccnx_buf_free(&in);
}

static void test_value_errors(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    /* NUL has no XML form, in UDATA or in a TAG name. */
    put_dtag(&in, CCNX_DTAG_Name);
    ccnx_ccnb_append_header(&in, 3, CCNX_TT_UDATA);
    ccnx_buf_append(&in, "a\0b", 3);
    put_close(&in);
    expect_error(&in, CCNX_E_VALUE, 1);
    ccnx_buf_reset(&in);
    ccnx_ccnb_append_header(&in, 2, CCNX_TT_TAG);
    ccnx_buf_append(&in, "a\0b", 3);
    put_close(&in);
    expect_error(&in, CCNX_E_VALUE, 0);
    /* An invalid type code (7), and a header number beyond 2^63-1. */
    ccnx_buf_reset(&in);
    ccnx_buf_append(&in, "\x87", 1);
    expect_error(&in, CCNX_E_BADTT, 0);
    ccnx_buf_reset(&in);
    ccnx_buf_append(&in, "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x82", 11);
    expect_error(&in, CCNX_E_NUMVAL, 0);
    ccnx_buf_free(&in);
}

static void test_truncation_and_depth(void **state)
{
    (void)state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    /* A BLOB longer than the input: blamed on its header. */
    put_dtag(&in, CCNX_DTAG_Content);
    size_t blob_at = in.len;
    ccnx_ccnb_append_header(&in, 10, CCNX_TT_BLOB);
    ccnx_buf_append(&in, "abc", 3);
    expect_error(&in, CCNX_E_TRUNCATED, blob_at);
    /* A TAG name longer than the input. */
    ccnx_buf_reset(&in);
    ccnx_ccnb_append_header(&in, 5, CCNX_TT_TAG);
    ccnx_buf_append(&in, "ab", 2);
    expect_error(&in, CCNX_E_TRUNCATED, 0);
    /* Elements left open: blamed on the end of the input. */
    ccnx_buf_reset(&in);
    put_dtag(&in, CCNX_DTAG_Name);
    put_dtag(&in, CCNX_DTAG_Component);
    put_close(&in);
    expect_error(&in, CCNX_E_TRUNCATED, in.len);
    /* CCNX_CCNB_MAX_DEPTH levels are fine, one more is not. */
    ccnx_buf_reset(&in);
    for (int i = 0; i < CCNX_CCNB_MAX_DEPTH; i++) {
        put_dtag(&in, CCNX_DTAG_Name);
    }
    for (int i = 0; i < CCNX_CCNB_MAX_DEPTH; i++) {
        put_close(&in);
    }
    struct ccnx_buf out = CCNX_BUF_INIT;
    assert_int_equal(ccnx_xml_from_ccnb(&out, in.data, in.len, NULL, NULL), 0);
    ccnx_buf_reset(&in);
    for (int i = 0; i <= CCNX_CCNB_MAX_DEPTH; i++) {
        put_dtag(&in, CCNX_DTAG_Name);
    }
    expect_error(&in, CCNX_E_TOODEEP, CCNX_CCNB_MAX_DEPTH);
    ccnx_buf_free(&out);
    ccnx_buf_free(&in);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT;
    assert_int_equal(ccnx_xml_from_ccnb(NULL, (const uint8_t *)"", 0, NULL, NULL), CCNX_E_INVAL);
    assert_int_equal(ccnx_xml_from_ccnb(&out, NULL, 3, NULL, NULL), CCNX_E_INVAL);
    ccnx_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_match_reference_xml),
        cmocka_unit_test(test_vector_prefixes_are_errors),
        cmocka_unit_test(test_declaration_line),
        cmocka_unit_test(test_text_or_binary_choice),
        cmocka_unit_test(test_zero_length_blob),
        cmocka_unit_test(test_base64_line_breaks),
        cmocka_unit_test(test_second_blob_is_untagged_base64),
        cmocka_unit_test(test_udata_escaping),
        cmocka_unit_test(test_tags_and_attributes),
        cmocka_unit_test(test_unknown_dtag_and_extra_dictionary),
        cmocka_unit_test(test_processing_instruction),
        cmocka_unit_test(test_verbose_component_comments),
        cmocka_unit_test(test_indent_layout),
        cmocka_unit_test(test_element_callback),
        cmocka_unit_test(test_structural_errors),
        cmocka_unit_test(test_value_errors),
        cmocka_unit_test(test_truncation_and_depth),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
