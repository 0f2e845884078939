/* ccnb -> XML text. The output rules follow the reference decoder exactly
 * (see ccnx/xml.h); only its acceptance of malformed structure differs. */
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/xml.h>

#include <inttypes.h>
#include <string.h>

/* The reference shows the URI form only for this DTAG number, whatever
 * name a user dictionary gives it. */
#define COMPONENT_DTAG 15
/* The one EXT item the format defines. */
#define EXT_PROCESSING_INSTRUCTION 16

enum level_kind { LEVEL_DTAG, LEVEL_TAG, LEVEL_PI };

struct level {
    enum level_kind kind;
    const char *name; /* DTAG name (or "UNKNOWN_DTAG") */
    size_t name_off;  /* TAG name: span in the input */
    size_t name_len;
    int has_children; /* a child element was printed (indent mode) */
    int pi_items;     /* UDATA items seen inside a processing instruction */
};

struct conv {
    const uint8_t *in;
    size_t len;
    size_t pos;
    struct ccnx_buf *out;
    unsigned flags;
    const struct ccnx_xml_opts *opts;
    struct ccnx_xml_report *rep;
    size_t err_at; /* item to blame if the current step fails */
    struct level stack[CCNX_CCNB_MAX_DEPTH];
    unsigned depth;
    /* A start tag has been printed without its closing '>': attributes and
     * the ccnbencoding of a first BLOB may still go into it. */
    int tag_open;
    /* -v: bytes of the Component being printed in hex or base64. */
    int annot_active;
    struct ccnx_buf annot;
};

static const char base64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void finish_start_tag(struct conv *c)
{
    if (c->tag_open) {
        ccnx_buf_append_byte(c->out, '>');
        c->tag_open = 0;
    }
}

static void newline_indent(struct conv *c, unsigned levels)
{
    ccnx_buf_append_byte(c->out, '\n');
    for (unsigned i = 0; i < levels; i++) {
        ccnx_buf_append(c->out, "  ", 2);
    }
}

/* Starts a new element or processing instruction below the current one. */
static int push_level(struct conv *c, enum level_kind kind)
{
    if (c->depth > 0 && c->stack[c->depth - 1].kind == LEVEL_PI) {
        return CCNX_E_STRUCTURE;
    }
    if (c->depth >= CCNX_CCNB_MAX_DEPTH) {
        return CCNX_E_TOODEEP;
    }
    finish_start_tag(c);
    if ((c->flags & CCNX_XML_INDENT) != 0 && c->depth > 0) {
        c->stack[c->depth - 1].has_children = 1;
        newline_indent(c, c->depth);
    }
    struct level *l = &c->stack[c->depth++];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    return 0;
}

static int open_dtag(struct conv *c, uint64_t number)
{
    int res = push_level(c, LEVEL_DTAG);
    if (res != 0) {
        return res;
    }
    struct level *l = &c->stack[c->depth - 1];
    l->name = ccnx_dtag_dict_name(c->opts->dict, number);
    if (l->name == NULL) {
        l->name = "UNKNOWN_DTAG";
        if (c->rep->unknown_dtags++ == 0) {
            c->rep->first_unknown_dtag = number;
        }
        ccnx_buf_printf(c->out, "<UNKNOWN_DTAG code=\"%" PRIu64 "\"", number);
    } else {
        ccnx_buf_printf(c->out, "<%s", l->name);
    }
    if ((c->flags & CCNX_XML_VERBOSE) != 0 && number == COMPONENT_DTAG) {
        /* The reference gives up on a Component nested in a Component;
         * restarting the comment keeps the outer one's bytes out of it. */
        ccnx_buf_reset(&c->annot);
        c->annot_active = 1;
    }
    c->tag_open = 1;
    return 0;
}

/* A TAG or ATTR name: numval + 1 bytes, none of them NUL. */
static int take_name(struct conv *c, uint64_t numval, size_t *off, size_t *n)
{
    if (numval >= c->len - c->pos) {
        return CCNX_E_TRUNCATED;
    }
    *off = c->pos;
    *n = (size_t)numval + 1;
    if (memchr(c->in + *off, 0, *n) != NULL) {
        return CCNX_E_VALUE;
    }
    c->pos += *n;
    return 0;
}

