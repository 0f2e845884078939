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

#include <ccnx/api.h>

CCNX_API_BEGIN

/* Parses text[0..len) into n (replacing its contents). Returns 0 or CCNX_E_URI;
 * *consumed (if not NULL) gets the number of bytes that formed the name. */
/* Details, matching the CCNx 0.8.2 library:
 * - n must have been initialised (ccnx_name_init); on failure it holds the
 *   empty name and *consumed the offset where parsing stopped.
 * - The scheme "ccnx:" (or the older "ccn:"), in any case, is optional; any
 *   other scheme, and a relative URI (no '/' after the scheme), is CCNX_E_URI.
 * - "//authority" is ignored, but must not be ".." or badly escaped, and an
 *   empty one needs a path after it ("ccnx:///" is the root, "ccnx://" an error).
 * - Escapes: %XX anywhere; '=' switches the rest of the component to pairs of
 *   hex digits. Bad or truncated escapes are CCNX_E_URI.
 * - After unescaping, "" and "." are dropped, ".." removes the previous
 *   component (none at the root), and 3+ dots lose three dots ("..." is the
 *   empty component).
 * - '?', '#' and a NUL byte end the name; *consumed stops there.
 * - More than CCNX_NAME_MAX_COMPONENTS components: CCNX_E_TOOBIG;
 *   CCNX_E_NOMEM when memory runs out. */
int ccnx_uri_parse(struct ccnx_name *n, const char *text, size_t len, size_t *consumed);
/* Convenience for NUL-terminated text. */
int ccnx_uri_parse_str(struct ccnx_name *n, const char *text);
/* Appends "ccnx:/a/b" for the encoded Name element enc[0..len) to out
 * ("ccnx:/" for the empty name). Returns 0, or a negative code with out
 * unchanged when enc is not a well-formed Name. */
int ccnx_uri_append(struct ccnx_buf *out, const uint8_t *enc, size_t len);
/* Appends one component, percent-escaped as in a URI (no slash); a component
 * of only dots (or none) gets three more. */
int ccnx_uri_append_comp(struct ccnx_buf *out, const uint8_t *p, size_t n);
/* Appends the URI of n to out. */
int ccnx_uri_append_name(struct ccnx_buf *out, const struct ccnx_name *n);

CCNX_API_END

#endif
