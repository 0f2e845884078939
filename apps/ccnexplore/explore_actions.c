/* Preview, fetch, put and play (see explore_actions.h). */
#define _GNU_SOURCE /* pipe2 */
#include "explore_actions.h"

#include <ccnx/error.h>
#include <ccnx/naming.h>
#include <ccnx/utf8.h>
#include <ccnx/fetch.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explore_label.h"
#include "tool.h"

#define CHILD_OUTPUT_MAX 4096 /* bytes of a child's output kept */

static void changed(struct ex_actions *a)
{
    if (a->changed != NULL)
        a->changed(a->arg);
}

static void child_init(struct ex_child *ch, const char *what)
{
    ch->pid = 0;
    ch->fd = -1;
    ch->status = 0;
    snprintf(ch->what, sizeof ch->what, "%s", what);
    ccnx_buf_init(&ch->out);
}

void ex_actions_init(struct ex_actions *a, struct ccnx_client *c, struct ccnx_verifier *v)
{
    memset(a, 0, sizeof *a);
    a->c = c;
    a->v = v;
    ccnx_buf_init(&a->preview.buf);
    ccnx_buf_init(&a->fetch.buf);
    a->preview.owner = a->fetch.owner = a;
    child_init(&a->put, "put");
    child_init(&a->play, "player");
    tool_sibling("ccnputfile", a->ccnputfile, sizeof a->ccnputfile);
}

static void transfer_stop(struct ex_transfer *t)
{
    ccnx_fetch_destroy(t->fetch);
    t->fetch = NULL;
    if (t->out != NULL)
        fclose(t->out);
    t->out = NULL;
}

static void child_stop(struct ex_child *ch)
{
    if (ch->pid > 0) {
        kill(ch->pid, SIGTERM);
        waitpid(ch->pid, NULL, 0);
    }
    if (ch->fd >= 0)
        close(ch->fd);
    ch->pid = 0;
    ch->fd = -1;
    ccnx_buf_free(&ch->out);
}

void ex_actions_free(struct ex_actions *a)
{
    transfer_stop(&a->preview);
    transfer_stop(&a->fetch);
    ccnx_buf_free(&a->preview.buf);
    ccnx_buf_free(&a->fetch.buf);
    free(a->preview.path);
    free(a->fetch.path);
    child_stop(&a->put);
    child_stop(&a->play);
}

/* ---- Transfers ---- */

static void on_data(void *arg, uint64_t segment, const uint8_t *p, size_t n)
{
    (void)segment;
    struct ex_transfer *t = arg;
    if (t->out != NULL) {
        if (fwrite(p, 1, n, t->out) != n)
            t->done = -1;
    } else {
        size_t room = EX_PREVIEW_MAX - t->buf.len;
        ccnx_buf_append(&t->buf, p, n < room ? n : room);
        if (t->buf.len == EX_PREVIEW_MAX) {
            ccnx_fetch_pause(t->fetch); /* enough to show */
            t->done = 1;
        }
    }
    t->bytes += n;
    changed(t->owner);
}

static void on_done(void *arg, int result, const char *error)
{
    struct ex_transfer *t = arg;
    (void)error;
    if (t->out != NULL && fflush(t->out) != 0)
        result = CCNX_E_IO;
    if (t->done == 0)
        t->done = result == 0 ? 1 : -1;
    changed(t->owner);
}

static int transfer_start(struct ex_actions *a, struct ex_transfer *t, const struct ccnx_name *name)
{
    struct ccnx_fetch_params p;
    ccnx_fetch_params_init(&p);
    p.name = name;
    p.resolve = 1;
    p.verifier = a->v;
    p.on_data = on_data;
    p.on_done = on_done;
    p.arg = t;
    t->bytes = 0;
    t->done = 0;
    t->started_ms = ccnx_client_now_ms();
    int r = ccnx_fetch_start(a->c, &p, &t->fetch);
    if (r != 0) {
        ccnx_fetch_destroy(t->fetch);
        t->fetch = NULL;
    }
    changed(a);
    return r;
}

int ex_preview_start(struct ex_actions *a, const struct ccnx_name *name)
{
    transfer_stop(&a->preview);
    ccnx_buf_reset(&a->preview.buf);
    return transfer_start(a, &a->preview, name);
}

int ex_fetch_start(struct ex_actions *a, const struct ccnx_name *name, const char *path,
                   int64_t total)
{
    if (a->fetch.fetch != NULL && a->fetch.done == 0)
        return CCNX_E_INVAL;
    transfer_stop(&a->fetch);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return CCNX_E_IO; /* errno says why (EEXIST: the file is there) */
    a->fetch.out = fdopen(fd, "wb");
    if (a->fetch.out == NULL) {
        close(fd);
        return CCNX_E_IO;
    }
    free(a->fetch.path);
    a->fetch.path = strdup(path);
    a->fetch.total = total;
    return transfer_start(a, &a->fetch, name);
}

int ex_transfer_progress(const struct ex_transfer *t, struct ccnx_buf *out)
{
    double s = (double)(ccnx_client_now_ms() - t->started_ms) / 1000;
    if (t->total > 0) {
        int filled = (int)(20 * (double)t->bytes / (double)t->total);
        filled = filled > 20 ? 20 : filled;
        ccnx_buf_append_str(out, "[");
        for (int i = 0; i < 20; i++)
            ccnx_buf_append_byte(out, i < filled ? '#' : '.');
        ccnx_buf_printf(out, "] %3d%% ", (int)(100 * (double)t->bytes / (double)t->total));
    }
    ex_label_size(out, t->bytes);
    if (t->total > 0) {
        ccnx_buf_append_str(out, " of ");
        ex_label_size(out, (uint64_t)t->total);
    }
    if (s > 0.05) {
        ccnx_buf_append_str(out, ", ");
        ex_label_size(out, (uint64_t)((double)t->bytes / s));
        ccnx_buf_append_str(out, "/s");
    }
    return ccnx_buf_status(out);
}

