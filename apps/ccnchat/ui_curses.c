/* The full-screen view: a status line, the scrollback with a members pane
 * beside it, a line of keys, and the input line. Redrawn when the model or
 * the input changes; network work never waits for the screen or the keys. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "chat_app.h"
#include "chat_text.h"
#include "input_line.h"
#include "screen/screen_text.h"
#include "ui.h"

#include <ccnx/utf8.h>

#define MEMBERS_WIDTH    22 /* the members pane, shown when the screen is wide enough */
#define MEMBERS_MIN_COLS 70
#define PREFIX_WIDTH     6 /* "HH:MM " and the indent of wrapped lines */
#define ACTIVE_MS        (15 * 60 * 1000)
#define IDLE_MS          (5 * 60 * 1000)
#define MAX_ROWS         64 /* rows one message may take on screen */

enum { PAIR_NICK = 1, PAIR_STATUS = PAIR_NICK + CHAT_COLOURS, PAIR_NOTICE, PAIR_BAD, PAIR_GOOD };

struct view {
    struct ccnx_client *c;
    struct chat_session *s;
    struct input_line in;
    int scroll; /* rows scrolled back from the newest */
    int dirty;
    int unseen; /* messages that came while scrolled back */
    uint64_t drawn_generation;
    int64_t drawn_ms;
    int utf8;
};

/* ---- Text cells ---- */

/* Where each row of a wrapped text starts: row 0 has `first` columns, the
 * others `width`. Returns the number of rows (at least 1). */
static int wrap(const uint32_t *cps, size_t n, int first, int width, size_t *starts)
{
    int rows = 1, col = 0, room = first;
    starts[0] = 0;
    for (size_t i = 0; i < n; i++) {
        int w = screen_cell_width(cps[i]);
        if (col + w > room && col > 0) {
            if (rows == MAX_ROWS)
                break;
            starts[rows++] = i;
            col = 0;
            room = width;
        }
        col += w;
    }
    starts[rows] = n;
    return rows;
}

/* ---- Scrollback ---- */

struct laid_out {
    uint32_t cps[CHAT_TEXT_MAX_CHARS + 64];
    size_t n;
    size_t starts[MAX_ROWS + 1];
    int rows;
    int header; /* columns before the text on the first row */
};

static void lay_out(const struct chat_model *m, const struct chat_msg *msg, int width,
                    struct laid_out *l)
{
    char name[CHAT_NICK_MAX];
    if (msg->kind == CHAT_MSG_NOTICE) {
        l->header = PREFIX_WIDTH + 4; /* "*** " */
    } else {
        chat_model_name(m, msg->publisher, name);
        l->header = PREFIX_WIDTH + 2 + screen_text_width(name) + 2; /* mark, space, nick, ": " */
    }
    if (l->header > width / 2)
        l->header = width / 2;
    l->n = screen_decode(msg->text, l->cps, sizeof l->cps / sizeof l->cps[0]);
    l->rows = wrap(l->cps, l->n, width - l->header, width - PREFIX_WIDTH, l->starts);
}

static void draw_header(struct view *v, const struct chat_msg *msg, int y, int width)
{
    struct chat_model *m = chat_session_model(v->s);
    char clock[6], name[CHAT_NICK_MAX];
    chat_app_clock(msg->ticks, clock);
    mvaddstr(y, 0, clock);
    if (msg->kind == CHAT_MSG_NOTICE) {
        attron(COLOR_PAIR(PAIR_NOTICE));
        mvaddstr(y, PREFIX_WIDTH, "*** ");
        return;
    }
    int bad = msg->verify != CHAT_VERIFIED;
    attron(COLOR_PAIR(bad ? PAIR_BAD : PAIR_GOOD));
    mvaddstr(y, PREFIX_WIDTH, bad ? "!" : v->utf8 ? "\u2713" : "+");
    attroff(COLOR_PAIR(bad ? PAIR_BAD : PAIR_GOOD));
    const struct chat_member *mb = chat_model_member(m, msg->publisher, 0, 0);
    int pair = PAIR_NICK + (mb != NULL ? (int)mb->colour : 0);
    attron(COLOR_PAIR(pair) | (msg->own ? A_BOLD : 0));
    screen_put_text(y, PREFIX_WIDTH + 2, chat_model_name(m, msg->publisher, name), width / 2 - 2);
    attroff(COLOR_PAIR(pair) | A_BOLD);
    addstr(": ");
    if (bad) {
        attron(COLOR_PAIR(PAIR_BAD));
        addstr("(unverified) ");
        attroff(COLOR_PAIR(PAIR_BAD));
    }
}

