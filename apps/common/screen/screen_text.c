/* Text on a curses screen (see screen_text.h). */
#define NCURSES_WIDECHAR 1
#include "screen_text.h"

#include <ccnx/utf8.h>

#include <curses.h>
#include <string.h>
#include <wchar.h>

int screen_cell_width(uint32_t cp)
{
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

/* The code point at text[*i..n), advancing *i; '?' for one byte that does
 * not decode. */
static uint32_t next_cp(const char *text, size_t n, size_t *i)
{
    uint32_t cp;
    int len = ccnx_utf8_decode((const uint8_t *)text + *i, n - *i, &cp);
    if (len <= 0) {
        *i += 1;
        return '?';
    }
    *i += (size_t)len;
    return cp;
}

size_t screen_decode(const char *text, uint32_t *out, size_t max)
{
    size_t n = strlen(text), k = 0;
    for (size_t i = 0; i < n && k < max;) {
        out[k++] = next_cp(text, n, &i);
    }
    return k;
}

int screen_text_width(const char *text)
{
    size_t n = strlen(text);
    int w = 0;
    for (size_t i = 0; i < n;) {
        w += screen_cell_width(next_cp(text, n, &i));
    }
    return w;
}

size_t screen_line_fit(const char *text, int cols)
{
    size_t n = strcspn(text, "\n"), i = 0;
    int used = 0;
    while (i < n) {
        size_t at = i;
        int w = screen_cell_width(next_cp(text, n, &i));
        if (used + w > cols) {
            return at;
        }
        used += w;
    }
    return n;
}

static int put_cp(int y, int x, uint32_t cp, int maxx)
{
    int w = screen_cell_width(cp);
    if (x + w > maxx) {
        return -1;
    }
    wchar_t wc[2] = {(wchar_t)cp, 0};
    mvaddnwstr(y, x, wc, 1);
    return x + w;
}

int screen_put_cps(int y, int x, const uint32_t *cps, size_t n, int maxx)
{
    for (size_t i = 0; i < n && x < maxx; i++) {
        int next = put_cp(y, x, cps[i], maxx);
        if (next < 0) {
            break;
        }
        x = next;
    }
    return x;
}

int screen_put_text(int y, int x, const char *text, int maxx)
{
    size_t n = strlen(text);
    for (size_t i = 0; i < n && x < maxx;) {
        int next = put_cp(y, x, next_cp(text, n, &i), maxx);
        if (next < 0) {
            break;
        }
        x = next;
    }
    return x;
}
