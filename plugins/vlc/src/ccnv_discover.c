/* Finding the stream and deciding how to read it, the size, and seeks
 * (ccnv_internal.h), on the client's thread. The metadata probe is
 * ccnsrc's (streamprobe.h): one Interest for the newest metadata segment
 * while the data is already fetched from segment 0, counted as unanswered
 * once eight data segments asked for after it have come. */
#include "ccnv_caps.h"
#include "ccnv_internal.h"

#include "ccnsrc_decide.h"
#include "streammeta.h"
#include "streamprobe.h"

#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEK_PROBE_MS 2000
/* The keyframe before the newest: its metadata is asked for this long. */
#define JOIN_BACK_WAIT_MS 1000
/* Size probes at most: each answer below the last segment raises the floor. */
#define SIZE_ATTEMPTS 3

static const char *name_uri(const struct ccnx_name *name, struct ccnx_buf *u)
{
    ccnx_buf_reset(u);
    ccnx_uri_append_name(u, name);
    return ccnx_buf_cstr(u);
}

static void note_uri(struct ccnv_stream *s)
{
    struct ccnx_buf u = CCNX_BUF_INIT;
    pthread_mutex_lock(&s->lock);
    snprintf(s->info.uri, sizeof s->info.uri, "%s", name_uri(&s->versioned, &u));
    pthread_mutex_unlock(&s->lock);
    ccnx_buf_free(&u);
}

/* Fetches one object named `name` + segment, with a lifetime of ms. */
static int fetch_segment_object(struct ccnv_stream *s, const struct ccnx_name *name,
                                uint64_t segment, int ms, ccnx_fetch_object_fn fn)
{
    struct ccnx_buf interest = CCNX_BUF_INIT;
    int rc = ccnx_fetch_segment_interest(&interest, name, segment, 0, -1, 0);
    rc = rc == 0 ? ccnx_fetch_object_start(s->client, s->verifier, interest.data, interest.len, ms,
                                           fn, s)
                 : rc;
    ccnx_buf_free(&interest);
    return rc;
}

/* ---- The size ---- */

static void last_header_arrived(void *arg, int result, const uint8_t *obj, size_t len,
                                const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    (void)error;
    struct ccnv_stream *s = arg;
    struct ccngst_meta *m = malloc(sizeof *m);
    if (result == 0 && m != NULL &&
        ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) == 0 &&
        m->h.segment == s->last_segment) {
        ccnv_set_size(s, m->h.offset + s->last_len);
    }
    free(m);
    pthread_mutex_lock(&s->lock);
    s->size_pending = 0;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

void ccnv_size_check(struct ccnv_stream *s)
{
    if (!s->last_known || !s->settled || s->info.live || s->info.size_known) {
        return;
    }
    if (s->info.with_meta) { /* the last segment's offset is in its metadata */
        if (!s->last_header_asked) {
            s->last_header_asked = 1;
            pthread_mutex_lock(&s->lock);
            s->size_pending = fetch_segment_object(s, &s->meta_name, s->last_segment, PROBE_MS,
                                                   last_header_arrived) == 0;
            pthread_mutex_unlock(&s->lock);
        }
    } else if (s->last_segment == 0) {
        ccnv_set_size(s, s->last_len);
    } else if (s->block > 0) { /* every segment but the last is full */
        ccnv_set_size(s, s->last_segment * s->block + s->last_len);
    }
}

static void probe_size(struct ccnv_stream *s);

/* The answer to the size probe: the stream's last segment, if it says so.
 * An answer below it (what a cache held: version discovery leaves segment
 * 0 in ccnd's store) raises the probe's floor and it goes out again. */
static void last_arrived(void *arg, int result, const uint8_t *obj, size_t len,
                         const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    (void)error;
    struct ccnv_stream *s = arg;
    uint64_t seg, final;
    if (result != 0 ||
        ccnx_naming_last_is_segment_ccnb(obj + pc->name.off, pc->name.len, &seg) != 1) {
        return;
    }
    if (!pc->has_final_block_id ||
        ccnx_naming_segment_decode(obj + pc->final_block_id.off, pc->final_block_id.len, &final) !=
            0 ||
        seg != final) {
        if (seg >= s->size_floor && s->size_attempts < SIZE_ATTEMPTS) {
            s->size_floor = seg + 1;
            probe_size(s);
        }
        return;
    }
    s->last_segment = seg;
    s->last_len = pc->content_value.len;
    s->last_known = 1;
    ccnv_size_check(s);
}

