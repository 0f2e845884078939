/* Strict UTF-8 and the terminal-safety rule (see ccnx/utf8.h). */
#include <ccnx/utf8.h>

int ccnx_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp)
{
    if (n == 0) {
        return 0;
    }
    uint8_t b = p[0];
    size_t len;
    uint32_t v, min;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xE0) == 0xC0) {
        len = 2, v = b & 0x1Fu, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
        len = 3, v = b & 0x0Fu, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
        len = 4, v = b & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            return 0;
        }
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are not text. */
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        return 0;
    }
    *cp = v;
    return (int)len;
}

int ccnx_utf8_append(struct ccnx_buf *out, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp, n = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xC0 | (cp >> 6)), n = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12)), n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18)), n = 4;
    }
    for (size_t i = 1; i < n; i++) {
        b[i] = (uint8_t)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3F));
    }
    return ccnx_buf_append(out, b, n);
}

int ccnx_utf8_valid(const uint8_t *p, size_t n)
{
    uint32_t cp;
    for (size_t i = 0; i < n;) {
        int k = ccnx_utf8_decode(p + i, n - i, &cp);
        if (k == 0) {
            return 0;
        }
        i += (size_t)k;
    }
    return 1;
}

int ccnx_utf8_unsafe(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0xFEFF;
}
