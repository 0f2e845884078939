/* A connection from an application to the local ccnd: express Interests and
 * receive the content that answers them, answer Interests under registered
 * prefixes, put content, and timers, all driven by one event loop that is
 * either the client's own (ccnx_client_run) or the application's
 * (ccnx_client_fd / _poll_events / _timeout_ms / _process).
 *
 * Where ccnd is found: the unix socket named by CCN_LOCAL_SOCKNAME and
 * CCN_LOCAL_PORT (default /tmp/.ccnd.sock), or TCP to 127.0.0.1 on
 * CCN_LOCAL_PORT when CCN_LOCAL_TRANSPORT=tcp, as the reference's clients do.
 *
 * Connection loss: by default the client reconnects by itself (every
 * CCNX_CLIENT_RECONNECT_MS), registers its prefixes again and re-expresses
 * the Interests still pending, so a ccnd restart costs a pause, not a
 * failure. Pending Interests keep their timers meanwhile, so nothing waits
 * for ever.
 *
 * Threads: a client is not thread-safe. Use it from one thread at a time
 * (callbacks run on the thread that called _process or _run); a program that
 * drives it from a GLib or GStreamer thread and an ncurses loop must hand
 * work to that one thread (e.g. through a pipe it also polls). Separate
 * clients are independent.
 *
 * Callbacks may express, cancel, put, schedule and set filters, and may call
 * ccnx_client_stop, but must not destroy the client.
 */
#ifndef CCNX_CLIENT_H
#define CCNX_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_CLIENT_RECONNECT_MS 250 /* pause between reconnection attempts */

struct ccnx_client;
struct ccnx_keystore;

/* ---- Life cycle ---- */

/* Allocates a client and connects it to the local ccnd. On failure *out is
 * still set (unless allocation failed: CCNX_E_NOMEM and *out NULL) so that
 * ccnx_client_error can say which socket was tried and how to start ccnd,
 * e.g. "no ccnd at /tmp/.ccnd.sock: start it with ccndstart"; destroy it
 * either way. */
int ccnx_client_open(struct ccnx_client **out);
void ccnx_client_destroy(struct ccnx_client *c);

/* The last error as a sentence for the user (empty when none). */
const char *ccnx_client_error(const struct ccnx_client *c);
/* Where ccnd was looked for: "/tmp/.ccnd.sock" or "tcp 127.0.0.1:9695". */
const char *ccnx_client_where(const struct ccnx_client *c);
/* 1 while connected. */
int ccnx_client_connected(const struct ccnx_client *c);
/* Reconnect after a lost connection (on by default); when off, a lost
 * connection makes _process and _run return CCNX_E_IO and every pending
 * Interest times out at once. */
void ccnx_client_set_reconnect(struct ccnx_client *c, int on);

/* The key that signs registrations (and whatever the application signs with
 * ccnx_client_key): the user's default keystore, opened or created on first
 * use, unless one was set. The client does not take ownership of ks. */
void ccnx_client_set_keystore(struct ccnx_client *c, struct ccnx_keystore *ks);
/* NULL with ccnx_client_error set when the keystore cannot be opened. */
const struct ccnx_key *ccnx_client_key(struct ccnx_client *c);

/* ---- Driving it ---- */

/* Its own loop: runs for ms milliseconds (ms < 0: until ccnx_client_stop is
 * called from a callback). 0, or CCNX_E_IO when the connection is lost and
 * reconnection is off. */
int ccnx_client_run(struct ccnx_client *c, int ms);
/* Makes the innermost ccnx_client_run return after the current callback. */
void ccnx_client_stop(struct ccnx_client *c);

/* A foreign loop polls ccnx_client_fd for ccnx_client_poll_events (POLLIN,
 * plus POLLOUT while output waits), sleeps at most ccnx_client_timeout_ms
 * (-1: no timer due), and then calls ccnx_client_process, which never
 * blocks. The fd changes across reconnections (-1 while disconnected), so
 * ask again after each _process. */
int ccnx_client_fd(const struct ccnx_client *c);
short ccnx_client_poll_events(const struct ccnx_client *c);
int ccnx_client_timeout_ms(const struct ccnx_client *c);
int ccnx_client_process(struct ccnx_client *c);

/* Bytes queued for ccnd but not yet written; producers that publish a lot
 * should let it drain (run the loop) before they put more. */
size_t ccnx_client_output_pending(const struct ccnx_client *c);

/* ---- Interests ---- */

/* The content that answered an Interest: the whole ContentObject and its
 * parse. Unverified: see <ccnx/fetch.h> for fetching with verification. */
typedef void (*ccnx_content_fn)(void *arg, const uint8_t *obj, size_t len,
                                const struct ccnx_content_parsed *pc);