/* ---- Preview formats ---- */

int ex_preview_is_text(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = (size_t)ccnx_utf8_decode(p + i, n - i, &cp);
        if (len == 0)
            return n - i < 4 && p[i] >= 0xC0; /* a character cut by the preview's limit */
        if ((cp < 0x20 && cp != '\n' && cp != '\t' && cp != '\r') || cp == 0x7F ||
            (cp >= 0x80 && cp <= 0x9F))
            return 0;
        i += len;
    }
    return 1;
}

int ex_preview_hex(struct ccnx_buf *out, const uint8_t *p, size_t n)
{
    for (size_t off = 0; off < n; off += 16) {
        ccnx_buf_printf(out, "%08zx ", off);
        for (size_t i = 0; i < 16; i++) {
            if (off + i < n)
                ccnx_buf_printf(out, " %02x", p[off + i]);
            else
                ccnx_buf_append_str(out, "   ");
        }
        ccnx_buf_append_str(out, "  |");
        for (size_t i = 0; i < 16 && off + i < n; i++) {
            uint8_t b = p[off + i];
            ccnx_buf_append_byte(out, b >= 0x20 && b < 0x7F ? b : '.');
        }
        ccnx_buf_append_str(out, "|\n");
    }
    return ccnx_buf_status(out);
}

/* ---- Children ---- */

static int spawn(struct ex_child *ch, char *const argv[], struct ccnx_buf *why)
{
    if (ch->pid > 0) {
        ccnx_buf_printf(why, "the %s is still running", ch->what);
        return CCNX_E_INVAL;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        ccnx_buf_printf(why, "cannot start %s: %s", argv[0], strerror(errno));
        return CCNX_E_IO;
    }
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        dup2(null, STDIN_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        execvp(argv[0], argv);
        dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        ccnx_buf_printf(why, "cannot start %s: %s", argv[0], strerror(errno));
        return CCNX_E_IO;
    }
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    ccnx_buf_reset(&ch->out);
    ch->pid = pid;
    ch->fd = fds[0];
    ch->status = -1;
    return 0;
}

int ex_put_start(struct ex_actions *a, const char *uri, const char *path, struct ccnx_buf *why)
{
    if (access(path, R_OK) != 0) {
        ccnx_buf_printf(why, "cannot read %s: %s", path, strerror(errno));
        return CCNX_E_IO;
    }
    char *argv[] = {a->ccnputfile, (char *)uri, (char *)path, NULL};
    return spawn(&a->put, argv, why);
}

/* 1 when `prog` is an executable file in PATH. */
static int in_path(const char *prog)
{
    const char *path = getenv("PATH");
    struct ccnx_buf one = CCNX_BUF_INIT;
    int found = 0;
    while (path != NULL && *path != '\0' && !found) {
        const char *end = strchr(path, ':');
        size_t n = end != NULL ? (size_t)(end - path) : strlen(path);
        ccnx_buf_reset(&one);
        ccnx_buf_append(&one, path, n);
        ccnx_buf_printf(&one, "/%s", prog);
        found = access(ccnx_buf_cstr(&one), X_OK) == 0;
        path = end != NULL ? end + 1 : NULL;
    }
    ccnx_buf_free(&one);
    return found;
}

int ex_play_start(struct ex_actions *a, const char *uri, struct ccnx_buf *why)
{
    if (!in_path("gst-launch-1.0")) {
        ccnx_buf_append_str(why, "gst-launch-1.0 not found: install gstreamer1.0-tools to play");
        return CCNX_E_NOTFOUND;
    }
    struct ccnx_buf arg = CCNX_BUF_INIT;
    ccnx_buf_printf(&arg, "uri=%s", uri);
    char *argv[] = {"gst-launch-1.0", "-q", "playbin", (char *)ccnx_buf_cstr(&arg), NULL};
    int r = spawn(&a->play, argv, why);
    ccnx_buf_free(&arg);
    return r;
}

size_t ex_actions_fds(const struct ex_actions *a, int *fds)
{
    size_t n = 0;
    if (a->put.fd >= 0)
        fds[n++] = a->put.fd;
    if (a->play.fd >= 0)
        fds[n++] = a->play.fd;
    return n;
}

/* Reads what the child wrote; keeps the last CHILD_OUTPUT_MAX bytes. */
static void child_read(struct ex_child *ch)
{
    uint8_t buf[1024];
    ssize_t n;
    while (ch->fd >= 0 && (n = read(ch->fd, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN)
                n = 0;
            else
                return;
        }
        if (n == 0)
            break;
        ccnx_buf_append(&ch->out, buf, (size_t)n);
        if (ch->out.len > CHILD_OUTPUT_MAX) {
            size_t drop = ch->out.len - CHILD_OUTPUT_MAX;
            memmove(ch->out.data, ch->out.data + drop, CHILD_OUTPUT_MAX);
            ch->out.len = CHILD_OUTPUT_MAX;
        }
    }
    close(ch->fd); /* the end of its output */
    ch->fd = -1;
}

static int child_poll(struct ex_child *ch)
{
    if (ch->pid <= 0)
        return 0;
    child_read(ch);
    int status;
    if (ch->fd >= 0 || waitpid(ch->pid, &status, WNOHANG) != ch->pid)
        return 0;
    ch->pid = 0;
    ch->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return 1;
}

int ex_actions_poll(struct ex_actions *a)
{
    int ended = child_poll(&a->put);
    ended |= child_poll(&a->play);
    if (ended)
        changed(a);
    return ended;
}
