/* The VLC module's model: one ccnx: name read as a byte stream, the way
 * VLC's access modules give bytes to its demuxers. No VLC types, so the
 * unit tests and the bench drive it without VLC.
 *
 * A thread of its own drives a ccnx_client (the client library is not
 * thread-safe): it finds the newest version, asks once for a ccnsink
 * stream's metadata exactly as ccnsrc does (ccnsrc_decide.h) while it
 * already fetches from segment 0, and then fetches with the core's
 * pipelined, verified fetch (<ccnx/fetch.h>) into a byte queue that the
 * reader's thread drains:
 *
 *   - a ccnsink stream marked live (or any ccnsink stream in mode live)
 *     starts at the newest keyframe segment, or the keyframe before it
 *     (join_back_ms), after the container's stream headers taken from its
 *     caps (ccnv_caps.h);
 *   - anything else (on demand, ccnputfile, ccnseqwriter, a stream with no
 *     metadata) is read from its first byte and can be sought in bytes: a
 *     plain stream's segments are all full but the last, a ccnsink stream's
 *     metadata gives each segment's offset.
 *
 * Every call but ccnv_stream_interrupt is made from one reader thread. */
#ifndef CCNV_STREAM_H
#define CCNV_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Returned when a wait was interrupted (ccnv_stream_interrupt). */
#define CCNV_E_INTERRUPTED (-1000)

enum ccnv_mode { CCNV_MODE_AUTO, CCNV_MODE_LIVE, CCNV_MODE_ON_DEMAND };

struct ccnv_options {
    int timeout_ms;      /* no answer for this long ends the stream with an error */
    int verify;          /* 1: every segment's signature is checked */
    enum ccnv_mode mode; /* AUTO: as the stream's metadata says */
    /* Live: join at the keyframe before the newest one when it is at most
     * this long before it; 0 joins at the newest. */
    int join_back_ms;
};
void ccnv_options_init(struct ccnv_options *o);

struct ccnv_stream;

/* Connects to the local ccnd and starts finding the stream under `uri` (a
 * ccnx: URI); returns at once. 0 with *out; else a CCNX_E_* code with a
 * sentence for the user in err (not a ccnx: URI; no ccnd, and how to
 * start one). */
int ccnv_stream_start(const char *uri, const struct ccnv_options *o, struct ccnv_stream **out,
                      char *err, size_t room);
/* Waits until the stream is found and it is decided how to read it: the
 * first bytes may then be read and ccnv_stream_info is complete. 0, or a
 * CCNX_E_* code with the sentence in err (nothing under the name, a
 * signature that does not verify...); CCNV_E_INTERRUPTED when
 * ccnv_stream_interrupt was called meanwhile. */
int ccnv_stream_wait_ready(struct ccnv_stream *s, char *err, size_t room);
/* Stops the thread and frees everything (any state, also after an error). */
void ccnv_stream_close(struct ccnv_stream *s);

/* Waits for bytes: the count copied (at most n); 0 at the end of the
 * stream; -1 on an error (ccnv_stream_error says why) or an interrupt
 * (ccnv_stream_interrupted). */
ssize_t ccnv_stream_read(struct ccnv_stream *s, void *buf, size_t n);

/* Moves the next read to byte `pos` (an on-demand stream only) and waits
 * until the stream is fetched from there. 0, or a CCNX_E_* code (the
 * reason in ccnv_stream_error): CCNX_E_UNSUPPORTED on a live stream. */
int ccnv_stream_seek(struct ccnv_stream *s, uint64_t pos);

/* Wakes a thread waiting in open, read or seek, which returns at once
 * (any thread; a VLC interrupt). Cleared by ccnv_stream_uninterrupt. */
void ccnv_stream_interrupt(struct ccnv_stream *s);
void ccnv_stream_uninterrupt(struct ccnv_stream *s);
int ccnv_stream_interrupted(struct ccnv_stream *s);

struct ccnv_info {
    int live;                /* joined at a keyframe near the live edge; no seeking */
    int with_meta;           /* a ccnsink stream */
    uint64_t start_segment;  /* the first data segment read */
    uint64_t newest_segment; /* a ccnsink stream: the newest segment when it was found */
    uint64_t newest_key;     /* live: the newest keyframe's segment then */
    int size_known;          /* size is the stream's length in bytes */
    uint64_t size;
    char content_type[64]; /* a ccnsink stream's media type, else "" */
    char uri[1024];        /* the versioned name read */
};
void ccnv_stream_info(struct ccnv_stream *s, struct ccnv_info *out);

/* The sentence that explains the last -1 or error code. */
const char *ccnv_stream_error(struct ccnv_stream *s);

struct ccnv_stats {
    uint64_t segments, bytes, interests, retransmissions, timeouts;
    double rtt_ms, window;
};
void ccnv_stream_stats(struct ccnv_stream *s, struct ccnv_stats *out);

/* The queue: the fetch pauses while this many bytes wait to be read and
 * resumes below the low mark (as ccnsrc's). */
#define CCNV_QUEUE_HIGH (16u << 20)
#define CCNV_QUEUE_LOW  (4u << 20)
/* Data kept at most while the metadata probe decides. */
#define CCNV_EARLY_MAX (64u << 20)

#endif
