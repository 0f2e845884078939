/* Storing what a start-write asked for: one pipelined fetch per prefix
 * (<ccnx/fetch.h>, verification on), whose whole objects go into the
 * store in batches. A batch is committed when it holds BATCH_OBJECTS
 * objects, COMMIT_MS after its first object, and when a fetch ends; an
 * object counts as stored only once its batch is committed. Fetches are
 * destroyed from a timer, never from their own callbacks. */
#include "ccnr.h"

#include <ccnx/error.h>
#include <ccnx/uri.h>
#include <ccnx/verifier.h>
#include <ccnx/fetch.h>

#include <stdlib.h>
#include <string.h>

/* Each commit syncs twice: 256 objects a batch gave about 70 MB/s of
 * ingest, 1024 about 110 (docs/benchmarks.md, "Repository end to end"). */
#define BATCH_OBJECTS 1024
#define COMMIT_MS     200

struct ccnr_write {
    struct ccnr_write *next;
    struct ccnr *r;
    struct ccnx_name prefix;
    struct ccnx_buf uri; /* the prefix for log lines */
    struct ccnx_fetch *f;
    uint64_t pending;    /* added to the open batch */
    uint64_t stored;     /* committed */
    uint64_t duplicates; /* already held */
    int finished;        /* ended or stopped: waiting to be destroyed */
};

static void reap(void *arg)
{
    struct ccnr *r = arg;
    r->reap_timer = 0;
    struct ccnr_write **pp = &r->writes;
    while (*pp != NULL) {
        struct ccnr_write *w = *pp;
        if (!w->finished) {
            pp = &w->next;
            continue;
        }
        *pp = w->next;
        ccnx_fetch_destroy(w->f);
        ccnx_name_free(&w->prefix);
        ccnx_buf_free(&w->uri);
        free(w);
    }
}

static void schedule_reap(struct ccnr *r)
{
    if (r->reap_timer == 0 && ccnx_client_schedule(r->c, 0, reap, r, &r->reap_timer) != 0) {
        r->reap_timer = 0;
    }
}

/* Ends a fetch early; what was committed stays. */
static void stop_write(struct ccnr_write *w, enum ccnr_level level, const char *why)
{
    if (w->finished) {
        return;
    }
    w->finished = 1;
    if (w->f != NULL) {
        ccnx_fetch_pause(w->f);
    }
    ccnr_log(level, "stopped storing %s: %s; %llu objects stored", ccnx_buf_cstr(&w->uri), why,
             (unsigned long long)w->stored);
    schedule_reap(w->r);
}

/* A full store (its bound or its disk) refuses start-writes for a while,
 * so writers hear of it at once instead of timing out. */
static void note_full(struct ccnr *r, int rc)
{
    if (rc == CCNR_STORE_E_FULL || rc == CCNR_STORE_E_DISK) {
        r->full_rc = rc;
        r->full_ms = ccnx_client_now_ms();
    }
}

const char *ccnr_write_refusal(const struct ccnr *r)
{
    if (r->full_rc == 0 || ccnx_client_now_ms() - r->full_ms >= CCNR_FULL_REFUSE_MS) {
        return NULL;
    }
    return ccnr_store_strerror(r->full_rc);
}

/* The open batch is gone (abort or failed commit): every fetch that had
 * objects in it stops, since those segments will not be asked for again. */
static void lose_batch(struct ccnr *r, int rc)
{
    const char *why = ccnr_store_strerror(rc);
    note_full(r, rc);
    r->batch_open = 0;
    r->batch_objects = 0;
    for (struct ccnr_write *w = r->writes; w != NULL; w = w->next) {
        if (w->pending > 0) {
            r->refused += w->pending;
            w->pending = 0;
            stop_write(w, CCNR_ERROR, why);
        }
    }
}

