/* ccnexplore's parsers and formatters (apps/ccnexplore) on arbitrary bytes:
 * a component's readable form, the tree fed with components cut from the
 * input, its rows with a filter, the preview's text test and hex dump, and
 * the details pane of the input taken as a ContentObject. */
#include "explore_actions.h"
#include "explore_details.h"
#include "explore_label.h"
#include "explore_list.h"
#include "explore_tree.h"

#include <ccnx/content.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void feed_tree(const uint8_t *data, size_t size)
{
    struct ex_tree t;
    struct ccnx_name root;
    ccnx_name_init(&root);
    if (ex_tree_init(&t, &root) != 0) {
        ccnx_name_free(&root);
        return;
    }
    /* Components are cut at every 0xFF byte; each goes one level deeper
     * when it starts with 'd'. */
    struct ex_node *parent = &t.root;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != 0xFF)
            continue;
        struct ex_node *k = ex_node_child(&t, parent, data + start, i - start, NULL);
        if (k != NULL) {
            k->sources |= (unsigned)(i & 7);
            k->expanded = 1;
            if (i > start && data[start] == 'd')
                parent = k;
        }
        start = i + 1;
    }
    struct ex_rows rows = {0};
    struct ccnx_buf line = CCNX_BUF_INIT;
    char filter[4] = {0};
    memcpy(filter, data, size < 3 ? size : 3);
    for (int pass = 0; pass < 2; pass++) {
        ex_tree_rows(&t, pass ? filter : NULL, -1, &rows);
        for (size_t i = 0; i < rows.n; i++) {
            ccnx_buf_reset(&line);
            ex_list_row(&rows.v[i], &line);
            ex_node_uri(&t, rows.v[i].node, &line);
        }
    }
    ccnx_buf_free(&line);
    ex_rows_free(&rows);
    ex_tree_free(&t);
    ccnx_name_free(&root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnx_buf out = CCNX_BUF_INIT;
    ex_label_component(&out, data, size);
    ex_label_inert_text(&out, data, size, 1);
    ex_preview_is_text(data, size);
    ex_preview_hex(&out, data, size < 4096 ? size : 4096);
    feed_tree(data, size < 4096 ? size : 4096);
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(data, size, &pc) == 0) {
        struct ex_tree t;
        struct ccnx_name root;
        ccnx_name_init(&root);
        if (ex_tree_init(&t, &root) == 0) {
            struct ex_details det = {2, data, size, EX_VERIFY_FAILED, "x"};
            ex_details_text(&t, &t.root, &det, &out);
            ex_tree_free(&t);
        }
        ccnx_name_free(&root);
    }
    ccnx_buf_free(&out);
    return 0;
}
