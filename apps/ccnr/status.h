/* The status server: the repository's figures over HTTP on
 * CCNR_STATUS_PORT (CCNR_LISTEN_ON's addresses), as an HTML page (GET /)
 * and as JSON (GET /?f=json). It shares the daemon's one thread: every
 * socket is non-blocking and polled by the main loop, a client has
 * CCNR_STATUS_CLIENT_MS to send its request and read the reply, at most
 * CCNR_STATUS_MAX_CLIENTS are served at once (further connections wait in
 * the listen queue), and a request is at most CCNR_STATUS_REQUEST_MAX
 * bytes; one reply per connection, then it is closed. */
#ifndef CCNR_STATUS_H
#define CCNR_STATUS_H

#include "ccnr.h"

#include <poll.h>

#define CCNR_STATUS_MAX_LISTEN  8
#define CCNR_STATUS_MAX_CLIENTS 4
#define CCNR_STATUS_MAX_FDS     (CCNR_STATUS_MAX_LISTEN + CCNR_STATUS_MAX_CLIENTS)
#define CCNR_STATUS_REQUEST_MAX 2048
#define CCNR_STATUS_CLIENT_MS   3000

struct ccnr_status;

/* Listens when r->set.status_port is set: 0 with *out the server (NULL
 * when no status port is set), or -1 with a sentence in err naming the
 * setting to change. Allocates; ccnr_status_close frees. */
int ccnr_status_open(struct ccnr *r, struct ccnr_status **out, char *err, size_t errlen);
/* Closes every socket; st may be NULL. */
void ccnr_status_close(struct ccnr_status *st);

/* For the main loop's poll(): fills p[0..CCNR_STATUS_MAX_FDS) (fd -1 for
 * the unused places) and returns the count, 0 when st is NULL. */
size_t ccnr_status_poll_fill(const struct ccnr_status *st, struct pollfd *p);
/* The longest the loop may sleep before a client's time runs out (-1:
 * none waits). */
int ccnr_status_timeout_ms(const struct ccnr_status *st);
/* Accepts, reads, answers and closes after poll() filled the revents of
 * what ccnr_status_poll_fill gave it; never blocks. */
void ccnr_status_process(struct ccnr_status *st, const struct pollfd *p);

#endif
