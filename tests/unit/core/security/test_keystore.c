/* The user keystore: paths, create/open, permissions, passwords, and files
 * made the way the reference makes them. */
#include "testutil.h"

#include <ccnx/error.h>
#include <ccnx/key.h>
#include <ccnx/keystore.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/objects.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

static char dir[256];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ccnx_test_keystore_XXXXXX");
    if (mkdtemp(dir) == NULL) {
        return -1;
    }
    unsetenv("CCNX_KEYSTORE_PASSWORD");
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_of(char *out, size_t size, const char *rel)
{
    snprintf(out, size, "%s/%s", dir, rel);
}

static const struct ccnx_keystore_options small = {1024, 30, "tester", 0};

static void test_default_path(void **state)
{
    (void)state;
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    struct ccnx_buf b = CCNX_BUF_INIT;
    setenv("CCNX_DIR", "/some/where", 1);
    assert_int_equal(ccnx_keystore_default_path(&b), 0);
    assert_string_equal(ccnx_buf_cstr(&b), "/some/where/.ccnx_keystore");
    ccnx_buf_reset(&b);
    setenv("CCNX_DIR", "", 1); /* empty counts as unset */
    setenv("HOME", "/home/u", 1);
    assert_int_equal(ccnx_keystore_default_path(&b), 0);
    assert_string_equal(ccnx_buf_cstr(&b), "/home/u/.ccnx/.ccnx_keystore");
    ccnx_buf_reset(&b);
    unsetenv("CCNX_DIR");
    unsetenv("HOME");
    assert_int_equal(ccnx_keystore_default_path(&b), CCNX_E_NOTFOUND);
    if (old_home != NULL) {
        setenv("HOME", old_home, 1);
    }
    free(old_home);
    ccnx_buf_free(&b);

    assert_string_equal(ccnx_keystore_default_password(), "Th1s1sn0t8g00dp8ssw0rd.");
    setenv("CCNX_KEYSTORE_PASSWORD", "other", 1);
    assert_string_equal(ccnx_keystore_default_password(), "other");
    unsetenv("CCNX_KEYSTORE_PASSWORD");
}

static void check_mode(const char *path, unsigned mode)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, mode);
}

/* The certificate carries the same key and the subject we asked for. */
static void check_certificate(const struct ccnx_keystore *ks, const char *cn)
{
    size_t n = 0;
    const uint8_t *der = ccnx_keystore_certificate(ks, &n);
    assert_non_null(der);
    const unsigned char *p = der;
    X509 *cert = d2i_X509(NULL, &p, (long)n);
    assert_non_null(cert);
    unsigned char *spki = NULL;
    int len = i2d_PUBKEY(X509_get0_pubkey(cert), &spki);
    assert_true(len > 0);
    uint8_t d[CCNX_SHA256_LEN];
    assert_int_equal(ccnx_sha256(spki, (size_t)len, d), 0);
    assert_memory_equal(d, ccnx_keystore_digest(ks), sizeof d);
    char name[64];
    X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, name, sizeof name);
    assert_string_equal(name, cn);
    OPENSSL_free(spki);
    X509_free(cert);
}

static void test_create_and_open(void **state)
{
    (void)state;
    char sub[300], file[320];
    path_of(sub, sizeof sub, "sub");
    path_of(file, sizeof file, "sub/.ccnx_keystore");
    setenv("CCNX_DIR", sub, 1);
    struct ccnx_keystore *ks = NULL;
    assert_int_equal(ccnx_keystore_open(NULL, NULL, &ks), CCNX_E_NOTFOUND);
    assert_int_equal(ccnx_keystore_create(NULL, NULL, &small, &ks), 0);
    check_mode(sub, 0700);
    check_mode(file, 0600);
    check_certificate(ks, "tester");
    assert_true(ccnx_key_has_private(ccnx_keystore_key(ks)));
    assert_int_equal(ccnx_key_signature_size(ccnx_keystore_key(ks)), 128);

    struct ccnx_keystore *again = NULL;
    assert_int_equal(ccnx_keystore_open(file, "Th1s1sn0t8g00dp8ssw0rd.", &again), 0);
    assert_memory_equal(ccnx_keystore_digest(again), ccnx_keystore_digest(ks), CCNX_SHA256_LEN);
    /* The reopened key signs what the first one verifies. */
    uint8_t sig[128];
    size_t siglen = 0;
    assert_int_equal(ccnx_key_sign(ccnx_keystore_key(again), "x", 1, sig, &siglen), 0);
    assert_int_equal(ccnx_key_verify(ccnx_keystore_key(ks), "x", 1, sig, siglen), 0);
    ccnx_keystore_destroy(again);
    ccnx_keystore_destroy(ks);
    unsetenv("CCNX_DIR");
}

