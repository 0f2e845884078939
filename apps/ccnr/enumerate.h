/* Name enumeration (NameEnumerationProtocol.txt). The reply to an Interest
 * <prefix>/%C1.E.be is a Collection of Links, one per component found right
 * below the prefix in the store, named
 *   <prefix>/%C1.E.be/%C1.M.K%00<repository key id>/<version>/<segment>
 * and signed by the repository's key. Replies are stored like any other
 * object, so the ordinary lookup answers the Interest (an Exclude of the
 * versions a reader has seen included) and a new version is made only when
 * the set of children has changed: ccnr_enum_update brings the stored reply
 * up to date before that lookup. */
#ifndef CCNR_ENUMERATE_H
#define CCNR_ENUMERATE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ccnx/buf.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/key.h>

#include "store.h"

#define CCNR_ENUM_SEGMENT_BYTES 4096 /* Collection bytes per reply segment */
#define CCNR_ENUM_FRESHNESS     60   /* seconds, as the reference's replies */

/* 1 when the encoded Name (an Interest's) asks for an enumeration: one of
 * its components is %C1.E.be; *prefix gets the components before it. 0
 * when not, negative for a malformed Name. */
int ccnr_enum_request(const uint8_t *name, size_t len, struct ccnx_name *prefix);

/* Makes the store hold the current reply for `prefix`, signed with `key`,
 * versioned with the time `now` when a new one is needed. Call with no
 * write batch open (it commits its own). Returns 1 when a new version was
 * stored, 0 when the stored one is current or nothing is held under the
 * prefix (the repository then stays silent, as the protocol says), or a
 * negative error (a store error, CCNX_E_NOMEM). */
int ccnr_enum_update(struct ccnr_store *s, const struct ccnx_key *key,
                     const struct ccnx_name *prefix, const struct timespec *now);

/* The object answering the enumeration Interest ibuf/pi (for `prefix`, as
 * ccnr_enum_request gave it) into out, after ccnr_enum_update: a request
 * that names no version (<prefix>/%C1.E.be, maybe with a key id) gets the
 * first segment of the newest version, when the Interest allows it; one
 * that names a version or segment is looked up as any Interest. 1, 0 for
 * none, or negative. */
int ccnr_enum_answer(struct ccnr_store *s, const struct ccnx_key *key, const uint8_t *ibuf,
                     const struct ccnx_interest_parsed *pi, const struct ccnx_name *prefix,
                     struct ccnx_buf *out);

#endif
