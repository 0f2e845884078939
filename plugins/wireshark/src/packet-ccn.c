/* packet-ccn.c: registration of the CCNx 0.x (ccnb) protocol, its fields,
 * preferences, ports and heuristics.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ccn.h"

#include <epan/prefs.h>
#include <epan/tfs.h>
#include <epan/conversation.h>

#define CCN_UDP_PORTS "9695,59695"
#define CCN_TCP_PORTS "9695"

int proto_ccn = -1;
struct ccn_hf ccn_hf;
struct ccn_ett ccn_ett;
struct ccn_ei ccn_ei;

static dissector_handle_t ccn_udp_handle;
static dissector_handle_t ccn_tcp_handle;

void proto_register_ccn(void);
void proto_reg_handoff_ccn(void);

static const value_string message_vals[] = {
    {CCN_DTAG_INTEREST, "Interest"},
    {CCN_DTAG_CONTENTOBJ, "ContentObject"},
    {CCN_DTAG_SEQUENCENUM, "SequenceNumber"},
    {CCN_DTAG_PDU, "CCNProtocolDataUnit"},
    {0, NULL},
};

static const value_string content_type_vals[] = {
    {0x0C04C0, "DATA"}, {0x10D091, "ENCR"}, {0x18E344, "GONE"}, {0x28463F, "KEY"},
    {0x2C834A, "LINK"}, {0x34008A, "NACK"}, {0, NULL},
};

static const value_string scope_vals[] = {
    {0, "this forwarder only"},
    {1, "this host"},
    {2, "this host and the next one"},
    {0, NULL},
};

static const value_string child_selector_vals[] = {
    {0, "leftmost (smallest next component)"},
    {1, "rightmost (largest next component)"},
    {0, NULL},
};

static const value_string ipproto_vals[] = {
    {6, "TCP"},
    {17, "UDP"},
    {0, NULL},
};

#define FIELD(id, label, abbrev, type, display, strings, mask, blurb)                              \
    {                                                                                              \
        &ccn_hf.id,                                                                                \
        {                                                                                          \
            label, abbrev, type, display, strings, mask, blurb, HFILL                              \
        }                                                                                          \
    }

static hf_register_info hf[] = {
    /* Messages and framing */
    FIELD(message, "Message", "ccn.message", FT_UINT32, BASE_DEC, VALS(message_vals), 0,
          "Outer element of a message: Interest (26), ContentObject (64), SequenceNumber (256), "
          "CCNProtocolDataUnit (17702112)"),
    FIELD(seqnum, "Link sequence number", "ccn.seqnum", FT_UINT64, BASE_DEC, NULL, 0,
          "SequenceNumber element that ccnd adds to datagrams on unicast UDP faces"),
    FIELD(pdu, "CCNProtocolDataUnit", "ccn.pdu", FT_NONE, BASE_NONE, NULL, 0,
          "Wrapper around several messages in one datagram"),
    FIELD(interest, "Interest", "ccn.interest", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(contentobj, "ContentObject", "ccn.contentobject", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(embedded, "Embedded message", "ccn.embedded", FT_NONE, BASE_NONE, NULL, 0,
          "A message carried inside another (a signed control request in a name component)"),
    /* Names */
    FIELD(name, "Name", "ccn.name", FT_STRING, BASE_NONE, NULL, 0,
          "Name of an Interest or ContentObject as a ccnx: URI"),
    FIELD(name_count, "Components", "ccn.name.count", FT_UINT32, BASE_DEC, NULL, 0,
          "Number of name components"),
    FIELD(name_component, "Component", "ccn.name.component", FT_BYTES, BASE_NONE, NULL, 0,
          "One component of a message name"),
    FIELD(component, "Component", "ccn.component", FT_BYTES, BASE_NONE, NULL, 0,
          "One component of any other name"),
    FIELD(embedded_name, "Embedded message name", "ccn.embedded.name", FT_STRING, BASE_NONE, NULL,
          0, "Name of a message carried inside another"),
    FIELD(other_name, "Name", "ccn.othername", FT_STRING, BASE_NONE, NULL, 0,
          "A name in an element without a more specific field"),
    /* Interest */
    FIELD(min_suffix, "MinSuffixComponents", "ccn.interest.minsuffix", FT_UINT32, BASE_DEC, NULL, 0,
          "Fewest components beyond the Interest name, counting the implicit digest"),
    FIELD(max_suffix, "MaxSuffixComponents", "ccn.interest.maxsuffix", FT_UINT32, BASE_DEC, NULL, 0,
          "Most components beyond the Interest name, counting the implicit digest"),
    FIELD(int_publisher, "PublisherPublicKeyDigest", "ccn.interest.publisher", FT_BYTES, BASE_NONE,
          NULL, 0, "Only objects signed by this key (SHA-256 of the public key)"),
    FIELD(exclude, "Exclude", "ccn.interest.exclude", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(exclude_component, "Excluded component", "ccn.interest.exclude.component", FT_BYTES,
          BASE_NONE, NULL, 0, NULL),
    FIELD(exclude_any, "Any", "ccn.interest.exclude.any", FT_NONE, BASE_NONE, NULL, 0,
          "Excludes every component between its neighbours"),
    FIELD(exclude_bloom, "Bloom filter", "ccn.interest.exclude.bloom", FT_BYTES, BASE_NONE, NULL, 0,
          "Excludes the components between its neighbours that the filter holds"),
    FIELD(child_selector, "ChildSelector", "ccn.interest.childselector", FT_UINT32, BASE_DEC,
          VALS(child_selector_vals), 0, NULL),
    FIELD(aok, "AnswerOriginKind", "ccn.interest.aok", FT_UINT32, BASE_DEC, NULL, 0, NULL),
    FIELD(aok_cs, "Answer from a content store", "ccn.interest.aok.cs", FT_BOOLEAN, 8,
          TFS(&tfs_yes_no), 0x01, NULL),
    FIELD(aok_new, "Answer by generating content", "ccn.interest.aok.new", FT_BOOLEAN, 8,
          TFS(&tfs_yes_no), 0x02, NULL),
    FIELD(aok_stale, "Stale content acceptable", "ccn.interest.aok.stale", FT_BOOLEAN, 8,
          TFS(&tfs_yes_no), 0x04, NULL),
    FIELD(aok_expire, "Mark matching content stale", "ccn.interest.aok.expire", FT_BOOLEAN, 8,
          TFS(&tfs_yes_no), 0x10, NULL),
    FIELD(scope, "Scope", "ccn.interest.scope", FT_UINT32, BASE_DEC, VALS(scope_vals), 0, NULL),
    FIELD(lifetime, "InterestLifetime", "ccn.interest.lifetime", FT_RELATIVE_TIME, BASE_NONE, NULL,
          0, "How long the Interest stays pending (sent in units of 1/4096 s)"),
    FIELD(nonce, "Nonce", "ccn.interest.nonce", FT_BYTES, BASE_NONE, NULL, 0,
          "Bytes forwarders use to drop duplicate Interests"),
    FIELD(int_faceid, "FaceID", "ccn.interest.faceid", FT_UINT64, BASE_DEC, NULL, 0, NULL),
    /* Signature */
    FIELD(signature, "Signature", "ccn.signature", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(sig_algorithm, "DigestAlgorithm", "ccn.signature.algorithm", FT_STRING, BASE_NONE, NULL,
          0, "Digest algorithm OID; absent means SHA-256 with RSA"),
    FIELD(sig_witness, "Witness", "ccn.signature.witness", FT_BYTES, BASE_NONE, NULL, 0,
          "Merkle hash tree path of a batch signature"),
    FIELD(sig_bits, "SignatureBits", "ccn.signature.bits", FT_BYTES, BASE_NONE, NULL, 0, NULL),
    /* SignedInfo */
    FIELD(signedinfo, "SignedInfo", "ccn.signedinfo", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(si_publisher, "PublisherPublicKeyDigest", "ccn.signedinfo.publisher", FT_BYTES, BASE_NONE,
          NULL, 0, "SHA-256 of the publisher's public key"),
    FIELD(si_timestamp, "Timestamp", "ccn.signedinfo.timestamp", FT_ABSOLUTE_TIME,
          ABSOLUTE_TIME_UTC, NULL, 0, "Signing time (sent in units of 1/4096 s since 1970)"),
    FIELD(content_type, "Type", "ccn.content.type", FT_UINT24, BASE_HEX, VALS(content_type_vals), 0,
          "Content type; DATA when the Type element is absent"),
    FIELD(si_freshness, "FreshnessSeconds", "ccn.signedinfo.freshness", FT_UINT32, BASE_DEC, NULL,
          0, "Seconds a cached copy stays fresh"),
    FIELD(si_finalblock, "FinalBlockID", "ccn.signedinfo.finalblockid", FT_BYTES, BASE_NONE, NULL,
          0, "Last segment component of a segmented object"),
    FIELD(si_extopt, "ExtOpt", "ccn.signedinfo.extopt", FT_BYTES, BASE_NONE, NULL, 0, NULL),
    FIELD(keylocator, "KeyLocator", "ccn.keylocator", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(kl_key, "Key", "ccn.keylocator.key", FT_BYTES, BASE_NONE, NULL, 0,
          "Public key (DER SubjectPublicKeyInfo)"),
    FIELD(kl_cert, "Certificate", "ccn.keylocator.certificate", FT_BYTES, BASE_NONE, NULL, 0, NULL),
    FIELD(kl_keyname, "KeyName", "ccn.keylocator.keyname", FT_STRING, BASE_NONE, NULL, 0,
          "Name of the object holding the key"),
    FIELD(kl_publisher, "Publisher digest", "ccn.keylocator.publisher", FT_BYTES, BASE_NONE, NULL,
          0, "Publisher key or certificate digest inside KeyName"),
    /* Content */
    FIELD(content, "Content", "ccn.content", FT_BYTES, BASE_NONE, NULL, 0, NULL),
    FIELD(content_length, "Content length", "ccn.content.length", FT_UINT32, BASE_DEC, NULL, 0,
          NULL),
    FIELD(content_text, "Content as text", "ccn.content.text", FT_STRING, BASE_NONE, NULL, 0,
          "The Content value when it is plain ASCII text"),
    FIELD(content_digest, "Implicit digest", "ccn.content.digest", FT_BYTES, BASE_NONE, NULL, 0,
          "SHA-256 of the whole ContentObject: its implicit last name component"),
    /* Control messages */
    FIELD(faceinstance, "FaceInstance", "ccn.faceinstance", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(fwdentry, "ForwardingEntry", "ccn.forwardingentry", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(strategy, "StrategySelection", "ccn.strategyselection", FT_NONE, BASE_NONE, NULL, 0,
          NULL),
    FIELD(status, "StatusResponse", "ccn.statusresponse", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(ctl_action, "Action", "ccn.ctl.action", FT_STRING, BASE_NONE, NULL, 0,
          "Requested operation (newface, prefixreg, selfreg, unreg, setstrategy...)"),
    FIELD(ctl_ccndid, "ccndid", "ccn.ctl.ccndid", FT_BYTES, BASE_NONE, NULL, 0,
          "PublisherPublicKeyDigest of the forwarder addressed"),
    FIELD(ctl_faceid, "FaceID", "ccn.ctl.faceid", FT_UINT64, BASE_DEC, NULL, 0, NULL),
    FIELD(ctl_ipproto, "IPProto", "ccn.ctl.ipproto", FT_UINT32, BASE_DEC, VALS(ipproto_vals), 0,
          NULL),
    FIELD(ctl_host, "Host", "ccn.ctl.host", FT_STRING, BASE_NONE, NULL, 0, NULL),
    FIELD(ctl_port, "Port", "ccn.ctl.port", FT_UINT32, BASE_DEC, NULL, 0, NULL),
    FIELD(ctl_mcastif, "MulticastInterface", "ccn.ctl.mcastif", FT_STRING, BASE_NONE, NULL, 0,
          NULL),
    FIELD(ctl_mcastttl, "MulticastTTL", "ccn.ctl.mcastttl", FT_UINT32, BASE_DEC, NULL, 0, NULL),
    FIELD(ctl_freshness, "FreshnessSeconds", "ccn.ctl.freshness", FT_UINT32, BASE_DEC, NULL, 0,
          "Requested or remaining lifetime of a face, registration or strategy"),
    FIELD(ctl_prefix, "Prefix", "ccn.ctl.prefix", FT_STRING, BASE_NONE, NULL, 0,
          "Name prefix of a ForwardingEntry or StrategySelection"),
    FIELD(ctl_flags, "ForwardingFlags", "ccn.ctl.flags", FT_UINT32, BASE_HEX, NULL, 0, NULL),
    FIELD(ctl_strategy_id, "StrategyID", "ccn.ctl.strategy", FT_STRING, BASE_NONE, NULL, 0, NULL),
    FIELD(ctl_strategy_params, "StrategyParameters", "ccn.ctl.strategy_params", FT_STRING,
          BASE_NONE, NULL, 0, NULL),
    FIELD(ctl_status_code, "StatusCode", "ccn.ctl.status", FT_UINT32, BASE_DEC, NULL, 0, NULL),
    FIELD(ctl_status_text, "StatusText", "ccn.ctl.status_text", FT_STRING, BASE_NONE, NULL, 0,
          NULL),
    FIELD(flag_active, "Active", "ccn.ctl.flags.active", FT_BOOLEAN, 8, TFS(&tfs_set_notset), 1,
          NULL),
    FIELD(flag_child_inherit, "Child inherit", "ccn.ctl.flags.child_inherit", FT_BOOLEAN, 8,
          TFS(&tfs_set_notset), 2, NULL),
    FIELD(flag_advertise, "Advertise", "ccn.ctl.flags.advertise", FT_BOOLEAN, 8,
          TFS(&tfs_set_notset), 4, NULL),
    FIELD(flag_last, "Last", "ccn.ctl.flags.last", FT_BOOLEAN, 8, TFS(&tfs_set_notset), 8, NULL),
    FIELD(flag_capture, "Capture", "ccn.ctl.flags.capture", FT_BOOLEAN, 8, TFS(&tfs_set_notset), 16,
          NULL),
    FIELD(flag_local, "Local", "ccn.ctl.flags.local", FT_BOOLEAN, 8, TFS(&tfs_set_notset), 32,
          NULL),
    FIELD(flag_tap, "Tap", "ccn.ctl.flags.tap", FT_BOOLEAN, 8, TFS(&tfs_set_notset), 64, NULL),
    FIELD(flag_capture_ok, "Capture OK", "ccn.ctl.flags.capture_ok", FT_BOOLEAN, 8,
          TFS(&tfs_set_notset), 128, NULL),
    /* Link and Collection bodies */
    FIELD(link, "Link", "ccn.link", FT_NONE, BASE_NONE, NULL, 0, NULL),
    FIELD(link_name, "Link target", "ccn.link.name", FT_STRING, BASE_NONE, NULL, 0, NULL),
    FIELD(link_label, "Label", "ccn.link.label", FT_STRING, BASE_NONE, NULL, 0, NULL),
    FIELD(link_publisher, "Authenticator digest", "ccn.link.publisher", FT_BYTES, BASE_NONE, NULL,
          0, NULL),
    FIELD(collection, "Collection", "ccn.collection", FT_NONE, BASE_NONE, NULL, 0, NULL),
    /* Anything else */
    FIELD(element, "Element", "ccn.element", FT_UINT32, BASE_DEC, NULL, 0,
          "DTAG of an element shown generically"),
    FIELD(tag, "Tag", "ccn.tag", FT_STRING, BASE_NONE, NULL, 0, "Element with a textual name"),
    FIELD(attr, "Attribute", "ccn.attr", FT_STRING, BASE_NONE, NULL, 0, NULL),
    FIELD(blob, "Value", "ccn.blob", FT_BYTES, BASE_NONE, NULL, 0,
          "Binary value of an element shown generically"),
    FIELD(udata, "Text", "ccn.udata", FT_STRING, BASE_NONE, NULL, 0,
          "Text value of an element shown generically"),
    /* Request/response tracking */
    FIELD(response_in, "Response in", "ccn.response_in", FT_FRAMENUM, BASE_NONE,
          FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0, "Frame of the ContentObject that answered"),
    FIELD(response_to, "Request in", "ccn.response_to", FT_FRAMENUM, BASE_NONE,
          FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0, "Frame of the Interest this object answers"),
    FIELD(response_time, "Response time", "ccn.response_time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0,
          "Time between the Interest and the ContentObject"),
};

static gint *ett[] = {
    &ccn_ett.ccn, &ccn_ett.element, &ccn_ett.name,    &ccn_ett.component,
    &ccn_ett.aok, &ccn_ett.flags,   &ccn_ett.content, &ccn_ett.embedded,
};

#define EXPERT(id, abbrev, group, severity, summary)                                               \
    {                                                                                              \
        &ccn_ei.id,                                                                                \
        {                                                                                          \
            abbrev, group, severity, summary, EXPFILL                                              \
        }                                                                                          \
    }

static ei_register_info ei[] = {
    EXPERT(malformed, "ccn.malformed", PI_MALFORMED, PI_ERROR, "Malformed ccnb"),
    EXPERT(truncated, "ccn.truncated", PI_MALFORMED, PI_ERROR, "Message cut short"),
    EXPERT(schema, "ccn.schema", PI_PROTOCOL, PI_WARN, "Message does not follow the CCNx schema"),
    EXPERT(unknown, "ccn.unknown", PI_UNDECODED, PI_NOTE, "Element not in the DTAG dictionary"),
    EXPERT(value, "ccn.badvalue", PI_PROTOCOL, PI_WARN, "Value out of range"),
    EXPERT(flat, "ccn.flat", PI_UNDECODED, PI_NOTE, "Nesting too deep: shown flat"),
};

/* Heuristic entry points: plausible ccnb on any UDP or TCP port. Once a
 * conversation is recognised, the rest of it goes straight to the dissector,
 * so a stream whose later segments start mid-message still decodes. */
static ccn_heur_result heur_udp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    guint n = tvb_captured_length(tvb);
    if (n < 4 || n != tvb_reported_length(tvb)) {
        return FALSE;
    }
    if (!ccn_plausible(tvb_get_ptr(tvb, 0, n), n, 0)) {
        return FALSE;
    }
    conversation_set_dissector(find_or_create_conversation(pinfo), ccn_udp_handle);
    ccn_dissect_datagram(tvb, pinfo, tree, data);
    return TRUE;
}

static ccn_heur_result heur_tcp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    guint n = tvb_captured_length(tvb);
    if (n < 4) {
        return FALSE;
    }
    if (!ccn_plausible(tvb_get_ptr(tvb, 0, n), n, 1)) {
        return FALSE;
    }
    conversation_set_dissector(find_or_create_conversation(pinfo), ccn_tcp_handle);
    ccn_dissect_stream(tvb, pinfo, tree, data);
    return TRUE;
}

void proto_register_ccn(void)
{
    /* Ids start at -1: older Wireshark releases insist on it. */
    for (size_t i = 0; i < G_N_ELEMENTS(hf); i++) {
        *hf[i].p_id = -1;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(ett); i++) {
        *ett[i] = -1;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(ei); i++) {
        ei[i].ids->ei = EI_INIT_EI;
        ei[i].ids->hf = EI_INIT_HF;
    }
    proto_ccn =
        proto_register_protocol("Content-Centric Networking (CCNx 0.x, ccnb)", "CCN", "ccn");
    proto_register_field_array(proto_ccn, hf, G_N_ELEMENTS(hf));
    proto_register_subtree_array(ett, G_N_ELEMENTS(ett));
    expert_register_field_array(expert_register_protocol(proto_ccn), ei, G_N_ELEMENTS(ei));

    /* The port preferences themselves are added by the *_with_preference
     * calls in the handoff; this only creates the preference module. */
    prefs_register_protocol(proto_ccn, NULL);

    ccn_udp_handle = register_dissector("ccn.udp", ccn_dissect_datagram, proto_ccn);
    ccn_tcp_handle = register_dissector("ccn.tcp", ccn_dissect_stream, proto_ccn);
    ccn_track_init();
}

void proto_reg_handoff_ccn(void)
{
    dissector_add_uint_range_with_preference("udp.port", CCN_UDP_PORTS, ccn_udp_handle);
    dissector_add_uint_range_with_preference("tcp.port", CCN_TCP_PORTS, ccn_tcp_handle);
    heur_dissector_add("udp", heur_udp, "CCN over UDP (any port)", "ccn_udp", proto_ccn,
                       HEURISTIC_ENABLE);
    heur_dissector_add("tcp", heur_tcp, "CCN over TCP (any port)", "ccn_tcp", proto_ccn,
                       HEURISTIC_ENABLE);
}
