/* The screen drawn from the view's state: a status line, the tree with
 * the details (or a preview) beside it or below it, a message line and a
 * line of keys, laid out for the terminal's size. */
#include "explore_ui_internal.h"
#include "screen/screen_text.h"

#include <ccnx/uri.h>

#include <stdio.h>
#include <string.h>

#include "explore_details.h"

/* ---- Layout ---- */

struct layout ui_layout(void)
{
    struct layout l;
    int body = LINES - 3;
    l.tree_y = 1;
    if (COLS >= SIDE_BY_SIDE_COLS) {
        l.tree_h = body;
        l.tree_w = COLS * 55 / 100;
        l.side_y = 1;
        l.side_x = l.tree_w + 1;
        l.side_h = body;
        l.side_w = COLS - l.side_x;
    } else {
        l.tree_h = body / 2;
        l.tree_w = COLS;
        l.side_y = 1 + l.tree_h + 1;
        l.side_x = 0;
        l.side_h = body - l.tree_h - 1;
        l.side_w = COLS;
    }
    return l;
}

size_t ui_sel_index(const struct ui *u)
{
    for (size_t i = 0; i < u->rows.n; i++)
        if (u->rows.v[i].node == u->sel)
            return i;
    return 0;
}

void ui_rebuild(struct ui *u)
{
    ex_tree_rows(u->t, u->filter, -1, &u->rows);
    u->sel = u->rows.v[ui_sel_index(u)].node;
}

/* ---- Drawing ---- */

static void draw_status(struct ui *u)
{
    struct ccnx_buf s = CCNX_BUF_INIT;
    ccnx_buf_printf(&s, " ccnexplore %s  |  ccnd %s %s  |  %zu in flight", u->t->root.label,
                    ccnx_client_where(u->c),
                    ccnx_client_connected(u->c) ? "connected" : "NOT CONNECTED (retrying)",
                    ex_disco_in_flight(u->d) + (u->a.fetch.fetch != NULL && u->a.fetch.done == 0) +
                        (u->a.preview.fetch != NULL && u->a.preview.done == 0));
    if (u->filter[0] != '\0')
        ccnx_buf_printf(&s, "  |  filter \"%s\"", u->filter);
    attron(COLOR_PAIR(PAIR_BAR) | A_BOLD);
    mvhline(0, 0, ' ', COLS);
    screen_put_text(0, 0, ccnx_buf_cstr(&s), COLS);
    attroff(COLOR_PAIR(PAIR_BAR) | A_BOLD);
    ccnx_buf_free(&s);
}

static void row_text(struct ui *u, const struct ex_row *row, struct ccnx_buf *left,
                     struct ccnx_buf *right)
{
    const struct ex_node *n = row->node;
    for (int i = 0; i < row->depth; i++)
        ccnx_buf_append_str(left, "  ");
    int visible_kids = n->nkids > n->segment_kids;
    const char *mark = "  ";
    if (!ex_disco_explored(n) && n->kind != EX_VERSION)
        mark = u->utf8 ? "▸ " : "+ ";
    if (visible_kids)
        mark = n->expanded ? (u->utf8 ? "▾ " : "- ") : (u->utf8 ? "▸ " : "+ ");
    ccnx_buf_append_str(left, mark);
    ccnx_buf_append_str(left, n->label);
    if (ex_disco_busy(n))
        ccnx_buf_append_str(left, u->utf8 ? " …" : " ...");
    ex_node_summary(n, right);
    if (n->sources != 0) {
        ccnx_buf_append_str(right, right->len ? "  [" : "[");
        ex_sources_text(n->sources, right);
        ccnx_buf_append_str(right, "]");
    }
}

static void draw_tree(struct ui *u, const struct layout *l)
{
    size_t sel = ui_sel_index(u);
    if (sel < u->top)
        u->top = sel;
    if (sel >= u->top + (size_t)l->tree_h)
        u->top = sel - (size_t)l->tree_h + 1;
    struct ccnx_buf left = CCNX_BUF_INIT, right = CCNX_BUF_INIT;
    for (int y = 0; y < l->tree_h && u->top + (size_t)y < u->rows.n; y++) {
        const struct ex_row *row = &u->rows.v[u->top + (size_t)y];
        ccnx_buf_reset(&left);
        ccnx_buf_reset(&right);
        row_text(u, row, &left, &right);
        int is_sel = row->node == u->sel;
        if (is_sel)
            attron(COLOR_PAIR(PAIR_SEL) | A_REVERSE);
        mvhline(l->tree_y + y, 0, ' ', l->tree_w);
        int x = screen_put_text(l->tree_y + y, 0, ccnx_buf_cstr(&left), l->tree_w);
        int rw = screen_text_width(ccnx_buf_cstr(&right));
        int rx = l->tree_w - rw - 1 > x + 1 ? l->tree_w - rw - 1 : x + 2;
        if (!is_sel)
            attron(COLOR_PAIR(PAIR_DIM));
        screen_put_text(l->tree_y + y, rx, ccnx_buf_cstr(&right), l->tree_w);
        attroff(COLOR_PAIR(PAIR_DIM) | COLOR_PAIR(PAIR_SEL) | A_REVERSE);
    }
    ccnx_buf_free(&left);
    ccnx_buf_free(&right);
}

/* Draws text lines (split at '\n', long ones wrapped at the box's width)
 * from screen line `skip`, clipped to the box. */
static void draw_lines(const char *text, int skip, int y0, int x0, int h, int w)
{
    int line = 0, y = y0;
    const char *p = text;
    while (*p != '\0' && y < y0 + h && w > 0) {
        /* One screen line: as many characters as fit in w columns. */
        size_t n = screen_line_fit(p, w);
        if (line++ >= skip) {
            char buf[2048];
            snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf - 1 ? n : sizeof buf - 1), p);
            screen_put_text(y++, x0, buf, x0 + w);
        }
        p += n;
        if (*p == '\n')
            p++;
    }
}

