/* ccnsink's network side, on the element's client thread (ccnloop.h):
 * the stream's writer (streamwriter.h), opened at the first buffer, each
 * buffer written into it, the stream closed at the end, the start-writes
 * that ask a repository to store it and the confirmation that it did. The
 * element (gstccnsink.c) sets the state up in start() and hands work over
 * as jobs; only the fields under "between the threads" are touched by
 * both threads, under `lock`. Used only by gstccnsink.c. */
#ifndef CCNSINK_PUBLISH_H
#define CCNSINK_PUBLISH_H

#include "ccnloop.h"
#include "streamwriter.h"

#include <ccnx/keystore.h>
#include <ccnx/name.h>
#include <gst/gst.h>

struct repo_ask;

struct ccnsink_pub {
    /* set in start() */
    GstElement *element; /* for messages and errors */
    struct ccngst_loop *loop;
    struct ccnx_name name;
    struct ccnx_keystore *ks;       /* NULL: the client's key */
    struct ccngst_writer_opts opts; /* from the properties; `live` is the first buffer's */
    gboolean repo;                  /* ask a repository to store the stream */

    /* client thread only */
    struct ccngst_writer *writer;
    int failed; /* a write error was posted */
    uint64_t stats_timer;
    int repo_asked[2];        /* start-write sent for data, metadata */
    struct repo_ask *asks[2]; /* those still waiting for an answer */

    /* between the threads */
    GMutex lock;
    GCond cond;
    guint64 queued;    /* bytes handed over, not yet written */
    gboolean flushing; /* unlock(): stop waiting */
};

/* One buffer for the writer (taken: the job frees it and its caps). */
struct ccnsink_job {
    struct ccnsink_pub *pub;
    GstBuffer *buf;
    gchar *caps; /* new caps before it, or NULL */
    gboolean live;
};

/* Jobs for ccngst_loop_call: a ccnsink_job, or the ccnsink_pub. */
void ccnsink_write_job(void *job);
void ccnsink_close_job(void *pub);
/* With repo: waits (on the client thread) until the repository holds both
 * streams whole, or says why not. */
void ccnsink_confirm_job(void *pub);
void ccnsink_stop_job(void *pub);

/* The writer's statistics as the "stats" property's structure; from any
 * thread. */
GstStructure *ccnsink_pub_stats(struct ccnsink_pub *pub);

#endif
