/* Fuzz target for Sync's parsers: any input decodes as a slice or is
 * refused (and a decoded slice encodes to what decodes to the same), parses
 * as a node or is refused (a parsed node's spans and elements lie inside
 * the input), and a diff fed it as a neighbour's root neither crashes nor
 * asks for a node twice. */
#include <ccnx/sync.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_span(size_t off, size_t len, size_t size)
{
    if (off > size || len > size - off) {
        abort();
    }
}

static void slice(const uint8_t *data, size_t size)
{
    struct ccnx_sync_slice s, again;
    if (ccnx_sync_slice_init(&s) != 0 || ccnx_sync_slice_init(&again) != 0) {
        abort();
    }
    if (ccnx_sync_slice_decode(&s, data, size) == 0) {
        struct ccnx_buf b = CCNX_BUF_INIT;
        if (ccnx_sync_slice_encode(&s, &b) != 0 ||
            ccnx_sync_slice_decode(&again, b.data, b.len) != 0 ||
            ccnx_name_compare(&s.prefix, &again.prefix) != 0 || s.nclauses != again.nclauses) {
            abort();
        }
        ccnx_buf_free(&b);
    }
    ccnx_sync_slice_free(&s);
    ccnx_sync_slice_free(&again);
}

static void node(const uint8_t *data, size_t size)
{
    struct ccnx_sync_node nd;
    if (ccnx_sync_node_parse(data, size, &nd) != 0) {
        return;
    }
    check_span(nd.hash_off, nd.hash_len, size);
    check_span(nd.min_off, nd.min_len, size);
    check_span(nd.max_off, nd.max_len, size);
    size_t cursor = 0, count = 0;
    struct ccnx_sync_elem e;
    while (ccnx_sync_node_elem(data, &nd, &cursor, &e) == 1) {
        check_span(e.off, e.len, size);
        count++;
    }
    if (count != nd.nnames + nd.nhashes) {
        abort();
    }
}

static void diff(const uint8_t *data, size_t size)
{
    struct ccnx_sync_tree *t;
    struct ccnx_sync_diff *d;
    if (ccnx_sync_tree_create(&t) != 0 || ccnx_sync_diff_create(t, &d) != 0) {
        abort();
    }
    ccnx_sync_diff_feed(d, data, size);
    struct ccnx_sync_hash h, first;
    size_t wants = 0;
    while (ccnx_sync_diff_next_want(d, &h) == 1) {
        if (wants++ == 0) {
            first = h;
        } else if (h.len == first.len && memcmp(h.b, first.b, h.len) == 0) {
            abort(); /* asked twice */
        }
    }
    struct ccnx_buf name = CCNX_BUF_INIT;
    while (ccnx_sync_diff_next_missing(d, &name) == 1) {
    }
    ccnx_buf_free(&name);
    ccnx_sync_diff_destroy(d);
    ccnx_sync_tree_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    slice(data, size);
    node(data, size);
    diff(data, size);
    return 0;
}
