/* ccn-tree.c: one ccnb message as a protocol tree.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The tree follows the element structure: every element becomes an item,
 * known leaves get typed fields (chosen by the element and its parent, so
 * that a PublisherPublicKeyDigest in an Interest and one in SignedInfo are
 * different fields), known containers get their own FT_NONE fields, and
 * anything else is shown generically with its DTAG. Names become ccnx: URIs
 * with one item per component. A name component or a Content value that is
 * itself one complete ccnb element (a signed control request, a
 * FaceInstance, ForwardingEntry or StrategySelection reply) is decoded in
 * place.
 *
 * The message handed in has been validated whole by the core
 * (ccnx_ccnb_element_end), so the walk below only meets well-formed items;
 * it still checks every header and length it decodes, and embedded values
 * are validated on their own before they are walked.
 */
#include "ccn.h"
#include "ccn-leaves.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

/* State of the walk over one message (a new one for each embedded message). */
struct walk {
    tvbuff_t *tvb;
    packet_info *pinfo;
    const uint8_t *buf; /* buf[i] is at tvb offset base + i */
    int base;
    unsigned embed; /* messages enclosing this one */
    uint32_t ctype; /* content type of the ContentObject being walked */
    int seen_type;  /* a Type element appeared in the current SignedInfo */
    int seen_alg;   /* a DigestAlgorithm appeared in the current Signature */
    int flat_noted; /* the "shown flat" note was given once */
};

/* A leaf's value: at most one BLOB or UDATA item inside the element. */
struct value {
    size_t off;
    size_t len;
    int tt; /* CCNX_TT_BLOB, CCNX_TT_UDATA, or -1 for an empty element */
};

static void walk_element(struct walk *w, proto_tree *tree, size_t pos, size_t end, uint32_t parent,
                         unsigned nest);
static size_t walk_items(struct walk *w, proto_tree *tree, size_t pos, size_t end, uint32_t parent,
                         unsigned nest);

static int toff(const struct walk *w, size_t pos)
{
    return w->base + (int)pos;
}

static int tlen(size_t n)
{
    return (int)n;
}

/* ---- Value decoding ---- */

static int leaf_value(const struct walk *w, size_t pos, size_t end, struct value *v)
{
    struct ccnx_ccnb_header h, d;
    if (ccnx_ccnb_header_decode(w->buf + pos, end - pos, &h) != 0) {
        return 0;
    }
    size_t p = pos + h.size;
    v->off = p;
    v->len = 0;
    v->tt = -1;
    if (p + 1 == end && w->buf[p] == CCNX_CCNB_CLOSE) {
        return 1;
    }
    if (p >= end || ccnx_ccnb_header_decode(w->buf + p, end - p, &d) != 0) {
        return 0;
    }
    if (d.tt != CCNX_TT_BLOB && d.tt != CCNX_TT_UDATA) {
        return 0;
    }
    size_t voff = p + d.size;
    if (voff >= end || d.numval > end - voff - 1) {
        return 0;
    }
    if (voff + d.numval + 1 != end || w->buf[end - 1] != CCNX_CCNB_CLOSE) {
        return 0;
    }
    v->off = voff;
    v->len = (size_t)d.numval;
    v->tt = d.tt;
    return 1;
}

/* Decimal text of 1..19 digits. */
static int parse_decimal(const uint8_t *p, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 19) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return 0;
        }
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    *out = v;
    return 1;
}

/* 1/4096 s units as seconds and nanoseconds. */
static nstime_t units_to_nstime(uint64_t units)
{
    nstime_t t;
    t.secs = (time_t)(units >> 12);
    t.nsecs = (int)(((units & 0xFFF) * 1000000000u) >> 12);
    return t;
}

static const char *element_name(uint64_t dtag)
{
    const char *n = ccnx_dtag_name(dtag);
    return n != NULL ? n : "Unknown element";
}

/* ---- Leaves ---- */

static void add_bits(struct walk *w, proto_item *item, const struct value *v, uint64_t value,
                     int *const *bits)
{
    proto_tree *sub = proto_item_add_subtree(item, ccn_ett.flags);
    for (size_t i = 0; bits[i] != NULL; i++) {
        proto_tree_add_boolean(sub, *bits[i], w->tvb, toff(w, v->off), tlen(v->len),
                               (guint32)value);
    }
}

