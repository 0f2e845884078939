/* The client's thread (ccnloop.h): poll() over the client's socket and an
 * eventfd that other threads signal when they queue a call. */
#include "ccnloop.h"

#include <glib.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct call {
    ccngst_loop_fn fn;
    void *arg;
    int sync;
    int done;
};

struct ccngst_loop {
    struct ccnx_client *c;
    GThread *thread;
    int wake_fd;
    GMutex lock;
    GCond done_cond;
    GQueue calls; /* struct call *, under lock */
    int quit;     /* under lock */
};

static void wake(struct ccngst_loop *l)
{
    uint64_t one = 1;
    while (write(l->wake_fd, &one, sizeof one) < 0 && errno == EINTR) {
    }
}

/* Runs the queued calls; 1 once asked to quit. */
static int run_calls(struct ccngst_loop *l)
{
    uint64_t n;
    while (read(l->wake_fd, &n, sizeof n) < 0 && errno == EINTR) {
    }
    g_mutex_lock(&l->lock);
    struct call *cl;
    while ((cl = g_queue_pop_head(&l->calls)) != NULL) {
        g_mutex_unlock(&l->lock);
        cl->fn(cl->arg);
        g_mutex_lock(&l->lock);
        if (cl->sync) {
            cl->done = 1;
            g_cond_broadcast(&l->done_cond);
        } else {
            g_free(cl);
        }
    }
    int quit = l->quit;
    g_mutex_unlock(&l->lock);
    return quit;
}

static gpointer loop_main(gpointer arg)
{
    struct ccngst_loop *l = arg;
    for (;;) {
        struct pollfd p[2] = {{l->wake_fd, POLLIN, 0}, {-1, 0, 0}};
        int fd = ccnx_client_fd(l->c);
        if (fd >= 0) {
            p[1] = (struct pollfd){fd, ccnx_client_poll_events(l->c), 0};
        }
        if (poll(p, fd >= 0 ? 2 : 1, ccnx_client_timeout_ms(l->c)) < 0 && errno != EINTR) {
            g_warning("ccnx loop: poll failed: %s", g_strerror(errno));
        }
        if ((p[0].revents & POLLIN) && run_calls(l)) {
            break;
        }
        ccnx_client_process(l->c);
    }
    return NULL;
}

struct ccngst_loop *ccngst_loop_start(const char *thread_name, char **error)
{
    struct ccngst_loop *l = g_new0(struct ccngst_loop, 1);
    int rc = ccnx_client_open(&l->c);
    if (rc != 0) {
        *error = g_strdup(l->c != NULL ? ccnx_client_error(l->c) : "out of memory");
        ccnx_client_destroy(l->c);
        g_free(l);
        return NULL;
    }
    l->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (l->wake_fd < 0) {
        *error = g_strdup_printf("eventfd failed: %s", g_strerror(errno));
        ccnx_client_destroy(l->c);
        g_free(l);
        return NULL;
    }
    g_mutex_init(&l->lock);
    g_cond_init(&l->done_cond);
    g_queue_init(&l->calls);
    l->thread = g_thread_new(thread_name, loop_main, l);
    return l;
}

struct ccnx_client *ccngst_loop_client(struct ccngst_loop *l)
{
    return l->c;
}

void ccngst_loop_call(struct ccngst_loop *l, ccngst_loop_fn fn, void *arg)
{
    struct call *cl = g_new0(struct call, 1);
    cl->fn = fn;
    cl->arg = arg;
    g_mutex_lock(&l->lock);
    g_queue_push_tail(&l->calls, cl);
    g_mutex_unlock(&l->lock);
    wake(l);
}

void ccngst_loop_call_sync(struct ccngst_loop *l, ccngst_loop_fn fn, void *arg)
{
    if (g_thread_self() == l->thread) {
        fn(arg);
        return;
    }
    struct call cl = {fn, arg, 1, 0};
    g_mutex_lock(&l->lock);
    g_queue_push_tail(&l->calls, &cl);
    wake(l);
    while (!cl.done) {
        g_cond_wait(&l->done_cond, &l->lock);
    }
    g_mutex_unlock(&l->lock);
}

static void ask_quit(void *arg)
{
    struct ccngst_loop *l = arg;
    g_mutex_lock(&l->lock);
    l->quit = 1;
    g_mutex_unlock(&l->lock);
}

void ccngst_loop_stop(struct ccngst_loop *l, ccngst_loop_fn last, void *arg)
{
    if (last != NULL) {
        ccngst_loop_call(l, last, arg);
    }
    ccngst_loop_call(l, ask_quit, l);
    g_thread_join(l->thread);
    ccnx_client_destroy(l->c);
    close(l->wake_fd);
    g_queue_clear(&l->calls);
    g_cond_clear(&l->done_cond);
    g_mutex_clear(&l->lock);
    g_free(l);
}
