/* The forwarding pipelines of ccnd, on top of the tables (content store,
 * PIT, FIB, nonces) and the strategies of strategy.h. No sockets: whole
 * messages come in through fw_on_message and go out through the send
 * callback of struct fw_ops; time is passed in (microseconds of a
 * monotonic clock) and fw_tick runs what is due.
 *
 * Interest: parse -> scope check against the arrival face (Scope 0 and 1
 * only from local faces) -> FIB lookup (a LOCAL namespace, and names under
 * %C1.M.S.localhost, refuse non-local faces) -> nonce (one is added when
 * absent, as the reference adds one to every Interest it forwards; a nonce
 * seen from another face is a duplicate and dropped) -> publisher counters
 * -> content store, unless AnswerOriginKind forbids it -> PIT insert or
 * aggregate -> the internal client's prefixes -> the strategy of the
 * prefix picks upstreams among the FIB's faces, minus the arrival face and
 * faces the scope forbids. Without a route the Interest waits in the PIT
 * until it expires.
 *
 * ContentObject: parse (the implicit digest is computed only when a PIT
 * entry or the store needs it) -> PIT match -> none: unsolicited, kept in
 * the store only when it came from a local face (the reference's policy),
 * otherwise dropped -> else stored, sent once to every downstream face of
 * the satisfied entries (never back to the arrival face), entries consumed
 * and the response time reported to their strategies.
 *
 * Faceid 0 is the internal face (ccnd's own client): always local; what
 * the forwarder sends to it goes to the handler of fw_set_internal.
 */
#ifndef CCND_FW_FW_H
#define CCND_FW_FW_H

#include <stddef.h>
#include <stdint.h>

struct fw;
struct fib;
struct cs;
struct pit;

#define FW_INTERNAL_FACE 0u

struct fw_face_props {
    int local;    /* unix socket or loopback: Scope 1 may go there */
    int mcast;    /* multicast */
    int datagram; /* UDP and the like */
};

struct fw_ops {
    /* Sends one whole message to a face; 0, or <0 when it could not be queued. */
    int (*send)(void *arg, unsigned faceid, const uint8_t *msg, size_t len);
    /* Properties of a face; <0 if the face does not exist. */
    int (*face_props)(void *arg, unsigned faceid, struct fw_face_props *out);
};

struct fw_config {
    size_t cs_capacity;       /* CCND_CAP; default CS_DEFAULT_CAPACITY */
    uint64_t cs_max_bytes;    /* CCND_CAP_BYTES; 0: no bound (the default) */
    size_t pit_limit;         /* default PIT_DEFAULT_LIMIT */
    size_t nonce_capacity;    /* remembered nonces; default 100000 */
    int64_t cs_default_stale; /* CCND_DEFAULT_TIME_TO_STALE, seconds; <0: none */
    uint32_t cs_max_stale;    /* CCND_MAX_TIME_TO_STALE, seconds */
    uint64_t rte_limit;       /* CCND_MAX_RTE_MICROSEC: 160000 */
    size_t nonce_len;         /* bytes of a nonce we add: 12, as the reference forwarder (1..16) */
    uint64_t seed;            /* for nonces and strategies; 0: from the clock and pid */
};

struct fw_stats {
    uint64_t interests_in;
    uint64_t interests_out;           /* copies sent upstream */
    uint64_t interests_malformed;     /* dropped: did not parse */
    uint64_t interests_out_of_scope;  /* dropped: Scope 0/1 from a non-local face */
    uint64_t interests_nonlocal;      /* dropped: LOCAL namespace from a non-local face */
    uint64_t interests_kept_local;    /* %C1.M.S.localhost: routes to non-local faces not taken */
    uint64_t interests_duplicate;     /* dropped: nonce already seen (loop or duplicate) */
    uint64_t interests_pit_full;      /* dropped: PIT limit */
    uint64_t interests_aggregated;    /* joined a pending entry */
    uint64_t interests_retransmitted; /* a downstream's retransmission, sent upstream again */
    uint64_t interests_suppressed;    /* ... or held back: the last send was too recent */
    uint64_t interests_cs_answered;   /* answered from the content store */
    uint64_t interests_internal;      /* handed to the internal client */
    uint64_t interests_nonce_added;   /* arrived without a nonce */
    uint64_t interests_expired;       /* entries that expired unsatisfied */
    uint64_t content_in;
    uint64_t content_out;              /* copies sent downstream (CS answers included) */
    uint64_t content_malformed;        /* dropped: did not parse */
    uint64_t content_unsolicited;      /* dropped: no pending Interest, non-local face */
    uint64_t content_unsolicited_kept; /* no pending Interest, local face: stored */
    uint64_t other_dropped;            /* neither Interest nor ContentObject */
    uint64_t send_failures;            /* the face layer refused a message */
};

