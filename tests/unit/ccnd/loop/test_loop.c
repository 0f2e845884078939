/* Event loop: timers, fd watchers, signals. */
#define _GNU_SOURCE
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <ccnx/error.h>

#include "loop/loop.h"

struct tick {
    int fired;
    uint64_t at[8];
    struct loop_timer *other; /* cancelled from the callback when set */
    struct loop_timer *self;
};

static void on_tick(struct loop *loop, void *arg)
{
    struct tick *t = arg;
    if (t->fired < 8) {
        t->at[t->fired] = loop_now(loop);
    }
    t->fired++;
    if (t->other != NULL) {
        loop_timer_stop(loop, t->other);
    }
}

static void run_for(struct loop *loop, uint64_t us)
{
    uint64_t end = loop_update_time(loop) + us;
    while (loop_update_time(loop) < end) {
        loop_run_once(loop, 5);
    }
}

static void test_timers(void **state)
{
    (void)state;
    struct loop *loop = loop_create();
    assert_non_null(loop);
    struct tick once = {0}, periodic = {0}, cancelled = {0};
    struct loop_timer t1, t2, t3;
    loop_timer_init(&t1, on_tick, &once);
    loop_timer_init(&t2, on_tick, &periodic);
    loop_timer_init(&t3, on_tick, &cancelled);
    uint64_t start = loop_now(loop);
    assert_int_equal(loop_timer_start(loop, &t1, 20000, 0), 0);
    assert_int_equal(loop_timer_start(loop, &t2, 10000, 10000), 0);
    assert_int_equal(loop_timer_start(loop, &t3, 30000, 0), 0);
    loop_timer_stop(loop, &t3);
    assert_false(loop_timer_active(&t3));
    run_for(loop, 80000);
    assert_int_equal(once.fired, 1);
    assert_true(once.at[0] >= start + 20000);
    assert_false(loop_timer_active(&t1));
    assert_int_equal(cancelled.fired, 0);
    assert_true(periodic.fired >= 4 && periodic.fired <= 8);
    for (int i = 1; i < 4; i++) {
        assert_true(periodic.at[i] > periodic.at[i - 1]);
    }
    loop_timer_stop(loop, &t2);
    loop_destroy(loop);
}

/* Many timers with shuffled delays fire in order of their due times. */
static uint64_t order_last;
static int order_bad;
static void on_order(struct loop *loop, void *arg)
{
    (void)loop;
    uint64_t due = (uint64_t)(uintptr_t)arg;
    if (due < order_last) {
        order_bad = 1;
    }
    order_last = due;
}

static void test_timer_heap_order(void **state)
{
    (void)state;
    struct loop *loop = loop_create();
    enum { N = 200 };
    static struct loop_timer t[N];
    for (unsigned i = 0; i < N; i++) {
        uint64_t delay = (i * 7919u) % 50u * 100u;
        loop_timer_init(&t[i], on_order, (void *)(uintptr_t)delay);
        loop_timer_start(loop, &t[i], delay, 0);
    }
    for (unsigned i = 0; i < N; i += 3) {
        loop_timer_stop(loop, &t[i]);
    }
    run_for(loop, 20000);
    assert_int_equal(order_bad, 0);
    for (unsigned i = 0; i < N; i++) {
        assert_false(loop_timer_active(&t[i]));
    }
    loop_destroy(loop);
}

/* A callback that cancels a timer due in the same iteration. */
static void test_timer_cancel_from_callback(void **state)
{
    (void)state;
    struct loop *loop = loop_create();
    struct tick a = {0}, b = {0};
    struct loop_timer ta, tb;
    loop_timer_init(&ta, on_tick, &a);
    loop_timer_init(&tb, on_tick, &b);
    a.other = &tb;
    loop_timer_start(loop, &ta, 1000, 0);
    loop_timer_start(loop, &tb, 1000, 0);
    run_for(loop, 10000);
    assert_int_equal(a.fired, 1);
    assert_int_equal(b.fired, 0);
    loop_destroy(loop);
}

