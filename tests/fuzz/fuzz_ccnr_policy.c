/* Fuzz target for the repository policy parser: any input parses or is
 * refused with a reason, and a parsed policy's encoding parses again to
 * the same namespaces, each covered by the policy. */
#include "policy.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnr_policy p, q;
    char why[256] = "";
    if (ccnr_policy_parse(&p, data, size, why, sizeof why) != 0) {
        if (why[0] == '\0') {
            abort();
        }
        return 0;
    }
    struct ccnx_buf b = CCNX_BUF_INIT;
    if (ccnr_policy_build(&b, &p) != 0) {
        abort();
    }
    if (ccnr_policy_parse(&q, b.data, b.len, why, sizeof why) != 0 || q.count != p.count) {
        abort();
    }
    for (size_t i = 0; i < p.count; i++) {
        if (ccnx_name_compare(&p.spaces[i], &q.spaces[i]) != 0 ||
            !ccnr_policy_covers(&q, p.spaces[i].enc.data, p.spaces[i].enc.len)) {
            abort();
        }
    }
    ccnr_policy_free(&q);
    ccnr_policy_free(&p);
    ccnx_buf_free(&b);
    return 0;
}
