/* ccnx_fetch_run: a fetch (fetch.c) driven by running the client's loop
 * until it ends, for programs that do nothing else meanwhile. */
#include <ccnx/error.h>
#include <ccnx/fetch.h>

struct run_state {
    const struct ccnx_fetch_params *user;
    int done;
    int rc;
    struct ccnx_buf *err;
};

static void run_data(void *arg, uint64_t seg, const uint8_t *p, size_t n)
{
    struct run_state *s = arg;
    if (s->user->on_data != NULL) {
        s->user->on_data(s->user->arg, seg, p, n);
    }
}

static void run_object(void *arg, uint64_t seg, const uint8_t *obj, size_t len)
{
    struct run_state *s = arg;
    s->user->on_object(s->user->arg, seg, obj, len);
}

static void run_done(void *arg, int result, const char *error)
{
    struct run_state *s = arg;
    s->done = 1;
    s->rc = result;
    if (s->err != NULL) {
        ccnx_buf_reset(s->err);
        ccnx_buf_append_str(s->err, error);
    }
    if (s->user->on_done != NULL) {
        s->user->on_done(s->user->arg, result, error);
    }
}

int ccnx_fetch_run(struct ccnx_client *c, const struct ccnx_fetch_params *p,
                   struct ccnx_fetch_stats *stats, struct ccnx_buf *err)
{
    struct run_state s = {p, 0, 0, err};
    struct ccnx_fetch_params q = *p;
    q.on_data = run_data;
    q.on_object = p->on_object != NULL ? run_object : NULL;
    q.on_done = run_done;
    q.arg = &s;
    struct ccnx_fetch *f = NULL;
    int rc = ccnx_fetch_start(c, &q, &f);
    if (rc != 0) {
        if (err != NULL) {
            ccnx_buf_reset(err);
            ccnx_buf_printf(err, "cannot start the fetch: %s", ccnx_strerror(rc));
        }
        return rc;
    }
    /* Every Interest in flight has a timer, and the fetch ends once no
     * answer has come for timeout_ms. */
    while (!s.done) {
        ccnx_client_run(c, 100);
    }
    if (stats != NULL) {
        *stats = *ccnx_fetch_stats(f);
    }
    ccnx_fetch_destroy(f);
    return s.rc;
}
