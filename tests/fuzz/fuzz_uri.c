/* Fuzz target: any bytes as a ccnx: URI. What parses must print and parse
 * back to the same encoded name, and print the same way again; and a
 * component that decodes as a chunk number (ccnsendchunks' decimal
 * naming) must be the very text that number is written as. */
#include <ccnx/buf.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_round_trip(const struct ccnx_name *n)
{
    struct ccnx_buf uri = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    struct ccnx_name back;
    size_t consumed = 0;
    if (ccnx_uri_append_name(&uri, n) != 0 || ccnx_name_init(&back) != 0) {
        abort();
    }
    if (ccnx_uri_parse(&back, (const char *)uri.data, uri.len, &consumed) != 0 ||
        consumed != uri.len || back.count != n->count || back.enc.len != n->enc.len ||
        memcmp(back.enc.data, n->enc.data, n->enc.len) != 0) {
        abort();
    }
    if (ccnx_uri_append_name(&again, &back) != 0 || again.len != uri.len ||
        memcmp(again.data, uri.data, uri.len) != 0) {
        abort();
    }
    ccnx_name_free(&back);
    ccnx_buf_free(&uri);
    ccnx_buf_free(&again);
}

static void check_chunks(const struct ccnx_name *n)
{
    for (size_t i = 0; i < n->count; i++) {
        struct ccnx_comp c;
        uint64_t v;
        struct ccnx_name one;
        if (ccnx_name_comp(n, i, &c) != 0 || ccnx_naming_chunk_decode(c.p, c.n, &v) != 0) {
            continue;
        }
        struct ccnx_comp again;
        if (ccnx_name_init(&one) != 0 || ccnx_naming_append_chunk(&one, v) != 0 ||
            ccnx_name_comp(&one, 0, &again) != 0 || again.n != c.n ||
            memcmp(again.p, c.p, c.n) != 0) {
            abort();
        }
        ccnx_name_free(&one);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnx_name n;
    size_t consumed = 0;
    if (ccnx_name_init(&n) != 0) {
        return 0;
    }
    int res = ccnx_uri_parse(&n, (const char *)data, size, &consumed);
    if (consumed > size) {
        abort();
    }
    if (res == 0) {
        check_round_trip(&n);
        check_chunks(&n);
    } else if (n.count != 0) {
        abort(); /* a failed parse leaves the empty name */
    }
    ccnx_name_free(&n);
    return 0;
}