/* No content came after every retry (or the connection was lost for good). */
typedef void (*ccnx_timeout_fn)(void *arg);

struct ccnx_express_opts {
    ccnx_content_fn on_content;
    ccnx_timeout_fn on_timeout; /* may be NULL */
    void *arg;
    /* Wait per attempt in ms; 0 means the Interest's own lifetime. */
    int timeout_ms;
    /* Attempts after the first, each sending the Interest again. */
    unsigned retries;
    /* 0: the Interest is sent once per attempt. Above 0: while an attempt
     * is unanswered, the Interest is sent again after this many ms, then
     * after waits that double each time, until the attempt's time is up
     * (CCNX_REEXPRESS_MS, then 200, 400, 800 ms ... for a consumer that
     * wants its answer soon after a producer appears or a packet is lost).
     * An Interest that carries its own Nonce is sent once per attempt:
     * forwarders drop a nonce they have seen. */
    int reexpress_ms;
};

/* The consumers' first re-expression: ccnx_fetch_object, key fetches and
 * the segmented fetch's first Interests. */
#define CCNX_REEXPRESS_MS 100

/* Sends one encoded Interest (copied) and calls on_content with the first
 * ContentObject that satisfies it, or on_timeout; exactly one of them is
 * called, once, unless the Interest is cancelled first. *id (may be NULL)
 * identifies it for ccnx_client_cancel. CCNX_E_VALUE for an Interest that
 * does not parse. */
int ccnx_client_express(struct ccnx_client *c, const uint8_t *interest, size_t len,
                        const struct ccnx_express_opts *opts, uint64_t *id);
/* Forgets a pending Interest; no callback follows. 0, or CCNX_E_NOTFOUND. */
int ccnx_client_cancel(struct ccnx_client *c, uint64_t id);
/* Number of Interests waiting for content. */
size_t ccnx_client_pending_count(const struct ccnx_client *c);

/* Expresses an Interest and runs the loop until it is answered: 0 with the
 * ContentObject in *obj, CCNX_E_NOTFOUND when nothing came within
 * timeout_ms (0: the Interest's lifetime), CCNX_E_IO when ccnd is gone. */
int ccnx_client_get(struct ccnx_client *c, const uint8_t *interest, size_t len, int timeout_ms,
                    struct ccnx_buf *obj);

/* ---- Answering Interests ---- */

/* An Interest under a prefix the application set a filter for. Return 1 when
 * it was answered (or is being answered), 0 to let a filter on a shorter
 * prefix see it. */
typedef int (*ccnx_interest_fn)(void *arg, const uint8_t *interest, size_t len,
                                const struct ccnx_interest_parsed *pi);

/* Whether ccnd should route the prefix here. */
#define CCNX_FILTER_LOCAL    0 /* see only Interests ccnd already sends here */
#define CCNX_FILTER_REGISTER 1 /* selfreg with ccnd, kept alive and redone after reconnects */

/* Calls fn for every incoming Interest under prefix (longest filter first).
 * With CCNX_FILTER_REGISTER the prefix is registered with ccnd (signed
 * selfreg, forwarding flags `forw_flags`, 0 meaning ACTIVE|CHILD_INHERIT);
 * the registration completes asynchronously: see ccnx_client_wait_registered. */
int ccnx_client_set_filter(struct ccnx_client *c, const struct ccnx_name *prefix, int mode,
                           int forw_flags, ccnx_interest_fn fn, void *arg, uint64_t *id);
/* Removes a filter (and unregisters its prefix when no other filter has
 * it). 0, or CCNX_E_NOTFOUND. */
int ccnx_client_clear_filter(struct ccnx_client *c, uint64_t id);
/* 1 when ccnd accepted the filter's registration, 0 while waiting, negative
 * when it failed (ccnx_client_error says why: ccnd's refusal, no answer). */
int ccnx_client_filter_state(const struct ccnx_client *c, uint64_t id);
/* Runs the loop until the registration completes or fails: 0, or negative
 * with ccnx_client_error set. */
int ccnx_client_wait_registered(struct ccnx_client *c, uint64_t id, int timeout_ms);

/* Queues one or more whole encoded ContentObjects (copied) for ccnd. */
int ccnx_client_put(struct ccnx_client *c, const uint8_t *obj, size_t len);

/* ---- Timers ---- */

typedef void (*ccnx_timer_fn)(void *arg);
/* Calls fn once after delay_ms. *id (may be NULL) is for ccnx_client_unschedule. */
int ccnx_client_schedule(struct ccnx_client *c, int delay_ms, ccnx_timer_fn fn, void *arg,
                         uint64_t *id);
int ccnx_client_unschedule(struct ccnx_client *c, uint64_t id);

/* Monotonic milliseconds, the clock of every timer above. */
int64_t ccnx_client_now_ms(void);

CCNX_API_END

#endif
