/* The policy in force in the daemon: found in the store (or created) at
 * startup, its namespaces and the global prefix registered with ccnd in
 * place of ccnx:/, and replaced when a start-write stores a newer version
 * under <global prefix>/data/policy.xml (RepoPolicies.txt's rules: it must
 * parse, name the same GlobalPrefix and carry a newer version; anything
 * else is stored but not used).
 *
 * Whose signature a policy carries is not checked beyond what every
 * start-write checks (the object verifies with its publisher's key), as in
 * the reference: whoever may start a write (CCNR_START_WRITE_SCOPE_LIMIT)
 * may replace the policy. */
#include "ccnr.h"
#include "policy.h"

#include <ccnx/error.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REGISTER_WAIT_MS 10000

struct ccnr_policy_state {
    struct ccnr_policy cur;
    uint64_t version; /* of cur, 1/4096 s */
    ccnx_interest_fn fn;
    uint64_t *filters;
    size_t nfilters;
};

static void log_skipped(void *arg, const char *why)
{
    (void)arg;
    ccnr_log(CCNR_WARNING, "%s", why);
}

static void log_in_force(const struct ccnr_policy_state *ps, const char *how)
{
    struct ccnx_buf d = CCNX_BUF_INIT;
    ccnr_policy_describe(&d, &ps->cur);
    struct timespec ts;
    ccnx_naming_timestamp_to_timespec(ps->version, &ts);
    ccnr_log(CCNR_INFO, "policy %s: version %lld.%03ld, namespaces %s", how, (long long)ts.tv_sec,
             ts.tv_nsec / 1000000, ccnx_buf_cstr(&d));
    ccnx_buf_free(&d);
}

/* A policy that did not exist yet: the default one, signed with the
 * repository's key and committed to the store. */
static int create_default(struct ccnr *r, struct ccnr_policy_state *ps)
{
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    int rc = ccnr_policy_default(&ps->cur, &r->set.global_prefix);
    rc = rc == 0 ? ccnr_policy_sign(&obj, &ps->cur, ccnx_keystore_key(r->ks), &now, &ps->version)
                 : rc;
    rc = rc == 0 ? ccnr_store_begin(r->store) : rc;
    if (rc == 0) {
        rc = ccnr_store_add(r->store, obj.data, obj.len);
        if (rc < 0) {
            ccnr_store_abort(r->store);
        } else {
            rc = ccnr_store_commit(r->store);
        }
    }
    ccnx_buf_free(&obj);
    return rc;
}

/* 1 when candidate i of n is needed: no other candidate lies above it (an
 * Interest must reach one filter only, or a command would run twice). */
static int needed(const struct ccnx_name *const *cand, size_t n, size_t i)
{
    for (size_t j = 0; j < n; j++) {
        if (j == i || ccnx_name_is_prefix(cand[j], cand[i]) != 1) {
            continue;
        }
        if (cand[j]->count < cand[i]->count || j < i) {
            return 0;
        }
    }
    return 1;
}

/* Sets filters on the namespaces and the global prefix, then removes the
 * old ones (a prefix in both stays registered). */
static int set_filters(struct ccnr *r, struct ccnr_policy_state *ps, int wait)
{
    size_t n = ps->cur.count + 1;
    const struct ccnx_name **cand = calloc(n, sizeof *cand);
    uint64_t *ids = calloc(n, sizeof *ids);
    if (cand == NULL || ids == NULL) {
        free(cand);
        free(ids);
        return CCNX_E_NOMEM;
    }
    for (size_t i = 0; i < ps->cur.count; i++) {
        cand[i] = &ps->cur.spaces[i];
    }
    cand[n - 1] = &ps->cur.global_prefix;
    size_t k = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (needed(cand, n, i)) {
            rc = ccnx_client_set_filter(r->c, cand[i], CCNX_FILTER_REGISTER, 0, ps->fn, r, &ids[k]);
            k += rc == 0;
        }
    }
    for (size_t i = 0; rc == 0 && wait && i < k; i++) {
        rc = ccnx_client_wait_registered(r->c, ids[i], REGISTER_WAIT_MS);
    }
    for (size_t i = 0; i < ps->nfilters; i++) {
        ccnx_client_clear_filter(r->c, ps->filters[i]);
    }
    free(ps->filters);
    ps->filters = ids;
    ps->nfilters = k;
    free(cand);
    return rc;
}

