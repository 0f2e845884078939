/* The tree of names seen (see explore_tree.h). */
#define _GNU_SOURCE /* strcasestr */
#include "explore_tree.h"

#include <ccnx/error.h>
#include <ccnx/link.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explore_label.h"

static void node_init(struct ex_node *node)
{
    memset(node, 0, sizeof *node);
    node->segments = -1;
    node->size = -1;
}

int ex_tree_init(struct ex_tree *t, const struct ccnx_name *prefix)
{
    memset(t, 0, sizeof *t);
    node_init(&t->root);
    t->root.expanded = 1;
    struct ccnx_buf uri = CCNX_BUF_INIT;
    int r = ccnx_name_init(&t->prefix);
    r = r == 0 ? ccnx_name_copy(&t->prefix, prefix) : r;
    r = r == 0 ? ccnx_uri_append_name(&uri, prefix) : r;
    t->root.label = r == 0 ? strdup(ccnx_buf_cstr(&uri)) : NULL;
    ccnx_buf_free(&uri);
    t->nodes = 1;
    return r == 0 && t->root.label != NULL ? 0 : CCNX_E_NOMEM;
}

static void node_free(struct ex_node *node)
{
    for (size_t i = 0; i < node->nkids; i++) {
        node_free(node->kids[i]);
        free(node->kids[i]);
    }
    free(node->kids);
    free(node->comp);
    free(node->label);
}

void ex_tree_free(struct ex_tree *t)
{
    node_free(&t->root);
    ccnx_name_free(&t->prefix);
}

