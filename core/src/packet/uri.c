/* ccnx: URIs. Printing escapes everything but the RFC 3986 unreserved set;
 * parsing follows the CCNx 0.8.2 library rule for rule, quirks included, so
 * that a URI means the same name here as in the reference tools. */
#include <ccnx/ccnb.h>
#include <ccnx/error.h>
#include <ccnx/uri.h>

#include "encoding/ccnb_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- Printing ---- */

/* Bitmap of [A-Za-z0-9-._~], indexed by byte value (32 bits per word). */
static const uint32_t unreserved_map[8] = {
    0x00000000u, 0x03FF6000u, 0x87FFFFFEu, 0x47FFFFFEu, 0, 0, 0, 0,
};

static int is_unreserved(uint8_t c)
{
    return (unreserved_map[c >> 5] >> (c & 31)) & 1;
}

/* Writes the escaped form of p[0..n) to dst (room for 3 * n + 3 bytes). */
static size_t escape_comp(uint8_t *dst, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0;
    size_t i = 0;
    while (i < n && p[i] == '.') {
        i++;
    }
    if (i == n) {
        /* Only dots (or nothing): three extra dots keep it apart from "."
         * and ".." and make the empty component visible. */
        memcpy(dst, "...", 3);
        k = 3;
    }
    for (i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (is_unreserved(c)) {
            dst[k++] = c;
        } else {
            dst[k++] = '%';
            dst[k++] = (uint8_t)hex[c >> 4];
            dst[k++] = (uint8_t)hex[c & 15];
        }
    }
    return k;
}

int ccnx_uri_append_comp(struct ccnx_buf *out, const uint8_t *p, size_t n)
{
    if (out == NULL || (p == NULL && n != 0)) {
        return CCNX_E_INVAL;
    }
    if (n > (SIZE_MAX - 3) / 3) {
        return CCNX_E_NOMEM;
    }
    uint8_t *dst = ccnx_buf_reserve(out, 3 * n + 3);
    if (dst == NULL) {
        return CCNX_E_NOMEM;
    }
    out->len += escape_comp(dst, p, n);
    return 0;
}

int ccnx_uri_append(struct ccnx_buf *out, const uint8_t *enc, size_t len)
{
    if (out == NULL || (enc == NULL && len != 0)) {
        return CCNX_E_INVAL;
    }
    const size_t start = out->len;
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    size_t count = 0;
    int res = ccnx_name_iter_init(&it, enc, len);
    if (res == 0) {
        res = ccnx_buf_append(out, "ccnx:", 5);
    }
    while (res == 0 && (res = ccnx_name_iter_next(&it, &c)) == 1) {
        count++;
        res = ccnx_buf_append_byte(out, '/');
        if (res == 0) {
            res = ccnx_uri_append_comp(out, c.p, c.n);
        }
    }
    if (res == 0 && count == 0) {
        res = ccnx_buf_append_byte(out, '/');
    }
    if (res != 0) {
        /* Leave no half-printed URI behind. */
        out->len = start;
        return res;
    }
    return 0;
}

int ccnx_uri_append_name(struct ccnx_buf *out, const struct ccnx_name *n)
{
    if (n == NULL) {
        return CCNX_E_INVAL;
    }
    return ccnx_uri_append(out, n->enc.data, n->enc.len);
}

/* ---- Parsing ---- */

struct uri_parser {
    const uint8_t *s;
    size_t end;              /* first NUL or the given length: the text ends there */
    struct ccnx_buf scratch; /* decoded components too long for `small` */
    uint8_t small[256];
};

