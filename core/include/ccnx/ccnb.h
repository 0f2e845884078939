/* ccnb, the CCNx binary XML encoding: encoder, whole-element reader and the
 * incremental ("skeleton") decoder that frames byte streams.
 *
 * An encoded item starts with a header: a number packed 7 bits per byte,
 * big-endian, the last byte holding 4 bits of the number, the 3-bit type
 * (TT) and the high bit set as terminator. An element is a TAG or DTAG
 * header, then attributes, children and data, then a 0x00 closer.
 *
 * Bounds (documented in docs/protocol.md): nesting depth at most
 * CCNX_CCNB_MAX_DEPTH; header numbers at most 2^63-1; BLOB/UDATA/TAG/ATTR
 * lengths never beyond the input; the skeleton decoder refuses elements
 * larger than its max_element (default CCNX_CCNB_DEFAULT_MAX_ELEMENT).
 */
#ifndef CCNX_CCNB_H
#define CCNX_CCNB_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* A byte range [off, off+len) inside a caller's buffer: parse results are
 * spans, never copies. len == 0 with off == 0 means "absent". */
struct ccnx_span {
    size_t off;
    size_t len;
};

enum ccnx_tt {
    CCNX_TT_EXT = 0,
    CCNX_TT_TAG = 1,
    CCNX_TT_DTAG = 2,
    CCNX_TT_ATTR = 3,
    CCNX_TT_DATTR = 4,
    CCNX_TT_BLOB = 5,
    CCNX_TT_UDATA = 6,
};

#define CCNX_CCNB_CLOSE               0x00
#define CCNX_CCNB_MAX_DEPTH           32
#define CCNX_CCNB_DEFAULT_MAX_ELEMENT ((size_t)1 << 20)
/* Largest header number we accept (keeps arithmetic in 64 bits safe). */
#define CCNX_CCNB_MAX_NUMVAL ((uint64_t)INT64_MAX)

/* ---- Encoder: appends to a ccnx_buf (see buf.h for the sticky error). ---- */

int ccnx_ccnb_append_header(struct ccnx_buf *b, uint64_t numval, enum ccnx_tt tt);
int ccnx_ccnb_append_closer(struct ccnx_buf *b);
/* Opens element `dtag` (append children, then ccnx_ccnb_append_closer). */
int ccnx_ccnb_open(struct ccnx_buf *b, uint64_t dtag);
/* <dtag>BLOB</dtag>; a zero-length value is written as <dtag></dtag> (no BLOB header). */
int ccnx_ccnb_append_blob_element(struct ccnx_buf *b, uint64_t dtag, const void *p, size_t n);
/* <dtag>UDATA</dtag>, same zero-length rule. */
int ccnx_ccnb_append_udata_element(struct ccnx_buf *b, uint64_t dtag, const char *s, size_t n);
/* <dtag>decimal UDATA</dtag>: the nonNegativeInteger form (Scope, ChildSelector...). */
int ccnx_ccnb_append_uint_element(struct ccnx_buf *b, uint64_t dtag, uint64_t value);
/* <dtag>minimal big-endian BLOB</dtag>: the binary integer form (Timestamp, lifetime).
 * Zero is written as one 0x00 byte. */
int ccnx_ccnb_append_binary_uint_element(struct ccnx_buf *b, uint64_t dtag, uint64_t value);

/* ---- Header decoding on a complete buffer ---- */

struct ccnx_ccnb_header {
    uint64_t numval;
    enum ccnx_tt tt;
    size_t size; /* bytes the header itself occupies */
};

/* Decodes the header at p[0..n). 0 on success, CCNX_E_TRUNCATED, CCNX_E_NUMVAL;
 * p[0] == 0 (a closer) gives CCNX_E_BADTT. */
int ccnx_ccnb_header_decode(const uint8_t *p, size_t n, struct ccnx_ccnb_header *h);

/* Validates that buf[start..) begins with one complete, well-formed element
 * (depth and length bounds included) and sets *end to the offset just past it.
 * Total over arbitrary bytes. */
