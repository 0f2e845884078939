/* ccn-dissect.c: cutting UDP datagrams and TCP streams into ccnb messages.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * ccnb has no length prefix: a message ends where its outermost element
 * closes. Datagrams are cut with the core's whole-element validator, TCP
 * streams with its skeleton decoder. When a message continues past the end
 * of the bytes at hand, TCP is asked for one more segment (not for the
 * smaller number of bytes the decoder knows are missing: a reassembly that
 * ends inside a segment would make a second one in the same frame, which
 * Wireshark's second pass does not replay). The decoder skips BLOB values
 * without looking at them, so rescanning a growing message stays cheap.
 * Several messages in one segment are dissected one after another.
 */
#include "ccn.h"

#include <epan/proto_data.h>

#include <ccnx/ccnb.h>
#include <ccnx/error.h>

/* Per-frame state, kept for one dissection of the frame: TCP may call the
 * dissector more than once for a frame (a reassembled tail, then the rest). */
struct frame_state {
    uint32_t msg_index;  /* Interests and ContentObjects seen so far */
    int columns_started; /* Protocol and Info columns taken over */
};

static struct frame_state *frame_state(packet_info *pinfo)
{
    struct frame_state *fs =
        (struct frame_state *)p_get_proto_data(pinfo->pool, pinfo, proto_ccn, 0);
    if (fs == NULL) {
        fs = wmem_new0(pinfo->pool, struct frame_state);
        p_add_proto_data(pinfo->pool, pinfo, proto_ccn, 0, fs);
    }
    return fs;
}

static void info_append(packet_info *pinfo, struct frame_state *fs, const char *text)
{
    if (!fs->columns_started) {
        fs->columns_started = 1;
        col_set_str(pinfo->cinfo, COL_PROTOCOL, "CCN");
        col_clear(pinfo->cinfo, COL_INFO);
    }
    col_append_sep_str(pinfo->cinfo, COL_INFO, ", ", text);
}

static void dissect_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int offset,
                            const uint8_t *buf, size_t len, struct frame_state *fs, int in_pdu);

/* A CCNProtocolDataUnit: each element inside is a message of its own. */
static void dissect_pdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int offset,
                        const uint8_t *buf, size_t len, size_t hdr, struct frame_state *fs)
{
    proto_item *ti = proto_tree_add_item(tree, proto_ccn, tvb, offset, (int)len, ENC_NA);
    proto_item_append_text(ti, ", CCNProtocolDataUnit");
    proto_tree *sub = proto_item_add_subtree(ti, ccn_ett.ccn);
    proto_tree_add_uint(sub, ccn_hf.message, tvb, offset, (int)hdr, CCN_DTAG_PDU);
    proto_item *pi = proto_tree_add_item(sub, ccn_hf.pdu, tvb, offset, (int)len, ENC_NA);
    proto_tree *ptree = proto_item_add_subtree(pi, ccn_ett.element);
    size_t pos = hdr;
    while (pos < len && buf[pos] != CCNX_CCNB_CLOSE) {
        size_t end;
        int res = ccnx_ccnb_element_end(buf, len, pos, &end);
        if (res != 0) {
            /* Data or attributes directly in the wrapper: not messages. */
            proto_tree_add_expert_format(ptree, pinfo, &ccn_ei.schema, tvb, offset + (int)pos,
                                         (int)(len - 1 - pos),
                                         "CCNProtocolDataUnit holds something other than "
                                         "messages: %s",
                                         ccnx_strerror(res));
            return;
        }
        dissect_message(tvb, pinfo, ptree, offset + (int)pos, buf + pos, end - pos, fs, 1);
        pos = end;
    }
}

