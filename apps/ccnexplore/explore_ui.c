/* The full-screen view's state, keys, actions on the selected node and
 * loop (its drawing is explore_draw.c). Redrawn when something changed;
 * the network is served between keys, so the screen never waits for a
 * slow prefix. */
#include "explore_ui_internal.h"
#include "screen/screen_text.h"

#include <ccnx/uri.h>
#include <ccnx/verifier.h>
#include <ccnx/fetch.h>

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "explore_actions.h"
#include "explore_details.h"
#include "explore_label.h"

static volatile sig_atomic_t quit_signal;

static void on_signal(int sig)
{
    quit_signal = sig;
}

static void changed(void *arg)
{
    ((struct ui *)arg)->dirty = 1;
}

static void message(void *arg, const char *text)
{
    struct ui *u = arg;
    snprintf(u->message, sizeof u->message, "%s", text);
    u->message_bad = 1;
    u->dirty = 1;
}

static void note(struct ui *u, int bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(struct ui *u, int bad, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->message, sizeof u->message, fmt, ap);
    va_end(ap);
    u->message_bad = bad;
    u->dirty = 1;
}

/* ---- Actions on the selected node ---- */

static void open_node(struct ui *u, struct ex_node *n)
{
    n->expanded = 1;
    if (!ex_disco_explored(n))
        ex_disco_explore(u->d, n); /* nothing new while it is exploring */
}

static void select_row(struct ui *u, size_t i)
{
    if (u->rows.n == 0)
        return;
    i = i >= u->rows.n ? u->rows.n - 1 : i;
    u->sel = u->rows.v[i].node;
    /* What the details say (versions, size) needs the children too. */
    if (!ex_disco_explored(u->sel) && u->sel->kind != EX_VERSION)
        ex_disco_explore(u->d, u->sel);
    ex_disco_probe(u->d, u->sel, 0);
    u->preview = 0;
}

static void start_preview(struct ui *u)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ex_node_name(u->t, u->sel, &name) == 0 && ex_preview_start(&u->a, &name) == 0) {
        u->preview = 1;
        u->preview_scroll = 0;
    } else {
        note(u, 1, "cannot start a preview: %s", ccnx_client_error(u->c));
    }
    ccnx_name_free(&name);
}

/* A file name for what the node names: its own component, or its parent's
 * for a version, URI-escaped so that it is a safe path. */
static void default_file(const struct ex_node *n, char *out, size_t size)
{
    while (n->parent != NULL && (n->kind == EX_VERSION || n->kind == EX_SEGMENT))
        n = n->parent;
    struct ccnx_buf name = CCNX_BUF_INIT;
    if (n->parent == NULL)
        ccnx_buf_append_str(&name, "content");
    else
        ccnx_uri_append_comp(&name, n->comp, n->n);
    const char *text = ccnx_buf_cstr(&name);
    snprintf(out, size, "%s%s", text[0] == '.' ? "_" : "", text);
    ccnx_buf_free(&name);
}

static void finish_fetch(struct ui *u)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    struct ex_node *holder = u->sel->versions ? ex_node_newest_version(u->sel) : u->sel;
    int64_t total = holder != NULL ? holder->size : -1;
    int r = ex_node_name(u->t, u->sel, &name);
    r = r == 0 ? ex_fetch_start(&u->a, &name, u->input, total) : r;
    if (r != 0)
        note(u, 1, "cannot fetch to %s: %s", u->input,
             errno == EEXIST ? "the file exists (choose another name)" : strerror(errno));
    ccnx_name_free(&name);
}

static void finish_put(struct ui *u)
{
    struct ccnx_buf uri = CCNX_BUF_INIT, why = CCNX_BUF_INIT;
    char copy[INPUT_MAX];
    snprintf(copy, sizeof copy, "%s", u->input);
    ex_node_uri(u->t, u->sel, &uri);
    if (uri.len > 0 && uri.data[uri.len - 1] != '/')
        ccnx_buf_append_byte(&uri, '/');
    ccnx_uri_append_comp(&uri, (const uint8_t *)basename(copy), strlen(basename(copy)));
    if (ex_put_start(&u->a, ccnx_buf_cstr(&uri), u->input, &why) == 0) {
        u->put_under = u->sel;
        note(u, 0, "putting %s as %s", u->input, ccnx_buf_cstr(&uri));
    } else {
        note(u, 1, "%s", ccnx_buf_cstr(&why));
    }
    ccnx_buf_free(&uri);
    ccnx_buf_free(&why);
}

