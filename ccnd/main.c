/* ccnd: the CCNx forwarder. Settings come from the environment (see
 * `man ccnd`); this file only handles the command line. */
#include "ccnd.h"
#include "config.h"

#include <ccnx/local.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: ccnd [-h]\n"
                 "The CCNx forwarder. It listens on a unix socket (/tmp/.ccnd.sock) and on\n"
                 "TCP and UDP port 9695, and runs until SIGTERM or SIGINT. Settings come from\n"
                 "the environment:\n"
                 "  CCN_LOCAL_PORT      TCP/UDP port, also suffixes the socket name (9695)\n"
                 "  CCN_LOCAL_SOCKNAME  unix socket name stem (/tmp/.ccnd.sock)\n"
                 "  CCND_CAP            content store capacity, in objects\n"
                 "  CCND_DEBUG          logging bits (0 quiet, 1 basic, -1 everything)\n"
                 "  CCND_DEFAULT_TIME_TO_STALE, CCND_MAX_TIME_TO_STALE   staleness, seconds\n"
                 "  CCND_LISTEN_ON      addresses to listen on (default: all)\n"
                 "  CCND_PIT_LIMIT      most Interests pending, shared fairly among faces\n"
                 "  CCND_AUTOREG        prefixes registered on every new network face\n"
                 "  CCND_PREFIX         stem of the guest prefixes given to peers\n"
                 "  CCND_MAX_RTE_MICROSEC  ceiling on predicted response times (160000)\n"
                 "  CCND_MTU            pack datagrams up to this many bytes (0: off)\n"
                 "Usually started with ccndstart. See ccnd(1).\n");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        fprintf(stderr, "ccnd: unknown argument '%s'\n", argv[i]);
        usage(stderr);
        return 2;
    }
    char err[512] = "";
    struct ccnd_config cfg;
    if (ccnd_config_from_env(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "ccnd: %s\n", err);
        return 1;
    }
    struct ccnd *d = ccnd_create(&cfg, err, sizeof err);
    if (d == NULL) {
        fprintf(stderr, "ccnd: %s\n", err);
        return 1;
    }
    /* Listening: a service manager waiting on ccnd (Type=notify) may start
     * what needs it. */
    if (ccnx_local_notify(getenv("NOTIFY_SOCKET"), "READY=1") != 0) {
        fprintf(stderr, "ccnd: could not tell the service manager it is ready (NOTIFY_SOCKET)\n");
    }
    int res = ccnd_run(d);
    ccnx_local_notify(getenv("NOTIFY_SOCKET"), "STOPPING=1");
    ccnd_destroy(d);
    return res == 0 ? 0 : 1;
}
