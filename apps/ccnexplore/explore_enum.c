/* Repositories' children of a node: the name enumeration protocol
 * (%C1.E.be), one listing per repository that answers, each fetched whole
 * and merged into the tree. */
#include "explore_disco_internal.h"

#include <ccnx/error.h>

#include <stdlib.h>
#include <string.h>

void disco_enum_round(struct dnode *dn)
{
    struct ccnx_exclude_item *ex = calloc(dn->nresp + 1, sizeof *ex);
    struct ccnx_name name;
    struct req *q = disco_new_req(dn, REQ_ENUM);
    int r = ex != NULL && q != NULL ? ccnx_name_init(&name) : CCNX_E_NOMEM;
    for (size_t i = 0; r == 0 && i < dn->nresp; i++)
        ex[i] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, dn->resp[i]->keyid,
                                           dn->resp[i]->keyid_n};
    if (r == 0) {
        qsort(ex, dn->nresp, sizeof *ex, disco_cmp_exclude_item);
        r = disco_node_name_plus(dn, &name, "E.be", NULL, 0);
        r = r == 0 ? disco_express(dn->d, q, &name, ex, dn->nresp, -1, -1) : r;
        q = NULL; /* owned by the request, or freed by express */
        ccnx_name_free(&name);
    }
    free(q);
    free(ex);
    dn->enum_running = r == 0;
    if (r != 0)
        disco_say(dn->d, dn->node, "cannot ask repositories (%s)", ccnx_client_error(dn->d->c));
}

void disco_reply_request(struct responder *rp)
{
    struct dnode *dn = rp->dn;
    struct ccnx_exclude_item ex[2];
    uint8_t vcomp[CCNX_VERSION_MAX_LEN];
    size_t nex = 0;
    if (rp->version > 0) {
        int vlen = ccnx_naming_version_build(rp->version, vcomp);
        ex[0] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
        ex[1] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, vcomp, (size_t)vlen};
        nex = vlen > 0 ? 2 : 0;
    }
    struct ccnx_name name;
    struct req *q = disco_new_req(dn, REQ_REPLY);
    if (q == NULL || ccnx_name_init(&name) != 0) {
        free(q);
        return;
    }
    q->resp = rp;
    if (disco_node_name_plus(dn, &name, "E.be", rp->keyid, rp->keyid_n) != 0 ||
        disco_express(dn->d, q, &name, ex, nex, 1, -1) != 0)
        disco_say(dn->d, dn->node, "cannot ask a repository for its listing");
    else
        dn->replies++;
    ccnx_name_free(&name);
}

static void read_collection(struct responder *rp)
{
    struct dnode *dn = rp->dn;
    size_t added;
    if (ex_tree_merge_listing(dn->d->t, dn->node, rp->body.data, rp->body.len, EX_SRC_REPO,
                              &added) != 0)
        disco_say(dn->d, dn->node, "a repository's listing is malformed (%zu names read)", added);
    ccnx_buf_reset(&rp->body);
    disco_changed(dn->d);
}

static void reap_fetch(void *arg)
{
    struct responder *rp = arg;
    rp->reap = 0;
    ccnx_fetch_destroy(rp->fetch);
    rp->fetch = NULL;
    rp->dn->d->fetches--;
    rp->dn->busy--;
    rp->dn->replies--;
    disco_finish_if_idle(rp->dn);
}

static void reply_data(void *arg, uint64_t segment, const uint8_t *p, size_t n)
{
    (void)segment;
    struct responder *rp = arg;
    if (rp->body.len + n <= ENUM_BODY_MAX)
        ccnx_buf_append(&rp->body, p, n);
}

static void reply_done(void *arg, int result, const char *error)
{
    struct responder *rp = arg;
    if (result == 0 && rp->body.len < ENUM_BODY_MAX)
        read_collection(rp);
    else
        disco_say(rp->dn->d, rp->dn->node, "a repository's listing could not be read (%s)",
                  result == 0 ? "too big" : error);
    ccnx_client_schedule(rp->dn->d->c, 0, reap_fetch, rp, &rp->reap);
}