/* Draws messages bottom-up into rows [top, bottom], skipping v->scroll rows. */
static void draw_scrollback(struct view *v, int top, int bottom, int width)
{
    struct chat_model *m = chat_session_model(v->s);
    static struct laid_out l;
    int y = bottom, skip = v->scroll;
    for (size_t i = chat_model_count(m); i-- > 0 && y >= top;) {
        const struct chat_msg *msg = chat_model_msg(m, i);
        lay_out(m, msg, width, &l);
        for (int r = l.rows - 1; r >= 0 && y >= top; r--) {
            if (skip > 0) {
                skip--;
                continue;
            }
            int x = r == 0 ? l.header : PREFIX_WIDTH;
            if (r == 0)
                draw_header(v, msg, y, width);
            screen_put_cps(y, x, l.cps + l.starts[r], l.starts[r + 1] - l.starts[r], width);
            attroff(COLOR_PAIR(PAIR_NOTICE));
            y--;
        }
    }
    /* Scrolled past the oldest message: come back so it is on the top row. */
    int unused = skip + (y >= top ? y - top + 1 : 0);
    if (unused > 0 && v->scroll > 0) {
        v->scroll = unused < v->scroll ? v->scroll - unused : 0;
        v->dirty = 1;
    }
}

/* ---- Members, status, keys, input ---- */

struct member_row {
    const struct chat_member *mb;
    char name[CHAT_NICK_MAX];
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct member_row *)a)->name, ((const struct member_row *)b)->name);
}

static void draw_members(struct view *v, int top, int bottom, int x0)
{
    struct chat_model *m = chat_session_model(v->s);
    int64_t now = ccnx_client_now_ms();
    static struct member_row rows[256];
    size_t n = 0;
    for (size_t i = 0; i < chat_model_member_count(m) && n < 256; i++) {
        const struct chat_member *mb = chat_model_member_at(m, i);
        if (mb->departed || now - mb->last_seen_ms > ACTIVE_MS)
            continue;
        rows[n].mb = mb;
        chat_model_name(m, mb->digest, rows[n++].name);
    }
    qsort(rows, n, sizeof rows[0], by_name);
    mvvline(top, x0 - 1, ACS_VLINE, bottom - top + 1);
    attron(A_BOLD);
    mvprintw(top, x0, "Members (%zu)", n);
    attroff(A_BOLD);
    for (size_t i = 0; i < n && top + 1 + (int)i <= bottom; i++) {
        const struct chat_member *mb = rows[i].mb;
        int idle = now - mb->last_seen_ms > IDLE_MS;
        int own = memcmp(mb->digest, chat_session_digest(v->s), CHAT_DIGEST_LEN) == 0;
        attr_t a =
            COLOR_PAIR(PAIR_NICK + (int)mb->colour) | (idle ? A_DIM : 0) | (own ? A_BOLD : 0);
        attron(a);
        screen_put_text(top + 1 + (int)i, x0 + 1, rows[i].name, COLS);
        attroff(a);
    }
}

static void draw_status(struct view *v)
{
    struct chat_model *m = chat_session_model(v->s);
    const struct chat_stats *st = chat_model_stats(m);
    char line[1024];
    int up = ccnx_client_connected(v->c);
    int len = snprintf(line, sizeof line,
                       " %s | ccnd %s: %s | %zu members | you: ", chat_session_room(v->s),
                       ccnx_client_where(v->c), up ? "connected" : "reconnecting...",
                       chat_model_active_count(m, ccnx_client_now_ms(), ACTIVE_MS));
    snprintf(line + len, sizeof line - (size_t)len, "%s", chat_session_nick(v->s));
    attron(COLOR_PAIR(PAIR_STATUS) | A_BOLD);
    mvhline(0, 0, ' ', COLS);
    screen_put_text(0, 0, line, COLS);
    if (st->malformed + st->unverified + st->hidden > 0) {
        /* What was dropped or hidden, at the right when it fits. */
        char drops[96];
        snprintf(drops, sizeof drops, " ignored %llu, unverified %llu, hidden %llu ",
                 (unsigned long long)st->malformed, (unsigned long long)st->unverified,
                 (unsigned long long)st->hidden);
        int at = COLS - (int)strlen(drops);
        if (at > screen_text_width(line) + 1)
            mvaddstr(0, at, drops);
    }
    attroff(COLOR_PAIR(PAIR_STATUS) | A_BOLD);
}

