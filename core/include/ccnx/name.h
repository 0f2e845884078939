/* CCNx Names: a sequence of binary components, held in their ccnb encoding
 * (a complete <Name> element) so they can be compared, hashed and sent
 * without conversion.
 *
 * Canonical order (CanonicalOrder.txt): components compare first by length,
 * shorter first, then bytewise; names compare component by component and a
 * proper prefix sorts before its extensions.
 */
#ifndef CCNX_NAME_H
#define CCNX_NAME_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_NAME_MAX_COMPONENTS 1024
#define CCNX_DIGEST_LEN          32 /* SHA-256: implicit digest and publisher key digests */

/* An owned, growable name. enc holds "<Name> <Component>..* </Name>". */
struct ccnx_name {
    struct ccnx_buf enc;
    size_t count; /* number of components */
};

/* A component as a view into someone's buffer. */
struct ccnx_comp {
    const uint8_t *p;
    size_t n;
};

/* Initialises to the empty name (ccnx:/). Returns 0 or CCNX_E_NOMEM. */
int ccnx_name_init(struct ccnx_name *n);
void ccnx_name_free(struct ccnx_name *n);
int ccnx_name_append(struct ccnx_name *n, const void *comp, size_t len);
int ccnx_name_append_str(struct ccnx_name *n, const char *text);
/* Appends all components of the encoded Name element at enc[0..len). */
int ccnx_name_append_ccnb(struct ccnx_name *n, const uint8_t *enc, size_t len);
/* Replaces n by a copy of the encoded Name element (validated). */
int ccnx_name_set_ccnb(struct ccnx_name *n, const uint8_t *enc, size_t len);
int ccnx_name_copy(struct ccnx_name *dst, const struct ccnx_name *src);
/* Keeps only the first `count` components. */
int ccnx_name_truncate(struct ccnx_name *n, size_t count);
/* Component i (0-based) as a view into n->enc; CCNX_E_NOTFOUND past the end. */
int ccnx_name_comp(const struct ccnx_name *n, size_t i, struct ccnx_comp *out);

/* ---- Operations on encoded Name elements (views; no allocation) ---- */

struct ccnx_name_iter {
    const uint8_t *buf;
    size_t len;
    size_t pos;
};
/* enc[0..len) must start with a Name element; the iterator stops at its end. */
int ccnx_name_iter_init(struct ccnx_name_iter *it, const uint8_t *enc, size_t len);
/* 1 and *out set for the next component, 0 at the end, negative on malformed input. */
int ccnx_name_iter_next(struct ccnx_name_iter *it, struct ccnx_comp *out);

/* 0 when p[0..n) is exactly one well-formed Name element, else CCNX_E_INVAL. */
int ccnx_name_check_ccnb(const uint8_t *p, size_t n);
/* Number of components in the encoded Name (negative on malformed input). */
int ccnx_name_count_ccnb(const uint8_t *enc, size_t len);

/* Canonical order of two components: <0, 0, >0. */
int ccnx_comp_compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn);
/* Canonical order of two encoded Name elements: <0, 0, >0 (malformed sorts last). */
int ccnx_name_compare_ccnb(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);
int ccnx_name_compare(const struct ccnx_name *a, const struct ccnx_name *b);
/* 1 if `prefix` is a prefix of (or equal to) `name`, both encoded Name elements. */
int ccnx_name_is_prefix_ccnb(const uint8_t *prefix, size_t plen, const uint8_t *name, size_t nlen);
int ccnx_name_is_prefix(const struct ccnx_name *prefix, const struct ccnx_name *name);

CCNX_API_END

#endif
