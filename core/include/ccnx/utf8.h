/* UTF-8 as the programs read text that came from the network, and the one
 * rule for which characters of it may reach a terminal.
 *
 * Chat messages, component labels and content shown by the applications
 * are whatever bytes someone signed. Decoding is strict (no overlong forms,
 * surrogates or values past U+10FFFF), and ccnx_utf8_unsafe names the
 * characters that change how a terminal shows what follows, so every view
 * replaces the same set. */
#ifndef CCNX_UTF8_H
#define CCNX_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/api.h>
#include <ccnx/buf.h>

CCNX_API_BEGIN

/* The UTF-8 sequence at p[0..n): its length (1 to 4) with the code point
 * in *cp, or 0 when the bytes are not a valid, shortest-form sequence of a
 * scalar value (or n is 0). */
int ccnx_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp);
/* Appends the UTF-8 form of cp (a scalar value); the buffer's status. */
int ccnx_utf8_append(struct ccnx_buf *out, uint32_t cp);
/* 1 when p[0..n) is valid UTF-8 throughout. */
int ccnx_utf8_valid(const uint8_t *p, size_t n);
/* 1 for a character that must not reach a terminal as it is: C0 controls,
 * DEL, C1 controls (ESC and CSI among them), and every format character
 * (Unicode category Cf): the bidirectional marks, embeddings, overrides
 * and isolates (text could otherwise read backwards from there on), the
 * zero-width space, joiners and word joiner, the soft hyphen, the
 * byte-order mark, tag characters and the like, which show as nothing and
 * let two texts that differ read the same. */
int ccnx_utf8_unsafe(uint32_t cp);
/* The same, stricter for names (nicknames, name components): also the
 * variation selectors, the combining grapheme joiner and the blank
 * fillers (Hangul, Khmer), invisible too. */
int ccnx_utf8_unsafe_in_name(uint32_t cp);

CCNX_API_END

#endif