int ccnr_write_commit(struct ccnr *r)
{
    if (r->commit_timer != 0) {
        ccnx_client_unschedule(r->c, r->commit_timer);
        r->commit_timer = 0;
    }
    if (!r->batch_open) {
        return 0;
    }
    int rc = ccnr_store_commit(r->store);
    if (rc != 0) {
        lose_batch(r, rc);
        return rc;
    }
    r->batch_open = 0;
    r->batch_objects = 0;
    for (struct ccnr_write *w = r->writes; w != NULL; w = w->next) {
        if (w->pending > 0) {
            /* durable from here on: a crash cannot take these back */
            w->stored += w->pending;
            w->pending = 0;
            ccnr_log(CCNR_FINE, "committed %s: %llu objects stored", ccnx_buf_cstr(&w->uri),
                     (unsigned long long)w->stored);
        }
    }
    return 0;
}

static void commit_timer(void *arg)
{
    struct ccnr *r = arg;
    r->commit_timer = 0;
    ccnr_write_commit(r);
}

/* Commits when the batch is full, else makes sure a commit is due. */
static void batch_grew(struct ccnr *r)
{
    if (r->batch_objects >= BATCH_OBJECTS) {
        ccnr_write_commit(r);
    } else if (r->commit_timer == 0 &&
               ccnx_client_schedule(r->c, COMMIT_MS, commit_timer, r, &r->commit_timer) != 0) {
        r->commit_timer = 0;
        ccnr_write_commit(r);
    }
}

int ccnr_write_store(struct ccnr *r, const uint8_t *obj, size_t len)
{
    int rc = r->batch_open ? 0 : ccnr_store_begin(r->store);
    if (rc != 0) {
        note_full(r, rc);
        return rc;
    }
    r->batch_open = 1;
    rc = ccnr_store_add(r->store, obj, len);
    if (rc == CCNR_STORE_ADDED) {
        r->batch_objects++;
        ccnr_sync_stored(r, obj, len);
    } else if (rc != CCNR_STORE_DUPLICATE && rc != CCNR_STORE_E_NAME && rc != CCNX_E_INVAL) {
        ccnr_store_abort(r->store);
        r->refused++;
        lose_batch(r, rc);
        return rc;
    }
    if (r->batch_open) {
        batch_grew(r);
    }
    return rc;
}

static void add_object(struct ccnr_write *w, uint64_t seg, const uint8_t *obj, size_t len)
{
    struct ccnr *r = w->r;
    int rc = ccnr_write_store(r, obj, len);
    if (rc == CCNR_STORE_ADDED) {
        w->pending++;
    } else if (rc == CCNR_STORE_DUPLICATE) {
        w->duplicates++;
    } else if (rc == CCNR_STORE_E_NAME || rc == CCNX_E_INVAL) {
        r->refused++;
        ccnr_log(CCNR_WARNING, "refused segment %llu of %s: %s", (unsigned long long)seg,
                 ccnx_buf_cstr(&w->uri),
                 rc == CCNR_STORE_E_NAME ? "its name is too long to be stored" : "malformed");
    } else {
        stop_write(w, CCNR_ERROR, ccnr_store_strerror(rc));
    }
}

static void on_object(void *arg, uint64_t seg, const uint8_t *obj, size_t len)
{
    struct ccnr_write *w = arg;
    if (!w->finished) {
        add_object(w, seg, obj, len);
    }
}

static void on_done(void *arg, int result, const char *error)
{
    struct ccnr_write *w = arg;
    struct ccnr *r = w->r;
    int crc = ccnr_write_commit(r);
    if (w->finished) {
        return; /* a failed commit already stopped it */
    }
    if (crc != 0) {
        stop_write(w, CCNR_ERROR, ccnr_store_strerror(crc));
        return;
    }
    if (result == 0) {
        w->finished = 1;
        ccnr_log(CCNR_INFO, "stored %s: %llu objects, %llu already held", ccnx_buf_cstr(&w->uri),
                 (unsigned long long)w->stored, (unsigned long long)w->duplicates);
        schedule_reap(r);
        ccnr_policy_written(r, &w->prefix);
        return;
    }
    /* the fetch stops at the first object that does not verify */
    if (ccnx_verify_refused(result)) {
        r->refused++;
    }
    stop_write(w, CCNR_WARNING, error);
}

