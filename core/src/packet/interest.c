/* Interest parsing into an offset table. */
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

#include <string.h>

static const struct ccnx_span no_span = {0, 0};

static void parsed_defaults(struct ccnx_interest_parsed *pi)
{
    memset(pi, 0, sizeof *pi);
    pi->max_suffix = CCNX_SUFFIX_UNLIMITED;
    pi->child_selector = -1;
    pi->answer_origin_kind = -1;
    pi->scope = -1;
    pi->lifetime = CCNX_INTEREST_LIFETIME_DEFAULT;
    pi->face_id = -1;
}

/* Reads an optional nonNegativeInteger element, bounded by `max`. */
static int optional_uint(struct ccnx_ccnb_reader *r, enum ccnx_dtag dtag, uint64_t max,
                         uint64_t *value, int *present)
{
    *present = 0;
    if (ccnx_ccnb_peek_dtag(r) != dtag) {
        return 0;
    }
    if (ccnx_ccnb_read_uint(r, dtag, value) != 0) {
        return r->err;
    }
    if (*value > max) {
        return CCNX_E_VALUE;
    }
    *present = 1;
    return 0;
}

static int optional_blob(struct ccnx_ccnb_reader *r, enum ccnx_dtag dtag, struct ccnx_span *out)
{
    *out = no_span;
    if (ccnx_ccnb_peek_dtag(r) != dtag) {
        return 0;
    }
    return ccnx_ccnb_read_blob(r, dtag, &out->off, &out->len);
}

/* Exclude ::= (Any | Bloom)? ( Component (Any | Bloom)? )* */
static int check_exclude(const uint8_t *buf, struct ccnx_span exclude)
{
    struct ccnx_exclude_iter it;
    struct ccnx_exclude_item item;
    int res = ccnx_exclude_iter_init(&it, buf, exclude);
    int prev_was_range = 0;
    while (res == 0 && (res = ccnx_exclude_iter_next(&it, &item)) == 1) {
        int is_range = item.kind != CCNX_EXCLUDE_COMPONENT;
        if (is_range && prev_was_range) {
            return CCNX_E_STRUCTURE;
        }
        prev_was_range = is_range;
        res = 0;
    }
    return res;
}

static int parse_selectors(struct ccnx_ccnb_reader *r, struct ccnx_interest_parsed *pi)
{
    uint64_t v = 0;
    int present, res;
    if ((res = optional_uint(r, CCNX_DTAG_MinSuffixComponents, UINT32_MAX - 1, &v, &present)))
        return res;
    pi->has_min_suffix = present;
    pi->min_suffix = present ? (uint32_t)v : 0;
    if ((res = optional_uint(r, CCNX_DTAG_MaxSuffixComponents, UINT32_MAX - 1, &v, &present)))
        return res;
    pi->has_max_suffix = present;
    pi->max_suffix = present ? (uint32_t)v : CCNX_SUFFIX_UNLIMITED;
    if ((res = optional_blob(r, CCNX_DTAG_PublisherPublicKeyDigest, &pi->publisher)))
        return res;
    size_t start, end;
    res = ccnx_ccnb_skip_optional(r, CCNX_DTAG_Exclude, &start, &end);
    if (res < 0)
        return res;
    if (res == 1) {
        pi->exclude = (struct ccnx_span){start, end - start};
        if ((res = check_exclude(r->buf, pi->exclude)))
            return res;
    }
    if ((res = optional_uint(r, CCNX_DTAG_ChildSelector, INT32_MAX, &v, &present)))
        return res;
    pi->child_selector = present ? (int)v : -1;
    if ((res = optional_uint(r, CCNX_DTAG_AnswerOriginKind, INT32_MAX, &v, &present)))
        return res;
    pi->answer_origin_kind = present ? (int)v : -1;
    if ((res = optional_uint(r, CCNX_DTAG_Scope, 2, &v, &present)))
        return res;
    pi->scope = present ? (int)v : -1;
    return 0;
}

