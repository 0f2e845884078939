/* Keys and single signatures on OpenSSL 3 EVP. */
#include <ccnx/key.h>
#include <ccnx/error.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

struct ccnx_key {
    EVP_PKEY *pkey;
    int has_private;
    uint8_t *der; /* SubjectPublicKeyInfo */
    size_t der_len;
    uint8_t digest[CCNX_SHA256_LEN];
};

static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;
static EVP_MD *sha256_md;

/* Fetching once saves the per-call algorithm lookup that EVP_sha256()
 * implies in OpenSSL 3 (it costs as much as hashing a few hundred bytes).
 * The fetched method lives as long as the process. */
static void fetch_sha256(void)
{
    sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

int ccnx_sha256(const void *p, size_t n, uint8_t out[CCNX_SHA256_LEN])
{
    if (p == NULL && n != 0) {
        return CCNX_E_INVAL;
    }
    pthread_once(&sha256_once, fetch_sha256);
    const EVP_MD *md = sha256_md != NULL ? sha256_md : EVP_sha256();
    if (EVP_Digest(p, n, out, NULL, md, NULL) != 1) {
        ERR_clear_error();
        return CCNX_E_CRYPTO;
    }
    return 0;
}

void ccnx_key_destroy(struct ccnx_key *k)
{
    if (k == NULL) {
        return;
    }
    EVP_PKEY_free(k->pkey);
    free(k->der);
    free(k);
}

/* Takes ownership of pkey (freed on failure too). */
static int key_wrap(EVP_PKEY *pkey, int has_private, struct ccnx_key **out)
{
    struct ccnx_key *k = calloc(1, sizeof *k);
    if (k == NULL) {
        EVP_PKEY_free(pkey);
        return CCNX_E_NOMEM;
    }
    k->pkey = pkey;
    k->has_private = has_private;
    int n = i2d_PUBKEY(pkey, NULL);
    unsigned char *der = n > 0 ? malloc((size_t)n) : NULL;
    unsigned char *q = der;
    if (der == NULL || i2d_PUBKEY(pkey, &q) != n) {
        ERR_clear_error();
        free(der);
        ccnx_key_destroy(k);
        return n > 0 ? CCNX_E_NOMEM : CCNX_E_CRYPTO;
    }
    k->der = der;
    k->der_len = (size_t)n;
    int rc = ccnx_sha256(k->der, k->der_len, k->digest);
    if (rc != 0) {
        ccnx_key_destroy(k);
        return rc;
    }
    *out = k;
    return 0;
}

int ccnx_key_generate(unsigned bits, struct ccnx_key **out)
{
    if (out == NULL) {
        return CCNX_E_INVAL;
    }
    if (bits == 0) {
        bits = CCNX_KEY_DEFAULT_BITS;
    }
    if (bits < 512 || bits > 16384) {
        return CCNX_E_INVAL;
    }
    EVP_PKEY *pkey = EVP_RSA_gen(bits);
    if (pkey == NULL) {
        ERR_clear_error();
        return CCNX_E_CRYPTO;
    }
    return key_wrap(pkey, 1, out);
}

/* Both DER readers share one shape: decode, insist on no trailing bytes. */
typedef EVP_PKEY *(*der_reader)(EVP_PKEY **, const unsigned char **, long);

static int key_from_der_with(der_reader read, int is_private, const uint8_t *der, size_t len,
                             struct ccnx_key **out)
{
    if (der == NULL || out == NULL || len == 0 || len > LONG_MAX) {
        return CCNX_E_INVAL;
    }
    const unsigned char *p = der;
    EVP_PKEY *pkey = read(NULL, &p, (long)len);
    if (pkey == NULL) {
        ERR_clear_error();
        return CCNX_E_VALUE;
    }
    if (p != der + len) {
        EVP_PKEY_free(pkey);
        return CCNX_E_TRAILING;
    }
    return key_wrap(pkey, is_private, out);
}

int ccnx_key_from_der(const uint8_t *der, size_t len, struct ccnx_key **out)
{
    return key_from_der_with(d2i_PUBKEY, 0, der, len, out);
}

int ccnx_key_from_private_der(const uint8_t *der, size_t len, struct ccnx_key **out)
{
    return key_from_der_with(d2i_AutoPrivateKey, 1, der, len, out);
}

/* Never prompts: a missing password simply fails on encrypted keys. */
static int pem_password(char *buf, int size, int rwflag, void *u)
{
    (void)rwflag;
    const char *pw = u;
    if (pw == NULL || size <= 0) {
        return 0;
    }
    size_t n = strlen(pw);
    if (n > (size_t)size) {
        return 0;
    }
    memcpy(buf, pw, n);
    return (int)n;
}

int ccnx_key_from_pem(const void *pem, size_t len, const char *password, struct ccnx_key **out)
{
    if (pem == NULL || out == NULL || len == 0 || len > INT_MAX) {
        return CCNX_E_INVAL;
    }
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    if (bio == NULL) {
        return CCNX_E_NOMEM;
    }
    EVP_PKEY *pkey = PEM_read_bio_PrivateKey(bio, NULL, pem_password, (void *)password);
    int has_private = pkey != NULL;
    if (pkey == NULL) {
        (void)BIO_reset(bio);
        pkey = PEM_read_bio_PUBKEY(bio, NULL, pem_password, (void *)password);
    }
    BIO_free(bio);
    ERR_clear_error();
    if (pkey == NULL) {
        return CCNX_E_VALUE;
    }
    return key_wrap(pkey, has_private, out);
}

int ccnx_key_load_pem(const char *path, const char *password, struct ccnx_key **out)
{
    if (path == NULL || out == NULL) {
        return CCNX_E_INVAL;
    }
    struct ccnx_buf b = CCNX_BUF_INIT;
    int rc = ccnx_buf_read_file(&b, path);
    if (rc == 0) {
        rc = b.len == 0 ? CCNX_E_VALUE : ccnx_key_from_pem(b.data, b.len, password, out);
    }
    if (b.data != NULL) {
        OPENSSL_cleanse(b.data, b.len);
    }
    ccnx_buf_free(&b);
    return rc;
}

/* Appends whatever `write` puts into a memory BIO. */
static int append_bio(struct ccnx_buf *out, const struct ccnx_key *k,
                      int (*write)(BIO *, const struct ccnx_key *))
{
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) {
        return CCNX_E_NOMEM;
    }
    int rc = CCNX_E_CRYPTO;
    if (write(bio, k) == 1) {
        char *p = NULL;
        long n = BIO_get_mem_data(bio, &p);
        rc = n > 0 ? ccnx_buf_append(out, p, (size_t)n) : CCNX_E_CRYPTO;
    }
    ERR_clear_error();
    BIO_free(bio);
    return rc;
}