static void preview_text(struct ui *u, struct ccnx_buf *out)
{
    const struct ex_transfer *t = &u->a.preview;
    ccnx_buf_append_str(out, "Preview");
    if (t->done == 0)
        ccnx_buf_append_str(out, " (reading...)");
    else if (t->done < 0 && t->buf.len == 0)
        ccnx_buf_append_str(out, ": nothing could be read");
    ccnx_buf_printf(out, "   Esc closes, arrows scroll\n");
    if (ex_preview_is_text(t->buf.data, t->buf.len))
        ex_label_inert_text(out, t->buf.data, t->buf.len, 1);
    else
        ex_preview_hex(out, t->buf.data, t->buf.len);
}

static void draw_side(struct ui *u, const struct layout *l)
{
    struct ccnx_buf text = CCNX_BUF_INIT;
    if (COLS >= SIDE_BY_SIDE_COLS)
        mvvline(l->side_y, l->side_x - 1, ACS_VLINE, l->side_h);
    else
        mvhline(l->side_y - 1, 0, ACS_HLINE, COLS);
    if (u->preview) {
        preview_text(u, &text);
        draw_lines(ccnx_buf_cstr(&text), u->preview_scroll, l->side_y, l->side_x + 1, l->side_h,
                   l->side_w - 1);
    } else if (u->sel != NULL) {
        struct ex_details det;
        ex_disco_details(u->sel, &det);
        ex_details_text(u->t, u->sel, &det, &text);
        if (det.verify == EX_VERIFY_FAILED)
            attron(COLOR_PAIR(PAIR_BAD));
        draw_lines(ccnx_buf_cstr(&text), 0, l->side_y, l->side_x + 1, l->side_h, l->side_w - 1);
        attroff(COLOR_PAIR(PAIR_BAD));
    }
    ccnx_buf_free(&text);
}

static const char *prompt_label(enum prompt p)
{
    return p == PROMPT_FILTER ? "Filter: " : p == PROMPT_FETCH ? "Fetch to file: " : "Put file: ";
}

static void draw_bottom(struct ui *u)
{
    struct ccnx_buf s = CCNX_BUF_INIT;
    int y = LINES - 2;
    move(y, 0);
    clrtoeol();
    if (u->prompt != PROMPT_NONE) {
        ccnx_buf_printf(&s, "%s%s", prompt_label(u->prompt), u->input);
        int x = screen_put_text(y, 0, ccnx_buf_cstr(&s), COLS);
        move(y, x < COLS ? x : COLS - 1);
    } else {
        if (u->a.fetch.fetch != NULL && u->a.fetch.done == 0) {
            ccnx_buf_printf(&s, "Fetching to %s ", u->a.fetch.path);
            ex_transfer_progress(&u->a.fetch, &s);
        } else if (u->a.put.pid > 0) {
            ccnx_buf_append_str(&s, "Putting into a repository...");
        } else {
            ccnx_buf_append_str(&s, u->message);
        }
        attron(COLOR_PAIR(u->message_bad ? PAIR_BAD : PAIR_GOOD));
        screen_put_text(y, 0, ccnx_buf_cstr(&s), COLS);
        attroff(COLOR_PAIR(PAIR_BAD) | COLOR_PAIR(PAIR_GOOD));
    }
    static const char *keys =
        " ↑↓ move  →/Enter open  ← close  p preview  f fetch  u put  r refresh"
        "  / filter  g play  c copy  ? help  q quit";
    attron(COLOR_PAIR(PAIR_BAR));
    mvhline(LINES - 1, 0, ' ', COLS);
    screen_put_text(LINES - 1, 0,
                    u->utf8
                        ? keys
                        : " Up/Down move  Right/Enter open  Left close  p preview"
                          "  f fetch  u put  r refresh  / filter  g play  c copy  ? help  q quit",
                    COLS);
    attroff(COLOR_PAIR(PAIR_BAR));
    ccnx_buf_free(&s);
}

static const char *const help_lines[] = {
    "Keys",
    "  Up/Down, k/j       move        PageUp/PageDown, Home/End",
    "  Right, Enter       open (ask the network for the children)",
    "  Left               close, or go to the parent",
    "  Space              open or close",
    "  p                  preview the content (text, or hex; first 64 KB)",
    "  f                  fetch the content to a file",
    "  u                  put a local file below the selected name (repository)",
    "  r                  refresh the selected name",
    "  /                  filter the tree (Esc clears)",
    "  g                  play with gst-launch-1.0 playbin",
    "  c                  copy the URI (printed when ccnexplore ends)",
    "  q, Ctrl-C          quit",
    "",
    "Sources: repo (name enumeration), cache (this ccnd's content store),",
    "producer (answers from the network). Any key closes this help.",
};

void ui_draw(struct ui *u)
{
    erase();
    if (LINES < 6 || COLS < 30) {
        screen_put_text(0, 0, "ccnexplore: the terminal is too small", COLS);
        refresh();
        return;
    }
    struct layout l = ui_layout();
    draw_status(u);
    draw_tree(u, &l);
    draw_side(u, &l);
    if (u->help) {
        size_t n = sizeof help_lines / sizeof *help_lines;
        for (size_t i = 0; i < n && (int)i + 2 < LINES - 2; i++) {
            mvhline((int)i + 2, 2, ' ', COLS - 4);
            screen_put_text((int)i + 2, 3, help_lines[i], COLS - 3);
        }
    }
    draw_bottom(u);
    curs_set(u->prompt != PROMPT_NONE ? 1 : 0);
    refresh();
    u->dirty = 0;
}
