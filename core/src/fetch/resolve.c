/* Version discovery as the reference's ccn_resolve_version does it: ask
 * for the rightmost child below the prefix among versions, exclude
 * everything up to the best version found, ask again, and stop when a
 * round (with a lifetime of a few round trips) gets no answer. */
#include <ccnx/error.h>
#include <ccnx/resolve.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Below every version in use: %FD 00 FF FF FF FF FF (the reference's bound). */
static const uint8_t low_version[7] = {CCNX_MARKER_VERSION, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
/* Just past any version: %FE 00 00 00 00 00 00. */
static const uint8_t past_versions[7] = {CCNX_MARKER_VERSION + 1, 0, 0, 0, 0, 0, 0};
static const uint8_t unversioned_bound[1] = {0x01};

/* Rounds after the first wait four times the longest round trip seen, and
 * at least this long. Which producers a round reaches is the forwarder's
 * choice: ccnd's default strategy (as the reference's) sends at once to the
 * face that answered best under the prefix and to the others a little
 * later, within a few milliseconds when that face is local, or else within
 * about twice its usual response time; four round trips cover that, and
 * the floor covers a busy machine's scheduling. Until this floor was
 * lowered from 150 ms, finding the version took 150 ms even with one
 * producer on the same host. */
#define MIN_ROUND_MS 50
/* The first round is asked again on a growing schedule while nothing
 * answers: after 100 ms, then each wait twice the one before, until the
 * discovery's time is up. A publisher that starts a moment after its
 * reader (ccnputfile and ccngetfile started together) is found within a
 * few hundred milliseconds, and one lost Interest costs little. Each
 * attempt is a new Interest whose lifetime is its wait, so ccnd forwards
 * it again instead of folding it into the one before. */
#define FIRST_ATTEMPT_MS 100

struct ccnx_resolve {
    struct ccnx_client *c;
    struct ccnx_name prefix;
    struct ccnx_name result;
    int flags;
    int res; /* -1 nothing yet, 0 unversioned content, 1 a version */
    int nacked;
    uint8_t best[CCNX_NUMERIC_MAX_LEN];
    size_t best_len;
    int64_t start_us, prev_us, rtt_max_us; /* prev_us: the latest send */
    int timeout_ms;
    int attempt_ms; /* the first round's current wait */
    uint64_t pending_id, timer_id;
    ccnx_resolve_fn fn;
    void *arg;
    struct ccnx_buf msg;
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int ccnx_resolve_interest(struct ccnx_buf *out, const struct ccnx_name *prefix,
                          const uint8_t *lowest, size_t lowest_len, int allow_unversioned,
                          int flags, uint64_t lifetime)
{
    struct ccnx_exclude_item ex[5];
    size_t n = 0;
    if (allow_unversioned) {
        ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, unversioned_bound, 1};
    }
    ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
    ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, lowest, lowest_len};
    ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, past_versions, 7};
    ex[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = prefix->enc.data;
    ip.name_len = prefix->enc.len;
    ip.exclude = ex;
    ip.exclude_count = n;
    ip.child_selector = 1;
    ip.answer_origin_kind = CCNX_AOK_CS; /* the reference's "answer passive" */
    ip.scope = (flags & CCNX_RESOLVE_SCOPE2)   ? 2
               : (flags & CCNX_RESOLVE_SCOPE1) ? 1
               : (flags & CCNX_RESOLVE_SCOPE0) ? 0
                                               : -1;
    ip.lifetime_units = lifetime > 0 ? (int64_t)lifetime : -1;
    return ccnx_interest_build(out, &ip);
}

static uint64_t lifetime_for(int ms)
{
    return (uint64_t)ms * 4096 / 1000 * 7 / 8;
}

static void resolve_free(struct ccnx_resolve *r)
{
    ccnx_name_free(&r->prefix);
    ccnx_name_free(&r->result);
    ccnx_buf_free(&r->msg);
    free(r);
}

