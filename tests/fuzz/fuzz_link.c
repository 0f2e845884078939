/* Fuzz target for the body parsers around signatures and links: Link,
 * Collection and the Merkle Witness. Parsed Links must re-encode to bytes
 * that parse again to the same Link. */
#include <ccnx/buf.h>
#include <ccnx/link.h>
#include <ccnx/key.h>
#include <ccnx/merkle.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_link_roundtrip(const struct ccnx_link *l)
{
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct ccnx_link again;
    if (ccnx_link_build(&out, l) == 0) {
        if (ccnx_link_parse(out.data, out.len, &again) != 0) {
            abort();
        }
        struct ccnx_buf twice = CCNX_BUF_INIT;
        if (ccnx_link_build(&twice, &again) != 0 || twice.len != out.len ||
            memcmp(twice.data, out.data, out.len) != 0) {
            abort();
        }
        ccnx_buf_free(&twice);
    }
    ccnx_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnx_link l;
    if (ccnx_link_parse(data, size, &l) == 0) {
        check_link_roundtrip(&l);
    }
    struct ccnx_collection_iter it;
    if (ccnx_collection_iter_init(&it, data, size) == 0) {
        while (ccnx_collection_iter_next(&it, &l) == 1) {
            check_link_roundtrip(&l);
        }
    }
    struct ccnx_merkle_path path;
    uint8_t leaf[CCNX_SHA256_LEN] = {0}, root[CCNX_SHA256_LEN];
    if (ccnx_merkle_witness_parse(data, size, &path) == 0) {
        ccnx_merkle_path_root(&path, leaf, root);
    }
    return 0;
}
