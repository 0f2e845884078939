/* Helpers for integration tests that run real ccnd processes: private
 * ports, socket names and keystores in a temp folder; reading and writing
 * whole messages with a time budget; registering a prefix as a client. */
#ifndef CCNX_CCNDTEST_H
#define CCNX_CCNDTEST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ccnx/buf.h>

struct ccnx_key;

struct tu_ccnd {
    pid_t pid;
    char dir[64];   /* temp folder: keystore, socket */
    char stem[80];  /* CCN_LOCAL_SOCKNAME */
    char sock[100]; /* the socket path ccnd listens on: <stem>.<port> */
    char port[16];  /* CCN_LOCAL_PORT */
};

/* Starts build/bin/ccnd (CCNX_BIN) on a port of its own: offset keeps several
 * forwarders of one test apart. Waits until it accepts connections. */
void tu_ccnd_start(struct tu_ccnd *d, unsigned offset);
/* The same inside network namespace netns (made by the test; needs root). */
void tu_ccnd_start_in(struct tu_ccnd *d, unsigned offset, const char *netns);
/* SIGTERM, then checks ccnd exited 0 (a clean shutdown) and removes its folder. */
void tu_ccnd_stop(struct tu_ccnd *d);
/* A new client connection on ccnd's unix socket. */
int tu_ccnd_connect(const struct tu_ccnd *d);
/* Runs "$CCNX_BIN/ccndc ARGS" against d; returns its exit status. */
int tu_ccndc(const struct tu_ccnd *d, const char *args);

void tu_send_all(int fd, const uint8_t *p, size_t n);
/* Reads one whole ccnb element (5 s budget, fails the test naming `what`). */
void tu_read_element(int fd, struct ccnx_buf *out, const char *what);
/* 1 if a whole element arrives within ms (stored in out), else 0. */
int tu_try_read_element(int fd, struct ccnx_buf *out, int ms);
/* Registers prefix_uri for the client connection fd (selfreg signed with key). */
void tu_selfreg(int fd, const char *prefix_uri, const struct ccnx_key *key);
/* An Interest for uri (no selectors). */
void tu_interest(struct ccnx_buf *out, const char *uri);
/* A DATA object named uri with the given text, signed with key. */
void tu_content(struct ccnx_buf *out, const char *uri, const char *text,
                const struct ccnx_key *key);

#endif
