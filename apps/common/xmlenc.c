/* XML text -> ccnb with expat; see xmlenc.h for the mapping. */
#include "xmlenc.h"

#include <ccnx/ccnb.h>
#include <ccnx/error.h>

#include <expat.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The EXT number the ccnb format gives processing instructions. */
#define EXT_PROCESSING_INSTRUCTION 16

enum data_mode { MODE_UDATA, MODE_TEXT, MODE_HEX, MODE_BASE64 };

struct enc {
    struct ccnx_buf *out;
    const struct xmlenc_opts *opts;
    const char *text;
    size_t len;
    XML_Parser parser;
    size_t seg_start; /* where the current parser's input begins in text */
    size_t seg_end;   /* set when the segment's root element has closed */
    int seg_done;
    unsigned depth;
    /* Character data since the last tag, and how the element that holds it
     * asked for it to be encoded. */
    struct ccnx_buf chars;
    enum data_mode mode;
    size_t mode_off;    /* start tag that set the mode, for messages */
    char mode_elem[64]; /* its name, possibly shortened */
    int failed;         /* err is filled */
    struct xmlenc_error *err;
};

void xmlenc_position(const char *text, size_t len, size_t offset, unsigned long *line,
                     unsigned long *column)
{
    unsigned long ln = 1, col = 1;
    if (offset > len) {
        offset = len;
    }
    for (size_t i = 0; i < offset; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n' || (ch == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
            ln++;
            col = 1;
        } else if ((ch & 0xC0) != 0x80 && ch != '\r') {
            col++; /* UTF-8 continuation bytes belong to the previous character */
        }
    }
    *line = ln;
    *column = col;
}

static size_t current_offset(const struct enc *e)
{
    XML_Index idx = XML_GetCurrentByteIndex(e->parser);
    return e->seg_start + (idx > 0 ? (size_t)idx : 0);
}

static void fail_at(struct enc *e, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records the first error and stops the parser; later events are ignored. */
static void fail_at(struct enc *e, size_t offset, const char *fmt, ...)
{
    if (e->failed) {
        return;
    }
    e->failed = 1;
    e->err->offset = offset;
    xmlenc_position(e->text, e->len, offset, &e->err->line, &e->err->column);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err->message, sizeof e->err->message, fmt, ap);
    va_end(ap);
    XML_StopParser(e->parser, XML_FALSE);
}

static void warn_at(struct enc *e, size_t offset, const char *msg)
{
    if (e->opts->warn != NULL) {
        unsigned long line, column;
        xmlenc_position(e->text, e->len, offset, &line, &column);
        e->opts->warn(e->opts->warn_arg, line, column, msg);
    }
}

static int hex_digit(unsigned char ch)
{
    if (ch >= '0' && ch <= '9') {
        return ch - '0';
    }
    if (ch >= 'A' && ch <= 'F') {
        return ch - 'A' + 10;
    }
    if (ch >= 'a' && ch <= 'f') {
        return ch - 'a' + 10;
    }
    return -1;
}

/* Decodes hex digits in place; spaces and control characters are layout. */
static int decode_hex(uint8_t *p, size_t n, size_t *outlen)
{
    size_t j = 0, digits = 0;
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] <= ' ') {
            continue;
        }
        int v = hex_digit(p[i]);
        if (v < 0) {
            return -1;
        }
        acc = (acc << 4) | (unsigned)v;
        if (++digits % 2 == 0) {
            p[j++] = (uint8_t)acc;
            acc = 0;
        }
    }
    *outlen = j;
    return digits % 2 == 0 ? 0 : -1;
}

static int base64_value(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z') {
        return ch - 'A';
    }
    if (ch >= 'a' && ch <= 'z') {
        return ch - 'a' + 26;
    }
    if (ch >= '0' && ch <= '9') {
        return ch - '0' + 52;
    }
    return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

/* Strict padded base64 decoded in place (output never outruns input):
 * spaces, tabs and newlines are layout, '=' only ends the data, and the
 * bits that padding drops must be zero. */