static void start_prompt(struct ui *u, enum prompt p)
{
    u->prompt = p;
    u->input[0] = '\0';
    if (p == PROMPT_FILTER)
        snprintf(u->input, sizeof u->input, "%s", u->filter);
    else if (p == PROMPT_FETCH)
        default_file(u->sel, u->input, sizeof u->input);
}

static void prompt_key(struct ui *u, wint_t ch, int is_key)
{
    size_t len = strlen(u->input);
    if (!is_key && ch == 27) {
        if (u->prompt == PROMPT_FILTER)
            u->filter[0] = '\0';
        u->prompt = PROMPT_NONE;
    } else if ((!is_key && (ch == '\n' || ch == '\r')) || (is_key && ch == KEY_ENTER)) {
        enum prompt p = u->prompt;
        u->prompt = PROMPT_NONE;
        if (p == PROMPT_FETCH && len > 0)
            finish_fetch(u);
        else if (p == PROMPT_PUT && len > 0)
            finish_put(u);
    } else if ((is_key && ch == KEY_BACKSPACE) || (!is_key && (ch == 127 || ch == 8))) {
        while (len > 0 && (u->input[len - 1] & 0xC0) == 0x80)
            len--; /* a whole UTF-8 character */
        if (len > 0)
            u->input[len - 1] = '\0';
    } else if (!is_key && ch == 21) { /* Ctrl-U */
        u->input[0] = '\0';
    } else if (!is_key && ch >= 0x20) {
        char mb[MB_LEN_MAX + 1];
        int n = wctomb(mb, (wchar_t)ch);
        if (n > 0 && len + (size_t)n < sizeof u->input) {
            memcpy(u->input + len, mb, (size_t)n);
            u->input[len + (size_t)n] = '\0';
        }
    }
    if (u->prompt == PROMPT_FILTER)
        snprintf(u->filter, sizeof u->filter, "%s", u->input);
    ui_rebuild(u);
}

static void copy_uri(struct ui *u)
{
    struct ccnx_buf uri = CCNX_BUF_INIT;
    ex_node_uri(u->t, u->sel, &uri);
    free(u->copied);
    u->copied = strdup(ccnx_buf_cstr(&uri));
    note(u, 0, "copied %s (printed when ccnexplore ends)", ccnx_buf_cstr(&uri));
    ccnx_buf_free(&uri);
}

static void play(struct ui *u)
{
    struct ccnx_buf uri = CCNX_BUF_INIT, why = CCNX_BUF_INIT;
    ex_node_uri(u->t, u->sel, &uri);
    if (ex_play_start(&u->a, ccnx_buf_cstr(&uri), &why) == 0)
        note(u, 0, "playing %s with gst-launch-1.0 playbin", ccnx_buf_cstr(&uri));
    else
        note(u, 1, "%s", ccnx_buf_cstr(&why));
    ccnx_buf_free(&uri);
    ccnx_buf_free(&why);
}

static void refresh_node(struct ui *u)
{
    ex_disco_refresh(u->d, u->sel);
    ex_disco_probe(u->d, u->sel, 1);
    note(u, 0, "refreshing %s", u->sel->label);
}

/* ---- Keys ---- */

static void move_key(struct ui *u, wint_t ch)
{
    size_t i = ui_sel_index(u),
           page = (size_t)(ui_layout().tree_h > 1 ? ui_layout().tree_h - 1 : 1);
    switch (ch) {
    case KEY_UP:
        select_row(u, i > 0 ? i - 1 : 0);
        break;
    case KEY_DOWN:
        select_row(u, i + 1);
        break;
    case KEY_PPAGE:
        select_row(u, i > page ? i - page : 0);
        break;
    case KEY_NPAGE:
        select_row(u, i + page);
        break;
    case KEY_HOME:
        select_row(u, 0);
        break;
    case KEY_END:
        select_row(u, u->rows.n - 1);
        break;
    case KEY_RIGHT:
    case KEY_ENTER:
        open_node(u, u->sel);
        break;
    case KEY_LEFT:
        if (u->sel->expanded && u->sel->nkids > u->sel->segment_kids)
            u->sel->expanded = 0;
        else if (u->sel->parent != NULL)
            u->sel = u->sel->parent;
        break;
    }
}

