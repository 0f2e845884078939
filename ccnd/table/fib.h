/* The forwarding table: name prefix -> next hops {faceid, flags, expiry},
 * plus a per-prefix strategy choice inherited by longer prefixes.
 *
 * Flags are Registration.txt's forwarding flags. The outbound face set for a
 * name is computed as the reference forwarder computes it: start at the
 * longest registered prefix of the name and take its ACTIVE entries; going
 * to ever shorter registered prefixes, an entry is taken only when it is
 * ACTIVE and CHILD_INHERIT, and, once some longer prefix had a CAPTURE
 * entry, only when it does not carry CAPTURE_OK (that flag consents to
 * being overridden by a capture; entries without it still inherit, as in
 * the reference). The face of a LAST entry goes
 * to the end, TAP faces are also reported on their own, and the OR of the
 * flags of every entry on the path (taken or not) is the namespace's flags
 * (LOCAL and so on).
 *
 * Expired entries (expiry <= now) are ignored by lookups and dropped by
 * fib_expire. Faces are ids only: the caller filters out faces that are
 * gone or must not receive the Interest (scope, the arrival face).
 */
#ifndef CCND_TABLE_FIB_H
#define CCND_TABLE_FIB_H

#include <stddef.h>
#include <stdint.h>

#define FIB_ACTIVE        1
#define FIB_CHILD_INHERIT 2
#define FIB_ADVERTISE     4
#define FIB_LAST          8
#define FIB_CAPTURE       16
#define FIB_LOCAL         32
#define FIB_TAP           64
#define FIB_CAPTURE_OK    128

#define FIB_NEVER     UINT64_MAX /* expiry of a permanent registration */
#define FIB_MAX_FACES 64         /* faces one lookup reports */

struct fib;

#define FIB_OWNER_NONE (-1) /* a registration nobody in particular made */

struct fib_nexthop {
    unsigned faceid;
    unsigned flags;
    uint64_t expires; /* microseconds, FIB_NEVER for never */
    int64_t owner;    /* who made it (the forwarder's notion: a uid), or FIB_OWNER_NONE */
};

struct fib_result {
    unsigned faces[FIB_MAX_FACES]; /* outbound faces, a LAST face at the end */
    size_t nfaces;
    unsigned tap[FIB_MAX_FACES]; /* the subset registered with TAP */
    size_t ntap;
    unsigned namespace_flags; /* OR of the flags of every entry on the path */
    uint32_t prefix_comps;    /* components of the longest registered prefix; -1u: none */
    const char *strategy;     /* inherited strategy name, or NULL */
    uint32_t strategy_comps;  /* components of the prefix it was set on (0 when none) */
    const char *params;       /* its parameters ("" when none), or NULL */
    /* The owner's slot on the longest registered prefix's node (see
     * fib_set_state_free), NULL when no prefix is registered. */
    void **state;
};

/* Allocates an empty table; NULL when out of memory. */
struct fib *fib_create(void);
/* Each prefix has one pointer its owner may keep there (the forwarder's
 * measurements of the prefix, as NFD hangs Measurements on its name
 * tree): set through fib_result.state, handed to fn when the prefix
 * leaves the table (its last registration and strategy gone, or the
 * table destroyed), so it is trimmed with the table. */
void fib_set_state_free(struct fib *fib, void (*fn)(void *state));
void fib_destroy(struct fib *fib);

/* Registers faceid on the prefix (encoded Name element); an existing entry
 * for the face gets the new flags and expiry and keeps its owner, a new one
 * gets `owner` (FIB_OWNER_NONE: nobody in particular). 0 or CCNX_E*. */
int fib_add(struct fib *fib, const uint8_t *name, size_t len, unsigned faceid, unsigned flags,
            uint64_t expires, int64_t owner);
/* faceid's entry on exactly that prefix, or NULL; valid until the table
 * changes (its owner may be set through it). */
struct fib_nexthop *fib_find(struct fib *fib, const uint8_t *name, size_t len, unsigned faceid);
/* Removes faceid's entry on the prefix: 0 or CCNX_E_NOTFOUND. */
int fib_remove(struct fib *fib, const uint8_t *name, size_t len, unsigned faceid);
/* 1 when the face has a registration (live or not yet swept), else 0. */
int fib_face_registered(const struct fib *fib, unsigned faceid);
/* Removes every entry of a face (it closed); returns how many. The table
 * keeps, per face, the prefixes it is registered on: no walk. */
size_t fib_remove_face(struct fib *fib, unsigned faceid);
/* Drops entries whose expiry <= now; returns how many. */
size_t fib_expire(struct fib *fib, uint64_t now);

/* Sets (strategy non-NULL) or clears (NULL) the strategy of a prefix, as
 * chosen by `owner`; the strings are copied. 0 or CCNX_E*. */
int fib_set_strategy(struct fib *fib, const uint8_t *name, size_t len, const char *strategy,
                     const char *params, int64_t owner);
/* 1 and *owner when a strategy is chosen on exactly that prefix, else 0. */
int fib_strategy_owner(const struct fib *fib, const uint8_t *name, size_t len, int64_t *owner);
/* 1 when a live next hop on the prefix or a longer one was made by anyone
 * but `owner` (FIB_OWNER_NONE's included), else 0. Walks the table: for
 * control requests, not per packet. */
int fib_others_under(const struct fib *fib, const uint8_t *name, size_t len, int64_t owner,
                     uint64_t now);

/* The outbound faces for a name (usually an Interest's), as described
 * above. 0, or CCNX_E_INVAL for a malformed name. */
int fib_lookup(const struct fib *fib, const uint8_t *name, size_t len, uint64_t now,
               struct fib_result *out);

/* Calls fn for every prefix with next hops or a strategy, until it returns
 * nonzero. `prefix` is the encoded Name element (valid during the call). */
typedef int (*fib_visit_fn)(const uint8_t *prefix, size_t len, const struct fib_nexthop *hops,
                            size_t nhops, const char *strategy, const char *params, void *ctx);
int fib_foreach(const struct fib *fib, fib_visit_fn fn, void *ctx);

size_t fib_prefix_count(const struct fib *fib);

#endif
