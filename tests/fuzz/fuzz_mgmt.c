/* Fuzz target for the control message bodies and request names: whatever
 * parses must rebuild, and the rebuilt bytes must be a fixed point. */
#include <ccnx/buf.h>
#include <ccnx/mgmt.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require_same(struct ccnx_buf *once, struct ccnx_buf *twice)
{
    if (once->len != twice->len || memcmp(once->data, twice->data, once->len) != 0) {
        abort();
    }
    ccnx_buf_free(once);
    ccnx_buf_free(twice);
}

/* parse -> build -> parse -> build, for one body type. */
#define CHECK_FIXED_POINT(type, parse, build)                                                      \
    do {                                                                                           \
        struct type a, b;                                                                          \
        struct ccnx_buf once = CCNX_BUF_INIT, twice = CCNX_BUF_INIT;                               \
        if (parse(data, size, &a) == 0) {                                                          \
            if (build(&once, &a) != 0 || parse(once.data, once.len, &b) != 0 ||                    \
                build(&twice, &b) != 0) {                                                          \
                abort();                                                                           \
            }                                                                                      \
            require_same(&once, &twice);                                                           \
        }                                                                                          \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    CHECK_FIXED_POINT(ccnx_face_instance, ccnx_face_instance_parse, ccnx_face_instance_build);
    CHECK_FIXED_POINT(ccnx_forwarding_entry, ccnx_forwarding_entry_parse,
                      ccnx_forwarding_entry_build);
    CHECK_FIXED_POINT(ccnx_strategy_selection, ccnx_strategy_selection_parse,
                      ccnx_strategy_selection_build);
    struct ccnx_mgmt_request req;
    if (ccnx_mgmt_request_parse(data, size, &req) == 0 &&
        (req.ccndid.n != 32 || req.verb.p == NULL)) {
        abort();
    }
    return 0;
}
