/* ccnsink's model: a media stream published as a plain segmented stream
 * plus the metadata stream of streammeta.h, segment for segment. No
 * GStreamer types: the element turns GstBuffers into calls here, on its
 * client's thread.
 *
 * Segmenting: the data is cut into block_size segments, and a new segment
 * starts at every keyframe of a stream that has caps (a buffer without the
 * delta-unit flag) and at every caps change, so a viewer can start at a
 * segment that decodes. A stream without caps (bytes from filesrc) is cut
 * into full blocks only, exactly as ccnputfile cuts a file. In live mode
 * every buffer also ends its segment, so nothing waits for more bytes. */
#ifndef CCNGST_STREAMWRITER_H
#define CCNGST_STREAMWRITER_H

/* A segment asked for again within this many ms of its last copy is not
 * sent again (ccnx_seqwriter_opts.resend_ms). */
#define CCNGST_RESEND_MS 250

#include "streammeta.h"

#include <ccnx/client.h>
#include <ccnx/name.h>
#include <ccnx/seqwriter.h>

struct ccngst_writer_opts {
    size_t block_size;          /* bytes per data segment */
    int64_t freshness;          /* FreshnessSeconds, -1 to omit */
    size_t live_window;         /* 0: keep every segment (a file); else keep this many */
    int live;                   /* the source is live: end a segment at every buffer */
    const struct ccnx_key *key; /* NULL: the client's key */
    /* Without a client (tests): where both streams' objects go; key is
     * then required. */
    ccnx_seqwriter_put_fn put;
    void *put_arg;
};

struct ccngst_writer;

/* Publishes under location (a version for now is appended) through c (or
 * to o->put when c is NULL). 0,
 * or a CCNX_E_* code (CCNX_E_NOKEY: see ccnx_client_error). */
int ccngst_writer_create(struct ccnx_client *c, const struct ccnx_name *location,
                         const struct ccngst_writer_opts *o, struct ccngst_writer **out);
void ccngst_writer_destroy(struct ccngst_writer *w);

/* The versioned name of the data. */
const struct ccnx_name *ccngst_writer_name(const struct ccngst_writer *w);
/* The data and metadata seqwriters (for a repository's start-write). */
struct ccnx_seqwriter *ccngst_writer_data(struct ccngst_writer *w);
struct ccnx_seqwriter *ccngst_writer_meta(struct ccngst_writer *w);

/* New caps (copied): the next buffer starts a segment that carries them.
 * CCNX_E_VALUE for caps the metadata cannot carry (a line break, or over
 * CCNGST_META_MAX_CAPS bytes). */
int ccngst_writer_set_caps(struct ccngst_writer *w, const char *caps);
/* One buffer: its bytes and its timing (rec->offset and size are filled in
 * here). keyframe: the buffer does not depend on earlier ones. */
int ccngst_writer_buffer(struct ccngst_writer *w, const void *p, size_t n,
                         const struct ccngst_buf_rec *rec, int keyframe);
/* Ends the stream: the last data segment and its meta segment carry
 * FinalBlockID. Both keep answering until destroyed. */
int ccngst_writer_close(struct ccngst_writer *w);

struct ccngst_writer_stats {
    uint64_t buffers, bytes;
    uint64_t segments;      /* data segments made */
    uint64_t interests;     /* Interests seen by both streams */
    uint64_t objects_sent;  /* data answers sent (a segment may go more than once) */
    uint64_t segments_sent; /* distinct data segments sent */
    uint64_t meta_sent;     /* metadata answers sent */
};
void ccngst_writer_get_stats(const struct ccngst_writer *w, struct ccngst_writer_stats *s);

#endif
