/* The GStreamer elements' metadata (plugins/common/streammeta.h):
 * the parser on arbitrary bytes, then a reader fed the same bytes as a meta
 * segment and as data, drained to the end. */
#include "streammeta.h"
#include "streamreader.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccngst_meta *m = malloc(sizeof *m);
    if (m != NULL) {
        ccngst_meta_parse(data, size, m);
        free(m);
    }
    struct ccngst_reader *r = ccngst_reader_new();
    if (r == NULL) {
        return 0;
    }
    char err[200];
    ccngst_reader_meta(r, data, size, err, sizeof err);
    ccngst_reader_data(r, data, size);
    struct ccngst_out out;
    while (ccngst_reader_next(r, &out)) {
    }
    ccngst_reader_free(r);
    return 0;
}
