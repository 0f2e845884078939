/* Keys, signatures, Merkle-hash-tree batch signatures and the user keystore
 * (SignatureGeneration.txt).
 *
 * Signatures are RSA PKCS#1 v1.5 with SHA-256 unless a ContentObject names
 * another DigestAlgorithm. A publisher is identified by the SHA-256 digest
 * of the DER SubjectPublicKeyInfo of its public key (the
 * PublisherPublicKeyDigest). Building and verifying whole ContentObjects is
 * in <ccnx/publish_sign.h>.
 */
#ifndef CCNX_SIGN_H
#define CCNX_SIGN_H

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
 * than 512 is CCNX_E_INVAL). Allocates *out; release with ccnx_key_free. */
int ccnx_key_generate(unsigned bits, struct ccnx_key **out);
void ccnx_key_free(struct ccnx_key *k);

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

/* ---- Merkle hash trees (binary, SHA-256) ----
 *
 * The tree shape of the reference: with n leaves the nodes are numbered 1
 * (the root) to 2n-1, node k has children 2k and 2k+1, and leaf i is node
 * n+i. Every interior node has two children, so node k is
 * SHA-256(node 2k || node 2k+1). A leaf is the SHA-256 of an object's
 * signed part (Name start to Content end). */
struct ccnx_merkle_tree {
    size_t leaves;
    uint8_t (*node)[CCNX_SHA256_LEN]; /* node[1..2n-1]; node[0] unused */
};

/* Allocates a tree of `leaves` (>= 1) leaves. */
int ccnx_merkle_tree_init(struct ccnx_merkle_tree *t, size_t leaves);
void ccnx_merkle_tree_free(struct ccnx_merkle_tree *t);
/* Where leaf i's digest goes (fill every leaf, then compute). */
uint8_t *ccnx_merkle_leaf(struct ccnx_merkle_tree *t, size_t i);
/* Computes the interior nodes from the leaves. */
int ccnx_merkle_tree_compute(struct ccnx_merkle_tree *t);
const uint8_t *ccnx_merkle_root(const struct ccnx_merkle_tree *t);

/* The Witness of leaf i: a DER DigestInfo whose AlgorithmIdentifier is the
 * SHA-256 Merkle-tree OID 1.2.840.113550.11.1.2.2 and whose OCTET STRING
 * holds the DER MerklePath SEQUENCE { nodeIndex INTEGER, SEQUENCE OF OCTET
 * STRING } listing sibling digests from the top of the tree down to the
 * leaf's own sibling. The size depends only on (leaves, i), so space can be
 * laid out before the tree is computed. */
size_t ccnx_merkle_witness_size(size_t leaves, size_t i);
/* Writes exactly ccnx_merkle_witness_size(t->leaves, i) bytes to out. */
int ccnx_merkle_witness_write(const struct ccnx_merkle_tree *t, size_t i, uint8_t *out);

/* A parsed Witness: spans into the caller's bytes. */
struct ccnx_merkle_path {
    uint64_t node_index;   /* the leaf's node number (root is 1) */
    const uint8_t *hashes; /* first of `count` digests, top of the tree first */
    size_t hash_stride;    /* bytes from one digest to the next */
    size_t count;
};
/* Parses a Witness (DigestInfo) value. CCNX_E_UNSUPPORTED when the OID is
 * not the SHA-256 Merkle tree, CCNX_E_VALUE when the DER is malformed. */
int ccnx_merkle_witness_parse(const uint8_t *w, size_t n, struct ccnx_merkle_path *path);
/* Root digest from a leaf digest and its path; CCNX_E_VALUE when the path
 * does not have one digest per level. */
int ccnx_merkle_path_root(const struct ccnx_merkle_path *path, const uint8_t leaf[CCNX_SHA256_LEN],
                          uint8_t root[CCNX_SHA256_LEN]);

/* ---- The user keystore ----
 *
 * A PKCS#12 file holding one private key and its self-signed certificate
 * under the friendly name "ccnxuser", protected by the password every CCNx
 * program knows unless CCNX_KEYSTORE_PASSWORD says otherwise. New files use
 * pbeWithSHA1And3-KeyTripleDES-CBC for both bags and a SHA-1 MAC: OpenSSL 1.x
 * and 3.x read them without extra providers. Files protected with the older
 * 40-bit RC2 (what OpenSSL 1.x wrote by default) are read by loading the
 * OpenSSL "legacy" provider (with "default") into the default library
 * context for the time of the retry. */
#define CCNX_KEYSTORE_DEFAULT_PASSWORD "Th1s1sn0t8g00dp8ssw0rd."
#define CCNX_KEYSTORE_FILENAME         ".ccnx_keystore"
#define CCNX_KEYSTORE_ALIAS            "ccnxuser"
#define CCNX_KEYSTORE_DEFAULT_DAYS     3650

struct ccnx_keystore;

/* Appends the default keystore path: $CCNX_DIR/.ccnx_keystore when CCNX_DIR
 * is set and not empty, else $HOME/.ccnx/.ccnx_keystore (CCNX_E_NOTFOUND
 * when neither variable is set). */
int ccnx_keystore_default_path(struct ccnx_buf *out);
/* $CCNX_KEYSTORE_PASSWORD when set, else CCNX_KEYSTORE_DEFAULT_PASSWORD. */
const char *ccnx_keystore_default_password(void);

/* Opens a keystore (path/password NULL: the defaults). Allocates *out.
 * CCNX_E_NOTFOUND when the file does not exist, CCNX_E_KEYSTORE when it
 * cannot be decrypted (wrong password) or holds no key and certificate. */
int ccnx_keystore_open(const char *path, const char *password, struct ccnx_keystore **out);

struct ccnx_keystore_options {
    unsigned bits;       /* RSA key size; 0: CCNX_KEY_DEFAULT_BITS */
    int validity_days;   /* certificate lifetime; <= 0: CCNX_KEYSTORE_DEFAULT_DAYS */
    const char *subject; /* certificate CN; NULL: the user name of the effective uid */
    int overwrite;       /* replace an existing file instead of CCNX_E_INVAL */
};
/* Creates a keystore with a new key (path/password/opt NULL: the defaults),
 * making the file's directory (mode 0700) when missing and the file with
 * mode 0600. An existing file is an error (errno EEXIST, CCNX_E_IO) unless
 * opt->overwrite. Allocates *out when out is not NULL. */
int ccnx_keystore_create(const char *path, const char *password,
                         const struct ccnx_keystore_options *opt, struct ccnx_keystore **out);
/* Opens the keystore, creating it with default options when the file does
 * not exist (what every publishing program does on first use). */
int ccnx_keystore_open_or_create(const char *path, const char *password,
                                 struct ccnx_keystore **out);
void ccnx_keystore_close(struct ccnx_keystore *ks);

/* The key (private and public), owned by ks. */
const struct ccnx_key *ccnx_keystore_key(const struct ccnx_keystore *ks);
/* Shorthand for ccnx_key_digest(ccnx_keystore_key(ks)). */
const uint8_t *ccnx_keystore_digest(const struct ccnx_keystore *ks);
/* DER of the certificate, owned by ks. */
const uint8_t *ccnx_keystore_certificate(const struct ccnx_keystore *ks, size_t *len);

CCNX_API_END

#endif
