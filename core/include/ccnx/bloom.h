/* Bloom filters for Interest Exclude (InterestMessage.txt), bit-for-bit
 * compatible with the filters other CCNx 0.x nodes build and test.
 *
 * Wire form (the value of a <Bloom> element): an 8-byte header
 *   lg_bits (3..13), n_hash (1..32), method ('A'), reserved (0), seed[4]
 * followed by 2^lg_bits bits packed little-endian by byte (bit h lives in
 * byte h/8 under mask 1 << (h%8)). Keys are raw component bytes.
 *
 * Invalid filters: ccnx_bloom_validate() and ccnx_bloom_wire_test() report
 * CCNX_E_VALUE for a header that breaks any rule above or a length that
 * disagrees with lg_bits. Exclude matching (match.h) then treats the filter
 * as matching every component of its range, as the reference does: that
 * can only hide content from an Interest, never deliver content the sender
 * meant to exclude.
 *
 * A struct ccnx_bloom is a fixed-size value (no allocation).
 */
#ifndef CCNX_BLOOM_H
#define CCNX_BLOOM_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_BLOOM_HEADER_LEN  8
#define CCNX_BLOOM_MIN_LG_BITS 3
#define CCNX_BLOOM_MAX_LG_BITS 13
#define CCNX_BLOOM_MAX_HASH    32
#define CCNX_BLOOM_METHOD      'A'
#define CCNX_BLOOM_MAX_WIRE    (CCNX_BLOOM_HEADER_LEN + (1u << (CCNX_BLOOM_MAX_LG_BITS - 3)))

struct ccnx_bloom {
    uint8_t wire[CCNX_BLOOM_MAX_WIRE]; /* header + bits; the first wire_len bytes are valid */
    size_t wire_len;
    unsigned long members; /* keys inserted (for a decoded filter: 2^lg_bits, an estimate) */
};

/* An empty filter sized for about `estimated_members` keys the way the
 * reference library sizes it (about 12 bits per key, ln2 * bits/keys hashes,
 * clamped to 2..32). Returns 0 or CCNX_E_INVAL. */
int ccnx_bloom_init(struct ccnx_bloom *b, unsigned long estimated_members, const uint8_t seed[4]);
/* An empty filter with explicit geometry (lg_bits 3..13, n_hash 1..32). */
int ccnx_bloom_init_params(struct ccnx_bloom *b, unsigned lg_bits, unsigned n_hash,
                           const uint8_t seed[4]);
/* Copies a validated wire filter into b so more keys can be inserted. */
int ccnx_bloom_decode(struct ccnx_bloom *b, const uint8_t *wire, size_t n);

/* Adds a key; returns the number of bits that were newly set (0: already
 * present or a collision) or CCNX_E_INVAL. */
int ccnx_bloom_insert(struct ccnx_bloom *b, const void *key, size_t n);
/* 1 if the key may be a member (false positives possible), 0 if it is not. */
int ccnx_bloom_test(const struct ccnx_bloom *b, const void *key, size_t n);

/* 0 when wire[0..n) is a valid filter, else CCNX_E_VALUE (CCNX_E_INVAL for NULL). */
int ccnx_bloom_validate(const uint8_t *wire, size_t n);
/* Membership test straight on wire bytes (no copy): 1, 0, or CCNX_E_VALUE
 * when the filter is invalid. */
int ccnx_bloom_wire_test(const uint8_t *wire, size_t n, const void *key, size_t klen);

CCNX_API_END

#endif
