/* Guest prefixes (CCND_PREFIX), as the reference forwarder hands them out:
 * a peer on a network face asks for ccnx:/%C1.M.S.neighborhood/guest/<id>;
 * ccnd registers <stem>/<id> on that face (ACTIVE | CHILD_INHERIT, for good)
 * and answers <the Interest's name>/<version>/%00, a one-segment object
 * (FinalBlockID %00, fresh for 5 s, signed with ccnd's key) whose content
 * is the URI of the prefix now routed to the peer. */
#ifndef CCND_MGMT_GUEST_H
#define CCND_MGMT_GUEST_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/interest.h>

struct fib;
struct ccnx_key;

#define GUEST_FRESHNESS 5 /* seconds, as the reference */

/* Handles an Interest from faceid (a network face: the caller checks)
 * when it asks for a guest prefix under the stem (encoded Name element).
 * Returns 1 with the answer appended to reply, 0 when the Interest is not
 * a guest request, or CCNX_E_*. */
int guest_handle(struct fib *fib, const struct ccnx_key *key, const uint8_t *stem, size_t stem_len,
                 unsigned faceid, const uint8_t *interest, const struct ccnx_interest_parsed *pi,
                 struct ccnx_buf *reply);

#endif
