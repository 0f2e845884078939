/* ccndstatus: print the status of a running ccnd. As the reference tool,
 * it fetches the status page over HTTP from the ccnd TCP port and prints it
 * as text (the HTML without its markup); -x and -j print the XML and JSON
 * forms unchanged. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ccnx/buf.h>

#include "http_get.h"
#include "tool.h"

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
    tool_http_get(host, port, target, &body);
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
