/* Fuzz target for the face framing: stream framing at arbitrary split
 * points must deliver exactly what datagram framing of the same bytes
 * delivers when the bytes are well-formed, and neither may crash. */
#include <stdlib.h>
#include <string.h>

#include "face/framer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct collect {
    uint8_t *bytes;
    size_t len, cap;
    size_t count;
};

static void collect(void *arg, const uint8_t *msg, size_t len)
{
    struct collect *c = arg;
    if (len == 0) {
        abort(); /* framing never delivers empty messages */
    }
    if (c->len + len > c->cap) {
        size_t n = (c->len + len) * 2;
        uint8_t *b = realloc(c->bytes, n);
        if (b == NULL) {
            abort();
        }
        c->bytes = b;
        c->cap = n;
    }
    memcpy(c->bytes + c->len, msg, len);
    c->len += len;
    c->count++;
}

/* Feeds the stream in pieces whose sizes come from the data itself. */
static int stream_pass(const uint8_t *data, size_t size, size_t max, struct collect *out)
{
    struct framer_counts counts = {0};
    struct framer_sink sink = {collect, out, &counts};
    struct framer_stream fs;
    framer_stream_init(&fs, max);
    size_t pos = 0, k = 0;
    int res = 0;
    while (pos < size && res == 0) {
        size_t piece = size > 0 ? (size_t)data[k++ % size] % 23 + 1 : 1;
        if (piece > size - pos) {
            piece = size - pos;
        }
        res = framer_stream_feed(&fs, data + pos, piece, &sink);
        pos += piece;
    }
    int idle = framer_stream_idle(&fs);
    framer_stream_free(&fs);
    return res < 0 ? res : idle ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t max = size > 0 ? 16 + (size_t)data[0] * 16 : 64;
    struct collect s = {0}, d = {0};
    struct framer_counts counts = {0};
    struct framer_sink sink = {collect, &d, &counts};
    int dres = framer_datagram(data, size, max, &sink);
    int sres = stream_pass(data, size, max, &s);
    /* A datagram that frames cleanly is a stream that ends between messages,
     * and both deliver the same messages. */
    if (dres >= 0) {
        if (sres != 0 || s.len != d.len || s.count != d.count ||
            (d.len > 0 && memcmp(s.bytes, d.bytes, d.len) != 0)) {
            abort();
        }
    } else if (d.count != 0) {
        abort(); /* a rejected datagram delivers nothing */
    }
    free(s.bytes);
    free(d.bytes);
    return 0;
}