static int hexit(uint8_t c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

static int is_terminator(uint8_t c)
{
    return c == '/' || c == '?' || c == '#';
}

/* Removes %XX and =XXXX.. escapes from s[start..stop) into dst; returns the
 * decoded length or CCNX_E_URI. */
static int64_t unescape(const struct uri_parser *up, size_t start, size_t stop, uint8_t *dst)
{
    const uint8_t *s = up->s;
    size_t k = 0;
    int hexmode = 0;
    for (size_t i = start; i < stop; i++) {
        uint8_t c = s[i];
        int d1, d2;
        if (c == '%' || (c == '=' && !hexmode)) {
            /* The reference measures the room after '=' against the whole
             * remaining text, not the component: "a=/bc" is legal. */
            if (hexmode || i + 3 > up->end) {
                return CCNX_E_URI;
            }
            if (c == '=') {
                hexmode = 1;
                continue;
            }
            if (i + 2 >= stop || (d1 = hexit(s[i + 1])) < 0 || (d2 = hexit(s[i + 2])) < 0) {
                return CCNX_E_URI;
            }
            dst[k++] = (uint8_t)(d1 << 4 | d2);
            i += 2;
        } else if (hexmode) {
            /* Once '=' is seen the rest of the component is hex pairs. */
            if (i + 1 >= stop || (d1 = hexit(c)) < 0 || (d2 = hexit(s[i + 1])) < 0) {
                return CCNX_E_URI;
            }
            dst[k++] = (uint8_t)(d1 << 4 | d2);
            i++;
        } else {
            dst[k++] = c;
        }
    }
    return (int64_t)k;
}

/* Finds the component at s[start..) and gives its unescaped bytes in *out
 * (a view into the text when it has no escapes, else into scratch space).
 * *stop gets the offset of its terminator. */
static int read_comp(struct uri_parser *up, size_t start, struct ccnx_comp *out, size_t *stop)
{
    const uint8_t *s = up->s;
    size_t i = start;
    int escaped = 0;
    while (i < up->end && !is_terminator(s[i])) {
        escaped |= s[i] == '%' || s[i] == '=';
        i++;
    }
    *stop = i;
    if (!escaped) {
        out->p = s + start;
        out->n = i - start;
        return 0;
    }
    uint8_t *dst = up->small;
    if (i - start > sizeof up->small) {
        ccnx_buf_reset(&up->scratch);
        dst = ccnx_buf_reserve(&up->scratch, i - start);
        if (dst == NULL) {
            return CCNX_E_NOMEM;
        }
    }
    int64_t n = unescape(up, start, i, dst);
    if (n < 0) {
        return (int)n;
    }
    out->p = dst;
    out->n = (size_t)n;
    return 0;
}

enum dots { DOTS_NONE, DOTS_SKIP, DOTS_PARENT, DOTS_STRIP };

/* Dot handling happens after unescaping, since escaping an unreserved
 * character must not change its meaning: "%2E%2E" is "..". */
static enum dots classify_dots(const struct ccnx_comp *c)
{
    size_t i = 0;
    while (i < c->n && c->p[i] == '.') {
        i++;
    }
    if (i < c->n) {
        return DOTS_NONE;
    }
    return c->n <= 1 ? DOTS_SKIP : c->n == 2 ? DOTS_PARENT : DOTS_STRIP;
}

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* The reference compares the decoded scheme as a C string, so only the part
 * before a decoded NUL counts. */
static int is_ccnx_scheme(const struct ccnx_comp *c)
{
    static const char *const schemes[] = {"ccnx:", "ccn:"};
    const uint8_t *nul = c->n ? memchr(c->p, 0, c->n) : NULL;
    size_t n = nul != NULL ? (size_t)(nul - c->p) : c->n;
    for (size_t k = 0; k < sizeof schemes / sizeof schemes[0]; k++) {
        size_t sl = strlen(schemes[k]);
        size_t i = 0;
        while (i < n && i < sl && ascii_lower(c->p[i]) == schemes[k][i]) {
            i++;
        }
        if (i == n && i == sl) {
            return 1;
        }
    }
    return 0;
}

/* Consumes "scheme:" when present. Without a '/' after it the URI would be
 * relative, and there is no base name to resolve it against. */
static int parse_scheme(struct uri_parser *up, size_t *pos)
{
    if (up->end > 0 && up->s[0] != '/') {
        struct ccnx_comp c;
        size_t stop;
        int res = read_comp(up, 0, &c, &stop);
        if (res != 0) {
            return res;
        }
        if (stop == 0 || up->s[stop - 1] != ':' || !is_ccnx_scheme(&c)) {
            return CCNX_E_URI;
        }
        *pos = stop;
    }
    return *pos < up->end && up->s[*pos] == '/' ? 0 : CCNX_E_URI;
}

/* Skips a "//authority" part: ignored, but it must be well formed and not
 * "..". An empty authority with nothing after it is an error, as in the
 * reference ("ccnx://" is rejected, "ccnx:///" is the root). */
static int skip_authority(struct uri_parser *up, size_t *pos)
{
    if (*pos + 1 >= up->end || up->s[*pos + 1] != '/') {
        return 0;
    }
    struct ccnx_comp host;
    size_t stop;
    int res = read_comp(up, *pos + 2, &host, &stop);
    if (res != 0) {
        return res;
    }
    enum dots d = classify_dots(&host);
    if (d == DOTS_PARENT) {
        return CCNX_E_URI;
    }
    *pos = stop;
    if (d == DOTS_SKIP && (stop == up->end || up->s[stop] != '/')) {
        return CCNX_E_URI;
    }
    return 0;
}

static int add_comp(struct ccnx_name *n, const struct ccnx_comp *c)
{
    switch (classify_dots(c)) {
    case DOTS_SKIP:
        return 0;
    case DOTS_PARENT:
        return n->count > 0 ? ccnx_name_truncate(n, n->count - 1) : 0;
    case DOTS_STRIP:
        return ccnx_name_append(n, c->p + 3, c->n - 3);
    case DOTS_NONE:
    default:
        return ccnx_name_append(n, c->p, c->n);
    }
}

static int parse_path(struct uri_parser *up, struct ccnx_name *n, size_t *pos)
{
    int res = parse_scheme(up, pos);
    if (res == 0) {
        res = skip_authority(up, pos);
    }
    while (res == 0 && *pos < up->end && up->s[*pos] != '?' && up->s[*pos] != '#') {
        if (up->s[*pos] == '/') {
            (*pos)++;
        }
        struct ccnx_comp c;
        size_t stop;
        res = read_comp(up, *pos, &c, &stop);
        if (res == 0) {
            res = add_comp(n, &c);
            *pos = stop;
        }
    }
    return res;
}

static int name_reset(struct ccnx_name *n)
{
    static const uint8_t empty[] = {CCNX_DTAG_BYTE(CCNX_DTAG_Name), CCNX_CCNB_CLOSE};
    ccnx_buf_reset(&n->enc);
    n->count = 0;
    return ccnx_buf_append(&n->enc, empty, sizeof empty);
}

int ccnx_uri_parse(struct ccnx_name *n, const char *text, size_t len, size_t *consumed)
{
    if (n == NULL || (text == NULL && len != 0)) {
        return CCNX_E_INVAL;
    }
    int res = name_reset(n);
    if (res != 0) {
        return res;
    }
    struct uri_parser up;
    up.s = (const uint8_t *)text;
    const uint8_t *nul = len ? memchr(text, 0, len) : NULL;
    up.end = nul != NULL ? (size_t)(nul - up.s) : len;
    ccnx_buf_init(&up.scratch);
    size_t pos = 0;
    res = parse_path(&up, n, &pos);
    ccnx_buf_free(&up.scratch);
    if (res != 0) {
        name_reset(n);
    }
    if (consumed != NULL) {
        *consumed = pos;
    }
    return res;
}

int ccnx_uri_parse_str(struct ccnx_name *n, const char *text)
{
    if (text == NULL) {
        return CCNX_E_INVAL;
    }
    return ccnx_uri_parse(n, text, strlen(text), NULL);
}
