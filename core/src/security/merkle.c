/* Merkle hash trees and their DER Witness encoding (SignatureGeneration.txt).
 *
 * The Witness layout is what the reference writes and reads:
 *   DigestInfo ::= SEQUENCE { SEQUENCE { OID 1.2.840.113550.11.1.2.2 },
 *                             OCTET STRING (DER of MerklePath) }
 *   MerklePath ::= SEQUENCE { INTEGER nodeIndex, SEQUENCE OF OCTET STRING }
 * We write the AlgorithmIdentifier without parameters, as the reference's
 * encoder does, and accept an explicit NULL when reading. */
#include <ccnx/key.h>
#include <ccnx/merkle.h>
#include <ccnx/error.h>

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

/* Content bytes of the OID 1.2.840.113550.11.1.2.2 (SHA-256 Merkle tree). */
static const uint8_t mht_sha256_oid[] = {0x2A, 0x86, 0x48, 0x86, 0xF7,
                                         0x0E, 0x0B, 0x01, 0x02, 0x02};

#define DER_INTEGER      0x02
#define DER_OCTET_STRING 0x04
#define DER_NULL         0x05
#define DER_OID          0x06
#define DER_SEQUENCE     0x30

/* Each path digest is encoded as 04 20 <32 bytes>. */
#define PATH_ENTRY_LEN (2 + CCNX_SHA256_LEN)

int ccnx_merkle_tree_init(struct ccnx_merkle_tree *t, size_t leaves)
{
    if (t == NULL || leaves == 0 || leaves > SIZE_MAX / (4 * CCNX_SHA256_LEN)) {
        return CCNX_E_INVAL;
    }
    t->node = calloc(2 * leaves, CCNX_SHA256_LEN);
    if (t->node == NULL) {
        t->leaves = 0;
        return CCNX_E_NOMEM;
    }
    t->leaves = leaves;
    return 0;
}

void ccnx_merkle_tree_free(struct ccnx_merkle_tree *t)
{
    if (t != NULL) {
        free(t->node);
        t->node = NULL;
        t->leaves = 0;
    }
}

uint8_t *ccnx_merkle_leaf(struct ccnx_merkle_tree *t, size_t i)
{
    if (t == NULL || t->node == NULL || i >= t->leaves) {
        return NULL;
    }
    return t->node[t->leaves + i];
}

const uint8_t *ccnx_merkle_root(const struct ccnx_merkle_tree *t)
{
    if (t == NULL || t->node == NULL) {
        return NULL;
    }
    return t->node[1];
}

/* out = SHA-256(a || b), reusing ctx. */
static int hash_pair(EVP_MD_CTX *ctx, const EVP_MD *md, const uint8_t *a, const uint8_t *b,
                     uint8_t *out)
{
    return EVP_DigestInit_ex2(ctx, md, NULL) == 1 &&
           EVP_DigestUpdate(ctx, a, CCNX_SHA256_LEN) == 1 &&
           EVP_DigestUpdate(ctx, b, CCNX_SHA256_LEN) == 1 &&
           EVP_DigestFinal_ex(ctx, out, NULL) == 1;
}

