/* Merkle hash trees for batch signatures and their Witness encoding
 * (SignatureGeneration.txt). */
#ifndef CCNX_MERKLE_H
#define CCNX_MERKLE_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/key.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

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

CCNX_API_END

#endif