/* The rightmost segment under the versioned name at or above size_floor:
 * the components below it, the metadata's marker (six bytes from %C1) and
 * everything after it are excluded, so that only segments remain. The
 * first attempt goes out before the data's first Interests: the client
 * hands an arriving object to every pending Interest it matches, and the
 * data's answers then come after the probe's. An answer taken from another
 * Interest is still right when it says it is the final segment. */
static void probe_size(struct ccnv_stream *s)
{
    static const uint8_t from[6] = {0xC1, 0, 0, 0, 0, 0};
    uint8_t below[CCNX_NUMERIC_MAX_LEN];
    struct ccnx_exclude_item ex[4] = {{CCNX_EXCLUDE_ANY, NULL, 0},
                                      {CCNX_EXCLUDE_COMPONENT, below, 0},
                                      {CCNX_EXCLUDE_COMPONENT, from, sizeof from},
                                      {CCNX_EXCLUDE_ANY, NULL, 0}};
    size_t first = 2;
    if (s->size_floor > 0) {
        int n = ccnx_naming_segment_build(s->size_floor - 1, below);
        if (n <= 0) {
            return;
        }
        ex[1].n = (size_t)n;
        first = 0;
    }
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = s->versioned.enc.data;
    ip.name_len = s->versioned.enc.len;
    ip.child_selector = 1;
    ip.exclude = ex + first;
    ip.exclude_count = 4 - first;
    ip.lifetime_units = (int64_t)PROBE_MS * 4096 / 1000;
    struct ccnx_buf interest = CCNX_BUF_INIT;
    if (ccnx_interest_build(&interest, &ip) == 0) {
        ccnx_fetch_object_start(s->client, s->verifier, interest.data, interest.len, PROBE_MS,
                                last_arrived, s);
    }
    ccnx_buf_free(&interest);
    s->size_attempts++;
}

/* ---- Deciding ---- */

/* Reading from the first byte: what the early fetch brought is queued and
 * the fetch goes on (or starts, when nothing was fetched early). */
static void settle_from_start(struct ccnv_stream *s, int with_meta)
{
    pthread_mutex_lock(&s->lock);
    s->info.with_meta = with_meta;
    pthread_mutex_unlock(&s->lock);
    s->settled = 1;
    int was_deciding = s->deciding;
    s->deciding = 0;
    if (!was_deciding && s->data == NULL) {
        if (ccnv_start_data(s, 0, 0) != 0) {
            return;
        }
    }
    s->offset = s->early.len;
    ccnv_queue_bytes(s, s->early.data, s->early.len);
    ccnx_buf_free(&s->early);
    ccnx_buf_init(&s->early);
    if (s->early_paused) {
        s->early_paused = 0;
        ccnx_fetch_resume(s->data);
    }
    if (s->data != NULL && ccnx_fetch_done(s->data)) {
        ccnv_data_ended(s);
    }
    ccnv_size_check(s);
    ccnv_decided(s);
}

/* A metadata segment's caps (when it has them) name the media type. */
static void note_media_type(struct ccnv_stream *s, const struct ccngst_meta *m)
{
    if (m->caps == NULL) {
        return;
    }
    pthread_mutex_lock(&s->lock);
    ccnv_caps_media_type(m->caps, m->caps_len, s->info.content_type, sizeof s->info.content_type);
    pthread_mutex_unlock(&s->lock);
}

/* The metadata segment of the live join point: its caps give the
 * container's stream headers, which go first. */
static void join_header_arrived(void *arg, int result, const uint8_t *obj, size_t len,
                                const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    struct ccnv_stream *s = arg;
    struct ccngst_meta *m = malloc(sizeof *m);
    struct ccnx_buf headers = CCNX_BUF_INIT;
    if (result != 0) {
        ccnv_fail(s, "the stream's metadata was refused: %s", error);
    } else if (m == NULL ||
               ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) != 0) {
        ccnv_fail(s, "the stream's metadata does not parse (segment %llu)",
                  (unsigned long long)s->info.start_segment);
    } else if (m->caps != NULL && ccnv_caps_stream_headers(m->caps, m->caps_len, &headers) != 0) {
        ccnv_fail(s, "the stream's caps carry malformed stream headers");
    } else {
        note_media_type(s, m);
        s->settled = 1;
        s->offset = m->h.offset;
        ccnv_queue_bytes(s, headers.data, headers.len);
        if (ccnv_start_data(s, m->h.segment, 1) == 0) {
            ccnv_decided(s);
        }
    }
    ccnx_buf_free(&headers);
    free(m);
}