int ccnx_ccnb_element_end(const uint8_t *buf, size_t len, size_t start, size_t *end);

/* ---- Reader: a cursor over one validated element, for schema parsers ----
 *
 * Every call checks bounds and returns a CCNX_E* code on mismatch; the first
 * error sticks in r->err so a parser may chain calls and check once. */
struct ccnx_ccnb_reader {
    const uint8_t *buf;
    size_t len; /* the reader never looks at or beyond buf[len] */
    size_t pos;
    int err;
};

void ccnx_ccnb_reader_init(struct ccnx_ccnb_reader *r, const uint8_t *buf, size_t len, size_t pos);
/* DTAG number of the element starting at r->pos, or -1 if what follows is not a DTAG. */
int64_t ccnx_ccnb_peek_dtag(const struct ccnx_ccnb_reader *r);
/* 1 if the next byte is a closer. */
int ccnx_ccnb_at_closer(const struct ccnx_ccnb_reader *r);
/* Consumes the header of DTAG element `dtag`; CCNX_E_STRUCTURE if something else follows. */
int ccnx_ccnb_enter(struct ccnx_ccnb_reader *r, uint64_t dtag);
/* Consumes a closer. */
int ccnx_ccnb_leave(struct ccnx_ccnb_reader *r);
/* Consumes <dtag>BLOB?</dtag>, giving the value's offset and length in buf
 * (an absent BLOB gives length 0). UDATA is accepted as well. */
int ccnx_ccnb_read_blob(struct ccnx_ccnb_reader *r, uint64_t dtag, size_t *off, size_t *n);
/* Consumes <dtag>UDATA decimal</dtag> (at most 19 digits) into *value. */
int ccnx_ccnb_read_uint(struct ccnx_ccnb_reader *r, uint64_t dtag, uint64_t *value);
/* Skips one whole element of any kind at r->pos. */
int ccnx_ccnb_skip_element(struct ccnx_ccnb_reader *r);
/* If the next element is `dtag`, skips it, stores its [start,end) and returns 1; else 0. */
int ccnx_ccnb_skip_optional(struct ccnx_ccnb_reader *r, uint64_t dtag, size_t *start, size_t *end);

/* Big-endian binary integer value (at most 8 bytes) -> *value. */
int ccnx_ccnb_binary_uint(const uint8_t *p, size_t n, uint64_t *value);

/* ---- Skeleton decoder: finds element boundaries in a stream fed in pieces ----
 *
 * Feed bytes as they arrive; the decoder keeps only a few integers of state,
 * never copies, and stops right after each complete top-level element so the
 * caller can cut it out. Datagram framing uses the same decoder on each
 * datagram's bytes. */
struct ccnx_skel {
    size_t max_element; /* refuse top-level elements larger than this */
    int err;            /* sticky CCNX_E* code once the stream is malformed */
    int state;          /* internal */
    unsigned depth;     /* open elements */
    uint64_t numval;    /* header number being accumulated */
    unsigned numval_bytes;
    uint64_t remaining;   /* bytes of BLOB/UDATA/TAG/ATTR name still to skip */
    size_t element_bytes; /* bytes of the current top-level element seen so far */
    int64_t top_dtag;     /* DTAG of the current/last top-level element, -1 if not a DTAG */
};

void ccnx_skel_init(struct ccnx_skel *s);
/* Consumes bytes from p[0..n) and stores how many in *used. Returns 1 when a
 * top-level element ended exactly at p + *used (the decoder is then ready for
 * the next one), 0 when all n bytes were consumed without completing one, or a
 * negative CCNX_E* code (sticky until ccnx_skel_init). */
int ccnx_skel_feed(struct ccnx_skel *s, const uint8_t *p, size_t n, size_t *used);
/* 1 when the decoder sits between elements (nothing partial pending). */
int ccnx_skel_idle(const struct ccnx_skel *s);

CCNX_API_END

#endif
