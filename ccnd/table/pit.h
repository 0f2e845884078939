/* The pending-Interest table.
 *
 * Aggregation: two Interests share an entry when their encodings agree up
 * to where InterestLifetime (or, when absent, Nonce, FaceID or the closing
 * byte) begins — the reference forwarder's rule: Name, every selector and
 * Scope must be the same bytes; lifetime, nonce and FaceID may differ.
 *
 * An entry keeps a copy of the first Interest, one record per downstream
 * face (expiry from that face's last InterestLifetime, its last nonce) and
 * one per upstream face it was sent to (send time, for RTT measurement).
 * Entries are found by key through a hash table, and by content through a
 * name tree of Interest names: a ContentObject is tested (ccnx_match)
 * against the entries at each prefix of its full name, one hash probe per
 * component.
 *
 * Bounded: a limit on entries; new entries past it are refused and counted.
 * Fair: the records each face holds are counted, and once the table is at
 * least half full a face may add an entry only while it holds fewer than
 * limit / (n + 1), n the number of faces holding records. A face that
 * holds none is never refused by this rule (only by the limit), so one
 * face flooding distinct names stops at its share (half the table when it
 * is alone) and the others' new Interests still get entries. O(1) per
 * Interest: the counts sit in a hash table by face id.
 * Expiry: pit_expire drops downstream records past their expiry, and
 * entries left with none. Entries sit in a deadline heap by their earliest
 * downstream expiry, so it visits only entries with something expired.
 * A closing face: each face's downstream records are threaded into a list
 * of their own (each record knows its entry), so pit_remove_face visits
 * those alone; dropping a record touches only its two neighbours.
 */
#ifndef CCND_TABLE_PIT_H
#define CCND_TABLE_PIT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/content.h>
#include <ccnx/interest.h>

#define PIT_NONCE_MAX     16 /* nonce bytes kept per record (longer ones are cut) */
#define PIT_DEFAULT_LIMIT 100000

struct pit;
struct pit_entry;

struct pit_downstream {
    unsigned faceid;
    /* The records before and after this one in the list of the face's
     * records, and the entry this one is in (the table's: a closing face
     * drops its records without a walk of the table). */
    struct pit_downstream *fprev, *fnext;
    struct pit_entry *entry;
    uint64_t expires;
    uint8_t nonce_len;
    uint8_t nonce[PIT_NONCE_MAX];
};

struct pit_upstream {
    unsigned faceid;
    uint64_t sent;     /* time of the last send, microseconds */
    uint32_t attempts; /* sends to this face */
};

struct pit_stats {
    uint64_t entries;
    uint64_t created;
    uint64_t aggregated;    /* Interests folded into an existing entry */
    uint64_t pending;       /* downstream records: Interests pending, per entry and face */
    uint64_t refused;       /* new entries refused (the limit or a face's share) */
    uint64_t refused_share; /* of those, refused because the face held its share */
    uint64_t satisfied;     /* entries consumed by content */
    uint64_t expired;       /* entries dropped by pit_expire */
    uint64_t face_visits;   /* entries pit_remove_face looked at: only the face's own */
};

/* Allocates an empty table holding at most `limit` entries. */
struct pit *pit_create(size_t limit);
void pit_destroy(struct pit *pit);
void pit_set_limit(struct pit *pit, size_t limit);

/* Length of the aggregation key of the Interest msg[0..len) parsed as *pi
 * (measured from the start of msg). 0 or CCNX_E*. */
int pit_key_length(const uint8_t *msg, size_t len, const struct ccnx_interest_parsed *pi,
                   size_t *keylen);

/* An Interest's aggregation key, worked out once for a find and an insert. */
struct pit_key {
    const uint8_t *p; /* inside the Interest's buffer */
    size_t len;
    uint64_t hash;
};

/* Fills k for the Interest msg[0..len) parsed as *pi. 0 or CCNX_E*. */
int pit_key_init(struct pit_key *k, const uint8_t *msg, size_t len,
                 const struct ccnx_interest_parsed *pi);

enum pit_insert_result {
    PIT_NEW = 0,        /* a new entry */
    PIT_AGGREGATED = 1, /* joined an existing entry */
};