static void join_live(struct ccnv_stream *s, uint64_t key_segment)
{
    pthread_mutex_lock(&s->lock);
    s->info.newest_key = s->newest_key;
    s->info.with_meta = 1;
    s->info.live = 1;
    s->info.start_segment = key_segment;
    pthread_mutex_unlock(&s->lock);
    int rc =
        fetch_segment_object(s, &s->meta_name, key_segment, s->opt.timeout_ms, join_header_arrived);
    if (rc != 0) {
        ccnv_fail(s, "cannot ask for the stream's metadata: %s", ccnx_strerror(rc));
    }
}

/* The metadata segment just before the newest keyframe names the keyframe
 * before it. Joining there costs one keyframe interval of delay behind
 * the live edge and buys a first picture at once: VLC's Matroska demuxer
 * shows nothing of a cluster until the next one begins, so a viewer
 * joined at the newest keyframe waits for the next keyframe. Anything
 * unexpected joins at the newest. */
static void previous_key_arrived(void *arg, int result, const uint8_t *obj, size_t len,
                                 const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    (void)error;
    struct ccnv_stream *s = arg;
    uint64_t join = s->newest_key;
    struct ccngst_meta *m = result == 0 ? malloc(sizeof *m) : NULL;
    if (m != NULL &&
        ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) == 0 &&
        m->h.key_segment < s->newest_key && m->h.key_pts >= 0 && s->newest_key_pts >= 0 &&
        s->newest_key_pts - m->h.key_pts <= (int64_t)s->opt.join_back_ms * 1000000) {
        join = m->h.key_segment;
    }
    free(m);
    join_live(s, join);
}

static void settle_live(struct ccnv_stream *s, uint64_t key_segment, int64_t key_pts)
{
    ccnx_fetch_destroy(s->data);
    s->data = NULL;
    s->deciding = 0;
    ccnx_buf_free(&s->early);
    ccnx_buf_init(&s->early);
    s->newest_key = key_segment;
    s->newest_key_pts = key_pts;
    if (s->opt.join_back_ms <= 0 || key_segment == 0 ||
        fetch_segment_object(s, &s->meta_name, key_segment - 1, JOIN_BACK_WAIT_MS,
                             previous_key_arrived) != 0) {
        join_live(s, key_segment);
    }
}

static void probe_answered(void *arg, int result, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    struct ccnv_stream *s = arg;
    if (result != 0) {
        ccnv_fail(s, "the stream's metadata was refused: %s", error);
        return;
    }
    struct ccngst_meta *m = malloc(sizeof *m);
    if (m == NULL ||
        ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) != 0) {
        free(m);
        settle_from_start(s, 0); /* unreadable metadata: plain bytes */
        return;
    }
    struct ccnsrc_plan plan;
    ccnsrc_plan_from_meta(m, (enum ccnsrc_mode)s->opt.mode, &plan);
    s->last_meta = plan.last_segment;
    pthread_mutex_lock(&s->lock);
    s->info.newest_segment = plan.last_segment;
    pthread_mutex_unlock(&s->lock);
    note_media_type(s, m);
    int64_t key_pts = m->h.key_pts;
    free(m);
    if (plan.live) {
        settle_live(s, plan.start_segment, key_pts);
    } else {
        settle_from_start(s, 1);
    }
}

/* Every attempt went unanswered: plain bytes. */
static void probe_unanswered(void *arg)
{
    settle_from_start(arg, 0);
}

static void probe_meta(struct ccnv_stream *s)
{
    note_uri(s);
    if (ccngst_meta_name(&s->versioned, &s->meta_name) != 0) { /* no version: no metadata */
        settle_from_start(s, 0);
        return;
    }
    if (s->opt.mode != CCNV_MODE_LIVE) { /* from the start unless live: fetch meanwhile */
        s->size_floor = 1;               /* version discovery left segment 0 in ccnd's store */
        probe_size(s);
        s->deciding = 1;
        if (ccnv_start_data(s, 0, 0) != 0) {
            return;
        }
    }
    s->probe = (struct ccngst_probe){.client = s->client,
                                     .verifier = s->verifier,
                                     .meta_name = &s->meta_name,
                                     .data = (const struct ccnx_fetch *const *)&s->data,
                                     .answered = probe_answered,
                                     .unanswered = probe_unanswered,
                                     .arg = s};
    int rc = ccngst_probe_start(&s->probe);
    if (rc != 0) {
        ccnv_fail(s, "cannot ask for the stream's metadata: %s", ccnx_strerror(rc));
    }
}