static void bad_value(struct walk *w, proto_tree *tree, uint64_t dtag, const struct value *v,
                      const char *why)
{
    wmem_allocator_t *pool = w->pinfo->pool;
    const uint8_t *p = w->buf + v->off;
    const char *shown = v->tt == CCNX_TT_UDATA
                            ? wmem_strdup_printf(pool, "\"%s\"", ccn_safe_text(pool, p, v->len))
                            : ccn_hex_text(pool, p, v->len, 32);
    proto_item *it =
        proto_tree_add_bytes_format(tree, ccn_hf.blob, w->tvb, toff(w, v->off), tlen(v->len), NULL,
                                    "%s: %s", element_name(dtag), shown);
    expert_add_info_format(w->pinfo, it, &ccn_ei.value, "%s: %s", element_name(dtag), why);
}

/* Bytes, or "(empty)" where Wireshark would say the value is missing. */
static proto_item *add_bytes(struct walk *w, proto_tree *tree, int hf, const struct value *v)
{
    if (v->len == 0) {
        return proto_tree_add_bytes_format_value(tree, hf, w->tvb, toff(w, v->off), 0, NULL,
                                                 "(empty)");
    }
    return proto_tree_add_item(tree, hf, w->tvb, toff(w, v->off), tlen(v->len), ENC_NA);
}

static void show_decimal(struct walk *w, proto_tree *tree, const struct leaf_spec *spec,
                         const struct value *v)
{
    static int *const aok_bits[] = {&ccn_hf.aok_cs, &ccn_hf.aok_new, &ccn_hf.aok_stale,
                                    &ccn_hf.aok_expire, NULL};
    static int *const fwd_bits[] = {
        &ccn_hf.flag_active, &ccn_hf.flag_child_inherit, &ccn_hf.flag_advertise,
        &ccn_hf.flag_last,   &ccn_hf.flag_capture,       &ccn_hf.flag_local,
        &ccn_hf.flag_tap,    &ccn_hf.flag_capture_ok,    NULL};
    uint64_t value;
    if (!parse_decimal(w->buf + v->off, v->len, &value)) {
        bad_value(w, tree, spec->dtag, v, "not a decimal number");
        return;
    }
    if (spec->kind == LK_DEC64) {
        proto_tree_add_uint64(tree, *spec->hf, w->tvb, toff(w, v->off), tlen(v->len), value);
        return;
    }
    if (value > UINT32_MAX) {
        bad_value(w, tree, spec->dtag, v, "number too large");
        return;
    }
    proto_item *it =
        proto_tree_add_uint(tree, *spec->hf, w->tvb, toff(w, v->off), tlen(v->len), (guint32)value);
    if (spec->kind == LK_AOK) {
        add_bits(w, it, v, value, aok_bits);
    } else if (spec->kind == LK_FWDFLAGS) {
        add_bits(w, it, v, value, fwd_bits);
    }
}

static void show_binary(struct walk *w, proto_tree *tree, const struct leaf_spec *spec,
                        const struct value *v)
{
    uint64_t value;
    if (v->len == 0 || ccnx_ccnb_binary_uint(w->buf + v->off, v->len, &value) != 0) {
        bad_value(w, tree, spec->dtag, v, "not a binary number of 1 to 8 bytes");
        return;
    }
    int off = toff(w, v->off);
    if (spec->kind == LK_BINUINT) {
        proto_tree_add_uint64(tree, *spec->hf, w->tvb, off, tlen(v->len), value);
        return;
    }
    nstime_t t = units_to_nstime(value);
    proto_tree_add_time(tree, *spec->hf, w->tvb, off, tlen(v->len), &t);
}

static void show_type(struct walk *w, proto_tree *tree, const struct leaf_spec *spec,
                      const struct value *v)
{
    if (v->len != 3) {
        bad_value(w, tree, spec->dtag, v, "a content type is 3 bytes");
        return;
    }
    const uint8_t *p = w->buf + v->off;
    uint32_t type = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
    proto_item *it = proto_tree_add_uint(tree, *spec->hf, w->tvb, toff(w, v->off), 3, type);
    if (ccnx_content_type_name(type) == NULL) {
        expert_add_info_format(w->pinfo, it, &ccn_ei.value, "Unknown content type 0x%06x", type);
    }
    w->ctype = type;
    w->seen_type = 1;
}

