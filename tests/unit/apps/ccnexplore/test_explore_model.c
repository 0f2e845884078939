/* ccnexplore's model (apps/ccnexplore), without network or screen: readable
 * components, merging and ordering children, collapsing versions and
 * segments, filtering, the details pane's lines, the preview's formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <ccnx/content.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include "explore_actions.h"
#include "explore_details.h"
#include "explore_label.h"
#include "explore_list.h"
#include "explore_tree.h"
#include "testutil.h"

static char text[4096];

static const char *label(const void *p, size_t n)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ex_label_component(&b, p, n), 0);
    snprintf(text, sizeof text, "%s", ccnx_buf_cstr(&b));
    ccnx_buf_free(&b);
    return text;
}

/* 2026-12-04 10:12:00 UTC in 1/4096 s. */
static uint64_t when(int minute)
{
    return (uint64_t)(1796379120 + 60 * minute) * 4096;
}

static void test_labels(void **state)
{
    (void)state;
    uint8_t c[CCNX_NUMERIC_MAX_LEN];
    int n = ccnx_naming_version_build(when(0), c);
    assert_string_equal(label(c, (size_t)n), "‹version 2026-12-04 10:12:00›");
    n = ccnx_naming_segment_build(3, c);
    assert_string_equal(label(c, (size_t)n), "‹segment 3›");
    uint8_t digest[CCNX_DIGEST_LEN], keyid[CCNX_KEYID_LEN];
    for (size_t i = 0; i < sizeof digest; i++)
        digest[i] = (uint8_t)(0x1a + i);
    ccnx_naming_keyid_build(digest, keyid);
    assert_string_equal(label(keyid, sizeof keyid), "‹key 1a1b1c1d1e1f2021…›");
    assert_string_equal(label("\xC1.M.S.localhost", 15), "‹M.S.localhost›");
    assert_string_equal(label("report.pdf", 10), "report.pdf");
    assert_string_equal(label("caf\xC3\xA9", 5), "café");
    /* Bytes a terminal would act on are escaped, never shown. */
    assert_string_equal(label("a\x1b[2Jb", 6), "a%1B%5B2Jb");
    assert_string_equal(label("x\xE2\x80\xAEy", 5), "x%E2%80%AEy");
    /* invisible characters: a zero-width space, a variation selector */
    assert_string_equal(label("a\xE2\x80\x8B"
                              "b",
                              5),
                        "a%E2%80%8Bb");
    assert_string_equal(label("a\xEF\xB8\x8F", 4), "a%EF%B8%8F");
    assert_string_equal(label("x\xE2\x80\x8Fy", 5), "x%E2%80%8Fy"); /* right-to-left mark */
    assert_string_equal(label("%41", 3), "%2541");
}

static void test_sizes(void **state)
{
    (void)state;
    static const struct {
        uint64_t bytes;
        const char *text;
    } cases[] = {{0, "0 B"},
                 {999, "999 B"},
                 {1000, "1.0 kB"},
                 {45100, "45.1 kB"},
                 {12400000, "12.4 MB"},
                 {999960, "1.0 MB"},
                 {3000000000, "3.0 GB"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct ccnx_buf b = CCNX_BUF_INIT;
        ex_label_size(&b, cases[i].bytes);
        assert_string_equal(ccnx_buf_cstr(&b), cases[i].text);
        ccnx_buf_free(&b);
    }
}

static struct ex_tree tree;

static void tree_init(const char *uri)
{
    struct ccnx_name p;
    ccnx_name_init(&p);
    assert_int_equal(ccnx_uri_parse_str(&p, uri), 0);
    assert_int_equal(ex_tree_init(&tree, &p), 0);
    ccnx_name_free(&p);
}

static struct ex_node *child(struct ex_node *parent, const char *comp, unsigned src)
{
    struct ex_node *k = ex_node_child(&tree, parent, (const uint8_t *)comp, strlen(comp), NULL);
    assert_non_null(k);
    k->sources |= src;
    return k;
}

static struct ex_node *version(struct ex_node *parent, int minute)
{
    uint8_t c[CCNX_VERSION_MAX_LEN];
    int n = ccnx_naming_version_build(when(minute), c);
    return ex_node_child(&tree, parent, c, (size_t)n, NULL);
}

/* The rows as --list prints them, one per line. */
static const char *rows_text(const char *filter, int depth)
{
    struct ex_rows rows = {0};
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ex_tree_rows(&tree, filter, depth, &rows), 0);
    for (size_t i = 0; i < rows.n; i++) {
        ex_list_row(&rows.v[i], &b);
        ccnx_buf_append_byte(&b, '\n');
    }
    snprintf(text, sizeof text, "%s", ccnx_buf_cstr(&b));
    ccnx_buf_free(&b);
    ex_rows_free(&rows);
    return text;
}

