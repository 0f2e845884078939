/* ccnd's internal client: KEY service and control requests. */
#include "mgmt.h"

#include "table/fib.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mgmt {
    struct fib *fib;
    const struct ccnx_key *key;
    struct mgmt_face_ops ops;
    int allow_remote;
    int64_t admin_uid;               /* may change anything, as root may */
    struct ccnx_buf key_object;      /* under %C1.M.S.localhost */
    struct ccnx_buf neighbor_object; /* the same key under %C1.M.S.neighborhood */
};

/* A failed request is answered with a NACK carrying a StatusResponse, so a
 * tool can tell the user why instead of timing out. */
struct status {
    int code; /* 0: success */
    const char *text;
};

static const struct status ok = {0, NULL};

/* Who sent a control request. */
struct requester {
    unsigned face;
    int64_t uid; /* MGMT_UID_UNKNOWN when it cannot be known */
    int trusted; /* ccnd itself, or a remote face when those are allowed */
};

/* ccnd itself, a trusted remote, root or ccnd's own user. */
static int is_admin(const struct mgmt *m, const struct requester *rq)
{
    return rq->trusted || (rq->uid >= 0 && (rq->uid == 0 || rq->uid == m->admin_uid));
}

/* Whether the requester may remove or change what `owner` made. */
static int may_change(const struct mgmt *m, const struct requester *rq, int64_t owner)
{
    return is_admin(m, rq) || (rq->uid >= 0 && rq->uid == owner);
}

/* What a requester makes is owned by its uid (or nobody, when unknown). */
static int64_t owner_of(const struct requester *rq)
{
    return rq->uid >= 0 ? rq->uid : MGMT_UID_NONE;
}

/* ---- The KEY object ---- */

/* ccnd's KEY object as a service publishes it: under
 * /<service>/%C1.M.SRV/ccnd/KEY/<keyid>/<version>/%00. */
static int build_key_object(struct mgmt *m, const char *service, int64_t freshness,
                            struct ccnx_buf *out)
{
    const char *const parts[] = {service, "\xC1.M.SRV", "ccnd", "KEY"};
    struct ccnx_name n, locator;
    ccnx_name_init(&locator);
    int res = ccnx_name_init(&n);
    for (size_t i = 0; res == 0 && i < 4; i++) {
        res = ccnx_name_append_str(&n, parts[i]);
    }
    if (res == 0)
        res = ccnx_naming_append_keyid(&n, ccnx_key_digest(m->key));
    if (res == 0)
        res = ccnx_naming_append_version(&n, NULL);
    /* The locator names the key without the segment: the reference's form. */
    if (res == 0)
        res = ccnx_name_copy(&locator, &n);
    if (res == 0)
        res = ccnx_naming_append_segment(&n, 0);
    size_t der_len = 0;
    const uint8_t *der = ccnx_key_der(m->key, &der_len);
    static const uint8_t seg0[] = {0};
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.type = CCNX_TYPE_KEY;
    p.freshness = freshness;
    p.final_block_id = seg0;
    p.final_block_id_len = 1;
    p.key_locator = CCNX_KEYLOC_KEYNAME;
    p.key_locator_value = locator.enc.data;
    p.key_locator_value_len = locator.enc.len;
    p.content = der;
    p.content_len = der_len;
    if (res == 0)
        res = ccnx_content_sign(out, &p, m->key);
    ccnx_name_free(&n);
    ccnx_name_free(&locator);
    return res;
}

struct mgmt *mgmt_create(struct fib *fib, const struct ccnx_key *key,
                         const struct mgmt_face_ops *ops, int allow_remote)
{
    struct mgmt *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return NULL;
    }
    m->fib = fib;
    m->key = key;
    m->ops = *ops;
    m->allow_remote = allow_remote;
    m->admin_uid = (int64_t)geteuid();
    if (build_key_object(m, "\xC1.M.S.localhost", MGMT_KEY_FRESHNESS, &m->key_object) != 0 ||
        build_key_object(m, "\xC1.M.S.neighborhood", MGMT_NEIGHBOR_KEY_FRESHNESS,
                         &m->neighbor_object) != 0) {
        mgmt_destroy(m);
        return NULL;
    }
    return m;
}