static void draw_keys(struct view *v)
{
    const char *keys =
        v->utf8 ? " Enter send \u00b7 PgUp/PgDn scroll \u00b7 \u2191/\u2193 history \u00b7 "
                  "/help commands \u00b7 Ctrl-C leave"
                : " Enter send | PgUp/PgDn scroll | Up/Down history | /help commands "
                  "| Ctrl-C leave";
    attron(A_DIM);
    if (v->scroll > 0) {
        char more[64];
        if (v->unseen > 0)
            snprintf(more, sizeof more, " scrolled back, %d new (PgDn) ", v->unseen);
        else
            snprintf(more, sizeof more, " scrolled back (PgDn) ");
        attron(A_REVERSE);
        mvaddstr(LINES - 2, 0, more);
        attroff(A_REVERSE);
        screen_put_text(LINES - 2, (int)strlen(more), keys, COLS);
    } else {
        screen_put_text(LINES - 2, 0, keys, COLS);
    }
    attroff(A_DIM);
}

/* The input line scrolls sideways so the cursor stays visible: when the
 * text before the cursor does not fit, the cursor sits two thirds along. */
static void draw_input(struct view *v)
{
    const int x0 = 2, width = COLS - x0 - 1;
    int before = 0;
    for (size_t i = 0; i < v->in.cursor; i++)
        before += screen_cell_width(v->in.text[i]);
    size_t start = 0;
    if (before >= width) {
        int shown = 0;
        start = v->in.cursor;
        while (start > 0 && shown + screen_cell_width(v->in.text[start - 1]) <= width * 2 / 3)
            shown += screen_cell_width(v->in.text[--start]);
        before = shown;
    }
    mvaddstr(LINES - 1, 0, "> ");
    screen_put_cps(LINES - 1, x0, v->in.text + start, v->in.len - start, COLS);
    move(LINES - 1, x0 + before);
}

static void draw(struct view *v)
{
    erase();
    if (LINES < 5 || COLS < 20) {
        mvaddstr(0, 0, "screen too small");
        refresh();
        return;
    }
    int members = COLS >= MEMBERS_MIN_COLS ? MEMBERS_WIDTH : 0;
    int width = COLS - members - (members ? 1 : 0);
    draw_status(v);
    draw_scrollback(v, 1, LINES - 3, width);
    if (members)
        draw_members(v, 1, LINES - 3, width + 1);
    draw_keys(v);
    draw_input(v);
    refresh();
    v->drawn_generation = chat_model_generation(chat_session_model(v->s));
    v->drawn_ms = ccnx_client_now_ms();
    v->dirty = 0;
}

/* ---- Keys ---- */

#define CTRL(c) ((c)&0x1F)

static void page(struct view *v, int dir)
{
    int rows = LINES - 4 > 1 ? LINES - 4 : 1;
    v->scroll += dir * rows;
    if (v->scroll <= 0) {
        v->scroll = 0;
        v->unseen = 0;
    }
}

/* A function key or control character: 1 when the user leaves. */
/* The line editor's keys (ccnchat(1) lists them): a curses function key
 * or a character, and what it does to the input line. */
struct edit_key {
    int function; /* 1: a curses KEY_* code; 0: a character */
    wint_t key;
    void (*edit)(struct input_line *in);
};

static const struct edit_key edit_keys[] = {
    {1, KEY_LEFT, input_left},           {1, KEY_RIGHT, input_right},
    {1, KEY_HOME, input_home},           {1, KEY_END, input_end},
    {1, KEY_UP, input_history_up},       {1, KEY_DOWN, input_history_down},
    {1, KEY_BACKSPACE, input_backspace}, {1, KEY_DC, input_delete},
    {0, CTRL('A'), input_home},          {0, CTRL('E'), input_end},
    {0, CTRL('B'), input_left},          {0, CTRL('F'), input_right},
    {0, CTRL('U'), input_kill_before},   {0, CTRL('K'), input_kill_after},
    {0, CTRL('W'), input_kill_word},     {0, CTRL('H'), input_backspace},
    {0, 0x7F, input_backspace},
};