/* Records the Interest msg[0..len) (parsed as *pi) arriving on faceid at
 * `now`: finds or creates its entry, then sets faceid's downstream record
 * (nonce, expiry = now + InterestLifetime). *out gets the entry. Returns an
 * enum pit_insert_result, CCNX_E_TOOBIG when a new entry would pass the
 * limit or faceid's share (counted as refused), or another CCNX_E*. */
int pit_insert(struct pit *pit, const uint8_t *msg, size_t len,
               const struct ccnx_interest_parsed *pi, unsigned faceid, uint64_t now,
               struct pit_entry **out);
/* pit_insert with the key already worked out (k from pit_key_init on msg). */
int pit_insert_key(struct pit *pit, const struct pit_key *k, const uint8_t *msg,
                   const struct ccnx_interest_parsed *pi, unsigned faceid, uint64_t now,
                   struct pit_entry **out);
/* The entry the Interest would join, or NULL. */
struct pit_entry *pit_find(const struct pit *pit, const uint8_t *msg, size_t len,
                           const struct ccnx_interest_parsed *pi);
struct pit_entry *pit_find_key(const struct pit *pit, const struct pit_key *k);

/* 1 when some downstream record of the entry holds this nonce. */
int pit_entry_has_nonce(const struct pit_entry *e, const uint8_t *nonce, size_t n);
/* Records a send to an upstream face at `now`. 0 or CCNX_E_NOMEM. */
int pit_entry_sent(struct pit *pit, struct pit_entry *e, unsigned faceid, uint64_t now);

/* Fills out[0..max) with the entries the ContentObject satisfies (in no
 * particular order) and returns how many there are (possibly > max: call
 * again after consuming). digest may be NULL. Does not remove them. */
size_t pit_match(const struct pit *pit, const uint8_t *cbuf, size_t clen,
                 const struct ccnx_content_parsed *pc, const uint8_t digest[32],
                 struct pit_entry **out, size_t max);
/* Removes an entry satisfied by content (counted) or for any other reason. */
void pit_consume(struct pit *pit, struct pit_entry *e);
void pit_remove(struct pit *pit, struct pit_entry *e);

/* Drops expired downstream records and the entries left without any;
 * returns the number of entries dropped. */
size_t pit_expire(struct pit *pit, uint64_t now);
/* The earliest downstream expiry in the table, UINT64_MAX when empty: when
 * pit_expire next has something to do. */
uint64_t pit_next_expiry(const struct pit *pit);
/* A function pit_expire calls with each entry it is about to drop (so an
 * owner keeping per-entry state can drop it in the same pass); NULL for
 * none. The hook must not change the table. */
void pit_set_expire_hook(struct pit *pit, void (*fn)(void *arg, struct pit_entry *e), void *arg);
/* A face closed: its downstream records go, found through the face's own
 * list (no walk of the table), and so do the entries left without any;
 * `dropping` (may be NULL) is called with each entry about to go. Its
 * upstream records are left: a face id is never reused, and they go with
 * their entries. Returns the entries dropped. */
size_t pit_remove_face(struct pit *pit, unsigned faceid,
                       void (*dropping)(void *arg, struct pit_entry *e), void *arg);

/* One pointer the table keeps for the entry's owner (the forwarder's
 * record of it), NULL until set. */
void *pit_entry_owner(const struct pit_entry *e);
void pit_entry_set_owner(struct pit_entry *e, void *owner);

/* The stored Interest (the first that created the entry) and its parse. */
const uint8_t *pit_entry_interest(const struct pit_entry *e, size_t *len,
                                  const struct ccnx_interest_parsed **pi);
const struct pit_downstream *pit_entry_downstreams(const struct pit_entry *e, size_t *n);
const struct pit_upstream *pit_entry_upstreams(const struct pit_entry *e, size_t *n);
/* The latest downstream expiry. */
uint64_t pit_entry_expires(const struct pit_entry *e);

void pit_get_stats(const struct pit *pit, struct pit_stats *out);
size_t pit_count(const struct pit *pit);
/* Downstream records of faceid: the Interests from it still pending. */
size_t pit_face_pending(const struct pit *pit, unsigned faceid);

#endif
