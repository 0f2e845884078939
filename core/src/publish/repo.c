/* The repository write protocol (RepoProtocol.txt): RepositoryInfo bodies
 * and the start-write Interest, plain and checked. */
#include "seqwriter_internal.h"

#include <ccnx/client.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/naming.h>

#include <stdlib.h>
#include <string.h>

/* The 3-byte binary Type values (RepositoryInfoObject.txt). */
static const uint8_t TYPE_INFO_BIN[3] = {0x20, 0xD1, 0x4E};
static const uint8_t TYPE_DATA_BIN[3] = {0x0C, 0x04, 0xC0};

static int ri_type(const uint8_t *p, size_t n, int *type)
{
    if ((n == 4 && memcmp(p, "INFO", 4) == 0) || (n == 3 && memcmp(p, TYPE_INFO_BIN, 3) == 0)) {
        *type = CCNX_REPO_INFO_INFO;
        return 0;
    }
    if ((n == 4 && memcmp(p, "DATA", 4) == 0) || (n == 3 && memcmp(p, TYPE_DATA_BIN, 3) == 0)) {
        *type = CCNX_REPO_INFO_DATA;
        return 0;
    }
    return CCNX_E_VALUE;
}

static int ri_text(struct ccnx_ccnb_reader *r, uint64_t dtag, struct ccnx_span *out)
{
    return ccnx_ccnb_read_blob(r, dtag, &out->off, &out->len);
}

/* Component elements at the reader's position: their span and count. */
static int ri_components(struct ccnx_ccnb_reader *r, struct ccnx_span *span, size_t *count)
{
    size_t start = r->pos;
    while (r->err == 0 && ccnx_ccnb_peek_dtag(r) == CCNX_DTAG_Component) {
        size_t off, n;
        if (ccnx_ccnb_read_blob(r, CCNX_DTAG_Component, &off, &n) != 0) {
            return r->err;
        }
        if (++*count > CCNX_NAME_MAX_COMPONENTS) {
            return CCNX_E_TOOBIG; /* no name could hold it */
        }
    }
    if (*count > 0) {
        span->off = start;
        span->len = r->pos - start;
    }
    return r->err;
}

static int ri_global_prefix(struct ccnx_ccnb_reader *r, struct ccnx_repo_info *ri)
{
    if (ccnx_ccnb_enter(r, CCNX_DTAG_GlobalPrefixName) != 0 ||
        ri_components(r, &ri->global_prefix, &ri->global_prefix_count) != 0 ||
        ccnx_ccnb_leave(r) != 0) {
        return r->err != 0 ? r->err : CCNX_E_STRUCTURE;
    }
    /* The reference repository's form: the components follow the empty element. */
    if (ri->global_prefix_count == 0) {
        return ri_components(r, &ri->global_prefix, &ri->global_prefix_count);
    }
    return 0;
}

static int ri_names(struct ccnx_ccnb_reader *r, struct ccnx_repo_info *ri)
{
    size_t start, end;
    while (ccnx_ccnb_skip_optional(r, CCNX_DTAG_Name, &start, &end) == 1) {
        if (ri->name_count == CCNX_REPO_INFO_MAX_NAMES) {
            return CCNX_E_TOOBIG;
        }
        if (ccnx_name_check_ccnb(r->buf + start, end - start) != 0) {
            return CCNX_E_VALUE;
        }
        ri->names[ri->name_count].off = start;
        ri->names[ri->name_count].len = end - start;
        ri->name_count++;
    }
    return r->err;
}

int ccnx_repo_info_parse(const uint8_t *buf, size_t len, struct ccnx_repo_info *ri)
{
    memset(ri, 0, sizeof *ri);
    size_t end;
    int rc = ccnx_ccnb_element_end(buf, len, 0, &end);
    if (rc != 0) {
        return rc;
    }
    if (end != len) {
        return CCNX_E_TRAILING;
    }
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, buf, len, 0);
    struct ccnx_span type;
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_RepositoryInfo) != 0 ||
        ri_text(&r, CCNX_DTAG_Version, &ri->version) != 0 ||
        ri_text(&r, CCNX_DTAG_Type, &type) != 0) {
        return r.err;
    }
    rc = ri_type(buf + type.off, type.len, &ri->type);
    if (rc == 0 && ri_text(&r, CCNX_DTAG_RepositoryVersion, &ri->repo_version) != 0) {
        rc = r.err;
    }
    if (rc == 0) {
        rc = ri_global_prefix(&r, ri);
    }
    if (rc == 0 && ri_text(&r, CCNX_DTAG_LocalName, &ri->local_name) != 0) {
        rc = r.err;
    }
    if (rc == 0) {
        rc = ri_names(&r, ri);
    }
    if (rc == 0 && ccnx_ccnb_peek_dtag(&r) == CCNX_DTAG_InfoString) {
        ri->has_info_string = 1;
        rc = ri_text(&r, CCNX_DTAG_InfoString, &ri->info_string);
    }
    if (rc == 0 && ccnx_ccnb_leave(&r) != 0) {
        rc = r.err;
    }
    if (rc == 0 && r.pos != len) {
        rc = CCNX_E_STRUCTURE;
    }
    if (rc != 0) {
        memset(ri, 0, sizeof *ri);
    }
    return rc;
}

