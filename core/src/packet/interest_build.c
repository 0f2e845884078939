/* Interest encoding (InterestMessage.txt). Fields are written in schema
 * order with the same item types the reference encoder uses, so an Interest
 * rebuilt from its own parse comes out byte-identical. */
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

void ccnx_interest_params_init(struct ccnx_interest_params *p)
{
    *p = (struct ccnx_interest_params){
        .min_suffix = -1,
        .max_suffix = -1,
        .child_selector = -1,
        .answer_origin_kind = -1,
        .scope = -1,
        .lifetime_units = -1,
        .face_id = -1,
    };
}

/* The schema allows at most one Any/Bloom between components, and the
 * components must be strictly increasing in canonical order: a receiver
 * stops scanning at the first component above the one it tests, so an
 * unsorted list would silently exclude the wrong set. */
static int check_exclude(const struct ccnx_exclude_item *items, size_t count)
{
    const struct ccnx_exclude_item *prev_comp = NULL;
    int prev_was_filter = 0;
    for (size_t i = 0; i < count; i++) {
        const struct ccnx_exclude_item *it = &items[i];
        switch (it->kind) {
        case CCNX_EXCLUDE_COMPONENT:
            if (it->p == NULL && it->n != 0) {
                return CCNX_E_INVAL;
            }
            if (prev_comp != NULL &&
                ccnx_comp_compare(prev_comp->p, prev_comp->n, it->p, it->n) >= 0) {
                return CCNX_E_VALUE;
            }
            prev_comp = it;
            prev_was_filter = 0;
            break;
        case CCNX_EXCLUDE_ANY:
        case CCNX_EXCLUDE_BLOOM:
            if (prev_was_filter) {
                return CCNX_E_VALUE;
            }
            if (it->kind == CCNX_EXCLUDE_BLOOM && it->p == NULL && it->n != 0) {
                return CCNX_E_INVAL;
            }
            prev_was_filter = 1;
            break;
        default:
            return CCNX_E_INVAL;
        }
    }
    return 0;
}

static void append_exclude(struct ccnx_buf *out, const struct ccnx_exclude_item *items,
                           size_t count)
{
    ccnx_ccnb_open(out, CCNX_DTAG_Exclude);
    for (size_t i = 0; i < count; i++) {
        const struct ccnx_exclude_item *it = &items[i];
        if (it->kind == CCNX_EXCLUDE_COMPONENT) {
            ccnx_ccnb_append_blob_element(out, CCNX_DTAG_Component, it->p, it->n);
        } else if (it->kind == CCNX_EXCLUDE_BLOOM) {
            ccnx_ccnb_append_blob_element(out, CCNX_DTAG_Bloom, it->p, it->n);
        } else {
            ccnx_ccnb_open(out, CCNX_DTAG_Any);
            ccnx_ccnb_append_closer(out);
        }
    }
    ccnx_ccnb_append_closer(out);
}

static int check_params(const struct ccnx_interest_params *p)
{
    if (p->name == NULL || p->name_len == 0) {
        return CCNX_E_INVAL;
    }
    /* The Name is copied verbatim, so it must be exactly one valid element. */
    size_t end;
    int res = ccnx_ccnb_element_end(p->name, p->name_len, 0, &end);
    if (res != 0) {
        return res;
    }
    if (end != p->name_len) {
        return CCNX_E_TRAILING;
    }
    res = ccnx_name_count_ccnb(p->name, p->name_len);
    if (res < 0) {
        return res;
    }
    if (p->min_suffix < -1 || p->max_suffix < -1 || p->child_selector < -1 ||
        p->answer_origin_kind < -1 || p->scope < -1 || p->lifetime_units < -1 || p->face_id < -1) {
        return CCNX_E_INVAL;
    }
    if (p->scope > 2) {
        return CCNX_E_VALUE; /* receivers drop any other Scope */
    }
    if ((p->publisher == NULL && p->publisher_len != 0) ||
        (p->lifetime == NULL && p->lifetime_len != 0) || (p->nonce == NULL && p->nonce_len != 0)) {
        return CCNX_E_INVAL;
    }
    if (p->lifetime != NULL && p->lifetime_len > 8) {
        return CCNX_E_VALUE; /* readers take it as a 64-bit number */
    }
    if (p->exclude != NULL && p->exclude_count > 0) {
        return check_exclude(p->exclude, p->exclude_count);
    }
    return 0;
}

int ccnx_interest_build(struct ccnx_buf *out, const struct ccnx_interest_params *p)
{
    if (out == NULL || p == NULL) {
        return CCNX_E_INVAL;
    }
    int res = check_params(p);
    if (res != 0) {
        return res;
    }
    size_t mark = out->len;
    ccnx_ccnb_open(out, CCNX_DTAG_Interest);
    ccnx_buf_append(out, p->name, p->name_len);
    if (p->min_suffix >= 0)
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_MinSuffixComponents, (uint64_t)p->min_suffix);
    if (p->max_suffix >= 0)
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_MaxSuffixComponents, (uint64_t)p->max_suffix);
    if (p->publisher != NULL)
        ccnx_ccnb_append_blob_element(out, CCNX_DTAG_PublisherPublicKeyDigest, p->publisher,
                                      p->publisher_len);
    if (p->exclude != NULL && p->exclude_count > 0)
        append_exclude(out, p->exclude, p->exclude_count);
    if (p->child_selector >= 0)
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_ChildSelector, (uint64_t)p->child_selector);
    if (p->answer_origin_kind >= 0)
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_AnswerOriginKind,
                                      (uint64_t)p->answer_origin_kind);
    if (p->scope >= 0)
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_Scope, (uint64_t)p->scope);
    if (p->lifetime != NULL)
        ccnx_ccnb_append_blob_element(out, CCNX_DTAG_InterestLifetime, p->lifetime,
                                      p->lifetime_len);
    else if (p->lifetime_units >= 0)
        ccnx_ccnb_append_binary_uint_element(out, CCNX_DTAG_InterestLifetime,
                                             (uint64_t)p->lifetime_units);
    if (p->nonce != NULL)
        ccnx_ccnb_append_blob_element(out, CCNX_DTAG_Nonce, p->nonce, p->nonce_len);
    if (p->face_id >= 0)
        ccnx_ccnb_append_uint_element(out, CCNX_DTAG_FaceID, (uint64_t)p->face_id);
    ccnx_ccnb_append_closer(out);
    res = ccnx_buf_status(out);
    if (res != 0) {
        out->len = mark; /* leave no half-written Interest behind */
    }
    return res;
}
