/* ContentObject parsing into an offset table, and the implicit digest. */
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/name.h>

#include <openssl/sha.h>
#include <string.h>

const char *ccnx_content_type_name(uint32_t type)
{
    switch (type) {
    case CCNX_TYPE_DATA:
        return "DATA";
    case CCNX_TYPE_ENCR:
        return "ENCR";
    case CCNX_TYPE_GONE:
        return "GONE";
    case CCNX_TYPE_KEY:
        return "KEY";
    case CCNX_TYPE_LINK:
        return "LINK";
    case CCNX_TYPE_NACK:
        return "NACK";
    }
    return NULL;
}

static int optional_blob(struct ccnx_ccnb_reader *r, enum ccnx_dtag dtag, struct ccnx_span *out)
{
    out->off = 0;
    out->len = 0;
    if (ccnx_ccnb_peek_dtag(r) != dtag) {
        return 0;
    }
    return ccnx_ccnb_read_blob(r, dtag, &out->off, &out->len) != 0 ? r->err : 1;
}

/* Skips a required element, recording its span. */
static int element_span(struct ccnx_ccnb_reader *r, enum ccnx_dtag dtag, struct ccnx_span *out)
{
    size_t start, end;
    int res = ccnx_ccnb_skip_optional(r, dtag, &start, &end);
    if (res <= 0) {
        return res < 0 ? res : CCNX_E_STRUCTURE;
    }
    *out = (struct ccnx_span){start, end - start};
    return 0;
}

static int parse_signature(struct ccnx_ccnb_reader *r, struct ccnx_content_parsed *pc)
{
    size_t start = r->pos;
    if (ccnx_ccnb_enter(r, CCNX_DTAG_Signature) != 0)
        return r->err;
    if (optional_blob(r, CCNX_DTAG_DigestAlgorithm, &pc->digest_algorithm) < 0 ||
        optional_blob(r, CCNX_DTAG_Witness, &pc->witness) < 0 ||
        optional_blob(r, CCNX_DTAG_SignatureBits, &pc->signature_bits) < 0)
        return r->err;
    if (ccnx_ccnb_leave(r) != 0)
        return r->err;
    pc->signature = (struct ccnx_span){start, r->pos - start};
    return 0;
}

/* KeyName ::= Name PublisherID? (only PublisherPublicKeyDigest is recorded). */
static int parse_key_name(struct ccnx_ccnb_reader *r, struct ccnx_content_parsed *pc)
{
    if (ccnx_ccnb_enter(r, CCNX_DTAG_KeyName) != 0)
        return r->err;
    int res = element_span(r, CCNX_DTAG_Name, &pc->key_name);
    if (res != 0)
        return res;
    if (optional_blob(r, CCNX_DTAG_PublisherPublicKeyDigest, &pc->key_name_publisher) < 0)
        return r->err;
    while (!ccnx_ccnb_at_closer(r) && r->err == 0) {
        int64_t d = ccnx_ccnb_peek_dtag(r);
        if (d != CCNX_DTAG_PublisherCertificateDigest && d != CCNX_DTAG_PublisherIssuerKeyDigest &&
            d != CCNX_DTAG_PublisherIssuerCertificateDigest)
            return CCNX_E_STRUCTURE;
        ccnx_ccnb_skip_element(r);
    }
    return ccnx_ccnb_leave(r);
}

static int parse_key_locator(struct ccnx_ccnb_reader *r, struct ccnx_content_parsed *pc)
{
    size_t start = r->pos;
    if (ccnx_ccnb_enter(r, CCNX_DTAG_KeyLocator) != 0)
        return r->err;
    int64_t kind = ccnx_ccnb_peek_dtag(r);
    int res;
    if (kind == CCNX_DTAG_Key || kind == CCNX_DTAG_Certificate) {
        pc->key_locator_kind = kind == CCNX_DTAG_Key ? CCNX_KEYLOC_KEY : CCNX_KEYLOC_CERTIFICATE;
        res = optional_blob(r, (enum ccnx_dtag)kind, &pc->key_locator_value) < 0 ? r->err : 0;
    } else if (kind == CCNX_DTAG_KeyName) {
        pc->key_locator_kind = CCNX_KEYLOC_KEYNAME;
        size_t kn_start = r->pos;
        res = parse_key_name(r, pc);
        pc->key_locator_value = (struct ccnx_span){kn_start, r->pos - kn_start};
    } else {
        return CCNX_E_STRUCTURE;
    }
    if (res != 0 || ccnx_ccnb_leave(r) != 0)
        return res ? res : r->err;
    pc->key_locator = (struct ccnx_span){start, r->pos - start};
    return 0;
}