static void test_merge_and_order(void **state)
{
    (void)state;
    tree_init("ccnx:/parc.com");
    struct ex_node *b = child(&tree.root, "b", EX_SRC_REPO);
    child(&tree.root, "aa", EX_SRC_CACHE);
    child(&tree.root, "a", EX_SRC_PRODUCER);
    /* The same name from a second source is the same node. */
    assert_ptr_equal(child(&tree.root, "b", EX_SRC_CACHE), b);
    assert_int_equal(tree.root.nkids, 3);
    assert_int_equal(tree.nodes, 4);
    /* Canonical order: shorter components first, then bytes. */
    assert_string_equal(rows_text(NULL, -1), "ccnx:/parc.com\n"
                                             "  a  [producer]\n"
                                             "  b  [repo cache]\n"
                                             "  aa  [cache]\n");
    struct ccnx_buf uri = CCNX_BUF_INIT;
    ex_node_uri(&tree, b, &uri);
    assert_string_equal(ccnx_buf_cstr(&uri), "ccnx:/parc.com/b");
    ccnx_buf_free(&uri);
    ex_tree_free(&tree);
}

static void test_collapse(void **state)
{
    (void)state;
    tree_init("ccnx:/");
    struct ex_node *doc = child(&tree.root, "report.pdf", EX_SRC_REPO);
    version(doc, 0);
    struct ex_node *newest = version(doc, 60);
    version(doc, 30);
    newest->size = 12400000;
    newest->segments = 3028;
    struct ex_node *seg = child(&tree.root, "seg", EX_SRC_CACHE);
    for (uint64_t i = 0; i < 5; i++) {
        uint8_t c[CCNX_NUMERIC_MAX_LEN];
        int n = ccnx_naming_segment_build(i, c);
        ex_node_child(&tree, seg, c, (size_t)n, NULL);
    }
    /* Versions collapse into their name's line, segments are never rows. */
    assert_ptr_equal(ex_node_newest_version(doc), newest);
    assert_string_equal(rows_text(NULL, -1),
                        "ccnx:/\n"
                        "  seg  segmented  [cache]\n"
                        "  report.pdf  3 versions, newest 2026-12-04 11:12, 3028 segments, "
                        "12.4 MB  [repo]\n");
    seg->expanded = 1;
    seg->segments = 5;
    seg->size = 4100;
    doc->expanded = 1;
    assert_string_equal(rows_text(NULL, -1),
                        "ccnx:/\n"
                        "  seg  5 segments, 4.1 kB  [cache]\n"
                        "  report.pdf  3 versions, newest 2026-12-04 11:12, 3028 segments, "
                        "12.4 MB  [repo]\n"
                        "    ‹version 2026-12-04 10:12:00›\n"
                        "    ‹version 2026-12-04 10:42:00›\n"
                        "    ‹version 2026-12-04 11:12:00›  3028 segments, 12.4 MB\n");
    assert_string_equal(rows_text(NULL, 1), "ccnx:/\n"
                                            "  seg  5 segments, 4.1 kB  [cache]\n"
                                            "  report.pdf  3 versions, newest 2026-12-04 11:12, "
                                            "3028 segments, 12.4 MB  [repo]\n");
    ex_tree_free(&tree);
}

/* The listing a reference repository answered (children doc1 and doc2),
 * and listings that are not Collections. */
static void test_listing(void **state)
{
    (void)state;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    size_t added;
    tu_read_vector("co_name_enumeration_reply.ccnb", &obj);
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    tree_init("ccnx:/example/vec/repo");
    child(&tree.root, "doc2", EX_SRC_CACHE);
    assert_int_equal(ex_tree_merge_listing(&tree, &tree.root, obj.data + pc.content_value.off,
                                           pc.content_value.len, EX_SRC_REPO, &added),
                     0);
    assert_int_equal(added, 2);
    assert_string_equal(rows_text(NULL, -1), "ccnx:/example/vec/repo\n"
                                             "  doc1  [repo]\n"
                                             "  doc2  [repo cache]\n");
    assert_true(ex_tree_merge_listing(&tree, &tree.root, (const uint8_t *)"garbage", 7, EX_SRC_REPO,
                                      &added) < 0);
    assert_int_equal(added, 0);
    /* A listing cut short keeps what came before the cut. */
    struct ex_node *other = child(&tree.root, "other", 0);
    assert_true(ex_tree_merge_listing(&tree, other, obj.data + pc.content_value.off,
                                      pc.content_value.len - 3, EX_SRC_REPO, &added) < 0);
    assert_int_equal(other->nkids, added);
    assert_int_equal(tree.root.nkids, 3);
    ex_tree_free(&tree);
    ccnx_buf_free(&obj);
}