/* Enter: the line goes to the chat (a message or a command). 1 when the
 * user leaves. */
static int on_enter(struct view *v)
{
    char *line = input_take(&v->in);
    int leave = line != NULL && chat_app_line(v->s, line);
    free(line);
    v->scroll = 0;
    v->unseen = 0;
    return leave;
}

/* One key. 1 when the user leaves. */
static int on_key(struct view *v, wint_t k, int is_function)
{
    for (size_t i = 0; i < sizeof edit_keys / sizeof edit_keys[0]; i++) {
        if (edit_keys[i].function == is_function && edit_keys[i].key == k) {
            edit_keys[i].edit(&v->in);
            return 0;
        }
    }
    if (is_function) {
        if (k == KEY_PPAGE || k == KEY_NPAGE) {
            page(v, k == KEY_PPAGE ? 1 : -1);
        }
        return k == KEY_ENTER ? on_enter(v) : 0; /* KEY_RESIZE and the rest: a redraw */
    }
    switch (k) {
    case '\n':
    case '\r':
        return on_enter(v);
    case CTRL('C'):
        return 1;
    case CTRL('D'):
        return v->in.len == 0;
    case CTRL('L'):
        clearok(curscr, TRUE);
        return 0;
    default:
        input_insert(&v->in, (uint32_t)k);
        return 0;
    }
}

/* Takes every key waiting. 1 when the user leaves. */
static int read_keys(struct view *v)
{
    wint_t k;
    int rc;
    while ((rc = get_wch(&k)) != ERR) {
        v->dirty = 1;
        if (on_key(v, k, rc == KEY_CODE_YES))
            return 1;
    }
    return 0;
}

/* ---- Running ---- */

static void on_event(void *arg, enum chat_event ev, const struct chat_msg *msg)
{
    struct view *v = arg;
    v->dirty = 1;
    if (ev == CHAT_EV_MESSAGE && v->scroll > 0 && msg != NULL && msg->kind == CHAT_MSG_TEXT)
        v->unseen++;
}

static void screen_start(struct view *v)
{
    set_escdelay(25);
    initscr();
    raw(); /* Ctrl-C is a key here: leaving sends the farewell */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    if (has_colors()) {
        static const short colours[CHAT_COLOURS] = {COLOR_CYAN,    COLOR_GREEN, COLOR_YELLOW,
                                                    COLOR_MAGENTA, COLOR_BLUE,  COLOR_RED};
        start_color();
        use_default_colors();
        for (int i = 0; i < CHAT_COLOURS; i++)
            init_pair((short)(PAIR_NICK + i), colours[i], -1);
        init_pair(PAIR_STATUS, COLOR_WHITE, COLOR_BLUE);
        init_pair(PAIR_NOTICE, COLOR_YELLOW, -1);
        init_pair(PAIR_BAD, COLOR_RED, -1);
        init_pair(PAIR_GOOD, COLOR_GREEN, -1);
    }
    v->utf8 = MB_CUR_MAX > 1;
}

int chat_ui_curses(struct ccnx_client *c, const struct chat_session_opts *o)
{
    static struct view v;
    struct ccnx_buf err;
    ccnx_buf_init(&err);
    memset(&v, 0, sizeof v);
    v.c = c;
    input_init(&v.in);
    if (chat_session_create(c, o, on_event, &v, &v.s, &err) < 0) {
        fprintf(stderr, "ccnchat: %s\n", ccnx_buf_cstr(&err));
        ccnx_buf_free(&err);
        return 1;
    }
    ccnx_buf_free(&err);
    screen_start(&v);
    draw(&v);
    int leave = 0;
    while (!leave && !chat_app_stop) {
        struct pollfd fds[2] = {
            {.fd = STDIN_FILENO, .events = POLLIN},
            {.fd = ccnx_client_fd(c), .events = ccnx_client_poll_events(c)},
        };
        poll(fds, 2, ui_poll_timeout(c));
        leave = read_keys(&v);
        ccnx_client_process(c);
        chat_session_poll(v.s);
        /* Members age out of the pane: redraw now and then even when quiet. */
        if (v.dirty || v.drawn_generation != chat_model_generation(chat_session_model(v.s)) ||
            ccnx_client_now_ms() - v.drawn_ms > 5000)
            draw(&v);
    }
    endwin();
    chat_session_destroy(v.s, 1000);
    input_free(&v.in);
    return 0;
}