static void preview_key(struct ui *u, wint_t ch, int is_key)
{
    int page = ui_layout().side_h - 2;
    if (!is_key && (ch == 27 || ch == 'p' || ch == 'q'))
        u->preview = 0;
    else if (is_key && ch == KEY_DOWN)
        u->preview_scroll++;
    else if (is_key && ch == KEY_UP && u->preview_scroll > 0)
        u->preview_scroll--;
    else if (is_key && ch == KEY_NPAGE)
        u->preview_scroll += page;
    else if (is_key && ch == KEY_PPAGE)
        u->preview_scroll = u->preview_scroll > page ? u->preview_scroll - page : 0;
}

static void mouse_key(struct ui *u)
{
    MEVENT ev;
    struct layout l = ui_layout();
    if (getmouse(&ev) != OK || ev.y < l.tree_y || ev.y >= l.tree_y + l.tree_h || ev.x >= l.tree_w)
        return;
    size_t i = u->top + (size_t)(ev.y - l.tree_y);
    if (i >= u->rows.n)
        return;
    select_row(u, i);
    if (ev.bstate & BUTTON1_DOUBLE_CLICKED) {
        if (u->sel->expanded)
            u->sel->expanded = 0;
        else
            open_node(u, u->sel);
    }
}

static int command_key(struct ui *u, wint_t ch)
{
    switch (ch) {
    case 'q':
        return 1;
    case 'k':
        move_key(u, KEY_UP);
        break;
    case 'j':
        move_key(u, KEY_DOWN);
        break;
    case '\n':
    case '\r':
    case ' ':
        if (u->sel->expanded && (ch == ' ' || u->sel->nkids > u->sel->segment_kids))
            u->sel->expanded = 0;
        else
            open_node(u, u->sel);
        break;
    case 'p':
        start_preview(u);
        break;
    case 'f':
        start_prompt(u, PROMPT_FETCH);
        break;
    case 'u':
        start_prompt(u, PROMPT_PUT);
        break;
    case '/':
        start_prompt(u, PROMPT_FILTER);
        break;
    case 'r':
        refresh_node(u);
        break;
    case 'g':
        play(u);
        break;
    case 'c':
        copy_uri(u);
        break;
    case '?':
        u->help = 1;
        break;
    case 27:
        u->filter[0] = '\0';
        break;
    }
    return 0;
}

/* Handles every key waiting; 1 when the user quits. */
static int keys(struct ui *u)
{
    wint_t ch;
    int kind;
    while ((kind = get_wch(&ch)) != ERR) {
        int is_key = kind == KEY_CODE_YES;
        u->dirty = 1;
        if (is_key && ch == KEY_RESIZE)
            continue;
        if (u->help) {
            u->help = 0;
        } else if (u->prompt != PROMPT_NONE) {
            prompt_key(u, ch, is_key);
        } else if (u->preview) {
            preview_key(u, ch, is_key);
        } else if (is_key && ch == KEY_MOUSE) {
            mouse_key(u);
        } else if (is_key && ch == KEY_F(1)) {
            u->help = 1;
        } else if (is_key) {
            move_key(u, ch);
        } else if (command_key(u, ch)) {
            return 1;
        }
        ui_rebuild(u);
    }
    return 0;
}

/* ---- Children and transfers ---- */

/* The last line that is not empty of a child's output, made inert. */
static void ex_last_line(struct ccnx_buf *out, struct ccnx_buf *line)
{
    size_t end = out->len;
    while (end > 0 && out->data[end - 1] == '\n')
        end--;
    size_t start = end;
    while (start > 0 && out->data[start - 1] != '\n')
        start--;
    ex_label_inert_text(line, out->data + start, end - start, 0);
}

static void after_children(struct ui *u)
{
    struct ex_actions *a = &u->a;
    if (!ex_actions_poll(a))
        return;
    if (a->put.pid == 0 && a->put.status >= 0 && u->put_under != NULL) {
        if (a->put.status == 0) {
            note(u, 0, "stored; refreshing %s", u->put_under->label);
            ex_disco_refresh(u->d, u->put_under);
            u->put_under->expanded = 1;
        } else {
            struct ccnx_buf last = CCNX_BUF_INIT;
            ex_last_line(&a->put.out, &last);
            note(u, 1, "put failed (exit %d): %s", a->put.status, ccnx_buf_cstr(&last));
            ccnx_buf_free(&last);
        }
        u->put_under = NULL;
    }
    if (a->play.pid == 0 && a->play.status >= 0) {
        if (a->play.status > 0) {
            struct ccnx_buf last = CCNX_BUF_INIT;
            ex_last_line(&a->play.out, &last);
            note(u, 1, "the player ended with status %d: %s", a->play.status, ccnx_buf_cstr(&last));
            ccnx_buf_free(&last);
        }
        a->play.status = -1; /* reported */
    }
}