static void test_wrong_password(void **state)
{
    (void)state;
    char file[300];
    path_of(file, sizeof file, "pw.p12");
    struct ccnx_keystore *ks = NULL;
    assert_int_equal(ccnx_keystore_create(file, "secret", &small, NULL), 0);
    assert_int_equal(ccnx_keystore_open(file, "wrong", &ks), CCNX_E_KEYSTORE);
    assert_null(ks);
    assert_int_equal(ccnx_keystore_open(file, NULL, &ks), CCNX_E_KEYSTORE);
    setenv("CCNX_KEYSTORE_PASSWORD", "secret", 1);
    assert_int_equal(ccnx_keystore_open(file, NULL, &ks), 0);
    unsetenv("CCNX_KEYSTORE_PASSWORD");
    ccnx_keystore_destroy(ks);
}

static void test_no_overwrite(void **state)
{
    (void)state;
    char file[300];
    path_of(file, sizeof file, "once.p12");
    struct ccnx_keystore *first = NULL, *second = NULL;
    assert_int_equal(ccnx_keystore_create(file, NULL, &small, &first), 0);
    errno = 0;
    assert_int_equal(ccnx_keystore_create(file, NULL, &small, NULL), CCNX_E_IO);
    assert_int_equal(errno, EEXIST);
    struct ccnx_keystore_options force = small;
    force.overwrite = 1;
    chmod(file, 0644);
    assert_int_equal(ccnx_keystore_create(file, NULL, &force, &second), 0);
    check_mode(file, 0600);
    assert_memory_not_equal(ccnx_keystore_digest(first), ccnx_keystore_digest(second),
                            CCNX_SHA256_LEN);
    struct ccnx_keystore *now = NULL;
    assert_int_equal(ccnx_keystore_open(file, NULL, &now), 0);
    assert_memory_equal(ccnx_keystore_digest(now), ccnx_keystore_digest(second), CCNX_SHA256_LEN);
    ccnx_keystore_destroy(now);
    ccnx_keystore_destroy(first);
    ccnx_keystore_destroy(second);
}

static void test_open_or_create(void **state)
{
    (void)state;
    char sub[300];
    path_of(sub, sizeof sub, "home");
    assert_int_equal(mkdir(sub, 0755), 0);
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("HOME", sub, 1);
    unsetenv("CCNX_DIR");
    struct ccnx_keystore *a = NULL, *b = NULL;
    assert_int_equal(ccnx_keystore_open_or_create(NULL, NULL, &a), 0);
    assert_int_equal(ccnx_key_signature_size(ccnx_keystore_key(a)), CCNX_KEY_DEFAULT_BITS / 8);
    assert_int_equal(ccnx_keystore_open_or_create(NULL, NULL, &b), 0);
    assert_memory_equal(ccnx_keystore_digest(a), ccnx_keystore_digest(b), CCNX_SHA256_LEN);
    char file[400];
    snprintf(file, sizeof file, "%s/.ccnx/.ccnx_keystore", sub);
    check_mode(file, 0600);
    if (old_home != NULL) {
        setenv("HOME", old_home, 1);
    }
    free(old_home);
    ccnx_keystore_destroy(a);
    ccnx_keystore_destroy(b);
}

static void test_garbage_file(void **state)
{
    (void)state;
    char file[300];
    path_of(file, sizeof file, "junk.p12");
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("not a keystore", f);
    fclose(f);
    struct ccnx_keystore *ks = NULL;
    assert_int_equal(ccnx_keystore_open(file, NULL, &ks), CCNX_E_KEYSTORE);
}

static void check_reference_file(const char *p12, const char *pub)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", CCNX_TEST_DATA_DIR, p12);
    struct ccnx_keystore *ks = NULL;
    assert_int_equal(ccnx_keystore_open(path, NULL, &ks), 0);
    snprintf(path, sizeof path, "%s/%s", CCNX_TEST_DATA_DIR, pub);
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_key_load_pem(path, NULL, &k), 0);
    assert_memory_equal(ccnx_keystore_digest(ks), ccnx_key_digest(k), CCNX_SHA256_LEN);
    check_certificate(ks, "refuser");
    uint8_t sig[128];
    size_t siglen = 0;
    assert_int_equal(ccnx_key_sign(ccnx_keystore_key(ks), "y", 1, sig, &siglen), 0);
    assert_int_equal(ccnx_key_verify(k, "y", 1, sig, siglen), 0);
    ccnx_key_destroy(k);
    ccnx_keystore_destroy(ks);
}

