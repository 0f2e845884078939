/* Keys, single signatures, and every signature in the reference vectors. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *file;
    const char *digest;
} vector_keys[] = {
    {"user_pubkey.pem", "5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc"},
    {"ccnd_a_pubkey.pem", "0b24c197764e1a6465ebaf59756a4b5630eef6d9910a62011226811c82a4896f"},
    {"ccnd_b_pubkey.pem", "49535c295a112d4028259744a258669f29e63cc1b03a160c17404018141d0cd3"},
    {"ccnr_pubkey.pem", "c9502fe3c0ddc8eb01cfeb83e991c371db484911bad0260a96236f21f3acc332"},
};
#define NKEYS (sizeof vector_keys / sizeof vector_keys[0])

static struct ccnx_key *load_vector_key(const char *name)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    tu_read_vector(name, &b);
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_key_from_pem(b.data, b.len, NULL, &k), 0);
    ccnx_buf_free(&b);
    return k;
}

static void test_vector_key_digests(void **state)
{
    (void)state;
    for (size_t i = 0; i < NKEYS; i++) {
        struct ccnx_key *k = load_vector_key(vector_keys[i].file);
        struct ccnx_buf want = CCNX_BUF_INIT;
        tu_hex(vector_keys[i].digest, &want);
        assert_memory_equal(ccnx_key_digest(k), want.data, CCNX_SHA256_LEN);
        assert_false(ccnx_key_has_private(k));
        assert_true(ccnx_key_is_rsa(k));
        assert_int_equal(ccnx_key_signature_size(k), 128);
        ccnx_buf_free(&want);
        ccnx_key_destroy(k);
    }
}

static void test_der_matches_pem(void **state)
{
    (void)state;
    struct ccnx_buf der = CCNX_BUF_INIT;
    tu_read_vector("user_pubkey.der", &der);
    struct ccnx_key *from_der = NULL;
    assert_int_equal(ccnx_key_from_der(der.data, der.len, &from_der), 0);
    struct ccnx_key *from_pem = load_vector_key("user_pubkey.pem");
    size_t n = 0;
    const uint8_t *p = ccnx_key_der(from_pem, &n);
    assert_int_equal(n, der.len);
    assert_memory_equal(p, der.data, n);
    assert_memory_equal(ccnx_key_digest(from_der), ccnx_key_digest(from_pem), CCNX_SHA256_LEN);
    uint8_t d[CCNX_SHA256_LEN];
    assert_int_equal(ccnx_sha256(der.data, der.len, d), 0);
    assert_memory_equal(d, ccnx_key_digest(from_der), sizeof d);

    /* Garbage and trailing bytes are refused. */
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_key_from_der(der.data + 1, der.len - 1, &k), CCNX_E_VALUE);
    ccnx_buf_append_byte(&der, 0);
    assert_int_equal(ccnx_key_from_der(der.data, der.len, &k), CCNX_E_TRAILING);
    assert_int_equal(ccnx_key_from_pem("junk", 4, NULL, &k), CCNX_E_VALUE);
    assert_null(k);
    ccnx_key_destroy(from_der);
    ccnx_key_destroy(from_pem);
    ccnx_buf_free(&der);
}

static void test_sign_verify_round_trip(void **state)
{
    (void)state;
    struct ccnx_key *k = NULL, *other = NULL;
    assert_int_equal(ccnx_key_generate(1024, &k), 0);
    assert_int_equal(ccnx_key_generate(1024, &other), 0);
    assert_true(ccnx_key_has_private(k));
    uint8_t data[300];
    for (size_t i = 0; i < sizeof data; i++) {
        data[i] = (uint8_t)(i * 7);
    }
    uint8_t sig[256];
    size_t siglen = 0;
    assert_int_equal(ccnx_key_sign(k, data, sizeof data, sig, &siglen), 0);
    assert_int_equal(siglen, 128);
    assert_int_equal(ccnx_key_verify(k, data, sizeof data, sig, siglen), 0);
    assert_int_equal(ccnx_key_verify_md(k, "SHA256", data, sizeof data, sig, siglen), 0);
    assert_int_equal(ccnx_key_verify_md(k, "SHA1", data, sizeof data, sig, siglen), CCNX_E_BADSIG);
    assert_int_equal(ccnx_key_verify_md(k, "NO-SUCH-DIGEST", data, sizeof data, sig, siglen),
                     CCNX_E_UNSUPPORTED);
    assert_int_equal(ccnx_key_verify(other, data, sizeof data, sig, siglen), CCNX_E_BADSIG);
    data[150] ^= 1;
    assert_int_equal(ccnx_key_verify(k, data, sizeof data, sig, siglen), CCNX_E_BADSIG);
    data[150] ^= 1;
    sig[5] ^= 0x80;
    assert_int_equal(ccnx_key_verify(k, data, sizeof data, sig, siglen), CCNX_E_BADSIG);
    assert_int_equal(ccnx_key_verify(k, data, sizeof data, sig, siglen - 1), CCNX_E_BADSIG);
    assert_int_equal(ccnx_key_verify(NULL, data, sizeof data, sig, siglen), CCNX_E_NOKEY);

    /* The public half alone verifies but cannot sign. */
    size_t n = 0;
    const uint8_t *der = ccnx_key_der(k, &n);
    struct ccnx_key *pub = NULL;
    assert_int_equal(ccnx_key_from_der(der, n, &pub), 0);
    sig[5] ^= 0x80;
    assert_int_equal(ccnx_key_verify(pub, data, sizeof data, sig, siglen), 0);
    assert_int_equal(ccnx_key_sign(pub, data, sizeof data, sig, &siglen), CCNX_E_NOKEY);
    ccnx_key_destroy(pub);
    ccnx_key_destroy(other);
    ccnx_key_destroy(k);
}