static void show_leaf(struct walk *w, proto_tree *tree, const struct leaf_spec *spec, size_t pos,
                      size_t end, const struct value *v)
{
    int off = toff(w, v->off);
    switch (spec->kind) {
    case LK_BYTES:
        add_bytes(w, tree, *spec->hf, v);
        break;
    case LK_COMP:
        proto_tree_add_bytes_format_value(
            tree, *spec->hf, w->tvb, off, tlen(v->len), NULL, "%s",
            ccn_comp_text(w->pinfo->pool, w->buf + v->off, v->len, 64));
        break;
    case LK_TEXT:
        proto_tree_add_item(tree, *spec->hf, w->tvb, off, tlen(v->len), ENC_UTF_8 | ENC_NA);
        if (spec->dtag == D_DIGESTALG) {
            w->seen_alg = 1;
        }
        break;
    case LK_DEC32:
    case LK_DEC64:
    case LK_AOK:
    case LK_FWDFLAGS:
        show_decimal(w, tree, spec, v);
        break;
    case LK_TIME_ABS:
    case LK_TIME_REL:
    case LK_BINUINT:
        show_binary(w, tree, spec, v);
        break;
    case LK_TYPE:
        show_type(w, tree, spec, v);
        break;
    case LK_FLAG:
        proto_tree_add_item(tree, *spec->hf, w->tvb, toff(w, pos), tlen(end - pos), ENC_NA);
        break;
    }
}

/* A leaf without a typed field: its value as bytes or text under its name. */
static void show_generic_leaf(struct walk *w, proto_tree *tree, uint64_t dtag, size_t pos,
                              size_t end, const struct value *v)
{
    wmem_allocator_t *pool = w->pinfo->pool;
    const char *name = element_name(dtag);
    proto_item *it;
    if (v->tt == CCNX_TT_UDATA) {
        const char *text = ccn_safe_text(pool, w->buf + v->off, v->len);
        it = proto_tree_add_string_format(tree, ccn_hf.udata, w->tvb, toff(w, v->off), tlen(v->len),
                                          text, "%s: %s", name, text);
    } else if (v->tt == CCNX_TT_BLOB) {
        it = proto_tree_add_bytes_format(tree, ccn_hf.blob, w->tvb, toff(w, v->off), tlen(v->len),
                                         NULL, "%s: %s", name,
                                         ccn_hex_text(pool, w->buf + v->off, v->len, 32));
    } else {
        it = proto_tree_add_uint_format(tree, ccn_hf.element, w->tvb, toff(w, pos), tlen(end - pos),
                                        (guint32)dtag, "%s (empty)", name);
    }
    if (ccnx_dtag_name(dtag) == NULL) {
        proto_item_append_text(it, " (DTAG %" PRIu64 ")", dtag);
        expert_add_info_format(w->pinfo, it, &ccn_ei.unknown, "Unknown DTAG %" PRIu64, dtag);
    }
}

/* ---- Embedded messages ---- */

/* If buf[start..start+len) is exactly one ccnb element whose DTAG the
 * dictionary knows, walks it as a message of its own under tree. */
static void try_embedded(struct walk *w, proto_tree *tree, size_t start, size_t len, unsigned nest,
                         int messages_only)
{
    struct ccnx_ccnb_header h;
    size_t end;
    if (w->embed >= CCN_MAX_EMBED || len < 2 ||
        ccnx_ccnb_header_decode(w->buf + start, len, &h) != 0 || h.tt != CCNX_TT_DTAG) {
        return;
    }
    if (messages_only ? (h.numval != CCN_DTAG_INTEREST && h.numval != CCN_DTAG_CONTENTOBJ)
                      : ccnx_dtag_name(h.numval) == NULL) {
        return;
    }
    if (ccnx_ccnb_element_end(w->buf, start + len, start, &end) != 0 || end != start + len) {
        return;
    }
    struct walk inner = *w;
    inner.embed = w->embed + 1;
    inner.ctype = CCNX_TYPE_DATA;
    walk_element(&inner, tree, start, end, 0, nest);
}

/* ---- Names ---- */