static int parse_signed_info_fields(struct ccnx_ccnb_reader *r, struct ccnx_content_parsed *pc)
{
    if (optional_blob(r, CCNX_DTAG_PublisherPublicKeyDigest, &pc->publisher) != 1 ||
        optional_blob(r, CCNX_DTAG_Timestamp, &pc->timestamp) != 1)
        return r->err ? r->err : CCNX_E_STRUCTURE;
    if (optional_blob(r, CCNX_DTAG_Type, &pc->type_value) == 1) {
        if (pc->type_value.len != 3)
            return CCNX_E_VALUE;
        const uint8_t *t = r->buf + pc->type_value.off;
        pc->type = ((uint32_t)t[0] << 16) | ((uint32_t)t[1] << 8) | t[2];
    }
    if (ccnx_ccnb_peek_dtag(r) == CCNX_DTAG_FreshnessSeconds) {
        uint64_t v;
        if (ccnx_ccnb_read_uint(r, CCNX_DTAG_FreshnessSeconds, &v) != 0)
            return r->err;
        if (v > INT32_MAX)
            return CCNX_E_VALUE;
        pc->freshness = (int64_t)v;
    }
    pc->has_final_block_id = optional_blob(r, CCNX_DTAG_FinalBlockID, &pc->final_block_id) == 1;
    if (ccnx_ccnb_peek_dtag(r) == CCNX_DTAG_KeyLocator) {
        int res = parse_key_locator(r, pc);
        if (res != 0)
            return res;
    }
    if (optional_blob(r, CCNX_DTAG_ExtOpt, &pc->ext_opt) < 0)
        return r->err;
    return r->err;
}

static int parse_signed_info(struct ccnx_ccnb_reader *r, struct ccnx_content_parsed *pc)
{
    size_t start = r->pos;
    if (ccnx_ccnb_enter(r, CCNX_DTAG_SignedInfo) != 0)
        return r->err;
    int res = parse_signed_info_fields(r, pc);
    if (res != 0 || ccnx_ccnb_leave(r) != 0)
        return res ? res : r->err;
    pc->signed_info = (struct ccnx_span){start, r->pos - start};
    return 0;
}

static int parse_body(struct ccnx_ccnb_reader *r, struct ccnx_content_parsed *pc)
{
    int res = parse_signature(r, pc);
    if (res != 0)
        return res;
    if ((res = element_span(r, CCNX_DTAG_Name, &pc->name)) != 0)
        return res;
    int count = ccnx_name_count_ccnb(r->buf + pc->name.off, pc->name.len);
    if (count < 0)
        return count;
    pc->name_count = (uint32_t)count;
    if ((res = parse_signed_info(r, pc)) != 0)
        return res;
    size_t start = r->pos;
    if (ccnx_ccnb_enter(r, CCNX_DTAG_Content) != 0)
        return r->err;
    if (ccnx_ccnb_at_closer(r)) {
        pc->content_value = (struct ccnx_span){r->pos, 0};
        ccnx_ccnb_leave(r);
    } else {
        r->pos = start;
        ccnx_ccnb_read_blob(r, CCNX_DTAG_Content, &pc->content_value.off, &pc->content_value.len);
    }
    if (r->err != 0)
        return r->err;
    pc->content = (struct ccnx_span){start, r->pos - start};
    pc->signed_part = (struct ccnx_span){pc->name.off, r->pos - pc->name.off};
    return 0;
}

int ccnx_content_parse(const uint8_t *buf, size_t len, struct ccnx_content_parsed *pc)
{
    memset(pc, 0, sizeof *pc);
    pc->type = CCNX_TYPE_DATA;
    pc->freshness = -1;
    size_t end;
    int res = ccnx_ccnb_element_end(buf, len, 0, &end);
    if (res != 0)
        return res;
    if (end != len)
        return CCNX_E_TRAILING;
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, buf, len, 0);
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_ContentObject) != 0)
        return r.err;
    if ((res = parse_body(&r, pc)) != 0)
        return res;
    if (ccnx_ccnb_leave(&r) != 0)
        return r.err;
    pc->object = (struct ccnx_span){0, len};
    return 0;
}

int ccnx_content_digest(const uint8_t *obj, size_t len, uint8_t out[32])
{
    if (SHA256(obj, len, out) == NULL) {
        return CCNX_E_CRYPTO;
    }
    return 0;
}