static int open_tag(struct conv *c, uint64_t numval)
{
    size_t off, n;
    int res = take_name(c, numval, &off, &n);
    if (res == 0) {
        res = push_level(c, LEVEL_TAG);
    }
    if (res != 0) {
        return res;
    }
    struct level *l = &c->stack[c->depth - 1];
    l->name_off = off;
    l->name_len = n;
    ccnx_buf_append_byte(c->out, '<');
    ccnx_buf_append(c->out, c->in + off, n);
    c->tag_open = 1;
    return 0;
}

static int open_pi(struct conv *c, uint64_t numval)
{
    if (numval != EXT_PROCESSING_INSTRUCTION) {
        return CCNX_E_UNSUPPORTED;
    }
    int res = push_level(c, LEVEL_PI);
    if (res == 0) {
        ccnx_buf_append(c->out, "<?", 2);
    }
    return res;
}

/* UDATA bytes as XML character data; NUL has no XML form. */
static int append_escaped(struct conv *c, const uint8_t *p, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        const char *ent = NULL;
        switch (p[i]) {
        case 0:
            return CCNX_E_VALUE;
        case '&':
            ent = "&amp;";
            break;
        case '<':
            ent = "&lt;";
            break;
        case '>':
            ent = "&gt;";
            break;
        case '"':
            ent = "&quot;";
            break;
        default:
            continue;
        }
        ccnx_buf_append(c->out, p + run, i - run);
        ccnx_buf_append_str(c->out, ent);
        run = i + 1;
    }
    ccnx_buf_append(c->out, p + run, n - run);
    return 0;
}

/* The value of an ATTR or DATTR: exactly one UDATA item must follow. */
static int attribute_value(struct conv *c)
{
    struct ccnx_ccnb_header h;
    size_t item = c->pos;
    if (c->pos >= c->len) {
        return CCNX_E_TRUNCATED;
    }
    int res = c->in[c->pos] == CCNX_CCNB_CLOSE
                  ? CCNX_E_STRUCTURE
                  : ccnx_ccnb_header_decode(c->in + c->pos, c->len - c->pos, &h);
    if (res == 0 && h.tt != CCNX_TT_UDATA) {
        res = CCNX_E_STRUCTURE;
    }
    if (res == 0 && h.numval > c->len - c->pos - h.size) {
        res = CCNX_E_TRUNCATED;
    }
    if (res != 0) {
        c->err_at = item; /* blame the value, not its attribute */
        return res;
    }
    c->pos += h.size;
    res = append_escaped(c, c->in + c->pos, (size_t)h.numval);
    if (res != 0) {
        return res;
    }
    c->pos += (size_t)h.numval;
    ccnx_buf_append_byte(c->out, '"');
    return 0;
}

static int attribute(struct conv *c, const struct ccnx_ccnb_header *h)
{
    if (!c->tag_open) {
        return CCNX_E_STRUCTURE;
    }
    if (h->tt == CCNX_TT_DATTR) {
        ccnx_buf_printf(c->out, " UNKNOWN_DATTR_%" PRIu64 "=\"", h->numval);
    } else {
        size_t off, n;
        int res = take_name(c, h->numval, &off, &n);
        if (res != 0) {
            return res;
        }
        ccnx_buf_append_byte(c->out, ' ');
        ccnx_buf_append(c->out, c->in + off, n);
        ccnx_buf_append(c->out, "=\"", 2);
    }
    return attribute_value(c);
}

static int is_text_encodable(const uint8_t *p, size_t n)
{
    if (n == 0) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i] < ' ' || p[i] > '~' || p[i] == '<' || p[i] == '>' || p[i] == '&') {
            return 0;
        }
    }
    return 1;
}

/* A line break inside binary data. The readable form indents the lines
 * below the start tag; hexBinary and base64Binary readers skip whitespace. */
static void data_line_break(struct conv *c, int more)
{
    if ((c->flags & CCNX_XML_INDENT) == 0) {
        ccnx_buf_append_byte(c->out, '\n');
    } else if (more) {
        newline_indent(c, c->depth);
    } else {
        newline_indent(c, c->depth > 0 ? c->depth - 1 : 0);
    }
}

