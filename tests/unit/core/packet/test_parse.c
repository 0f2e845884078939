/* Interest and ContentObject parsing on the reference vectors, field by field,
 * and totality on truncated and corrupted input. */
#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

#include <stdlib.h>
#include <string.h>

static const char user_digest_hex[] =
    "5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc";

static void assert_span_hex(const uint8_t *buf, struct ccnx_span s, const char *hex)
{
    struct ccnx_buf want = CCNX_BUF_INIT;
    tu_hex(hex, &want);
    assert_int_equal(s.len, want.len);
    assert_memory_equal(buf + s.off, want.data, want.len);
    ccnx_buf_free(&want);
}

static void test_interest_all_fields(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    tu_read_vector("int_all_fields.ccnb", &b);
    assert_int_equal(ccnx_interest_parse(b.data, b.len, &pi), 0);
    assert_int_equal(pi.name_count, 3);
    assert_int_equal(pi.min_suffix, 2);
    assert_int_equal(pi.max_suffix, 4);
    assert_span_hex(b.data, pi.publisher, user_digest_hex);
    assert_int_equal(pi.child_selector, 1);
    assert_int_equal(pi.answer_origin_kind, 3);
    assert_int_equal(pi.scope, 1);
    assert_true(pi.lifetime == 0x2000);
    assert_span_hex(b.data, pi.nonce, "010203040506070899");
    assert_int_equal(pi.face_id, -1);

    struct ccnx_exclude_iter it;
    struct ccnx_exclude_item item;
    assert_int_equal(ccnx_exclude_iter_init(&it, b.data, pi.exclude), 0);
    assert_int_equal(ccnx_exclude_iter_next(&it, &item), 1);
    assert_int_equal(item.kind, CCNX_EXCLUDE_ANY);
    assert_int_equal(ccnx_exclude_iter_next(&it, &item), 1);
    assert_int_equal(item.kind, CCNX_EXCLUDE_COMPONENT);
    assert_int_equal(item.n, 1);
    assert_memory_equal(item.p, "a", 1);
    assert_int_equal(ccnx_exclude_iter_next(&it, &item), 0);
    ccnx_buf_free(&b);
}

static void test_interest_defaults(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    tu_read_vector("int_name_only.ccnb", &b);
    assert_int_equal(ccnx_interest_parse(b.data, b.len, &pi), 0);
    assert_int_equal(pi.name_count, 4);
    assert_int_equal(pi.min_suffix, 0);
    assert_true(pi.max_suffix == CCNX_SUFFIX_UNLIMITED);
    assert_int_equal(pi.publisher.len, 0);
    assert_int_equal(pi.exclude.len, 0);
    assert_int_equal(pi.child_selector, -1);
    assert_int_equal(ccnx_interest_aok(&pi), CCNX_AOK_DEFAULT);
    assert_int_equal(pi.scope, -1);
    assert_true(pi.lifetime == CCNX_INTEREST_LIFETIME_DEFAULT);
    assert_int_equal(pi.nonce.len, 0);
    /* A ContentObject is not an Interest. */
    tu_read_vector("co_gone.ccnb", &b);
    assert_int_equal(ccnx_interest_parse(b.data, b.len, &pi), CCNX_E_STRUCTURE);
    ccnx_buf_free(&b);
}

static void test_content_fields(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    tu_read_vector("co_data_fresh.ccnb", &b);
    assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
    assert_int_equal(pc.name_count, 4);
    assert_true(pc.type == CCNX_TYPE_DATA);
    assert_int_equal(pc.type_value.len, 0);
    assert_int_equal(pc.freshness, 30);
    assert_span_hex(b.data, pc.publisher, user_digest_hex);
    assert_span_hex(b.data, pc.timestamp, "06B1121D90F0");
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_KEY);
    assert_int_equal(pc.key_locator_value.len, 162);
    assert_int_equal(pc.digest_algorithm.len, 0);
    assert_int_equal(pc.witness.len, 0);
    assert_int_equal(pc.signature_bits.len, 128);
    const char hello[] = "Hello, CCNx 0.8.2 reference!\n";
    assert_int_equal(pc.content_value.len, sizeof hello - 1);
    assert_memory_equal(b.data + pc.content_value.off, hello, sizeof hello - 1);
    assert_int_equal(pc.signed_part.off, pc.name.off);
    assert_int_equal(pc.signed_part.off + pc.signed_part.len, pc.content.off + pc.content.len);
    assert_int_equal(pc.object.len, b.len);

    tu_read_vector("co_keyname_locator.ccnb", &b);
    assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_KEYNAME);
    assert_int_equal(ccnx_name_count_ccnb(b.data + pc.key_name.off, pc.key_name.len), 5);

    tu_read_vector("co_final_block.ccnb", &b);
    assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
    assert_true(pc.has_final_block_id);
    assert_span_hex(b.data, pc.final_block_id, "0003");

    tu_read_vector("co_extopt.ccnb", &b);
    assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
    assert_true(pc.ext_opt.len > 0);

    tu_read_vector("co_data_empty.ccnb", &b);
    assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
    assert_int_equal(pc.content_value.len, 0);
    assert_int_equal(pc.freshness, 5);
    ccnx_buf_free(&b);
}