int ccnx_repo_info_global_prefix(const uint8_t *buf, const struct ccnx_repo_info *ri,
                                 struct ccnx_name *n)
{
    struct ccnx_buf enc = CCNX_BUF_INIT;
    ccnx_ccnb_open(&enc, CCNX_DTAG_Name);
    ccnx_buf_append(&enc, buf + ri->global_prefix.off, ri->global_prefix.len);
    ccnx_ccnb_append_closer(&enc);
    int rc = ccnx_buf_status(&enc);
    if (rc == 0) {
        rc = ccnx_name_set_ccnb(n, enc.data, enc.len);
    }
    ccnx_buf_free(&enc);
    return rc;
}

/* The Component elements of an encoded Name (without its header and closer). */
static int ri_append_components(struct ccnx_buf *out, const struct ccnx_name *n)
{
    struct ccnx_ccnb_header h;
    int rc = ccnx_ccnb_header_decode(n->enc.data, n->enc.len, &h);
    if (rc != 0 || n->enc.len < h.size + 1) {
        return rc != 0 ? rc : CCNX_E_VALUE;
    }
    return ccnx_buf_append(out, n->enc.data + h.size, n->enc.len - h.size - 1);
}

int ccnx_repo_info_build(struct ccnx_buf *out, const struct ccnx_name *global_prefix,
                         const struct ccnx_name *names, size_t n_names, const char *info)
{
    const char *type = names != NULL ? "DATA" : "INFO";
    ccnx_ccnb_open(out, CCNX_DTAG_RepositoryInfo);
    ccnx_ccnb_append_udata_element(out, CCNX_DTAG_Version, "1.1", 3);
    ccnx_ccnb_append_udata_element(out, CCNX_DTAG_Type, type, 4);
    ccnx_ccnb_append_udata_element(out, CCNX_DTAG_RepositoryVersion, "2.0", 3);
    ccnx_ccnb_open(out, CCNX_DTAG_GlobalPrefixName);
    int rc = ri_append_components(out, global_prefix);
    ccnx_ccnb_append_closer(out);
    ccnx_ccnb_append_udata_element(out, CCNX_DTAG_LocalName, "Repository", 10);
    for (size_t i = 0; names != NULL && i < n_names; i++) {
        ccnx_buf_append(out, names[i].enc.data, names[i].enc.len);
    }
    if (info != NULL) {
        ccnx_ccnb_append_udata_element(out, CCNX_DTAG_InfoString, info, strlen(info));
    }
    ccnx_ccnb_append_closer(out);
    return rc != 0 ? rc : ccnx_buf_status(out);
}

/* ---- Start-write ---- */

void ccnx_repo_write_opts_init(struct ccnx_repo_write_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scope = 1;
    o->timeout_ms = 60000;
}

int ccnx_repo_start_write_interest(struct ccnx_buf *out, const struct ccnx_name *name,
                                   const struct ccnx_repo_write_opts *o)
{
    if (o->scope < 1 || o->scope > 3) {
        return CCNX_E_INVAL;
    }
    struct ccnx_name n;
    int rc = ccnx_name_init(&n);
    if (rc == 0) {
        rc = ccnx_name_copy(&n, name);
    }
    if (rc == 0) {
        rc = ccnx_naming_append_command(&n, o->checked ? "R.sw-c" : "R.sw", NULL, 0);
    }
    if (rc == 0) {
        rc = ccnx_naming_append_nonce(&n);
    }
    if (rc == 0 && o->checked) {
        rc = ccnx_naming_append_segment(&n, o->segment);
        if (rc == 0) {
            rc = ccnx_name_append(&n, o->digest, sizeof o->digest);
        }
    }
    if (rc == 0) {
        struct ccnx_interest_params ip;
        ccnx_interest_params_init(&ip);
        ip.name = n.enc.data;
        ip.name_len = n.enc.len;
        ip.scope = o->scope < 3 ? o->scope : -1;
        rc = ccnx_interest_build(out, &ip);
    }
    ccnx_name_free(&n);
    return rc;
}

