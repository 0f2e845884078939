/* ccn.h: shared declarations of the CCNx 0.x (ccnb) dissector plugin.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The plugin is split by job: packet-ccn.c registers fields, preferences and
 * handoffs; ccn-dissect.c cuts UDP datagrams and TCP streams into messages;
 * ccn-tree.c turns one message into a protocol tree, with ccn-text.c
 * printing names and values; ccn-track.c links Interests to the
 * ContentObjects that answered them; ccn-heur.c decides whether bytes on an
 * unknown port look like ccnb; plugin.c holds the symbols Wireshark loads
 * the plugin by. The core library
 * (libccnx) does every bounds-checked parse: nothing here reads a length
 * from the wire without one of its validators having checked it first.
 */
#ifndef CCN_WS_CCN_H
#define CCN_WS_CCN_H

#include <stddef.h>
#include <stdint.h>

#include <wireshark.h>
#include <epan/packet.h>
#include <epan/expert.h>

/* Wireshark 4.2 changed the return type of heuristic dissectors to bool. */
#if WIRESHARK_VERSION_MAJOR > 4 || (WIRESHARK_VERSION_MAJOR == 4 && WIRESHARK_VERSION_MINOR >= 2)
#define CCN_WS_42 1
typedef bool ccn_heur_result;
#else
#define CCN_WS_42 0
typedef gboolean ccn_heur_result;
#endif

/* Well-known DTAGs the dissector dispatches on (values of core/dtag.csv). */
#define CCN_DTAG_NAME        14
#define CCN_DTAG_COMPONENT   15
#define CCN_DTAG_CONTENT     19
#define CCN_DTAG_INTEREST    26
#define CCN_DTAG_CONTENTOBJ  64
#define CCN_DTAG_SEQUENCENUM 256
#define CCN_DTAG_PDU         17702112

/* How deep the protocol tree below one message may nest before items are
 * shown flat. ccnb allows 32 levels, embedded messages add more; a tree that
 * deep is unreadable and goes past Wireshark's gui.max_tree_depth (32 by
 * default), which its front ends use when they walk the tree. */
#define CCN_MAX_TREE_NEST 14
/* How many messages may be carried inside others (a signed control request
 * inside an Interest name, a reply body inside Content) and still be decoded. */
#define CCN_MAX_EMBED 3

/* ---- Registered ids (packet-ccn.c) ---- */
extern int proto_ccn;

/* Every field; registered once in packet-ccn.c, documented in docs/wireshark.md. */
struct ccn_hf {
    int message, seqnum, pdu, interest, contentobj, embedded;
    int name, name_count, name_component, component, embedded_name, other_name;
    int min_suffix, max_suffix, int_publisher, exclude, exclude_component, exclude_any;
    int exclude_bloom, child_selector, aok, aok_cs, aok_new, aok_stale, aok_expire;
    int scope, lifetime, nonce, int_faceid;
    int signature, sig_algorithm, sig_witness, sig_bits;
    int signedinfo, si_publisher, si_timestamp, content_type, si_freshness;
    int si_finalblock, si_extopt;
    int keylocator, kl_key, kl_cert, kl_keyname, kl_publisher;
    int content, content_length, content_digest, content_text;
    int faceinstance, fwdentry, strategy, status;
    int ctl_action, ctl_ccndid, ctl_faceid, ctl_ipproto, ctl_host, ctl_port, ctl_mcastif;
    int ctl_mcastttl, ctl_freshness, ctl_prefix, ctl_flags, ctl_strategy_id, ctl_strategy_params;
    int ctl_status_code, ctl_status_text;
    int flag_active, flag_child_inherit, flag_advertise, flag_last, flag_capture, flag_local;
    int flag_tap, flag_capture_ok;
    int link, link_name, link_label, link_publisher, collection;
    int element, tag, attr, blob, udata;
    int response_in, response_to, response_time;
};
extern struct ccn_hf ccn_hf;

struct ccn_ett {
    int ccn, element, name, component, aok, flags, content, embedded;
};
extern struct ccn_ett ccn_ett;

struct ccn_ei {
    expert_field malformed, truncated, schema, unknown, value, flat;
};
extern struct ccn_ei ccn_ei;

/* ---- Message framing (ccn-dissect.c) ---- */

/* Dissects a UDP payload: one or more whole messages. */
int ccn_dissect_datagram(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data);
/* Dissects a stretch of a TCP stream, asking TCP for more bytes when a
 * message continues in later segments. */
int ccn_dissect_stream(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data);

/* ---- Tree building (ccn-tree.c) ---- */

/* What the tree builder learned about a message, for the Info column and
 * for request/response tracking. */
struct ccn_summary {
    int64_t dtag;     /* outer DTAG, -1 for anything else */
    const char *uri;  /* name as a ccnx: URI (packet scope), or NULL */
    const char *type; /* content type name for a non-DATA ContentObject, or NULL */
    int schema_ok;    /* the core's schema parser accepted the message */
    proto_tree *tree; /* the message's subtree, for tracking items */
    proto_item *item; /* the message's protocol item */
};

/* Renders the message buf[0..len), which starts at tvb offset `base` and
 * is one complete, validated ccnb element. */
void ccn_tree_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int base,
                      const uint8_t *buf, size_t len, struct ccn_summary *sum);

/* ---- Text (ccn-text.c), allocated in `pool` ---- */

/* Printable ASCII kept, other bytes as \xNN: always valid UTF-8. */
const char *ccn_safe_text(wmem_allocator_t *pool, const uint8_t *p, size_t n);
/* Hex of at most `max` bytes, with an ellipsis when there are more. */
const char *ccn_hex_text(wmem_allocator_t *pool, const uint8_t *p, size_t n, size_t max);
/* A name component escaped as in a URI; at most `max` bytes, then an ellipsis. */
const char *ccn_comp_text(wmem_allocator_t *pool, const uint8_t *p, size_t n, size_t max);
/* "ccnx:/a/b" for the encoded Name element enc[0..len), or NULL if malformed. */
const char *ccn_uri(wmem_allocator_t *pool, const uint8_t *enc, size_t len);
/* The URI shortened for the Info column: long components are cut. */
const char *ccn_uri_brief(wmem_allocator_t *pool, const uint8_t *enc, size_t len);

/* ---- Request/response tracking (ccn-track.c) ---- */

void ccn_track_init(void);
/* Called for every Interest and ContentObject on the wire (not for embedded
 * ones), in frame order on the first pass; adds the generated
 * response-in / response-to / response-time items. */
void ccn_track_message(tvbuff_t *tvb, packet_info *pinfo, const uint8_t *buf, size_t len,
                       struct ccn_summary *sum, uint32_t msg_index);

/* ---- Heuristics (ccn-heur.c) ---- */

/* TRUE when p[0..n) plausibly starts with ccnb messages. A datagram must be
 * entirely whole messages; a stream segment may end inside one. */
int ccn_plausible(const uint8_t *p, size_t n, int is_stream);

#endif
