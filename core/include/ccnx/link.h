/* Link and Collection bodies (schema/ccnx.dtd): the Content of LINK objects
 * and of name enumeration replies.
 *
 *   Link              ::= Name Label? LinkAuthenticator?
 *   LinkAuthenticator ::= PublisherID? NameComponentCount? Timestamp? Type?
 *                         ContentDigest?
 *   PublisherID       ::= PublisherPublicKeyDigest | PublisherCertificateDigest
 *                       | PublisherIssuerKeyDigest | PublisherIssuerCertificateDigest
 *   Collection        ::= Link*
 *
 * Parsed links are views into the caller's buffer (no copies); building
 * takes the same struct with pointers to the caller's bytes.
 */
#ifndef CCNX_LINK_H
#define CCNX_LINK_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

struct ccnx_link_authenticator {
    uint32_t publisher_dtag;  /* CCNX_DTAG_Publisher*Digest, 0 when absent */
    const uint8_t *publisher; /* its digest value */
    size_t publisher_len;
    int64_t name_component_count; /* -1 when absent */
    const uint8_t *timestamp;     /* Timestamp value bytes, NULL when absent */
    size_t timestamp_len;
    uint32_t type; /* 3-byte content type; valid when has_type */
    int has_type;
    const uint8_t *content_digest; /* NULL when absent */
    size_t content_digest_len;
};

struct ccnx_link {
    const uint8_t *name; /* encoded Name element (required) */
    size_t name_len;
    const char *label; /* Label text (not NUL-terminated), NULL when absent */
    size_t label_len;
    int has_authenticator;
    struct ccnx_link_authenticator auth;
};

/* An empty link: no name, no label, no authenticator. */
void ccnx_link_init(struct ccnx_link *l);

/* Appends a Link element. CCNX_E_INVAL when name is not one Name element or
 * a publisher digest is given without a valid publisher_dtag. */
int ccnx_link_build(struct ccnx_buf *out, const struct ccnx_link *l);
/* Parses the one Link element that fills buf[0..len). Total. */
int ccnx_link_parse(const uint8_t *buf, size_t len, struct ccnx_link *l);

/* Appends a Collection of n links. */
int ccnx_collection_build(struct ccnx_buf *out, const struct ccnx_link *links, size_t n);

/* Walks the Links of the Collection element that fills buf[0..len). */
struct ccnx_collection_iter {
    struct ccnx_ccnb_reader r;
    int done;
};
int ccnx_collection_iter_init(struct ccnx_collection_iter *it, const uint8_t *buf, size_t len);
/* 1 with *l set, 0 after the last link, negative on malformed input. */
int ccnx_collection_iter_next(struct ccnx_collection_iter *it, struct ccnx_link *l);

CCNX_API_END

#endif
