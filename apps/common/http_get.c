/* A small HTTP GET for the tools that read ccnd's status page. */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <ccnx/buf.h>

#include "http_get.h"
#include "tool.h"

#define FETCH_TIMEOUT_S 10
#define MAX_PAGE        (16u << 20)

static int connect_to(const char *host, const char *port)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) != 0) {
        tool_die("cannot resolve host '%s': check the name given to -T", host);
    }
    int fd = -1;
    for (struct addrinfo *ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            continue;
        }
        struct timeval tv = {FETCH_TIMEOUT_S, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    return fd;
}

/* Fetches target and leaves the body (without the HTTP header) in body. */
void tool_http_get(const char *host, const char *port, const char *target, struct ccnx_buf *body)
{
    int fd = connect_to(host, port);
    if (fd < 0) {
        tool_die("no ccnd answering on %s port %s: start it with ccndstart (or set "
                 "CCN_LOCAL_PORT to the port it uses)",
                 host, port);
    }
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n",
                     target, host);
    if (write(fd, req, (size_t)n) != n) {
        tool_die("cannot send the request to %s port %s: %s", host, port, strerror(errno));
    }
    struct ccnx_buf all = CCNX_BUF_INIT;
    for (;;) {
        uint8_t *p = ccnx_buf_reserve(&all, 65536);
        ssize_t got = p != NULL ? read(fd, p, 65536) : -1;
        if (got <= 0) {
            if (got < 0) {
                tool_die("no complete answer from %s port %s within %d s: %s", host, port,
                         FETCH_TIMEOUT_S, p == NULL ? "out of memory" : strerror(errno));
            }
            break;
        }
        all.len += (size_t)got;
        if (all.len > MAX_PAGE) {
            tool_die("the answer from %s port %s is too large", host, port);
        }
    }
    close(fd);
    const char *s = ccnx_buf_cstr(&all);
    const char *sep = s != NULL ? strstr(s, "\r\n\r\n") : NULL;
    if (s == NULL || strncmp(s, "HTTP/1.", 7) != 0 || sep == NULL) {
        tool_die("%s port %s did not answer as ccnd does: is it a ccnd?", host, port);
    }
    if (strncmp(s + 8, " 200", 4) != 0) {
        tool_die("ccnd on %s port %s refused %s (%.*s)", host, port, target,
                 (int)strcspn(s + 9, "\r\n"), s + 9);
    }
    ccnx_buf_append(body, sep + 4, all.len - (size_t)(sep + 4 - s));
    ccnx_buf_free(&all);
}
