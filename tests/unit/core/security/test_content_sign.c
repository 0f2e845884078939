/* Building signed ContentObjects: byte-exact against the reference vectors,
 * every SignedInfo field and KeyLocator kind, and explicit DigestAlgorithms. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/keystore.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct ccnx_key *key1024;

static int setup(void **state)
{
    (void)state;
    return ccnx_key_generate(1024, &key1024) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(key1024);
    return 0;
}

/* Params that describe the parsed object field for field. */
static void params_from(const uint8_t *buf, const struct ccnx_content_parsed *pc,
                        struct ccnx_content_params *p)
{
    ccnx_content_params_init(p);
    p->name = buf + pc->name.off;
    p->name_len = pc->name.len;
    p->type = pc->type;
    p->freshness = pc->freshness;
    if (pc->has_final_block_id) {
        p->final_block_id = buf + pc->final_block_id.off;
        p->final_block_id_len = pc->final_block_id.len;
    }
    p->timestamp_value = buf + pc->timestamp.off;
    p->timestamp_value_len = pc->timestamp.len;
    p->key_locator = pc->key_locator_kind;
    if (pc->key_locator_kind == CCNX_KEYLOC_KEYNAME) {
        p->key_locator_value = buf + pc->key_name.off;
        p->key_locator_value_len = pc->key_name.len;
        if (pc->key_name_publisher.len > 0) {
            p->key_name_publisher = buf + pc->key_name_publisher.off;
            p->key_name_publisher_len = pc->key_name_publisher.len;
        }
    } else if (pc->key_locator_kind != CCNX_KEYLOC_NONE) {
        p->key_locator_value = buf + pc->key_locator_value.off;
        p->key_locator_value_len = pc->key_locator_value.len;
    }
    if (pc->ext_opt.len > 0) {
        p->ext_opt = buf + pc->ext_opt.off;
        p->ext_opt_len = pc->ext_opt.len;
    }
    p->content = buf + pc->content_value.off;
    p->content_len = pc->content_value.len;
}

/* Re-encodes a vector with our key: only the publisher digest and the
 * signature may differ, so with those patched the bytes must be equal. */
static void reencode(const char *name)
{
    struct ccnx_buf v = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    tu_read_vector(name, &v);
    struct ccnx_content_parsed pc, mine;
    assert_int_equal(ccnx_content_parse(v.data, v.len, &pc), 0);
    struct ccnx_content_params p;
    params_from(v.data, &pc, &p);
    assert_int_equal(ccnx_content_sign(&out, &p, key1024), 0);
    assert_int_equal(ccnx_content_parse(out.data, out.len, &mine), 0);
    assert_int_equal(ccnx_content_verify(out.data, out.len, &mine, key1024), 0);
    if (out.len != v.len) {
        fail_msg("%s: rebuilt %zu bytes, reference %zu", name, out.len, v.len);
    }
    assert_int_equal(mine.publisher.off, pc.publisher.off);
    assert_int_equal(mine.signature_bits.len, pc.signature_bits.len);
    memcpy(out.data + mine.publisher.off, v.data + pc.publisher.off, pc.publisher.len);
    memcpy(out.data + mine.signature_bits.off, v.data + pc.signature_bits.off,
           pc.signature_bits.len);
    if (memcmp(out.data, v.data, v.len) != 0) {
        fail_msg("%s: rebuilt bytes differ from the reference", name);
    }
    ccnx_buf_free(&out);
    ccnx_buf_free(&v);
}

static void test_reencode_vectors(void **state)
{
    (void)state;
    size_t n = 0, done = 0;
    char **list = tu_list_vectors(".ccnb", &n);
    for (size_t i = 0; i < n; i++) {
        int co = strncmp(list[i], "co_", 3) == 0;
        int ctl = strncmp(list[i], "ctl_", 4) == 0 &&
                  (strstr(list[i], "_reply.ccnb") || strstr(list[i], "_request_payload.ccnb"));
        if (co || ctl) {
            reencode(list[i]);
            done++;
        }
    }
    assert_int_equal(done, 26);
    tu_free_list(list, n);
}

