/* The producer side: a segmented, versioned publisher (the seqwriter). Its
 * requests to repositories are built as <ccnx/repo.h> says.
 *
 * A seqwriter cuts the bytes written to it into segments of a block size,
 * names them <name>/<version>/%00<segment> (NameConventions.txt), signs
 * them in Merkle batches (one RSA operation per batch, so bulk publishing is
 * bound by hashing, not by RSA) and answers Interests for them from its
 * buffer. An Interest for a segment that does not exist yet is remembered
 * and answered as soon as the segment is signed, as the reference's
 * seqwriter does. The last segment carries FinalBlockID (its own segment
 * component); an empty stream is one empty segment %00 with FinalBlockID
 * %00, and a stream closed right after a flush ends with an empty final
 * segment, as in the reference.
 *
 * Memory: in stream mode objects that have been sent are dropped once the
 * buffer holds more than its limit, and write() accepts less than it was
 * given while the unsent objects fill the limit (run the client's loop so
 * Interests drain them, then write the rest). In keep-all mode (a file
 * being served) every object stays until the seqwriter is destroyed. In
 * live mode the newest segments stay, whether sent or not, and write()
 * takes everything.
 *
 * Signing happens when a batch is full, when an Interest waits for a
 * segment whose bytes are complete, after a short pause in writing (the
 * flush timer, so a live stream is never held back waiting for a full
 * batch), and on flush and close. The last full segment is held back until
 * more bytes or close decide whether it is the final one, unless an
 * Interest asks for it first.
 */
#ifndef CCNX_SEQWRITER_H
#define CCNX_SEQWRITER_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/repo.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

struct ccnx_client;
struct ccnx_key;

#define CCNX_SEQWRITER_BLOCK_DEFAULT  4096 /* the reference's ccnputfile/ccnseqwriter */
#define CCNX_SEQWRITER_BLOCK_MAX      65536
#define CCNX_SEQWRITER_BATCH_DEFAULT  1024 /* objects per Merkle batch at most */
#define CCNX_SEQWRITER_BUFFER_DEFAULT ((size_t)32 << 20)
#define CCNX_SEQWRITER_FLUSH_MS       20  /* pause after which complete segments are signed */
#define CCNX_SEQWRITER_MAX_WAITING    256 /* remembered Interests for future segments */

/* Where objects go when the seqwriter has no client (tests, other
 * transports): return 0, or a negative code that write/close pass on. */
typedef int (*ccnx_seqwriter_put_fn)(void *arg, const uint8_t *obj, size_t len);

struct ccnx_seqwriter_opts {
    size_t block_size;          /* bytes per segment, 1..CCNX_SEQWRITER_BLOCK_MAX */
    int64_t freshness;          /* FreshnessSeconds, -1 to omit */
    const struct ccnx_key *key; /* signing key; NULL: ccnx_client_key (not owned) */
    size_t batch_max;           /* objects per Merkle batch at most (>= 1) */
    size_t buffer_limit;        /* bytes held in stream mode before write pushes back */
    int keep_all;               /* keep every object (serving a file) */
    /* Live mode when > 0: write never pushes back, and the oldest batches
     * are dropped, sent or not, while more than live_window segments are
     * held (the newest batch always stays). For a live stream whose
     * viewers may be slow or absent: memory stays bounded and the writer
     * never waits for them. Overrides keep_all and buffer_limit. */
    size_t live_window;
    int flush_ms; /* pause before complete segments are signed; < 0 never */
    /* An Interest for a segment sent less than resend_ms ago is taken as
     * answered without a second copy: it left ccnd before the copy got
     * there, so ccnd still holds it pending and the copy on its way
     * satisfies it. <= 0 (the default): always send again. ccnsink
     * uses 250 ms. */
    int resend_ms;
    /* How the Interest filter on the name is set: CCNX_FILTER_REGISTER or
     * CCNX_FILTER_LOCAL (<ccnx/client.h>). */
    int filter_mode;
    /* With no client: where objects are sent (required then). */
    ccnx_seqwriter_put_fn put;
    void *put_arg;
};

/* Defaults: CCNX_SEQWRITER_BLOCK_DEFAULT, no FreshnessSeconds, the client's
 * key, CCNX_SEQWRITER_BATCH_DEFAULT, CCNX_SEQWRITER_BUFFER_DEFAULT, stream
 * mode, CCNX_SEQWRITER_FLUSH_MS, registered filter. */
void ccnx_seqwriter_opts_init(struct ccnx_seqwriter_opts *o);

struct ccnx_seqwriter;

/* Creates a seqwriter for `name` (a version for now is appended unless the
 * last component already is a version) and, with a client, sets an
 * Interest filter on `name` as given. With c NULL the caller feeds
 * Interests through ccnx_seqwriter_interest, objects go to o->put, o->key
 * is required and there is no flush timer. Allocates *out. CCNX_E_INVAL for
 * bad options, CCNX_E_NOKEY when there is no key that can sign (with a
 * client, ccnx_client_error says why). */
int ccnx_seqwriter_create(struct ccnx_client *c, const struct ccnx_name *name,
                          const struct ccnx_seqwriter_opts *o, struct ccnx_seqwriter **out);
/* Clears the filter and frees everything; objects not yet sent are lost. */
void ccnx_seqwriter_destroy(struct ccnx_seqwriter *w);

/* The versioned name every segment is under. */
const struct ccnx_name *ccnx_seqwriter_name(const struct ccnx_seqwriter *w);
/* The filter's id in the client (0 without a client), for
 * ccnx_client_wait_registered / ccnx_client_filter_state. */
