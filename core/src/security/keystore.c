/* The user keystore: a PKCS#12 file with one key and its self-signed
 * certificate, the way the reference library keeps the user's signing key. */
#include <ccnx/key.h>
#include <ccnx/keystore.h>
#include <ccnx/error.h>
#include "base/env.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

struct ccnx_keystore {
    struct ccnx_key *key;
    uint8_t *cert;
    size_t cert_len;
};

int ccnx_keystore_default_path(struct ccnx_buf *out)
{
    if (out == NULL) {
        return CCNX_E_INVAL;
    }
    struct ccnx_env env;
    ccnx_env_read(&env);
    if (env.ccnx_dir != NULL) {
        return ccnx_buf_printf(out, "%s/%s", env.ccnx_dir, CCNX_KEYSTORE_FILENAME);
    }
    if (env.home == NULL) {
        return CCNX_E_NOTFOUND;
    }
    return ccnx_buf_printf(out, "%s/.ccnx/%s", env.home, CCNX_KEYSTORE_FILENAME);
}

const char *ccnx_keystore_default_password(void)
{
    struct ccnx_env env;
    ccnx_env_read(&env);
    return env.keystore_password != NULL ? env.keystore_password : CCNX_KEYSTORE_DEFAULT_PASSWORD;
}

void ccnx_keystore_destroy(struct ccnx_keystore *ks)
{
    if (ks != NULL) {
        ccnx_key_destroy(ks->key);
        free(ks->cert);
        free(ks);
    }
}

const struct ccnx_key *ccnx_keystore_key(const struct ccnx_keystore *ks)
{
    return ks != NULL ? ks->key : NULL;
}

const uint8_t *ccnx_keystore_digest(const struct ccnx_keystore *ks)
{
    return ks != NULL ? ccnx_key_digest(ks->key) : NULL;
}

const uint8_t *ccnx_keystore_certificate(const struct ccnx_keystore *ks, size_t *len)
{
    if (ks == NULL) {
        return NULL;
    }
    if (len != NULL) {
        *len = ks->cert_len;
    }
    return ks->cert;
}

/* ---- Opening ---- */

/* Files written by OpenSSL 1.x protect the certificate with 40-bit RC2,
 * which OpenSSL 3 only offers in its "legacy" provider. It is loaded into
 * the default library context just for the retry and unloaded after. A
 * provider loaded by hand stops the default one from loading implicitly, so
 * "default" is loaded (referenced) alongside. */
static int parse_with_legacy(PKCS12 *p12, const char *password, EVP_PKEY **pkey, X509 **cert)
{
    OSSL_PROVIDER *deflt = OSSL_PROVIDER_load(NULL, "default");
    OSSL_PROVIDER *legacy = OSSL_PROVIDER_load(NULL, "legacy");
    int ok = legacy != NULL && deflt != NULL && PKCS12_parse(p12, password, pkey, cert, NULL);
    if (legacy != NULL) {
        OSSL_PROVIDER_unload(legacy);
    }
    if (deflt != NULL) {
        OSSL_PROVIDER_unload(deflt);
    }
    ERR_clear_error();
    return ok;
}

/* Builds the keystore object from what PKCS12_parse found. */
static int keystore_from(EVP_PKEY *pkey, X509 *cert, struct ccnx_keystore **out)
{
    struct ccnx_keystore *ks = calloc(1, sizeof *ks);
    if (ks == NULL) {
        return CCNX_E_NOMEM;
    }
    int rc = CCNX_E_KEYSTORE;
    unsigned char *der = NULL;
    int n = i2d_PrivateKey(pkey, &der);
    if (n > 0) {
        rc = ccnx_key_from_private_der(der, (size_t)n, &ks->key);
        OPENSSL_clear_free(der, (size_t)n);
    }
    n = rc == 0 ? i2d_X509(cert, NULL) : -1;
    ks->cert = n > 0 ? malloc((size_t)n) : NULL;
    unsigned char *q = ks->cert;
    if (rc == 0 && (ks->cert == NULL || i2d_X509(cert, &q) != n)) {
        rc = ks->cert == NULL ? CCNX_E_NOMEM : CCNX_E_KEYSTORE;
    }
    ks->cert_len = n > 0 ? (size_t)n : 0;
    ERR_clear_error();
    if (rc != 0) {
        ccnx_keystore_destroy(ks);
        return rc;
    }
    *out = ks;
    return 0;
}