static void make_name(struct ccnx_name *n, const char *a, const char *b)
{
    assert_int_equal(ccnx_name_init(n), 0);
    assert_int_equal(ccnx_name_append(n, a, strlen(a)), 0);
    assert_int_equal(ccnx_name_append(n, b, strlen(b)), 0);
}

static void test_defaults(void **state)
{
    (void)state;
    struct ccnx_name name;
    make_name(&name, "test", "defaults");
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    p.content = (const uint8_t *)"hello";
    p.content_len = 5;
    struct ccnx_buf out = CCNX_BUF_INIT;
    time_t before = time(NULL);
    assert_int_equal(ccnx_content_sign(&out, &p, key1024), 0);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(out.data, out.len, &pc), 0);
    assert_int_equal(pc.type, CCNX_TYPE_DATA);
    assert_int_equal(pc.type_value.len, 0);
    assert_int_equal(pc.freshness, -1);
    assert_false(pc.has_final_block_id);
    assert_int_equal(pc.ext_opt.len, 0);
    assert_int_equal(pc.witness.len, 0);
    assert_int_equal(pc.digest_algorithm.len, 0);
    assert_memory_equal(out.data + pc.publisher.off, ccnx_key_digest(key1024), 32);
    assert_memory_equal(out.data + pc.content_value.off, "hello", 5);
    /* Now, in 1/4096 s. */
    uint64_t ts = 0;
    assert_int_equal(ccnx_ccnb_binary_uint(out.data + pc.timestamp.off, pc.timestamp.len, &ts), 0);
    assert_true((int64_t)(ts >> 12) >= (int64_t)before - 1);
    assert_true((int64_t)(ts >> 12) <= (int64_t)time(NULL) + 1);
    /* The signer's public key is in the KeyLocator and is found from there. */
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_KEY);
    struct ccnx_key *carried = NULL;
    assert_int_equal(ccnx_content_locator_key(out.data, &pc, &carried), 0);
    assert_int_equal(ccnx_content_verify(out.data, out.len, &pc, carried), 0);
    ccnx_key_destroy(carried);
    ccnx_buf_free(&out);
    ccnx_name_free(&name);
}

static void build_and_parse(const struct ccnx_content_params *p, struct ccnx_buf *out,
                            struct ccnx_content_parsed *pc)
{
    ccnx_buf_reset(out);
    assert_int_equal(ccnx_content_sign(out, p, key1024), 0);
    assert_int_equal(ccnx_content_parse(out->data, out->len, pc), 0);
    assert_int_equal(ccnx_content_verify(out->data, out->len, pc, key1024), 0);
}

static void test_fields(void **state)
{
    (void)state;
    struct ccnx_name name;
    make_name(&name, "test", "fields");
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    const uint32_t types[] = {CCNX_TYPE_ENCR, CCNX_TYPE_GONE, CCNX_TYPE_KEY, CCNX_TYPE_LINK,
                              CCNX_TYPE_NACK};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        p.type = types[i];
        build_and_parse(&p, &out, &pc);
        assert_int_equal(pc.type, types[i]);
        assert_int_equal(pc.type_value.len, 3);
    }
    p.type = CCNX_TYPE_DATA;
    p.freshness = 0;
    p.final_block_id = (const uint8_t *)"\x00\x07";
    p.final_block_id_len = 2;
    p.ext_opt = (const uint8_t *)"opt";
    p.ext_opt_len = 3;
    p.timestamp = 5; /* still two bytes, as the reference writes it */
    build_and_parse(&p, &out, &pc);
    assert_int_equal(pc.freshness, 0);
    assert_true(pc.has_final_block_id);
    assert_int_equal(pc.final_block_id.len, 2);
    assert_memory_equal(out.data + pc.final_block_id.off, "\x00\x07", 2);
    assert_int_equal(pc.ext_opt.len, 3);
    assert_int_equal(pc.timestamp.len, 2);
    assert_memory_equal(out.data + pc.timestamp.off, "\x00\x05", 2);
    p.timestamp = 0x6B1121D927AL;
    build_and_parse(&p, &out, &pc);
    assert_int_equal(pc.timestamp.len, 6);
    assert_memory_equal(out.data + pc.timestamp.off, "\x06\xB1\x12\x1D\x92\x7A", 6);
    assert_int_equal(pc.content_value.len, 0);
    ccnx_buf_free(&out);
    ccnx_name_free(&name);
}

