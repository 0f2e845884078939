/* Fetching one object with verification, asynchronously or by running the
 * client loop. */
#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/uri.h>
#include <ccnx/fetch.h>

#include <stdlib.h>
#include <string.h>

struct object_fetch {
    struct ccnx_client *c;
    struct ccnx_verifier *v;
    ccnx_fetch_object_fn fn;
    void *arg;
    struct ccnx_buf name; /* the Interest's name as a URI, for messages */
    int timeout_ms;
};

static void object_free(struct object_fetch *o)
{
    ccnx_buf_free(&o->name);
    free(o);
}

static void object_verified(void *arg, int result, const char *error, const uint8_t *obj,
                            size_t len, const struct ccnx_content_parsed *pc)
{
    struct object_fetch *o = arg;
    o->fn(o->arg, result, obj, len, pc, error);
    object_free(o);
}

static void object_arrived(void *arg, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc)
{
    struct object_fetch *o = arg;
    ccnx_verifier_check(o->v, obj, len, pc, object_verified, o);
}

static void object_timeout(void *arg)
{
    struct object_fetch *o = arg;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    if (!ccnx_client_connected(o->c)) {
        ccnx_buf_printf(&msg, "no answer for %s: not connected to ccnd (%s)",
                        ccnx_buf_cstr(&o->name), ccnx_client_where(o->c));
    } else {
        ccnx_buf_printf(&msg, "no answer for %s within %d ms", ccnx_buf_cstr(&o->name),
                        o->timeout_ms);
    }
    const char *text = ccnx_buf_cstr(&msg);
    o->fn(o->arg, CCNX_E_NOTFOUND, NULL, 0, NULL, text != NULL ? text : "timeout");
    ccnx_buf_free(&msg);
    object_free(o);
}

int ccnx_fetch_object_start(struct ccnx_client *c, struct ccnx_verifier *v, const uint8_t *interest,
                            size_t len, int timeout_ms, ccnx_fetch_object_fn fn, void *arg)
{
    struct ccnx_interest_parsed pi;
    int rc = ccnx_interest_parse(interest, len, &pi);
    if (rc != 0) {
        return CCNX_E_VALUE;
    }
    struct object_fetch *o = calloc(1, sizeof *o);
    if (o == NULL) {
        return CCNX_E_NOMEM;
    }
    o->c = c;
    o->v = v;
    o->fn = fn;
    o->arg = arg;
    o->timeout_ms = timeout_ms > 0 ? timeout_ms : (int)(pi.lifetime * 1000 / 4096);
    ccnx_buf_init(&o->name);
    ccnx_uri_append(&o->name, interest + pi.name.off, pi.name.len);
    struct ccnx_express_opts opts = {object_arrived,   object_timeout, o, timeout_ms, 0,
                                     CCNX_REEXPRESS_MS};
    rc = ccnx_buf_status(&o->name);
    if (rc == 0) {
        rc = ccnx_client_express(c, interest, len, &opts, NULL);
    }
    if (rc != 0) {
        object_free(o);
    }
    return rc;
}

struct object_sync {
    int done;
    int rc;
    struct ccnx_buf *obj;
    struct ccnx_buf *err;
};

static void object_sync_done(void *arg, int result, const uint8_t *obj, size_t len,
                             const struct ccnx_content_parsed *pc, const char *error)
{
    (void)pc;
    struct object_sync *s = arg;
    s->done = 1;
    s->rc = result;
    if (obj != NULL && s->obj != NULL) {
        ccnx_buf_reset(s->obj);
        ccnx_buf_append(s->obj, obj, len);
        if (result == 0 && ccnx_buf_status(s->obj) != 0) {
            s->rc = CCNX_E_NOMEM;
        }
    }
    if (result != 0 && s->err != NULL) {
        ccnx_buf_reset(s->err);
        ccnx_buf_append_str(s->err, error);
    }
}

int ccnx_fetch_object(struct ccnx_client *c, struct ccnx_verifier *v, const uint8_t *interest,
                      size_t len, int timeout_ms, struct ccnx_buf *obj, struct ccnx_buf *err)
{
    struct object_sync s = {0, 0, obj, err};
    int rc = ccnx_fetch_object_start(c, v, interest, len, timeout_ms, object_sync_done, &s);
    if (rc != 0) {
        if (err != NULL) {
            ccnx_buf_reset(err);
            ccnx_buf_printf(err, "cannot express the Interest: %s", ccnx_strerror(rc));
        }
        return rc;
    }
    /* Every path ends in a callback: the Interest's timer, then at most the
     * key fetch's own timer, both driven by this loop. */
    while (!s.done) {
        if (ccnx_client_run(c, 100) < 0 && !s.done) {
            ccnx_client_run(c, 10);
        }
    }
    return s.rc;
}
