/* The consumer side on top of <ccnx/client.h>: fetching one verified
 * object, and a pipelined, congestion-controlled fetch of segmented content
 * delivered in order. What is trusted is the verifier's (<ccnx/verifier.h>),
 * the newest version is found as <ccnx/resolve.h> says.
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
#include <ccnx/resolve.h>
#include <ccnx/verifier.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

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

/* ---- Segmented fetch ---- */

struct ccnx_fetch_stats {
    uint64_t bytes;     /* content bytes delivered */
    uint64_t segments;  /* segments delivered */
    uint64_t interests; /* Interests sent, retransmissions included */
    uint64_t retransmissions;
    uint64_t timeouts;
    uint64_t window_cuts;   /* times a loss cut the window */
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
    int any_type;                   /* 1: segments of every Type are handed over (a
                                     * repository keeps GONE, LINK... as given);
                                     * 0: only DATA and KEY, the others end the
                                     * fetch with a sentence saying what came */
    int follows_live_edge;          /* 1: the consumer follows a live stream's newest
                                     * segment (ccnsrc on a live stream); an Interest
                                     * beyond every answered segment that times out
                                     * cuts the window, keeping few Interests ahead of
                                     * the edge. 0: the stream is read to its end; such
                                     * a timeout is a wait at an in-order producer */
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

CCNX_API_END

#endif
