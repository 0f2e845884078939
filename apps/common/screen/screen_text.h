/* Text on a curses screen, shared by ccnchat and ccnexplore: the columns a
 * character takes, UTF-8 decoded to code points, and text drawn clipped at
 * a column. The text must already be inert (sanitized: no control or
 * format characters, see ccnx/utf8.h); a byte that does not decode shows
 * as '?'. Needs ncursesw, so it is a library of its own
 * (ccnx_app_screen), linked only by the terminal apps. */
#ifndef CCNX_APP_SCREEN_TEXT_H
#define CCNX_APP_SCREEN_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Columns the character takes (wcwidth; 1 for what it does not know). */
int screen_cell_width(uint32_t cp);
/* Decodes text into at most max code points; returns how many. */
size_t screen_decode(const char *text, uint32_t *out, size_t max);
/* Columns text takes. */
int screen_text_width(const char *text);
/* Bytes of text, up to its end or a newline, that fit in cols columns
 * (whole characters only). */
size_t screen_line_fit(const char *text, int cols);
/* Draws n code points from column x of row y, stopping before a character
 * that would cross column maxx; returns the column after the last drawn. */
int screen_put_cps(int y, int x, const uint32_t *cps, size_t n, int maxx);
/* The same for UTF-8 text, of any length. */
int screen_put_text(int y, int x, const char *text, int maxx);

#endif