static void resolve_finish(struct ccnx_resolve *r)
{
    const char *error = "";
    struct ccnx_buf why = CCNX_BUF_INIT;
    if (r->res < 0) {
        ccnx_buf_append_str(&why, "no content found under ");
        ccnx_uri_append_name(&why, &r->prefix);
        if (r->nacked) {
            ccnx_buf_append_str(&why, ": the publisher answered NACK (it has no such content)");
        } else if (!ccnx_client_connected(r->c)) {
            ccnx_buf_printf(&why, ": not connected to ccnd (%s)", ccnx_client_where(r->c));
        } else {
            ccnx_buf_printf(&why, " within %d ms", r->timeout_ms);
        }
        error = ccnx_buf_cstr(&why) != NULL ? (const char *)why.data : "no content found";
    }
    r->fn(r->arg, r->res < 0 ? CCNX_E_NOTFOUND : r->res, r->res == 1 ? &r->result : &r->prefix,
          error);
    ccnx_buf_free(&why);
    resolve_free(r);
}

static void round_content(void *arg, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc);
static void round_timeout(void *arg);

static int send_round(struct ccnx_resolve *r, int wait_ms)
{
    const uint8_t *low = r->best_len > 0 ? r->best : low_version;
    size_t low_len = r->best_len > 0 ? r->best_len : sizeof low_version;
    ccnx_buf_reset(&r->msg);
    int rc = ccnx_resolve_interest(&r->msg, &r->prefix, low, low_len, r->res < 0, r->flags,
                                   lifetime_for(wait_ms));
    struct ccnx_express_opts o = {round_content, round_timeout, r, wait_ms, 0, 0};
    if (rc == 0) {
        rc = ccnx_client_express(r->c, r->msg.data, r->msg.len, &o, &r->pending_id);
    }
    /* A round trip counts from the latest send: one from the discovery's
     * start would count the waits of a first round sent again, and a
     * producer that started late would stretch every later round. */
    r->prev_us = now_us();
    return rc;
}

/* Sends the first round again with twice the wait, within the time left. */
static int first_round_again(struct ccnx_resolve *r)
{
    int left_ms = r->timeout_ms - (int)((now_us() - r->start_us) / 1000);
    if (r->res >= 0 || left_ms <= 0) {
        return -1;
    }
    r->attempt_ms *= 2;
    return send_round(r, r->attempt_ms < left_ms ? r->attempt_ms : left_ms);
}

static void round_timeout(void *arg)
{
    struct ccnx_resolve *r = arg;
    r->pending_id = 0;
    if (first_round_again(r) != 0) {
        resolve_finish(r);
    }
}

/* The child right after the prefix decides: a version raises the bar, a
 * first segment means unversioned content, anything else ends the search. */
static void round_content(void *arg, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct ccnx_resolve *r = arg;
    r->pending_id = 0;
    struct ccnx_name_iter it;
    struct ccnx_comp comp = {NULL, 0};
    if (pc->type == CCNX_TYPE_NACK && r->res < 0) {
        r->nacked = 1;
    }
    int found = pc->type != CCNX_TYPE_NACK &&
                ccnx_name_iter_init(&it, obj + pc->name.off, pc->name.len) == 0;
    for (size_t i = 0; found && i <= r->prefix.count; i++) {
        found = ccnx_name_iter_next(&it, &comp) == 1;
    }
    if (found && ccnx_naming_is_version(comp.p, comp.n) && comp.n <= sizeof r->best) {
        memcpy(r->best, comp.p, comp.n);
        r->best_len = comp.n;
        r->res = 1;
        found = ccnx_name_copy(&r->result, &r->prefix) == 0 &&
                ccnx_name_append(&r->result, comp.p, comp.n) == 0;
    } else if (found && r->res < 0 && comp.n == 1 && comp.p[0] == CCNX_MARKER_SEQNUM) {
        r->res = 0;
    } else {
        found = 0;
    }
    int64_t now = now_us();
    if (now - r->prev_us > r->rtt_max_us) {
        r->rtt_max_us = now - r->prev_us;
    }
    int left_ms = r->timeout_ms - (int)((now - r->start_us) / 1000);
    int wait_ms = (int)(r->rtt_max_us * 4 / 1000);
    wait_ms = wait_ms < MIN_ROUND_MS ? MIN_ROUND_MS : wait_ms;
    wait_ms = wait_ms < left_ms ? wait_ms : left_ms;
    if (!found || left_ms <= 0 || send_round(r, wait_ms) != 0) {
        resolve_finish(r);
    }
}