struct io_rec {
    int reads, writes;
    char data[16];
    int remove_self;
};

static void on_io(struct loop *loop, int fd, unsigned events, void *arg)
{
    struct io_rec *r = arg;
    if (events & LOOP_READ) {
        r->reads++;
        ssize_t n = read(fd, r->data, sizeof(r->data) - 1);
        if (n > 0) {
            r->data[n] = '\0';
        }
    }
    if (events & LOOP_WRITE) {
        r->writes++;
        loop_io_set(loop, fd, 0);
    }
    if (r->remove_self) {
        loop_io_remove(loop, fd);
    }
}

static void test_fd_events(void **state)
{
    (void)state;
    struct loop *loop = loop_create();
    int p[2];
    assert_int_equal(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    struct io_rec rd = {0}, wr = {0};
    assert_int_equal(loop_io_add(loop, p[0], LOOP_READ, on_io, &rd), 0);
    assert_int_equal(loop_io_add(loop, p[0], LOOP_READ, on_io, &rd), CCNX_E_INVAL);
    assert_int_equal(loop_io_add(loop, p[1], LOOP_WRITE, on_io, &wr), 0);
    loop_run_once(loop, 50);
    assert_int_equal(wr.writes, 1);
    assert_int_equal(rd.reads, 0);
    assert_int_equal(write(p[1], "hello", 5), 5);
    loop_run_once(loop, 50);
    assert_int_equal(rd.reads, 1);
    assert_string_equal(rd.data, "hello");
    /* Write interest was switched off by the callback. */
    loop_run_once(loop, 10);
    assert_int_equal(wr.writes, 1);
    /* Removal from inside the callback. */
    rd.remove_self = 1;
    assert_int_equal(write(p[1], "x", 1), 1);
    loop_run_once(loop, 50);
    assert_int_equal(rd.reads, 2);
    assert_int_equal(write(p[1], "y", 1), 1);
    loop_run_once(loop, 10);
    assert_int_equal(rd.reads, 2);
    assert_int_equal(loop_io_remove(loop, p[0]), CCNX_E_NOTFOUND);
    assert_int_equal(loop_io_remove(loop, p[1]), 0);
    close(p[0]);
    close(p[1]);
    loop_destroy(loop);
}

struct sigrec {
    int signo[4];
    int n;
};

static void on_signal(struct loop *loop, int signo, void *arg)
{
    struct sigrec *r = arg;
    if (r->n < 4) {
        r->signo[r->n++] = signo;
    }
    if (signo == SIGTERM) {
        loop_stop(loop);
    }
}

static void on_raise(struct loop *loop, void *arg)
{
    (void)loop;
    raise((int)(intptr_t)arg);
}

static void test_signals(void **state)
{
    (void)state;
    struct loop *loop = loop_create();
    struct sigrec r = {0};
    assert_int_equal(loop_signals(loop, on_signal, &r), 0);
    raise(SIGHUP);
    loop_run_once(loop, 100);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.signo[0], SIGHUP);
    /* SIGPIPE is ignored: writing to a pipe without reader gives EPIPE. */
    int p[2];
    assert_int_equal(pipe(p), 0);
    close(p[0]);
    assert_int_equal(write(p[1], "x", 1), -1);
    assert_int_equal(errno, EPIPE);
    close(p[1]);
    /* loop_run returns once SIGTERM arrives. */
    struct loop_timer t;
    loop_timer_init(&t, on_raise, (void *)(intptr_t)SIGTERM);
    loop_timer_start(loop, &t, 1000, 0);
    assert_int_equal(loop_run(loop), 0);
    assert_int_equal(r.n, 2);
    assert_int_equal(r.signo[1], SIGTERM);
    loop_destroy(loop);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timers),
        cmocka_unit_test(test_timer_heap_order),
        cmocka_unit_test(test_timer_cancel_from_callback),
        cmocka_unit_test(test_fd_events),
        cmocka_unit_test(test_signals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
