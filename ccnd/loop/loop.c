/* Event loop: epoll for fds, a binary min-heap for timers, signalfd for
 * signals. See loop.h. */
#define _GNU_SOURCE
#include "loop/loop.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <ccnx/error.h>

#define LOOP_MAX_EVENTS 64

struct loop_watch {
    loop_io_cb cb;
    void *arg;
    unsigned events;
    uint32_t gen; /* distinguishes a re-added fd from a stale event */
    int active;
};

struct loop {
    int epfd;
    int stopped;
    uint64_t now;
    struct loop_watch *watch; /* indexed by fd */
    size_t nwatch;
    struct ccnx_heap timers;
    /* signals */
    int sigfd;
    loop_signal_cb sigcb;
    void *sigarg;
    sigset_t oldmask;
    struct sigaction oldpipe;
};

static uint64_t clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

struct loop *loop_create(void)
{
    struct loop *loop = calloc(1, sizeof(*loop));
    if (loop == NULL) {
        return NULL;
    }
    loop->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (loop->epfd < 0) {
        free(loop);
        return NULL;
    }
    loop->sigfd = -1;
    loop->now = clock_us();
    ccnx_heap_init(&loop->timers);
    return loop;
}

void loop_destroy(struct loop *loop)
{
    if (loop == NULL) {
        return;
    }
    if (loop->sigfd >= 0) {
        /* Drain what is pending so unblocking does not deliver it with the
         * default (fatal) disposition. */
        struct signalfd_siginfo si;
        while (read(loop->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        }
        close(loop->sigfd);
        sigprocmask(SIG_SETMASK, &loop->oldmask, NULL);
        sigaction(SIGPIPE, &loop->oldpipe, NULL);
    }
    for (size_t i = 0; i < loop->timers.n; i++) {
        ccnx_heap_node_init(loop->timers.v[i]); /* the caller's timers are just forgotten */
    }
    close(loop->epfd);
    free(loop->watch);
    ccnx_heap_free(&loop->timers);
    free(loop);
}

uint64_t loop_now(const struct loop *loop)
{
    return loop->now;
}

uint64_t loop_update_time(struct loop *loop)
{
    loop->now = clock_us();
    return loop->now;
}

/* ---- fd watchers ---- */

static uint32_t epoll_mask(unsigned events)
{
    uint32_t m = 0;
    if (events & LOOP_READ) {
        m |= EPOLLIN | EPOLLRDHUP;
    }
    if (events & LOOP_WRITE) {
        m |= EPOLLOUT;
    }
    return m;
}

static int watch_ctl(struct loop *loop, int op, int fd)
{
    struct loop_watch *w = &loop->watch[fd];
    struct epoll_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.events = epoll_mask(w->events);
    ev.data.u64 = ((uint64_t)w->gen << 32) | (uint32_t)fd;
    if (epoll_ctl(loop->epfd, op, fd, &ev) != 0) {
        return CCNX_E_IO;
    }
    return 0;
}

int loop_io_add(struct loop *loop, int fd, unsigned events, loop_io_cb cb, void *arg)
{
    if (fd < 0 || cb == NULL) {
        return CCNX_E_INVAL;
    }
    if ((size_t)fd >= loop->nwatch) {
        size_t n = loop->nwatch ? loop->nwatch : 16;
        while (n <= (size_t)fd) {
            n *= 2;
        }
        struct loop_watch *w = realloc(loop->watch, n * sizeof(*w));
        if (w == NULL) {
            return CCNX_E_NOMEM;
        }
        memset(w + loop->nwatch, 0, (n - loop->nwatch) * sizeof(*w));
        loop->watch = w;
        loop->nwatch = n;
    }
    struct loop_watch *w = &loop->watch[fd];
    if (w->active) {
        return CCNX_E_INVAL;
    }
    w->cb = cb;
    w->arg = arg;
    w->events = events;
    w->gen++;
    int res = watch_ctl(loop, EPOLL_CTL_ADD, fd);
    if (res == 0) {
        w->active = 1;
    }
    return res;
}

static struct loop_watch *watch_get(struct loop *loop, int fd)
{
    if (fd < 0 || (size_t)fd >= loop->nwatch || !loop->watch[fd].active) {
        return NULL;
    }
    return &loop->watch[fd];
}

int loop_io_set(struct loop *loop, int fd, unsigned events)
{
    struct loop_watch *w = watch_get(loop, fd);
    if (w == NULL) {
        return CCNX_E_NOTFOUND;
    }
    if (w->events == events) {
        return 0;
    }
    w->events = events;
    return watch_ctl(loop, EPOLL_CTL_MOD, fd);
}

int loop_io_remove(struct loop *loop, int fd)
{
    struct loop_watch *w = watch_get(loop, fd);
    if (w == NULL) {
        return CCNX_E_NOTFOUND;
    }
    w->active = 0;
    w->gen++;
    /* Failure only means the fd was already closed, which removes it too. */
    epoll_ctl(loop->epfd, EPOLL_CTL_DEL, fd, NULL);
    return 0;
}

/* ---- timers: on the core's deadline heap ---- */

#define TIMER_OF(x) ((struct loop_timer *)((char *)(x)-offsetof(struct loop_timer, node)))

void loop_timer_init(struct loop_timer *t, loop_timer_cb cb, void *arg)
{
    memset(t, 0, sizeof(*t));
    t->cb = cb;
    t->arg = arg;
    ccnx_heap_node_init(&t->node);
}

int loop_timer_active(const struct loop_timer *t)
{
    return ccnx_heap_contains(&t->node);
}

void loop_timer_stop(struct loop *loop, struct loop_timer *t)
{
    ccnx_heap_remove(&loop->timers, &t->node);
}

int loop_timer_start(struct loop *loop, struct loop_timer *t, uint64_t delay_us, uint64_t period_us)
{
    if (t->cb == NULL) {
        return CCNX_E_INVAL;
    }
    t->period = period_us;
    return ccnx_heap_set(&loop->timers, &t->node, loop->now + delay_us);
}

/* Fires the timers due now. Timers started by a callback with zero delay
 * wait for the next iteration, so a periodic 0 cannot starve the fds. */
static int run_timers(struct loop *loop)
{
    int ran = 0;
    uint64_t limit = loop->timers.sets;
    struct ccnx_heap_node *x;
    while ((x = ccnx_heap_top(&loop->timers)) != NULL) {
        if (x->when > loop->now || x->order >= limit) {
            break;
        }
        struct loop_timer *t = TIMER_OF(x);
        if (t->period > 0) {
            uint64_t due = x->when + t->period;
            if (due <= loop->now) {
                due = loop->now + t->period; /* we fell behind: do not burst */
            }
            ccnx_heap_set(&loop->timers, x, due); /* in already: cannot fail */
        } else {
            ccnx_heap_remove(&loop->timers, x);
        }
        t->cb(loop, t->arg);
        ran++;
    }
    return ran;
}

static int next_timeout_ms(const struct loop *loop, int timeout_ms)
{
    if (ccnx_heap_top(&loop->timers) == NULL) {
        return timeout_ms;
    }
    uint64_t due = ccnx_heap_next(&loop->timers);
    uint64_t wait = due > loop->now ? due - loop->now : 0;
    uint64_t ms = (wait + 999) / 1000;
    if (timeout_ms >= 0 && ms > (uint64_t)timeout_ms) {
        return timeout_ms;
    }
    return ms > 1000000 ? 1000000 : (int)ms;
}

/* ---- signals ---- */

static void signal_ready(struct loop *loop, int fd, unsigned events, void *arg)
{
    (void)events;
    (void)arg;
    struct signalfd_siginfo si;
    while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        if (loop->sigcb != NULL) {
            loop->sigcb(loop, (int)si.ssi_signo, loop->sigarg);
        }
    }
}