void mgmt_destroy(struct mgmt *m)
{
    if (m != NULL) {
        ccnx_buf_free(&m->key_object);
        ccnx_buf_free(&m->neighbor_object);
        free(m);
    }
}

void mgmt_set_admin_uid(struct mgmt *m, int64_t uid)
{
    m->admin_uid = uid;
}

const uint8_t *mgmt_ccndid(const struct mgmt *m)
{
    return ccnx_key_digest(m->key);
}

const struct ccnx_buf *mgmt_key_object(const struct mgmt *m)
{
    return &m->key_object;
}

/* ---- Replies ---- */

static int append_status(struct ccnx_buf *body, struct status st)
{
    ccnx_ccnb_open(body, CCNX_DTAG_StatusResponse);
    ccnx_ccnb_append_uint_element(body, CCNX_DTAG_StatusCode, (uint64_t)st.code);
    ccnx_ccnb_append_udata_element(body, CCNX_DTAG_StatusText, st.text, strlen(st.text));
    ccnx_ccnb_append_closer(body);
    return ccnx_buf_status(body);
}

/* The answer carries the request Interest's own name, so it satisfies it. */
static int sign_reply(struct mgmt *m, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                      const struct ccnx_buf *body, int nack, struct ccnx_buf *reply)
{
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = ibuf + pi->name.off;
    p.name_len = pi->name.len;
    p.type = nack ? CCNX_TYPE_NACK : CCNX_TYPE_DATA;
    p.freshness = MGMT_REPLY_FRESHNESS;
    p.key_locator = CCNX_KEYLOC_KEY;
    p.content = body->data;
    p.content_len = body->len;
    return ccnx_content_sign(reply, &p, m->key);
}

/* ---- Requests ---- */

/* Parses and verifies the signed request object; its Content is the body. */
static struct status open_request(struct ccnx_view req, struct ccnx_view *body)
{
    struct ccnx_content_parsed pc;
    struct ccnx_key *key = NULL;
    if (req.p == NULL || ccnx_content_parse(req.p, req.n, &pc) != 0) {
        return (struct status){400, "request is not a ContentObject"};
    }
    int res = ccnx_content_locator_key(req.p, &pc, &key);
    if (res == 0) {
        res = ccnx_content_verify(req.p, req.n, &pc, key);
    }
    ccnx_key_destroy(key);
    if (res != 0) {
        return (struct status){403, "request signature does not verify"};
    }
    *body = (struct ccnx_view){req.p + pc.content_value.off, pc.content_value.len};
    return ok;
}

static struct status do_newface(struct mgmt *m, const struct requester *rq, struct ccnx_view body,
                                struct ccnx_buf *out)
{
    struct ccnx_face_instance fi;
    if (ccnx_face_instance_parse(body.p, body.n, &fi) != 0 ||
        !ccnx_view_equals(fi.action, "newface"))
        return (struct status){400, "malformed FaceInstance"};
    if ((fi.ip_proto != 6 && fi.ip_proto != 17) || fi.host.p == NULL || fi.port <= 0)
        return (struct status){400, "newface needs IPProto 6 or 17, Host and Port"};
    unsigned faceid;
    if (m->ops.newface(m->ops.arg, &fi, owner_of(rq), &faceid) != 0)
        return (struct status){450, "could not create the face"};
    fi.action = (struct ccnx_view){NULL, 0};
    fi.ccndid = (struct ccnx_view){mgmt_ccndid(m), CCNX_DIGEST_LEN};
    fi.face_id = faceid;
    if (fi.lifetime < 0)
        fi.lifetime = INT32_MAX;
    return ccnx_face_instance_build(out, &fi) == 0 ? ok : (struct status){500, "reply too large"};
}

