/* Recently seen Interest nonces, for duplicate suppression and loop
 * detection across the whole forwarder.
 *
 * The reference keeps nonces in two places: in each PIT entry (per
 * downstream face) and in a global table consulted before the PIT. We do
 * the same: pit.h keeps each downstream's last nonce (pit_entry_has_nonce),
 * which catches an Interest looping back while its entry is pending; this
 * table catches duplicates that arrive after the entry is gone (satisfied or
 * expired) and duplicates across different entries, for as long as a nonce
 * is remembered (the Interest's lifetime, chosen by the caller).
 *
 * Bounded: a fixed capacity; when full the oldest nonce is forgotten first
 * (counted). Entries are kept in arrival order, so expiry pops from the
 * front; a nonce remembered for less time than an older one stays until
 * that one goes, but lookups compare expiry and never report it.
 */
#ifndef CCND_TABLE_NONCE_H
#define CCND_TABLE_NONCE_H

#include <stddef.h>
#include <stdint.h>

#define NONCE_MAX_LEN 16 /* longer nonces are compared on their first 16 bytes */

struct nonce_table;

struct nonce_stats {
    uint64_t entries;
    uint64_t added;
    uint64_t duplicates; /* nonce_check calls that found a live nonce */
    uint64_t evicted;    /* forgotten early because the table was full */
};

enum nonce_result {
    NONCE_NEW = 0, /* not seen (now remembered) */
    NONCE_DUP = 1, /* seen and still remembered */
};

/* Allocates a table remembering at most `capacity` nonces (at least 1). */
struct nonce_table *nonce_create(size_t capacity);
void nonce_destroy(struct nonce_table *t);

/* Looks the nonce up; when absent (or expired) remembers it until `expires`
 * with the face it came from. Returns enum nonce_result; *faceid_out
 * (optional) gets the face that first brought a duplicate. */
int nonce_check(struct nonce_table *t, const uint8_t *nonce, size_t n, unsigned faceid,
                uint64_t now, uint64_t expires, unsigned *faceid_out);
/* Forgets nonces whose expiry <= now (in arrival order); returns how many. */
size_t nonce_expire(struct nonce_table *t, uint64_t now);

void nonce_get_stats(const struct nonce_table *t, struct nonce_stats *out);
size_t nonce_count(const struct nonce_table *t);

#endif
