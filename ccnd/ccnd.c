/* Wiring: faces deliver messages to the forwarder, the forwarder sends
 * through faces, one timer drives the forwarder's expiry work. Neither layer
 * knows the other; this file is the only place that sees both. */
#include "ccnd.h"

#include "face/face.h"
#include "fw/fw.h"
#include "fw/strategy.h"
#include "loop/loop.h"
#include "mgmt/guest.h"
#include "mgmt/mgmt.h"
#include "mgmt/notice.h"
#include "mgmt/status.h"
#include "table/fib.h"
#include "table/pit.h"

#include <ccnx/ccnb.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>
#include <ccnx/keystore.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* The reference forwarder's keystore password, so a keystore it made keeps
 * the same ccndid when this forwarder takes over. */
#define CCND_KEYSTORE_PASSWORD "\010\043\103\375\327\237\152\351\155"

struct ccnd {
    struct ccnd_config cfg;
    struct loop *loop;
    struct face_table *faces;
    struct fw *fw;
    struct ccnx_keystore *keystore;
    struct mgmt *mgmt;
    struct ccnx_buf internal_out; /* answers of the internal client, not yet injected */
    struct ccnx_buf mgmt_out;     /* management's answers, not yet injected (never stored) */
    struct loop_timer tick;
    uint64_t tick_due; /* when the tick timer fires next (loop time, us) */
    struct status *status;
    struct loop_timer sample; /* per-face rates for the status page */
    uint64_t start_us;        /* wall clock at start, for the status page */
    char host[65];
    int stopping;
    ino_t sock_ino;                 /* the unix socket we bound, to notice its removal */
    struct notice *notice;          /* face-status notices, /ccnx/<ccndid>/notice.txt */
    struct loop_timer notice_timer; /* pushes notices shortly after a change */
    struct ccnx_buf autoreg;        /* CCND_AUTOREG: encoded Name elements, back to back */
    struct ccnx_name guest_stem;    /* CCND_PREFIX; no components when unset */
    int starved;                    /* a listener cannot accept (logged once) */
    uint64_t closed_malformed;      /* malformed input on faces now gone */
    unsigned samples;               /* on_sample calls, for things done every so many */
};

