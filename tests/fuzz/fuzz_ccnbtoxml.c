/* Fuzz target for the ccnb -> XML converter: total over any bytes, and
 * the flags change only the text, never what is accepted or where it
 * fails. */
#include <ccnx/buf.h>
#include <ccnx/error.h>
#include <ccnx/xml.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int contains(const struct ccnx_buf *b, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= b->len; i++) {
        if (memcmp(b->data + i, s, n) == 0) {
            return 1;
        }
    }
    return 0;
}

static int count_element(void *arg, struct ccnx_buf *out)
{
    (*(size_t *)arg)++;
    ccnx_buf_reset(out);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned modes[] = {
        0,
        CCNX_XML_FORCE_BINARY | CCNX_XML_PREFER_HEX,
        CCNX_XML_VERBOSE,
        CCNX_XML_INDENT | CCNX_XML_VERBOSE | CCNX_XML_PREFER_HEX,
    };
    int first_res = 0;
    struct ccnx_xml_report first;
    memset(&first, 0, sizeof first);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        struct ccnx_buf out = CCNX_BUF_INIT;
        size_t seen = 0;
        struct ccnx_xml_opts o = {modes[m], NULL, m == 2 ? count_element : NULL, &seen};
        struct ccnx_xml_report rep;
        int res = ccnx_xml_from_ccnb(&out, data, size, &o, &rep);
        if (res > 0 || (res < 0 && rep.err_off > size)) {
            abort();
        }
        if (m == 0) {
            first_res = res;
            first = rep;
        } else if (res != first_res || rep.elements != first.elements ||
                   (res < 0 && rep.err_off != first.err_off)) {
            abort();
        }
        if (m == 2 && seen != rep.elements) {
            abort();
        }
        if (m == 1 && res == 0 && contains(&out, "ccnbencoding=\"text\"")) {
            abort();
        }
        ccnx_buf_free(&out);
    }
    return 0;
}
