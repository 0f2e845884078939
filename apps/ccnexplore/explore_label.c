/* Readable components, sizes and dates (see explore_label.h). */
#include "explore_label.h"

#include <ccnx/naming.h>
#include <ccnx/uri.h>
#include <ccnx/utf8.h>

#include <string.h>
#include <time.h>

int ex_label_printable_utf8(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = (size_t)ccnx_utf8_decode(p + i, n - i, &cp);
        if (len == 0 || ccnx_utf8_unsafe_in_name(cp))
            return 0;
        i += len;
    }
    return 1;
}

int ex_label_inert_text(struct ccnx_buf *out, const uint8_t *p, size_t n, int keep_newlines)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = (size_t)ccnx_utf8_decode(p + i, n - i, &cp);
        if (len == 0) {
            ccnx_buf_append_byte(out, '.');
            i++;
            continue;
        }
        if (cp == '\n' && keep_newlines)
            ccnx_buf_append_byte(out, '\n');
        else if (cp == '\t')
            ccnx_buf_append_byte(out, ' ');
        else if (ccnx_utf8_unsafe(cp))
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
