/* ccn-heur.c: does a payload on an unknown port look like ccnb?
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted only when it starts like a CCNx message on the wire (an
 * Interest whose first child is its Name, a ContentObject whose first child
 * is its Signature, or a CCNProtocolDataUnit holding one of those), the
 * first message passes the core's schema parser when it is complete, every
 * following element is a message or a link SequenceNumber, and nothing is
 * left over in a datagram. A stream segment may end inside a message, but
 * then at least a few bytes of a first message must be there.
 */
#include "ccn.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>

#define D_SIGNATURE 37
/* Bytes of an unfinished first message a stream segment must show. */
#define MIN_PARTIAL 16

static int dtag_at(const uint8_t *p, size_t n, size_t pos, struct ccnx_ccnb_header *h)
{
    return pos < n && ccnx_ccnb_header_decode(p + pos, n - pos, h) == 0 && h->tt == CCNX_TT_DTAG;
}

/* The first two headers have the shape of a message. */
static int plausible_start(const uint8_t *p, size_t n)
{
    struct ccnx_ccnb_header a, b;
    if (!dtag_at(p, n, 0, &a) || !dtag_at(p, n, a.size, &b)) {
        return 0;
    }
    switch (a.numval) {
    case CCN_DTAG_INTEREST:
        return b.numval == CCN_DTAG_NAME;
    case CCN_DTAG_CONTENTOBJ:
        return b.numval == D_SIGNATURE;
    case CCN_DTAG_PDU:
        return b.numval == CCN_DTAG_INTEREST || b.numval == CCN_DTAG_CONTENTOBJ;
    default:
        return 0;
    }
}

static int schema_ok(const uint8_t *p, size_t n, int64_t dtag)
{
    if (dtag == CCN_DTAG_INTEREST) {
        struct ccnx_interest_parsed pi;
        return ccnx_interest_parse(p, n, &pi) == 0;
    }
    if (dtag == CCN_DTAG_CONTENTOBJ) {
        struct ccnx_content_parsed pc;
        return ccnx_content_parse(p, n, &pc) == 0;
    }
    return 1;
}

static int message_dtag(int64_t dtag)
{
    return dtag == CCN_DTAG_INTEREST || dtag == CCN_DTAG_CONTENTOBJ || dtag == CCN_DTAG_PDU ||
           dtag == CCN_DTAG_SEQUENCENUM;
}

int ccn_plausible(const uint8_t *p, size_t n, int is_stream)
{
    size_t pos = 0;
    unsigned count = 0;
    if (p == NULL || !plausible_start(p, n)) {
        return 0;
    }
    while (pos < n) {
        struct ccnx_skel s;
        size_t used = 0;
        ccnx_skel_init(&s);
        int res = ccnx_skel_feed(&s, p + pos, n - pos, &used);
        if (res < 0) {
            return 0;
        }
        if (res == 0) {
            /* Ends inside a message: fine for a stream, never for a datagram. */
            if (s.depth > 0 && !message_dtag(s.top_dtag)) {
                return 0;
            }
            return is_stream && (count > 0 || used >= MIN_PARTIAL);
        }
        if (!message_dtag(s.top_dtag) || (count == 0 && !schema_ok(p + pos, used, s.top_dtag))) {
            return 0;
        }
        count++;
        pos += used;
    }
    return count > 0;
}