static void name_fields(const struct walk *w, uint32_t parent, int *hf_uri, int *hf_comp)
{
    *hf_comp = ccn_hf.component;
    switch (parent) {
    case CCN_DTAG_INTEREST:
    case CCN_DTAG_CONTENTOBJ:
        if (w->embed == 0) {
            *hf_uri = ccn_hf.name;
            *hf_comp = ccn_hf.name_component;
        } else {
            *hf_uri = ccn_hf.embedded_name;
        }
        break;
    case D_KEYNAME:
        *hf_uri = ccn_hf.kl_keyname;
        break;
    case D_FWDENTRY:
    case D_STRATEGYSEL:
        *hf_uri = ccn_hf.ctl_prefix;
        break;
    case D_LINK:
        *hf_uri = ccn_hf.link_name;
        break;
    default:
        *hf_uri = ccn_hf.other_name;
        break;
    }
}

/* Returns 0 when the element is not a proper Name (the caller shows it generically). */
static int show_name(struct walk *w, proto_tree *tree, size_t pos, size_t end, uint32_t parent,
                     unsigned nest)
{
    wmem_allocator_t *pool = w->pinfo->pool;
    const char *uri = ccn_uri(pool, w->buf + pos, end - pos);
    int hf_uri, hf_comp;
    if (uri == NULL) {
        return 0;
    }
    name_fields(w, parent, &hf_uri, &hf_comp);
    proto_item *it =
        proto_tree_add_string(tree, hf_uri, w->tvb, toff(w, pos), tlen(end - pos), uri);
    proto_tree *sub = nest < CCN_MAX_TREE_NEST ? proto_item_add_subtree(it, ccn_ett.name) : tree;
    int count = ccnx_name_count_ccnb(w->buf + pos, end - pos);
    proto_item *ci = proto_tree_add_uint(sub, ccn_hf.name_count, w->tvb, toff(w, pos), 0,
                                         count < 0 ? 0 : (guint32)count);
    proto_item_set_generated(ci);

    struct ccnx_name_iter iter;
    struct ccnx_comp c;
    if (ccnx_name_iter_init(&iter, w->buf + pos, end - pos) != 0) {
        return 1;
    }
    while (ccnx_name_iter_next(&iter, &c) == 1) {
        size_t coff = (size_t)(c.p - w->buf);
        proto_item *comp =
            proto_tree_add_bytes_format_value(sub, hf_comp, w->tvb, toff(w, coff), tlen(c.n), NULL,
                                              "%s", ccn_comp_text(pool, c.p, c.n, 64));
        if (c.n >= 4 && nest + 1 < CCN_MAX_TREE_NEST) {
            proto_tree *ct = proto_item_add_subtree(comp, ccn_ett.component);
            try_embedded(w, ct, coff, c.n, nest + 2, 1);
        }
    }
    return 1;
}

/* ---- Content ---- */

/* Plain ASCII text (with line breaks and tabs), worth showing as such. */
static int is_text(const uint8_t *p, size_t n)
{
    if (n == 0) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if ((p[i] < 0x20 || p[i] > 0x7E) && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') {
            return 0;
        }
    }
    return 1;
}

static void show_content(struct walk *w, proto_tree *tree, size_t pos, size_t end, unsigned nest)
{
    struct value v;
    if (!leaf_value(w, pos, end, &v)) {
        return;
    }
    proto_item *it = add_bytes(w, tree, ccn_hf.content, &v);
    proto_tree *sub = nest < CCN_MAX_TREE_NEST ? proto_item_add_subtree(it, ccn_ett.content) : tree;
    proto_item *li = proto_tree_add_uint(sub, ccn_hf.content_length, w->tvb, toff(w, v.off),
                                         tlen(v.len), (guint32)v.len);
    proto_item_set_generated(li);
    /* KEY content is DER and ENCR content is ciphertext: never ccnb. */
    if (w->ctype != CCNX_TYPE_KEY && w->ctype != CCNX_TYPE_ENCR) {
        try_embedded(w, sub, v.off, v.len, nest + 1, 0);
    }
    if (is_text(w->buf + v.off, v.len)) {
        proto_item *ti = proto_tree_add_item(sub, ccn_hf.content_text, w->tvb, toff(w, v.off),
                                             tlen(v.len), ENC_ASCII);
        proto_item_set_generated(ti);
    }
}

/* ---- Elements ---- */

