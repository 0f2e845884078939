/* Shared by the Sync sources: limits and the node writer. */
#ifndef CCNX_SYNC_INTERNAL_H
#define CCNX_SYNC_INTERNAL_H

#include <ccnx/sync.h>

/* A neighbour's tree nesting deeper than this is refused (ours, with tens
 * of names a leaf and children a node, stays under 6 for 10^9 names). */
#define CCNX_SYNC_MAX_DEPTH 20

/* What follows a node's elements. */
struct sync_node_tail {
    struct ccnx_sync_hash hash;
    const uint8_t *min, *max; /* <Name> elements */
    size_t min_len, max_len;
    uint64_t leaf_count, depth, byte_count;
};

/* A node is written as open, its elements (names appended as they are
 * encoded, or child hashes), close. */
void sync_node_open(struct ccnx_buf *out);
void sync_node_add_hash(struct ccnx_buf *out, const struct ccnx_sync_hash *h);
int sync_node_close(struct ccnx_buf *out, const struct sync_node_tail *t);

/* 1 when the tree's last build (made now if there was none) has a node of
 * hash h, nothing retired: what the diff takes as "we hold that very
 * node". Not rebuilt for names added since: the diff adds names as it
 * goes, and a rebuild per node would cost the whole tree each time. */
int sync_tree_built_has(struct ccnx_sync_tree *t, const struct ccnx_sync_hash *h);

#endif
