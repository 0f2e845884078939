/* Reading a ccnsink stream's caps (ccnv_caps.h). GStreamer writes caps as
 *
 *   media/type, field=(type)value, field=(type)< v1, v2 >, ...
 *
 * with strings in double quotes (backslash escapes) and buffers in
 * hexadecimal. Only the top level is read: a field name inside a quoted
 * string or a nested structure is not a field. */
#include "ccnv_caps.h"

#include <ccnx/error.h>

#include <stdint.h>
#include <string.h>

static int is_type_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '+' || c == '_';
}

int ccnv_caps_media_type(const char *caps, size_t n, char *out, size_t room)
{
    size_t i = 0;
    while (i < n && is_type_char(caps[i])) {
        i++;
    }
    if (i == 0 || i >= n || caps[i] != '/') {
        return CCNX_E_VALUE;
    }
    size_t slash = i++;
    while (i < n && is_type_char(caps[i])) {
        i++;
    }
    if (i == slash + 1 || (i < n && caps[i] != ',' && caps[i] != ';') || i + 1 > room) {
        return CCNX_E_VALUE;
    }
    memcpy(out, caps, i);
    out[i] = '\0';
    return 0;
}

/* The offset just after the top-level text "streamheader=" that starts a
 * field, or SIZE_MAX when there is none. */
static size_t find_field(const char *caps, size_t n)
{
    static const char key[] = "streamheader=";
    const size_t klen = sizeof key - 1;
    int quoted = 0, depth = 0, field_start = 0;
    for (size_t i = 0; i < n; i++) {
        char c = caps[i];
        if (quoted) {
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = 0;
            }
            continue;
        }
        if (depth == 0 && field_start && n - i >= klen && memcmp(caps + i, key, klen) == 0) {
            return i + klen;
        }
        field_start = c == ' ' && (field_start || (i > 0 && caps[i - 1] == ','));
        if (c == '"') {
            quoted = 1;
        } else if (c == '<' || c == '[' || c == '{' || c == '(') {
            depth++;
        } else if ((c == '>' || c == ']' || c == '}' || c == ')') && depth > 0) {
            depth--;
        }
    }
    return SIZE_MAX;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static size_t skip_spaces(const char *s, size_t i, size_t n)
{
    while (i < n && s[i] == ' ') {
        i++;
    }
    return i;
}

/* One hexadecimal buffer at s[*i..): appended, *i moved past it. */
static int read_buffer(const char *s, size_t *i, size_t n, struct ccnx_buf *out)
{
    size_t start = *i;
    while (*i + 1 < n && hex_value(s[*i]) >= 0 && hex_value(s[*i + 1]) >= 0) {
        uint8_t byte = (uint8_t)(hex_value(s[*i]) << 4 | hex_value(s[*i + 1]));
        if (ccnx_buf_append_byte(out, byte) != 0) {
            return CCNX_E_NOMEM;
        }
        *i += 2;
    }
    return *i == start || (*i < n && hex_value(s[*i]) >= 0) ? CCNX_E_VALUE : 0;
}

int ccnv_caps_stream_headers(const char *caps, size_t n, struct ccnx_buf *out)
{
    static const char type[] = "(buffer)";
    size_t i = find_field(caps, n);
    if (i == SIZE_MAX) {
        return 0;
    }
    size_t tlen = sizeof type - 1;
    if (n - i >= tlen && memcmp(caps + i, type, tlen) == 0) {
        i += tlen;
    }
    if (i >= n || caps[i] != '<') {
        return CCNX_E_VALUE;
    }
    size_t kept = out->len;
    for (i = skip_spaces(caps, i + 1, n);; i = skip_spaces(caps, i + 1, n)) {
        int rc = read_buffer(caps, &i, n, out);
        i = skip_spaces(caps, i, n);
        if (rc == 0 && i < n && caps[i] == '>') {
            return 0;
        }
        if (rc != 0 || i >= n || caps[i] != ',') {
            out->len = kept;
            return rc != 0 ? rc : CCNX_E_VALUE;
        }
    }
}
