/* FaceInstance, ForwardingEntry and StrategySelection bodies, and control
 * request names. */
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/mgmt.h>
#include <ccnx/content_sign.h>

#include <string.h>

static const struct ccnx_view absent = {NULL, 0};

void ccnx_face_instance_init(struct ccnx_face_instance *fi)
{
    *fi = (struct ccnx_face_instance){absent, absent, -1, -1, absent, -1, absent, -1, -1};
}

void ccnx_forwarding_entry_init(struct ccnx_forwarding_entry *fe)
{
    *fe = (struct ccnx_forwarding_entry){absent, absent, absent, -1, -1, -1};
}

void ccnx_strategy_selection_init(struct ccnx_strategy_selection *ss)
{
    *ss = (struct ccnx_strategy_selection){absent, absent, absent, absent, absent, -1};
}

int ccnx_view_equals(struct ccnx_view v, const char *s)
{
    size_t n = strlen(s);
    return v.p != NULL && v.n == n && memcmp(v.p, s, n) == 0;
}

/* ---- Reading optional fields in schema order ---- */

static int opt_data(struct ccnx_ccnb_reader *r, enum ccnx_dtag dtag, struct ccnx_view *out)
{
    size_t off, n;
    if (ccnx_ccnb_peek_dtag(r) != dtag) {
        return 0;
    }
    if (ccnx_ccnb_read_blob(r, dtag, &off, &n) != 0) {
        return r->err;
    }
    *out = (struct ccnx_view){r->buf + off, n};
    return 0;
}

static int opt_uint(struct ccnx_ccnb_reader *r, enum ccnx_dtag dtag, int64_t max, int64_t *out)
{
    uint64_t v;
    if (ccnx_ccnb_peek_dtag(r) != dtag) {
        return 0;
    }
    if (ccnx_ccnb_read_uint(r, dtag, &v) != 0) {
        return r->err;
    }
    if (v > (uint64_t)max) {
        return CCNX_E_VALUE;
    }
    *out = (int64_t)v;
    return 0;
}

static int opt_name(struct ccnx_ccnb_reader *r, struct ccnx_view *out)
{
    size_t start, end;
    int res = ccnx_ccnb_skip_optional(r, CCNX_DTAG_Name, &start, &end);
    if (res < 0) {
        return res;
    }
    if (res == 1) {
        if (ccnx_name_count_ccnb(r->buf + start, end - start) < 0) {
            return CCNX_E_STRUCTURE;
        }
        *out = (struct ccnx_view){r->buf + start, end - start};
    }
    return 0;
}

/* Validates the whole element, enters it; the caller reads the fields. */
static int open_body(struct ccnx_ccnb_reader *r, const uint8_t *buf, size_t len,
                     enum ccnx_dtag dtag)
{
    size_t end;
    int res = ccnx_ccnb_element_end(buf, len, 0, &end);
    if (res != 0) {
        return res;
    }
    if (end != len) {
        return CCNX_E_TRAILING;
    }
    ccnx_ccnb_reader_init(r, buf, len, 0);
    return ccnx_ccnb_enter(r, dtag);
}

/* Anything left before the closer is out of schema order. */
static int close_body(struct ccnx_ccnb_reader *r, int res)
{
    if (res != 0) {
        return res;
    }
    if (!ccnx_ccnb_at_closer(r)) {
        return CCNX_E_STRUCTURE;
    }
    return ccnx_ccnb_leave(r);
}

int ccnx_face_instance_parse(const uint8_t *buf, size_t len, struct ccnx_face_instance *fi)
{
    struct ccnx_ccnb_reader r;
    ccnx_face_instance_init(fi);
    int res = open_body(&r, buf, len, CCNX_DTAG_FaceInstance);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_Action, &fi->action);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_PublisherPublicKeyDigest, &fi->ccndid);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_FaceID, INT64_MAX, &fi->face_id);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_IPProto, 255, &fi->ip_proto);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_Host, &fi->host);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_Port, 65535, &fi->port);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_MulticastInterface, &fi->mcast_interface);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_MulticastTTL, 255, &fi->mcast_ttl);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_FreshnessSeconds, INT32_MAX, &fi->lifetime);
    return close_body(&r, res);
}