/* The RepositoryInfo in a reply object, with spans relative to the
 * object, as the header promises. */
static int repo_reply_info(const uint8_t *obj, size_t len, struct ccnx_repo_info *ri)
{
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(obj, len, &pc) != 0 ||
        ccnx_repo_info_parse(obj + pc.content_value.off, pc.content_value.len, ri) != 0) {
        return CCNX_E_VALUE;
    }
    int rc = pc.type == CCNX_TYPE_NACK ? CCNX_E_REFUSED : 0;
    size_t shift = pc.content_value.off;
    struct ccnx_span *spans[] = {&ri->version, &ri->repo_version, &ri->global_prefix,
                                 &ri->local_name, &ri->info_string};
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++) {
        if (spans[i]->len != 0 || (spans[i] == &ri->info_string && ri->has_info_string)) {
            spans[i]->off += shift;
        }
    }
    for (size_t i = 0; i < ri->name_count; i++) {
        ri->names[i].off += shift;
    }
    return rc;
}

/* A start-write in flight. *owner points to it until it ends, so that its
 * owner (a seqwriter, or the waiting call) can cancel it. */
struct repo_wait {
    struct ccnx_client *c;
    ccnx_repo_write_fn done;
    void *arg;
    struct repo_wait **owner;
    uint64_t id;
};

static void repo_wait_end(struct repo_wait *rw, int rc, const uint8_t *obj, size_t len)
{
    struct ccnx_repo_info ri;
    if (rc == 0) {
        rc = repo_reply_info(obj, len, &ri);
    }
    *rw->owner = NULL;
    ccnx_repo_write_fn done = rw->done;
    void *arg = rw->arg;
    free(rw);
    /* Last: done may destroy the seqwriter that owned the wait. A refusal
     * comes with its reply (the reason in its InfoString). */
    int answered = rc == 0 || rc == CCNX_E_REFUSED;
    done(arg, rc, answered ? obj : NULL, answered ? len : 0, answered ? &ri : NULL);
}

static void repo_wait_content(void *arg, const uint8_t *obj, size_t len,
                              const struct ccnx_content_parsed *pc)
{
    (void)pc;
    repo_wait_end(arg, 0, obj, len);
}

static void repo_wait_timeout(void *arg)
{
    repo_wait_end(arg, CCNX_E_NOTFOUND, NULL, 0);
}

/* Expresses the start-write (again every Interest lifetime, as the
 * reference's ccn_get does, until o->timeout_ms). */
static int repo_wait_begin(struct ccnx_client *c, const struct ccnx_name *name,
                           const struct ccnx_repo_write_opts *o, ccnx_repo_write_fn done, void *arg,
                           struct repo_wait **owner)
{
    struct repo_wait *rw = calloc(1, sizeof *rw);
    struct ccnx_buf interest = CCNX_BUF_INIT;
    int rc = rw != NULL ? ccnx_repo_start_write_interest(&interest, name, o) : CCNX_E_NOMEM;
    if (rc == 0) {
        int timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 60000;
        int per_try = CCNX_INTEREST_LIFETIME_DEFAULT * 1000 / CCNX_TIMESTAMP_HZ;
        struct ccnx_express_opts eo = {repo_wait_content, repo_wait_timeout, rw, 0, 0, 0};
        eo.retries = timeout_ms > per_try ? (unsigned)((timeout_ms - 1) / per_try) : 0;
        eo.timeout_ms = timeout_ms < per_try ? timeout_ms : 0;
        *rw = (struct repo_wait){c, done, arg, owner, 0};
        rc = ccnx_client_express(c, interest.data, interest.len, &eo, &rw->id);
    }
    ccnx_buf_free(&interest);
    if (rc != 0) {
        free(rw);
        return rc;
    }
    *owner = rw;
    return 0;
}

static void repo_wait_cancel(struct repo_wait **owner)
{
    if (*owner != NULL) {
        ccnx_client_cancel((*owner)->c, (*owner)->id);
        free(*owner);
        *owner = NULL;
    }
}