int ccnx_merkle_tree_compute(struct ccnx_merkle_tree *t)
{
    if (t == NULL || t->node == NULL) {
        return CCNX_E_INVAL;
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    int rc = ctx != NULL && md != NULL ? 0 : CCNX_E_CRYPTO;
    for (size_t k = t->leaves - 1; rc == 0 && k >= 1; k--) {
        if (!hash_pair(ctx, md, t->node[2 * k], t->node[2 * k + 1], t->node[k])) {
            rc = CCNX_E_CRYPTO;
        }
    }
    if (rc != 0) {
        ERR_clear_error();
    }
    EVP_MD_free(md);
    EVP_MD_CTX_free(ctx);
    return rc;
}

/* Number of digests on the path of node k: one per level below the root. */
static size_t path_length(uint64_t k)
{
    size_t levels = 0;
    while (k > 1) {
        k >>= 1;
        levels++;
    }
    return levels;
}

static size_t der_len_size(size_t len)
{
    size_t n = 1;
    if (len >= 0x80) {
        for (size_t v = len; v != 0; v >>= 8) {
            n++;
        }
    }
    return n;
}

static uint8_t *der_put_header(uint8_t *p, uint8_t tag, size_t len)
{
    *p++ = tag;
    if (len < 0x80) {
        *p++ = (uint8_t)len;
        return p;
    }
    size_t bytes = der_len_size(len) - 1;
    *p++ = (uint8_t)(0x80 | bytes);
    for (size_t i = bytes; i-- > 0;) {
        *p++ = (uint8_t)(len >> (8 * i));
    }
    return p;
}

/* Content bytes of a positive DER INTEGER (a leading 0 keeps it positive). */
static size_t der_uint_size(uint64_t v)
{
    size_t n = 1;
    while (n < 8 && (v >> (8 * n)) != 0) {
        n++;
    }
    if ((v >> (8 * n - 1)) & 1) {
        n++;
    }
    return n;
}

struct witness_layout {
    uint64_t node;
    size_t count;    /* path digests */
    size_t int_len;  /* INTEGER content */
    size_t list_len; /* SEQUENCE OF content */
    size_t path_len; /* MerklePath content */
    size_t octets;   /* OCTET STRING content (the whole MerklePath) */
    size_t info_len; /* DigestInfo content */
    size_t total;
};

static void layout(size_t leaves, size_t i, struct witness_layout *w)
{
    w->node = (uint64_t)leaves + i;
    w->count = path_length(w->node);
    w->int_len = der_uint_size(w->node);
    w->list_len = w->count * PATH_ENTRY_LEN;
    w->path_len =
        1 + der_len_size(w->int_len) + w->int_len + 1 + der_len_size(w->list_len) + w->list_len;
    w->octets = 1 + der_len_size(w->path_len) + w->path_len;
    size_t alg = 2 + 2 + sizeof mht_sha256_oid;
    w->info_len = alg + 1 + der_len_size(w->octets) + w->octets;
    w->total = 1 + der_len_size(w->info_len) + w->info_len;
}

size_t ccnx_merkle_witness_size(size_t leaves, size_t i)
{
    if (leaves == 0 || i >= leaves) {
        return 0;
    }
    struct witness_layout w;
    layout(leaves, i, &w);
    return w.total;
}

int ccnx_merkle_witness_write(const struct ccnx_merkle_tree *t, size_t i, uint8_t *out)
{
    if (t == NULL || t->node == NULL || out == NULL || i >= t->leaves) {
        return CCNX_E_INVAL;
    }
    struct witness_layout w;
    layout(t->leaves, i, &w);
    uint8_t *p = der_put_header(out, DER_SEQUENCE, w.info_len);
    p = der_put_header(p, DER_SEQUENCE, 2 + sizeof mht_sha256_oid);
    p = der_put_header(p, DER_OID, sizeof mht_sha256_oid);
    memcpy(p, mht_sha256_oid, sizeof mht_sha256_oid);
    p += sizeof mht_sha256_oid;
    p = der_put_header(p, DER_OCTET_STRING, w.octets);
    p = der_put_header(p, DER_SEQUENCE, w.path_len);
    p = der_put_header(p, DER_INTEGER, w.int_len);
    for (size_t b = w.int_len; b-- > 0;) {
        *p++ = b < 8 ? (uint8_t)(w.node >> (8 * b)) : 0;
    }
    p = der_put_header(p, DER_SEQUENCE, w.list_len);
    /* Siblings from the leaf upwards fill the list from its end. */
    uint64_t k = w.node;
    for (size_t e = w.count; e-- > 0; k >>= 1) {
        uint8_t *entry = p + e * PATH_ENTRY_LEN;
        entry[0] = DER_OCTET_STRING;
        entry[1] = CCNX_SHA256_LEN;
        memcpy(entry + 2, t->node[k ^ 1], CCNX_SHA256_LEN);
    }
    return 0;
}

/* ---- Reading ---- */

struct der {
    const uint8_t *p;
    size_t n;
};

/* Reads one TLV with the given tag; `inner` gets its content. */
static int der_take(struct der *d, uint8_t tag, struct der *inner)
{
    if (d->n < 2 || d->p[0] != tag) {
        return CCNX_E_VALUE;
    }
    size_t len = d->p[1];
    size_t hdr = 2;
    if (len & 0x80) {
        size_t bytes = len & 0x7F;
        /* Indefinite (0x80) and absurd lengths are not DER. */
        if (bytes == 0 || bytes > 4 || d->n < 2 + bytes) {
            return CCNX_E_VALUE;
        }
        len = 0;
        for (size_t i = 0; i < bytes; i++) {
            len = (len << 8) | d->p[2 + i];
        }
        hdr += bytes;
    }
    if (len > d->n - hdr) {
        return CCNX_E_VALUE;
    }
    inner->p = d->p + hdr;
    inner->n = len;
    d->p += hdr + len;
    d->n -= hdr + len;
    return 0;
}

static int parse_algorithm(struct der *info)
{
    struct der alg, oid;
    if (der_take(info, DER_SEQUENCE, &alg) != 0 || der_take(&alg, DER_OID, &oid) != 0) {
        return CCNX_E_VALUE;
    }
    if (alg.n != 0 && !(alg.n == 2 && alg.p[0] == DER_NULL && alg.p[1] == 0)) {
        return CCNX_E_VALUE;
    }
    if (oid.n == sizeof mht_sha256_oid && memcmp(oid.p, mht_sha256_oid, oid.n) == 0) {
        return 0;
    }
    /* Another Merkle digest (SHA-1) or not a Merkle path at all. */
    return CCNX_E_UNSUPPORTED;
}

static int parse_node_index(struct der *path, uint64_t *node)
{
    struct der num;
    if (der_take(path, DER_INTEGER, &num) != 0 || num.n == 0 || num.n > 9 ||
        (num.p[0] & 0x80) != 0 || (num.n == 9 && num.p[0] != 0)) {
        return CCNX_E_VALUE;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < num.n; i++) {
        v = (v << 8) | num.p[i];
    }
    if (v == 0) {
        return CCNX_E_VALUE;
    }
    *node = v;
    return 0;
}

int ccnx_merkle_witness_parse(const uint8_t *w, size_t n, struct ccnx_merkle_path *path)
{
    if (w == NULL || path == NULL) {
        return CCNX_E_INVAL;
    }
    struct der all = {w, n}, info, octets, mp, list;
    if (der_take(&all, DER_SEQUENCE, &info) != 0 || all.n != 0) {
        return CCNX_E_VALUE;
    }
    int rc = parse_algorithm(&info);
    if (rc != 0) {
        return rc;
    }
    if (der_take(&info, DER_OCTET_STRING, &octets) != 0 || info.n != 0 ||
        der_take(&octets, DER_SEQUENCE, &mp) != 0 || octets.n != 0) {
        return CCNX_E_VALUE;
    }
    rc = parse_node_index(&mp, &path->node_index);
    if (rc != 0 || der_take(&mp, DER_SEQUENCE, &list) != 0 || mp.n != 0) {
        return CCNX_E_VALUE;
    }
    if (list.n % PATH_ENTRY_LEN != 0) {
        return CCNX_E_VALUE;
    }
    for (size_t off = 0; off < list.n; off += PATH_ENTRY_LEN) {
        if (list.p[off] != DER_OCTET_STRING || list.p[off + 1] != CCNX_SHA256_LEN) {
            return CCNX_E_VALUE;
        }
    }
    path->count = list.n / PATH_ENTRY_LEN;
    path->hashes = list.n != 0 ? list.p + 2 : NULL;
    path->hash_stride = PATH_ENTRY_LEN;
    return 0;
}

int ccnx_merkle_path_root(const struct ccnx_merkle_path *path, const uint8_t leaf[CCNX_SHA256_LEN],
                          uint8_t root[CCNX_SHA256_LEN])
{
    if (path == NULL || leaf == NULL || root == NULL || path->node_index == 0) {
        return CCNX_E_INVAL;
    }
    /* One digest per level: anything else cannot come from a tree of this shape. */
    if (path->count != path_length(path->node_index)) {
        return CCNX_E_VALUE;
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    int rc = ctx != NULL && md != NULL ? 0 : CCNX_E_CRYPTO;
    uint8_t cur[CCNX_SHA256_LEN];
    memcpy(cur, leaf, sizeof cur);
    uint64_t k = path->node_index;
    for (size_t e = path->count; rc == 0 && e-- > 0; k >>= 1) {
        const uint8_t *sib = path->hashes + e * path->hash_stride;
        int ok = (k & 1) ? hash_pair(ctx, md, sib, cur, cur) : hash_pair(ctx, md, cur, sib, cur);
        if (!ok) {
            rc = CCNX_E_CRYPTO;
        }
    }
    if (rc == 0) {
        memcpy(root, cur, sizeof cur);
    } else {
        ERR_clear_error();
    }
    EVP_MD_free(md);
    EVP_MD_CTX_free(ctx);
    return rc;
}