static int write_public(BIO *bio, const struct ccnx_key *k)
{
    return PEM_write_bio_PUBKEY(bio, k->pkey);
}

static int write_private(BIO *bio, const struct ccnx_key *k)
{
    return PEM_write_bio_PrivateKey(bio, k->pkey, NULL, NULL, 0, NULL, NULL);
}

int ccnx_key_append_public_pem(const struct ccnx_key *k, struct ccnx_buf *out)
{
    if (k == NULL || out == NULL) {
        return CCNX_E_INVAL;
    }
    return append_bio(out, k, write_public);
}

int ccnx_key_append_private_pem(const struct ccnx_key *k, struct ccnx_buf *out)
{
    if (k == NULL || out == NULL) {
        return CCNX_E_INVAL;
    }
    if (!k->has_private) {
        return CCNX_E_NOKEY;
    }
    return append_bio(out, k, write_private);
}

static int write_file(const char *path, const struct ccnx_buf *b, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) {
        return CCNX_E_IO;
    }
    /* An existing file keeps its mode under O_TRUNC; private keys must not. */
    if (fchmod(fd, mode) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return CCNX_E_IO;
    }
    size_t off = 0;
    while (off < b->len) {
        ssize_t w = write(fd, b->data + off, b->len - off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            int e = errno;
            close(fd);
            errno = e;
            return CCNX_E_IO;
        }
        off += (size_t)w;
    }
    return close(fd) == 0 ? 0 : CCNX_E_IO;
}