static int parse_pkcs12(const uint8_t *p, size_t n, const char *password,
                        struct ccnx_keystore **out)
{
    const unsigned char *q = p;
    PKCS12 *p12 = n <= LONG_MAX ? d2i_PKCS12(NULL, &q, (long)n) : NULL;
    if (p12 == NULL) {
        ERR_clear_error();
        return CCNX_E_KEYSTORE;
    }
    /* A failing MAC means a wrong password: no provider would help then. */
    if (PKCS12_mac_present(p12) && PKCS12_verify_mac(p12, password, -1) != 1) {
        PKCS12_free(p12);
        ERR_clear_error();
        return CCNX_E_KEYSTORE;
    }
    EVP_PKEY *pkey = NULL;
    X509 *cert = NULL;
    int ok = PKCS12_parse(p12, password, &pkey, &cert, NULL);
    if (!ok) {
        ERR_clear_error();
        ok = parse_with_legacy(p12, password, &pkey, &cert);
    }
    PKCS12_free(p12);
    int rc = ok && pkey != NULL && cert != NULL ? keystore_from(pkey, cert, out) : CCNX_E_KEYSTORE;
    EVP_PKEY_free(pkey);
    X509_free(cert);
    ERR_clear_error();
    return rc;
}

int ccnx_keystore_open(const char *path, const char *password, struct ccnx_keystore **out)
{
    if (out == NULL) {
        return CCNX_E_INVAL;
    }
    struct ccnx_buf file = CCNX_BUF_INIT, def = CCNX_BUF_INIT;
    int rc = 0;
    if (path == NULL) {
        rc = ccnx_keystore_default_path(&def);
        path = ccnx_buf_cstr(&def);
    }
    if (rc == 0 && path == NULL) {
        rc = CCNX_E_NOMEM;
    }
    if (rc == 0) {
        rc = ccnx_buf_read_file(&file, path);
        if (rc == CCNX_E_IO && errno == ENOENT) {
            rc = CCNX_E_NOTFOUND;
        }
    }
    if (rc == 0) {
        rc = parse_pkcs12(file.data, file.len,
                          password != NULL ? password : ccnx_keystore_default_password(), out);
    }
    if (file.data != NULL) {
        OPENSSL_cleanse(file.data, file.len);
    }
    ccnx_buf_free(&file);
    ccnx_buf_free(&def);
    return rc;
}

/* ---- Creating ---- */

