/* Answering Interests, which reach the repository for the namespaces of
 * its policy (policy_apply.c registers them): name enumeration requests
 * (<prefix>/%C1.E.be, see enumerate.h) with the current list of children;
 * others from the store first, as the reference does, then the repository
 * protocol's commands (RepoProtocol.txt) for Interests that allow new
 * content to be made (AnswerOriginKind with the NEW bit):
 *   <prefix>/%C1.R.sw/<nonce>                        start-write
 *   <prefix>/%C1.R.sw-c/<nonce>/<segment>/<digest>   checked start-write
 *   /%C1.R.af~<filename>                             bulk import (import.c)
 * All are answered with a RepositoryInfo object named by the Interest's
 * name and signed with the repository's key; an Interest the store cannot
 * answer and that is no command gets no answer. */
#include "ccnr.h"
#include "enumerate.h"

#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/repo.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>
#include <ccnx/keystore.h>

#include <string.h>
#include <time.h>

#define REPLY_FRESHNESS 12 /* seconds, the reference's */

static const char *uri_of(struct ccnx_buf *b, const uint8_t *name, size_t len)
{
    ccnx_buf_reset(b);
    if (ccnx_uri_append(b, name, len) != 0) {
        ccnx_buf_reset(b);
        ccnx_buf_append_str(b, "(unprintable name)");
    }
    return ccnx_buf_cstr(b);
}

/* Puts a RepositoryInfo (DATA naming `held` when not NULL, else INFO)
 * named by the Interest's name, with an InfoString when info is not NULL;
 * as a NACK when `refuse` (the InfoString says why). */
static int reply_info_as(struct ccnr *r, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                         const struct ccnx_name *held, const char *info, int refuse)
{
    struct ccnx_buf body = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    int rc = ccnx_repo_info_build(&body, &r->set.global_prefix, held, held != NULL, info);
    if (rc == 0) {
        struct ccnx_content_params p;
        ccnx_content_params_init(&p);
        p.name = ibuf + pi->name.off;
        p.name_len = pi->name.len;
        p.freshness = refuse ? 1 : REPLY_FRESHNESS;
        p.type = refuse ? CCNX_TYPE_NACK : CCNX_TYPE_DATA;
        p.content = body.data;
        p.content_len = body.len;
        rc = ccnx_content_sign(&obj, &p, ccnx_keystore_key(r->ks));
    }
    rc = rc == 0 ? ccnx_client_put(r->c, obj.data, obj.len) : rc;
    if (rc != 0) {
        ccnr_log(CCNR_ERROR, "cannot answer a repository command: %s", ccnx_strerror(rc));
    }
    ccnx_buf_free(&body);
    ccnx_buf_free(&obj);
    return rc;
}

static int reply_info(struct ccnr *r, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                      const struct ccnx_name *held, const char *info)
{
    return reply_info_as(r, ibuf, pi, held, info, 0);
}

/* The scope rule of CCNR_START_WRITE_SCOPE_LIMIT: below 3 the Interest
 * must carry a Scope, and one not above the limit. */
static int scope_allowed(const struct ccnr *r, const struct ccnx_interest_parsed *pi)
{
    int limit = r->set.start_write_scope_limit;
    return limit >= 3 || (pi->scope >= 0 && pi->scope <= limit);
}

static void start_write(struct ccnr *r, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                        const struct ccnx_name *prefix, uint64_t segment)
{
    struct ccnx_buf u = CCNX_BUF_INIT;
    const char *uri = uri_of(&u, prefix->enc.data, prefix->enc.len);
    if (!ccnr_write_has_room(r)) {
        /* the first refusal of a run of them is logged, then every 100th */
        if (r->start_writes_refused++ % 100 == 0) {
            ccnr_log(CCNR_WARNING,
                     "start-write of %s not answered: %d start-writes are running "
                     "(%llu refused since start)",
                     uri, CCNR_MAX_WRITES, (unsigned long long)r->start_writes_refused);
        }
        ccnx_buf_free(&u);
        return;
    }
    const char *refusal = ccnr_write_refusal(r);
    if (refusal != NULL) {
        /* told at once, so a writer need not wait for fetches that never come */
        ccnr_log(CCNR_WARNING, "start-write of %s refused: %s", uri, refusal);
        ccnx_buf_free(&u);
        reply_info_as(r, ibuf, pi, NULL, refusal, 1);
        return;
    }
    ccnr_log(CCNR_INFO, "start-write of %s from segment %llu", uri, (unsigned long long)segment);
    ccnx_buf_free(&u);
    if (reply_info(r, ibuf, pi, NULL, NULL) == 0) {
        ccnr_write_start(r, prefix, segment);
    }
}

