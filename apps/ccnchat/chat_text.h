/* Text from the network made safe for a terminal, and the UTF-8 helpers the
 * chat's views share.
 *
 * A chat message is whatever bytes a member signed. Before any of it
 * reaches a terminal, control characters (C0, DEL, C1), the bidirectional
 * overrides that reorder what follows, and bytes that are not UTF-8 are
 * replaced by an inert visible form: ESC becomes "^[", U+202E becomes
 * "<U+202E>", a stray byte becomes U+FFFD. A long message is cut, with a
 * mark saying so. */
#ifndef CHAT_TEXT_H
#define CHAT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

/* Longest message shown, in characters; the rest is cut. */
#define CHAT_TEXT_MAX_CHARS 2000
/* Appended where a message was cut. */
#define CHAT_TEXT_CUT_MARK " [...]"

/* Decodes the UTF-8 sequence at p[0..n): its length (1..4) with the code
 * point in *cp, or 0 when the bytes are not a valid, shortest-form sequence
 * of a scalar value. */
int chat_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp);
/* Appends the UTF-8 form of cp (a scalar value). */
int chat_utf8_append(struct ccnx_buf *out, uint32_t cp);
/* 1 when p[0..n) is valid UTF-8 throughout. */
int chat_utf8_valid(const uint8_t *p, size_t n);

/* Appends a copy of p[0..n) that a terminal shows as text and never
 * interprets, cut after max_chars characters (0: CHAT_TEXT_MAX_CHARS).
 * Returns 1 when something was replaced or cut, 0 when the text was
 * appended as it was, CCNX_E_NOMEM. Always NUL-terminates out. */
int chat_text_sanitize(const uint8_t *p, size_t n, size_t max_chars, struct ccnx_buf *out);

#endif