static int decode_base64(uint8_t *p, size_t n, size_t *outlen)
{
    size_t j = 0;
    unsigned acc = 0, bits = 0, pads = 0, chars = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = p[i];
        if (ch == ' ' || ch == '\t' || ch == '\n') {
            continue;
        }
        chars++;
        if (ch == '=') {
            pads++;
            continue;
        }
        int v = base64_value(ch);
        if (v < 0 || pads > 0) {
            return -1;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            p[j++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    if (chars % 4 != 0 || pads > 2 || (pads > 0 && bits != 2 * pads) || acc != 0) {
        return -1;
    }
    *outlen = j;
    return 0;
}

static void emit_data(struct enc *e, enum ccnx_tt tt, const void *p, size_t n)
{
    ccnx_ccnb_append_header(e->out, n, tt);
    ccnx_buf_append(e->out, p, n);
}

static int all_white(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n') {
            return 0;
        }
    }
    return 1;
}

/* Writes the character data gathered since the last markup. */
static void flush_chars(struct enc *e)
{
    uint8_t *p = e->chars.data;
    size_t n = e->chars.len, binlen = 0;
    enum data_mode mode = e->mode;
    e->mode = MODE_UDATA;
    switch (mode) {
    case MODE_TEXT:
        emit_data(e, CCNX_TT_BLOB, p, n);
        break;
    case MODE_HEX:
        if (n > 0 && decode_hex(p, n, &binlen) != 0) {
            fail_at(e, e->mode_off,
                    "<%s ccnbencoding=\"hexBinary\"> holds something other than pairs of "
                    "hex digits",
                    e->mode_elem);
            return;
        }
        emit_data(e, CCNX_TT_BLOB, p, binlen);
        break;
    case MODE_BASE64:
        if (n > 0 && decode_base64(p, n, &binlen) != 0) {
            fail_at(e, e->mode_off,
                    "<%s ccnbencoding=\"base64Binary\"> holds something other than padded "
                    "base64",
                    e->mode_elem);
            return;
        }
        emit_data(e, CCNX_TT_BLOB, p, binlen);
        break;
    case MODE_UDATA:
        if (n > 0 && !(e->opts->toss_white && all_white(p, n))) {
            emit_data(e, CCNX_TT_UDATA, p, n);
        }
        break;
    }
    ccnx_buf_reset(&e->chars);
}

/* TAG and ATTR headers carry the name length minus one. */
static void emit_name(struct enc *e, enum ccnx_tt tt, const char *name)
{
    size_t n = strlen(name);
    if (n == 0) {
        return; /* expat never reports empty names */
    }
    ccnx_ccnb_append_header(e->out, n - 1, tt);
    ccnx_buf_append(e->out, name, n);
}

static enum data_mode encoding_mode(const char *value)
{
    if (strcmp(value, "base64Binary") == 0) {
        return MODE_BASE64;
    }
    if (strcmp(value, "hexBinary") == 0) {
        return MODE_HEX;
    }
    return strcmp(value, "text") == 0 ? MODE_TEXT : MODE_UDATA;
}

static void on_start(void *arg, const XML_Char *name, const XML_Char **atts)
{
    struct enc *e = arg;
    if (e->failed) {
        return;
    }
    flush_chars(e);
    int64_t dtag = ccnx_dtag_dict_lookup(e->opts->dict, name, strlen(name));
    if (dtag >= 0) {
        ccnx_ccnb_append_header(e->out, (uint64_t)dtag, CCNX_TT_DTAG);
    } else {
        emit_name(e, CCNX_TT_TAG, name);
    }
    enum data_mode mode = MODE_UDATA;
    for (const XML_Char **a = atts; a[0] != NULL; a += 2) {
        if (strcmp(a[0], "ccnbencoding") == 0) {
            mode = encoding_mode(a[1]);
            if (mode != MODE_UDATA) {
                continue;
            }
            char msg[200];
            snprintf(msg, sizeof msg,
                     "unknown ccnbencoding \"%.60s\" (known: text, hexBinary, base64Binary) "
                     "kept as an attribute",
                     a[1]);
            warn_at(e, current_offset(e), msg);
        }
        emit_name(e, CCNX_TT_ATTR, a[0]);
        emit_data(e, CCNX_TT_UDATA, a[1], strlen(a[1]));
    }
    e->mode = mode;
    e->mode_off = current_offset(e);
    snprintf(e->mode_elem, sizeof e->mode_elem, "%s", name);
    e->depth++;
}

