/* ccnd's internal client: its key and identity (ccndid), the KEY object it
 * publishes under %C1.M.S.localhost/%C1.M.SRV/ccnd (and, for neighbours
 * finding it, under %C1.M.S.neighborhood/%C1.M.SRV/ccnd), and the control
 * requests /ccnx/<ccndid>/<verb>/<signed request> of Registration.txt.
 *
 * It sees the forwarder only through the FIB (registrations) and a small
 * set of callbacks for faces, so it can be tested without sockets. */
#ifndef CCND_MGMT_H
#define CCND_MGMT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/mgmt.h>

struct fib;
struct ccnx_key;

/* What a ForwardingEntry without FreshnessSeconds gets (the reference's value). */
#define MGMT_DEFAULT_LIFETIME       2000000000
#define MGMT_REPLY_FRESHNESS        10 /* seconds, as the reference */
#define MGMT_KEY_FRESHNESS          600
#define MGMT_NEIGHBOR_KEY_FRESHNESS 5 /* the neighborhood's copy, as the reference */

/* Who may remove or change a face or a registration: root, the uid ccnd
 * runs as, and the uid that made it. A request's uid is that of the local
 * process that sent it (MGMT_UID_UNKNOWN when it cannot be known: it may
 * then only add). Requests from remote faces, when accepted at all
 * (allow_remote), come from the operator's choice and may do anything. */
#define MGMT_UID_NONE    (-1) /* made by ccnd itself or by a network peer */
#define MGMT_UID_UNKNOWN (-2)

struct mgmt_face {
    int local;        /* a unix socket or a loopback peer */
    int64_t peer_uid; /* the process at the other end, or MGMT_UID_UNKNOWN */
    int64_t owner;    /* the uid that made the face, or MGMT_UID_NONE */
};

struct mgmt_face_ops {
    /* 1 and *out when faceid exists (and is not a listener), else 0. */
    int (*face_query)(void *arg, unsigned faceid, struct mgmt_face *out);
    /* Create (or find) the face a newface request describes; 0 and *faceid, or
     * a negative code. The request's Host/Port/IPProto are validated already.
     * A face made here is owned by `owner` (a uid, or MGMT_UID_NONE). */
    int (*newface)(void *arg, const struct ccnx_face_instance *req, int64_t owner,
                   unsigned *faceid);
    int (*destroyface)(void *arg, unsigned faceid);
    /* 1 when the forwarder has a strategy of that name (setstrategy of any
     * other is refused, as the reference refuses it). */
    int (*strategy_exists)(void *arg, const char *name);
    /* A prefix (encoded Name) registered on a local face: an application
     * publishes there (may be NULL). */
    void (*published)(void *arg, const uint8_t *name, size_t len);
    void *arg;
};

struct mgmt;

/* key: ccnd's private key (borrowed, must outlive mgmt). allow_remote: accept
 * control requests from non-local faces too. */
struct mgmt *mgmt_create(struct fib *fib, const struct ccnx_key *key,
                         const struct mgmt_face_ops *ops, int allow_remote);
void mgmt_destroy(struct mgmt *m);
/* The uid with every right besides root (default: the one ccnd runs as). */
void mgmt_set_admin_uid(struct mgmt *m, int64_t uid);
const uint8_t *mgmt_ccndid(const struct mgmt *m);
/* The signed KEY object (as published). */
const struct ccnx_buf *mgmt_key_object(const struct mgmt *m);

/* Offers an Interest that arrived on faceid. Returns 1 and appends one
 * ContentObject (the answer) to reply when the internal client answers it,
 * 0 when the Interest is not for the internal client, negative on failure
 * to build an answer. now_us dates registrations. */
int mgmt_handle_interest(struct mgmt *m, unsigned faceid, const uint8_t *interest, size_t len,
                         uint64_t now_us, struct ccnx_buf *reply);

#endif
