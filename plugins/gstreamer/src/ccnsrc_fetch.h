/* ccnsrc's network side, on the element's client thread: finding the
 * stream, deciding live or on demand, fetching data and metadata, and
 * handing finished items (buffers, caps, the end, an error) to the
 * streaming thread through a queue. Used only by gstccnsrc.c. */
#ifndef CCNSRC_FETCH_H
#define CCNSRC_FETCH_H

#include "ccnloop.h"
#include "streamprobe.h"

#include <ccnx/verifier.h>
#include <ccnx/resolve.h>
#include <gst/gst.h>

enum ccnsrc_item_kind { ITEM_BUFFER, ITEM_CAPS, ITEM_EOS, ITEM_ERROR };

struct ccnsrc_item {
    enum ccnsrc_item_kind kind;
    GstBuffer *buf; /* ITEM_BUFFER: timestamps as the sender had them */
    GstCaps *caps;  /* ITEM_CAPS */
    gchar *error;   /* ITEM_ERROR: a sentence for the user */
    gint code;      /* ITEM_ERROR: GstResourceError */
};
void ccnsrc_item_free(struct ccnsrc_item *it);

/* What discovery found, for start() to configure the element. */
struct ccnsrc_found {
    int done;
    int error; /* GstResourceError, with `message` */
    gchar *message;
    int with_meta; /* a ccnsink stream: buffers, caps and timing restored */
    int live;
    guint64 start_segment;
    gchar *uri;           /* the versioned name */
    guint64 last_segment; /* the newest metadata segment the probe saw */
    gint64 duration;      /* ns, from that segment's buffers; -1 unknown */
};

struct ccnsrc_net {
    GstElement *element; /* for messages */
    struct ccngst_loop *loop;
    struct ccnx_name location;
    int verify;
    int timeout_ms;
    int mode; /* GstCcnSrcMode */

    /* client thread only */
    struct ccnx_verifier *verifier;
    struct ccnx_resolve *resolve;
    struct ccnx_name versioned, meta_name;
    struct ccnx_fetch *data, *meta;
    struct ccngst_reader *reader;
    int data_done, meta_done, ended, paused, headers_sent;
    /* While the metadata probe is out, an on-demand candidate's data is
     * already fetched from segment 0 and kept here. */
    int deciding, early_paused;
    struct ccngst_probe probe; /* for the metadata */
    guint64 skip;              /* bytes of the first data segment to drop (a byte seek) */
    gsize block;               /* plain streams: the first segment's size, for byte seeks */
    guint64 total_size;        /* plain streams: the size, once the last segment came; 0 unknown */
    GstBuffer *filling;        /* plain bytes not queued yet (client thread) */
    int flush_armed;           /* a zero-delay timer will queue `filling` */
    struct ccnsrc_seek *seek;  /* a seek in progress, client thread */
    struct ccnx_buf early;
    guint64 byte_offset;

    /* shared, under lock */
    GMutex lock;
    GCond cond;
    GQueue items; /* struct ccnsrc_item * */
    guint64 queued_bytes;
    int flushing;
    int waiting;   /* the streaming thread sleeps on cond */
    int buffering; /* on demand: percent last posted while the queue first fills; 100 done */
    struct ccnsrc_found found;
};

void ccnsrc_net_init(struct ccnsrc_net *n);
void ccnsrc_net_clear(struct ccnsrc_net *n);
/* On the client thread: starts discovery; found.done is set (and cond
 * signalled) when it ends. */
void ccnsrc_net_discover(void *arg);
/* On the client thread: the fetches, after discovery found a stream (the
 * data's may already run since discovery). */
void ccnsrc_net_start_fetch(void *arg);
/* Seeking (ccnsrc_seek.c): the request the streaming thread hands over,
 * and its result when `done`. TIME on a stream with metadata (bisecting on
 * the keyframe PTS in the metadata headers), BYTES on a plain stream. */
struct ccnsrc_seek {
    struct ccnsrc_net *net;
    GstFormat format;
    guint64 position;
    guint64 lo, hi; /* metadata segments still in question */
    int done, ok;
};
void ccnsrc_net_seek(void *arg);

/* Shared with ccnsrc_seek.c: starting the fetches at n->found.start_segment. */
void ccnsrc_net_restart(struct ccnsrc_net *n);

/* On the client thread: stops and frees everything network. */
void ccnsrc_net_stop(void *arg);
/* Any thread: drops the items not yet taken by the streaming thread. */
void ccnsrc_net_drop_items(struct ccnsrc_net *n);
/* On the client thread: resume fetching after the queue drained. */
void ccnsrc_net_resume(void *arg);
/* On the client thread: fills a GstStructure of statistics (arg: GstStructure **). */
struct ccnsrc_stats_req {
    struct ccnsrc_net *net;
    GstStructure *out;
};
void ccnsrc_net_stats(void *arg);

/* Plain bytes are pushed in buffers of up to this many bytes, filled on
 * the client thread and queued when full or at the end of a pass of the
 * client's loop: a hand-over per segment cost more than the fetch. */
#define CCNSRC_BYTES_CHUNK (256u << 10)

/* On demand, BUFFERING messages are posted while the queue first fills up
 * to this many bytes (or the stream ends). */
#define CCNSRC_BUFFER_TARGET (2u << 20)

/* Data kept at most while the metadata probe decides (the fetch pauses
 * beyond): what a fast local fetch brings in the probe's time. */
#define CCNSRC_EARLY_MAX (64u << 20)

/* Bytes queued above which the fetches pause, and below which they resume. */
#define CCNSRC_QUEUE_HIGH (16u << 20)
#define CCNSRC_QUEUE_LOW  (4u << 20)

#endif