static int parse_tail(struct ccnx_ccnb_reader *r, struct ccnx_interest_parsed *pi)
{
    uint64_t v = 0;
    int present, res;
    if ((res = optional_blob(r, CCNX_DTAG_InterestLifetime, &pi->lifetime_value)))
        return res;
    if (pi->lifetime_value.len > 0 &&
        ccnx_ccnb_binary_uint(r->buf + pi->lifetime_value.off, pi->lifetime_value.len,
                              &pi->lifetime) != 0)
        return CCNX_E_VALUE;
    if ((res = optional_blob(r, CCNX_DTAG_Nonce, &pi->nonce)))
        return res;
    if ((res = optional_uint(r, CCNX_DTAG_FaceID, INT64_MAX, &v, &present)))
        return res;
    pi->face_id = present ? (int64_t)v : -1;
    return 0;
}

int ccnx_interest_parse(const uint8_t *buf, size_t len, struct ccnx_interest_parsed *pi)
{
    size_t end;
    parsed_defaults(pi);
    int res = ccnx_ccnb_element_end(buf, len, 0, &end);
    if (res != 0) {
        return res;
    }
    if (end != len) {
        return CCNX_E_TRAILING;
    }
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, buf, len, 0);
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_Interest) != 0) {
        return r.err;
    }
    size_t name_start = r.pos;
    if (ccnx_ccnb_peek_dtag(&r) != CCNX_DTAG_Name || ccnx_ccnb_skip_element(&r) != 0) {
        return r.err ? r.err : CCNX_E_STRUCTURE;
    }
    pi->name = (struct ccnx_span){name_start, r.pos - name_start};
    int count = ccnx_name_count_ccnb(buf + name_start, pi->name.len);
    if (count < 0) {
        return count;
    }
    pi->name_count = (uint32_t)count;
    if ((res = parse_selectors(&r, pi)) != 0 || (res = parse_tail(&r, pi)) != 0) {
        return res;
    }
    if (ccnx_ccnb_leave(&r) != 0) {
        return r.err;
    }
    pi->interest = (struct ccnx_span){0, len};
    return 0;
}

int ccnx_interest_aok(const struct ccnx_interest_parsed *pi)
{
    return pi->answer_origin_kind < 0 ? CCNX_AOK_DEFAULT : pi->answer_origin_kind;
}

int ccnx_exclude_iter_init(struct ccnx_exclude_iter *it, const uint8_t *buf,
                           struct ccnx_span exclude)
{
    ccnx_ccnb_reader_init(&it->r, buf, exclude.off + exclude.len, exclude.off);
    it->end = exclude.off + exclude.len;
    return ccnx_ccnb_enter(&it->r, CCNX_DTAG_Exclude);
}

int ccnx_exclude_iter_next(struct ccnx_exclude_iter *it, struct ccnx_exclude_item *out)
{
    struct ccnx_ccnb_reader *r = &it->r;
    if (r->err != 0) {
        return r->err;
    }
    if (ccnx_ccnb_at_closer(r)) {
        return 0;
    }
    size_t off, n;
    switch (ccnx_ccnb_peek_dtag(r)) {
    case CCNX_DTAG_Component:
        out->kind = CCNX_EXCLUDE_COMPONENT;
        break;
    case CCNX_DTAG_Any:
        out->kind = CCNX_EXCLUDE_ANY;
        break;
    case CCNX_DTAG_Bloom:
        out->kind = CCNX_EXCLUDE_BLOOM;
        break;
    default:
        r->err = r->pos >= r->len ? CCNX_E_TRUNCATED : CCNX_E_STRUCTURE;
        return r->err;
    }
    if (ccnx_ccnb_read_blob(r, (uint64_t)ccnx_ccnb_peek_dtag(r), &off, &n) != 0) {
        return r->err;
    }
    if (out->kind == CCNX_EXCLUDE_ANY && n != 0) {
        r->err = CCNX_E_STRUCTURE;
        return r->err;
    }
    out->p = r->buf + off;
    out->n = n;
    return 1;
}