static void test_reference_made_files(void **state)
{
    (void)state;
    check_reference_file("sign_keystore_openssl3.p12", "sign_keystore_openssl3_pub.pem");
    /* 40-bit RC2 needs the legacy provider, loaded on demand. */
    check_reference_file("sign_keystore_legacy.p12", "sign_keystore_legacy_pub.pem");
}

static void expect_pbe(const X509_ALGOR *alg)
{
    const ASN1_OBJECT *oid = NULL;
    X509_ALGOR_get0(&oid, NULL, NULL, alg);
    assert_int_equal(OBJ_obj2nid(oid), NID_pbe_WithSHA1And3_Key_TripleDES_CBC);
}

/* Algorithms both OpenSSL 1.x and 3.x read without extra providers, and the
 * reference's friendly name on the bags. */
static void test_file_algorithms(void **state)
{
    (void)state;
    char file[300];
    path_of(file, sizeof file, "algs.p12");
    assert_int_equal(ccnx_keystore_create(file, NULL, &small, NULL), 0);
    FILE *f = fopen(file, "rb");
    assert_non_null(f);
    PKCS12 *p12 = d2i_PKCS12_fp(f, NULL);
    fclose(f);
    assert_non_null(p12);
    const X509_ALGOR *macalg = NULL;
    PKCS12_get0_mac(NULL, &macalg, NULL, NULL, p12);
    const ASN1_OBJECT *oid = NULL;
    X509_ALGOR_get0(&oid, NULL, NULL, macalg);
    assert_int_equal(OBJ_obj2nid(oid), NID_sha1);
    STACK_OF(PKCS7) *safes = PKCS12_unpack_authsafes(p12);
    assert_non_null(safes);
    int names = 0, shrouded = 0, encrypted = 0;
    for (int i = 0; i < sk_PKCS7_num(safes); i++) {
        PKCS7 *p7 = sk_PKCS7_value(safes, i);
        STACK_OF(PKCS12_SAFEBAG) *bags = NULL;
        if (OBJ_obj2nid(p7->type) == NID_pkcs7_encrypted) {
            expect_pbe(p7->d.encrypted->enc_data->algorithm);
            encrypted++;
            bags = PKCS12_unpack_p7encdata(p7, CCNX_KEYSTORE_DEFAULT_PASSWORD, -1);
        } else {
            bags = PKCS12_unpack_p7data(p7);
        }
        assert_non_null(bags);
        for (int j = 0; j < sk_PKCS12_SAFEBAG_num(bags); j++) {
            PKCS12_SAFEBAG *bag = sk_PKCS12_SAFEBAG_value(bags, j);
            char *name = PKCS12_get_friendlyname(bag);
            assert_non_null(name);
            assert_string_equal(name, CCNX_KEYSTORE_ALIAS);
            OPENSSL_free(name);
            names++;
            if (PKCS12_SAFEBAG_get_nid(bag) == NID_pkcs8ShroudedKeyBag) {
                const X509_ALGOR *alg = NULL;
                X509_SIG_get0(PKCS12_SAFEBAG_get0_pkcs8(bag), &alg, NULL);
                expect_pbe(alg);
                shrouded++;
            }
        }
        sk_PKCS12_SAFEBAG_pop_free(bags, PKCS12_SAFEBAG_free);
    }
    assert_int_equal(names, 2);
    assert_int_equal(shrouded, 1);
    assert_int_equal(encrypted, 1);
    sk_PKCS7_pop_free(safes, PKCS7_free);
    PKCS12_free(p12);
}

static void test_bad_options(void **state)
{
    (void)state;
    char file[300];
    path_of(file, sizeof file, "bad.p12");
    struct ccnx_keystore_options o = small;
    o.bits = 100;
    assert_int_equal(ccnx_keystore_create(file, NULL, &o, NULL), CCNX_E_INVAL);
    o = small;
    o.subject = "";
    assert_int_equal(ccnx_keystore_create(file, NULL, &o, NULL), CCNX_E_INVAL);
    assert_int_equal(access(file, F_OK), -1);
    /* A file in a directory whose parent is missing cannot be made. */
    path_of(file, sizeof file, "no/such/dir/ks.p12");
    assert_int_equal(ccnx_keystore_create(file, NULL, &small, NULL), CCNX_E_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_path),         cmocka_unit_test(test_create_and_open),
        cmocka_unit_test(test_wrong_password),       cmocka_unit_test(test_no_overwrite),
        cmocka_unit_test(test_open_or_create),       cmocka_unit_test(test_garbage_file),
        cmocka_unit_test(test_reference_made_files), cmocka_unit_test(test_file_algorithms),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
