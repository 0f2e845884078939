/* The chat's messages on the wire, as the reference's chats write them
 * (docs/protocol.md, "Chat"):
 *
 *   message  <room>/%FD<version>/%00, FinalBlockID %00, the UTF-8 text as
 *            content, signed by the member's key (KeyLocator: the key)
 *   member   <room>/members/%C1.M.K%00<key digest>/%FD<version>/%00, the
 *            member's nickname, signed by that same key
 *
 * Pure functions: building and classifying objects and Interests. */
#ifndef CHAT_WIRE_H
#define CHAT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/content.h>
#include <ccnx/name.h>
#include <ccnx/key.h>

#include "chat_model.h"

#define CHAT_MEMBERS_COMPONENT "members"
/* Interest lifetimes, 1/4096 s: the standing Interest for new messages,
 * the first one (an empty room should not hold up the history for long),
 * each step back through history, the first ask for a new member's name
 * (its first lines wait for it), and the look for a second message of one
 * name (sent at once by two members). */
#define CHAT_LIVE_LIFETIME         (4 * 4096)
#define CHAT_FIRST_LIFETIME        (1 * 4096)
#define CHAT_HISTORY_LIFETIME      (1 * 4096)
#define CHAT_MEMBER_FIRST_LIFETIME (4096 / 2) /* a new member's name */
#define CHAT_SIBLING_LIFETIME      (4096 / 2) /* another message of the same name */
#define CHAT_SIBLING_MAX           4          /* messages of one name looked for */

enum chat_wire_kind { CHAT_WIRE_MESSAGE, CHAT_WIRE_MEMBER };

struct chat_wire_obj {
    enum chat_wire_kind kind;
    struct chat_comp version; /* the object's version */
    const uint8_t *publisher; /* CHAT_DIGEST_LEN bytes */
    const uint8_t *text;      /* the content: message text or nickname */
    size_t text_len;
};

/* Classifies an object that answered one of the room's Interests: 0 with
 * *out filled (pointers into obj), or CCNX_E_VALUE when it is not a chat
 * object. In that case, when the object is under the room, *first gets
 * the component that follows the room (at most CHAT_COMP_MAX bytes: longer
 * ones are past every Exclude's upper bound anyway) so the next Interests
 * exclude it, and *has_first is 1. */
int chat_wire_parse(const struct ccnx_name *room, const uint8_t *obj,
                    const struct ccnx_content_parsed *pc, struct chat_wire_obj *out,
                    struct chat_comp *first, int *has_first);

/* Appends a signed message for `ticks` and sets *version to its version. */
int chat_wire_message(struct ccnx_buf *out, const struct ccnx_name *room, uint64_t ticks,
                      const uint8_t *text, size_t len, int64_t freshness,
                      const struct ccnx_key *key, struct chat_comp *version);
/* Appends a signed member object naming key's holder `nick`. */
int chat_wire_member(struct ccnx_buf *out, const struct ccnx_name *room, uint64_t ticks,
                     const char *nick, const struct ccnx_key *key, struct chat_comp *version);

/* An Interest for messages under the room: Min/MaxSuffixComponents 3,
 * ChildSelector rightmost when asked, the Exclude x (NULL: none). */
int chat_wire_room_interest(struct ccnx_buf *out, const struct ccnx_name *room,
                            const struct chat_exclude *x, int rightmost, uint64_t lifetime);
/* An Interest for another message with the same name as ones already
 * received: <room>/<version>/%00 with those objects' implicit digests
 * (n of them, CCNX_DIGEST_LEN bytes each, in any order) excluded. Two
 * members who send in the same 1/4096 s make two messages of one name,
 * and the Exclude of versions lets only one of them through. */
int chat_wire_sibling_interest(struct ccnx_buf *out, const struct ccnx_name *room,
                               const struct chat_comp *version, const uint8_t (*digests)[32],
                               size_t n, uint64_t lifetime);
/* An Interest for a member's newest member object, newer than `after`
 * when not NULL. */
int chat_wire_member_interest(struct ccnx_buf *out, const struct ccnx_name *room,
                              const uint8_t digest[CHAT_DIGEST_LEN], const struct chat_comp *after,
                              uint64_t lifetime);

#endif
