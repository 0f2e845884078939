/* The verifier's Merkle-batch checking (verifier_merkle.c), used by verifier.c. */
#ifndef CCNX_VERIFIER_INTERNAL_H
#define CCNX_VERIFIER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/content.h>
#include <ccnx/name.h>
#include <ccnx/key.h>

/* Signatures longer than this (4096-bit RSA) are checked object by object. */
#define MERKLE_SIG_MAX 512

struct merkle_cache;

int merkle_cache_create(struct merkle_cache **out);
void merkle_cache_free(struct merkle_cache *m);
/* Checks an object signed with a Witness (default digest algorithm,
 * signature of at most MERKLE_SIG_MAX bytes) against key: 0 or a CCNX_E_*
 * code. *rsa_ops counts the signature operations actually performed. */
int merkle_cache_verify(struct merkle_cache *m, const uint8_t *obj,
                        const struct ccnx_content_parsed *pc, const struct ccnx_key *key,
                        uint64_t *rsa_ops);

#endif
