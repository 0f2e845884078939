/* Interest filters and the prefix registrations behind them
 * (Registration.txt): ccnd's id is learned from its KEY object, then each
 * prefix is registered with a signed selfreg request, refreshed before its
 * lifetime ends and redone after every reconnection. */
#include "client_internal.h"

#include <ccnx/error.h>
#include <ccnx/mgmt.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CCND_KEY_URI       "ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY"
#define CONTROL_TIMEOUT_MS 2000
#define REFRESH_MAX_MS     (3600 * 1000)
#define STACK_FILTERS      32

static void send_selfreg(struct ccnx_client *c, struct filter *f);

/* An Interest only the local ccnd answers (Scope 1). */
static int local_interest(struct ccnx_buf *out, const struct ccnx_name *name)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = name->enc.data;
    ip.name_len = name->enc.len;
    ip.scope = 1;
    return ccnx_interest_build(out, &ip);
}

static int express_local(struct ccnx_client *c, const struct ccnx_name *name, ccnx_content_fn ok,
                         ccnx_timeout_fn late, void *arg, uint64_t *id)
{
    struct ccnx_buf msg = CCNX_BUF_INIT;
    struct ccnx_express_opts o = {ok, late, arg, CONTROL_TIMEOUT_MS, 1, 0};
    int res = local_interest(&msg, name);
    if (res == 0) {
        res = ccnx_client_express(c, msg.data, msg.len, &o, id);
    }
    ccnx_buf_free(&msg);
    return res;
}

static void set_failed(struct ccnx_client *c, struct filter *f, int code, const char *why)
{
    struct ccnx_buf uri = CCNX_BUF_INIT;
    ccnx_uri_append_name(&uri, &f->prefix);
    client_set_error(c, "cannot register %s with ccnd at %s: %s",
                     uri.len ? ccnx_buf_cstr(&uri) : "?", c->where, why);
    ccnx_buf_free(&uri);
    f->state = code;
}

/* ---- ccnd's id ---- */

static void register_waiting(struct ccnx_client *c)
{
    for (struct filter *f = c->filters; f != NULL; f = f->next) {
        if (f->mode == CCNX_FILTER_REGISTER && f->state == 0 && f->request_id == 0) {
            send_selfreg(c, f);
        }
    }
}

static void ccndid_arrived(void *arg, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct ccnx_client *c = arg;
    c->key_request_id = 0;
    if (pc->publisher.len != sizeof c->ccndid) {
        client_set_error(c, "ccnd at %s answered for its key without a publisher", c->where);
        return;
    }
    memcpy(c->ccndid, obj + pc->publisher.off, sizeof c->ccndid);
    c->have_ccndid = 1;
    register_waiting(c);
}

static void ccndid_missing(void *arg)
{
    struct ccnx_client *c = arg;
    c->key_request_id = 0;
    for (struct filter *f = c->filters; f != NULL; f = f->next) {
        if (f->mode == CCNX_FILTER_REGISTER && f->state == 0) {
            set_failed(c, f, CCNX_E_IO, "it did not send its key (is it a ccnd?)");
        }
    }
}

static void learn_ccndid(struct ccnx_client *c)
{
    if (c->key_request_id != 0 || c->fd < 0) {
        return;
    }
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ccnx_uri_parse_str(&name, CCND_KEY_URI) == 0) {
        express_local(c, &name, ccndid_arrived, ccndid_missing, c, &c->key_request_id);
    }
    ccnx_name_free(&name);
}

/* ---- Registration ---- */

/* /ccnx/<ccndid>/<verb>/<the entry signed with the user's key>. */
static int control_name(struct ccnx_client *c, const char *verb,
                        const struct ccnx_forwarding_entry *fe, struct ccnx_name *out)
{
    const struct ccnx_key *key = ccnx_client_key(c);
    if (key == NULL) {
        return CCNX_E_NOKEY;
    }
    struct ccnx_buf body = CCNX_BUF_INIT;
    int res = ccnx_forwarding_entry_build(&body, fe);
    if (res == 0) {
        res = ccnx_mgmt_signed_request_name(out, c->ccndid, verb, body.data, body.len, key);
    }
    ccnx_buf_free(&body);
    return res;
}

static void refresh_due(void *arg)
{
    struct filter *f = arg;
    send_selfreg(f->owner, f);
}

/* ccnd's StatusResponse (inside a NACK) as "<code> <text>". */
static void status_text(const uint8_t *p, size_t n, char *out, size_t room)
{
    uint64_t code;
    struct ccnx_view text;
    if (ccnx_status_response_parse(p, n, &code, &text) != 0) {
        snprintf(out, room, "refused (no status given)");
        return;
    }
    snprintf(out, room, "refused: %llu %.*s", (unsigned long long)code, (int)text.n,
             (const char *)text.p);
}

