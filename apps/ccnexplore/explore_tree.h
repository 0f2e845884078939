/* The explorer's model: the part of the namespace seen so far, as a tree of
 * components below a root prefix, each child knowing where it was seen.
 * Nothing here touches the network or the screen; discovery (explore_disco)
 * fills the tree, the views read it as rows.
 *
 * Children are kept in the canonical CCNx order and merged: a component
 * reported by several sources is one node with several source bits.
 * Collapsing is a matter of rows: segments are never rows (a name holding
 * them says how many and how big), versions are rows only under an
 * expanded name, whose own row says "3 versions, newest ..., 12.4 MB". */
#ifndef EXPLORE_TREE_H
#define EXPLORE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/name.h>

/* Where a child was seen. */
#define EX_SRC_REPO     1 /* a repository's name enumeration reply */
#define EX_SRC_CACHE    2 /* the local ccnd's content store (Scope 0) */
#define EX_SRC_PRODUCER 4 /* an answer from the network: a producer or a remote cache */

enum ex_kind { EX_PLAIN, EX_MARKER, EX_VERSION, EX_SEGMENT };

struct ex_node {
    uint8_t *comp; /* NULL for the root */
    size_t n;
    char *label; /* readable form (explore_label), made once */
    enum ex_kind kind;
    uint64_t number; /* version timestamp or segment number */
    struct ex_node *parent;
    struct ex_node **kids;
    size_t nkids, cap;
    size_t versions; /* kids that are versions */
    size_t segment_kids;
    unsigned sources;
    int expanded;
    int has_object;   /* an object is named exactly by this name */
    int64_t segments; /* of the content under this name (FinalBlockID + 1); -1 unknown */
    int64_t size;     /* bytes of that content; -1 unknown */
    void *disco;      /* discovery's state for this node (owned by discovery) */
};

struct ex_tree {
    struct ccnx_name prefix; /* the root's name */
    struct ex_node root;
    size_t nodes;
};

int ex_tree_init(struct ex_tree *t, const struct ccnx_name *prefix);
void ex_tree_free(struct ex_tree *t);

/* The child of `parent` named by one component, created when missing
 * (NULL only when out of memory). *created (may be NULL) tells which. */
struct ex_node *ex_node_child(struct ex_tree *t, struct ex_node *parent, const uint8_t *comp,
                              size_t n, int *created);
/* The child, or NULL. */
struct ex_node *ex_node_find(const struct ex_node *parent, const uint8_t *comp, size_t n);
/* Merges a name enumeration listing (a Collection of Links, as
 * repositories answer %C1.E.be) into node's children, crediting `sources`:
 * each Link's first component is a child. *added (may be NULL) gets the
 * number of Links read. 0, or negative when the listing is malformed (the
 * children read before the fault are kept). */
int ex_tree_merge_listing(struct ex_tree *t, struct ex_node *node, const uint8_t *collection,
                          size_t len, unsigned sources, size_t *added);
/* The newest version child, or NULL. */
struct ex_node *ex_node_newest_version(const struct ex_node *node);
/* The node's full name (the tree's prefix plus its components). */
int ex_node_name(const struct ex_tree *t, const struct ex_node *node, struct ccnx_name *out);
/* Appends the node's ccnx: URI. */
int ex_node_uri(const struct ex_tree *t, const struct ex_node *node, struct ccnx_buf *out);
/* Depth below the root (root 0). */
int ex_node_depth(const struct ex_node *node);

/* Appends what the node's row says after its label: "3 versions, newest
 * 2026-12-04 10:12, 12.4 MB", "12 segments, 45.1 kB", or nothing. */
int ex_node_summary(const struct ex_node *node, struct ccnx_buf *out);
/* Appends "repo cache producer" for the bits set (nothing for none). */
int ex_sources_text(unsigned sources, struct ccnx_buf *out);

/* The rows a view shows. */
struct ex_row {
    struct ex_node *node;
    int depth;
};
struct ex_rows {
    struct ex_row *v;
    size_t n, cap;
};
/* Rebuilds rows: the root, then the children of every expanded node in
 * order, segments left out. With a filter (not NULL, not empty), only the
 * nodes whose label holds it (ASCII case ignored) and their ancestors are
 * rows, expanded or not; max_depth >= 0 also stops below that depth. */
int ex_tree_rows(struct ex_tree *t, const char *filter, int max_depth, struct ex_rows *rows);
void ex_rows_free(struct ex_rows *rows);

#endif