static int container_field(const struct walk *w, uint64_t dtag)
{
    switch (dtag) {
    case CCN_DTAG_INTEREST:
        return w->embed ? ccn_hf.embedded : ccn_hf.interest;
    case CCN_DTAG_CONTENTOBJ:
        return w->embed ? ccn_hf.embedded : ccn_hf.contentobj;
    case CCN_DTAG_PDU:
        return ccn_hf.pdu;
    case D_SIGNATURE:
        return ccn_hf.signature;
    case D_SIGNEDINFO:
        return ccn_hf.signedinfo;
    case D_KEYLOCATOR:
        return ccn_hf.keylocator;
    case D_EXCLUDE:
        return ccn_hf.exclude;
    case D_FACEINSTANCE:
        return ccn_hf.faceinstance;
    case D_FWDENTRY:
        return ccn_hf.fwdentry;
    case D_STRATEGYSEL:
        return ccn_hf.strategy;
    case D_STATUSRESPONSE:
        return ccn_hf.status;
    case D_LINK:
        return ccn_hf.link;
    case D_COLLECTION:
        return ccn_hf.collection;
    default:
        return -1;
    }
}

/* Items the schema implies when their element is absent. */
static void add_defaults(struct walk *w, proto_tree *tree, uint64_t dtag, size_t pos)
{
    proto_item *it = NULL;
    if (dtag == D_SIGNEDINFO && !w->seen_type) {
        it =
            proto_tree_add_uint(tree, ccn_hf.content_type, w->tvb, toff(w, pos), 0, CCNX_TYPE_DATA);
        proto_item_append_text(it, " (Type absent)");
    } else if (dtag == D_SIGNATURE && !w->seen_alg) {
        it = proto_tree_add_string(tree, ccn_hf.sig_algorithm, w->tvb, toff(w, pos), 0,
                                   "2.16.840.1.101.3.4.2.1");
        proto_item_append_text(it, " (SHA-256 with RSA: DigestAlgorithm absent)");
    }
    if (it != NULL) {
        proto_item_set_generated(it);
    }
}

/* An element shown as an item with its children below it. */
static void show_container(struct walk *w, proto_tree *tree, size_t pos, size_t end,
                           const struct ccnx_ccnb_header *h, unsigned nest)
{
    uint64_t dtag = h->numval;
    int hf = container_field(w, dtag);
    proto_item *it;
    if (hf == ccn_hf.embedded) {
        it = proto_tree_add_none_format(tree, hf, w->tvb, toff(w, pos), tlen(end - pos),
                                        "Embedded %s", element_name(dtag));
    } else if (hf >= 0) {
        it = proto_tree_add_item(tree, hf, w->tvb, toff(w, pos), tlen(end - pos), ENC_NA);
    } else {
        it = proto_tree_add_uint_format(tree, ccn_hf.element, w->tvb, toff(w, pos), tlen(end - pos),
                                        (guint32)dtag, "%s", element_name(dtag));
        if (ccnx_dtag_name(dtag) == NULL) {
            proto_item_append_text(it, " (DTAG %" PRIu64 ")", dtag);
            expert_add_info_format(w->pinfo, it, &ccn_ei.unknown, "Unknown DTAG %" PRIu64, dtag);
        }
    }
    proto_tree *sub = tree;
    if (nest < CCN_MAX_TREE_NEST) {
        sub =
            proto_item_add_subtree(it, hf == ccn_hf.embedded ? ccn_ett.embedded : ccn_ett.element);
    } else if (!w->flat_noted) {
        w->flat_noted = 1;
        expert_add_info(w->pinfo, it, &ccn_ei.flat);
    }
    if (dtag == D_SIGNEDINFO) {
        w->seen_type = 0;
    } else if (dtag == D_SIGNATURE) {
        w->seen_alg = 0;
    } else if (dtag == CCN_DTAG_CONTENTOBJ) {
        w->ctype = CCNX_TYPE_DATA;
    }
    walk_items(w, sub, pos + h->size, end, (uint32_t)(dtag > UINT32_MAX - 1 ? 0 : dtag), nest + 1);
    add_defaults(w, sub, dtag, pos);
}