static struct status do_destroyface(struct mgmt *m, const struct requester *rq,
                                    struct ccnx_view body, struct ccnx_buf *out)
{
    struct ccnx_face_instance fi;
    struct mgmt_face target;
    if (ccnx_face_instance_parse(body.p, body.n, &fi) != 0 ||
        !ccnx_view_equals(fi.action, "destroyface") || fi.face_id < 0)
        return (struct status){400, "destroyface needs a FaceInstance with a FaceID"};
    if (fi.face_id > UINT32_MAX || !m->ops.face_query(m->ops.arg, (unsigned)fi.face_id, &target))
        return (struct status){404, "no such face"};
    if (!may_change(m, rq, target.owner))
        return (struct status){403, "the face belongs to another user"};
    if (m->ops.destroyface(m->ops.arg, (unsigned)fi.face_id) != 0)
        return (struct status){450, "could not destroy the face"};
    fi.action = (struct ccnx_view){NULL, 0};
    fi.ccndid = (struct ccnx_view){mgmt_ccndid(m), CCNX_DIGEST_LEN};
    return ccnx_face_instance_build(out, &fi) == 0 ? ok : (struct status){500, "reply too large"};
}

/* Registers (prefixreg, selfreg) or removes (unreg) fe's prefix on face
 * (owned by face_owner); an existing registration may be changed or
 * removed by whom may_change allows for it or for its face: the owner of a
 * face decides what is routed to it. A request that arrives on the face
 * itself always may: whoever holds the face owns what is routed to it,
 * even when the kernel cannot say who that is. */
static struct status apply_forwarding(struct mgmt *m, const struct requester *rq, int unreg,
                                      struct ccnx_forwarding_entry *fe, unsigned face,
                                      int64_t face_owner, uint64_t now)
{
    struct fib_nexthop *hop = fib_find(m->fib, fe->name.p, fe->name.n, face);
    if (hop != NULL && face != rq->face && !may_change(m, rq, hop->owner) &&
        !may_change(m, rq, face_owner))
        return (struct status){403, "the registration belongs to another user"};
    if (unreg) {
        if (hop == NULL || fib_remove(m->fib, fe->name.p, fe->name.n, face) != 0)
            return (struct status){404, "no such registration"};
        fe->flags = -1;
        return ok;
    }
    if (fe->flags < 0)
        fe->flags = CCNX_FORW_DEFAULT;
    if (fe->lifetime < 0)
        fe->lifetime = MGMT_DEFAULT_LIFETIME;
    uint64_t expires = now + (uint64_t)fe->lifetime * 1000000u;
    if (fib_add(m->fib, fe->name.p, fe->name.n, face, (unsigned)fe->flags, expires, owner_of(rq)) !=
        0)
        return (struct status){500, "could not register the prefix"};
    return ok;
}

/* prefixreg, selfreg and unreg share the ForwardingEntry body. */
static struct status do_forwarding(struct mgmt *m, const struct requester *rq, const char *verb,
                                   struct ccnx_view body, uint64_t now, struct ccnx_buf *out)
{
    struct ccnx_forwarding_entry fe;
    struct mgmt_face target;
    if (ccnx_forwarding_entry_parse(body.p, body.n, &fe) != 0 ||
        !ccnx_view_equals(fe.action, verb) || fe.name.p == NULL)
        return (struct status){400, "malformed ForwardingEntry"};
    int self = strcmp(verb, "selfreg") == 0;
    if (self && fe.face_id >= 0 && fe.face_id != rq->face)
        return (struct status){400, "selfreg names another face"};
    if (self)
        fe.face_id = rq->face;
    if (fe.face_id < 0 || fe.face_id > UINT32_MAX ||
        !m->ops.face_query(m->ops.arg, (unsigned)fe.face_id, &target))
        return (struct status){404, "no such face"};
    unsigned face = (unsigned)fe.face_id;
    int unreg = strcmp(verb, "unreg") == 0;
    struct status st = apply_forwarding(m, rq, unreg, &fe, face, target.owner, now);
    if (st.code != 0)
        return st;
    if (!unreg && target.local && m->ops.published != NULL)
        m->ops.published(m->ops.arg, fe.name.p, fe.name.n);
    fe.action = (struct ccnx_view){NULL, 0};
    fe.ccndid = (struct ccnx_view){mgmt_ccndid(m), CCNX_DIGEST_LEN};
    return ccnx_forwarding_entry_build(out, &fe) == 0 ? ok
                                                      : (struct status){500, "reply too large"};
}

