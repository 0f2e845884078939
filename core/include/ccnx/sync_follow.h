/* Following a Sync collection from an application (docs/sync.md): the
 * names a slice's repositories hold, handed over as they appear, as the
 * reference's ccns_open does. No repository of its own: the follower
 * advises the root of the names it has seen, the repositories that hold
 * more answer with their root node, and the follower walks their trees
 * (Node Fetch) for the names it has not seen. Content is not fetched. */
#ifndef CCNX_SYNC_FOLLOW_H
#define CCNX_SYNC_FOLLOW_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/sync.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

struct ccnx_client;
struct ccnx_sync_follow;

/* A name (a full <Name>, digest last) new to the follower, and the root
 * hash of the tree it was found in. */
typedef void (*ccnx_sync_name_fn)(void *arg, const uint8_t *name, size_t len,
                                  const struct ccnx_sync_hash *root);

struct ccnx_sync_follow_params {
    const struct ccnx_sync_slice *slice; /* copied */
    /* Names under this root are taken as seen (walked silently first);
     * NULL or empty: every name is new. */
    const struct ccnx_sync_hash *start;
    ccnx_sync_name_fn on_name;
    void *arg;
    int scope;      /* of the Interests: 1 (default) the local repository, 2 also neighbours' */
    int lifetime_s; /* of a Root Advise (default 20) */
};

void ccnx_sync_follow_params_init(struct ccnx_sync_follow_params *p);
/* Starts following; the client's loop drives it. 0, or a CCNX_E_* code. */
int ccnx_sync_follow_start(struct ccnx_client *c, const struct ccnx_sync_follow_params *p,
                           struct ccnx_sync_follow **out);
void ccnx_sync_follow_destroy(struct ccnx_sync_follow *f);
/* The root of the names seen so far, and how many. */
const struct ccnx_sync_hash *ccnx_sync_follow_root(const struct ccnx_sync_follow *f);
size_t ccnx_sync_follow_count(const struct ccnx_sync_follow *f);

CCNX_API_END

#endif
