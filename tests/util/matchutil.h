/* Objects and Interests for the matching tests (test_match*.c): objects
 * encoded by hand (matching never verifies), Interests built from a URI
 * and parameters, and a match that checks the digest given and computed
 * agree. */
#ifndef CCNX_TEST_MATCHUTIL_H
#define CCNX_TEST_MATCHUTIL_H

#include "testutil.h"

#include <ccnx/buf.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

#include <stdint.h>

extern const uint8_t key_a[32];
extern const uint8_t key_b[32];

struct obj {
    struct ccnx_buf enc;
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
};

struct intr {
    struct ccnx_buf enc;
    struct ccnx_interest_parsed pi;
    struct ccnx_name name;
    struct ccnx_interest_params p;
};

/* Encodes a ContentObject by hand (arbitrary SignatureBits) with the
 * encoded Name name[0..name_len), publisher digest pub and body as Content. */
void encode_object(struct ccnx_buf *b, const uint8_t *name, size_t name_len, const uint8_t *pub,
                   const char *body);
/* An object named by uri, its body the URI, parsed and with its digest. */
void obj_make(struct obj *o, const char *uri, const uint8_t *pub);
void obj_free(struct obj *o);
/* An Interest for uri with every parameter omitted: set q->p, then build. */
void intr_init(struct intr *q, const char *uri);
void intr_add_digest(struct intr *q, const uint8_t digest[32]);
void intr_build(struct intr *q);
void intr_free(struct intr *q);
/* ccnx_match with the object's digest given and computed (both must agree). */
int matches(const struct intr *q, const struct obj *o);
/* Whether an Interest for iuri with the suffix counts (-1: absent) matches
 * an object named ouri. */
int match_uri(const char *iuri, int min, int max, const char *ouri);

#endif