/* A strategy choice governs every Interest under its prefix: ccnd's own
 * user and root make any; anyone else only one that touches nothing of
 * another's: no choice another made on that prefix, no live registration
 * of another on it or under it (whose producers it could cut off). */
static struct status may_choose_strategy(const struct mgmt *m, const struct requester *rq,
                                         struct ccnx_view name, uint64_t now)
{
    if (is_admin(m, rq)) {
        return ok;
    }
    int64_t owner;
    if (fib_strategy_owner(m->fib, name.p, name.n, &owner) && !may_change(m, rq, owner))
        return (struct status){403, "the strategy choice belongs to another user"};
    if (fib_others_under(m->fib, name.p, name.n, rq->uid, now))
        return (struct status){403, "another user's registrations are under the prefix"};
    return ok;
}

static struct status do_strategy(struct mgmt *m, const struct requester *rq, const char *verb,
                                 struct ccnx_view body, uint64_t now, struct ccnx_buf *out)
{
    struct ccnx_strategy_selection ss;
    char id[CCNX_STRATEGY_ID_MAX + 1] = "", params[256] = "";
    if (ccnx_strategy_selection_parse(body.p, body.n, &ss) != 0 || ss.name.p == NULL ||
        ss.parameters.n >= sizeof params)
        return (struct status){400, "malformed StrategySelection"};
    memcpy(id, ss.strategy_id.p ? (const char *)ss.strategy_id.p : "", ss.strategy_id.n);
    memcpy(params, ss.parameters.p ? (const char *)ss.parameters.p : "", ss.parameters.n);
    int res = 0;
    int set = strcmp(verb, "setstrategy") == 0, remove = strcmp(verb, "removestrategy") == 0;
    if (set && id[0] != '\0' && !m->ops.strategy_exists(m->ops.arg, id))
        return (struct status){404, "no such strategy"};
    if (set || remove) {
        struct status st = may_choose_strategy(m, rq, ss.name, now);
        if (st.code != 0)
            return st;
    }
    if (set)
        res = id[0] == '\0'
                  ? CCNX_E_VALUE
                  : fib_set_strategy(m->fib, ss.name.p, ss.name.n, id, params, owner_of(rq));
    else if (remove)
        res = fib_set_strategy(m->fib, ss.name.p, ss.name.n, NULL, NULL, MGMT_UID_NONE);
    if (res != 0)
        return (struct status){400, "strategy not set"};
    struct fib_result fr;
    if (fib_lookup(m->fib, ss.name.p, ss.name.n, now, &fr) != 0)
        return (struct status){400, "malformed name"};
    const char *cur = fr.strategy != NULL ? fr.strategy : "default";
    const char *cur_params = fr.params != NULL ? fr.params : "";
    /* The reply names the prefix the strategy is set on, as the reference's
     * does (ccnx:/ for the default). */
    struct ccnx_name at;
    ccnx_name_init(&at);
    if (ccnx_name_set_ccnb(&at, ss.name.p, ss.name.n) != 0 ||
        ccnx_name_truncate(&at, fr.strategy != NULL ? fr.strategy_comps : 0) != 0) {
        ccnx_name_free(&at);
        return (struct status){400, "malformed name"};
    }
    ss.name = (struct ccnx_view){at.enc.data, at.enc.len};
    ss.action = (struct ccnx_view){NULL, 0};
    ss.ccndid = (struct ccnx_view){mgmt_ccndid(m), CCNX_DIGEST_LEN};
    ss.strategy_id = (struct ccnx_view){(const uint8_t *)cur, strlen(cur)};
    ss.parameters = (struct ccnx_view){(const uint8_t *)cur_params, strlen(cur_params)};
    int built = ccnx_strategy_selection_build(out, &ss);
    ccnx_name_free(&at);
    return built == 0 ? ok : (struct status){500, "reply too large"};
}