static void on_end(void *arg, const XML_Char *name)
{
    struct enc *e = arg;
    if (e->failed) {
        return;
    }
    flush_chars(e);
    if (e->failed) {
        return;
    }
    ccnx_ccnb_append_closer(e->out);
    if (--e->depth == 0) {
        /* The input may go on with another element: stop this parser right
         * after the root closes and start a fresh one there. */
        e->seg_end = current_offset(e) + (size_t)XML_GetCurrentByteCount(e->parser);
        e->seg_done = 1;
        XML_StopParser(e->parser, XML_FALSE);
    }
}

static void on_chars(void *arg, const XML_Char *s, int len)
{
    struct enc *e = arg;
    if (!e->failed && len > 0) {
        ccnx_buf_append(&e->chars, s, (size_t)len);
    }
}

static void on_pi(void *arg, const XML_Char *target, const XML_Char *data)
{
    struct enc *e = arg;
    if (e->failed) {
        return;
    }
    flush_chars(e);
    ccnx_ccnb_append_header(e->out, EXT_PROCESSING_INSTRUCTION, CCNX_TT_EXT);
    emit_data(e, CCNX_TT_UDATA, target, strlen(target));
    emit_data(e, CCNX_TT_UDATA, data, strlen(data));
    ccnx_ccnb_append_closer(e->out);
}

/* Whitespace allowed between top-level elements. */
static int is_layout(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Parses text[start..) up to the end of its first root element.
 * Returns 1 when a root element closed (e->seg_end says where), 0 when the
 * rest holds no element, or a negative code. */
static int parse_segment(struct enc *e, size_t start, int first)
{
    XML_Parser p = XML_ParserCreate(NULL);
    if (p == NULL) {
        return CCNX_E_NOMEM;
    }
    e->parser = p;
    e->seg_start = start;
    e->seg_done = 0;
    e->depth = 0;
    XML_SetUserData(p, e);
    XML_SetElementHandler(p, on_start, on_end);
    XML_SetCharacterDataHandler(p, on_chars);
    XML_SetProcessingInstructionHandler(p, on_pi);
    size_t n = e->len - start;
    int res = 0;
    if (n > INT32_MAX) {
        res = CCNX_E_TOOBIG;
    } else if (XML_Parse(p, e->text + start, (int)n, 1) == XML_STATUS_OK) {
        res = e->seg_done; /* only a document without elements ends here */
    } else if (e->failed) {
        res = CCNX_E_XML;
    } else if (e->seg_done && XML_GetErrorCode(p) == XML_ERROR_ABORTED) {
        res = 1;
    } else if (!first && XML_GetErrorCode(p) == XML_ERROR_NO_ELEMENTS) {
        res = 0; /* comments or processing instructions after the last element */
    } else {
        fail_at(e, current_offset(e), "%s", XML_ErrorString(XML_GetErrorCode(p)));
        res = CCNX_E_XML;
    }
    XML_ParserFree(p);
    e->parser = NULL;
    return res;
}

int xmlenc_convert(struct ccnx_buf *out, const char *text, size_t len,
                   const struct xmlenc_opts *opts, struct xmlenc_error *err)
{
    static const struct xmlenc_opts defaults = {0, NULL, NULL, NULL};
    struct xmlenc_error scratch;
    if (out == NULL || (text == NULL && len > 0)) {
        return CCNX_E_INVAL;
    }
    struct enc e;
    memset(&e, 0, sizeof e);
    e.out = out;
    e.opts = opts != NULL ? opts : &defaults;
    e.text = text != NULL ? text : "";
    e.len = len;
    e.err = err != NULL ? err : &scratch;
    memset(e.err, 0, sizeof *e.err);
    ccnx_buf_init(&e.chars);
    size_t pos = 0;
    int res = parse_segment(&e, pos, 1);
    while (res == 1) {
        pos = e.seg_end;
        while (pos < len && is_layout(text[pos])) {
            pos++;
        }
        res = pos < len ? parse_segment(&e, pos, 0) : 0;
    }
    if (res == 0 && (ccnx_buf_status(out) != 0 || ccnx_buf_status(&e.chars) != 0)) {
        res = CCNX_E_NOMEM;
    }
    ccnx_buf_free(&e.chars);
    if (res == CCNX_E_NOMEM && !e.failed) {
        snprintf(e.err->message, sizeof e.err->message, "out of memory");
    }
    return res;
}
