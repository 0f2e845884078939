/* The producer side: a segmented, versioned publisher (the seqwriter) and
 * the repository write protocol (RepoProtocol.txt).
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
#ifndef CCNX_PUBLISH_H
#define CCNX_PUBLISH_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

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

/* ---- RepositoryInfo (RepositoryInfoObject.txt) ---- */

#define CCNX_REPO_INFO_INFO      0 /* request accepted, no data */
#define CCNX_REPO_INFO_DATA      1 /* data returned in Name (e.g. already present) */
#define CCNX_REPO_INFO_MAX_NAMES 16

/* Spans into the parsed buffer. The reference repository writes the
 * GlobalPrefixName element empty and its components right after it;
 * components inside the element (the schema's form, the Java reference's)
 * are accepted too: either way global_prefix spans the Component elements
 * and global_prefix_count counts them. */
struct ccnx_repo_info {
    struct ccnx_span version;      /* Version text, e.g. "1.1" */
    int type;                      /* CCNX_REPO_INFO_INFO or _DATA */
    struct ccnx_span repo_version; /* RepositoryVersion text, e.g. "2.0" */
    struct ccnx_span global_prefix;
    size_t global_prefix_count;
    struct ccnx_span local_name;                      /* LocalName text */
    struct ccnx_span names[CCNX_REPO_INFO_MAX_NAMES]; /* Name elements */
    size_t name_count;
    struct ccnx_span info_string; /* InfoString text (len 0: absent) */
    int has_info_string;
};

/* Parses one RepositoryInfo element at buf[0..len) (trailing bytes are an
 * error). Total: 0 or a CCNX_E* code. Type may be text ("INFO", "DATA") or
 * the 3-byte binary form. */
int ccnx_repo_info_parse(const uint8_t *buf, size_t len, struct ccnx_repo_info *ri);
/* The global prefix as a name (n initialised by the caller). */
int ccnx_repo_info_global_prefix(const uint8_t *buf, const struct ccnx_repo_info *ri,
                                 struct ccnx_name *n);

/* Appends a RepositoryInfo as a repository answers: Version "1.1",
 * RepositoryVersion "2.0", LocalName "Repository", the global prefix inside
 * GlobalPrefixName; type DATA when `names` (n_names encoded Name elements)
 * is given, else INFO; InfoString when info is not NULL. */
int ccnx_repo_info_build(struct ccnx_buf *out, const struct ccnx_name *global_prefix,
                         const struct ccnx_name *names, size_t n_names, const char *info);

/* ---- Start-write ---- */

struct ccnx_repo_write_opts {
    int scope;      /* 1 local (default), 2 neighbourhood, 3 unlimited (no Scope) */
    int timeout_ms; /* how long to wait for a repository (default 60000, the reference's) */
    /* Checked start-write (%C1.R.sw-c): the first segment's number and the
     * implicit digest of its object; the repository answers DATA and
     * fetches nothing when it already holds that object. */
    int checked;
    uint64_t segment;
    uint8_t digest[32];
};
void ccnx_repo_write_opts_init(struct ccnx_repo_write_opts *o);

/* Appends the start-write Interest for the versioned name:
 * <name>/%C1.R.sw/<nonce>, or <name>/%C1.R.sw-c/<nonce>/<segment>/<digest>
 * when o->checked; Scope as o->scope. */
int ccnx_repo_start_write_interest(struct ccnx_buf *out, const struct ccnx_name *name,
                                   const struct ccnx_repo_write_opts *o);

/* Sends a start-write for `name` and runs the client's loop until a
 * repository answers (the seqwriter meanwhile answers the repository's
 * first Interests). 0 with the reply object in *reply and its RepositoryInfo
 * in *ri (spans into reply->data; either may be NULL when not wanted);
 * CCNX_E_REFUSED when the repository answered that it takes nothing now
 * (a NACK: the reply and its RepositoryInfo are set, the reason in
 * ri->info_string, e.g. "repository full"); CCNX_E_NOTFOUND when no
 * repository answered in time (the caller may serve the content itself),
 * CCNX_E_VALUE when the answer is not a RepositoryInfo, CCNX_E_IO when
 * ccnd is gone. */
int ccnx_repo_start_write(struct ccnx_client *c, const struct ccnx_name *name,
                          const struct ccnx_repo_write_opts *o, struct ccnx_buf *reply,
                          struct ccnx_repo_info *ri);

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