int ccnx_forwarding_entry_parse(const uint8_t *buf, size_t len, struct ccnx_forwarding_entry *fe)
{
    struct ccnx_ccnb_reader r;
    ccnx_forwarding_entry_init(fe);
    int res = open_body(&r, buf, len, CCNX_DTAG_ForwardingEntry);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_Action, &fe->action);
    if (res == 0)
        res = opt_name(&r, &fe->name);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_PublisherPublicKeyDigest, &fe->ccndid);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_FaceID, INT64_MAX, &fe->face_id);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_ForwardingFlags, INT32_MAX, &fe->flags);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_FreshnessSeconds, INT32_MAX, &fe->lifetime);
    return close_body(&r, res);
}

int ccnx_strategy_selection_parse(const uint8_t *buf, size_t len,
                                  struct ccnx_strategy_selection *ss)
{
    struct ccnx_ccnb_reader r;
    ccnx_strategy_selection_init(ss);
    int res = open_body(&r, buf, len, CCNX_DTAG_StrategySelection);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_Action, &ss->action);
    if (res == 0)
        res = opt_name(&r, &ss->name);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_PublisherPublicKeyDigest, &ss->ccndid);
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_StrategyID, &ss->strategy_id);
    if (res == 0 && ss->strategy_id.n > CCNX_STRATEGY_ID_MAX)
        res = CCNX_E_VALUE;
    if (res == 0)
        res = opt_data(&r, CCNX_DTAG_StrategyParameters, &ss->parameters);
    if (res == 0)
        res = opt_uint(&r, CCNX_DTAG_FreshnessSeconds, INT32_MAX, &ss->lifetime);
    return close_body(&r, res);
}

/* ---- Building ---- */

static void put_text(struct ccnx_buf *out, enum ccnx_dtag dtag, struct ccnx_view v)
{
    if (v.p != NULL) {
        ccnx_ccnb_append_udata_element(out, dtag, (const char *)v.p, v.n);
    }
}

static void put_blob(struct ccnx_buf *out, enum ccnx_dtag dtag, struct ccnx_view v)
{
    if (v.p != NULL) {
        ccnx_ccnb_append_blob_element(out, dtag, v.p, v.n);
    }
}

static void put_uint(struct ccnx_buf *out, enum ccnx_dtag dtag, int64_t v)
{
    if (v >= 0) {
        ccnx_ccnb_append_uint_element(out, dtag, (uint64_t)v);
    }
}

static int check_name(struct ccnx_view name)
{
    return name.p == NULL || ccnx_name_check_ccnb(name.p, name.n) == 0 ? 0 : CCNX_E_VALUE;
}

int ccnx_face_instance_build(struct ccnx_buf *out, const struct ccnx_face_instance *fi)
{
    if (fi->ip_proto > 255 || fi->port > 65535 || fi->mcast_ttl > 255) {
        return CCNX_E_VALUE;
    }
    ccnx_ccnb_open(out, CCNX_DTAG_FaceInstance);
    put_text(out, CCNX_DTAG_Action, fi->action);
    put_blob(out, CCNX_DTAG_PublisherPublicKeyDigest, fi->ccndid);
    put_uint(out, CCNX_DTAG_FaceID, fi->face_id);
    put_uint(out, CCNX_DTAG_IPProto, fi->ip_proto);
    put_text(out, CCNX_DTAG_Host, fi->host);
    put_uint(out, CCNX_DTAG_Port, fi->port);
    put_text(out, CCNX_DTAG_MulticastInterface, fi->mcast_interface);
    put_uint(out, CCNX_DTAG_MulticastTTL, fi->mcast_ttl);
    put_uint(out, CCNX_DTAG_FreshnessSeconds, fi->lifetime);
    ccnx_ccnb_append_closer(out);
    return ccnx_buf_status(out);
}

int ccnx_forwarding_entry_build(struct ccnx_buf *out, const struct ccnx_forwarding_entry *fe)
{
    if (check_name(fe->name) != 0) {
        return CCNX_E_VALUE;
    }
    ccnx_ccnb_open(out, CCNX_DTAG_ForwardingEntry);
    put_text(out, CCNX_DTAG_Action, fe->action);
    if (fe->name.p != NULL) {
        ccnx_buf_append(out, fe->name.p, fe->name.n);
    }
    put_blob(out, CCNX_DTAG_PublisherPublicKeyDigest, fe->ccndid);
    put_uint(out, CCNX_DTAG_FaceID, fe->face_id);
    put_uint(out, CCNX_DTAG_ForwardingFlags, fe->flags);
    put_uint(out, CCNX_DTAG_FreshnessSeconds, fe->lifetime);
    ccnx_ccnb_append_closer(out);
    return ccnx_buf_status(out);
}