/* Index of the first child not before comp; *found when equal. */
static size_t lower_bound(const struct ex_node *parent, const uint8_t *comp, size_t n, int *found)
{
    size_t lo = 0, hi = parent->nkids;
    *found = 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct ex_node *k = parent->kids[mid];
        int c = ccnx_comp_compare(k->comp, k->n, comp, n);
        if (c == 0) {
            *found = 1;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct ex_node *ex_node_find(const struct ex_node *parent, const uint8_t *comp, size_t n)
{
    int found;
    size_t i = lower_bound(parent, comp, n, &found);
    return found ? parent->kids[i] : NULL;
}

static void classify(struct ex_node *k)
{
    if (ccnx_naming_is_version(k->comp, k->n) &&
        ccnx_naming_version_decode(k->comp, k->n, &k->number) == 0)
        k->kind = EX_VERSION;
    else if (ccnx_naming_segment_decode(k->comp, k->n, &k->number) == 0)
        k->kind = EX_SEGMENT;
    else if (ccnx_naming_is_command(k->comp, k->n))
        k->kind = EX_MARKER;
    else
        k->kind = EX_PLAIN;
}

static struct ex_node *new_child(struct ex_node *parent, const uint8_t *comp, size_t n)
{
    struct ex_node *k = malloc(sizeof *k);
    if (k == NULL)
        return NULL;
    node_init(k);
    struct ccnx_buf label = CCNX_BUF_INIT;
    k->comp = malloc(n ? n : 1);
    if (k->comp != NULL && ex_label_component(&label, comp, n) == 0)
        k->label = strdup(ccnx_buf_cstr(&label));
    ccnx_buf_free(&label);
    if (k->comp == NULL || k->label == NULL) {
        node_free(k);
        free(k);
        return NULL;
    }
    memcpy(k->comp, comp, n);
    k->n = n;
    k->parent = parent;
    classify(k);
    return k;
}

struct ex_node *ex_node_child(struct ex_tree *t, struct ex_node *parent, const uint8_t *comp,
                              size_t n, int *created)
{
    int found;
    size_t i = lower_bound(parent, comp, n, &found);
    if (created != NULL)
        *created = !found;
    if (found)
        return parent->kids[i];
    if (parent->nkids == parent->cap) {
        size_t cap = parent->cap ? 2 * parent->cap : 8;
        struct ex_node **kids = realloc(parent->kids, cap * sizeof *kids);
        if (kids == NULL)
            return NULL;
        parent->kids = kids;
        parent->cap = cap;
    }
    struct ex_node *k = new_child(parent, comp, n);
    if (k == NULL)
        return NULL;
    memmove(parent->kids + i + 1, parent->kids + i, (parent->nkids - i) * sizeof *parent->kids);
    parent->kids[i] = k;
    parent->nkids++;
    parent->versions += k->kind == EX_VERSION;
    parent->segment_kids += k->kind == EX_SEGMENT;
    t->nodes++;
    return k;
}

int ex_tree_merge_listing(struct ex_tree *t, struct ex_node *node, const uint8_t *collection,
                          size_t len, unsigned sources, size_t *added)
{
    struct ccnx_collection_iter it;
    struct ccnx_link link;
    size_t n = 0;
    int r = ccnx_collection_iter_init(&it, collection, len);
    while (r == 0 && (r = ccnx_collection_iter_next(&it, &link)) == 1) {
        struct ccnx_name_iter ni;
        struct ccnx_comp comp;
        r = ccnx_name_iter_init(&ni, link.name, link.name_len);
        if (r == 0 && ccnx_name_iter_next(&ni, &comp) == 1) {
            struct ex_node *k = ex_node_child(t, node, comp.p, comp.n, NULL);
            if (k == NULL)
                r = CCNX_E_NOMEM;
            else
                k->sources |= sources;
            n++;
        }
    }
    if (added != NULL)
        *added = n;
    return r < 0 ? r : 0;
}

struct ex_node *ex_node_newest_version(const struct ex_node *node)
{
    struct ex_node *best = NULL;
    for (size_t i = 0; node->versions > 0 && i < node->nkids; i++) {
        struct ex_node *k = node->kids[i];
        if (k->kind == EX_VERSION && (best == NULL || k->number >= best->number))
            best = k;
    }
    return best;
}

int ex_node_depth(const struct ex_node *node)
{
    int d = 0;
    for (; node->parent != NULL; node = node->parent)
        d++;
    return d;
}

int ex_node_name(const struct ex_tree *t, const struct ex_node *node, struct ccnx_name *out)
{
    const struct ex_node *chain[256];
    int depth = 0;
    for (; node->parent != NULL && depth < 256; node = node->parent)
        chain[depth++] = node;
    int r = ccnx_name_copy(out, &t->prefix);
    while (r == 0 && depth > 0) {
        depth--;
        r = ccnx_name_append(out, chain[depth]->comp, chain[depth]->n);
    }
    return r;
}

int ex_node_uri(const struct ex_tree *t, const struct ex_node *node, struct ccnx_buf *out)
{
    struct ccnx_name name;
    int r = ccnx_name_init(&name);
    r = r == 0 ? ex_node_name(t, node, &name) : r;
    r = r == 0 ? ccnx_uri_append_name(out, &name) : r;
    ccnx_name_free(&name);
    return r;
}

static int content_summary(const struct ex_node *node, struct ccnx_buf *out)
{
    if (node->segments > 1)
        ccnx_buf_printf(out, "%lld segments", (long long)node->segments);
    if (node->size >= 0) {
        ccnx_buf_append_str(out, node->segments > 1 ? ", " : "");
        ex_label_size(out, (uint64_t)node->size);
    }
    return ccnx_buf_status(out);
}

int ex_node_summary(const struct ex_node *node, struct ccnx_buf *out)
{
    if (node->versions > 0) {
        const struct ex_node *v = ex_node_newest_version(node);
        ccnx_buf_printf(out, "%zu version%s, newest ", node->versions,
                        node->versions == 1 ? "" : "s");
        ex_label_date(out, v->number, 0);
        if (v->size >= 0 || v->segments > 1) {
            ccnx_buf_append_str(out, ", ");
            content_summary(v, out);
        }
        return ccnx_buf_status(out);
    }
    if (node->size >= 0 || node->segments > 1)
        return content_summary(node, out);
    if (node->segment_kids > 0)
        return ccnx_buf_append_str(out, "segmented");
    return ccnx_buf_status(out);
}

int ex_sources_text(unsigned sources, struct ccnx_buf *out)
{
    static const char *const names[] = {"repo", "cache", "producer"};
    const char *sep = "";
    for (unsigned i = 0; i < 3; i++) {
        if (sources & (1u << i)) {
            ccnx_buf_printf(out, "%s%s", sep, names[i]);
            sep = " ";
        }
    }
    return ccnx_buf_status(out);
}

/* ---- Rows ---- */

static int push_row(struct ex_rows *rows, struct ex_node *node, int depth)
{
    if (rows->n == rows->cap) {
        size_t cap = rows->cap ? 2 * rows->cap : 64;
        struct ex_row *v = realloc(rows->v, cap * sizeof *v);
        if (v == NULL)
            return CCNX_E_NOMEM;
        rows->v = v;
        rows->cap = cap;
    }
    rows->v[rows->n++] = (struct ex_row){node, depth};
    return 0;
}

/* 1 when the node or a descendant matches the filter. */
static int matches(const struct ex_node *node, const char *filter)
{
    if (strcasestr(node->label, filter) != NULL)
        return 1;
    for (size_t i = 0; i < node->nkids; i++)
        if (node->kids[i]->kind != EX_SEGMENT && matches(node->kids[i], filter))
            return 1;
    return 0;
}

static int add_rows(struct ex_rows *rows, struct ex_node *node, int depth, const char *filter,
                    int max_depth)
{
    int r = 0;
    for (size_t i = 0; r == 0 && i < node->nkids; i++) {
        struct ex_node *k = node->kids[i];
        if (k->kind == EX_SEGMENT || (filter != NULL && !matches(k, filter)))
            continue;
        r = push_row(rows, k, depth + 1);
        int open = filter != NULL ? 1 : k->expanded;
        if (r == 0 && open && (max_depth < 0 || depth + 1 < max_depth))
            r = add_rows(rows, k, depth + 1, filter, max_depth);
    }
    return r;
}

int ex_tree_rows(struct ex_tree *t, const char *filter, int max_depth, struct ex_rows *rows)
{
    rows->n = 0;
    if (filter != NULL && *filter == '\0')
        filter = NULL;
    int r = push_row(rows, &t->root, 0);
    if (r == 0 && (t->root.expanded || filter != NULL) && max_depth != 0)
        r = add_rows(rows, &t->root, 0, filter, max_depth);
    return r;
}

void ex_rows_free(struct ex_rows *rows)
{
    free(rows->v);
    rows->v = NULL;
    rows->n = rows->cap = 0;
}
