/* The repository's store: ContentObjects in an LMDB environment, keyed by
 * their full names as flat keys (<ccnx/namekey.h>: the Name, then the
 * implicit digest as one more 32-byte component), so LMDB's default key
 * order (memcmp, then the shorter key first) is CCNx canonical order, and
 * an Interest is answered by the same pick as the forwarder's content store
 * (ccnx_match_pick_cursor, walking an LMDB cursor). Values are the encoded
 * objects, exactly as received.
 *
 * Durability: objects added between ccnr_store_begin and ccnr_store_commit
 * become durable together when the commit returns 0 (LMDB's copy-on-write
 * B-tree: a crash, kill -9 included, leaves the last committed state, and
 * opening needs no repair). Nothing is served before it is committed.
 *
 * Capacity: the LMDB map size (max_bytes). A batch that does not fit fails
 * with CCNR_STORE_E_FULL and leaves everything committed before intact.
 *
 * Keys: LMDB keys are at most 511 bytes; an object whose flat full name is
 * longer is refused (CCNR_STORE_E_NAME), as is a malformed object.
 *
 * Files: the environment lives in <dir>/store/ (data.mdb, lock.mdb), so the
 * repository's directory also holds its config and import/ folder.
 *
 * One thread. LMDB lets several processes share an environment; ccnr keeps
 * a second repository out of the directory with a lock of its own. */
#ifndef CCNR_STORE_H
#define CCNR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>

#define CCNR_STORE_KEY_MAX 511 /* LMDB's default key size limit */

enum ccnr_store_add_result {
    CCNR_STORE_ADDED = 0,
    CCNR_STORE_DUPLICATE = 1, /* the same object (same full name) is already held */
};

/* Errors beyond the core's CCNX_E_* codes (all negative). */
#define CCNR_STORE_E_FULL (-100) /* the map is full: capacity reached */
#define CCNR_STORE_E_NAME (-101) /* full name too long for a key */
#define CCNR_STORE_E_DISK (-102) /* the file system is full (ENOSPC, EDQUOT) */

struct ccnr_store;

struct ccnr_store_stats {
    uint64_t objects;    /* held (committed) */
    uint64_t bytes;      /* object bytes held */
    uint64_t map_bytes;  /* capacity */
    uint64_t used_bytes; /* pages in use, as LMDB counts them */
    uint64_t added;      /* since open */
    uint64_t duplicates; /* since open */
    uint64_t refused;    /* since open: malformed, name too long, full */
    uint64_t lookups, hits;
};

/* Opens (creating if need be) the store in directory `dir`, which must
 * exist; max_bytes is the capacity (0: CCNR_STORE_DEFAULT_BYTES). NULL with
 * a sentence in err (naming the directory and the cause) on failure. */
#define CCNR_STORE_DEFAULT_BYTES ((uint64_t)16 << 30)
struct ccnr_store *ccnr_store_open(const char *dir, uint64_t max_bytes, char *err, size_t errlen);
void ccnr_store_close(struct ccnr_store *s);

/* Write batches. begin when none is open; 0 or a negative error. */
int ccnr_store_begin(struct ccnr_store *s);
/* Adds obj[0..len) to the open batch (the caller checked its signature).
 * A ccnr_store_add_result, or a negative error: CCNX_E_INVAL (malformed),
 * CCNR_STORE_E_NAME, CCNR_STORE_E_FULL (also for a batch too large for
 * one LMDB transaction; either way the whole batch is lost: abort it),
 * CCNX_E_IO. */
int ccnr_store_add(struct ccnr_store *s, const uint8_t *obj, size_t len);
/* ccnr_store_add for an object the caller has parsed (pc) and whose
 * implicit digest it has computed: neither is done again. */
int ccnr_store_add_parsed(struct ccnr_store *s, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc, const uint8_t digest[32]);
/* Makes the batch durable: 0, or CCNR_STORE_E_FULL / CCNR_STORE_E_DISK /
 * CCNX_E_IO (the batch is lost, earlier ones stay). */
int ccnr_store_commit(struct ccnr_store *s);
void ccnr_store_abort(struct ccnr_store *s);

/* The object the store answers the Interest with (the content store's
 * pick; staleness does not apply: a repository keeps what it was given,
 * and, as in the reference repository, AnswerOriginKind is not consulted),
 * copied into out (replacing its contents): 1, 0 for none, or a negative
 * error. Sees committed objects only, also while a batch is open. */
int ccnr_store_lookup(struct ccnr_store *s, const uint8_t *ibuf,
                      const struct ccnx_interest_parsed *pi, struct ccnx_buf *out);
/* The same pick handed to fn in place, inside the store's map (no copy;
 * the bytes are valid only during the call). fn returns 0 or a negative
 * error. 1 when fn took it, 0 for none, or a negative error (fn's, when it
 * returned one). */
typedef int (*ccnr_store_answer_fn)(void *arg, const uint8_t *obj, size_t len);
int ccnr_store_answer(struct ccnr_store *s, const uint8_t *ibuf,
                      const struct ccnx_interest_parsed *pi, ccnr_store_answer_fn fn, void *arg);
/* 1 when the object with this full name (encoded Name element + digest)
 * is held (committed), 0 when not, or a negative error. */
int ccnr_store_has(struct ccnr_store *s, const uint8_t *name, size_t name_len,
                   const uint8_t digest[32]);
/* Calls fn once for each distinct component that follows the prefix (an
 * encoded Name element) in some held object's full name, in canonical
 * order, until fn returns nonzero; for name enumeration. An object named
 * exactly by the prefix contributes its digest. fn may call the store's
 * read functions. 0, or a negative error. */
int ccnr_store_children(struct ccnr_store *s, const uint8_t *prefix, size_t prefix_len,
                        int (*fn)(void *arg, const uint8_t *comp, size_t n), void *arg);

/* Calls fn with every held object whose name has the prefix (an encoded
 * Name element), in canonical order, until fn returns nonzero. fn sees the
 * object inside the store's map (valid during the call) and must not
 * write to the store. 0, or a negative error. */
int ccnr_store_walk(struct ccnr_store *s, const uint8_t *prefix, size_t prefix_len,
                    int (*fn)(void *arg, const uint8_t *obj, size_t len), void *arg);

void ccnr_store_get_stats(struct ccnr_store *s, struct ccnr_store_stats *out);

/* A store error for a log line or a reply, naming what to change:
 * CCNR_MAX_BYTES for a full store, the disk for a full file system. */
const char *ccnr_store_strerror(int rc);

#endif