static void selfreg_reply(void *arg, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct filter *f = arg;
    struct ccnx_client *c = f->owner;
    const uint8_t *v = obj + pc->content_value.off;
    struct ccnx_forwarding_entry fe;
    f->request_id = 0;
    if (pc->type == CCNX_TYPE_NACK) {
        char why[300];
        status_text(v, pc->content_value.len, why, sizeof why);
        set_failed(c, f, CCNX_E_VALUE, why);
        return;
    }
    if (ccnx_forwarding_entry_parse(v, pc->content_value.len, &fe) != 0) {
        set_failed(c, f, CCNX_E_VALUE, "its answer does not parse");
        return;
    }
    f->state = 1;
    f->face_id = fe.face_id;
    int64_t ms = fe.lifetime > 0 ? fe.lifetime * 500 : REFRESH_MAX_MS;
    client_timer_arm(c, &f->refresh,
                     ccnx_client_now_ms() + (ms > REFRESH_MAX_MS ? REFRESH_MAX_MS : ms));
}

static void selfreg_missing(void *arg)
{
    struct filter *f = arg;
    f->request_id = 0;
    if (ccnx_client_connected(f->owner)) {
        set_failed(f->owner, f, CCNX_E_IO, "no answer to the request");
    }
}

static void fill_entry(struct ccnx_forwarding_entry *fe, const char *verb, const struct filter *f)
{
    ccnx_forwarding_entry_init(fe);
    fe->action = (struct ccnx_view){(const uint8_t *)verb, strlen(verb)};
    fe->name = (struct ccnx_view){f->prefix.enc.data, f->prefix.enc.len};
    fe->flags = f->forw_flags;
}

static void send_selfreg(struct ccnx_client *c, struct filter *f)
{
    if (!c->have_ccndid) {
        learn_ccndid(c);
        return;
    }
    struct ccnx_forwarding_entry fe;
    fill_entry(&fe, "selfreg", f);
    struct ccnx_name name;
    ccnx_name_init(&name);
    int res = control_name(c, "selfreg", &fe, &name);
    if (res == 0) {
        res = express_local(c, &name, selfreg_reply, selfreg_missing, f, &f->request_id);
    }
    if (res != 0 && res != CCNX_E_NOKEY) {
        set_failed(c, f, res, ccnx_strerror(res));
    } else if (res == CCNX_E_NOKEY) {
        f->state = res; /* the keystore error is already in c->err */
    }
    ccnx_name_free(&name);
}

/* Best effort: the registration would expire anyway. ccnd removes only
 * the next hop the request names, so the face its selfreg answer gave. */
static void send_unreg(struct ccnx_client *c, const struct filter *f)
{
    if (f->face_id < 0) {
        return;
    }
    struct ccnx_forwarding_entry fe;
    fill_entry(&fe, "unreg", f);
    fe.face_id = f->face_id;
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (c->have_ccndid && control_name(c, "unreg", &fe, &name) == 0) {
        express_local(c, &name, NULL, NULL, NULL, NULL);
    }
    ccnx_name_free(&name);
}

/* ---- Filters ---- */

int ccnx_client_set_filter(struct ccnx_client *c, const struct ccnx_name *prefix, int mode,
                           int forw_flags, ccnx_interest_fn fn, void *arg, uint64_t *id)
{
    if (fn == NULL || (mode != CCNX_FILTER_LOCAL && mode != CCNX_FILTER_REGISTER)) {
        return CCNX_E_INVAL;
    }
    struct filter *f = calloc(1, sizeof *f);
    if (f == NULL || ccnx_name_copy(&f->prefix, prefix) != 0) {
        free(f);
        return CCNX_E_NOMEM;
    }
    f->id = ++c->next_id;
    f->owner = c;
    f->prefix_count = (uint32_t)prefix->count;
    f->mode = mode;
    f->forw_flags = forw_flags != 0 ? forw_flags : CCNX_FORW_DEFAULT;
    f->fn = fn;
    f->arg = arg;
    f->state = mode == CCNX_FILTER_REGISTER ? 0 : 1;
    f->face_id = -1;
    client_timer_init(&f->refresh, refresh_due, f);
    struct filter **pp = &c->filters;
    while (*pp != NULL && (*pp)->prefix_count >= f->prefix_count) {
        pp = &(*pp)->next;
    }
    f->next = *pp;
    *pp = f;
    if (id != NULL) {
        *id = f->id;
    }
    if (mode == CCNX_FILTER_REGISTER) {
        send_selfreg(c, f);
    }
    return 0;
}