/* Fills c with the reference's defaults. */
void fw_config_default(struct fw_config *c);
/* Allocates a forwarder with empty tables; NULL when out of memory. ops and
 * arg are kept (ops must stay valid). */
struct fw *fw_create(const struct fw_config *c, const struct fw_ops *ops, void *arg);
void fw_destroy(struct fw *fw);
/* The strategies' per-prefix memories alive: one per registered prefix
 * Interests were forwarded under (they go with the prefix), and one for
 * Interests with no route. */
size_t fw_strategy_memories(const struct fw *fw);

/* One whole message that arrived on faceid (Interest or ContentObject;
 * anything else is counted and dropped). May call ops->send. */
void fw_on_message(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len, uint64_t now);
/* Forgets a face: its FIB entries, PIT records and scheduled sends. */
void fw_on_face_destroyed(struct fw *fw, unsigned faceid);
/* Runs what is due (expiry of PIT, FIB, nonces and stale content, strategy
 * sends and timers); returns the next deadline, UINT64_MAX if none. */
uint64_t fw_tick(struct fw *fw, uint64_t now);
/* The next time fw_tick has work, without doing any (O(1)): for the caller's
 * timer after each message. */
uint64_t fw_next_deadline(const struct fw *fw);

/* The tables, for management and the status page. */
struct fib *fw_fib(struct fw *fw);
struct cs *fw_cs(struct fw *fw);
struct pit *fw_pit(struct fw *fw);
struct nonce_table *fw_nonces(struct fw *fw);

void fw_get_stats(const struct fw *fw, struct fw_stats *out);

/* The internal client. Interests under its prefixes (by default
 * ccnx:/ccnx and ccnx:/%C1.M.S.localhost) are handed to the handler after
 * the content store and the PIT, before the FIB: it returns 1 when it took
 * the Interest (it answers later through fw_on_message with faceid 0), 0
 * to let the FIB route it. Interests the FIB sends to face 0 reach it as
 * well. */
void fw_set_internal(struct fw *fw,
                     int (*handler)(void *arg, unsigned faceid, const uint8_t *interest,
                                    size_t len),
                     void *arg);
/* A ContentObject of the internal client that answers the Interests
 * pending for it now and is not kept in the content store: a control
 * reply answers the request that made it, never a replay of it. */
void fw_on_reply(struct fw *fw, const uint8_t *msg, size_t len, uint64_t now);
/* Adds a prefix (encoded Name element) for the internal client. 0 or CCNX_E*. */
int fw_internal_add_prefix(struct fw *fw, const uint8_t *name, size_t len);

/* ---- Publisher reports ----
 *
 * Counters kept for the prefixes this host's applications registered, so
 * that a publisher sees its audience, which caches otherwise hide: every
 * Interest whose longest registered prefix is one of them is counted as
 * seen, then as answered from the content store or as forwarded to the
 * producer (a copy sent to a local face). At most FW_PUB_MAX prefixes are
 * kept; their counters outlive the registration (a producer that
 * restarts keeps its history) until ccnd stops. */
#define FW_PUB_MAX 256

struct fw_pub {
    uint8_t *name; /* encoded Name element */
    size_t len;
    uint32_t comps;
    uint64_t seen;        /* Interests under the prefix */
    uint64_t from_store;  /* ... answered from the content store */
    uint64_t to_producer; /* copies forwarded to a local face */
};

/* Starts counting for the prefix (no-op when counted already). 0,
 * CCNX_E_NOMEM, or CCNX_E_TOOBIG when FW_PUB_MAX prefixes are counted. */
int fw_pub_add(struct fw *fw, const uint8_t *name, size_t len);
/* The counted prefixes, in the order they were added; *n gets how many. */
const struct fw_pub *fw_pubs(const struct fw *fw, size_t *n);

#endif