int ccnr_policy_start(struct ccnr *r, ccnx_interest_fn fn)
{
    struct ccnr_policy_state *ps = calloc(1, sizeof *ps);
    if (ps == NULL) {
        return CCNX_E_NOMEM;
    }
    ps->fn = fn;
    r->policy = ps;
    int rc = ccnr_policy_load(r->store, &r->set.global_prefix, &ps->cur, &ps->version, log_skipped,
                              NULL);
    if (rc == 0) {
        rc = create_default(r, ps);
        if (rc != 0) {
            ccnr_log(CCNR_SEVERE, "cannot store the default policy: %s", ccnr_store_strerror(rc));
            return rc;
        }
        log_in_force(ps, "created");
    } else if (rc == 1) {
        log_in_force(ps, "loaded");
    } else {
        ccnr_log(CCNR_SEVERE, "cannot read the policy: %s", ccnr_store_strerror(rc));
        return rc;
    }
    return set_filters(r, ps, 1);
}

/* Why the stored version ver of the policy cannot replace the one in
 * force, or NULL when it can (then *np holds it). */
static const char *replacement(struct ccnr *r, const struct ccnx_name *pn,
                               const struct ccnx_comp *ver, struct ccnr_policy *np, char *why,
                               size_t whylen)
{
    struct ccnr_policy_state *ps = r->policy;
    uint64_t v = 0;
    struct ccnx_buf body = CCNX_BUF_INIT;
    int rc = ccnr_policy_read_version(r->store, pn, ver->p, ver->n, &body);
    const char *res = NULL;
    if (ccnx_naming_version_decode(ver->p, ver->n, &v) != 0 || v <= ps->version) {
        res = "its version is not newer than the one in force";
    } else if (rc != 1) {
        res = rc == 0 ? "it is incomplete or too large" : ccnr_store_strerror(rc);
    } else if (ccnr_policy_parse(np, body.data, body.len, why, whylen) != 0) {
        res = why;
    } else if (ccnx_name_compare(&np->global_prefix, &ps->cur.global_prefix) != 0) {
        ccnr_policy_free(np);
        res = "its GlobalPrefix differs from the one in force";
    }
    ccnx_buf_free(&body);
    return res;
}

void ccnr_policy_written(struct ccnr *r, const struct ccnx_name *prefix)
{
    struct ccnr_policy_state *ps = r->policy;
    if (ps == NULL ||
        !ccnr_policy_is_version_name(&r->set.global_prefix, prefix->enc.data, prefix->enc.len)) {
        return;
    }
    struct ccnx_name pn;
    ccnx_name_init(&pn);
    struct ccnx_comp ver;
    struct ccnr_policy np;
    char why[300];
    const char *no = ccnr_policy_name(&pn, &r->set.global_prefix) == 0 &&
                             ccnx_name_comp(prefix, pn.count, &ver) == 0
                         ? replacement(r, &pn, &ver, &np, why, sizeof why)
                         : "out of memory";
    struct ccnx_buf u = CCNX_BUF_INIT;
    ccnx_uri_append_name(&u, prefix);
    if (no != NULL) {
        ccnr_log(CCNR_WARNING, "new policy %s stored but not used: %s", ccnx_buf_cstr(&u), no);
    } else {
        ccnr_policy_free(&ps->cur);
        ps->cur = np;
        ccnx_naming_version_decode(ver.p, ver.n, &ps->version);
        log_in_force(ps, "replaced");
        int rc = set_filters(r, ps, 0);
        if (rc != 0) {
            ccnr_log(CCNR_ERROR, "cannot register the new policy's namespaces: %s",
                     ccnx_strerror(rc));
        }
    }
    ccnx_buf_free(&u);
    ccnx_name_free(&pn);
}

void ccnr_policy_stop(struct ccnr *r)
{
    struct ccnr_policy_state *ps = r->policy;
    if (ps == NULL) {
        return;
    }
    ccnr_policy_free(&ps->cur);
    free(ps->filters);
    free(ps);
    r->policy = NULL;
}
