/* ccnb -> XML text, as the classic ccn_ccnbtoxml prints it.
 *
 * The compact form (flags without CCNX_XML_INDENT) is byte-identical to the
 * CCNx 0.8.2 reference decoder for the same flags: an XML declaration line,
 * then each top-level element on one line of its own. A BLOB that is the
 * first item of an element sets that element's ccnbencoding attribute to
 * "text" (every byte printable ASCII other than < > &), else "hexBinary"
 * (CCNX_XML_PREFER_HEX) or "base64Binary" (a newline after every 64
 * characters unless CCNX_XML_FORCE_BINARY). Unknown DTAGs print as
 * <UNKNOWN_DTAG code="N">, DATTRs as UNKNOWN_DATTR_N="...", the EXT
 * processing-instruction item as <?target data?>.
 *
 * The conversion is total over arbitrary bytes. Unlike the reference it
 * refuses, instead of printing broken XML for, an attribute not followed by
 * its UDATA value, a processing instruction that is not exactly two UDATA
 * items, EXT items other than processing instructions, NUL bytes inside
 * names or UDATA, and nesting deeper than CCNX_CCNB_MAX_DEPTH.
 */
#ifndef CCNX_XML_H
#define CCNX_XML_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/dtag.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

enum ccnx_xml_flag {
    /* Never ccnbencoding="text", and no line breaks inside base64 (-b). */
    CCNX_XML_FORCE_BINARY = 1 << 0,
    /* hexBinary rather than base64Binary for binary BLOBs (-x). */
    CCNX_XML_PREFER_HEX = 1 << 1,
    /* After a Component shown in hex or base64, a comment with its URI
     * percent-escaped form (-v). */
    CCNX_XML_VERBOSE = 1 << 2,
    /* Readable form: each child element on its own line, two spaces per
     * level. Not the reference's output; ccn_xmltoccnb -w undoes the added
     * whitespace unless elements mix text and children. */
    CCNX_XML_INDENT = 1 << 3,
    /* Leave out the leading <?xml ...?> line. */
    CCNX_XML_NO_DECLARATION = 1 << 4,
};

struct ccnx_xml_opts {
    unsigned flags;                    /* CCNX_XML_* */
    const struct ccnx_dtag_dict *dict; /* names beyond the built-in table, or NULL */
    /* Called each time a top-level element (and its newline) has been
     * appended to the output buffer; it may write the buffer out and reset
     * it. A negative return stops the conversion with that code. May be NULL. */
    int (*element_done)(void *arg, struct ccnx_buf *out);
    void *arg;
};

/* What a conversion met, filled on success and failure alike. */
struct ccnx_xml_report {
    size_t err_off;              /* on failure: input offset of the offending item
                                  * (the input length when it ends inside an element) */
    size_t elements;             /* top-level elements completed */
    size_t unknown_dtags;        /* DTAGs printed as UNKNOWN_DTAG */
    uint64_t first_unknown_dtag; /* the first of them */
    size_t untagged_blobs;       /* BLOBs not first in their element: printed in
                                  * base64 without a ccnbencoding, so the XML
                                  * does not convert back to the same bytes */
};

/* Converts the ccnb items in in[0..len) (any number of top-level elements,
 * back to back) to XML appended to out. Returns 0 or a negative CCNX_E*
 * code; on failure out holds the text converted before the bad item, and
 * rep->err_off says where it is. opts and rep may be NULL. */
int ccnx_xml_from_ccnb(struct ccnx_buf *out, const uint8_t *in, size_t len,
                       const struct ccnx_xml_opts *opts, struct ccnx_xml_report *rep);

CCNX_API_END

#endif
