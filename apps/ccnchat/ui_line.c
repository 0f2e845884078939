/* Line mode: typed lines in, "[nick HH:MM] text" out, for scripts, robots,
 * tests and terminals without curses. The room's history is printed in
 * order once the walk back through it ends; later messages as they come. */
#include "ui.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chat_app.h"

#define LINE_MAX_BYTES 4096

struct line_ui {
    struct chat_session *s;
    int printed_history;
};

static void print_msg(struct chat_model *m, const struct chat_msg *msg)
{
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    if (chat_app_format(m, msg, &b) == 0)
        printf("%s\n", ccnx_buf_cstr(&b));
    ccnx_buf_free(&b);
    fflush(stdout);
}

static void on_event(void *arg, enum chat_event ev, const struct chat_msg *msg)
{
    struct line_ui *u = arg;
    if (u->s == NULL)
        return; /* still joining: printed with the history */
    struct chat_model *m = chat_session_model(u->s);
    if (ev == CHAT_EV_HISTORY_DONE && !u->printed_history) {
        u->printed_history = 1;
        for (size_t i = 0; i < chat_model_count(m); i++)
            print_msg(m, chat_model_msg(m, i));
    } else if (ev == CHAT_EV_MESSAGE && u->printed_history) {
        print_msg(m, msg);
    }
}

/* Takes what stdin has: each whole line is carried out. 1 to leave. */
static int read_input(struct chat_session *s, char *buf, size_t *have)
{
    ssize_t r = read(STDIN_FILENO, buf + *have, LINE_MAX_BYTES - *have);
    if (r < 0)
        return errno != EINTR && errno != EAGAIN;
    if (r == 0)
        return 1; /* end of input: leave */
    *have += (size_t)r;
    for (;;) {
        char *nl = memchr(buf, '\n', *have);
        if (nl == NULL && *have < LINE_MAX_BYTES)
            return 0;
        size_t n = nl != NULL ? (size_t)(nl - buf) : *have;
        char line[LINE_MAX_BYTES + 1];
        memcpy(line, buf, n);
        line[n] = '\0';
        size_t used = nl != NULL ? n + 1 : n;
        memmove(buf, buf + used, *have - used);
        *have -= used;
        if (chat_app_line(s, line))
            return 1;
    }
}

int chat_ui_line(struct ccnx_client *c, const struct chat_session_opts *o)
{
    struct line_ui u = {0};
    struct ccnx_buf err;
    ccnx_buf_init(&err);
    struct chat_session *s;
    if (chat_session_create(c, o, on_event, &u, &s, &err) < 0) {
        fprintf(stderr, "ccnchat: %s\n", ccnx_buf_cstr(&err));
        ccnx_buf_free(&err);
        return 1;
    }
    ccnx_buf_free(&err);
    u.s = s;
    if (chat_session_history_done(s))
        on_event(&u, CHAT_EV_HISTORY_DONE, NULL);
    char buf[LINE_MAX_BYTES];
    size_t have = 0;
    int leave = 0;
    while (!leave && !chat_app_stop) {
        struct pollfd fds[2] = {
            {.fd = STDIN_FILENO, .events = POLLIN},
            {.fd = ccnx_client_fd(c), .events = ccnx_client_poll_events(c)},
        };
        int rc = poll(fds, 2, ui_poll_timeout(c));
        if (rc > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            leave = read_input(s, buf, &have);
        ccnx_client_process(c);
        chat_session_poll(s);
    }
    chat_session_destroy(s, 1000);
    return 0;
}