static struct status dispatch(struct mgmt *m, const struct ccnx_mgmt_request *req,
                              const struct requester *rq, uint64_t now, struct ccnx_buf *out)
{
    static const char *const verbs[] = {"newface", "destroyface", "prefixreg",   "selfreg",
                                        "unreg",   "setstrategy", "getstrategy", "removestrategy"};
    const char *verb = NULL;
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        if (ccnx_view_equals(req->verb, verbs[i]))
            verb = verbs[i];
    }
    if (verb == NULL)
        return (struct status){404, "unknown control verb"};
    struct ccnx_view body;
    struct status st = open_request(req->request, &body);
    if (st.code != 0)
        return st;
    if (strcmp(verb, "newface") == 0)
        return do_newface(m, rq, body, out);
    if (strcmp(verb, "destroyface") == 0)
        return do_destroyface(m, rq, body, out);
    if (strstr(verb, "strategy") != NULL)
        return do_strategy(m, rq, verb, body, now, out);
    return do_forwarding(m, rq, verb, body, now, out);
}

static int handle_control(struct mgmt *m, unsigned face, const uint8_t *ibuf,
                          const struct ccnx_interest_parsed *pi, uint64_t now,
                          struct ccnx_buf *reply)
{
    struct ccnx_mgmt_request req;
    if (ccnx_mgmt_request_parse(ibuf + pi->name.off, pi->name.len, &req) != 0 ||
        memcmp(req.ccndid.p, mgmt_ccndid(m), CCNX_DIGEST_LEN) != 0) {
        return 0;
    }
    struct mgmt_face from = {1, MGMT_UID_UNKNOWN, MGMT_UID_NONE};
    struct ccnx_buf body = CCNX_BUF_INIT;
    struct status st;
    int known = face == 0 || m->ops.face_query(m->ops.arg, face, &from);
    if (!known || (!from.local && !m->allow_remote)) {
        st = (struct status){403, "control requests are accepted only from local faces"};
    } else {
        struct requester rq = {face, from.peer_uid, face == 0 || !from.local};
        st = dispatch(m, &req, &rq, now, &body);
    }
    if (st.code != 0) {
        ccnx_buf_reset(&body);
        append_status(&body, st);
    }
    int res = sign_reply(m, ibuf, pi, &body, st.code != 0, reply);
    ccnx_buf_free(&body);
    return res == 0 ? 1 : res;
}

/* Interests under the service prefix are answered with the KEY object when
 * it matches them. */
static int handle_key(struct mgmt *m, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                      struct ccnx_buf *reply)
{
    /* The reference listens at .../%C1.M.SRV/ccnd on the local side and at
     * the bare %C1.M.S.neighborhood for neighbours. */
    const struct ccnx_buf *const keys[] = {&m->key_object, &m->neighbor_object};
    const uint32_t min_comps[] = {3, 1};
    for (size_t i = 0; i < 2; i++) {
        const struct ccnx_buf *k = keys[i];
        struct ccnx_content_parsed pc;
        if (pi->name_count >= min_comps[i] && ccnx_content_parse(k->data, k->len, &pc) == 0 &&
            ccnx_match(ibuf, pi, k->data, k->len, &pc, NULL)) {
            return ccnx_buf_append(reply, k->data, k->len) == 0 ? 1 : CCNX_E_NOMEM;
        }
    }
    return 0;
}

int mgmt_handle_interest(struct mgmt *m, unsigned faceid, const uint8_t *interest, size_t len,
                         uint64_t now_us, struct ccnx_buf *reply)
{
    struct ccnx_interest_parsed pi;
    if (ccnx_interest_parse(interest, len, &pi) != 0) {
        return 0;
    }
    int res = handle_key(m, interest, &pi, reply);
    if (res == 0) {
        res = handle_control(m, faceid, interest, &pi, now_us, reply);
    }
    return res;
}
