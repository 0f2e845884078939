/* How names and numbers read on screen and in --list: a component in its
 * readable form (a version as its date, a segment as its number, a marker
 * by its text, printable UTF-8 as itself, anything else URI-escaped), sizes
 * and dates. Everything written here is safe to put on a terminal: no
 * control characters, whatever bytes the network sent. */
#ifndef EXPLORE_LABEL_H
#define EXPLORE_LABEL_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

/* Appends the readable form of one name component. */
int ex_label_component(struct ccnx_buf *out, const uint8_t *p, size_t n);
/* 1 when p[0..n) is UTF-8 with no character ccnx_utf8_unsafe_in_name names. */
int ex_label_printable_utf8(const uint8_t *p, size_t n);
/* Appends text (network bytes) made inert: UTF-8 kept but for the
 * characters ccnx_utf8_unsafe names, which become '.' as every byte that
 * is not UTF-8 does; lines kept when keep_newlines (tabs become spaces). */
int ex_label_inert_text(struct ccnx_buf *out, const uint8_t *p, size_t n, int keep_newlines);
/* "812 B", "45.1 kB", "12.4 MB", "3.0 GB" (decimal units). */
int ex_label_size(struct ccnx_buf *out, uint64_t bytes);
/* A CCNx timestamp (1/4096 s since the epoch) as local "YYYY-MM-DD HH:MM";
 * with seconds when `seconds`. */
int ex_label_date(struct ccnx_buf *out, uint64_t ticks, int seconds);

#endif
