/* Readable components, sizes and dates (see explore_label.h). */
#include "explore_label.h"

#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <string.h>
#include <time.h>

/* Length of the UTF-8 sequence at p with its code point, or 0 when it is
 * not valid (overlong, surrogate, beyond U+10FFFF, cut short). */
size_t ex_label_utf8_next(const uint8_t *p, size_t n, uint32_t *cp)
{
    uint8_t b = p[0];
    size_t len = b < 0x80             ? 1
                 : (b & 0xE0) == 0xC0 ? 2
                 : (b & 0xF0) == 0xE0 ? 3
                 : (b & 0xF8) == 0xF0 ? 4
                                      : 0;
    if (len == 0 || len > n)
        return 0;
    uint32_t v = len == 1 ? b : len == 2 ? b & 0x1Fu : len == 3 ? b & 0x0Fu : b & 0x07u;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

/* Characters that must never reach a terminal from the network. */
static int inert(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

int ex_label_printable_utf8(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = ex_label_utf8_next(p + i, n - i, &cp);
        if (len == 0 || inert(cp))
            return 0;
        i += len;
    }
    return 1;
}

int ex_label_inert_text(struct ccnx_buf *out, const uint8_t *p, size_t n, int keep_newlines)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = ex_label_utf8_next(p + i, n - i, &cp);
        if (len == 0) {
            ccnx_buf_append_byte(out, '.');
            i++;
            continue;
        }
        if (cp == '\n' && keep_newlines)
            ccnx_buf_append_byte(out, '\n');
        else if (cp == '\t')
            ccnx_buf_append_byte(out, ' ');
        else if (inert(cp))
            ccnx_buf_append_byte(out, '.');
        else
            ccnx_buf_append(out, p + i, len);
        i += len;
    }
    return ccnx_buf_status(out);
}

static int hex_prefix(struct ccnx_buf *out, const uint8_t *p, size_t n, size_t shown)
{
    for (size_t i = 0; i < n && i < shown; i++)
        ccnx_buf_printf(out, "%02x", p[i]);
    if (n > shown)
        ccnx_buf_append_str(out, "…");
    return ccnx_buf_status(out);
}

/* %C1.<text>[%00 or %C1 arg]: the text as it reads, the argument in hex
 * (a key id shows the start of its digest). */
static int label_marker(struct ccnx_buf *out, const uint8_t *p, size_t n)
{
    const uint8_t *digest;
    if (ccnx_naming_keyid_digest(p, n, &digest) == 0) {
        ccnx_buf_append_str(out, "‹key ");
        hex_prefix(out, digest, CCNX_DIGEST_LEN, 8);
        return ccnx_buf_append_str(out, "›");
    }
    struct ccnx_naming_command cmd;
    if (ccnx_naming_command_parse(p, n, &cmd) != 0 ||
        !ex_label_printable_utf8(cmd.text.p, cmd.text.n))
        return ccnx_uri_append_comp(out, p, n);
    ccnx_buf_append_str(out, "‹");
    ccnx_buf_append(out, cmd.text.p, cmd.text.n);
    if (cmd.arg_kind != CCNX_COMMAND_ARG_NONE) {
        ccnx_buf_append_byte(out, ' ');
        hex_prefix(out, cmd.arg.p, cmd.arg.n, 8);
    }
    return ccnx_buf_append_str(out, "›");
}

int ex_label_component(struct ccnx_buf *out, const uint8_t *p, size_t n)
{
    uint64_t v;
    if (ccnx_naming_version_decode(p, n, &v) == 0 && ccnx_naming_is_version(p, n)) {
        ccnx_buf_append_str(out, "‹version ");
        ex_label_date(out, v, 1);
        return ccnx_buf_append_str(out, "›");
    }
    if (ccnx_naming_segment_decode(p, n, &v) == 0)
        return ccnx_buf_printf(out, "‹segment %llu›", (unsigned long long)v);
    if (ccnx_naming_is_command(p, n))
        return label_marker(out, p, n);
    if (n > 0 && ex_label_printable_utf8(p, n) && p[0] != '%')
        return ccnx_buf_append(out, p, n);
    return ccnx_uri_append_comp(out, p, n);
}

int ex_label_size(struct ccnx_buf *out, uint64_t bytes)
{
    static const char *const units[] = {"kB", "MB", "GB", "TB"};
    if (bytes < 1000)
        return ccnx_buf_printf(out, "%llu B", (unsigned long long)bytes);
    double v = (double)bytes / 1000;
    size_t u = 0;
    while (v >= 999.95 && u + 1 < sizeof units / sizeof *units) {
        v /= 1000;
        u++;
    }
    return ccnx_buf_printf(out, "%.1f %s", v, units[u]);
}

int ex_label_date(struct ccnx_buf *out, uint64_t ticks, int seconds)
{
    struct timespec ts;
    struct tm tm;
    char text[32];
    ccnx_naming_timestamp_to_timespec(ticks, &ts);
    if (localtime_r(&ts.tv_sec, &tm) == NULL ||
        strftime(text, sizeof text, seconds ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d %H:%M", &tm) == 0)
        return ccnx_buf_printf(out, "@%llu", (unsigned long long)ticks);
    return ccnx_buf_append_str(out, text);
}