/* One DTAG element [pos, end). */
static void walk_element(struct walk *w, proto_tree *tree, size_t pos, size_t end, uint32_t parent,
                         unsigned nest)
{
    struct ccnx_ccnb_header h;
    struct value v;
    if (ccnx_ccnb_header_decode(w->buf + pos, end - pos, &h) != 0 || h.tt != CCNX_TT_DTAG) {
        return;
    }
    if (h.numval == CCN_DTAG_NAME && show_name(w, tree, pos, end, parent, nest)) {
        return;
    }
    if (h.numval == CCN_DTAG_CONTENT && parent == CCN_DTAG_CONTENTOBJ &&
        leaf_value(w, pos, end, &v)) {
        show_content(w, tree, pos, end, nest);
        return;
    }
    if (leaf_value(w, pos, end, &v)) {
        const struct leaf_spec *spec = ccn_leaf_lookup((uint32_t)h.numval, parent);
        if (h.numval <= UINT32_MAX && spec != NULL && (spec->kind != LK_FLAG || v.tt == -1)) {
            show_leaf(w, tree, spec, pos, end, &v);
        } else if (container_field(w, h.numval) < 0) {
            show_generic_leaf(w, tree, h.numval, pos, end, &v);
        } else {
            show_container(w, tree, pos, end, &h, nest);
        }
        return;
    }
    show_container(w, tree, pos, end, &h, nest);
}

/* A TAG or EXT element, an attribute or a bare value: shown as it is. */
static size_t walk_other(struct walk *w, proto_tree *tree, size_t pos, size_t end,
                         const struct ccnx_ccnb_header *h, unsigned nest)
{
    wmem_allocator_t *pool = w->pinfo->pool;
    size_t body = pos + h->size;
    size_t namelen = (h->tt == CCNX_TT_TAG || h->tt == CCNX_TT_ATTR) ? (size_t)h->numval + 1 : 0;
    size_t eend;
    if (h->tt == CCNX_TT_TAG || h->tt == CCNX_TT_EXT) {
        if (ccnx_ccnb_element_end(w->buf, end, pos, &eend) != 0 || namelen > eend - body) {
            return end;
        }
        proto_item *it;
        if (h->tt == CCNX_TT_TAG) {
            const char *name = ccn_safe_text(pool, w->buf + body, namelen);
            it = proto_tree_add_string_format(tree, ccn_hf.tag, w->tvb, toff(w, pos),
                                              tlen(eend - pos), name, "<%s>", name);
        } else {
            it = proto_tree_add_uint_format(tree, ccn_hf.element, w->tvb, toff(w, pos),
                                            tlen(eend - pos), 0, "Extension %" PRIu64, h->numval);
        }
        proto_tree *sub =
            nest < CCN_MAX_TREE_NEST ? proto_item_add_subtree(it, ccn_ett.element) : tree;
        walk_items(w, sub, body + namelen, eend, 0, nest + 1);
        return eend;
    }
    if (h->tt == CCNX_TT_ATTR || h->tt == CCNX_TT_DATTR) {
        struct ccnx_ccnb_header u;
        size_t voff = body + namelen;
        if (namelen > end - body || ccnx_ccnb_header_decode(w->buf + voff, end - voff, &u) != 0 ||
            u.tt != CCNX_TT_UDATA || u.numval > end - voff - u.size) {
            return end;
        }
        size_t vend = voff + u.size + (size_t)u.numval;
        const char *name = h->tt == CCNX_TT_ATTR ? ccn_safe_text(pool, w->buf + body, namelen)
                                                 : wmem_strdup_printf(pool, "#%" PRIu64, h->numval);
        const char *value = ccn_safe_text(pool, w->buf + voff + u.size, (size_t)u.numval);
        proto_tree_add_string_format(tree, ccn_hf.attr, w->tvb, toff(w, pos), tlen(vend - pos),
                                     name, "Attribute %s=\"%s\"", name, value);
        return vend;
    }
    /* BLOB or UDATA directly in a container. */
    if (h->numval > end - body) {
        return end;
    }
    struct value v = {body, (size_t)h->numval, h->tt};
    if (h->tt == CCNX_TT_UDATA) {
        proto_tree_add_item(tree, ccn_hf.udata, w->tvb, toff(w, v.off), tlen(v.len), ENC_UTF_8);
    } else {
        proto_tree_add_item(tree, ccn_hf.blob, w->tvb, toff(w, v.off), tlen(v.len), ENC_NA);
    }
    return body + v.len;
}