__attribute__((format(printf, 3, 4))) static void ccnd_log(const struct ccnd *d, unsigned bits,
                                                           const char *fmt, ...)
{
    if ((d->cfg.debug & bits) == 0) {
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    fprintf(stderr, "%lld.%06ld ccnd[%d]: ", (long long)ts.tv_sec, ts.tv_nsec / 1000,
            (int)getpid());
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void schedule_tick(struct ccnd *d, uint64_t now, uint64_t next);

#define NOTICE_PUSH_US 2000 /* the reference pushes notices 2 ms after a change */

/* ---- Face layer -> forwarder ---- */

/* The internal client answers through the forwarder as face 0. Answers are
 * collected while the forwarder runs and injected once it has returned, so
 * the forwarder is never re-entered. */
static void inject(struct ccnd *d, struct ccnx_buf *out, int store)
{
    struct ccnx_buf batch = *out;
    ccnx_buf_init(out);
    size_t pos = 0, end;
    while (pos < batch.len && ccnx_ccnb_element_end(batch.data, batch.len, pos, &end) == 0) {
        if (store) {
            fw_on_message(d->fw, 0, batch.data + pos, end - pos, loop_now(d->loop));
        } else {
            fw_on_reply(d->fw, batch.data + pos, end - pos, loop_now(d->loop));
        }
        pos = end;
    }
    ccnx_buf_free(&batch);
}

/* Management's answers (control replies, which answer only the request
 * that made them, and the KEY objects) are not stored. */
static void flush_internal(struct ccnd *d)
{
    for (int round = 0; round < 8 && (d->internal_out.len > 0 || d->mgmt_out.len > 0); round++) {
        inject(d, &d->mgmt_out, 0);
        inject(d, &d->internal_out, 1);
    }
}

/* A message may give the forwarder an earlier deadline (a strategy's
 * retransmission, a new expiry), so the tick is rescheduled after each. */
static void log_message(const struct ccnd *d, const char *dir, unsigned faceid, const uint8_t *msg,
                        size_t len)
{
    /* Bit 2: Interests, bit 4: ContentObjects (the reference's CCND_DEBUG). */
    int interest = len >= 2 && msg[0] == 0x01 && msg[1] == 0xD2;
    int content = len >= 2 && msg[0] == 0x04 && msg[1] == 0x82;
    if ((interest && (d->cfg.debug & 2)) || (content && (d->cfg.debug & 4))) {
        ccnd_log(d, ~0u, "%s %s face %u (%zu bytes)", dir, interest ? "interest" : "content",
                 faceid, len);
    }
}

static void on_message(void *arg, unsigned faceid, const uint8_t *msg, size_t len)
{
    struct ccnd *d = arg;
    uint64_t now = loop_now(d->loop);
    status_note(d->status, faceid, 0, msg, len);
    if (d->cfg.debug & 6) {
        log_message(d, "recv", faceid, msg, len);
    }
    fw_on_message(d->fw, faceid, msg, len, now);
    flush_internal(d);
    schedule_tick(d, now, fw_next_deadline(d->fw));
}

/* Neighbours find ccnd's key under %C1.M.S.neighborhood (the internal
 * client answers there besides /ccnx and %C1.M.S.localhost). */
static int add_neighborhood_prefix(struct ccnd *d)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    int res = ccnx_name_append_str(&n, "\xC1.M.S.neighborhood");
    if (res == 0) {
        res = fw_internal_add_prefix(d->fw, n.enc.data, n.enc.len);
    }
    ccnx_name_free(&n);
    return res < 0 ? res : 0;
}

/* ---- Face-status notices ---- */

static void notice_face_info(struct ccnd *d, unsigned faceid, int up, const struct face_info *fi)
{
    if (d->notice == NULL || !notice_started(d->notice) || (fi->flags & FACE_F_PASSIVE)) {
        return;
    }
    notice_face(d->notice, faceid, up, status_ref_flags(fi->flags, faceid), fi->remote);
    if (!loop_timer_active(&d->notice_timer)) {
        loop_timer_start(d->loop, &d->notice_timer, NOTICE_PUSH_US, 0);
    }
}

/* Signed and injected from a timer, never from inside a face callback, so
 * the forwarder is not re-entered. */
static void on_notice_timer(struct loop *loop, void *arg)
{
    struct ccnd *d = arg;
    face_batch_begin(d->faces);
    notice_flush(d->notice, &d->internal_out);
    flush_internal(d);
    face_batch_end(d->faces);
    schedule_tick(d, loop_now(loop), fw_next_deadline(d->fw));
}

/* The first Interest for the notices starts the stream with every face. */
static int notice_handler(struct ccnd *d, const uint8_t *interest, size_t len)
{
    struct ccnx_interest_parsed pi;
    if (d->notice == NULL || ccnx_interest_parse(interest, len, &pi) != 0) {
        return 0;
    }
    int was = notice_started(d->notice);
    if (!notice_interest(d->notice, interest, len, &pi, &d->internal_out)) {
        return 0;
    }
    if (!was) {
        for (unsigned id = face_next(d->faces, FACE_NONE); id != FACE_NONE;
             id = face_next(d->faces, id)) {
            struct face_info fi;
            if (face_get_info(d->faces, id, &fi) == 0) {
                notice_face_info(d, id, 1, &fi);
            }
        }
    }
    return 1;
}

/* A TCP, UDP or multicast face (not a listener): a peer rather than an
 * application of this host, which uses the unix socket. Loopback peers
 * count, so forwarders on one host can be linked. */
static int is_network_face(const struct ccnd *d, unsigned faceid)
{
    unsigned flags;
    return faceid != 0 && face_get_flags(d->faces, faceid, &flags) == 0 &&
           (flags & (FACE_F_INET | FACE_F_INET6)) && !(flags & FACE_F_PASSIVE);
}

/* CCND_AUTOREG: every new network face gets the prefixes for good, with
 * the reference's flags, so this ccnd forwards them to any peer. */
static void autoregister(struct ccnd *d, unsigned faceid)
{
    size_t pos = 0, end;
    while (pos < d->autoreg.len &&
           ccnx_ccnb_element_end(d->autoreg.data, d->autoreg.len, pos, &end) == 0) {
        if (fib_add(fw_fib(d->fw), d->autoreg.data + pos, end - pos, faceid,
                    FIB_ACTIVE | FIB_CHILD_INHERIT | FIB_CAPTURE_OK, FIB_NEVER,
                    FIB_OWNER_NONE) != 0) {
            ccnd_log(d, 1, "CCND_AUTOREG: out of memory registering on face %u", faceid);
        }
        pos = end;
    }
}

static int guest_handler(struct ccnd *d, unsigned faceid, const uint8_t *interest, size_t len)
{
    struct ccnx_interest_parsed pi;
    if (d->guest_stem.enc.len == 0 || !is_network_face(d, faceid) ||
        ccnx_interest_parse(interest, len, &pi) != 0) {
        return 0;
    }
    int res = guest_handle(fw_fib(d->fw), ccnx_keystore_key(d->keystore), d->guest_stem.enc.data,
                           d->guest_stem.enc.len, faceid, interest, &pi, &d->internal_out);
    if (res == 1) {
        ccnd_log(d, 1, "face %u: guest prefix given", faceid);
    }
    return res == 1;
}

/* Parses the URIs config.c checked; 0 or CCNX_E_NOMEM. */
static int peer_prefixes(struct ccnd *d)
{
    struct ccnx_name n;
    int res = 0;
    for (size_t i = 0; i < d->cfg.autoreg_count && res == 0; i++) {
        ccnx_name_init(&n);
        res = ccnx_uri_parse_str(&n, d->cfg.autoreg[i]);
        if (res == 0) {
            res = ccnx_buf_append(&d->autoreg, n.enc.data, n.enc.len);
            ccnd_log(d, 1, "CCND_AUTOREG: %s", d->cfg.autoreg[i]);
        }
        ccnx_name_free(&n);
    }
    if (res == 0 && d->cfg.guest_prefix[0] != '\0') {
        res = ccnx_uri_parse_str(&d->guest_stem, d->cfg.guest_prefix);
        ccnd_log(d, 1, "CCND_PREFIX: %s", d->cfg.guest_prefix);
    }
    return res;
}

static int internal_handler(void *arg, unsigned faceid, const uint8_t *interest, size_t len)
{
    struct ccnd *d = arg;
    if (notice_handler(d, interest, len) || guest_handler(d, faceid, interest, len)) {
        return 1;
    }
    return mgmt_handle_interest(d->mgmt, faceid, interest, len, loop_now(d->loop), &d->mgmt_out) ==
           1;
}

/* Links this ccnd made over TCP speak first, and at least every
 * KEEPALIVE_S seconds, as the reference's do (an Interest at connect and
 * about every 16 s): a peer that closes connections which stay silent
 * (ours does, ccnd(1)) keeps them. The Interest names nothing anyone
 * serves, under the neighbourhood's namespace, with Scope 2 and a one
 * second lifetime: it reaches the peer's ccnd and dies there. */
#define KEEPALIVE_S 30

static void send_keepalive(struct ccnd *d, unsigned faceid)
{
    struct ccnx_name n;
    struct ccnx_interest_params ip;
    struct ccnx_buf b = CCNX_BUF_INIT;
    int res = ccnx_name_init(&n);
    res = res == 0 ? ccnx_name_append_str(&n, "\xC1.M.S.neighborhood") : res;
    res = res == 0 ? ccnx_name_append_str(&n, "keepalive") : res;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ip.scope = 2;
    ip.lifetime_units = 4096; /* one second */
    if (res == 0 && ccnx_interest_build(&b, &ip) == 0) {
        face_send(d->faces, faceid, b.data, b.len);
    }
    ccnx_buf_free(&b);
    ccnx_name_free(&n);
}

static int is_outbound_tcp(const struct face_info *fi)
{
    return fi->kind == FACE_KIND_TCP && !(fi->flags & FACE_F_ACCEPTED);
}

static void keepalives(struct ccnd *d)
{
    for (unsigned id = face_next(d->faces, FACE_NONE); id != FACE_NONE;
         id = face_next(d->faces, id)) {
        struct face_info fi;
        if (face_get_info(d->faces, id, &fi) == 0 && is_outbound_tcp(&fi) &&
            !(fi.flags & FACE_F_CONNECTING)) {
            send_keepalive(d, id);
        }
    }
}

static void on_created(void *arg, unsigned faceid)
{
    struct ccnd *d = arg;
    struct face_info fi;
    if (face_get_info(d->faces, faceid, &fi) == 0 && !(fi.flags & FACE_F_PASSIVE)) {
        ccnd_log(d, 1, "accepted or created face %u (%s %s)", faceid, face_kind_name(fi.kind),
                 fi.remote);
        notice_face_info(d, faceid, 1, &fi);
        if (is_network_face(d, faceid)) {
            autoregister(d, faceid);
        }
        if (is_outbound_tcp(&fi)) {
            send_keepalive(d, faceid); /* queued until the connection is made */
        }
    }
}

static void on_destroyed(void *arg, unsigned faceid, enum face_close_reason why,
                         const struct face_info *final)
{
    struct ccnd *d = arg;
    if (d->fw != NULL) {
        fw_on_face_destroyed(d->fw, faceid);
    }
    notice_face_info(d, faceid, 0, final);
    d->closed_malformed += final->counters.drops[FACE_DROP_MALFORMED];
    ccnd_log(d, 1, "face %u closed (%s): %llu messages in, %llu out", faceid,
             face_close_reason_name(why), (unsigned long long) final->counters.msgs_in,
             (unsigned long long) final->counters.msgs_out);
}

/* A face with registrations or Interests waiting on it is kept when a new
 * UDP sender needs room. */
static int face_in_use(void *arg, unsigned faceid)
{
    struct ccnd *d = arg;
    return d->fw != NULL && (fib_face_registered(fw_fib(d->fw), faceid) ||
                             pit_face_pending(fw_pit(d->fw), faceid) > 0);
}

/* ---- Forwarder -> face layer ---- */

static int fw_send(void *arg, unsigned faceid, const uint8_t *msg, size_t len)
{
    struct ccnd *d = arg;
    int res = face_send(d->faces, faceid, msg, len);
    if (res == 0) {
        status_note(d->status, faceid, 1, msg, len);
        if (d->cfg.debug & 6) {
            log_message(d, "sent", faceid, msg, len);
        }
    }
    return res;
}

static int fw_face_props(void *arg, unsigned faceid, struct fw_face_props *out)
{
    struct ccnd *d = arg;
    unsigned flags;
    if (face_get_flags(d->faces, faceid, &flags) != 0) {
        return -1;
    }
    out->local = (flags & FACE_F_LOCAL) != 0;
    out->mcast = (flags & FACE_F_MCAST) != 0;
    out->datagram = (flags & FACE_F_DGRAM) != 0;
    return 0;
}

/* ---- Internal client -> face layer ---- */

static int mgmt_face_query(void *arg, unsigned faceid, struct mgmt_face *out)
{
    struct ccnd *d = arg;
    struct face_info fi;
    *out = (struct mgmt_face){1, MGMT_UID_UNKNOWN, MGMT_UID_NONE};
    if (faceid == 0) {
        return 1; /* the internal client */
    }
    if (face_get_info(d->faces, faceid, &fi) != 0 || (fi.flags & FACE_F_PASSIVE)) {
        return 0;
    }
    out->local = (fi.flags & FACE_F_LOCAL) != 0;
    out->owner = fi.owner;
    int64_t uid;
    if (out->local && face_peer_uid(d->faces, faceid, &uid) == 0) {
        out->peer_uid = uid;
    }
    return 1;
}

static int mgmt_newface(void *arg, const struct ccnx_face_instance *req, int64_t owner,
                        unsigned *faceid)
{
    struct ccnd *d = arg;
    int res = face_open_instance(d->faces, req, faceid);
    struct face_info fi;
    if (res == 0 && face_get_info(d->faces, *faceid, &fi) == 0) {
        /* Faces made on request stay until destroyed, as configured links
         * should. One found instead (a peer's, or one asked for before)
         * keeps its owner. */
        face_set_permanent(d->faces, *faceid, 1);
        if (fi.owner == FACE_UID_NONE && !(fi.flags & FACE_F_ACCEPTED)) {
            face_set_owner(d->faces, *faceid, owner);
        }
    }
    return res;
}

static int mgmt_destroyface(void *arg, unsigned faceid)
{
    struct ccnd *d = arg;
    return face_close(d->faces, faceid);
}

static void mgmt_published(void *arg, const uint8_t *name, size_t len)
{
    struct ccnd *d = arg;
    fw_pub_add(d->fw, name, len); /* past FW_PUB_MAX prefixes, new ones are not counted */
}

static int mgmt_strategy_exists(void *arg, const char *name)
{
    (void)arg;
    return strategy_find(name) != NULL;
}

/* Sleeps until the forwarder's next deadline, at most a second. */
static void schedule_tick(struct ccnd *d, uint64_t now, uint64_t next)
{
    uint64_t due = next < now + 1000000 ? next : now + 1000000;
    if (loop_timer_active(&d->tick) && due >= d->tick_due) {
        return;
    }
    d->tick_due = due;
    loop_timer_start(d->loop, &d->tick, due > now ? due - now : 0, 0);
}

static void on_tick(struct loop *loop, void *arg)
{
    struct ccnd *d = arg;
    uint64_t now = loop_now(loop);
    face_batch_begin(d->faces); /* a face failing a send must not vanish under the forwarder */
    uint64_t next = fw_tick(d->fw, now);
    flush_internal(d);
    face_batch_end(d->faces);
    schedule_tick(d, now, next);
}

static void on_signal(struct loop *loop, int signo, void *arg)
{
    struct ccnd *d = arg;
    if (signo == SIGHUP) {
        ccnd_log(d, 1, "SIGHUP ignored");
        return;
    }
    ccnd_log(d, 1, "signal %d: shutting down", signo);
    d->stopping = 1;
    loop_stop(loop);
}

/* ---- Status page ---- */

static uint64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Removing the socket file stops ccnd, as with the reference: its
 * ccndstop works that way, and a forwarder nobody can reach is useless. */
static void check_socket(struct ccnd *d)
{
    struct stat st;
    if (lstat(d->cfg.sockname, &st) == 0 && st.st_ino == d->sock_ino) {
        return;
    }
    ccnd_log(d, 1, "%s was removed or replaced: shutting down", d->cfg.sockname);
    d->stopping = 1;
    loop_stop(d->loop);
}

/* A listener out of descriptors (or memory) sheds new connections and
 * retries (face/face_stream.c); said once an episode, with the fix. */
static void check_listeners(struct ccnd *d)
{
    int err = 0;
    unsigned id;
    struct face_info fi;
    for (id = face_next(d->faces, FACE_NONE); id != FACE_NONE; id = face_next(d->faces, id)) {
        if (face_get_info(d->faces, id, &fi) == 0 && fi.last_errno != 0 &&
            (fi.flags & (FACE_F_STREAM | FACE_F_PASSIVE)) == (FACE_F_STREAM | FACE_F_PASSIVE)) {
            err = fi.last_errno;
            break;
        }
    }
    if (err != 0 && !d->starved) {
        ccnd_log(d, 1,
                 "cannot accept connections on face %u (%s): %s; new connections are closed "
                 "until some end (raise the limit: ulimit -n)",
                 id, fi.remote, strerror(err));
    } else if (err == 0 && d->starved) {
        ccnd_log(d, 1, "accepting connections again");
    }
    d->starved = err != 0;
}

static void on_sample(struct loop *loop, void *arg)
{
    struct ccnd *d = arg;
    check_socket(d);
    check_listeners(d);
    if (++d->samples % KEEPALIVE_S == 0) {
        keepalives(d);
    }
    size_t n;
    struct status_face *rows = status_face_rows(d->faces, fw_pit(d->fw), &n);
    status_sample(d->status, rows, n, loop_now(loop));
    free(rows);
}

static void status_page(struct ccnd *d, const struct status_request *req,
                        struct face_http_reply *reply)
{
    struct status_view v;
    memset(&v, 0, sizeof v);
    v.ccndid = mgmt_ccndid(d->mgmt);
    v.host = d->host;
    v.port = d->cfg.port;
    v.pid = (long)getpid();
    v.debug = (int)d->cfg.debug;
    v.start_us = d->start_us;
    v.now_us = wall_us();
    v.mono_now = loop_now(d->loop);
    v.refresh = req->refresh;
    status_view_tables(&v, d->fw);
    struct status_face *rows = status_face_rows(d->faces, fw_pit(d->fw), &v.nfaces);
    v.faces = rows;
    v.input_malformed = d->closed_malformed;
    for (size_t i = 0; rows != NULL && i < v.nfaces; i++) {
        v.input_malformed += rows[i].malformed;
    }
    struct ccnx_buf b = CCNX_BUF_INIT;
    if (rows != NULL && status_render(d->status, &v, req->fmt, &b) == 0) {
        static const char *const types[] = {"text/html", "text/xml", "application/json"};
        reply->status = 200;
        reply->content_type = types[req->fmt];
        reply->body = (char *)b.data;
        reply->len = b.len;
    } else {
        ccnx_buf_free(&b);
    }
    free(rows);
}

/* GET on the TCP port: the status page, or a log level change (/?l=),
 * which only this host may make (the reference let any host). */
static void on_http(void *arg, unsigned faceid, const char *target, struct face_http_reply *reply)
{
    struct ccnd *d = arg;
    struct status_request req;
    status_parse_target(target, &req);
    ccnd_log(d, 1, "face %u: http GET %s", faceid, target);
    unsigned flags;
    if (req.kind == STATUS_REQ_PAGE) {
        status_page(d, &req, reply);
    } else if (req.kind == STATUS_REQ_LOG &&
               (face_get_flags(d->faces, faceid, &flags) != 0 || !(flags & FACE_F_LOCAL))) {
        ccnd_log(d, 1, "face %u: log level change refused (not a local face)", faceid);
        reply->status = 403;
        reply->body = strdup("The log level can be changed only from this host.\n");
        reply->len = reply->body != NULL ? strlen(reply->body) : 0;
    } else if (req.kind == STATUS_REQ_LOG) {
        d->cfg.debug = 1; /* the change itself is always logged, as the reference does */
        ccnd_log(d, 1, "CCND_DEBUG=%d", req.level);
        d->cfg.debug = (unsigned)req.level;
        struct ccnx_buf b = CCNX_BUF_INIT;
        if (status_render_log(req.level, &b) == 0) {
            reply->status = 200;
            reply->content_type = "text/html";
            reply->body = (char *)b.data;
            reply->len = b.len;
        } else {
            ccnx_buf_free(&b);
        }
    }
}

/* ---- Listeners ---- */

static int listen_inet(struct ccnd *d, const char *addr_text, char *err, size_t n)
{
    int res = face_listen_inet(d->faces, addr_text, d->cfg.port);
    if (res == CCNX_E_VALUE) {
        snprintf(err, n, "CCND_LISTEN_ON: '%s' is not a numeric IPv4 or IPv6 address", addr_text);
        return -1;
    }
    if (res != 0) {
        snprintf(err, n,
                 "cannot listen on %s port %u: %s (is another ccnd running? set "
                 "CCN_LOCAL_PORT to use another port)",
                 addr_text, d->cfg.port, strerror(errno));
        return -1;
    }
    ccnd_log(d, 1, "listening on %s port %u (TCP and UDP)", addr_text, d->cfg.port);
    return 0;
}

/* The unix socket comes last: whoever finds it (ccndstart, a client, a
 * test) may use the TCP and UDP listeners at once, which are bound by then. */
static int open_unix_listener(struct ccnd *d, char *err, size_t n)
{
    unsigned id;
    if (face_listen_unix(d->faces, d->cfg.sockname, &id) != 0) {
        snprintf(err, n, "cannot listen on %s: %s (is another ccnd running? ccndstop stops it)",
                 d->cfg.sockname, strerror(errno));
        return -1;
    }
    struct stat st;
    d->sock_ino = lstat(d->cfg.sockname, &st) == 0 ? st.st_ino : 0;
    ccnd_log(d, 1, "listening on %s", d->cfg.sockname);
    return 0;
}

static int open_listeners(struct ccnd *d, char *err, size_t n)
{
    if (d->cfg.listen_count > 0) {
        for (size_t i = 0; i < d->cfg.listen_count; i++) {
            if (listen_inet(d, d->cfg.listen_on[i], err, n) != 0) {
                return -1;
            }
        }
        return open_unix_listener(d, err, n);
    }
    /* Wildcards: IPv4 is required, IPv6 is used when the host has it. */
    if (listen_inet(d, "0.0.0.0", err, n) != 0) {
        return -1;
    }
    if (listen_inet(d, "::", err, n) != 0) {
        ccnd_log(d, 1, "no IPv6 listener: %s", err);
        err[0] = '\0';
    }
    return open_unix_listener(d, err, n);
}

/* The event loop, the face table and the forwarder with its tables, as the
 * configuration sets them. */
static int create_layers(struct ccnd *d, const struct ccnd_config *cfg, char *err, size_t n)
{
    struct face_config fc;
    face_config_default(&fc);
    fc.mtu = cfg->mtu;
    const struct face_callbacks cb = {.message = on_message,
                                      .created = on_created,
                                      .destroyed = on_destroyed,
                                      .in_use = face_in_use,
                                      .arg = d};
    struct fw_config fwc;
    fw_config_default(&fwc);
    fwc.cs_capacity = cfg->cs_capacity;
    fwc.cs_max_bytes = cfg->cs_max_bytes;
    if (cfg->pit_limit != 0) {
        fwc.pit_limit = cfg->pit_limit;
    }
    if (cfg->rte_limit != 0) {
        fwc.rte_limit = cfg->rte_limit;
        ccnd_log(d, 1, "CCND_MAX_RTE_MICROSEC=%llu", (unsigned long long)cfg->rte_limit);
    }
    if (cfg->data_pause != 0) {
        ccnd_log(d, 1, "CCND_DATA_PAUSE_MICROSEC has no effect: ContentObjects are never delayed");
    }
    /* fw keeps a pointer to its ops: they must outlive this call. */
    static const struct fw_ops ops = {fw_send, fw_face_props};
    if ((d->status = status_create()) == NULL || (d->loop = loop_create()) == NULL ||
        (d->faces = face_table_create(d->loop, &fc, &cb)) == NULL ||
        (d->fw = fw_create(&fwc, &ops, d)) == NULL) {
        snprintf(err, n, "cannot set up the event loop and tables: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* ccnd's key, the internal client that answers control requests with it,
 * the face-status notices and the prefixes ccnd serves itself. */
static int create_internal_client(struct ccnd *d, const struct ccnd_config *cfg, char *err,
                                  size_t n)
{
    int res = ccnx_keystore_open_or_create(cfg->keystore, CCND_KEYSTORE_PASSWORD, &d->keystore);
    if (res != 0) {
        snprintf(err, n,
                 "cannot open or create ccnd's keystore %s: %s (set "
                 "CCND_KEYSTORE_DIRECTORY to a private folder ccnd can write)",
                 cfg->keystore, ccnx_strerror(res));
        return -1;
    }
    const struct mgmt_face_ops mops = {mgmt_face_query,      mgmt_newface,   mgmt_destroyface,
                                       mgmt_strategy_exists, mgmt_published, d};
    d->mgmt = mgmt_create(fw_fib(d->fw), ccnx_keystore_key(d->keystore), &mops, 0);
    if (d->mgmt == NULL) {
        snprintf(err, n, "cannot set up the internal client");
        return -1;
    }
    d->notice = notice_create(ccnx_keystore_key(d->keystore), mgmt_ccndid(d->mgmt));
    fw_set_internal(d->fw, internal_handler, d);
    if (d->notice == NULL || add_neighborhood_prefix(d) != 0 || peer_prefixes(d) != 0) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    return 0;
}

struct ccnd *ccnd_create(const struct ccnd_config *cfg, char *err, size_t n)
{
    struct ccnd *d = calloc(1, sizeof *d);
    if (d == NULL) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    d->cfg = *cfg;
    d->start_us = wall_us();
    struct utsname un;
    snprintf(d->host, sizeof d->host, "%s", uname(&un) == 0 ? un.nodename : "localhost");
    ccnx_name_init(&d->guest_stem);
    loop_timer_init(&d->tick, on_tick, d);
    loop_timer_init(&d->sample, on_sample, d);
    loop_timer_init(&d->notice_timer, on_notice_timer, d);
    if (create_layers(d, cfg, err, n) != 0 || create_internal_client(d, cfg, err, n) != 0) {
        ccnd_destroy(d);
        return NULL;
    }
    face_set_http_handler(d->faces, on_http, d);
    if (loop_signals(d->loop, on_signal, d) != 0 || open_listeners(d, err, n) != 0) {
        if (err[0] == '\0') {
            snprintf(err, n, "cannot set up signal handling: %s", strerror(errno));
        }
        ccnd_destroy(d);
        return NULL;
    }
    loop_timer_start(d->loop, &d->tick, 0, 0);
    loop_timer_start(d->loop, &d->sample, 1000000, 1000000);
    return d;
}

int ccnd_run(struct ccnd *d)
{
    int res = loop_run(d->loop);
    return d->stopping ? 0 : res;
}

void ccnd_destroy(struct ccnd *d)
{
    if (d == NULL) {
        return;
    }
    if (d->loop != NULL) {
        loop_timer_stop(d->loop, &d->tick);
        loop_timer_stop(d->loop, &d->sample);
        loop_timer_stop(d->loop, &d->notice_timer);
    }
    /* Faces first: their destroy callbacks still reach the forwarder. */
    notice_destroy(d->notice); /* closing faces need not be announced */
    d->notice = NULL;
    face_table_destroy(d->faces);
    mgmt_destroy(d->mgmt);
    fw_destroy(d->fw);
    ccnx_keystore_destroy(d->keystore);
    ccnx_buf_free(&d->internal_out);
    ccnx_buf_free(&d->mgmt_out);
    ccnx_buf_free(&d->autoreg);
    ccnx_name_free(&d->guest_stem);
    status_destroy(d->status);
    loop_destroy(d->loop);
    free(d);
}
