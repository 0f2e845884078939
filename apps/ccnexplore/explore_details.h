/* The details pane's text for a node: its URI, where it was seen, and what
 * the probe of one object under it found (name, type, publisher, key
 * locator, signing time, freshness, FinalBlockID, size, signature). Kept
 * apart from the screen so that tests read the same lines. */
#ifndef EXPLORE_DETAILS_H
#define EXPLORE_DETAILS_H

#include <ccnx/buf.h>

#include "explore_disco.h"
#include "explore_tree.h"

/* Appends "Label: value" lines, each ending in '\n'. */
int ex_details_text(const struct ex_tree *t, const struct ex_node *node,
                    const struct ex_details *det, struct ccnx_buf *out);

#endif
