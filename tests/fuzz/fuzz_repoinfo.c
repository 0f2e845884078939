/* Fuzz target for the RepositoryInfo parser: any input parses or is
 * refused, and a parsed body's spans lie inside the input and its global
 * prefix makes a valid name. */
#include <ccnx/name.h>
#include <ccnx/repo.h>

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_span(struct ccnx_span s, size_t size)
{
    if (s.off > size || s.len > size - s.off) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnx_repo_info ri;
    if (ccnx_repo_info_parse(data, size, &ri) != 0) {
        return 0;
    }
    check_span(ri.version, size);
    check_span(ri.repo_version, size);
    check_span(ri.global_prefix, size);
    check_span(ri.local_name, size);
    check_span(ri.info_string, size);
    for (size_t i = 0; i < ri.name_count; i++) {
        check_span(ri.names[i], size);
    }
    struct ccnx_name n;
    if (ccnx_name_init(&n) != 0) {
        return 0;
    }
    if (ccnx_repo_info_global_prefix(data, &ri, &n) != 0 || n.count != ri.global_prefix_count) {
        abort();
    }
    ccnx_name_free(&n);
    return 0;
}
