/* Objects and Interests for the matching tests (test_match*.c). */
#include "matchutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/match.h>
#include <ccnx/uri.h>

#include <string.h>

const uint8_t key_a[32] = {0xaa, 1, 2, 3};
const uint8_t key_b[32] = {0xbb, 1, 2, 3};

/* Encodes a ContentObject by hand. Matching never verifies signatures, so
 * the SignatureBits are arbitrary bytes. */
void encode_object(struct ccnx_buf *b, const uint8_t *name, size_t name_len, const uint8_t *pub,
                   const char *body)
{
    static const uint8_t sig[16] = {0x5a};
    static const uint8_t stamp[6] = {0x05, 0x00, 0x12, 0x34, 0x56, 0x78};
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, name, name_len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub, 32);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, body, strlen(body));
    ccnx_ccnb_append_closer(b);
    assert_int_equal(ccnx_buf_status(b), 0);
}

void obj_make(struct obj *o, const char *uri, const uint8_t *pub)
{
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    ccnx_buf_init(&o->enc);
    encode_object(&o->enc, n.enc.data, n.enc.len, pub, uri);
    assert_int_equal(ccnx_content_parse(o->enc.data, o->enc.len, &o->pc), 0);
    assert_int_equal(ccnx_content_digest(o->enc.data, o->enc.len, o->digest), 0);
    ccnx_name_free(&n);
}

void obj_free(struct obj *o)
{
    ccnx_buf_free(&o->enc);
}

void intr_init(struct intr *q, const char *uri)
{
    ccnx_buf_init(&q->enc);
    assert_int_equal(ccnx_name_init(&q->name), 0);
    assert_int_equal(ccnx_uri_parse_str(&q->name, uri), 0);
    ccnx_interest_params_init(&q->p);
}

/* Appends the object's digest as the Interest's last name component. */
void intr_add_digest(struct intr *q, const uint8_t digest[32])
{
    assert_int_equal(ccnx_name_append(&q->name, digest, 32), 0);
}

void intr_build(struct intr *q)
{
    q->p.name = q->name.enc.data;
    q->p.name_len = q->name.enc.len;
    ccnx_buf_reset(&q->enc);
    assert_int_equal(ccnx_interest_build(&q->enc, &q->p), 0);
    assert_int_equal(ccnx_interest_parse(q->enc.data, q->enc.len, &q->pi), 0);
}

void intr_free(struct intr *q)
{
    ccnx_buf_free(&q->enc);
    ccnx_name_free(&q->name);
}

/* Matches with the digest given and computed; both must agree. */
int matches(const struct intr *q, const struct obj *o)
{
    int given = ccnx_match(q->enc.data, &q->pi, o->enc.data, o->enc.len, &o->pc, o->digest);
    int lazy = ccnx_match(q->enc.data, &q->pi, o->enc.data, o->enc.len, &o->pc, NULL);
    assert_int_equal(given, lazy);
    return given;
}

int match_uri(const char *iuri, int min, int max, const char *ouri)
{
    struct intr q;
    struct obj o;
    intr_init(&q, iuri);
    q.p.min_suffix = min;
    q.p.max_suffix = max;
    intr_build(&q);
    obj_make(&o, ouri, key_a);
    int r = matches(&q, &o);
    obj_free(&o);
    intr_free(&q);
    return r;
}
