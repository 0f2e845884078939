/* ccn-leaves.c: the typed leaves of the tree (see ccn-leaves.h).
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ccn.h"
#include "ccn-leaves.h"

/* Typed leaves by (element, parent). */
static const struct leaf_spec leaves[] = {
    {D_MINSUFFIX, CCN_DTAG_INTEREST, &ccn_hf.min_suffix, LK_DEC32},
    {D_MAXSUFFIX, CCN_DTAG_INTEREST, &ccn_hf.max_suffix, LK_DEC32},
    {D_PUBKEYDIGEST, CCN_DTAG_INTEREST, &ccn_hf.int_publisher, LK_BYTES},
    {D_CHILDSEL, CCN_DTAG_INTEREST, &ccn_hf.child_selector, LK_DEC32},
    {D_AOK, CCN_DTAG_INTEREST, &ccn_hf.aok, LK_AOK},
    {D_SCOPE, CCN_DTAG_INTEREST, &ccn_hf.scope, LK_DEC32},
    {D_LIFETIME, CCN_DTAG_INTEREST, &ccn_hf.lifetime, LK_TIME_REL},
    {D_NONCE, CCN_DTAG_INTEREST, &ccn_hf.nonce, LK_BYTES},
    {D_FACEID, CCN_DTAG_INTEREST, &ccn_hf.int_faceid, LK_DEC64},
    {CCN_DTAG_COMPONENT, D_EXCLUDE, &ccn_hf.exclude_component, LK_COMP},
    {D_ANY, D_EXCLUDE, &ccn_hf.exclude_any, LK_FLAG},
    {D_BLOOM, D_EXCLUDE, &ccn_hf.exclude_bloom, LK_BYTES},
    {D_DIGESTALG, D_SIGNATURE, &ccn_hf.sig_algorithm, LK_TEXT},
    {D_WITNESS, D_SIGNATURE, &ccn_hf.sig_witness, LK_BYTES},
    {D_SIGBITS, D_SIGNATURE, &ccn_hf.sig_bits, LK_BYTES},
    {D_PUBKEYDIGEST, D_SIGNEDINFO, &ccn_hf.si_publisher, LK_BYTES},
    {D_TIMESTAMP, D_SIGNEDINFO, &ccn_hf.si_timestamp, LK_TIME_ABS},
    {D_TYPE, D_SIGNEDINFO, &ccn_hf.content_type, LK_TYPE},
    {D_FRESHNESS, D_SIGNEDINFO, &ccn_hf.si_freshness, LK_DEC32},
    {D_FINALBLOCK, D_SIGNEDINFO, &ccn_hf.si_finalblock, LK_COMP},
    {D_EXTOPT, D_SIGNEDINFO, &ccn_hf.si_extopt, LK_BYTES},
    {D_KEY, D_KEYLOCATOR, &ccn_hf.kl_key, LK_BYTES},
    {D_CERTIFICATE, D_KEYLOCATOR, &ccn_hf.kl_cert, LK_BYTES},
    {D_PUBKEYDIGEST, D_KEYNAME, &ccn_hf.kl_publisher, LK_BYTES},
    {D_PUBCERTDIGEST, D_KEYNAME, &ccn_hf.kl_publisher, LK_BYTES},
    {D_ISSUERKEYDIGEST, D_KEYNAME, &ccn_hf.kl_publisher, LK_BYTES},
    {D_ISSUERCERTDIGEST, D_KEYNAME, &ccn_hf.kl_publisher, LK_BYTES},
    {D_ACTION, D_FACEINSTANCE, &ccn_hf.ctl_action, LK_TEXT},
    {D_PUBKEYDIGEST, D_FACEINSTANCE, &ccn_hf.ctl_ccndid, LK_BYTES},
    {D_FACEID, D_FACEINSTANCE, &ccn_hf.ctl_faceid, LK_DEC64},
    {D_IPPROTO, D_FACEINSTANCE, &ccn_hf.ctl_ipproto, LK_DEC32},
    {D_HOST, D_FACEINSTANCE, &ccn_hf.ctl_host, LK_TEXT},
    {D_PORT, D_FACEINSTANCE, &ccn_hf.ctl_port, LK_DEC32},
    {D_MCASTIF, D_FACEINSTANCE, &ccn_hf.ctl_mcastif, LK_TEXT},
    {D_MCASTTTL, D_FACEINSTANCE, &ccn_hf.ctl_mcastttl, LK_DEC32},
    {D_FRESHNESS, D_FACEINSTANCE, &ccn_hf.ctl_freshness, LK_DEC32},
    {D_ACTION, D_FWDENTRY, &ccn_hf.ctl_action, LK_TEXT},
    {D_PUBKEYDIGEST, D_FWDENTRY, &ccn_hf.ctl_ccndid, LK_BYTES},
    {D_FACEID, D_FWDENTRY, &ccn_hf.ctl_faceid, LK_DEC64},
    {D_FWDFLAGS, D_FWDENTRY, &ccn_hf.ctl_flags, LK_FWDFLAGS},
    {D_FRESHNESS, D_FWDENTRY, &ccn_hf.ctl_freshness, LK_DEC32},
    {D_ACTION, D_STRATEGYSEL, &ccn_hf.ctl_action, LK_TEXT},
    {D_PUBKEYDIGEST, D_STRATEGYSEL, &ccn_hf.ctl_ccndid, LK_BYTES},
    {D_STRATEGYID, D_STRATEGYSEL, &ccn_hf.ctl_strategy_id, LK_TEXT},
    {D_STRATEGYPARAMS, D_STRATEGYSEL, &ccn_hf.ctl_strategy_params, LK_TEXT},
    {D_FRESHNESS, D_STRATEGYSEL, &ccn_hf.ctl_freshness, LK_DEC32},
    {D_STATUSCODE, D_STATUSRESPONSE, &ccn_hf.ctl_status_code, LK_DEC32},
    {D_STATUSTEXT, D_STATUSRESPONSE, &ccn_hf.ctl_status_text, LK_TEXT},
    {D_LABEL, D_LINK, &ccn_hf.link_label, LK_TEXT},
    {D_PUBKEYDIGEST, D_LINKAUTH, &ccn_hf.link_publisher, LK_BYTES},
    {D_PUBCERTDIGEST, D_LINKAUTH, &ccn_hf.link_publisher, LK_BYTES},
    {D_ISSUERKEYDIGEST, D_LINKAUTH, &ccn_hf.link_publisher, LK_BYTES},
    {D_ISSUERCERTDIGEST, D_LINKAUTH, &ccn_hf.link_publisher, LK_BYTES},
    {CCN_DTAG_SEQUENCENUM, ANY_PARENT, &ccn_hf.seqnum, LK_BINUINT},
};

const struct leaf_spec *ccn_leaf_lookup(uint32_t dtag, uint32_t parent)
{
    for (size_t i = 0; i < G_N_ELEMENTS(leaves); i++) {
        if (leaves[i].dtag == dtag &&
            (leaves[i].parent == parent || leaves[i].parent == ANY_PARENT)) {
            return &leaves[i];
        }
    }
    return NULL;
}
