/* ContentObjects (ContentObject.txt): parse to an offset table and compute
 * the implicit digest. Building and signing are in <ccnx/content_sign.h>,
 * Link and Collection bodies in <ccnx/link.h>. */
#ifndef CCNX_CONTENT_H
#define CCNX_CONTENT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* Content types: the 3-byte wire values (DATA is the default, never encoded). */
enum ccnx_content_type {
    CCNX_TYPE_DATA = 0x0C04C0,
    CCNX_TYPE_ENCR = 0x10D091,
    CCNX_TYPE_GONE = 0x18E344,
    CCNX_TYPE_KEY = 0x28463F,
    CCNX_TYPE_LINK = 0x2C834A,
    CCNX_TYPE_NACK = 0x34008A,
};
const char *ccnx_content_type_name(uint32_t type); /* "DATA", ..., or NULL if unknown */

enum ccnx_key_locator_kind {
    CCNX_KEYLOC_NONE = 0,
    CCNX_KEYLOC_KEY,         /* DER SubjectPublicKeyInfo */
    CCNX_KEYLOC_CERTIFICATE, /* certificate bytes */
    CCNX_KEYLOC_KEYNAME,     /* a KeyName element (Name plus optional publisher) */
};

struct ccnx_content_parsed {
    struct ccnx_span object;           /* the whole ContentObject element */
    struct ccnx_span signature;        /* Signature element */
    struct ccnx_span digest_algorithm; /* DigestAlgorithm value (absent: SHA-256) */
    struct ccnx_span witness;          /* Witness value (Merkle batch signatures) */
    struct ccnx_span signature_bits;   /* SignatureBits value */
    struct ccnx_span name;             /* Name element */
    uint32_t name_count;
    struct ccnx_span signed_info;    /* SignedInfo element */
    struct ccnx_span publisher;      /* PublisherPublicKeyDigest value */
    struct ccnx_span timestamp;      /* Timestamp value (binary, 1/4096 s since epoch) */
    uint32_t type;                   /* enum ccnx_content_type value; DATA when absent */
    struct ccnx_span type_value;     /* Type value as encoded (len 0 when absent) */
    int64_t freshness;               /* FreshnessSeconds, -1 when absent */
    struct ccnx_span final_block_id; /* FinalBlockID value */
    int has_final_block_id;
    struct ccnx_span key_locator; /* KeyLocator element */
    enum ccnx_key_locator_kind key_locator_kind;
    struct ccnx_span key_locator_value;  /* Key/Certificate value, or the KeyName element */
    struct ccnx_span key_name;           /* the Name inside KeyName */
    struct ccnx_span key_name_publisher; /* publisher digest value inside KeyName, if any */
    struct ccnx_span ext_opt;            /* ExtOpt value */
    struct ccnx_span content;            /* Content element */
    struct ccnx_span content_value;      /* Content BLOB value */
    struct ccnx_span signed_part;        /* Name start .. Content end: what the signature covers */
};

/* Parses one ContentObject at buf[0..len) (trailing bytes are an error). Total. */
int ccnx_content_parse(const uint8_t *buf, size_t len, struct ccnx_content_parsed *pc);
/* SHA-256 of the whole encoded ContentObject: the implicit last name component. */
int ccnx_content_digest(const uint8_t *obj, size_t len, uint8_t out[32]);

CCNX_API_END

#endif