static void test_key_locator_kinds(void **state)
{
    (void)state;
    struct ccnx_name name, keyname;
    make_name(&name, "test", "locators");
    make_name(&keyname, "keys", "mine");
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    struct ccnx_key *k = NULL;

    p.key_locator = CCNX_KEYLOC_NONE;
    build_and_parse(&p, &out, &pc);
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_NONE);
    assert_int_equal(pc.key_locator.len, 0);
    assert_int_equal(ccnx_content_locator_key(out.data, &pc, &k), CCNX_E_NOKEY);

    p.key_locator = CCNX_KEYLOC_KEYNAME;
    p.key_locator_value = keyname.enc.data;
    p.key_locator_value_len = keyname.enc.len;
    p.key_name_publisher = ccnx_key_digest(key1024);
    p.key_name_publisher_len = CCNX_SHA256_LEN;
    build_and_parse(&p, &out, &pc);
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_KEYNAME);
    assert_int_equal(pc.key_name.len, keyname.enc.len);
    assert_memory_equal(out.data + pc.key_name.off, keyname.enc.data, keyname.enc.len);
    assert_memory_equal(out.data + pc.key_name_publisher.off, ccnx_key_digest(key1024), 32);
    assert_int_equal(ccnx_content_locator_key(out.data, &pc, &k), CCNX_E_NOKEY);

    /* Someone else's key in KeyLocator/Key is not taken as the publisher's. */
    struct ccnx_key *other = NULL;
    assert_int_equal(ccnx_key_generate(1024, &other), 0);
    p.key_locator = CCNX_KEYLOC_KEY;
    p.key_locator_value = ccnx_key_der(other, &p.key_locator_value_len);
    build_and_parse(&p, &out, &pc);
    assert_int_equal(ccnx_content_locator_key(out.data, &pc, &k), CCNX_E_NOKEY);
    assert_null(k);
    ccnx_key_destroy(other);
    ccnx_buf_free(&out);
    ccnx_name_free(&name);
    ccnx_name_free(&keyname);
}

static void test_certificate_locator(void **state)
{
    (void)state;
    char dir[] = "/tmp/ccnx_test_build_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[64];
    snprintf(file, sizeof file, "%s/ks", dir);
    struct ccnx_keystore_options opt = {1024, 1, "cert-test", 0};
    struct ccnx_keystore *ks = NULL;
    assert_int_equal(ccnx_keystore_create(file, "pw", &opt, &ks), 0);
    struct ccnx_name name;
    make_name(&name, "test", "cert");
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    p.key_locator = CCNX_KEYLOC_CERTIFICATE;
    p.key_locator_value = ccnx_keystore_certificate(ks, &p.key_locator_value_len);
    struct ccnx_buf out = CCNX_BUF_INIT;
    assert_int_equal(ccnx_content_sign(&out, &p, ccnx_keystore_key(ks)), 0);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(out.data, out.len, &pc), 0);
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_CERTIFICATE);
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_content_locator_key(out.data, &pc, &k), 0);
    assert_memory_equal(ccnx_key_digest(k), ccnx_keystore_digest(ks), CCNX_SHA256_LEN);
    assert_int_equal(ccnx_content_verify(out.data, out.len, &pc, k), 0);
    ccnx_key_destroy(k);
    ccnx_buf_free(&out);
    ccnx_name_free(&name);
    ccnx_keystore_destroy(ks);
    remove(file);
    remove(dir);
}

