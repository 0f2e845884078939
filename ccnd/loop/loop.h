/* The forwarder's event loop: epoll fd watchers, a timer heap, a cached
 * monotonic clock and signals delivered as ordinary events.
 *
 * Single-threaded. Every callback may add, change or remove any watcher or
 * timer, including the one being dispatched. Times are microseconds.
 */
#ifndef CCND_LOOP_H
#define CCND_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/heap.h>

struct loop;

#define LOOP_READ  1u
#define LOOP_WRITE 2u
/* Reported with LOOP_READ/LOOP_WRITE when the fd has an error or hang-up. */
#define LOOP_ERROR 4u

typedef void (*loop_io_cb)(struct loop *loop, int fd, unsigned events, void *arg);
typedef void (*loop_timer_cb)(struct loop *loop, void *arg);
typedef void (*loop_signal_cb)(struct loop *loop, int signo, void *arg);

/* A timer lives in the caller's memory (embed it in the object it serves),
 * so starting and stopping never allocate; fields are private. */
struct loop_timer {
    loop_timer_cb cb;
    void *arg;
    struct ccnx_heap_node node; /* when: the loop_now() value at which it fires;
                                 * equal ones fire in start order */
    uint64_t period;            /* 0 for one-shot */
};

/* Allocates a loop; NULL on failure (errno set). */
struct loop *loop_create(void);
/* Frees the loop and its fd watchers; restores the signal mask and
 * dispositions loop_signals changed. Caller-owned timers are just forgotten. */
void loop_destroy(struct loop *loop);

/* Monotonic clock cached at the start of each iteration (cheap to call often). */
uint64_t loop_now(const struct loop *loop);
/* Re-reads the clock (after a long computation inside a callback). */
uint64_t loop_update_time(struct loop *loop);

/* Watches fd for `events` (LOOP_READ|LOOP_WRITE, may be 0). Returns 0 or a
 * negative CCNX_E* code (CCNX_E_INVAL if fd is already watched). */
int loop_io_add(struct loop *loop, int fd, unsigned events, loop_io_cb cb, void *arg);
/* Changes the events of the watcher on fd; 0 or a negative code. */
int loop_io_set(struct loop *loop, int fd, unsigned events);
/* Stops watching fd (does not close it). Safe from any callback; a pending
 * event for fd in the current batch is then not delivered. */
int loop_io_remove(struct loop *loop, int fd);

void loop_timer_init(struct loop_timer *t, loop_timer_cb cb, void *arg);
/* (Re)starts t to fire after delay_us, then every period_us if period_us > 0. */
int loop_timer_start(struct loop *loop, struct loop_timer *t, uint64_t delay_us,
                     uint64_t period_us);
/* Cancels t if pending; harmless otherwise. */
void loop_timer_stop(struct loop *loop, struct loop_timer *t);
int loop_timer_active(const struct loop_timer *t);

/* Delivers SIGTERM, SIGINT and SIGHUP to cb through the loop (signalfd),
 * and ignores SIGPIPE so a dead peer only ever shows up as EPIPE.
 * Blocks those signals in the calling thread. 0 or a negative code. */
int loop_signals(struct loop *loop, loop_signal_cb cb, void *arg);

/* Runs until loop_stop. Returns 0, or a negative code if epoll fails. */
int loop_run(struct loop *loop);
/* One iteration: waits at most timeout_ms (-1 = until the next timer or
 * event, 0 = poll), dispatches what is ready. Returns the number of
 * callbacks run, or a negative code. */
int loop_run_once(struct loop *loop, int timeout_ms);
/* Makes loop_run return after the current iteration. */
void loop_stop(struct loop *loop);

#endif