/* One message: buf[0..len) is its bytes, found at `offset` in tvb. */
static void dissect_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int offset,
                            const uint8_t *buf, size_t len, struct frame_state *fs, int in_pdu)
{
    struct ccnx_ccnb_header h;
    struct ccn_summary sum;
    if (!in_pdu && ccnx_ccnb_header_decode(buf, len, &h) == 0 && h.tt == CCNX_TT_DTAG &&
        h.numval == CCN_DTAG_PDU) {
        dissect_pdu(tvb, pinfo, tree, offset, buf, len, h.size, fs);
        return;
    }
    ccn_tree_message(tvb, pinfo, tree, offset, buf, len, &sum);
    if (sum.dtag == CCN_DTAG_INTEREST || sum.dtag == CCN_DTAG_CONTENTOBJ) {
        const char *kind = sum.dtag == CCN_DTAG_INTEREST ? "Interest" : "ContentObject";
        const char *text;
        if (sum.uri == NULL) {
            text = wmem_strdup_printf(pinfo->pool, "%s [malformed]", kind);
        } else if (sum.type != NULL) {
            text = wmem_strdup_printf(pinfo->pool, "%s %s (%s)", kind, sum.uri, sum.type);
        } else {
            text = wmem_strdup_printf(pinfo->pool, "%s %s", kind, sum.uri);
        }
        info_append(pinfo, fs, text);
        if (sum.schema_ok) {
            ccn_track_message(tvb, pinfo, buf, len, &sum, fs->msg_index);
        }
        fs->msg_index++;
    } else if (sum.dtag != CCN_DTAG_SEQUENCENUM) {
        info_append(pinfo, fs, sum.dtag < 0 ? "[not a message]" : "[unexpected element]");
    } else {
        /* Take the columns over even for a lone SequenceNumber. */
        if (!fs->columns_started) {
            info_append(pinfo, fs, "SequenceNumber");
        }
    }
}

#define CUT_BY_CAPTURE "Message cut short by the capture length"

/* Marks the bytes from offset on as not decodable. */
static void bad_bytes(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int offset, int len,
                      struct frame_state *fs, int code, const char *why_truncated)
{
    proto_item *ti = proto_tree_add_item(tree, proto_ccn, tvb, offset, len, ENC_NA);
    if (code == CCNX_E_TRUNCATED) {
        proto_item_append_text(ti, ", truncated message");
        expert_add_info_format(pinfo, ti, &ccn_ei.truncated, "%s", why_truncated);
        info_append(pinfo, fs, "[Truncated ccnb]");
    } else {
        proto_item_append_text(ti, ", malformed ccnb");
        expert_add_info_format(pinfo, ti, &ccn_ei.malformed, "Malformed ccnb: %s",
                               ccnx_strerror(code));
        info_append(pinfo, fs, "[Malformed ccnb]");
    }
}

int ccn_dissect_datagram(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    struct frame_state *fs = frame_state(pinfo);
    guint captured = tvb_captured_length(tvb);
    guint reported = tvb_reported_length(tvb);
    const uint8_t *p = captured > 0 ? tvb_get_ptr(tvb, 0, (gint)captured) : NULL;
    size_t pos = 0;
    (void)data;
    while (pos < captured) {
        size_t end;
        int res = ccnx_ccnb_element_end(p, captured, pos, &end);
        if (res != 0) {
            bad_bytes(tvb, pinfo, tree, (int)pos, (int)(captured - pos), fs, res,
                      captured < reported ? CUT_BY_CAPTURE
                                          : "Message ends before its last element closes");
            break;
        }
        dissect_message(tvb, pinfo, tree, (int)pos, p + pos, end - pos, fs, 0);
        pos = end;
    }
    return (int)captured;
}

int ccn_dissect_stream(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    struct frame_state *fs = frame_state(pinfo);
    guint captured = tvb_captured_length(tvb);
    guint reported = tvb_reported_length(tvb);
    guint pos = 0;
    /* One contiguous view for the whole call: a reassembled tvb is copied once. */
    const uint8_t *p = captured > 0 ? tvb_get_ptr(tvb, 0, (gint)captured) : NULL;
    (void)data;
    while (pos < captured) {
        guint avail = captured - pos;
        struct ccnx_skel s;
        size_t used = 0;
        ccnx_skel_init(&s);
        int res = ccnx_skel_feed(&s, p + pos, avail, &used);
        if (res == 1) {
            dissect_message(tvb, pinfo, tree, (int)pos, p + pos, used, fs, 0);
            pos += (guint)used;
            continue;
        }
        if (res == 0 && pinfo->can_desegment && captured == reported) {
            pinfo->desegment_offset = (int)pos;
            pinfo->desegment_len = DESEGMENT_ONE_MORE_SEGMENT;
            return (int)captured;
        }
        bad_bytes(tvb, pinfo, tree, (int)pos, (int)avail, fs, res == 0 ? CCNX_E_TRUNCATED : res,
                  captured < reported ? CUT_BY_CAPTURE
                                      : "Message continues in a later segment, and TCP reassembly "
                                        "is off (tcp.desegment_tcp_streams)");
        break;
    }
    return (int)captured;
}
