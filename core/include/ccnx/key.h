/* Keys and single signatures (SignatureGeneration.txt), and SHA-256.
 *
 * Signatures are RSA PKCS#1 v1.5 with SHA-256 unless a ContentObject names
 * another DigestAlgorithm. A publisher is identified by the SHA-256 digest
 * of the DER SubjectPublicKeyInfo of its public key (the
 * PublisherPublicKeyDigest). Batches signed at once are in <ccnx/merkle.h>;
 * building and verifying whole ContentObjects in <ccnx/content_sign.h>.
 */
#ifndef CCNX_KEY_H
#define CCNX_KEY_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_SHA256_LEN       32
#define CCNX_KEY_DEFAULT_BITS 2048

/* SHA-256 of p[0..n). */
int ccnx_sha256(const void *p, size_t n, uint8_t out[CCNX_SHA256_LEN]);

/* ---- Keys ----
 *
 * An opaque key: a public key, or a private key with its public half. Every
 * key caches its DER SubjectPublicKeyInfo and the digest of it. */
struct ccnx_key;

/* Makes a new RSA key of `bits` bits (0 means CCNX_KEY_DEFAULT_BITS; fewer
 * than 512 is CCNX_E_INVAL). Allocates *out; release with ccnx_key_destroy. */
int ccnx_key_generate(unsigned bits, struct ccnx_key **out);
void ccnx_key_destroy(struct ccnx_key *k);

/* Public key from DER SubjectPublicKeyInfo (as carried in KeyLocator/Key and
 * KEY objects). Allocates *out. CCNX_E_VALUE when the bytes are not a key. */
int ccnx_key_from_der(const uint8_t *der, size_t len, struct ccnx_key **out);
/* Private key (with its public half) from DER: PKCS#8 PrivateKeyInfo or the
 * key type's own structure (RSAPrivateKey). Allocates *out. */
int ccnx_key_from_private_der(const uint8_t *der, size_t len, struct ccnx_key **out);
/* Key from PEM text: a private key (PKCS#8 or traditional, optionally
 * encrypted with `password`, which may be NULL) or a public
 * SubjectPublicKeyInfo. Allocates *out. */
int ccnx_key_from_pem(const void *pem, size_t len, const char *password, struct ccnx_key **out);
/* ccnx_key_from_pem on the contents of a file; CCNX_E_IO when unreadable. */
int ccnx_key_load_pem(const char *path, const char *password, struct ccnx_key **out);

/* Appends the public key as PEM SubjectPublicKeyInfo. */
int ccnx_key_append_public_pem(const struct ccnx_key *k, struct ccnx_buf *out);
/* Appends the private key as unencrypted PKCS#8 PEM; CCNX_E_NOKEY if k is public only. */
int ccnx_key_append_private_pem(const struct ccnx_key *k, struct ccnx_buf *out);
/* Write the PEM forms to a file (private keys with mode 0600). */
int ccnx_key_save_public_pem(const struct ccnx_key *k, const char *path);
int ccnx_key_save_private_pem(const struct ccnx_key *k, const char *path);

/* DER SubjectPublicKeyInfo, owned by k. */
const uint8_t *ccnx_key_der(const struct ccnx_key *k, size_t *len);
/* PublisherPublicKeyDigest: SHA-256 of the DER SubjectPublicKeyInfo, owned by k. */
const uint8_t *ccnx_key_digest(const struct ccnx_key *k);
/* 1 if k can sign. */
int ccnx_key_has_private(const struct ccnx_key *k);
/* 1 if k is an RSA key (the only kind ContentObjects are signed with here:
 * its signatures always have ccnx_key_signature_size(k) bytes). */
int ccnx_key_is_rsa(const struct ccnx_key *k);
/* Bytes of a signature made with k (the RSA modulus size). */
size_t ccnx_key_signature_size(const struct ccnx_key *k);

/* SHA256withRSA (PKCS#1 v1.5) signature of p[0..n) into sig, which holds
 * ccnx_key_signature_size(k) bytes; *siglen gets the length written. */
int ccnx_key_sign(const struct ccnx_key *k, const void *p, size_t n, uint8_t *sig, size_t *siglen);
/* Verifies a signature over p[0..n) made with the digest named by `md`
 * ("SHA256", "SHA1", "SHA512"...; NULL means SHA-256). 0 when it verifies,
 * CCNX_E_BADSIG when not, CCNX_E_UNSUPPORTED for an unknown digest. */
int ccnx_key_verify_md(const struct ccnx_key *k, const char *md, const void *p, size_t n,
                       const uint8_t *sig, size_t siglen);
/* ccnx_key_verify_md with SHA-256. */
int ccnx_key_verify(const struct ccnx_key *k, const void *p, size_t n, const uint8_t *sig,
                    size_t siglen);

CCNX_API_END

#endif
