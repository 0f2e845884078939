/* The stream's state, shared by ccnv_stream.c (the thread, the queue, the
 * reader's calls) and ccnv_discover.c (finding the stream, deciding how to
 * read it, seeking). Not part of the module's interface. */
#ifndef CCNV_INTERNAL_H
#define CCNV_INTERNAL_H

#include "ccnv_stream.h"

#include <ccnx/buf.h>
#include <ccnx/client.h>
#include <ccnx/fetch.h>
#include <ccnx/name.h>
#include <ccnx/resolve.h>
#include <ccnx/verifier.h>

#include "streamprobe.h"

#include <pthread.h>

struct ccnv_stream {
    struct ccnv_options opt;
    struct ccnx_name location;

    /* the client's thread only */
    struct ccnx_client *client;
    pthread_t thread;
    int wake_fd;
    struct ccnx_verifier *verifier;
    struct ccnx_resolve *resolve;
    struct ccnx_name versioned, meta_name;
    struct ccnx_fetch *data;
    int deciding; /* the metadata probe is out; data kept in `early` */
    struct ccngst_probe probe;
    struct ccnx_buf early;
    int early_paused, queue_paused;
    uint64_t last_meta;              /* the newest metadata segment the probe saw */
    uint64_t newest_key;             /* live: the newest keyframe's segment, */
    int64_t newest_key_pts;          /* and its PTS (ns, -1 unknown) */
    size_t block;                    /* a plain stream's first segment's size */
    uint64_t skip;                   /* bytes of the next segment delivered to drop (a seek) */
    uint64_t offset;                 /* stream offset of the next byte queued */
    int settled;                     /* decided how to read the stream */
    uint64_t last_segment, last_len; /* the size probe's answer, when final */
    int last_known, last_header_asked;
    uint64_t size_floor; /* the size probe excludes segments below it */
    int size_attempts;
    int bisecting;                               /* a seek bisecting on metadata: */
    uint64_t seek_lo, seek_hi, seek_to, seek_at; /* the range, the position, the header asked */

    /* shared, under lock */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct ccnx_buf queue; /* bytes queue.data[head..len) wait to be read */
    size_t head;
    int decided, ended, failed, interrupted, quit;
    int reader_waiting; /* in ccnv_stream_read, for bytes */
    int resume_wanted, seek_wanted, seeking;
    int size_pending; /* the last segment's offset is asked for: open waits for it */
    uint64_t seek_pos;
    int seek_result;
    struct ccnv_info info;
    struct ccnv_stats stats;
    char error[512];
};

/* ccnv_stream.c, on the client's thread */
void ccnv_queue_bytes(struct ccnv_stream *s, const uint8_t *p, size_t n);
void ccnv_fail(struct ccnv_stream *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ccnv_decided(struct ccnv_stream *s);
void ccnv_data_ended(struct ccnv_stream *s);
void ccnv_seek_finished(struct ccnv_stream *s, int result);
void ccnv_set_size(struct ccnv_stream *s, uint64_t size);
/* Starts the data fetch at `segment`; `live` keeps few Interests ahead. */
int ccnv_start_data(struct ccnv_stream *s, uint64_t segment, int live);
void ccnv_on_data(void *arg, uint64_t segment, const uint8_t *p, size_t n);

/* ccnv_discover.c, on the client's thread */
void ccnv_discover(struct ccnv_stream *s);
void ccnv_seek_start(struct ccnv_stream *s, uint64_t pos);
/* The size, once both the final segment and what places it are known. */
void ccnv_size_check(struct ccnv_stream *s);

#endif
