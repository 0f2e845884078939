/* The line being typed: Unicode characters with a cursor, the editing keys
 * of a shell (Home/End, Ctrl-U, Ctrl-W, ...) and a history for Up/Down.
 * No curses here: the screen feeds it keys and draws what it holds. */
#ifndef INPUT_LINE_H
#define INPUT_LINE_H

#include <stddef.h>
#include <stdint.h>

#define INPUT_MAX_CHARS   1000 /* characters in one line */
#define INPUT_HISTORY_MAX 100  /* lines remembered for Up/Down */

struct input_line {
    uint32_t text[INPUT_MAX_CHARS];
    size_t len, cursor;
    char *history[INPUT_HISTORY_MAX]; /* oldest first, UTF-8 */
    size_t nhistory;
    size_t browsing; /* history index shown; nhistory when editing the new line */
    char *draft;     /* the new line while browsing */
};

void input_init(struct input_line *in);
void input_free(struct input_line *in);

/* 0, or -1 when the line is full or cp is a control character. */
int input_insert(struct input_line *in, uint32_t cp);
void input_backspace(struct input_line *in);
void input_delete(struct input_line *in);
void input_left(struct input_line *in);
void input_right(struct input_line *in);
void input_home(struct input_line *in);
void input_end(struct input_line *in);
void input_kill_before(struct input_line *in); /* Ctrl-U */
void input_kill_after(struct input_line *in);  /* Ctrl-K */
void input_kill_word(struct input_line *in);   /* Ctrl-W: the word before the cursor */
void input_history_up(struct input_line *in);
void input_history_down(struct input_line *in);
/* The line as UTF-8 (malloc'd, caller frees), remembered in the history
 * when not empty; the line is cleared. NULL when out of memory. */
char *input_take(struct input_line *in);
/* The line as UTF-8 (malloc'd). */
char *input_text(const struct input_line *in);

#endif
