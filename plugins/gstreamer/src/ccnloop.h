/* A thread that drives one ccnx_client for an element. The client library
 * is not thread-safe, so everything that touches the client runs on this
 * thread: other threads hand work to it with ccngst_loop_call (the
 * streaming thread's buffers, state changes, property reads). */
#ifndef CCNGST_LOOP_H
#define CCNGST_LOOP_H

#include <ccnx/client.h>

typedef void (*ccngst_loop_fn)(void *arg);

struct ccngst_loop;

/* Connects a client to the local ccnd and starts the thread. NULL on
 * failure, with a sentence for the user in *error (free with g_free):
 * which socket was tried and how to start ccnd. */
struct ccngst_loop *ccngst_loop_start(const char *thread_name, char **error);
/* Stops the thread (after the calls queued so far) and destroys the client.
 * Call `last` (may be NULL) on the loop thread first, to free what uses
 * the client. */
void ccngst_loop_stop(struct ccngst_loop *l, ccngst_loop_fn last, void *arg);

/* The client: use it only on the loop thread (inside a call). */
struct ccnx_client *ccngst_loop_client(struct ccngst_loop *l);

/* Runs fn(arg) on the loop thread soon; returns at once. */
void ccngst_loop_call(struct ccngst_loop *l, ccngst_loop_fn fn, void *arg);
/* Runs fn(arg) on the loop thread and waits for it (also fine from the
 * loop thread itself, where it runs at once). */
void ccngst_loop_call_sync(struct ccngst_loop *l, ccngst_loop_fn fn, void *arg);

#endif
