/* Text from the network made safe for a terminal.
 *
 * A chat message is whatever bytes a member signed. Before any of it
 * reaches a terminal, the characters ccnx_utf8_unsafe names (controls,
 * bidirectional marks and overrides, zero-width and other format
 * characters) and bytes that are not UTF-8 are replaced by an inert
 * visible form: ESC becomes "^[", U+202E becomes "<U+202E>", U+200B
 * "<U+200B>", a stray byte becomes U+FFFD. A nickname is held to the
 * stricter ccnx_utf8_unsafe_in_name (variation selectors and blank
 * fillers shown too), so no two that differ read the same. A long message
 * is cut, with a mark saying so. */
#ifndef CHAT_TEXT_H
#define CHAT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

/* Longest message shown, in characters; the rest is cut. */
#define CHAT_TEXT_MAX_CHARS 2000
/* Longest nickname shown, in characters. */
#define CHAT_TEXT_MAX_NAME_CHARS 32
/* Appended where a message was cut. */
#define CHAT_TEXT_CUT_MARK " [...]"

/* Appends a copy of p[0..n) that a terminal shows as text and never
 * interprets, cut after max_chars characters (0: CHAT_TEXT_MAX_CHARS).
 * Returns 1 when something was replaced or cut, 0 when the text was
 * appended as it was, CCNX_E_NOMEM. Always NUL-terminates out. */
int chat_text_sanitize(const uint8_t *p, size_t n, size_t max_chars, struct ccnx_buf *out);
/* The same for a nickname (CHAT_TEXT_MAX_NAME_CHARS, the stricter set). */
int chat_text_sanitize_name(const uint8_t *p, size_t n, struct ccnx_buf *out);

#endif