static int add_extension(X509 *cert, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    int ok = ext != NULL && X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

/* The extensions the reference puts in its keystore certificates; the
 * subject key id is the publisher digest (SHA-256 of the SPKI) in hex. */
static int add_extensions(X509 *cert, const uint8_t digest[CCNX_SHA256_LEN])
{
    char hex[2 * CCNX_SHA256_LEN + 1];
    for (size_t i = 0; i < CCNX_SHA256_LEN; i++) {
        snprintf(hex + 2 * i, 3, "%02X", digest[i]);
    }
    return add_extension(cert, NID_basic_constraints, "critical,CA:FALSE") &&
           add_extension(cert, NID_key_usage,
                         "digitalSignature,nonRepudiation,keyEncipherment,"
                         "dataEncipherment,keyAgreement") &&
           add_extension(cert, NID_ext_key_usage, "clientAuth") &&
           add_extension(cert, NID_subject_key_identifier, hex) &&
           add_extension(cert, NID_authority_key_identifier, "keyid:always");
}

static int set_serial(X509 *cert)
{
    uint8_t r[8];
    if (RAND_bytes(r, sizeof r) != 1) {
        return 0;
    }
    uint64_t serial = r[0] & 0x7F; /* positive */
    for (size_t i = 1; i < sizeof r; i++) {
        serial = (serial << 8) | r[i];
    }
    return ASN1_INTEGER_set_uint64(X509_get_serialNumber(cert), serial);
}

static X509 *make_certificate(EVP_PKEY *pkey, const char *subject, int days,
                              const uint8_t digest[CCNX_SHA256_LEN])
{
    X509 *cert = X509_new();
    if (cert == NULL) {
        return NULL;
    }
    X509_NAME *name = X509_get_subject_name(cert);
    int ok = X509_set_version(cert, X509_VERSION_3) && set_serial(cert) &&
             X509_gmtime_adj(X509_getm_notBefore(cert), 0) != NULL &&
             X509_gmtime_adj(X509_getm_notAfter(cert), (long)days * 86400L) != NULL &&
             X509_set_pubkey(cert, pkey) && name != NULL &&
             X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)subject,
                                        -1, -1, 0) &&
             X509_set_issuer_name(cert, name) && add_extensions(cert, digest) &&
             X509_sign(cert, pkey, EVP_sha256()) > 0;
    if (!ok) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}

/* DER of a PKCS#12 file protected with algorithms every OpenSSL reads
 * without the legacy provider (see keystore.h). */
static int pkcs12_der(EVP_PKEY *pkey, X509 *cert, const char *password, struct ccnx_buf *out)
{
    const int pbe = NID_pbe_WithSHA1And3_Key_TripleDES_CBC;
    PKCS12 *p12 = PKCS12_create(password, CCNX_KEYSTORE_ALIAS, pkey, cert, NULL, pbe, pbe,
                                PKCS12_DEFAULT_ITER, -1, 0);
    int rc = CCNX_E_CRYPTO;
    if (p12 != NULL &&
        PKCS12_set_mac(p12, password, -1, NULL, 0, PKCS12_DEFAULT_ITER, EVP_sha1()) == 1) {
        int n = i2d_PKCS12(p12, NULL);
        uint8_t *dst = n > 0 ? ccnx_buf_reserve(out, (size_t)n) : NULL;
        unsigned char *q = dst;
        if (dst != NULL && i2d_PKCS12(p12, &q) == n) {
            out->len += (size_t)n;
            rc = 0;
        }
    }
    PKCS12_free(p12);
    return rc;
}

static const char *user_name(char *buf, size_t size)
{
    struct passwd *pw = getpwuid(geteuid());
    if (pw != NULL && pw->pw_name != NULL && pw->pw_name[0] != '\0') {
        return pw->pw_name;
    }
    snprintf(buf, size, "uid%lu", (unsigned long)geteuid());
    return buf;
}

/* The key, certificate and PKCS#12 bytes of a new keystore. */
static int make_keystore(const char *password, const struct ccnx_keystore_options *opt,
                         struct ccnx_buf *out)
{
    unsigned bits = opt->bits != 0 ? opt->bits : CCNX_KEY_DEFAULT_BITS;
    int days = opt->validity_days > 0 ? opt->validity_days : CCNX_KEYSTORE_DEFAULT_DAYS;
    char uid[32];
    const char *subject = opt->subject != NULL ? opt->subject : user_name(uid, sizeof uid);
    if (bits < 512 || bits > 16384 || days > 365 * 1000 || subject[0] == '\0') {
        return CCNX_E_INVAL;
    }
    EVP_PKEY *pkey = EVP_RSA_gen(bits);
    unsigned char *spki = NULL;
    int spki_len = pkey != NULL ? i2d_PUBKEY(pkey, &spki) : -1;
    uint8_t digest[CCNX_SHA256_LEN];
    int rc = spki_len > 0 ? ccnx_sha256(spki, (size_t)spki_len, digest) : CCNX_E_CRYPTO;
    OPENSSL_free(spki);
    X509 *cert = rc == 0 ? make_certificate(pkey, subject, days, digest) : NULL;
    if (rc == 0) {
        rc = cert != NULL ? pkcs12_der(pkey, cert, password, out) : CCNX_E_CRYPTO;
    }
    X509_free(cert);
    EVP_PKEY_free(pkey);
    ERR_clear_error();
    return rc;
}