static void test_generate_default_and_bounds(void **state)
{
    (void)state;
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_key_generate(0, &k), 0);
    assert_int_equal(ccnx_key_signature_size(k), CCNX_KEY_DEFAULT_BITS / 8);
    ccnx_key_destroy(k);
    k = NULL;
    assert_int_equal(ccnx_key_generate(256, &k), CCNX_E_INVAL);
    assert_null(k);
}

static char *temp_dir(void)
{
    char tmpl[] = "/tmp/ccnx_test_sign_XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return strdup(d);
}

static void test_pem_files(void **state)
{
    (void)state;
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_key_generate(1024, &k), 0);
    char *dir = temp_dir();
    char priv[512], pub[512];
    snprintf(priv, sizeof priv, "%s/priv.pem", dir);
    snprintf(pub, sizeof pub, "%s/pub.pem", dir);
    assert_int_equal(ccnx_key_save_private_pem(k, priv), 0);
    assert_int_equal(ccnx_key_save_public_pem(k, pub), 0);
    struct stat st;
    assert_int_equal(stat(priv, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);

    struct ccnx_key *kp = NULL, *kq = NULL;
    assert_int_equal(ccnx_key_load_pem(priv, NULL, &kp), 0);
    assert_int_equal(ccnx_key_load_pem(pub, NULL, &kq), 0);
    assert_true(ccnx_key_has_private(kp));
    assert_false(ccnx_key_has_private(kq));
    assert_memory_equal(ccnx_key_digest(kp), ccnx_key_digest(k), CCNX_SHA256_LEN);
    assert_memory_equal(ccnx_key_digest(kq), ccnx_key_digest(k), CCNX_SHA256_LEN);

    /* A key loaded from its file signs what the original verifies. */
    uint8_t sig[128];
    size_t siglen = 0;
    assert_int_equal(ccnx_key_sign(kp, "abc", 3, sig, &siglen), 0);
    assert_int_equal(ccnx_key_verify(k, "abc", 3, sig, siglen), 0);
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_key_append_private_pem(kq, &b), CCNX_E_NOKEY);

    struct ccnx_key *missing = NULL;
    char nofile[600];
    snprintf(nofile, sizeof nofile, "%s/none.pem", dir);
    assert_int_equal(ccnx_key_load_pem(nofile, NULL, &missing), CCNX_E_IO);
    unlink(priv);
    unlink(pub);
    rmdir(dir);
    free(dir);
    ccnx_buf_free(&b);
    ccnx_key_destroy(kp);
    ccnx_key_destroy(kq);
    ccnx_key_destroy(k);
}

/* ---- Every signed object of the reference vectors ---- */

struct keyset {
    struct ccnx_key *k[NKEYS];
};

static const struct ccnx_key *key_for(const struct keyset *ks, const uint8_t *digest, size_t n)
{
    for (size_t i = 0; n == CCNX_SHA256_LEN && i < NKEYS; i++) {
        if (memcmp(ccnx_key_digest(ks->k[i]), digest, n) == 0) {
            return ks->k[i];
        }
    }
    return NULL;
}

static void expect_tamper_fails(uint8_t *obj, size_t len, size_t at, const struct ccnx_key *key)
{
    obj[at] ^= 0x01;
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
    assert_int_equal(ccnx_content_verify(obj, len, &pc, key), CCNX_E_BADSIG);
    obj[at] ^= 0x01;
}

/* Verifies one ContentObject and checks that flipping a byte of its Name,
 * SignedInfo, Content or SignatureBits breaks it. */