static void resolved(void *arg, int result, const struct ccnx_name *name, const char *error)
{
    struct ccnv_stream *s = arg;
    s->resolve = NULL;
    if (result < 0) {
        struct ccnx_buf u = CCNX_BUF_INIT;
        ccnv_fail(s, "nothing under %s: %s", name_uri(&s->location, &u),
                  error != NULL ? error : "no answer");
        ccnx_buf_free(&u);
        return;
    }
    ccnx_name_copy(&s->versioned, name);
    if (result == 0) { /* unversioned segments right under the name */
        note_uri(s);
        settle_from_start(s, 0);
        return;
    }
    probe_meta(s);
}

void ccnv_discover(struct ccnv_stream *s)
{
    if (ccnx_verifier_create(s->client, &s->verifier) != 0) {
        ccnv_fail(s, "out of memory");
        return;
    }
    ccnx_verifier_set_enabled(s->verifier, s->opt.verify);
    struct ccnx_comp last;
    if (ccnx_name_comp(&s->location, s->location.count - 1, &last) == 0 &&
        ccnx_naming_is_version(last.p, last.n)) {
        ccnx_name_copy(&s->versioned, &s->location);
        probe_meta(s);
        return;
    }
    int rc =
        ccnx_resolve_start(s->client, &s->location, 0, s->opt.timeout_ms, resolved, s, &s->resolve);
    if (rc != 0) {
        ccnv_fail(s, "cannot look for the stream: %s", ccnx_strerror(rc));
    }
}

/* ---- Seeking ---- */

static void restart_at(struct ccnv_stream *s, uint64_t segment, uint64_t segment_offset,
                       uint64_t pos)
{
    s->bisecting = 0;
    s->skip = pos - segment_offset;
    s->offset = segment_offset;
    int rc = ccnv_start_data(s, segment, 0);
    ccnv_seek_finished(s, rc);
}

static void seek_step(struct ccnv_stream *s);

/* A metadata header while bisecting: header i gives data segment i's
 * offset, which grows with i, so the largest i at or before the position
 * is the segment to start from. An answer to another step (of a seek
 * whose reader was interrupted and sought again) is dropped; one for the
 * segment this step asks for is the same header, whoever asked. */
static void seek_header_arrived(void *arg, int result, const uint8_t *obj, size_t len,
                                const struct ccnx_content_parsed *pc, const char *error)
{
    (void)len;
    (void)error;
    struct ccnv_stream *s = arg;
    if (!s->bisecting) {
        return;
    }
    struct ccngst_meta *m = malloc(sizeof *m);
    if (result != 0 || m == NULL ||
        ccngst_meta_parse(obj + pc->content_value.off, pc->content_value.len, m) != 0) {
        free(m);
        s->bisecting = 0;
        ccnv_seek_finished(s, CCNX_E_NOTFOUND);
        return;
    }
    uint64_t mid = m->h.segment, offset = m->h.offset;
    free(m);
    if (mid != s->seek_at) {
        return;
    }
    if (s->seek_lo == s->seek_hi) {
        restart_at(s, mid, offset, s->seek_to);
        return;
    }
    if (offset <= s->seek_to) {
        s->seek_lo = mid;
    } else {
        s->seek_hi = mid - 1;
    }
    seek_step(s);
}

static void seek_step(struct ccnv_stream *s)
{
    s->seek_at =
        s->seek_lo == s->seek_hi ? s->seek_lo : s->seek_lo + (s->seek_hi - s->seek_lo + 1) / 2;
    if (fetch_segment_object(s, &s->meta_name, s->seek_at, SEEK_PROBE_MS, seek_header_arrived) !=
        0) {
        s->bisecting = 0;
        ccnv_seek_finished(s, CCNX_E_NOMEM);
    }
}

void ccnv_seek_start(struct ccnv_stream *s, uint64_t pos)
{
    ccnx_fetch_destroy(s->data);
    s->data = NULL;
    s->skip = 0;
    s->bisecting = 0;
    if (s->info.size_known && pos >= s->info.size) { /* at or past the end */
        s->offset = pos;
        ccnv_seek_finished(s, 0);
        ccnv_data_ended(s);
        return;
    }
    if (!s->info.with_meta) {
        if (s->block == 0) {
            ccnv_seek_finished(s, CCNX_E_UNSUPPORTED);
            return;
        }
        restart_at(s, pos / s->block, pos / s->block * s->block, pos);
        return;
    }
    s->bisecting = 1;
    s->seek_to = pos;
    s->seek_lo = 0;
    s->seek_hi = s->last_known ? s->last_segment : s->last_meta;
    seek_step(s);
}
