/* Encoding and signing ContentObjects, singly or as a Merkle-signed batch.
 *
 * Objects are written straight into the caller's buffer with room left for
 * the Signature (whose size is known in advance: RSA signatures are as long
 * as the modulus, Witness sizes depend only on the tree shape), then the
 * signed part is hashed in place and the signature bytes filled in. No body
 * is copied or hashed twice. */
#include <ccnx/name.h>
#include <ccnx/content_sign.h>
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/naming.h>
#include <ccnx/key.h>
#include <ccnx/merkle.h>

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

void ccnx_content_params_init(struct ccnx_content_params *p)
{
    memset(p, 0, sizeof *p);
    p->type = CCNX_TYPE_DATA;
    p->freshness = -1;
    p->timestamp = -1;
    p->key_locator = CCNX_KEYLOC_KEY;
}

/* <dtag> BLOB </dtag> with the BLOB header even for empty values, the way
 * the reference writes keys, timestamps and FinalBlockIDs. */
static int append_blob_always(struct ccnx_buf *out, uint64_t dtag, const void *p, size_t n)
{
    ccnx_ccnb_open(out, dtag);
    ccnx_ccnb_append_header(out, n, CCNX_TT_BLOB);
    ccnx_buf_append(out, p, n);
    return ccnx_ccnb_append_closer(out);
}

static int check_params(const struct ccnx_content_params *p)
{
    if (p == NULL || ccnx_name_check_ccnb(p->name, p->name_len) != 0) {
        return CCNX_E_INVAL;
    }
    if ((p->content == NULL && p->content_len != 0) ||
        (p->ext_opt == NULL && p->ext_opt_len != 0) || p->type > 0xFFFFFF ||
        p->freshness > INT32_MAX) {
        return CCNX_E_INVAL;
    }
    if (p->timestamp_value != NULL && p->timestamp_value_len == 0) {
        return CCNX_E_INVAL;
    }
    switch (p->key_locator) {
    case CCNX_KEYLOC_NONE:
    case CCNX_KEYLOC_KEY:
        return 0;
    case CCNX_KEYLOC_CERTIFICATE:
        return p->key_locator_value != NULL ? 0 : CCNX_E_INVAL;
    case CCNX_KEYLOC_KEYNAME:
        if (p->key_name_publisher != NULL && p->key_name_publisher_len != CCNX_DIGEST_LEN) {
            return CCNX_E_INVAL;
        }
        return ccnx_name_check_ccnb(p->key_locator_value, p->key_locator_value_len);
    }
    return CCNX_E_INVAL;
}

static int append_timestamp(struct ccnx_buf *out, const struct ccnx_content_params *p)
{
    if (p->timestamp_value != NULL) {
        return append_blob_always(out, CCNX_DTAG_Timestamp, p->timestamp_value,
                                  p->timestamp_value_len);
    }
    uint64_t ticks = (uint64_t)p->timestamp;
    if (p->timestamp < 0 && ccnx_naming_timestamp_now(&ticks) != 0) {
        return CCNX_E_IO;
    }
    uint8_t enc[CCNX_TIMESTAMP_MAX_LEN];
    int n = ccnx_naming_timestamp_encode(ticks, enc);
    if (n < 0) {
        return n;
    }
    return append_blob_always(out, CCNX_DTAG_Timestamp, enc, (size_t)n);
}

