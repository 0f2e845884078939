/* Inert rendering of untrusted text. See chat_text.h. */
#include "chat_text.h"

#include <ccnx/error.h>
#include <ccnx/utf8.h>

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

static int sanitize(const uint8_t *p, size_t n, size_t max_chars, int (*unsafe)(uint32_t),
                    struct ccnx_buf *out)
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
        int k = ccnx_utf8_decode(p + i, n - i, &cp);
        if (k == 0) {
            ccnx_utf8_append(out, 0xFFFD);
            changed = 1;
            i++;
            continue;
        }
        if (unsafe(cp)) {
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

int chat_text_sanitize(const uint8_t *p, size_t n, size_t max_chars, struct ccnx_buf *out)
{
    return sanitize(p, n, max_chars, ccnx_utf8_unsafe, out);
}

int chat_text_sanitize_name(const uint8_t *p, size_t n, struct ccnx_buf *out)
{
    return sanitize(p, n, CHAT_TEXT_MAX_NAME_CHARS, ccnx_utf8_unsafe_in_name, out);
}
