/* Script mode: the tree below a prefix as text, with the same discovery and
 * collapsing as the screen, then exit. */
#ifndef EXPLORE_LIST_H
#define EXPLORE_LIST_H

#include <stdio.h>

#include <ccnx/client.h>

#include "explore_disco.h"
#include "explore_tree.h"

/* Names on one level beyond which --list does not explore each of them. */
#define EX_LIST_DETAIL_MAX 256

/* Appends one row as --list prints it: indent, label, summary, sources. */
int ex_list_row(const struct ex_row *row, struct ccnx_buf *out);
/* Explores t down to `depth` levels and prints it to f. Returns 0, or 1
 * when ccnd could not be reached at all. */
int ex_list_run(struct ccnx_client *c, struct ex_tree *t, const struct ex_disco_opts *o, int depth,
                FILE *f);

#endif