static int append_key_locator(struct ccnx_buf *out, const struct ccnx_content_params *p,
                              const struct ccnx_key *key)
{
    size_t n = p->key_locator_value_len;
    const uint8_t *v = p->key_locator_value;
    switch (p->key_locator) {
    case CCNX_KEYLOC_NONE:
        return 0;
    case CCNX_KEYLOC_KEY:
        if (v == NULL) {
            v = ccnx_key_der(key, &n);
        }
        ccnx_ccnb_open(out, CCNX_DTAG_KeyLocator);
        append_blob_always(out, CCNX_DTAG_Key, v, n);
        break;
    case CCNX_KEYLOC_CERTIFICATE:
        ccnx_ccnb_open(out, CCNX_DTAG_KeyLocator);
        append_blob_always(out, CCNX_DTAG_Certificate, v, n);
        break;
    case CCNX_KEYLOC_KEYNAME:
        ccnx_ccnb_open(out, CCNX_DTAG_KeyLocator);
        ccnx_ccnb_open(out, CCNX_DTAG_KeyName);
        ccnx_buf_append(out, v, n);
        if (p->key_name_publisher != NULL) {
            ccnx_ccnb_append_blob_element(out, CCNX_DTAG_PublisherPublicKeyDigest,
                                          p->key_name_publisher, p->key_name_publisher_len);
        }
        ccnx_ccnb_append_closer(out);
        break;
    }
    return ccnx_ccnb_append_closer(out);
}

static int append_signed_info(struct ccnx_buf *out, const struct ccnx_content_params *p,
                              const struct ccnx_key *key)
{
    ccnx_ccnb_open(out, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(out, CCNX_DTAG_PublisherPublicKeyDigest, ccnx_key_digest(key),
                                  CCNX_SHA256_LEN);
    int rc = append_timestamp(out, p);
    if (rc != 0) {
        return rc;
    }
    if (p->type != CCNX_TYPE_DATA) {
        uint8_t t[3] = {(uint8_t)(p->type >> 16), (uint8_t)(p->type >> 8), (uint8_t)p->type};
        append_blob_always(out, CCNX_DTAG_Type, t, sizeof t);
    }
    if (p->freshness >= 0) {
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_FreshnessSeconds, (uint64_t)p->freshness);
    }
    if (p->final_block_id != NULL) {
        append_blob_always(out, CCNX_DTAG_FinalBlockID, p->final_block_id, p->final_block_id_len);
    }
    rc = append_key_locator(out, p, key);
    if (rc != 0) {
        return rc;
    }
    if (p->ext_opt != NULL && p->ext_opt_len > 0) {
        ccnx_ccnb_append_blob_element(out, CCNX_DTAG_ExtOpt, p->ext_opt, p->ext_opt_len);
    }
    return ccnx_ccnb_append_closer(out);
}

/* Where the placeholders of one object sit in the output buffer. */
struct slots {
    size_t witness;  /* offset of the Witness value (batches only) */
    size_t sigbits;  /* offset of the SignatureBits value */
    size_t body;     /* start of Name */
    size_t body_end; /* end of Content */
};

/* Reserves `n` zero bytes at the end of out and returns their offset. */
static size_t reserve_zero(struct ccnx_buf *out, size_t n)
{
    size_t off = out->len;
    uint8_t *p = ccnx_buf_reserve(out, n);
    if (p != NULL) {
        memset(p, 0, n);
        out->len += n;
    }
    return off;
}

/* Hashes a batch object's signed part as soon as it is written. */
struct leaf_hasher {
    EVP_MD_CTX *ctx;
    const EVP_MD *md;
    uint8_t *leaf;
};

/* Appends the Content element, then, when h is not NULL, hashes the signed
 * part (Name to the end of Content) from the output buffer: the copy has
 * just brought those bytes into cache, so the caller's payload is read from
 * memory only once. */
static int append_content(struct ccnx_buf *out, const struct ccnx_content_params *p, size_t body,
                          const struct leaf_hasher *h)
{
    ccnx_ccnb_open(out, CCNX_DTAG_Content);
    if (p->content_len > 0) {
        ccnx_ccnb_append_header(out, p->content_len, CCNX_TT_BLOB);
    }
    if (ccnx_buf_status(out) != 0) {
        return CCNX_E_NOMEM;
    }
    ccnx_buf_append(out, p->content, p->content_len);
    ccnx_ccnb_append_closer(out);
    if (ccnx_buf_status(out) != 0) {
        return CCNX_E_NOMEM;
    }
    if (h != NULL && (EVP_DigestInit_ex2(h->ctx, h->md, NULL) != 1 ||
                      EVP_DigestUpdate(h->ctx, out->data + body, out->len - body) != 1 ||
                      EVP_DigestFinal_ex(h->ctx, h->leaf, NULL) != 1)) {
        ERR_clear_error();
        return CCNX_E_CRYPTO;
    }
    return 0;
}

