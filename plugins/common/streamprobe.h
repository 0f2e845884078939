/* The probe for a ccnsink stream's metadata, shared by ccnsrc and the VLC
 * module: one Interest for the newest metadata segment (rightmost child),
 * sent again while unanswered by ccnsrc_decide.h's rules (overdue once
 * PROBE_AFTER data segments asked for after it have come; once the data
 * has all come, after a few of its round trips), until PROBE_ATTEMPTS.
 * An answer that says the stream is live may have come from a cache that
 * holds an older segment than the sender has made since (a viewer before
 * fetched it): the probe then asks once for a segment after it, and
 * hands over that one, or, when none comes within PROBE_MS, the newest
 * segment asked for again without that condition.
 * No GStreamer types: everything runs from the client's loop. */
#ifndef CCNGST_STREAMPROBE_H
#define CCNGST_STREAMPROBE_H

#include <ccnx/client.h>
#include <ccnx/fetch.h>
#include <ccnx/name.h>
#include <ccnx/verifier.h>

#include <stdint.h>

struct ccngst_probe {
    /* set by the caller */
    struct ccnx_client *client;
    struct ccnx_verifier *verifier;
    const struct ccnx_name *meta_name;
    const struct ccnx_fetch *const *data; /* the data fetch beside it (may hold NULL) */
    /* An answer: result 0 with the object, or a refusal (verification...).
     * Called at most once, and never after `unanswered`. */
    ccnx_fetch_object_fn answered;
    /* Every attempt went unanswered: the stream has no metadata. */
    void (*unanswered)(void *arg);
    void *arg;

    /* the probe's own */
    int probing, attempts, window_ms;
    int newer;     /* 1 while asking for a segment after a live answer, 2 after */
    uint64_t mark; /* data Interests sent when the attempt was */
};

/* Sends the first attempt. 0, or a CCNX_E_* code (nothing is sent). */
int ccngst_probe_start(struct ccngst_probe *p);
/* Data came while the probe is out: enough of it asked for after the
 * attempt means its Interest or answer was lost (call from on_data). */
void ccngst_probe_progress(struct ccngst_probe *p);
/* All the data came while the probe is out (call from on_done). */
void ccngst_probe_data_ended(struct ccngst_probe *p);

#endif