/* Makes the keystore's own directory (not its parents) private when missing. */
static int ensure_directory(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL || slash == path) {
        return 0;
    }
    size_t n = (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (dir == NULL) {
        return CCNX_E_NOMEM;
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
    int rc = 0;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        rc = CCNX_E_IO;
    }
    int e = errno;
    free(dir);
    errno = e;
    return rc;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return CCNX_E_IO;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes bytes to a new file that no one else can read; an existing file is
 * replaced atomically (rename) only when `overwrite` is set. */
static int write_private_file(const char *path, const struct ccnx_buf *b, int overwrite)
{
    if (!overwrite) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) {
            return CCNX_E_IO;
        }
        int rc = write_all(fd, b->data, b->len);
        if (close(fd) != 0 || rc != 0) {
            int e = errno;
            unlink(path);
            errno = e;
            return CCNX_E_IO;
        }
        return 0;
    }
    struct ccnx_buf tmp = CCNX_BUF_INIT;
    const char *name = ccnx_buf_printf(&tmp, "%s.XXXXXX", path) >= 0 ? ccnx_buf_cstr(&tmp) : NULL;
    int fd = name != NULL ? mkstemp((char *)tmp.data) : -1;
    int rc = fd < 0 ? (name == NULL ? CCNX_E_NOMEM : CCNX_E_IO) : 0;
    if (rc == 0) {
        rc = fchmod(fd, 0600) == 0 ? write_all(fd, b->data, b->len) : CCNX_E_IO;
        if (close(fd) != 0 || (rc == 0 && rename((char *)tmp.data, path) != 0)) {
            rc = CCNX_E_IO;
        }
        if (rc != 0) {
            int e = errno;
            unlink((char *)tmp.data);
            errno = e;
        }
    }
    ccnx_buf_free(&tmp);
    return rc;
}

int ccnx_keystore_create(const char *path, const char *password,
                         const struct ccnx_keystore_options *opt, struct ccnx_keystore **out)
{
    static const struct ccnx_keystore_options defaults = {0, 0, NULL, 0};
    struct ccnx_buf def = CCNX_BUF_INIT, p12 = CCNX_BUF_INIT;
    int rc = 0;
    if (path == NULL) {
        rc = ccnx_keystore_default_path(&def);
        path = rc == 0 ? ccnx_buf_cstr(&def) : NULL;
        rc = rc == 0 && path == NULL ? CCNX_E_NOMEM : rc;
    }
    if (password == NULL) {
        password = ccnx_keystore_default_password();
    }
    if (opt == NULL) {
        opt = &defaults;
    }
    if (rc == 0) {
        rc = ensure_directory(path);
    }
    if (rc == 0) {
        rc = make_keystore(password, opt, &p12);
    }
    if (rc == 0) {
        rc = write_private_file(path, &p12, opt->overwrite);
    }
    if (rc == 0 && out != NULL) {
        rc = parse_pkcs12(p12.data, p12.len, password, out);
    }
    if (p12.data != NULL) {
        OPENSSL_cleanse(p12.data, p12.len);
    }
    ccnx_buf_free(&p12);
    ccnx_buf_free(&def);
    return rc;
}

int ccnx_keystore_open_or_create(const char *path, const char *password, struct ccnx_keystore **out)
{
    int rc = ccnx_keystore_open(path, password, out);
    if (rc != CCNX_E_NOTFOUND) {
        return rc;
    }
    rc = ccnx_keystore_create(path, password, NULL, out);
    /* Another process may have created it between our two attempts. */
    if (rc == CCNX_E_IO && errno == EEXIST) {
        rc = ccnx_keystore_open(path, password, out);
    }
    return rc;
}
