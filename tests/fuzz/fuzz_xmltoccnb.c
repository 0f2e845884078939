/* Fuzz target for the XML -> ccnb encoder: total over any text, errors
 * carry a position, and whatever it encodes survives ccnb -> XML -> ccnb
 * (after one pass, which may normalise line ends and attribute
 * whitespace the way any XML parser does). */
#include <ccnx/buf.h>
#include <ccnx/error.h>
#include <ccnx/xml.h>

#include "xmlenc.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ccnb -> XML -> ccnb; returns 0 when both steps succeed. */
static int cycle(const struct ccnx_buf *in, unsigned flags, const struct xmlenc_opts *eo,
                 struct ccnx_buf *out)
{
    struct ccnx_buf xml = CCNX_BUF_INIT;
    struct ccnx_xml_opts xo = {flags, NULL, NULL, NULL};
    int res = ccnx_xml_from_ccnb(&xml, in->data, in->len, &xo, NULL);
    if (res == 0) {
        ccnx_buf_reset(out);
        res = xmlenc_convert(out, (const char *)xml.data, xml.len, eo, NULL);
        /* The decoder only writes well-formed XML. */
        if (res == CCNX_E_XML) {
            abort();
        }
    }
    ccnx_buf_free(&xml);
    return res;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned bits = size > 0 ? data[0] : 0;
    struct xmlenc_opts eo = {(int)(bits & 1), NULL, NULL, NULL};
    unsigned flags = ((bits >> 1) & 1 ? CCNX_XML_FORCE_BINARY : 0) |
                     ((bits >> 2) & 1 ? CCNX_XML_PREFER_HEX : 0) |
                     ((bits >> 3) & 1 ? CCNX_XML_VERBOSE : 0);
    struct ccnx_buf b1 = CCNX_BUF_INIT, b2 = CCNX_BUF_INIT, b3 = CCNX_BUF_INIT;
    struct xmlenc_error err;
    int res = xmlenc_convert(&b1, (const char *)data, size, &eo, &err);
    if (res == CCNX_E_XML) {
        if (err.line < 1 || err.column < 1 || err.offset > size || err.message[0] == '\0') {
            abort();
        }
    } else if (res != 0 && res != CCNX_E_NOMEM && res != CCNX_E_TOOBIG) {
        abort();
    }
    if (res == 0 && cycle(&b1, flags, &eo, &b2) == 0) {
        if (cycle(&b2, flags, &eo, &b3) != 0 || b2.len != b3.len ||
            memcmp(b2.data, b3.data, b2.len) != 0) {
            abort();
        }
    }
    ccnx_buf_free(&b1);
    ccnx_buf_free(&b2);
    ccnx_buf_free(&b3);
    return 0;
}
