/* XML text -> ccnb, the encoding ccn_xmltoccnb performs (parsed with expat).
 *
 * Element names found in the DTAG dictionary become DTAGs, others TAGs;
 * attributes become ATTR + UDATA (names are never looked up); character
 * data becomes UDATA, or a BLOB when its element carries
 * ccnbencoding="text", "hexBinary" or "base64Binary" (that attribute itself
 * is not encoded; an unknown value is kept as an ordinary attribute, with a
 * warning). Processing instructions become EXT 16 + two UDATA items;
 * comments vanish. A zero-length BLOB is written for an element that
 * declares a ccnbencoding but holds no characters, as the reference does.
 *
 * Unlike an XML parser on its own, the input may hold several top-level
 * elements one after the other (the multi-element output of
 * ccn_ccnbtoxml, or concatenated documents each with its own <?xml?>
 * line); they are encoded back to back.
 */
#ifndef CCNX_XMLENC_H
#define CCNX_XMLENC_H

#include <stddef.h>

#include <ccnx/buf.h>
#include <ccnx/dtag.h>

struct xmlenc_opts {
    /* Drop character data made only of spaces, tabs and newlines (-w):
     * the indentation of hand-written or pretty-printed XML. */
    int toss_white;
    const struct ccnx_dtag_dict *dict; /* names beyond the built-in table, or NULL */
    /* Told about dubious input that is still converted; may be NULL. */
    void (*warn)(void *arg, unsigned long line, unsigned long column, const char *msg);
    void *warn_arg;
};

struct xmlenc_error {
    size_t offset;        /* byte offset in the input */
    unsigned long line;   /* 1-based */
    unsigned long column; /* 1-based, in characters */
    char message[256];    /* what is wrong, without the position */
};

/* Encodes the XML text[0..len) as ccnb appended to out. Returns 0, or
 * CCNX_E_XML (err says where and why) or CCNX_E_NOMEM; on failure out may
 * hold a partial encoding. opts and err may be NULL. */
int xmlenc_convert(struct ccnx_buf *out, const char *text, size_t len,
                   const struct xmlenc_opts *opts, struct xmlenc_error *err);

/* Line and column (both 1-based, columns in characters) of byte `offset`
 * of text, counting lines as XML does (LF, CR LF or CR). */
void xmlenc_position(const char *text, size_t len, size_t offset, unsigned long *line,
                     unsigned long *column);

#endif
