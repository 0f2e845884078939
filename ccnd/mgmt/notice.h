/* Face-status notices: the stream ccnd publishes at
 * /ccnx/<ccndid>/notice.txt, one text line per face that came or went
 * ("newface(<faceid>, 0x<flags>, <address>:<port>);" or
 * "destroyface(<faceid>);"), as the reference forwarder does. The stream
 * starts with the first Interest for it, listing the faces that exist
 * then; segments are signed with ccnd's key as they are flushed.
 *
 * The module only builds objects: they are appended to the buffer the
 * caller passes, which ccnd injects as content from its internal face. */
#ifndef CCND_NOTICE_H
#define CCND_NOTICE_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/interest.h>

struct ccnx_key;
struct notice;

#define NOTICE_NAME "notice.txt"

struct notice *notice_create(const struct ccnx_key *key, const uint8_t ccndid[32]);
void notice_destroy(struct notice *n);

/* 1 when the Interest is for the notice stream (answered into out, or kept
 * until its segment exists), 0 when it is not. Starts the stream. */
int notice_interest(struct notice *n, const uint8_t *interest, size_t len,
                    const struct ccnx_interest_parsed *pi, struct ccnx_buf *out);
/* 1 once some Interest asked for the stream. */
int notice_started(const struct notice *n);
/* Writes one face's line (ref_flags in the reference's bit values; remote
 * may be NULL or empty). Nothing happens before the stream started. */
void notice_face(struct notice *n, unsigned faceid, int up, unsigned ref_flags, const char *remote);
/* Signs the lines written since the last flush; the segments that
 * Interests wait for go to out. */
void notice_flush(struct notice *n, struct ccnx_buf *out);

#endif
