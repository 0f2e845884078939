/* ccn-leaves.h: the elements the tree knows, and the typed field of each
 * leaf element by (element, parent).
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef CCN_LEAVES_H
#define CCN_LEAVES_H

#include <stdint.h>

/* DTAGs with special meaning in the tree (see core/dtag.csv). */
enum {
    D_ANY = 13,
    D_CERTIFICATE = 16,
    D_COLLECTION = 17,
    D_SIGNEDINFO = 20,
    D_KEY = 27,
    D_KEYLOCATOR = 28,
    D_KEYNAME = 29,
    D_LINK = 31,
    D_LINKAUTH = 32,
    D_EXTOPT = 34,
    D_SIGNATURE = 37,
    D_TIMESTAMP = 39,
    D_TYPE = 40,
    D_NONCE = 41,
    D_SCOPE = 42,
    D_EXCLUDE = 43,
    D_BLOOM = 44,
    D_AOK = 47,
    D_LIFETIME = 48,
    D_WITNESS = 53,
    D_SIGBITS = 54,
    D_DIGESTALG = 55,
    D_FRESHNESS = 58,
    D_FINALBLOCK = 59,
    D_PUBKEYDIGEST = 60,
    D_PUBCERTDIGEST = 61,
    D_ISSUERKEYDIGEST = 62,
    D_ISSUERCERTDIGEST = 63,
    D_LABEL = 69,
    D_ACTION = 73,
    D_FACEID = 74,
    D_IPPROTO = 75,
    D_HOST = 76,
    D_PORT = 77,
    D_MCASTIF = 78,
    D_FWDFLAGS = 79,
    D_FACEINSTANCE = 80,
    D_FWDENTRY = 81,
    D_MCASTTTL = 82,
    D_MINSUFFIX = 83,
    D_MAXSUFFIX = 84,
    D_CHILDSEL = 85,
    D_STATUSRESPONSE = 112,
    D_STATUSCODE = 113,
    D_STATUSTEXT = 114,
    D_STRATEGYSEL = 144,
    D_STRATEGYID = 145,
    D_STRATEGYPARAMS = 146,
};

#define ANY_PARENT UINT32_MAX

enum leaf_kind {
    LK_BYTES,    /* raw bytes */
    LK_COMP,     /* bytes shown as an escaped name component */
    LK_DEC32,    /* decimal UDATA, 32-bit field */
    LK_DEC64,    /* decimal UDATA, 64-bit field */
    LK_TEXT,     /* UTF-8 text */
    LK_TIME_ABS, /* binary 1/4096 s since the epoch */
    LK_TIME_REL, /* binary 1/4096 s */
    LK_BINUINT,  /* binary big-endian integer */
    LK_TYPE,     /* 3-byte content type */
    LK_FLAG,     /* an element that is there or not (Any) */
    LK_AOK,      /* AnswerOriginKind: decimal with bits */
    LK_FWDFLAGS, /* ForwardingFlags: decimal with bits */
};

struct leaf_spec {
    uint32_t dtag;
    uint32_t parent;
    int *hf;
    enum leaf_kind kind;
};

/* The typed field of leaf `dtag` inside `parent`, or NULL. */
const struct leaf_spec *ccn_leaf_lookup(uint32_t dtag, uint32_t parent);

#endif
