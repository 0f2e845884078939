/* Flat name keys: a Name's components re-encoded so that plain memcmp order
 * is CCNx canonical order, for tables that compare or hash names often.
 *
 * Each component is its length, in an order-preserving prefix code, then its
 * bytes: lengths below 0xFE take one byte, up to 0xFFFF take 0xFE and two
 * bytes, longer ones 0xFF and four bytes (all big-endian), so a shorter
 * component always sorts first, then bytes decide, as ccnx_comp_compare
 * says. A key is the concatenation of its components, so
 *  - memcmp over the common length, then the shorter key first, is
 *    canonical order of names (a proper prefix sorts first);
 *  - one key is a byte prefix of another exactly when its name is a
 *    component prefix of the other's;
 *  - the two ccnb spellings of a component (BLOB, UDATA) give one key.
 * A key is never longer than the encoded Name it came from; a 32-byte extra
 * component (an object's digest) adds CCNX_NAMEKEY_DIGEST_LEN bytes. Used by the
 * forwarder's content store and the repository's keys (LMDB's default order is
 * exactly this comparison).
 */
#ifndef CCNX_NAMEKEY_H
#define CCNX_NAMEKEY_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_NAMEKEY_DIGEST_LEN 33 /* one length byte and 32 bytes of digest */
#define CCNX_NAMEKEY_COMP_MAX   5  /* bytes of a component's length prefix, at most */

/* Appends component p[0..n) at out; returns the bytes written (at most
 * n + CCNX_NAMEKEY_COMP_MAX). */
size_t ccnx_namekey_put_comp(uint8_t *out, const uint8_t *p, size_t n);

/* Writes the key of the encoded Name element name[0..len) at out, which has
 * room for len bytes; *keylen gets its length and *ncomps (optional) the
 * number of components. 0, or CCNX_E_INVAL for a malformed Name. */
int ccnx_namekey_from_name(const uint8_t *name, size_t len, uint8_t *out, size_t *keylen,
                           uint32_t *ncomps);

/* Steps over the component starting at key[*pos] (key[0..len) a whole
 * key): *n gets its length and *pos moves past it. 1, 0 at the end of the
 * key, CCNX_E_INVAL when the key is cut short. */
int ccnx_namekey_next_comp(const uint8_t *key, size_t len, size_t *pos, size_t *n);

/* Canonical order of two keys: <0, 0, >0. */
int ccnx_namekey_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* Where key a lies relative to the subtree of prefix key p: <0 before it, 0
 * inside it (p is a prefix of a), >0 after it. */
int ccnx_namekey_subtree_compare(const uint8_t *a, size_t alen, const uint8_t *p, size_t plen);

/* A 64-bit hash of a key (word at a time; not for hostile input alone:
 * tables using it bound their chains by resizing). */
uint64_t ccnx_namekey_hash(const uint8_t *p, size_t n);

CCNX_API_END

#endif