static void resolve_kept(void *arg)
{
    struct ccnx_resolve *r = arg;
    r->timer_id = 0;
    r->res = 0;
    resolve_finish(r);
}

/* The reference keeps a name whose last component is already a version
 * unless nested versions are asked for. */
static int ends_in_version(const struct ccnx_name *n)
{
    struct ccnx_comp last;
    return n->count > 0 && ccnx_name_comp(n, n->count - 1, &last) == 0 &&
           ccnx_naming_is_version(last.p, last.n);
}

int ccnx_resolve_start(struct ccnx_client *c, const struct ccnx_name *prefix, int flags,
                       int timeout_ms, ccnx_resolve_fn fn, void *arg, struct ccnx_resolve **out)
{
    struct ccnx_resolve *r = calloc(1, sizeof *r);
    if (r == NULL) {
        return CCNX_E_NOMEM;
    }
    r->c = c;
    r->flags = flags;
    r->res = -1;
    r->fn = fn;
    r->arg = arg;
    r->timeout_ms = timeout_ms > 0 ? timeout_ms : CCNX_RESOLVE_TIMEOUT_MS;
    ccnx_buf_init(&r->msg);
    int rc = ccnx_name_init(&r->result);
    rc = rc == 0 ? ccnx_name_init(&r->prefix) : rc;
    rc = rc == 0 ? ccnx_name_copy(&r->prefix, prefix) : rc;
    r->start_us = r->prev_us = now_us();
    if (rc == 0 && !(flags & CCNX_RESOLVE_NESTOK) && ends_in_version(prefix)) {
        rc = ccnx_client_schedule(c, 0, resolve_kept, r, &r->timer_id);
    } else if (rc == 0) {
        r->attempt_ms = FIRST_ATTEMPT_MS < r->timeout_ms ? FIRST_ATTEMPT_MS : r->timeout_ms;
        rc = send_round(r, r->attempt_ms);
    }
    if (rc != 0) {
        resolve_free(r);
        return rc;
    }
    if (out != NULL) {
        *out = r;
    }
    return 0;
}

void ccnx_resolve_cancel(struct ccnx_resolve *r)
{
    if (r == NULL) {
        return;
    }
    if (r->pending_id != 0) {
        ccnx_client_cancel(r->c, r->pending_id);
    }
    if (r->timer_id != 0) {
        ccnx_client_unschedule(r->c, r->timer_id);
    }
    resolve_free(r);
}

struct resolve_sync {
    int done;
    int res;
    struct ccnx_name *name;
    struct ccnx_buf *err;
};

static void resolve_sync_done(void *arg, int result, const struct ccnx_name *name,
                              const char *error)
{
    struct resolve_sync *s = arg;
    s->done = 1;
    s->res = result;
    if (result == 1 && ccnx_name_copy(s->name, name) != 0) {
        s->res = CCNX_E_NOMEM;
    }
    if (result < 0 && s->err != NULL) {
        ccnx_buf_reset(s->err);
        ccnx_buf_append_str(s->err, error);
    }
}

int ccnx_resolve_version(struct ccnx_client *c, struct ccnx_name *name, int flags, int timeout_ms,
                         struct ccnx_buf *err)
{
    struct resolve_sync s = {0, CCNX_E_NOTFOUND, name, err};
    int rc = ccnx_resolve_start(c, name, flags, timeout_ms, resolve_sync_done, &s, NULL);
    if (rc != 0) {
        return rc;
    }
    /* Each round has a timer, and rounds stop at timeout_ms. */
    while (!s.done) {
        ccnx_client_run(c, 100);
    }
    return s.res;
}
