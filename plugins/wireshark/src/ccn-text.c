/* ccn-text.c: names, components and values as text.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Strings handed to Wireshark live in the packet pool. The core prints
 * URIs into malloc'ed buffers; they are copied and freed before any
 * Wireshark call that could throw, so nothing leaks when one does.
 */
#include "ccn.h"

#include <ccnx/buf.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

static const char hexdigits[] = "0123456789abcdef";

/* Printable ASCII kept, anything else as \xNN; the result is valid UTF-8. */
const char *ccn_safe_text(wmem_allocator_t *pool, const uint8_t *p, size_t n)
{
    char *s = (char *)wmem_alloc(pool, 4 * n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7F) {
            s[k++] = (char)p[i];
        } else {
            s[k++] = '\\';
            s[k++] = 'x';
            s[k++] = hexdigits[p[i] >> 4];
            s[k++] = hexdigits[p[i] & 15];
        }
    }
    s[k] = '\0';
    return s;
}

/* Hex of at most `max` bytes, with an ellipsis when there are more. */
const char *ccn_hex_text(wmem_allocator_t *pool, const uint8_t *p, size_t n, size_t max)
{
    size_t shown = n < max ? n : max;
    char *s = (char *)wmem_alloc(pool, 2 * shown + 4);
    size_t k = 0;
    for (size_t i = 0; i < shown; i++) {
        s[k++] = hexdigits[p[i] >> 4];
        s[k++] = hexdigits[p[i] & 15];
    }
    if (shown < n) {
        memcpy(s + k, "\xe2\x80\xa6", 3); /* U+2026 */
        k += 3;
    }
    s[k] = '\0';
    return s;
}

/* The component escaped as in a URI; at most `max` input bytes, then an ellipsis. */
const char *ccn_comp_text(wmem_allocator_t *pool, const uint8_t *p, size_t n, size_t max)
{
    struct ccnx_buf b;
    const char *res = "?";
    ccnx_buf_init(&b);
    if (ccnx_uri_append_comp(&b, p, n < max ? n : max) == 0 &&
        (n <= max || ccnx_buf_append_str(&b, "\xe2\x80\xa6") == 0) && ccnx_buf_status(&b) == 0) {
        res = wmem_strndup(pool, (const char *)b.data, b.len);
    }
    ccnx_buf_free(&b);
    return res;
}

const char *ccn_uri(wmem_allocator_t *pool, const uint8_t *enc, size_t len)
{
    struct ccnx_buf b;
    const char *res = NULL;
    ccnx_buf_init(&b);
    if (ccnx_uri_append(&b, enc, len) == 0 && ccnx_buf_status(&b) == 0) {
        res = wmem_strndup(pool, (const char *)b.data, b.len);
    }
    ccnx_buf_free(&b);
    return res;
}

const char *ccn_uri_brief(wmem_allocator_t *pool, const uint8_t *enc, size_t len)
{
    /* Components longer than this (a signed request, a key digest) are cut
     * in the Info column; the full URI stays in ccn.name. */
    enum { KEEP = 40, SHOW = 12 };
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    wmem_strbuf_t *s = wmem_strbuf_new(pool, "ccnx:");
    int count = 0;
    int res = ccnx_name_iter_init(&it, enc, len);
    while (res == 0 && (res = ccnx_name_iter_next(&it, &c)) == 1) {
        wmem_strbuf_append_c(s, '/');
        wmem_strbuf_append(s, ccn_comp_text(pool, c.p, c.n, c.n > KEEP ? SHOW : c.n));
        count++;
        res = 0;
    }
    if (res < 0) {
        return NULL;
    }
    if (count == 0) {
        wmem_strbuf_append_c(s, '/');
    }
    return wmem_strbuf_get_str(s);
}