static struct ccnr_write *find_running(struct ccnr *r, const struct ccnx_name *prefix)
{
    for (struct ccnr_write *w = r->writes; w != NULL; w = w->next) {
        if (!w->finished && ccnx_name_compare(&w->prefix, prefix) == 0) {
            return w;
        }
    }
    return NULL;
}

static int start_fetch(struct ccnr *r, struct ccnr_write *w, uint64_t start_segment)
{
    struct ccnx_fetch_params p;
    ccnx_fetch_params_init(&p);
    p.name = &w->prefix;
    p.resolve = 0; /* the start-write names the version */
    p.start_segment = start_segment;
    p.any_type = 1; /* a GONE (a deleted slice, a withdrawn version) is kept too */
    p.verifier = r->set.verify ? r->verifier : NULL; /* CCNR_VERIFY=0: stored unchecked */
    p.on_object = on_object;
    p.on_done = on_done;
    p.arg = w;
    return ccnx_fetch_start(r->c, &p, &w->f);
}

int ccnr_write_start(struct ccnr *r, const struct ccnx_name *prefix, uint64_t start_segment)
{
    struct ccnx_buf u = CCNX_BUF_INIT;
    if (find_running(r, prefix) != NULL) {
        ccnx_uri_append_name(&u, prefix);
        ccnr_log(CCNR_INFO, "%s is already being stored", ccnx_buf_cstr(&u));
        ccnx_buf_free(&u);
        return 0;
    }
    struct ccnr_write *w = calloc(1, sizeof *w);
    if (w == NULL) {
        ccnr_log(CCNR_ERROR, "out of memory starting a fetch");
        return CCNX_E_NOMEM;
    }
    w->r = r;
    r->start_writes++;
    ccnx_name_init(&w->prefix);
    int rc = ccnx_name_copy(&w->prefix, prefix);
    rc = rc == 0 ? ccnx_uri_append_name(&w->uri, prefix) : rc;
    w->next = r->writes;
    r->writes = w;
    rc = rc == 0 ? start_fetch(r, w, start_segment) : rc;
    if (rc != 0) {
        ccnr_log(CCNR_ERROR, "cannot start fetching %s: %s", ccnx_buf_cstr(&w->uri),
                 ccnx_strerror(rc));
        w->finished = 1;
        schedule_reap(r);
    }
    ccnx_buf_free(&u);
    return rc;
}

int ccnr_write_has_room(const struct ccnr *r)
{
    unsigned running = 0;
    for (const struct ccnr_write *w = r->writes; w != NULL; w = w->next) {
        running += !w->finished;
    }
    return running < CCNR_MAX_WRITES;
}

void ccnr_write_stop_all(struct ccnr *r)
{
    ccnr_write_commit(r);
    for (struct ccnr_write *w = r->writes; w != NULL; w = w->next) {
        if (!w->finished) {
            ccnr_log(CCNR_INFO, "stopped storing %s at shutdown; %llu objects stored",
                     ccnx_buf_cstr(&w->uri), (unsigned long long)w->stored);
        }
        w->finished = 1;
    }
    if (r->reap_timer != 0) {
        ccnx_client_unschedule(r->c, r->reap_timer);
    }
    reap(r);
}

void ccnr_write_foreach(const struct ccnr *r,
                        void (*fn)(void *arg, const char *uri, uint64_t stored), void *arg)
{
    for (struct ccnr_write *w = r->writes; w != NULL; w = w->next) {
        if (!w->finished) {
            fn(arg, ccnx_buf_cstr(&w->uri), w->stored);
        }
    }
}