static void fetch_reply(struct responder *rp, const struct ccnx_name *versioned)
{
    struct ccnx_fetch_params p;
    ccnx_fetch_params_init(&p);
    p.name = versioned;
    p.resolve = 0;
    p.timeout_ms = 4 * rp->dn->d->o.wait_ms;
    p.on_data = reply_data;
    p.on_done = reply_done;
    p.arg = rp;
    ccnx_buf_reset(&rp->body);
    if (ccnx_fetch_start(rp->dn->d->c, &p, &rp->fetch) != 0) {
        ccnx_fetch_destroy(rp->fetch);
        rp->fetch = NULL;
        disco_say(rp->dn->d, rp->dn->node, "cannot read a repository's listing");
        return;
    }
    rp->dn->d->fetches++;
    rp->dn->busy++;
    rp->dn->replies++;
}

/* A reply segment under <name>/%C1.E.be/<key id>/<version>/<segment>. */
void disco_reply_content(struct req *q, const uint8_t *obj, const struct ccnx_content_parsed *pc)
{
    struct dnode *dn = q->dn;
    struct responder *rp = q->resp;
    struct ccnx_name name;
    struct ccnx_comp v, s;
    uint64_t version, seg, final = 0;
    size_t base = dn->d->t->prefix.count + (size_t)ex_node_depth(dn->node) + 2;
    if (ccnx_name_init(&name) != 0)
        return;
    int ok = ccnx_name_set_ccnb(&name, obj + pc->name.off, pc->name.len) == 0 &&
             name.count == base + 2 && ccnx_name_comp(&name, base, &v) == 0 &&
             ccnx_name_comp(&name, base + 1, &s) == 0 &&
             ccnx_naming_version_decode(v.p, v.n, &version) == 0 &&
             ccnx_naming_segment_decode(s.p, s.n, &seg) == 0 && version > rp->version;
    if (!ok) {
        disco_say(dn->d, dn->node, "a repository's listing is not named as the protocol says");
    } else if (rp->fetch == NULL) {
        rp->version = version;
        if (pc->has_final_block_id)
            ccnx_naming_segment_decode(obj + pc->final_block_id.off, pc->final_block_id.len,
                                       &final);
        if (seg == 0 && final == 0 && pc->has_final_block_id) {
            ccnx_buf_reset(&rp->body);
            ccnx_buf_append(&rp->body, obj + pc->content_value.off, pc->content_value.len);
            read_collection(rp);
        } else if (ccnx_name_truncate(&name, base + 1) == 0) {
            fetch_reply(rp, &name);
        }
    }
    ccnx_name_free(&name);
}

/* An answer to <name>/%C1.E.be: a new responder's key id. */
void disco_enum_content(struct req *q, const uint8_t *obj, const struct ccnx_content_parsed *pc)
{
    struct dnode *dn = q->dn;
    struct ccnx_name name;
    struct ccnx_comp k;
    size_t at = dn->d->t->prefix.count + (size_t)ex_node_depth(dn->node) + 1;
    if (ccnx_name_init(&name) != 0)
        return;
    int ok = ccnx_name_set_ccnb(&name, obj + pc->name.off, pc->name.len) == 0 &&
             ccnx_name_comp(&name, at, &k) == 0 && ccnx_naming_is_keyid(k.p, k.n);
    struct responder *rp = ok ? calloc(1, sizeof *rp) : NULL;
    struct responder **all = rp != NULL ? realloc(dn->resp, (dn->nresp + 1) * sizeof *all) : NULL;
    if (!ok) {
        disco_say(dn->d, dn->node, "an answer to the listing request has no responder key id");
        dn->enum_running = 0;
    } else if (all == NULL) {
        free(rp);
        dn->enum_running = 0;
    } else {
        dn->resp = all;
        rp->dn = dn;
        memcpy(rp->keyid, k.p, k.n);
        rp->keyid_n = k.n;
        ccnx_buf_init(&rp->body);
        for (size_t i = 0; i < dn->nresp; i++)
            if (dn->resp[i]->keyid_n == k.n && memcmp(dn->resp[i]->keyid, k.p, k.n) == 0)
                ok = 0; /* a responder that ignores the Exclude: stop asking */
        if (ok) {
            dn->resp[dn->nresp++] = rp;
            disco_reply_request(rp);
            disco_enum_round(dn);
        } else {
            free(rp);
            dn->enum_running = 0;
        }
    }
    ccnx_name_free(&name);
}
