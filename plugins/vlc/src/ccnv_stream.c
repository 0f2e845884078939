/* The stream's thread, its byte queue and the reader's calls
 * (ccnv_stream.h). Discovery and seeking are in ccnv_discover.c. */
#include "ccnv_internal.h"

#include <ccnx/error.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

void ccnv_options_init(struct ccnv_options *o)
{
    o->timeout_ms = 10000;
    o->verify = 1;
    o->mode = CCNV_MODE_AUTO;
    o->join_back_ms = 2000;
}

static void wake(struct ccnv_stream *s)
{
    uint64_t one = 1;
    while (write(s->wake_fd, &one, sizeof one) < 0 && errno == EINTR) {
    }
}

static size_t queued(const struct ccnv_stream *s)
{
    return s->queue.len - s->head;
}

/* ---- On the client's thread ---- */

void ccnv_fail(struct ccnv_stream *s, const char *fmt, ...)
{
    pthread_mutex_lock(&s->lock);
    if (!s->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->error, sizeof s->error, fmt, ap);
        va_end(ap);
        s->failed = 1;
    }
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

static void note_stats(struct ccnv_stream *s)
{
    if (s->data == NULL) {
        return;
    }
    const struct ccnx_fetch_stats *st = ccnx_fetch_stats(s->data);
    s->stats.segments = st->segments;
    s->stats.bytes = st->bytes;
    s->stats.interests = st->interests;
    s->stats.retransmissions = st->retransmissions;
    s->stats.timeouts = st->timeouts;
    s->stats.rtt_ms = st->srtt_ms;
    s->stats.window = st->cwnd;
}

void ccnv_queue_bytes(struct ccnv_stream *s, const uint8_t *p, size_t n)
{
    int pause = 0;
    pthread_mutex_lock(&s->lock);
    if (!s->seeking) {
        if (s->head > 0 && s->head >= s->queue.len / 2) { /* keep the queue compact */
            memmove(s->queue.data, s->queue.data + s->head, queued(s));
            s->queue.len -= s->head;
            s->head = 0;
        }
        if (ccnx_buf_append(&s->queue, p, n) != 0 && !s->failed) {
            s->failed = 1;
            snprintf(s->error, sizeof s->error, "out of memory");
        }
        pause = queued(s) > CCNV_QUEUE_HIGH && !s->queue_paused && s->data != NULL;
        s->queue_paused |= pause;
    }
    pthread_mutex_unlock(&s->lock);
    if (pause) {
        ccnx_fetch_pause(s->data);
    }
}