struct repo_sync {
    struct ccnx_client *c;
    struct ccnx_buf *reply;
    struct ccnx_repo_info *ri;
    int done, rc;
};

static void repo_sync_done(void *arg, int rc, const uint8_t *reply, size_t len,
                           const struct ccnx_repo_info *ri)
{
    struct repo_sync *st = arg;
    st->done = 1;
    st->rc = rc;
    if (reply != NULL && st->reply != NULL) {
        ccnx_buf_reset(st->reply);
        st->rc = ccnx_buf_append(st->reply, reply, len) != 0 ? CCNX_E_NOMEM : rc;
    }
    if (reply != NULL && st->ri != NULL) {
        *st->ri = *ri; /* its spans count from the start of the reply, copied or not */
    }
    ccnx_client_stop(st->c);
}

int ccnx_repo_start_write(struct ccnx_client *c, const struct ccnx_name *name,
                          const struct ccnx_repo_write_opts *o, struct ccnx_buf *reply,
                          struct ccnx_repo_info *ri)
{
    struct repo_sync st = {c, reply, ri, 0, 0};
    struct repo_wait *wait = NULL;
    int rc = repo_wait_begin(c, name, o, repo_sync_done, &st, &wait);
    while (rc == 0 && !st.done) {
        rc = ccnx_client_run(c, 1000);
    }
    repo_wait_cancel(&wait); /* only when the loop failed first */
    return rc != 0 ? rc : st.rc;
}

/* The checked start-write names segment 0 and its digest. */
static int sw_write_opts(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                         struct ccnx_repo_write_opts *out)
{
    if (w->client == NULL) {
        return CCNX_E_INVAL;
    }
    *out = *o;
    if (o->checked) {
        size_t len;
        const uint8_t *obj = ccnx_seqwriter_segment(w, 0, &len);
        if (obj == NULL) {
            return CCNX_E_INVAL;
        }
        out->segment = 0;
        return ccnx_content_digest(obj, len, out->digest);
    }
    return 0;
}

int ccnx_seqwriter_start_write(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                               struct ccnx_buf *reply, struct ccnx_repo_info *ri)
{
    struct ccnx_repo_write_opts wo;
    int rc = sw_write_opts(w, o, &wo);
    return rc != 0 ? rc : ccnx_repo_start_write(w->client, &w->vname, &wo, reply, ri);
}

int ccnx_seqwriter_start_write_async(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                                     ccnx_repo_write_fn done, void *arg)
{
    struct ccnx_repo_write_opts wo;
    int rc = sw_write_opts(w, o, &wo);
    if (rc == 0 && w->start_write != NULL) {
        rc = CCNX_E_INVAL;
    }
    return rc != 0 ? rc : repo_wait_begin(w->client, &w->vname, &wo, done, arg, &w->start_write);
}

void sw_cancel_start_write(struct ccnx_seqwriter *w)
{
    repo_wait_cancel(&w->start_write);
}

int ccnx_seqwriter_confirm_stored(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                                  int wait_ms)
{
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(w, &st);
    size_t len = 0;
    const uint8_t *obj =
        st.final_segment < 0 ? NULL : ccnx_seqwriter_segment(w, (uint64_t)st.final_segment, &len);
    struct ccnx_content_parsed pc;
    if (w->client == NULL || obj == NULL || ccnx_content_parse(obj, len, &pc) != 0) {
        return CCNX_E_INVAL;
    }
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = obj + pc.name.off;
    ip.name_len = pc.name.len;
    ip.max_suffix = 1;
    ip.answer_origin_kind = CCNX_AOK_NEW;
    ip.scope = o->scope >= 0 && o->scope < 3 ? o->scope : -1;
    ip.lifetime_units = (int64_t)wait_ms * 4096 / 1000;
    struct ccnx_buf interest = CCNX_BUF_INIT, answer = CCNX_BUF_INIT;
    int rc = ccnx_interest_build(&interest, &ip);
    if (rc == 0) {
        rc = ccnx_client_get(w->client, interest.data, interest.len, wait_ms, &answer);
    }
    if (rc == 0 && (answer.len != len || memcmp(answer.data, obj, len) != 0)) {
        rc = CCNX_E_NOTFOUND;
    }
    ccnx_buf_free(&answer);
    ccnx_buf_free(&interest);
    return rc;
}
