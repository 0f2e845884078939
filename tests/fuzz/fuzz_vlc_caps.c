/* The VLC module's caps reader (plugins/vlc/src/ccnv_caps.h) on arbitrary
 * text: the caps come from a stream's metadata, off the network. */
#include "ccnv_caps.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char type[64];
    ccnv_caps_media_type((const char *)data, size, type, sizeof type);
    struct ccnx_buf out = CCNX_BUF_INIT;
    ccnv_caps_stream_headers((const char *)data, size, &out);
    ccnx_buf_free(&out);
    return 0;
}