static struct filter *find_filter(const struct ccnx_client *c, uint64_t id)
{
    struct filter *f = c->filters;
    while (f != NULL && f->id != id) {
        f = f->next;
    }
    return f;
}

static int prefix_still_registered(const struct ccnx_client *c, const struct filter *f)
{
    for (const struct filter *g = c->filters; g != NULL; g = g->next) {
        if (g != f && g->mode == CCNX_FILTER_REGISTER &&
            ccnx_name_compare(&g->prefix, &f->prefix) == 0) {
            return 1;
        }
    }
    return 0;
}

static void filter_free(struct ccnx_client *c, struct filter *f)
{
    client_timer_disarm(c, &f->refresh);
    if (f->request_id != 0) {
        ccnx_client_cancel(c, f->request_id);
    }
    ccnx_name_free(&f->prefix);
    free(f);
}

int ccnx_client_clear_filter(struct ccnx_client *c, uint64_t id)
{
    struct filter **pp = &c->filters;
    while (*pp != NULL && (*pp)->id != id) {
        pp = &(*pp)->next;
    }
    struct filter *f = *pp;
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    *pp = f->next;
    if (f->state == 1 && f->mode == CCNX_FILTER_REGISTER && !prefix_still_registered(c, f)) {
        send_unreg(c, f);
    }
    filter_free(c, f);
    return 0;
}

int ccnx_client_filter_state(const struct ccnx_client *c, uint64_t id)
{
    const struct filter *f = find_filter(c, id);
    return f == NULL ? CCNX_E_NOTFOUND : f->state;
}

int ccnx_client_wait_registered(struct ccnx_client *c, uint64_t id, int timeout_ms)
{
    int64_t end = ccnx_client_now_ms() + timeout_ms;
    int state;
    while ((state = ccnx_client_filter_state(c, id)) == 0) {
        int64_t left = end - ccnx_client_now_ms();
        if (left <= 0) {
            client_set_error(c, "ccnd at %s did not confirm the registration within %d ms",
                             c->where, timeout_ms);
            return CCNX_E_IO;
        }
        int res = ccnx_client_run(c, left < 50 ? (int)left : 50);
        if (res != 0) {
            return res;
        }
    }
    return state < 0 ? state : 0;
}

void filter_dispatch_interest(struct ccnx_client *c, const uint8_t *msg, size_t len)
{
    struct ccnx_interest_parsed pi;
    if (c->filters == NULL || ccnx_interest_parse(msg, len, &pi) != 0) {
        return;
    }
    /* Filters may be set or cleared by the callbacks: walk a list of ids. */
    uint64_t stack_ids[STACK_FILTERS], *ids = stack_ids;
    size_t n = 0, room = STACK_FILTERS;
    for (struct filter *f = c->filters; f != NULL; f = f->next) {
        if (f->prefix_count > pi.name_count ||
            ccnx_name_is_prefix_ccnb(f->prefix.enc.data, f->prefix.enc.len, msg + pi.name.off,
                                     pi.name.len) != 1) {
            continue;
        }
        if (n == room) {
            uint64_t *more = malloc(2 * room * sizeof *more);
            if (more == NULL) {
                break;
            }
            memcpy(more, ids, n * sizeof *ids);
            if (ids != stack_ids) {
                free(ids);
            }
            ids = more;
            room *= 2;
        }
        ids[n++] = f->id;
    }
    for (size_t i = 0; i < n; i++) {
        struct filter *f = find_filter(c, ids[i]);
        if (f != NULL && f->fn(f->arg, msg, len, &pi)) {
            break;
        }
    }
    if (ids != stack_ids) {
        free(ids);
    }
}

void filter_connection_reset(struct ccnx_client *c)
{
    if (c->key_request_id != 0) {
        ccnx_client_cancel(c, c->key_request_id);
        c->key_request_id = 0;
    }
    for (struct filter *f = c->filters; f != NULL; f = f->next) {
        if (f->mode != CCNX_FILTER_REGISTER) {
            continue;
        }
        if (f->request_id != 0) {
            ccnx_client_cancel(c, f->request_id);
            f->request_id = 0;
        }
        client_timer_disarm(c, &f->refresh);
        f->state = 0;
        f->face_id = -1;
    }
    register_waiting(c);
}

void filter_free_all(struct ccnx_client *c)
{
    while (c->filters != NULL) {
        struct filter *f = c->filters;
        c->filters = f->next;
        filter_free(c, f);
    }
}