static void append_hex(struct conv *c, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789ABCDEF";
    /* Only the readable form wraps hex, 32 bytes to a line. */
    size_t line = (c->flags & CCNX_XML_INDENT) != 0 ? 32 : n;
    for (size_t i = 0; i < n; i += line) {
        size_t chunk = n - i < line ? n - i : line;
        uint8_t *dst = ccnx_buf_reserve(c->out, 2 * chunk);
        if (dst == NULL) {
            return; /* the buffer's sticky error reports it */
        }
        for (size_t k = 0; k < chunk; k++) {
            dst[2 * k] = (uint8_t)digits[p[i + k] >> 4];
            dst[2 * k + 1] = (uint8_t)digits[p[i + k] & 15];
        }
        c->out->len += 2 * chunk;
        if (i + chunk < n) {
            data_line_break(c, 1);
        }
    }
}

/* Standard padded base64. The reference breaks the line after every 64
 * characters, the last group included, unless binary output is forced. */
static void append_base64(struct conv *c, const uint8_t *p, size_t n)
{
    int breaks = (c->flags & CCNX_XML_FORCE_BINARY) == 0;
    size_t column = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        size_t have = n - i < 3 ? n - i : 3;
        if (have > 1) {
            v |= (uint32_t)p[i + 1] << 8;
        }
        if (have > 2) {
            v |= p[i + 2];
        }
        char group[4] = {base64_digits[v >> 18], base64_digits[(v >> 12) & 63],
                         have > 1 ? base64_digits[(v >> 6) & 63] : '=',
                         have > 2 ? base64_digits[v & 63] : '='};
        ccnx_buf_append(c->out, group, 4);
        column += 4;
        if (breaks && column >= 64) {
            data_line_break(c, i + 3 < n);
            column = 0;
        }
    }
}

static int blob(struct conv *c, uint64_t numval)
{
    if (numval > c->len - c->pos) {
        return CCNX_E_TRUNCATED;
    }
    if (c->depth > 0 && c->stack[c->depth - 1].kind == LEVEL_PI) {
        return CCNX_E_STRUCTURE;
    }
    const uint8_t *p = c->in + c->pos;
    size_t n = (size_t)numval;
    c->pos += n;
    int hex = 0;
    if (c->tag_open) {
        c->tag_open = 0;
        if ((c->flags & CCNX_XML_FORCE_BINARY) == 0 && is_text_encodable(p, n)) {
            ccnx_buf_append_str(c->out, " ccnbencoding=\"text\">");
            ccnx_buf_append(c->out, p, n);
            return 0;
        }
        hex = (c->flags & CCNX_XML_PREFER_HEX) != 0;
        ccnx_buf_append_str(c->out, hex ? " ccnbencoding=\"hexBinary\">"
                                        : " ccnbencoding=\"base64Binary\">");
    } else {
        c->rep->untagged_blobs++;
    }
    if (c->annot_active) {
        ccnx_buf_append(&c->annot, p, n);
    }
    if (hex) {
        append_hex(c, p, n);
    } else {
        append_base64(c, p, n);
    }
    return 0;
}

static int udata(struct conv *c, uint64_t numval)
{
    if (numval > c->len - c->pos) {
        return CCNX_E_TRUNCATED;
    }
    const uint8_t *p = c->in + c->pos;
    size_t n = (size_t)numval;
    struct level *top = c->depth > 0 ? &c->stack[c->depth - 1] : NULL;
    if (top != NULL && top->kind == LEVEL_PI) {
        /* Target, then data, copied as they are: PIs have no escapes. */
        if (top->pi_items >= 2) {
            return CCNX_E_STRUCTURE;
        }
        if (top->pi_items++ > 0) {
            ccnx_buf_append_byte(c->out, ' ');
        }
        ccnx_buf_append(c->out, p, n);
    } else {
        finish_start_tag(c);
        int res = append_escaped(c, p, n);
        if (res != 0) {
            return res;
        }
    }
    c->pos += n;
    return 0;
}

/* The URI form of a component, escaped as the reference's comment shows
 * it: a second consecutive '-' is escaped too, since XML comments may not
 * hold "--". */
static void append_annotation(struct conv *c)
{
    const uint8_t *p = c->annot.data;
    size_t n = c->annot.len;
    size_t dots = 0;
    while (dots < n && p[dots] == '.') {
        dots++;
    }
    ccnx_buf_append_str(c->out, "<!--       ");
    if (dots == n) {
        ccnx_buf_append_str(c->out, "...");
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t ch = p[i];
        int plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '~' ||
                    (ch == '-' && !(i > 0 && p[i - 1] == '-'));
        if (plain) {
            ccnx_buf_append_byte(c->out, ch);
        } else {
            ccnx_buf_printf(c->out, "%%%02X", (unsigned)ch);
        }
    }
    ccnx_buf_append_str(c->out, " -->");
}