/* The checked form: DATA naming <prefix>/<segment>/<digest> when that very
 * object is held, else a start-write from that segment on. */
static void checked_start_write(struct ccnr *r, const uint8_t *ibuf,
                                const struct ccnx_interest_parsed *pi, struct ccnx_name *prefix,
                                const struct ccnx_comp *seg, const struct ccnx_comp *digest)
{
    uint64_t segment;
    if (ccnx_naming_segment_decode(seg->p, seg->n, &segment) != 0 || digest->n != CCNX_DIGEST_LEN) {
        ccnr_log(CCNR_WARNING, "checked start-write with a malformed segment or digest: ignored");
        return;
    }
    struct ccnx_name full;
    ccnx_name_init(&full);
    int rc = ccnx_name_copy(&full, prefix);
    rc = rc == 0 ? ccnx_name_append(&full, seg->p, seg->n) : rc;
    rc = rc == 0 ? ccnr_store_has(r->store, full.enc.data, full.enc.len, digest->p) : rc;
    if (rc == 1) {
        rc = ccnx_name_append(&full, digest->p, digest->n);
        struct ccnx_buf u = CCNX_BUF_INIT;
        ccnr_log(CCNR_INFO, "checked start-write: %s is held",
                 uri_of(&u, full.enc.data, full.enc.len));
        ccnx_buf_free(&u);
        if (rc == 0) {
            reply_info(r, ibuf, pi, &full, NULL);
        }
    } else if (rc == 0) {
        start_write(r, ibuf, pi, prefix, segment);
    } else {
        ccnr_log(CCNR_ERROR, "checked start-write: store lookup failed: %s", ccnx_strerror(rc));
    }
    ccnx_name_free(&full);
}

/* Bulk import (ccnx:/%C1.R.af~<filename>, the marker in the first
 * component as the reference looks for it): 1 when it was one (answered
 * or not). */
static int bulk_import(struct ccnr *r, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                       const struct ccnx_name *n)
{
    struct ccnx_comp m;
    if (n->count < 1 || ccnx_name_comp(n, 0, &m) != 0 || !ccnr_import_is_request(m.p, m.n)) {
        return 0;
    }
    if (!scope_allowed(r, pi)) {
        ccnr_log(CCNR_INFO, "bulk import with Scope %d ignored: CCNR_START_WRITE_SCOPE_LIMIT is %d",
                 pi->scope, r->set.start_write_scope_limit);
        return 1;
    }
    char info[1024];
    ccnr_import_request(r, m.p, m.n, info, sizeof info);
    reply_info(r, ibuf, pi, NULL, info);
    return 1;
}

