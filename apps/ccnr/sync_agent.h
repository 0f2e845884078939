/* The Sync agent's parts (docs/sync.md): its slices and their trees, and
 * the answers it gives (sync_agent.c); what it asks of its neighbours
 * (sync_fetch.c). */
#ifndef CCNR_SYNC_AGENT_H
#define CCNR_SYNC_AGENT_H

#include "ccnr.h"

#include <ccnx/sync.h>

#define SYNC_HELD_MAX 8 /* neighbours' Root Advise Interests kept unanswered */

/* A neighbour's Root Advise we had nothing to answer with: answered when
 * our root changes while it lives (its copy waits in ccnd's PIT). */
struct sync_held {
    struct ccnx_buf interest;
    int64_t expires_ms; /* 0: empty */
};

struct sync_slice {
    struct sync_slice *next;
    struct ccnr_sync *ag;
    struct ccnx_sync_slice s;
    uint8_t hash[32];
    struct ccnx_buf version;               /* the newest Create Slice version seen (a component) */
    int deleted;                           /* a GONE came at a newer version */
    struct ccnx_name ra_prefix, nf_prefix; /* <topo>/%C1.S.ra|nf/<hash> */
    uint64_t ra_filter, nf_filter;
    struct ccnx_sync_tree *tree;
    /* our Root Advise */
    uint64_t ra_id; /* pending (0: none) */
    struct ccnx_sync_hash advised;
    struct sync_held held[SYNC_HELD_MAX];
    struct ccnx_sync_seen seen; /* roots heard, excluded from our Root Advise */
    /* catching up with a neighbour */
    struct ccnx_sync_diff *diff;
    struct ccnx_sync_hash walking; /* the root the diff walks */
    int walk_incomplete;           /* a node or a name of it did not come */
    unsigned verifying;            /* content waiting for its key to be checked */
    int in_check;                  /* inside ccnx_verifier_check */
    struct ccnx_sync_hash later;   /* a root advised while the diff ran (len 0: none) */
    unsigned busy;                 /* Node Fetch and content Interests out */
};

struct sync_req;

struct ccnr_sync {
    struct ccnr *r;
    struct sync_req *inflight; /* Node Fetch and content Interests (sync_fetch.c) */
    struct sync_slice *slices;
    uint64_t timer;
    struct ccnx_name cs_prefix; /* /%C1.M.S.localhost/%C1.S.cs */
    uint64_t names_fetched, nodes_fetched, refused, advises_answered, nodes_answered;
};

/* sync_agent.c */
void sync_log(const struct ccnr_sync *ag, enum ccnr_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Answers the neighbours' Root Advise Interests held since our root was
 * last advised. */
void sync_answer_held(struct sync_slice *sl);

/* sync_fetch.c: sends (or sends again) the slice's Root Advise; when the
 * root changed since the last one, first answers the Interests held. */
void sync_advise(struct sync_slice *sl);
/* A neighbour advised root h, which we have not walked: its node is
 * fetched and compared with our tree (unless a comparison is running). */
void sync_fetch_root(struct sync_slice *sl, const struct ccnx_sync_hash *h);
/* Asks for what the running diff wants, up to CCNS_MAX_FETCH_BUSY. */
void sync_pump(struct sync_slice *sl);
/* Forgets what is in flight (the slice is going away). */
void sync_fetch_stop(struct sync_slice *sl);

#endif