static void test_invalid_params(void **state)
{
    (void)state;
    struct ccnx_name name;
    make_name(&name, "test", "bad");
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    struct ccnx_buf out = CCNX_BUF_INIT;
    ccnx_buf_append(&out, "x", 1);

    struct ccnx_content_params q = p;
    q.name_len--;
    assert_int_equal(ccnx_content_sign(&out, &q, key1024), CCNX_E_INVAL);
    q = p;
    q.name = (const uint8_t *)"\x8a\x00"; /* an element, but not a Name */
    q.name_len = 2;
    assert_int_equal(ccnx_content_sign(&out, &q, key1024), CCNX_E_INVAL);
    q = p;
    q.key_locator = CCNX_KEYLOC_KEYNAME; /* without a name */
    assert_int_equal(ccnx_content_sign(&out, &q, key1024), CCNX_E_INVAL);
    q.key_locator_value = name.enc.data;
    q.key_locator_value_len = name.enc.len;
    q.key_name_publisher = (const uint8_t *)"short";
    q.key_name_publisher_len = 5;
    assert_int_equal(ccnx_content_sign(&out, &q, key1024), CCNX_E_INVAL);
    q = p;
    q.content_len = 3; /* no content pointer */
    assert_int_equal(ccnx_content_sign(&out, &q, key1024), CCNX_E_INVAL);
    assert_int_equal(ccnx_content_sign(&out, &p, NULL), CCNX_E_NOKEY);
    size_t n = 0;
    const uint8_t *der = ccnx_key_der(key1024, &n);
    struct ccnx_key *pub = NULL;
    assert_int_equal(ccnx_key_from_der(der, n, &pub), 0);
    assert_int_equal(ccnx_content_sign(&out, &p, pub), CCNX_E_NOKEY);
    assert_int_equal(out.len, 1);
    ccnx_key_destroy(pub);
    ccnx_buf_free(&out);
    ccnx_name_free(&name);
}

/* Rewrites a vector with a DigestAlgorithm element in its Signature. */
static void with_digest_algorithm(const char *oid, struct ccnx_buf *out)
{
    struct ccnx_buf v = CCNX_BUF_INIT;
    tu_read_vector("co_data_fresh.ccnb", &v);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(v.data, v.len, &pc), 0);
    ccnx_buf_reset(out);
    ccnx_ccnb_open(out, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(out, CCNX_DTAG_Signature);
    ccnx_ccnb_append_udata_element(out, CCNX_DTAG_DigestAlgorithm, oid, strlen(oid));
    ccnx_ccnb_append_blob_element(out, CCNX_DTAG_SignatureBits, v.data + pc.signature_bits.off,
                                  pc.signature_bits.len);
    ccnx_ccnb_append_closer(out);
    ccnx_buf_append(out, v.data + pc.signed_part.off, pc.signed_part.len);
    ccnx_ccnb_append_closer(out);
    assert_int_equal(ccnx_buf_status(out), 0);
    ccnx_buf_free(&v);
}

static void test_explicit_digest_algorithm(void **state)
{
    (void)state;
    struct ccnx_buf kb = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    tu_read_vector("user_pubkey.pem", &kb);
    struct ccnx_key *user = NULL;
    assert_int_equal(ccnx_key_from_pem(kb.data, kb.len, NULL, &user), 0);
    struct {
        const char *oid;
        int want;
    } cases[] = {
        {"2.16.840.1.101.3.4.2.1", 0},
        {"1.3.14.3.2.26", CCNX_E_BADSIG},
        {"2.16.840.1.101.3.4.2.3", CCNX_E_BADSIG},
        {"1.2.3.4", CCNX_E_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        with_digest_algorithm(cases[i].oid, &obj);
        struct ccnx_content_parsed pc;
        assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
        assert_int_equal(pc.digest_algorithm.len, strlen(cases[i].oid));
        assert_int_equal(ccnx_content_verify(obj.data, obj.len, &pc, user), cases[i].want);
    }
    ccnx_key_destroy(user);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&kb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reencode_vectors),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_key_locator_kinds),
        cmocka_unit_test(test_certificate_locator),
        cmocka_unit_test(test_invalid_params),
        cmocka_unit_test(test_explicit_digest_algorithm),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
