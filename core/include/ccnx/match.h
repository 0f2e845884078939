/* Interest / ContentObject matching with every selector, and the choice a
 * content store makes among several matching objects.
 *
 * A ContentObject's full name is its Name plus one implicit last component:
 * the SHA-256 digest of the whole encoded object (32 bytes). Matching
 * counts that component in Min/MaxSuffixComponents, lets an Interest name
 * end with it, and applies Exclude to it when it is the component right
 * after the Interest's prefix. All ordering is CCNx canonical order
 * (shorter components first, then bytewise).
 *
 * Nothing here allocates; the digest is computed only when a decision
 * needs it and the caller did not supply it.
 */
#ifndef CCNX_MATCH_H
#define CCNX_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* 1 when the ContentObject (cbuf[0..clen) parsed as *pc) satisfies the
 * Interest parsed from ibuf as *pi, else 0: Name prefix (possibly ending
 * with the object's digest), Min/MaxSuffixComponents, PublisherPublicKeyDigest
 * and Exclude. AnswerOriginKind, Scope and freshness are not match criteria
 * (see ccnx_match_cs_allowed). `digest` is the object's implicit digest, or
 * NULL to have it computed when needed. Invalid arguments give 0. */
int ccnx_match(const uint8_t *ibuf, const struct ccnx_interest_parsed *pi, const uint8_t *cbuf,
               size_t clen, const struct ccnx_content_parsed *pc, const uint8_t digest[32]);

/* 1 when component comp[0..n) is in the exclusion set of the Exclude
 * element `exclude` (a span in ibuf, as ccnx_interest_parsed gives it):
 * equal to a listed component, or strictly between two neighbours C[k] and
 * C[k+1] and matched by the Any or Bloom that follows C[k]. An invalid
 * Bloom filter matches everything in its range. 0 when not excluded (or no
 * Exclude: span length 0). A malformed Exclude excludes everything. */
int ccnx_match_excluded(const uint8_t *ibuf, struct ccnx_span exclude, const uint8_t *comp,
                        size_t n);

/* 1 when a content store may answer the Interest with an object whose
 * staleness is `stale` (nonzero: stale): AnswerOriginKind must have the
 * content-store bit, and stale objects need the stale bit as well. */
int ccnx_match_cs_allowed(const struct ccnx_interest_parsed *pi, int stale);

/* ---- Choosing among stored objects ---- */

/* One stored object. The array given to ccnx_match_pick must be sorted by
 * ccnx_match_candidate_compare (canonical order of full names). */
struct ccnx_match_candidate {
    const uint8_t *buf; /* the encoded ContentObject */
    size_t len;
    const struct ccnx_content_parsed *pc; /* its parse */
    const uint8_t *digest;                /* its 32-byte implicit digest (required) */
    int stale;                            /* nonzero once past its freshness */
};

/* Canonical order of two full names, each an encoded Name element followed
 * by its 32-byte digest (NULL: the name alone, as ccnx_name_compare_ccnb):
 * <0, 0, >0. A proper prefix sorts first, so an object named /x/1 sorts
 * before the object named /x (digests are 32 bytes long). Malformed names
 * sort last. */
int ccnx_match_full_name_compare(const uint8_t *aname, size_t alen, const uint8_t adigest[32],
                                 const uint8_t *bname, size_t blen, const uint8_t bdigest[32]);
/* qsort-compatible comparison of two struct ccnx_match_candidate. */
int ccnx_match_candidate_compare(const void *a, const void *b);

/* How many stored objects one Interest may examine before the search gives
 * up (the same bound the reference forwarder uses against costly Interests). */
#define CCNX_MATCH_MAX_PROBES 50000

/* The index of the object a CCNx 0.x forwarder's content store returns for
 * the Interest, or -1 for none. Walks the objects under the Interest's
 * prefix in canonical order, skipping stale ones unless AnswerOriginKind
 * allows them, and:
 *  - ChildSelector 0 (leftmost, the default): the first matching object;
 *  - ChildSelector 1 (rightmost): among the children (components right
 *    after the prefix) that hold a match, the greatest one, and inside it
 *    the first matching object in canonical order. As in the reference,
 *    the walk ends at a matching object whose next component is its own
 *    digest (an object named exactly by the prefix).
 * No answer when AnswerOriginKind lacks the content-store bit. */
ssize_t ccnx_match_pick(const struct ccnx_match_candidate *sorted, size_t n, const uint8_t *ibuf,
                        const struct ccnx_interest_parsed *pi);
/* Same with an explicit probe budget (CCNX_MATCH_MAX_PROBES for the default);
 * when the budget runs out the best answer found so far is returned. */
ssize_t ccnx_match_pick_limited(const struct ccnx_match_candidate *sorted, size_t n,
                                const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                                size_t max_probes);

/* ---- The same walk over any ordered store ----
 *
 * A content store keeps its objects in a structure of its own (a skiplist,
 * a B-tree) rather than a sorted array. It offers the walk an ordered
 * cursor, and the walk then makes exactly the choices ccnx_match_pick makes
 * over an array (which is itself implemented on this cursor), including the
 * jumps over excluded children and ranges. */

/* A search position: an encoded Name element, optionally plus one more
 * component (a child of that name). */
struct ccnx_match_key {
    const uint8_t *name;
    size_t len;
    const uint8_t *child;
    size_t child_n;
    int has_child;
};

/* Where a stored object lies relative to a key: <0 before every full name
 * under the key, 0 under it (the key is a prefix of its full name), >0
 * after all of them. Monotone over canonical order, so a store can binary
 * search or descend on it. */
int ccnx_match_key_compare(const struct ccnx_match_candidate *c, const struct ccnx_match_key *k);

struct ccnx_match_cursor_ops {
    /* Positions the cursor on the first object whose ccnx_match_key_compare
     * against k is greater than `floor` (-1: the first object under or after
     * k; 0: the first object after k's subtree), or past the end. The walk
     * only ever seeks forward. */
    void (*seek)(void *store, const struct ccnx_match_key *k, int floor);
    /* Moves to the next object in canonical order (or past the end). */
    void (*next)(void *store);
    /* The object under the cursor as a candidate, and an identity for it
     * that the store understands; NULL past the end. *out (and the parse it
     * points to) need only stay valid until the cursor moves; the object's
     * buffer must stay valid for the whole walk. Only the parse's object,
     * name, name_count and publisher fields are read. */
    const void *(*current)(void *store, struct ccnx_match_candidate *out);
};

/* ccnx_match_pick_limited over a cursor: the identity (as `current` gave
 * it) of the chosen object, or NULL for none. */
const void *ccnx_match_pick_cursor(const struct ccnx_match_cursor_ops *ops, void *store,
                                   const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                                   size_t max_probes);

CCNX_API_END

#endif