static void test_content_types(void **state)
{
    (void)state;
    const struct {
        const char *file;
        uint32_t type;
        const char *name;
    } cases[] = {
        {"co_gone.ccnb", CCNX_TYPE_GONE, "GONE"}, {"co_nack.ccnb", CCNX_TYPE_NACK, "NACK"},
        {"co_key.ccnb", CCNX_TYPE_KEY, "KEY"},    {"co_link.ccnb", CCNX_TYPE_LINK, "LINK"},
        {"co_encr.ccnb", CCNX_TYPE_ENCR, "ENCR"}, {"co_binary_name.ccnb", CCNX_TYPE_DATA, "DATA"},
    };
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_read_vector(cases[i].file, &b);
        assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
        assert_true(pc.type == cases[i].type);
        assert_string_equal(ccnx_content_type_name(pc.type), cases[i].name);
    }
    assert_null(ccnx_content_type_name(0x123456));
    ccnx_buf_free(&b);
}

/* Every vector element parses, and no truncation or single-byte corruption
 * of it makes a parser misbehave (ASan/UBSan builds check the "misbehave"). */
static void parse_any(const uint8_t *p, size_t n)
{
    struct ccnx_interest_parsed pi;
    struct ccnx_content_parsed pc;
    int ri = ccnx_interest_parse(p, n, &pi);
    int rc = ccnx_content_parse(p, n, &pc);
    assert_true(ri <= 0 && rc <= 0);
    if (ri == 0) {
        assert_true(pi.name.off + pi.name.len <= n);
    }
    if (rc == 0) {
        assert_true(pc.content_value.off + pc.content_value.len <= n);
    }
}

static void test_all_vectors_parse_and_survive_damage(void **state)
{
    (void)state;
    size_t count, elements = 0;
    char **files = tu_list_vectors(".ccnb", &count);
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        tu_read_vector(files[i], &b);
        struct ccnx_skel s;
        ccnx_skel_init(&s);
        size_t pos = 0, used;
        while (pos < b.len && ccnx_skel_feed(&s, b.data + pos, b.len - pos, &used) == 1) {
            const uint8_t *el = b.data + pos;
            struct ccnx_interest_parsed pi;
            struct ccnx_content_parsed pc;
            if (s.top_dtag == CCNX_DTAG_Interest) {
                assert_int_equal(ccnx_interest_parse(el, used, &pi), 0);
            } else if (s.top_dtag == CCNX_DTAG_ContentObject) {
                assert_int_equal(ccnx_content_parse(el, used, &pc), 0);
            }
            for (size_t cut = 0; cut < used; cut++) {
                parse_any(el, cut);
            }
            uint8_t *copy = malloc(used);
            memcpy(copy, el, used);
            for (size_t k = 0; k < used; k++) {
                copy[k] ^= 0xA5;
                parse_any(copy, used);
                copy[k] ^= 0xA5;
            }
            free(copy);
            elements++;
            pos += used;
        }
        assert_int_equal(pos, b.len);
    }
    assert_true(elements >= 90);
    ccnx_buf_free(&b);
    tu_free_list(files, count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interest_all_fields),
        cmocka_unit_test(test_interest_defaults),
        cmocka_unit_test(test_content_fields),
        cmocka_unit_test(test_content_types),
        cmocka_unit_test(test_all_vectors_parse_and_survive_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
