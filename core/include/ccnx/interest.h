/* Interest messages (InterestMessage.txt): parse to an offset table without
 * copying, and build with every field. */
#ifndef CCNX_INTEREST_H
#define CCNX_INTEREST_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* AnswerOriginKind bits (the reference's values). */
#define CCNX_AOK_CS      1 /* answer from a content store */
#define CCNX_AOK_NEW     2 /* answer by generating new content */
#define CCNX_AOK_DEFAULT (CCNX_AOK_CS | CCNX_AOK_NEW)
#define CCNX_AOK_STALE   4  /* stale content is acceptable */
#define CCNX_AOK_EXPIRE  16 /* mark the matching content stale (only with Scope 0) */

#define CCNX_INTEREST_LIFETIME_DEFAULT (4 * 4096) /* 4 s, in 1/4096 s */
#define CCNX_SUFFIX_UNLIMITED          UINT32_MAX

/* Offsets into the buffer that was parsed. Spans of absent fields have len 0.
 * Element spans cover the whole element; value spans cover only the BLOB. */
struct ccnx_interest_parsed {
    struct ccnx_span interest; /* the whole Interest element */
    struct ccnx_span name;     /* Name element */
    uint32_t name_count;       /* components in Name */
    uint32_t min_suffix;       /* default 0 */
    uint32_t max_suffix;       /* default CCNX_SUFFIX_UNLIMITED */
    int has_min_suffix;
    int has_max_suffix;
    struct ccnx_span publisher;      /* PublisherPublicKeyDigest value */
    struct ccnx_span exclude;        /* Exclude element */
    int child_selector;              /* 0 leftmost (default), 1 rightmost; -1 when absent */
    int answer_origin_kind;          /* CCNX_AOK_* bits; -1 when absent (means default) */
    int scope;                       /* 0, 1 or 2; -1 when absent */
    uint64_t lifetime;               /* 1/4096 s; CCNX_INTEREST_LIFETIME_DEFAULT when absent */
    struct ccnx_span lifetime_value; /* InterestLifetime value as encoded */
    struct ccnx_span nonce;          /* Nonce value */
    int64_t face_id;                 /* FaceID, -1 when absent */
};

/* Parses one Interest element at buf[0..len) (trailing bytes are an error).
 * Total: any input gives 0 or a CCNX_E* code. */
int ccnx_interest_parse(const uint8_t *buf, size_t len, struct ccnx_interest_parsed *pi);
/* Effective AnswerOriginKind (default applied). */
int ccnx_interest_aok(const struct ccnx_interest_parsed *pi);

/* ---- Exclude ---- */
enum ccnx_exclude_kind { CCNX_EXCLUDE_COMPONENT, CCNX_EXCLUDE_ANY, CCNX_EXCLUDE_BLOOM };
struct ccnx_exclude_item {
    enum ccnx_exclude_kind kind;
    const uint8_t *p; /* component bytes or Bloom BLOB (header + bits) */
    size_t n;
};

/* Walks the items of an Exclude element (a span from ccnx_interest_parsed). */
struct ccnx_exclude_iter {
    struct ccnx_ccnb_reader r;
    size_t end;
};
int ccnx_exclude_iter_init(struct ccnx_exclude_iter *it, const uint8_t *buf,
                           struct ccnx_span exclude);
/* 1 with *out set, 0 at the end, negative on malformed input. */
int ccnx_exclude_iter_next(struct ccnx_exclude_iter *it, struct ccnx_exclude_item *out);

/* ---- Building ---- */
struct ccnx_interest_params {
    const uint8_t *name; /* encoded Name element (required) */
    size_t name_len;
    int64_t min_suffix;       /* -1 to omit */
    int64_t max_suffix;       /* -1 to omit */
    const uint8_t *publisher; /* 32-byte digest or NULL */
    size_t publisher_len;
    const struct ccnx_exclude_item *exclude; /* NULL/0 to omit */
    size_t exclude_count;
    int child_selector;      /* -1 to omit */
    int answer_origin_kind;  /* -1 to omit */
    int scope;               /* -1 to omit */
    const uint8_t *lifetime; /* raw InterestLifetime BLOB value, or NULL */
    size_t lifetime_len;
    int64_t lifetime_units; /* used when lifetime == NULL: 1/4096 s, -1 to omit */
    const uint8_t *nonce;   /* NULL to omit */
    size_t nonce_len;
    int64_t face_id; /* -1 to omit */
};

/* Sets every field to "omit". */
void ccnx_interest_params_init(struct ccnx_interest_params *p);
/* Appends an Interest element to out. Exclude items must be in canonical
 * order (checked: CCNX_E_VALUE otherwise). */
int ccnx_interest_build(struct ccnx_buf *out, const struct ccnx_interest_params *p);

CCNX_API_END

#endif
