/* The repository write protocol (RepoProtocol.txt): RepositoryInfo bodies
 * and the start-write Interest, plain and checked. */
#include "publish_internal.h"

#include <ccnx/client.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/naming.h>

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

struct sw_wait {
    struct ccnx_client *c;
    struct ccnx_buf *reply;
    int done;
    int answered;
};

static void sw_wait_content(void *arg, const uint8_t *obj, size_t len,
                            const struct ccnx_content_parsed *pc)
{
    (void)pc;
    struct sw_wait *st = arg;
    ccnx_buf_reset(st->reply);
    ccnx_buf_append(st->reply, obj, len);
    st->done = st->answered = 1;
    ccnx_client_stop(st->c);
}

static void sw_wait_timeout(void *arg)
{
    struct sw_wait *st = arg;
    st->done = 1;
    ccnx_client_stop(st->c);
}

/* Expresses the Interest (again every lifetime, as the reference's
 * ccn_get does) and runs the loop until an answer or the deadline. */
static int sw_wait_answer(struct ccnx_client *c, const struct ccnx_buf *interest, int timeout_ms,
                          struct ccnx_buf *reply)
{
    struct sw_wait st = {c, reply, 0, 0};
    int per_try = CCNX_INTEREST_LIFETIME_DEFAULT * 1000 / CCNX_TIMESTAMP_HZ;
    struct ccnx_express_opts eo = {sw_wait_content, sw_wait_timeout, &st, 0, 0, 0};
    eo.retries = timeout_ms > per_try ? (unsigned)((timeout_ms - 1) / per_try) : 0;
    eo.timeout_ms = timeout_ms < per_try ? timeout_ms : 0;
    uint64_t id;
    int rc = ccnx_client_express(c, interest->data, interest->len, &eo, &id);
    int64_t deadline = sw_now_ms() + timeout_ms;
    while (rc == 0 && !st.done) {
        int64_t left = deadline - sw_now_ms();
        if (left <= 0) {
            ccnx_client_cancel(c, id);
            break;
        }
        rc = ccnx_client_run(c, (int)left);
    }
    if (rc != 0) {
        if (!st.done) {
            ccnx_client_cancel(c, id);
        }
        return rc;
    }
    return st.answered ? 0 : CCNX_E_NOTFOUND;
}

int ccnx_repo_start_write(struct ccnx_client *c, const struct ccnx_name *name,
                          const struct ccnx_repo_write_opts *o, struct ccnx_buf *reply,
                          struct ccnx_repo_info *ri)
{
    struct ccnx_buf interest = CCNX_BUF_INIT, own = CCNX_BUF_INIT;
    struct ccnx_buf *obj = reply != NULL ? reply : &own;
    int rc = ccnx_repo_start_write_interest(&interest, name, o);
    if (rc == 0) {
        rc = sw_wait_answer(c, &interest, o->timeout_ms > 0 ? o->timeout_ms : 60000, obj);
    }
    struct ccnx_content_parsed pc;
    struct ccnx_repo_info info;
    if (rc == 0 && ccnx_content_parse(obj->data, obj->len, &pc) != 0) {
        rc = CCNX_E_VALUE;
    }
    if (rc == 0) {
        const uint8_t *body = obj->data + pc.content_value.off;
        rc = ccnx_repo_info_parse(body, pc.content_value.len, &info) != 0 ? CCNX_E_VALUE : 0;
        /* Spans relative to the reply object, as the header promises. */
        size_t shift = pc.content_value.off;
        struct ccnx_span *spans[] = {&info.version, &info.repo_version, &info.global_prefix,
                                     &info.local_name, &info.info_string};
        for (size_t i = 0; rc == 0 && i < sizeof spans / sizeof spans[0]; i++) {
            if (spans[i]->len != 0 || (spans[i] == &info.info_string && info.has_info_string)) {
                spans[i]->off += shift;
            }
        }
        for (size_t i = 0; rc == 0 && i < info.name_count; i++) {
            info.names[i].off += shift;
        }
    }
    if (rc == 0 && ri != NULL) {
        *ri = info;
    }
    ccnx_buf_free(&interest);
    ccnx_buf_free(&own);
    return rc;
}

int ccnx_seqwriter_start_write(struct ccnx_seqwriter *w, const struct ccnx_repo_write_opts *o,
                               struct ccnx_buf *reply, struct ccnx_repo_info *ri)
{
    if (w->client == NULL) {
        return CCNX_E_INVAL;
    }
    struct ccnx_repo_write_opts checked = *o;
    if (o->checked) {
        size_t len;
        const uint8_t *obj = ccnx_seqwriter_segment(w, 0, &len);
        if (obj == NULL) {
            return CCNX_E_INVAL;
        }
        checked.segment = 0;
        int rc = ccnx_content_digest(obj, len, checked.digest);
        if (rc != 0) {
            return rc;
        }
    }
    return ccnx_repo_start_write(w->client, &w->vname, &checked, reply, ri);
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