void ccnv_decided(struct ccnv_stream *s)
{
    pthread_mutex_lock(&s->lock);
    s->decided = 1;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

void ccnv_set_size(struct ccnv_stream *s, uint64_t size)
{
    pthread_mutex_lock(&s->lock);
    s->info.size = size;
    s->info.size_known = 1;
    pthread_mutex_unlock(&s->lock);
}

void ccnv_data_ended(struct ccnv_stream *s)
{
    pthread_mutex_lock(&s->lock);
    s->ended = 1;
    note_stats(s);
    int sized = s->info.size_known;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    if (!sized && !s->info.live) {
        ccnv_set_size(s, s->offset);
    }
}

void ccnv_seek_finished(struct ccnv_stream *s, int result)
{
    pthread_mutex_lock(&s->lock);
    s->queue.len = s->head = 0;
    s->seeking = 0;
    s->seek_result = result;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

void ccnv_on_data(void *arg, uint64_t segment, const uint8_t *p, size_t n)
{
    struct ccnv_stream *s = arg;
    if (segment == 0 && s->block == 0) {
        s->block = n;
        ccnv_size_check(s);
    }
    if (s->deciding) {
        if (ccnx_buf_append(&s->early, p, n) != 0) {
            ccnv_fail(s, "out of memory");
        } else if (s->early.len > CCNV_EARLY_MAX && !s->early_paused) {
            s->early_paused = 1;
            ccnx_fetch_pause(s->data);
        }
        ccngst_probe_progress(&s->probe);
        return;
    }
    /* A seek's bytes to drop may span segments (a ccnsink stream sought
     * past the newest segment its metadata named when it was found). */
    size_t drop = s->skip < n ? (size_t)s->skip : n;
    s->skip -= drop;
    s->offset += n;
    ccnv_queue_bytes(s, p + drop, n - drop);
}

static void on_data_done(void *arg, int result, const char *error)
{
    struct ccnv_stream *s = arg;
    if (result != 0) {
        ccnv_fail(s, "the stream stopped: %s", error);
        return;
    }
    if (s->deciding) {
        ccngst_probe_data_ended(&s->probe);
        return;
    }
    ccnv_data_ended(s);
}

int ccnv_start_data(struct ccnv_stream *s, uint64_t segment, int live)
{
    ccnx_fetch_destroy(s->data);
    s->data = NULL;
    struct ccnx_fetch_params p;
    ccnx_fetch_params_init(&p);
    p.name = &s->versioned;
    p.resolve = 0;
    p.timeout_ms = s->opt.timeout_ms;
    p.start_segment = segment;
    p.follows_live_edge = live; /* few Interests ahead of the newest frame */
    p.verifier = s->verifier;
    p.on_data = ccnv_on_data;
    p.on_done = on_data_done;
    p.arg = s;
    pthread_mutex_lock(&s->lock);
    s->ended = 0;
    s->queue_paused = 0;
    pthread_mutex_unlock(&s->lock);
    int rc = ccnx_fetch_start(s->client, &p, &s->data);
    if (rc != 0) {
        s->data = NULL;
        ccnv_fail(s, "cannot start fetching: %s", ccnx_strerror(rc));
    }
    return rc;
}

/* The bytes a pass of the loop queued go to a waiting reader at once, not
 * one segment at a time: a wake-up per segment cost the reader's thread
 * more than the fetch. The statistics are copied here too, once a pass. */
static void wake_reader(struct ccnv_stream *s)
{
    pthread_mutex_lock(&s->lock);
    note_stats(s);
    if (s->reader_waiting && queued(s) > 0) {
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
}

/* What the reader's thread asked for since the last wake-up: 1 to quit. */
static int take_requests(struct ccnv_stream *s)
{
    uint64_t n;
    while (read(s->wake_fd, &n, sizeof n) < 0 && errno == EINTR) {
    }
    pthread_mutex_lock(&s->lock);
    int quit = s->quit, seek = s->seek_wanted;
    uint64_t pos = s->seek_pos;
    int resume = s->resume_wanted && s->queue_paused;
    s->seek_wanted = 0;
    if (s->resume_wanted) {
        s->resume_wanted = 0;
        s->queue_paused = 0;
    }
    pthread_mutex_unlock(&s->lock);
    if (quit) {
        return 1;
    }
    if (seek) {
        ccnv_seek_start(s, pos);
    } else if (resume && s->data != NULL) {
        ccnx_fetch_resume(s->data);
    }
    return 0;
}

static void *client_thread(void *arg)
{
    struct ccnv_stream *s = arg;
    ccnv_discover(s);
    for (;;) {
        struct pollfd p[2] = {{s->wake_fd, POLLIN, 0}, {-1, 0, 0}};
        int fd = ccnx_client_fd(s->client);
        if (fd >= 0) {
            p[1] = (struct pollfd){fd, ccnx_client_poll_events(s->client), 0};
        }
        if (poll(p, fd >= 0 ? 2 : 1, ccnx_client_timeout_ms(s->client)) < 0 && errno != EINTR) {
            ccnv_fail(s, "poll failed: %s", strerror(errno));
            break;
        }
        if ((p[0].revents & POLLIN) && take_requests(s)) {
            break;
        }
        ccnx_client_process(s->client);
        wake_reader(s);
    }
    ccnx_fetch_destroy(s->data);
    s->data = NULL;
    if (s->resolve != NULL) {
        ccnx_resolve_cancel(s->resolve);
    }
    ccnx_verifier_destroy(s->verifier);
    ccnx_client_destroy(s->client);
    s->client = NULL;
    return NULL;
}

/* ---- The reader's calls ---- */

static int start(struct ccnv_stream *s, const char *uri, char *err, size_t room)
{
    if (ccnx_uri_parse_str(&s->location, uri) != 0 || s->location.count == 0) {
        snprintf(err, room, "\"%s\" is not a ccnx: URI with at least one component", uri);
        return CCNX_E_URI;
    }
    int rc = ccnx_client_open(&s->client);
    if (rc != 0) {
        snprintf(err, room, "Cannot reach ccnd: %s",
                 s->client != NULL ? ccnx_client_error(s->client) : "out of memory");
        ccnx_client_destroy(s->client);
        s->client = NULL;
        return rc;
    }
    s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (s->wake_fd < 0 || pthread_create(&s->thread, NULL, client_thread, s) != 0) {
        snprintf(err, room, "cannot start the stream's thread: %s", strerror(errno));
        ccnx_client_destroy(s->client);
        s->client = NULL;
        return CCNX_E_IO;
    }
    return 0;
}

static void release(struct ccnv_stream *s)
{
    ccnx_name_free(&s->location);
    ccnx_name_free(&s->versioned);
    ccnx_name_free(&s->meta_name);
    ccnx_buf_free(&s->early);
    ccnx_buf_free(&s->queue);
    if (s->wake_fd >= 0) {
        close(s->wake_fd);
    }
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

int ccnv_stream_start(const char *uri, const struct ccnv_options *o, struct ccnv_stream **out,
                      char *err, size_t room)
{
    *out = NULL;
    struct ccnv_stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, room, "out of memory");
        return CCNX_E_NOMEM;
    }
    s->opt = *o;
    s->wake_fd = -1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    ccnx_name_init(&s->location);
    ccnx_name_init(&s->versioned);
    ccnx_name_init(&s->meta_name);
    int rc = start(s, uri, err, room);
    if (rc != 0) {
        release(s);
        return rc;
    }
    *out = s;
    return 0;
}

int ccnv_stream_wait_ready(struct ccnv_stream *s, char *err, size_t room)
{
    pthread_mutex_lock(&s->lock);
    while ((!s->decided || s->size_pending) && !s->failed && !s->interrupted) {
        pthread_cond_wait(&s->cond, &s->lock);
    }
    int rc = s->failed ? CCNX_E_NOTFOUND : s->decided && !s->size_pending ? 0 : CCNV_E_INTERRUPTED;
    snprintf(err, room, "%s", s->failed ? s->error : rc != 0 ? "interrupted" : "");
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void ccnv_stream_close(struct ccnv_stream *s)
{
    if (s == NULL) {
        return;
    }
    pthread_mutex_lock(&s->lock);
    s->quit = 1;
    pthread_mutex_unlock(&s->lock);
    wake(s);
    pthread_join(s->thread, NULL);
    release(s);
}

ssize_t ccnv_stream_read(struct ccnv_stream *s, void *buf, size_t n)
{
    pthread_mutex_lock(&s->lock);
    while (queued(s) == 0 && !s->ended && !s->failed && !s->interrupted) {
        s->reader_waiting = 1;
        pthread_cond_wait(&s->cond, &s->lock);
        s->reader_waiting = 0;
    }
    ssize_t got = -1;
    if (queued(s) > 0) {
        size_t k = queued(s) < n ? queued(s) : n;
        memcpy(buf, s->queue.data + s->head, k);
        s->head += k;
        got = (ssize_t)k;
    } else if (s->ended && !s->failed) {
        got = 0;
    }
    int resume = s->queue_paused && !s->resume_wanted && queued(s) < CCNV_QUEUE_LOW;
    s->resume_wanted |= resume;
    pthread_mutex_unlock(&s->lock);
    if (resume) {
        wake(s);
    }
    return got;
}

int ccnv_stream_seek(struct ccnv_stream *s, uint64_t pos)
{
    pthread_mutex_lock(&s->lock);
    if (s->info.live) {
        pthread_mutex_unlock(&s->lock);
        return CCNX_E_UNSUPPORTED;
    }
    s->queue.len = s->head = 0;
    s->seek_wanted = 1;
    s->seeking = 1;
    s->seek_pos = pos;
    pthread_mutex_unlock(&s->lock);
    wake(s);
    pthread_mutex_lock(&s->lock);
    while (s->seeking && !s->failed && !s->interrupted) {
        pthread_cond_wait(&s->cond, &s->lock);
    }
    int rc = s->failed ? CCNX_E_IO : s->seeking ? CCNV_E_INTERRUPTED : s->seek_result;
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void ccnv_stream_interrupt(struct ccnv_stream *s)
{
    pthread_mutex_lock(&s->lock);
    s->interrupted = 1;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

void ccnv_stream_uninterrupt(struct ccnv_stream *s)
{
    pthread_mutex_lock(&s->lock);
    s->interrupted = 0;
    pthread_mutex_unlock(&s->lock);
}

int ccnv_stream_interrupted(struct ccnv_stream *s)
{
    pthread_mutex_lock(&s->lock);
    int i = s->interrupted;
    pthread_mutex_unlock(&s->lock);
    return i;
}

void ccnv_stream_info(struct ccnv_stream *s, struct ccnv_info *out)
{
    pthread_mutex_lock(&s->lock);
    *out = s->info;
    pthread_mutex_unlock(&s->lock);
}

const char *ccnv_stream_error(struct ccnv_stream *s)
{
    return s->error;
}

void ccnv_stream_stats(struct ccnv_stream *s, struct ccnv_stats *out)
{
    pthread_mutex_lock(&s->lock);
    *out = s->stats;
    pthread_mutex_unlock(&s->lock);
}