/* 1 when the Interest was a repository command (answered or not). */
static int command(struct ccnr *r, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    if (ccnx_name_set_ccnb(&n, ibuf + pi->name.off, pi->name.len) != 0) {
        ccnx_name_free(&n);
        return 0;
    }
    if (bulk_import(r, ibuf, pi, &n)) {
        ccnx_name_free(&n);
        return 1;
    }
    struct ccnx_comp m, seg, digest;
    int kind = 0; /* 1 start-write, 2 checked */
    size_t marker = 0;
    if (n.count >= 3 && ccnx_name_comp(&n, n.count - 2, &m) == 0 &&
        ccnx_naming_command_is(m.p, m.n, "R.sw")) {
        kind = 1;
        marker = n.count - 2;
    } else if (n.count >= 5 && ccnx_name_comp(&n, n.count - 4, &m) == 0 &&
               ccnx_naming_command_is(m.p, m.n, "R.sw-c")) {
        kind = 2;
        marker = n.count - 4;
        ccnx_name_comp(&n, n.count - 2, &seg);
        ccnx_name_comp(&n, n.count - 1, &digest);
    }
    if (kind != 0 && !scope_allowed(r, pi)) {
        ccnr_log(CCNR_INFO, "start-write with Scope %d ignored: CCNR_START_WRITE_SCOPE_LIMIT is %d",
                 pi->scope, r->set.start_write_scope_limit);
    } else if (kind != 0) {
        struct ccnx_name prefix;
        ccnx_name_init(&prefix);
        if (ccnx_name_copy(&prefix, &n) == 0 && ccnx_name_truncate(&prefix, marker) == 0) {
            if (kind == 1) {
                start_write(r, ibuf, pi, &prefix, 0);
            } else {
                checked_start_write(r, ibuf, pi, &prefix, &seg, &digest);
            }
        }
        ccnx_name_free(&prefix);
    }
    ccnx_name_free(&n);
    return kind != 0;
}

/* The reply to a name enumeration request, brought up to date first when
 * the Interest allows new content (it is made, like the reference's, on
 * demand); objects of the open write batch are committed before, so that
 * they are listed. 1 with the reply in obj, 0 for none, or negative. */
static int enumerate(struct ccnr *r, const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                     const struct ccnx_name *prefix, struct ccnx_buf *obj)
{
    const struct ccnx_key *key = ccnx_keystore_key(r->ks);
    if ((ccnx_interest_aok(pi) & CCNX_AOK_NEW) != 0) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        int rc = ccnr_write_commit(r);
        rc = rc == 0 ? ccnr_enum_update(r->store, key, prefix, &now) : rc;
        if (rc < 0) {
            struct ccnx_buf u = CCNX_BUF_INIT;
            ccnr_log(CCNR_ERROR, "cannot list %s: %s",
                     uri_of(&u, prefix->enc.data, prefix->enc.len), ccnx_strerror(rc));
            ccnx_buf_free(&u);
        }
    }
    return ccnr_enum_answer(r->store, key, ibuf, pi, prefix, obj);
}

/* Straight from the store's map into the output to ccnd: one copy. The
 * Interest counts as answered even when ccnd is gone: there is no one
 * else to answer it. */
static int send_answer(void *arg, const uint8_t *obj, size_t len)
{
    struct ccnr *r = arg;
    int rc = ccnx_client_put(r->c, obj, len);
    if (rc != 0) {
        ccnr_log(CCNR_ERROR, "cannot send an answer to ccnd: %s", ccnx_strerror(rc));
    }
    return 0;
}

static int on_interest(void *arg, const uint8_t *ibuf, size_t len,
                       const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct ccnr *r = arg;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct ccnx_name prefix;
    ccnx_name_init(&prefix);
    int rc;
    if (ccnr_enum_request(ibuf + pi->name.off, pi->name.len, &prefix) == 1) {
        rc = enumerate(r, ibuf, pi, &prefix, &obj);
        if (rc == 1) {
            send_answer(r, obj.data, obj.len);
        }
    } else {
        rc = ccnr_store_answer(r->store, ibuf, pi, send_answer, r);
    }
    ccnx_name_free(&prefix);
    ccnx_buf_free(&obj);
    if (rc == 1) {
        return 1;
    }
    if (rc < 0) {
        ccnr_log(CCNR_ERROR, "cannot answer from the store: %s", ccnx_strerror(rc));
    }
    if ((ccnx_interest_aok(pi) & CCNX_AOK_NEW) == 0) {
        return 0;
    }
    return command(r, ibuf, pi);
}

int ccnr_serve_start(struct ccnr *r)
{
    return ccnr_policy_start(r, on_interest);
}
