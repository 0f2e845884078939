/* What the screen's two files share: its state (explore_ui.c: keys,
 * actions, the loop) and its drawing (explore_draw.c). */
#ifndef EXPLORE_UI_INTERNAL_H
#define EXPLORE_UI_INTERNAL_H

#define NCURSES_WIDECHAR 1
#include "explore_ui.h"

#include <ccnx/verifier.h>

#include <curses.h>
#include <stddef.h>

#include "explore_actions.h"
#include "explore_label.h"

#define SIDE_BY_SIDE_COLS 100 /* wider screens show the details beside the tree */
#define INPUT_MAX         1024

enum prompt { PROMPT_NONE, PROMPT_FILTER, PROMPT_FETCH, PROMPT_PUT };
enum { PAIR_BAR = 1, PAIR_DIM, PAIR_BAD, PAIR_GOOD, PAIR_SEL };

struct ui {
    int mouse; /* clicks select and open */
    struct ccnx_client *c;
    struct ex_tree *t;
    struct ex_disco *d;
    struct ccnx_verifier *v;
    struct ex_actions a;
    struct ex_rows rows;
    struct ex_node *sel;
    size_t top;
    char filter[INPUT_MAX];
    enum prompt prompt;
    char input[INPUT_MAX];
    char message[512];
    int message_bad;
    int preview; /* the preview replaces the details */
    int preview_scroll;
    int help;
    int dirty;
    int connected; /* as last drawn */
    int utf8;
    char *copied;
    struct ex_node *put_under;
};

/* The panes, for the terminal's size. */
struct layout {
    int tree_y, tree_h, tree_w; /* the tree pane */
    int side_y, side_x, side_h, side_w;
};
struct layout ui_layout(void);
/* The selected row's index in u->rows (0 when it is not shown). */
size_t ui_sel_index(const struct ui *u);
/* The rows again, after the tree or the filter changed. */
void ui_rebuild(struct ui *u);
void ui_draw(struct ui *u);

#endif