static int close_level(struct conv *c)
{
    if (c->depth == 0) {
        return CCNX_E_STRUCTURE;
    }
    struct level *l = &c->stack[c->depth - 1];
    if (l->kind == LEVEL_PI) {
        if (l->pi_items != 2) {
            return CCNX_E_STRUCTURE;
        }
        ccnx_buf_append(c->out, "?>", 2);
    } else if (c->tag_open) {
        ccnx_buf_append(c->out, "/>", 2);
        c->tag_open = 0;
    } else {
        if ((c->flags & CCNX_XML_INDENT) != 0 && l->has_children) {
            newline_indent(c, c->depth - 1);
        }
        ccnx_buf_append(c->out, "</", 2);
        if (l->kind == LEVEL_TAG) {
            ccnx_buf_append(c->out, c->in + l->name_off, l->name_len);
        } else {
            ccnx_buf_append_str(c->out, l->name);
        }
        ccnx_buf_append_byte(c->out, '>');
    }
    /* Like the reference, the comment follows whichever element closes
     * first after the Component opened. */
    if (c->annot_active) {
        if (c->annot.len > 0) {
            append_annotation(c);
        }
        c->annot_active = 0;
    }
    c->pos++;
    if (--c->depth > 0) {
        return 0;
    }
    ccnx_buf_append_byte(c->out, '\n');
    c->rep->elements++;
    if (c->opts->element_done != NULL && ccnx_buf_status(c->out) == 0) {
        return c->opts->element_done(c->opts->arg, c->out);
    }
    return 0;
}

static int convert_item(struct conv *c)
{
    if (c->in[c->pos] == CCNX_CCNB_CLOSE) {
        return close_level(c);
    }
    struct ccnx_ccnb_header h;
    int res = ccnx_ccnb_header_decode(c->in + c->pos, c->len - c->pos, &h);
    if (res != 0) {
        return res;
    }
    c->pos += h.size;
    switch (h.tt) {
    case CCNX_TT_EXT:
        return open_pi(c, h.numval);
    case CCNX_TT_TAG:
        return open_tag(c, h.numval);
    case CCNX_TT_DTAG:
        return open_dtag(c, h.numval);
    case CCNX_TT_ATTR:
    case CCNX_TT_DATTR:
        return attribute(c, &h);
    case CCNX_TT_BLOB:
        return blob(c, h.numval);
    case CCNX_TT_UDATA:
        return udata(c, h.numval);
    }
    return CCNX_E_BADTT;
}

int ccnx_xml_from_ccnb(struct ccnx_buf *out, const uint8_t *in, size_t len,
                       const struct ccnx_xml_opts *opts, struct ccnx_xml_report *rep)
{
    static const struct ccnx_xml_opts defaults = {0, NULL, NULL, NULL};
    struct ccnx_xml_report scratch;
    if (rep == NULL) {
        rep = &scratch;
    }
    memset(rep, 0, sizeof *rep);
    if (out == NULL || (in == NULL && len > 0)) {
        return CCNX_E_INVAL;
    }
    struct conv c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.len = len;
    c.out = out;
    c.opts = opts != NULL ? opts : &defaults;
    c.flags = c.opts->flags;
    c.rep = rep;
    ccnx_buf_init(&c.annot);
    if ((c.flags & CCNX_XML_NO_DECLARATION) == 0) {
        ccnx_buf_append_str(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    }
    int res = 0;
    while (res == 0 && c.pos < len) {
        c.err_at = c.pos;
        res = convert_item(&c);
        if (res == 0) {
            res = ccnx_buf_status(out);
        } else {
            rep->err_off = c.err_at;
        }
    }
    if (res == 0 && c.depth > 0) {
        res = CCNX_E_TRUNCATED;
        rep->err_off = len;
    }
    if (res == 0) {
        res = ccnx_buf_status(&c.annot);
    }
    ccnx_buf_free(&c.annot);
    return res != 0 ? res : ccnx_buf_status(out);
}
