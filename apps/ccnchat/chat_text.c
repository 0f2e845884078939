/* Inert rendering of untrusted text. See chat_text.h. */
#include "chat_text.h"

#include <ccnx/error.h>

int chat_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp)
{
    if (n == 0)
        return 0;
    uint8_t b = p[0];
    size_t len;
    uint32_t v, min;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xE0) == 0xC0) {
        len = 2, v = b & 0x1F, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
        len = 3, v = b & 0x0F, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
        len = 4, v = b & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are not text. */
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return (int)len;
}

int chat_utf8_append(struct ccnx_buf *out, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp, n = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xC0 | (cp >> 6)), b[1] = (uint8_t)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12)), b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18)), b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)), b[3] = (uint8_t)(0x80 | (cp & 0x3F)), n = 4;
    }
    return ccnx_buf_append(out, b, n);
}

int chat_utf8_valid(const uint8_t *p, size_t n)
{
    uint32_t cp;
    for (size_t i = 0; i < n;) {
        int k = chat_utf8_decode(p + i, n - i, &cp);
        if (k == 0)
            return 0;
        i += (size_t)k;
    }
    return 1;
}

/* Characters that change how a terminal shows what follows: controls, and
 * the bidirectional embeddings, overrides and isolates (a message could
 * otherwise make the next lines read backwards). */
static int is_dangerous(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
           cp == 0x200F || cp == 0x061C;
}

static int append_inert(struct ccnx_buf *out, uint32_t cp)
{
    if (cp == '\t')
        return ccnx_buf_append_byte(out, ' ');
    if (cp < 0x20)
        return ccnx_buf_printf(out, "^%c", (char)(cp + 0x40));
    if (cp == 0x7F)
        return ccnx_buf_append_str(out, "^?");
    return ccnx_buf_printf(out, "<U+%04X>", (unsigned)cp);
}

int chat_text_sanitize(const uint8_t *p, size_t n, size_t max_chars, struct ccnx_buf *out)
{
    int changed = 0;
    size_t chars = 0;
    if (max_chars == 0)
        max_chars = CHAT_TEXT_MAX_CHARS;
    for (size_t i = 0; i < n; chars++) {
        if (chars == max_chars) {
            ccnx_buf_append_str(out, CHAT_TEXT_CUT_MARK);
            changed = 1;
            break;
        }
        uint32_t cp;
        int k = chat_utf8_decode(p + i, n - i, &cp);
        if (k == 0) {
            chat_utf8_append(out, 0xFFFD);
            changed = 1;
            i++;
            continue;
        }
        if (is_dangerous(cp)) {
            append_inert(out, cp);
            changed = 1;
        } else {
            ccnx_buf_append(out, p + i, (size_t)k);
        }
        i += (size_t)k;
    }
    ccnx_buf_append_byte(out, 0);
    out->len--;
    return ccnx_buf_status(out) < 0 ? CCNX_E_NOMEM : changed;
}
