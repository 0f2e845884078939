/* The consumer side on top of <ccnx/client.h>: verifying what arrives
 * against a trust policy, fetching one object, finding the newest version
 * under a prefix, and a pipelined, congestion-controlled fetch of segmented
 * content delivered in order.
 *
 * Everything here is driven by the client's loop: the asynchronous forms
 * only arm Interests and timers and call back from ccnx_client_run or
 * ccnx_client_process, so a GLib, GStreamer or ncurses program that polls
 * the client's fd can use them; the synchronous helpers run the loop
 * themselves. Callbacks must not destroy the client.
 */
#ifndef CCNX_FETCH_H
#define CCNX_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/name.h>
#include <ccnx/sign.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* ---- Verification ----
 *
 * By default an object must verify with the key its KeyLocator names: a Key
 * or Certificate carried in the locator (its digest must equal the object's
 * PublisherPublicKeyDigest), or a KeyName, in which case the key object is
 * fetched by name once and kept by publisher digest (its content is the DER
 * public key, whose digest must equal the object's publisher digest).
 * Pinning restricts the publishers accepted; verification can be turned off.
 * Merkle-batched objects (Witness) cost one RSA operation per batch: a
 * verified (root, signature, key) triple is remembered. */
struct ccnx_verifier;

/* Allocates a verifier. c (may be NULL: then KeyName keys cannot be
 * fetched) is used to fetch keys by name; the verifier does not own it. */
int ccnx_verifier_create(struct ccnx_client *c, struct ccnx_verifier **out);
/* Cancels key fetches in progress (their objects are dropped silently). */
void ccnx_verifier_destroy(struct ccnx_verifier *v);
/* on = 0: every object is accepted unchecked (an explicit choice). */
void ccnx_verifier_set_enabled(struct ccnx_verifier *v, int on);
int ccnx_verifier_enabled(const struct ccnx_verifier *v);
/* Accepts only objects whose publisher digest is one of the pinned ones
 * (once any is pinned). digest is CCNX_DIGEST_LEN bytes. */
int ccnx_verifier_pin(struct ccnx_verifier *v, const uint8_t *digest);
/* Pins a digest given as 64 hex digits (':' separators allowed);
 * CCNX_E_VALUE otherwise. */
int ccnx_verifier_pin_hex(struct ccnx_verifier *v, const char *text);
/* Trusts a key already at hand (copied) as if fetched by name. */
int ccnx_verifier_add_key(struct ccnx_verifier *v, const struct ccnx_key *k);
/* Time allowed to fetch a key by name (default 4000 ms). */
void ccnx_verifier_set_key_timeout(struct ccnx_verifier *v, int ms);

/* Verification result for obj (the caller's bytes, or the verifier's copy
 * when the result comes later): 0 accepted, else a CCNX_E_* code with a
 * sentence such as "signature of ccnx:/a/b does not verify with key
 * 1a2b3c4d..." or "key ccnx:/k not found": CCNX_E_BADSIG, CCNX_E_NOKEY
 * (no usable key: none named, a wrong digest, a pin refused) or
 * CCNX_E_KEYNOTFOUND (the named key could not be fetched). */
typedef void (*ccnx_verify_fn)(void *arg, int result, const char *error, const uint8_t *obj,
                               size_t len, const struct ccnx_content_parsed *pc);

/* Checks obj[0..len) (parsed as *pc). When the key is at hand the result is
 * immediate: fn (may be NULL then) is called before this returns and the
 * return value is the result. When a key must be fetched the object is
 * copied, 1 is returned and fn is called later from the client loop. */
int ccnx_verifier_check(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc, ccnx_verify_fn fn, void *arg);
/* 1 when code says an object came and verification refused it (the three
 * codes above), 0 for anything else: a timeout, a lost connection. */
int ccnx_verify_refused(int code);
/* Forgets the checks waiting for a key whose arg is `arg` (no callback). */
void ccnx_verifier_cancel(struct ccnx_verifier *v, void *arg);
/* The same, running the client loop while a key is fetched; the reason of
 * a refusal goes to err (may be NULL). Not from inside a callback of the
 * client (a content or timeout handler): the loop does not run nested
 * there, and a key to fetch would never arrive; use ccnx_verifier_check. */
int ccnx_verifier_check_sync(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                             const struct ccnx_content_parsed *pc, struct ccnx_buf *err);

struct ccnx_verifier_stats {
    uint64_t verified;     /* objects accepted after checking */
    uint64_t rsa_ops;      /* signature operations actually performed */
    uint64_t keys_fetched; /* keys fetched by name */
};
const struct ccnx_verifier_stats *ccnx_verifier_stats(const struct ccnx_verifier *v);

/* ---- One object ---- */

/* result 0: obj verified (v NULL or disabled: unchecked); else a CCNX_E_*
 * code (CCNX_E_NOTFOUND for a timeout) with a sentence in error. */
typedef void (*ccnx_fetch_object_fn)(void *arg, int result, const uint8_t *obj, size_t len,
                                     const struct ccnx_content_parsed *pc, const char *error);

/* Expresses the Interest and calls fn once, from the loop. timeout_ms 0
 * means the Interest's lifetime. While no answer has come the Interest is
 * sent again after CCNX_REEXPRESS_MS (100 ms), then after waits that
 * double each time (200, 400, 800 ms ...) until timeout_ms, so an object
 * whose producer starts a moment later, or whose Interest was lost, comes
 * soon instead of after a whole lifetime. Key fetches follow the same
 * schedule. */
int ccnx_fetch_object_start(struct ccnx_client *c, struct ccnx_verifier *v, const uint8_t *interest,
                            size_t len, int timeout_ms, ccnx_fetch_object_fn fn, void *arg);
/* Runs the loop until the object arrives and verifies: 0 with the object in
 * *obj; else a CCNX_E_* code with the reason in err (may be NULL). */
int ccnx_fetch_object(struct ccnx_client *c, struct ccnx_verifier *v, const uint8_t *interest,
                      size_t len, int timeout_ms, struct ccnx_buf *obj, struct ccnx_buf *err);

/* ---- Version discovery (the reference's ccn_resolve_version) ----
 *
 * Interests with ChildSelector rightmost, AnswerOriginKind 1 and an Exclude
 * that admits only versions above the best one seen so far, repeated until a
 * round gets no answer within four times the longest round trip seen (at
 * least 50 ms).
 * While nothing at all has answered, the first round is sent again after
 * 100 ms, then after waits that double each time (200, 400, 800 ms ...),
 * until timeout_ms, each attempt a new Interest whose lifetime is its wait. */
#define CCNX_RESOLVE_NESTOK     1 /* look below a name that already ends in a version */
#define CCNX_RESOLVE_SCOPE0     2 /* Scope 0, 1 or 2 on the Interests */
#define CCNX_RESOLVE_SCOPE1     4
#define CCNX_RESOLVE_SCOPE2     8
#define CCNX_RESOLVE_TIMEOUT_MS 8000 /* the reference's total for ccncat */

/* result: 1 with *name extended by the newest version found; 0 when the
 * name was kept (it already ends in a version, or only unversioned
 * segments exist under it); negative when nothing was found. */
typedef void (*ccnx_resolve_fn)(void *arg, int result, const struct ccnx_name *name,
                                const char *error);
struct ccnx_resolve;
/* Starts discovery under `prefix` (copied). *out (may be NULL) can be
 * cancelled with ccnx_resolve_cancel until fn has been called. */
int ccnx_resolve_start(struct ccnx_client *c, const struct ccnx_name *prefix, int flags,
                       int timeout_ms, ccnx_resolve_fn fn, void *arg, struct ccnx_resolve **out);
void ccnx_resolve_cancel(struct ccnx_resolve *r);
/* Synchronous form: updates *name in place; result as above, the reason of
 * a failure in err (may be NULL). */
int ccnx_resolve_version(struct ccnx_client *c, struct ccnx_name *name, int flags, int timeout_ms,
                         struct ccnx_buf *err);

/* One version-discovery Interest (exposed for tests): lowest is the
 * version component below which everything is excluded, allow_unversioned
 * lets %00 through as the first round does, lifetime in 1/4096 s (0 omits). */
int ccnx_resolve_interest(struct ccnx_buf *out, const struct ccnx_name *prefix,
                          const uint8_t *lowest, size_t lowest_len, int allow_unversioned,
                          int flags, uint64_t lifetime);

/* ---- Segmented fetch ---- */

struct ccnx_fetch_stats {
    uint64_t bytes;     /* content bytes delivered */
    uint64_t segments;  /* segments delivered */
    uint64_t interests; /* Interests sent, retransmissions included */
    uint64_t retransmissions;
    uint64_t timeouts;
    double srtt_ms, rto_ms; /* current estimates */
    double cwnd;
    int64_t final_segment; /* -1 until FinalBlockID is known */
    double elapsed_s;      /* since the first segment Interest */
    double resolve_s;      /* spent finding the newest version (0 without discovery) */
};

/* In-order data: segment `segment`'s content. May call ccnx_fetch_pause. */
typedef void (*ccnx_fetch_data_fn)(void *arg, uint64_t segment, const uint8_t *p, size_t n);
/* In-order objects: segment `segment`'s whole encoded ContentObject, as
 * received and after verification, for a program that keeps the signed
 * objects (a repository). Called just before on_data for the same segment.
 * May call ccnx_fetch_pause. */
typedef void (*ccnx_fetch_seg_object_fn)(void *arg, uint64_t segment, const uint8_t *obj,
                                         size_t len);
/* The end: 0 after the final segment was delivered, else a CCNX_E_* code
 * with a sentence (timeout, verification refused, GONE, NACK, LINK...). */
typedef void (*ccnx_fetch_done_fn)(void *arg, int result, const char *error);

struct ccnx_fetch_params {
    const struct ccnx_name *name;   /* copied */
    int resolve;                    /* 1 (default): find the newest version first */
    int resolve_flags;              /* CCNX_RESOLVE_* */
    int allow_stale;                /* AnswerOriginKind with the stale bit */
    int scope;                      /* -1: none */
    unsigned max_window;            /* Interests in flight at most; 0: default 256 */
    unsigned initial_window;        /* 0: 4 (then slow start) */
    int timeout_ms;                 /* no progress for this long fails; 0: 8000.
                                     * Timers stay under a fifth of it. */
    int min_rto_ms;                 /* 0: 100 */
    uint64_t start_segment;         /* first segment wanted */
    int chunk_names;                /* segments named in decimal text, as the
                                     * reference's ccnsendchunks names them
                                     * (ccnx_naming_chunk_decode), not %00<n> */
    struct ccnx_verifier *verifier; /* NULL: nothing is verified; outlives the fetch */
    ccnx_fetch_data_fn on_data;
    ccnx_fetch_seg_object_fn on_object; /* may be NULL */
    ccnx_fetch_done_fn on_done;
    void *arg;
};
void ccnx_fetch_params_init(struct ccnx_fetch_params *p);

struct ccnx_fetch;
/* Starts a fetch driven by c's loop. Allocates *out; destroy it after
 * on_done has returned (or before, which cancels it without callback),
 * never from inside on_data or on_done.
 *
 * On the wire: segment Interests are the reference's form plus an
 * InterestLifetime of twice the retransmission timer, so an answer that
 * comes late still finds the entries along the path; a retransmission is
 * the same Interest with a new nonce, which our ccnd sends upstream again
 * once the answer is overdue. The reference's ccnd instead holds a
 * re-expressed Interest while its entry lives (docs/interop.md). */
int ccnx_fetch_start(struct ccnx_client *c, const struct ccnx_fetch_params *p,
                     struct ccnx_fetch **out);
void ccnx_fetch_destroy(struct ccnx_fetch *f);
/* Stops sending new Interests (those in flight still deliver, and the
 * no-progress timeout does not run); resume fills the window again. */
void ccnx_fetch_pause(struct ccnx_fetch *f);
void ccnx_fetch_resume(struct ccnx_fetch *f);
/* 1 once on_done has been called. */
int ccnx_fetch_done(const struct ccnx_fetch *f);
const struct ccnx_fetch_stats *ccnx_fetch_stats(const struct ccnx_fetch *f);
/* The versioned name being fetched (the given name until resolved). */
const struct ccnx_name *ccnx_fetch_name(const struct ccnx_fetch *f);
/* Runs c's loop until the fetch ends: its result; the reason in err. */
int ccnx_fetch_run(struct ccnx_client *c, const struct ccnx_fetch_params *p,
                   struct ccnx_fetch_stats *stats, struct ccnx_buf *err);

/* One segment Interest in the reference's form (Name, MaxSuffixComponents
 * 1, AnswerOriginKind when stale is allowed, Scope), plus InterestLifetime
 * when lifetime > 0 (1/4096 s). */
int ccnx_fetch_segment_interest(struct ccnx_buf *out, const struct ccnx_name *versioned,
                                uint64_t segment, int allow_stale, int scope, uint64_t lifetime);

/* ---- Building blocks (pure; exposed for tests and custom fetchers) ---- */

/* Round-trip estimation (Jacobson/Karels as in RFC 6298): RTO = SRTT +
 * 4 RTTVAR, clamped to [min, max]; each timeout doubles it (back-off) until
 * the next sample. Samples must come from Interests sent once (Karn). */
struct ccnx_rtt {
    double srtt, rttvar, rto; /* ms */
    double min_rto, max_rto;
    int have_sample;
    unsigned backoffs;
};
void ccnx_rtt_init(struct ccnx_rtt *r, double initial_rto, double min_rto, double max_rto);
void ccnx_rtt_sample(struct ccnx_rtt *r, double ms);
void ccnx_rtt_backoff(struct ccnx_rtt *r);

/* The congestion window: slow start (+1 per answer) below ssthresh,
 * additive increase (+1/cwnd per answer) above, halving on loss at most
 * once per window: a loss of an Interest sent before the last cut (its
 * transmission number below `recover`) does not cut again. Slow start also
 * ends, from 16 Interests on, when a round's round trip rises over the
 * previous round's (ccnx_cwnd_on_rtt; HyStart++, RFC 9406, without its
 * conservative phase): the window has outrun what the path or the producer
 * delivers (a producer that makes each segment as its Interest arrives
 * then answers at the same rate with a round trip that grows with the
 * window), and doubling on would only fill a queue. */
struct ccnx_cwnd {
    double cwnd, ssthresh, min, max;
    uint64_t recover;
    /* slow start's rounds: a round ends with the answer to the first
     * Interest sent after the previous one ended */
    uint64_t round_end;
    double round_min, last_round_min; /* least of a round's first samples */
    unsigned round_samples;
};
void ccnx_cwnd_init(struct ccnx_cwnd *w, double initial, double max);
void ccnx_cwnd_on_data(struct ccnx_cwnd *w);
/* A round-trip sample (ms) of transmission tx, next_tx being the number
 * the next Interest will get; call before ccnx_cwnd_on_data. */
void ccnx_cwnd_on_rtt(struct ccnx_cwnd *w, uint64_t tx, uint64_t next_tx, double ms);
/* tx: transmission number of the lost Interest; next_tx: the number the
 * next Interest will get. Returns 1 when the window was cut. */
int ccnx_cwnd_on_loss(struct ccnx_cwnd *w, uint64_t tx, uint64_t next_tx);
/* Interests allowed in flight: floor(cwnd), at least 1. */
unsigned ccnx_cwnd_allowed(const struct ccnx_cwnd *w);

/* The reordering buffer: a ring of `cap` slots for segments base ..
 * base+cap-1; slot buffers are kept and reused, so steady state does not
 * allocate. */
struct ccnx_reorder_slot {
    uint8_t *data;
    size_t len, cap;
    int full;
};
struct ccnx_reorder {
    struct ccnx_reorder_slot *slots;
    size_t cap; /* a power of two */
    uint64_t base;
    size_t count; /* slots held */
};
/* cap is rounded up to a power of two. */
int ccnx_reorder_init(struct ccnx_reorder *r, size_t cap, uint64_t base);
void ccnx_reorder_free(struct ccnx_reorder *r);
/* 1 when seg has a slot now (base <= seg < base + cap). */
int ccnx_reorder_fits(const struct ccnx_reorder *r, uint64_t seg);
/* Copies a segment in: 1 stored, 0 already held or already delivered,
 * CCNX_E_INVAL beyond the ring, CCNX_E_NOMEM. */
int ccnx_reorder_put(struct ccnx_reorder *r, uint64_t seg, const uint8_t *p, size_t n);
/* 1 with the next in-order segment (valid until the next call) and the
 * base advanced past it; 0 when it has not arrived. */
int ccnx_reorder_pop(struct ccnx_reorder *r, const uint8_t **p, size_t *n);
/* Moves base past a segment delivered without entering the buffer (base
 * itself); its slot must be empty. */
void ccnx_reorder_skip(struct ccnx_reorder *r);

CCNX_API_END

#endif
