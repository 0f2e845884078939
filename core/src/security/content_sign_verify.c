/* Verifying ContentObject signatures, plain or Merkle-batched. */
#include <ccnx/content_sign.h>
#include <ccnx/error.h>
#include <ccnx/key.h>
#include <ccnx/merkle.h>

#include <limits.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/x509.h>

/* DigestAlgorithm holds a dotted OID; these are the digests RSA
 * signatures are made with in practice. */
static const struct {
    const char *oid;
    const char *md;
} digests[] = {
    {"2.16.840.1.101.3.4.2.1", "SHA256"}, {"1.3.14.3.2.26", "SHA1"},
    {"2.16.840.1.101.3.4.2.2", "SHA384"}, {"2.16.840.1.101.3.4.2.3", "SHA512"},
    {"2.16.840.1.101.3.4.2.4", "SHA224"},
};

static const char *md_for_oid(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < sizeof digests / sizeof digests[0]; i++) {
        if (strlen(digests[i].oid) == n && memcmp(digests[i].oid, p, n) == 0) {
            return digests[i].md;
        }
    }
    return NULL;
}

static int span_ok(struct ccnx_span s, size_t len)
{
    return s.off <= len && s.len <= len - s.off;
}

static int verify_witness(const uint8_t *buf, const struct ccnx_content_parsed *pc,
                          const struct ccnx_key *key, const char *md)
{
    struct ccnx_merkle_path path;
    int rc = ccnx_merkle_witness_parse(buf + pc->witness.off, pc->witness.len, &path);
    if (rc != 0) {
        return rc;
    }
    uint8_t leaf[CCNX_SHA256_LEN], root[CCNX_SHA256_LEN];
    rc = ccnx_sha256(buf + pc->signed_part.off, pc->signed_part.len, leaf);
    if (rc == 0) {
        rc = ccnx_merkle_path_root(&path, leaf, root);
    }
    if (rc != 0) {
        /* A path that does not fit the tree shape cannot lead to the signed root. */
        return rc == CCNX_E_VALUE ? CCNX_E_BADSIG : rc;
    }
    return ccnx_key_verify_md(key, md, root, sizeof root, buf + pc->signature_bits.off,
                              pc->signature_bits.len);
}

int ccnx_content_verify(const uint8_t *buf, size_t len, const struct ccnx_content_parsed *pc,
                        const struct ccnx_key *key)
{
    if (key == NULL) {
        return CCNX_E_NOKEY;
    }
    if (buf == NULL || pc == NULL || !span_ok(pc->signed_part, len) ||
        !span_ok(pc->signature_bits, len) || !span_ok(pc->witness, len) ||
        !span_ok(pc->digest_algorithm, len) || pc->signed_part.len == 0) {
        return CCNX_E_INVAL;
    }
    const char *md = NULL;
    if (pc->digest_algorithm.len > 0) {
        md = md_for_oid(buf + pc->digest_algorithm.off, pc->digest_algorithm.len);
        if (md == NULL) {
            return CCNX_E_UNSUPPORTED;
        }
    }
    if (pc->signature_bits.len == 0) {
        return CCNX_E_BADSIG;
    }
    if (pc->witness.len > 0) {
        return verify_witness(buf, pc, key, md);
    }
    return ccnx_key_verify_md(key, md, buf + pc->signed_part.off, pc->signed_part.len,
                              buf + pc->signature_bits.off, pc->signature_bits.len);
}

/* The SubjectPublicKeyInfo inside a DER certificate, as a key. */
static int key_from_certificate(const uint8_t *p, size_t n, struct ccnx_key **out)
{
    if (n > LONG_MAX) {
        return CCNX_E_VALUE;
    }
    const unsigned char *q = p;
    X509 *cert = d2i_X509(NULL, &q, (long)n);
    EVP_PKEY *pub = cert != NULL ? X509_get0_pubkey(cert) : NULL;
    unsigned char *der = NULL;
    int der_len = pub != NULL ? i2d_PUBKEY(pub, &der) : -1;
    int rc = der_len > 0 ? ccnx_key_from_der(der, (size_t)der_len, out) : CCNX_E_VALUE;
    OPENSSL_free(der);
    X509_free(cert);
    ERR_clear_error();
    return rc;
}

int ccnx_content_locator_key(const uint8_t *buf, const struct ccnx_content_parsed *pc,
                             struct ccnx_key **out)
{
    if (buf == NULL || pc == NULL || out == NULL) {
        return CCNX_E_INVAL;
    }
    const uint8_t *v = buf + pc->key_locator_value.off;
    size_t n = pc->key_locator_value.len;
    struct ccnx_key *k = NULL;
    int rc;
    if (pc->key_locator_kind == CCNX_KEYLOC_KEY) {
        rc = ccnx_key_from_der(v, n, &k);
    } else if (pc->key_locator_kind == CCNX_KEYLOC_CERTIFICATE) {
        rc = key_from_certificate(v, n, &k);
    } else {
        return CCNX_E_NOKEY;
    }
    if (rc != 0) {
        return rc == CCNX_E_INVAL ? CCNX_E_VALUE : rc;
    }
    if (pc->publisher.len != CCNX_SHA256_LEN ||
        memcmp(buf + pc->publisher.off, ccnx_key_digest(k), CCNX_SHA256_LEN) != 0) {
        ccnx_key_destroy(k);
        return CCNX_E_NOKEY;
    }
    *out = k;
    return 0;
}