/* Writes one ContentObject whose Signature holds zeroed room for a Witness
 * of witness_len bytes (0: none) and a signature of sig_len bytes. */
static int emit_object(struct ccnx_buf *out, const struct ccnx_content_params *p,
                       const struct ccnx_key *key, size_t witness_len, size_t sig_len,
                       struct slots *s, const struct leaf_hasher *h)
{
    ccnx_ccnb_open(out, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(out, CCNX_DTAG_Signature);
    if (witness_len > 0) {
        ccnx_ccnb_open(out, CCNX_DTAG_Witness);
        ccnx_ccnb_append_header(out, witness_len, CCNX_TT_BLOB);
        s->witness = reserve_zero(out, witness_len);
        ccnx_ccnb_append_closer(out);
    }
    ccnx_ccnb_open(out, CCNX_DTAG_SignatureBits);
    ccnx_ccnb_append_header(out, sig_len, CCNX_TT_BLOB);
    s->sigbits = reserve_zero(out, sig_len);
    ccnx_ccnb_append_closer(out);
    ccnx_ccnb_append_closer(out); /* Signature */
    s->body = out->len;
    ccnx_buf_append(out, p->name, p->name_len);
    int rc = append_signed_info(out, p, key);
    if (rc == 0) {
        rc = append_content(out, p, s->body, h);
    }
    if (rc != 0) {
        return rc;
    }
    s->body_end = out->len;
    ccnx_ccnb_append_closer(out); /* ContentObject */
    return ccnx_buf_status(out);
}

/* Signing needs a private RSA key: its signatures have a fixed size, which
 * lets the Signature be laid out before the signed part is written. */
static int check_key(const struct ccnx_key *key, size_t *sig_len)
{
    if (key == NULL || !ccnx_key_has_private(key)) {
        return CCNX_E_NOKEY;
    }
    if (!ccnx_key_is_rsa(key)) {
        return CCNX_E_UNSUPPORTED;
    }
    *sig_len = ccnx_key_signature_size(key);
    return *sig_len > 0 ? 0 : CCNX_E_CRYPTO;
}

int ccnx_content_sign(struct ccnx_buf *out, const struct ccnx_content_params *p,
                      const struct ccnx_key *key)
{
    if (out == NULL) {
        return CCNX_E_INVAL;
    }
    size_t sig_len = 0;
    int rc = check_key(key, &sig_len);
    if (rc == 0) {
        rc = check_params(p);
    }
    if (rc != 0) {
        return rc;
    }
    size_t start = out->len;
    struct slots s;
    rc = emit_object(out, p, key, 0, sig_len, &s, NULL);
    size_t written = 0;
    if (rc == 0) {
        rc = ccnx_key_sign(key, out->data + s.body, s.body_end - s.body, out->data + s.sigbits,
                           &written);
    }
    if (rc == 0 && written != sig_len) {
        rc = CCNX_E_CRYPTO;
    }
    if (rc != 0 && out->len >= start) {
        out->len = start;
    }
    return rc;
}

struct batch {
    struct ccnx_merkle_tree tree;
    struct slots *slots;
    EVP_MD_CTX *ctx;
    EVP_MD *md;
};

static void batch_free(struct batch *b)
{
    ccnx_merkle_tree_free(&b->tree);
    free(b->slots);
    EVP_MD_CTX_free(b->ctx);
    EVP_MD_free(b->md);
}

static int batch_init(struct batch *b, size_t n)
{
    memset(b, 0, sizeof *b);
    int rc = ccnx_merkle_tree_init(&b->tree, n);
    if (rc != 0) {
        return rc;
    }
    b->slots = calloc(n, sizeof *b->slots);
    b->ctx = EVP_MD_CTX_new();
    b->md = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (b->slots == NULL || b->ctx == NULL || b->md == NULL) {
        ERR_clear_error();
        batch_free(b);
        return CCNX_E_NOMEM;
    }
    return 0;
}

static int batch_emit(struct batch *b, struct ccnx_buf *out, const struct ccnx_content_params *p,
                      size_t n, const struct ccnx_key *key, size_t sig_len, size_t *offsets)
{
    for (size_t i = 0; i < n; i++) {
        int rc = check_params(&p[i]);
        if (rc != 0) {
            return rc;
        }
        if (offsets != NULL) {
            offsets[i] = out->len;
        }
        size_t wlen = ccnx_merkle_witness_size(n, i);
        struct leaf_hasher h = {b->ctx, b->md, ccnx_merkle_leaf(&b->tree, i)};
        rc = emit_object(out, &p[i], key, wlen, sig_len, &b->slots[i], &h);
        if (rc != 0) {
            return rc;
        }
    }
    if (offsets != NULL) {
        offsets[n] = out->len;
    }
    return 0;
}

/* One signature over the root, copied into every object with its Witness. */
static int batch_sign(struct batch *b, struct ccnx_buf *out, size_t n, const struct ccnx_key *key,
                      size_t sig_len)
{
    int rc = ccnx_merkle_tree_compute(&b->tree);
    if (rc != 0) {
        return rc;
    }
    uint8_t *sig = malloc(sig_len);
    if (sig == NULL) {
        return CCNX_E_NOMEM;
    }
    size_t written = 0;
    rc = ccnx_key_sign(key, ccnx_merkle_root(&b->tree), CCNX_SHA256_LEN, sig, &written);
    if (rc == 0 && written != sig_len) {
        rc = CCNX_E_CRYPTO;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = ccnx_merkle_witness_write(&b->tree, i, out->data + b->slots[i].witness);
        memcpy(out->data + b->slots[i].sigbits, sig, sig_len);
    }
    free(sig);
    return rc;
}

/* Grows out once up front so that big batches are not copied by repeated
 * doubling. Only a hint: on failure the buffer is left as it was and the
 * appends that follow report the shortage. */
static void reserve_batch(struct ccnx_buf *out, const struct ccnx_content_params *p, size_t n,
                          const struct ccnx_key *key, size_t sig_len)
{
    size_t der_len = 0;
    ccnx_key_der(key, &der_len);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        /* 128 bytes cover every header, the digest, timestamp, type and freshness. */
        size_t fixed = sig_len + ccnx_merkle_witness_size(n, i) + der_len + 128;
        size_t more = p[i].name_len + p[i].content_len + p[i].ext_opt_len +
                      p[i].key_locator_value_len + p[i].final_block_id_len + fixed;
        if (more > SIZE_MAX / 4 - total) {
            return;
        }
        total += more;
    }
    if (out->failed) {
        return;
    }
    if (ccnx_buf_reserve(out, total) == NULL) {
        out->failed = 0;
    }
}

int ccnx_content_sign_batch(struct ccnx_buf *out, const struct ccnx_content_params *p, size_t n,
                            const struct ccnx_key *key, size_t *offsets)
{
    if (out == NULL || p == NULL || n == 0) {
        return CCNX_E_INVAL;
    }
    if (n == 1) {
        size_t start = out->len;
        int rc = ccnx_content_sign(out, p, key);
        if (rc == 0 && offsets != NULL) {
            offsets[0] = start;
            offsets[1] = out->len;
        }
        return rc;
    }
    size_t sig_len = 0;
    int rc = check_key(key, &sig_len);
    if (rc != 0) {
        return rc;
    }
    struct batch b;
    rc = batch_init(&b, n);
    if (rc != 0) {
        return rc;
    }
    size_t start = out->len;
    reserve_batch(out, p, n, key, sig_len);
    rc = batch_emit(&b, out, p, n, key, sig_len, offsets);
    if (rc == 0) {
        rc = batch_sign(&b, out, n, key, sig_len);
    }
    if (rc != 0) {
        out->len = start;
    }
    batch_free(&b);
    return rc;
}
