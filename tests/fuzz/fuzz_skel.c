/* Fuzz target for the skeleton decoder and the whole-element validator:
 * both must agree on where every element ends, however the bytes are split. */
#include <ccnx/ccnb.h>

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Feeds data in pieces whose sizes come from the data itself. */
static void check_split(const uint8_t *data, size_t size, size_t piece)
{
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    size_t pos = 0, start = 0;
    while (pos < size) {
        size_t chunk = size - pos < piece ? size - pos : piece;
        size_t used;
        int res = ccnx_skel_feed(&s, data + pos, chunk, &used);
        if (used > chunk) {
            abort();
        }
        pos += used;
        if (res < 0) {
            return;
        }
        if (res == 1) {
            size_t end;
            if (ccnx_ccnb_element_end(data, size, start, &end) != 0 || end != pos) {
                abort();
            }
            start = pos;
        } else if (used != chunk) {
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_split(data, size, size ? size : 1);
    check_split(data, size, 1);
    check_split(data, size, size > 0 ? (size_t)data[0] % 17 + 1 : 3);
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, data, size, 0);
    while (r.err == 0 && r.pos < size) {
        ccnx_ccnb_skip_element(&r);
    }
    return 0;
}
