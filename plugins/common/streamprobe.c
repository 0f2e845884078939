/* The metadata probe (streamprobe.h). */
#include "streamprobe.h"

#include "ccnsrc_decide.h"
#include "streammeta.h"

#include <ccnx/buf.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>

#include <stdlib.h>

static const struct ccnx_fetch *data_fetch(const struct ccngst_probe *p)
{
    return p->data != NULL ? *p->data : NULL;
}

static void unanswered(struct ccngst_probe *p);

static int send_attempt(struct ccngst_probe *p);
static int ask_newer(struct ccngst_probe *p, uint64_t segment);

/* The segment a live stream's metadata answer describes, or -1 when the
 * answer is not of a live stream (or does not parse: the caller says so). */
static int64_t live_segment(const uint8_t *obj, const struct ccnx_content_parsed *pc)
{
    struct ccngst_meta *m = malloc(sizeof *m);
    int64_t segment = -1;
    if (m != NULL &&
        ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) == 0 &&
        m->h.live && m->h.segment < INT64_MAX) {
        segment = (int64_t)m->h.segment;
    }
    free(m);
    return segment;
}

static void attempt_done(void *arg, int result, const uint8_t *obj, size_t len,
                         const struct ccnx_content_parsed *pc, const char *error)
{
    struct ccngst_probe *p = arg;
    if (!p->probing || p->newer == 1) { /* decided already, or asking for a newer one */
        return;
    }
    if (result == CCNX_E_NOTFOUND) {
        unanswered(p);
        return;
    }
    int64_t live = result == 0 && p->newer == 0 ? live_segment(obj, pc) : -1;
    if (live >= 0 && ask_newer(p, (uint64_t)live) == 0) {
        return;
    }
    p->probing = 0;
    p->answered(p->arg, result, obj, len, pc, error);
}

/* The answer to the question for a segment after a live one: that newer
 * one, or, when none came, the newest asked for again (no second check). */
static void newer_done(void *arg, int result, const uint8_t *obj, size_t len,
                       const struct ccnx_content_parsed *pc, const char *error)
{
    struct ccngst_probe *p = arg;
    if (!p->probing) {
        return;
    }
    p->newer = 2;
    if (result == CCNX_E_NOTFOUND) {
        if (send_attempt(p) != 0) {
            p->probing = 0;
            p->unanswered(p->arg);
        }
        return;
    }
    p->probing = 0;
    p->answered(p->arg, result, obj, len, pc, error);
}

/* The newest metadata segment (rightmost child), with `ex` (may be none). */
static int express(struct ccngst_probe *p, const struct ccnx_exclude_item *ex, size_t ex_count,
                   ccnx_fetch_object_fn fn)
{
    struct ccnx_buf interest = CCNX_BUF_INIT;
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = p->meta_name->enc.data;
    ip.name_len = p->meta_name->enc.len;
    ip.child_selector = 1;
    ip.lifetime_units = (int64_t)PROBE_MS * 4096 / 1000;
    ip.exclude = ex_count > 0 ? ex : NULL;
    ip.exclude_count = ex_count;
    int rc = ccnx_interest_build(&interest, &ip);
    rc = rc == 0 ? ccnx_fetch_object_start(p->client, p->verifier, interest.data, interest.len,
                                           PROBE_MS, fn, p)
                 : rc;
    ccnx_buf_free(&interest);
    return rc;
}

/* A segment after `segment`: everything up to it excluded. */
static int ask_newer(struct ccngst_probe *p, uint64_t segment)
{
    uint8_t comp[CCNX_NUMERIC_MAX_LEN];
    int n = ccnx_naming_segment_build(segment, comp);
    if (n <= 0) {
        return CCNX_E_VALUE;
    }
    const struct ccnx_exclude_item ex[2] = {{CCNX_EXCLUDE_ANY, NULL, 0},
                                            {CCNX_EXCLUDE_COMPONENT, comp, (size_t)n}};
    int rc = express(p, ex, 2, newer_done);
    p->newer = rc == 0 ? 1 : 2;
    return rc;
}

/* One attempt. After the first it excludes a random 32-byte component (no
 * segment number is that long): it matches the same segments, but a
 * forwarder still holding the first attempt's entry cannot absorb it. */
static int send_attempt(struct ccngst_probe *p)
{
    uint8_t nonce[32];
    struct ccnx_exclude_item ex = {CCNX_EXCLUDE_COMPONENT, nonce, sizeof nonce};
    if (p->attempts > 0) {
        arc4random_buf(nonce, sizeof nonce);
    }
    int rc = express(p, &ex, p->attempts > 0 ? 1 : 0, attempt_done);
    p->attempts++;
    const struct ccnx_fetch *d = data_fetch(p);
    p->mark = d != NULL ? ccnx_fetch_stats(d)->interests : 0;
    return rc;
}

/* No answer yet: ask again, and after PROBE_ATTEMPTS give up. */
static void unanswered(struct ccngst_probe *p)
{
    if (!p->probing || p->newer == 1) { /* the question for a newer one has its own time */
        return;
    }
    if (ccnsrc_probe_may_retry(p->attempts) && send_attempt(p) == 0) {
        return;
    }
    p->probing = 0;
    p->unanswered(p->arg);
}

int ccngst_probe_start(struct ccngst_probe *p)
{
    p->attempts = 0;
    p->newer = 0;
    int rc = send_attempt(p);
    p->probing = rc == 0;
    return rc;
}

void ccngst_probe_progress(struct ccngst_probe *p)
{
    const struct ccnx_fetch *d = data_fetch(p);
    if (p->probing && d != NULL && ccnsrc_probe_overdue(p->mark, ccnx_fetch_stats(d)->segments)) {
        unanswered(p);
    }
}

static void window_over(void *arg)
{
    struct ccngst_probe *p = arg;
    if (!p->probing) {
        return;
    }
    unanswered(p);
    if (p->probing) {
        ccnx_client_schedule(p->client, p->window_ms, window_over, p, NULL);
    }
}

void ccngst_probe_data_ended(struct ccngst_probe *p)
{
    const struct ccnx_fetch *d = data_fetch(p);
    if (!p->probing || d == NULL) {
        return;
    }
    p->window_ms = ccnsrc_probe_window_ms(ccnx_fetch_stats(d)->srtt_ms);
    ccnx_client_schedule(p->client, p->window_ms, window_over, p, NULL);
}