uint64_t ccnx_seqwriter_filter_id(const struct ccnx_seqwriter *w);

/* Takes up to n bytes: returns how many were taken (n, or fewer while the
 * buffer is full: run the loop and write the rest), or a negative code
 * (CCNX_E_INVAL after close, a signing or put error). */
long ccnx_seqwriter_write(struct ccnx_seqwriter *w, const void *p, size_t n);
/* Bytes write() would take now (SIZE_MAX in keep-all mode, 0 once closed). */
size_t ccnx_seqwriter_writable(const struct ccnx_seqwriter *w);
/* Turns a seqwriter made with keep_all into stream mode, for when a
 * reader that fetches each segment about once (a repository) has taken
 * the stream: from now on write takes at most buffer_limit bytes of
 * unsent data, and sent objects are dropped, oldest batch first (the newest
 * stays), while more than buffer_limit bytes are held. 0, or CCNX_E_INVAL when
 * buffer_limit is below the block size. */
int ccnx_seqwriter_set_stream(struct ccnx_seqwriter *w, size_t buffer_limit);
/* Ends the current segment even if short and signs everything written so
 * far, answering the Interests that wait for it. */
int ccnx_seqwriter_flush(struct ccnx_seqwriter *w);
/* Ends the current segment even if short (nothing when it is empty), but
 * leaves signing to the usual moments, so segments that end at chosen
 * places (a keyframe, a buffer) are still signed in batches. The ended
 * segment is held back as a possible final one only until more bytes come
 * or an Interest asks for it; a close that follows adds an empty final
 * segment, as after flush. CCNX_E_INVAL after close. */
int ccnx_seqwriter_end_segment(struct ccnx_seqwriter *w);
/* Writes the final segment (FinalBlockID) and signs it. The seqwriter keeps
 * answering Interests until destroyed. */
int ccnx_seqwriter_close(struct ccnx_seqwriter *w);

/* An Interest under the name: answers it with the matching object (1), or
 * remembers it when it may match a segment still to come (1), or 0 when it
 * cannot be answered here. The client's filter calls this; without a
 * client, the caller does. */
int ccnx_seqwriter_interest(struct ccnx_seqwriter *w, const uint8_t *interest, size_t len,
                            const struct ccnx_interest_parsed *pi);

/* The encoded ContentObject of a signed segment still held, or NULL. */
const uint8_t *ccnx_seqwriter_segment(const struct ccnx_seqwriter *w, uint64_t segment,
                                      size_t *len);

struct ccnx_seqwriter_stats {
    uint64_t bytes;           /* taken by write */
    uint64_t segments;        /* signed */
    uint64_t batches;         /* RSA signatures made */
    uint64_t interests;       /* Interests seen */
    uint64_t objects_sent;    /* answers sent (a segment may be sent more than once) */
    uint64_t segments_sent;   /* distinct segments sent at least once */
    uint64_t resends_avoided; /* Interests not answered again: the segment
                                 was sent moments ago and is on its way */
    int64_t final_segment;    /* -1 until closed */
    size_t buffered;          /* bytes of signed objects held */
    size_t waiting;           /* remembered Interests */
};
void ccnx_seqwriter_get_stats(const struct ccnx_seqwriter *w, struct ccnx_seqwriter_stats *s);
/* 1 once closed and every segment has been sent at least once (what a
 * repository fetching the whole stream causes). */
int ccnx_seqwriter_all_sent(const struct ccnx_seqwriter *w);

/* ccnx_repo_start_write for a seqwriter's name through its client
 * (CCNX_E_INVAL without one). With o->checked, segment 0 must be signed
 * already (write, then flush or close): its number and digest are used. */
int ccnx_seqwriter_start_write(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                               struct ccnx_buf *reply, struct ccnx_repo_info *ri);

/* The start-write's outcome: rc 0 with the reply object reply[0..len) and
 * its RepositoryInfo (spans into reply; both valid during the call only),
 * CCNX_E_REFUSED with them too when the repository takes nothing now (the
 * reason in the InfoString), CCNX_E_NOTFOUND when no repository answered in
 * time, CCNX_E_VALUE when the answer is not a RepositoryInfo. The seqwriter
 * may be destroyed in it. */
typedef void (*ccnx_repo_write_fn)(void *arg, int rc, const uint8_t *reply, size_t len,
                                   const struct ccnx_repo_info *ri);
/* ccnx_seqwriter_start_write without waiting: sends the start-write and
 * returns; the client's loop, run by the caller while it goes on writing,
 * calls done once. One at a time per seqwriter; destroying the seqwriter
 * first cancels it (no call). 0, or a code (then done is never called):
 * CCNX_E_INVAL also while another is in flight. */
int ccnx_seqwriter_start_write_async(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                                     ccnx_repo_write_fn done, void *arg);

/* After a start-write, once every segment was fetched (all_sent): asks the
 * repository itself for the final segment, with an Interest whose
 * AnswerOriginKind excludes content stores (Scope as o->scope), and waits
 * up to wait_ms. A repository answers from what it has committed, and it
 * commits a stream in order, so the answer stands for the whole stream:
 * the segments no longer depend on ccnd's buffers or on this writer. 0 when
 * the answer is exactly the final segment; CCNX_E_NOTFOUND when none came
 * (the caller may ask again: a repository commits in batches);
 * CCNX_E_INVAL when the writer is not closed or has no client; CCNX_E_IO
 * when ccnd is gone. */
int ccnx_seqwriter_confirm_stored(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                                  int wait_ms);

CCNX_API_END

#endif