int loop_signals(struct loop *loop, loop_signal_cb cb, void *arg)
{
    loop->sigcb = cb;
    loop->sigarg = arg;
    if (loop->sigfd >= 0) {
        return 0;
    }
    struct sigaction ign;
    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    if (sigaction(SIGPIPE, &ign, &loop->oldpipe) != 0) {
        return CCNX_E_IO;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    if (sigprocmask(SIG_BLOCK, &set, &loop->oldmask) != 0) {
        return CCNX_E_IO;
    }
    loop->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (loop->sigfd < 0 || loop_io_add(loop, loop->sigfd, LOOP_READ, signal_ready, NULL) != 0) {
        if (loop->sigfd >= 0) {
            close(loop->sigfd);
            loop->sigfd = -1;
        }
        sigprocmask(SIG_SETMASK, &loop->oldmask, NULL);
        return CCNX_E_IO;
    }
    return 0;
}

/* ---- running ---- */

static int dispatch_fds(struct loop *loop, const struct epoll_event *ev, int n)
{
    int ran = 0;
    for (int i = 0; i < n; i++) {
        int fd = (int)(uint32_t)ev[i].data.u64;
        uint32_t gen = (uint32_t)(ev[i].data.u64 >> 32);
        struct loop_watch *w = watch_get(loop, fd);
        if (w == NULL || w->gen != gen) {
            continue; /* removed by an earlier callback of this batch */
        }
        unsigned events = 0;
        uint32_t e = ev[i].events;
        if (e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
            events |= w->events & LOOP_READ;
        }
        if (e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) {
            events |= w->events & LOOP_WRITE;
        }
        if (e & (EPOLLHUP | EPOLLERR)) {
            events |= LOOP_ERROR;
        }
        if (events != 0) {
            w->cb(loop, fd, events, w->arg);
            ran++;
        }
    }
    return ran;
}

int loop_run_once(struct loop *loop, int timeout_ms)
{
    struct epoll_event ev[LOOP_MAX_EVENTS];
    loop_update_time(loop);
    int ran = run_timers(loop);
    int wait = ran > 0 ? 0 : next_timeout_ms(loop, timeout_ms);
    int n = epoll_wait(loop->epfd, ev, LOOP_MAX_EVENTS, wait);
    if (n < 0) {
        if (errno != EINTR) {
            return CCNX_E_IO;
        }
        n = 0;
    }
    loop_update_time(loop);
    ran += dispatch_fds(loop, ev, n);
    ran += run_timers(loop);
    return ran;
}

int loop_run(struct loop *loop)
{
    loop->stopped = 0;
    while (!loop->stopped) {
        int res = loop_run_once(loop, -1);
        if (res < 0) {
            return res;
        }
    }
    return 0;
}

void loop_stop(struct loop *loop)
{
    loop->stopped = 1;
}