int ccnx_strategy_selection_build(struct ccnx_buf *out, const struct ccnx_strategy_selection *ss)
{
    if (check_name(ss->name) != 0 || ss->strategy_id.n > CCNX_STRATEGY_ID_MAX) {
        return CCNX_E_VALUE;
    }
    ccnx_ccnb_open(out, CCNX_DTAG_StrategySelection);
    put_text(out, CCNX_DTAG_Action, ss->action);
    if (ss->name.p != NULL) {
        ccnx_buf_append(out, ss->name.p, ss->name.n);
    }
    put_blob(out, CCNX_DTAG_PublisherPublicKeyDigest, ss->ccndid);
    put_text(out, CCNX_DTAG_StrategyID, ss->strategy_id);
    put_text(out, CCNX_DTAG_StrategyParameters, ss->parameters);
    put_uint(out, CCNX_DTAG_FreshnessSeconds, ss->lifetime);
    ccnx_ccnb_append_closer(out);
    return ccnx_buf_status(out);
}

/* ---- Request names ---- */

int ccnx_mgmt_request_name(struct ccnx_name *out, const uint8_t ccndid[CCNX_DIGEST_LEN],
                           const char *verb, const uint8_t *request, size_t request_len)
{
    int res = ccnx_name_truncate(out, 0);
    if (res == 0)
        res = ccnx_name_append_str(out, "ccnx");
    if (res == 0)
        res = ccnx_name_append(out, ccndid, CCNX_DIGEST_LEN);
    if (res == 0)
        res = ccnx_name_append_str(out, verb);
    if (res == 0 && request != NULL)
        res = ccnx_name_append(out, request, request_len);
    return res;
}

int ccnx_mgmt_signed_request_name(struct ccnx_name *out, const uint8_t ccndid[CCNX_DIGEST_LEN],
                                  const char *verb, const uint8_t *body, size_t body_len,
                                  const struct ccnx_key *key)
{
    struct ccnx_name empty;
    struct ccnx_buf req = CCNX_BUF_INIT;
    int res = ccnx_name_init(&empty);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = empty.enc.data;
    p.name_len = empty.enc.len;
    p.content = body;
    p.content_len = body_len;
    if (res == 0)
        res = ccnx_content_sign(&req, &p, key);
    if (res == 0)
        res = ccnx_mgmt_request_name(out, ccndid, verb, req.data, req.len);
    ccnx_name_free(&empty);
    ccnx_buf_free(&req);
    return res;
}

int ccnx_status_response_parse(const uint8_t *buf, size_t len, uint64_t *code,
                               struct ccnx_view *text)
{
    struct ccnx_ccnb_reader r;
    size_t off = 0, n = 0;
    *code = 0;
    ccnx_ccnb_reader_init(&r, buf, len, 0);
    ccnx_ccnb_enter(&r, CCNX_DTAG_StatusResponse);
    ccnx_ccnb_read_uint(&r, CCNX_DTAG_StatusCode, code);
    ccnx_ccnb_read_blob(&r, CCNX_DTAG_StatusText, &off, &n);
    if (r.err != 0)
        return r.err;
    *text = (struct ccnx_view){buf + off, n};
    return 0;
}

int ccnx_mgmt_request_parse(const uint8_t *name, size_t len, struct ccnx_mgmt_request *req)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c[5]; /* one more than a request has, to notice longer names */
    int count = 0, res = ccnx_name_iter_init(&it, name, len);
    while (res == 0 && count < 5 && (res = ccnx_name_iter_next(&it, &c[count])) == 1) {
        count++;
        res = 0;
    }
    if (res < 0) {
        return res;
    }
    if (count < 3 || count > 4 || c[0].n != 4 || memcmp(c[0].p, "ccnx", 4) != 0 ||
        c[1].n != CCNX_DIGEST_LEN) {
        return CCNX_E_NOTFOUND;
    }
    req->ccndid = (struct ccnx_view){c[1].p, c[1].n};
    req->verb = (struct ccnx_view){c[2].p, c[2].n};
    req->request = count == 4 ? (struct ccnx_view){c[3].p, c[3].n} : absent;
    return 0;
}
