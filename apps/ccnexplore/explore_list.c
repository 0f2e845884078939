/* --list: explore to a depth, print, exit (see explore_list.h). */
#include "explore_list.h"

#include <stdlib.h>

int ex_list_row(const struct ex_row *row, struct ccnx_buf *out)
{
    for (int i = 0; i < row->depth; i++)
        ccnx_buf_append_str(out, "  ");
    ccnx_buf_append_str(out, row->node->label);
    size_t before = out->len;
    ccnx_buf_append_str(out, "  ");
    ex_node_summary(row->node, out);
    if (out->len == before + 2)
        out->len = before;
    if (row->node->sources != 0) {
        ccnx_buf_append_str(out, "  [");
        ex_sources_text(row->node->sources, out);
        ccnx_buf_append_str(out, "]");
    }
    return ccnx_buf_status(out);
}

static void tell(void *arg, const char *text)
{
    (void)arg;
    fprintf(stderr, "ccnexplore: %s\n", text);
}

/* Starts discovery of every node down to `depth` that needs it; returns
 * how many nodes are still being explored. The names on the last level
 * printed are explored too, so that their versions collapse into one line
 * with a size, unless a level holds more than EX_LIST_DETAIL_MAX names
 * (then they are printed as found). Versions are not explored: the probe
 * of their parent measures the newest. */
static size_t schedule(struct ex_disco *d, struct ex_node *node, int level, int depth)
{
    if (node->kind == EX_SEGMENT || node->kind == EX_VERSION || level > depth ||
        (level == depth && node->parent != NULL && node->parent->nkids > EX_LIST_DETAIL_MAX))
        return 0;
    if (!ex_disco_explored(node))
        ex_disco_explore(d, node); /* nothing new while it is exploring */
    if (!ex_disco_explored(node))
        return 1;
    node->expanded = node->versions == 0 && level < depth;
    size_t working = 0;
    for (size_t i = 0; level < depth && i < node->nkids; i++)
        working += schedule(d, node->kids[i], level + 1, depth);
    return working;
}

int ex_list_run(struct ccnx_client *c, struct ex_tree *t, const struct ex_disco_opts *o, int depth,
                FILE *f)
{
    struct ex_disco *d;
    struct ex_disco_events ev = {NULL, tell, NULL};
    if (ex_disco_create(c, t, o, &ev, &d) != 0) {
        fprintf(stderr, "ccnexplore: out of memory\n");
        return 1;
    }
    while (schedule(d, &t->root, 0, depth) > 0 || ex_disco_in_flight(d) > 0)
        ccnx_client_run(c, 10);
    struct ex_rows rows = {0};
    struct ccnx_buf line = CCNX_BUF_INIT;
    int r = ex_tree_rows(t, NULL, depth, &rows);
    for (size_t i = 0; r == 0 && i < rows.n; i++) {
        ccnx_buf_reset(&line);
        r = ex_list_row(&rows.v[i], &line);
        fprintf(f, "%s\n", ccnx_buf_cstr(&line));
    }
    ccnx_buf_free(&line);
    ex_rows_free(&rows);
    ex_disco_destroy(d);
    return r == 0 ? 0 : 1;
}