static void check_object(const struct keyset *ks, uint8_t *obj, size_t len, const char *file)
{
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
    const struct ccnx_key *key = key_for(ks, obj + pc.publisher.off, pc.publisher.len);
    if (key == NULL) {
        fail_msg("%s: no vector key for its publisher", file);
    }
    if (ccnx_content_verify(obj, len, &pc, key) != 0) {
        fail_msg("%s: signature does not verify", file);
    }
    /* The embedded key, when present, is the publisher's own. */
    struct ccnx_key *carried = NULL;
    int rc = ccnx_content_locator_key(obj, &pc, &carried);
    if (pc.key_locator_kind == CCNX_KEYLOC_KEY) {
        assert_int_equal(rc, 0);
        assert_memory_equal(ccnx_key_digest(carried), ccnx_key_digest(key), CCNX_SHA256_LEN);
    } else {
        assert_int_equal(rc, CCNX_E_NOKEY);
    }
    ccnx_key_destroy(carried);
    expect_tamper_fails(obj, len, pc.publisher.off + 3, key);
    if (pc.name_count > 0) {
        /* Last byte of the last component (before its closer and the Name's). */
        expect_tamper_fails(obj, len, pc.name.off + pc.name.len - 3, key);
    }
    if (pc.content_value.len > 0) {
        expect_tamper_fails(obj, len, pc.content_value.off + pc.content_value.len / 2, key);
    }
    expect_tamper_fails(obj, len, pc.signature_bits.off + 10, key);
}

static int is_signed_vector(const char *name)
{
    size_t n = strlen(name);
    int reply = n > 11 && strcmp(name + n - 11, "_reply.ccnb") == 0;
    int payload = strstr(name, "_request_payload.ccnb") != NULL;
    return strncmp(name, "co_", 3) == 0 || strncmp(name, "stream_", 7) == 0 ||
           strncmp(name, "udp_dgram_", 10) == 0 || (strncmp(name, "ctl_", 4) == 0 && reply) ||
           (strncmp(name, "ctl_", 4) == 0 && payload);
}

/* Cuts a file into elements and checks every ContentObject; returns how many. */
static size_t check_file(const struct keyset *ks, const char *name)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    tu_read_vector(name, &b);
    size_t count = 0, pos = 0;
    while (pos < b.len) {
        size_t end;
        assert_int_equal(ccnx_ccnb_element_end(b.data, b.len, pos, &end), 0);
        struct ccnx_ccnb_reader r;
        ccnx_ccnb_reader_init(&r, b.data, b.len, pos);
        if (ccnx_ccnb_peek_dtag(&r) == CCNX_DTAG_ContentObject) {
            check_object(ks, b.data + pos, end - pos, name);
            count++;
        }
        pos = end;
    }
    ccnx_buf_free(&b);
    return count;
}

static void test_vectors_verify(void **state)
{
    (void)state;
    struct keyset ks;
    for (size_t i = 0; i < NKEYS; i++) {
        ks.k[i] = load_vector_key(vector_keys[i].file);
    }
    size_t nfiles = 0, objects = 0, files_with_objects = 0;
    char **list = tu_list_vectors(".ccnb", &nfiles);
    for (size_t i = 0; i < nfiles; i++) {
        if (!is_signed_vector(list[i])) {
            continue;
        }
        size_t c = check_file(&ks, list[i]);
        if (c == 0 && strncmp(list[i], "stream_", 7) != 0 && strncmp(list[i], "udp_", 4) != 0) {
            fail_msg("%s holds no ContentObject", list[i]);
        }
        files_with_objects += c > 0;
        objects += c;
    }
    /* 18 co_, 4 replies, 4 payloads, 7 objects in 4 streams, 2 in datagrams. */
    assert_int_equal(files_with_objects, 32);
    assert_int_equal(objects, 35);
    tu_free_list(list, nfiles);
    for (size_t i = 0; i < NKEYS; i++) {
        ccnx_key_destroy(ks.k[i]);
    }
}

static void test_verify_refuses_unknown_digest(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    tu_read_vector("co_data_fresh.ccnb", &b);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
    struct ccnx_key *k = load_vector_key("user_pubkey.pem");
    /* Point DigestAlgorithm at some bytes that are not a digest OID. */
    struct ccnx_content_parsed odd = pc;
    odd.digest_algorithm = pc.name;
    assert_int_equal(ccnx_content_verify(b.data, b.len, &odd, k), CCNX_E_UNSUPPORTED);
    assert_int_equal(ccnx_content_verify(b.data, b.len, &pc, NULL), CCNX_E_NOKEY);
    struct ccnx_content_parsed nosig = pc;
    nosig.signature_bits.len = 0;
    assert_int_equal(ccnx_content_verify(b.data, b.len, &nosig, k), CCNX_E_BADSIG);
    struct ccnx_content_parsed outside = pc;
    outside.signed_part.len = b.len;
    assert_int_equal(ccnx_content_verify(b.data, b.len, &outside, k), CCNX_E_INVAL);
    ccnx_key_destroy(k);
    ccnx_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_key_digests),
        cmocka_unit_test(test_der_matches_pem),
        cmocka_unit_test(test_sign_verify_round_trip),
        cmocka_unit_test(test_generate_default_and_bounds),
        cmocka_unit_test(test_pem_files),
        cmocka_unit_test(test_vectors_verify),
        cmocka_unit_test(test_verify_refuses_unknown_digest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