static void test_filter(void **state)
{
    (void)state;
    tree_init("ccnx:/");
    struct ex_node *a = child(&tree.root, "alpha", EX_SRC_REPO);
    child(a, "News.txt", EX_SRC_REPO);
    child(a, "old.txt", EX_SRC_REPO);
    child(&tree.root, "beta", EX_SRC_REPO);
    /* a match deep inside a closed node shows with its ancestors */
    assert_string_equal(rows_text("news", -1), "ccnx:/\n"
                                               "  alpha  [repo]\n"
                                               "    News.txt  [repo]\n");
    assert_string_equal(rows_text("nothing", -1), "ccnx:/\n");
    assert_string_equal(rows_text("", -1), "ccnx:/\n  beta  [repo]\n  alpha  [repo]\n");
    ex_tree_free(&tree);
}

static void test_details(void **state)
{
    (void)state;
    struct ccnx_buf obj = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    tu_read_vector("co_final_block.ccnb", &obj);
    tree_init("ccnx:/example/vec");
    struct ex_node *seg = child(&tree.root, "seg", EX_SRC_CACHE);
    struct ex_details det = {2, obj.data, obj.len, EX_VERIFY_OK, NULL};
    assert_int_equal(ex_details_text(&tree, seg, &det, &out), 0);
    assert_string_equal(
        ccnx_buf_cstr(&out),
        "URI: ccnx:/example/vec/seg\n"
        "Seen in: cache\n"
        "Object: ccnx:/example/vec/seg/%00%03\n"
        "Type: DATA\n"
        "Publisher: 5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc\n"
        "Key locator: the key itself (162 bytes)\n"
        "Signed: 2026-12-03 08:01:29\n"
        "Freshness: none\n"
        "FinalBlockID: segment 3\n"
        "Object size: 28 B of content\n"
        "Signature: verified\n");
    ccnx_buf_reset(&out);
    det = (struct ex_details){2, obj.data, obj.len, EX_VERIFY_FAILED, "bad\x1b[31m sig"};
    ex_details_text(&tree, seg, &det, &out);
    assert_non_null(strstr(ccnx_buf_cstr(&out), "Signature: FAILED: bad.[31m sig\n"));
    ccnx_buf_reset(&out);
    det = (struct ex_details){3, NULL, 0, EX_VERIFY_NONE, NULL};
    ex_details_text(&tree, &tree.root, &det, &out);
    assert_string_equal(ccnx_buf_cstr(&out), "URI: ccnx:/example/vec\n"
                                             "Seen in: (the prefix asked for)\n"
                                             "Object: nothing answered\n");
    ex_tree_free(&tree);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&out);
}

static void test_preview_formats(void **state)
{
    (void)state;
    assert_true(ex_preview_is_text((const uint8_t *)"hello\n\tworld\r\n", 14));
    assert_true(ex_preview_is_text((const uint8_t *)"caf\xC3\xA9", 5));
    assert_true(ex_preview_is_text((const uint8_t *)"caf\xC3", 4)); /* cut by the limit */
    assert_false(ex_preview_is_text((const uint8_t *)"a\0b", 3));
    assert_false(ex_preview_is_text((const uint8_t *)"\x1b[2J", 4));
    assert_false(ex_preview_is_text((const uint8_t *)"\xff\xfe\x00\x01", 4));
    struct ccnx_buf b = CCNX_BUF_INIT;
    ex_preview_hex(&b,
                   (const uint8_t *)"\x00\x01"
                                    "ABCDEFGHIJKLMNOPQ",
                   19);
    assert_string_equal(
        ccnx_buf_cstr(&b),
        "00000000  00 01 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e  |..ABCDEFGHIJKLMN|\n"
        "00000010  4f 50 51                                         |OPQ|\n");
    ccnx_buf_free(&b);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    tzset();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels),          cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_merge_and_order), cmocka_unit_test(test_collapse),
        cmocka_unit_test(test_filter),          cmocka_unit_test(test_listing),
        cmocka_unit_test(test_details),         cmocka_unit_test(test_preview_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
