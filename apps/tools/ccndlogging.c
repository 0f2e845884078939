/* ccndlogging: change the log level (CCND_DEBUG) of a running ccnd through
 * its status page URL /?l=<level>, as the reference tool does. Levels:
 * none 0, low 1, co 4 (ContentObjects), med 71, high -1 (everything). */
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
            "Usage: %s [-T host] ( none | low | co | med | high )\n"
            "Change the log level of a running ccnd (its CCND_DEBUG setting).\n"
            "\n"
            "  none        no messages (0)\n"
            "  low         basic messages (1)\n"
            "  co          ContentObjects, not Interests (4)\n"
            "  med         basic, Interests, ContentObjects, timestamps (71)\n"
            "  high        everything (-1)\n"
            "  -T host     change the ccnd on host (default localhost; reachable over TCP)\n"
            "  -h, --help  show this help\n"
            "\n"
            "Environment: CCN_LOCAL_PORT is the port of ccnd (default 9695).\n"
            "Exit status: 0 changed, 1 no answer from ccnd, 2 usage.\n",
            tool_name());
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    const char *host = "localhost";
    const char *level = NULL;
    static const char *const levels[] = {"none", "low", "co", "med", "high"};
    for (int i = 1; i < argc; i++) {
        if (tool_is_help(argv[i])) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "-T") == 0) {
            if (++i == argc) {
                tool_usage_error("-T needs a host name");
            }
            host = argv[i];
        } else if (level == NULL) {
            level = argv[i];
        } else {
            tool_usage_error("one level only: '%s' is extra", argv[i]);
        }
    }
    int known = 0;
    for (size_t k = 0; level != NULL && k < sizeof levels / sizeof levels[0]; k++) {
        known |= strcmp(level, levels[k]) == 0;
    }
    if (!known) {
        tool_usage_error("give one level: none, low, co, med or high");
    }
    const char *port = getenv("CCN_LOCAL_PORT");
    if (port == NULL || port[0] == '\0') {
        port = "9695";
    }
    if (strspn(port, "0123456789") != strlen(port) || strlen(port) > 5) {
        tool_usage_error("CCN_LOCAL_PORT='%s' is not a port number", port);
    }
    char target[32];
    snprintf(target, sizeof target, "/?l=%s", level);
    struct ccnx_buf body = CCNX_BUF_INIT;
    tool_http_get(host, port, target, &body);
    /* The answer is "<title>CCND_DEBUG=n</title><tt>CCND_DEBUG=n</tt>". */
    const char *s = ccnx_buf_cstr(&body);
    const char *p = s != NULL ? strstr(s, "CCND_DEBUG=") : NULL;
    if (p == NULL) {
        tool_die("ccnd on %s port %s did not confirm the change", host, port);
    }
    printf("%.*s\n", (int)strcspn(p, "<\r\n"), p);
    ccnx_buf_free(&body);
    return 0;
}
