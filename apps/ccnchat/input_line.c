/* The line being typed. See input_line.h. */
#include "input_line.h"

#include <stdlib.h>
#include <string.h>

#include "chat_text.h"

#include <ccnx/utf8.h>

void input_init(struct input_line *in)
{
    memset(in, 0, sizeof *in);
}

void input_free(struct input_line *in)
{
    for (size_t i = 0; i < in->nhistory; i++)
        free(in->history[i]);
    free(in->draft);
    memset(in, 0, sizeof *in);
}

int input_insert(struct input_line *in, uint32_t cp)
{
    if (in->len == INPUT_MAX_CHARS || cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    memmove(&in->text[in->cursor + 1], &in->text[in->cursor],
            (in->len - in->cursor) * sizeof *in->text);
    in->text[in->cursor++] = cp;
    in->len++;
    return 0;
}

/* Removes [from, to). */
static void cut(struct input_line *in, size_t from, size_t to)
{
    memmove(&in->text[from], &in->text[to], (in->len - to) * sizeof *in->text);
    in->len -= to - from;
    in->cursor = from;
}

void input_backspace(struct input_line *in)
{
    if (in->cursor > 0)
        cut(in, in->cursor - 1, in->cursor);
}

void input_delete(struct input_line *in)
{
    if (in->cursor < in->len) {
        size_t at = in->cursor;
        cut(in, at, at + 1);
    }
}

void input_left(struct input_line *in)
{
    if (in->cursor > 0)
        in->cursor--;
}

void input_right(struct input_line *in)
{
    if (in->cursor < in->len)
        in->cursor++;
}

void input_home(struct input_line *in)
{
    in->cursor = 0;
}

void input_end(struct input_line *in)
{
    in->cursor = in->len;
}

void input_kill_before(struct input_line *in)
{
    cut(in, 0, in->cursor);
}

void input_kill_after(struct input_line *in)
{
    in->len = in->cursor;
}

void input_kill_word(struct input_line *in)
{
    size_t i = in->cursor;
    while (i > 0 && in->text[i - 1] == ' ')
        i--;
    while (i > 0 && in->text[i - 1] != ' ')
        i--;
    cut(in, i, in->cursor);
}

char *input_text(const struct input_line *in)
{
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    for (size_t i = 0; i < in->len; i++)
        ccnx_utf8_append(&b, in->text[i]);
    ccnx_buf_append_byte(&b, 0);
    if (ccnx_buf_status(&b) < 0) {
        ccnx_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

static void set_text(struct input_line *in, const char *utf8)
{
    size_t n = strlen(utf8);
    in->len = 0;
    for (size_t i = 0; i < n && in->len < INPUT_MAX_CHARS;) {
        uint32_t cp;
        int k = ccnx_utf8_decode((const uint8_t *)utf8 + i, n - i, &cp);
        if (k == 0)
            break;
        in->text[in->len++] = cp;
        i += (size_t)k;
    }
    in->cursor = in->len;
}

void input_history_up(struct input_line *in)
{
    if (in->browsing == 0 || in->nhistory == 0)
        return;
    if (in->browsing == in->nhistory) {
        free(in->draft);
        in->draft = input_text(in);
    }
    in->browsing--;
    set_text(in, in->history[in->browsing]);
}

void input_history_down(struct input_line *in)
{
    if (in->browsing >= in->nhistory)
        return;
    in->browsing++;
    if (in->browsing < in->nhistory) {
        set_text(in, in->history[in->browsing]);
    } else {
        set_text(in, in->draft != NULL ? in->draft : "");
        free(in->draft);
        in->draft = NULL;
    }
}

char *input_take(struct input_line *in)
{
    char *line = input_text(in);
    if (line == NULL)
        return NULL;
    if (line[0] != '\0' &&
        (in->nhistory == 0 || strcmp(in->history[in->nhistory - 1], line) != 0)) {
        if (in->nhistory == INPUT_HISTORY_MAX) {
            free(in->history[0]);
            memmove(&in->history[0], &in->history[1], (INPUT_HISTORY_MAX - 1) * sizeof(char *));
            in->nhistory--;
        }
        in->history[in->nhistory] = strdup(line);
        if (in->history[in->nhistory] != NULL)
            in->nhistory++;
    }
    in->browsing = in->nhistory;
    free(in->draft);
    in->draft = NULL;
    in->len = in->cursor = 0;
    return line;
}
