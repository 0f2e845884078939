/* ccnx: URIs (URI.txt): parse into a name and print a name, round-trip stable.
 *
 * Printing percent-escapes every byte outside the unreserved set
 * [A-Za-z0-9-._~] and writes a component made only of dots with three more
 * dots; parsing accepts the optional "ccnx:" scheme, ignores a query or
 * fragment, drops "." components, and makes ".." remove the preceding one. */
#ifndef CCNX_URI_H
#define CCNX_URI_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/name.h>

/* Parses text[0..len) into n (replacing its contents). Returns 0 or CCNX_E_URI;
 * *consumed (if not NULL) gets the number of bytes that formed the name. */
int ccnx_uri_parse(struct ccnx_name *n, const char *text, size_t len, size_t *consumed);
/* Convenience for NUL-terminated text. */
int ccnx_uri_parse_str(struct ccnx_name *n, const char *text);
/* Appends "ccnx:/a/b" for the encoded Name element enc[0..len) to out. */
int ccnx_uri_append(struct ccnx_buf *out, const uint8_t *enc, size_t len);
/* Appends one component, percent-escaped as in a URI (no slash). */
int ccnx_uri_append_comp(struct ccnx_buf *out, const uint8_t *p, size_t n);
/* Appends the URI of n to out. */
int ccnx_uri_append_name(struct ccnx_buf *out, const struct ccnx_name *n);

#endif
