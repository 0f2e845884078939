/* Finding the newest version under a prefix, as the reference's
 * ccn_resolve_version does, driven by the client's loop. */
#ifndef CCNX_RESOLVE_H
#define CCNX_RESOLVE_H

#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/client.h>
#include <ccnx/name.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

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

CCNX_API_END

#endif
