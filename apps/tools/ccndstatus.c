/* ccndstatus: print the status of a running ccnd. As the reference tool,
 * it fetches the status page over HTTP from the ccnd TCP port and prints it
 * as text (the HTML without its markup); -x and -j print the XML and JSON
 * forms unchanged. */
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

#include "tool.h"

#define FETCH_TIMEOUT_S 10
#define MAX_PAGE        (16u << 20)

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-T host] [-x | -j]\n"
            "Print the status of a running ccnd: the page http://host:port/ as text.\n"
            "\n"
            "  -T host     ask the ccnd on host (default localhost; reachable over TCP)\n"
            "  -x          print the XML form (/?f=xml, CCNDStatus.txt layout)\n"
            "  -j          print the JSON form (/?f=json, docs/ccnd-status.md)\n"
            "  -h, --help  show this help\n"
            "\n"
            "Environment: CCN_LOCAL_PORT is the port of ccnd (default 9695).\n"
            "Exit status: 0 printed, 1 no answer from ccnd, 2 usage.\n",
            tool_name());
}

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
static void fetch(const char *host, const char *port, const char *target, struct ccnx_buf *body)
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

/* The HTML without its markup, entities decoded; what a browser shows,
 * roughly, as the reference tool prints it. */
static void print_text(const char *s)
{
    static const struct {
        const char *ent;
        char c;
    } ents[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&#39;", '\''}, {"&quot;", '"'}};
    int in_tag = 0, in_head = 0;
    for (const char *p = s; *p != '\0'; p++) {
        if (*p == '<') {
            in_tag = 1;
            if (strncmp(p, "<head>", 6) == 0) {
                in_head = 1;
            } else if (strncmp(p, "</head>", 7) == 0) {
                in_head = 0;
            }
            continue;
        }
        if (in_tag) {
            in_tag = *p != '>';
            continue;
        }
        if (in_head) {
            continue;
        }
        size_t k = 0;
        for (; *p == '&' && k < sizeof ents / sizeof ents[0]; k++) {
            size_t n = strlen(ents[k].ent);
            if (strncmp(p, ents[k].ent, n) == 0) {
                putchar(ents[k].c);
                p += n - 1;
                break;
            }
        }
        if (*p != '&' || k == sizeof ents / sizeof ents[0]) {
            putchar(*p);
        }
    }
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    const char *host = "localhost";
    const char *target = "/";
    for (int i = 1; i < argc; i++) {
        if (tool_is_help(argv[i])) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "-T") == 0) {
            if (++i == argc) {
                tool_usage_error("-T needs a host name");
            }
            host = argv[i];
        } else if (strcmp(argv[i], "-x") == 0) {
            target = "/?f=xml";
        } else if (strcmp(argv[i], "-j") == 0) {
            target = "/?f=json";
        } else {
            tool_usage_error("unknown argument '%s'", argv[i]);
        }
    }
    const char *port = getenv("CCN_LOCAL_PORT");
    if (port == NULL || port[0] == '\0') {
        port = "9695";
    }
    if (strspn(port, "0123456789") != strlen(port) || strlen(port) > 5) {
        tool_usage_error("CCN_LOCAL_PORT='%s' is not a port number", port);
    }
    struct ccnx_buf body = CCNX_BUF_INIT;
    fetch(host, port, target, &body);
    const char *s = ccnx_buf_cstr(&body);
    if (s == NULL) {
        tool_die("out of memory");
    }
    if (strcmp(target, "/") == 0) {
        print_text(s);
    } else {
        fputs(s, stdout);
    }
    ccnx_buf_free(&body);
    return fflush(stdout) == 0 ? 0 : TOOL_EXIT_FAILURE;
}