/* The items of an element, from pos up to and including its closer. */
static size_t walk_items(struct walk *w, proto_tree *tree, size_t pos, size_t end, uint32_t parent,
                         unsigned nest)
{
    while (pos < end) {
        struct ccnx_ccnb_header h;
        size_t eend;
        if (w->buf[pos] == CCNX_CCNB_CLOSE) {
            return pos + 1;
        }
        if (ccnx_ccnb_header_decode(w->buf + pos, end - pos, &h) != 0) {
            break;
        }
        if (h.tt == CCNX_TT_DTAG) {
            if (ccnx_ccnb_element_end(w->buf, end, pos, &eend) != 0) {
                break;
            }
            walk_element(w, tree, pos, eend, parent, nest);
            pos = eend;
        } else {
            pos = walk_other(w, tree, pos, end, &h, nest);
        }
    }
    proto_tree_add_expert(tree, w->pinfo, &ccn_ei.malformed, w->tvb, toff(w, pos), tlen(end - pos));
    return end;
}

/* ---- Messages ---- */

/* Fills the summary from the core's schema parsers. */
static void summarize(struct walk *w, const uint8_t *buf, size_t len, struct ccn_summary *sum)
{
    wmem_allocator_t *pool = w->pinfo->pool;
    int res = 0;
    if (sum->dtag == CCN_DTAG_INTEREST) {
        struct ccnx_interest_parsed pi;
        res = ccnx_interest_parse(buf, len, &pi);
        if (res == 0) {
            sum->uri = ccn_uri_brief(pool, buf + pi.name.off, pi.name.len);
        }
    } else if (sum->dtag == CCN_DTAG_CONTENTOBJ) {
        struct ccnx_content_parsed pc;
        res = ccnx_content_parse(buf, len, &pc);
        if (res == 0) {
            sum->uri = ccn_uri_brief(pool, buf + pc.name.off, pc.name.len);
            if (pc.type != CCNX_TYPE_DATA) {
                const char *t = ccnx_content_type_name(pc.type);
                sum->type = t != NULL ? t : wmem_strdup_printf(pool, "0x%06x", pc.type);
            }
        }
    }
    sum->schema_ok = res == 0;
    if (res != 0) {
        expert_add_info_format(w->pinfo, sum->item, &ccn_ei.schema,
                               "%s does not follow the schema: %s",
                               element_name((uint64_t)sum->dtag), ccnx_strerror(res));
    }
}

static void add_digest(struct walk *w, proto_tree *tree, const uint8_t *buf, size_t len)
{
    uint8_t digest[32];
    if (ccnx_content_digest(buf, len, digest) == 0) {
        proto_item *it = proto_tree_add_bytes_with_length(tree, ccn_hf.content_digest, w->tvb,
                                                          w->base, 0, digest, sizeof digest);
        proto_item_set_generated(it);
    }
}

void ccn_tree_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int base,
                      const uint8_t *buf, size_t len, struct ccn_summary *sum)
{
    struct walk w = {tvb, pinfo, buf, base, 0, CCNX_TYPE_DATA, 0, 0, 0};
    struct ccnx_ccnb_header h;
    memset(sum, 0, sizeof *sum);
    sum->dtag = -1;
    sum->item = proto_tree_add_item(tree, proto_ccn, tvb, base, tlen(len), ENC_NA);
    sum->tree = proto_item_add_subtree(sum->item, ccn_ett.ccn);
    if (ccnx_ccnb_header_decode(buf, len, &h) != 0) {
        return;
    }
    if (h.tt == CCNX_TT_DTAG && h.numval <= UINT32_MAX) {
        sum->dtag = (int64_t)h.numval;
        proto_tree_add_uint(sum->tree, ccn_hf.message, tvb, base, tlen(h.size), (guint32)h.numval);
    }
    summarize(&w, buf, len, sum);
    proto_item_append_text(sum->item, ", %s", h.tt == CCNX_TT_DTAG ? element_name(h.numval) : "?");
    if (sum->uri != NULL) {
        proto_item_append_text(sum->item, " %s", sum->uri);
    }
    if (h.tt == CCNX_TT_DTAG) {
        walk_element(&w, sum->tree, 0, len, 0, 0);
    } else {
        walk_other(&w, sum->tree, 0, len, &h, 0);
    }
    if (sum->dtag == CCN_DTAG_CONTENTOBJ) {
        add_digest(&w, sum->tree, buf, len);
    }
}