int ccnx_key_save_public_pem(const struct ccnx_key *k, const char *path)
{
    if (path == NULL) {
        return CCNX_E_INVAL;
    }
    struct ccnx_buf b = CCNX_BUF_INIT;
    int rc = ccnx_key_append_public_pem(k, &b);
    if (rc == 0) {
        rc = write_file(path, &b, 0644);
    }
    ccnx_buf_free(&b);
    return rc;
}

int ccnx_key_save_private_pem(const struct ccnx_key *k, const char *path)
{
    if (path == NULL) {
        return CCNX_E_INVAL;
    }
    struct ccnx_buf b = CCNX_BUF_INIT;
    int rc = ccnx_key_append_private_pem(k, &b);
    if (rc == 0) {
        rc = write_file(path, &b, 0600);
    }
    if (b.data != NULL) {
        OPENSSL_cleanse(b.data, b.len);
    }
    ccnx_buf_free(&b);
    return rc;
}

const uint8_t *ccnx_key_der(const struct ccnx_key *k, size_t *len)
{
    if (k == NULL) {
        return NULL;
    }
    if (len != NULL) {
        *len = k->der_len;
    }
    return k->der;
}

const uint8_t *ccnx_key_digest(const struct ccnx_key *k)
{
    return k != NULL ? k->digest : NULL;
}

int ccnx_key_has_private(const struct ccnx_key *k)
{
    return k != NULL && k->has_private;
}

int ccnx_key_is_rsa(const struct ccnx_key *k)
{
    return k != NULL && EVP_PKEY_is_a(k->pkey, "RSA");
}

size_t ccnx_key_signature_size(const struct ccnx_key *k)
{
    if (k == NULL) {
        return 0;
    }
    int n = EVP_PKEY_get_size(k->pkey);
    return n > 0 ? (size_t)n : 0;
}

int ccnx_key_sign(const struct ccnx_key *k, const void *p, size_t n, uint8_t *sig, size_t *siglen)
{
    if (k == NULL || sig == NULL || siglen == NULL || (p == NULL && n != 0)) {
        return CCNX_E_INVAL;
    }
    if (!k->has_private) {
        return CCNX_E_NOKEY;
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) {
        return CCNX_E_NOMEM;
    }
    size_t len = ccnx_key_signature_size(k);
    int ok = EVP_DigestSignInit_ex(ctx, NULL, "SHA256", NULL, NULL, k->pkey, NULL) == 1 &&
             EVP_DigestSign(ctx, sig, &len, p, n) == 1;
    EVP_MD_CTX_free(ctx);
    if (!ok) {
        ERR_clear_error();
        return CCNX_E_CRYPTO;
    }
    *siglen = len;
    return 0;
}

int ccnx_key_verify_md(const struct ccnx_key *k, const char *md, const void *p, size_t n,
                       const uint8_t *sig, size_t siglen)
{
    if (k == NULL) {
        return CCNX_E_NOKEY;
    }
    if ((p == NULL && n != 0) || (sig == NULL && siglen != 0)) {
        return CCNX_E_INVAL;
    }
    EVP_MD *digest = EVP_MD_fetch(NULL, md != NULL ? md : "SHA256", NULL);
    if (digest == NULL) {
        ERR_clear_error();
        return CCNX_E_UNSUPPORTED;
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) {
        EVP_MD_free(digest);
        return CCNX_E_NOMEM;
    }
    int rc = CCNX_E_UNSUPPORTED;
    if (EVP_DigestVerifyInit_ex(ctx, NULL, EVP_MD_get0_name(digest), NULL, NULL, k->pkey, NULL) ==
        1) {
        rc = EVP_DigestVerify(ctx, sig, siglen, p, n) == 1 ? 0 : CCNX_E_BADSIG;
    }
    ERR_clear_error();
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(digest);
    return rc;
}

int ccnx_key_verify(const struct ccnx_key *k, const void *p, size_t n, const uint8_t *sig,
                    size_t siglen)
{
    return ccnx_key_verify_md(k, NULL, p, n, sig, siglen);
}