static void after_fetch(struct ui *u)
{
    struct ex_transfer *t = &u->a.fetch;
    if (t->fetch == NULL || t->done == 0)
        return;
    double s = (double)(ccnx_client_now_ms() - t->started_ms) / 1000;
    struct ccnx_buf size = CCNX_BUF_INIT;
    ex_label_size(&size, t->bytes);
    if (t->done > 0)
        note(u, 0, "fetched %s to %s in %.1f s", ccnx_buf_cstr(&size), t->path, s);
    else
        note(u, 1, "fetch to %s failed after %s", t->path, ccnx_buf_cstr(&size));
    ccnx_buf_free(&size);
    ccnx_fetch_destroy(t->fetch);
    t->fetch = NULL;
    fclose(t->out);
    t->out = NULL;
}

/* ---- The loop ---- */

static void screen_start(struct ui *u)
{
    initscr();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(50);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(PAIR_BAR, COLOR_BLACK, COLOR_CYAN);
        init_pair(PAIR_DIM, COLOR_CYAN, -1);
        init_pair(PAIR_BAD, COLOR_RED, -1);
        init_pair(PAIR_GOOD, COLOR_GREEN, -1);
        init_pair(PAIR_SEL, -1, -1);
    }
    if (u->mouse)
        mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED, NULL);
    u->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static int loop(struct ui *u)
{
    while (!quit_signal) {
        if (u->dirty) {
            ui_rebuild(u);
            ui_draw(u);
        }
        struct pollfd p[4];
        int fds[2];
        nfds_t n = 0;
        p[n++] = (struct pollfd){STDIN_FILENO, POLLIN, 0};
        if (ccnx_client_fd(u->c) >= 0)
            p[n++] = (struct pollfd){ccnx_client_fd(u->c), ccnx_client_poll_events(u->c), 0};
        size_t k = ex_actions_fds(&u->a, fds);
        for (size_t i = 0; i < k; i++)
            p[n++] = (struct pollfd){fds[i], POLLIN, 0};
        int timeout = ccnx_client_timeout_ms(u->c);
        timeout = timeout < 0 || timeout > 250 ? 250 : timeout;
        if (poll(p, n, timeout) < 0 && errno != EINTR)
            return 1;
        if (keys(u))
            return 0;
        ccnx_client_process(u->c);
        after_children(u);
        after_fetch(u);
        if (u->a.fetch.fetch != NULL || u->a.put.pid > 0)
            u->dirty = 1; /* progress */
        if (ccnx_client_connected(u->c) != u->connected) {
            u->connected = ccnx_client_connected(u->c);
            u->dirty = 1;
        }
    }
    return 0;
}

int ex_ui_run(struct ccnx_client *c, struct ex_tree *t, const struct ex_disco_opts *o, int mouse)
{
    struct ui u;
    memset(&u, 0, sizeof u);
    u.mouse = mouse;
    u.c = c;
    u.t = t;
    u.dirty = 1;
    struct ex_disco_events ev = {changed, message, &u};
    if (ex_disco_create(c, t, o, &ev, &u.d) != 0 || ccnx_verifier_create(c, &u.v) != 0) {
        fprintf(stderr, "ccnexplore: out of memory\n");
        ex_disco_destroy(u.d);
        return 1;
    }
    ccnx_verifier_set_enabled(u.v, o->verify);
    ex_actions_init(&u.a, c, u.v);
    u.a.changed = changed;
    u.a.arg = &u;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    screen_start(&u);
    u.sel = &t->root;
    ex_disco_explore(u.d, &t->root);
    ex_disco_probe(u.d, &t->root, 0);
    note(&u, 0, "exploring %s", t->root.label);
    int rc = loop(&u);
    endwin();
    if (u.copied != NULL)
        printf("%s\n", u.copied);
    free(u.copied);
    ex_actions_free(&u.a);
    ex_disco_destroy(u.d);
    ccnx_verifier_destroy(u.v);
    ex_rows_free(&u.rows);
    return rc;
}
